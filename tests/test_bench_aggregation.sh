#!/bin/sh
# scripts/bench-aggregation on a tiny plan: one row per io_tasks x rearranger plus
# the unaggregated row, the same checksums in every row (exit 0), files written
# by as many I/O tasks as asked, JSON rows, nothing left behind; and a kernel that
# refuses a line of its input stops the script at the first run (every run reads it).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver mpiio || skip "mpiio driver not built"
"$PYTHON" "$top_srcdir/scripts/bench-aggregation" --np 3 --driver mpiio --repetitions 2 --tasks "1 2" \
  --iotypes "nonblocking_collective blocking_independent" --dir "$TESTTMP" --kernel "$top_builddir/src/exercise/engine_exercise" \
  --json "$TESTTMP/b.json" -- --nx 24 --ny 18 --nz 2 --nrec 2 >"$TESTTMP/out.txt" 2>&1 || { cat "$TESTTMP/out.txt"; fail "bench-aggregation failed"; }
grep -q "| nonblocking_collective | all | - |" "$TESTTMP/out.txt" || fail "no unaggregated row"
[ "$(grep -c '^| blocking_independent | [12] |' "$TESTTMP/out.txt")" = 4 ] || fail "expected 4 aggregated rows per iotype"
[ "$(json_get "$TESTTMP/b.json" 'len(d["rows"])')" = 10 ] || fail "JSON rows"
[ "$(json_get "$TESTTMP/b.json" 'all(r["checksums_equal"] for r in d["rows"])')" = True ] || fail "checksums differ"
[ "$(json_get "$TESTTMP/b.json" '[r["bytes"] for r in d["rows"]] == [d["rows"][0]["bytes"]]*10')" = True ] || fail "bytes differ"
[ "$(json_get "$TESTTMP/b.json" 'all(len(r["spread"]["bw"]["values"]) == 2 for r in d["rows"])')" = True ] || fail "not 2 runs per row"
grep -Eq '^\| blocking_independent \| 1 \| box \| [0-9.]+ \| [0-9]+ \| [0-9]+ \| [0-9.]+ \[[0-9.]+-[0-9.]+\]' "$TESTTMP/out.txt" \
  || fail "cells are not median [min-max]"
grep -q "^cells: median \[min-max\] of 2 runs" "$TESTTMP/out.txt" || fail "no legend of the cells"
[ -z "$(ls "$TESTTMP" | grep climio-bench-aggregation)" ] || fail "left files behind"

# gcrm_io's built-in input at level 4: its restart interval is refused (a line of
# the input, exit status 2) whatever the run, so the first run is the only one
set +e
"$PYTHON" "$top_srcdir/scripts/bench-aggregation" --np 1 --repetitions 3 --tasks "1" --dir "$TESTTMP" \
  --kernel "$top_builddir/src/gcrm/gcrm_io" -- --level_max 4 >"$TESTTMP/refused.txt" 2>&1
rc=$?
set -e
[ $rc = 1 ] || { cat "$TESTTMP/refused.txt"; fail "a refused input: exit status $rc, expected 1"; }
[ "$(grep -c 'FAILED' "$TESTTMP/refused.txt")" = 1 ] || { cat "$TESTTMP/refused.txt"; fail "more than one run after the refusal"; }
grep -q "FAILED .*gcrm_io: error: <built-in zgrd.in>:[0-9]*: restart_interval" "$TESTTMP/refused.txt" || fail "the refusal is not shown"
grep -q "stopped after run 1 of 18: the program refused a line of its input" "$TESTTMP/refused.txt" || fail "no stop line"
[ "$(grep -c 'not run: stopped at the refusal' "$TESTTMP/refused.txt")" = 5 ] || fail "the other rows are not marked not run"
pass
