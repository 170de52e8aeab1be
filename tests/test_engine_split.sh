#!/bin/sh
# sanitizers: yes
# A request above max_request_size is split into several driver calls (blocking
# modes) or wait rounds (nonblocking modes), never dropped: with a 200-byte limit
# every driver and mode writes many more, smaller requests, and the files hold
# the same data as without the limit (cmp for PnetCDF and raw files, ncdump or
# h5dump otherwise) and verify.  bput's buffer is capped at one round.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
make_reference
combos="mpiio:raw"
have_driver pnetcdf && combos="$combos pnetcdf:cdf5"
have_driver netcdf && combos="$combos netcdf:nc4"
have_driver hdf5 && combos="$combos hdf5:hdf5"
same() {     # same FORMAT A B
    case $1 in
    nc4) ncdump_data "$2" >"$TESTTMP/a"; ncdump_data "$3" >"$TESTTMP/b"; cmp "$TESTTMP/a" "$TESTTMP/b" >/dev/null ;;
    hdf5) h5dump_data "$2" >"$TESTTMP/a"; h5dump_data "$3" >"$TESTTMP/b"; cmp "$TESTTMP/a" "$TESTTMP/b" >/dev/null ;;
    *) cmp "$2" "$3" >/dev/null ;;
    esac
}
for c in $combos; do
    drv=${c%%:*} fmt=${c##*:}
    exercise 2 $drv $fmt blocking_collective "$TESTTMP/$drv-whole"
    whole=$FILE
    n0=$(json_get "$j" 'd["write"]["requests"]["count"]')
    for mode in $(modes_of $drv); do
        exercise 2 $drv $fmt $mode "$TESTTMP/$drv-$mode" --max_request_size 200
        n=$(json_get "$j" 'd["write"]["requests"]["count"]')
        [ "$n" -gt $(( 3 * n0 )) ] || fail "$what: $n requests with a 200-byte limit, $n0 without"
        # the largest request is below 256 bytes: the histogram ends at [128, 256)
        [ "$(json_get "$j" 'len(d["write"]["requests"]["size_histogram_log2"])')" -le 8 ] || fail "$what: a request above the limit"
        same $fmt "$whole" "$FILE" || fail "$what: split writes give other data than $whole"
        case $mode in
        nonblocking*) [ "$(json_get "$j" 'd["write"]["timers"]["wait"]["calls"]')" -gt $(( 4 * NREC )) ] \
                          || fail "$what: requests not spread over wait rounds" ;;
        *) [ "$(json_get "$j" 'd["write"]["timers"]["put"]["calls"]')" -gt $(( 10 * NREC )) ] \
               || fail "$what: requests not split into put calls" ;;
        esac
    done
done
if have_driver pnetcdf; then
    exercise 2 pnetcdf cdf5 nonblocking_collective "$TESTTMP/bput" --bput true --max_request_size 1000 --flush file
    cmp "$TESTTMP/pnetcdf-whole/exercise.nc" "$FILE" >/dev/null || fail "bput with small rounds: data differ"
    json_get "$j" 'd["io"]["driver_report"]' | grep -q "^bput buffer 1000 bytes per file" \
        || fail "bput buffer not capped at one round: $(json_get "$j" 'd["io"]["driver_report"]')"
fi
pass
