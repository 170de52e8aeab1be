#!/bin/sh
# scripts/check-docs, the runner of make check-docs: on documents made for it
# (tests/scripts/check_docs/), a runnable block passes in a scratch tree with the
# build's bin/ on PATH; an unmarked shell block, a failing block, a block over its
# budget, a file a block names that is missing after it ran, a missing makes= file,
# a skipped block naming a script the tree lacks, and wrong markers each fail with
# their own message.  Then the tree's own README.md and doc/*.md: every block
# marked, everything they name shipped, and doc/testing.md's list of skipped
# blocks the markers' (--lint: nothing run; make check-docs runs them).
. "$top_srcdir/tests/lib.sh"
set -e
cd "$top_srcdir/tests/scripts/check_docs"
cd_() { "$PYTHON" "$top_srcdir/scripts/check-docs" --src "$top_srcdir" --build "$top_builddir" --work "$TESTTMP/work" "$@"; }
# expect_docs_fail DOC "message": check-docs exits 1 and says the message
expect_docs_fail() {
  set +e
  cd_ "$1" >"$TESTTMP/out.txt" 2>&1
  rc=$?
  set -e
  [ $rc = 1 ] || { cat "$TESTTMP/out.txt"; fail "$1: exit status $rc, expected 1"; }
  grep -qF -- "$2" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "$1: output lacks '$2'"; }
}

cd_ good.md >"$TESTTMP/good.txt" 2>&1 || { cat "$TESTTMP/good.txt"; fail "good.md failed"; }
grep -q "^ok   tests/scripts/check_docs/good.md:4 " "$TESTTMP/good.txt" || fail "good.md: its runnable block did not run"
grep -q "1 runnable, 1 skipped (size 1), 1 output, 1 files of other languages; ran 1 in" "$TESTTMP/good.txt" \
  || { cat "$TESTTMP/good.txt"; fail "good.md: counts"; }
[ -f "$TESTTMP/work/tests_scripts_check_docs_good.md/run/out/exercise.nc" ] || fail "good.md: nothing written in the scratch tree"
cd_ --skip-table good.md >"$TESTTMP/table.txt"
grep -qF '| tests/scripts/check_docs/good.md | `mpiexec -n 4096 engine_exercise --nx 100000` | size: a long run, for the test |' \
  "$TESTTMP/table.txt" || { cat "$TESTTMP/table.txt"; fail "skip table"; }

expect_docs_fail unmarked.md "unmarked.md:3: block has no marker"
expect_docs_fail failing.md "failing.md:4 ("
grep -q "exit status 1" "$TESTTMP/out.txt" || fail "failing.md: no exit status"
grep -qx "before" "$TESTTMP/work/tests_scripts_check_docs_failing.md-4.log" || fail "failing.md: no log"
! grep -qx "after: never" "$TESTTMP/work/tests_scripts_check_docs_failing.md-4.log" || fail "failing.md: ran past the failure"
start=$(date +%s)
expect_docs_fail timeout.md "over its budget of 2 s (stopped)"
[ $(( $(date +%s) - start )) -lt 25 ] || fail "timeout.md: not stopped at its budget"
expect_docs_fail missing.md "'made.json', which the block names, does not exist after it ran"
expect_docs_fail makes.md "'never.nc', which the block names, does not exist after it ran"
expect_docs_fail shipped.md "names scripts/bench-nothing, which the tree does not have"
! grep -q "decomp.mom.4p.dat" "$TESTTMP/out.txt" || fail "shipped.md: a shipped input was called missing"
expect_docs_fail badmarker.md "badmarker.md:4: 'docs: skip' expects 'skip CATEGORY: why'"
for m in "badmarker.md:9: unknown skip category 'weather'" "badmarker.md:14: np=8: runnable blocks use 4 ranks at most" \
         "badmarker.md:19: the block runs 2 ranks (its largest -n/--np) but its marker says np=1" \
         "badmarker.md:24: unknown 'docs: run' option 'speed'" "5 error(s) in the markers; nothing run"; do
  grep -qF -- "$m" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "badmarker.md: no '$m'"; }
done

# the scratch folder is emptied before the blocks run: only check-docs' own is
# (new, empty, or marked by an earlier run, as $TESTTMP/work is by now); a
# folder of the user's, a file, or a folder holding the source or build tree is
# refused with exit status 2 and left as it was.  The build tree here is a
# stand-in in $TESTTMP, so a refusal that failed would empty nothing else.
# expect_docs_refused ARGS... "message"
expect_docs_refused() {
  msg=$1; shift
  set +e
  "$PYTHON" "$top_srcdir/scripts/check-docs" --src "$top_srcdir" "$@" >"$TESTTMP/out.txt" 2>&1
  rc=$?
  set -e
  [ $rc = 2 ] || { cat "$TESTTMP/out.txt"; fail "check-docs $*: exit status $rc, expected 2"; }
  grep -qF -- "$msg" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "check-docs $*: output lacks '$msg'"; }
  ! grep -q Traceback "$TESTTMP/out.txt" || fail "check-docs $*: a traceback"
}
mkdir -p "$TESTTMP/mine" "$TESTTMP/trees/build/bin"
echo precious >"$TESTTMP/mine/notes.txt"
expect_docs_refused "found files check-docs did not put there" --build "$top_builddir" --work "$TESTTMP/mine" good.md
[ "$(cat "$TESTTMP/mine/notes.txt")" = precious ] || fail "--work: the user's file was removed"
echo precious >"$TESTTMP/afile"
expect_docs_refused "expected a folder for the blocks' scratch trees, found a file" --build "$top_builddir" \
  --work "$TESTTMP/afile" good.md
[ "$(cat "$TESTTMP/afile")" = precious ] || fail "--work FILE: the file was changed"
expect_docs_refused "it holds the build tree" --build "$TESTTMP/trees/build" --work "$TESTTMP/trees" good.md
[ -d "$TESTTMP/trees/build/bin" ] || fail "--work above the build tree: the tree was emptied"
expect_docs_refused "it holds the build tree" --build "$TESTTMP/trees/build" --work "$TESTTMP/trees/build" good.md
[ -d "$TESTTMP/trees/build/bin" ] || fail "--work = the build tree: the tree was emptied"
# --only that names no runnable block is an error, not a pass with nothing run
expect_docs_refused "--only nope.md: no runnable block in that document" --build "$top_builddir" --work "$TESTTMP/work" \
  --only nope.md good.md
expect_docs_refused "no runnable block starts at that line" --build "$top_builddir" --work "$TESTTMP/work" \
  --only tests/scripts/check_docs/good.md:99 good.md
expect_docs_refused "expected DOC or DOC:LINE with LINE a line number, found 'abc'" --build "$top_builddir" \
  --work "$TESTTMP/work" --only tests/scripts/check_docs/good.md:abc good.md
cd_ --only tests/scripts/check_docs/good.md:4 good.md >"$TESTTMP/only.txt" 2>&1 || { cat "$TESTTMP/only.txt"; fail "--only DOC:LINE"; }
grep -q "ran 1 in" "$TESTTMP/only.txt" || { cat "$TESTTMP/only.txt"; fail "--only DOC:LINE: not run"; }

# the tree's own documents
cd "$top_srcdir"
"$PYTHON" scripts/check-docs --src "$top_srcdir" --build "$top_builddir" --lint >"$TESTTMP/lint.txt" 2>&1 \
  || { cat "$TESTTMP/lint.txt"; fail "README.md and doc/*.md: markers (scripts/check-docs --lint)"; }
pass
