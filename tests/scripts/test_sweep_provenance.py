"""What decided a sweep's numbers, in its results: results.csv carries the
input, the timing window, the MPI library, the build commit, the host's
cores and the load at the start and end of each run, and marks the runs that
had the load above the cores; collect and the page say how many; the warning
is given once, loudly; every run's status.json keeps the sweep's own load
samples; a bench script's table and JSON give every run's load."""

import csv
import io
import json
import os
import subprocess
import sys

from conftest import SRCDIR, load, run_tool, runs_of, tool_env, write
from climio_sweep import load as loadmod
from climio_sweep.results import fixed


def sweep(tmp_path, base=None):
    text = '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\nrepetitions = 2\n%s[parameters]\nnx = [8, 16]\nny = 4\n' \
           'nz = 1\nnrec = 1\n' % ('base = "base.in"\n' if base else "")
    if base:
        write(str(tmp_path / "base.in"), base)
    return write(str(tmp_path / "p.toml"), text)


def rows(out):
    with open(os.path.join(out, "results.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_results_carry_what_decided_them(tmp_path, exercise):
    run_tool(["run", sweep(tmp_path, base="nz 1\n")], cwd=str(tmp_path))
    out = str(tmp_path / "p.sweep")
    p = run_tool(["collect", out], cwd=str(tmp_path))
    table = rows(out)
    assert len(table) == 4
    for r in table:
        res = load(os.path.join(out, r["run_dir"], "result.json"))
        host = res["host"]
        assert r["input"] == "base.in"
        assert r["io.timing_window"] == res["io"]["timing_window"] == "io"
        assert r["context.mpi.library"] == res["context"]["mpi"]["library"] and r["context.mpi.library"]
        assert r["context.build.commit"] == res["context"]["build"]["commit"] and r["context.build.commit"]
        assert int(r["host.cpus_online"]) == host["cpus_online"]
        assert float(r["host.load_start_1m"]) == host["load_average_start"][0]
        assert float(r["host.load_end_1m"]) == host["load_average_end"][0]
        busy = max(host["load_average_start"][0], host["load_average_end"][0]) > host["cpus_online"]
        assert r["host.load_over_cores"] == ("true" if busy else "false")
        st = load(os.path.join(out, r["run_dir"], "status.json"))
        assert len(st["load_average_start"]) == 3 and len(st["load_average_end"]) == 3
        assert st["cpus_online"] == loadmod.cores()
    n = sum(1 for r in table if r["host.load_over_cores"] == "true")
    assert ("; %d run(s) had the load above the cores" % n in p.stdout) == (n > 0)
    # the built-in input is named by the kernel's own words
    other = tmp_path / "builtin"
    other.mkdir()
    run_tool(["run", sweep(other)], cwd=str(other))
    run_tool(["collect", str(other / "p.sweep")], cwd=str(other))
    assert {r["input"] for r in rows(str(other / "p.sweep"))} == {"<built-in>"}


def test_runs_above_the_cores_are_marked(tmp_path, exercise):
    """The results of two runs are set to a load above the host's cores (and
    the others below): the CSV marks exactly those, collect counts them, and
    the page's banner names them."""
    run_tool(["run", sweep(tmp_path)], cwd=str(tmp_path))
    out = str(tmp_path / "p.sweep")
    runs = runs_of(out)
    busy = sorted(runs)[:2]
    for rid, d in runs.items():
        path = os.path.join(d, "result.json")
        res = load(path)
        cpus = res["host"]["cpus_online"]
        res["host"]["load_average_start"] = [cpus + 1.5 if rid in busy else 0.25, 0.5, 0.5]
        res["host"]["load_average_end"] = [0.5, 0.5, 0.5]
        with open(path, "w") as f:
            json.dump(res, f)
    p = run_tool(["collect", out], cwd=str(tmp_path))
    assert "; 2 run(s) had the load above the cores (host.load_over_cores)" in p.stdout
    assert sorted(r["run"] for r in rows(out) if r["host.load_over_cores"] == "true") == busy
    run_tool(["report", out], cwd=str(tmp_path))
    page = open(os.path.join(out, "report", "report.html")).read()
    assert "<b>Load above the cores</b> during 2 of 4 runs" in page and busy[0] in page
    assert "load 0.25-%s (1 minute, start and end of each run)" % fixed(
        max(float(r["host.load_start_1m"]) for r in rows(out))) in page


def test_the_warning_is_given_once():
    w = loadmod.Watch("tool", "in results.csv")
    err = io.StringIO()
    assert not w.saw("quiet", 2, 1.0, 1.9, out=err)
    assert err.getvalue() == ""
    assert w.saw("r1", 2, 3.5, 1.0, out=err) and w.saw("r2", 2, 1.0, 2.5, out=err)
    text = err.getvalue()
    assert text.count("WARNING") == 1 and text.startswith("tool: WARNING: the load average was 3.50 (1 minute, "
                                                          "start 3.50, end 1.00) on this machine's 2 cores while r1 "
                                                          "ran")
    assert w.runs == ["r1", "r2"]
    assert loadmod.over_cores(2, None, None) is None and loadmod.over_cores(None, 5, 5) is None


def test_bench_scripts_record_the_load(tmp_path, exercise):
    """A bench script's table says the load its runs ran under, and its JSON
    holds every run's figures."""
    script = os.path.join(SRCDIR, "scripts", "bench-gcrm")
    p = subprocess.run([sys.executable, script, "--np", "1", "--iotypes", "nonblocking_collective", "--driver",
                        "null", "--repetitions", "2", "--json", str(tmp_path / "b.json"), "--dir", str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=tool_env(), timeout=600)
    assert p.returncode == 0, p.stderr
    doc = load(str(tmp_path / "b.json"))
    runs = doc["load"]["runs"]
    assert [r["run"] for r in runs] == ["L3-np1-nb_coll-rep0", "L3-np1-nb_coll-rep1"]
    for r in runs:
        assert r["over_cores"] == (max(r["load_start_1m"], r["load_end_1m"]) > r["cores"])
    lo = min(min(r["load_start_1m"], r["load_end_1m"]) for r in runs)
    assert ("load average (1 minute) %.2f-" % lo) in p.stdout and "at the start and end of the 2 runs" in p.stdout
    busy = sum(1 for r in runs if r["over_cores"])
    assert ("ABOVE THE CORES during %d of them" % busy in p.stdout) == (busy > 0)
    assert p.stderr.count("WARNING: the load average was") == (1 if busy else 0)
