#!/bin/sh
# scripts/bench-combine: mom_combine beside another mppnccombine (here mom_combine
# itself stands in as the peer) on an ncgen set: a row per program with
# median [min-max] of 2 interleaved runs, the outputs compared, the JSON table.
. "$top_srcdir/tests/lib.sh"
command -v ncgen >/dev/null || skip "ncgen is needed"
have_driver netcdf || skip "mom_combine was built without netCDF-C"
set -e
d="$TESTTMP/set"
mkdir -p "$d"
(cd "$d" && "$PYTHON" "$top_srcdir/tests/combine/fms_sets.py" mom6 . >/dev/null)
"$PYTHON" "$top_srcdir/scripts/bench-combine" --bin "$top_builddir/src/combine" --peer "$top_builddir/src/combine/mom_combine" \
  --repetitions 2 --json "$TESTTMP/b.json" "$d/ocean_daily.nc" >"$TESTTMP/out.txt" 2>&1 || { cat "$TESTTMP/out.txt"; fail "bench-combine"; }
grep -q "^set .*ocean_daily.nc: 6 members" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "no set line"; }
for p in mom_combine peer; do
  grep -qE "^$p +[0-9.]+ \[[0-9.]+-[0-9.]+\]" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "no row for $p"; }
done
grep -q "outputs identical" "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "outputs not compared"; }
[ "$(json_get "$TESTTMP/b.json" '[len(r["seconds"]["values"]) for r in d["rows"]]')" = "[2, 2]" ] || fail "not 2 runs each"
[ "$(json_get "$TESTTMP/b.json" 'd["identical_outputs"]')" = True ] || fail "JSON: outputs"
[ "$(ls "$d")" = "$(printf 'ocean_daily.nc.0000\nocean_daily.nc.0001\nocean_daily.nc.0002\nocean_daily.nc.0003\nocean_daily.nc.0004\nocean_daily.nc.0005')" ] \
  || { ls "$d"; fail "files left beside the set"; }
pass
