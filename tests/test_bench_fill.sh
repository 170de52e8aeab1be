#!/bin/sh
# bench_fill runs, prints a GB/s figure per type and box, and its checksums are
# those of the pattern's element-by-element definition (tests/test_pattern checks
# the fill against it), whichever build of the fill the CPU runs (AVX2 or not):
# the values below were printed for 8 MiB buffers by both builds.
. "$top_srcdir/tests/lib.sh"
set -e
"$top_builddir/tests/bench_fill" 8 1 >"$TESTTMP/out.txt" || fail "bench_fill failed"
cat >"$TESTTMP/want.txt" <<'END'
float cells 9069150320234304640
float levels 14930259120673286663
double cells 7474767109776157217
double levels 8832827384890400581
int cells 12297343179986801792
int levels 13748856203478592007
short cells 11650506641494798940
short levels 14089540271143252396
END
awk 'NR > 1 { print $1, $2, $NF }' "$TESTTMP/out.txt" >"$TESTTMP/got.txt"
cmp -s "$TESTTMP/got.txt" "$TESTTMP/want.txt" || { cat "$TESTTMP/out.txt" >&2; fail "fill checksums changed"; }
awk 'NR > 1 && !($(NF-5) + 0 > 0 && $(NF-4) == "min") { bad = 1 } END { exit bad }' "$TESTTMP/out.txt" || fail "a GB/s figure is missing"
"$top_builddir/tests/bench_fill" 0 2>"$TESTTMP/err.txt" && fail "bench_fill accepted 0 MiB"
grep -q "usage: bench_fill" "$TESTTMP/err.txt" || fail "bench_fill 0: no usage message"
pass
