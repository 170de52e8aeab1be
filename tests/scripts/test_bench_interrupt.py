"""A bench-* script as a user runs it (real gcrm_io runs, null driver): a
progress line 'run k of N' with an ETA; --warmup rounds run first and stay
out of the table; Ctrl-C prints the table of the runs that finished, says it
was interrupted and exits 130 without a traceback; closing lines compare
two cells only through the stated test."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import BUILDDIR, SRCDIR, tool_env
from climio_sweep import bench

GCRM = os.path.join(BUILDDIR, "src", "gcrm", "gcrm_io")
SCRIPT = os.path.join(SRCDIR, "scripts", "bench-gcrm")


def start(args, tmp_path):
    if not os.access(GCRM, os.X_OK):
        pytest.skip("gcrm_io is not built")
    return subprocess.Popen([sys.executable, SCRIPT, "--bin", os.path.dirname(GCRM), "--dir", str(tmp_path),
                             "--driver", "null", "--levels", "3", "--iotypes", "nonblocking_collective",
                             "blocking_collective"] + args,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=tool_env())


def test_progress_and_warmup(tmp_path):
    p = start(["--np", "1", "--repetitions", "1", "--warmup", "1"], tmp_path)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 0, err
    assert "bench-gcrm: run 1 of 4 (warm-up 1), ETA unknown" in err
    assert "bench-gcrm: run 3 of 4 (repetition 1), ETA " in err
    # the warm-up's results are not in the table: one value per cell, no range
    rows = [l for l in out.splitlines() if l.startswith("| 3 | 1 |")]
    assert len(rows) == 2 and all("[" not in l for l in rows), out
    assert "(null on" in out or " on " in out


def test_ctrl_c_prints_the_partial_table(tmp_path):
    p = start(["--np", "1", "2", "--repetitions", "50"], tmp_path)
    seen = ""
    deadline = time.monotonic() + 240
    while "run 3 of 200" not in seen and time.monotonic() < deadline:
        seen += p.stderr.readline()
    assert "run 3 of 200" in seen, seen
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    err = seen + err
    assert p.returncode == 130, (out, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "bench-gcrm: interrupted after" in err
    assert "| L | np | iotype |" in out and "INTERRUPTED: cells hold the runs that finished" in out
    # no launcher or kernel left behind, no scratch folder left on --dir
    assert not [d for d in os.listdir(str(tmp_path)) if d.startswith("climio-bench-gcrm-")]


def test_closing_line_only_from_the_test():
    fast, slow = [100, 101, 102, 103, 104], [90, 91, 92, 93, 94]
    assert bench.compare("pnetcdf", fast, "mpiio", slow).startswith(
        "pnetcdf is faster than mpiio (Mann-Whitney U, two-sided, alpha 0.05, at least 5 repetitions each, and medians "
        "at least 10% apart, p = 0.00794; ratio of medians 1.11 [1.08-1.14], 95% bootstrap interval)")
    # separated by the test, but medians only 5% apart: no claim
    assert bench.compare("pnetcdf", fast, "mpiio", [95, 96, 97, 98, 99]).startswith(
        "no clear winner between pnetcdf and mpiio (p = 0.00794, but the medians are only 5.2% apart")
    assert bench.compare("pnetcdf", fast[:3], "mpiio", slow[:3]).startswith(
        "no clear winner between pnetcdf and mpiio (3 repetitions, the test needs at least 5")
    assert bench.compare("a", [1, 5, 2, 6, 3], "b", [2, 4, 3, 5, 4]).startswith("no clear winner between a and b (p =")
