# tests for gcrm_io.  GCRM_REFERENCE: GCRM-IO's inputs and headers (SPEC.md's folder):
# by default shared/reference/gcrm-original beside the source tree, else under /work;
# the tests that compare with them skip when it is absent.
AM_TESTS_ENVIRONMENT += : $${GCRM_REFERENCE:=`cd $(abs_top_srcdir)/../shared/reference/gcrm-original 2>/dev/null && pwd || echo /work/shared/reference/gcrm-original`}; export GCRM_REFERENCE;

check_PROGRAMS += tests/gcrm/test_gcrm_grid tests/gcrm/test_gcrm_inputs
tests_gcrm_test_gcrm_grid_SOURCES = tests/gcrm/test_gcrm_grid.c tests/check.h
tests_gcrm_test_gcrm_grid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_gcrm_test_gcrm_grid_LDADD = src/gcrm/libgcrm.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_gcrm_test_gcrm_inputs_SOURCES = tests/gcrm/test_gcrm_inputs.c tests/check.h
tests_gcrm_test_gcrm_inputs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_gcrm_test_gcrm_inputs_LDADD = src/gcrm/libgcrm.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/gcrm/test_gcrm_grid tests/gcrm/test_gcrm_inputs
TESTS += tests/gcrm/test_gcrm_null.sh
EXTRA_DIST += tests/gcrm/test_gcrm_null.sh
TESTS += tests/gcrm/test_gcrm_errors.sh
EXTRA_DIST += tests/gcrm/test_gcrm_errors.sh
TESTS += tests/gcrm/test_gcrm_original.sh
EXTRA_DIST += tests/gcrm/test_gcrm_original.sh
TESTS += tests/gcrm/test_gcrm_pnetcdf.sh
EXTRA_DIST += tests/gcrm/test_gcrm_pnetcdf.sh
TESTS += tests/gcrm/test_bench_gcrm.sh
EXTRA_DIST += tests/gcrm/test_bench_gcrm.sh
