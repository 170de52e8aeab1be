#!/bin/sh
# climio-sweep over damaged sweep folders: every subcommand (status, collect,
# report) on result, status, run and plan files that are truncated, empty,
# binary, a folder, or valid JSON with a field of another type.  Each ends with
# one error line or counts the run as failed with a reason: no traceback.
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON:-}" ] || skip "no Python 3 configured (./configure PYTHON=...)"
EX="$top_builddir/src/exercise/engine_exercise"
[ -x "$EX" ] || fail "$EX is not built"
export PYTHONDONTWRITEBYTECODE=1 CLIMIO_PYTHON="$PYTHON" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  OMPI_MCA_rmaps_base_oversubscribe=1 CLIMIO_BINDIR="$top_builddir/tests"
"$PYTHON" "$top_srcdir/tests/scripts/sweep_corrupt_corpus.py" "$EX" "$TESTTMP/work" >"$TESTTMP/log" 2>&1 || {
  cat "$TESTTMP/log"; fail "climio-sweep failed on a damaged sweep folder"; }
cat "$TESTTMP/log"
pass
