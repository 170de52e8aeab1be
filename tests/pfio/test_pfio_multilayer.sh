#!/bin/sh
# MAPL's MultiLayerServer: an MpiServer whose window holders forward each
# collection to writer processes outside the server (pfio_writer's captain and
# soldiers).  The writers spawned with MPI_Comm_spawn (the default, as MAPL),
# taken from the job's last ranks (--multilayer_backend world), and with a Done
# every step (files reopened by whichever soldier is idle) all write the simple
# server's data: equal checksums and byte counts, --verify, identical ncdump
# output.  The profiler and the JSON cover both layers; a file the server cannot
# create ends every process, the spawned ones too.  At most 4 processes a run.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/pfio/pfio_io"
built=$(run 1 "$prog" --driver none_such --output_dir "$TESTTMP/x" 2>&1 | sed -n 's/.*drivers built: //p')
[ -n "$built" ] || fail "could not learn the drivers built"
driver=null
for d in netcdf pnetcdf hdf5 mpiio; do
  case " $built " in *" $d "*) driver=$d; break ;; esac
done
cat >"$TESTTMP/pfio.in" <<EOF
! a small pfio_MAPL_demo: 2 collections, 2 files of 3 records each
im_world 36
jm_world 19
km_world 4
collections 2
num_steps 6
num_time_records 3
EOF
common="$TESTTMP/pfio.in --driver $driver --with_io_profiler --server_poll_us 100"
[ "$driver" = null ] || common="$common --verify"
ml="--oserver_type multilayer --npes_model 1 --npes_output_server 1 --compress_nodes --npes_backend_pernode 2"

cfg() {
  name=$1; np=$2; shift 2
  run "$np" "$prog" $common --output_dir "$TESTTMP/$name" --json "$TESTTMP/$name.json" "$@" \
    >"$TESTTMP/$name.out" 2>&1 || { cat "$TESTTMP/$name.out"; fail "$name: run failed"; }
}
cfg simple 2
# 2 ranks started, 2 writers spawned; an MPI that cannot spawn (MPICH 4.0's
# ch4:ucx here) skips the test, with its error (Open MPI's must spawn)
if ! run 2 "$prog" $common --output_dir "$TESTTMP/spawn" --json "$TESTTMP/spawn.json" $ml >"$TESTTMP/spawn.out" 2>&1; then
  if [ "$CLIMIO_MPI" != openmpi ] && grep -q "may not spawn processes" "$TESTTMP/spawn.out"; then
    skip "MPI_Comm_spawn fails under this MPI ($CLIMIO_MPI): $(grep -m1 'MPI_Comm_spawn of' "$TESTTMP/spawn.out")"
  fi
  cat "$TESTTMP/spawn.out"
  fail "spawn: run failed"
fi
cfg world 4 $ml --multilayer_backend world          # the job's ranks 2 and 3 are the writers
cfg reopen 2 $ml --done_every 1                     # a write phase per step: the writers reopen the files

ref=$(json_get "$TESTTMP/simple.json" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
case "$ref" in *lat=*lev=*lon=*temperature=*tracer=*) ;; *) fail "checksums lack variables: $ref" ;; esac
expect=$(( 2 * 6 * (36*19*4 + 36*19) * 4 + 2 * 2 * (36 + 19 + 4) * 4 + 2 * 6 * 4 ))
for name in spawn world reopen; do
  j="$TESTTMP/$name.json"
  sums=$(json_get "$j" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
  [ "$sums" = "$ref" ] || fail "$name: checksums differ from the simple server's: $sums vs $ref"
  [ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = "$expect" ] || fail "$name: bytes written"
  [ "$(json_get "$j" 'd["nprocs"]')" = 4 ] || fail "$name: the writers are not in the run's processes"
  [ "$(json_get "$j" 'd["exit_status"]')" = 0 ] || fail "$name: exit status in JSON"
  [ "$driver" = null ] || [ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "$name: verification"
  k='d["kernel_report"]'
  [ "$(json_get "$j" "$k"'["layout"]["oserver_type"]')" = multilayer ] || fail "$name: server type"
  [ "$(json_get "$j" "$k"'["layout"]["servers"][0]["frontend"]')" = 1 ] || fail "$name: server ranks"
  [ "$(json_get "$j" "$k"'["layout"]["servers"][0]["backend"]')" = 2 ] || fail "$name: writer processes"
  [ "$(json_get "$j" "$k"'["layout"]["servers"][0]["writers"]')" = 1 ] || fail "$name: soldiers"
  # time in both layers: the server's aggregation (receive, forward) and the writers'
  [ "$(json_get "$j" "int(all(x > 0 for x in $k['phases']['aggregate_s_max']))")" = 1 ] || fail "$name: server time"
  [ "$(json_get "$j" "int(all(x > 0 for x in $k['phases']['write_s_max']))")" = 1 ] || fail "$name: writer time"
  [ "$(json_get "$j" "int($k['server']['writer_seconds'] > 0)")" = 1 ] || fail "$name: writer seconds"
  [ "$(json_get "$j" "int($k['server']['max_busy_writers'])")" = 1 ] || fail "$name: busy writers"
  [ "$(json_get "$j" "[r['name'] for r in $k['profile']['o_server1_writers']][:4]")" = \
    "['pfio_writer', 'wait_work', 'receive_data', 'write_data']" ] || fail "$name: writers' profile in the JSON"
  grep -q '^Final io_server profile (o_server1 writers: pfio_writer)$' "$TESTTMP/$name.out" \
    || fail "$name: no profile of the writers"
done
[ "$(json_get "$TESTTMP/spawn.json" 'd["kernel_report"]["layout"]["multilayer_backend"]')" = spawn ] || fail "spawn: backend"
[ "$(json_get "$TESTTMP/world.json" 'd["kernel_report"]["layout"]["multilayer_backend"]')" = world ] || fail "world: backend"
grep -q 'multilayer, 1 ranks receive and forward to 2 writer processes (1 captain + 1 soldier: ranks 2-3, spawned)' \
  "$TESTTMP/spawn.out" || fail "spawn: layout line"
grep -q "ranks 2-3, the job's last ranks" "$TESTTMP/world.out" || fail "world: layout line"
# the server creates each file (MultiLayerServer's put_DataToFile), the writers open it
# and write its records: once a file, or every step with a Done every step
[ "$(json_get "$TESTTMP/spawn.json" 'd["write"]["files"]["created"]')" = 4 ] || fail "spawn: files created"
[ "$(json_get "$TESTTMP/spawn.json" 'd["write"]["files"]["opened"]')" = 4 ] || fail "spawn: files opened"
[ "$(json_get "$TESTTMP/reopen.json" 'd["write"]["files"]["created"]')" = 4 ] || fail "reopen: files created"
[ "$(json_get "$TESTTMP/reopen.json" 'd["write"]["files"]["opened"]')" = 12 ] || fail "reopen: files opened"
[ "$(json_get "$TESTTMP/reopen.json" 'int(d["kernel_report"]["server"]["files_written"])')" = 12 ] || fail "reopen: writes"

# profiler trees: the server's (BaseServer's timers, forward_data in place of
# write_data) and the writers'
tree() { grep -E '^(-*[a-zA-Z_][a-zA-Z_ 0-9]*[a-z0-9_]) +[0-9]+\.[0-9]{2} .*  [0-9]{4}   [0-9]{4}$' "$TESTTMP/$1.out" | awk '{print $1}' | tr '\n' ' '; }
t=$(tree spawn)
[ "$t" = "i_server_client o_server1 --wait_message --add_Histcollection --create_shared_mem --receive_data --forward_data ----collection_1 ----collection_2 --clean_up pfio_writer --wait_work --receive_data --write_data ----collection_1 ----collection_2 " ] \
  || fail "multilayer timers: $t"

if [ "$driver" != null ] && [ -n "$NCDUMP" ] && [ "$driver" != hdf5 ] && [ "$driver" != mpiio ]; then
  for name in spawn world reopen; do
    for f in "$TESTTMP/simple"/*; do
      b=$(basename "$f")
      [ -f "$TESTTMP/$name/$b" ] || fail "$name: no file $b"
      (cd "$TESTTMP/simple" && "$NCDUMP" "$b") >"$TESTTMP/a.cdl" || fail "ncdump $b"
      (cd "$TESTTMP/$name" && "$NCDUMP" "$b") >"$TESTTMP/b.cdl" || fail "ncdump $name/$b"
      cmp -s "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" || { diff "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" | head; fail "$name/$b differs from the simple server's"; }
    done
  done
fi

# refused: one writer process (MAPL: captain-soldier), too few ranks for the writers
small="--driver null --im_world 8 --jm_world 5 --km_world 2 --num_steps 2 --num_time_records 2 --output_dir $TESTTMP/out"
expect_fail 2 "captain-soldier needs at least two backend processes: --npes_backend_pernode 1" "$prog" $small \
  --oserver_type multilayer --npes_model 1 --npes_output_server 1 --compress_nodes --npes_backend_pernode 1
expect_fail 2 "the last 2 ranks (npes_backend_pernode 2 x 1 server) are the writers, but only 2 ranks were started" \
  "$prog" $small $ml --multilayer_backend world
# a file the server cannot create ends every process, the spawned writers too
if [ "$driver" != null ]; then
  ext=$(case $driver in netcdf) echo nc4 ;; pnetcdf) echo nc ;; hdf5) echo h5 ;; *) echo raw ;; esac)
  mkdir -p "$TESTTMP/blocked/Nsample_pfio_file_Day0002.$ext"
  expect_fail 2 "create failed on $TESTTMP/blocked/Nsample_pfio_file_Day0002.$ext" "$prog" --driver $driver \
    --im_world 8 --jm_world 5 --km_world 2 --output_dir "$TESTTMP/blocked" $ml
fi
pass
