#!/bin/sh
# climio_bp2nc on BP outputs that are cut or missing a data file, and with a
# folder as the output file: one message naming the file and what was
# expected, non-zero exit from every rank, no hang (ADIOS2 2.12's POSIX
# transport retries a short read forever), nothing written.
. "$top_srcdir/tests/adios2/common.sh"
have_driver pnetcdf || skip "the pnetcdf driver is not built"
CLIMIO_TEST_TIMEOUT=60
export CLIMIO_TEST_TIMEOUT

run 2 "$exercise" --driver adios2 --extras true --nrec 3 --out bp --quiet >log.txt 2>&1 || { cat log.txt; fail "adios2 run"; }
size=$(wc -c <bp/exercise.nc.bp/data.0)
[ "$size" -gt 1000 ] || fail "data.0 holds only $size bytes: the test proves nothing"
# cut COPY BYTES: a copy of the output whose data.0 keeps its first BYTES
cut_copy() {
    rm -rf "$1" && cp -r bp "$1"
    head -c "$2" bp/exercise.nc.bp/data.0 >"$1/exercise.nc.bp/data.0"
}

cut_copy empty 0
expect_fail 2 "empty/exercise.nc.bp/data.0: 0 bytes, expected at least" "$bp2nc" --input empty/exercise.nc.bp --output e.nc
grep -q "the output is truncated" err.txt || fail "empty data.0: no word of truncation"
[ ! -e e.nc ] || fail "empty data.0: a netCDF file was written"

cut_copy half $((size / 2))
expect_fail 2 "half/exercise.nc.bp/data.0: $((size / 2)) bytes, expected at least" \
  "$bp2nc" --input half/exercise.nc.bp --output h.nc
expect_fail 3 "half/exercise.nc.bp/data.0: $((size / 2)) bytes" "$bp2nc" --input half/exercise.nc.bp --output h.nc
[ ! -e h.nc ] || fail "half data.0: a netCDF file was written"

# 64 bytes short: more than the blocks' own bytes (the check passes), less than
# ADIOS2 reads, so ADIOS2 meets the short read (through the stdio transport: an
# error naming the file, not a retry)
cut_copy short $((size - 64))
expect_fail 2 "short/exercise.nc.bp/data.0" "$bp2nc" --input short/exercise.nc.bp --output s.nc
grep -q "adios2_perform_gets failed" err.txt || { cat err.txt; fail "64 bytes short: not the read's failure"; }

rm -rf gone && cp -r bp gone && rm gone/exercise.nc.bp/data.0
expect_fail 2 "gone/exercise.nc.bp/data.0: cannot read it: No such file or directory" \
  "$bp2nc" --input gone/exercise.nc.bp --output g.nc

# the whole output still converts
run 2 "$bp2nc" --input bp/exercise.nc.bp --output ok.nc --quiet >log.txt 2>&1 || { cat log.txt; fail "uncut output"; }
[ -s ok.nc ] || fail "uncut output: no netCDF file"

# a folder as the output of one BP output is refused before anything is written
mkdir od
expect_fail 2 "output: 'od' is a folder, expected the name of the netCDF file to write" \
  "$bp2nc" --input bp/exercise.nc.bp --output od
[ -z "$(ls -A od)" ] || fail "--output FOLDER: something was written into it"
pass
