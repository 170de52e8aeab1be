#!/bin/sh
# doc/internals.md's recipe "add a kernel parameter", done for real on mom_io: a
# copy of src/mom gets one line in MOM_PLAIN_PARAMS (src/mom/mom_config.h) and
# the line that uses it (a global attribute in src/mom/mom_schema.c), nothing
# else.  The objects that depend on the two files are compiled as the build
# compiles them (the others are the build's own) and linked into a mom_io,
# which lists the parameter in --help, takes it from a parameter file and the
# command line with its origin, refuses a bad value, and writes the attribute.
# A copy of the whole tree configured and built would take minutes; this takes
# seconds and compiles every object the recipe's two files reach.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/recipe_build.sh"
set -e
t="$TESTTMP/src/mom"
mkdir -p "$t" "$TESTTMP/obj"
cp "$top_srcdir"/src/mom/*.c "$top_srcdir"/src/mom/*.h "$t/"
orig="$top_srcdir/src/mom"
# the recipe: the list's line, then its use
sed 's|^    /\* a new plain parameter: one line above this one \*/$|    X(history, STRING, "made by mom_io", "the files'"'"' history attribute", 0, 0) \\\n&|' \
  "$orig/mom_config.h" >"$t/mom_config.h"
sed 's|^    cio_schema_att_text(s, -1, "grid_tile", "N/A");$|&\n    cio_schema_att_text(s, -1, "history", c->history);|' \
  "$orig/mom_schema.c" >"$t/mom_schema.c"
one_line_more "$t/mom_config.h" "$orig/mom_config.h"
one_line_more "$t/mom_schema.c" "$orig/mom_schema.c"

# compile what the two files reach (every object when the build kept no dependencies)
objs=
for o in $(make_var src_mom_mom_io_OBJECTS); do
  b=$(basename "$o" .o)
  dep="$top_builddir/src/mom/.deps/$b.Po"
  if [ ! -s "$dep" ] || grep -q 'mom_config\.h\|mom_schema\.c' "$dep" || ! grep -q 'mom_' "$dep"; then
    recipe_compile "$t/$b.c" "$TESTTMP/obj/$b.o" "$TESTTMP/src"
    objs="$objs $TESTTMP/obj/$b.o"
  else
    objs="$objs $top_builddir/$o"
  fi
done
[ "$(ls "$TESTTMP/obj" | wc -l)" -ge 2 ] || fail "no object was compiled"
io="$TESTTMP/mom_io"
recipe_link "$io" $objs $(make_var src_mom_mom_io_LDADD)

run 1 "$io" --help >"$TESTTMP/help" 2>&1 || fail "--help"
grep -q -- "--history VALUE .*the files' history attribute \[default: made by mom_io\]" "$TESTTMP/help" \
  || fail "--help lacks the new parameter: $(grep history "$TESTTMP/help")"
printf 'ni 8\nnj 6\nnk 2\nrecords 1\nfields t\nfields_2d ""\nstatic_fields ""\nhistory "from the file"\n' >"$TESTTMP/p.in"
run 1 "$io" "$TESTTMP/p.in" --print_params >"$TESTTMP/params.json" 2>&1 || fail "--print_params"
[ "$(json_get "$TESTTMP/params.json" 'd["parameters"]["history"]["value"]')" = "from the file" ] \
  || fail "history in --print_params: $(grep -A2 history "$TESTTMP/params.json")"
[ "$(json_get "$TESTTMP/params.json" 'd["parameters"]["history"]["origin"]')" = "$TESTTMP/p.in:8" ] || fail "history's origin"
expect_fail 1 "unknown option '--histroy' (did you mean '--history'?)" "$io" "$TESTTMP/p.in" --histroy x

# the use: the attribute in the file, the command line winning over the file
dump=ncmpidump
command -v ncmpidump >/dev/null 2>&1 || dump=ncdump
if { have_driver pnetcdf || have_driver netcdf; } && command -v $dump >/dev/null 2>&1; then
  d=pnetcdf
  have_driver pnetcdf || d=netcdf
  run 2 "$io" "$TESTTMP/p.in" --driver $d --pattern serial --single_writer mpiio --history "from the command line" \
    --out "$TESTTMP/out" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io with history"; }
  $dump -h "$TESTTMP/out/ocean.nc" >"$TESTTMP/header" 2>&1 || fail "$dump -h: $(cat "$TESTTMP/header")"
  grep -q ':history = "from the command line" ;' "$TESTTMP/header" || fail "no history attribute: $(grep ':' "$TESTTMP/header" | head)"
fi
pass
