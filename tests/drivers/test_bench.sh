#!/bin/sh
# scripts/bench-drivers on a tiny plan: one row per driver built and mode, the
# mpiio rows as the 1.00 baseline, every row's bytes the plan's, the null
# driver's share and the two target lines, and the JSON it writes.
. "$top_srcdir/tests/lib.sh"
set -e
CLIMIO_EXERCISE="$top_builddir/tests/engine_exercise" "$PYTHON" "$top_srcdir/scripts/bench-drivers" --dir "$TESTTMP" \
    --nx 32 --ny 16 --nz 4 --nrec 2 --reps 1 --json "$TESTTMP/bench.json" >"$TESTTMP/table" 2>"$TESTTMP/err" \
    || { cat "$TESTTMP/table" "$TESTTMP/err"; fail "bench-drivers failed"; }
cat "$TESTTMP/table"
bytes=$(( 2 * (8 + 12 * 4 * 16 * 32) + 4 * 16 * 32 ))
rows=$(json_get "$TESTTMP/bench.json" 'len(d["rows"])')
want=8    # mpiio and null: 4 modes each
have_driver pnetcdf && want=$(( want + 6 ))
have_driver netcdf && want=$(( want + 4 ))
have_driver hdf5 && want=$(( want + 2 ))
[ "$rows" = $want ] || fail "$rows rows, expected $want"
[ "$(json_get "$TESTTMP/bench.json" 'sorted(set(r["bytes"] for r in d["rows"]))')" = "[$bytes]" ] || fail "row bytes differ from the plan's $bytes"
[ "$(grep -c '^mpiio .* 1\.00 ' "$TESTTMP/table")" = 4 ] || fail "mpiio rows are not the 1.00 baseline"
grep -q "^null driver: .*% of the mpiio run's time at most (target: under 3%)" "$TESTTMP/table" || fail "no null line"
if have_driver pnetcdf; then
    grep -q "^best PnetCDF (.*): .* MiB/s = [0-9]*% of the best mpiio run (target: at least 90%)" "$TESTTMP/table" || fail "no PnetCDF line"
fi
[ -z "$(ls "$TESTTMP" | grep climio-bench-)" ] || fail "bench-drivers left its files"
pass
