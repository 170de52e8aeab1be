#!/bin/sh
# doc/internals.md's recipe "add a kernel parameter", done for real on every
# kernel with a plain-parameter list: a copy of the kernel's folder gets one line
# in its list (MOM_PLAIN_PARAMS in src/mom/mom_config.h, GCRM_PLAIN_PARAMS in
# src/gcrm/gcrm_settings.h, PF_PLAIN_PARAMS in src/pfio/pfio.h, DECOMP_PLAIN_PARAMS
# in src/decomp/decomp.h, EXERCISE_PLAIN_PARAMS in src/exercise/engine_exercise.c) and the line that uses
# it (a global attribute, or pfio_io's report line), nothing else: 2 files, or 1
# where the list and the use share a file.  The objects that depend on the two
# files are compiled as the build compiles them (the others are the build's own)
# and linked into the kernel, which lists the parameter in --help, takes it with
# its origin, suggests it for a misspelling, refuses a bad value and uses it.
# A copy of the whole tree configured and built would take minutes; this
# compiles every object the recipe's files reach.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/recipe_build.sh"
set -e
marker='    /* a new plain parameter: one line above this one */'

# recipe KERNEL FOLDER LIST_FILE NEW_LINE USE_FILE ANCHOR USE_LINE: the copy of
# src/FOLDER in $TESTTMP/src/FOLDER with the list's line above the marker and the
# use after the anchor line; the files changed are counted against the doc's.
recipe() {
  rk=$1 rf=$2 rlist=$3 rline=$4 ruse=$5 ranchor=$6 rnew=$7
  t="$TESTTMP/src/$rf" orig="$top_srcdir/src/$rf"
  mkdir -p "$t" "$TESTTMP/obj-$rk"
  cp "$orig"/*.c "$orig"/*.h "$t/" 2>/dev/null || cp "$orig"/*.c "$t/"
  RL=$rline M=$marker awk '$0 == ENVIRON["M"] { print ENVIRON["RL"] " \\" } { print }' "$orig/$rlist" >"$t/$rlist"
  RA=$ranchor RN=$rnew awk '{ print } $0 == ENVIRON["RA"] { print ENVIRON["RN"] }' "$t/$ruse" >"$t/$ruse.new"
  mv "$t/$ruse.new" "$t/$ruse"
  changed=$(for f in "$t"/*; do cmp -s "$f" "$orig/$(basename "$f")" || echo "$f"; done | wc -l)
  added=$(for f in "$t"/*; do diff "$orig/$(basename "$f")" "$f" | grep -c '^>' || true; done | awk '{ s += $1 } END { print s }')
  if [ "$rlist" = "$ruse" ]; then want=1; else want=2; fi
  [ "$changed" = "$want" ] && [ "$added" = 2 ] || fail "$rk: the recipe changed $changed files, $added lines (expected $want files, 2 lines)"
}

# relink KERNEL FOLDER PROGRAM OBJECT_VARS OWN_LIB: every object of the program
# whose dependencies reach the folder's changed files is compiled from the copy
# (every object when the build kept no dependencies), the others are the build's;
# linked with the program's libraries but its own (OWN_LIB, whose objects are
# all here).  Per-target flags of a library (no FMA contraction) are kept.
relink() {
  rk=$1 rf=$2 rprog=$3 rvars=$4 rlib=$5
  t="$TESTTMP/src/$rf"
  # sources the build generates (gcrm_io's built-in inputs, decomp_io's E3SM tables), in a build outside the tree
  for g in "$top_builddir/src/$rf"/*.c; do [ -f "$g" ] && [ ! -f "$t/${g##*/}" ] && cp "$g" "$t/"; done
  changed=$(for f in "$t"/*; do [ -f "$top_srcdir/src/$rf/$(basename "$f")" ] && ! cmp -s "$f" "$top_srcdir/src/$rf/$(basename "$f")" && basename "$f"; done | tr '\n' '|' | sed 's/|$//; s/\./\\./g')
  objs=
  for var in $rvars; do
    flags=$(make_var "$(echo "$var" | sed 's/_OBJECTS$/_CFLAGS/')")
    for o in $(make_var "$var"); do
      b=$(basename "$o" .o)
      src=${b#*-}
      dep="$top_builddir/src/$rf/.deps/$b.Po"
      if [ ! -s "$dep" ] || ! grep -q "src/$rf/" "$dep" || grep -Eq "($changed)" "$dep"; then
        recipe_compile "$t/$src.c" "$TESTTMP/obj-$rk/$b.o" "$TESTTMP/src" $flags
        objs="$objs $TESTTMP/obj-$rk/$b.o"
      else
        objs="$objs $top_builddir/$o"
      fi
    done
  done
  [ "$(ls "$TESTTMP/obj-$rk" | wc -l)" -ge 1 ] || fail "$rk: no object was compiled"
  libs=$(make_var "$(echo "$rprog" | tr '/' '_')_LDADD")
  [ -z "$rlib" ] || libs=$(echo "$libs" | sed "s|$rlib||")
  recipe_link "$TESTTMP/$rk" $objs $libs
}

# check KERNEL ARGS...: --help lists it, --print_params takes it with its origin,
# a misspelling is answered with it, a bad value is refused
check() {
  rk=$1
  shift
  io="$TESTTMP/$rk"
  run 1 "$io" "$@" --help >"$TESTTMP/help" 2>&1 || fail "$rk --help"
  grep -q -- "--comment VALUE .*a comment on the run \[default: none given\]" "$TESTTMP/help" \
    || fail "$rk: --help lacks the new parameter: $(grep comment "$TESTTMP/help")"
  run 1 "$io" "$@" --comment "said here" --print_params >"$TESTTMP/params.json" 2>&1 || fail "$rk --print_params"
  [ "$(json_get "$TESTTMP/params.json" 'd["parameters"]["comment"]["value"], d["parameters"]["comment"]["origin"]')" = "said here command line" ] \
    || fail "$rk: comment in --print_params: $(grep -A3 '"comment"' "$TESTTMP/params.json")"
  expect_fail 1 "unknown option '--coment' (did you mean '--comment'?)" "$io" "$@" --coment x
}
dump=ncmpidump
command -v ncmpidump >/dev/null 2>&1 || dump=ncdump
have_dump() { have_driver pnetcdf && command -v $dump >/dev/null 2>&1; }

# mom_io: the files' history attribute, from a parameter file and the command line
recipe mom_io mom mom_config.h '    X(history, STRING, "made by mom_io", "the files'"'"' history attribute", 0, 0)' \
  mom_schema.c '    cio_schema_att_text(s, -1, "grid_tile", "N/A");' '    cio_schema_att_text(s, -1, "history", c->history);'
relink mom_io mom src/mom/mom_io src_mom_mom_io_OBJECTS ""
io="$TESTTMP/mom_io"
run 1 "$io" --help >"$TESTTMP/help" 2>&1 || fail "--help"
grep -q -- "--history VALUE .*the files' history attribute \[default: made by mom_io\]" "$TESTTMP/help" \
  || fail "--help lacks the new parameter: $(grep history "$TESTTMP/help")"
printf 'ni 8\nnj 6\nnk 2\nrecords 1\nfields t\nfields_2d ""\nstatic_fields ""\nhistory "from the file"\n' >"$TESTTMP/p.in"
run 1 "$io" "$TESTTMP/p.in" --print_params >"$TESTTMP/params.json" 2>&1 || fail "--print_params"
[ "$(json_get "$TESTTMP/params.json" 'd["parameters"]["history"]["value"]')" = "from the file" ] \
  || fail "history in --print_params: $(grep -A2 history "$TESTTMP/params.json")"
[ "$(json_get "$TESTTMP/params.json" 'd["parameters"]["history"]["origin"]')" = "$TESTTMP/p.in:8" ] || fail "history's origin"
expect_fail 1 "unknown option '--histroy' (did you mean '--history'?)" "$io" "$TESTTMP/p.in" --histroy x
if have_dump; then
  run 2 "$io" "$TESTTMP/p.in" --driver pnetcdf --pattern serial --single_writer mpiio --history "from the command line" \
    --out "$TESTTMP/out" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io with history"; }
  $dump -h "$TESTTMP/out/ocean.nc" >"$TESTTMP/header" 2>&1 || fail "$dump -h: $(cat "$TESTTMP/header")"
  grep -q ':history = "from the command line" ;' "$TESTTMP/header" || fail "no history attribute: $(grep ':' "$TESTTMP/header" | head)"
fi

# the other kernels: a comment, with a default and no checks of its own
new='    X(comment, STRING, "none given", "a comment on the run", 0, 0)'
recipe gcrm_io gcrm gcrm_settings.h "$new" gcrm_plan.c '    cio_schema_att_text(sc, -1, "history", GIO_HISTORY_NOTE);' \
  '    cio_schema_att_text(sc, -1, "comment", s->comment);'
relink gcrm_io gcrm src/gcrm/gcrm_io "src_gcrm_libgcrm_a_OBJECTS src_gcrm_gcrm_io_OBJECTS" src/gcrm/libgcrm.a
check gcrm_io
recipe pfio_io pfio pfio.h "$new" pfio_report.c '    printf("%s\n", o->fast_oclient ? ", fast clients" : "");' \
  '    printf("comment             %s\n", o->comment);'
relink pfio_io pfio src/pfio/pfio_io "src_pfio_libpfio_a_OBJECTS src_pfio_pfio_io_OBJECTS" src/pfio/libpfio.a
check pfio_io "$top_srcdir/inputs/pfio.in"
recipe decomp_io decomp decomp.h "$new" decomp_schema.c \
  '        cio_schema_att_text(s, -1, "title", "decomp_io: a replayed decomposition map (climio)");' \
  '        cio_schema_att_text(s, -1, "comment", c->comment);'
relink decomp_io decomp src/decomp/decomp_io src_decomp_decomp_io_OBJECTS ""
check decomp_io
recipe engine_exercise exercise engine_exercise.c "$new" engine_exercise.c \
  '    cio_schema_att_text(s, -1, "title", "climio engine exerciser");' '    cio_schema_att_text(s, -1, "comment", x->comment);'
relink engine_exercise exercise src/exercise/engine_exercise src_exercise_engine_exercise_OBJECTS ""
check engine_exercise
# the uses: the attribute in the files, the report's line
if have_dump; then
  run 2 "$TESTTMP/gcrm_io" --driver pnetcdf --restart_interval 0 --cdf_output_nsamples 1 --end_minutes 0 \
    --comment "on gcrm" --output_dir "$TESTTMP/g" --quiet >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "gcrm_io with comment"; }
  $dump -h "$TESTTMP/g/grid.nc" | grep -q ':comment = "on gcrm" ;' || fail "gcrm_io: no comment attribute"
  run 2 "$TESTTMP/engine_exercise" --driver pnetcdf --comment "on the exercise" --out "$TESTTMP/x" --quiet \
    >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "engine_exercise with comment"; }
  $dump -h "$TESTTMP/x/exercise.nc" | grep -q ':comment = "on the exercise" ;' || fail "engine_exercise: no comment attribute"
  run 2 "$TESTTMP/decomp_io" --driver pnetcdf --nvars 1 --comment "on decomp" --out "$TESTTMP/d" --quiet \
    >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "decomp_io with comment"; }
  $dump -h "$TESTTMP/d/decomp_io.nc" | grep -q ':comment = "on decomp" ;' || fail "decomp_io: no comment attribute"
fi
run 2 "$TESTTMP/pfio_io" "$top_srcdir/inputs/pfio.in" --driver null --im_world 36 --jm_world 19 --km_world 4 \
  --comment "on pfio" --output_dir "$TESTTMP/p" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "pfio_io with comment"; }
grep -q "^comment             on pfio$" "$TESTTMP/log" || fail "pfio_io: no comment line in its report"
pass
