#!/bin/sh
# sanitizers: yes
# The hdf5 driver: both blocking modes at 1, 2 and 4 ranks with --verify; the
# same h5dump values from every run; the layout (record variables extendible
# and chunked one record deep, fixed ones contiguous, text attributes as
# fixed-length strings); the I/O mode HDF5 reports; the metadata it wrote
# agrees with the file's size; the hints MPI-IO applied.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/drivers/common.sh"
set -e
have_driver hdf5 || skip "the hdf5 driver is not built"
make_reference
ref=""
for np in 1 2 4; do
    for mode in $(modes_of hdf5); do
        exercise $np hdf5 hdf5 $mode "$TESTTMP/$np-$mode"
        h5dump_data "$FILE" >"$FILE.data"
        [ -s "$FILE.data" ] || fail "$what: h5dump printed no data"
        if [ -z "$ref" ]; then ref=$FILE; else cmp "$ref.data" "$FILE.data" >/dev/null || fail "$what: h5dump data differ from $ref"; fi
        rep=$(json_get "$j" 'd["io"]["driver_report"]')
        case $mode in
        blocking_collective)
            # fixed variables: one H5Dwrite each (contiguous); record variables: one per
            # block, max_nblocks per put: at 2 ranks time 1, temp 2, salt 2, level 2
            want="chunk_collective [0-9]* contiguous_collective 3;"
            [ $np = 2 ] && want="chunk_collective $(( 7 * NREC )) contiguous_collective 3;"
            echo "$rep" | grep -q "^collective H5Dwrite by actual I/O mode (rank 0): $want" || fail "$what: report: $rep" ;;
        *)
            echo "$rep" | grep -q "independent H5Dwrite" || fail "$what: report: $rep" ;;
        esac
    done
done
# one H5Dwrite per put with a union of hyperslabs also for chunked datasets
export CLIMIO_HDF5_UNION=1
exercise 2 hdf5 hdf5 blocking_collective "$TESTTMP/union"
unset CLIMIO_HDF5_UNION
h5dump_data "$FILE" >"$FILE.data"
cmp "$ref.data" "$FILE.data" >/dev/null || fail "CLIMIO_HDF5_UNION=1: h5dump data differ"
rep=$(json_get "$j" 'd["io"]["driver_report"]')
case $rep in *"single blocks"*|*"reordered"*"reordered"*) fail "union: $rep" ;; *reordered*) ;; *) fail "union: $rep" ;; esac
size=$(stat -c %s "$FILE")
[ "$size" -gt "$(plan_bytes hdf5)" ] || fail "$FILE is $size bytes, less than the plan's data"
"$H5DUMP" -p -H "$FILE" >"$TESTTMP/layout"
"$PYTHON" - "$TESTTMP/layout" <<'PY' || fail "layout: $(cat "$TESTTMP/layout")"
import re, sys
t = open(sys.argv[1]).read()
def block(name):
    m = re.search(r'DATASET "%s" \{(.*?)\n   \}' % name, t, re.S)
    return m.group(1) if m else ""
assert "( 3, 3, 12, 16 ) / ( H5S_UNLIMITED, 3, 12, 16 )" in block("temp"), "temp dataspace"
assert "CHUNKED ( 1, 3, 12, 16 )" in block("temp"), "temp chunks"
assert "CONTIGUOUS" in block("mask"), "mask contiguous"
assert "SCALAR" in block("gmean"), "gmean scalar"
assert "( 3 ) / ( H5S_UNLIMITED )" in block("time"), "time dataspace"
assert re.search(r'ATTRIBUTE "long_name".*?STRSIZE 20;', block("temp"), re.S), "long_name a 20-char string"
PY
"$H5DUMP" -a /temp/long_name "$FILE" | grep -q '(0): "temperature "quoted""' || fail "text attribute value"
"$H5DUMP" -a /title "$FILE" | grep -q '"climio engine exerciser"' || fail "global attribute"
# written in one go, the metadata HDF5 reports is the file's size less the data
exercise 2 hdf5 hdf5 blocking_collective "$TESTTMP/once" --reopen false --hints cb_buffer_size=1048576
meta=$(json_get "$j" 'd["io"]["driver_report"]' | sed -n 's/.*HDF5 metadata \([0-9]*\) bytes in 1 files created.*/\1/p')
[ -n "$meta" ] || fail "no metadata figure: $(json_get "$j" 'd["io"]["driver_report"]')"
[ $(( meta + $(plan_bytes hdf5) )) = "$(stat -c %s "$FILE")" ] || fail "metadata $meta + data $(plan_bytes hdf5) != file size $(stat -c %s "$FILE")"
[ "$(json_get "$j" 'd["hints"]["applied"].get("cb_buffer_size")')" = 1048576 ] || fail "applied hints: $(json_get "$j" 'd["hints"]')"
expect_fail 2 "the hdf5 driver has no nonblocking_independent mode (HDF5 1.10 has no nonblocking API" \
    "$EX" $PLAN --driver hdf5 --iotype nonblocking_independent --out "$TESTTMP/nb"
pass
