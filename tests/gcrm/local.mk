# tests for gcrm_io
check_PROGRAMS += tests/gcrm/test_gcrm_grid
tests_gcrm_test_gcrm_grid_SOURCES = tests/gcrm/test_gcrm_grid.c tests/check.h
tests_gcrm_test_gcrm_grid_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_gcrm_test_gcrm_grid_LDADD = src/gcrm/libgcrm.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/gcrm/test_gcrm_grid
