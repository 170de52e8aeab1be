# climio_prefix.m4: an install prefix given explicitly (--with-X=PREFIX).
#
# A prefix that is not there, or holds no such library, must stop configure with
# what is missing: flags into a missing folder would let the compiler's default
# paths supply the system's copy of the library in silence, or make a later check
# blame the wrong thing.

# CLIMIO_PREFIX_FLAGS(WHAT, OPTION, PREFIX, HEADER, LIB, VAR)
#   PREFIX must be a folder with include/HEADER and libLIB (.so, .a or .dylib) in
#   lib, lib64 or a multiarch lib/<triplet> (Debian's /usr); else configure stops
#   naming OPTION, the prefix and what it lacks.  Sets VAR_CFLAGS and VAR_LIBS
#   from it: -I PREFIX/include, the library's folder with an rpath, -lLIB.
AC_DEFUN([CLIMIO_PREFIX_FLAGS], [
climio_prefix=$3
AC_MSG_CHECKING([for $1 in $climio_prefix])
AS_IF([test -e "$climio_prefix" && test ! -d "$climio_prefix"],
  [AC_MSG_RESULT([a file, not a folder])
   AC_MSG_ERROR([$2=$climio_prefix: a file, not a folder. Give the prefix $1 was installed to (the folder holding include/$4 and lib/lib$5.so), not a file in it, or leave $2 out to use the one pkg-config finds.])])
AS_IF([test ! -d "$climio_prefix"],
  [AC_MSG_RESULT([no such folder])
   AC_MSG_ERROR([$2=$climio_prefix: no such folder. Give the prefix $1 was installed to (the folder holding include/$4 and lib/lib$5.so), or leave $2 out to use the one pkg-config finds.])])
AS_IF([test ! -f "$climio_prefix/include/$4"],
  [AC_MSG_RESULT([no include/$4])
   AC_MSG_ERROR([$2=$climio_prefix: $climio_prefix/include/$4 not found, so $1 is not installed with this prefix (an install prefix holds include/$4 and lib/lib$5.so).])])
climio_prefix_libdir=""
for climio_d in "$climio_prefix/lib" "$climio_prefix/lib64" "$climio_prefix"/lib/*-*-*; do
  for climio_x in so a dylib; do
    AS_IF([test -z "$climio_prefix_libdir" && test -f "$climio_d/lib$5.$climio_x"], [climio_prefix_libdir=$climio_d])
  done
done
AS_IF([test -z "$climio_prefix_libdir"],
  [AC_MSG_RESULT([no lib$5])
   AC_MSG_ERROR([$2=$climio_prefix: it has include/$4 but no lib$5 (.so or .a) in lib, lib64 or lib/<triplet>: $1's library is not installed with this prefix.])])
AC_MSG_RESULT([$climio_prefix/include, $climio_prefix_libdir])
$6_CFLAGS="-I$climio_prefix/include"
$6_LIBS="-L$climio_prefix_libdir -Wl,-rpath,$climio_prefix_libdir -l$5"
])
