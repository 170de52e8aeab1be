#!/bin/sh
# configure on a machine with two MPIs (Open MPI and MPICH): it picks the launcher
# of CC's MPI, skipping one of the other family (fake launchers first on PATH), and
# refuses an HDF5 built with the other MPI, naming both: such a program holds two
# MPIs and crashes at its first MPI call.  Runs the build's configure in a scratch
# copy of its few inputs; stops at the HDF5 check, before writing anything.
. "$top_srcdir/tests/lib.sh"
set -e
case $CLIMIO_MPI in
  openmpi) cc=mpicc.openmpi sfx=openmpi other=hdf5-mpich ours="Open MPI" theirs="an MPICH-family MPI" good="OpenRTE" bad="HYDRA" ;;
  mpich) cc=mpicc.mpich sfx=mpich other=hdf5-openmpi ours="MPICH" theirs="Open MPI" good="HYDRA" bad="OpenRTE" ;;
  *) skip "this build's MPI ($CLIMIO_MPI) is neither Open MPI nor MPICH" ;;
esac
command -v $cc >/dev/null 2>&1 || skip "no $cc"
pkg-config --exists $other 2>/dev/null || skip "no HDF5 of the other MPI ($other: Debian's libhdf5-mpich-dev or libhdf5-openmpi-dev)"
cd "$TESTTMP"
mkdir -p src/src/lib/engine bin
cp "$top_srcdir/configure" src/ && cp -R "$top_srcdir/build-aux" src/ && : >src/src/lib/engine/engine.c
# the launcher named after the compiler answers as the other family; mpirun.SUFFIX as ours
for l in "mpiexec.$sfx:$bad" "mpirun.$sfx:$good"; do
  printf '#!/bin/sh\necho "$0 $*" >>%s/asked.log\necho "%s build details"\n' "$TESTTMP" "${l#*:}" >"bin/${l%%:*}"
  chmod +x "bin/${l%%:*}"
done
set +e
env -u MPIEXEC PATH="$TESTTMP/bin:$PATH" ./src/configure CC=$cc --without-pnetcdf --without-netcdf \
  HDF5_CFLAGS="$(pkg-config --cflags $other)" HDF5_LIBS="$(pkg-config --libs $other)" >out.txt 2>err.txt
rc=$?
set -e
[ $rc -ne 0 ] || { cat out.txt; fail "configure accepted an HDF5 of the other MPI ($other with $cc)"; }
grep -q "^checking for the MPI launcher of $ours.*\.\.\. mpirun.$sfx$" out.txt ||
  { grep launcher out.txt; fail "configure did not pick mpirun.$sfx, the launcher of $ours"; }
grep -q "mpiexec.$sfx --version" asked.log || fail "configure did not ask mpiexec.$sfx which MPI it is"
grep -q "error: HDF5 (built with $theirs: .*) brings $theirs (.*), from .*, into programs of $cc, which uses $ours" err.txt ||
  { cat err.txt; fail "the refusal does not name both MPIs"; }
grep -q -- "--with-hdf5=PREFIX .* or --without-hdf5" err.txt || { cat err.txt; fail "the refusal gives no fix"; }
pass
