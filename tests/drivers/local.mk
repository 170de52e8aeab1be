# make check: the I/O drivers (issue 3).  Each test builds its own files in
# tests/tmp/<test>; the plans are small (tens of KiB) so the whole set stays
# within a couple of minutes on two busy cores.
DRIVER_TESTS = tests/drivers/test_pnetcdf.sh tests/drivers/test_netcdf.sh tests/drivers/test_hdf5.sh \
	tests/drivers/test_mpiio.sh tests/drivers/test_cross.sh \
	tests/drivers/test_errors.sh tests/drivers/test_bench.sh tests/drivers/test_raw_names.sh \
	tests/drivers/test_compress.sh tests/drivers/test_bench_compress.sh
TESTS += $(DRIVER_TESTS)
EXTRA_DIST += $(DRIVER_TESTS) tests/drivers/common.sh tests/drivers/rawcheck.py
# every pair of filter settings x data kinds, one test per kernel (make check-matrix: the whole product)
FILTER_PAIR_TESTS = tests/drivers/test_filter_pairs_gcrm.sh tests/drivers/test_filter_pairs_mom.sh \
	tests/drivers/test_filter_pairs_pfio.sh tests/drivers/test_filter_pairs_decomp.sh \
	tests/drivers/test_filter_pairs_exercise.sh
TESTS += $(FILTER_PAIR_TESTS)
EXTRA_DIST += $(FILTER_PAIR_TESTS) tests/drivers/filter_pairs.sh tests/drivers/filter_matrix.py
# test_bench runs scripts/bench-drivers on the built engine_exercise
