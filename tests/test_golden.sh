#!/bin/sh
# Golden outputs: small runs of every kernel through every driver and format
# built, each output file's SHA-256 compared with tests/golden/outputs.sha256.
# The files are a pure function of the parameters (doc/internals.md), so any
# change of bytes is either a bug or a deliberate format change; a deliberate one
# updates the golden list in the same commit, with the reason:
#   CLIMIO_GOLDEN_UPDATE=1 make check TESTS=tests/test_golden.sh
# Files whose bytes are not reproducible by design are compared through a dump:
# plain HDF5 files (the hdf5 driver keeps HDF5's object times) through h5dump's
# text, without the never-written values of dimension scales that differ between
# MPI-IO libraries (tests/golden/h5dump_dims.awk), ADIOS2's BP folders (their
# metadata holds times) through climio_bp2nc's
# netCDF.
. "$top_srcdir/tests/lib.sh"
set -e
golden="$top_srcdir/tests/golden/outputs.sha256"
bin="$top_builddir/src"
# pioperf's rundate and every other date climio writes come from here
SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
cd "$TESTTMP"
# the inputs by relative path: decomp_io records its map's path in the file
cp "$top_srcdir/inputs/mom.in.tiny" "$top_srcdir/inputs/pfio.in" "$top_srcdir/inputs/decomp.holes.4p.dat" .

# case NAME NP PROGRAM ARGS...: run in NAME/, outputs in NAME/out
case_run() {
  name=$1 np=$2 prog=$3
  shift 3
  mkdir -p "$name"
  (cd "$name" && run "$np" "$prog" "$@" --quiet true >log.txt 2>&1) || { tail -20 "$name/log.txt"; fail "$name: run failed"; }
}

combos="mpiio:raw"
have_driver pnetcdf && combos="$combos pnetcdf:cdf1 pnetcdf:cdf2 pnetcdf:cdf5"
have_driver netcdf && combos="$combos netcdf:nc4 netcdf:nc4c netcdf:cdf1 netcdf:cdf2 netcdf:cdf5"
have_driver hdf5 && combos="$combos hdf5:hdf5"
for c in $combos; do
  d=${c%%:*} f=${c#*:}
  io="--driver $d --iotype blocking_collective"
  [ "$f" = raw ] || io="$io --format $f"
  case_run "gcrm-$d-$f" 2 "$bin/gcrm/gcrm_io" $io --restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0
  # mom_io's one-writer files go through the serial netCDF-C API for netCDF drivers
  # (single_writer serial, the default), through the driver itself with mpiio
  if [ $d != pnetcdf ] || have_driver netcdf; then
    case_run "mom-$d-$f" 2 "$bin/mom/mom_io" ../mom.in.tiny $io --out out
  fi
  if [ $d = pnetcdf ]; then
    case_run "momself-$d-$f" 2 "$bin/mom/mom_io" ../mom.in.tiny $io --single_writer mpiio --out out
  fi
  case_run "pfio-$d-$f" 2 "$bin/pfio/pfio_io" ../pfio.in $io --output_dir out \
    --im_world 36 --jm_world 19 --km_world 4
  case_run "decomp-$d-$f" 2 "$bin/decomp/decomp_io" --decomp ../decomp.holes.4p.dat \
    --nvars 2 --records 2 $io $([ $d = hdf5 ] && echo --nofill false) --out out
  case_run "exercise-$d-$f" 2 "$bin/exercise/engine_exercise" $io --out out
done
# adios2 (when built): each BP folder converted back to netCDF by climio_bp2nc
if have_driver adios2; then
  io="--driver adios2"
  case_run gcrm-adios2-bp 2 "$bin/gcrm/gcrm_io" $io --restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0
  case_run mom-adios2-bp 2 "$bin/mom/mom_io" ../mom.in.tiny $io --out out
  case_run decomp-adios2-bp 2 "$bin/decomp/decomp_io" --decomp ../decomp.holes.4p.dat \
    --nvars 2 --records 2 $io --out out
  case_run exercise-adios2-bp 2 "$bin/exercise/engine_exercise" $io --out out
  for bp in *-adios2-bp/out/*.bp; do
    run 1 "$bin/bp2nc/climio_bp2nc" --input "$bp" --output "$bp.nc" --quiet >bp2nc.log 2>&1 ||
      { cat bp2nc.log; fail "climio_bp2nc $bp"; }
  done
fi
# the model-like data and the io-domain pattern, whose members mom_combine joins
# (--mom5: MOM5's mppnccombine 2.2.5, ocean.nc; by default FRE-NCtools', fre-ocean.nc)
if have_driver netcdf; then
  for f in cdf2 nc4; do
    case_run "model-mom-$f" 2 "$bin/mom/mom_io" ../mom.in.tiny --driver netcdf --format $f \
      --data model --out out
    case_run "iodomain-$f" 4 "$bin/mom/mom_io" ../mom.in.tiny --driver netcdf --format $f \
      --layout 2,2 --io_layout 2,1 --pattern iodomain --out out
    for m in "iodomain-$f"/out/*.nc.0000; do
      b=$(basename "${m%.0000}")
      (cd "iodomain-$f/out" && run 1 "$bin/combine/mom_combine" --mom5 "$b" >>../combine.txt 2>&1 &&
        run 1 "$bin/combine/mom_combine" "fre-$b" "$b".0* >>../combine.txt 2>&1) ||
        { cat "iodomain-$f/combine.txt"; fail "mom_combine on $m"; }
    done
  done
fi

# the list: "SHA256  CASE/FILE", sorted
: >now.sha256
for dir in */out; do
  find "$dir" -type f ! -path '*.bp/*' ! -name '*.json' ! -name '.climio.lock' | LC_ALL=C sort | while read -r f; do
    case $dir in
    *-hdf5-hdf5/out) [ -n "$H5DUMP" ] || fail "h5dump is needed"
      sum=$("$H5DUMP" "$f" | sed 1d | awk -f "$top_srcdir/tests/golden/h5dump_dims.awk" | sha256sum) ;;
    *) sum=$(sha256sum <"$f") ;;
    esac
    echo "$(echo "$sum" | cut -c1-64)  $f"
  done >>now.sha256
done
LC_ALL=C sort -k2 now.sha256 >now.sorted
if [ "${CLIMIO_GOLDEN_UPDATE:-0}" = 1 ]; then
  cp now.sorted "$golden"
  echo "test_golden: wrote $(wc -l <now.sorted) checksums to $golden"
  pass
fi
[ -s now.sorted ] || fail "no output files"
# only the cases this build can run are compared (a build without a driver skips its lines)
cut -c67- now.sorted | sed 's|/.*||' | sort -u >cases.txt
awk 'NR==FNR { want[$1]=1; next } { split($2, p, "/"); if (p[1] in want) print }' cases.txt "$golden" >expected.sorted
if ! diff expected.sorted now.sorted >golden.diff; then
  cat golden.diff
  fail "$(grep -c '^>' golden.diff) output files differ from tests/golden/outputs.sha256 (above: < expected, > now)"
fi
echo "test_golden: $(wc -l <now.sorted) files in $(wc -l <cases.txt) cases match"
pass
