# climio_mpi.m4: which MPI the compiler, each library and the launcher belong to.
#
# A library built with another MPI than CC's links (both MPIs end up in the
# program) and crashes at the first MPI call, so every library is link-tested
# with CC and its program's MPI libraries compared with those of a plain MPI
# program.  Shared libraries only: a static library's MPI cannot be told apart.

# CLIMIO_MPI_FAMILY: climio_mpi_family (openmpi, mpich or unknown) and
# climio_mpi_name (e.g. "MPICH 4.0.2", "Open MPI 4.1.4") of CC's mpi.h; the MPI
# libraries a plain MPI program of CC loads (climio_mpi_own_libs).
AC_DEFUN([CLIMIO_MPI_FAMILY], [
AC_MSG_CHECKING([which MPI $CC builds with])
climio_mpi_family=unknown; climio_mpi_name="an unknown MPI"
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef OMPI_MAJOR_VERSION
#error not Open MPI
#endif
]])], [climio_mpi_family=openmpi; climio_mpi_name="Open MPI"])
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef MPICH_VERSION
#error not MPICH
#endif
]])], [climio_mpi_family=mpich; climio_mpi_name="MPICH"
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef I_MPI_VERSION
#error
#endif
]])], [climio_mpi_name="Intel MPI (MPICH family)"])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#if !defined(MVAPICH2_VERSION) && !defined(MVAPICH_VERSION)
#error
#endif
]])], [climio_mpi_name="MVAPICH (MPICH family)"])])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[MPI_Init(0, 0); MPI_Finalize();]])],
  [climio_mpi_own_libs=`climio_mpi_libs_of conftest$ac_exeext`])
AS_IF([test -n "$climio_mpi_own_libs"], [climio_mpi_name="$climio_mpi_name ($climio_mpi_own_libs)"])
AC_MSG_RESULT([$climio_mpi_name])
])

# Shell helpers, defined once near the top of configure.
AC_DEFUN([CLIMIO_MPI_HELPERS], [
# the MPI libraries (sonames) FILE loads, space-separated
climio_mpi_libs_of() {
  ldd "$[]1" 2>/dev/null |
    sed -n 's/^[[ 	]]*\(lib\(mpi\|mpich\|pmpi\|open-pal\|open-rte\)[[A-Za-z0-9_]]*\.so[[.0-9]]*\) .*/\1/p' |
    sort -u | tr '\n' ' ' | sed 's/ $//'
}
# the path ldd resolves for the first soname matching a pattern in FILE
climio_ldd_path() {
  ldd "$[]1" 2>/dev/null | sed -n "s/^[[ 	]]*$[]2[[^ ]]* => \([[^ ]]*\) .*/\1/p" | sed 1q
}
# openmpi, hydra, slurm or unknown: the family of a launcher, from its --version
climio_launcher_family() {
  case "$[]1" in *srun) echo slurm; return ;; esac
  climio_v=`"$[]1" --version </dev/null 2>&1 | sed 20q`
  case "$climio_v" in
    *OpenRTE*|*"Open MPI"*|*open-mpi.org*) echo openmpi ;;
    *HYDRA*|*Hydra*|*"Intel(R) MPI"*) echo hydra ;;
    slurm*) echo slurm ;;
    *) echo unknown ;;
  esac
}
# the MPI family a shared MPI library belongs to: openmpi, mpich, or its own name
climio_mpi_key() {
  case "$[]1" in
    libopen-pal*|libopen-rte*|libmpi_cxx*|libmpi_mpifh*|libmpi_usempi*|libmpi.so.40|libmpi.so.20) echo openmpi ;;
    libmpich*|libmpi.so.12|libmpi_cray*|libmpi_gnu*|libmpi_intel*|libmpicxx*|libmpifort*) echo mpich ;;
    *) echo "$[]1" ;;
  esac
}
# the families of a list of sonames, space-separated
climio_mpi_keys() {
  for climio_s in $[]1; do climio_mpi_key "$climio_s"; done | sort -u | tr '\n' ' ' | sed 's/ $//'
}
# the same, short
climio_mpi_short() {
  case " `climio_mpi_keys "$[]1"` " in
    "  ") echo "no shared MPI library" ;;
    " openmpi ") echo "Open MPI" ;;
    " mpich ") echo "an MPICH-family MPI" ;;
    *) echo "$[]1" ;;
  esac
}
# which MPI a list of sonames is, in words
climio_mpi_describe() {
  case " `climio_mpi_keys "$[]1"` " in
    "  ") echo "no shared MPI library" ;;
    " openmpi ") echo "Open MPI ($[]1)" ;;
    " mpich ") echo "an MPICH-family MPI ($[]1)" ;;
    *) echo "$[]1" ;;
  esac
}
])

# CLIMIO_MPI_OF_LIBRARY(NAME, SONAME-PATTERN, FIX)
#   Inside a successful AC_LINK_IFELSE: sets climio_lib_mpi to the MPI the
#   library NAME was built with (from its own shared object), and stops with
#   the reason and FIX when the program loads an MPI that CC's does not.
AC_DEFUN([CLIMIO_MPI_OF_LIBRARY], [
climio_lib_path=`climio_ldd_path conftest$ac_exeext '$2'`
AS_IF([test -n "$climio_lib_path"],
  [climio_lib_mpi=`climio_mpi_libs_of "$climio_lib_path"`
   climio_lib_mpi="built with `climio_mpi_short "$climio_lib_mpi"`: $climio_lib_path"],
  [climio_lib_mpi="linked statically: its MPI cannot be told"])
climio_own_keys=`climio_mpi_keys "$climio_mpi_own_libs"`
climio_foreign=""
for climio_l in `climio_mpi_libs_of conftest$ac_exeext`; do
  case " $climio_own_keys " in
    *" `climio_mpi_key $climio_l` "*) ;;
    *) climio_foreign="$climio_foreign $climio_l" ;;
  esac
done
AS_IF([test -n "$climio_foreign" && test -n "$climio_mpi_own_libs"],
  [climio_foreign=`echo $climio_foreign`
   climio_foreign_path=`climio_ldd_path conftest$ac_exeext "$(echo $climio_foreign | sed 's/ .*//')"`
   climio_foreign_mpi=`climio_mpi_describe "$climio_foreign"`
   AC_MSG_RESULT([no])
   AC_MSG_ERROR([$1 ($climio_lib_mpi) brings $climio_foreign_mpi, from $climio_foreign_path, into programs of $CC, which uses $climio_mpi_name: two MPIs in one program crash at the first MPI call. $3])])
])

AC_DEFUN([CLIMIO_PICK_LAUNCHER], [
AC_MSG_CHECKING([for the MPI launcher of $climio_mpi_name])
AS_IF([test -n "$MPIEXEC"], [AC_MSG_RESULT([$MPIEXEC (given)])], [
  climio_cc_prog=`echo "$CC" | sed 's/ .*//'`
  climio_cands=""
  case "$climio_cc_prog" in
    */*) climio_d=`dirname "$climio_cc_prog"`; climio_cands="$climio_d/mpiexec $climio_d/mpirun" ;;
  esac
  case "$climio_cc_prog" in
    *mpicc.*) climio_sfx=`echo "$climio_cc_prog" | sed 's/.*mpicc\.//'`
              climio_cands="mpiexec.$climio_sfx mpirun.$climio_sfx $climio_cands" ;;
  esac
  climio_want=unknown
  test "x$climio_mpi_family" = xopenmpi && climio_want=openmpi
  test "x$climio_mpi_family" = xmpich && climio_want=hydra
  climio_seen=""
  for climio_c in $climio_cands mpiexec mpirun; do
    climio_p=`command -v "$climio_c" 2>/dev/null` || continue
    test -x "$climio_p" || continue
    climio_f=`climio_launcher_family "$climio_p"`
    climio_seen="$climio_seen $climio_p ($climio_f)"
    AS_IF([test "x$climio_want" = xunknown || test "x$climio_f" = "x$climio_want"],
          [MPIEXEC=$climio_c; break])
  done
  AS_IF([test -z "$MPIEXEC"],
    [AC_MSG_RESULT([none])
     AC_MSG_ERROR([no MPI launcher of $climio_mpi_name found (tried:${climio_seen:- none}); a launcher of another MPI would start each rank as a separate one-rank job. Give yours: ./configure MPIEXEC=mpiexec.hydra (or srun, ...)])])
  AC_MSG_RESULT([$MPIEXEC])])
])
