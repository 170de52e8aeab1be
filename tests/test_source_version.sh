#!/bin/sh
# The version and commit a build records: configure asks source_version.sh once
# (git describe and the commit of a git checkout; a release tarball's
# .tarball-version and .tarball-commit, which make dist's dist-hook writes; a
# git archive's .archive-commit; or "unknown: " and why) and buildinfo.sh uses
# that record at make time unless the source is a git checkout then.  Shown on
# trees made here: a copy without .git, a tarball's tree, an archive's tree, a
# configured tree copied without .git, this source's git archive, and the
# dist-hook of this build writing the tarball's files.
. "$top_srcdir/tests/lib.sh"
set -e
sv="$top_srcdir/src/lib/app/source_version.sh"
bi="$top_srcdir/src/lib/app/buildinfo.sh"
line() { sed -n "$1p"; }

# a copy of the tree without .git (nor a tarball's files): unknown, and why
mkdir -p "$TESTTMP/copy/src/lib/app"
cp "$sv" "$TESTTMP/copy/src/lib/app/"
out=$(sh "$sv" "$TESTTMP/copy" 0.1.0)
[ "$(echo "$out" | line 1)" = 0.1.0 ] || fail "copy: version $(echo "$out" | line 1)"
[ "$(echo "$out" | line 2)" = "configure (no git, no .tarball-version)" ] || fail "copy: origin $(echo "$out" | line 2)"
[ "$(echo "$out" | line 3)" = "unknown: the source is neither a git checkout (no .git), a release tarball (no .tarball-commit) nor a git archive (no .archive-commit filled in)" ] \
  || fail "copy: commit $(echo "$out" | line 3)"

# a release tarball's tree: the version and commit make dist recorded
mkdir -p "$TESTTMP/tarball/src/lib/app"
cp "$sv" "$TESTTMP/tarball/src/lib/app/"
echo v0.1-7-g1234567 >"$TESTTMP/tarball/.tarball-version"
echo 1234567890abcdef1234567890abcdef12345678 >"$TESTTMP/tarball/.tarball-commit"
out=$(sh "$sv" "$TESTTMP/tarball" 0.1.0)
[ "$out" = "v0.1-7-g1234567
tarball (.tarball-version)
1234567890abcdef1234567890abcdef12345678" ] || fail "tarball: $out"
rm "$TESTTMP/tarball/.tarball-commit"
[ "$(sh "$sv" "$TESTTMP/tarball" 0.1.0 | line 3)" = "unknown: built from a release tarball without .tarball-commit; its version (git describe when it was made): v0.1-7-g1234567" ] \
  || fail "tarball without .tarball-commit: $(sh "$sv" "$TESTTMP/tarball" 0.1.0 | line 3)"

# a tree from git archive: .archive-commit as git filled it in (export-subst);
# the file as a checkout holds it (placeholders) says nothing
mkdir -p "$TESTTMP/archive/src/lib/app"
cp "$sv" "$TESTTMP/archive/src/lib/app/"
printf '%s\n' 1234567890abcdef1234567890abcdef12345678 v0.1-3-g1234567 >"$TESTTMP/archive/.archive-commit"
out=$(sh "$sv" "$TESTTMP/archive" 0.1.0)
[ "$out" = "v0.1-3-g1234567
git archive (.archive-commit)
1234567890abcdef1234567890abcdef12345678" ] || fail "archive: $out"
printf '%s\n' 1234567890abcdef1234567890abcdef12345678 "" >"$TESTTMP/archive/.archive-commit"
[ "$(sh "$sv" "$TESTTMP/archive" 0.1.0 | line 1)" = "0.1.0-g1234567" ] || fail "archive without a tag: $(sh "$sv" "$TESTTMP/archive" 0.1.0)"
cp "$top_srcdir/.archive-commit" "$TESTTMP/copy/.archive-commit"
case $(sh "$sv" "$TESTTMP/copy" 0.1.0 | line 3) in unknown:*) ;; *) fail "placeholders taken for a commit" ;; esac
# this source's .gitattributes has git archive fill it in
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
  filled=$(git -C "$top_srcdir" archive HEAD .archive-commit | tar -xOf - .archive-commit | sed -n 1p)
  [ "$filled" = "$(git -C "$top_srcdir" rev-parse HEAD)" ] || fail "git archive wrote '$filled' into .archive-commit"
fi

# make time in a tree without .git: configure's record, said to be configure's;
# configure's "unknown" gives way to what the tree says now
sh "$bi" "$TESTTMP/copy" 0.1.0 v0.1-9-gabcdef0 "git describe" abcdef0123456789abcdef0123456789abcdef01 mpicc -O2 >"$TESTTMP/b.c"
grep -qx 'const char cio_build_commit\[\] = "abcdef0123456789abcdef0123456789abcdef01";' "$TESTTMP/b.c" || { cat "$TESTTMP/b.c"; fail "configure's commit not used"; }
grep -qx 'const char cio_build_version\[\] = "v0.1-9-gabcdef0";' "$TESTTMP/b.c" || fail "configure's version not used"
grep -qx 'const char cio_build_version_origin\[\] = "git describe, recorded by configure";' "$TESTTMP/b.c" || fail "origin"
sh "$bi" "$TESTTMP/copy" 0.1.0 0.1.0 "configure (no git, no .tarball-version)" "unknown: no reason" mpicc -O2 >"$TESTTMP/u.c"
grep -qx 'const char cio_build_commit\[\] = "unknown: the source is neither a git checkout (no .git), a release tarball (no .tarball-commit) nor a git archive (no .archive-commit filled in)";' \
  "$TESTTMP/u.c" || { cat "$TESTTMP/u.c"; fail "unknown commit"; }

# this build: configure's record is in the Makefile, and the program reports it
# (or, in a git checkout, the checkout's own commit)
rec=$(sed -n 's/^CLIMIO_SOURCE_COMMIT = //p' "$top_builddir/Makefile")
[ -n "$rec" ] || fail "configure recorded no commit in the Makefile"
run 1 "$top_builddir/src/exercise/engine_exercise" --driver null --json "$TESTTMP/r.json" --quiet true >/dev/null 2>&1 || fail "run"
commit=$(json_get "$TESTTMP/r.json" 'd["context"]["build"]["commit"]')
if [ -e "$top_srcdir/.git" ] && command -v git >/dev/null 2>&1; then
  case "$commit" in "$(git -C "$top_srcdir" rev-parse HEAD)"*) ;; *) fail "git checkout: commit $commit" ;; esac
else
  [ "$commit" = "$rec" ] || fail "commit $commit, configure recorded $rec"
fi

# make dist's hook writes the tarball's two files (the commit only when known)
mkdir -p "$TESTTMP/dist"
${MAKE:-make} -s -C "$top_builddir" dist-hook distdir="$TESTTMP/dist" >/dev/null || fail "dist-hook"
[ "$(cat "$TESTTMP/dist/.tarball-version")" = "$(sh "$sv" "$top_srcdir" 0.1.0 | line 1)" ] || fail "dist: .tarball-version"
now=$(sh "$sv" "$top_srcdir" 0.1.0 | line 3)
case "$now" in
  unknown:*) [ ! -e "$TESTTMP/dist/.tarball-commit" ] || fail "dist: an unknown commit written" ;;
  *) [ "$(cat "$TESTTMP/dist/.tarball-commit")" = "$now" ] || fail "dist: .tarball-commit" ;;
esac
pass
