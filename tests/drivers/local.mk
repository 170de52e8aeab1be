# make check: the I/O drivers (issue 3).  Each test builds its own files in
# tests/tmp/<test>; the plans are small (tens of KiB) so the whole set stays
# within a couple of minutes on two busy cores.
DRIVER_TESTS = tests/drivers/test_pnetcdf.sh tests/drivers/test_netcdf.sh tests/drivers/test_hdf5.sh \
	tests/drivers/test_mpiio.sh tests/drivers/test_cross.sh \
	tests/drivers/test_errors.sh tests/drivers/test_bench.sh tests/drivers/test_raw_names.sh \
	tests/drivers/test_compress.sh tests/drivers/test_bench_compress.sh
TESTS += $(DRIVER_TESTS)
EXTRA_DIST += $(DRIVER_TESTS) tests/drivers/common.sh tests/drivers/rawcheck.py
# test_bench runs scripts/bench-drivers on the built engine_exercise
