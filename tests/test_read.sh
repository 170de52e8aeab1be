#!/bin/sh
# sanitizers: yes
# --read: everything written is read back as a benchmark through every driver and
# iotype, with the same or a shifted decomposition; the bytes read equal the
# bytes written, every value is checked against the pattern, and the read-back
# statistics (timers, bandwidth) are in the JSON.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/exercise/engine_exercise"
for drv in mpiio pnetcdf netcdf hdf5; do
  have_driver $drv || continue
  case $drv in netcdf|hdf5) modes="blocking_collective blocking_independent" ;;
               *) modes="blocking_collective blocking_independent nonblocking_collective nonblocking_independent" ;; esac
  for mode in $modes; do
    for shift in true false; do
      j="$TESTTMP/r.json"
      run 3 "$prog" --driver $drv --iotype $mode --read --verify_shift $shift --out "$TESTTMP/o" --json "$j" --quiet \
        >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "$drv $mode shift=$shift"; }
      w=$(json_get "$j" 'd["write"]["bytes"]["written"]')
      r=$(json_get "$j" 'd["readback"]["bytes"]["read"]')
      [ "$w" = "$r" ] || fail "$drv $mode: read $r bytes, wrote $w"
      # one file, read by 3 ranks: counted once
      [ "$(json_get "$j" 'd["verify"]["files"]')" = 1 ] || fail "$drv $mode: read-back files counted per rank"
      [ "$(json_get "$j" 'd["verify"]["verdict"]')" = pass ] || fail "$drv $mode: reads not checked"
      [ "$(json_get "$j" 'd["readback"]["end_to_end"]["read_bandwidth_MiBps"] > 0')" = True ] || fail "$drv $mode: no read bandwidth"
      case $mode in
        nonblocking*) t=iget ;; *) t=get ;;
      esac
      [ "$(json_get "$j" "d['readback']['timers']['$t']['calls'] > 0")" = True ] || fail "$drv $mode: no $t calls"
    done
  done
done
# read_check false times the reads only
have_driver mpiio && {
  run 2 "$prog" --driver mpiio --read --read_check false --out "$TESTTMP/o" --json "$TESTTMP/n.json" --quiet >/dev/null 2>&1 || fail "read_check false"
  [ "$(json_get "$TESTTMP/n.json" 'd["verify"]["verdict"]')" = "not run" ] || fail "read_check false still checked"
  [ "$(json_get "$TESTTMP/n.json" 'd["readback"]["timers"]["check"]["calls"]')" = 0 ] || fail "check timer ran"
}
pass
