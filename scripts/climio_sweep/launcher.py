"""The MPI launcher, chosen one way for every script (climio-sweep, bench-*):
$MPIEXEC when set (words split as a shell would), else `mpiexec`; and the flag
that lets it start more processes than cores, which depends on its family:
Open MPI's mpiexec needs --oversubscribe, MPICH's Hydra (MPICH, Intel MPI,
MVAPICH) and Slurm's srun start them as asked and take no such flag."""

import os
import shlex
import subprocess

OVERSUBSCRIBE = {"openmpi": ["--oversubscribe"], "hydra": [], "slurm": [], "unknown": []}
_families = {}


def launcher_words(environ=None, default="mpiexec"):
    """The launcher as a list of words: $MPIEXEC, else default."""
    env = os.environ if environ is None else environ
    return shlex.split(env.get("MPIEXEC") or default)


def family(words):
    """openmpi, hydra, slurm or unknown: from the program's name, else its --version."""
    prog = words[0]
    name = os.path.basename(prog)
    if name in ("srun", "salloc"):
        return "slurm"
    if prog not in _families:
        try:
            p = subprocess.run([prog, "--version"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=30, universal_newlines=True)
            text = p.stdout
        except (OSError, subprocess.TimeoutExpired):
            text = ""
        if "OpenRTE" in text or "Open MPI" in text or "open-mpi.org" in text:
            _families[prog] = "openmpi"
        elif "HYDRA" in text or "Hydra" in text:
            _families[prog] = "hydra"
        elif text.startswith("slurm"):
            _families[prog] = "slurm"
        else:
            _families[prog] = "unknown"
    return _families[prog]


def oversubscribe_args(words):
    """What to add to the launcher so that it starts more processes than cores."""
    if "--oversubscribe" in words:
        return []
    return list(OVERSUBSCRIBE[family(words)])
