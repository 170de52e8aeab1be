#!/bin/sh
# mom_combine in the registry of the run's files: the members are inputs, -a's
# output is read and appended on purpose (its declared role), -r removes the
# members (its declared role); an -a output that is one of the members, by name
# or through a link, is refused before anything is written and the member is
# left as it was.
. "$top_srcdir/tests/combine/common.sh"
d="$TESTTMP/s"
mkdir -p "$d"
(cd "$d" && "$PYTHON" "$sets" mom5 . >/dev/null) || fail "making a set"
cd "$d"
m="ocean_month.nc.0000 ocean_month.nc.0001 ocean_month.nc.0002 ocean_month.nc.0003"
sum=$(cksum ocean_month.nc.0001)
set +e
run 1 "$comb" -a ocean_month.nc.0001 $m >out.txt 2>err.txt
rc=$?
set -e
[ $rc -ne 0 ] || fail "-a onto a member: exit 0"
grep -qF "'ocean_month.nc.0001' is read by this run, as a member of the set 'ocean_month.nc.0001', and would be written by the output file" err.txt \
  || { cat err.txt; fail "-a onto a member: not refused by the registry"; }
[ "$(cksum ocean_month.nc.0001)" = "$sum" ] || fail "-a onto a member changed it"
ln -s ocean_month.nc.0002 link.nc
sum=$(cksum ocean_month.nc.0002)
set +e
run 1 "$comb" -a link.nc $m >out.txt 2>err.txt
rc=$?
set -e
[ $rc -ne 0 ] || fail "-a onto a link to a member: exit 0"
grep -qF "is read by this run, as a member of the set 'ocean_month.nc.0002'" err.txt || { cat err.txt; fail "-a via a link"; }
[ "$(cksum ocean_month.nc.0002)" = "$sum" ] || fail "-a onto a link changed the member"
rm link.nc
# the declared roles: -a appends into its own output, -r removes the members
run 1 "$comb" ocean_month.nc >/dev/null 2>&1 || fail "combine"
run 1 "$comb" -a ocean_month.nc $m >/dev/null 2>err.txt || { cat err.txt; fail "-a into the combined file"; }
run 1 "$comb" -r out2.nc $m >/dev/null 2>err.txt || { cat err.txt; fail "-r"; }
for f in $m; do [ ! -e "$f" ] || fail "-r left $f"; done
[ -s out2.nc ] || fail "-r: no output"
pass
