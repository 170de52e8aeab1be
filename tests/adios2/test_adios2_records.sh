#!/bin/sh
# Records in a BP output: a file reopened for every record grows by one step each
# time (cio_file_nrecs agrees, --verify passes, bpls counts the steps); writing an
# existing record again or skipping one is refused with a message on every rank
# and mode; climio_bp2nc refuses an ADIOS2 output that climio did not write.
. "$top_srcdir/tests/adios2/common.sh"
prog="$top_builddir/tests/adios2/bp_records"

for np in 1 2 3; do
  for mode in blocking_collective nonblocking_collective; do
    run $np "$prog" --case append --iotype $mode --out "a$np$mode" --verify --json a.json >log.txt 2>&1 \
      || { cat log.txt; fail "append at $np ranks, $mode"; }
    json_is a.json 'd["verify"]["verdict"]' pass "append at $np ranks, $mode"
    json_is a.json 'd["verify"]["elements"]' $((40 * np)) "append at $np ranks, $mode: 5 records of $((8 * np))"
    "$BPLS" -l "a$np$mode/records.nc.bp" >ls.txt
    grep -Eq "^ *float +v +5\*\{$((8 * np))\}" ls.txt || { cat ls.txt; fail "append at $np ranks: not 5 steps of {$((8 * np))}"; }
    expect_fail $np "the output holds 2 record(s) and BP steps are only appended, in order" \
      "$prog" --case rewrite --iotype $mode --out "r$np$mode"
    expect_fail $np "record 3 after record 1" "$prog" --case gap --iotype $mode --out "g$np$mode"
  done
done

run 2 "$prog" --case foreign --out f >log.txt 2>&1 || { cat log.txt; fail "writing a foreign BP output"; }
expect_fail 2 "f/foreign.bp: not written by climio's adios2 driver" "$bp2nc" --input f/foreign.bp --output f/x.nc
pass
