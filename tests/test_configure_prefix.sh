#!/bin/sh
# configure with an explicit --with-X=PREFIX it cannot use stops and says what is
# wrong with that prefix: not there, a file, no include/HEADER, or no libLIB in lib, lib64
# or lib/<triplet>, for each of PnetCDF, netCDF-C, HDF5 and ADIOS2.  Before, a
# missing PnetCDF prefix let the system's library in silently and a missing HDF5
# prefix blamed a Debian package that was installed.  A usable prefix (the
# system's own, /usr, where it has the header) is taken, from lib/<triplet>.
# Runs the build's configure in a scratch copy of its few inputs; each refused
# run stops at the library's check, before writing anything.
. "$top_srcdir/tests/lib.sh"
set -e
cc=$(sed -n 's/^CC = //p' "$top_builddir/Makefile")
[ -n "$cc" ] || fail "no CC in the build's Makefile"
cd "$TESTTMP"
mkdir -p src/src/lib/engine src/src/lib/drivers empty hdr/include hdr/lib
cp "$top_srcdir/configure" src/ && cp -R "$top_srcdir/build-aux" src/ && : >src/src/lib/engine/engine.c
cp "$top_srcdir/src/lib/drivers/drivers.c" src/src/lib/drivers/
: >hdr/include/pnetcdf.h
n=0
# refused OPTIONS... -- MESSAGE: configure fails and its error line is MESSAGE
refused() {
  args="" msg=""
  while [ "$1" != -- ]; do args="$args $1"; shift; done
  shift
  msg=$*
  n=$((n + 1))
  set +e
  # shellcheck disable=SC2086
  env -u MPIEXEC ./src/configure -C CC="$cc" $args >"out$n.txt" 2>"err$n.txt"
  rc=$?
  set -e
  [ $rc -ne 0 ] || { tail -5 "out$n.txt"; fail "configure$args succeeded"; }
  grep -qF "configure: error: $msg" "err$n.txt" || { cat "err$n.txt"; fail "configure$args: the error is not '$msg'"; }
  [ ! -f config.status ] || fail "configure$args wrote config.status"
}
T=$TESTTMP
refused --with-pnetcdf="$T/nowhere" -- "--with-pnetcdf=$T/nowhere: no such folder. Give the prefix PnetCDF was installed to"
refused --with-pnetcdf="$T/hdr/include/pnetcdf.h" -- "--with-pnetcdf=$T/hdr/include/pnetcdf.h: a file, not a folder. Give the prefix PnetCDF was installed to"
refused --with-pnetcdf="$T/empty" -- "--with-pnetcdf=$T/empty: $T/empty/include/pnetcdf.h not found, so PnetCDF is not installed with this prefix"
refused --with-pnetcdf="$T/hdr" -- "--with-pnetcdf=$T/hdr: it has include/pnetcdf.h but no libpnetcdf (.so or .a) in lib, lib64 or lib/<triplet>"
refused --without-pnetcdf --with-netcdf="$T/nowhere" -- "--with-netcdf=$T/nowhere: no such folder. Give the prefix netCDF-C was installed to"
refused --without-pnetcdf --without-netcdf --with-hdf5="$T/nowhere" -- "--with-hdf5=$T/nowhere: no such folder. Give the prefix HDF5 was installed to"
! grep -q "install libhdf5" "err$n.txt" || fail "--with-hdf5=$T/nowhere still blames a package: $(cat "err$n.txt")"
refused --without-pnetcdf --without-netcdf --without-hdf5 --with-adios2="$T/nowhere" -- "--with-adios2=$T/nowhere: no such folder. Give the prefix ADIOS2 was installed to"
# the system's own prefix, where its library lives in lib/<triplet> (Debian), is taken
if [ -f /usr/include/pnetcdf.h ] && ls /usr/lib/*-*-*/libpnetcdf.so >/dev/null 2>&1; then
  refused --with-pnetcdf=/usr --without-netcdf --with-hdf5="$T/nowhere" -- "--with-hdf5=$T/nowhere: no such folder"
  grep -q "^checking for PnetCDF in /usr\.\.\. /usr/include, /usr/lib/.*-.*-.*$" "out$n.txt" \
    || { grep PnetCDF "out$n.txt"; fail "--with-pnetcdf=/usr: the library in lib/<triplet> not found"; }
  grep -q "^checking for a working PnetCDF\.\.\. yes$" "out$n.txt" || fail "--with-pnetcdf=/usr: not usable"
fi
pass
