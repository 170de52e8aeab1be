#!/bin/sh
# scripts/bench-aggregation on a tiny plan: one row per io_tasks x rearranger plus
# the unaggregated row, the same checksums in every row (exit 0), files written
# by as many I/O tasks as asked, JSON rows, nothing left behind.
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
pass
