#!/bin/sh
# The hdf5 driver's files read as netCDF-4 (issue 17 item 10): dimensions are HDF5
# dimension scales, so ncdump sees named dimensions (no phony_dim_N), the record
# dimension as UNLIMITED and coordinate variables; h5dump shows the scales
# (CLASS DIMENSION_SCALE, NAME, DIMENSION_LIST); and ncdump reads the same data as
# from the netcdf driver's netCDF-4 file.  For mom_io, gcrm_io and pfio_io.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver hdf5 || skip "no hdf5 driver"
[ -n "$NCDUMP" ] && [ -n "$H5DUMP" ] || skip "ncdump or h5dump not found"
inputs="$top_srcdir/inputs"
cd "$TESTTMP"

run 2 "$top_builddir/src/mom/mom_io" "$inputs/mom.in.tiny" --driver hdf5 --data model --verify --quiet --out h5 \
  >mom.log 2>&1 || { cat mom.log; fail "mom_io hdf5"; }
"$NCDUMP" -h h5/ocean.h5 >mom.cdl || fail "ncdump cannot read the hdf5 driver's mom file"
! grep -q phony_dim mom.cdl || fail "mom: phony dimensions"
for want in "time = UNLIMITED ; // (3 currently)" "xt_ocean = 40 ;" "yu_ocean = 30 ;" "st_ocean = 5 ;" "nv = 2 ;" \
            "float temp(time, st_ocean, yt_ocean, xt_ocean) ;" "float u(time, st_ocean, yu_ocean, xu_ocean) ;" \
            "double xt_ocean(xt_ocean) ;" "double time_bnds(time, nv) ;" "float geolon_t(yt_ocean, xt_ocean) ;"; do
  grep -qF "$want" mom.cdl || { cat mom.cdl; fail "mom: ncdump -h lacks '$want'"; }
done
# h5dump: the coordinate variable is a scale named after its dimension, temp lists its scales
"$H5DUMP" -A -d /xt_ocean h5/ocean.h5 >xt.txt
grep -q 'ATTRIBUTE "CLASS"' xt.txt && grep -q '"DIMENSION_SCALE"' xt.txt || fail "xt_ocean is not a dimension scale"
grep -q 'ATTRIBUTE "REFERENCE_LIST"' xt.txt || fail "xt_ocean: no variable attached"
"$H5DUMP" -A -d /temp h5/ocean.h5 | grep -q 'ATTRIBUTE "DIMENSION_LIST"' || fail "temp has no DIMENSION_LIST"
# the same data as the netcdf driver's netCDF-4 file
if have_driver netcdf; then
  run 2 "$top_builddir/src/mom/mom_io" "$inputs/mom.in.tiny" --driver netcdf --format nc4 --data model --quiet --out nc4 \
    >nc4.log 2>&1 || { cat nc4.log; fail "mom_io netcdf nc4"; }
  for v in temp u xt_ocean time_bnds; do
    "$NCDUMP" -v $v h5/ocean.h5 | sed -n '/^data:/,$p' >a.txt
    "$NCDUMP" -v $v nc4/ocean.nc | sed -n '/^data:/,$p' >b.txt
    [ -s a.txt ] && cmp -s a.txt b.txt || fail "mom: $v reads differently from the hdf5 and netcdf drivers' files"
  done
fi

run 2 "$top_builddir/src/gcrm/gcrm_io" "$inputs/zgrd.in.r3" --io_desc_file "$inputs/ZGrd.desc" \
  --io_config_file "$inputs/ZGrd.LZ.fcfg.nophys" --physics_mode disabled --end_minutes 15 --end_seconds 0 \
  --restart_interval 0 --driver hdf5 --iotype blocking_collective --quiet --cdf_output_path g >gcrm.log 2>&1 \
  || { cat gcrm.log; fail "gcrm_io hdf5"; }
n=0
for f in g/*; do
  "$NCDUMP" -h "$f" >g.cdl || fail "ncdump cannot read $f"
  ! grep -q phony_dim g.cdl || fail "$f: phony dimensions"
  # a dimension without a coordinate variable stays a dimension (netCDF-4's empty scale)
  ! grep -qE "^\s(float|double|int) (cells|corners|edges)\((cells|corners|edges)\)" g.cdl || fail "$f: a bare dimension shows as a variable"
  n=$((n + 1))
done
[ $n -gt 0 ] || fail "gcrm wrote no files"
"$NCDUMP" -h g/temperature_19010101_000000.h5 >t.cdl
grep -q "cells = 642 ;" t.cdl || { cat t.cdl; fail "gcrm: no cells dimension"; }
"$H5DUMP" -A -d /cells g/temperature_19010101_000000.h5 | grep -q "This is a netCDF dimension but not a netCDF variable." \
  || fail "cells: not a bare scale"

run 2 "$top_builddir/src/pfio/pfio_io" "$inputs/pfio.in" --num_steps 6 --im_world 48 --jm_world 25 --km_world 6 \
  --driver hdf5 --iotype blocking_collective --quiet --output_dir p >pfio.log 2>&1 || { cat pfio.log; fail "pfio_io hdf5"; }
f=$(ls p/* | head -1)
"$NCDUMP" -h "$f" >p.cdl || fail "ncdump cannot read $f"
for want in "lon = 48 ;" "time = UNLIMITED ; // (6 currently)" "float lon(lon) ;" "float temperature(time, lev, lat, lon) ;"; do
  grep -qF "$want" p.cdl || { cat p.cdl; fail "pfio: ncdump -h lacks '$want'"; }
done
pass
