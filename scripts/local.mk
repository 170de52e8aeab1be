# sweep and report tools

# climio-sweep (doc/sweep.md): a sh launcher and its Python package.  The
# launcher finds the package beside itself (source tree: scripts/) or in
# $(datadir)/climio/python when installed, so it runs from both.
dist_bin_SCRIPTS += scripts/climio-sweep
climiosweepdir = $(datadir)/climio/python/climio_sweep
dist_climiosweep_DATA = \
  scripts/climio_sweep/__init__.py scripts/climio_sweep/__main__.py scripts/climio_sweep/batch.py \
  scripts/climio_sweep/cli.py scripts/climio_sweep/collect.py scripts/climio_sweep/errors.py \
  scripts/climio_sweep/execute.py scripts/climio_sweep/html.py scripts/climio_sweep/kernel.py \
  scripts/climio_sweep/local.py scripts/climio_sweep/lustre.py scripts/climio_sweep/plan.py \
  scripts/climio_sweep/prepare.py scripts/climio_sweep/report.py scripts/climio_sweep/state.py \
  scripts/climio_sweep/sweepfile.py scripts/climio_sweep/bench.py scripts/climio_sweep/verdict.py \
  scripts/climio_sweep/runs_as.py scripts/climio_sweep/launcher.py \
  scripts/climio_sweep/resultcheck.py scripts/climio_sweep/iocount.py scripts/climio_sweep/ior_output.py \
  scripts/climio_sweep/load.py scripts/climio_sweep/results.py scripts/climio_sweep/compare.py \
  scripts/climio_sweep/outfile.py
# bench.py: the runner the scripts/bench-* share; they find the package as the
# launcher does (beside them, or in $(datadir)/climio/python)
dist_doc_DATA += doc/bench.md
# the sample sweeps (gcrm_io; engine_exercise for the tests), installed with the
# inputs and copied into run/
climioinputs_DATA += inputs/sweep.gcrm.toml inputs/sweep.sample.toml inputs/sweep.drivers.toml
RUN_INPUTS += inputs/sweep.gcrm.toml inputs/sweep.sample.toml inputs/sweep.drivers.toml
EXTRA_DIST += inputs/sweep.gcrm.toml inputs/sweep.sample.toml inputs/sweep.drivers.toml
dist_doc_DATA += doc/sweep.md
EXTRA_DIST += doc/images/sweep-heatmap.png doc/images/sweep-heatmap.svg doc/images/sweep-compare.png

# iocount: any MPI program's write requests per rank, under an LD_PRELOAD library
# built from its C source at run time (with libfakenodes.c, nodes of N ranks on one
# machine); the sources are installed for it and for peer-pfio
dist_bin_SCRIPTS += scripts/iocount
climiotoolsdir = $(datadir)/climio/tools
dist_climiotools_DATA = scripts/libiocount.c scripts/libfakenodes.c

# test-times: each test's wall time from the logs of make check (doc/testing.md)
EXTRA_DIST += scripts/test-times
# check-docs: runs the commands README.md and doc/*.md show (make check-docs, doc/testing.md)
EXTRA_DIST += scripts/check-docs

# bench-drivers: every driver and mode on one file system, one table (doc/drivers.md)
dist_bin_SCRIPTS += scripts/bench-drivers
# bench-aggregation: io_tasks x rearranger x iotype for one kernel (doc/aggregation.md)
dist_bin_SCRIPTS += scripts/bench-aggregation
# plan-tables: dry-run tables of the shipped inputs (doc/planning.md)
dist_bin_SCRIPTS += scripts/plan-tables
# bench-scale: each kernel at 16, 64, 256 oversubscribed ranks (doc/scaling.md)
dist_bin_SCRIPTS += scripts/bench-scale
# bench-decomp: decomp_io beside a user-built e3sm_io on the same map (doc/decomp.md)
dist_bin_SCRIPTS += scripts/bench-decomp
# bench-ior: a climio run beside a user-built IOR running the run's IOR equivalent (doc/bench.md)
dist_bin_SCRIPTS += scripts/bench-ior
# bench-compress: filter x level x shuffle x quantization on model data (doc/compression.md)
dist_bin_SCRIPTS += scripts/bench-compress
# build-mpich-deps: PnetCDF built with MPICH into a cache, for CI's MPICH build (doc/building.md)
EXTRA_DIST += scripts/build-mpich-deps

# e3sm-case-table: remakes src/decomp/e3sm_cases/, E3SM-IO's case files'
# headers, from ncdump -h of files the real E3SM-IO wrote (doc/decomp.md)
EXTRA_DIST += scripts/e3sm-case-table
