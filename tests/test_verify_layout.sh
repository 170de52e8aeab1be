#!/bin/sh
# Verification checks each file's shape against the plan before its values (issue
# 15, items 6 and 16): data appended after the end of a file fails --verify_only
# (as it fails ncvalidator), and so does a file holding more or fewer records than
# the plan writes, or a variable of another type or shape in any format; intact
# files still pass, at another process count too.
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
# Each variable's type and dimensions against the plan, in every format (item 6):
# one variable rewritten with another type, another dimension or a shorter extent
# (by the libraries themselves: tests/alter_var.c; the raw header by its text)
# fails --verify_only with exit 3, naming the file, the variable, what differs,
# and the declarations found and planned; its values are not read.
alter="$top_builddir/tests/alter_var"
small="--pattern parallel --layout 2,1 --io_layout 2,1 --ni 8 --nj 6 --nk 2 --records 2 --quiet"
written() {   # DRIVER ARGS...: a verified mom_io run; $lf its file, a copy kept in $TESTTMP/good
  lo="$TESTTMP/l-$1"
  la="--driver $* $small --out $lo"
  run 2 "$mom" $la --verify >"$TESTTMP/w.out" 2>&1 || { cat "$TESTTMP/w.out"; fail "$1: the write run failed"; }
  lf=$(ls "$lo"/ocean.*)
  cp "$lf" "$TESTTMP/good"
}
fails_with() {   # MESSAGE: --verify_only of the altered file fails (exit 3) with it; then the file is restored
  expect_fail 2 "first: $lf: $1" "$mom" $la --verify_only
  [ $rc -eq 3 ] || fail "$1: exit $rc, expected 3"
  cp "$TESTTMP/good" "$lf"
}
decl="(time = UNLIMITED, st_ocean = 2, yt_ocean = 6, xt_ocean = 8)"
planned="the plan writes float temp$decl)"
if have_driver pnetcdf && have_driver netcdf; then    # netCDF-C rewrites the classic header too
  written pnetcdf --format cdf5
  "$alter" netcdf "$lf" temp type=double || fail "alter_var on a CDF-5 file"
  fails_with "variable temp: type double, expected float (the file has double temp$decl; $planned"
fi
if have_driver mpiio; then
  written mpiio
  "$PYTHON" - "$lf" <<'EOT'
import sys
with open(sys.argv[1], "r+b") as f:
    head = f.read(4096)
    at = head.index(b"\nvar temp float ")
    f.seek(at + len(b"\nvar temp "))
    f.write(b"int64")       # the same length: the header keeps its size
EOT
  fails_with "variable temp: type int64, expected float (the file has int64 temp$decl; $planned"
fi
if have_driver netcdf; then
  written netcdf --format nc4 --iotype blocking_collective
  "$alter" netcdf "$lf" temp type=double || fail "alter_var nc4 type"
  fails_with "variable temp: type double, expected float (the file has double temp$decl; $planned"
  "$alter" netcdf "$lf" temp dim=xu_ocean || fail "alter_var nc4 dim"
  fails_with "variable temp: dimension 4 is xu_ocean, expected xt_ocean (the file has float temp(time = UNLIMITED, st_ocean = 2, yt_ocean = 6, xu_ocean = 8); $planned"
fi
if have_driver hdf5; then
  written hdf5 --iotype blocking_collective
  "$alter" hdf5 "$lf" temp type=double || fail "alter_var hdf5 type"
  # the new dataset has no dimension scales: its dimensions are compared by length
  fails_with "variable temp: type double, expected float (the file has double temp((unnamed) = UNLIMITED, (unnamed) = 2, (unnamed) = 6, (unnamed) = 8); $planned"
  "$alter" hdf5 "$lf" temp shrink || fail "alter_var hdf5 shrink"
  fails_with "variable temp: dimension xt_ocean has length 7, expected 8 (the file has float temp((unnamed) = UNLIMITED, (unnamed) = 2, (unnamed) = 6, (unnamed) = 7); $planned"
fi
pass
