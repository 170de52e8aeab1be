#!/bin/sh
# scripts/bench-drivers on a tiny plan, two repetitions: one row per driver built
# and mode, cells "median [min-max]" with the two runs in the JSON, the mpiio
# rows as the 1.00 baseline, every row's bytes the plan's, each row's I/O-only
# bandwidth as a share of the null driver's, the load average, the PnetCDF line
# (no internal targets), and the JSON it writes.
. "$top_srcdir/tests/lib.sh"
set -e
CLIMIO_EXERCISE="$top_builddir/src/exercise/engine_exercise" "$PYTHON" "$top_srcdir/scripts/bench-drivers" --dir "$TESTTMP" \
    --nx 32 --ny 16 --nz 4 --nrec 2 --repetitions 2 --json "$TESTTMP/bench.json" >"$TESTTMP/table" 2>"$TESTTMP/err" \
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
# the I/O only (the kernels' default window), each row against the null driver's in its mode
[ "$(json_get "$TESTTMP/bench.json" 'sorted(set(r["mode"] for r in d["rows"] if r["driver"] == "null"))')" \
  = "['blocking_collective', 'blocking_independent', 'nonblocking_collective', 'nonblocking_independent']" ] || fail "null rows"
[ "$(grep -Ec '^mpiio .* [0-9]+\.[0-9]%$' "$TESTTMP/table")" = 4 ] || fail "mpiio rows lack their share of the null driver's"
[ "$(json_get "$TESTTMP/bench.json" 'abs(d["summary"]["io_share_of_null_percent"]["mpiio"]["percent"] - max(100.0 * r["MiBps"]["median"] / [n for n in d["rows"] if n["driver"] == "null" and n["mode"] == r["mode"]][0]["MiBps"]["median"] for r in d["rows"] if r["driver"] == "mpiio")) < 1e-9')" \
  = True ] || fail "JSON: mpiio's share of the null driver's bandwidth"
grep -q "^I/O-only bandwidth against the null driver's in the same mode (medians, each driver's closest mode): mpiio [0-9.]*% (raw " \
  "$TESTTMP/table" || fail "no null line"
grep -Eq "^# load average \(1 minute\) [0-9.]+-[0-9.]+ at the start and end of the [0-9]+ runs, on [0-9/]+ core\(s\)" "$TESTTMP/table" || fail "no load average line"
if have_driver pnetcdf; then
    grep -q "^best PnetCDF (.*): .* MiB/s I/O only, median ratio [0-9]*% of the best mpiio run (medians)" "$TESTTMP/table" || fail "no PnetCDF line"
    # two repetitions: no "faster" claim, and the closing line says why
    grep -q "^no clear winner between pnetcdf.* and mpiio .* (2 repetitions, the test needs at least 5; Mann-Whitney U" \
      "$TESTTMP/table" || fail "the closing verdict does not come from the test"
fi
grep -q "target" "$TESTTMP/table" && fail "an internal target in the output"
grep -Eq '^mpiio +raw +b_coll +[0-9.]+ +[0-9.]+ \[[0-9.]+-[0-9.]+\]' "$TESTTMP/table" || fail "cells are not median [min-max]"
grep -q "^# cells: median \[min-max\] of 2 runs, interleaved; !: max - min is more than 25% of the median" "$TESTTMP/table" \
  || fail "no legend of the cells"
[ "$(json_get "$TESTTMP/bench.json" 'all(len(r["seconds"]["values"]) == 2 for r in d["rows"])')" = True ] || fail "JSON: not 2 runs per row"
[ "$(json_get "$TESTTMP/bench.json" 'all(r["seconds"]["spread_over_limit"] == ((r["seconds"]["max"] - r["seconds"]["min"]) > 0.25 * r["seconds"]["median"]) for r in d["rows"])')" = True ] \
  || fail "JSON: spread flag"
[ -z "$(ls "$TESTTMP" | grep climio-bench-)" ] || fail "bench-drivers left its files"

# --kernel: the same table on gcrm_io's and mom_io's plans; every row writes the
# bytes the kernel's dry run plans
kbench() {
    kernel=$1; shift
    "$PYTHON" "$top_srcdir/scripts/bench-drivers" --kernel $kernel --dir "$TESTTMP" --np 2 --repetitions 1 \
        --drivers "mpiio null" --json "$TESTTMP/$kernel.json" "$@" >"$TESTTMP/$kernel.table" 2>"$TESTTMP/err" \
        || { cat "$TESTTMP/$kernel.table" "$TESTTMP/err"; fail "bench-drivers --kernel $kernel failed"; }
    [ "$(json_get "$TESTTMP/$kernel.json" 'len(d["rows"])')" = 8 ] || fail "$kernel: not 8 rows"
    grep -q "^# plan: $kernel" "$TESTTMP/$kernel.table" || fail "$kernel: the plan line does not name the kernel"
    [ "$(grep -c '^mpiio .* 1\.00 ' "$TESTTMP/$kernel.table")" = 4 ] || fail "$kernel: mpiio rows are not the baseline"
}
kbench gcrm_io --input "$top_srcdir/inputs/zgrd.in"
"$top_builddir/src/gcrm/gcrm_io" "$top_srcdir/inputs/zgrd.in" --dry_run true --nprocs 2 --json "$TESTTMP/g.json" >/dev/null
[ "$(json_get "$TESTTMP/gcrm_io.json" 'sorted(set(r["bytes"] for r in d["rows"]))')" = "[$(json_get "$TESTTMP/g.json" 'int(d["per_rank"]["bytes_written"]["sum"])')]" ] \
    || fail "gcrm_io rows do not write the planned bytes"
kbench mom_io --kernel-args "--ni 40 --nj 30 --nk 3 --records 2"
"$top_builddir/src/mom/mom_io" --ni 40 --nj 30 --nk 3 --records 2 --dry_run true --nprocs 2 --json "$TESTTMP/m.json" >/dev/null
[ "$(json_get "$TESTTMP/mom_io.json" 'sorted(set(r["bytes"] for r in d["rows"]))')" = "[$(json_get "$TESTTMP/m.json" 'int(d["per_rank"]["bytes_written"]["sum"])')]" ] \
    || fail "mom_io rows do not write the planned bytes"
pass
