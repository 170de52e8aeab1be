# The shared core, one static library per layer, each using only the layers
# below it (doc/internals.md): base <- data <- drivers <- engine <- app.
noinst_LIBRARIES += src/lib/libcio_app.a src/lib/libcio_engine.a src/lib/libcio_drivers.a \
	src/lib/libcio_data.a src/lib/libcio_model.a src/lib/libcio_base.a

# base: utilities, errors, the parameter parser, environment, JSON, host lists,
# hints strings, MPI call counting, timers and their statistics
src_lib_libcio_base_a_SOURCES = \
	src/lib/base/env.c \
	src/lib/base/env.h \
	src/lib/base/hints.c \
	src/lib/base/hints.h \
	src/lib/base/hint_status.c \
	src/lib/base/hint_status.h \
	src/lib/base/host_info.c \
	src/lib/base/host_info.h \
	src/lib/base/hostlist.c \
	src/lib/base/hostlist.h \
	src/lib/base/inputs.c \
	src/lib/base/inputs.h \
	src/lib/base/json.c \
	src/lib/base/json.h \
	src/lib/base/mpicount.c \
	src/lib/base/mpicount.h \
	src/lib/base/mpiwait.h \
	src/lib/base/names.c \
	src/lib/base/names.h \
	src/lib/base/params.c \
	src/lib/base/params.h \
	src/lib/base/stats.c \
	src/lib/base/stats.h \
	src/lib/base/types.h \
	src/lib/base/util.c \
	src/lib/base/util.h

# data: the plan's schema, the verification pattern and model-like fields
src_lib_libcio_data_a_SOURCES = \
	src/lib/data/data.c \
	src/lib/data/data.h \
	src/lib/data/pattern.c \
	src/lib/data/pattern.h \
	src/lib/data/schema.c \
	src/lib/data/schema.h
# Model-like data (--data model): its own library so that it alone is built without
# floating-point contraction (no FMA), which would make values depend on the CPU.
src_lib_libcio_model_a_SOURCES = src/lib/data/model_data.c src/lib/data/model_data.h
src_lib_libcio_model_a_CFLAGS = $(AM_CFLAGS) -ffp-contract=off

# drivers: one file per storage library, one table (drivers.c).  Each library
# header is included by its own driver file only (pnetcdf.h and netcdf.h clash).
src_lib_libcio_drivers_a_CPPFLAGS = $(AM_CPPFLAGS) $(PNETCDF_CFLAGS) $(NETCDF_CFLAGS) $(HDF5_CFLAGS) $(ADIOS2_CFLAGS)
src_lib_libcio_drivers_a_SOURCES = \
	src/lib/drivers/compress.c \
	src/lib/drivers/compress.h \
	src/lib/drivers/driver.h \
	src/lib/drivers/driver_common.c \
	src/lib/drivers/drivers.c \
	src/lib/drivers/hdf5_end.c \
	src/lib/drivers/hdf5_end.h \
	src/lib/drivers/io_mpiio.c \
	src/lib/drivers/io_null.c \
	src/lib/drivers/io_util.c \
	src/lib/drivers/io_util.h \
	src/lib/drivers/nc_blksz.c \
	src/lib/drivers/nc_blksz.h \
	src/lib/drivers/storage.c \
	src/lib/drivers/storage.h \
	src/lib/drivers/storage_h5.c \
	src/lib/drivers/sync_closed.c
if HAVE_PNETCDF
src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_pnetcdf.c src/lib/drivers/pnetcdf_end.c src/lib/drivers/pnetcdf_end.h
endif
if HAVE_NETCDF
src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_netcdf.c
endif
if HAVE_HDF5
src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_hdf5.c
endif
# adios2: only with ./configure --with-adios2=DIR (scripts/build-adios2)
if HAVE_ADIOS2
src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_adios2.c src/lib/drivers/bp_layout.c src/lib/drivers/bp_layout.h src/lib/drivers/bp_data_check.c
endif

# engine: plans executed through a driver (files, writes, splitting, aggregation,
# read-back, checksums)
src_lib_libcio_engine_a_SOURCES = \
	src/lib/engine/aggregate.c \
	src/lib/engine/aggregate.h \
	src/lib/engine/piobox.c \
	src/lib/engine/piobox.h \
	src/lib/engine/pioregions.c \
	src/lib/engine/pioregions.h \
	src/lib/engine/engine.c \
	src/lib/engine/engine.h \
	src/lib/engine/engine_agg.c \
	src/lib/engine/engine_checksum.c \
	src/lib/engine/engine_file.c \
	src/lib/engine/engine_int.h \
	src/lib/engine/engine_layout.c \
	src/lib/engine/engine_readback.c \
	src/lib/engine/engine_shared.c \
	src/lib/engine/engine_split.c \
	src/lib/engine/engine_sync_end.c \
	src/lib/engine/engine_write.c

# app: the kernel descriptor, the common settings, reports, JSON, dry runs,
# repetitions, the run context, claimed outputs and the lock
src_lib_libcio_app_a_SOURCES = \
	src/lib/app/app.c \
	src/lib/app/app.h \
	src/lib/app/app_engine.c \
	src/lib/app/settings.c \
	src/lib/app/settings.h \
	src/lib/app/app_finish.c \
	src/lib/app/app_json.c \
	src/lib/app/app_repeat.c \
	src/lib/app/app_agree.c \
	src/lib/app/app_report.c \
	src/lib/app/app_what_ran.c \
	src/lib/app/applicability.c \
	src/lib/app/applicability.h \
	src/lib/app/buildinfo.h \
	src/lib/app/context.c \
	src/lib/app/context.h \
	src/lib/app/dryrun.c \
	src/lib/app/inapplicable.c \
	src/lib/app/ior_equivalent.c \
	src/lib/app/ior_equivalent.h \
	src/lib/app/iotype_effective.c \
	src/lib/app/iotype_effective.h \
	src/lib/app/kernel.c \
	src/lib/app/kernel.h \
	src/lib/app/kernel_facts.h \
	src/lib/app/outputs.c \
	src/lib/app/outputs.h \
	src/lib/app/output_folder.c \
	src/lib/app/output_folder.h \
	src/lib/app/print_params.c \
	src/lib/app/print_params.h \
	src/lib/app/repeat.c \
	src/lib/app/repeat.h
nodist_src_lib_libcio_app_a_SOURCES = src/lib/app/buildinfo.c

# The version (git describe) and commit configure recorded (or the git
# checkout's own at this make), compiler and flags, regenerated at every make but
# rewritten only when they change, so an unchanged build recompiles nothing.
src/lib/app/buildinfo.c: climio-buildinfo-force
	$(AM_V_GEN)$(MKDIR_P) src/lib/app && \
	  $(SHELL) $(srcdir)/src/lib/app/buildinfo.sh '$(srcdir)' '$(PACKAGE_VERSION)' '$(CLIMIO_SOURCE_VERSION)' \
	    '$(CLIMIO_SOURCE_VERSION_ORIGIN)' '$(CLIMIO_SOURCE_COMMIT)' '$(CC)' '$(CFLAGS) $(AM_CFLAGS)' >$@-t && \
	  if cmp -s $@-t $@; then rm -f $@-t; else mv -f $@-t $@; fi
climio-buildinfo-force:
.PHONY: climio-buildinfo-force
CLEANFILES += src/lib/app/buildinfo.c
EXTRA_DIST += src/lib/app/buildinfo.sh src/lib/app/source_version.sh

# a tarball remembers the git version and commit it was made from
dist-hook:
	@info=`$(SHELL) '$(srcdir)/src/lib/app/source_version.sh' '$(srcdir)' '$(PACKAGE_VERSION)'`; \
	  v=`printf '%s\n' "$$info" | sed -n 1p`; c=`printf '%s\n' "$$info" | sed -n 3p`; \
	  test -z "$$v" || echo "$$v" >'$(distdir)/.tarball-version'; \
	  case $$c in unknown:*|'') ;; *) echo "$$c" >'$(distdir)/.tarball-commit' ;; esac

# what each driver calls, options, errors, the measured driver comparison
dist_doc_DATA += doc/drivers.md
