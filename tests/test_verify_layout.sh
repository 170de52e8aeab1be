#!/bin/sh
# Verification checks each file's shape against the plan before its values (issue
# 15, items 6 and 16): data appended after the end of a file fails --verify_only
# (as it fails ncvalidator), and so does a file holding more or fewer records than
# the plan writes; intact files still pass, at another process count too.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver"
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
inputs="$top_srcdir/inputs"
d="$TESTTMP/in"
mkdir -p "$d"
cp "$inputs/ZGrd.desc" "$inputs/ZGrd.LZ.fcfg.nophys" "$d/"
cat >"$d/zgrd.in" <<EOT
level_max 3
end_days 0
end_minutes 30
physics_mode disabled
io_desc_file $d/ZGrd.desc
io_config_file $d/ZGrd.LZ.fcfg.nophys
cdf_output_frequency 900
cdf_grid_option sep_grid
EOT
for drv in pnetcdf mpiio; do
  o="$TESTTMP/$drv"
  g="$d/zgrd.in --driver $drv --cdf_output_path $o --quiet"
  run 2 "$gcrm" $g --verify >"$TESTTMP/w.out" 2>&1 || { cat "$TESTTMP/w.out"; fail "$drv: the write run failed"; }
  run 1 "$gcrm" $g --verify_only >"$TESTTMP/v.out" 2>&1 || { cat "$TESTTMP/v.out"; fail "$drv: intact files fail --verify_only"; }
  f=$(ls "$o"/mass_19010101_000000.*)
  size=$(wc -c <"$f")
  head -c 3000 /dev/zero | tr '\0' 'x' >>"$f"
  set +e
  run 2 "$gcrm" $g --verify_only >"$TESTTMP/v.out" 2>"$TESTTMP/v.err"
  rc=$?
  set -e
  [ $rc -eq 3 ] || { cat "$TESTTMP/v.err"; fail "$drv: appended data: --verify_only exit $rc, expected 3"; }
  case $drv in
    pnetcdf)
      grep -qF "verification FAILED: 1 mismatched elements; first: $f: $((size + 3000)) bytes, 3000 more than its header and records account for ($size): data after the end of the file" "$TESTTMP/v.err" \
        || { cat "$TESTTMP/v.err"; fail "$drv: appended data not named"; }
      if [ -n "$NCVALIDATOR" ]; then
        "$NCVALIDATOR" "$f" >/dev/null 2>&1 && fail "ncvalidator accepts the file verify now refuses (test premise)"
      fi ;;
    mpiio)
      # the raw reader counts the partial record past the end as one more record
      grep -qF "first: $f: holds 4 records, the plan writes 3" "$TESTTMP/v.err" \
        || { cat "$TESTTMP/v.err"; fail "$drv: appended data not named"; }
      ;;
  esac
done

# --verify_only checks the number of records: more, or fewer, than the plan writes
m="--driver pnetcdf --pattern serial --ni 8 --nj 6 --nk 2 --out $TESTTMP/m"
run 2 "$mom" $m --records 3 --quiet >/dev/null 2>&1 || fail "mom write"
run 2 "$mom" $m --records 3 --verify_only --quiet >/dev/null 2>&1 || fail "mom: intact file fails --verify_only"
expect_fail 2 "first: $TESTTMP/m/ocean.nc: holds 3 records, the plan writes 2" "$mom" $m --records 2 --verify_only
[ $rc -eq 3 ] || fail "records: exit $rc, expected 3"
expect_fail 2 "first: $TESTTMP/m/ocean.nc: holds 3 records, the plan writes 4" "$mom" $m --records 4 --verify_only
if have_driver netcdf; then
  n="--driver netcdf --format nc4 --iotype blocking_collective --pattern serial --ni 8 --nj 6 --nk 2 --out $TESTTMP/n"
  run 2 "$mom" $n --records 3 --quiet >/dev/null 2>&1 || fail "mom nc4 write"
  expect_fail 2 "first: $TESTTMP/n/ocean.nc: holds 3 records, the plan writes 2" "$mom" $n --records 2 --verify_only
fi
pass
