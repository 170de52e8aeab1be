#!/bin/sh
# sanitizers: yes
# Cross-rank reductions at 1..4 ranks.
. "$top_srcdir/tests/lib.sh"
for np in 1 2 3 4; do
  run $np "$top_builddir/tests/test_stats" || fail "reductions wrong at $np ranks"
done
pass
