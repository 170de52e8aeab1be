#!/bin/sh
# The applicability table (src/lib/app/applicability.h), walked: every row of
# every option, as the programs list them (--print_params "applicability"), run
# in each of its cells without and with its setting
# (tests/applicability_walk.py); the note "has no effect" (the JSON's
# not_applied) must appear exactly when the setting changed nothing, the files'
# bytes (HDF5 files through h5dump, which leaves out their objects' times) and
# the JSON compared, and "applies only in part" only when it changed something.
# engine_exercise walks the common rows under every driver built; each kernel its
# own rows, and gcrm_io the keys it accepts for compatibility only.
. "$top_srcdir/tests/lib.sh"
set -e
b="$top_builddir/src"
walk() {
  name=$1
  shift
  "$PYTHON" "$top_srcdir/tests/applicability_walk.py" --work "$TESTTMP/$name" --mpiexec "$MPIEXEC" --h5dump "$H5DUMP" "$@" \
    >"$TESTTMP/$name.txt" 2>&1 || { cat "$TESTTMP/$name.txt"; fail "$name: the note and the effect disagree"; }
  grep "^summary" "$TESTTMP/$name.txt"
}
have_driver pnetcdf && drv="--driver pnetcdf" || drv="--driver mpiio"
walk exercise --prog "$b/exercise/engine_exercise" --base "--nx 8 --ny 8 --nz 2 --nrec 2 --out o --mkdir true" \
  --driver "$drv"
grep -q "^summary engine_exercise: [4-9][0-9] rows, [0-9]* runs, 0 mismatches, 0 rows never said$" "$TESTTMP/exercise.txt" \
  || fail "engine_exercise: fewer rows than the common table has"
walk pfio --prog "$b/pfio/pfio_io" --own --copy "$top_srcdir/inputs/pfio.in" \
  --base "pfio.in --output_dir o --im_world 36 --jm_world 19 --km_world 4 np=4"
# single_writer serial is noted only in a build with no driver that has a serial netCDF-C API
walk mom --prog "$b/mom/mom_io" --own --copy "$top_srcdir/inputs/mom.in.tiny" --base "mom.in.tiny --out o" \
  --expect-unseen single_writer
ignored=$(run 1 "$b/gcrm/gcrm_io" --print_params | "$PYTHON" -c \
  'import json,sys; print(" ".join(r["key"] for r in json.load(sys.stdin)["applicability"] if r["mode"].startswith("every run")))')
[ -n "$ignored" ] || fail "gcrm_io lists no key accepted for compatibility"
# shellcheck disable=SC2086
walk gcrm --prog "$b/gcrm/gcrm_io" --keys $ignored \
  --base "--restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0 --driver null"
pass
