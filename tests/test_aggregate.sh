#!/bin/sh
# sanitizers: yes
# PIO-style aggregation (io_tasks, box and subset rearrangers, Alltoallw and
# point-to-point exchange): the same bytes and checksums as without aggregation,
# only the I/O tasks write, files identical to unaggregated ones with every real
# driver built, and --verify passes.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/exercise/engine_exercise"
sums() { json_get "$1" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))'; }
run 3 "$prog" --driver null --out "$TESTTMP/o" --json "$TESTTMP/plain.json" --quiet >/dev/null || fail "plain run"
ref=$(sums "$TESTTMP/plain.json")
bytes=$(json_get "$TESTTMP/plain.json" 'd["write"]["bytes"]["written"]')
for np in 2 3 4; do
  for r in box subset; do
    for x in 0 1; do
      for t in 1 2; do
        j="$TESTTMP/a.json"
        run $np "$prog" --driver null --io_tasks $t --rearranger $r --max_pend_req $x --out "$TESTTMP/o" \
          --json "$j" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "np=$np $r io_tasks=$t"; }
        [ "$(sums "$j")" = "$ref" ] || fail "np=$np $r io_tasks=$t: checksums differ"
        [ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = "$bytes" ] || fail "np=$np $r: bytes"
        [ "$(json_get "$j" 'd["write"]["timers"]["rearrange"]["bytes"]')" = "$bytes" ] || fail "np=$np $r: rearranged bytes"
        # only the I/O tasks create the file
        [ "$(json_get "$j" 'd["write"]["files"]["created"]')" = "$t" ] || fail "np=$np $r: $t I/O tasks should create the file"
        [ "$(json_get "$j" 'd["io"]["aggregation"]["io_tasks"]')" = "$t" ] || fail "aggregation in JSON"
      done
    done
  done
done
# box gives each task one contiguous range: fewer requests than the interleaved compute decomposition
run 4 "$prog" --driver null --io_tasks 2 --out "$TESTTMP/o" --json "$TESTTMP/box.json" --quiet >/dev/null || fail "box 2 of 4"
run 4 "$prog" --driver null --out "$TESTTMP/o" --json "$TESTTMP/none.json" --quiet >/dev/null || fail "none 4"
[ "$(json_get "$TESTTMP/box.json" 'd["write"]["requests"]["count"]')" -lt "$(json_get "$TESTTMP/none.json" 'd["write"]["requests"]["count"]')" ] \
  || fail "box rearrangement should merge requests"
# the dry run predicts the I/O tasks' share with the box rearranger
"$prog" --dry-run --nprocs 4 --io_tasks 2 --json "$TESTTMP/dry.json" >/dev/null || fail "dry run with io_tasks"
run 4 "$prog" --driver null --io_tasks 2 --out "$TESTTMP/o" --json "$TESTTMP/real.json" --quiet >/dev/null || fail "real io_tasks 2"
for k in min max sum; do
  d=$(json_get "$TESTTMP/dry.json" "int(d['per_rank']['bytes_written']['$k'])")
  r=$(json_get "$TESTTMP/real.json" "d['write']['timers']['iput']['bytes']" )
  [ $k = sum ] && { [ "$d" = "$r" ] || fail "dry run with io_tasks: bytes $d, real $r"; }
done
[ "$(json_get "$TESTTMP/dry.json" "int(d['per_rank']['bytes_written']['min'])")" = 0 ] || fail "dry run: non-I/O ranks write nothing"
# a bad value says what was expected
expect_fail 2 "io_tasks expects a positive number of I/O tasks or 'all', found 'two'" "$prog" --io_tasks two
# real files: identical with and without aggregation, and verified
for drv in mpiio pnetcdf netcdf hdf5; do
  have_driver $drv || continue
  case $drv in netcdf|hdf5) mode=blocking_collective ;; *) mode=nonblocking_collective ;; esac
  run 3 "$prog" --driver $drv --iotype $mode --out "$TESTTMP/plain-$drv" --quiet >/dev/null || fail "$drv plain"
  for r in box subset; do
    run 3 "$prog" --driver $drv --iotype $mode --io_tasks 2 --rearranger $r --verify --out "$TESTTMP/agg-$drv-$r" \
      --json "$TESTTMP/v.json" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$drv $r verify"; }
    [ "$(json_get "$TESTTMP/v.json" 'd["verify"]["verdict"]')" = pass ] || fail "$drv $r: verify verdict"
    f=$(ls "$TESTTMP/plain-$drv"/exercise.*)
    case $drv in
      hdf5|netcdf) # HDF5 files differ in metadata layout; compare the data dumps
        "$H5DUMP" -d temp -d salt -d mask "$f" | sed 1d >"$TESTTMP/p.txt"
        "$H5DUMP" -d temp -d salt -d mask "$TESTTMP/agg-$drv-$r/$(basename "$f")" | sed 1d >"$TESTTMP/a.txt"
        cmp -s "$TESTTMP/p.txt" "$TESTTMP/a.txt" || fail "$drv $r: data differs from the unaggregated file" ;;
      *) cmp "$f" "$TESTTMP/agg-$drv-$r/$(basename "$f")" || fail "$drv $r: file differs from the unaggregated one" ;;
    esac
  done
done
pass
