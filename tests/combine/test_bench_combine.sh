#!/bin/sh
# scripts/bench-combine: mom_combine beside another mppnccombine (here mom_combine
# itself stands in as the peer) on an ncgen set: a row per program with
# median [min-max] of 2 interleaved runs, the outputs compared, the JSON table;
# serial and 2 ranks interleaved; a failing run relays mom_combine's own error
# line (not GNU time's report); --json onto a folder refused before any run.
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
"$PYTHON" "$top_srcdir/scripts/bench-combine" --bin "$top_builddir/src/combine" --np 1,2 --repetitions 1 \
  "$d/ocean_daily.nc" >"$TESTTMP/np.txt" 2>&1 || { cat "$TESTTMP/np.txt"; fail "--np 1,2"; }
grep -qE "^mom_combine -n 2 +[0-9.]+ +[0-9.]+" "$TESTTMP/np.txt" || { cat "$TESTTMP/np.txt"; fail "--np 1,2: no 2-rank row"; }
grep -q "DIFFERS" "$TESTTMP/np.txt" && fail "--np 1,2: the 2-rank output differs"
set +e
"$PYTHON" "$top_srcdir/scripts/bench-combine" --bin "$top_builddir/src/combine" --json "$TESTTMP" "$d/ocean_daily.nc" \
  >"$TESTTMP/j.txt" 2>&1
rc=$?
set -e
[ $rc = 2 ] && grep -q "json .*is a directory" "$TESTTMP/j.txt" || { cat "$TESTTMP/j.txt"; fail "--json onto a folder"; }
bad="$TESTTMP/bad"
mkdir -p "$bad"
cp "$d"/ocean_daily.nc.000* "$bad/"
head -c $(($(wc -c <"$d/ocean_daily.nc.0001") - 20)) "$d/ocean_daily.nc.0001" >"$bad/ocean_daily.nc.0001"
set +e
"$PYTHON" "$top_srcdir/scripts/bench-combine" --bin "$top_builddir/src/combine" --repetitions 1 "$bad/ocean_daily.nc" \
  >"$TESTTMP/bad.txt" 2>&1
rc=$?
set -e
[ $rc = 1 ] || { cat "$TESTTMP/bad.txt"; fail "a cut member: exit status $rc"; }
grep -q '^bench-combine: mom_combine: exit status 1: Error: .*ocean_daily.nc.0001" is cut short' "$TESTTMP/bad.txt" \
  || { cat "$TESTTMP/bad.txt"; fail "a cut member: mom_combine's own error line not relayed"; }
[ "$(ls "$d")" = "$(printf 'ocean_daily.nc.0000\nocean_daily.nc.0001\nocean_daily.nc.0002\nocean_daily.nc.0003\nocean_daily.nc.0004\nocean_daily.nc.0005')" ] \
  || { ls "$d"; fail "files left beside the set"; }
# --make when mom_io fails half-way (a stand-in mom_io writes two members, then
# says the disk is full): the partial set is removed, said, and the next --make
# does not take it for the set ("exists: using it")
stub="$TESTTMP/stub"
mkdir -p "$stub"
cat >"$stub/mom_io" <<'EOT'
#!/bin/sh
while [ $# -gt 1 ]; do [ "$1" = --output_dir ] && out=$2; shift; done
mkdir -p "$out" && : >"$out/ocean.nc.0000" && : >"$out/ocean.nc.0001"
echo "mom_io: error (rank 3): netcdf driver: close failed on $out/ocean.nc.0003: No space left on device" >&2
exit 1
EOT
chmod +x "$stub/mom_io"
printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$stub/launch" && chmod +x "$stub/launch"    # mpiexec -n N stand-in
for attempt in 1 2; do
  set +e
  "$PYTHON" "$top_srcdir/scripts/bench-combine" --bin "$stub" --mpiexec "$stub/launch" --make nc4 --make-dir "$TESTTMP/sets" \
    --repetitions 1 >"$TESTTMP/make.txt" 2>&1
  rc=$?
  set -e
  [ $rc = 1 ] && grep -q "mom_io exited 1: .*No space left on device (the partial set is removed)" "$TESTTMP/make.txt" \
    || { cat "$TESTTMP/make.txt"; fail "--make, mom_io failing (attempt $attempt): exit $rc"; }
  ! grep -q "exists: using it" "$TESTTMP/make.txt" || { cat "$TESTTMP/make.txt"; fail "--make: a partial set taken for the set"; }
  [ -z "$(ls -A "$TESTTMP/sets")" ] || { ls -R "$TESTTMP/sets"; fail "--make: a partial set left"; }
done
pass
