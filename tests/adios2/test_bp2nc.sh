#!/bin/sh
# climio_bp2nc: BP outputs of the adios2 driver become the netCDF files the other
# drivers write - the same bytes as PnetCDF's file (cmp, ncmpidiff) and the same
# JSON checksums - whatever the writer's and the converter's process counts and
# the BP version (BP5, BP4); the
# writer's MPI-IO hints (header alignment) and the kernel's format carry over;
# netCDF-4 through the netcdf driver dumps the same as the netcdf driver's own
# file; folders convert every output below them; bad input is named.
. "$top_srcdir/tests/adios2/common.sh"
have_driver pnetcdf || skip "the pnetcdf driver is not built"
x="--extras true --nrec 3"

run 2 "$exercise" --driver pnetcdf $x --out pn --json pn.json >log.txt 2>&1 || { cat log.txt; fail "pnetcdf run"; }
run 2 "$exercise" --driver adios2 --iotype blocking_collective $x --out bp2 --json bp2.json >log.txt 2>&1 \
  || { cat log.txt; fail "adios2 run, 2 ranks"; }
run 4 "$exercise" --driver adios2 $x --reopen false --out bp4 --json bp4.json >log.txt 2>&1 \
  || { cat log.txt; fail "adios2 run, 4 ranks"; }
for w in 2 4; do
  for c in 1 3; do
    run $c "$bp2nc" --input bp$w/exercise.nc.bp --output "c$w$c/exercise.nc" --json "c$w$c.json" >log.txt 2>&1 \
      || { cat log.txt; fail "converting the $w-rank output at $c ranks"; }
    same_nc pn/exercise.nc "c$w$c/exercise.nc" "written at $w ranks, converted at $c"
    same_sums pn.json "c$w$c.json" "written at $w ranks, converted at $c"
    json_is "c$w$c.json" 'd["kernel_report"]["files"]' 1 "conversion"
    json_is "c$w$c.json" 'd["kernel_report"]["records"]' 3 "conversion"
    json_is "c$w$c.json" 'd["io"]["format"]' cdf5 "the recorded format"
    json_is "c$w$c.json" 'd["kernel_report"]["seconds"] > 0' True "conversion time"
  done
done
grep -q "^climio_bp2nc: 1 file(s), 3 record(s), 21[0-9]* bytes in [0-9.]* s on 3 process(es): BP read" log.txt \
  || { cat log.txt; fail "the converter's report line"; }
same_sums pn.json bp2.json "the adios2 run's own checksums"
# a BP4 output converts the same (the converter reads with ADIOS2's File engine)
run 2 "$exercise" --driver adios2 --adios2_engine BP4 $x --out b4 --quiet >/dev/null 2>&1 || fail "BP4 run"
run 2 "$bp2nc" --input b4/exercise.nc.bp --quiet >/dev/null 2>&1 || fail "converting BP4"
same_nc pn/exercise.nc b4/exercise.nc "BP4"

# hints: the writer's header alignment reaches the converted file
h="nc_header_align_size=8192;nc_var_align_size=512"
run 2 "$exercise" --driver pnetcdf $x --hints "$h" --out pnh --quiet >/dev/null 2>&1 || fail "pnetcdf run with hints"
run 2 "$exercise" --driver adios2 $x --hints "$h" --out bph --quiet >/dev/null 2>&1 || fail "adios2 run with hints"
run 2 "$bp2nc" --input bph/exercise.nc.bp --quiet >/dev/null 2>&1 || fail "converting with recorded hints"
same_nc pnh/exercise.nc bph/exercise.nc "with hints"
cmp -s pn/exercise.nc pnh/exercise.nc && fail "the hints changed nothing: the test proves nothing"

# a folder: every output below it, the tree mirrored
mkdir -p tree/a/b && cp -r bp2/exercise.nc.bp tree/a/b/ && cp -r bp4/exercise.nc.bp tree/
run 2 "$bp2nc" --input tree --output conv --json tree.json >log.txt 2>&1 || { cat log.txt; fail "folder"; }
json_is tree.json 'd["kernel_report"]["files"]' 2 "folder"
same_nc pn/exercise.nc conv/exercise.nc "folder"
same_nc pn/exercise.nc conv/a/b/exercise.nc "folder, nested"

# netCDF-4 through the netcdf driver: the same dump as the netcdf driver's file
if have_driver netcdf && [ -n "$NCDUMP" ]; then
  nc="--driver netcdf --iotype blocking_collective --format nc4"
  run 2 "$exercise" $nc $x --out n4 --quiet >/dev/null 2>&1 || fail "netcdf run"
  run 2 "$bp2nc" $nc --input bp2/exercise.nc.bp --output c4/exercise.nc --quiet >/dev/null 2>&1 || fail "to nc4"
  "$NCDUMP" n4/exercise.nc | sed 1d >a.cdl
  "$NCDUMP" c4/exercise.nc | sed 1d >b.cdl
  diff a.cdl b.cdl >/dev/null || { diff a.cdl b.cdl | head; fail "netCDF-4: the dumps differ"; }
fi

expect_fail 2 "nowhere.bp: no such BP output" "$bp2nc" --input nowhere.bp
mkdir empty
expect_fail 1 "empty: no BP output (*.bp folder) below this folder" "$bp2nc" --input empty
expect_fail 1 "give the BP output to convert" "$bp2nc"
expect_fail 1 "--driver adios2 would write BP again" "$bp2nc" --input bp2/exercise.nc.bp --driver adios2
! grep -q "error: climio_bp2nc:" "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt"; fail "the program named twice"; }

# a BP output without its index (a run that stopped before its close): named at
# once, not ADIOS2's wait and 'could not be found within the 0.000000s timeout'
# (nor its open's error lines before ours: the index is looked for before any open)
cp -r bp2/exercise.nc.bp noidx.bp && rm noidx.bp/md.idx
expect_fail 1 "noidx.bp: no md.idx in it: not a whole BP output" "$bp2nc" --input noidx.bp --output noidx.nc
[ ! -e noidx.nc ] || fail "no md.idx: an output was written"
! grep -q "ADIOS2" "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt"; fail "no md.idx: ADIOS2's open failed before the index was looked for"; }

# a conversion that fails after its output exists (the file size limit, as a
# user sets it): the output renamed .incomplete and said, not left half-written
# under its name (the limit is one MPI starts under, the output larger)
run 2 "$exercise" --driver adios2 --nx 512 --ny 512 --nz 8 --nrec 2 --out big --quiet >log.txt 2>&1 \
  || { cat log.txt; fail "adios2 run, the large output"; }
set +e
(ulimit -f 8192 && exec timeout 120 "$bp2nc" --input big/exercise.nc.bp --output big.nc >log.txt 2>&1)
rc=$?
set -e
[ $rc != 0 ] && [ $rc != 124 ] && [ $rc != 153 ] || { cat log.txt; fail "ulimit -f: exit status $rc"; }
grep -q "the incomplete file is now big.nc.incomplete" log.txt || { cat log.txt; fail "ulimit -f: not said"; }
[ ! -e big.nc ] && [ -s big.nc.incomplete ] || { ls; fail "ulimit -f: the output not renamed"; }
pass
