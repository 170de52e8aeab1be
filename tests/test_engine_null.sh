#!/bin/sh
# sanitizers: yes
# The engine end to end with the null driver at 1, 2, 3 and 4 ranks, in every mode:
# exact byte counts, request counts and checksums that do not depend on the
# process count, and the same JSON figures a user would read.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/exercise/engine_exercise"
nx=16; ny=12; nz=3; nrec=3
# bytes per record: time 8, temp 4*nz*ny*nx, salt 8*nz*ny*nx; mask 4*ny*nx once
expect=$(( nrec * (8 + 12 * nz * ny * nx) + 4 * ny * nx ))
ref=""
for np in 1 2 3 4; do
  for mode in nonblocking_collective nonblocking_independent blocking_collective blocking_independent; do
    j="$TESTTMP/r$np-$mode.json"
    run $np "$prog" --driver null --iotype $mode --out "$TESTTMP/out" --json "$j" --quiet >"$TESTTMP/log" 2>&1 \
      || { cat "$TESTTMP/log"; fail "run np=$np $mode failed"; }
    got=$(json_get "$j" 'd["write"]["bytes"]["written"]')
    [ "$got" = "$expect" ] || fail "np=$np $mode: bytes written $got, expected $expect"
    [ "$(json_get "$j" 'd["nprocs"]')" = "$np" ] || fail "nprocs in JSON"
    [ "$(json_get "$j" 'd["io"]["iotype"]')" = "$mode" ] || fail "iotype in JSON"
    files=$(json_get "$j" 'd["write"]["files"]["created"] + d["write"]["files"]["opened"]')
    [ "$files" = "$(( np * nrec ))" ] || fail "np=$np: files created+opened $files, expected $(( np * nrec ))"
    sums=$(json_get "$j" '" ".join(k+"="+v for k,v in sorted(d["checksums"].items()))')
    if [ -z "$ref" ]; then ref="$sums"; fi
    [ "$sums" = "$ref" ] || fail "np=$np $mode: checksums differ from np=1: $sums vs $ref"
    # every figure of the timers has its ranks
    json_get "$j" 'd["write"]["timers"]["create"]["max_rank"]' >/dev/null || fail "timer ranks missing"
  done
done
case "$ref" in *mask=*salt=*temp=*time=*) ;; *) fail "checksums lack variables: $ref" ;; esac
# requests: a large max_request_size keeps one request per block; a small one splits
j="$TESTTMP/split.json"
run 2 "$prog" --driver null --max_request_size 256 --out "$TESTTMP/out" --json "$j" --quiet >/dev/null 2>&1 || fail "split run"
reqs=$(json_get "$j" 'd["write"]["requests"]["count"]')
whole=$(json_get "$TESTTMP/r2-nonblocking_collective.json" 'd["write"]["requests"]["count"]')
[ "$reqs" -gt $(( 3 * whole )) ] || fail "max_request_size 256 should split $whole requests into many more, got $reqs"
# no request above the limit: the histogram stops at the [128, 256) bucket
[ "$(json_get "$j" 'len(d["write"]["requests"]["size_histogram_log2"])')" -le 9 ] || fail "a request above 256 bytes"
[ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = "$expect" ] || fail "split run bytes"
[ "$(json_get "$j" 'sorted(d["checksums"].items())')" = "$(json_get "$TESTTMP/r1-nonblocking_collective.json" 'sorted(d["checksums"].items())')" ] \
  || fail "split run checksums differ"
pass
