#!/bin/sh
# inputs/sweep.pfio.toml end to end through climio-sweep: the 8 runs (simple,
# single and multigroup servers, with and without computation) succeed, write
# the same data, and carry the overlap figures the sweep report draws.
. "$top_srcdir/tests/lib.sh"
set -e
tool="$top_srcdir/scripts/climio-sweep"
[ -x "$tool" ] || skip "no climio-sweep in this tree"
cd "$TESTTMP"
CLIMIO_BINDIR="$top_builddir/src/pfio" "$tool" run "$top_srcdir/inputs/sweep.pfio.toml" >run.txt 2>&1 \
  || { cat run.txt; grep -q "Python" run.txt && skip "climio-sweep cannot run here"; fail "sweep failed"; }
grep -q "8 runs: 8 done" run.txt || { cat run.txt; fail "not 8 runs done"; }
"$PYTHON" - pfio-sample.sweep <<'PY' || fail "sweep results"
import glob, json, os, sys
docs = [json.load(open(p)) for p in glob.glob(os.path.join(sys.argv[1], "**", "result.json"), recursive=True)]
assert len(docs) == 8, len(docs)
sums = {json.dumps(sorted(d["checksums"].items())) for d in docs}
assert len(sums) == 1, "server types wrote different data"
types = sorted({d["kernel_report"]["layout"]["oserver_type"] for d in docs})
assert types == ["multigroup", "simple", "single"], types
for d in docs:
    o = d["kernel_report"]["overlap"]
    assert o["synchronous_s"] > 0 and o["blocked_s"] > 0
    if d["kernel_report"]["layout"]["oserver_type"] == "simple":
        assert o["efficiency"] == 0
PY
pass
