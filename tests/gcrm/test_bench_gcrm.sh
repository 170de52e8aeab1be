#!/bin/sh
# scripts/bench-gcrm runs gcrm_io and prints one table row per run with the
# run's own figures (here: the null driver, level 3, 1 and 2 ranks, two iotypes,
# two repetitions: cells "median [min-max]").
. "$top_srcdir/tests/lib.sh"
set -e
[ -n "$PYTHON" ] || skip "no Python"
GCRM_IO="$top_builddir/src/gcrm/gcrm_io" "$PYTHON" "$top_srcdir/scripts/bench-gcrm" --levels 3 --np 1 2 \
  --iotypes nonblocking_collective blocking_independent --config nophys --driver null --dir "$TESTTMP/out" \
  --repetitions 2 --inputs "$top_srcdir/inputs" --json-dir "$TESTTMP/json" --json "$TESTTMP/b.json" \
  >"$TESTTMP/table.md" 2>"$TESTTMP/err.txt" \
  || { cat "$TESTTMP/err.txt"; fail "bench-gcrm failed"; }
[ "$(grep -c '^| 3 | [12] | ' "$TESTTMP/table.md")" = 4 ] || { cat "$TESTTMP/table.md"; fail "not 4 rows"; }
grep -q '^| 3 | 2 | b_ind | nophys | 14 | 118.5 | ' "$TESTTMP/table.md" || { cat "$TESTTMP/table.md"; fail "row of 2 ranks, blocking_independent"; }
[ "$(json_get "$TESTTMP/json/L3-np2-b_ind-rep1.json" 'd["io"]["iotype"]')" = blocking_independent ] || fail "iotype not passed on"
grep -Eq '^\| 3 \| 2 \| b_ind \| nophys \| 14 \| 118.5 \| [0-9.]+ \[[0-9.]+-[0-9.]+\]( !)? \| ' "$TESTTMP/table.md" \
  || { cat "$TESTTMP/table.md"; fail "cells are not median [min-max]"; }
grep -q "^cells: median \[min-max\] of 2 runs" "$TESTTMP/table.md" || fail "no legend of the cells"
[ "$(json_get "$TESTTMP/b.json" '[len(r["io_s"]["values"]) for r in d["rows"]]')" = "[2, 2, 2, 2]" ] || fail "JSON: 2 runs per row"
[ -z "$(ls "$TESTTMP/out")" ] || fail "output left behind"
pass
