#!/bin/sh
# decomp_io --pioperf pioperf.nl runs PIO's pioperf experiment: the namelist as
# pioperf reads it, its files and variables, and its RESULT lines (write, and the
# read-back that checks every value).
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
D="$top_srcdir/tests/decomp/data"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"
types="'pnetcdf'"
have_driver netcdf && types="'pnetcdf' 'netcdf4p'"
cat >pioperf.nl <<NL
&pioperf
decompfile=   'BLOCK', 'ROUNDROBIN', '$D/example_f.dat', ''
 pio_typenames = $types
 rearrangers = 1,2
 nframes = 2
 nvars = 3
 niotasks = 4, 2
 varsize = 100   ! elements per rank for BLOCK and ROUNDROBIN
/
NL
run 4 "$X" --pioperf pioperf.nl >out.txt 2>err.txt || { cat out.txt err.txt; fail "pioperf run"; }
grep -c "^ Testing decomp: " out.txt | grep -qx 3 || fail "three decompositions"
grep -q "^ Testing decomp: BLOCK$" out.txt || fail "Testing decomp line"
# (a15,a9,i10,i10,i10,2f20.10) and (a15,a9,i10,i10,i10,f20.10)
grep -Eq '^ RESULT: write       BOX         1         4         3 +[0-9]+\.[0-9]{10} +[0-9]+\.[0-9]{10}$' out.txt ||
    fail "RESULT write line (BOX, pnetcdf, 4 tasks)"
grep -Eq '^  RESULT: read    SUBSET         1         2         3 +[0-9]+\.[0-9]{10}$' out.txt ||
    fail "RESULT read line (SUBSET, pnetcdf, 2 tasks)"
ntypes=$(echo $types | wc -w)
n=$(grep -c "^ RESULT: write" out.txt)
[ "$n" -eq $((3 * ntypes * 2 * 2)) ] || fail "expected $((3 * ntypes * 4)) write lines, found $n"
[ "$(grep -c '^  RESULT: read' out.txt)" -eq "$n" ] || fail "a read line per write line"
grep -q "ERROR" out.txt && fail "the read-back found mismatches"
grep -q "^ complete$" out.txt || fail "complete"
# pioperf's file names and layout (the last decomposition, example_f.dat, is the one left)
[ -f out/pioperf.1-000004-1.nc ] && [ -f out/pioperf.2-000002-1.nc ] || fail "file names"
"$NCMPIDUMP" -h out/pioperf.1-000004-1.nc >h.cdl
grep -q "double vard0003(time, dim000002, dim000001) ;" h.cdl || fail "variables"
grep -q "time = UNLIMITED ; // (2 currently)" h.cdl || fail "nframes records"

# the namelist as pioperf reads it: errors name the line
printf '&pioperf\n decompfile = "BLOCK"\n nvars = 2\n colour = 3\n/\n' >bad1.nl
expect_fail 2 "bad1.nl:4: unknown namelist item colour" "$X" --pioperf bad1.nl
printf '&pioperf\n decompfile = "BLOCK"\n nvars = two\n pio_typenames = "pnetcdf"\n/\n' >bad2.nl
expect_fail 1 "bad2.nl:3: nvars: expected an integer, found \"two\"" "$X" --pioperf bad2.nl
printf '&pioperf\n decompfile = "BLOCK"\n pio_typenames = "hdf4"\n nvars = 1\n/\n' >bad3.nl
expect_fail 2 "bad3.nl:3: pio_typenames names no iotype pioperf knows" "$X" --pioperf bad3.nl
printf '&pioperf\n decompfile = "BLOCK"\n nvars = 1\n' >bad4.nl
expect_fail 1 "the &pioperf group does not end with /" "$X" --pioperf bad4.nl
pass
