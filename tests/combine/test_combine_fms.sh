#!/bin/sh
# sanitizers: yes
# mom_combine as FRE-NCtools' mppnccombine on FMS file sets of many models, made
# by tests/combine/fms_sets.py with ncgen: MOM5 ocean, MOM6 (h and symmetric q
# points), an FV3 tile (grid_xt/grid_yt, uneven), a static land set decomposed
# in y (packed shorts, int, byte, char, scalar), an ice set with a masked-out
# processor (-f, -m), members a user edited, netCDF-4 members (six digits, -n);
# AM4's atmosphere, FV3's static grid (corners), LM4's land restart and a land
# history set with a compressed tile_index axis, SIS2's and MOM6's restarts, a
# regional domain (axes from point 101), a crashed run (records differ), a
# member cut short, CDF-5 members with unsigned types, netCDF-4 members with a
# string and a scalar variable (-d 2 -s: the per-variable deflate failure).
# Each result's exit status, ncdump -k and ncdump text are what FRE-NCtools'
# mppnccombine (0b7d1c4) gave on the same sets (tests/combine/expected/*.cdl);
# 2 and 3 ranks, and a run without mpiexec, write the serial run's bytes.
. "$top_srcdir/tests/combine/common.sh"
set -e
exp="$top_srcdir/tests/combine/expected"

# combine NAME CASE RC KIND EXPECTED [OPTIONS...]: a fresh set, one rank
combine() {
  name=$1 case=$2 want_rc=$3 want_kind=$4 want_cdl=$5
  shift 5
  d="$TESTTMP/$name"
  mkdir -p "$d"
  set_name=$(cd "$d" && "$PYTHON" "$sets" "$case" .) || fail "$name: making the $case set"
  set +e
  (cd "$d" && run 1 "$comb" "$@" "$set_name" >out.txt 2>err.txt)
  rc=$?
  set -e
  [ "$rc" = "$want_rc" ] || { cat "$d/err.txt"; fail "$name: exit status $rc, expected $want_rc"; }
  if [ "$want_kind" = none ]; then
    [ ! -e "$d/$set_name" ] || fail "$name: an output was left behind"
    return 0
  fi
  [ "$("$NCDUMP" -k "$d/$set_name")" = "$want_kind" ] || fail "$name: ncdump -k says '$("$NCDUMP" -k "$d/$set_name")'"
  (cd "$d" && "$NCDUMP" "$set_name") >"$d/dump.cdl"
  diff "$exp/$want_cdl.cdl" "$d/dump.cdl" >"$d/diff.txt" || { cat "$d/diff.txt"; fail "$name: ncdump differs"; }
  if [ "$rc" = 0 ]; then
    [ ! -s "$d/out.txt" ] || { cat "$d/out.txt"; fail "$name: printed on standard output"; }
  fi
}

combine mom5 mom5 0 "64-bit offset" mom5
combine mom6 mom6 0 "64-bit offset" mom6
combine fv3 fv3 0 "64-bit offset" fv3
combine fv3-e2 fv3 0 "64-bit offset" fv3-e2 -e 2
combine land land 0 "64-bit offset" land
combine edited edited 0 "64-bit offset" edited
combine nc4 nc4 0 "netCDF-4" nc4 -n 10
combine ice-f ice 1 "64-bit offset" ice-f -f
combine ice-fm ice 1 "64-bit offset" ice-fm -f -m
combine ice ice 9 none none
combine mom5-n4 mom5 0 "netCDF-4 classic model" mom5 -n4 -d 3 -s
combine mom5-64k mom5 0 "64-bit offset" mom5 -64 -k 2
# more components and writers: the real tool's ncdump text, except where noted
combine am4 am4 0 "64-bit offset" am4
combine fv3-grid fv3-grid 0 "64-bit offset" fv3-grid
combine lm4-restart lm4-restart 0 "64-bit offset" lm4-restart
combine lm4-history lm4-history 0 "64-bit offset" lm4-history
combine sis2-restart sis2-restart 0 "64-bit offset" sis2-restart
combine mom6-restart mom6-restart 0 "64-bit offset" mom6-restart
combine regional-m regional 0 "64-bit offset" regional-m -m
combine crashed crashed 1 none none
combine crashed-f crashed 1 "64-bit offset" crashed-f -f
combine truncated truncated 1 none none
combine truncated-f truncated 1 "64-bit offset" truncated-f -f     # ours: FRE combines the cut member's bytes
combine cdf5 cdf5 0 "cdf5" cdf5                                    # ours: FRE leaves ubyte, ushort, uint 0
combine nc4-strings nc4-strings 0 "netCDF-4" nc4-strings -d 2 -s

grep -qx 'ERROR: missing at least ice_month.nc.0003 from the input file set.  Exiting.' "$TESTTMP/ice/out.txt" \
  || { cat "$TESTTMP/ice/out.txt"; fail "missing member: mppnccombine's message on standard output"; }
grep -qx 'Warning: output file may be incomplete!' "$TESTTMP/ice-f/err.txt" || fail "-f: no warning"
grep -qx 'Error: cannot open input file "ice_month.nc.0003"' "$TESTTMP/ice-f/err.txt" || fail "-f: no note of the member"
"$NCDUMP" -s "$TESTTMP/mom5-n4/ocean_month.nc" | grep -q 'temp:_DeflateLevel = 3' || fail "-d 3: not deflated"
"$NCDUMP" -s "$TESTTMP/mom5-n4/ocean_month.nc" | grep -q 'temp:_Shuffle = "true"' || fail "-s: no shuffle"
# a compressed axis: the first member's, said; the per-variable filter failure: said, the rest deflated
grep -q '^Note: axis tile_index is not decomposed, yet its length differs from member to member' \
  "$TESTTMP/lm4-restart/err.txt" || fail "lm4-restart: the compressed axis not said"
for v in station crs; do
  grep -q "^Error: nc_def_var_deflate failed! Are you setting NETCDF4? (variable \"$v\"" "$TESTTMP/nc4-strings/err.txt" \
    || fail "nc4-strings: the deflate failure of $v not said"
done
"$NCDUMP" -s "$TESTTMP/nc4-strings/xr_out.nc" | grep -q 'wind:_DeflateLevel = 2' || fail "nc4-strings: wind not deflated"
grep -q '^Error: different number of records than the first input file! ("ocean_month.nc.0003": 1' \
  "$TESTTMP/crashed/err.txt" || fail "crashed: the member not named"
grep -q '^Error: input file "ocean_month.nc.0002" is cut short: it is [0-9]* bytes, but its header promises [0-9]* (2 records of 12 variables): 100 bytes are missing' \
  "$TESTTMP/truncated/err.txt" || { cat "$TESTTMP/truncated/err.txt"; fail "truncated: not said"; }

# more ranks: the same bytes as one
for np in 2 3; do
  for c in mom6 ice-fm; do
    d="$TESTTMP/$c-np$np"
    mkdir -p "$d"
    cp "$TESTTMP/$c"/*.nc.0* "$d/"
    opts=
    [ $c = ice-fm ] && opts="-f -m"
    set_name=$(basename "$(ls "$d"/*.nc.0000)" .0000)
    set +e
    (cd "$d" && run $np "$comb" $opts "$set_name" >out.txt 2>err.txt)
    rc=$?
    set -e
    [ $c = mom6 ] && [ $rc != 0 ] && { cat "$d/err.txt"; fail "$c on $np ranks: exit status $rc"; }
    cmp "$d/$set_name" "$TESTTMP/$c/$set_name" || fail "$c on $np ranks: not the serial run's bytes"
  done
done

# without an MPI launcher (MPI not started): the same bytes
d="$TESTTMP/direct"
mkdir -p "$d"
cp "$TESTTMP/mom6"/*.nc.0* "$d/"
(cd "$d" && env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMI_RANK -u PMIX_RANK "$comb" ocean_daily.nc >out.txt 2>err.txt) \
  || { cat "$d/err.txt"; fail "mom_combine without mpiexec"; }
cmp "$d/ocean_daily.nc" "$TESTTMP/mom6/ocean_daily.nc" || fail "without mpiexec: not the same bytes"

# --bench: the figures, and a JSON report
d="$TESTTMP/bench"
mkdir -p "$d"
cp "$TESTTMP/mom6"/*.nc.0* "$d/"
(cd "$d" && run 2 "$comb" --bench --json r.json ocean_daily.nc >out.txt 2>err.txt) || { cat "$d/err.txt"; fail "--bench"; }
grep -q '^mom_combine: 6 members of ocean_daily.nc (2 records, .* on 2 ranks in .* (open .*, read .*, write' "$d/out.txt" \
  || { cat "$d/out.txt"; fail "--bench: no timing line"; }
[ "$(json_get "$d/r.json" 'd["kernel_report"]["members"]')" = 6 ] || fail "--json: members"
[ "$(json_get "$d/r.json" 'd["kernel_report"]["combine"]["seconds"] > 0')" = True ] || fail "--json: seconds"
rm "$d/ocean_daily.nc"
(cd "$d" && run 1 "$comb" --json r1.json ocean_daily.nc >out.txt 2>err.txt) || { cat "$d/err.txt"; fail "--json"; }
[ ! -s "$d/out.txt" ] || fail "--json without --bench printed on standard output"
[ "$(json_get "$d/r1.json" 'd["kernel_report"]["records"]')" = 2 ] || fail "--json alone: records"
pass
