#!/bin/sh
# The adios2 driver through engine_exercise at 1, 2 and 4 ranks in every mode it
# has, reopening the file for every record (appended BP steps) or not, waiting
# per field or per file: --verify reads every record back through ADIOS2 (each
# rank its neighbour's part) and passes; bpls sees the steps, the global shapes,
# every writer's blocks and the layout attributes; aggregators, engine
# parameters and BP4; verify_only at another process count; refusals.
. "$top_srcdir/tests/adios2/common.sh"

n=0
for np in 1 2 4; do
  for mode in blocking_collective blocking_independent nonblocking_collective; do
    for reopen in true false; do
      flush=file; [ $reopen = false ] && flush=field
      tag="$np-$mode-$reopen"
      run $np "$exercise" --driver adios2 --iotype $mode --reopen $reopen --flush $flush --extras true --nrec 3 \
        --out "$tag" --verify --json "$tag.json" >log.txt 2>&1 || { cat log.txt; fail "$tag"; }
      json_is "$tag.json" 'd["verify"]["verdict"]' pass "$tag"
      json_is "$tag.json" 'd["verify"]["mismatches"]' 0 "$tag"
      json_is "$tag.json" 'd["io"]["format"]' bp "$tag"
      [ -f "$tag/exercise.nc.bp/md.idx" ] || fail "$tag: no BP output exercise.nc.bp"
      n=$((n + 1))
    done
  done
done
[ $n = 18 ] || fail "$n runs"
# the data do not depend on the process count or mode
same_sums 1-blocking_collective-true.json 4-nonblocking_collective-false.json "1 vs 4 ranks"

# bpls: 3 steps of the record variables, one of the fixed ones, their global shapes
"$BPLS" -la 4-nonblocking_collective-true/exercise.nc.bp >ls.txt || fail "bpls cannot read the output"
grep -Eq '^ *float +temp +3\*\{3, 12, 16\}' ls.txt || { cat ls.txt; fail "temp is not 3 steps of {3, 12, 16}"; }
grep -Eq '^ *double +salt +3\*\{3, 12, 16\}' ls.txt || fail "salt is not 3 steps of {3, 12, 16}"
grep -Eq '^ *double +time +3\*scalar' ls.txt || fail "time is not 3 steps of a scalar"
grep -Eq '^ *int32_t +mask +\{12, 16\}' ls.txt || fail "mask is not one {12, 16} array"
grep -Eq '^ *int16_t +level +3\*\{3\}' ls.txt || fail "level is not 3 steps of {3}"
grep -Eq '^ *double +gmean +scalar' ls.txt || fail "gmean is not a scalar"
grep -q 'string *__climio__/dims *attr *= "time/z/y/x"' ls.txt || fail "the dimension list attribute"
grep -q 'int64_t *__climio__/dimlens *attr *= {-1, 3, 12, 16}' ls.txt || fail "the dimension lengths attribute"
grep -q 'string *__climio__/format *attr *= "cdf5"' ls.txt || fail "engine_exercise's own format is not recorded"
grep -q 'string *temp/long_name *attr' ls.txt || fail "temp's attribute long_name"
# every rank put its own blocks, as they are (temp: 2 slabs per rank)
"$BPLS" -D 4-nonblocking_collective-true/exercise.nc.bp temp >blocks.txt
[ "$(grep -c 'block [0-9]' blocks.txt)" = 24 ] || { cat blocks.txt; fail "temp: not 8 blocks in each of 3 steps"; }

# aggregators and engine parameters reach ADIOS2: two data files; BP4 reads back too
run 3 "$exercise" --driver adios2 --adios2_aggregators 2 --adios2_params AggregationType=EveryoneWritesSerial \
  --extras true --out agg --verify --json agg.json >log.txt 2>&1 || { cat log.txt; fail "aggregators run"; }
json_is agg.json 'd["verify"]["verdict"]' pass "aggregators"
[ -f agg/exercise.nc.bp/data.1 ] && [ ! -f agg/exercise.nc.bp/data.2 ] || { ls agg/exercise.nc.bp; fail "2 aggregators: not data.0 and data.1"; }
grep -q "NumAggregators 2, parameters AggregationType=EveryoneWritesSerial" log.txt || fail "the report line of the driver"
run 2 "$exercise" --driver adios2 --adios2_engine BP4 --extras true --out bp4 --verify --json bp4.json \
  >log.txt 2>&1 || { cat log.txt; fail "BP4 run"; }
json_is bp4.json 'd["verify"]["verdict"]' pass "BP4"
same_sums bp4.json 1-blocking_collective-true.json "BP4 vs BP5"

# an earlier output checked at another process count and mode, nothing written
run 3 "$exercise" --driver adios2 --iotype blocking_collective --extras true --nrec 3 \
  --out 2-nonblocking_collective-true --verify_only --json vo.json >log.txt 2>&1 || { cat log.txt; fail "verify_only"; }
json_is vo.json 'd["verify"]["verdict"]' pass "verify_only"
# ... and a missing one named
expect_fail 2 "exercise.nc.bp for reading" "$exercise" --driver adios2 --out nothing-here --verify_only
# the iotype ADIOS2 cannot do collectively (a rank may make no call at all)
expect_fail 2 "the adios2 driver has no nonblocking_independent mode (use nonblocking_collective: ADIOS2 ends a step" "$exercise" --driver adios2 \
  --iotype nonblocking_independent --out x
expect_fail 1 "it writes: bp" "$exercise" --driver adios2 --format cdf5 --out x
pass
