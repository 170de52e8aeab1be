#!/bin/sh
# climio-sweep here: the sample sweep end to end (runs, collect's CSV against the
# runs' JSON, report PNGs and HTML), resuming after Ctrl-C and kill -9, failed
# runs, PBS scripts run as PBS would, every kind of bad sweep file, the kernel
# asked about the parameters (--print_params) with real gcrm_io runs, the bench
# runner, the report's spread and no-clear-winner rules on synthetic results, and the
# sweep-file fuzz corpus (tests/fuzz/corpus/sweepfile) replayed; a compression sweep
# (ratio, filter settings and the time compression added, collected and plotted); the
# output folder and plan.json guarded, and a failed run's own error line relayed.
. "$top_srcdir/tests/scripts/pytest_wrapper.sh"
d="$top_srcdir/tests/scripts"
run_pytest "$d/test_local.py" "$d/test_report.py" "$d/test_resume.py" "$d/test_pbs.py" "$d/test_sweepfile_errors.py" \
  "$d/test_sweepfile_fuzz_corpus.py" "$d/test_kernel_params.py" "$d/test_bench_runner.py" "$d/test_report_spread.py" \
  "$d/test_compression_sweep.py" "$d/test_sweep_output_folder.py" "$d/test_sweep_guards.py"
