#!/bin/sh
# The sweep's handling of base parameter files: the base-file fuzzer's corpus
# (tests/fuzz/corpus/sweepbase) replayed through the sweep and engine_exercise
# --print_params (its own test: every input costs a few kernel runs).
. "$top_srcdir/tests/scripts/pytest_wrapper.sh"
run_pytest "$top_srcdir/tests/scripts/test_sweepbase_fuzz_corpus.py"
