#!/bin/sh
# gcrm_io through PnetCDF against GCRM-IO's own output: every header
# (`ncmpidump -h`) and every file size of its level-3 groups run, every header of
# its four level-4 configurations, its Write/Read amounts; files byte-identical
# whatever the process count and iotype; read-back verification; a missing
# output path named with the key and file:line.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "the pnetcdf driver is not built"
[ -n "$NCMPIDUMP" ] || skip "ncmpidump not found"
ref="$GCRM_REFERENCE"
[ -d "$ref/headers-level3-groups" ] || fail "GCRM-IO's headers not found in \$GCRM_REFERENCE ($ref)"
prog="$top_builddir/src/gcrm/gcrm_io"
in="$top_srcdir/inputs"
cd "$TESTTMP"

# header of a file without the record count (runs that write no records)
hdr() { "$NCMPIDUMP" -h "$1" | sed 's|// ([0-9]* currently)||'; }

# 1. level 3, physics, the groups configuration, 2 ranks: GCRM-IO's exact files
# (climio's inputs ask for CF metadata; GCRM-IO's headers need it off)
run 2 "$prog" "$in/zgrd.in.r3" --cf_metadata false --io_desc_file "$in/ZGrd.desc" --io_config_file "$in/ZGrd.CP.lyr.fcfg.groups" \
  --end_minutes 15 --end_seconds 0 --cdf_output_path g3 --driver pnetcdf --verify --json g3.json >g3.txt 2>g3.err \
  || { cat g3.err; fail "level-3 groups run"; }
n=0
for f in g3/*; do
  b=$(basename "$f")
  [ -f "$ref/headers-level3-groups/hdr_$b.txt" ] || fail "GCRM-IO wrote no $b"
  "$NCMPIDUMP" -h "$f" >h.txt
  diff h.txt "$ref/headers-level3-groups/hdr_$b.txt" >d.txt || { cat d.txt; fail "header of $b differs from GCRM-IO's"; }
  n=$((n + 1))
done
[ $n = 15 ] || fail "$n files, GCRM-IO wrote 15"
(cd g3 && for f in *; do echo "$(wc -c <"$f") $f"; done) | sort -k2 >sizes.txt
sort -k2 "$ref/headers-level3-groups/file-sizes.txt" | diff - sizes.txt || fail "file sizes differ from GCRM-IO's"
grep -q "^GIO: bytes_API_write (Bytes): *229046764$" g3.txt || fail "bytes_API_write"
grep -q "^Write  amount=           229.09 MB      =         218.48 MiB$" g3.txt || fail "Write amount (GCRM-IO: 229.09 MB)"
grep -q "^Read   amount=             2.90 MB      =           2.76 MiB$" g3.txt || fail "Read amount (GCRM-IO: 2.90 MB)"
# (its place in the list is the MPI-IO library's: first with Open MPI's OMPIO, later with ROMIO)
grep -Eq "^MPI File Info: \[ *[0-9]+\] key = +nc_header_align_size, value = 2048$" g3.txt || fail "GIO's hints"
[ "$(json_get g3.json 'd["verify"]["verdict"]')" = pass ] || fail "read-back verification"
for f in g3/*; do "$NCVALIDATOR" "$f" >/dev/null || fail "ncvalidator rejects $f"; done

# 2. level 4, the four configurations: every header (no data written: headers_only)
for cfg in LZ.nophys CP.lyr CP.lyr.groups CP.lyr.one; do
  case $cfg in
    LZ.nophys) fcfg=ZGrd.LZ.fcfg.nophys phys=disabled ;;
    CP.lyr) fcfg=ZGrd.CP.lyr.fcfg phys=enabled ;;
    *) fcfg=ZGrd.CP.lyr.fcfg.${cfg#CP.lyr.} phys=enabled ;;
  esac
  run 2 "$prog" "$in/zgrd.in.r4" --cf_metadata false --io_desc_file "$in/ZGrd.desc" --io_config_file "$in/$fcfg" --physics_mode $phys \
    --end_minutes 2 --end_seconds 0 --cdf_output_path "g4-$cfg" --headers_only --driver pnetcdf --quiet >/dev/null 2>err.txt \
    || { cat err.txt; fail "level-4 $cfg run"; }
  want=$(cd "$ref/headers-level4/$cfg" && ls *.hdr | sed 's/\.hdr$//' | sort | tr '\n' ' ')
  got=$(ls "g4-$cfg" | sort | tr '\n' ' ')
  [ "$got" = "$want" ] || fail "level 4 $cfg: files $got, GCRM-IO: $want"
  for h in "$ref/headers-level4/$cfg"/*.hdr; do
    b=$(basename "$h" .hdr)
    hdr "g4-$cfg/$b" >h.txt
    sed 's|// ([0-9]* currently)||' "$h" | diff h.txt - >d.txt || { cat d.txt; fail "level 4 $cfg: header of $b differs"; }
  done
done

# 3. the same bytes whatever the process count and iotype, and with every request
# split in pieces of at most 1 MiB (as requests over 2 GiB are)
for c in "1 nonblocking_collective" "4 blocking_independent" "2 blocking_collective" "5 nonblocking_collective --max_request_size 1m"; do
  set -- $c
  np=$1 mode=$2
  shift 2
  run $np "$prog" --driver pnetcdf --iotype $mode --cdf_output_path "d$np" --json "d$np.json" --quiet "$@" >/dev/null 2>err.txt \
    || { cat err.txt; fail "np=$np $mode $*"; }
done
[ "$(ls d1 | wc -l)" = 14 ] || fail "default run: not 14 files"
[ "$(json_get d5.json 'd["write"]["timers"]["wait"]["calls"] > 2 * d["nprocs"] * 25')" = True ] || fail "1 MiB requests: no extra wait rounds"
for d in d4 d2 d5; do
  for f in d1/*; do cmp -s "$f" "$d/$(basename "$f")" || fail "$d/$(basename "$f") differs from the 1-rank file"; done
done

# 4. GCRM-IO's inputs name /scratch2/...: a clear error names the key and where it was set
mkdir -p orig && cp "$ref"/inputs/* orig/ && chmod u+w orig/*
line=$(grep -n "^cdf_output_path" orig/zgrd.in.r7 | cut -d: -f1)
(cd orig && expect_fail 2 "zgrd.in.r7:$line: output path '/scratch2/scratchdirs/wkliao/FS_1M_128/' does not exist" \
   "$prog" zgrd.in.r7 --level_max 3 --driver pnetcdf) || exit 1
grep -q "GCRM_OUTPUT_PATH" "$TESTTMP/err.txt" || fail "the error does not say how to set the path"
pass
