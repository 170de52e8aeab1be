#!/bin/sh
# sanitizers: yes
# mom_combine's FRE-NCtools form: its refusals (first line and exit status as
# FRE-NCtools' mppnccombine: 1 on an error, 9 for a missing member, nothing
# written; -64 with -n4 refused where mppnccombine keeps the last), and -r,
# -x, -v, -M, -V, -a, -k on a small MOM5-like set.
. "$top_srcdir/tests/combine/common.sh"

fresh() {       # fresh DIR [CASE]: a new set in DIR
  rm -rf "$1"
  mkdir -p "$1"
  (cd "$1" && "$PYTHON" "$sets" "${2:-mom5}" . >/dev/null) || fail "making a set in $1"
}
# try RC DIR ARGS...: run in DIR, the exit status must be RC (out.txt, err.txt kept)
try() {
  want=$1 d=$2
  shift 2
  (cd "$d" && run 1 "$comb" "$@" >out.txt 2>err.txt)
  rc=$?
  [ "$rc" = "$want" ] || { cat "$d/out.txt" "$d/err.txt"; fail "mom_combine $*: exit status $rc, expected $want"; }
}
first_err() { head -n 1 "$1/err.txt"; }

d="$TESTTMP/s"
fresh "$d"
try 1 "$d"
grep -q "^Usage:  mom_combine" "$d/out.txt" || fail "no arguments: no usage"
try 1 "$d" -q ocean_month.nc
grep -q "Illegal option -q" "$d/err.txt" || fail "-q: not refused"
try 1 "$d" -d 12 ocean_month.nc
grep -q "Illegal deflate level 12" "$d/err.txt" || fail "-d 12: not refused"
# two output formats asked: refused (mppnccombine keeps the last in silence), nothing written; one given twice is one
for opts in "-64 -n4" "-n4 -64"; do
  try 1 "$d" $opts ocean_month.nc
  grep -q "error: -64 and -n4 ask for two output formats" "$d/err.txt" || fail "$opts: not refused"
  [ ! -e "$d/ocean_month.nc" ] || fail "$opts: an output was written"
done
try 0 "$d" -n4 -n4 ocean_month.nc
[ "$(ncdump -k "$d/ocean_month.nc")" = "netCDF-4 classic model" ] || fail "-n4 -n4: not netCDF-4 classic model"
rm "$d/ocean_month.nc"
try 1 "$d" --driver pnetcdf ocean_month.nc
grep -q "option --driver: climio's engine options apply to --mom5" "$d/err.txt" || fail "--driver: not refused"
try 0 "$d" -V
grep -q "FRE-NCtools mppnccombine" "$d/out.txt" || fail "-V"

# an existing output, even an empty one, is left alone
: >"$d/ocean_month.nc"
try 1 "$d" ocean_month.nc
[ "$(first_err "$d")" = "Error: output file seems to exist already!" ] || fail "existing output: $(first_err "$d")"
[ ! -s "$d/ocean_month.nc" ] || fail "the existing output was changed"
rm "$d/ocean_month.nc"

# a missing member: 9, mppnccombine's words on standard output, no output
mv "$d/ocean_month.nc.0002" "$d/hidden"
try 9 "$d" ocean_month.nc
grep -qx "ERROR: missing at least ocean_month.nc.0002 from the input file set.  Exiting." "$d/out.txt" || fail "missing member"
[ ! -e "$d/ocean_month.nc" ] || fail "missing member: an output was left"
try 9 "$d" all.nc ocean_month.nc.0000 ocean_month.nc.0002
try 1 "$d" -e 9 -n 5 ocean_month.nc
[ "$(first_err "$d")" = "Warning: No input file found in range." ] || fail "-n 5 -e 9: $(first_err "$d")"
try 1 "$d" nothing.nc
grep -q "Error: no input file: neither nothing.nc.0000 nor nothing.nc.000000 exists" "$d/err.txt" || fail "no set"
[ ! -e "$d/nothing.nc" ] || fail "no set: an output was left"
mv "$d/hidden" "$d/ocean_month.nc.0002"

# members that are not netCDF, of another set, with other records: each named,
# 1, nothing written; with -f the others are combined (1, the warning)
cp "$d/ocean_month.nc.0003" "$d/keep"
: >"$d/ocean_month.nc.0003"
try 1 "$d" ocean_month.nc
grep -q '^Error: input file "ocean_month.nc.0003" is empty (0 bytes)' "$d/err.txt" || fail "empty member"
grep -q "^Error: 1 member of the set is refused (each is named above); nothing was written" "$d/err.txt" \
  || { cat "$d/err.txt"; fail "empty member: no refusal"; }
[ ! -e "$d/ocean_month.nc" ] || fail "empty member: an output was left"
try 1 "$d" -f ocean_month.nc
grep -qx "Warning: output file may be incomplete!" "$d/err.txt" || fail "empty member with -f: no warning"
rm -f "$d/ocean_month.nc"
fresh "$TESTTMP/other" edited
cp "$TESTTMP/other/ocean_edit.nc.0001" "$d/ocean_month.nc.0003"
try 1 "$d" ocean_month.nc
grep -q 'ocean_month.nc.0003" has 3 dimensions and 6 variables (record dimension #2), "ocean_month.nc.0000" 7 and 12 (#5): not a member of the same set' \
  "$d/err.txt" || { cat "$d/err.txt"; fail "member of another set"; }
fresh "$TESTTMP/one" mom5-1rec
cp "$TESTTMP/one/ocean_month.nc.0003" "$d/ocean_month.nc.0003"
try 1 "$d" ocean_month.nc
grep -q '^Error: different number of records than the first input file! ("ocean_month.nc.0003": 1, "ocean_month.nc.0000": 2)' \
  "$d/err.txt" || { cat "$d/err.txt"; fail "member with other records"; }
[ ! -e "$d/ocean_month.nc" ] || fail "member with other records: an output was left"
mv "$d/keep" "$d/ocean_month.nc.0003"

# -r removes the members after a successful combine, not after a failed one
try 0 "$d" -r ocean_month.nc
[ -z "$(ls "$d" | grep 'ocean_month.nc.00')" ] || fail "-r: members left"
[ ! -s "$d/out.txt" ] || fail "a quiet run printed on standard output"
fresh "$d"
mv "$d/ocean_month.nc.0001" "$d/hidden"
try 1 "$d" -f -r ocean_month.nc
[ -e "$d/ocean_month.nc.0000" ] || fail "-f -r: members removed after an incomplete combine"
mv "$d/hidden" "$d/ocean_month.nc.0001"
rm "$d/ocean_month.nc"

# -x: a figure in MB, no output; -v: the progress; -M: resident sizes; -k: same file
try 0 "$d" -x ocean_month.nc
grep -qx "[0-9][0-9]*" "$d/out.txt" && [ ! -e "$d/ocean_month.nc" ] || fail "-x"
try 0 "$d" -v -M ocean_month.nc
grep -q '^  processing "ocean_month.nc.0003"' "$d/out.txt" || fail "-v: no progress"
grep -q '^rss=[0-9]* KB, delta=' "$d/out.txt" || fail "-M: no resident sizes"
mv "$d/ocean_month.nc" "$d/k1.nc"
try 0 "$d" -k 5 ocean_month.nc
grep -q "blocking factor (k) > total records (2). Setting blocking factor to 2." "$d/err.txt" || fail "-k 5: no note"
cmp "$d/ocean_month.nc" "$d/k1.nc" || fail "-k 5 wrote another file"

# fewer members than NumFilesInSet (named, or -e): combined as mppnccombine does,
# the others' points 0 (-m: missing_value), exit 0, and a line says so
try 0 "$d" part.nc ocean_month.nc.0001 ocean_month.nc.0002
grep -q '^Warning: 2 of the 4 members of the set (NumFilesInSet in "ocean_month.nc.0001") are combined; as in mppnccombine, the points of the others hold 0$' \
  "$d/err.txt" || { cat "$d/err.txt"; fail "2 of 4 members named: not said"; }
rm "$d/ocean_month.nc"
try 0 "$d" -e 2 -m ocean_month.nc
grep -q '^Warning: 3 of the 4 members .* hold missing_value (-m)$' "$d/err.txt" || { cat "$d/err.txt"; fail "-e 2: not said"; }
try 0 "$d" whole.nc ocean_month.nc.0000 ocean_month.nc.0001 ocean_month.nc.0002 ocean_month.nc.0003
[ ! -s "$d/err.txt" ] || { cat "$d/err.txt"; fail "the whole set named: a word on stderr"; }
rm -f "$d/part.nc" "$d/ocean_month.nc" "$d/whole.nc"

# -a: the set written again into an existing combined file gives the same data
cp "$d/k1.nc" "$d/a.nc"
try 0 "$d" -a a.nc ocean_month.nc.0000 ocean_month.nc.0001 ocean_month.nc.0002 ocean_month.nc.0003
cmp "$d/a.nc" "$d/k1.nc" || fail "-a changed the file"
try 1 "$d" -a none.nc ocean_month.nc.0000
grep -q "^Error: cannot open the output netCDF file for appending!" "$d/err.txt" || fail "-a without an output"
pass
