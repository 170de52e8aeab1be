# Shared by the adios2 tests: skip without ADIOS2, the programs, bpls.
. "$top_srcdir/tests/lib.sh"
set -e
# ./setup check builds ADIOS2 and sets CLIMIO_REQUIRE_ADIOS2=1: there a missing
# driver is a failure, not a skip
no_adios2() {
    [ "${CLIMIO_REQUIRE_ADIOS2:-0}" = 1 ] && fail "$1 (CLIMIO_REQUIRE_ADIOS2=1)"
    skip "$1"
}
have_driver adios2 || no_adios2 "configure found no ADIOS2 (./configure --with-adios2=DIR; scripts/build-adios2 builds one)"
[ -n "${BPLS:-}" ] || no_adios2 "bpls (ADIOS2's listing tool) was not found beside the library"
exercise="$top_builddir/src/exercise/engine_exercise"
bp2nc="$top_builddir/src/bp2nc/climio_bp2nc"
cd "$TESTTMP"

# json_is FILE EXPR VALUE WHAT: a JSON value must be VALUE
json_is() {
    got=$(json_get "$1" "$2")
    [ "$got" = "$3" ] || fail "$4: $2 is '$got', expected '$3' ($1)"
}
# same_sums A.json B.json WHAT: the per-variable checksums of two runs are equal
same_sums() {
    same=$("$PYTHON" -c 'import json,sys; a=json.load(open(sys.argv[1]))["checksums"]; b=json.load(open(sys.argv[2]))["checksums"]; print(a==b and len(a)>0)' "$1" "$2")
    [ "$same" = True ] || fail "$3: checksums of $1 and $2 differ"
}
# same_nc A B WHAT: byte-identical netCDF files (ncmpidiff first, for its message)
same_nc() {
    if [ -n "$NCMPIDIFF" ]; then
        "$NCMPIDIFF" "$1" "$2" >diff.txt 2>&1 || { cat diff.txt; fail "$3: $1 and $2 differ (ncmpidiff)"; }
    fi
    cmp "$1" "$2" || fail "$3: $1 and $2 are not the same bytes"
}
