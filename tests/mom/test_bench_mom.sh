#!/bin/sh
# scripts/bench-mom: the four patterns and the combines of the sets in one go,
# a table row per pattern (median [min-max] of 2 runs), and the JSON table with
# write + combine = total.
. "$top_srcdir/tests/lib.sh"
set -e
if have_driver pnetcdf; then drv=pnetcdf; elif have_driver netcdf; then drv=netcdf; else drv=null; fi
"$PYTHON" "$top_srcdir/scripts/bench-mom" --np 4 --bin "$top_builddir/src/mom" --dir "$TESTTMP/b" --json "$TESTTMP/b.json" \
  --repetitions 2 \
  "$top_srcdir/inputs/mom.in.tiny" --driver $drv --layout 2,2 --io_layout 2,1 >"$TESTTMP/out.txt" 2>&1 \
  || { cat "$TESTTMP/out.txt"; fail "bench-mom failed"; }
for pat in serial iodomain perpe parallel; do
  grep -qE "^$pat +[0-9]+ +[0-9]+ +[0-9.]+ \[[0-9.]+-[0-9.]+\]" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "no row for $pat"; }
done
[ "$(json_get "$TESTTMP/b.json" '[r["files"] for r in d["rows"]]')" = "[1, 2, 4, 1]" ] || fail "files per pattern"
[ "$(json_get "$TESTTMP/b.json" '[r["writers"] for r in d["rows"]]')" = "[1, 2, 4, 2]" ] || fail "writers per pattern"
[ "$(json_get "$TESTTMP/b.json" 'all(abs(r["write_seconds"] + (r["combine_seconds"] or 0) - r["total_seconds"]) < 1e-9 for r in d["rows"])')" = True ] \
  || fail "total is not write + combine"
if [ $drv != null ]; then
  [ "$(json_get "$TESTTMP/b.json" '[r["combine_seconds"] is not None for r in d["rows"]]')" = "[False, True, True, False]" ] \
    || fail "combine times: only the sets are combined"
fi
[ "$(json_get "$TESTTMP/b.json" '[len(r["spread"]["write_seconds"]["values"]) for r in d["rows"]]')" = "[2, 2, 2, 2]" ] \
  || fail "not 2 runs per pattern"
grep -q "^cells: median \[min-max\] of 2 runs" "$TESTTMP/out.txt" || fail "no legend of the cells"
[ -z "$(find "$TESTTMP/b" -name 'ocean.nc*')" ] || fail "data files left behind"
[ -z "$(ls "$TESTTMP/b")" ] || fail "folders left behind"
pass
