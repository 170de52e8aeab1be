"""The runner every bench-* script shares (scripts/climio_sweep/bench.py):
cells "median [min-max]" flagged past a 25% spread, repetitions interleaved,
each run in its own folder removed after it, and a failed run explained by the
kernel's own error line (real engine_exercise runs)."""

import argparse
import os

import pytest

from conftest import tool_env  # noqa: F401  (puts scripts/ on sys.path)
from climio_sweep import bench


def test_cells():
    assert bench.cell([10, 11, 12]) == "11.00 [10.00-12.00]"          # spread 2/11 = 18%
    assert bench.cell([10, 11, 14]) == "11.00 [10.00-14.00] !"        # 4/11 = 36%
    assert bench.cell([100, 125]) == "112.50 [100.00-125.00]"          # 25/112.5 = 22%
    assert bench.cell([100, 130], "%.0f") == "115 [100-130] !"         # 30/115 = 26%
    assert bench.cell([7.5]) == "7.50"                                 # one run: no range
    assert bench.cell([]) == bench.cell([None]) == "-"
    s = bench.Spread([3, 1, 2, 10])
    assert (s.median, s.min, s.max) == (2.5, 1, 10) and s.flagged
    assert s.json() == {"median": 2.5, "min": 1, "max": 10, "values": [3, 1, 2, 10], "spread_over_limit": True}
    assert "median [min-max] of 3 runs" in bench.legend(3) and "25% of the median" in bench.legend(3)
    assert "no spread to judge" in bench.legend(1)


def test_repeat_interleaves():
    order = []
    res = bench.repeat(["a", "b"], 3, lambda c, rep: order.append((c, rep)) or rep)
    assert order == [("a", 0), ("b", 0), ("a", 1), ("b", 1), ("a", 2), ("b", 2)]
    assert res == {0: [0, 1, 2], 1: [0, 1, 2]}


def args(tmp_path, **kw):
    a = argparse.Namespace(repetitions=1, dir=str(tmp_path), json=None, json_dir=None, mpiexec="mpiexec",
                           timeout=120)
    a.__dict__.update(kw)
    return a


def test_runs_and_failures(tmp_path, exercise):
    jd = tmp_path / "json"
    with bench.Runner("bench-test", args(tmp_path, json_dir=str(jd))) as r:
        work = r.work
        doc, seconds, _ = r.run("ok run", 2, [exercise, "--nx", "8", "--ny", "6", "--nz", "2", "--nrec", "1",
                                              "--out", "out", "--quiet"])
        assert doc["nprocs"] == 2 and doc["write"]["bytes"]["written"] > 0 and seconds > 0
        assert os.listdir(work) == [], "the run's folder is removed"
        assert os.listdir(str(jd)) == ["ok_run.json"]
        with pytest.raises(bench.RunFailed) as e:
            r.run("bad", 1, [exercise, "--nx", "big"])
        assert str(e.value) == "bad: exit status 2: engine_exercise: error: command line: nx expects an integer, " \
                               "found 'big'"
        results = bench.repeat(["x"], 2, lambda c, rep: r.run("bad%d" % rep, 1, [exercise, "--iotype", "sometimes"]))
        assert [type(x) for x in results[0]] == [bench.RunFailed, bench.RunFailed]
        assert "iotype expects one of" in bench.first_error(results[0]) and bench.ok(results[0]) == []
    assert not os.path.exists(work) and os.listdir(str(tmp_path)) == ["json"]
