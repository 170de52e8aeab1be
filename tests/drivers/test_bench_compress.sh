#!/bin/sh
# scripts/bench-compress on mom_io's tiny grid, through the runner every bench-*
# script shares: the none row first, ratios from the runs' storage reports
# (deflate 1 + shuffle >= 2, bitround to 3 digits >= 4, none about 1), cells the
# median with [min-max] of --repetitions runs, the legend, the JSON rows with
# every repetition; a failing setting shows the kernel's own error line and
# exits 1; the flags every bench-* script has are in --help; nothing left behind.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "no netcdf driver"
bc="$top_srcdir/scripts/bench-compress"
tiny="$top_srcdir/inputs/mom.in.tiny"
"$PYTHON" "$bc" --help >"$TESTTMP/help.txt"
for flag in --repetitions --dir --json --json-dir --mpiexec --timeout --kernel --np --driver --settings --bin; do
  grep -q -- "$flag" "$TESTTMP/help.txt" || fail "--help lacks $flag"
done
"$PYTHON" "$bc" --np 2 --repetitions 2 --bin "$top_builddir/src/mom" --dir "$TESTTMP" --json "$TESTTMP/b.json" \
  --settings "deflate=1,shuffle;deflate=1,shuffle,quantize=bitround:3" -- "$tiny" >"$TESTTMP/out.txt" 2>&1 \
  || { cat "$TESTTMP/out.txt"; fail "bench-compress failed"; }
cat "$TESTTMP/out.txt"
grep -q "^bench-compress: mom_io, 2 ranks, --data model, netcdf nc4 blocking_collective" "$TESTTMP/out.txt" \
  || fail "no title line"
[ "$(grep -c '^| ' "$TESTTMP/out.txt")" = 4 ] || fail "expected a header and 3 rows"
grep -Eq '^\| none \| 0\.9[0-9]|^\| none \| 1\.0[0-9]' "$TESTTMP/out.txt" || fail "the none row is not first or its ratio is not about 1"
grep -Eq '^\| deflate=1,shuffle \| [0-9.]+ \| [0-9.]+ \[[0-9.]+-[0-9.]+\]( !)? \| [0-9.]+ \[' "$TESTTMP/out.txt" \
  || fail "cells are not median [min-max]"
grep -q "^cells: median \[min-max\] of 2 runs" "$TESTTMP/out.txt" || fail "no legend of the cells"
ge() { awk -v x="$1" -v y="$2" 'BEGIN { exit !(x >= y) }'; }
r=$(json_get "$TESTTMP/b.json" 'd["rows"][1]["ratio"]'); ge "$r" 2 || fail "deflate 1 + shuffle: ratio $r < 2"
r=$(json_get "$TESTTMP/b.json" 'd["rows"][2]["ratio"]'); ge "$r" 4 || fail "bitround 3 digits: ratio $r < 4"
[ "$(json_get "$TESTTMP/b.json" 'd["rows"][2]["compression"]["quantize"]')" = bitround ] || fail "quantize not applied"
[ "$(json_get "$TESTTMP/b.json" 'all(len(r["spread"]["seconds"]["values"]) == 2 for r in d["rows"])')" = True ] \
  || fail "not 2 runs per row"
[ "$(json_get "$TESTTMP/b.json" 'd["rows"][0]["added_seconds"] is None and d["rows"][1]["added_seconds"] is not None')" = True ] \
  || fail "added seconds"
[ -z "$(ls "$TESTTMP" | grep climio-bench-compress)" ] || fail "left files behind"
# a setting the kernel refuses: its own error line, exit 1
set +e
"$PYTHON" "$bc" --np 1 --repetitions 1 --bin "$top_builddir/src/mom" --dir "$TESTTMP" --settings "szip,deflate=1" \
  -- "$tiny" >"$TESTTMP/bad.txt" 2>&1
rc=$?
set -e
[ $rc = 1 ] || { cat "$TESTTMP/bad.txt"; fail "a failing setting: exit $rc, expected 1"; }
grep -q "FAILED: szip,deflate=1-rep0: exit status [0-9]*: mom_io: error: .*szip with deflate is refused" "$TESTTMP/bad.txt" \
  || { cat "$TESTTMP/bad.txt"; fail "the failure does not show the kernel's error line"; }
# a malformed setting is refused before any run
set +e
"$PYTHON" "$bc" --settings "deflate=x" >"$TESTTMP/bad2.txt" 2>&1
rc=$?
set -e
[ $rc = 2 ] && grep -q "expected none, or deflate=N" "$TESTTMP/bad2.txt" || fail "a malformed setting was not refused"
pass
