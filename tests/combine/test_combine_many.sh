#!/bin/sh
# One file per PE: 1,100 tiny netCDF-4 members (a 55 x 20 layout) combined under
# `ulimit -n 64`, serially and on 2 and 3 ranks, into the bytes the same grid
# gives from 4 members; the peak resident size (-M's maxrss) of the 1,100-member
# combine within 64 MiB of the 4-member one (it grew by about 0.9 MiB a member
# when every member stayed open); with descriptors exhausted (ulimit -n 4) the
# message says so.
. "$top_srcdir/tests/combine/common.sh"
set -e
few="$TESTTMP/four"
many="$TESTTMP/many"
mkdir -p "$few" "$many"
(cd "$few" && "$PYTHON" "$sets" many-4 . >/dev/null) || fail "making the 4-member set"
(cd "$many" && "$PYTHON" "$sets" many . >/dev/null) || fail "making the 1,100-member set"
[ "$(ls "$many" | grep -c '^ocean_pe.nc.[0-9]')" = 1100 ] || fail "not 1,100 members"

maxrss() { sed -n 's/^rss=.*maxrss=\([0-9]*\) KB$/\1/p' "$1" | tail -n 1; }
(cd "$few" && "$comb" -M ocean_pe.nc >out.txt 2>err.txt) || { cat "$few/err.txt"; fail "4 members"; }
# serially, and on 2 and 3 ranks, under a low descriptor limit
for np in 1 2 3; do
  rm -f "$many/ocean_pe.nc"
  set +e
  (cd "$many" && ulimit -n 64 && run $np "$comb" -M ocean_pe.nc >out.txt 2>err.txt)
  rc=$?
  set -e
  [ $rc = 0 ] || { tail -n 5 "$many/err.txt"; fail "1,100 members on $np rank(s) under ulimit -n 64: exit status $rc"; }
  cmp "$many/ocean_pe.nc" "$few/ocean_pe.nc" || fail "1,100 members on $np rank(s): not the bytes of the 4-member set"
  if [ $np = 1 ]; then
    a=$(maxrss "$few/out.txt") b=$(maxrss "$many/out.txt")
    [ -n "$a" ] && [ -n "$b" ] || fail "-M printed no maxrss"
    [ $((b - a)) -lt 65536 ] || fail "1,100 members: peak resident size $b KB, 4 members $a KB: it grows with the members"
  fi
done
"$NCDUMP" -v t "$few/ocean_pe.nc" | "$PYTHON" -c '
import re, sys
v = [float(x) for x in re.split(r"[,;\s]+", sys.stdin.read().split(" t =")[1].split(";")[0]) if x]
want = [1000 * t + 100 * k + 10 * j + i for t in range(2) for k in range(2) for j in range(40) for i in range(110)]
sys.exit(v != want)' || fail "t is not 1000 t + 100 k + 10 j + i at every point"

# no descriptor left for a member: said as such, nothing written
rm -f "$many/ocean_pe.nc"
set +e
(cd "$many" && sh -c 'ulimit -n 4; exec "$0" ocean_pe.nc' "$comb" >out.txt 2>err.txt)
rc=$?
set -e
[ $rc = 1 ] || fail "ulimit -n 4: exit status $rc"
grep -q "out of file descriptors: ulimit -n is 4" "$many/err.txt" || { cat "$many/err.txt"; fail "ulimit -n 4: not said"; }
[ ! -e "$many/ocean_pe.nc" ] && [ ! -e "$many/ocean_pe.nc.incomplete" ] || fail "ulimit -n 4: an output was left"
pass
