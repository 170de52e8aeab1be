#!/bin/sh
# mom_combine's -f, -m and -a as MOM5's mppnccombine does them (issue 17):
#  - a member missing is refused in mppnccombine's words (nothing written);
#  - -f combines the others: the missing member's points hold 0, exit status 1
#    with "Warning: output file may be incomplete!";
#  - -m: those points hold the fields' missing_value (ncdump's "_");
#  - fewer inputs named than the set has: combined, the rest 0, exit status 0;
#  - -a writes the set into an existing output (which must exist and have the
#    set's shape): the partial file above becomes the serial file's data.
# Values are compared point by point with the serial file's (ncdump -v).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver built"
[ -n "$NCDUMP" ] || skip "ncdump not found"
io="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
tiny="$top_srcdir/inputs/mom.in.tiny"
run 4 "$io" "$tiny" --out "$TESTTMP/serial" --quiet --layout 2,2 --io_layout 1,1 >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io serial"; }
run 4 "$io" "$tiny" --out "$TESTTMP/pe" --quiet --layout 2,2 --io_layout 0,0 >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io perpe"; }
ref="$TESTTMP/serial/ocean.nc"

vals() {        # file var: its values in ncdump's order, one a line
  "$NCDUMP" -v "$2" "$1" | awk -v v="$2" '$1 == v && $2 == "=" { f = 1; next }
    f { end = /;/; gsub(/[;,]/, " "); for (i = 1; i <= NF; i++) print $i; if (end) exit }'
}
# file var expect: the points of PE 2's domain (40 x 30 on 2,2: x 1-20, y 16-30) hold
# expect, every other point the serial file's value
gap_is() {
  vals "$ref" "$2" >"$TESTTMP/r.txt"; vals "$1" "$2" >"$TESTTMP/o.txt"
  [ -s "$TESTTMP/o.txt" ] && [ "$(wc -l <"$TESTTMP/r.txt")" = "$(wc -l <"$TESTTMP/o.txt")" ] ||
    fail "$1: $2 has not the serial file's number of values"
  paste "$TESTTMP/r.txt" "$TESTTMP/o.txt" | awk -v e="$3" '
    { i = NR - 1; x = i % 40; y = int(i / 40) % 30
      if (x < 20 && y >= 15) { n++; if ($2 != e) bad++ } else if ($2 != $1) bad++ }
    END { print n + 0, bad + 0 }' >"$TESTTMP/gap.txt"
  read n bad <"$TESTTMP/gap.txt"
  [ "$n" -gt 0 ] && [ "$bad" = 0 ] || fail "$1: $2: $bad of the values differ (gap of $n points expected to hold '$3')"
}
same_as_ref() { # file var...: the serial file's values
  f=$1; shift
  for v in "$@"; do
    vals "$ref" "$v" >"$TESTTMP/r.txt"; vals "$f" "$v" >"$TESTTMP/o.txt"
    [ -s "$TESTTMP/r.txt" ] && cmp -s "$TESTTMP/r.txt" "$TESTTMP/o.txt" || fail "$f: $v differs from the serial file's"
  done
}

# a member missing: mppnccombine's refusal, nothing written
cp -r "$TESTTMP/pe" "$TESTTMP/f"; rm "$TESTTMP/f/ocean.nc.0002"
expect_fail 1 "ERROR: missing at least $TESTTMP/f/ocean.nc.0002 from the input fileset.  Exiting." \
  "$comb" --mom5 "$TESTTMP/f/ocean.nc"
[ $rc -eq 9 ] || fail "a member missing: exit status $rc, mppnccombine's is 9"
[ ! -e "$TESTTMP/f/ocean.nc" ] || fail "an output was written for a set with a member missing"

# -f: combined without it, its points 0, exit status 1 and mppnccombine's warning
set +e
run 1 "$comb" --mom5 -f "$TESTTMP/f/ocean.nc" >"$TESTTMP/log" 2>"$TESTTMP/err"; rc=$?
set -e
[ $rc -eq 1 ] || { cat "$TESTTMP/log" "$TESTTMP/err"; fail "-f with a member missing: exit status $rc, mppnccombine's is 1"; }
grep -qF "Warning: output file may be incomplete!" "$TESTTMP/err" || { cat "$TESTTMP/err"; fail "-f: no warning"; }
grep -qF "Error: cannot open input file \"$TESTTMP/f/ocean.nc.0002\"" "$TESTTMP/err" || { cat "$TESTTMP/err"; fail "-f: the missing member is not named"; }
[ "$("$NCDUMP" -k "$TESTTMP/f/ocean.nc")" = classic ] || fail "-f: no classic output"
# -n / -e with the inputs named select nothing: said, not dropped in silence
run 1 "$comb" --mom5 -n 2 -e 3 --json "$TESTTMP/ne.json" "$TESTTMP/pe/ne.nc" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001" \
  "$TESTTMP/pe/ocean.nc.0002" "$TESTTMP/pe/ocean.nc.0003" >"$TESTTMP/log" 2>"$TESTTMP/err2" || { cat "$TESTTMP/err2"; fail "-n -e with inputs"; }
grep -qF "mom_combine: note: -n 2 / -e 3 have no effect: the 4 input files are named" "$TESTTMP/err2" || { cat "$TESTTMP/err2"; fail "-n -e: no note"; }
[ "$(json_get "$TESTTMP/ne.json" '[n["key"] for n in d["not_applied"]]')" = "['-n/-e']" ] \
  || fail "-n -e: not in the JSON's not_applied"
# the tool's own chunking default is nothing the user set: no 'has no effect' note on the classic output
! grep -q "chunking default" "$TESTTMP/err" || { cat "$TESTTMP/err"; fail "a note on mom_combine's own chunking default"; }
gap_is "$TESTTMP/f/ocean.nc" temp 0
gap_is "$TESTTMP/f/ocean.nc" eta_t 0
gap_is "$TESTTMP/f/ocean.nc" geolon_t 0
same_as_ref "$TESTTMP/f/ocean.nc" xt_ocean yt_ocean xu_ocean yu_ocean st_ocean time time_bnds average_DT

# -f -m: the fields' missing_value there (ncdump shows _FillValue = missing_value as _)
cp -r "$TESTTMP/pe" "$TESTTMP/fm"; rm "$TESTTMP/fm/ocean.nc.0002"
set +e
run 1 "$comb" --mom5 -f -m "$TESTTMP/fm/ocean.nc" >"$TESTTMP/log" 2>"$TESTTMP/err"; rc=$?
set -e
[ $rc -eq 1 ] || { cat "$TESTTMP/log" "$TESTTMP/err"; fail "-f -m: exit status $rc"; }
gap_is "$TESTTMP/fm/ocean.nc" temp _
gap_is "$TESTTMP/fm/ocean.nc" surface_temp _
"$NCDUMP" -h "$TESTTMP/fm/ocean.nc" | grep -qF "temp:missing_value = -1.e+20f ;" || fail "-m: temp's missing_value is not -1e20"

# fewer inputs named than the set has: no refusal (mppnccombine takes them verbatim), the rest 0
run 1 "$comb" --mom5 "$TESTTMP/pe/three.nc" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001" \
  "$TESTTMP/pe/ocean.nc.0003" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "3 of 4 inputs named"; }
grep -qF "3 of the 4 members of the set" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "no warning that 3 of 4 members are combined"; }
gap_is "$TESTTMP/pe/three.nc" temp 0
"$NCDUMP" -h "$TESTTMP/pe/three.nc" | grep -qF ":filename = \"$TESTTMP/pe/three.nc\" ;" || fail "filename attribute of three.nc"

# -a: the whole set written into that file; it then holds the serial file's data and keeps its header
run 1 "$comb" --mom5 -a "$TESTTMP/pe/three.nc" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001" \
  "$TESTTMP/pe/ocean.nc.0002" "$TESTTMP/pe/ocean.nc.0003" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "-a"; }
same_as_ref "$TESTTMP/pe/three.nc" temp salt u v age_global eta_t surface_temp geolon_t geolat_t geolon_c geolat_c \
  xt_ocean yt_ocean xu_ocean yu_ocean st_ocean time average_T1 average_T2 average_DT time_bnds
"$NCDUMP" -h "$TESTTMP/pe/three.nc" | grep -qF ":filename = \"$TESTTMP/pe/three.nc\" ;" || fail "-a changed the header"
# -a into a file of another shape, and into none
run 2 "$io" "$tiny" --out "$TESTTMP/big" --quiet --ni 48 --layout 2,1 --io_layout 1,1 >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io 48 x 30"; }
expect_fail 1 "-a: the output $TESTTMP/big/ocean.nc has dimension xt_ocean of length 48, the set's is 40" \
  "$comb" --mom5 -a "$TESTTMP/big/ocean.nc" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001"
expect_fail 1 "Error: cannot open the output netCDF file for appending!" "$comb" --mom5 -a "$TESTTMP/pe/none.nc" \
  "$TESTTMP/pe/ocean.nc.0000"
# -a onto a combined file of another set (other packing, other fields, other output
# times) is refused before anything is written, and the file is left as it was
run 4 "$io" "$tiny" --out "$TESTTMP/p1" --quiet --layout 2,2 --io_layout 0,0 --pack 1 >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io pack 1"; }
run 4 "$io" "$tiny" --out "$TESTTMP/f2" --quiet --layout 2,2 --io_layout 0,0 --fields "temp salt" >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io 2 fields"; }
run 4 "$io" "$tiny" --out "$TESTTMP/t2" --quiet --layout 2,2 --io_layout 0,0 --output_freq 3600 >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "mom_io output_freq 3600"; }
cp "$TESTTMP/pe/three.nc" "$TESTTMP/keep.nc"
for set in p1 f2; do
  expect_fail 1 "-a: the output $TESTTMP/pe/three.nc holds 'nk 5 pack 2; fields temp salt u:u" \
    "$comb" --mom5 -a "$TESTTMP/pe/three.nc" "$TESTTMP/$set/ocean.nc.0000" "$TESTTMP/$set/ocean.nc.0001" \
    "$TESTTMP/$set/ocean.nc.0002" "$TESTTMP/$set/ocean.nc.0003"
  grep -qF "it is a file of another set; nothing was appended" "$TESTTMP/err.txt" || fail "-a onto another set ($set)"
done
expect_fail 1 "-a: record 1 of the output $TESTTMP/pe/three.nc is at time 0.0104166667 days, in the set" \
  "$comb" --mom5 -a "$TESTTMP/pe/three.nc" "$TESTTMP/t2/ocean.nc.0000" "$TESTTMP/t2/ocean.nc.0001" \
  "$TESTTMP/t2/ocean.nc.0002" "$TESTTMP/t2/ocean.nc.0003"
cmp -s "$TESTTMP/pe/three.nc" "$TESTTMP/keep.nc" || fail "-a onto a file of another set changed it"
# a directory as the output (with or without -a) is named as one
mkdir "$TESTTMP/adir"
for o in "" -a; do
  expect_fail 1 "the output $TESTTMP/adir is a directory: name the combined file" \
    "$comb" --mom5 $o "$TESTTMP/adir" "$TESTTMP/pe/ocean.nc.0000" "$TESTTMP/pe/ocean.nc.0001"
done
pass
