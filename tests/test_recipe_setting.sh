#!/bin/sh
# doc/internals.md's recipe "add a common setting", done for real: copies of
# src/lib/app/settings.c (the table's row, the resolution function, its call),
# src/lib/app/settings.h (the field, the declaration), the use (a barrier in
# engine_exercise's output phase) and tests/test_settings.c (its case) get the
# recipe's lines and nothing else.  settings.c and the unit test are compiled as
# the build compiles them and linked into a test_settings that resolves the new
# setting from a parameter file and the command line and refuses a bad value;
# the use is compiled against the new header.  settings.h reaches every object of
# the app layer and of every kernel, whose rebuild takes minutes on a small
# machine; this takes seconds and runs the new setting from the table to its
# typed value.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/recipe_build.sh"
set -e
t="$TESTTMP/src/lib/app"
obj="$TESTTMP/obj"
mkdir -p "$t" "$TESTTMP/tests" "$TESTTMP/exercise" "$obj"
app="$top_srcdir/src/lib/app"
# the table's row, the resolution function and its call
sed -e 's|^    CIO_PARAM_END,$|    {"open_barrier", CIO_P_BOOL, "false", "a barrier before each output phase", 0, 0, 0, 0},\n&|' \
  -e 's|cio_settings_data(p, s, e))$|cio_settings_data(p, s, e) \|\| cio_settings_open_barrier(p, s, e))|' \
  "$app/settings.c" >"$t/settings.c"
cat >>"$t/settings.c" <<'C'

int cio_settings_open_barrier(const cio_params *p, cio_settings *s, cio_err *e)
{
    (void)e;
    s->open_barrier = cio_param_bool(p, "open_barrier");
    return 0;
}
C
# the field and the declaration
sed -e 's|^    unsigned changed; |    int open_barrier;\n&|' \
  -e 's|^/\* All of them, in order|int cio_settings_open_barrier(const cio_params *p, cio_settings *s, cio_err *e);\n&|' \
  "$app/settings.h" >"$t/settings.h"
# the use
sed 's|^    (void)repetition;$|&\n    if (x->app->set.open_barrier) MPI_Barrier(x->app->comm);|' \
  "$top_srcdir/src/exercise/engine_exercise.c" >"$TESTTMP/exercise/engine_exercise.c"
# the test's case
cp "$top_srcdir/tests/check.h" "$TESTTMP/tests/"
awk '/^int main\(/ { while ((getline l < case_file) > 0) print l; print "" }
     { print } /^    resolve_all\(\);$/ { print "    open_barrier();" }' case_file=/dev/stdin \
  "$top_srcdir/tests/test_settings.c" >"$TESTTMP/tests/test_settings.c" <<'C'
static void open_barrier(void)
{
    cio_settings s = {0};
    cio_err e = {0};
    cio_params *p = parse("", NULL);
    CHECK(cio_settings_open_barrier(p, &s, &e) == 0 && s.open_barrier == 0);
    cio_params_free(p);
    char *argv[] = {"test_settings", "--open_barrier", NULL};
    p = parse("open_barrier false\n", argv);
    CHECK(cio_settings_open_barrier(p, &s, &e) == 0 && s.open_barrier == 1);
    cio_params_free(p);
    parse_fails("open_barrier perhaps\n", "t.in:1: open_barrier expects true or false, found 'perhaps'");
}
C
grep -c 'open_barrier' "$t/settings.c" | grep -qx 4 || fail "settings.c: the row, the function and its call: $(grep -n open_barrier "$t/settings.c")"
[ "$(diff "$app/settings.h" "$t/settings.h" | grep -c '^>')" = 2 ] || fail "settings.h: expected the field and the declaration"
grep -q '^    open_barrier();$' "$TESTTMP/tests/test_settings.c" || fail "the case is not called from main"
one_line_more "$TESTTMP/exercise/engine_exercise.c" "$top_srcdir/src/exercise/engine_exercise.c"

recipe_compile "$t/settings.c" "$obj/settings.o" "$TESTTMP/src/lib"
recipe_compile "$TESTTMP/tests/test_settings.c" "$obj/test_settings.o" "$TESTTMP/src/lib"
recipe_compile "$TESTTMP/exercise/engine_exercise.c" "$obj/engine_exercise.o" "$TESTTMP/src/lib"
recipe_link "$TESTTMP/test_settings" "$obj/settings.o" "$obj/test_settings.o" $(make_var tests_test_settings_LDADD)
run 1 "$TESTTMP/test_settings" >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "test_settings with the new setting"; }
pass
