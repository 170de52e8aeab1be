#!/bin/sh
# bench_fill runs, prints a GB/s figure per type and box, and its checksums are
# those the element-by-element fill gave before it was vectorised (the values
# below were printed by the original fill for 8 MiB buffers).
. "$top_srcdir/tests/lib.sh"
set -e
"$top_builddir/tests/bench_fill" 8 1 >"$TESTTMP/out.txt" || fail "bench_fill failed"
cat >"$TESTTMP/want.txt" <<'END'
float cells 261410550178643968
float levels 11686002716773007860
double cells 12747094645297119232
double levels 16338869180885790736
int cells 15395551457691303936
int levels 6125712237601571316
short cells 11799422450471534592
short levels 14098802739864812008
END
awk 'NR > 1 { print $1, $2, $NF }' "$TESTTMP/out.txt" >"$TESTTMP/got.txt"
cmp -s "$TESTTMP/got.txt" "$TESTTMP/want.txt" || { cat "$TESTTMP/out.txt" >&2; fail "fill checksums changed"; }
awk 'NR > 1 && !($(NF-5) + 0 > 0 && $(NF-4) == "min") { bad = 1 } END { exit bad }' "$TESTTMP/out.txt" || fail "a GB/s figure is missing"
"$top_builddir/tests/bench_fill" 0 2>"$TESTTMP/err.txt" && fail "bench_fill accepted 0 MiB"
grep -q "usage: bench_fill" "$TESTTMP/err.txt" || fail "bench_fill 0: no usage message"
pass
