#!/bin/sh
# mom_io with the null driver at 1-4 ranks, every pattern, several layouts:
# writers, files, gather volume and bytes written as the FMS rules predict them
# (mom_expect.py), the same global checksums whatever the pattern or layout,
# single files' checksums equal to the global ones, the dry run equal to the run,
# FMS environment hints, and the errors for impossible layouts.
. "$top_srcdir/tests/lib.sh"
set -e
io="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"
expect="$top_srcdir/tests/mom/mom_expect.py"
ref=""
check_run() {   # np layout io_layout pattern
  j="$TESTTMP/r-$1-$2-$3-$4.json"
  run "$1" "$io" "$tiny" --driver null --layout "$2" --io_layout "$3" --pattern "$4" --out "$TESTTMP/out" \
    --json "$j" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "np=$1 layout $2 io_layout $3 $4 failed"; }
  "$PYTHON" "$expect" "$j" || fail "figures of np=$1 layout $2 io_layout $3 $4"
  sums=$(json_get "$j" '" ".join(k+"="+v for k,v in d["kernel_report"]["global_checksums"].items())')
  [ -n "$ref" ] || ref="$sums"
  [ "$sums" = "$ref" ] || fail "np=$1 $2 $3 $4: global checksums $sums differ from $ref"
  case "$4" in serial|parallel)   # one file: the engine's checksums of it are the global ones
    same=$(json_get "$j" 'all(d["checksums"][k]==v for k,v in d["kernel_report"]["global_checksums"].items())')
    [ "$same" = True ] || fail "np=$1 $2 $3 $4: file checksums differ from the global ones" ;;
  esac
  [ "$(json_get "$j" 'len(d["kernel_report"]["mpp_clocks"])')" = 7 ] || fail "mpp clocks missing"
  grep -q "Tabulating mpp_clock statistics" "$TESTTMP/log" || fail "np=$1 $2 $3 $4: no mpp_clock table (the kernel's report, printed with --quiet)"
}
for pat in serial iodomain perpe parallel; do
  # io_layout 1,1: FMS's parallel branch refuses it (test_mom_fms.sh checks the refusal)
  if [ $pat != parallel ]; then
    check_run 1 1,1 1,1 $pat
    check_run 2 1,2 1,1 $pat
    check_run 3 1,3 1,1 $pat
  fi
  check_run 2 2,1 2,1 $pat
  check_run 3 3,1 3,1 $pat
  check_run 4 2,2 2,1 $pat
  check_run 4 2,2 1,2 $pat
  check_run 4 4,1 2,1 $pat
  check_run 4 2,2 2,2 $pat
done

# the text report: the mpp_clock table with FMS's rows
run 2 "$io" "$tiny" --driver null --pattern iodomain --layout 1,2 --io_layout 1,2 --out "$TESTTMP/out" >"$TESTTMP/log" 2>&1 \
  || fail "report run"
for row in "Tabulating mpp_clock statistics across      2 PEs" "Total runtime" mpp_open mpp_read mpp_write mpp_close \
           "tmin          tmax          tavg          tstd  tfrac grain pemin pemax"; do
  grep -qF "$row" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "report lacks '$row'"; }
done

# FMS's creation order (Total runtime; mpp_read, mpp_write, mpp_open, mpp_close) and no grain
sed -n '/Tabulating mpp_clock/,$p' "$TESTTMP/log" | awk '/^Total runtime|^mpp_/{print $1}' | tr '\n' ' ' | grep -qx "Total mpp_read mpp_write mpp_open mpp_close " ||
  { cat "$TESTTMP/log"; fail "clock rows not in FMS's order"; }
grep "^Total runtime" "$TESTTMP/log" | awk '{ if ($8 != 0) exit 1 }' || fail "Total runtime has a grain"

# the dry run plans what the run writes
run 1 "$io" "$tiny" --driver null --pattern iodomain --layout 2,2 --io_layout 2,1 --dry_run --nprocs 4 \
  --json "$TESTTMP/dry.json" >"$TESTTMP/dry.txt" 2>&1 || { cat "$TESTTMP/dry.txt"; fail "dry run"; }
planned=$(json_get "$TESTTMP/dry.json" 'int(d["per_rank"]["bytes_written"]["sum"])')
written=$(json_get "$TESTTMP/r-4-2,2-2,1-iodomain.json" 'd["write"]["bytes"]["written"]')
[ "$planned" = "$written" ] || fail "dry run plans $planned bytes, the run wrote $written"
[ "$(json_get "$TESTTMP/dry.json" 'd["files"]["count"]')" = 2 ] || fail "dry run files"
grep -q "gather: " "$TESTTMP/dry.txt" || fail "dry run lacks the gather line"

# hints the FMS way: <hint>_WR for the writes, <hint>_RD kept for reads; the hints key wins
j="$TESTTMP/hints.json"
cb_nodes_WR=2 striping_unit_WR=1048576 cb_buffer_size_RD=65536 run 2 "$io" "$tiny" --driver null --hints "cb_nodes=1" \
  --out "$TESTTMP/out" --json "$j" --quiet >"$TESTTMP/log" 2>&1 || fail "hints run"
[ "$(json_get "$j" 'd["hints"]["requested"]["striping_unit"]["origin"]')" = "environment striping_unit_WR" ] \
  || fail "striping_unit_WR not taken"
[ "$(json_get "$j" 'd["hints"]["requested"]["cb_nodes"]["value"]')" = 1 ] || fail "the hints key should win over cb_nodes_WR"
[ "$(json_get "$j" '"cb_buffer_size" in d["hints"]["requested"]')" = False ] || fail "an _RD hint used for writes"
[ "$(json_get "$j" 'd["kernel_report"]["hints_read"]["cb_buffer_size"]')" = 65536 ] || fail "cb_buffer_size_RD not kept for reads"
# the null driver writes nothing through MPI-IO: each hint asked is listed, not applicable, with the reason
[ "$(json_get "$j" '[d["hints"]["status"]["cb_nodes"][k] for k in ("status", "why")]')" = \
  "['not applicable', 'the null driver stores nothing']" ] || fail "cb_nodes under null: not said to be not applicable"
cb_nodes_WR=2 run 1 "$io" "$tiny" --driver null --out "$TESTTMP/out" >"$TESTTMP/log" 2>&1 || fail "hint message run"
grep -qF "WR:SET MPIIO_HINT for cb_nodes AS 2" "$TESTTMP/log" || fail "no FMS hint message"

# impossible layouts: a clear message naming both layouts and where they were set, every rank exits
printf 'layout 4,1\nio_layout 3,1\n' >"$TESTTMP/bad.in"
expect_fail 4 "io_layout 3,1 ($TESTTMP/bad.in:2) does not divide layout 4,1 ($TESTTMP/bad.in:1)" "$io" "$TESTTMP/bad.in" --driver null
expect_fail 3 "layout 2,2 (command line) needs 4 PEs, this run has 3" "$io" "$tiny" --driver null --layout 2,2
expect_fail 2 "io_layout 1,2 (command line) does not divide layout 2,1" "$io" "$tiny" --driver null --layout 2,1 --io_layout 1,2
expect_fail 2 "layout expects 'X,Y'" "$io" "$tiny" --driver null --layout 2
expect_fail 2 "pattern iodomain writes a set of 2 files" "$io" "$tiny" --driver null --pattern iodomain --io_layout 2,1 \
  --layout 2,1 --read_pattern serial
expect_fail 1 "fields: 'time' is the name of an axis" "$io" "$tiny" --driver null --fields "temp time"
! grep -qiE "signal|segmentation|core dumped" "$TESTTMP/err.txt" || fail "fields 'temp time': a rank died by a signal"
[ "$(grep -c "^mom_io: error:" "$TESTTMP/err.txt")" = 1 ] || fail "fields 'temp time': expected one error line"
expect_fail 2 "mom_combine reads the members' attributes, which the null driver cannot" \
  "$top_builddir/src/combine/mom_combine" "$tiny" --driver null
pass
