#!/bin/sh
# Every rank must run with the same arguments: an MPMD launch line that gives
# ranks different options is refused on every rank, at once (no silent per-rank
# settings, no hang in a collective call the ranks disagree on); an option
# given twice is said: the last is used.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
EX="$top_builddir/src/exercise/engine_exercise"
MO="$top_builddir/src/mom/mom_io"
cd "$TESTTMP"
cp "$top_srcdir/inputs/mom.in.tiny" .
X="--nx 8 --ny 8 --nz 2 --out o --mkdir true"
mpmd() { timeout "${CLIMIO_TEST_TIMEOUT:-120}" $MPIEXEC -n 1 "$@" ; }
for case in "--repetitions 2|--repetitions 3" "--driver null|--driver mpiio" "--json a.json|--json b.json"; do
  a=${case%|*} b=${case#*|}
  set +e
  # shellcheck disable=SC2086
  timeout 60 $MPIEXEC -n 1 "$EX" $X $a : -n 1 "$EX" $X $b >out.txt 2>err.txt
  rc=$?
  set -e
  [ $rc -ne 124 ] || fail "$case: hang"
  [ $rc -ne 0 ] || fail "$case: ranks with different arguments ran (exit 0)"
  grep -qF "command line: rank 1 was started with other arguments than rank 0" err.txt \
    || { cat err.txt; fail "$case: not said"; }
  [ ! -e a.json ] && [ ! -e b.json ] || fail "$case: a JSON was written"
done
# mom_io: io layouts that disagree hung in the domain set-up
set +e
timeout 60 $MPIEXEC -n 2 "$MO" mom.in.tiny --driver null --io_layout 1,1 : -n 2 "$MO" mom.in.tiny --driver null \
  --io_layout 2,1 >out.txt 2>err.txt
rc=$?
set -e
[ $rc -ne 124 ] || fail "mom_io: hang"
grep -qF "rank 2 was started with other arguments than rank 0" err.txt || { cat err.txt; fail "mom_io: not said"; }
# two programs in one launch
set +e
timeout 60 $MPIEXEC -n 1 "$EX" --driver null : -n 1 "$top_builddir/src/decomp/decomp_io" --driver null >out.txt 2>err.txt
rc=$?
set -e
[ $rc -ne 124 ] && [ $rc -ne 0 ] || fail "two programs: exit $rc"
grep -qF "(rank 0: 'engine_exercise --driver null'; rank 1: 'decomp_io --driver null'): every rank must run the same program" \
  err.txt || { cat err.txt; fail "two programs: not said"; }
# the same arguments on every rank of an MPMD line run
timeout 60 $MPIEXEC -n 1 "$EX" $X : -n 1 "$EX" $X >out.txt 2>err.txt || { cat err.txt; fail "equal MPMD ranks"; }
# an option given twice: the last is used and the first said, once
run 2 "$EX" $X --driver mpiio --nrec 2 --nrec 3 --json r.json >out.txt 2>err.txt || { cat err.txt; fail "--nrec twice"; }
[ "$(grep -c "note: --nrec 2 (command line) has no effect: --nrec 3, given after it, is used" err.txt)" = 1 ] \
  || { cat err.txt; fail "repeated option not said once"; }
# through an alias, and the same value twice is no note
run 1 "$EX" $X --out o --output_dir o --verify true --verify TRUE >out.txt 2>err.txt || fail "same value twice"
grep -q "given after it" err.txt && fail "the same value twice was noted"
run 1 "$EX" $X --out p --mkdir true >out.txt 2>err.txt || fail "--out twice"
grep -qF "note: --out o (command line) has no effect: --out p, given after it, is used" err.txt \
  || { cat err.txt; fail "--out twice not said"; }
pass
