#!/bin/sh
# PFIO's writers leave the chunk sizes to netCDF-C (pfio_MAPL_demo sets none), so
# pfio_io's netCDF-4 files have the library's default chunking: every variable's
# chunks equal those netCDF-C gives the same variable in a fresh file
# (tests/pfio/chunks_match.py).  --chunking auto (one record-deep chunk, time
# chunked by 1) must differ, so the comparison can fail.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
"$PYTHON" -c 'import netCDF4' 2>/dev/null || skip "python3-netcdf4 is needed ($PYTHON)"
prog="$top_builddir/src/pfio/pfio_io"
small="--im_world 36 --jm_world 19 --km_world 4 --num_steps 2 --num_time_records 2 --quiet true"
run 2 "$prog" $small --output_dir "$TESTTMP/lib" --json "$TESTTMP/lib.json" >"$TESTTMP/lib.txt" 2>&1 \
  || { cat "$TESTTMP/lib.txt"; fail "pfio_io run"; }
[ "$(json_get "$TESTTMP/lib.json" 'd["config"]["chunking"]["value"]')" = default ] || fail "chunking is not netCDF-C's default"
"$prog" --help | grep -e '--chunking' | grep -qF '[default: default with the netcdf driver' || fail "--help: chunking's default is not netCDF-C's"
"$prog" --help | grep -e '--driver ' | grep -qF '[default: netcdf when built' || fail "--help: driver's default is not netcdf"
f=$(ls "$TESTTMP"/lib/*.nc4)
"$PYTHON" "$top_srcdir/tests/pfio/chunks_match.py" "$f" "$TESTTMP/ref.nc" || fail "chunks differ from netCDF-C's defaults (above)"
run 2 "$prog" $small --chunking auto --output_dir "$TESTTMP/auto" >"$TESTTMP/auto.txt" 2>&1 \
  || { cat "$TESTTMP/auto.txt"; fail "pfio_io run with --chunking auto"; }
if "$PYTHON" "$top_srcdir/tests/pfio/chunks_match.py" "$(ls "$TESTTMP"/auto/*.nc4)" "$TESTTMP/ref2.nc" >"$TESTTMP/auto.diff"; then
  fail "--chunking auto gave netCDF-C's default chunks: the comparison cannot tell"
fi
grep -q "time: chunks \[1\]" "$TESTTMP/auto.diff" || { cat "$TESTTMP/auto.diff"; fail "--chunking auto: time not chunked by 1"; }
pass
