#!/bin/sh
# The header MAPL's own pfio_MAPL_demo.x writes (github GEOS-ESM/MAPL, run by
# scripts/peer-pfio; doc/pfio.md), written down as tests/pfio/mapl_demo_header.cdl:
# dimensions and every attribute list in name order (PFIO keeps them in maps
# ordered by name), variables in the order the demo adds them, the demo's
# attribute values and types, NOFILL on every variable, contiguous coordinates
# and netCDF-C's default chunks for the record variables (1 x 36 x 91 x 180 for
# the 360 x 181 x 72 temperature).  pfio_io's file at the demo's grid (one
# record, time left unwritten as the demo leaves it) must have that header,
# line for line, but for the global HISTORY (which names the program that wrote
# the file) and the library's version attributes (_NCProperties,
# _SuperblockVersion).  --chunking auto must differ, so the test can fail.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
[ -n "$NCDUMP" ] || skip "ncdump is needed"
prog="$top_builddir/src/pfio/pfio_io"
one="--num_steps 1 --num_time_records 1 --time_values false --quiet true"
header() {
  "$NCDUMP" -hs "$1" | grep -v -e ':HISTORY = ' -e ':_NCProperties = ' -e ':_SuperblockVersion = '
}
run 2 "$prog" $one --output_dir "$TESTTMP/demo" >"$TESTTMP/demo.txt" 2>&1 || { cat "$TESTTMP/demo.txt"; fail "pfio_io run"; }
header "$TESTTMP/demo/Nsample_pfio_file_Day0001.nc4" >"$TESTTMP/demo.cdl"
diff "$top_srcdir/tests/pfio/mapl_demo_header.cdl" "$TESTTMP/demo.cdl" >"$TESTTMP/diff.txt" \
  || { cat "$TESTTMP/diff.txt"; fail "pfio_io's header differs from the one MAPL's demo writes (above: < MAPL, > pfio_io)"; }
"$NCDUMP" -h "$TESTTMP/demo/Nsample_pfio_file_Day0001.nc4" | grep -q ':HISTORY = "File written by climio pfio_io' \
  || fail "HISTORY does not name pfio_io"
# the same file with one-record chunks: the comparison must see it
run 2 "$prog" $one --chunking auto --output_dir "$TESTTMP/auto" >"$TESTTMP/auto.txt" 2>&1 || { cat "$TESTTMP/auto.txt"; fail "pfio_io --chunking auto run"; }
header "$TESTTMP/auto/Nsample_pfio_file_Day0001.nc4" >"$TESTTMP/auto.cdl"
! diff -q "$top_srcdir/tests/pfio/mapl_demo_header.cdl" "$TESTTMP/auto.cdl" >/dev/null || fail "--chunking auto gave MAPL's header: the test cannot tell"
pass
