#!/bin/sh
# The kernels through the adios2 driver: gcrm_io (history files reopened for
# every record, a grid file) and mom_io (every output pattern) with --verify at
# 1, 2 and 4 ranks; their BP outputs converted by climio_bp2nc are PnetCDF's
# files, byte for byte, with the same JSON checksums.
. "$top_srcdir/tests/adios2/common.sh"
gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
[ -x "$gcrm" ] || [ -x "$mom" ] || skip "neither gcrm_io nor mom_io is built"
in="$top_srcdir/inputs"

# every file of folder A is in folder B with the same bytes
same_tree() {
  k=0
  for f in "$1"/*; do
    same_nc "$f" "$2/$(basename "$f")" "$3"
    k=$((k + 1))
  done
  [ $k -gt 0 ] || fail "$3: no files in $1"
  [ "$(ls "$2" | wc -l)" = $k ] || fail "$3: $2 holds other files than $1"
}

if [ -x "$gcrm" ]; then
  # level 3, no physics, two dumps, no restart files: about 18 MB, 12 files reopened to append
  g="$in/zgrd.in --io_desc_file $in/ZGrd.desc --io_config_file $in/ZGrd.LZ.fcfg.nophys --end_minutes 15 --restart_interval 0"
  run 2 "$gcrm" $g --driver pnetcdf --cdf_output_path gp --json gp.json >log.txt 2>&1 || { cat log.txt; fail "gcrm_io pnetcdf"; }
  for np in 1 2 4; do
    run $np "$gcrm" $g --driver adios2 --cdf_output_path "ga$np" --verify --json "ga$np.json" >log.txt 2>&1 \
      || { cat log.txt; fail "gcrm_io adios2 at $np ranks"; }
    json_is "ga$np.json" 'd["verify"]["verdict"]' pass "gcrm_io adios2 at $np ranks"
    json_is "ga$np.json" 'd["write"]["files"]["opened"] > 0' True "gcrm_io reopens its history files"
    same_sums gp.json "ga$np.json" "gcrm_io adios2 at $np ranks"
  done
  "$BPLS" -l ga2/mass_19010101_000000.nc.bp >ls.txt
  grep -Eq '^ *float +mass +2\*\{642, 256\}' ls.txt || { cat ls.txt; fail "gcrm mass: not 2 steps of {642, 256}"; }
  run 3 "$bp2nc" --input ga4 --output gc --json gc.json >log.txt 2>&1 || { cat log.txt; fail "converting gcrm_io"; }
  same_tree gp gc "gcrm_io"
  same_sums gp.json gc.json "gcrm_io converted"
fi

if [ -x "$mom" ]; then
  tiny="$in/mom.in.tiny"
  for pat in serial parallel iodomain perpe; do
    # io_layout 2,2 where the run has 4 ranks (FMS refuses the parallel pattern with one io domain); the
    # PnetCDF reference through the chosen driver, not FMS's serial netCDF-C path (--single_writer mpiio)
    lay="--layout 2,2 --io_layout 2,2"
    run 4 "$mom" "$tiny" --driver pnetcdf --single_writer mpiio $lay --pattern $pat --out "mp-$pat" --json "mp-$pat.json" \
      >log.txt 2>&1 || { cat log.txt; fail "mom_io pnetcdf $pat"; }
    for np in 1 2 4; do
      [ $np = 4 ] && l="$lay" || l="--layout 1,1 --io_layout 1,1"
      [ $pat = parallel ] && [ $np = 1 ] && continue
      [ $pat = parallel ] && [ $np = 2 ] && l="--layout 2,1 --io_layout 2,1"
      run $np "$mom" "$tiny" --driver adios2 $l --pattern $pat --out "ma-$pat-$np" --verify --json "ma-$pat-$np.json" \
        >log.txt 2>&1 || { cat log.txt; fail "mom_io adios2 $pat at $np ranks"; }
      json_is "ma-$pat-$np.json" 'd["verify"]["verdict"]' pass "mom_io adios2 $pat at $np ranks"
    done
    run 2 "$bp2nc" --input "ma-$pat-4" --output "mc-$pat" --json "mc-$pat.json" >log.txt 2>&1 \
      || { cat log.txt; fail "converting mom_io $pat"; }
    same_tree "mp-$pat" "mc-$pat" "mom_io $pat"
    same_sums "mp-$pat.json" "mc-$pat.json" "mom_io $pat converted"
  done
fi
pass
