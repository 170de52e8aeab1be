#!/bin/sh
# A chunking HDF5 cannot store as asked is said or refused, never replaced in
# silence, through both drivers that chunk (netcdf nc4, hdf5):
#  - contiguous: HDF5 stores what auto stores (record variables chunked one record
#    deep, filtered ones chunked): said to have no effect, and the bytes are auto's;
#  - a chunk list of a rank no variable has applies to none: said at the end, in
#    the text and in not_applied;
#  - a list that fits some variables: said to apply only in part (partly_applied),
#    naming the ranks stored as auto;
#  - a size longer than a fixed dimension (netCDF-C's NC_EBADCHUNK, HDF5's
#    H5Dcreate error): refused before the file is created, naming the variable, on
#    every rank and in a dry run.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
ran=0
for d in "netcdf --format nc4" "hdf5"; do
  have_driver ${d%% *} || continue
  ran=1
  for extra in "" "--deflate 1"; do
    rm -rf o a
    run 1 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out a $extra >/dev/null 2>&1 || fail "$d $extra: auto"
    run 1 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --chunking contiguous $extra --json r.json \
      >out.txt 2>err.txt || { cat out.txt err.txt; fail "$d: chunking contiguous $extra"; }
    grep -qF "chunking contiguous (command line) has no effect: HDF5 cannot store every variable contiguous, and stores as chunking auto does: record variables chunked one record deep" err.txt \
      || { cat err.txt; fail "$d: chunking contiguous $extra: not said"; }
    [ "$(json_get r.json '[n["key"] for n in d["not_applied"]]')" = "['chunking']" ] || fail "$d: not in not_applied ($extra)"
    f=$(ls o/); [ "$("$H5DUMP" -p "o/$f" | sed "s|o/$f||")" = "$("$H5DUMP" -p "a/$f" | sed "s|a/$f||")" ] \
      || fail "$d $extra: contiguous stored otherwise than auto"
  done
  grep -qF "every filtered variable chunked (filters need chunks)" err.txt || fail "$d: with --deflate: the filters' chunks not said"
  rm -rf o
  run 2 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --chunking 4,4,4 --deflate 1 \
    --verify --json r.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "$d: chunk list of rank 3"; }
  grep -qF "chunking 4,4,4 (command line) has no effect: it gives sizes for variables of 3 dimensions, but no variable written has 3 (they have 1, 2, 4): every variable was stored as chunking auto stores it" err.txt \
    || { cat err.txt; fail "$d: chunk list of a rank no variable has: not said"; }
  [ "$(json_get r.json '[n["key"] for n in d["not_applied"]]')" = "['chunking']" ] || fail "$d: rank 3 list not in not_applied"
  rm -rf o
  run 2 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --chunking 1,2,4,4 --deflate 1 \
    --json r.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "$d: chunk list of rank 4"; }
  [ "$(grep -c "note: chunking" err.txt)" = 1 ] || { cat err.txt; fail "$d: a list that fits some variables: said not once"; }
  grep -qF "chunking 1,2,4,4 (command line) applies only in part: it gives sizes for the variables of 4 dimensions; those of 1, 2 dimensions were stored as chunking auto stores them" err.txt \
    || { cat err.txt; fail "$d: a list that fits some variables: the others not said"; }
  [ "$(json_get r.json 'len(d["not_applied"]), [n["key"] for n in d["partly_applied"]]')" = "0 ['chunking']" ] \
    || fail "$d: a list that fits some variables: $(json_get r.json 'd["not_applied"], d["partly_applied"]')"
  # longer than a fixed dimension: refused before any file, by every rank, also when planned
  for np in 1 2; do
    rm -rf o
    expect_fail $np "command line: chunking 1,2,16,4: variable temp(time, z, y, x) of o/exercise" \
      "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --chunking 1,2,16,4
    grep -qF "16 along y is longer than y's length 8 (netCDF-C and HDF5 refuse a chunk longer than a fixed dimension)" \
      "$TESTTMP/err.txt" || fail "$d: the dimension not named"
    [ -z "$(ls -A o)" ] || fail "$d -n $np: files left by a refused chunking: $(ls -A o)"
  done
  expect_fail 1 "command line: chunking 9,8: variable mask(y, x) of o/exercise" "$EX" --driver $d --nx 8 --ny 8 \
    --nz 2 --out o --chunking 9,8 --dry_run
  # the record dimension has no length to pass: any records a chunk
  rm -rf o
  run 1 "$EX" --driver $d --nx 8 --ny 8 --nz 2 --out o --chunking 5,2,8,8 >out.txt 2>err.txt \
    || { cat err.txt; fail "$d: 5 records a chunk refused"; }
done
[ $ran = 1 ] || skip "no driver that chunks (netcdf, hdf5)"
pass
