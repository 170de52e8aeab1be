"""climio-sweep: parameter sweeps of the climio kernels, locally, on Slurm or PBS,
with collected results and matplotlib reports (doc/sweep.md)."""
