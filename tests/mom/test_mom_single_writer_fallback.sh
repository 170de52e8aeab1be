#!/bin/sh
# mom_io in a build without the netcdf driver (CI's MPICH build): its default
# single_writer serial (FMS's serial netCDF-C API) falls back to the closest built
# path, the chosen driver on MPI_COMM_SELF, with a note and a not_applied entry,
# and writes the very files --single_writer mpiio writes; asked for by name it is
# refused in a real run, and a dry run still plans.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf && skip "the netcdf driver is built: mom_io takes its serial path (the fallback is for builds without it)"
have_driver pnetcdf || skip "no pnetcdf driver: without netCDF drivers mom_io has no serial netCDF path to fall back from"
mom="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"
cd "$TESTTMP"

run 2 "$mom" "$tiny" --layout 2,1 --io_layout 1,1 --driver pnetcdf --out fb --json fb.json >fb.txt 2>&1 ||
  { cat fb.txt; fail "the default run failed"; }
grep -q "note: single_writer serial (default) needs the netcdf driver, which is not built" fb.txt ||
  { cat fb.txt; fail "no note on the fallback"; }
[ "$(json_get fb.json '[u["key"] for u in d["not_applied"]]')" = "['single_writer']" ] ||
  fail "not_applied: $(json_get fb.json 'd["not_applied"]')"
json_get fb.json 'd["not_applied"][0]["note"]' | grep -q "through the pnetcdf driver on MPI_COMM_SELF" ||
  fail "the JSON note does not say which path ran"
run 2 "$mom" "$tiny" --layout 2,1 --io_layout 1,1 --driver pnetcdf --single_writer mpiio --out self >self.txt 2>&1 ||
  { cat self.txt; fail "the --single_writer mpiio run failed"; }
[ -f fb/ocean.nc ] || fail "the fallback wrote no ocean.nc"
cmp fb/ocean.nc self/ocean.nc || fail "the fallback's file differs from --single_writer mpiio's"

expect_fail 2 "command line: single_writer serial writes one-writer files with the serial netCDF-C API, and no driver with a serial API (netcdf) is built" \
  "$mom" "$tiny" --layout 2,1 --io_layout 1,1 --driver pnetcdf --single_writer serial --out asked
[ ! -e asked/ocean.nc ] || fail "the refused run wrote a file"
"$mom" "$tiny" --dry_run true --nprocs 2 --layout 2,1 --io_layout 1,1 --single_writer serial >dry.txt 2>&1 ||
  { cat dry.txt; fail "a dry run needed the netcdf driver"; }
grep -q "note: single_writer serial (command line) has no effect: it needs a driver with a serial netCDF-C API (netcdf), and none is built" \
  dry.txt || { cat dry.txt; fail "the dry run has no note"; }
pass
