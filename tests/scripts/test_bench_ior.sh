#!/bin/sh
# bench-ior without IOR: IOR's printed results read from captured outputs (rows,
# summary, warnings between rows, unfinished runs, IOR's ERROR line), the climio
# side with real engine_exercise runs (the dry run's IOR line, the run's figures)
# and the report and JSON of the rounds.
. "$top_srcdir/tests/scripts/pytest_wrapper.sh"
run_pytest "$top_srcdir/tests/scripts/test_bench_ior.py"
