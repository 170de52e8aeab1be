#!/bin/sh
# sanitizers: yes
# Real files: for several layouts at 1-4 ranks, the serial, parallel, combined
# iodomain and combined perpe files hold the same data (ncmpidiff, and the
# combined file's checksums equal the global ones); the serial file is the same
# bytes whatever the process count; --verify and the read benchmark pass.
. "$top_srcdir/tests/lib.sh"
set -e
if have_driver pnetcdf; then drv=pnetcdf; elif have_driver netcdf; then drv=netcdf; else skip "no pnetcdf or netcdf driver built"; fi
[ -n "$NCMPIDIFF" ] || skip "ncmpidiff not found"
io="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
tiny="$top_srcdir/inputs/mom.in.tiny"
common="--driver $drv --format cdf2 --quiet"

same_data() {   # a b what
  "$NCMPIDIFF" -q "$1" "$2" >"$TESTTMP/diff.txt" 2>&1 || { cat "$TESTTMP/diff.txt"; fail "$3: $1 and $2 differ"; }
}
same_combined() {   # serial combined what: the same but for the global filename, which names the combined file
  "$NCMPIDUMP" "$1" | sed '/^		:filename = /d' >"$TESTTMP/a.cdl"
  "$NCMPIDUMP" "$2" >"$TESTTMP/b0.cdl"
  grep -qF ":filename = \"$2\" ;" "$TESTTMP/b0.cdl" || fail "$3: the filename attribute of $2 is not its own name"
  sed '/^		:filename = /d' "$TESTTMP/b0.cdl" >"$TESTTMP/b.cdl"
  sed -i '1d' "$TESTTMP/a.cdl" "$TESTTMP/b.cdl"
  cmp -s "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" || { diff "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" | head; fail "$3: $1 and $2 differ"; }
}
sums_equal() {  # combine.json mom_io.json what: the combined file's checksums are the global ones
  same=$(json_get "$1" 'all(d["checksums"][k]==v for k,v in __import__("json").load(open("'"$2"'"))["kernel_report"]["global_checksums"].items())')
  [ "$same" = True ] || fail "$3: checksums of the combined file differ from the global ones"
}
case_run() {    # np layout io_layout combine-np
  np=$1; tag="$np-$2-$3"; d="$TESTTMP/$tag"
  pats="serial parallel iodomain perpe"
  [ "$3" != 1,1 ] || pats="serial iodomain perpe"      # FMS refuses parallel with io_layout 1,1
  for pat in $pats; do
    run $np "$io" "$tiny" $common --layout $2 --io_layout $3 --pattern $pat --out "$d/$pat" --json "$d/$pat.json" \
      >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$tag $pat"; }
  done
  [ "$3" = 1,1 ] || same_data "$d/serial/ocean.nc" "$d/parallel/ocean.nc" "$tag parallel"
  for pat in iodomain perpe; do
    if [ "$(json_get "$d/$pat.json" 'd["kernel_report"]["files"]')" -gt 1 ]; then
      run $4 "$comb" "$tiny" $common --out "$d/$pat" --output "$d/$pat/combined.nc" --json "$d/$pat.combine.json" \
        >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$tag combine $pat"; }
      same_combined "$d/serial/ocean.nc" "$d/$pat/combined.nc" "$tag combined $pat"
      sums_equal "$d/$pat.combine.json" "$d/$pat.json" "$tag $pat"
      [ "$(json_get "$d/$pat.combine.json" 'd["kernel_report"]["records"]')" = 3 ] || fail "$tag $pat: combined records"
    else
      same_data "$d/serial/ocean.nc" "$d/$pat/ocean.nc" "$tag $pat (a set of one)"
    fi
  done
}
case_run 1 1,1 1,1 1
case_run 2 2,1 2,1 1
case_run 3 1,3 1,3 2
case_run 4 2,2 2,1 1
case_run 4 2,2 1,2 3
case_run 4 4,1 2,1 4
# the data pattern does not depend on the process count: the same bytes
cmp "$TESTTMP/1-1,1-1,1/serial/ocean.nc" "$TESTTMP/4-2,2-2,1/serial/ocean.nc" || fail "serial files of 1 and 4 ranks differ"
# the header is MOM5's
"$NCMPIDUMP" -h "$TESTTMP/4-2,2-2,1/iodomain/ocean.nc.0001" >"$TESTTMP/h.txt"
# (layout 2,2, io_layout 2,1: member 1 is the east half, x 21..40, all of y)
for want in "xt_ocean = 20" "yt_ocean = 30" "time = UNLIMITED ; // (3 currently)" "float temp(time, st_ocean, yt_ocean, xt_ocean)" \
            "float u(time, st_ocean, yu_ocean, xu_ocean)" "yt_ocean:domain_decomposition = 1, 30, 1, 30" \
            "xt_ocean:domain_decomposition = 1, 40, 21, 40" ":NumFilesInSet = 2" ':filename = "ocean.nc.0001"' \
            'temp:time_avg_info = "average_T1,average_T2,average_DT"' "double time_bnds(time, nv)"; do
  grep -qF "$want" "$TESTTMP/h.txt" || { cat "$TESTTMP/h.txt"; fail "member header lacks '$want'"; }
done
! grep -q NumFilesInSet "$TESTTMP/4-2,2-2,1/iodomain/combined.nc" || fail "the combined file keeps NumFilesInSet"

# netCDF-4 (the study's HDF5 case) through the netcdf driver: the same data by ncdump
if have_driver netcdf && [ -n "$NCDUMP" ]; then
  d="$TESTTMP/nc4"
  for pat in serial parallel iodomain; do
    run 4 "$io" "$tiny" --driver netcdf --format nc4 --quiet --layout 2,2 --io_layout 2,1 --pattern $pat --out "$d/$pat" \
      >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "nc4 $pat"; }
  done
  run 2 "$comb" "$tiny" --driver netcdf --format nc4 --quiet --out "$d/iodomain" --output "$d/combined.nc" \
    >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "nc4 combine"; }
  "$NCDUMP" "$d/serial/ocean.nc" | tail -n +2 | sed '/^		:filename = /d' >"$d/serial.cdl"
  for f in "$d/parallel/ocean.nc" "$d/combined.nc"; do
    "$NCDUMP" "$f" | tail -n +2 | sed '/^		:filename = /d' | cmp -s - "$d/serial.cdl" ||
      fail "nc4: ncdump of $f differs from the serial file's"
  done
  "$NCDUMP" -h "$d/combined.nc" | grep -qF ":filename = \"$d/combined.nc\" ;" || fail "nc4: the combined file's filename"
  grep -q "temp =" "$d/serial.cdl" || fail "nc4: no data in the dump"
fi

# verification and the read benchmark on a real file
j="$TESTTMP/verify.json"
run 4 "$io" "$tiny" $common --layout 2,2 --io_layout 1,2 --pattern parallel --out "$TESTTMP/v" --verify \
  --read_pattern both --json "$j" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "verify/read run"; }
[ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "verify verdict"
for mode in serial parallel; do
  [ "$(json_get "$j" 'd["kernel_report"]["read"]["'$mode'"]["mismatches"]')" = 0 ] || fail "$mode read mismatches"
  [ "$(json_get "$j" 'd["kernel_report"]["read"]["'$mode'"]["records"]')" = 3 ] || fail "$mode read records"
done
[ "$(json_get "$j" 'd["kernel_report"]["read"]["serial"]["elements_checked"]')" = \
  "$(json_get "$j" 'd["kernel_report"]["read"]["parallel"]["elements_checked"]')" ] || fail "read element counts"
# a set verifies too (members hold the global values at their offsets), and a combined file is readable
j="$TESTTMP/verify-set.json"
run 4 "$io" "$tiny" $common --layout 2,2 --io_layout 2,2 --pattern iodomain --out "$TESTTMP/vs" --verify --json "$j" \
  >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "verify set run"; }
[ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "set verify verdict"
run 2 "$comb" "$tiny" $common --out "$TESTTMP/vs" --verify --json "$TESTTMP/vc.json" >"$TESTTMP/log" 2>&1 || fail "combine --verify"
[ "$(json_get "$TESTTMP/vc.json" 'd["verify"]["verdict"]')" = pass ] || fail "combined verify verdict"
run 3 "$io" "$tiny" $common --pattern none --read_pattern both --read_file "$TESTTMP/vs/ocean.nc" --json "$j" \
  >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "read of a combined file"; }
[ "$(json_get "$j" 'd["kernel_report"]["read"]["parallel"]["mismatches"]')" = 0 ] || fail "combined read"
pass
