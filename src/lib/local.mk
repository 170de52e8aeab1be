# libclimio: parameters, plan (schema/decomposition), engine, statistics, reports.
noinst_LIBRARIES += src/lib/libclimio.a src/lib/libcio_io.a
src_lib_libclimio_a_SOURCES = \
	src/lib/util.c src/lib/util.h src/lib/types.h \
	src/lib/params.c src/lib/params.h \
	src/lib/hints.c src/lib/hints.h \
	src/lib/pattern.c src/lib/pattern.h \
	src/lib/schema.c src/lib/schema.h \
	src/lib/stats.c src/lib/stats.h \
	src/lib/json.c src/lib/json.h \
	src/lib/engine.c src/lib/engine.h \
	src/lib/aggregate.c src/lib/aggregate.h \
	src/lib/app.c src/lib/app.h src/lib/dryrun.c \
	src/lib/driver.h

# The drivers: one file per storage library, one table (drivers.c).  Each library
# header is included by its own driver file only (pnetcdf.h and netcdf.h clash).
src_lib_libcio_io_a_CPPFLAGS = $(AM_CPPFLAGS) $(PNETCDF_CFLAGS) $(NETCDF_CFLAGS) $(HDF5_CFLAGS) $(ADIOS2_CFLAGS)
src_lib_libcio_io_a_SOURCES = src/lib/drivers.c src/lib/io_null.c src/lib/io_mpiio.c \
	src/lib/io_util.c src/lib/io_util.h
if HAVE_PNETCDF
src_lib_libcio_io_a_SOURCES += src/lib/io_pnetcdf.c
endif
if HAVE_NETCDF
src_lib_libcio_io_a_SOURCES += src/lib/io_netcdf.c
endif
if HAVE_HDF5
src_lib_libcio_io_a_SOURCES += src/lib/io_hdf5.c
endif
# adios2 (issue 11): only with ./configure --with-adios2=DIR (scripts/build-adios2)
if HAVE_ADIOS2
src_lib_libcio_io_a_SOURCES += src/lib/io_adios2.c src/lib/io_adios2.h
endif

# what each driver calls, options, errors, the measured driver comparison
dist_doc_DATA += doc/drivers.md
