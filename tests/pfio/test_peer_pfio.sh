#!/bin/sh
# scripts/peer-pfio's comparison, without MAPL: a stand-in for MAPL's
# pfio_MAPL_demo.x (pfio_io itself, with the options that make it write the
# demo's files, on a small grid) must come out equal in files, headers, sizes,
# writing ranks, netCDF requests and POSIX writes, and --check exit 0; a
# stand-in that writes its time coordinate (6 more netCDF requests a file) must
# be reported DIFFERENT and --check exit 1, and so must a stand-in whose second
# repetition writes other counts than its first; a run whose --keep copy fails
# is named as failed (exit 1, no traceback); a folder without the demo is a
# usage error (exit 2).
. "$top_srcdir/tests/lib.sh"
set -e
have_driver netcdf || skip "the netcdf driver is not built"
[ -z "$SANITIZER_FLAGS" ] || skip "an LD_PRELOAD library cannot come before the sanitizer runtime"
[ -n "$NCDUMP" ] || skip "ncdump is needed"
small="--im_world 36 --jm_world 19 --km_world 4"
standin() {   # standin DIR EXTRA: a pfio_MAPL_demo.x that runs pfio_io
  mkdir -p "$1"
  printf '#!/bin/sh\nexec "%s" %s --output_dir . --server_poll_us 0 %s "$@"\n' \
    "$top_builddir/src/pfio/pfio_io" "$small" "$2" >"$1/pfio_MAPL_demo.x"
  chmod +x "$1/pfio_MAPL_demo.x"
}
peer() { timeout 600 "$PYTHON" "$top_srcdir/scripts/peer-pfio" "$@" --repetitions 1 --dir "$TESTTMP" \
  --pfio-io-args "$small" --pfio-io "$top_builddir/src/pfio/pfio_io"; }

standin "$TESTTMP/same" "--time_values false"
rc=0
peer "$TESTTMP/same" --configs simple,vector,multigroup --check --json "$TESTTMP/same.json" >"$TESTTMP/same.txt" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$TESTTMP/same.txt"; fail "a stand-in writing the same files: --check exit $rc"; }
for c in simple vector multigroup; do
  [ "$(json_get "$TESTTMP/same.json" "d['configs']['$c']['verdict']")" = equal ] || { cat "$TESTTMP/same.txt"; fail "$c: not equal"; }
done
grep -q '^   writers: MAPL rank 3, pfio_io rank 3$' "$TESTTMP/same.txt" || fail "vector/multigroup: rank 3 should write"
grep -q '^   netcdf:  equal: rank 3 3 files, 45 requests' "$TESTTMP/same.txt" || fail "no netCDF request count"
grep -q '^| simple | equal | MAPL rank 0, pfio_io rank 0 |' "$TESTTMP/same.txt" || fail "no table row for simple"

standin "$TESTTMP/timed" ""
rc=0
peer "$TESTTMP/timed" --configs single --check >"$TESTTMP/timed.txt" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TESTTMP/timed.txt"; fail "a stand-in writing its time coordinate: --check exit $rc, expected 1"; }
grep -q 'DIFFERENT: netCDF requests: rank 2 Nsample_pfio_file_Day0001.nc4: MAPL 21 requests' "$TESTTMP/timed.txt" \
  || { cat "$TESTTMP/timed.txt"; fail "the 6 time requests a file were not reported"; }
grep -q '^| single | different |' "$TESTTMP/timed.txt" || fail "no 'different' row"

# a stand-in whose second run writes its time coordinate: the comparison reads
# the first repetition, the later ones must have written the same counts.
# Every rank of a run must take the same settings, so the stand-in tells the
# runs apart by their folder (peer-pfio runs repetition N in CONFIG-mapl-N).
mkdir -p "$TESTTMP/flip"
printf '#!/bin/sh\ncase "$(pwd)" in *-mapl-0) t=false;; *) t=true;; esac\nexec "%s" %s --output_dir . --server_poll_us 0 --time_values $t "$@"\n' \
  "$top_builddir/src/pfio/pfio_io" "$small" >"$TESTTMP/flip/pfio_MAPL_demo.x"
chmod +x "$TESTTMP/flip/pfio_MAPL_demo.x"
rc=0
timeout 600 "$PYTHON" "$top_srcdir/scripts/peer-pfio" "$TESTTMP/flip" --configs single --check --repetitions 2 \
  --dir "$TESTTMP" --pfio-io-args "$small" --pfio-io "$top_builddir/src/pfio/pfio_io" >"$TESTTMP/flip.txt" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TESTTMP/flip.txt"; fail "a stand-in whose runs differ: --check exit $rc, expected 1"; }
grep -q 'DIFFERENT: MAPL: repetition 2 wrote other file sizes or write counts than repetition 1' "$TESTTMP/flip.txt" \
  || { cat "$TESTTMP/flip.txt"; fail "the second repetition's other counts were not reported"; }

# a --keep folder the run's copy cannot go to (a file where its folder would
# be): that run fails, named with the reason, and no traceback
standin "$TESTTMP/keep" "--time_values false"
mkdir -p "$TESTTMP/kept"
: >"$TESTTMP/kept/single-mapl-0"
rc=0
peer "$TESTTMP/keep" --configs single --keep "$TESTTMP/kept" >"$TESTTMP/keep.txt" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TESTTMP/keep.txt"; fail "an unwritable --keep copy: exit $rc, expected 1"; }
grep -q "NOT COMPARED: mapl single: --keep $TESTTMP/kept: .*File exists" "$TESTTMP/keep.txt" \
  || { cat "$TESTTMP/keep.txt"; fail "the --keep failure was not named"; }
! grep -q Traceback "$TESTTMP/keep.txt" || { cat "$TESTTMP/keep.txt"; fail "a traceback for --keep"; }

rc=0
"$PYTHON" "$top_srcdir/scripts/peer-pfio" "$TESTTMP/nothing-here" >"$TESTTMP/none.txt" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q 'no pfio_MAPL_demo.x there' "$TESTTMP/none.txt" || { cat "$TESTTMP/none.txt"; fail "missing demo: exit $rc"; }
rc=0
"$PYTHON" "$top_srcdir/scripts/peer-pfio" "$TESTTMP/nothing-here" --configs simple,,vector >"$TESTTMP/empty.txt" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q "found an empty one in 'simple,,vector'" "$TESTTMP/empty.txt" \
  || { cat "$TESTTMP/empty.txt"; fail "--configs with an empty name: exit $rc"; }
pass
