# make check: unit tests, MPI runs at 1-4 ranks, error cases.
TEST_EXTENSIONS = .sh
# the tests' environment, remade when tests/env.sh.in changes (nothing else needs it)
check_DATA = tests/env.sh
# each log ends with the test's wall time (scripts/test-times tabulates them)
SH_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/timed.sh $(SHELL)
LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/timed.sh
AM_TESTS_ENVIRONMENT = . $(top_builddir)/tests/env.sh;

check_PROGRAMS += tests/test_aggregate_boxes tests/test_params tests/test_pattern tests/test_stats tests/test_json tests/test_hostlist tests/test_repeat
tests_test_aggregate_boxes_SOURCES = tests/test_aggregate_boxes.c tests/check.h
tests_test_aggregate_boxes_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_params_SOURCES = tests/test_params.c tests/check.h
tests_test_params_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
# the pattern fill benchmark (doc/internals.md): built by `make`
noinst_PROGRAMS += tests/bench_fill
tests_bench_fill_SOURCES = tests/bench_fill.c
tests_bench_fill_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_pattern_SOURCES = tests/test_pattern.c tests/check.h
tests_test_pattern_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_stats_SOURCES = tests/test_stats.c tests/check.h
tests_test_stats_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_json_SOURCES = tests/test_json.c
tests_test_hostlist_SOURCES = tests/test_hostlist.c tests/check.h
tests_test_hostlist_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_repeat_SOURCES = tests/test_repeat.c tests/check.h
tests_test_repeat_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_json_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

TESTS += tests/test_aggregate_boxes tests/test_engine_split.sh tests/test_params tests/test_pattern tests/test_stats.sh tests/test_json.sh tests/test_engine_null.sh \
	tests/test_dryrun.sh tests/test_dryrun_classes.sh tests/test_bench_fill.sh tests/test_scale_memory.sh tests/test_aggregate.sh tests/test_bench_aggregation.sh tests/test_read.sh tests/test_large_sizes.sh \
	tests/test_strict_inputs.sh tests/test_env_shared.sh
EXTRA_DIST += tests/lib.sh tests/plan_same.py tests/timed.sh tests/test_engine_split.sh tests/test_stats.sh tests/test_json.sh tests/test_engine_null.sh tests/test_dryrun.sh tests/test_dryrun_classes.sh tests/test_bench_fill.sh tests/test_scale_memory.sh tests/test_aggregate.sh tests/test_bench_aggregation.sh tests/test_read.sh tests/test_large_sizes.sh \
	tests/test_strict_inputs.sh tests/test_env_shared.sh
# issue 15's reliability classes: strict inputs, shared environment, claimed outputs
TESTS += tests/test_outputs_claim.sh tests/test_verify_layout.sh tests/test_paths_registry.sh tests/test_lock_owner.sh tests/test_names.sh tests/test_chunking_said.sh tests/test_inapplicable_settings.sh tests/test_applicability.sh tests/test_applicability_kernels.sh tests/test_hint_ranges.sh tests/test_command_line_json.sh tests/test_ranks_same_args.sh tests/test_exercise_claims.sh
# rewrites a variable of a netCDF-4 or HDF5 file with another type or shape (test_verify_layout.sh)
check_PROGRAMS += tests/alter_var
tests_alter_var_SOURCES = tests/alter_var.c
tests_alter_var_CPPFLAGS = $(AM_CPPFLAGS) $(NETCDF_CFLAGS) $(HDF5_CFLAGS)
tests_alter_var_LDADD = $(CLIMIO_IO_LIBADD)
EXTRA_DIST += tests/test_outputs_claim.sh tests/test_verify_layout.sh tests/test_paths_registry.sh tests/test_lock_owner.sh tests/test_names.sh tests/test_chunking_said.sh tests/test_inapplicable_settings.sh tests/test_applicability.sh tests/test_applicability_kernels.sh tests/test_hint_ranges.sh tests/test_command_line_json.sh tests/applicability_walk.py tests/applicability_walk.sh tests/test_ranks_same_args.sh tests/test_exercise_claims.sh
# the output folder's names from each kernel's descriptor (mom_combine: mom_io's)
TESTS += tests/test_output_folder_names.sh
EXTRA_DIST += tests/test_output_folder_names.sh
# every program through the kernel descriptor starts alike (--help, --version, --print_params, JSON, registry)
TESTS += tests/test_programs_alike.sh
EXTRA_DIST += tests/test_programs_alike.sh
# the layers of src/lib, kernels that include no other kernel, no circle between files
TESTS += tests/test_layers.sh
EXTRA_DIST += tests/test_layers.sh
# doc/internals.md's recipes followed for real: a driver (a copy of the tree, built), a kernel
# parameter and a common setting (copies of the files they touch, compiled as the build does)
TESTS += tests/test_driver_template.sh tests/test_recipe_parameter.sh tests/test_recipe_setting.sh
EXTRA_DIST += tests/test_driver_template.sh tests/test_recipe_parameter.sh tests/test_recipe_setting.sh tests/recipe_build.sh
# publishable results (issue 21): durable writes, run context, host ranges, repetitions
TESTS += tests/test_exercise_ior.sh
EXTRA_DIST += tests/test_exercise_ior.sh
TESTS += tests/test_hostlist tests/test_repeat tests/test_fsync.sh tests/test_context.sh tests/test_repetitions.sh \
  tests/test_what_ran.sh \
  tests/test_print_params_io.sh
EXTRA_DIST += tests/test_fsync.sh tests/test_context.sh tests/test_repetitions.sh tests/test_what_ran.sh \
  tests/test_print_params_io.sh
# the version and commit configure records (a copy without .git, a release tarball)
TESTS += tests/test_source_version.sh
EXTRA_DIST += tests/test_source_version.sh
# bin/: a link to every program and script, which reach their package and the tree through it
TESTS += tests/test_bin_links.sh
EXTRA_DIST += tests/test_bin_links.sh


# the fuzz targets, replayed over their corpus without libFuzzer
check_PROGRAMS += tests/fuzz_params_replay tests/fuzz_hints_replay tests/fuzz_gcrm_desc_replay tests/fuzz_gcrm_fcfg_replay
tests_fuzz_params_replay_SOURCES = tests/fuzz/fuzz_params.c tests/fuzz/replay_main.c
tests_fuzz_params_replay_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_fuzz_hints_replay_SOURCES = tests/fuzz/fuzz_hints.c tests/fuzz/replay_main.c
tests_fuzz_hints_replay_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_fuzz_gcrm_desc_replay_SOURCES = tests/fuzz/fuzz_gcrm_desc.c tests/fuzz/replay_main.c
tests_fuzz_gcrm_desc_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_fuzz_gcrm_desc_replay_LDADD = src/gcrm/libgcrm.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_fuzz_gcrm_fcfg_replay_SOURCES = tests/fuzz/fuzz_gcrm_fcfg.c tests/fuzz/replay_main.c
tests_fuzz_gcrm_fcfg_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/gcrm
tests_fuzz_gcrm_fcfg_replay_LDADD = src/gcrm/libgcrm.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
# mom_io's and pfio_io's parameter handling end to end (the parser, then the kernel's own checks)
check_PROGRAMS += tests/fuzz_mom_params_replay tests/fuzz_pfio_params_replay
tests_fuzz_mom_params_replay_SOURCES = tests/fuzz/fuzz_mom_params.c tests/fuzz/replay_main.c src/mom/mom_config.c
tests_fuzz_mom_params_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/mom
tests_fuzz_mom_params_replay_LDADD = src/mom/libmom_model.a src/grids/libcio_grids.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_fuzz_pfio_params_replay_SOURCES = tests/fuzz/fuzz_pfio_params.c tests/fuzz/replay_main.c
tests_fuzz_pfio_params_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/pfio
tests_fuzz_pfio_params_replay_LDADD = src/pfio/libpfio.a $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
check_PROGRAMS += tests/fuzz_dmap_text_replay
tests_fuzz_dmap_text_replay_SOURCES = tests/fuzz/fuzz_dmap_text.c tests/fuzz/replay_main.c
tests_fuzz_dmap_text_replay_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/decomp
tests_fuzz_dmap_text_replay_LDADD = $(DMAP_LIBS)
TESTS += tests/test_fuzz_corpus.sh
EXTRA_DIST += tests/test_fuzz_corpus.sh tests/fuzz/corpus tests/fuzz/fuzz_text.h tests/lsan.supp

# each kernel at one rank under valgrind's memcheck (leaks included)
TESTS += tests/test_valgrind.sh
EXTRA_DIST += tests/test_valgrind.sh tests/valgrind.supp
EXTRA_DIST += scripts/fuzz

# `make check-sanitizers` (Makefile.am) runs, in an ASan + UBSan build, the tests
# marked "# sanitizers: yes" (a script) or "/* sanitizers: yes */" (a C test) near
# their top, as tests/sanitizer-tests.sh finds them: the unit tests, the parsers'
# fuzz corpora, the engine, every driver and its faults, aggregation, reads, the
# planner at the largest sizes, and each kernel's runs and bad inputs.  Left
# unmarked, for time (CI runs both suites): the benchmark scripts' tests and the
# Python sweep tests (they run the same kernels again), the null-driver repeats of
# the MOM patterns and the GCRM iotypes over PnetCDF (their paths run in
# test_mom_files and drivers/test_pnetcdf), and valgrind, which cannot run
# sanitized programs.  tests/test_sanitizer_markers.sh checks the markers.
SANITIZER_TESTS =
EXTRA_DIST += tests/sanitizer-tests.sh
TESTS += tests/test_sanitizer_markers.sh
EXTRA_DIST += tests/test_sanitizer_markers.sh

# the project stands alone: no path outside the tree, the reference data inside it
# the dependency builders refuse an argument that is not --cache or one prefix
TESTS += tests/test_dep_builders_args.sh
EXTRA_DIST += tests/test_dep_builders_args.sh
# every kernel x driver x format: output bytes against tests/golden/outputs.sha256
TESTS += tests/test_golden.sh
EXTRA_DIST += tests/test_golden.sh tests/golden/outputs.sha256 tests/golden/h5dump_dims.awk

TESTS += tests/test_standalone.sh
EXTRA_DIST += tests/test_standalone.sh

# every kernel x driver x format: files netCDF4-python and xarray open
TESTS += tests/test_clients.sh
EXTRA_DIST += tests/test_clients.sh tests/clients_open.py
# the common settings' resolution (src/lib/app/settings.c)
check_PROGRAMS += tests/test_settings
tests_test_settings_SOURCES = tests/test_settings.c tests/check.h
tests_test_settings_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/test_settings

# the launcher chosen one way: environment, make's command line, configure; scripts' oversubscription flag
TESTS += tests/test_launcher.sh
EXTRA_DIST += tests/test_launcher.sh
# configure with two MPIs on the machine: the launcher of CC's MPI, a library of the other refused
TESTS += tests/test_configure_mpi.sh
EXTRA_DIST += tests/test_configure_mpi.sh
# configure with an explicit --with-X=PREFIX it cannot use: stops, naming what the prefix lacks
TESTS += tests/test_configure_prefix.sh
EXTRA_DIST += tests/test_configure_prefix.sh

# `make check-mpich` (Makefile.am, CI's third pass) runs these in a build with
# MPICH, at 2 ranks or fewer (MPICH's ranks busy-poll: 4 on 2 cores run about
# 15x slower): test_golden, every kernel x driver x format built, compared with
# the golden list the Open MPI build must match too (so byte-identical files
# across the two MPIs: h5dump's text for plain HDF5); the drivers' own tests;
# mom_io's fallback without the netcdf driver; what depends on the MPI (run
# context, launcher, configure's MPI checks, spawn).  Left out for time: the rest,
# which the Open MPI pass runs; valgrind (about 4 minutes) and decomp/test_decomp_io
# (2 minutes) pass with MPICH too (make check TESTS=... in _mpich/build).
MPICH_TESTS = tests/test_aggregate_boxes tests/test_params tests/test_pattern tests/test_golden.sh \
	tests/test_context.sh tests/test_launcher.sh tests/test_configure_mpi.sh \
	tests/drivers/test_mpiio.sh tests/drivers/test_hdf5.sh \
	tests/mom/test_mom_single_writer_fallback.sh tests/pfio/test_pfio_multilayer.sh
