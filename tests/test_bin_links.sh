#!/bin/sh
# make links every program (bin_PROGRAMS) and every script of scripts/ into the
# build's bin/, so `export PATH=$PWD/bin:$PATH` (README.md) reaches them by name:
# each link is there and resolves, a program runs through it, and every Python
# script and climio-sweep find their package and the tree through it (--help).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/recipe_build.sh"
set -e
b="$top_builddir/bin"
[ -d "$b" ] || fail "no bin/ folder in the build tree"
for p in $(make_var bin_PROGRAMS); do
  n=$(basename "$p")
  [ -L "$b/$n" ] || fail "bin/$n: no link for the program $p"
  [ "$(readlink -f "$b/$n")" = "$(readlink -f "$top_builddir/$p")" ] || fail "bin/$n does not lead to $p"
done
for s in "$top_srcdir"/scripts/*; do
  [ -f "$s" ] && [ -x "$s" ] || continue
  n=$(basename "$s")
  [ -L "$b/$n" ] || fail "bin/$n: no link for scripts/$n"
  [ "$(readlink -f "$b/$n")" = "$(readlink -f "$s")" ] || fail "bin/$n does not lead to scripts/$n"
  case $n in e3sm-case-table) continue ;; esac    # takes DIR OUT, no --help
  if head -1 "$s" | grep -q python3 || [ "$n" = climio-sweep ]; then
    (cd "$TESTTMP" && PATH="$b:$PATH" "$n" --help >help.txt 2>&1) || { cat "$TESTTMP/help.txt"; fail "$n --help through bin/"; }
    grep -qi "usage" "$TESTTMP/help.txt" || fail "$n --help through bin/: no usage"
  fi
done
for l in "$b"/*; do
  [ -e "$l" ] || fail "bin/$(basename "$l") leads nowhere"
done
(cd "$TESTTMP" && PATH="$b:$PATH" gcrm_io --version >v.txt 2>&1) || fail "gcrm_io --version through bin/"
grep -q "^gcrm_io (climio " "$TESTTMP/v.txt" || fail "gcrm_io --version: $(cat "$TESTTMP/v.txt")"
pass
