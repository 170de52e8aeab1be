# libclimio: parameters, plan (schema/decomposition), engine, statistics, reports.
noinst_LIBRARIES += src/lib/libclimio.a src/lib/libcio_io.a
src_lib_libclimio_a_SOURCES = \
	src/lib/util.c src/lib/util.h src/lib/types.h \
	src/lib/hdf5_end.c src/lib/hdf5_end.h \
	src/lib/params.c src/lib/params.h \
	src/lib/env.c src/lib/env.h \
	src/lib/outputs.c src/lib/outputs.h \
	src/lib/inapplicable.c \
	src/lib/hints.c src/lib/hints.h \
	src/lib/pattern.c src/lib/pattern.h \
	src/lib/data.c src/lib/data.h \
	src/lib/compress.c src/lib/compress.h \
	src/lib/storage.c src/lib/storage.h \
	src/lib/schema.c src/lib/schema.h \
	src/lib/stats.c src/lib/stats.h \
	src/lib/mpicount.c src/lib/mpicount.h \
	src/lib/json.c src/lib/json.h \
	src/lib/engine.c src/lib/engine.h src/lib/engine_int.h \
	src/lib/engine_file.c src/lib/engine_write.c src/lib/engine_split.c \
	src/lib/engine_agg.c src/lib/engine_readback.c src/lib/engine_checksum.c \
	src/lib/engine_layout.c \
	src/lib/aggregate.c src/lib/aggregate.h \
	src/lib/app.c src/lib/app.h src/lib/app_repeat.c src/lib/dryrun.c src/lib/kernel.c src/lib/kernel.h \
	src/lib/print_params.c src/lib/print_params.h \
	src/lib/context.c src/lib/context.h \
	src/lib/hostlist.c src/lib/hostlist.h \
	src/lib/repeat.c src/lib/repeat.h \
	src/lib/buildinfo.h \
	src/lib/driver.h
nodist_src_lib_libclimio_a_SOURCES = src/lib/buildinfo.c

# The version (git describe), compiler and flags, regenerated at every make but
# rewritten only when they change, so an unchanged build recompiles nothing.
src/lib/buildinfo.c: climio-buildinfo-force
	$(AM_V_GEN)$(MKDIR_P) src/lib && \
	  $(SHELL) $(srcdir)/src/lib/buildinfo.sh '$(srcdir)' '$(PACKAGE_VERSION)' '$(CC)' '$(CFLAGS) $(AM_CFLAGS)' >$@-t && \
	  if cmp -s $@-t $@; then rm -f $@-t; else mv -f $@-t $@; fi
climio-buildinfo-force:
.PHONY: climio-buildinfo-force
CLEANFILES += src/lib/buildinfo.c
EXTRA_DIST += src/lib/buildinfo.sh
# a tarball remembers the git version it was made from
dist-hook:
	@v=`git -C '$(srcdir)' describe --tags --always --dirty 2>/dev/null`; \
	  test -n "$$v" || { test -f '$(srcdir)/.tarball-version' && v=`sed -n 1p '$(srcdir)/.tarball-version'`; }; \
	  test -z "$$v" || echo "$$v" >'$(distdir)/.tarball-version'

# Model-like data (--data model): its own library so that it alone is built without
# floating-point contraction (no FMA), which would make values depend on the CPU.
noinst_LIBRARIES += src/lib/libcio_model.a
src_lib_libcio_model_a_SOURCES = src/lib/model_data.c src/lib/model_data.h
src_lib_libcio_model_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off

# The drivers: one file per storage library, one table (drivers.c).  Each library
# header is included by its own driver file only (pnetcdf.h and netcdf.h clash).
src_lib_libcio_io_a_CPPFLAGS = $(AM_CPPFLAGS) $(PNETCDF_CFLAGS) $(NETCDF_CFLAGS) $(HDF5_CFLAGS) $(ADIOS2_CFLAGS)
src_lib_libcio_io_a_SOURCES = src/lib/storage_h5.c src/lib/drivers.c src/lib/io_null.c src/lib/io_mpiio.c \
	src/lib/io_util.c src/lib/io_util.h src/lib/nc_blksz.c src/lib/nc_blksz.h
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
