# make check: the adios2 driver and climio_bp2nc (issue 11).  Every test skips
# (exit 77) when configure found no ADIOS2; bpls comes from configure.
ADIOS2_TESTS = tests/adios2/test_adios2_driver.sh tests/adios2/test_adios2_records.sh \
	tests/adios2/test_bp2nc.sh tests/adios2/test_bp2nc_bad_input.sh \
	tests/adios2/test_adios2_kernels.sh tests/adios2/test_bench_adios2.sh
TESTS += $(ADIOS2_TESTS)
EXTRA_DIST += $(ADIOS2_TESTS) tests/adios2/common.sh tests/adios2/bp_records.c
AM_TESTS_ENVIRONMENT += BPLS='$(BPLS)'; export BPLS;
if HAVE_ADIOS2
check_PROGRAMS += tests/adios2/bp_records
tests_adios2_bp_records_SOURCES = tests/adios2/bp_records.c
tests_adios2_bp_records_CPPFLAGS = $(AM_CPPFLAGS) $(ADIOS2_CFLAGS)
tests_adios2_bp_records_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
endif
