#!/bin/sh
# sanitizers: yes
# The decomposition-map readers and writers on the formats' worked examples: every
# reader at 1-4 ranks (the block rule spreads the 4 recorded tasks), the writers
# byte for byte, and bad files rejected with the file, line and what is wrong.
. "$top_srcdir/tests/lib.sh"
set -e
T="$top_builddir/tests/decomp/dmap_tool"
D="$top_srcdir/tests/decomp/data"
W="$TESTTMP"
command -v ncgen >/dev/null || skip "ncgen not found"
command -v ncmpidump >/dev/null || skip "ncmpidump not found"
have_driver pnetcdf || skip "built without PnetCDF"

same() {   # same EXPECTED ACTUAL what
    cmp -s "$1" "$2" || { diff "$1" "$2" >&2 || true; fail "$3"; }
}

# --- PIO text: both dimension orders, trailers, empty tasks, at 1-4 ranks
for np in 1 2 3 4; do
    run $np "$T" dump "$D/example_f.dat" >"$W/f.dump"
    same "$D/example.dump" "$W/f.dump" "example_f.dat read at $np ranks"
    run $np "$T" dump "$D/example_trace.dat" >"$W/t.dump"
    same "$D/example.dump" "$W/t.dump" "example_trace.dat (trace trailer) at $np ranks"
done
run 2 "$T" dump "$D/example_c.dat" c_order >"$W/c.dump"
grep -q '^D1 dims 4 6$' "$W/c.dump" || fail "C-order text: dims"
grep -q '^D1 task 1: 4 5 6 10 11 12$' "$W/c.dump" || fail "C-order text: sorted task 1"
run 1 "$T" dump "$D/example_c.dat" >"$W/cf.dump"
grep -q '^D1 dims 6 4$' "$W/cf.dump" || fail "C-order file read as Fortran order must list 6 4 (the file cannot tell)"
run 3 "$T" dump "$D/scorpio_empty.dat" >"$W/s.dump"
grep -q '^D1 task 3: $' "$W/s.dump" || fail "SCORPIO text: empty task 3"
grep -q '^D1 task 2: 5 6$' "$W/s.dump" || fail "SCORPIO text: task 2"

# --- PIO text writer: byte-identical to PIOc_writemap (no trace)
run 1 "$T" text "$W/f.dat" "$D/example_trace.dat"
same "$D/example_f.dat" "$W/f.dat" "text writer (Fortran order) differs from PIOc_writemap's bytes"

# --- PIO netCDF (format N): 496 bytes as PIO2 writes it; PIOc_write_decomp's text from it
ncgen -b -k classic -o "$W/n.nc" "$D/example_pio_nc.cdl"
[ "$(wc -c <"$W/n.nc")" -eq 496 ] || fail "example_pio_nc.nc is not 496 bytes"
for np in 1 4; do
    run $np "$T" dump "$W/n.nc" >"$W/n.dump"
    grep -q '^format pio_nc ntasks 4 ndecomps 1$' "$W/n.dump" || fail "pio_nc header at $np ranks"
    grep -q '^D1 task 2: 13 14 15 0 19 20 21$' "$W/n.dump" || fail "pio_nc hole at $np ranks"
    grep -q '^D1 task 3: 16 17 18 22 23$' "$W/n.dump" || fail "pio_nc padding at $np ranks"
done
run 1 "$T" text "$W/c.dat" "$W/n.nc" c_order
same "$D/example_c.dat" "$W/c.dat" "text writer (C order) differs from PIOc_write_decomp's bytes"

# --- PIO netCDF in netCDF-4 (PIOc_write_nc_decomp with NC_NETCDF4, HDF5 inside): the same
# reader (through netCDF-C), the same maps and the same checks as the classic file
if have_driver netcdf; then
    ncgen -b -k nc4 -o "$W/n4.nc" "$D/example_pio_nc.cdl"
    head -c 4 "$W/n4.nc" | grep -q HDF || fail "ncgen -k nc4 did not write an HDF5 file"
    run 1 "$T" dump "$W/n.nc" >"$W/n1.dump"
    for np in 1 3 4; do
        run $np "$T" dump "$W/n4.nc" >"$W/n4.dump"
        run $np "$T" dump "$W/n.nc" >"$W/n.dump"
        same "$W/n.dump" "$W/n4.dump" "pio_nc in netCDF-4 read at $np ranks"
    done
    for k in scorpio:example_scorpio tiny:tiny_map; do
        ncgen -b -k nc4 -o "$W/${k%%:*}4.nc" "$D/${k#*:}.cdl"
        run 2 "$T" dump "$W/${k%%:*}4.nc" >"$W/${k%%:*}4.dump"
    done
    sed 's/pio_text/scorpio_nc/' "$D/example.dump" >"$W/l4.want"
    same "$W/l4.want" "$W/scorpio4.dump" "scorpio_nc in netCDF-4"
    same "$D/tiny_map.dump" "$W/tiny4.dump" "e3sm map in netCDF-4"
    if [ -x "$top_builddir/src/decomp/decomp_io" ]; then
        run 3 "$top_builddir/src/decomp/decomp_io" --decomp "$W/n4.nc" --nvars 1 --out "$W/n4out" --verify \
            >"$W/n4run.log" 2>&1 || { cat "$W/n4run.log"; fail "decomp_io on a netCDF-4 map"; }
        grep -q "recorded at 4 tasks, replayed on 3 ranks" "$W/n4run.log" && grep -Eq "verify +PASS" "$W/n4run.log" ||
            fail "decomp_io on a netCDF-4 map: report or verify"
    fi
fi

# --- SCORPIO logger (format L)
ncgen -b -k 5 -o "$W/l.nc" "$D/example_scorpio.cdl"
for np in 1 3; do
    run $np "$T" dump "$W/l.nc" >"$W/l.dump"
    sed 's/pio_text/scorpio_nc/' "$D/example.dump" >"$W/l.want"
    same "$W/l.want" "$W/l.dump" "scorpio_nc read at $np ranks"
done

# --- E3SM-IO writer: dat2nc -r on d1 d2 d3, byte for byte (8612 bytes, header 3824)
run 1 "$T" e3sm "$W/tiny_map.nc" "./dat2nc -r -i list.txt -o tiny_map.nc " raw "$D/d1.dat" "$D/d2.dat" "$D/d3.dat"
[ "$(wc -c <"$W/tiny_map.nc")" -eq 8612 ] || fail "tiny_map.nc is not 8612 bytes"
ncoffsets "$W/tiny_map.nc" | grep -q 'size   = 3824 bytes' || fail "tiny_map.nc header is not 3824 bytes"
ncvalidator -q "$W/tiny_map.nc" || fail "ncvalidator rejects tiny_map.nc"
ncmpidump "$W/tiny_map.nc" | sed 1d >"$W/tiny.cdl"
sed 1d "$D/tiny_map.cdl" >"$W/tiny.want"
same "$W/tiny.want" "$W/tiny.cdl" "tiny_map.nc content"
# the same file rebuilt by PnetCDF's own encoder from the CDL, with dat2nc's hint
# (nc_header_align_size=8192): every byte agrees, header and padding included
PNETCDF_HINTS="nc_header_align_size=8192" ncmpigen -v 5 -o "$W/tiny_ref.nc" "$D/tiny_map.cdl"
[ "$(wc -c <"$W/tiny_ref.nc")" -eq 8612 ] || fail "ncmpigen's tiny_map.nc is not 8612 bytes (PNETCDF_HINTS ignored?)"
same "$W/tiny_ref.nc" "$W/tiny_map.nc" "tiny_map.nc differs from PnetCDF's encoding of the same file"
# the data where the specification puts it: D1.nreqs at 8192, D1.fill_starts at 8208, D1.offsets at 8224
[ "$(od -v -A n -t x1 -j 8192 -N 48 "$W/tiny_map.nc" | tr -d ' \n')" = \
  "000000010000000100000001000000000000000100000001000000010000000000000000000000020000000400000002" ] ||
    fail "tiny_map.nc: D1.nreqs, D1.fill_starts, D1.offsets are not at 8192, 8208, 8224"

# --- E3SM-IO reader: with and without fill_starts, at 1-4 ranks
for np in 1 2 3 4; do
    run $np "$T" dump "$W/tiny_map.nc" >"$W/e.dump"
    same "$D/tiny_map.dump" "$W/e.dump" "e3sm read at $np ranks"
done
grep -v 'fill_starts' "$D/tiny_map.cdl" >"$W/nofill.cdl"
ncmpigen -v 5 -o "$W/nofill.nc" "$W/nofill.cdl"
run 2 "$T" dump "$W/nofill.nc" >"$W/nf.dump"
same "$D/tiny_map.dump" "$W/nf.dump" "e3sm map without fill_starts"
# dat2nc -r -f -s: D3's rank 0 gets the fill pair (23,1); segments are laid out by
# nreqs, so ranks 1-3 must still read their own pairs (e3sm_io reads shifted ones)
sed -e 's/D3.total_nreqs = 8/D3.total_nreqs = 9/' -e 's/D3.nreqs = 2, 2, 2, 2/D3.nreqs = 3, 2, 2, 2/' \
    -e 's/D3.offsets = 0, 6, 9, 3, 12, 18, 15, 21/D3.offsets = 0, 6, 23, 9, 3, 12, 18, 15, 21/' \
    -e 's/D3.lengths = 3, 3, 3, 3, 3, 3, 3, 2/D3.lengths = 3, 3, 1, 3, 3, 3, 3, 3, 2/' "$D/tiny_map.cdl" >"$W/fill.cdl"
ncmpigen -v 5 -o "$W/fill.nc" "$W/fill.cdl"
run 4 "$T" dump "$W/fill.nc" >"$W/fl.dump"
same "$D/tiny_map.dump" "$W/fl.dump" "e3sm map with fill pairs (fill mode off)"
run 2 "$T" dump "$W/fill.nc" fill >"$W/fl2.dump"
grep -q '^D3 task 0: 1 2 3 7 8 9 24$' "$W/fl2.dump" || fail "e3sm fill mode: the fill pair"
# e3sm_io's own reading (e3sm_shifted): task t reads fill_starts[t] = 2 pairs from the
# sum of the fill_starts before it, 2t: pairs 0-1 (0,3) (6,3); 2-3 (23,1) (9,3) -- task
# 0's fill pair and task 1's first; 4-5 (3,3) (12,3); 6-7 (18,3) (15,3); (21,2) is never read
run 3 "$T" dump "$W/fill.nc" shifted >"$W/fl3.dump"
for l in "0: 1 2 3 7 8 9" "1: 24 10 11 12" "2: 4 5 6 13 14 15" "3: 19 20 21 16 17 18"; do
    grep -q "^D3 task $l\$" "$W/fl3.dump" || { cat "$W/fl3.dump"; fail "e3sm_shifted: D3 task $l"; }
done

# --- bad files
bad() {   # bad NP "message" FILE [opts]
    np=$1; msg=$2; shift 2
    expect_fail $np "$msg" "$T" dump "$@"
}
head -c 60 "$D/example_f.dat" >"$W/trunc.dat"
bad 2 "trunc.dat:6: the file ends where entry 3 of 6 of task 1's map was expected (truncated?)" "$W/trunc.dat"
sed 's/^2 7$/5 7/' "$D/example_f.dat" >"$W/id.dat"
bad 1 "id.dat:7: task id 5 where task 2 was expected" "$W/id.dat"
sed 's/^13 14 15 0/13 14 15 25/' "$D/example_f.dat" >"$W/beyond.dat"
bad 3 "beyond.dat:8: task 2's entry 4 is 25, beyond the array (4 x 6 = 24 elements)" "$W/beyond.dat"
sed 's/^16 17 18 22 23/16 17 18 22 5/' "$D/example_f.dat" >"$W/dup.dat"
for np in 1 3; do
    bad $np "dup.dat: global element 4 (1-based 5) is named by task 1 and task 3: duplicate indices" "$W/dup.dat"
done
sed 's/^16 17 18 22 23/16 17 18 22 17/' "$D/example_f.dat" >"$W/dup1.dat"
bad 2 "dup1.dat: task 3 names global element 16 twice (1-based 17): duplicate indices" "$W/dup1.dat"
sed 's/version 2001/version 1001/' "$D/example_f.dat" >"$W/v1001.dat"
bad 1 "v1001.dat:1: version 1001 is not supported" "$W/v1001.dat"
# ndims larger than the lengths given: the first task's id was taken for a length ("dimension length 3 is 0")
printf 'version 2001 npes 2 ndims 3\n4 4\n0 2\n1 2\n1 2\n3 4\n' >"$W/nd3.dat"
bad 1 "nd3.dat:3: dimension length 3 of 3 is 0, read from the line after the lengths: ndims 3, but line 2 holds 2 dimension lengths" "$W/nd3.dat"
sed 's/^10 11 12 4/10 11 x 4/' "$D/example_f.dat" >"$W/word.dat"
bad 2 "word.dat:6: expected entry 3 of 6 of task 1's map (an integer), found \"x\"" "$W/word.dat"
sed 's/npes 4/npes 5/' "$D/example_f.dat" >"$W/npes.dat"
bad 1 "npes.dat:12: the file ends where the id of task 4 (of npes 5) was expected (truncated?)" "$W/npes.dat"
sed 's/npes 4/npes 2000000000/' "$D/example_f.dat" >"$W/huge.dat"
bad 2 "huge.dat:1: npes 2000000000, but the file has room for at most 25 task entries" "$W/huge.dat"
sed 's/^6 4 $/6 -4 /' "$D/example_f.dat" >"$W/neg.dat"
bad 1 "neg.dat:2: dimension length 2 is -4: expected a positive length" "$W/neg.dat"
printf 'hello\n' >"$W/junk.dat"
bad 1 "junk.dat: not a decomposition file" "$W/junk.dat"
bad 2 "nosuch.dat: cannot open the decomposition file" "$W/nosuch.dat"
# a map that is not a regular file is named as what it is (it was "not a decomposition file", or with
# --decomp_format "the file ends where version was expected"); a FIFO with no writer is never opened
mkfifo "$W/fifo.dat"
bad 2 "fifo.dat: not a regular file (a pipe or FIFO): a decomposition map is read more than once, by every rank" \
    "$W/fifo.dat"
bad 1 "/dev/null: not a regular file (a character device)" /dev/null
for opts in "" "--decomp_format pio_text" "--dry_run"; do
    # shellcheck disable=SC2086
    expect_fail 2 "fifo.dat: not a regular file (a pipe or FIFO)" "$top_builddir/src/decomp/decomp_io" \
        --decomp "$W/fifo.dat" $opts --out "$W/fo"
done
expect_fail 1 "fifo.dat: not a regular file (a pipe or FIFO)" "$top_builddir/src/decomp/decomp_io" \
    --make_decomp convert --decomp "$W/fifo.dat" --gen_out "$W/fconv.dat"
# truncated classic files: refused from the header's extent before anything past the end is read
head -c 450 "$W/n.nc" >"$W/ntrunc.nc"
bad 2 "ntrunc.nc: the file is 450 bytes, but its header places variable data up to byte 496: truncated?" "$W/ntrunc.nc"
head -c 8400 "$W/tiny_map.nc" >"$W/etrunc.nc"
bad 3 "etrunc.nc: the file is 8400 bytes, but its header places variable data up to byte 8612: truncated?" "$W/etrunc.nc"
lsize=$(wc -c <"$W/l.nc")
head -c $((lsize - 8)) "$W/l.nc" >"$W/ltrunc.nc"
bad 1 "ltrunc.nc: the file is $((lsize - 8)) bytes, but its header places variable data up to byte $lsize: truncated?" "$W/ltrunc.nc"
sed 's/map_element = 7/map_element = 8/' "$D/example_pio_nc.cdl" | sed 's/ _,$/ _, _,/; s/ 20,$/ 20, _,/; s/_, _ ;/_, _, _ ;/' >"$W/me.cdl"
ncgen -b -k classic -o "$W/me.nc" "$W/me.cdl"
bad 2 "me.nc: dimension map_element is 8, attribute max_maplen 7: they must be equal" "$W/me.nc"
sed 's/maplen = 6, 6, 7, 5/maplen = 6, 6, 8, 5/' "$D/example_pio_nc.cdl" >"$W/ml.cdl"
ncgen -b -k classic -o "$W/ml.nc" "$W/ml.cdl"
bad 1 "ml.nc: variable maplen, task 2: 8: expected 0 to max_maplen (7)" "$W/ml.nc"
sed 's/ 21, 22, _, _/ 21, 24, _, _/' "$D/example_pio_nc.cdl" >"$W/nb.cdl"
ncgen -b -k classic -o "$W/nb.nc" "$W/nb.cdl"
bad 4 "nb.nc: variable map, task 3, element 4: 24 is beyond the array (24 elements, 0-based)" "$W/nb.nc"
if have_driver netcdf; then   # the same checks in netCDF-4 files
    ncgen -b -k nc4 -o "$W/me4.nc" "$W/me.cdl"
    bad 2 "me4.nc: dimension map_element is 8, attribute max_maplen 7: they must be equal" "$W/me4.nc"
    ncgen -b -k nc4 -o "$W/ml4.nc" "$W/ml.cdl"
    bad 1 "ml4.nc: variable maplen, task 2: 8: expected 0 to max_maplen (7)" "$W/ml4.nc"
    ncgen -b -k nc4 -o "$W/nb4.nc" "$W/nb.cdl"
    bad 4 "nb4.nc: variable map, task 3, element 4: 24 is beyond the array (24 elements, 0-based)" "$W/nb4.nc"
    sed 's/array_order = "C/array_order = "X/' "$D/example_pio_nc.cdl" >"$W/ao.cdl"
    ncgen -b -k nc4 -o "$W/ao4.nc" "$W/ao.cdl"
    bad 2 "ao4.nc: attribute array_order is \"X\": expected \"C\" or \"Fortran\"" "$W/ao4.nc"
fi
sed 's/counts = 6, 6, 7, 5/counts = 6, 6, 7, 4/' "$D/example_scorpio.cdl" >"$W/sc.cdl"
ncgen -b -k 5 -o "$W/sc.nc" "$W/sc.cdl"
bad 1 "sc.nc: variable counts adds up to 23, dimension gmaplen is 24: they must be equal" "$W/sc.nc"
sed 's/D2.nreqs = 2, 1, 2, 1/D2.nreqs = 2, 1, 2, 2/' "$D/tiny_map.cdl" >"$W/en.cdl"
ncmpigen -v 5 -o "$W/en.nc" "$W/en.cdl"
bad 2 "en.nc: variable D2.nreqs adds up to 7, dimension D2.total_nreqs is 6: they must be equal" "$W/en.nc"
sed 's/D3.offsets = 0, 6, 9, 3, 12, 18, 15, 21/D3.offsets = 0, 4, 9, 3, 12, 18, 15, 21/' "$D/tiny_map.cdl" >"$W/eb.cdl"
ncmpigen -v 5 -o "$W/eb.nc" "$W/eb.cdl"
bad 3 "eb.nc: D3.offsets[1] (task 0): request [4, 7) crosses a row of the fastest dimension (6)" "$W/eb.nc"
sed 's/D1.offsets = 0, 2, 4/D1.offsets = 0, 2, 5/' "$D/tiny_map.cdl" >"$W/ex.cdl"
ncmpigen -v 5 -o "$W/ex.nc" "$W/ex.cdl"
bad 1 "ex.nc: D1.offsets[2] (task 2): request [5, 7) is beyond the array (6 elements, 0-based)" "$W/ex.nc"
sed 's/D2.offsets = 5, 0, 1, 3, 2, 4/D2.offsets = 5, 0, 1, 3, 2, 0/' "$D/tiny_map.cdl" >"$W/ed.cdl"
ncmpigen -v 5 -o "$W/ed.nc" "$W/ed.cdl"
bad 2 "ed.nc: global element 0 (1-based 1) is named by task 0 and task 3: duplicate indices (decomposition D2)" "$W/ed.nc"
# lengths that multiply past 2^62 wrapped to a negative element count ("0 is beyond
# the array (-17179869180 elements)") or stopped the writer; every format refuses them
sed 's/global_size = 4, 6 ;/global_size = 2147483647, 2147483647 ;/' "$D/example_pio_nc.cdl" >"$W/big.cdl"
ncgen -b -k classic -o "$W/big.nc" "$W/big.cdl"
bad 2 "big.nc: decomposition D1's array is 2147483647 x 2147483647: its lengths multiply beyond 2^62 elements" "$W/big.nc"
# a map cut in its header is described; a netCDF-4 map cut short is refused by its superblock
head -c 300 "$W/n.nc" >"$W/cuthdr.nc"
bad 1 "cuthdr.nc: cannot open as netCDF: " "$W/cuthdr.nc"
grep -qF "(the file, 300 bytes, starts as a classic netCDF file (CDF-1) but its header is cut short or damaged)" "$W/err.txt" ||
    fail "a map cut in its header is not described"
if [ -e "$W/n4.nc" ]; then
    head -c 3000 "$W/n4.nc" >"$W/cut4.nc"
    bad 2 "cut4.nc is 3000 bytes, but its HDF5 superblock says the file ends at byte" "$W/cut4.nc"
fi
pass
