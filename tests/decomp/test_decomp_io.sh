#!/bin/sh
# sanitizers: yes
# decomp_io replays a map recorded at 4 tasks (the formats' running example: an
# unsorted task, a hole, an element nobody holds) at 1, 2, 3 and 4 ranks with every
# driver built: identical files, --verify passes, the same checksums; the element
# nobody holds gets the variable's _FillValue (--fill_holes false: never written).  Then an E3SM-IO map with 3 decompositions,
# generated maps (holes, a random permutation, E3SM-like cubed-sphere columns),
# --sorted, the planner, and bad maps on every rank.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
T="$top_builddir/tests/decomp/dmap_tool"
D="$top_srcdir/tests/decomp/data"
W="$TESTTMP"
cd "$W"
# pioperf's rundate from a fixed time, so runs at different minutes write the same bytes
export SOURCE_DATE_EPOCH=1700000000

# the same bytes (classic files, raw MPI-IO) or the same h5dump (HDF5 files)
same_file() {   # same_file A B what
    case "$1" in
    *hdf5*) "$H5DUMP" "$1" | sed 1d >"$1.txt"; "$H5DUMP" "$2" | sed 1d >"$2.txt"; cmp -s "$1.txt" "$2.txt" || fail "$3" ;;
    *) cmp -s "$1" "$2" || fail "$3" ;;
    esac
}

# netcdf: its default netCDF-4 and, as pioperf's netcdf iotype, CDF-1 (classic, in parallel)
for drvfmt in pnetcdf netcdf netcdf:cdf1 hdf5 mpiio; do
    drv=${drvfmt%%:*}
    have_driver $drv || continue
    fmt=""
    case $drvfmt in *:*) fmt="--format ${drvfmt#*:}"; drv="$drv""_${drvfmt#*:}" ;; esac
    [ $drv = hdf5 ] && [ -z "$H5DUMP" ] && continue
    # the map has a hole: with nofill (the default) an HDF5 chunk's unwritten element holds
    # whatever memory the library had (it differed under AddressSanitizer), so the HDF5
    # runs fill, and the hole reads as the fill value in every file
    fill=""
    [ $drv = hdf5 ] && fill="--nofill false"
    # the file's suffix is its format's (doc/drivers.md): raw files are no netCDF
    sfx=.nc
    case $drv in mpiio) sfx=.raw ;; hdf5) sfx=.h5 ;; esac
    for np in 1 2 3 4; do
        run $np "$X" --decomp "$D/example_f.dat" --nvars 2 --records 2 --driver ${drv%%_*} $fmt --iotype blocking_collective $fill \
            --out "$drv$np" --verify --json "$drv$np.json" >"$drv$np.log" 2>&1 || { cat "$drv$np.log"; fail "$drv at $np ranks"; }
        grep -Eq "verify +PASS: 109 elements checked, 0 mismatches" "$drv$np.log" || fail "$drv at $np ranks: verify"
        json_get "$drv$np.json" 'd["checksums"]' >"$drv$np.sum"
        if [ $np -gt 1 ]; then
            same_file "$drv""1/decomp_io$sfx" "$drv$np/decomp_io$sfx" "$drv: the file at $np ranks differs from 1 rank's"
            cmp -s "$drv""1.sum" "$drv$np.sum" || fail "$drv: checksums at $np ranks differ"
        fi
    done
    [ -f "$drv""1/decomp_io$sfx" ] && { [ $sfx = .nc ] || [ ! -e "$drv""1/decomp_io.nc" ]; } \
        || fail "$drv: wrote $(ls "$drv""1"), expected decomp_io$sfx"
done
# adios2 (when built): BP output depends on the process count, so the checksums are
# compared (pnetcdf's, less rundate: the driver writes no text arrays, so adios2 runs
# have none) and climio_bp2nc's netCDF conversions of the 1- and 4-rank outputs must
# be the same bytes, with pnetcdf's values (the element nobody holds: the fill value)
if have_driver adios2; then
    for np in 1 2 3 4; do
        run $np "$X" --decomp "$D/example_f.dat" --nvars 2 --records 2 --driver adios2 \
            --out "adios2$np" --verify --json "adios2$np.json" >"adios2$np.log" 2>&1 || { cat "adios2$np.log"; fail "adios2 at $np ranks"; }
        grep -Eq "verify +PASS: 96 elements checked, 0 mismatches" "adios2$np.log" || fail "adios2 at $np ranks: verify"
        json_get "adios2$np.json" 'd["checksums"]' >"adios2$np.sum"
        "$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1]))["checksums"]; b=json.load(open(sys.argv[2]))["checksums"]
del a["rundate"]; sys.exit(not (a == b and len(b) == 2))' pnetcdf1.json "adios2$np.json" ||
            fail "adios2 at $np ranks: checksums differ from pnetcdf's"
    done
    B="$top_builddir/src/bp2nc/climio_bp2nc"
    for np in 1 4; do
        run 2 "$B" --input "adios2$np/decomp_io.nc.bp" --output "bp$np/decomp_io.nc" --quiet >bp$np.log 2>&1 ||
            { cat bp$np.log; fail "climio_bp2nc on adios2 at $np ranks"; }
    done
    cmp -s bp1/decomp_io.nc bp4/decomp_io.nc || fail "adios2: converted outputs of 1 and 4 ranks differ"
    for v in vard0001 vard0002; do
        "$NCMPIDUMP" -v $v pnetcdf4/decomp_io.nc | sed -n "/^ $v =/,\$p" >p_$v.txt
        "$NCMPIDUMP" -v $v bp4/decomp_io.nc | sed -n "/^ $v =/,\$p" >a_$v.txt
        [ -s p_$v.txt ] && cmp -s p_$v.txt a_$v.txt || fail "adios2: $v differs from pnetcdf's"
    done
elif [ "${CLIMIO_REQUIRE_ADIOS2:-0}" = 1 ]; then
    fail "no adios2 driver (CLIMIO_REQUIRE_ADIOS2=1)"
fi

# pioperf's char rundate(strlen = 13) through every driver: "YYYYMMDD hhmm" (UTC of SOURCE_DATE_EPOCH)
rd="20231114 2213"
for drv in pnetcdf netcdf; do
    have_driver $drv || continue
    "$NCDUMP" "$drv""2/decomp_io.nc" >rd_$drv.cdl
    grep -q "char rundate(strlen) ;" rd_$drv.cdl && grep -q "strlen = 13 ;" rd_$drv.cdl || fail "$drv: rundate's header"
    grep -qF " rundate = \"$rd\" ;" rd_$drv.cdl || fail "$drv: rundate"
done
if have_driver netcdf; then
    run 2 "$X" --decomp "$D/example_f.dat" --nvars 1 --driver netcdf --format nc4 --out rd_nc4 --quiet
    "$NCDUMP" rd_nc4/decomp_io.nc | grep -qF " rundate = \"$rd\" ;" || fail "netcdf (netCDF-4): rundate"
fi
if have_driver hdf5 && [ -n "$H5DUMP" ]; then   # netCDF-4's char: 1-byte strings
    "$H5DUMP" -d rundate hdf5""2/decomp_io.h5 >rd_h5.txt
    grep -q "STRSIZE 1;" rd_h5.txt && grep -q "CTYPE H5T_C_S1;" rd_h5.txt || fail "hdf5: rundate's type"
    grep -qF '(0): "2", "0", "2", "3", "1", "1", "1", "4", " ", "2", "2", "1", "3"' rd_h5.txt || fail "hdf5: rundate"
fi
if have_driver mpiio; then
    [ "$(grep -a -c "$rd" mpiio""2/decomp_io.raw)" -eq 1 ] || fail "mpiio: rundate's bytes"
fi
run 2 "$X" --decomp "$D/example_f.dat" --nvars 1 --driver null --out rd_null --quiet || fail "null driver with rundate"

grep -q "recorded at 4 tasks, replayed on 3 ranks" pnetcdf3.log || fail "report: recorded/replayed"
grep -q "D1: 4 x 6, 23 elements written per variable and record, 1 holes, 1 unheld, written with _FillValue" pnetcdf3.log ||
    fail "report: D1"
# the header is pioperf's: dim000001 the fastest (first listed) length
"$NCMPIDUMP" -h pnetcdf2/decomp_io.nc >h.cdl
grep -q "dim000001 = 6 ;" h.cdl && grep -q "dim000002 = 4 ;" h.cdl || fail "dimensions"
grep -q "double vard0002(time, dim000002, dim000001) ;" h.cdl || fail "variable shape"
grep -q "vard0001:_FillValue = 9.96920996838687e+36 ;" h.cdl || fail "_FillValue"
# nobody holds element 24 (index 23): it holds the _FillValue (ncmpidump's "_"), as
# PIO writes it; with --fill_holes false it is never written and reads as 0 (no fill)
run 4 "$X" --decomp "$D/example_f.dat" --nvars 1 --records 2 --fill_holes false --out nofill --quiet
for f in pnetcdf4:_ nofill:0; do
    "$NCMPIDUMP" -v vard0001 "${f%%:*}/decomp_io.nc" | "$PYTHON" -c '
import sys
t = sys.stdin.read()
v = [x.strip() for x in t.split("vard0001 =")[1].split(";")[0].replace("\n", " ").split(",")]
assert len(v) == 48, len(v)
assert v[23] == sys.argv[1] and v[47] == sys.argv[1], (v[23], v[47])
assert all(x not in ("0", "_") for i, x in enumerate(v) if i % 24 != 23), v
' "${f#*:}" || fail "${f%%:*}: the element nobody holds is not ${f#*:}, or a held one was not written"
done
# --sorted (PIO's sorted map) writes the same file
run 2 "$X" --decomp "$D/example_f.dat" --nvars 2 --records 2 --sorted --out sorted --quiet
cmp -s pnetcdf1/decomp_io.nc sorted/decomp_io.nc || fail "--sorted changed the file"

# the blob layout: each rank's elements contiguous, its requests beside them
run 3 "$X" --decomp "$D/example_f.dat" --layout blob --nvars 1 --out blob --verify >blob.log 2>&1 || { cat blob.log; fail "blob"; }
grep -Eq "verify +PASS: 23 elements checked" blob.log || fail "blob: verify"
"$NCMPIDUMP" blob/decomp_io.nc >blob.cdl
for want in "blob_elems = 23 ;" "nreqs = 4, 2, 2 ;" "blob_start = 0, 12, 18 ;" "blob_count = 12, 6, 5 ;" \
    "offsets = 0, 6, 9, 3, 12, 18, 15, 21 ;" "lengths = 3, 3, 3, 3, 3, 3, 3, 2 ;" ":dims = 4, 6 ;"; do
    grep -qF "$want" blob.cdl || fail "blob: $want"
done

# an E3SM-IO map: three decompositions, every rank count, fill pairs left out
have_driver pnetcdf || pass
run 1 "$T" e3sm tiny_map.nc "dat2nc -r " raw "$D/d1.dat" "$D/d2.dat" "$D/d3.dat"
for np in 1 2 3 4; do
    run $np "$X" --decomp tiny_map.nc --nvars 1 --out e$np --verify >e$np.log 2>&1 || { cat e$np.log; fail "e3sm map at $np"; }
    grep -Eq "verify +PASS" e$np.log || fail "e3sm map at $np ranks: verify"
    [ $np = 1 ] || cmp -s e1/decomp_io.nc e$np/decomp_io.nc || fail "e3sm map: the file at $np ranks differs"
done
"$NCMPIDUMP" -h e2/decomp_io.nc | grep -q "double D3.vard0001(time, D3.dim000002, D3.dim000001) ;" || fail "e3sm names"
run 2 "$X" --decomp tiny_map.nc --nvars 1 --layout blob --out eb --verify >eb.log 2>&1 || { cat eb.log; fail "e3sm blob"; }
grep -Eq "verify +PASS" eb.log || fail "e3sm map, blob layout: verify"
"$NCMPIDUMP" -h eb/decomp_io.nc | grep -q "int64 D2.offsets(D2.total_nreqs) ;" || fail "e3sm blob names"

# E3SM-IO's F case on a 3-decomposition map: h0 (414 variables, 1 record), h1 (51, --records)
for np in 2 3; do
    run $np "$X" --decomp "$top_srcdir/inputs/map_cs_case_4p.nc" --e3sm_case auto --records 2 --out f$np --verify \
        >f$np.log 2>&1 || { cat f$np.log; fail "F case at $np ranks"; }
    grep -Eq "verify +PASS" f$np.log || fail "F case at $np ranks: verify"
done
grep -q "f2/decomp_io_h0.nc: E3SM-IO case file, 1 record of double; variables per decomposition: D1 1 D2 323 D3 63, not partitioned 27 (rank 0)" f2.log ||
    fail "F case report"
for h in h0 h1; do cmp -s f2/decomp_io_$h.nc f3/decomp_io_$h.nc || fail "F case $h: 2 and 3 ranks differ"; done
[ "$("$NCMPIDUMP" -h f2/decomp_io_h0.nc | grep -Ec '^	(double|int|char) ')" -eq 414 ] || fail "F h0: 414 variables"
[ "$("$NCMPIDUMP" -h f2/decomp_io_h1.nc | grep -Ec '^	(double|int|char) ')" -eq 51 ] || fail "F h1: 51 variables"
"$NCMPIDUMP" -h f2/decomp_io_h1.nc | grep -q "time = UNLIMITED ; // (2 currently)" || fail "F h1: records"
expect_fail 2 "e3sm_case G needs an E3SM-IO map with 6 decompositions (F 3, G 6, I 5)" \
    "$X" --decomp "$top_srcdir/inputs/map_cs_case_4p.nc" --e3sm_case G

# generated maps recorded at 4 tasks, replayed at 3 ranks; the same maps written as
# E3SM-IO map files (holes dropped) replay at 2 ranks with the same checksums
for k in block roundrobin holes random cubed_sphere mom; do
    run 1 "$X" --make_decomp $k --gen_out g_$k.dat >/dev/null
    run 3 "$X" --decomp g_$k.dat --nvars 1 --out g3_$k --verify --json g3_$k.json >g_$k.log 2>&1 ||
        { cat g_$k.log; fail "$k at 3 ranks"; }
    grep -Eq "verify +PASS" g_$k.log || fail "$k: verify"
    run 4 "$X" --decomp g_$k.dat --nvars 1 --out g4_$k --quiet
    cmp -s g3_$k/decomp_io.nc g4_$k/decomp_io.nc || fail "$k: the file at 3 ranks differs from 4 ranks'"
    [ $k = cubed_sphere ] && continue   # its E3SM-IO file holds the F case's three decompositions
    run 1 "$X" --make_decomp $k --gen_format e3sm --gen_out g_$k.nc >/dev/null
    run 2 "$X" --decomp g_$k.nc --nvars 1 --out ge_$k --verify --json ge_$k.json >ge_$k.log 2>&1 ||
        { cat ge_$k.log; fail "$k as an E3SM-IO map at 2 ranks"; }
    grep -Eq "verify +PASS" ge_$k.log || fail "$k as an E3SM-IO map: verify"
    json_get g3_$k.json 'd["checksums"]' >g3_$k.sum
    json_get ge_$k.json 'd["checksums"]' >ge_$k.sum
    cmp -s g3_$k.sum ge_$k.sum || fail "$k: the E3SM-IO map's replay has other checksums than the PIO text map's"
done
grep -q "D1: 8 x 96, 768 elements written per variable and record, 128 holes, 0 unheld, written with _FillValue" g_holes.log ||
    fail "holes map report"

# gcrm_io's own decomposition as a PIO map: replayed at the same process count with
# gcrm_io's variable name, decomp_io writes exactly the values gcrm_io writes
G="$top_builddir/src/gcrm/gcrm_io"
if [ -x "$G" ]; then
    printf 'file_prefix "rel_"\n  field time\n  field relative\n' >rel.fcfg
    run 4 "$G" "$top_srcdir/inputs/zgrd.in.r3" --io_desc_file "$top_srcdir/inputs/ZGrd.desc" --io_config_file rel.fcfg \
        --restart_interval 0 --end_minutes 0 --cdf_output_path gcrm_out --quiet >gcrm.log 2>&1 ||
        { cat gcrm.log; fail "gcrm_io run"; }
    run 1 "$X" --make_decomp gcrm --gen_level 3 --gen_nlev 256 --gen_tasks 4 --gen_out gcrm.dat >/dev/null
    head -2 gcrm.dat | tr '\n' '|' | grep -q "^version 2001 npes 4 ndims 2 |256 642 |$" || fail "gcrm map header"
    grep -q "^0 41216$" gcrm.dat || fail "gcrm map: task 0 holds a pole and 160 cells of 256 layers"
    run 4 "$X" --decomp gcrm.dat --nvars 1 --var_names relative --var_type float --out gcrm_rep --verify >grep.log 2>&1 ||
        { cat grep.log; fail "replaying gcrm_io's map"; }
    grep -Eq "verify +PASS" grep.log || fail "gcrm map: verify"
    "$NCMPIDUMP" -v relative gcrm_out/rel_*.nc | sed -n '/^ relative =/,$p' >rel_gcrm.txt
    "$NCMPIDUMP" -v relative gcrm_rep/decomp_io.nc | sed -n '/^ relative =/,$p' >rel_rep.txt
    [ "$(wc -l <rel_gcrm.txt)" -gt 1000 ] || fail "gcrm_io's relative vorticity"
    cmp -s rel_gcrm.txt rel_rep.txt || fail "the replayed gcrm map wrote other values than gcrm_io"
    "$X" --decomp gcrm.dat --dry_run --nprocs 4 --nvars 1 >gplan.txt
    grep -q "per recorded task: 40960 to 41216 elements (mean 41088.0)" gplan.txt || fail "gcrm map: per-task elements"
    expect_fail 1 "gcrm_io cannot use 3 processes" "$X" --make_decomp gcrm --gen_level 3 --gen_tasks 3 --gen_out g3.dat
fi

# the planner: what the map holds, how fragmented it is, per-rank requests
"$X" --decomp "$D/example_f.dat" --dry_run --nprocs 3 --nvars 2 >plan.txt
grep -q "recorded at 4 tasks, replayed at 3 ranks (1 to 2 recorded tasks per rank)" plan.txt || fail "plan: header"
grep -q "D1: 4 x 6 = 24 elements; 23 named (95.8%), 1 holes, 1 unheld (their fill is not planned)" plan.txt ||
    fail "plan: coverage"
grep -q "per recorded task: 5 to 6 elements (mean 5.8), 2 to 2 contiguous runs (mean 2.0)" plan.txt || fail "plan: runs"
grep -Eq "^ +2 - 3 +8  100.0%$" plan.txt || fail "plan: histogram"
grep -q "requests (noncontiguous blocks) *4 *5.66667 *9" plan.txt || { cat plan.txt; fail "plan: requests per rank"; }

# bad maps stop every rank with the file and what is wrong
sed 's/^16 17 18 22 23/16 17 18 22 5/' "$D/example_f.dat" >dup.dat
expect_fail 3 "dup.dat: global element 4 (1-based 5) is named by task 1 and task 3: duplicate indices" "$X" --decomp dup.dat
# the planner finds them too, with the same message (it reads the map one task at a time)
expect_fail 1 "dup.dat: global element 4 (1-based 5) is named by task 1 and task 3: duplicate indices" \
    "$X" --decomp dup.dat --dry_run --nprocs 3
sed 's/^1 2 3 7 8 9/1 2 3 7 8 2/' "$D/example_f.dat" >dup0.dat
expect_fail 1 "dup0.dat: task 0 names global element 1 twice (1-based 2): duplicate indices" \
    "$X" --decomp dup0.dat --dry_run --nprocs 2
expect_fail 2 "nosuch.dat: cannot open the decomposition file" "$X" --decomp nosuch.dat
expect_fail 1 "var_names names 3 variables, nvars is 2: give at most nvars names" \
    "$X" --decomp "$D/example_f.dat" --nvars 2 --var_names a,b,c
expect_fail 2 "decomp_format is pio_nc, but the file is a e3sm file" "$X" --decomp tiny_map.nc --decomp_format pio_nc

# a map that names no element would write no record (a file of 0 records, --verify failing)
printf 'version 2001 npes 2 ndims 1\n4\n0 2\n0 0\n1 2\n0 -3\n' >holes_only.dat
expect_fail 2 "holes_only.dat: the map names no element of the array (every entry is a hole, or every task's map is empty)" \
    "$X" --decomp holes_only.dat --out ho
printf 'version 2001 npes 3 ndims 2\n4 2\n0 0\n\n1 0\n\n2 0\n\n' >empty_tasks.dat
expect_fail 3 "empty_tasks.dat: the map names no element of the array" "$X" --decomp empty_tasks.dat --out ho
[ ! -e ho ] || fail "a map of no element created the output"
expect_fail 1 "holes_only.dat: the map names no element of the array" "$X" --decomp holes_only.dat --dry_run --nprocs 2

# a number too big for 64 bits is named as such (it was "expected ... (an integer)")
sed '1s/npes 4/npes 99999999999999999999/' "$D/example_f.dat" >npes_big.dat
expect_fail 2 "npes_big.dat:1: the number of tasks is 99999999999999999999, out of range" "$X" --decomp npes_big.dat --out nb

# options the run cannot use are refused or said, not dropped in silence
expect_fail 2 "var_names names the canonical layout's variables; e3sm_case writes its own generic names" \
    "$X" --decomp "$top_srcdir/inputs/map_cs_case_4p.nc" --e3sm_case F --var_names a,b --out vn
expect_fail 2 "var_names names the canonical layout's variables; layout blob writes its own generic names" \
    "$X" --decomp "$D/example_f.dat" --layout blob --var_names a --out vn
run 2 "$X" --decomp "$D/example_f.dat" --nvars 1 --e3sm_fill true --out nt1 >nt1.log 2>&1 || { cat nt1.log; fail "e3sm_fill on a text map"; }
grep -q "note: e3sm_fill (command line) has no effect: .*example_f.dat is a pio_text map, not an E3SM-IO one" nt1.log ||
    fail "no note for e3sm_fill on a text map"
run 2 "$X" --decomp "$D/example_f.dat" --nvars 1 --e3sm_shifted true --out nt3 >nt3.log 2>&1 || { cat nt3.log; fail "e3sm_shifted on a text map"; }
grep -q "note: e3sm_shifted (command line) has no effect: .*example_f.dat is a pio_text map, not an E3SM-IO one" nt3.log ||
    fail "no note for e3sm_shifted on a text map"
run 2 "$X" --decomp tiny_map.nc --nvars 1 --decomp_order c --out nt2 >nt2.log 2>&1 || { cat nt2.log; fail "decomp_order on an e3sm map"; }
grep -q "note: decomp_order c (command line) has no effect: tiny_map.nc is a e3sm map" nt2.log ||
    fail "no note for decomp_order on a netCDF map"
# quantization of integer variables did nothing, without a word
if have_driver netcdf; then
  run 2 "$X" --decomp "$D/example_f.dat" --nvars 1 --driver netcdf --format nc4 --quantize bitround:3 --var_type int \
    --out nq --json nq.json >nq.log 2>&1 || { cat nq.log; fail "quantize with var_type int"; }
  grep -q "note: quantize bitround:3 (command line) has no effect: it applies to float and double variables, and var_type is int" \
    nq.log || { cat nq.log; fail "no note for quantize with var_type int"; }
  [ "$(json_get nq.json 'd["not_applied"][0]["key"]')" = quantize ] || fail "quantize with int: not in the JSON's not_applied"
fi
# var_names that would clash: every rank stops before anything is created
expect_fail 2 "var_names names a twice: each variable needs its own name" \
    "$X" --decomp "$D/example_f.dat" --nvars 2 --var_names a,a --out vn
expect_fail 2 "var_names: name 1: \"rundate\" is the name of one of the file's own dimensions or variables" \
    "$X" --decomp "$D/example_f.dat" --nvars 2 --var_names rundate --out vn
expect_fail 2 "var_names: vard0003 is the name variable 3 takes (var_names names only 1 of the 3)" \
    "$X" --decomp "$D/example_f.dat" --nvars 3 --var_names vard0003 --out vn
expect_fail 1 "has 49 characters: at most 48" \
    "$X" --decomp "$D/example_f.dat" --nvars 1 --var_names aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa --out vn
[ ! -e vn ] || fail "var_names refused, but the output was created"

# --make_decomp: converting a map onto itself would destroy it; lengths that overflow
cp "$D/example_f.dat" self.dat
expect_fail 1 "'./self.dat' is read by this run, as decomp (command line) 'self.dat', and would be written by gen_out (command line)" \
    "$X" --make_decomp convert --decomp self.dat --gen_out ./self.dat
cmp -s self.dat "$D/example_f.dat" || fail "convert onto itself changed the map"
cp tiny_map.nc self.nc
expect_fail 1 "is read by this run, as decomp (command line)" "$X" --make_decomp convert --decomp self.nc --gen_format e3sm --gen_out self.nc
cmp -s self.nc tiny_map.nc || fail "convert onto itself changed the E3SM-IO map"
# the output must not be the map being replayed: it was overwritten (exit 0, the map gone)
mkdir -p selfout && cp tiny_map.nc selfout/decomp_io.nc
expect_fail 2 "'selfout/decomp_io.nc' is read by this run, as decomp (command line) 'selfout/decomp_io.nc', and would be written by output_dir 'selfout' with file 'decomp_io' (default)" \
    "$X" --decomp selfout/decomp_io.nc --out selfout --nvars 1
cmp -s selfout/decomp_io.nc tiny_map.nc || fail "the replayed map was overwritten by the output"
expect_fail 1 "gen_dims \"4294967296,4294967296,4\": the lengths multiply beyond 2^62 elements" \
    "$X" --make_decomp block --gen_dims 4294967296,4294967296,4 --gen_out big.dat
expect_fail 1 "the lengths multiply beyond 2^62 elements" "$X" --make_decomp block --gen_dims 99999999999999999999 --gen_out big.dat
[ ! -e big.dat ] || fail "gen_dims refused, but big.dat was written"
pass
