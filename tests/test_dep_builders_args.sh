#!/bin/sh
# scripts/build-adios2 and scripts/build-mpich-deps take --cache or one PREFIX:
# an option-like word is refused (it once became a prefix folder named '--bogus',
# built into with exit 0), and so is a second argument; nothing is created.
. "$top_srcdir/tests/lib.sh"
set -e
cd "$TESTTMP"
for s in build-adios2 build-mpich-deps; do
  set +e
  "$top_srcdir/scripts/$s" --bogus >out.txt 2>err.txt; rc=$?
  set -e
  [ $rc = 2 ] || fail "$s --bogus: exit $rc, expected 2"
  grep -qF "$s: unknown option '--bogus' (usage: $s [--cache | PREFIX])" err.txt || fail "$s --bogus: $(cat err.txt)"
  set +e
  "$top_srcdir/scripts/$s" one two >out.txt 2>err.txt; rc=$?
  set -e
  [ $rc = 2 ] || fail "$s one two: exit $rc, expected 2"
  grep -qF "$s: expected one argument, --cache or PREFIX, found 2" err.txt || fail "$s one two: $(cat err.txt)"
  [ -z "$(ls -A | grep -v -e '^out.txt$' -e '^err.txt$')" ] || fail "$s left files behind: $(ls -A)"
done
pass
