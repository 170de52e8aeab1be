#!/bin/sh
# sanitizers: yes
# With more computation per step than output, the model waits for a multigroup
# server less than for the simple server (synchronous by design), for the
# same output.  The machine is shared and noisy (the suite runs tests side by
# side): what is asserted is generous (the multigroup wait below the simple
# server's, about 0.1-0.85 of it measured, and the in-run efficiency over 0.4,
# about 0.7-0.85 measured, where the simple server's is 0 by design),
# three attempts are allowed, and when no attempt meets the premise (the
# computation longer than the synchronous output) the machine cannot show an
# overlap and the test skips rather than judge it.  A multigroup server that did
# not overlap would block about as long as the simple one and fail.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/pfio/pfio_io"
built=$(run 1 "$prog" --driver none_such --output_dir "$TESTTMP/x" 2>&1 | sed -n 's/.*drivers built: //p')
driver=null
for d in netcdf pnetcdf hdf5 mpiio; do
  case " $built " in *" $d "*) driver=$d; break ;; esac
done
# 4 model ranks; 12 steps, a phase of 6 records of a 360x181x18 field and its 2-D
# tracer (about 28 MB per phase); 0.1 s of computation per step.  The waiting
# ranks sleep between tests (--server_poll_us) so 8 ranks share 2 cores fairly.
w="--driver $driver --im_world 360 --jm_world 181 --km_world 18 --num_steps 12 --compute_time 0.1
   --compute_kind sleep --server_poll_us 200 --writer_log false --quiet"
attempt() {
  run 4 "$prog" $w --output_dir "$TESTTMP/sync" --json "$TESTTMP/sync.json" >"$TESTTMP/sync.out" 2>&1 \
    || { cat "$TESTTMP/sync.out"; fail "simple server run failed"; }
  run 8 "$prog" $w --output_dir "$TESTTMP/mg" --json "$TESTTMP/mg.json" --npes_model 4 --oserver_type multigroup \
    --nodes_output_server 1 --npes_backend_pernode 2 --cores_per_node 4 >"$TESTTMP/mg.out" 2>&1 \
    || { cat "$TESTTMP/mg.out"; fail "multigroup run failed"; }
  sync=$(json_get "$TESTTMP/sync.json" 'd["kernel_report"]["model"]["blocked_s_mean"]')
  mg=$(json_get "$TESTTMP/mg.json" 'd["kernel_report"]["model"]["blocked_s_mean"]')
  compute=$(json_get "$TESTTMP/mg.json" 'd["kernel_report"]["model"]["compute_s_mean"]')
  eff=$(json_get "$TESTTMP/mg.json" 'd["kernel_report"]["overlap"]["efficiency"]')
  simple_eff=$(json_get "$TESTTMP/sync.json" 'd["kernel_report"]["overlap"]["efficiency"]')
  echo "blocked: simple server $sync s, multigroup $mg s; computing $compute s; in-run efficiency $eff"
  # the precondition: the computation is longer than the synchronous output
  why="computation ($compute s) shorter than the synchronous output ($sync s): the test's premise fails"
  "$PYTHON" -c "import sys; sys.exit(0 if $compute >= $sync else 1)" || { echo "$why"; premise_failed=$((premise_failed + 1)); return 1; }
  why="multigroup blocked $mg s, not below the simple server's $sync s, or its efficiency $eff is not over 0.4"
  [ "$simple_eff" = 0.0 ] || [ "$simple_eff" = 0 ] || fail "the simple server reports an overlap efficiency of $simple_eff"
  "$PYTHON" -c "import sys; sys.exit(0 if $mg < $sync and $eff > 0.4 else 1)"
}
premise_failed=0
tries=0
until attempt; do
  tries=$((tries + 1))
  if [ $tries -ge 3 ]; then
    [ $premise_failed -lt 3 ] || skip "the machine is too loaded to show an overlap: $why"
    fail "$why"
  fi
  echo "attempt $tries over the limit (a busy machine?); trying again"
done
# same data either way
[ "$(json_get "$TESTTMP/sync.json" 'sorted(d["checksums"].items())')" = \
  "$(json_get "$TESTTMP/mg.json" 'sorted(d["checksums"].items())')" ] || fail "checksums differ"
pass
