#!/bin/sh
# What the sweep and the bench scripts hand a reader: the run order interleaved
# (or shuffled from a recorded seed), warm-up rounds run first and left out of
# the results, and the points that run as another iotype, said before any run;
# the hints' defaults in the CSV; figures and the page labelled with what ran, the context
# banner, full legends, the PNG resolution, axis labels in words; "best" and
# "faster" only from the stated test; a bench script's progress, warm-up and
# Ctrl-C (partial table, exit 130, no traceback) with real gcrm_io runs; the
# page in a headless browser (chromium-headless-shell): no broken image, no console error;
# each figure's texts (every repetition drawn, plain decimals, one time unit, phases that
# add up, the imbalance run's rule, one category order, the subtitle's workload, host,
# dates and load); every point against every other; two sweeps compared (a verdict that
# holds, one that flips) and pooled; the load and the provenance in results.csv.
. "$top_srcdir/tests/scripts/pytest_wrapper.sh"
d="$top_srcdir/tests/scripts"
run_pytest "$d/test_sweep_order.py" "$d/test_sweep_warmup.py" "$d/test_sweep_default_hints.py" "$d/test_report_labels.py" \
  "$d/test_bench_interrupt.py" "$d/test_report_browser.py" "$d/test_report_figures.py" "$d/test_sweep_compare.py" \
  "$d/test_sweep_provenance.py"
