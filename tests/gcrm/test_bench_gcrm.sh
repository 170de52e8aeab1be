#!/bin/sh
# scripts/bench-gcrm runs gcrm_io and prints one table row per run with the
# run's own figures (here: the null driver, level 3, 1 and 2 ranks, two iotypes).
. "$top_srcdir/tests/lib.sh"
set -e
[ -n "$PYTHON" ] || skip "no Python"
GCRM_IO="$top_builddir/src/gcrm/gcrm_io" "$PYTHON" "$top_srcdir/scripts/bench-gcrm" --levels 3 --nprocs 1 2 \
  --iotypes nonblocking_collective blocking_independent --config nophys --driver null --dir "$TESTTMP/out" \
  --inputs "$top_srcdir/inputs" --json-dir "$TESTTMP/json" >"$TESTTMP/table.md" 2>"$TESTTMP/err.txt" \
  || { cat "$TESTTMP/err.txt"; fail "bench-gcrm failed"; }
[ "$(grep -c '^| 3 | [12] | ' "$TESTTMP/table.md")" = 4 ] || { cat "$TESTTMP/table.md"; fail "not 4 rows"; }
grep -q '^| 3 | 2 | b_ind | nophys | 14 | 118.5 | ' "$TESTTMP/table.md" || { cat "$TESTTMP/table.md"; fail "row of 2 ranks, blocking_independent"; }
[ "$(json_get "$TESTTMP/json/L3-np2-b_ind.json" 'd["io"]["iotype"]')" = blocking_independent ] || fail "iotype not passed on"
[ -z "$(ls "$TESTTMP/out")" ] || fail "output left behind"
pass
