# Sourced by the climio-sweep test wrappers: run_pytest FILE... runs pytest on
# the files with the configured Python; exit 77 (skip) when pytest, matplotlib
# or numpy are missing, or when every test skipped (the reason is printed).
. "$top_srcdir/tests/lib.sh"
[ -n "${PYTHON:-}" ] || skip "no Python 3 configured (./configure PYTHON=...)"
"$PYTHON" -c 'import pytest' 2>/dev/null || skip "pytest is not installed for $PYTHON (apt-get install python3-pytest)"
"$PYTHON" -c 'import matplotlib, numpy' 2>/dev/null || skip "matplotlib or numpy is missing for $PYTHON"
[ -x "$top_builddir/src/exercise/engine_exercise" ] || fail "$top_builddir/src/exercise/engine_exercise is not built"
# the source tree may be read-only (make distcheck): no bytecode files there
export PYTHONDONTWRITEBYTECODE=1 CLIMIO_PYTHON="$PYTHON"
run_pytest() {
  set +e
  timeout "${CLIMIO_TEST_TIMEOUT:-600}" "$PYTHON" -m pytest -q -rs -p no:cacheprovider \
    --basetemp="$TESTTMP/pytest" "$@" >"$TESTTMP/pytest.log" 2>&1
  rc=$?
  set -e
  cat "$TESTTMP/pytest.log"
  [ $rc -eq 124 ] && fail "pytest timed out"
  [ $rc -eq 0 ] || fail "pytest failed (exit $rc)"
  if grep -Eq '^[0-9]+ skipped' "$TESTTMP/pytest.log" && ! grep -q ' passed' "$TESTTMP/pytest.log"; then
    skip "every test skipped: $(grep '^SKIPPED' "$TESTTMP/pytest.log" | head -1)"
  fi
  pass
}
