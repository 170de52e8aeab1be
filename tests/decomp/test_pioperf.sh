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
run 4 "$X" --pioperf pioperf.nl --pioperf_read true --json pp.json >out.txt 2>err.txt || { cat out.txt err.txt; fail "pioperf run"; }
grep -c "^  Testing decomp: " out.txt | grep -qx 3 || fail "three decompositions"
grep -q "^  Testing decomp: BLOCK$" out.txt || fail "Testing decomp line"
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
# climio's own report beside each pair of RESULT lines, and every combination in the JSON
[ "$(grep -c '^ climio: .*, [0-9]* I/O tasks: [0-9]* B written, .* verify PASS: [0-9]* elements checked, 0 mismatches$' out.txt)" -eq "$n" ] ||
    fail "a climio report line per RESULT write line"
grep -q '^ climio: pnetcdf/cdf5 nonblocking_collective, subset, 2 I/O tasks: ' out.txt || fail "climio line (pnetcdf, subset, 2)"
"$PYTHON" - "$n" <<'PY' || fail "the JSON of the pioperf run"
import json, sys
d = json.load(open("pp.json"))
r = d["results"]
assert d["experiment"] == "pioperf" and d["nprocs"] == 4, d
assert len(r) == int(sys.argv[1]), len(r)
assert all(x["verify"]["verdict"] == "pass" and x["verify"]["elements"] > 0 for x in r)
assert all(x["write"]["bytes"] > 0 and x["pioperf"]["write_mib_per_s"] > 0 for x in r)
b = [x for x in r if x["decomp"] == "BLOCK" and x["pio_typename"] == "pnetcdf"]
assert {(x["rearranger"], x["io_tasks"]) for x in b} == {("pio_box", 4), ("pio_box", 2), ("subset", 4), ("subset", 2)}, b
# 3 variables x 2 frames x 4 ranks x 100 doubles, and rundate's 13 bytes from the second file on
assert [x["write"]["bytes"] for x in b] == [19200] + [19213] * 3, [x["write"]["bytes"] for x in b]
PY
grep -q "^  complete$" out.txt || fail "complete"
# pioperf's file names and layout (the last decomposition, example_f.dat, is the one left)
[ -f out/pioperf.1-000004-1.nc ] && [ -f out/pioperf.2-000002-1.nc ] || fail "file names"
"$NCMPIDUMP" -h out/pioperf.1-000004-1.nc >h.cdl
grep -q "double vard0003(time, dim000002, dim000001) ;" h.cdl || fail "variables"
grep -q "time = UNLIMITED ; // (2 currently)" h.cdl || fail "nframes records"

# pioperf's rundate: char rundate(strlen), strlen = 13, defined first, holding
# date_and_time's DATE // ' ' // TIME(1:4); written from the second file of the run on
# (pioperf's `save :: firstpass`), so the first file keeps the fill (empty text)
cat >rd.nl <<NL
&pioperf
decompfile = 'BLOCK'
 pio_typenames = $types
 rearrangers = 1
 nframes = 1
 nvars = 1
 niotasks = 2, 1
 varsize = 10
/
NL
SOURCE_DATE_EPOCH=86399 run 2 "$X" --pioperf rd.nl --out rd >rd.txt 2>&1 || { cat rd.txt; fail "rundate run"; }
[ "$(grep -c '^ Writing rundate to file BLOCK$' rd.txt)" -eq $((2 * ntypes - 1)) ] || fail "Writing rundate lines"
"$NCMPIDUMP" rd/pioperf.1-000002-1.nc >rd1.cdl
sed -n '/^dimensions:/{n;p}' rd1.cdl | grep -q "strlen = 13 ;" || fail "strlen is not the first dimension"
sed -n '/^variables:/{n;p}' rd1.cdl | grep -q "char rundate(strlen) ;" || fail "rundate is not the first variable"
grep -q ' rundate = "" ;' rd1.cdl || fail "the first file's rundate was written"
"$NCMPIDUMP" rd/pioperf.1-000001-1.nc | grep -q ' rundate = "19700101 2359" ;' || fail "rundate of the second file"
if have_driver netcdf; then
    "$NCDUMP" rd/pioperf.1-000002-4.nc | grep -q ' rundate = "19700101 2359" ;' || fail "rundate in the netCDF-4 file"
fi
# the clock, local time, when SOURCE_DATE_EPOCH is not set
(unset SOURCE_DATE_EPOCH; run 2 "$X" --pioperf rd.nl --out rdnow >/dev/null 2>&1) || fail "rundate run (clock)"
"$NCMPIDUMP" rdnow/pioperf.1-000001-1.nc | grep -Eq ' rundate = "20[0-9]{6} [0-2][0-9][0-5][0-9]" ;' ||
    fail "rundate from the clock"

# the namelist as pioperf reads it: errors name the line
printf '&pioperf\n decompfile = "BLOCK"\n nvars = 2\n colour = 3\n/\n' >bad1.nl
expect_fail 2 "bad1.nl:4: unknown namelist item colour" "$X" --pioperf bad1.nl
printf '&pioperf\n decompfile = "BLOCK"\n nvars = two\n pio_typenames = "pnetcdf"\n/\n' >bad2.nl
expect_fail 1 "bad2.nl:3: nvars: expected an integer, found \"two\"" "$X" --pioperf bad2.nl
printf '&pioperf\n decompfile = "BLOCK"\n pio_typenames = "hdf4"\n nvars = 1\n/\n' >bad3.nl
expect_fail 2 "bad3.nl:3: pio_typenames: entry 1 'hdf4': expected pnetcdf, netcdf, netcdf4c or netcdf4p" "$X" --pioperf bad3.nl
# an unknown entry after known ones is refused too (pioperf drops it and the ones after it)
printf '&pioperf\n decompfile = "BLOCK"\n pio_typenames = "pnetcdf", "netcfd", "netcdf"\n nvars = 1\n/\n' >bad5.nl
expect_fail 2 "bad5.nl:3: pio_typenames: entry 2 'netcfd': expected pnetcdf" "$X" --pioperf bad5.nl
printf '&pioperf\n decompfile = "BLOCK"\n nvars = 1\n' >bad4.nl
expect_fail 1 "the &pioperf group does not end with /" "$X" --pioperf bad4.nl
# an experiment that would run nothing, or values an int cannot hold, stop every rank
nl() { printf '&pioperf\n decompfile = "BLOCK"\n pio_typenames = "pnetcdf"\n rearrangers = %s\n nvars = %s\n niotasks = %s\n varsize = %s\n/\n' "$@"; }
nl 1 2 8 16 >none1.nl
expect_fail 2 "none1.nl: niotasks starts with 8, more I/O tasks than the 2 ranks of this run: nothing would run" \
    "$X" --pioperf none1.nl --out none
nl 3 2 1 16 >none2.nl
expect_fail 2 "none2.nl:4: rearrangers: 3: expected 0 (both), 1 (box) or 2 (subset)" "$X" --pioperf none2.nl --out none
nl 1 -1 1 16 >none3.nl
expect_fail 2 "none3.nl:5: nvars: -1: expected 0 to 2147483647 (a Fortran integer)" "$X" --pioperf none3.nl --out none
nl 1 2 1 0 >none4.nl
expect_fail 2 "none4.nl: varsize lists no value above 0: nothing would run" "$X" --pioperf none4.nl --out none
nl 1 2 4294967297 16 >none5.nl
expect_fail 2 "none5.nl:6: niotasks: 4294967297: expected an I/O task count" "$X" --pioperf none5.nl --out none
# a count above the rank count ends the list, as in pioperf, with a note
nl 1 1 "2, 8, 1" 16 >cut.nl
run 2 "$X" --pioperf cut.nl --out cut >cut.txt 2>&1 || { cat cut.txt; fail "cut list"; }
# rearrangers = 0 is both, niotasks <= 0 every count (pioperf's defaults)
nl 0 1 0 16 >zero.nl
run 2 "$X" --pioperf zero.nl --out zero >zero.txt 2>&1 || { cat zero.txt; fail "rearrangers 0, niotasks 0"; }
[ "$(grep -c 'RESULT: write' zero.txt)" -eq 4 ] || fail "rearrangers 0 x niotasks 0 at 2 ranks: 4 writes"
# what the namelist sets, and what pioperf does not do, are refused on the command line (they were ignored:
# --dry_run wrote the files, --nvars and --repetitions changed nothing)
expect_fail 2 "command line: nvars: --pioperf runs the namelist's experiment, which sets it" "$X" --pioperf zero.nl --nvars 7 --out zz
expect_fail 2 "command line: driver: --pioperf runs the namelist's experiment" "$X" --pioperf zero.nl --driver hdf5 --out zz
expect_fail 2 "command line: dry_run: --pioperf has no planner" "$X" --pioperf zero.nl --dry_run --out zz
expect_fail 2 "command line: repetitions: --pioperf runs each combination once" "$X" --pioperf zero.nl --repetitions 3 --out zz
[ ! -e zz ] || fail "a refused --pioperf run created its output folder"
grep -q "note: cut.nl: niotasks 8 is more than the 2 ranks of this run: as in pioperf, the list ends there (1 I/O task count run)" \
    cut.txt || fail "no note for the cut niotasks list"
[ "$(grep -c 'RESULT: write' cut.txt)" -eq 1 ] || fail "cut list: one write"
pass
