#!/bin/sh
# sanitizer-tests.sh SRCDIR TEST...: the tests among TEST... that `make
# check-sanitizers` runs: those whose file (a script, or a test program's .c)
# carries the marker line
#     # sanitizers: yes            (a script)
#     /* sanitizers: yes */        (a C test)
# in its first 15 lines.  The marker is the one place that says a test belongs in
# the sanitized pass.
srcdir=$1
shift
for t in "$@"; do
  case "$t" in
  *.sh | *.py) f=$t ;;
  *) f=$t.c ;;
  esac
  [ -f "$srcdir/$f" ] || continue
  head -n 15 "$srcdir/$f" | grep -qx -e '# sanitizers: yes' -e '/\* sanitizers: yes \*/' && echo "$t"
done
exit 0
