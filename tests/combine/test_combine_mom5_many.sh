#!/bin/sh
# mom_combine --mom5 opens its members as it reads them, through the pool the
# default form uses (src/combine/member_pool.c): mom_io's 4-member set of the
# tiny grid is combined, the result cut into 20 x 15 = 300 members as mom_io's
# per-PE pattern writes them (fms_sets.py --slice), and those combined under
# `ulimit -n 64` serially, on 2 ranks and on 3 with -k 2: the 4-member combine's
# bytes each time.  The peak resident size (-M) of the 300-member combine stays
# within 32 MiB of the 4-member one (keeping every member open failed under
# `ulimit -n 64` at member 47).
. "$top_srcdir/tests/combine/common.sh"
set -e
io="$top_builddir/src/mom/mom_io"
run 4 "$io" "$top_srcdir/inputs/mom.in.tiny" --layout 2,2 --io_layout 2,2 --out "$TESTTMP/four" --quiet \
  >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io, 4 members"; }
(cd "$TESTTMP/four" && run 1 "$comb" --mom5 -M ocean.nc >out.txt 2>err.txt) || { cat "$TESTTMP/four/err.txt"; fail "4 members"; }
many="$TESTTMP/many"
mkdir -p "$many"
"$PYTHON" "$sets" --slice "$TESTTMP/four/ocean.nc" 20 15 "$many" >/dev/null || fail "cutting the set into 300 members"
[ "$(ls "$many" | grep -c '^ocean.nc.[0-9]')" = 300 ] || fail "not 300 members"

maxrss() { sed -n 's/^maxrss=\([0-9]*\) KB.*/\1/p' "$1" | tail -n 1; }
for form in "1" "2" "3 -k 2"; do
  np=${form%% *}
  opts=
  [ "$form" = "$np" ] || opts=${form#* }
  rm -f "$many/ocean.nc"
  set +e
  (cd "$many" && ulimit -n 64 && run "$np" "$comb" --mom5 -M $opts ocean.nc >out.txt 2>err.txt)
  rc=$?
  set -e
  [ $rc = 0 ] || { tail -n 5 "$many/err.txt"; fail "300 members on $np rank(s) $opts under ulimit -n 64: exit status $rc"; }
  cmp "$many/ocean.nc" "$TESTTMP/four/ocean.nc" || fail "300 members on $np rank(s) $opts: not the 4-member combine's bytes"
  if [ "$np" = 1 ]; then
    a=$(maxrss "$TESTTMP/four/out.txt") b=$(maxrss "$many/out.txt")
    [ -n "$a" ] && [ -n "$b" ] || fail "-M printed no maxrss"
    [ $((b - a)) -lt 32768 ] || fail "300 members: peak resident size $b KB, 4 members $a KB: it grows with the members"
  fi
done
pass
