#!/bin/sh
# scripts/bench-decomp: its arguments are checked, decomp_io's column comes from
# its JSON, and a program that does not print e3sm_io's report is named as such
# (the real e3sm_io is not part of the build; doc/decomp.md has a run with it).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "built without PnetCDF"
S="$top_srcdir/scripts/bench-decomp"
T="$top_builddir/tests/decomp/dmap_tool"
D="$top_srcdir/tests/decomp/data"
cd "$TESTTMP"
# an E3SM-IO map with three decompositions (the F case's shape)
run 1 "$T" e3sm tiny_map.nc "dat2nc -r " raw "$D/d1.dat" "$D/d2.dat" "$D/d3.dat" >/dev/null
set +e
"$PYTHON" "$S" --e3sm-io "$TESTTMP/none" --map tiny_map.nc >bad.txt 2>&1
rc=$?
set -e
[ $rc -ne 0 ] && grep -q -- "--e3sm-io $TESTTMP/none: not an executable file" bad.txt || { cat bad.txt; fail "a missing e3sm_io"; }
# /bin/true stands where e3sm_io should: it runs and prints nothing
set +e
"$PYTHON" "$S" --e3sm-io /bin/true --map tiny_map.nc --np 2 --repetitions 1 --dir "$TESTTMP" \
    --bin "$top_builddir/src/decomp" >out.txt 2>err.txt
rc=$?
set -e
[ $rc -eq 1 ] || { cat out.txt err.txt; fail "expected exit status 1 with a failed e3sm_io, got $rc"; }
grep -q "its report has no 'Total write amount'" out.txt || { cat out.txt; fail "the e3sm_io failure"; }
grep -Eq '^\| decomp_io \| [0-9]+\.[0-9]{2} \| [0-9]+ \| [0-9]+\.[0-9]{3} \|$' out.txt || { cat out.txt err.txt; fail "decomp_io's row"; }
grep -q "^bench-decomp: tiny_map.nc at 2 processes, 1 record(s); " out.txt || fail "the title line"
# --calls names a file that is no library: refused before any run
set +e
"$PYTHON" "$S" --e3sm-io /bin/true --map tiny_map.nc --np 2 --calls tiny_map.nc >out.txt 2>err.txt
rc=$?
set -e
[ $rc -eq 2 ] && grep -q -- "--calls tiny_map.nc: expected the call logger's library file (a shared object)" err.txt ||
    { cat out.txt err.txt; fail "--calls with a file that is no library: exit $rc"; }
! grep -q "run 1 of" err.txt || fail "--calls refused after a run started"
# the call logger, and a program whose calls run fails (/bin/true): the timed
# runs' table is printed all the same, then the calls' failure
SHIM="$top_builddir/tests/decomp/pnc_calls.so"
if [ -f "$SHIM" ] && [ -z "${LD_PRELOAD:-}${SANITIZER_FLAGS:-}" ]; then
    set +e
    "$PYTHON" "$S" --e3sm-io /bin/true --map tiny_map.nc --np 2 --repetitions 1 --dir "$TESTTMP" \
        --bin "$top_builddir/src/decomp" --calls "$SHIM" >out.txt 2>err.txt
    rc=$?
    set -e
    [ $rc -eq 1 ] && tail -1 err.txt | grep -q "^bench-decomp: e3sm_io: its report has no 'Total write amount'" ||
        { cat out.txt err.txt; fail "--calls, exit $rc"; }
    grep -Eq '^\| decomp_io \| [0-9]+\.[0-9]{2} \| [0-9]+ \| [0-9]+\.[0-9]{3} \|$' out.txt ||
        { cat out.txt err.txt; fail "the timed runs' table was lost to the calls' failure"; }
fi
pass
