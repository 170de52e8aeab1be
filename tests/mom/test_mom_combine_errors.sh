#!/bin/sh
# sanitizers: yes
# mom_combine refuses inconsistent sets with a clear message, a non-zero exit
# and no output: a missing member (found before the others are opened), a
# member with a different record count, members of different sets, a file that
# is not a set member, parameters that do not match the set.
. "$top_srcdir/tests/lib.sh"
set -e
if have_driver pnetcdf; then drv=pnetcdf; elif have_driver netcdf; then drv=netcdf; else skip "no pnetcdf or netcdf driver built"; fi
io="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
tiny="$top_srcdir/inputs/mom.in.tiny"
common="--driver $drv --quiet"
w() {   # np dir extra...: write a set
  np=$1; d=$2; shift 2
  run $np "$io" "$tiny" $common --out "$d" "$@" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "writing $d"; }
}
w 4 "$TESTTMP/a" --layout 2,2 --io_layout 2,2 --pattern iodomain
w 4 "$TESTTMP/b" --layout 2,2 --io_layout 2,2 --pattern iodomain --records 2
w 2 "$TESTTMP/c" --layout 2,1 --pattern perpe
w 1 "$TESTTMP/s" --pattern serial

cp -r "$TESTTMP/a" "$TESTTMP/miss"
rm "$TESTTMP/miss/ocean.nc.0002"
expect_fail 2 "$TESTTMP/miss/ocean.nc.0002: no such file: 1 of the 4 members of the set are missing (NumFilesInSet = 4 in $TESTTMP/miss/ocean.nc.0000)" \
  "$comb" "$tiny" $common --out "$TESTTMP/miss" --output "$TESTTMP/miss/out.nc"
[ ! -e "$TESTTMP/miss/out.nc" ] || fail "output written for a set with a missing member"

cp -r "$TESTTMP/a" "$TESTTMP/recs"
cp "$TESTTMP/b/ocean.nc.0003" "$TESTTMP/recs/"
expect_fail 3 "$TESTTMP/recs/ocean.nc.0003 has 2 records, $TESTTMP/recs/ocean.nc.0000 has 3" \
  "$comb" "$tiny" $common --out "$TESTTMP/recs" --output "$TESTTMP/recs/out.nc"
[ ! -e "$TESTTMP/recs/out.nc" ] || fail "output written for a set with different record counts"
expect_fail 1 "has 2 records" "$comb" "$tiny" $common --out "$TESTTMP/recs" --output "$TESTTMP/recs/out.nc"

cp -r "$TESTTMP/a" "$TESTTMP/mixed"
cp "$TESTTMP/c/ocean.nc.0001" "$TESTTMP/mixed/"
expect_fail 2 "$TESTTMP/mixed/ocean.nc.0001 says NumFilesInSet = 2, $TESTTMP/mixed/ocean.nc.0000 says 4" \
  "$comb" "$tiny" $common --out "$TESTTMP/mixed"

mkdir -p "$TESTTMP/notset"
cp "$TESTTMP/s/ocean.nc" "$TESTTMP/notset/ocean.nc.0000"
expect_fail 2 "ocean.nc.0000 has no NumFilesInSet attribute: it is not a member of an FMS file set" \
  "$comb" "$tiny" $common --out "$TESTTMP/notset"

expect_fail 2 "the first member of the set is missing" "$comb" "$tiny" $common --input "$TESTTMP/nothing/ocean.nc"
expect_fail 2 "its domain_decomposition describes a 40 x 30 grid, the parameters" "$comb" "$tiny" $common \
  --out "$TESTTMP/a" --ni 48 --output "$TESTTMP/a/out.nc"
[ ! -e "$TESTTMP/a/out.nc" ] || fail "output written for mismatched parameters"
expect_fail 2 "ocean.nc.0000 was written with 'nk 5 pack 2; fields temp salt u:u v:u age_global;" "$comb" "$tiny" $common \
  --out "$TESTTMP/a" --pack 1 --output "$TESTTMP/a/out.nc"
grep -qF "the parameters ($tiny) give 'nk 5 pack 1;" "$TESTTMP/err.txt" || fail "the pack mismatch message lacks the parameters' side"
expect_fail 1 "was written with 'nk 5 pack 2" "$comb" "$tiny" $common --out "$TESTTMP/a" --nk 4 --output "$TESTTMP/a/out.nc"
[ ! -e "$TESTTMP/a/out.nc" ] || fail "output written for a different nk"
# An output that is an input (by name or through a link) is refused and the
# input is left as it was (issue 15 item 1: it used to be overwritten).
cp -r "$TESTTMP/a" "$TESTTMP/self"
sum1=$(cksum <"$TESTTMP/self/ocean.nc.0001")
expect_fail 2 "'$TESTTMP/self/ocean.nc.0001' is read by this run, as a member of the set '$TESTTMP/self/ocean.nc.0001', and would be written by the output" \
  "$comb" "$tiny" $common --out "$TESTTMP/self" --output "$TESTTMP/self/ocean.nc.0001"
[ "$(cksum <"$TESTTMP/self/ocean.nc.0001")" = "$sum1" ] || fail "the member named as output was changed"
ln -s ocean.nc.0002 "$TESTTMP/self/link.nc"
sum2=$(cksum <"$TESTTMP/self/ocean.nc.0002")
expect_fail 1 "'$TESTTMP/self/link.nc' is read by this run, as a member of the set '$TESTTMP/self/ocean.nc.0002', and would be written by the output" \
  "$comb" "$tiny" $common --out "$TESTTMP/self" --output "$TESTTMP/self/link.nc"
[ "$(cksum <"$TESTTMP/self/ocean.nc.0002")" = "$sum2" ] || fail "the member behind a link named as output was changed"

# A member shorter than its header says (item 2): refused with the byte counts
# before anything is written (classic members: where PnetCDF says the data ends,
# ncvalidator's check).
if have_driver pnetcdf; then
  cp -r "$TESTTMP/a" "$TESTTMP/trunc"
  size=$(wc -c <"$TESTTMP/trunc/ocean.nc.0002")
  truncate -s -3000 "$TESTTMP/trunc/ocean.nc.0002"
  expect_fail 2 "$TESTTMP/trunc/ocean.nc.0002 is $((size - 3000)) bytes, but its header says its data ends at byte $size: the file is truncated (3000 bytes missing)" \
    "$comb" "$tiny" --driver pnetcdf --quiet --out "$TESTTMP/trunc" --output "$TESTTMP/trunc/out.nc"
  [ ! -e "$TESTTMP/trunc/out.nc" ] || fail "output written for a truncated member"
fi
# netCDF-4 members: the end of file their HDF5 superblock records (HDF5 itself
# refuses the file, saying only "HDF error" through netCDF-C), the first member too
if have_driver netcdf; then
  run 4 "$io" "$tiny" --driver netcdf --format nc4 --quiet --out "$TESTTMP/t4" --layout 2,2 --io_layout 2,2 \
    --pattern iodomain >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "writing a netCDF-4 set"; }
  for k in 0002 0000; do
    cp -r "$TESTTMP/t4" "$TESTTMP/t4-$k"
    size=$(wc -c <"$TESTTMP/t4-$k/ocean.nc.$k")
    truncate -s -3000 "$TESTTMP/t4-$k/ocean.nc.$k"
    expect_fail 2 "$TESTTMP/t4-$k/ocean.nc.$k is $((size - 3000)) bytes, but its HDF5 superblock says the file ends at byte $size: the file is truncated (3000 bytes missing); nothing was combined" \
      "$comb" "$tiny" --driver netcdf --quiet --out "$TESTTMP/t4-$k" --output "$TESTTMP/t4-$k/out.nc"
    [ ! -e "$TESTTMP/t4-$k/out.nc" ] || fail "output written for a truncated netCDF-4 member $k"
  done
fi

# Members with other output times (item 3): same record count, other time axis.
w 4 "$TESTTMP/f" --layout 2,2 --io_layout 2,2 --pattern iodomain --output_freq 3600
cp -r "$TESTTMP/a" "$TESTTMP/times"
cp "$TESTTMP/f/ocean.nc.0003" "$TESTTMP/times/"
expect_fail 2 "$TESTTMP/times/ocean.nc.0003: record 1 is at time 0.0208333333 days, in $TESTTMP/times/ocean.nc.0000 at 0.0104166667 days: the members were written with different output times" \
  "$comb" "$tiny" $common --out "$TESTTMP/times" --output "$TESTTMP/times/out.nc"
[ ! -e "$TESTTMP/times/out.nc" ] || fail "output written for members with different time axes"

# An empty member and a directory, a FIFO or a device in a member's place are named.
cp -r "$TESTTMP/a" "$TESTTMP/empty"
: >"$TESTTMP/empty/ocean.nc.0001"
expect_fail 2 "$TESTTMP/empty/ocean.nc.0001 is empty (0 bytes): not a netCDF file" \
  "$comb" "$tiny" $common --out "$TESTTMP/empty" --output "$TESTTMP/empty/out.nc"
cp -r "$TESTTMP/a" "$TESTTMP/dir"
rm "$TESTTMP/dir/ocean.nc.0003"; mkdir "$TESTTMP/dir/ocean.nc.0003"
expect_fail 2 "$TESTTMP/dir/ocean.nc.0003 is a directory, not a member file of the set" \
  "$comb" "$tiny" $common --out "$TESTTMP/dir" --output "$TESTTMP/dir/out.nc"
rm "$TESTTMP/dir/ocean.nc.0000"; mkdir "$TESTTMP/dir/ocean.nc.0000"
expect_fail 1 "$TESTTMP/dir/ocean.nc.0000 is a directory, not a member file of the set" \
  "$comb" "$tiny" $common --out "$TESTTMP/dir" --output "$TESTTMP/dir/out.nc"
# a FIFO is named as one (it was called "empty (0 bytes)"), never opened, in the
# first place too; so is a device
cp -r "$TESTTMP/a" "$TESTTMP/fifo"
rm "$TESTTMP/fifo/ocean.nc.0002"; mkfifo "$TESTTMP/fifo/ocean.nc.0002"
expect_fail 2 "$TESTTMP/fifo/ocean.nc.0002 is a FIFO (named pipe), not a member file of the set" \
  "$comb" "$tiny" $common --out "$TESTTMP/fifo" --output "$TESTTMP/fifo/out.nc"
rm "$TESTTMP/fifo/ocean.nc.0000"; ln -s /dev/null "$TESTTMP/fifo/ocean.nc.0000"
expect_fail 1 "$TESTTMP/fifo/ocean.nc.0000 is a character device, not a member file of the set" \
  "$comb" "$tiny" $common --out "$TESTTMP/fifo" --output "$TESTTMP/fifo/out.nc"

# A member whose header is cut short, or that is no netCDF file at all, is named
# as such (the libraries say "NC_UNLIMITED size already in use" / "Unknown error")
cp -r "$TESTTMP/a" "$TESTTMP/cut"
truncate -s 100 "$TESTTMP/cut/ocean.nc.0002"
expect_fail 2 "open failed on $TESTTMP/cut/ocean.nc.0002: " \
  "$comb" "$tiny" $common --out "$TESTTMP/cut" --output "$TESTTMP/cut/out.nc"
grep -qF "(the file, 100 bytes, starts as a classic netCDF file (CDF-1) but its header is cut short or damaged)" \
  "$TESTTMP/err.txt" || { cat "$TESTTMP/err.txt"; fail "a member cut in its header is not named as such"; }
echo "not netcdf" >"$TESTTMP/cut/ocean.nc.0002"
expect_fail 2 "(the file, 11 bytes, is not a netCDF or HDF5 file: it does not start with either's signature)" \
  "$comb" "$tiny" $common --out "$TESTTMP/cut" --output "$TESTTMP/cut/out.nc"
[ ! -e "$TESTTMP/cut/out.nc" ] || fail "output written for a member that is no netCDF file"

# and the good set combines
run 2 "$comb" "$tiny" $common --out "$TESTTMP/a" --output "$TESTTMP/a/out.nc" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "good set"; }
grep -q "mom_combine: 4 members of $TESTTMP/a/ocean.nc (3 records" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "combine report line"; }
pass
