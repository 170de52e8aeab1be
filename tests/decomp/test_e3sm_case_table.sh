#!/bin/sh
# The E3SM case table (src/decomp/e3sm_cases/) is what scripts/e3sm-case-table
# writes: regenerated from the table in the tree it gives the same files byte for
# byte; decomp_io's compiled-in copy holds the same lines; a table the script
# would split otherwise, or a line that is no table line, shows.
. "$top_srcdir/tests/lib.sh"
set -e
G="$top_srcdir/scripts/e3sm-case-table"
D="$top_srcdir/src/decomp/e3sm_cases"
cd "$TESTTMP"
mkdir again
"$PYTHON" "$G" --table "$D" again || fail "regenerating the table"
diff -r "$D" again >diff.txt || { head -20 diff.txt; fail "src/decomp/e3sm_cases is not what scripts/e3sm-case-table writes"; }
[ "$(ls again | wc -l)" -eq 13 ] || fail "expected cases.tsv and 12 parts, found $(ls again | tr '\n' ' ')"
grep -q "^I_h1	I_shared0.tsv	I_h1_own1.tsv	I_shared1.tsv	I_shared3.tsv$" again/cases.tsv || fail "I_h1's parts"

# the compiled-in table, file by file
for f in "$D"/*.tsv; do
    "$top_builddir/tests/decomp/e3sm_case_dump" "$(basename "$f")" >dump.txt || fail "$(basename "$f") not compiled in"
    cmp -s dump.txt "$f" || fail "the compiled-in $(basename "$f") differs from the tree's"
done
grep -q 'parent_id	rz1tbn0bed\\n555vk5hkh9' "$D/G_own0.tsv" || fail "G's parent_id (a value with newlines)"

# a table that is not the script's: F_h1 with 25 more lines of F_h0 (a run they
# would share, so a part of its own), and a bad line, named by file and line
cp -r "$D" edited
head -25 "$D/F_h0_own3.tsv" >>edited/F_h1_own3.tsv
mkdir out
"$PYTHON" "$G" --table edited out || fail "regenerating the edited table"
if diff -r edited out >/dev/null; then fail "an edited table came back unchanged"; fi
cp "$D/G_own0.tsv" edited/G_own0.tsv
printf 'x\tbad\n' >>edited/G_own0.tsv
n=$(wc -l <edited/G_own0.tsv)
if "$PYTHON" "$G" --table edited out 2>err.txt; then fail "a bad line was taken"; fi
grep -qF "edited/G_own0.tsv:$n: expected a line d, g, b, v or a with its fields" err.txt || { cat err.txt; fail "bad line: message"; }
pass
