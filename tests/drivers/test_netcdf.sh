#!/bin/sh
# sanitizers: yes
# The netcdf driver: nc4, nc4c and (through netCDF's PnetCDF dispatch) cdf1,
# cdf2, cdf5, in both blocking modes at 1 and 2 ranks and a subset at 4 ranks
# (nc4 both modes, nc4c blocking_independent, cdf2 blocking_collective), each
# with --verify.  Classic files pass ncvalidator, hold exactly the plan's bytes
# and are byte-identical across modes and process counts; netCDF-4 files have
# the same ncdump data.  Then: the nonblocking refusal and its fallback,
# chunking and deflate as asked, and a bad chunking value.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
make_reference
formats="nc4 nc4c cdf1 cdf2 cdf5"
if ! run 1 "$EX" $PLAN --driver netcdf --format cdf1 --iotype blocking_collective --out "$TESTTMP/probe" --quiet >"$TESTTMP/log" 2>&1; then
    grep -q "cannot write format cdf1" "$TESTTMP/log" || { cat "$TESTTMP/log"; fail "cdf1 probe"; }
    echo "this netCDF-C has no PnetCDF dispatch: classic formats not tested"
    formats="nc4 nc4c"
fi
for fmt in $formats; do
    ref=""
    for np in 1 2 4; do
        for mode in $(modes_of netcdf); do
            if [ $np = 4 ]; then
                case $fmt:$mode in
                nc4:*|nc4c:blocking_independent|cdf2:blocking_collective) ;;
                *) continue ;;
                esac
            fi
            exercise $np netcdf $fmt $mode "$TESTTMP/$fmt-$np-$mode"
            case $fmt in
            cdf*)
                check_classic "$FILE" $fmt "$what"
                if [ -z "$ref" ]; then ref=$FILE; else cmp "$ref" "$FILE" >/dev/null || fail "$what: $FILE differs from $ref"; fi
                ;;
            *)
                size=$(stat -c %s "$FILE")
                [ "$size" -gt "$(plan_bytes $fmt)" ] || fail "$what: $FILE is $size bytes, less than the plan's data"
                ncdump_data "$FILE" >"$FILE.data"
                if [ -z "$ref" ]; then ref=$FILE; else cmp "$ref.data" "$FILE.data" >/dev/null || fail "$what: ncdump data differ from $ref"; fi
                if [ $mode = blocking_independent ]; then
                    json_get "$j" 'd["io"]["driver_report"]' | grep -q "^$(( 4 * NREC )) record-variable writes ran collectively" \
                        || fail "$what: report: $(json_get "$j" 'd["io"]["driver_report"]')"
                fi
                ;;
            esac
        done
    done
    echo "netcdf $fmt: all files agree with $ref"
done
# the values are the pattern's: spot-check one with ncdump (time = 60 s per record)
"$NCDUMP" -v time "$TESTTMP/nc4-2-blocking_collective/exercise.nc" | grep -q "time = 0, 60, 120 ;" || fail "time values"

# nonblocking: refused with the reason, or run as blocking when asked
expect_fail 2 "the netcdf driver has no nonblocking_collective mode (netCDF-C has no nonblocking API" \
    "$EX" $PLAN --driver netcdf --format nc4 --iotype nonblocking_collective --out "$TESTTMP/nb"
exercise 2 netcdf nc4 nonblocking_independent "$TESTTMP/fallback" --nc4_nonblocking_fallback true
[ "$(json_get "$j" 'd["io"]["iotype_effective"]')" = blocking_independent ] || fail "fallback: effective iotype"
ncdump_data "$FILE" >"$FILE.data"
cmp "$TESTTMP/nc4-1-blocking_collective/exercise.nc.data" "$FILE.data" >/dev/null || fail "fallback data"

# storage: record variables chunked one record deep, fixed ones contiguous
h="$TESTTMP/nc4-2-blocking_collective/exercise.nc"
"$NCDUMP" -hs "$h" >"$TESTTMP/hs"
grep -q 'temp:_ChunkSizes = 1, 3, 12, 16 ;' "$TESTTMP/hs" || fail "temp chunks: $(grep temp: "$TESTTMP/hs")"
grep -q 'mask:_Storage = "contiguous" ;' "$TESTTMP/hs" || fail "mask storage"
grep -q 'time:_ChunkSizes = 1 ;' "$TESTTMP/hs" || fail "time chunks"
grep -q ':_NoFill = "true" ;' "$TESTTMP/hs" || fail "nofill"
exercise 2 netcdf nc4 blocking_collective "$TESTTMP/chunks" --chunking 1,2,5,7 --deflate 1
"$NCDUMP" -hs "$FILE" >"$TESTTMP/hs"
grep -q 'salt:_ChunkSizes = 1, 2, 5, 7 ;' "$TESTTMP/hs" || fail "explicit chunks: $(grep salt: "$TESTTMP/hs")"
grep -q 'salt:_DeflateLevel = 1 ;' "$TESTTMP/hs" || fail "deflate"
grep -q 'mask:_DeflateLevel = 1 ;' "$TESTTMP/hs" || fail "deflate of a fixed variable"
ncdump_data "$FILE" >"$FILE.data"
cmp "$TESTTMP/nc4-1-blocking_collective/exercise.nc.data" "$FILE.data" >/dev/null || fail "chunked+deflated data differ"
expect_fail 2 "chunking '1,x': expected auto, contiguous, default or up to 8 positive comma-separated chunk sizes" \
    "$EX" $PLAN --driver netcdf --format nc4 --iotype blocking_collective --chunking 1,x --out "$TESTTMP/bad"
pass
