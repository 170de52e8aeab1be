#!/bin/sh
# doc/internals.md's recipe "add a common setting", done for real, both ways:
#  A. a setting a kernel reads (4 files): copies of src/lib/app/settings.c (the
#     table's row, the resolution function, its call), src/lib/app/settings.h
#     (the field, the declaration), the use (a barrier in engine_exercise's
#     output phase) and tests/test_settings.c (its case);
#  B. a setting the engine acts on (6 files): the same settings.c, settings.h and
#     test case, then its copy into the engine's configuration (app_engine.c),
#     the configuration's field (engine/engine.h) and the engine file that acts
#     on it (a barrier before each create, engine_file.c);
#  C. B's setting where it can have no effect (7 files): its row in the
#     applicability table, src/lib/app/applicability.c.
# Each copy gets the recipe's lines and nothing else, and the files changed are
# counted against the doc's counts.  settings.c and the unit test are compiled as
# the build compiles them and linked into a test_settings that resolves the new
# setting from a parameter file and the command line and refuses a bad value;
# the uses are compiled against the new headers.  settings.h and engine.h reach
# every object of the app and engine layers and of every kernel, whose rebuild
# takes minutes on a small machine; this takes seconds.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/recipe_build.sh"
set -e
src="$top_srcdir/src/lib"

# setting TREE NAME HELP: the three files every common setting touches, in TREE
# (a copy of src/lib's changed files under TREE/src/lib, the test under TREE/tests)
setting() {
  tree=$1 name=$2 help=$3
  t="$tree/src/lib/app"
  mkdir -p "$t" "$tree/src/lib/engine" "$tree/tests" "$tree/exercise" "$tree/obj"
  sed -e "s|^    CIO_PARAM_END,\$|    {\"$name\", CIO_P_BOOL, \"false\", \"$help\", 0, 0, 0, 0},\\n&|" \
    -e "s/cio_settings_data(p, s, e))\$/cio_settings_data(p, s, e) || cio_settings_$name(p, s, e))/" \
    "$src/app/settings.c" >"$t/settings.c"
  cat >>"$t/settings.c" <<C

int cio_settings_$name(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->$name = cio_param_bool(p, "$name");
    return 0;
}
C
  sed -e "s|^    unsigned changed; |    int $name;\\n&|" \
    -e "s|^/\\* All of them, in order|int cio_settings_$name(const cio_params *p, cio_settings *s, cio_err *e);\\n&|" \
    "$src/app/settings.h" >"$t/settings.h"
  cp "$top_srcdir/tests/check.h" "$tree/tests/"
  awk '/^int main\(/ { while ((getline l < case_file) > 0) print l; print "" }
       { print } /^    resolve_all\(\);$/ { print "    " name "_case();" }' case_file=/dev/stdin name="$name" \
    "$top_srcdir/tests/test_settings.c" >"$tree/tests/test_settings.c" <<C
static void ${name}_case(void)
{
    cio_settings s = {0};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK(cio_settings_$name(p, &s, &e) == 0 && s.$name == 0);
    cio_params_free(p);
    char *argv[] = {"test_settings", "--$name", NULL};
    p = parse("$name false\n", argv);
    CHECK(cio_settings_$name(p, &s, &e) == 0 && s.$name == 1);
    cio_params_free(p);
    parse_fails("$name perhaps\n", "t.in:1: $name expects true or false, found 'perhaps'");
}
C
  [ "$(grep -c "$name" "$t/settings.c")" = 4 ] || fail "$name: settings.c: the row, the function and its call: $(grep -n "$name" "$t/settings.c")"
  [ "$(diff "$src/app/settings.h" "$t/settings.h" | grep -c '^>')" = 2 ] || fail "$name: settings.h: expected the field and the declaration"
  grep -q "^    ${name}_case();$" "$tree/tests/test_settings.c" || fail "$name: the case is not called from main"
}

# files_changed TREE: how many files of TREE differ from the tree's (the test counts as one)
files_changed() {
  n=1
  for f in $(cd "$1/src/lib" && find . -type f); do cmp -s "$1/src/lib/$f" "$src/$f" || n=$((n + 1)); done
  for f in "$1"/exercise/*; do [ -f "$f" ] && ! cmp -s "$f" "$top_srcdir/src/exercise/$(basename "$f")" && n=$((n + 1)); done
  echo $n
}

# unit_test TREE: settings.c and the test compiled as the build does, linked, run
unit_test() {
  recipe_compile "$1/src/lib/app/settings.c" "$1/obj/settings.o" "$1/src/lib"
  recipe_compile "$1/tests/test_settings.c" "$1/obj/test_settings.o" "$1/src/lib"
  recipe_link "$1/test_settings" "$1/obj/settings.o" "$1/obj/test_settings.o" $(make_var tests_test_settings_LDADD)
  run 1 "$1/test_settings" >"$1/log" 2>&1 || { cat "$1/log"; fail "test_settings with the new setting ($1)"; }
}

# A: read by a kernel
a="$TESTTMP/a"
setting "$a" open_barrier "a barrier before each output phase"
sed 's|^    (void)repetition;$|&\n    if (x->app->set.open_barrier) MPI_Barrier(x->app->comm);|' \
  "$top_srcdir/src/exercise/engine_exercise.c" >"$a/exercise/engine_exercise.c"
one_line_more "$a/exercise/engine_exercise.c" "$top_srcdir/src/exercise/engine_exercise.c"
[ "$(files_changed "$a")" = 4 ] || fail "A: $(files_changed "$a") files changed, the doc says 4"
unit_test "$a"
recipe_compile "$a/exercise/engine_exercise.c" "$a/obj/engine_exercise.o" "$a/src/lib" -I"$top_srcdir/src/exercise"

# B: acted on by the engine
b="$TESTTMP/b"
setting "$b" create_barrier "a barrier over the file's ranks before each create"
sed 's|^    c->max_request = set->max_request;$|&\n    c->create_barrier = set->create_barrier;|' "$src/app/app_engine.c" >"$b/src/lib/app/app_engine.c"
one_line_more "$b/src/lib/app/app_engine.c" "$src/app/app_engine.c"
sed 's|^    int verify_only; |    int create_barrier;         /* a barrier over the file'"'"'s ranks before each create */\n&|' \
  "$src/engine/engine.h" >"$b/src/lib/engine/engine.h"
one_line_more "$b/src/lib/engine/engine.h" "$src/engine/engine.h"
sed 's|^    DCALL(f, CIO_T_CREATE, 0, "create", d->create(&f->df, info));$|    if (e->cfg.create_barrier) MPI_Barrier(comm);\n&|' \
  "$src/engine/engine_file.c" >"$b/src/lib/engine/engine_file.c"
one_line_more "$b/src/lib/engine/engine_file.c" "$src/engine/engine_file.c"
[ "$(files_changed "$b")" = 6 ] || fail "B: $(files_changed "$b") files changed, the doc says 6"
unit_test "$b"
recipe_compile "$b/src/lib/app/app_engine.c" "$b/obj/app_engine.o" "$b/src/lib"
recipe_compile "$b/src/lib/engine/engine_file.c" "$b/obj/engine_file.o" "$b/src/lib"

# C: where it has no effect, said (one process has no other rank to wait for): one
# row of the applicability table, with a mode the table has
sed 's|^    CIO_APPLICABILITY_END,$|    {"create_barrier", 0, \&one_process, ": there is no other rank to wait for", "false", 0, "true", 0},\n&|' \
  "$src/app/applicability.c" >"$b/src/lib/app/applicability.c"
one_line_more "$b/src/lib/app/applicability.c" "$src/app/applicability.c"
[ "$(files_changed "$b")" = 7 ] || fail "C: $(files_changed "$b") files changed, the doc says 7"
recipe_compile "$b/src/lib/app/applicability.c" "$b/obj/applicability.o" "$b/src/lib"
pass
