# Model-like data, compression and quantization (issue 18); HDF5 dimension scales.
TESTS += tests/data/test_model_data.sh tests/data/test_compress.sh tests/data/test_hdf5_dimscales.sh tests/data/test_bench_compress.sh
EXTRA_DIST += tests/data/test_model_data.sh tests/data/test_compress.sh tests/data/test_hdf5_dimscales.sh tests/data/test_bench_compress.sh
