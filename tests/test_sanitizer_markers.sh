#!/bin/sh
# The sanitized pass's one list is the "sanitizers: yes" markers in the tests
# (tests/sanitizer-tests.sh reads them for `make check-sanitizers`): every marker
# is spelled as the script reads it, sits on a test the suite runs, and the
# script finds exactly the marked tests among the suite's.
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || fail "no source tree"
script=tests/sanitizer-tests.sh
# the suite's tests, as the local.mk files name them
suite=$(cat tests/local.mk tests/*/local.mk | tr -s ' \t\\' '\n' | grep -E '^tests/[a-z0-9_/]+(\.sh|\.py)?$' | sort -u)
[ -n "$suite" ] || fail "no tests found in tests/*local.mk"
# every line that looks like a marker, in any test file
loose=$(find tests -path tests/tmp -prune -o -type f \( -name '*.sh' -o -name '*.c' -o -name '*.py' \) -print |
  while read -r f; do head -n 15 "$f" | grep -iE '^(#|/\*) *sanitizers?[: ]' | sed "s|^|$f: |"; done)
bad=$(echo "$loose" | grep -vE ': (# sanitizers: yes|/\* sanitizers: yes \*/)$' | sed '/^$/d')
[ -z "$bad" ] || fail "markers the script does not read (write '# sanitizers: yes' or '/* sanitizers: yes */'):
$bad"
marked=$(echo "$loose" | sed -n 's|^\(tests/[^:]*\): .*|\1|p' | sed 's/\.c$//' | sort -u)
[ -n "$marked" ] || fail "no test is marked for the sanitizers"
for t in $marked; do
  echo "$suite" | grep -qx "$t" || fail "$t is marked for the sanitizers but is not a test in tests/*local.mk"
done
# the script finds the marked tests and only them
found=$(sh "$script" . $suite | sort)
[ "$found" = "$marked" ] || fail "sanitizer-tests.sh found:
$found
expected the marked tests:
$marked"
echo "$found" | grep -qx tests/test_engine_null.sh || fail "test_engine_null.sh is not in the sanitized pass"
echo "$found" | grep -qx tests/test_params || fail "test_params (a C test) is not in the sanitized pass"
echo "$found" | grep -qx tests/test_valgrind.sh && fail "test_valgrind.sh is in the sanitized pass"
echo "sanitized tests: $(echo "$found" | wc -l) of $(echo "$suite" | wc -l)"
pass
