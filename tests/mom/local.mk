# mom_io and mom_combine: decomposition unit test, null-driver runs of every
# pattern at 1-4 ranks, real files compared across patterns, error cases.
check_PROGRAMS += tests/mom/test_mom_domain
tests_mom_test_mom_domain_SOURCES = tests/mom/test_mom_domain.c src/mom/mom_config.c
tests_mom_test_mom_domain_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/mom
tests_mom_test_mom_domain_LDADD = src/mom/libmom_model.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/mom/test_mom_domain
TESTS += tests/mom/test_mom_null.sh
EXTRA_DIST += tests/mom/test_mom_null.sh tests/mom/mom_expect.py
TESTS += tests/mom/test_mom_files.sh tests/mom/test_mom_combine_errors.sh
EXTRA_DIST += tests/mom/test_mom_files.sh tests/mom/test_mom_combine_errors.sh
TESTS += tests/mom/test_bench_mom.sh tests/mom/test_mom_fms.sh tests/mom/test_mom_combine_mpp.sh tests/mom/test_mom_combine_opts.sh
EXTRA_DIST += tests/mom/test_bench_mom.sh tests/mom/test_mom_fms.sh tests/mom/test_mom_combine_mpp.sh \
	tests/mom/test_mom_combine_opts.sh
# mom_io's serial single writer in a build without the netcdf driver (CI's MPICH build)
TESTS += tests/mom/test_mom_single_writer_fallback.sh
EXTRA_DIST += tests/mom/test_mom_single_writer_fallback.sh
# mom_io beside what FMS itself wrote (scripts/peer-fms's findings, no FMS needed)
TESTS += tests/mom/test_mom_as_fms.sh
EXTRA_DIST += tests/mom/test_mom_as_fms.sh tests/mom/expected/fms-sets.txt tests/mom/expected/fms-ocean.nc.0001.cdl
TESTS += tests/mom/test_peer_fms_args.sh tests/mom/test_peer_fms_compare.sh
EXTRA_DIST += tests/mom/test_peer_fms_args.sh tests/mom/test_peer_fms_compare.sh
