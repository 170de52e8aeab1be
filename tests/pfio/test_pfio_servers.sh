#!/bin/sh
# sanitizers: yes
# Every server type writes the same data: the simple server on the model ranks
# (2 and 3 ranks), the single server on its own ranks (RMA windows; a vector of
# two, given as a list on the command line, which moves blocks in messages; and
# messages forced), the multigroup server (the demo's command line on emulated
# nodes, a vector of two with fast clients, and one whose files are reopened by
# different writers every step), all from one parameter file.  Checked: equal
# checksums and byte counts in the JSON, the files each run reports, PFIO's
# profiler blocks, and with a real driver the files themselves (--verify, and
# ncdump output identical across server types).
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/pfio/pfio_io"
# the first real driver this pfio_io has (netCDF-4 first, as MAPL writes): the
# refusal of an unknown driver lists the drivers really built
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

# run NAME NP ARGS...: one configuration, its own output folder and JSON
cfg() {
  name=$1; np=$2; shift 2
  run "$np" "$prog" $common --output_dir "$TESTTMP/$name" --json "$TESTTMP/$name.json" "$@" \
    >"$TESTTMP/$name.out" 2>&1 || { cat "$TESTTMP/$name.out"; fail "$name: run failed"; }
}
cfg simple2 2
cfg simple3 3
cfg single1 5 --npes_model 3 --npes_output_server 2 --compress_nodes
# two single servers on this one node: with Open MPI their blocks travel in
# messages (it could give both servers' windows one shared-memory file), with the
# note saying so; other MPIs keep the windows, and say nothing
cfg single 7 --npes_model 3 --npes_output_server 2 2 --compress_nodes
note="several single servers share a node: their blocks go to the writers in messages"
if [ "$CLIMIO_MPI" = openmpi ]; then
  grep -q "$note" "$TESTTMP/single.out" || fail "single: no note on the message transfer"
elif grep -q "$note" "$TESTTMP/single.out"; then
  fail "single: the Open MPI note under $CLIMIO_MPI"
fi
cfg single_msg 5 --npes_model 3 --npes_output_server 2 --compress_nodes --mpiserver_transfer messages
cfg demo 8 --npes_model 4 --oserver_type multigroup --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 4
cfg vector 8 --npes_model 2 --oserver_type multigroup --npes_output_server 3 3 --npes_backend_pernode 2 \
  --compress_nodes --fast_oclient
cfg reopen 7 --npes_model 3 --oserver_type multigroup --npes_output_server 4 --npes_backend_pernode 3 \
  --compress_nodes --done_every 1
# MultiCommServer: 2 frontend + 2 writer ranks on the server's emulated node, no captain
cfg multicomm 8 --npes_model 4 --oserver_type multicomm --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 4

ref=$(json_get "$TESTTMP/simple2.json" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
case "$ref" in *lat=*lev=*lon=*temperature=*tracer=*) ;; *) fail "checksums lack variables: $ref" ;; esac
# data bytes: 2 collections x 6 records x (36*19*4 + 36*19) floats, plus lon, lat, lev once per file
# and one time value per record
expect=$(( 2 * 6 * (36*19*4 + 36*19) * 4 + 2 * 2 * (36 + 19 + 4) * 4 + 2 * 6 * 4 ))
for name in simple2 simple3 single1 single single_msg demo vector reopen multicomm; do
  j="$TESTTMP/$name.json"
  sums=$(json_get "$j" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
  [ "$sums" = "$ref" ] || fail "$name: checksums differ from the simple server's: $sums vs $ref"
  got=$(json_get "$j" 'd["write"]["bytes"]["written"]')
  [ "$got" = "$expect" ] || fail "$name: $got bytes written, expected $expect"
  [ "$(json_get "$j" 'int(d["kernel_report"]["server"]["files_written"])')" -ge 4 ] || fail "$name: files written"
  [ "$(json_get "$j" 'd["exit_status"]')" = 0 ] || fail "$name: exit status in JSON"
  if [ "$driver" != null ]; then
    [ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "$name: verification did not pass"
  fi
  # PFIO's report header on every run, as current MAPL prints it
  grep -q '^Name                 Inclusive  % Incl Exclusive  % Excl Max Excl)  Min Excl)  Max PE Min PE$' \
    "$TESTTMP/$name.out" || fail "$name: no PFIO profiler header"
  grep -q '^Final io_server profile' "$TESTTMP/$name.out" || fail "$name: no 'Final io_server profile' title"
done
# MAPL's writers use the serial netCDF-4 API (one process a file)
if [ "$driver" = netcdf ]; then
  [ "$(json_get "$TESTTMP/demo.json" 'd["config"]["nc_serial"]["value"]')" = True ] || fail "demo: writers not on the serial netCDF API"
  k=$("$NCDUMP" -k "$(ls "$TESTTMP"/demo/*.nc4 | head -1)")
  [ "$k" = netCDF-4 ] || fail "demo: files are $k, not netCDF-4"
fi
# layouts as MAPL computes them
[ "$(json_get "$TESTTMP/demo.json" 'd["kernel_report"]["layout"]["servers"][0]["frontend"]')" = 2 ] || fail "demo frontend"
[ "$(json_get "$TESTTMP/demo.json" 'd["kernel_report"]["layout"]["servers"][0]["backend"]')" = 2 ] || fail "demo backend"
grep -q 'MultiServer Start: nfront, nwriter           2           1' "$TESTTMP/demo.out" || fail "demo: MultiServer line"
[ "$(json_get "$TESTTMP/multicomm.json" 'd["kernel_report"]["layout"]["servers"][0]["writers"]')" = 2 ] || fail "multicomm writers"
grep -q 'multicomm, 2 frontend + 2 backend writers' "$TESTTMP/multicomm.out" || fail "multicomm: layout line"
# MAPL's soldiers log one line per collection written, at node:rank within the
# backend (the captain is 0:0, the one writer 0:1); the other servers log none
n=$(grep -cE '^ Writing time: +[0-9.]+ s, speed: +[0-9.]+ MB/s, size: +[0-9.]+ MB, at server node: 0:1, file: ' "$TESTTMP/demo.out" || true)
[ "$n" = 4 ] || fail "demo: $n 'Writing time' lines at 0:1, expected 4 (2 collections x 2 files)"
! grep -q 'Writing time' "$TESTTMP/simple2.out" "$TESTTMP/single1.out" || fail "a simple or single server logged 'Writing time'"
[ "$(json_get "$TESTTMP/vector.json" 'len(d["kernel_report"]["layout"]["servers"])')" = 2 ] || fail "vector: 2 servers"
# MAPL's set_optimal_server, called every step as pfio_MAPL_demo calls it: the
# pools split; step 1 goes to the large pool, step 2 to the small one, every
# later step to the large one; a file takes the choice of its first step, so
# both files go to the large pool (as the real demo's files did, doc/pfio.md)
grep -q '^ Oservers are split: *3 *3$' "$TESTTMP/vector.out" || fail "vector: no 'Oservers are split' line"
[ "$(grep -c '^ Large pool oserver is chosen, nwriting and server size : *2 *3$' "$TESTTMP/vector.out")" = 2 ] \
  || fail "vector: not one large-pool choice per file"
! grep -q 'Small pool oserver is chosen' "$TESTTMP/vector.out" || fail "vector: a file went to the small pool"
[ "$(json_get "$TESTTMP/single.json" 'd["kernel_report"]["layout"]["oserver_type"]')" = single ] || fail "single type"
# files: the two 3-record files of each collection were created once; with a Done
# every step the reopen run appends to them (files_written counts every write phase)
[ "$(json_get "$TESTTMP/reopen.json" 'd["write"]["files"]["created"]')" = 4 ] || fail "reopen: files created"
[ "$(json_get "$TESTTMP/reopen.json" 'd["write"]["files"]["opened"]')" = 8 ] || fail "reopen: files reopened"
[ "$(json_get "$TESTTMP/reopen.json" 'int(d["kernel_report"]["server"]["files_written"])')" = 12 ] || fail "reopen: writes"

# the PFIO wiki's 2021 layout on request: its header, times with 6 decimals, "Final profile"
cfg wiki 8 --npes_model 4 --oserver_type multigroup --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 4 \
  --profiler_format wiki2021
grep -q '^Name                 Inclusive % Incl Exclusive % Excl Max Excl  Min Excl  Max PE Min PE$' "$TESTTMP/wiki.out" \
  || fail "wiki2021: not the wiki's header"
grep -qE '^o_server_front +[0-9]+\.[0-9]{6} ' "$TESTTMP/wiki.out" || fail "wiki2021: times not f9.6"
grep -q '^Final profile$' "$TESTTMP/wiki.out" || fail "wiki2021: no 'Final profile' title"
! grep -q 'io_server profile' "$TESTTMP/wiki.out" || fail "wiki2021: current MAPL's title in the wiki layout"

# profiler trees: the timer names of each server type, in order
tree() { grep -E '^(-*[a-zA-Z_][a-zA-Z_ 0-9]*[a-z0-9_]) +[0-9]+\.[0-9]{2} .*  [0-9]{4}   [0-9]{4}$' "$TESTTMP/$1.out" | awk '{print $1 ($1=="--clean" ? " "$2 : "")}' | tr '\n' ' '; }
t=$(tree simple2)
[ "$t" = "io_server_client --add_Histcollection --create_shared_mem --receive_data --write_data ----collection_1 ----collection_2 --clean_up " ] \
  || fail "simple server timers: $t"
t=$(tree single)
# (both files go to o_server2, MAPL's large pool, so o_server1 only waits, as
# the real demo's idle server does)
case "$t" in "i_server_client o_server1 --wait_message --add_Histcollection o_server2 --wait_message --add_Histcollection --create_shared_mem --receive_data --write_data ----collection_1 ----collection_2 --clean_up ") ;;
  *) fail "single server timers: $t" ;; esac
t=$(tree demo)
[ "$t" = "i_server_client o_server_front --wait_message --add_Histcollection --receive_data ----collection_1 ----collection_2 --forward_data ----collection_1 ----collection_2 --clean up " ] \
  || fail "multigroup timers: $t"
t=$(tree multicomm)
[ "$t" = "i_server_client o_server_front --wait_message --add_Histcollection " ] || fail "multicomm timers: $t"
grep -q '^Final io_server profile (o_server2)$' "$TESTTMP/vector.out" || fail "vector: no profile of o_server2"

# with a real driver, the files themselves are the same whatever the server type
if [ "$driver" != null ]; then
  dump=""
  if [ -n "$NCDUMP" ] && [ "$driver" != hdf5 ] && [ "$driver" != mpiio ]; then dump="$NCDUMP"; fi
  if [ -n "$dump" ]; then
    for name in simple3 single1 single single_msg demo vector reopen multicomm; do
      for f in "$TESTTMP/simple2"/*; do
        b=$(basename "$f")
        [ -f "$TESTTMP/$name/$b" ] || fail "$name: no file $b"
        (cd "$TESTTMP/simple2" && $dump "$b") >"$TESTTMP/a.cdl" || fail "ncdump $b"
        (cd "$TESTTMP/$name" && $dump "$b") >"$TESTTMP/b.cdl" || fail "ncdump $name/$b"
        cmp -s "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" || { diff "$TESTTMP/a.cdl" "$TESTTMP/b.cdl" | head; fail "$name/$b differs from the simple server's"; }
      done
    done
    grep -q 'temperature(time, lev, lat, lon)' "$TESTTMP/a.cdl" || fail "no temperature(time, lev, lat, lon) in the files"
  fi
fi
pass
