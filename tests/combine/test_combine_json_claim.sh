#!/bin/sh
# mom_combine's --json is one of the run's outputs: refused onto a member of
# the set (which stays intact) or a folder, before the combine; a write that
# fails exits 1 with the system's cause.  A member that is a folder or cut
# short is named as such.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
MC="$top_builddir/src/combine/mom_combine"
cd "$TESTTMP"
cp "$top_srcdir/inputs/mom.in.tiny" .
mkdir ms
(cd ms && run 2 "$top_builddir/src/mom/mom_io" ../mom.in.tiny --driver pnetcdf --out . --layout 2,1 --io_layout 0,0 \
  --quiet true >log 2>&1) || { cat ms/log; fail "making the set"; }
m0=ms/ocean.nc.0000 m1=ms/ocean.nc.0001
sum=$(cksum <$m0)
set +e
"$MC" --bench --json $m0 o.nc $m0 $m1 >out.txt 2>err.txt; rc=$?
set -e
[ $rc = 1 ] || fail "--json onto a member: exit $rc"
grep -qF "'$m0' is read by this run, as a member of the set '$m0', and would be written by --json (the figures)" err.txt \
  || { cat err.txt; fail "--json onto a member: not said"; }
[ "$(cksum <$m0)" = "$sum" ] || fail "the member was overwritten"
[ ! -e o.nc ] || fail "the output was written before the refusal"
mkdir jd
set +e
"$MC" --bench --json jd o.nc $m0 $m1 >out.txt 2>err.txt; rc=$?
set -e
[ $rc = 1 ] && grep -qF "Error: --json jd: is a directory, expected a file name" err.txt || { cat err.txt; fail "--json jd"; }
if [ -w /dev/full ]; then
  set +e
  "$MC" --bench --json /dev/full o2.nc $m0 $m1 >out.txt 2>err.txt; rc=$?
  set -e
  [ $rc = 1 ] && grep -qF "Error: cannot write /dev/full: No space left on device" err.txt \
    || { cat err.txt; fail "--json /dev/full: exit $rc"; }
fi
mkdir d.nc.0000
set +e
"$MC" d.nc d.nc.0000 >out.txt 2>err.txt
set -e
grep -qF 'Error: input file "d.nc.0000" is a directory, not a regular file' err.txt \
  || { cat err.txt; fail "a folder as a member"; }
head -c 2000 $m1 >t.nc.0000
set +e
"$MC" t.nc t.nc.0000 >out.txt 2>err.txt
set -e
grep -qF "Error: input file \"t.nc.0000\" is cut short: it is 2000 bytes, and its classic header (CDF-1) goes on past its end" err.txt \
  || { cat err.txt; fail "a cut member"; }
pass
