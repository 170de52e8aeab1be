#!/bin/sh
# sanitizers: yes
# The mpiio driver (raw MPI-IO, the baseline): all four modes at 1, 2 and 4
# ranks with --verify; the files byte-identical across modes and process
# counts; the header and the data section sized exactly (CDF-5 layout: 4-byte
# padding of the short record variable, unwritten in the last record); the
# library byte count is the plan plus the header; appending records to a
# reopened file; the hints MPI-IO applied.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
make_reference
ref=""
for np in 1 2 4; do
    for mode in $(modes_of mpiio); do
        exercise $np mpiio raw $mode "$TESTTMP/$np-$mode"
        if [ -z "$ref" ]; then ref=$FILE; else cmp "$ref" "$FILE" >/dev/null || fail "$what: $FILE differs from $ref"; fi
        hdr=$(json_get "$j" 'd["write"]["bytes"]["header"]')
        [ "$hdr" = 4096 ] || fail "$what: header $hdr bytes"
        [ "$(json_get "$j" 'd["write"]["bytes"]["library_written"]')" = $(( $(plan_bytes raw) + hdr )) ] \
            || fail "$what: library bytes $(json_get "$j" 'd["write"]["bytes"]["library_written"]')"
    done
done
size=$(stat -c %s "$ref")
[ "$size" = $(( 4096 + $(plan_bytes raw) + 2 * (NREC - 1) )) ] || fail "$ref is $size bytes"
head -c 13 "$ref" | grep -q "^climio-raw 1" || fail "no raw header"
grep -a -q "^var temp float 4 0 1 2 3$" "$ref" || fail "header lacks temp"
# one session without reopening gives the same bytes; a hint reaches MPI-IO
exercise 2 mpiio raw nonblocking_collective "$TESTTMP/once" --reopen false --flush field --hints cb_buffer_size=1048576
[ "$(json_get "$j" 'd["hints"]["applied"].get("cb_buffer_size")')" = 1048576 ] || fail "applied hints: $(json_get "$j" 'd["hints"]')"
cmp "$ref" "$FILE" >/dev/null || fail "written in one session: differs"
pass
