# Helpers of the recipe tests (sourced after tests/lib.sh): the build's own
# compile and link commands, read from its Makefile, so a recipe's edit in a copy
# of a few sources is compiled exactly as the build compiles them.

# make_var NAME: the value of a variable of the build's Makefile.  Under
# make -jN check the parent's jobserver flags are not this make's (it would print
# its "jobserver unavailable" warning into the value): it runs without them.
make_var() {
  printf 'climio-print-%%:\n\t@echo $(%s)\n' "$1" |
    (cd "$top_builddir" && env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -s --no-print-directory -f Makefile -f - climio-print-x)
}

# recipe_compile SRC OBJ DIR [FLAGS...]: compile SRC (a copy, absolute path) into
# OBJ as the build does (FLAGS: a target's own, after the build's), with DIR
# searched before the tree's src/lib (its copies of lib headers win); from the
# build folder, where the build's relative -I paths hold.
recipe_compile() {
  rb_src=$1 rb_obj=$2 rb_inc=$3
  shift 3
  rb_extra="$*"
  set -- $(make_var COMPILE)
  rb_cc=$1
  shift
  # shellcheck disable=SC2086
  (cd "$top_builddir" && $rb_cc -I"$rb_inc" "$@" $rb_extra -Werror -c "$rb_src" -o "$rb_obj") || fail "compiling $rb_src"
}

# recipe_link OUT OBJS-AND-LIBS...: link as the build links.
# (The helpers' variables begin with rb_: a shell function's variables are the script's.)
recipe_link() {
  rb_out=$1
  shift
  (cd "$top_builddir" && $(make_var CCLD) $(make_var AM_CFLAGS) $(make_var CFLAGS) $(make_var LDFLAGS) -o "$rb_out" "$@" \
    $(make_var LIBS)) || fail "linking $rb_out"
}

# one_line_more FILE ORIGINAL: FILE is ORIGINAL with exactly one line added.
one_line_more() {
  rb_n=$(diff "$2" "$1" | grep -c '^[<>]' || true)
  rb_a=$(diff "$2" "$1" | grep -c '^>' || true)
  [ "$rb_n" = 1 ] && [ "$rb_a" = 1 ] || fail "$1: expected one added line, diff has $rb_n changed lines"
}
