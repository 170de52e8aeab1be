#!/bin/sh
# scripts/bench-pfio on a tiny grid with two repetitions: the wiki's table (one
# row per backend count) and the overlap table, cells "median [min-max]", the
# JSON with both runs of every cell, nothing left in --dir; and a configuration
# pfio_io refuses shows pfio_io's own error line.
. "$top_srcdir/tests/lib.sh"
set -e
b="$top_srcdir/scripts/bench-pfio"
"$PYTHON" "$b" --bin "$top_builddir/src/pfio" --cores-per-node 3 --grids 24x13x4 --backend 2 --repetitions 2 \
  --driver null --dir "$TESTTMP/d" --json "$TESTTMP/b.json" >"$TESTTMP/out.txt" 2>&1 \
  || { cat "$TESTTMP/out.txt"; fail "bench-pfio failed"; }
grep -Eq '^\| 2 \| [0-9.]+ \[[0-9.]+-[0-9.]+\]( !)? \| [0-9.]+ \[' "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "table row"; }
grep -Eq '^\| 24x13x4 \| [0-9.]+ \| [0-9.]+ \[[0-9.]+-[0-9.]+\]' "$TESTTMP/out.txt" || { cat "$TESTTMP/out.txt"; fail "overlap row"; }
grep -q "^cells: median \[min-max\] of 2 runs" "$TESTTMP/out.txt" || fail "no legend of the cells"
[ "$(json_get "$TESTTMP/b.json" 'len(d["tables"][0]["rows"][0]["blocked_s"]["values"])')" = 2 ] || fail "JSON: 2 runs per cell"
[ "$(json_get "$TESTTMP/b.json" 'len(d["overlap"][0]["blocked_simple_s"]["values"])')" = 2 ] || fail "JSON: overlap runs"
[ -z "$(ls "$TESTTMP/d")" ] || fail "bench-pfio left files in --dir"
set +e
"$PYTHON" "$b" --bin "$top_builddir/src/pfio" --cores-per-node 2 --grids 24x13x4 --backend 1 --repetitions 1 \
  --driver null --dir "$TESTTMP/d" >"$TESTTMP/bad.txt" 2>&1
rc=$?
set -e
[ $rc -eq 1 ] || { cat "$TESTTMP/bad.txt"; fail "a refused configuration: exit $rc, expected 1"; }
grep -q "FAILED: table-24x13x4-b1-rep0: exit status 2: pfio_io: error: captain-soldier needs at least two backend ranks" \
  "$TESTTMP/bad.txt" || { cat "$TESTTMP/bad.txt"; fail "the failure does not show pfio_io's error line"; }
pass
