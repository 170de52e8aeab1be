# Helpers for the shell tests: sourced by each test script.
# Exit codes follow automake: 0 pass, 77 skip, 99 hard error, anything else fail.
set -u
test_name=$(basename "$0" .sh)
TESTTMP="$top_builddir/tests/tmp/$test_name"
rm -rf "$TESTTMP"
mkdir -p "$TESTTMP"

fail() { echo "FAIL: $test_name: $*" >&2; exit 1; }
skip() { echo "SKIP: $test_name: $*" >&2; exit 77; }
pass() { rm -rf "$TESTTMP"; echo "PASS: $test_name"; exit 0; }

# The drivers built, as the programs themselves list them (--version: the driver
# table, src/lib/drivers/drivers.c, is the one list): CLIMIO_DRIVERS, asked once.
drivers_built() {
    [ -n "${CLIMIO_DRIVERS:-}" ] && return 0
    CLIMIO_DRIVERS=$(run 1 "$top_builddir/src/exercise/engine_exercise" --version </dev/null 2>/dev/null |
                     sed -n 's/^engine_exercise (climio .*), drivers: //p')
    [ -n "$CLIMIO_DRIVERS" ] || { echo "ERROR: $test_name: engine_exercise --version names no drivers" >&2; exit 99; }
}
CLIMIO_DRIVERS=""
have_driver() { drivers_built; case " $CLIMIO_DRIVERS " in *" $1 "*) return 0 ;; esac; return 1; }

# run NP PROGRAM ARGS...: an MPI run with a time limit, so a hang fails the test.
run() {
    np=$1; shift
    timeout "${CLIMIO_TEST_TIMEOUT:-300}" $MPIEXEC -n "$np" "$@"
}

# expect_fail NP "message" PROGRAM ARGS...: the run must exit non-zero within the
# time limit and print the message on stderr.
expect_fail() {
    np=$1; msg=$2; shift 2
    set +e
    timeout "${CLIMIO_TEST_TIMEOUT:-120}" $MPIEXEC -n "$np" "$@" >"$TESTTMP/out.txt" 2>"$TESTTMP/err.txt"
    rc=$?
    set -e
    [ $rc -eq 124 ] && fail "timed out (hang) running: $*"
    [ $rc -ne 0 ] || fail "expected failure, got exit 0 running: $*"
    grep -qF -- "$msg" "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt" >&2; fail "stderr lacks '$msg' running: $*"; }
}

# json_get FILE EXPR: a value from a JSON document, EXPR in Python on `d`.
json_get() { "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
