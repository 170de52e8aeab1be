# Sourced by the applicability tests after tests/lib.sh: walk NAME ARGS... runs
# tests/applicability_walk.py with ARGS, its log in $TESTTMP/NAME.txt; prints
# the summary line, or the whole log and fails when a note and an effect disagree.
walk() {
  name=$1
  shift
  "$PYTHON" "$top_srcdir/tests/applicability_walk.py" --work "$TESTTMP/$name" --mpiexec "$MPIEXEC" --h5dump "$H5DUMP" "$@" \
    >"$TESTTMP/$name.txt" 2>&1 || { cat "$TESTTMP/$name.txt"; fail "$name: the note and the effect disagree"; }
  grep "^summary" "$TESTTMP/$name.txt"
}
