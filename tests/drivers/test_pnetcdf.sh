#!/bin/sh
# sanitizers: yes
# The pnetcdf driver: every format x mode at 1 and 2 ranks, a subset at 4 ranks
# (cdf5 in all four modes, cdf1 blocking_collective, cdf2
# nonblocking_independent), each with --verify.  Every file passes ncvalidator,
# its variables hold exactly the plan's bytes and the file ends where they end;
# the files of one format are byte-identical whatever the mode or process count;
# the library's byte count is the plan plus the header.  Then bput, with the
# buffer from the plan and with one too small for a wait round.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
have_driver pnetcdf || skip "the pnetcdf driver is not built"
make_reference
for fmt in cdf1 cdf2 cdf5; do
    ref=""
    for np in 1 2 4; do
        for mode in $(modes_of pnetcdf); do
            if [ $np = 4 ]; then
                case $fmt:$mode in
                cdf5:*|cdf1:blocking_collective|cdf2:nonblocking_independent) ;;
                *) continue ;;
                esac
            fi
            exercise $np pnetcdf $fmt $mode "$TESTTMP/$fmt-$np-$mode"
            check_classic "$FILE" $fmt "$what"
            if [ -z "$ref" ]; then ref=$FILE; else
                cmp "$ref" "$FILE" >/dev/null || fail "$what: $FILE differs from $ref"
            fi
            # the library moved the plan, the header once, and record counts on reopen
            hdr=$(json_get "$j" 'd["write"]["bytes"]["header"]')
            [ "$hdr" = "$("$NCOFFSETS" "$FILE" | awk '/size *=/{print $3; exit}')" ] || fail "$what: header $hdr bytes, ncoffsets says otherwise"
            extra=$(json_get "$j" 'd["write"]["bytes"]["library_written"] - d["write"]["bytes"]["written"] - d["write"]["bytes"]["header"]')
            [ "$extra" -ge 0 ] && [ "$extra" -le $(( 16 * NREC )) ] || fail "$what: library wrote $extra bytes beyond plan + header"
        done
    done
    echo "pnetcdf $fmt: all files identical to $ref"
done
# bput: the buffer sized from the plan holds every request of a round
exercise 2 pnetcdf cdf5 nonblocking_collective "$TESTTMP/bput" --bput true
cmp "$TESTTMP/cdf5-1-blocking_collective/exercise.nc" "$FILE" >/dev/null || fail "bput file differs"
json_get "$j" 'd["io"]["driver_report"]' | grep -q "bput buffer .* 0 (0 bytes) posted with iput" \
    || fail "bput: $(json_get "$j" 'd["io"]["driver_report"]')"
# a buffer smaller than a round: the rest goes through iput, the data is the same
exercise 2 pnetcdf cdf5 nonblocking_independent "$TESTTMP/bput2" --bput true --bput_buffer_size 3000 --reopen false
cmp "$TESTTMP/cdf5-1-blocking_collective/exercise.nc" "$FILE" >/dev/null || fail "small bput buffer: file differs"
json_get "$j" 'd["io"]["driver_report"]' | grep -q "bput buffer 3000 bytes.* [1-9][0-9]* ([0-9]* bytes) posted with iput" \
    || fail "small bput buffer: $(json_get "$j" 'd["io"]["driver_report"]')"
# the hints MPI-IO applied are read back
[ "$(json_get "$j" 'len(d["hints"]["applied"])')" -gt 0 ] || fail "no applied hints from ncmpi_get_file_info"
pass
