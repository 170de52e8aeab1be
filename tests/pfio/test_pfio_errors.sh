#!/bin/sh
# sanitizers: yes
# Configurations PFIO refuses, refused the same way: a clear message and a
# non-zero exit from every rank, never a hang (expect_fail has a time limit).
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/pfio/pfio_io"
small="--driver null --im_world 8 --jm_world 5 --km_world 2 --num_steps 2 --num_time_records 2 --output_dir $TESTTMP/out"

# too few backend ranks: MAPL's ServerManager assertion
expect_fail 4 "captain-soldier needs at least two backend ranks" "$prog" $small --npes_model 2 \
  --oserver_type multigroup --nodes_output_server 1 --npes_backend_pernode 1 --cores_per_node 2
# multicomm without backend ranks: MAPL's ServerManager assertion
expect_fail 4 "needs at least one backend for multicomm server" "$prog" $small --npes_model 2 \
  --oserver_type multicomm --npes_output_server 2 --compress_nodes
# more server ranks than were started
expect_fail 4 "not enough processes: the groups (model 2 ranks, o_server1 4 ranks) need 6 processes" "$prog" $small \
  --npes_model 2 --npes_output_server 4 --compress_nodes
# node isolation: the server starts on a new node, and there is none
expect_fail 4 "need 6 processes on nodes of 2 with node isolation" "$prog" $small --npes_model 2 \
  --nodes_output_server 2 --cores_per_node 2
# the model takes every rank unless told otherwise
expect_fail 3 "--npes_model defaults to every rank" "$prog" $small --npes_output_server 1 --compress_nodes
# a frontend rank without a client
expect_fail 5 "o_server1 has 2 frontend ranks but the model only 1" "$prog" $small --npes_model 1 \
  --npes_output_server 4 --oserver_type multigroup --npes_backend_pernode 2 --compress_nodes
# no frontend at all
expect_fail 4 "leaves no frontend rank" "$prog" $small --npes_model 2 --oserver_type multigroup \
  --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 2
# multilayer: one writer process cannot be captain and soldier (MAPL's ServerManager)
expect_fail 2 "captain-soldier needs at least two backend processes" "$prog" $small --oserver_type multilayer \
  --npes_model 1 --npes_output_server 1 --compress_nodes --npes_backend_pernode 1
expect_fail 2 "oserver_type expects one of single|multigroup|multicomm|multilayer, found 'multi'" "$prog" $small --oserver_type multi
# parameter-file values name their file and line
printf 'im_world 8\nnpes_output_server 2,x\n' >"$TESTTMP/bad.in"
expect_fail 2 "bad.in:2: npes_output_server: expected a list of non-negative integers" "$prog" "$TESTTMP/bad.in" \
  --driver null
printf 'variables temperature:3d,tracer:4d\n' >"$TESTTMP/bad2.in"
expect_fail 2 "bad2.in:1: variables: variable 'tracer': expected ':3d' or ':2d'" "$prog" "$TESTTMP/bad2.in" --driver null
expect_fail 2 "done_every 4 does not divide num_time_records 6" "$prog" $small --num_time_records 6 --done_every 4
expect_fail 2 "give either --npes_output_server or --nodes_output_server, not both" "$prog" $small \
  --npes_output_server 1 --nodes_output_server 1
# every rank exits with the error status, none is killed by an abort
grep -q "MPI_ABORT" "$TESTTMP/err.txt" && fail "a refused configuration aborted instead of exiting"

# a server option of another server type was ignored in silence: said, and in the JSON
run 3 "$prog" --im_world 24 --jm_world 12 --km_world 4 --num_steps 2 --num_time_records 2 --done_every 2 \
  --output_dir "$TESTTMP/so" --npes_model 2 --oserver_type single --multilayer_backend world --npes_backend_pernode 3 \
  --json "$TESTTMP/so.json" >"$TESTTMP/so.log" 2>&1 || { cat "$TESTTMP/so.log"; fail "single server with backend options"; }
grep -q "note: multilayer_backend world (command line) has no effect: only the multilayer server has writer processes to start; this run's server is single" \
  "$TESTTMP/so.log" || { cat "$TESTTMP/so.log"; fail "no note for multilayer_backend with the single server"; }
grep -q "note: npes_backend_pernode 3 (command line) has no effect: only the multigroup, multicomm and multilayer servers have backend ranks" \
  "$TESTTMP/so.log" || fail "no note for npes_backend_pernode with the single server"
[ "$(json_get "$TESTTMP/so.json" 'len(d["not_applied"])')" = 2 ] || fail "backend options: not both in the JSON's not_applied"

# a writer that fails in the middle of the run (its second file cannot be
# created) ends every rank - model, frontend, captain, other writers - at once
built=$(run 1 "$prog" --driver none_such --output_dir "$TESTTMP/x" 2>&1 | sed -n 's/.*drivers built: //p')
for d in netcdf pnetcdf hdf5 mpiio; do
  case " $built " in *" $d "*) ;; *) continue ;; esac
  rm -rf "$TESTTMP/blocked"
  ext=$(case $d in netcdf) echo nc4 ;; pnetcdf) echo nc ;; hdf5) echo h5 ;; *) echo raw ;; esac)
  mkdir -p "$TESTTMP/blocked/Nsample_pfio_file_Day0002.$ext"
  expect_fail 8 "create failed on $TESTTMP/blocked/Nsample_pfio_file_Day0002.$ext" "$prog" --driver $d \
    --im_world 8 --jm_world 5 --km_world 2 --output_dir "$TESTTMP/blocked" --npes_model 4 --oserver_type multigroup \
    --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 4 --compute_time 0.05
  break
done
pass
