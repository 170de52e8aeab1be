#!/bin/sh
# valgrind-clean single-rank runs of each kernel (gcrm_io, mom_io, mom_combine,
# pfio_io, decomp_io) through each real driver: no invalid read or write, no use of
# uninitialised memory and no definite or indirect leak in climio's code.
# Leaks held by the MPI (Open MPI or MPICH) and the I/O libraries are suppressed
# (tests/valgrind.supp).
# Skips where valgrind is not installed (./setup check installs it).
. "$top_srcdir/tests/lib.sh"
set -e
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed (Debian: apt-get install valgrind)"
[ -z "${SANITIZER_FLAGS:-}" ] || skip "a sanitizer build ($SANITIZER_FLAGS): valgrind cannot run it"

supp="--suppressions=$top_srcdir/tests/valgrind.supp"
# Open MPI ships its own suppressions; tests/valgrind.supp covers both MPIs' libraries
if [ "$CLIMIO_MPI" = openmpi ] && command -v ompi_info >/dev/null 2>&1; then
  ompi_supp="$(ompi_info --path pkgdatadir --parsable 2>/dev/null | sed -n 's/^path:pkgdatadir://p')/openmpi-valgrind.supp"
  [ -f "$ompi_supp" ] && supp="$supp --suppressions=$ompi_supp"
fi
# keep Open MPI's components loaded to the end, so their frames have names
OMPI_MCA_mca_base_component_disable_dlclose=1
export OMPI_MCA_mca_base_component_disable_dlclose

# vg NAME PROGRAM ARGS...: one rank under memcheck; vg_plain: a plain process
# (no mpiexec).  Any error fails the test and prints valgrind's report.
vgopts="-q --error-exitcode=97 --leak-check=full --show-leak-kinds=definite,indirect
        --errors-for-leak-kinds=definite,indirect --num-callers=30 $supp"
vg() { name=$1; shift; vg_exec run 1 valgrind $vgopts --log-file="$TESTTMP/$name.vg" "$@"; }
vg_plain() { name=$1; shift; vg_exec valgrind $vgopts --log-file="$TESTTMP/$name.vg" "$@"; }
vg_exec() {
  set +e
  "$@" >"$TESTTMP/$name.out" 2>&1
  rc=$?
  set -e
  # (valgrind's note that it ignores an shmget flag, SHM_HUGETLB under MPICH, is no error)
  if [ $rc -ne 0 ] || grep -qv "^==[0-9]*== WARNING: valgrind ignores shmget" "$TESTTMP/$name.vg"; then
    cat "$TESTTMP/$name.out" "$TESTTMP/$name.vg" >&2
    fail "$name: valgrind found errors (exit $rc)"
  fi
  echo "valgrind clean: $name"
}

gcrm="$top_builddir/src/gcrm/gcrm_io"
mom="$top_builddir/src/mom/mom_io"
comb="$top_builddir/src/combine/mom_combine"
pfio="$top_builddir/src/pfio/pfio_io"
tiny="$top_srcdir/inputs/mom.in.tiny"

# Two groups of runs at once, each run in order after what it reads: a program
# under valgrind runs on one core.  A group that fails has printed why.
(
# gcrm_io: the built-in level-3 input, written and verified
if have_driver pnetcdf; then
  vg gcrm-pnetcdf "$gcrm" --cdf_output_path "$TESTTMP/gcrm/" --verify true
  vg gcrm-read "$gcrm" --cdf_output_path "$TESTTMP/gcrm/" --read true --quiet true
fi
have_driver netcdf && vg gcrm-netcdf-nc4 "$gcrm" --cdf_output_path "$TESTTMP/gcrm4/" \
  --driver netcdf --format nc4 --iotype blocking_collective --verify true --quiet true
vg gcrm-mpiio-aggregated "$gcrm" --cdf_output_path "$TESTTMP/gcrmraw/" --driver mpiio --io_tasks 1 --rearranger subset --verify true --quiet true
vg gcrm-verify-only "$gcrm" --cdf_output_path "$TESTTMP/gcrmraw/" --driver mpiio --verify_only true --quiet true
# the dry-run planner is a plain process
vg_plain gcrm-dry-run "$gcrm" --dry-run --nprocs 40 --json "$TESTTMP/dry.json"

# pfio_io: the simple server on the one model rank, a small grid
vg pfio-single "$pfio" "$top_srcdir/inputs/pfio.in" --npes_model 1 --oserver_type single \
  --im_world 36 --jm_world 19 --km_world 4 --output_dir "$TESTTMP/pfio" --with_io_profiler --verify true
) &
first=$!
(
# mom_io: each pattern, then mom_combine on a two-member set
vg mom-serial "$mom" "$tiny" --pattern serial --out "$TESTTMP/mom-serial" --verify true --quiet true
# (one rank has one io domain, which FMS's parallel branch refuses: the hdf5 run writes the io-domain file)
have_driver hdf5 && vg mom-iodomain-hdf5 "$mom" "$tiny" --pattern iodomain --driver hdf5 --out "$TESTTMP/mom-h5" --verify true --quiet true
vg mom-perpe-mpiio "$mom" "$tiny" --pattern perpe --driver mpiio --out "$TESTTMP/mom-raw" --verify true --quiet true
run 2 "$mom" "$tiny" --pattern iodomain --layout 2,1 --io_layout 2,1 --out "$TESTTMP/set" --quiet true >/dev/null 2>&1 \
  || fail "mom_io could not write the set to combine"
[ -f "$TESTTMP/set/ocean.nc.0001" ] || fail "mom_io wrote no two-member set"
vg mom-combine "$comb" "$tiny" --out "$TESTTMP/set" --output "$TESTTMP/combined.nc" --verify true --quiet true
# its default form (FRE-NCtools' mppnccombine) on the same set, -m
have_driver netcdf && vg mom-combine-fre "$comb" -m "$TESTTMP/fre.nc" "$TESTTMP/set/ocean.nc.0000" "$TESTTMP/set/ocean.nc.0001"

# decomp_io: a PIO text map (read by rank 0, duplicate check), an E3SM-IO map in the
# blob layout (netCDF readers), E3SM-IO's F case in its blob layout, the generators
# and the planner
dec="$top_builddir/src/decomp/decomp_io"
vg decomp-text "$dec" --decomp "$top_srcdir/tests/decomp/data/example_f.dat" --out "$TESTTMP/dec" --verify true --quiet true
if have_driver pnetcdf; then
  vg decomp-e3sm-blob "$dec" --decomp "$top_srcdir/inputs/map_cs_case_4p.nc" --layout blob --out "$TESTTMP/decb" \
    --verify true --quiet true
  vg decomp-e3sm-case "$dec" --decomp "$top_srcdir/inputs/map_cs_case_4p.nc" --e3sm_case F --layout blob \
    --records 2 --out "$TESTTMP/decf" --verify true --quiet true
  vg_plain decomp-make "$dec" --make_decomp cubed_sphere --gen_format e3sm --gen_out "$TESTTMP/cs.nc"
fi
vg_plain decomp-dry-run "$dec" --decomp "$top_srcdir/inputs/decomp.random.4p.dat" --dry_run --nprocs 3
) || { wait $first; fail "valgrind found errors (above)"; }
wait $first || fail "valgrind found errors (above)"
pass
