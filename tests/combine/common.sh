# Sourced by the tests of mom_combine's FRE-NCtools form: the suite's helpers,
# the tools they need (ncdump, ncgen, a netCDF-C build), the program and the
# maker of FMS sets.
. "$top_srcdir/tests/lib.sh"
[ -n "$NCDUMP" ] && command -v ncgen >/dev/null || skip "ncdump and ncgen are needed"
have_driver netcdf || skip "mom_combine was built without netCDF-C"
comb="$top_builddir/src/combine/mom_combine"
sets="$top_srcdir/tests/combine/fms_sets.py"
