# tests for scripts: climio-sweep, with pytest (tests/scripts/*.py) run through
# two shell wrappers so a missing Slurm shows as its own SKIP.
TESTS += tests/scripts/test_sweep.sh tests/scripts/test_sweep_slurm.sh tests/scripts/test_sweepbase.sh \
  tests/scripts/test_sweep_products.sh
# every subcommand over damaged sweep folders (no traceback); needs neither pytest nor matplotlib
TESTS += tests/scripts/test_sweep_corrupt.sh
# the bench scripts' flags, adversarial (no traceback)
TESTS += tests/scripts/test_bench_args.sh
# check-docs (make check-docs) on documents made for it, and the markers of README.md and doc/*.md
TESTS += tests/scripts/test_check_docs.sh
EXTRA_DIST += tests/scripts/test_check_docs.sh tests/scripts/check_docs/good.md tests/scripts/check_docs/unmarked.md \
  tests/scripts/check_docs/failing.md tests/scripts/check_docs/timeout.md tests/scripts/check_docs/missing.md \
  tests/scripts/check_docs/makes.md tests/scripts/check_docs/shipped.md tests/scripts/check_docs/badmarker.md
EXTRA_DIST += tests/scripts/test_bench_args.sh
# bench-ior without IOR: IOR's captured outputs parsed, the climio side with real runs
TESTS += tests/scripts/test_bench_ior.sh
EXTRA_DIST += tests/scripts/test_bench_ior.sh tests/scripts/test_bench_ior.py \
  tests/scripts/ior_output/mpiio-collective-fsync-3files.txt tests/scripts/ior_output/ncmpi-warnings-2files.txt \
  tests/scripts/ior_output/mpiio-cannot-open.txt
EXTRA_DIST += tests/scripts/test_sweep_corrupt.sh tests/scripts/sweep_corrupt_corpus.py
EXTRA_DIST += tests/scripts/test_sweep.sh tests/scripts/test_sweep_slurm.sh tests/scripts/pytest_wrapper.sh \
  tests/scripts/conftest.py tests/scripts/local_slurm.py tests/scripts/test_local.py \
  tests/scripts/test_resume.py tests/scripts/test_pbs.py tests/scripts/test_sweepfile_errors.py \
  tests/scripts/test_slurm.py tests/scripts/test_report.py tests/scripts/test_sweepfile_fuzz_corpus.py \
  tests/scripts/test_kernel_params.py tests/scripts/test_bench_runner.py tests/scripts/test_report_spread.py \
  tests/scripts/test_sweepbase.sh tests/scripts/test_sweepbase_fuzz_corpus.py \
  tests/scripts/test_compression_sweep.py tests/scripts/test_sweep_products.sh tests/scripts/test_sweep_order.py \
  tests/scripts/test_report_labels.py tests/scripts/test_bench_interrupt.py tests/scripts/test_report_browser.py \
  tests/scripts/test_sweep_warmup.py tests/scripts/test_sweep_default_hints.py tests/scripts/test_sweep_output_folder.py \
  tests/scripts/test_sweep_guards.py tests/scripts/test_report_figures.py tests/scripts/test_sweep_compare.py \
  tests/scripts/test_sweep_provenance.py
# the sweep-file fuzz target (atheris, run by scripts/fuzz), which the test above
# replays its corpus (tests/fuzz/corpus, distributed whole) through
EXTRA_DIST += tests/fuzz/fuzz_sweepfile.py
# the base-file fuzz target (the sweep + the kernel's --print_params), replayed by test_sweepbase.sh
EXTRA_DIST += tests/fuzz/fuzz_sweepbase.py
