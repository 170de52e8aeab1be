#!/bin/sh
# sanitizers: yes
# engine_exercise --shape ior: the dry run prints (and its JSON holds) the IOR
# line of the plan; the files IOR's layout gives (a header, then each rank's
# contiguous block); the mpiio driver writes IOR's calls: one
# MPI_File_write_at_all per max_request_size piece and no file view, in the
# blocking and the nonblocking collective mode, with one piece's buffer held and
# one engine collective per file (no barrier);
# records and vars add reopens and variables; keys of the other shape and a
# block that does not divide are refused.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver mpiio || skip "the mpiio driver is not built"
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
shape="--shape ior --files 3 --block 64k --max_request_size 16k --driver mpiio"

# the dry run's IOR line, text and JSON
run 1 "$EX" $shape --iotype blocking_collective --dry_run --nprocs 2 --json dry.json >dry.txt 2>&1 \
  || { cat dry.txt; fail "dry run failed"; }
grep -qx "  mpiexec -n 2 ior -a MPIIO -w -k -c -m -i 3 -b 65536 -t 16384 -s 1 -o ior.out" dry.txt \
  || { cat dry.txt; fail "no IOR line for the shape"; }
[ "$(json_get dry.json 'd["ior_equivalent"]["options"], d["ior_equivalent"]["share_of_plan_bytes"]')" = \
  "-a MPIIO -w -k -c -m -i 3 -b 65536 -t 16384 -s 1 -o ior.out 1" ] || fail "dry run JSON: $(json_get dry.json 'd["ior_equivalent"]')"
[ "$(json_get dry.json 'd["per_rank"]["buffer_peak_bytes"]["max"], d["request_size_histogram_log2"][14]')" = "16384 24" ] \
  || fail "dry run: the buffer or the requests: $(json_get dry.json 'd["per_rank"], d["request_size_histogram_log2"]')"
run 1 "$EX" $shape --iotype nonblocking_independent --fsync end --dry_run --nprocs 4 --json dry4.json >/dev/null 2>&1 \
  || fail "dry run (independent, --fsync end) failed"
[ "$(json_get dry4.json 'd["ior_equivalent"]["options"]')" = "-a MPIIO -w -k -e -m -i 3 -b 65536 -t 16384 -s 1 -o ior.out" ] \
  || fail "independent with --fsync end: $(json_get dry4.json 'd["ior_equivalent"]')"

# real runs: IOR's files and IOR's calls
for mode in blocking_collective nonblocking_collective; do
  rm -rf out
  run 2 "$EX" $shape --iotype $mode --out out --verify true --json $mode.json >$mode.txt 2>&1 \
    || { cat $mode.txt; fail "$mode: run failed"; }
  for k in 0 1 2; do
    [ "$(wc -c <out/ior.$k.raw)" -eq $((4096 + 2 * 65536)) ] || fail "$mode: out/ior.$k.raw: $(wc -c <out/ior.$k.raw) bytes"
  done
  [ "$(json_get $mode.json 'd["verify"]["performed"], d["verify"]["files"], d["verify"]["mismatches"]')" = "True 3 0" ] \
    || fail "$mode: verification: $(json_get $mode.json 'd["verify"]')"
  calls=$(json_get $mode.json 'sorted((k, v) for k, v in d["write"]["mpi"]["collective_calls_busiest_rank"].items() if k.startswith("MPI_File"))')
  [ "$calls" = "[('MPI_File_close', 3), ('MPI_File_open', 3), ('MPI_File_write_at_all', 12)]" ] \
    || fail "$mode: the MPI-IO calls (expected no MPI_File_set_view, one write_at_all per 16 KiB piece): $calls"
  [ "$(json_get $mode.json 'd["write"]["requests"]["count"], d["write"]["requests"]["size_histogram_log2"][14]')" = "24 24" ] \
    || fail "$mode: requests: $(json_get $mode.json 'd["write"]["requests"]')"
done
# blocking: one collective of the engine's per file (the agreement on the file's
# variables, carried by the driver's own synchronization at create: no barrier)
allr() { json_get "$1" 'd["write"]["mpi"]["collective_calls_busiest_rank"].get("'$2'", 0)'; }
[ "$(allr blocking_collective.json MPI_Barrier)" = 0 ] || fail "blocking: $(allr blocking_collective.json MPI_Barrier) barriers"
rm -rf out
run 2 "$EX" $shape --files 1 --iotype blocking_collective --out out --json one.json >one.txt 2>&1 || { cat one.txt; fail "1 file"; }
[ $(( $(allr blocking_collective.json MPI_Allreduce) - $(allr one.json MPI_Allreduce) )) = 2 ] \
  || fail "blocking: allreduces for 3 files $(allr blocking_collective.json MPI_Allreduce), for 1 $(allr one.json MPI_Allreduce)"
# blocking: one piece made at a time, so one piece's buffer held
[ "$(json_get blocking_collective.json 'd["write"]["memory"]["buffer_peak_bytes"]["max"]')" = 16384 ] \
  || fail "blocking: buffer peak $(json_get blocking_collective.json 'd["write"]["memory"]["buffer_peak_bytes"]')"

# records and vars: a reopen per further record, a variable per part of the block
rm -rf out
run 2 "$EX" $shape --records 2 --vars 2 --iotype blocking_collective --out out --verify true --json rv.json >rv.txt 2>&1 \
  || { cat rv.txt; fail "records 2 vars 2: run failed"; }
[ "$(json_get rv.json 'd["write"]["timers"]["open"]["calls"], d["write"]["timers"]["create"]["calls"], d["write"]["requests"]["count"]')" = "6 6 24" ] \
  || fail "records 2 vars 2: opens, creates, requests: $(json_get rv.json 'd["write"]["timers"]["open"], d["write"]["requests"]')"
[ "$(wc -c <out/ior.2.raw)" -eq $((4096 + 2 * 65536)) ] || fail "records 2 vars 2: $(wc -c <out/ior.2.raw) bytes"
grep -q "^var data1 byte 2 0 1$" out/ior.0.raw || fail "records 2 vars 2: the header lacks data1 (time, n)"

# segments: each rank's share in runs interleaved with the other rank's (IOR's -s);
# 4 runs of 16 KiB make one request of 64 KiB: one view per file, 8 runs in the
# file (rank 0's run k at 2 k x 16 KiB); the data read back
rm -rf out
run 2 "$EX" $shape --segments 4 --max_request_size 64k --iotype blocking_collective --out out --verify true \
  --json seg.json >seg.txt 2>&1 || { cat seg.txt; fail "segments 4: run failed"; }
[ "$(json_get seg.json 'd["verify"]["mismatches"], d["write"]["requests"]["count"], d["write"]["mpi"]["collective_calls_busiest_rank"].get("MPI_File_set_view")')" = "0 24 3" ] \
  || fail "segments 4: $(json_get seg.json 'd["verify"], d["write"]["requests"], d["write"]["mpi"]')"
run 1 "$EX" $shape --segments 4 --dry_run --nprocs 2 --json segdry.json >/dev/null 2>&1 || fail "segments 4: dry run"
[ "$(json_get segdry.json 'd["request_size_histogram_log2"][14], d["per_rank"]["requests"]["max"]')" = "24 12" ] \
  || fail "segments 4: dry run requests $(json_get segdry.json 'd["request_size_histogram_log2"]')"

# refused: a key of the other shape, a block that does not divide
expect_fail 1 "command line: nx belongs to shape model, and this run's shape is ior (shape ior, command line)" \
  "$EX" $shape --nx 8
expect_fail 1 "command line: files belongs to shape ior, and this run's shape is model (shape model, default)" \
  "$EX" --files 2
expect_fail 1 "command line: block 65537: expected a multiple of records x vars x segments = 2 x 1 x 1" "$EX" $shape \
  --block 65537 --records 2
pass
