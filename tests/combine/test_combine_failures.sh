#!/bin/sh
# mom_combine's FRE-NCtools form when something fails or cannot apply: -a with an
# option that makes a file (-n4, -d, -s, -h, -64) refused; -a onto a file of
# another set refused; -a with -n/-e writes only the appended members' points;
# a block that does not fit in memory (ulimit -v) said before any output exists;
# a write that fails after the output was created (ulimit -f) leaves it renamed
# NAME.incomplete (NAME.incomplete.2 when that is taken), said once, and a rerun
# is not refused for it; under mpiexec and in the --mom5 form too.
. "$top_srcdir/tests/combine/common.sh"
make_set() { mkdir -p "$1" && (cd "$1" && "$PYTHON" "$sets" "$2" . >/dev/null) || fail "making the $2 set"; }
# try RC DIR ARGS...: run in DIR (serially: the limits below apply to the one process)
try() {
  want=$1 d=$2
  shift 2
  (cd "$d" && "$comb" "$@" >out.txt 2>err.txt)
  rc=$?
  [ "$rc" = "$want" ] || { cat "$d/err.txt"; fail "mom_combine $*: exit status $rc, expected $want"; }
}
d="$TESTTMP/s"
make_set "$d" mom5
m="ocean_month.nc.0000 ocean_month.nc.0001 ocean_month.nc.0002 ocean_month.nc.0003"
try 0 "$d" ocean_month.nc
cp "$d/ocean_month.nc" "$d/whole.nc"

# the members' own words about the set: NumFilesInSet 0 is FMS's where it does not
# record the set's size (fms2_io's per-PE files, a regional output numbered by
# PE): combined when the members are named, as mppnccombine does, and when they
# are numbered, every one found (they tile the domain; mppnccombine combines
# the first alone, test_combine_unsized.sh has the rest); a first member
# without NumFilesInSet whose neighbours have 4 is not of their set (mppnccombine
# combines the first alone, the rest of the grid 0); a domain_decomposition that
# starts the axis elsewhere, or holds a fraction, is refused with the member named
# edit SRC DST SED: a copy of member SRC with its CDL edited by SED
edit() { "$NCDUMP" "$1" | sed "$3" | ncgen -b -o "$2" || fail "ncgen $2"; }
s0=$d z="$TESTTMP/zero"   # (try sets d)
mkdir -p "$z"
for i in 0 1 2 3; do edit "$s0/ocean_month.nc.000$i" "$z/ocean_month.nc.000$i" 's/:NumFilesInSet = 4 ;/:NumFilesInSet = 0 ;/'; done
try 0 "$z" named.nc $m
"$NCDUMP" "$z/named.nc" | sed 's/named.nc/ocean_month.nc/; s/^netcdf named/netcdf ocean_month/' >"$z/named.cdl"
"$NCDUMP" "$s0/whole.nc" | sed 's/whole.nc/ocean_month.nc/; s/^netcdf whole/netcdf ocean_month/' >"$z/whole.cdl"
diff "$z/whole.cdl" "$z/named.cdl" >/dev/null || { diff "$z/whole.cdl" "$z/named.cdl" | head; fail "NumFilesInSet 0, named: not the set"; }
try 0 "$z" ocean_month.nc
"$NCDUMP" "$z/ocean_month.nc" >"$z/found.cdl"
diff "$z/whole.cdl" "$z/found.cdl" >/dev/null || { diff "$z/whole.cdl" "$z/found.cdl" | head; fail "NumFilesInSet 0, numbered: not the set"; }
rm "$z/ocean_month.nc"
edit "$s0/ocean_month.nc.0000" "$z/ocean_month.nc.0000" '/:NumFilesInSet = 4 ;/d'
for i in 1 2 3; do cp "$s0/ocean_month.nc.000$i" "$z/"; done
try 1 "$z" ocean_month.nc
grep -q "ocean_month.nc.0001\": NumFilesInSet is 4, in \"ocean_month.nc.0000\" absent: not a member of the same set" \
  "$z/err.txt" || { cat "$z/err.txt"; fail "no NumFilesInSet beside .0001: not said"; }
[ ! -e "$z/ocean_month.nc" ] || fail "no NumFilesInSet: an output was written"
# a count of files that is not a whole number (an int read would take 4.5 as 4)
edit "$s0/ocean_month.nc.0000" "$z/ocean_month.nc.0000" 's/:NumFilesInSet = 4 ;/:NumFilesInSet = 4.5 ;/'
try 1 "$z" ocean_month.nc
grep -q "ocean_month.nc.0000\": NumFilesInSet is not one integer" "$z/err.txt" \
  || { cat "$z/err.txt"; fail "NumFilesInSet 4.5: not refused"; }
[ ! -e "$z/ocean_month.nc" ] || fail "NumFilesInSet 4.5: an output was written"
# a member of another period of the set (its times one month on, the same shape):
# refused, named with the record and both times, serially and on 3 ranks; -f leaves it out
cp "$s0/ocean_month.nc.0000" "$z/"
edit "$s0/ocean_month.nc.0002" "$z/ocean_month.nc.0002" 's/^ time = 15.5, 46.5 ;/ time = 46.5, 77.5 ;/'
"$NCDUMP" -v time "$z/ocean_month.nc.0002" | grep -q "time = 46.5, 77.5" || fail "the time edit did not apply"
want='input file "ocean_month.nc.0002" holds record 1 at time 46.5, "ocean_month.nc.0000" at 15.5: a member of another run'
try 1 "$z" ocean_month.nc
grep -qF "$want" "$z/err.txt" || { cat "$z/err.txt"; fail "a member of another period: not refused"; }
[ ! -e "$z/ocean_month.nc" ] || fail "a member of another period: an output was written"
(cd "$z" && run 3 "$comb" ocean_month.nc >out.txt 2>err.txt) && fail "a member of another period, 3 ranks: exit 0"
grep -qF "$want" "$z/err.txt" || { cat "$z/err.txt"; fail "a member of another period, 3 ranks: not said"; }
[ ! -e "$z/ocean_month.nc" ] || fail "a member of another period, 3 ranks: an output was written"
try 1 "$z" -f ocean_month.nc
grep -qF "$want" "$z/err.txt" && "$NCDUMP" -v time "$z/ocean_month.nc" | grep -q "time = 15.5, 46.5" \
  || { cat "$z/err.txt"; fail "-f with a member of another period"; }
rm -f "$z/ocean_month.nc"
for bad in "xt_ocean:domain_decomposition = 1, 6, 4, 6 ;/xt_ocean:domain_decomposition = 2, 7, 5, 7 ;|starts the whole axis at point 2, the first member's" \
           "xt_ocean:domain_decomposition = 1, 6, 4, 6 ;/xt_ocean:domain_decomposition = 1., 6., 4.5, 6. ;|is not 4 integers" \
           "xt_ocean:domain_decomposition = 1, 6, 4, 6 ;/xt_ocean:domain_decomposition = 1, 6, 3, 6 ;|gives the member points 3 to 6, 4 of them, but its dimension xt_ocean has 3"; do
  for i in 0 2 3; do cp "$s0/ocean_month.nc.000$i" "$z/"; done
  edit "$s0/ocean_month.nc.0001" "$z/ocean_month.nc.0001" "s/${bad%%|*}/"
  try 1 "$z" ocean_month.nc
  grep -q "ocean_month.nc.0001\": xt_ocean:domain_decomposition .*${bad#*|}" "$z/err.txt" \
    || { cat "$z/err.txt"; fail "a member's placement (${bad#*|}): not refused"; }
  [ ! -e "$z/ocean_month.nc" ] || fail "${bad#*|}: an output was written"
done
d=$s0

# -a and the options that make a file: refused, the file unchanged
sum=$(cksum <"$d/whole.nc")
for opt in -n4 "-d 2" -s "-h 100" -64; do
  try 1 "$d" -a $opt whole.nc $m
  grep -q "^Error: ${opt%% *} with -a: -a writes into the existing output as it is" "$d/err.txt" \
    || { cat "$d/err.txt"; fail "-a $opt: not refused"; }
done
[ "$(cksum <"$d/whole.nc")" = "$sum" ] || fail "a refused -a changed the file"

# -a onto a file of another set (other shapes, other types): refused, unchanged
make_set "$TESTTMP/fv3" fv3
cp "$TESTTMP/fv3"/atmos_4xdaily.tile1.nc.000* "$d/"
try 1 "$d" -a whole.nc atmos_4xdaily.tile1.nc.0000 atmos_4xdaily.tile1.nc.0001 atmos_4xdaily.tile1.nc.0002 \
  atmos_4xdaily.tile1.nc.0003
grep -q "^Error: -a: whole.nc is not a combined file of this set: variable" "$d/err.txt" \
  || { cat "$d/err.txt"; fail "-a onto another set's file"; }
[ "$(cksum <"$d/whole.nc")" = "$sum" ] || fail "-a onto another set's file changed it"

# -a onto an output cut short (its last values gone): refused, unchanged; the
# values past its end would otherwise read as 0 and be written back as its own
cp "$d/whole.nc" "$d/short.nc"
truncate -s -100 "$d/short.nc"
sum=$(cksum <"$d/short.nc")
try 1 "$d" -a short.nc ocean_month.nc.0000 ocean_month.nc.0001
grep -q "^Error: -a: short.nc is cut short: it is [0-9]* bytes, but its header promises [0-9]* (100 bytes missing)" \
  "$d/err.txt" || { cat "$d/err.txt"; fail "-a onto an output cut short: not refused"; }
[ "$(cksum <"$d/short.nc")" = "$sum" ] || fail "-a onto an output cut short changed it"

# a member this user cannot read is said so: permission denied, not "not a netCDF
# file" (as root, the user nobody runs it where setpriv can make it)
asuser=""
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null && asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" != 0 ] || [ -n "$asuser" ]; then
  u="$TESTTMP/unreadable"
  mkdir -p "$u" && cp "$d"/ocean_month.nc.000? "$u/" && chmod 777 "$u" "$TESTTMP" && chmod 000 "$u/ocean_month.nc.0002"
  (cd "$u" && $asuser "$comb" ocean_month.nc >out.txt 2>err.txt)
  rc=$?
  [ $rc = 1 ] && grep -q 'input file "ocean_month.nc.0002" cannot be opened (Permission denied)$' "$u/err.txt" &&
    ! grep -q "not a netCDF" "$u/err.txt" || { cat "$u/err.txt"; fail "an unreadable member: exit $rc, not said so"; }
  chmod 644 "$u/ocean_month.nc.0002"
else
  echo "SKIPPED PART: root without setpriv: no unreadable member"
fi

# a member that is a symbolic link to itself: missing (9, FRE's line), and why
l="$TESTTMP/loop"
mkdir -p "$l" && cp "$d"/ocean_month.nc.000? "$l/" && rm "$l/ocean_month.nc.0001" && ln -s ocean_month.nc.0001 "$l/ocean_month.nc.0001"
s0=$d
try 9 "$l" ocean_month.nc
d=$s0
grep -q 'input file "ocean_month.nc.0001" is a symbolic link to "ocean_month.nc.0001", which leads back to itself' \
  "$l/err.txt" || { cat "$l/err.txt"; fail "a member linked to itself: not said"; }

# -a -n 2 -e 3 after -e 1: the second half joins the first, nothing of it is zeroed
for i in 0 1 2 3; do ln -s "ocean_month.nc.000$i" "$d/half.nc.000$i"; done
try 0 "$d" -e 1 half.nc
try 0 "$d" -a -n 2 -e 3 half.nc
"$NCDUMP" "$d/half.nc" | sed 's/half.nc/ocean_month.nc/; s/^netcdf half/netcdf whole/' >"$d/half.cdl"
"$NCDUMP" "$d/whole.nc" >"$d/whole.cdl"
diff "$d/whole.cdl" "$d/half.cdl" >/dev/null || { diff "$d/whole.cdl" "$d/half.cdl" | head; fail "-a -n 2 -e 3: not the whole set"; }

# a block that does not fit: said, nothing written
h="$TESTTMP/huge"
make_set "$h" huge
(cd "$h" && ulimit -v 4000000 && "$comb" huge.nc >out.txt 2>err.txt)
rc=$?
[ $rc = 1 ] || fail "a 15 GiB block under ulimit -v: exit status $rc"
grep -q "^Error: out of memory: the combine needs 15258.8 MiB for its largest block of variables (-k 1)" "$h/err.txt" \
  || { cat "$h/err.txt"; fail "out of memory: not said"; }
[ ! -e "$h/huge.nc" ] && [ ! -e "$h/huge.nc.incomplete" ] || fail "out of memory: an output was left"

# a write that fails once the output exists (netCDF-4, and 64-bit offset written
# at its header's offsets) under the file size limit, as a user sets it (SIGXFSZ
# not ignored by the shell: mom_combine ignores it itself, else it is killed with
# the partial file under its final name): renamed .incomplete, said once (not a
# line per variable and block); the rerun goes ahead
f="$TESTTMP/big"
make_set "$f" many-4
for opts in "" -64; do
  (cd "$f" && ulimit -f 40 && exec "$comb" $opts ocean_pe.nc >out.txt 2>err.txt)
  rc=$?
  [ $rc = 1 ] || { cat "$f/err.txt"; fail "ulimit -f $opts: exit status $rc"; }
  grep -Eq "^Error: cannot (write variable \"t\"'s values! \(ocean_pe.nc: |close ocean_pe.nc: .*\()File too large" \
    "$f/err.txt" || { cat "$f/err.txt"; fail "ulimit -f $opts: the write failure not said"; }
  grep -q "^Error: the combine failed after ocean_pe.nc was created: the incomplete file is now ocean_pe.nc.incomplete" \
    "$f/err.txt" || { cat "$f/err.txt"; fail "ulimit -f $opts: the renaming not said"; }
  [ ! -e "$f/ocean_pe.nc" ] && [ -s "$f/ocean_pe.nc.incomplete" ] || fail "ulimit -f $opts: not renamed"
  [ "$(grep -c "cannot write variable" "$f/err.txt")" -le 1 ] || { cat "$f/err.txt"; fail "ulimit -f $opts: a line per write"; }
  rm "$f/ocean_pe.nc.incomplete"
done
# an ocean_pe.nc.incomplete already there (an earlier one, or the user's) is kept
echo "my notes" >"$f/ocean_pe.nc.incomplete"
(cd "$f" && ulimit -f 40 && exec "$comb" ocean_pe.nc >out.txt 2>err.txt)
[ $? = 1 ] && [ "$(cat "$f/ocean_pe.nc.incomplete")" = "my notes" ] && [ -s "$f/ocean_pe.nc.incomplete.2" ] &&
  grep -q "the incomplete file is now ocean_pe.nc.incomplete.2" "$f/err.txt" \
  || { cat "$f/err.txt"; ls "$f"; fail "ulimit -f: an existing .incomplete replaced"; }
rm "$f"/ocean_pe.nc.incomplete*
try 0 "$f" ocean_pe.nc

# the same under mpiexec, a netCDF-4 output whose close fails: every rank exits 1,
# none killed by HDF5's exit handler on the file it could not close (SIGSEGV in
# MPI_Finalize); and the --mom5 form's output renamed .incomplete as well.  The
# limit is one MPI itself can start under; mom_io makes members that exceed it.
p="$TESTTMP/par"
run 2 "$top_builddir/src/mom/mom_io" "$top_srcdir/inputs/mom.in.tiny" --layout 2,1 --io_layout 2,1 --ni 400 \
  --nj 300 --records 1 --out "$p" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io: the set"; }
for form in "-n4" "--mom5"; do
  (cd "$p" && ulimit -f 8192 && exec timeout 300 $MPIEXEC -n 2 "$comb" $form ocean.nc >out.txt 2>err.txt)
  rc=$?
  [ $rc != 0 ] && [ $rc != 124 ] && ! grep -q "Segmentation fault\|signal 11" "$p/err.txt" || { cat "$p/err.txt"; fail "2 ranks, ulimit -f, $form: exit status $rc"; }
  grep -q "the incomplete file is now ocean.nc.incomplete" "$p/err.txt" || { cat "$p/err.txt"; fail "2 ranks, ulimit -f, $form: not said"; }
  [ ! -e "$p/ocean.nc" ] && [ -s "$p/ocean.nc.incomplete" ] || { ls "$p"; fail "2 ranks, ulimit -f, $form: not renamed"; }
  rm "$p/ocean.nc.incomplete"
done
pass
