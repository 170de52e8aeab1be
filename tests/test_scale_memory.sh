#!/bin/sh
# Per-rank memory does not grow with the process count: gcrm_io and mom_io with
# tiny data and the null driver at 16 and 64 oversubscribed ranks
# (scripts/bench-scale); the largest per-rank tracked memory at 64 ranks is not
# above that at 16 plus 64 KiB (room for arrays of P entries where MPI needs
# them), and the collective calls per output event do not grow either; the
# busiest rank's calls by function (the JSON's breakdown) add up to its total.
. "$top_srcdir/tests/lib.sh"
set -e
export OMPI_MCA_rmaps_base_oversubscribe=1
timeout "${CLIMIO_TEST_TIMEOUT:-600}" "$PYTHON" "$top_srcdir/scripts/bench-scale" --np "16 64" --drivers null \
    --kernels "gcrm_io mom_io" --dir "$TESTTMP" --json "$TESTTMP/scale.json" >"$TESTTMP/table" 2>"$TESTTMP/err" \
    || { cat "$TESTTMP/table" "$TESTTMP/err" >&2; fail "bench-scale failed"; }
cat "$TESTTMP/table"
"$PYTHON" - "$TESTTMP/scale.json" <<'PY' || fail "per-rank memory or collectives grew from 16 to 64 ranks"
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
bad = 0
for kernel in ("gcrm_io", "mom_io"):
    r16, r64 = ([r for r in rows if r["kernel"] == kernel and r["np"] == n][0] for n in (16, 64))
    if r64["mem_max"] > r16["mem_max"] + 65536:
        print("%s: tracked memory %d bytes at 64 ranks, %d at 16" % (kernel, r64["mem_max"], r16["mem_max"]))
        bad = 1
    if r64["coll_per_event"] > r16["coll_per_event"]:
        print("%s: %.1f collectives per event at 64 ranks, %.1f at 16" % (kernel, r64["coll_per_event"], r16["coll_per_event"]))
        bad = 1
# the busiest rank's calls by function add up to its total, and name real MPI calls
for r in rows:
    by = r["coll_by_call"]
    if sum(by.values()) != r["coll_max"] or not by or not all(k.startswith("MPI_") for k in by):
        print("%s np %d: calls by function %s do not add up to %d" % (r["kernel"], r["np"], by, r["coll_max"]))
        bad = 1
sys.exit(bad)
PY
[ -z "$(ls "$TESTTMP" | grep climio-scale-)" ] || fail "bench-scale left its files"
pass
