# The preamble of decomp_io's tests that read netCDF maps and log PnetCDF calls:
# tests/lib.sh, the programs, PnetCDF (skip without it), the test's scratch
# folder.  need_call_logger: tests/decomp/pnc_calls.so in SHIM, or skip (a
# build with sanitizers cannot preload another library in front of its runtime).
. "$top_srcdir/tests/lib.sh"
set -e
X="$top_builddir/src/decomp/decomp_io"
T="$top_builddir/tests/decomp/dmap_tool"
D="$top_srcdir/tests/decomp/data"
SHIM="$top_builddir/tests/decomp/pnc_calls.so"
have_driver pnetcdf || skip "built without PnetCDF"
need_call_logger() {
    [ -f "$SHIM" ] || skip "tests/decomp/pnc_calls.so was not built"
    case "${LD_PRELOAD:-}${SANITIZER_FLAGS:-}" in
    ?*) skip "a sanitizer build or another preloaded library (the call logger must be preloaded alone)" ;;
    esac
}
cd "$TESTTMP"
