#!/bin/sh
# `--driver X` just works: on the built-in input (iotype nonblocking_collective,
# the kernel's default) a driver without that mode runs its blocking_collective
# with one note and the JSON origin "adjusted for driver"; an iotype the user
# chose keeps the clear error.
. "$top_srcdir/tests/lib.sh"
set -e
prog="$top_builddir/src/gcrm/gcrm_io"
have_driver hdf5 || skip "the hdf5 driver is not built"
mkdir -p "$TESTTMP/empty"
j="$TESTTMP/hdf5.json"
( cd "$TESTTMP/empty" && run 2 "$prog" --driver hdf5 --json "$j" >"$TESTTMP/out.txt" 2>"$TESTTMP/err.txt" ) \
  || { cat "$TESTTMP/err.txt"; fail "--driver hdf5 on the built-in input failed"; }
[ "$(json_get "$j" 'd["parameter_file"]')" = "<built-in zgrd.in>" ] || fail "not the built-in input"
[ "$(json_get "$j" 'd["io"]["iotype"]')" = blocking_collective ] || fail "iotype not blocking_collective"
[ "$(json_get "$j" 'd["io"]["iotype_effective"]')" = blocking_collective ] || fail "effective iotype"
[ "$(json_get "$j" 'd["io"]["iotype_origin"]')" = "adjusted for driver" ] || fail "io.iotype_origin"
[ "$(json_get "$j" 'd["config"]["iotype"]["origin"]')" = "adjusted for driver" ] || fail "config.iotype.origin"
[ "$(json_get "$j" 'd["write"]["bytes"]["written"]')" = 118540572 ] || fail "bytes written"
note="gcrm_io: note: the hdf5 driver has no nonblocking_collective mode (the kernel's default iotype): running blocking_collective (--iotype chooses another)"
[ "$(grep -cxF -- "$note" "$TESTTMP/err.txt")" = 1 ] || { cat "$TESTTMP/err.txt"; fail "the note is not there once"; }
# the note is the only line on stderr: no second warning about the call pattern
[ "$(wc -l <"$TESTTMP/err.txt")" = 1 ] || { cat "$TESTTMP/err.txt"; fail "more than the note on stderr"; }
grep -qF -- "----  I/O method                                     = blocking_collective" "$TESTTMP/out.txt" \
  || fail "the GCRM report's I/O method is not blocking_collective"
tail -n 1 "$TESTTMP/out.txt" | grep -q "^climio: gcrm_io hdf5/hdf5 blocking_collective np=2 bytes=118540572 " \
  || fail "headline: $(tail -n 1 "$TESTTMP/out.txt")"
# chosen on the command line, or in a parameter file named there: the error stays
expect_fail 2 "command line: the hdf5 driver has no nonblocking_collective mode (HDF5 1.10 has no nonblocking API" \
  "$prog" --driver hdf5 --iotype nonblocking_collective --cdf_output_path "$TESTTMP/empty"
sed 's/^iotype .*/iotype nonblocking_independent/' "$top_srcdir/inputs/zgrd.in" >"$TESTTMP/p.in"
line=$(grep -n '^iotype' "$TESTTMP/p.in" | cut -d: -f1)
( cd "$top_srcdir/inputs" && expect_fail 2 "$TESTTMP/p.in:$line: the hdf5 driver has no nonblocking_independent mode" \
  "$prog" "$TESTTMP/p.in" --driver hdf5 --cdf_output_path "$TESTTMP/empty" )
pass
