#!/bin/sh
# sanitizers: yes
# The JSON writer's output parses with a real JSON parser and holds the values written.
. "$top_srcdir/tests/lib.sh"
out=$TESTTMP/test_json.json
"$top_builddir/tests/test_json" "$out" || fail "test_json could not write $out"
"$PYTHON" - "$out" <<'PY' || fail "JSON check failed"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["quote"] == 'say "hi"\\ \n\ttab \x01', d["quote"]
assert d["big"] == 9007199254740993
assert d["u64"] == 18446744073709551615
assert abs(d["pi"] - 3.14159265358979) < 1e-8
assert d["inf"] is None and d["yes"] is True and d["nothing"] is None
assert d["bigdouble"] == 4221590515240 and isinstance(d["bigdouble"], int)
assert abs(d["third"] - 1 / 3) < 1e-14
assert d["empty"] == {} and d["none"] == []
assert d["list"] == [1, "two", {"x": -0.5}]
PY
# A results file the disk cannot hold fails the run (exit 4 from every rank) with the cause;
# the JSON is lost, so exit 0 would hide it.
if [ -w /dev/full ]; then
    expect_fail 2 "cannot write JSON results to /dev/full: No space left on device" \
        "$top_builddir/src/exercise/engine_exercise" --driver null --out "$TESTTMP/o" --json /dev/full
    [ "$rc" -eq 4 ] || fail "--json /dev/full: exit $rc, expected 4"
fi
pass
