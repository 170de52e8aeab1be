#!/bin/sh
# sanitizers: yes
# decomp_io --e3sm_case writes E3SM-IO's F, G and I history files as E3SM-IO
# writes them: its dimensions (one ncol), fixed-size and record variables of
# types char, int and double, its variable and global attributes, the same
# header (size and bytes), the same file size and the same number of write
# requests (E3SM-IO's never cross a row of the fastest dimension); and the same
# files in E3SM-IO's blob layout.
#
# The figures below were measured with the real E3SM-IO (github
# Parallel-NetCDF/E3SM-IO edb414b, PnetCDF 1.12.3) on the same small maps,
# `e3sm_io MAP -k -a pnetcdf -x canonical -r 2` at 2 and 4 ranks (its "Total no.
# noncontiguous requests", ncoffsets' header size, the file sizes).  The maps:
# F is inputs/map_cs_case_4p.nc (ncol 96, 4 levels); G and I are made here from
# generated maps with G's 6 and I's 5 decompositions' shapes.
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
T="$top_builddir/tests/decomp/dmap_tool"
have_driver pnetcdf || skip "built without PnetCDF"
cd "$TESTTMP"

gen() { run 1 "$X" --make_decomp "$1" --gen_dims "$2" --gen_tasks 4 --gen_out "$3" >/dev/null || fail "make_decomp $*"; }
# G: nCells 6, nEdges 9, nVertices 5, nVertLevels 3 (D3: cells x levels, D6: cells x levels + 1)
gen block 6 g1.dat; gen roundrobin 9 g2.dat; gen block 6,3 g3.dat; gen random 9,3 g4.dat
gen roundrobin 5,3 g5.dat; gen block 6,4 g6.dat
run 1 "$T" e3sm map_g.nc "dat2nc " g1.dat g2.dat g3.dat g4.dat g5.dat g6.dat || fail "G map"
# I: lat 3, lon 4; levgrnd 2, levlak 2, ltype 3, natpft 2 levels
gen block 3,4 i1.dat; gen block 2,3,4 i2.dat; gen roundrobin 2,3,4 i3.dat; gen random 3,3,4 i4.dat
gen block 2,3,4 i5.dat
run 1 "$T" e3sm map_i.nc "dat2nc " i1.dat i2.dat i3.dat i4.dat i5.dat || fail "I map"
cp "$top_srcdir/inputs/map_cs_case_4p.nc" map_f.nc

# shape FILE: the dimensions | variables by type, fixed (F) or record (R) | variable and global attributes
shape() {
    "$NCMPIDUMP" -h "$1" | awk '
        /^dimensions:/ {s = "d"; next} /^variables:/ {s = "v"; next} /^\/\/ global/ {s = "g"; next}
        s == "d" && /=/ {sub(/^\t/, ""); sub(/ ;.*/, ""); gsub(/ /, ""); d = d (d ? " " : "") $0}
        s == "v" && /^\t[a-z0-9]+ [^:]*;$/ {n[$1 ($2 ~ /\((time|Time)[,)]/ ? "R" : "F")]++}
        s == "v" && /^\t\t[^:]*:/ {va++}
        s == "g" && /^\t\t:/ {ga++}
        END {printf "%s |", d
             split("char int int64 float double", t, " ")
             for (i = 1; i <= 5; i++) for (j = 0; j < 2; j++) {k = t[i] (j ? "R" : "F"); if (n[k]) printf " %s %d", k, n[k]}
             printf " | %d %d\n", va, ga}'
}
requests() { "$PYTHON" -c 'import json, sys; print(json.load(open(sys.argv[1]))["write"]["requests"]["count"])' "$1"; }
# check FILE SHAPE HEADER_BYTES FILE_BYTES
check() {
    got=$(shape "$1")
    [ "$got" = "$2" ] || fail "$1: structure '$got', E3SM-IO's '$2'"
    "$NCOFFSETS" "$1" | grep -q "size   = $3 bytes" || fail "$1: header is not $3 bytes, as E3SM-IO's"
    [ "$(wc -c <"$1")" -eq "$4" ] || fail "$1: $(wc -c <"$1") bytes, E3SM-IO's $4"
    "$NCVALIDATOR" -q "$1" || fail "$1: ncvalidator"
}
# replay CASE NP: the case's files in c<CASE><NP>/, E3SM-IO's options (sorted requests, 2 records)
replay() {
    v=; [ "$2" = 2 ] && v=--verify   # checked at 2 ranks (the files are the same at 4)
    run "$2" "$X" --decomp "map_$1.nc" --e3sm_case auto --sorted true --records 2 --iotype blocking_collective $v \
        --json "$1$2.json" --out "c$1$2" >"$1$2.log" 2>&1 || { cat "$1$2.log"; fail "$1 case at $2 ranks"; }
    [ -z "$v" ] || grep -Eq "verify +PASS" "$1$2.log" || fail "$1 case at $2 ranks: verify"
}

F_DIMS="time=UNLIMITED nbnd=2 chars=8 lev=4 ilev=5 ncol=96"
G_DIMS="Time=UNLIMITED nCells=6 nEdges=9 nVertices=5 nVertLevelsP1=4 nVertLevels=3 StrLen=64"
I_DIMS="time=UNLIMITED lon=4 lat=3 gridcell=62482 topounit=62482 landunit=271014 column=1020642 pft=2020354"
I_DIMS="$I_DIMS levgrnd=2 levurb=5 levlak=2 numrad=2 month=12 levsno=5 ltype=3 nvegwcs=4 natpft=2"
I_DIMS="$I_DIMS string_length=16 levdcmp=2 levtrc=10 hist_interval=2"
for np in 2 4; do
    replay f $np
    check cf$np/decomp_io_h0.nc "$F_DIMS | charR 2 intF 5 intR 5 doubleF 10 doubleR 392 | 1402 19" 99864 543072
    check cf$np/decomp_io_h1.nc "$F_DIMS | charR 2 intF 5 intR 5 doubleF 10 doubleR 29 | 123 19" 11160 50892
    replay g $np
    check cg$np/decomp_io.nc "$G_DIMS | charR 1 intF 6 doubleF 5 doubleR 40 | 104 747" 62544 73184
    replay i $np
    check ci$np/decomp_io_h0.nc "$I_DIMS | charR 2 intF 2 intR 5 doubleF 16 doubleR 535 | 2741 27" 172716 291776
    check ci$np/decomp_io_h1.nc "$I_DIMS | charR 2 intF 2 intR 5 doubleF 8 doubleR 535 | 2709 29" 170916 229844
done
# E3SM-IO's requests (both history files): F 1323 and 10101, G 523 and 689, I 7073 and 10390
for want in f2:1323 f4:10101 g2:523 g4:689 i2:7073 i4:10390; do
    got=$(requests "${want%:*}.json")
    [ "$got" = "${want#*:}" ] || fail "${want%:*}: $got requests, E3SM-IO's ${want#*:}"
done
# a few attributes and variables as E3SM-IO writes them
"$NCMPIDUMP" -h cf2/decomp_io_h0.nc >f.cdl
for want in "double lat(ncol) ;" "double AEROD_v(time, ncol) ;" "double ANRAIN(time, lev, ncol) ;" \
    "char date_written(time, chars) ;" "int ndbase ;" 'lev:formula_terms = "a: hyam b: hybm p0: P0 ps: PS" ;' \
    "AEROD_v:_FillValue = 1.00000002004088e+20 ;" "AEROD_v:missing_value = 1.e+20f ;" \
    ':title = "EAM History file information" ;' ':time_period_freq = "day_5" ;'; do
    grep -qF "$want" f.cdl || fail "F h0: $want"
done
"$NCMPIDUMP" -h cg2/decomp_io.nc >g.cdl
for want in "int maxLevelEdgeTop(nEdges) ;" "double salinity(Time, nCells, nVertLevels) ;" \
    "char xtime(Time, StrLen) ;" ':config_vert_levels = -1 ;' ':model_name = "mpas" ;'; do
    grep -qF "$want" g.cdl || fail "G: $want"
done
"$NCMPIDUMP" -h ci2/decomp_io_h1.nc | grep -qF ':Time_constant_3Dvars = "ZSOI:DZSOI:WATSAT:SUCSAT:BSW:HKSAT:ZLAKE:DZLAKE" ;' || fail "I h1: an attribute"
# the files do not depend on the process count
for h in cf2/decomp_io_h0.nc cf2/decomp_io_h1.nc cg2/decomp_io.nc ci2/decomp_io_h0.nc ci2/decomp_io_h1.nc; do
    cmp -s "$h" "$(echo "$h" | sed 's/2/4/')" || fail "$h: 2 and 4 ranks differ"
done

# var_type float is e3sm_io -j: F's 384 partitioned record variables, and every I
# double but time_bounds, are float, their _FillValue too (E3SM-IO's header again)
run 2 "$X" --decomp map_f.nc --e3sm_case F --var_type float --records 2 --out jf >jf.log 2>&1 || { cat jf.log; fail "F float"; }
check jf/decomp_io_h0.nc "$F_DIMS | charR 2 intF 5 intR 5 floatR 384 doubleF 10 doubleR 8 | 1402 19" 99664 322528
"$NCMPIDUMP" -h jf/decomp_io_h0.nc | grep -qF "AEROD_v:_FillValue = 1.e+20f ;" || fail "F float: _FillValue"
run 2 "$X" --decomp map_i.nc --e3sm_case I --var_type float --records 2 --out ji >ji.log 2>&1 || { cat ji.log; fail "I float"; }
check ji/decomp_io_h0.nc "$I_DIMS | charR 2 intF 2 intR 5 floatF 16 floatR 534 doubleR 1 | 2741 27" 170532 230484
expect_fail 2 "var_type int: E3SM-IO's cases write double, or float (e3sm_io -j); use one of them" \
    "$X" --decomp map_f.nc --e3sm_case F --var_type int --out bad
# a map whose decompositions do not give the case's shapes is refused, naming them
run 1 "$T" e3sm bad1.nc "dat2nc " g1.dat g2.dat g3.dat || fail "bad1.nc"
run 1 "$T" e3sm bad2.nc "dat2nc " g1.dat g2.dat g1.dat || fail "bad2.nc"
expect_fail 2 "bad1.nc: E3SM-IO's F case puts lat(ncol) on decomposition D2, which is 9 here" \
    "$X" --decomp bad1.nc --e3sm_case F --out bad
expect_fail 2 "bad2.nc: E3SM-IO's F case takes dimension ncol from dimension 2 (slowest first) of decomposition D3, which is 6 here" \
    "$X" --decomp bad2.nc --e3sm_case F --out bad

# --layout blob is e3sm_io -x blob: one subfile per history file (<file>.nc.0000),
# the partitioned variables re-dimensioned (time, Dk.nelems), and per
# decomposition the blobs' requests, sorted, merged and cut at rows.  E3SM-IO's
# figures on the same maps at 2 ranks (structure, header and file bytes); the
# rows' padding, which E3SM-IO leaves unwritten, holds the int fill (_).
blob() {   # blob CASE NP
    run "$2" "$X" --decomp "map_$1.nc" --e3sm_case auto --layout blob --records 2 --verify --out "b$1$2" \
        >"b$1$2.log" 2>&1 || { cat "b$1$2.log"; fail "$1 blob at $2 ranks"; }
    grep -Eq "verify +PASS" "b$1$2.log" || fail "$1 blob at $2 ranks: verify"
}
blob f 2
B="nblobs=2 D1.nelems=96 D2.nelems=96 D3.nelems=384 D1.max_nreqs=1 D2.max_nreqs=1 D3.max_nreqs=4"
check bf2/decomp_io_h0.nc.0000 "$F_DIMS $B | charR 2 intF 14 intR 5 int64F 6 doubleF 10 doubleR 392 | 2194 22" 135184 578616
check bf2/decomp_io_h1.nc.0000 "$F_DIMS $B | charR 2 intF 14 intR 5 int64F 6 doubleF 10 doubleR 29 | 189 22" 16236 56228
"$NCMPIDUMP" -h bf2/decomp_io_h0.nc.0000 >bf.cdl
for want in "double ANRAIN(time, D3.nelems) ;" "ANRAIN:decomposition_ID = 3 ;" "ANRAIN:global_dimids = 0, 3, 5 ;" \
    "double lat(D2.nelems) ;" "int D3.offsets(nblobs, D3.max_nreqs) ;" "D3.nreqs:global_dimids = 3, 5 ;" \
    ":global_nprocs = 2 ;" ":num_subfiles = 1 ;"; do
    grep -qF "$want" bf.cdl || fail "F blob: $want"
done
"$NCMPIDUMP" -v D1.offsets,D1.lengths,D1.blob_start bf2/decomp_io_h0.nc.0000 | tr -d ' \n' |
    grep -qF "D1.blob_start=0,48;D1.offsets=0,48;D1.lengths=48,48;" || fail "F blob: D1's requests"
blob g 4
"$NCMPIDUMP" -v D3.nreqs,D3.blob_start,D3.blob_count,D3.offsets,D3.lengths bg4/decomp_io.nc.0000 | tr -d ' \n' |
    grep -qF "D3.nreqs=2,3,2,2;D3.blob_start=0,5,10,14;D3.blob_count=5,5,4,4;D3.offsets=0,3,_,5,6,9,10,12,_,14,15,_;D3.lengths=3,2,_,1,3,1,2,2,_,1,3,_;" ||
    fail "G blob at 4 ranks: D3's requests"
blob g 2
B="nblobs=2 D1.nelems=6 D2.nelems=9 D3.nelems=18 D4.nelems=27 D5.nelems=15 D6.nelems=24"
B="$B D1.max_nreqs=1 D2.max_nreqs=3 D3.max_nreqs=4 D4.max_nreqs=9 D5.max_nreqs=5 D6.max_nreqs=3"
check bg2/decomp_io.nc.0000 "$G_DIMS $B | charR 1 intF 24 int64F 12 doubleF 5 doubleR 40 | 222 750" 71844 83040
blob i 2
B="nblobs=2 D1.nelems=12 D2.nelems=24 D3.nelems=24 D4.nelems=36 D5.nelems=24"
B="$B D1.max_nreqs=2 D2.max_nreqs=3 D3.max_nreqs=6 D4.max_nreqs=14 D5.max_nreqs=3"
check bi2/decomp_io_h0.nc.0000 "$I_DIMS $B | charR 2 intF 17 intR 5 int64F 10 doubleF 16 doubleR 535 | 3863 30" 221080 340552
check bi2/decomp_io_h1.nc.0000 "$I_DIMS $B | charR 2 intF 17 intR 5 int64F 10 doubleF 8 doubleR 535 | 3815 32" 218704 278620
expect_fail 2 "command line: layout blob stores 64-bit integers (blob_start, blob_count), which format cdf1 cannot hold" \
    "$X" --decomp map_g.nc --e3sm_case auto --layout blob --format cdf1 --out bad

# E3SM-IO leaves the elements no task holds unwritten; --fill_holes true writes
# the variable's own _FillValue there (tiny_map: element 24 of D3 is nobody's)
run 1 "$T" e3sm tiny_map.nc "dat2nc -r " raw "$top_srcdir/tests/decomp/data/d1.dat" \
    "$top_srcdir/tests/decomp/data/d2.dat" "$top_srcdir/tests/decomp/data/d3.dat"
run 3 "$X" --decomp tiny_map.nc --e3sm_case F --fill_holes true --verify --out fh >fh.log 2>&1 || { cat fh.log; fail "fill"; }
grep -q "D3: 4 x 6, 23 elements written per variable and record, 0 holes, 1 unheld, written with _FillValue" fh.log ||
    fail "fill: report"
"$NCMPIDUMP" -v ANRAIN fh/decomp_io_h0.nc | tail -2 | grep -q ", _ ;" || fail "fill: ANRAIN's last element"

# netCDF-4 in parallel: E3SM-IO creates its files with NC_NODIMSCALE_ATTACH, and so
# does the netcdf driver for the case files; attaching HDF5's dimension scales to
# the I case's variables at 2 ranks failed nc_enddef ("Problem with HDF5
# dimscales"), and to the F case's blob file read past HDF5's buffers (ASan)
if have_driver netcdf && [ -n "$H5DUMP" ]; then
    run 2 "$X" --decomp map_i.nc --e3sm_case I --driver netcdf --format nc4 --verify --out n4i >n4i.log 2>&1 ||
        { cat n4i.log; fail "the I case through netCDF-4 at 2 ranks"; }
    run 2 "$X" --decomp map_f.nc --e3sm_case F --layout blob --driver netcdf --format nc4 --verify --out n4f >n4f.log 2>&1 ||
        { cat n4f.log; fail "the F case's blob files through netCDF-4 at 2 ranks"; }
    ! "$H5DUMP" -A n4i/decomp_io_h0.nc | grep -q DIMENSION_LIST || fail "the I case's netCDF-4 file has dimension scales attached"
fi
pass
