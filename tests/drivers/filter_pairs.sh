# Sourced by tests/drivers/test_filter_pairs_<kernel>.sh after setting $kernel: every
# pair of filter settings (--deflate, --shuffle, --szip, --quantize) and data kinds
# (--data pattern, model) through the kernel, one process per driver that filters
# (tests/drivers/filter_matrix.py --mode pairs); each run writes files that read back
# (--verify, h5dump decoding every dataset, ncdump -hs, the filters on the variables) or is
# refused as expected.
# `make check-matrix` runs the whole product.  The one-rank runs start as MPI
# singletons (no launcher: a refused run then ends in 0.5 s instead of 2.5).
. "$top_srcdir/tests/lib.sh"
set -e
[ -n "$NCDUMP" ] && [ -n "$H5DUMP" ] || skip "ncdump and h5dump needed"
ran=0
for d in netcdf hdf5; do
  have_driver $d || continue
  ran=1
  NCDUMP="$NCDUMP" H5DUMP="$H5DUMP" "$PYTHON" "$top_srcdir/tests/drivers/filter_matrix.py" --kernel "$kernel" \
    --driver $d --mode pairs --bin "$top_builddir/src" --src "$top_srcdir" --work "$TESTTMP/$d" \
    --mpiexec "" >"$TESTTMP/$d.txt" 2>&1 || { cat "$TESTTMP/$d.txt"; fail "$kernel through $d"; }
  cat "$TESTTMP/$d.txt"
  grep -q "^summary $kernel $d pairs: [0-9]* combinations, [1-9][0-9]* ok, [1-9][0-9]* refused, 0 FAIL" "$TESTTMP/$d.txt" \
    || fail "$kernel through $d: no summary, or nothing ran or nothing was refused"
done
[ $ran = 1 ] || skip "no driver that filters (netcdf, hdf5)"
pass
