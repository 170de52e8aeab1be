#!/bin/sh
# sanitizers: yes
# --repetitions N: the output phase N times in one job.  The JSON's
# repetitions[] and summary agree with each other (median, min, max, mean), the
# text has the summary table and the headline gives the median; checksums and
# bytes describe one repetition (equal to a single run's); the files of a
# repetition are removed before the next unless --keep_files; every kernel
# repeats or refuses with the reason.
. "$top_srcdir/tests/lib.sh"
set -e
ex="$top_builddir/src/exercise/engine_exercise"
out="$TESTTMP/out"
j1="$TESTTMP/one.json"; j3="$TESTTMP/three.json"
run 2 "$ex" --driver mpiio --out "$out" --json "$j1" --quiet >/dev/null 2>&1 || fail "single run"
run 2 "$ex" --driver mpiio --out "$out" --json "$j3" --repetitions 3 --repetition_delay 0.05 >"$TESTTMP/log" 2>&1 \
  || { cat "$TESTTMP/log"; fail "3 repetitions"; }
[ "$(json_get "$j3" 'len(d["repetitions"])')" = 3 ] || fail "repetitions[] length"
[ "$(json_get "$j3" 'd["summary"]["repetitions"]')" = 3 ] || fail "summary.repetitions"
[ "$(json_get "$j1" 'len(d["repetitions"])')" = 1 ] || fail "a single run has one repetition"
# the summary from the per-repetition values
ok=$(json_get "$j3" 'all(abs(a-b) < 1e-9*max(1,abs(b)) for a, b in [
  (d["summary"]["write_bandwidth_MiBps"]["median"], sorted(r["write_bandwidth_MiBps"] for r in d["repetitions"])[1]),
  (d["summary"]["write_bandwidth_MiBps"]["min"], min(r["write_bandwidth_MiBps"] for r in d["repetitions"])),
  (d["summary"]["write_bandwidth_MiBps"]["max"], max(r["write_bandwidth_MiBps"] for r in d["repetitions"])),
  (d["summary"]["seconds"]["mean"], sum(r["seconds"] for r in d["repetitions"]) / 3),
  (d["summary"]["seconds"]["median"], sorted(r["seconds"] for r in d["repetitions"])[1])])')
[ "$ok" = True ] || fail "summary disagrees with repetitions[]"
# each repetition wrote what one run writes; the checksums are one repetition's
b1=$(json_get "$j1" 'd["write"]["bytes"]["written"]')
[ "$(json_get "$j3" 'set(r["bytes"] for r in d["repetitions"]) == {'"$b1"'}')" = True ] || fail "bytes per repetition"
[ "$(json_get "$j3" 'd["write"]["bytes"]["written"]')" = "$b1" ] || fail "write.bytes is not one repetition's"
[ "$(json_get "$j3" 'sorted(d["checksums"].items())')" = "$(json_get "$j1" 'sorted(d["checksums"].items())')" ] \
  || fail "checksums differ from a single run"
# the text: one line per repetition, the table, the headline with the median
[ "$(grep -c '^repetition [123] of 3: ' "$TESTTMP/log")" = 3 ] || fail "progress lines"
grep -q "^Summary of all tests: 3 repetitions" "$TESTTMP/log" || fail "no summary table"
grep -q "^MiB/s  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*  *[0-9.]*$" "$TESTTMP/log" || fail "no MiB/s statistics row"
spread=$(json_get "$j3" '"%.2f [%.2f-%.2f]" % tuple(d["summary"]["write_bandwidth_MiBps"][k] for k in ("median", "min", "max"))')
flagged=$(json_get "$j3" 'sum(abs(r["write_bandwidth_MiBps"] - d["summary"]["write_bandwidth_MiBps"]["median"]) > 0.25 * d["summary"]["write_bandwidth_MiBps"]["median"] for r in d["repetitions"])')
[ "$(json_get "$j3" 'd["summary"]["flagged"]')" = "$flagged" ] || fail "summary.flagged is not the repetitions 25% away from the median"
[ "$(json_get "$j3" 'sum(r["flagged"] for r in d["repetitions"])')" = "$flagged" ] || fail "repetitions[].flagged"
tail -n 1 "$TESTTMP/log" | grep -qF "climio: engine_exercise mpiio/raw nonblocking_collective np=2 bytes=$b1 write=$spread MiB/s end to end (median of 3, $flagged flagged), durable=no" \
  || fail "headline: $(tail -n 1 "$TESTTMP/log")"
# each repetition carries its own phase timers; the text says which repetition its blocks are
[ "$(json_get "$j3" 'all(r["timers"]["create"]["calls"] == 2 and r["timers"]["close"]["calls"] >= 2 for r in d["repetitions"])')" = True ] \
  || fail "per-repetition timers"
grep -q "^---- the figures below (until the summary of all repetitions) are repetition 3 of 3, the last ----$" "$TESTTMP/log" \
  || fail "the blocks after the run do not say which repetition they are"
# --warmup: run first, recorded apart, left out of the summary and the headline
jw="$TESTTMP/warm.json"
run 2 "$ex" --driver mpiio --out "$out" --json "$jw" --repetitions 2 --warmup 2 >"$TESTTMP/log" 2>&1 || fail "--warmup 2"
[ "$(grep -c '^warm-up [12] of 2 (left out of the figures): ' "$TESTTMP/log")" = 2 ] || fail "warm-up lines"
[ "$(json_get "$jw" 'len(d["warmup"]), len(d["repetitions"]), d["summary"]["repetitions"], d["summary"]["warmup_repetitions"]')" = "2 2 2 2" ] \
  || fail "warm-up counted in the figures: $(json_get "$jw" 'd["summary"]')"
[ "$(json_get "$jw" 'd["summary"]["write_bandwidth_MiBps"]["max"] == max(r["write_bandwidth_MiBps"] for r in d["repetitions"])')" = True ] \
  || fail "the summary is not that of the measured repetitions"
tail -n 1 "$TESTTMP/log" | grep -q "(median of 2 after 2 warm-up, [0-2] flagged)" || fail "headline with warm-up: $(tail -n 1 "$TESTTMP/log")"
expect_fail 2 "command line: warmup: pfio_io cannot repeat its output in one job" \
  "$top_builddir/src/pfio/pfio_io" --warmup 1 --output_dir "$TESTTMP/p"
# the last repetition's file is there and verifies
run 2 "$ex" --driver mpiio --out "$out" --repetitions 2 --verify true --quiet >/dev/null 2>&1 || fail "verify after repetitions"
# files removed between repetitions, kept for the next to overwrite with
# --keep_files: watched during a 2-second delay between two repetitions
absent_samples() {   # ARGS...: samples (every 0.1 s) in which the folder was there but not the file
  f="$out/exercise.raw"; rm -rf "$out"
  run 1 "$ex" --driver mpiio --out "$out" --repetitions 2 --repetition_delay 2 --quiet "$@" >/dev/null 2>&1 &
  pid=$!; gone=0
  while kill -0 $pid 2>/dev/null; do
    if [ -d "$out" ] && [ ! -e "$f" ]; then gone=$((gone + 1)); fi
    sleep 0.1
  done
  wait $pid || fail "run with $*"
  echo $gone
}
n=$(absent_samples)
[ "$n" -ge 10 ] || fail "the file was not removed between repetitions (missing in $n samples of the 2-s delay)"
n=$(absent_samples --keep_files true)
[ "$n" -le 3 ] || fail "--keep_files: the file was missing in $n samples of the delay"
# the kernels: gcrm_io and mom_io repeat (null driver: quick), pfio_io and mom_combine refuse
gj="$TESTTMP/gcrm.json"
( cd "$TESTTMP" && run 2 "$top_builddir/src/gcrm/gcrm_io" --driver null --repetitions 2 --json "$gj" --quiet ) >/dev/null 2>&1 \
  || fail "gcrm_io --repetitions 2"
[ "$(json_get "$gj" 'len(d["repetitions"])')" = 2 ] || fail "gcrm_io repetitions"
[ "$(json_get "$gj" 'd["kernel_report"]["snapshot_dumps"]')" = 2 ] || fail "gcrm_io: dumps of one repetition"
[ "$(json_get "$gj" 'd["write"]["bytes"]["written"]')" = 118540572 ] || fail "gcrm_io: bytes of one repetition"
mj="$TESTTMP/mom.json"; mj1="$TESTTMP/mom1.json"
run 2 "$top_builddir/src/mom/mom_io" "$top_srcdir/inputs/mom.in.tiny" --driver null --out "$out" --json "$mj1" --quiet \
  >/dev/null 2>&1 || fail "mom_io"
run 2 "$top_builddir/src/mom/mom_io" "$top_srcdir/inputs/mom.in.tiny" --driver null --out "$out" --repetitions 2 \
  --json "$mj" --quiet >/dev/null 2>&1 || fail "mom_io --repetitions 2"
[ "$(json_get "$mj" 'len(d["repetitions"])')" = 2 ] || fail "mom_io repetitions"
[ "$(json_get "$mj" 'd["kernel_report"]["global_checksums"]')" = "$(json_get "$mj1" 'd["kernel_report"]["global_checksums"]')" ] \
  || fail "mom_io: checksums of 2 repetitions differ from one run's"
expect_fail 2 "command line: repetitions: pfio_io cannot repeat its output in one job" \
  "$top_builddir/src/pfio/pfio_io" --repetitions 2 --output_dir "$TESTTMP/p"
expect_fail 1 "command line: repetitions: mom_combine cannot repeat its output in one job" \
  "$top_builddir/src/combine/mom_combine" --mom5 --repetitions 2 "$TESTTMP/combined.nc"
# settings with no effect are said so: --keep_files alone, --repetitions on a dry run
run 1 "$ex" --driver mpiio --out "$out" --keep_files true >"$TESTTMP/log" 2>&1 || fail "keep_files alone"
grep -qF "engine_exercise: note: keep_files (command line) has no effect without a second output phase (--repetitions above 1, or --warmup)" "$TESTTMP/log" \
  || { cat "$TESTTMP/log"; fail "no note for --keep_files without repetitions"; }
# ... and the settings a warm-up gives work to are not: after the warm-up its files
# are kept (none removed before the measured run) and the delay is paused
jw="$TESTTMP/warm.json"; jk="$TESTTMP/warmkeep.json"
run 1 "$ex" --driver mpiio --out "$out" --warmup 1 --json "$jw" >"$TESTTMP/log" 2>&1 || fail "warmup"
run 1 "$ex" --driver mpiio --out "$out" --warmup 1 --keep_files true --repetition_delay 0.2 --json "$jk" \
  >"$TESTTMP/log" 2>&1 || fail "warmup with keep_files and a delay"
! grep -q "note: keep_files\|note: repetition_delay" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "warm-up: noted as without effect"; }
[ "$(json_get "$jk" 'len(d["not_applied"])')" = 0 ] || fail "warm-up: not_applied $(json_get "$jk" 'd["not_applied"]')"
[ "$(json_get "$jw" 'd["repetitions"][0]["files_removed_before"], d["repetitions"][0]["pause_before_seconds"]')" = "1 0" ] \
  || fail "warm-up alone: $(json_get "$jw" 'd["repetitions"][0]')"
[ "$(json_get "$jk" 'd["repetitions"][0]["files_removed_before"], d["repetitions"][0]["pause_before_seconds"] >= 0.2')" = "0 True" ] \
  || fail "warm-up with --keep_files --repetition_delay 0.2: $(json_get "$jk" 'd["repetitions"][0]')"
"$top_builddir/src/gcrm/gcrm_io" --dry-run --nprocs 4 --repetitions 3 --cdf_output_path "$TESTTMP" >"$TESTTMP/log" 2>&1 \
  || fail "dry run with repetitions"
grep -qF "gcrm_io: note: repetitions 3 (command line) has no effect on a dry run: it plans one output" "$TESTTMP/log" \
  || fail "no note for --repetitions on a dry run"
pass
