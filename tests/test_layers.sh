#!/bin/sh
# The architecture's rules (doc/internals.md), checked on the sources and the
# built libraries:
#  - src/lib's layers base < data < drivers < engine < app: a file includes
#    headers of its own layer or lower ones, never a kernel's or src/grids';
#  - a kernel includes the library, src/grids and its own folder, never another
#    kernel's header (by "../KERNEL/" or "KERNEL/"), and src/grids no kernel;
#  - CLIMIO_LIBS links each layer's library once, from the top down;
#  - no library uses a symbol a higher layer defines, and no two object files of
#    the libraries need each other, directly or round a longer circle;
#  - only the drivers include an I/O library's header or call MPI-IO, but for the
#    files doc/internals.md declares, with their reasons.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C
export LC_ALL
cd "$top_srcdir/src" || fail "no src folder"

layers="base data drivers engine app"
rank() { # a folder's place in the layers (0 above them all: grids and the kernels)
  n=1
  for l in $layers; do [ "$l" = "$1" ] && { echo $n; return; }; n=$((n + 1)); done
  echo 0
}
kernels=$(for d in */; do d=${d%/}; [ "$d" = lib ] || [ "$d" = grids ] || echo "$d"; done)
[ -n "$kernels" ] || fail "no kernel folders under src"

# includes: every '#include "X/..."' of every source file, as FILE X
bad=$(for f in lib/*/*.[ch] grids/*.[ch] $(for k in $kernels; do echo "$k"/*.[ch]; done); do
  [ -f "$f" ] || continue
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
    case "$inc" in
    ../*) echo "$f: #include \"$inc\" (a relative path into another folder)"; continue ;;
    */*) ;;
    *) continue ;;   # the file's own folder
    esac
    to=${inc%%/*}
    case "$f" in
    lib/*)
      from=${f#lib/}; from=${from%%/*}
      rt=$(rank "$to")
      if [ "$rt" = 0 ]; then echo "$f: #include \"$inc\" (the library includes no kernel or grid)"
      elif [ "$rt" -gt "$(rank "$from")" ]; then echo "$f: #include \"$inc\" ($from is below $to)"; fi ;;
    grids/*)
      [ "$(rank "$to")" = 0 ] && [ "$to" != grids ] && echo "$f: #include \"$inc\" (the grids include the library only)" ;;
    *)
      from=${f%%/*}
      [ "$(rank "$to")" = 0 ] && [ "$to" != grids ] && [ "$to" != "$from" ] &&
        echo "$f: #include \"$inc\" (a kernel includes no other kernel)" ;;
    esac
  done
done)
[ -z "$bad" ] || fail "includes against the layers:
$bad"

# I/O libraries: only the drivers include a library's header (directly, or through
# a header of ours that includes one) or call MPI-IO; every other file that does
# is a row of doc/internals.md's table "Where an I/O library is called", and every
# row is such a file
libhdr='(pnetcdf|netcdf[a-z_]*|hdf5[a-z_]*|H5[A-Za-z_]*|adios2[a-z_]*)\.h'
srcs=$(for f in lib/*/*.[ch] grids/*.[ch] $(for k in $kernels; do echo "$k"/*.[ch]; done); do [ -f "$f" ] && echo "$f"; done)
lib_include() { grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<$libhdr>" "$1"; }
# the headers that carry a library, to a fixed point: FOLDER/NAME.h, included as
# "NAME.h" from its folder or "FOLDER/NAME.h" (lib/FOLDER/NAME.h) from anywhere
carriers=$(for f in $srcs; do case $f in *.h) lib_include "$f" && echo "$f" ;; esac; done)
includes_carrier() { # FILE: the carrier it includes, if any
  for c in $carriers; do
    cd_=${c%/*} cn=${c##*/} short=${c#lib/}
    if [ "${1%/*}" = "$cd_" ] && grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$cn\"" "$1"; then echo "$c"; return; fi
    grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$short\"" "$1" && { echo "$c"; return; }
  done
}
n=0
while :; do
  more=$(for f in $srcs; do case $f in *.h) echo "$carriers" | grep -qxF "$f" || [ -z "$(includes_carrier "$f")" ] || echo "$f" ;; esac; done)
  [ -z "$more" ] && break
  carriers="$carriers
$more"
  n=$((n + 1))
  [ $n -lt 10 ] || fail "headers that include each other round a circle: $more"
done
callers=$(for f in $srcs; do
  case $f in lib/drivers/*) continue ;; esac
  why=""
  lib_include "$f" && why="$why $(grep -oE "<$libhdr>" "$f" | sort -u | tr '\n' ' ')"
  c=$(includes_carrier "$f")
  [ -n "$c" ] && why="$why(through $c)"
  grep -qE '(^|[^A-Za-z_])P?MPI_File_[a-z_]+[[:space:]]*\(' "$f" && why="$why MPI-IO calls"
  [ -z "$why" ] || echo "$f:$why"
done)
[ -n "$callers" ] || fail "no file outside the drivers uses an I/O library: the check finds nothing"
declared=$(sed -n '/^### Where an I\/O library is called/,/^##/p' "$top_srcdir/doc/internals.md" |
  sed -n 's/^| `src\/\([^`]*\)` |.*/\1/p')
[ -n "$declared" ] || fail "doc/internals.md has no table of the files outside the drivers that use an I/O library"
undeclared=$(echo "$callers" | while IFS=: read -r f why; do echo "$declared" | grep -qxF "$f" || echo "src/$f:$why"; done)
[ -z "$undeclared" ] || fail "an I/O library used outside the drivers, not declared in doc/internals.md ('Where an I/O library is called'):
$undeclared"
stale=$(echo "$declared" | while read -r f; do echo "$callers" | grep -q "^$f:" || echo "src/$f"; done)
[ -z "$stale" ] || fail "doc/internals.md declares files that use no I/O library (remove their rows):
$stale"

# the link line: each library once, in the layers' order from the top
libs=$(sed -n '/^CLIMIO_LIBS *=/,/[^\\]$/p' "$top_srcdir/Makefile.am" | tr -d '\\' | sed 's/^CLIMIO_LIBS *=//' | tr -s ' \t' '\n' | sed '/^$/d')
[ -n "$libs" ] || fail "no CLIMIO_LIBS in Makefile.am"
dups=$(echo "$libs" | sort | uniq -d)
[ -z "$dups" ] || fail "CLIMIO_LIBS names $dups more than once"
order=$(echo "$libs" | sed 's|.*/libcio_||; s|\.a$||' | tr '\n' ' ')
[ "$order" = "app engine drivers data model base " ] || fail "CLIMIO_LIBS order is '$order', expected app engine drivers data model base"

# symbols: the libraries as built, one line per object file and symbol
command -v nm >/dev/null || skip "no nm"
cd "$top_builddir/src/lib" || fail "no built src/lib"
syms=$TESTTMP/syms.txt
for l in base data model drivers engine app; do
  [ -f "libcio_$l.a" ] || fail "libcio_$l.a not built"
  nm -A "libcio_$l.a" 2>/dev/null | sed "s/^[^:]*:\([^:]*\):/$l \1 /"
done | awk 'NF == 5 { print $1, $2, $4, $5 } NF == 4 { print $1, $2, $3, $4 }' >"$syms"
# defined (T D B R C ...) and used (U) symbols: LIB OBJECT SYMBOL
awk '$3 ~ /^[TDBRCGSVW]$/ { print $1, $2, $4 }' "$syms" | sort -k3 >"$TESTTMP/def.txt"
awk '$3 == "U" { print $1, $2, $4 }' "$syms" | sort -k3 >"$TESTTMP/use.txt"
[ -s "$TESTTMP/def.txt" ] && [ -s "$TESTTMP/use.txt" ] || fail "nm found no symbols in the libraries"
# OBJECT-LIB USES OBJECT-LIB, one line per pair
join -1 3 -2 3 -o 1.1,1.2,2.1,2.2,0 "$TESTTMP/use.txt" "$TESTTMP/def.txt" | awk '$2 != $4' >"$TESTTMP/edges.txt"
lrank() { case $1 in model) rank data ;; *) rank "$1" ;; esac; }
up=$(while read -r ul uo dl do_ s; do
  [ "$(lrank "$dl")" -gt "$(lrank "$ul")" ] && echo "$ul/$uo uses $s from $dl/$do_"
done <"$TESTTMP/edges.txt")
[ -z "$up" ] || fail "a lower layer uses a higher one:
$up"
awk '{ print $1 "/" $2, $3 "/" $4 }' "$TESTTMP/edges.txt" | sort -u >"$TESTTMP/pairs.txt"
[ -s "$TESTTMP/pairs.txt" ] || fail "no calls between the libraries' files found"
tsort "$TESTTMP/pairs.txt" >/dev/null 2>"$TESTTMP/tsort.txt" || fail "files of the libraries that need each other:
$(cat "$TESTTMP/tsort.txt")"
pass
