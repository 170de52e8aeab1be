#!/bin/sh
# climio-sweep through a real Slurm: the test starts a private one-node Slurm
# (munged, slurmctld, slurmd; as root), submits the sample sweep as job arrays,
# and stops the daemons.  Skips, saying why, where slurm-wlm cannot run.
. "$top_srcdir/tests/scripts/pytest_wrapper.sh"
run_pytest "$top_srcdir/tests/scripts/test_slurm.py"
