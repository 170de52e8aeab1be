#!/bin/sh
# A chunking HDF5 cannot store as asked is said, in the text and in the JSON's
# not_applied: netCDF-4 --chunking contiguous (record variables are chunked one
# record deep, filtered ones are chunked), with and without --deflate; a chunk
# list of a rank no variable has (it applies to none: every variable is chunked as
# auto), through both drivers that chunk; a list that fits is not noted.
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
for d in "netcdf --format nc4" "hdf5"; do
  have_driver ${d%% *} || continue
  run 2 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --mkdir true --chunking 4,4,4 --deflate 1 \
    --verify --json r.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "$d: chunk list of rank 3"; }
  grep -qF "chunking 4,4,4 (command line) gives sizes for variables of 3 dimensions, but no variable written has 3 (they have 1, 2, 4): every variable was stored as chunking auto stores it" err.txt \
    || { cat err.txt; fail "$d: chunk list of a rank no variable has: not said"; }
  [ "$(json_get r.json '[n["key"] for n in d["not_applied"]]')" = "['chunking']" ] || fail "$d: rank 3 list not in not_applied"
  rm -rf o
  run 2 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --mkdir true --chunking 1,2,4,4 --deflate 1 \
    --json r.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "$d: chunk list of rank 4"; }
  ! grep -q "note: chunking" err.txt || { cat err.txt; fail "$d: a list that fits was noted"; }
  [ "$(json_get r.json 'len(d["not_applied"])')" = 0 ] || fail "$d: a list that fits in not_applied"
  rm -rf o
done
pass
