# Model-like data (its compression: tests/drivers/test_compress.sh); HDF5 dimension scales.
TESTS += tests/data/test_model_data.sh tests/data/test_hdf5_dimscales.sh
EXTRA_DIST += tests/data/test_model_data.sh tests/data/test_hdf5_dimscales.sh
