# engine_exercise: the synthetic plan (a record coordinate, a float and a double
# 4-D variable) the driver and aggregation benchmarks and many tests run; a
# program users run, so it is built by `make` and installed beside the scripts.
bin_PROGRAMS += src/exercise/engine_exercise
src_exercise_engine_exercise_SOURCES = src/exercise/engine_exercise.c src/exercise/exercise_ior.c src/exercise/exercise_ior.h
src_exercise_engine_exercise_LDADD = $(CLIMIO_LIBS) $(CLIMIO_IO_LIBADD)
