#!/bin/sh
# mom_io writes the way FMS does (issue 17, MOM5 part), checked with the netCDF
# tools: single-writer files (serial pattern, io-domain and per-PE members) are
# created with the serial netCDF-C API in MOM5's classic CDF-1 format with
# FMS's 16 KiB of header padding; --single_writer mpiio keeps the chosen
# driver on MPI_COMM_SELF; the padding applies to the parallel file too.
# FMS's configuration rules: refusals in FMS's words, io_layout 0,0 and layout
# 1,1 as MOM5 reads them, pattern auto as MOM5 writes, mirror-symmetric extents.
# The time axis's calendar as diag_manager spells it ("NOLEAP" in both
# attributes); the chunk-size hint from NC_BLKSZ_<file> / NC_BLKSZ as mpp_open
# reads them (the hint netCDF-C reports, and the write sizes strace sees).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver built"
[ -n "$NCDUMP" ] || skip "ncdump not found"
io="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"

kind_is() {     # file kind (ncdump -k)
  k=$("$NCDUMP" -k "$1") || fail "ncdump -k $1"
  [ "$k" = "$2" ] || fail "$1 is '$k', expected '$2'"
}
valid_cdf() {   # file version: ncvalidator accepts it as that CDF version
  [ -n "$NCVALIDATOR" ] || return 0
  "$NCVALIDATOR" "$1" >"$TESTTMP/val.txt" 2>&1 || { cat "$TESTTMP/val.txt"; fail "ncvalidator rejects $1"; }
  grep -qF "is a valid NetCDF classic $2 file" "$TESTTMP/val.txt" || { cat "$TESTTMP/val.txt"; fail "$1 is not $2"; }
}
padded() {      # file: 16384 bytes of free space between the header and the data
  [ -n "$NCOFFSETS" ] || return 0
  "$NCOFFSETS" "$1" >"$TESTTMP/off.txt"
  size=$(sed -n 's/^[[:space:]]*size *= *\([0-9]*\) bytes/\1/p' "$TESTTMP/off.txt")
  ext=$(sed -n 's/^[[:space:]]*extent *= *\([0-9]*\) bytes/\1/p' "$TESTTMP/off.txt")
  [ -n "$size" ] && [ -n "$ext" ] || { cat "$TESTTMP/off.txt"; fail "no header size in ncoffsets' output"; }
  [ $((ext - size)) -eq 16384 ] || fail "$1: header $size bytes, data from byte $ext: $((ext - size)) bytes of padding, expected 16384"
}
w() {           # np dir args...
  np=$1; d=$2; shift 2
  run $np "$io" "$tiny" --out "$d" "$@" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io $*"; }
}

# the serial pattern's file, io-domain members and per-PE files: CDF-1, padded, valid
w 4 "$TESTTMP/serial" --pattern serial --layout 2,2 --io_layout 2,1 --verify true
kind_is "$TESTTMP/serial/ocean.nc" classic
valid_cdf "$TESTTMP/serial/ocean.nc" CDF-1
padded "$TESTTMP/serial/ocean.nc"
# diag_output.F90: calendar_type and calendar both valid_calendar_types(), upper case (cf_compliance off)
"$NCDUMP" -h "$TESTTMP/serial/ocean.nc" >"$TESTTMP/h.cdl"
for want in 'time:calendar_type = "NOLEAP" ;' 'time:calendar = "NOLEAP" ;'; do
  grep -qF "$want" "$TESTTMP/h.cdl" || { grep calendar "$TESTTMP/h.cdl"; fail "the time axis lacks $want"; }
done
# the default chunk-size hint is FMS's 64k, said in the netcdf driver's line
grep -qF "nc__create chunk-size hint for ocean.nc: 65536 bytes (FMS default 64k)" "$TESTTMP/log" ||
  { cat "$TESTTMP/log"; fail "no 64k chunk-size hint reported"; }
w 4 "$TESTTMP/iod" --pattern iodomain --layout 2,2 --io_layout 2,1 --verify true --json "$TESTTMP/iod.json"
for f in "$TESTTMP/iod/ocean.nc.0000" "$TESTTMP/iod/ocean.nc.0001"; do
  kind_is "$f" classic; valid_cdf "$f" CDF-1; padded "$f"
done
[ "$(json_get "$TESTTMP/iod.json" 'd["run"]["driver"] if "run" in d else d.get("driver")')" = netcdf ] ||
  [ "$(json_get "$TESTTMP/iod.json" 'str(d).count("netcdf") > 0')" = True ] || fail "the JSON does not name the netcdf driver"
w 2 "$TESTTMP/pe" --pattern perpe --layout 2,1 --io_layout 1,1
kind_is "$TESTTMP/pe/ocean.nc.0001" classic; valid_cdf "$TESTTMP/pe/ocean.nc.0001" CDF-1; padded "$TESTTMP/pe/ocean.nc.0001"
# a driver named on the command line is said not to apply to these files
w 2 "$TESTTMP/say" --pattern serial --layout 2,1 --driver pnetcdf
grep -qF "pattern serial writes its files with the serial netCDF-C API (single_writer serial, as FMS)" "$TESTTMP/log" ||
  { cat "$TESTTMP/log"; fail "no line saying --driver does not apply to the serial pattern"; }
# an explicit format is kept (MOM5 built with -Duse_LARGEFILE writes 64-bit offset)
w 2 "$TESTTMP/cdf2" --pattern serial --layout 2,1 --format cdf2
kind_is "$TESTTMP/cdf2/ocean.nc" "64-bit offset"; padded "$TESTTMP/cdf2/ocean.nc"

# --single_writer mpiio: the chosen driver on MPI_COMM_SELF, as before
if have_driver pnetcdf; then
  w 2 "$TESTTMP/mpiio" --pattern serial --layout 2,1 --single_writer mpiio --driver pnetcdf --json "$TESTTMP/mpiio.json"
  kind_is "$TESTTMP/mpiio/ocean.nc" "64-bit offset"       # mom_io's default for its own drivers: the study's CDF-2
  padded "$TESTTMP/mpiio/ocean.nc"                         # ncmpi__enddef with FMS's header_buffer_val
  w 2 "$TESTTMP/mpiio1" --pattern serial --layout 2,1 --single_writer mpiio --driver pnetcdf --format cdf1
  if [ -n "$NCMPIDIFF" ]; then
    "$NCMPIDIFF" -q "$TESTTMP/mpiio1/ocean.nc" "$TESTTMP/serial/ocean.nc" >"$TESTTMP/d.txt" 2>&1 ||
      { cat "$TESTTMP/d.txt"; fail "the serial and mpiio paths wrote different files"; }
  fi
  # and the parallel pattern gets the padding too
  w 4 "$TESTTMP/par" --pattern parallel --layout 2,2 --io_layout 2,1 --driver pnetcdf
  padded "$TESTTMP/par/ocean.nc"
fi

# netCDF-4: the library's default chunks by default (FMS sets none), chunking auto on request
nc4="--driver netcdf --format nc4 --pattern parallel --layout 2,1 --io_layout 2,1 --ni 360 --nj 270 --nk 50 --records 1
     --fields temp --fields_2d \"\" --static_fields \"\""
eval w 2 "\"$TESTTMP/ckd\"" $nc4
"$NCDUMP" -hs "$TESTTMP/ckd/ocean.nc" | grep -qF "temp:_ChunkSizes = 1, 25, 135, 180 ;" ||
  { "$NCDUMP" -hs "$TESTTMP/ckd/ocean.nc" | grep _ChunkSizes; fail "temp does not have netCDF-C's default chunks"; }
eval w 2 "\"$TESTTMP/cka\"" $nc4 --chunking auto
"$NCDUMP" -hs "$TESTTMP/cka/ocean.nc" | grep -qF "temp:_ChunkSizes = 1, 50, 270, 360 ;" || fail "chunking auto: not one record-deep chunk"
# --help says the defaults that run (FMS's), not the suite's (mom_combine's climio
# options are those of its MOM5 form; its default help is mppnccombine's)
for prog in mom/mom_io combine/mom_combine; do
  p=${prog#*/}
  form=""
  [ "$p" = mom_combine ] && form=--mom5
  "$top_builddir/src/$prog" $form --help >"$TESTTMP/help.$p" 2>&1 || fail "$p --help"
  grep -e '--chunking' "$TESTTMP/help.$p" | grep -qF '[default: default, as FMS' || fail "$p --help: chunking's default is not netCDF-C's"
  grep -e '--header_pad' "$TESTTMP/help.$p" | grep -qF '[default: 16384' || fail "$p --help: header_pad's default is not 16384"
done

# NC_BLKSZ as mpp_open reads it: NC_BLKSZ_<file name> before NC_BLKSZ; k/m/g suffixes
blk() {         # np dir expected-line env...: mom_io's serial file (perpe with np 2), the netcdf driver's line
  np=$1; d=$2; want=$3; shift 3
  pat="--pattern serial"; [ "$np" = 1 ] || pat="--pattern perpe --layout 2,1 --io_layout 0,0"
  run $np env "$@" "$io" "$tiny" --out "$TESTTMP/$d" $pat >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "NC_BLKSZ $*"; }
  grep -qF "$want" "$TESTTMP/log" || { grep "driver" "$TESTTMP/log"; fail "$*: the netcdf driver does not report '$want'"; }
}
blk 1 b1 "chunk-size hint for ocean.nc: 131072 bytes (NC_BLKSZ=128k), netCDF-C used 131072" NC_BLKSZ=128k
blk 1 b2 "chunk-size hint for ocean.nc: 1048576 bytes (NC_BLKSZ_ocean.nc=1M)" NC_BLKSZ=128k NC_BLKSZ_ocean.nc=1M
blk 2 b3 "chunk-size hint for ocean.nc.0000: 32768 bytes (NC_BLKSZ_ocean.nc.0000=32k)" NC_BLKSZ_ocean.nc.0000=32k
expect_fail 1 "environment: NC_BLKSZ='12q3': expected a size in bytes as FMS mpp_open reads NC_BLKSZ" \
  env NC_BLKSZ=12q3 "$io" "$tiny" --out "$TESTTMP/bad" --pattern serial
# a letter other than k, m or g after the number is no size either (12q was taken as 12 bytes)
expect_fail 1 "environment: NC_BLKSZ='12q': expected a size in bytes as FMS mpp_open reads NC_BLKSZ" \
  env NC_BLKSZ=12q "$io" "$tiny" --out "$TESTTMP/bad" --pattern serial
# what netCDF-C writes, seen by strace (where there is one): "offset bytes" of each write to ocean.nc in order
writes() {      # strace-log
  fd=$(grep 'ocean.nc", O_' "$1" | grep -o '= [0-9]*$' | tail -1 | cut -c3-)
  [ -n "$fd" ] || fail "strace saw no open of ocean.nc"
  awk -v fd="$fd" '$0 ~ ("lseek\\(" fd ", ") { sub(/.*lseek\([0-9]+, /, ""); off = $0 + 0 }
                   $0 ~ ("write\\(" fd ", ") { print off, $NF }' "$1"
}
traced() {      # dir env...: the serial pattern's file of a 200 x 150 grid under strace, its writes in dir/w.txt
  d="$TESTTMP/$1"; shift
  env "$@" strace -f -qq -e trace=openat,lseek,write -o "$d.st" "$io" "$tiny" --out "$d" --ni 200 --nj 150 \
    --pattern serial --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io under strace"; }
  writes "$d.st" >"$d/w.txt"
}
if command -v strace >/dev/null 2>&1 && strace -qq -e trace=none true 2>/dev/null; then
  # netCDF-C writes in blocks of the hint: mostly 65536 bytes by default, 131072 with NC_BLKSZ=128k
  traced st64
  traced st128 NC_BLKSZ=128k
  for t in st64:65536 st128:131072; do
    most=$(awk '{ print $2 }' "$TESTTMP/${t%%:*}/w.txt" | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
    [ "$most" = "${t#*:}" ] || fail "${t%%:*}: netCDF-C's writes are mostly $most bytes, not the hint's ${t#*:}"
  done
  # the static fields are written when the file closes (diag_manager's write_static): the first write of
  # geolon_c's bytes comes after the write of the file's last bytes (the last record's)
  if [ -n "$NCOFFSETS" ]; then
    "$NCOFFSETS" "$TESTTMP/st64/ocean.nc" | awk '/geolon_c\(/ { f = 1 } f && /start file offset/ { s = $NF }
      f && /end   file offset/ { print s, $NF; exit }' >"$TESTTMP/geo.txt"
    read gs ge <"$TESTTMP/geo.txt"
    order=$(awk -v s="$gs" -v e="$ge" '{ if ($1 + 0 >= max) { max = $1 + 0; maxi = NR }
                                        if (!first && $1 + 0 < e + 0 && $1 + $2 > s + 0) first = NR }
                                      END { print first, maxi }' "$TESTTMP/st64/w.txt")
    [ "${order% *}" -gt "${order#* }" ] ||
      fail "geolon_c (bytes $gs-$ge) is first written by write ${order% *}, before the last record's (write ${order#* }): static fields written with the first record, not at close"
  fi
fi

# ---- configuration rules (null driver: no files needed)
j() { "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1]))['kernel_report']; print($2)" "$1"; }
n() {           # np json args...: a null-driver run
  np=$1; js=$2; shift 2
  run $np "$io" "$tiny" --driver null --quiet --out "$TESTTMP/null" --json "$js" "$@" >"$TESTTMP/log" 2>&1 ||
    { cat "$TESTTMP/log"; fail "mom_io --driver null $*"; }
}
expect_fail 4 '"MPP_OPEN: Parallel_netcdf conficts with io_layout (1,1)." (mom-ocean/FMS with-parallel-netcdf, mpp/include/mpp_io_connect.inc, mpp_open)' \
  "$io" "$tiny" --driver null --pattern parallel --layout 2,2 --io_layout 1,1
grep -qF "pattern parallel with io_layout 1,1 (command line)" "$TESTTMP/err.txt" || fail "the refusal does not name where io_layout was set"
expect_fail 2 "defines no io domain (in MOM5 a 0 means one file per PE)" \
  "$io" "$tiny" --driver null --pattern parallel --layout 2,1 --io_layout 0,0
expect_fail 2 "pattern iodomain writes one file per io domain, and io_layout 0,0 (command line) defines none" \
  "$io" "$tiny" --driver null --pattern iodomain --layout 2,1 --io_layout 0,0
expect_fail 4 'FMS mpp_define_io_domain: "domain layout(1) must be divided by io_layout(1)")' \
  "$io" "$tiny" --driver null --layout 4,1 --io_layout 3,1
# pattern auto: what MOM5 writes for the io_layout
n 4 "$TESTTMP/a00.json" --layout 2,2 --io_layout 0,0
[ "$(j "$TESTTMP/a00.json" 'd["pattern"], d["files"], d["io_layout"]')" = "perpe 4 [0, 0]" ] || fail "io_layout 0,0 is not one file per PE"
n 4 "$TESTTMP/a11.json" --layout 2,2 --io_layout 1,1
[ "$(j "$TESTTMP/a11.json" 'd["pattern"], d["files"]')" = "serial 1" ] || fail "io_layout 1,1 is not one gathered file"
n 4 "$TESTTMP/a21.json" --layout 2,2 --io_layout 2,1
[ "$(j "$TESTTMP/a21.json" 'd["pattern"], d["files"]')" = "iodomain 2" ] || fail "io_layout 2,1 is not a set of 2"
# layout 1,1 lets mpp_define_layout choose (40 x 30 on 4 PEs: 2,2); the built-in default is MOM5's (1,1 and 0,0)
n 4 "$TESTTMP/l11.json" --layout 1,1 --io_layout 0,0
[ "$(j "$TESTTMP/l11.json" 'd["layout"]')" = "[2, 2]" ] || fail "layout 1,1 on 4 PEs is not chosen as 2,2"
run 2 "$io" --driver null --quiet --out "$TESTTMP/null" --json "$TESTTMP/builtin.json" >"$TESTTMP/log" 2>&1 ||
  { cat "$TESTTMP/log"; fail "the built-in default does not run on 2 PEs"; }
[ "$(j "$TESTTMP/builtin.json" 'd["pattern"], d["layout"], d["files"]')" = "perpe [2, 1] 2" ] ||
  fail "the built-in default is not MOM5's (layout 1,1 chosen, io_layout 0,0: one file per PE)"

# extents as mpp_compute_extent: 41 points over 3 PEs are 14, 13, 14 (in the members' domain_decomposition)
w 3 "$TESTTMP/ext" --pattern perpe --ni 41 --layout 3,1 --io_layout 0,0
for m in "0000 1, 41, 1, 14" "0001 1, 41, 15, 27" "0002 1, 41, 28, 41"; do
  "$NCDUMP" -h "$TESTTMP/ext/ocean.nc.${m%% *}" | grep -qF "xt_ocean:domain_decomposition = ${m#* }" ||
    fail "member ${m%% *}: xt_ocean extent is not ${m#* } (FMS mirror symmetry: 14, 13, 14)"
done
pass
