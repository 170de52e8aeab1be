#!/bin/sh
# The project stands alone: a user's clone has nothing beside it, so no build file,
# test, script, input or doc may name a path outside the source tree (the
# development machines' ../shared or /work folders), and the reference data the
# tests compare with ships inside the tree (tests/gcrm/original).
. "$top_srcdir/tests/lib.sh"
set -e
cd "$top_srcdir"
# every text file of the project: in a git checkout, what git tracks or would
# track (so build products, tests/env.sh and Python caches, which name the
# clone's own absolute path, are left out); in a release tarball, the tree less
# its build products; the fuzz corpora are fuzzer bytes, not paths
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   [ "$(git rev-parse --show-toplevel)" = "$(pwd -P)" ]; then
    git ls-files -co --exclude-standard | grep -v '^tests/fuzz/corpus/' | sed 's|^|./|' |
        while read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done >"$TESTTMP/files"
else
    find . -path ./.git -prune -o -path ./_sanitize -prune -o -path ./tests/tmp -prune \
        -o -path ./tests/fuzz/corpus -prune -o -path ./deps -prune -o -path ./run -prune \
        -o -name __pycache__ -prune -o -path ./tests/env.sh -prune -o -path ./src/lib/app/buildinfo.c -prune \
        -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.mk' -o -name '*.am' -o -name '*.ac' \
        -o -name '*.sh' -o -name '*.py' -o -name '*.md' -o -name '*.toml' -o -name '*.in' \
        -o -name 'setup' -o -name 'bootstrap' -o -name 'run' -o -path './scripts/*' \) -print >"$TESTTMP/files"
fi
[ "$(wc -l <"$TESTTMP/files")" -gt 50 ] || fail "found too few files to check in $top_srcdir"
# (this file names the patterns it looks for, so it is left out)
grep -v '/test_standalone.sh$' "$TESTTMP/files" | tr '\n' '\0' |
    xargs -0 grep -nIE '\.\./shared|/work/(shared|main)|shared/(seeds|reference)|PLATFORM\.md|DESIGN\.md' \
    >"$TESTTMP/hits" 2>/dev/null || true
[ ! -s "$TESTTMP/hits" ] || { cat "$TESTTMP/hits" >&2; fail "paths outside the project (above)"; }
# the reference data the gcrm tests need is here, and they use it by default
for f in inputs/ZGrd.desc inputs/zgrd.in.r7 headers-level3-groups/file-sizes.txt headers-level4/CP.lyr/grid.nc.hdr; do
    [ -s "tests/gcrm/original/$f" ] || fail "tests/gcrm/original/$f is missing"
done
case "${GCRM_REFERENCE:-}" in
    */tests/gcrm/original) ;;
    *) fail "GCRM_REFERENCE defaults to '${GCRM_REFERENCE:-}', not the tree's tests/gcrm/original" ;;
esac
pass
