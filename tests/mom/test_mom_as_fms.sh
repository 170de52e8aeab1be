#!/bin/sh
# sanitizers: yes
# mom_io writes what FMS itself wrote for the same grid, layout and io_layout
# (scripts/peer-fms ran FMS's diag_manager; its findings are kept here so that
# this test runs without FMS):
#  - tests/mom/expected/fms-sets.txt: for seven layout / io_layout pairs (one
#    file; io domains side by side, one above the other, in a row; one per PE;
#    41 points over 3 PEs; io_layout 0,0), the files' names, their number, each
#    member's domain_decomposition of xt_ocean and yt_ocean and NumFilesInSet,
#    and the netCDF put calls and bytes of the writers;
#  - tests/mom/expected/fms-ocean.nc.0001.cdl: ncdump -h of member 1 of the
#    2,2 / 2,1 set, every dimension, variable, attribute and their order.
# The one difference doc/mom.md states is applied to FMS's side here, in the
# open: mom_io's own title and climio_mom_fields.  The depth edges
# (st_edges_ocean, one put of nk + 1 doubles per writer) are FMS's.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver built (mom_io's single writers use the serial netCDF-C API)"
[ -n "$NCDUMP" ] || skip "ncdump not found"
io="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"
sets="$top_srcdir/tests/mom/expected/fms-sets.txt"

att() {         # file var:att -> its value as ncdump prints it, "-" when absent
  v=$("$NCDUMP" -h "$1" | sed -n "s/^[[:space:]]*$2 = \(.*\) ;\$/\1/p" | tr -d ' ')
  echo "${v:--}"
}

# ---- file names, counts, decomposition attributes, puts and bytes per configuration
grep -v '^#' "$sets" | awk '{ print $1, $2, $3, $4 }' | uniq >"$TESTTMP/configs"
while read -r np layout iol ni; do
  d="$TESTTMP/$np-$layout-$iol-$ni"
  run "$np" "$io" "$tiny" --layout "$layout" --io_layout "$iol" --ni "$ni" --out "$d" --json "$d.json" --quiet </dev/null \
    >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io layout $layout io_layout $iol"; }
  awk -v np="$np" -v l="$layout" -v io="$iol" -v ni="$ni" '!/^#/ && $1 == np && $2 == l && $3 == io && $4 == ni' \
    "$sets" >"$TESTTMP/want"
  want_files=$(awk '{ print $5 }' "$TESTTMP/want" | sort | tr '\n' ' ')
  got_files=$(ls "$d" | grep '^ocean\.nc' | sort | tr '\n' ' ')
  [ "$got_files" = "$want_files" ] || fail "layout $layout io_layout $iol: mom_io wrote '$got_files', FMS '$want_files'"
  puts=0 bytes=0
  while read -r _ _ _ _ f rank xt yt nfiles p b; do
    for pair in "xt_ocean:domain_decomposition $xt" "yt_ocean:domain_decomposition $yt" ":NumFilesInSet $nfiles"; do
      got=$(att "$d/$f" "${pair% *}")
      [ "$got" = "${pair#* }" ] ||
        fail "layout $layout io_layout $iol, $f (written by rank $rank in FMS): ${pair% *} is $got, FMS wrote ${pair#* }"
    done
    [ "$(att "$d/$f" :filename)" = "\"$f\"" ] || fail "$f: its filename attribute is $(att "$d/$f" :filename)"
    puts=$((puts + p)) bytes=$((bytes + b))
  done <"$TESTTMP/want"
  [ "$(json_get "$d.json" 'd["kernel_report"]["writers"]')" = "$(wc -l <"$TESTTMP/want")" ] ||
    fail "layout $layout io_layout $iol: $(json_get "$d.json" 'd["kernel_report"]["writers"]') writers, FMS one per file"
  gp=$(json_get "$d.json" 'd["write"]["timers"]["put"]["calls"]')
  gb=$(json_get "$d.json" 'd["write"]["timers"]["put"]["bytes"]')
  [ "$gp" = "$puts" ] && [ "$gb" = "$bytes" ] ||
    fail "layout $layout io_layout $iol: mom_io made $gp netCDF puts of $gb bytes, FMS $puts of $bytes"
done <"$TESTTMP/configs"

# ---- FMS's parallel branch (mom-ocean/FMS with-parallel-netcdf built without
# -Duse_netCDF3; mpp_io_nml parallel_netcdf and pnetcdf true) on layout 2,2,
# io_layout 2,1 wrote one file, ocean.nc, from ranks 0 and 1 (the io roots), each
# with 119 netCDF puts of 206088 bytes: its io domain's blocks, the whole axes
# (st_edges_ocean's put of 48 bytes among them) and every time value
if have_driver pnetcdf; then
  d="$TESTTMP/parallel"
  run 4 "$io" "$tiny" --pattern parallel --driver pnetcdf --layout 2,2 --io_layout 2,1 --out "$d" --json "$d.json" \
    --quiet </dev/null >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io pattern parallel"; }
  [ "$(ls "$d")" = ocean.nc ] || fail "pattern parallel wrote $(ls "$d" | tr '\n' ' '), FMS ocean.nc"
  gp=$(json_get "$d.json" 'd["write"]["timers"]["put"]["calls"]')
  gb=$(json_get "$d.json" 'd["write"]["timers"]["put"]["bytes"]')
  [ "$gp" = $((2 * 119)) ] && [ "$gb" = $((2 * 206088)) ] ||
    fail "pattern parallel: mom_io made $gp puts of $gb bytes, FMS $((2 * 119)) of $((2 * 206088))"
fi

# ---- writing the same values again is no lost write: the size check after
# close leaves those bytes out (200 records rewrite 48 KB of time averages),
# and through I/O tasks the parallel pattern puts each axis slice once (their
# rearrangement takes every element from one rank), so it verifies
run 1 "$io" "$tiny" --ni 16 --nj 12 --nk 2 --records 200 --out "$TESTTMP/rewrite" </dev/null >"$TESTTMP/log" 2>&1 ||
  { tail -5 "$TESTTMP/log"; fail "200 records with the time averages written again after every field"; }
if have_driver pnetcdf; then
  run 4 "$io" "$tiny" --pattern parallel --driver pnetcdf --layout 2,2 --io_layout 2,1 --io_tasks 1 --verify true \
    --out "$TESTTMP/agg" </dev/null >"$TESTTMP/log" 2>&1 || { tail -5 "$TESTTMP/log"; fail "pattern parallel through 1 I/O task"; }
fi

# ---- which ranks write, under the suite's write counter (scripts/iocount), as
# fms-sets.txt's rank column says FMS's did; the parallel pattern's puts reach
# PnetCDF and MPI-IO on both io roots (mom_io's own MPI_File_* profiling layer
# calls the PMPI_ names, which the counter counts too)
if [ -z "$SANITIZER_FLAGS" ]; then
  counted() {   # NAME NP ARGS...: mom_io under iocount, its reports in $TESTTMP/NAME/reports
    name=$1 np=$2
    shift 2
    mkdir -p "$TESTTMP/$name"
    (cd "$TESTTMP/$name" && timeout 300 "$PYTHON" "$top_srcdir/scripts/iocount" --keep reports --match ocean.nc \
       -- $MPIEXEC -n "$np" "$io" "$tiny" --out out --quiet "$@" >out.txt 2>&1 </dev/null) ||
      { cat "$TESTTMP/$name/out.txt"; fail "$name: mom_io under iocount"; }
  }
  ranks() {     # NAME LEVEL: "rank:calls" of the ranks that made calls at that level
    cat "$TESTTMP/$1"/reports/iocount.*.txt | awk -v L="$2" '
      { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
      v["level"] == L && v["calls"] > 0 && v["file"] ~ /ocean\.nc/ { c[v["rank"]] += v["calls"] }
      END { for (r in c) print r ":" c[r] }' | sort -n | tr '\n' ' '
  }
  for lay in "2,2 1,2" "4,1 2,1"; do
    set -- $lay
    counted "w-$1-$2" 4 --layout "$1" --io_layout "$2"
    want=$(awk -v l="$1" -v io="$2" '!/^#/ && $2 == l && $3 == io { printf "%s:%d ", $6, $10 }' "$sets")
    [ "$(ranks "w-$1-$2" netcdf)" = "$want" ] ||
      fail "layout $1 io_layout $2: ranks:puts at the netCDF level are '$(ranks "w-$1-$2" netcdf)', FMS's '$want'"
  done
  if have_driver pnetcdf; then
    counted w-parallel 4 --pattern parallel --driver pnetcdf --layout 2,2 --io_layout 2,1
    [ "$(ranks w-parallel pnetcdf)" = "0:119 1:119 " ] ||
      fail "pattern parallel: ranks:puts at the PnetCDF level are '$(ranks w-parallel pnetcdf)', expected 0:119 1:119"
    [ "$(ranks w-parallel mpiio | wc -w)" = 2 ] ||
      fail "pattern parallel: MPI-IO writes seen on '$(ranks w-parallel mpiio)', expected both io roots"
  fi
fi

# ---- the header of a member, attribute for attribute and in order
d="$TESTTMP/4-2,2-2,1-40"
"$NCDUMP" -h "$d/ocean.nc.0001" >"$TESTTMP/got.cdl"
# FMS's header with the stated difference: mom_io's title and climio_mom_fields
awk '/^\t\t:title = / { print "\t\t:title = \"climio mom_io: MOM5 ocean diagnostics\" ;"; next }
     { print }
     /^\t\t:grid_tile = / { print "\t\t:climio_mom_fields = \"nk 5 pack 2; fields temp salt u:u v:u age_global; fields_2d eta_t surface_temp; static_fields geolon_t geolat_t geolon_c:u geolat_c:u\" ;" }' \
  "$top_srcdir/tests/mom/expected/fms-ocean.nc.0001.cdl" >"$TESTTMP/want.cdl"
diff "$TESTTMP/want.cdl" "$TESTTMP/got.cdl" >"$TESTTMP/hdiff" ||
  { cat "$TESTTMP/hdiff"; fail "member 1's header differs from FMS's (< FMS, > mom_io)"; }
pass
