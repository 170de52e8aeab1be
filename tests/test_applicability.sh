#!/bin/sh
# The applicability table (src/lib/app/applicability.h), walked: every row of
# every option, as the programs list them (--print_params "applicability"), run
# in each of its cells without and with its setting
# (tests/applicability_walk.py); the note "has no effect" (the JSON's
# not_applied) must appear exactly when the setting changed nothing, the files'
# bytes (HDF5 files through h5dump, which leaves out their objects' times) and
# the JSON compared, and "applies only in part" only when it changed something.
# engine_exercise walks the common rows under every driver built (each kernel's
# own rows: test_applicability_kernels.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/applicability_walk.sh"
set -e
b="$top_builddir/src"
have_driver pnetcdf && drv="--driver pnetcdf" || drv="--driver mpiio"
walk exercise --prog "$b/exercise/engine_exercise" --base "--nx 8 --ny 8 --nz 2 --nrec 2 --out o --mkdir true" \
  --driver "$drv"
grep -q "^summary engine_exercise: [4-9][0-9] rows, [0-9]* runs, 0 mismatches, 0 rows never said$" "$TESTTMP/exercise.txt" \
  || fail "engine_exercise: fewer rows than the common table has"
pass
