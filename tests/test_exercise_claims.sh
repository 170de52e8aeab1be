#!/bin/sh
# engine_exercise claims its file and --json before writing anything, as the
# kernels do: a --json it cannot write is refused before the run with the
# system's cause, a file where the output folder should be is named as a
# file, and its data file is locked and checked against its inputs.
# sanitizers: yes
. "$top_srcdir/tests/lib.sh"
set -e
EX="$top_builddir/src/exercise/engine_exercise"
cd "$TESTTMP"
X="--driver mpiio --nx 8 --ny 8 --nz 2 --out o --mkdir true"
mkdir jd
: >f
expect_fail 1 "command line: json: 'jd' is a directory, expected a file name" "$EX" $X --json jd
[ ! -e o/exercise.raw ] || fail "--json jd: the run wrote before the refusal"
expect_fail 1 "command line: json: cannot write 'no/such/r.json': No such file or directory" "$EX" $X --json no/such/r.json
expect_fail 1 "command line: json: cannot write 'f/r.json': Not a directory" "$EX" $X --json f/r.json
expect_fail 1 "cannot create directory f: a file of that name exists (not a directory)" \
  "$EX" --driver mpiio --out f/sub --mkdir true
expect_fail 1 "cannot create directory f: a file of that name exists (not a directory)" "$EX" --driver mpiio --out f
# --json onto the data file of the run
expect_fail 1 "'o/exercise.raw' would be written twice, overwriting one output with another: by output_dir 'o' (command line) and by json" "$EX" $X --json o/exercise.raw
# the output folder is locked while the run writes, and the lock is gone after it
run 1 "$EX" $X --json r.json >out.txt 2>err.txt || { cat err.txt; fail "a plain run"; }
[ ! -e o/.climio.lock ] || fail "the lock stayed behind"
[ "$(json_get r.json 'd["kernel"]')" = engine_exercise ] || fail "the JSON"
# decomp_io: an empty --gen_out and an output folder that is a file are named
expect_fail 1 "gen_out expects a" "$top_builddir/src/decomp/decomp_io" --make_decomp block --gen_out ""
expect_fail 1 "decomp_io: error: cannot create directory f: a file of that name exists (not a directory)" \
  "$top_builddir/src/decomp/decomp_io" --driver mpiio --out f
# gcrm_io makes no folder: the lock meets the file
expect_fail 1 "/f: is not a directory: the output folder is a file (or lies under one)" \
  "$top_builddir/src/gcrm/gcrm_io" --driver mpiio --output_dir f --restart_interval 0 --cdf_output_nsamples 1 \
  --end_minutes 0
# climio_bp2nc: an empty --output is no file name
expect_fail 1 "command line: output expects a" "$top_builddir/src/bp2nc/climio_bp2nc" --input x.bp --output ""
pass
