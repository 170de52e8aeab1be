#!/bin/sh
# sanitizers: yes
# The same plan through every driver gives the same values, checked with the
# libraries' own tools: ncmpidiff (PnetCDF's CDF-5 file against netCDF's),
# ncdump (classic against netCDF-4 files), h5dump (netCDF-4 against plain
# HDF5), and the raw file against a CDF-5 file's data section byte for byte
# (rawcheck.py, offsets from ncoffsets).  The checksums of every run equal the
# null driver's (checked in exercise).  Two ranks, a different mode per driver.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
make_reference
P5= P1= N5= N4= N4C= H= R=
if have_driver pnetcdf; then
    exercise 2 pnetcdf cdf5 nonblocking_collective "$TESTTMP/p5"; P5=$FILE
    exercise 2 pnetcdf cdf1 blocking_independent "$TESTTMP/p1"; P1=$FILE
fi
if have_driver netcdf; then
    exercise 2 netcdf nc4 blocking_collective "$TESTTMP/n4"; N4=$FILE
    exercise 2 netcdf nc4c blocking_independent "$TESTTMP/n4c"; N4C=$FILE
    if run 1 "$EX" $PLAN --driver netcdf --format cdf5 --iotype blocking_collective --out "$TESTTMP/probe" --quiet >/dev/null 2>&1; then
        exercise 2 netcdf cdf5 blocking_independent "$TESTTMP/n5"; N5=$FILE
    fi
fi
if have_driver hdf5; then exercise 2 hdf5 hdf5 blocking_independent "$TESTTMP/h"; H=$FILE; fi
exercise 2 mpiio raw nonblocking_independent "$TESTTMP/r"; R=$FILE
checks=0
if [ -n "$P5" ] && [ -n "$N5" ]; then
    "$NCMPIDIFF" "$P5" "$N5" >"$TESTTMP/diff" 2>&1 || { cat "$TESTTMP/diff"; fail "ncmpidiff: PnetCDF's and netCDF's CDF-5 files differ"; }
    grep -q "All variables of two files are the same" "$TESTTMP/diff" || { cat "$TESTTMP/diff"; fail "ncmpidiff output"; }
    checks=$((checks + 1))
fi
if [ -n "$N4" ]; then
    for c in "$N5" "$P5"; do
        [ -n "$c" ] || continue
        ncdump_data "$c" >"$TESTTMP/a"; ncdump_data "$N4" >"$TESTTMP/b"
        cmp "$TESTTMP/a" "$TESTTMP/b" >/dev/null || { diff "$TESTTMP/a" "$TESTTMP/b" | head; fail "ncdump: $c and $N4 differ"; }
        checks=$((checks + 1))
        break
    done
fi
if [ -n "$N4C" ] && [ -n "$P1" ]; then
    ncdump_data "$P1" >"$TESTTMP/a"; ncdump_data "$N4C" >"$TESTTMP/b"
    cmp "$TESTTMP/a" "$TESTTMP/b" >/dev/null || { diff "$TESTTMP/a" "$TESTTMP/b" | head; fail "ncdump: $P1 and $N4C differ"; }
    checks=$((checks + 1))
fi
if [ -n "$N4" ] && [ -n "$H" ]; then
    h5dump_data "$N4" >"$TESTTMP/a"; h5dump_data "$H" >"$TESTTMP/b"
    [ -s "$TESTTMP/a" ] || fail "h5dump of $N4 printed nothing"
    cmp "$TESTTMP/a" "$TESTTMP/b" >/dev/null || { diff "$TESTTMP/a" "$TESTTMP/b" | head; fail "h5dump: $N4 and $H differ"; }
    checks=$((checks + 1))
fi
for c in "$P5" "$N5"; do
    [ -n "$c" ] || continue
    "$PYTHON" "$top_srcdir/tests/drivers/rawcheck.py" "$R" "$c" "$NCOFFSETS" || fail "raw file against $c"
    checks=$((checks + 1))
done
echo "$checks cross-driver comparisons"
[ $checks -gt 0 ] || skip "only the mpiio driver is built: nothing to compare with"
pass
