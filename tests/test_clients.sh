#!/bin/sh
# Files every usual client opens: each kernel, run from climio's shipped inputs
# (gcrm_io's built-in input, inputs/mom.in.tiny, inputs/pfio.in at a small grid)
# through every driver and format that writes netCDF or HDF5, and every file it
# wrote opened with netCDF4-python and xarray (Debian's python3-netcdf4 and
# python3-xarray), one variable read in full (tests/clients_open.py).  The raw
# MPI-IO driver's files are not netCDF and are left out.
. "$top_srcdir/tests/lib.sh"
set -e
"$PYTHON" -c 'import netCDF4, xarray' 2>/dev/null || skip "python3-netcdf4 and python3-xarray are needed ($PYTHON)"
bin="$top_builddir/src"
cd "$TESTTMP"
dirs=""
# one ITEM: "NAME NP PROGRAM ARGS..." run in its own folder, output in NAME/out
one() {
  name=$1 np=$2 prog=$3
  shift 3
  mkdir -p "$name"
  (cd "$name" && run "$np" "$prog" "$@" --quiet true >log.txt 2>&1) || { tail -20 "$name/log.txt"; fail "$name: run failed"; }
  dirs="$dirs $name/out"
}
combos=""
have_driver pnetcdf && combos="$combos pnetcdf:cdf1 pnetcdf:cdf2 pnetcdf:cdf5"
have_driver netcdf && combos="$combos netcdf:nc4 netcdf:nc4c netcdf:cdf2"
have_driver hdf5 && combos="$combos hdf5:hdf5"
[ -n "$combos" ] || skip "no netCDF or HDF5 driver built"
for c in $combos; do
  d=${c%%:*} f=${c#*:}
  io="--driver $d --format $f --iotype blocking_collective"
  # gcrm_io's built-in input (no zgrd.in here); the restart files once, with PnetCDF's default format
  extra="--restart_interval 0"
  [ "$c" = pnetcdf:cdf2 ] && extra=""
  one "gcrm-$d-$f" 2 "$bin/gcrm/gcrm_io" $io $extra
  one "mom-$d-$f" 2 "$bin/mom/mom_io" "$top_srcdir/inputs/mom.in.tiny" $io --out out
  one "pfio-$d-$f" 2 "$bin/pfio/pfio_io" "$top_srcdir/inputs/pfio.in" $io --output_dir out \
    --im_world 36 --jm_world 19 --km_world 4
done
"$PYTHON" "$top_srcdir/tests/clients_open.py" $dirs >clients.txt 2>&1 || { cat clients.txt; fail "files a client cannot open (above)"; }
cat clients.txt
pass
