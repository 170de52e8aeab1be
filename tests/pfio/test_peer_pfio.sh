#!/bin/sh
# scripts/peer-pfio's comparison, without MAPL: a stand-in for MAPL's
# pfio_MAPL_demo.x (pfio_io itself, with the options that make it write the
# demo's files, on a small grid) must come out equal in files, headers, sizes,
# writing ranks, netCDF requests and POSIX writes, and --check exit 0; a
# stand-in that writes its time coordinate (6 more netCDF requests a file) must
# be reported DIFFERENT and --check exit 1; a folder without the demo is a
# usage error (exit 2).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
[ -z "$SANITIZER_FLAGS" ] || skip "an LD_PRELOAD library cannot come before the sanitizer runtime"
[ -n "$NCDUMP" ] || skip "ncdump is needed"
small="--im_world 36 --jm_world 19 --km_world 4"
standin() {   # standin DIR EXTRA: a pfio_MAPL_demo.x that runs pfio_io
  mkdir -p "$1"
  printf '#!/bin/sh\nexec "%s" %s --output_dir . --server_poll_us 0 %s "$@"\n' \
    "$top_builddir/src/pfio/pfio_io" "$small" "$2" >"$1/pfio_MAPL_demo.x"
  chmod +x "$1/pfio_MAPL_demo.x"
}
peer() { timeout 600 "$PYTHON" "$top_srcdir/scripts/peer-pfio" "$@" --repetitions 1 --dir "$TESTTMP" \
  --pfio-io-args "$small" --pfio-io "$top_builddir/src/pfio/pfio_io"; }

standin "$TESTTMP/same" "--time_values false"
rc=0
peer "$TESTTMP/same" --configs simple,vector,multigroup --check --json "$TESTTMP/same.json" >"$TESTTMP/same.txt" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$TESTTMP/same.txt"; fail "a stand-in writing the same files: --check exit $rc"; }
for c in simple vector multigroup; do
  [ "$(json_get "$TESTTMP/same.json" "d['configs']['$c']['verdict']")" = equal ] || { cat "$TESTTMP/same.txt"; fail "$c: not equal"; }
done
grep -q '^   writers: MAPL rank 3, pfio_io rank 3$' "$TESTTMP/same.txt" || fail "vector/multigroup: rank 3 should write"
grep -q '^   netcdf:  equal: rank 3 3 files, 45 requests' "$TESTTMP/same.txt" || fail "no netCDF request count"
grep -q '^| simple | equal | MAPL rank 0, pfio_io rank 0 |' "$TESTTMP/same.txt" || fail "no table row for simple"

standin "$TESTTMP/timed" ""
rc=0
peer "$TESTTMP/timed" --configs single --check >"$TESTTMP/timed.txt" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TESTTMP/timed.txt"; fail "a stand-in writing its time coordinate: --check exit $rc, expected 1"; }
grep -q 'DIFFERENT: netCDF requests: rank 2 Nsample_pfio_file_Day0001.nc4: MAPL 21 requests' "$TESTTMP/timed.txt" \
  || { cat "$TESTTMP/timed.txt"; fail "the 6 time requests a file were not reported"; }
grep -q '^| single | different |' "$TESTTMP/timed.txt" || fail "no 'different' row"

rc=0
"$PYTHON" "$top_srcdir/scripts/peer-pfio" "$TESTTMP/nothing-here" >"$TESTTMP/none.txt" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q 'no pfio_MAPL_demo.x there' "$TESTTMP/none.txt" || { cat "$TESTTMP/none.txt"; fail "missing demo: exit $rc"; }
pass
