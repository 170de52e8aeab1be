#!/bin/sh
# A chunking HDF5 cannot store as asked is said, in the text and in the JSON's
# not_applied: netCDF-4 --chunking contiguous (record variables are chunked one
# record deep, filtered ones are chunked), with and without --deflate.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "needs the netcdf driver"
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
for extra in "" "--deflate 1"; do
  run 1 "$EX" --driver netcdf --format nc4 --nx 8 --ny 8 --nz 2 --out o --mkdir true --chunking contiguous $extra \
    --json r.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "run with chunking contiguous $extra"; }
  grep -qF "chunking contiguous (command line) is not what HDF5 can store for every variable: record variables are chunked one record deep" err.txt \
    || { cat err.txt; fail "chunking contiguous $extra: not said"; }
  [ "$(json_get r.json '[n["key"] for n in d["not_applied"]].count("chunking")')" = 1 ] || fail "not in not_applied ($extra)"
  rm -rf o
done
grep -qF "every filtered variable is chunked" err.txt || fail "with --deflate: the filters' chunks not said"
pass
