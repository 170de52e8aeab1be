"""Shared helpers for the climio-sweep tests: where the tool and the kernels
are, and a function that runs the tool as a user would (the scripts/ launcher)."""

import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.environ.get("top_srcdir") or os.path.join(HERE, "..", ".."))
BUILDDIR = os.path.abspath(os.environ.get("top_builddir") or SRCDIR)
TOOL = os.path.join(SRCDIR, "scripts", "climio-sweep")
EXERCISE = os.path.join(BUILDDIR, "src", "exercise", "engine_exercise")
SAMPLE = os.path.join(SRCDIR, "inputs", "sweep.sample.toml")

sys.path.insert(0, os.path.join(SRCDIR, "scripts"))


def tool_env(extra=None):
    env = dict(os.environ)
    env.update({
        "CLIMIO_BINDIR": os.path.join(BUILDDIR, "tests"),
        "CLIMIO_PYTHON": sys.executable,
        "OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
        "OMPI_MCA_rmaps_base_oversubscribe": "1",
    })
    env.pop("PNETCDF_HINTS", None)
    env.update(extra or {})
    return env


def run_tool(args, cwd, env=None, check=True, timeout=300):
    p = subprocess.run([TOOL] + list(args), cwd=cwd, env=env or tool_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError("climio-sweep %s: exit %d\nstdout:\n%s\nstderr:\n%s" % (
            " ".join(args), p.returncode, p.stdout, p.stderr))
    return p


def load(path):
    with open(path) as f:
        return json.load(f)


def runs_of(outdir):
    """run id -> folder for every run folder that has a run.json."""
    out = {}
    root = os.path.join(outdir, "runs")
    for d, dirs, files in os.walk(root):
        if "run.json" in files:
            out[os.path.relpath(d, root)] = d
    return out


@pytest.fixture(scope="session")
def exercise():
    if not os.access(EXERCISE, os.X_OK):
        pytest.fail("%s is not built (make check builds it)" % EXERCISE)
    return EXERCISE


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path
