#!/bin/sh
# sanitizers: yes
# --dry-run (a plain process, no MPI launch) predicts exactly what a real run
# measures: per-rank bytes, requests and buffer peaks (min/mean/max and their
# ranks), total requests and total data bytes, at several process counts.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/exercise/engine_exercise"
for np in 1 3 4; do
  for mode in nonblocking_collective blocking_independent; do
    dj="$TESTTMP/dry$np.json"; rj="$TESTTMP/real$np.json"
    "$prog" --dry-run --nprocs $np --iotype $mode --nx 40 --ny 30 --json "$dj" >"$TESTTMP/dry.txt" \
      || fail "dry run failed"
    grep -q "at $np processes" "$TESTTMP/dry.txt" || fail "dry-run text lacks the process count"
    run $np "$prog" --iotype $mode --nx 40 --ny 30 --out "$TESTTMP/out" --json "$rj" --quiet >/dev/null \
      || fail "real run failed"
    for pair in "bytes_written:bytes:written" "requests:requests:count"; do
      dk=${pair%%:*}
      rest=${pair#*:}; rk1=${rest%%:*}; rk2=${rest#*:}
      d=$(json_get "$dj" "d['per_rank']['$dk']['sum']" | sed 's/\.0$//')
      r=$(json_get "$rj" "d['write']['$rk1']['$rk2']")
      [ "$d" = "$r" ] || fail "np=$np $mode: dry-run $dk $d, real run $r"
    done
    for k in min mean max min_rank max_rank; do
      d=$(json_get "$dj" "d['per_rank']['buffer_peak_bytes']['$k']")
      r=$(json_get "$rj" "d['write']['memory']['buffer_peak_bytes']['$k']")
      [ "$d" = "$r" ] || fail "np=$np $mode: buffer peak $k: dry run $d, real $r"
    done
    d=$(json_get "$dj" "d['request_size_histogram_log2']")
    r=$(json_get "$rj" "d['write']['requests']['size_histogram_log2']")
    [ "$d" = "$r" ] || fail "np=$np: request size histograms differ: $d vs $r"
    [ "$(json_get "$dj" "d['files']['data_bytes']")" = "$(json_get "$rj" "d['write']['bytes']['written']")" ] \
      || fail "np=$np: planned data bytes differ from bytes written"
    # io.iotype is the mode asked in both documents, iotype_effective the one run
    for k in iotype iotype_effective; do
      [ "$(json_get "$dj" "d['io']['$k']")" = "$(json_get "$rj" "d['io']['$k']")" ] \
        || fail "np=$np $mode: io.$k differs between the dry run and the run"
    done
  done
done
# a large plan stays fast and small: 40,960 virtual ranks
"$prog" --dry-run --nprocs 40960 --nx 4096 --ny 40960 --nz 4 --blocks 1 --json "$TESTTMP/big.json" >/dev/null \
  || fail "large dry run failed"
[ "$(json_get "$TESTTMP/big.json" "d['files']['data_bytes']")" = "$(( 3 * (8 + 12 * 4 * 40960 * 4096) + 4 * 40960 * 4096 ))" ] \
  || fail "large dry run: data bytes wrong"
mem=$(json_get "$TESTTMP/big.json" "d['planner_memory_bytes']")
[ "$mem" -lt 10485760 ] || fail "planner used $mem bytes for 40960 ranks"
pass
