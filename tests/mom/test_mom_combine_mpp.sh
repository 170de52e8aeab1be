#!/bin/sh
# mom_combine as a drop-in mppnccombine (issue 17 item 5): its command line, no
# parameter file, its default format (classic CDF-1, 16 KiB header padding), its
# refusal of an existing output; on io-domain and per-PE sets the combined file
# holds the serial file's data (ncmpidiff, ncdump), serially and in parallel, and
# its global filename attribute is the output's name as given (mppnccombine's
# ncattput of outncname).  MOM5's -z/-d/-s: deflate with shuffle in netCDF-4
# classic (-n4); without -n4 the output stays classic, as mppnccombine's check
# never fires.  -a, -f and -m: tests/mom/test_mom_combine_opts.sh.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver built"
[ -n "$NCDUMP" ] || skip "ncdump not found"
io="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
tiny="$top_srcdir/inputs/mom.in.tiny"
w() { np=$1; d=$2; shift 2
  run $np "$io" "$tiny" --out "$d" --quiet "$@" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io $*"; }; }
c() { np=$1; shift
  run $np "$comb" --mom5 --quiet "$@" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_combine $*"; }; }
same() {        # a b what: the same header and data by ncdump (the format line aside); b's filename is its name
  "$NCDUMP" "$1" | tail -n +2 | sed '/^		:filename = /d' >"$TESTTMP/a.cdl"
  "$NCDUMP" "$2" | tail -n +2 >"$TESTTMP/b0.cdl"
  grep -qF ":filename = \"$2\" ;" "$TESTTMP/b0.cdl" ||
    { grep ":filename" "$TESTTMP/b0.cdl"; fail "$3: the filename attribute of $2 is not the output's name"; }
  sed '/^		:filename = /d' "$TESTTMP/b0.cdl" >"$TESTTMP/b.cdl"
  cmp -s "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" || { diff "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" | head; fail "$3: $1 differs from $2"; }
}
w 4 "$TESTTMP/serial" --layout 2,2 --io_layout 1,1          # pattern auto: the serial file
w 4 "$TESTTMP/iod" --layout 2,2 --io_layout 2,1             # pattern auto: a set of 2 io domains
w 4 "$TESTTMP/pe" --layout 2,2 --io_layout 0,0              # pattern auto: one file per PE
ref="$TESTTMP/serial/ocean.nc"
[ -f "$TESTTMP/iod/ocean.nc.0001" ] && [ -f "$TESTTMP/pe/ocean.nc.0003" ] || fail "the sets were not written"

# the default: output.nc.0000 ... as inputs, CDF-1, 16 KiB of header padding, the serial file's data
for set in iod pe; do
  c 1 "$TESTTMP/$set/ocean.nc"
  [ "$("$NCDUMP" -k "$TESTTMP/$set/ocean.nc")" = classic ] || fail "$set: the combined file is not classic CDF-1"
  same "$ref" "$TESTTMP/$set/ocean.nc" "$set combined"
  if [ -n "$NCOFFSETS" ]; then
    "$NCOFFSETS" "$TESTTMP/$set/ocean.nc" >"$TESTTMP/off.txt"
    size=$(sed -n 's/^[[:space:]]*size *= *\([0-9]*\) bytes/\1/p' "$TESTTMP/off.txt")
    ext=$(sed -n 's/^[[:space:]]*extent *= *\([0-9]*\) bytes/\1/p' "$TESTTMP/off.txt")
    [ $((ext - size)) -eq 16384 ] || fail "$set: $((ext - size)) bytes of header padding, mppnccombine's default is 16384"
  fi
  [ -z "$NCVALIDATOR" ] || "$NCVALIDATOR" "$TESTTMP/$set/ocean.nc" | grep -q "valid NetCDF classic CDF-1" ||
    fail "$set: ncvalidator does not accept the combined file as CDF-1"
done
vars="temp,salt,u,v,age_global,eta_t,surface_temp,geolon_t,geolat_t,geolon_c,geolat_c,xt_ocean,yt_ocean,st_ocean,xu_ocean,yu_ocean,time,nv,average_T1,average_T2,average_DT,time_bnds"
[ -z "$NCMPIDIFF" ] || "$NCMPIDIFF" -q -v "$vars" "$ref" "$TESTTMP/iod/ocean.nc" ||
  fail "ncmpidiff: the combined set differs from the serial file"

# an existing output is refused, in mppnccombine's words, and left as it was
sum=$(cksum <"$TESTTMP/iod/ocean.nc")
expect_fail 1 "Error: output file seems to exist already!" "$comb" --mom5 "$TESTTMP/iod/ocean.nc"
[ "$(cksum <"$TESTTMP/iod/ocean.nc")" = "$sum" ] || fail "the existing output was changed"

# the formats: -64 (64-bit offset), -n4 (netCDF-4 classic)
c 1 -64 "$TESTTMP/iod/o64.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
[ "$("$NCDUMP" -k "$TESTTMP/iod/o64.nc")" = "64-bit offset" ] || fail "-64 did not write 64-bit offset"
same "$ref" "$TESTTMP/iod/o64.nc" "-64 with the inputs named"
c 1 -n4 "$TESTTMP/iod/o4.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
[ "$("$NCDUMP" -k "$TESTTMP/iod/o4.nc")" = "netCDF-4 classic model" ] || fail "-n4 did not write netCDF-4 classic"
same "$ref" "$TESTTMP/iod/o4.nc" "-n4"
# MOM5's -z: nc_def_var_chunking(NC_CHUNKED, NULL) + nc_def_var_deflate(shuffle 1, level 5) in netCDF-4 (-n4);
# -s turns the shuffle off, -d N sets the level (0-9) and implies -z
hs() { "$NCDUMP" -hs "$1" | grep -F "$2" >/dev/null || { "$NCDUMP" -hs "$1" | grep "temp:_"; fail "$3"; }; }
c 1 -n4 -z "$TESTTMP/iod/oz.nc" "$TESTTMP/iod/ocean.nc.0001" "$TESTTMP/iod/ocean.nc.0000"
hs "$TESTTMP/iod/oz.nc" "temp:_DeflateLevel = 5 ;" "-n4 -z: temp not deflated at level 5"
hs "$TESTTMP/iod/oz.nc" 'temp:_Shuffle = "true" ;' "-n4 -z: no shuffle (MOM5's DEFAULT_SHUFFLE is 1)"
hs "$TESTTMP/iod/oz.nc" 'xt_ocean:_Storage = "chunked" ;' "-n4 -z: the fixed variables are not chunked"
same "$ref" "$TESTTMP/iod/oz.nc" "-n4 -z"
c 1 -n4 -z -s "$TESTTMP/iod/ozs.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
hs "$TESTTMP/iod/ozs.nc" "temp:_DeflateLevel = 5 ;" "-n4 -z -s: temp not deflated"
! "$NCDUMP" -hs "$TESTTMP/iod/ozs.nc" | grep -q 'temp:_Shuffle = "true"' || fail "-s did not turn the shuffle off"
c 1 -n4 -d 2 "$TESTTMP/iod/od2.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
hs "$TESTTMP/iod/od2.nc" "temp:_DeflateLevel = 2 ;" "-n4 -d 2: temp not deflated at level 2"
# what mppnccombine's options set is asked of the run, typed, and shown with its origin; a climio
# option the user gives wins; the set's own description carries the member's name
j="$TESTTMP/od3.json"
c 1 --json "$j" --header_pad 4096 -n4 -d 3 -h 1024 "$TESTTMP/iod/od3.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
hs "$TESTTMP/iod/od3.nc" "temp:_DeflateLevel = 3 ;" "-n4 -d 3: temp not deflated at level 3"
cfg() { json_get "$j" "d['config']['$1']['$2']"; }
mpp="mppnccombine option or default"
[ "$(cfg format value)" = nc4c ] && [ "$(cfg format origin)" = "$mpp" ] || fail "format in the JSON: $(cfg format value) ($(cfg format origin))"
[ "$(cfg deflate value)" = 3 ] && [ "$(cfg deflate origin)" = "$mpp" ] || fail "deflate in the JSON: $(cfg deflate value)"
[ "$(cfg size_hint value)" = 65536 ] && [ "$(cfg nc_serial value)" = True ] || fail "the one-rank serial path in the JSON"
[ "$(cfg header_pad value)" = 4096 ] && [ "$(cfg header_pad origin)" = "command line" ] || fail "--header_pad did not win over -h"
[ "$(cfg nk origin)" = "$TESTTMP/iod/ocean.nc.0000 (climio_mom_fields, domain_decomposition)" ] || fail "nk's origin: $(cfg nk origin)"
[ "$(cfg ni value)" = 40 ] || fail "ni from the set: $(cfg ni value)"
# -z without -n4: mppnccombine's `compress && (! format & NC_NETCDF4)` is never true: classic, uncompressed
run 1 "$comb" --mom5 -z "$TESTTMP/iod/ozc.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001" >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "-z alone"; }
[ "$("$NCDUMP" -k "$TESTTMP/iod/ozc.nc")" = classic ] || fail "-z without -n4 did not stay classic, as mppnccombine"
grep -qF "warning: -z without -n4" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "-z without -n4: no warning"; }
same "$ref" "$TESTTMP/iod/ozc.nc" "-z without -n4"
expect_fail 1 "Illegal deflate level 12" "$comb" --mom5 -d 12 "$TESTTMP/iod/o12.nc"
# -k 2: two records per read, the same file (but for the one character of the name in its filename attribute)
c 1 -k 2 "$TESTTMP/iod/k2.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
c 1 "$TESTTMP/iod/k1.nc" "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"
[ "$(cmp -l "$TESTTMP/iod/k1.nc" "$TESTTMP/iod/k2.nc" | wc -l)" -eq 1 ] || fail "-k 2 wrote a different file"

# the parallel combine stays: 2 ranks, each reading a range of members
if have_driver pnetcdf; then
  c 2 --bench --driver pnetcdf "$TESTTMP/pe/par.nc" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001" \
    "$TESTTMP/pe/ocean.nc.0002" "$TESTTMP/pe/ocean.nc.0003"
  grep -q "mom_combine: 4 members .* on 2 ranks in" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "no timing line"; }
  same "$ref" "$TESTTMP/pe/par.nc" "parallel combine"
fi

# -x: an estimate in MB, no output; -r: the inputs go after a successful combine
cp -r "$TESTTMP/pe" "$TESTTMP/px"; rm "$TESTTMP/px/"*.nc
run 1 "$comb" --mom5 -x "$TESTTMP/px/ocean.nc" >"$TESTTMP/x.txt" 2>&1 || { cat "$TESTTMP/x.txt"; fail "-x"; }
grep -qx "[0-9][0-9]*" "$TESTTMP/x.txt" || { cat "$TESTTMP/x.txt"; fail "-x printed no number of MB"; }
[ ! -e "$TESTTMP/px/ocean.nc" ] || fail "-x created the output"
cp -r "$TESTTMP/iod" "$TESTTMP/rm"; rm "$TESTTMP/rm/"*.nc
c 1 -r "$TESTTMP/rm/ocean.nc"
[ -f "$TESTTMP/rm/ocean.nc" ] && [ ! -e "$TESTTMP/rm/ocean.nc.0000" ] && [ ! -e "$TESTTMP/rm/ocean.nc.0001" ] ||
  fail "-r did not leave the output alone without its inputs"

# what it refuses, and why
expect_fail 1 "Error: cannot open the output netCDF file for appending!" "$comb" --mom5 -a "$TESTTMP/pe/a.nc"
expect_fail 1 "Illegal option -q" "$comb" --mom5 -q "$TESTTMP/pe/q.nc"
expect_fail 1 "no output file given" "$comb" --mom5 -v
expect_fail 1 "ocean.nc: xt_ocean or yt_ocean has no domain_decomposition attribute of 4 integers: not a member of an FMS file set" "$comb" --mom5 "$TESTTMP/none.nc" "$ref"
run 1 "$comb" --mom5 -V >"$TESTTMP/v.txt" 2>&1 && grep -q "mppnccombine 2.2.5" "$TESTTMP/v.txt" || fail "-V"
pass
