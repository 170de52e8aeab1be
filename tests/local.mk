# make check: unit tests, MPI runs at 1-4 ranks, error cases.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = . $(top_builddir)/tests/env.sh;

check_PROGRAMS += tests/test_boxes tests/test_params tests/test_pattern tests/test_stats tests/test_json
# built by `make`, not only `make check`: scripts/bench-drivers runs it
# the synthetic plan of the driver and aggregation benchmarks: installed beside them
bin_PROGRAMS += tests/engine_exercise
tests_test_boxes_SOURCES = tests/test_boxes.c tests/check.h
tests_test_boxes_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_params_SOURCES = tests/test_params.c tests/check.h
tests_test_params_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_pattern_SOURCES = tests/test_pattern.c tests/check.h
tests_test_pattern_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_stats_SOURCES = tests/test_stats.c tests/check.h
tests_test_stats_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_test_json_SOURCES = tests/test_json.c
tests_test_json_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_engine_exercise_SOURCES = tests/engine_exercise.c
tests_engine_exercise_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)

TESTS += tests/test_boxes tests/test_params tests/test_pattern tests/test_stats.sh tests/test_json.sh tests/test_engine_null.sh \
	tests/test_dryrun.sh tests/test_aggregate.sh tests/test_bench_aggregation.sh tests/test_read.sh tests/test_large_sizes.sh
EXTRA_DIST += tests/lib.sh tests/test_stats.sh tests/test_json.sh tests/test_engine_null.sh tests/test_dryrun.sh tests/test_aggregate.sh tests/test_bench_aggregation.sh tests/test_read.sh tests/test_large_sizes.sh


# the fuzz targets, replayed over their corpus without libFuzzer
check_PROGRAMS += tests/fuzz_params_replay tests/fuzz_hints_replay
tests_fuzz_params_replay_SOURCES = tests/fuzz/fuzz_params.c tests/fuzz/replay_main.c
tests_fuzz_params_replay_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
tests_fuzz_hints_replay_SOURCES = tests/fuzz/fuzz_hints.c tests/fuzz/replay_main.c
tests_fuzz_hints_replay_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
TESTS += tests/test_fuzz_corpus.sh
EXTRA_DIST += tests/test_fuzz_corpus.sh tests/fuzz/corpus tests/lsan.supp
EXTRA_DIST += scripts/fuzz
