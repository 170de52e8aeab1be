# tests for gcrm_io.  GCRM_REFERENCE: GCRM-IO's own input files and the headers of
# its runs (tests/gcrm/original, see its README); a user may point it elsewhere.
AM_TESTS_ENVIRONMENT += : $${GCRM_REFERENCE:=$(abs_top_srcdir)/tests/gcrm/original}; export GCRM_REFERENCE;
EXTRA_DIST += tests/gcrm/original

check_PROGRAMS += tests/gcrm/test_gcrm_grid tests/gcrm/test_gcrm_inputs
tests_gcrm_test_gcrm_grid_SOURCES = tests/gcrm/test_gcrm_grid.c tests/check.h
tests_gcrm_test_gcrm_grid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_gcrm_test_gcrm_grid_LDADD = src/gcrm/libgcrm.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_gcrm_test_gcrm_inputs_SOURCES = tests/gcrm/test_gcrm_inputs.c tests/check.h
tests_gcrm_test_gcrm_inputs_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_gcrm_test_gcrm_inputs_LDADD = src/gcrm/libgcrm.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
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
TESTS += tests/gcrm/test_gcrm_driver_adjust.sh
EXTRA_DIST += tests/gcrm/test_gcrm_driver_adjust.sh
TESTS += tests/gcrm/test_gcrm_timing_window.sh
EXTRA_DIST += tests/gcrm/test_gcrm_timing_window.sh
