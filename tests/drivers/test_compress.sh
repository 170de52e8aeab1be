#!/bin/sh
# Compression and quantization of model data (mom_io's tiny grid, 3 records):
# the ratio of data bytes to the bytes HDF5 allocated on disk (h5stat's "Raw data"
# of the real files, equal to climio's own storage report):
# deflate 1 + shuffle >= 2 on model data, >= 4 with bitround to 3 digits, the
# pattern < 1.2 with deflate 1 + shuffle (and with deflate 1 alone); quantized data
# read back within the kept digits (--verify and a comparison with the unquantized
# file by ncdump); ncdump -hs shows the filters and quantization asked for; the
# time compression added against an unfiltered reference run
# (--compression_reference), text and JSON; the hdf5 driver's filters; refusals.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver"
[ -n "$NCDUMP" ] || skip "ncdump not found"
H5STAT=$(command -v h5stat || true)
[ -n "$H5STAT" ] || skip "h5stat not found"
mom="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"
cd "$TESTTMP"

# --chunking auto (one record a chunk) pinned here; mom_io's default, netCDF-C's own
# chunks, is checked further down (brd, szd)
mrun() {    # tag np args...: a netCDF-4 mom_io run, verified, with its JSON
  tag=$1 np=$2; shift 2
  run $np "$mom" "$tiny" --driver netcdf --format nc4 --chunking auto --iotype blocking_collective --verify --out "$tag" \
    --json "$tag.json" "$@" >"$tag.log" 2>&1 || { cat "$tag.log"; fail "$tag: run failed"; }
  [ "$(json_get "$tag.json" 'd["verify"]["verdict"]')" = pass ] || fail "$tag: verify verdict"
}
raw() { "$H5STAT" "$1" | sed -n 's/^ *Raw data: \([0-9]*\) bytes/\1/p'; }
# ratio of the tag's data bytes (the uncompressed run's raw data) to its raw data on disk
ratio() { awk -v a="$data" -v b="$(raw "$1/ocean.nc")" 'BEGIN { printf "%.3f", a / b }'; }
ge() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }'; }

mrun ref 2 --data model --storage_report true
mrun pat 2 --data pattern
mrun patd 2 --data pattern --deflate 1
mrun patds 2 --data pattern --deflate 1 --shuffle true
mrun d1s 2 --data model --deflate 1 --shuffle true
mrun br3 2 --data model --deflate 1 --shuffle true --quantize bitround:3
mrun bg3 4 --data model --deflate 1 --shuffle true --quantize bitgroom:3 --iotype blocking_independent
mrun gb3 1 --data model --deflate 1 --shuffle true --quantize granularbr:3

# uncompressed: the raw data is all the data (no filter changes a byte)
[ "$(raw ref/ocean.nc)" = "$(json_get ref.json 'd["storage"]["stored_bytes"]')" ] \
  || fail "reference: h5stat's raw data is not climio's bytes on disk"
data=$(json_get ref.json 'd["storage"]["data_bytes"]')
r=$(ratio d1s); ge "$r" 2 || fail "deflate 1 + shuffle on model data: ratio $r < 2"
r=$(ratio br3); ge "$r" 4 || fail "bitround 3 digits + deflate 1 + shuffle: ratio $r < 4"
# the pattern is incompressible: below 1.2 with deflate 1, with shuffle too (the
# whole file: coordinates and time, which are not the pattern's, included)
for t in patd patds; do
  r=$(awk -v a="$(raw pat/ocean.nc)" -v b="$(raw $t/ocean.nc)" 'BEGIN { printf "%.3f", a / b }')
  ge 1.2 "$r" || fail "the pattern with $(json_get $t.json 'd["data"]["compression"]') compresses $r >= 1.2"
done
# climio's storage report: the same figures as h5stat's
for t in d1s br3; do
  [ "$(json_get $t.json 'd["storage"]["stored_bytes"]')" = "$(raw $t/ocean.nc)" ] || fail "$t: storage report != h5stat"
  [ "$(json_get $t.json 'd["storage"]["data_bytes"]')" = "$data" ] || fail "$t: data bytes"
  json_get $t.json '[v["name"] for f in d["storage"]["files"] for v in f["variables"]]' | grep -q "'temp'" \
    || fail "$t: no per-variable figures"
  grep -q "^storage total: 1 files, data $data, on disk $(raw $t/ocean.nc), ratio" $t.log \
    || fail "$t: no storage line in the text report"
done
# the time compression added: each repetition after an unfiltered run of the same settings
mrun cref 2 --data model --deflate 1 --shuffle true --compression_reference true --repetitions 2
json_get cref.json 'd["data"]["compression_time"]' >cref.ct
"$PYTHON" - cref.json <<'END' || fail "compression_time: $(cat cref.ct)"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["data"]["compression_time"]
u = sorted(c["unfiltered_repetitions"])
assert c["runs"] == 2 and len(u) == 2 and min(u) > 0, c
assert abs(c["unfiltered_seconds"] - (u[0] + u[1]) / 2) < 1e-9, c
assert abs(c["filtered_seconds"] - d["summary"]["seconds"]["median"]) < 1e-9, c
assert abs(c["added_seconds"] - (c["filtered_seconds"] - c["unfiltered_seconds"])) < 1e-9, c
assert abs(c["added_fraction"] * c["unfiltered_seconds"] - c["added_seconds"]) < 1e-9, c
assert len(d["repetitions"]) == 2
END
[ "$(grep -c '^reference [12] of 2 (no filter): ' cref.log)" = 2 ] || fail "cref: no line per reference run"
grep -q "^compression added .* s end to end filtered, .* s with no filter (the reference: the same run, same settings), medians" \
  cref.log || fail "cref: no 'compression added' line in the text report"
# the files left are the filtered ones (the reference's were removed), as d1s wrote them
[ "$(raw cref/ocean.nc)" = "$(raw d1s/ocean.nc)" ] || fail "cref: the file left is not the filtered one"
[ "$(ls cref | wc -l)" = "$(ls d1s | wc -l)" ] || fail "cref: files left over: $(ls cref)"
# without a filter it has no effect, and says so
run 1 "$mom" "$tiny" --driver netcdf --format nc4 --compression_reference true --out cnone --json cnone.json \
  >cnone.log 2>&1 || { cat cnone.log; fail "compression_reference without a filter"; }
grep -q "compression_reference (command line) has no effect: no filter or quantization applies" cnone.log \
  || fail "cnone: no note"
[ "$(json_get cnone.json '"compression_time" in d["data"]')" = False ] || fail "cnone: a compression time"
# a kernel that cannot repeat its output refuses it
expect_fail 1 "compression_reference needs a second, unfiltered run of the output, and pfio_io cannot repeat its output" \
  "$top_builddir/src/pfio/pfio_io" "$top_srcdir/inputs/pfio.in" --compression_reference true --output_dir pf
# the independent iotype ran collectively, and says so
[ "$(json_get bg3.json 'd["io"]["iotype_effective"]')" = blocking_collective ] || fail "independent not adjusted"
grep -q "blocking_independent asked, run as blocking_collective: parallel HDF5 writes filtered" bg3.log \
  || fail "no note on the adjusted iotype"
# the headline names the mode that ran, not the one asked
tail -n 1 bg3.log | grep -qF "climio: mom_io netcdf/nc4 blocking_collective (asked blocking_independent) np=4 " \
  || fail "headline of the adjusted run: $(tail -n 1 bg3.log)"
[ "$(json_get bg3.json 'd["headline"].split()[3]')" = blocking_collective ] || fail "JSON headline iotype"

# what the library recorded (ncdump -hs: the special attributes of nc_inq_var_deflate/quantize)
"$NCDUMP" -hs br3/ocean.nc >br3.cdl
for want in 'temp:_DeflateLevel = 1 ;' 'temp:_Shuffle = "true" ;' 'temp:_QuantizeBitRoundNumberOfSignificantBits = 10 ;' \
            'u:_QuantizeBitRoundNumberOfSignificantBits = 10 ;'; do
  grep -qF "$want" br3.cdl || fail "br3: ncdump -hs lacks '$want'"
done
! grep -q 'xt_ocean:_Quantize' br3.cdl || fail "a coordinate variable was quantized"
"$NCDUMP" -hs bg3/ocean.nc | grep -qF 'salt:_QuantizeBitGroomNumberOfSignificantDigits = 3 ;' || fail "bitgroom not recorded"
"$NCDUMP" -hs gb3/ocean.nc | grep -qF 'eta_t:_QuantizeGranularBitRoundNumberOfSignificantDigits = 3 ;' \
  || fail "granularbr not recorded"

# quantized values within the kept digits of the exact ones (and not all identical to them)
for t in br3 bg3 gb3; do
  "$NCDUMP" -v temp,salt,u -p 9,17 ref/ocean.nc | sed -n '/^data:/,$p' >ref.txt
  "$NCDUMP" -v temp,salt,u -p 9,17 $t/ocean.nc | sed -n '/^data:/,$p' >$t.txt
  tr ',;' '\n\n' <ref.txt | tr -d ' ' | grep -E '^-?[0-9]' >ref.v
  tr ',;' '\n\n' <$t.txt | tr -d ' ' | grep -E '^-?[0-9]' >$t.v
  [ "$(wc -l <ref.v)" = "$(wc -l <$t.v)" ] && [ "$(wc -l <ref.v)" -gt 1000 ] || fail "$t: not the same values read"
  paste ref.v $t.v | awk -v t=$t '{ w = $1; g = $2; d = g - w; if (d < 0) d = -d; m = w < 0 ? -w : w
      if (d > 0.005 * m) { print t ": " g " is not " w " to 3 digits"; bad = 1; exit } if (d > 0) changed++ }
      END { if (!bad && changed == 0) { print t ": nothing quantized"; bad = 1 } exit bad }' || fail "$t: values"
done

# mom_io's own chunking (default: netCDF-C's chunks): quantization and szip apply
# there too (they were silently dropped), with the same ratio and --verify
run 2 "$mom" "$tiny" --driver netcdf --format nc4 --data model --deflate 1 --shuffle true --quantize bitround:3 \
  --verify --out brd --json brd.json >brd.log 2>&1 || { cat brd.log; fail "brd: run failed"; }
[ "$(json_get brd.json 'd["config"]["chunking"]["value"]')" = default ] || fail "brd: not mom_io's default chunking"
[ "$(json_get brd.json 'd["verify"]["verdict"]')" = pass ] || fail "brd: verify verdict"
"$NCDUMP" -hs brd/ocean.nc | grep -qF 'temp:_QuantizeBitRoundNumberOfSignificantBits = 10 ;' \
  || fail "chunking default: temp not quantized"
r=$(ratio brd); ge "$r" 4 || fail "chunking default, bitround 3 digits + deflate 1 + shuffle: ratio $r < 4"
run 2 "$mom" "$tiny" --driver netcdf --format nc4 --data model --szip true --verify --out szd --json szd.json \
  >szd.log 2>&1 || { cat szd.log; fail "szd: run failed"; }
[ "$(json_get szd.json 'd["verify"]["verdict"]')" = pass ] || fail "szd: verify verdict"
"$NCDUMP" -hs szd/ocean.nc | grep -qF 'temp:_Filter = "4,32,8" ;' || fail "chunking default: no szip on temp (8-pixel blocks: its scanline is 40)"
# a scanline no block divides (netCDF-C's chunks of a 180-column per-PE file, as
# bench-compress's default grid writes): szip was silently not applied (ratio 1.00,
# no _Filter); the chunk's fastest length is now lowered to 176 (16-pixel blocks)
for d in "netcdf --format nc4" hdf5; do
  have_driver ${d%% *} || continue
  t=sz180_${d%% *}
  sfx=.nc; [ "${d%% *}" = hdf5 ] && sfx=.h5    # the format's suffix (plain HDF5: .h5)
  run 2 "$mom" --ni 360 --nj 180 --nk 2 --records 1 --driver $d --iotype blocking_collective --data model \
    --szip true --verify --out $t --json $t.json >$t.log 2>&1 || { cat $t.log; fail "$t: run failed"; }
  [ "$(json_get $t.json 'd["verify"]["verdict"]')" = pass ] || fail "$t: verify verdict"
  h5dump -p -H -d /temp $t/ocean$sfx.0000 >$t.h5 || fail "$t: h5dump"
  grep -q "CHUNKED ( 1, 2, 180, 176 )" $t.h5 || { cat $t.h5; fail "$t: temp's chunks not lowered to 176 columns"; }
  grep -q "PIXELS_PER_BLOCK 16" $t.h5 || { cat $t.h5; fail "$t: no szip with 16-pixel blocks on temp"; }
  r=$(json_get $t.json 'round(d["storage"]["ratio"], 2)')
  ge "$r" 1.5 || fail "$t: szip ratio $r < 1.5 (not applied?)"
done

# the hdf5 driver: deflate + shuffle, the same ratio figures, verify
if have_driver hdf5; then
  run 2 "$mom" "$tiny" --driver hdf5 --data model --deflate 1 --shuffle true --verify --out h5 --json h5.json \
    >h5.log 2>&1 || { cat h5.log; fail "hdf5 deflate run"; }
  [ "$(json_get h5.json 'd["verify"]["verdict"]')" = pass ] || fail "hdf5: verify"
  [ "$(json_get h5.json 'd["storage"]["stored_bytes"]')" = "$(raw h5/ocean.h5)" ] || fail "hdf5: storage != h5stat"
  h5dump -p -H -d /temp h5/ocean.h5 | grep -q "SHUFFLE" || fail "hdf5: no shuffle filter on temp"
  h5dump -p -H -d /temp h5/ocean.h5 | grep -q "DEFLATE" || fail "hdf5: no deflate filter on temp"
  # the hdf5 driver does not quantize: a note, recorded in the JSON, and no quantization
  run 1 "$mom" "$tiny" --driver hdf5 --quantize bitround:3 --out q --json q.json >q.log 2>&1 || { cat q.log; fail "hdf5 quantize"; }
  grep -q "quantize bitround:3 (command line) has no effect: the hdf5 driver does not quantize hdf5 (drivers that quantize: netcdf (nc4))" q.log || fail "hdf5: no quantize note"
  [ "$(json_get q.json 'd["data"]["compression"]["quantize"]')" = none ] || fail "hdf5: quantize recorded as applied"
fi
run 1 "$mom" "$tiny" --driver netcdf --format cdf2 --deflate 1 --shuffle true --out c2 >c2.log 2>&1 || { cat c2.log; fail "cdf2 deflate"; }
grep -q "shuffle (command line) has no effect: the netcdf driver writes cdf2" c2.log || fail "cdf2: no shuffle note"
# mom_io's own chunking default is no setting of the user's: no note on its classic files
grep -q "chunking default" c2.log && fail "cdf2: a note on mom_io's own chunking default"
run 1 "$mom" "$tiny" --driver netcdf --format cdf2 --chunking default --out c2b >c2b.log 2>&1 || { cat c2b.log; fail "cdf2 chunking"; }
grep -q "chunking default (command line) has no effect" c2b.log || fail "cdf2: no note on a chunking the user set"
expect_fail 1 "quantize expects none, bitgroom:NSD, granularbr:NSD or bitround:NSD" "$mom" "$tiny" --driver netcdf \
  --format nc4 --quantize bitround --out q
expect_fail 1 "szip with shuffle is refused" "$mom" "$tiny" --driver netcdf --format nc4 --szip true --shuffle true --out q
# deflate + szip: netCDF-C refuses it, HDF5 cannot read it back: refused before any file
expect_fail 1 "szip with deflate is refused" "$mom" "$tiny" --driver netcdf --format nc4 --szip true --deflate 1 --out q2
[ ! -e q2 ] || fail "deflate + szip: files were made"
run 1 "$mom" "$tiny" --driver netcdf --format cdf2 --storage_report true --out c2s >c2s.log 2>&1 || { cat c2s.log; fail "cdf2 storage_report"; }
grep -q "storage_report (command line) has no effect: the netcdf driver writes cdf2" c2s.log || fail "cdf2: no storage_report note"
# szip codes numbers only: a file with a char variable (decomp_io's rundate) is written,
# its numbers szip-coded and its text not, through both drivers (HDF5 refused the
# whole file: "invalid datatype endianness order")
dio="$top_builddir/src/decomp/decomp_io"
for d in "netcdf --format nc4" hdf5; do
  have_driver ${d%% *} || continue
  run 2 "$dio" --decomp "$top_srcdir/inputs/decomp.cubed_sphere.4p.dat" --nvars 1 --data model --szip true --driver $d \
    --verify --out "sz_${d%% *}" >sz.log 2>&1 || { cat sz.log; fail "decomp_io --szip with $d"; }
  grep -Eq "verify +PASS" sz.log || fail "decomp_io --szip with $d: verify"
  sfx=.nc; [ "${d%% *}" = hdf5 ] && sfx=.h5
  h5dump -p -H -d /vard0001 "sz_${d%% *}/decomp_io$sfx" | grep -q "SZIP" || fail "$d: no szip filter on vard0001"
  ! h5dump -p -H -d /rundate "sz_${d%% *}/decomp_io$sfx" | grep -q "SZIP" || fail "$d: szip on the char variable"
  # a scanline (fastest chunk length) of 40 or 48 with 32-pixel blocks gave chunks HDF5 could not
  # decompress ("szip_filter: decompression failed"): the block now divides the scanline
  for dims in 30,40 30,48; do
    run 1 "$dio" --make_decomp block --gen_tasks 2 --gen_dims $dims --gen_out "sl$dims.dat" >/dev/null
    run 2 "$dio" --decomp "sl$dims.dat" --nvars 1 --data model --szip true --driver $d --iotype blocking_collective \
      --verify --out "sl_${d%% *}" >sl.log 2>&1 || { cat sl.log; fail "szip, scanline $dims, $d"; }
    grep -Eq "verify +PASS" sl.log || fail "szip, scanline $dims, $d: verify"
  done
done
# szip on the pattern (incompressible): a chunk szip cannot shrink is stored raw, and
# parallel HDF5 1.10 marks it as szip-coded (exit 0, a file ncdump cannot read):
# refused before any file, through either driver
for d in "hdf5" "netcdf --format nc4"; do
  have_driver ${d%% *} || continue
  expect_fail 1 "szip with data pattern (default) is refused: the pattern is incompressible by design" \
    "$dio" --decomp "$top_srcdir/inputs/decomp.cubed_sphere.4p.dat" --nvars 1 --driver $d --szip true --out "szpat_${d%% *}"
  [ ! -e "szpat_${d%% *}" ] || fail "szip on the pattern ($d): files were made"
done
# one writer through the serial API: serial HDF5 marks the chunk as not coded, the file reads back
run 1 "$dio" --decomp "$top_srcdir/inputs/decomp.cubed_sphere.4p.dat" --nvars 1 --driver netcdf --format nc4 \
  --nc_serial true --szip true --verify --out szser >szser.log 2>&1 || { cat szser.log; fail "szip, serial API"; }
grep -Eq "verify +PASS" szser.log || fail "szip, serial API: verify"
"$NCDUMP" szser/decomp_io.nc >/dev/null || fail "szip, serial API: ncdump cannot read the file"
# the serial API asked but the file shared by two ranks (parallel HDF5): the run is not refused,
# the check after the run finds the chunks marked as coded that are not, exit 3
expect_fail 2 "szshr/decomp_io.nc cannot be read back: 1 of its chunks of vard0001 are stored as raw data but marked as szip-coded" \
  "$dio" --nvars 2 --driver netcdf --format nc4 --nc_serial true --szip true --out szshr
[ $rc -eq 3 ] || fail "unreadable szip chunks: exit status $rc, expected 3"
pass
