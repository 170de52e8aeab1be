"""Report cases beyond the sample: a single process count (bar chart instead
of scaling), heatmaps over parameters when no two hints are swept, the run
shown in the imbalance figure, failed runs in the page, and the PFIO figure
from kernel_report figures when a kernel writes them."""

import csv
import json
import os
import re

from conftest import load, run_tool, runs_of, write


def pngs(rep):
    return sorted(f for f in os.listdir(rep) if f.endswith(".png"))


def test_single_nprocs_parameters_heatmap_and_failures(tmp_path, exercise):
    sw = write(str(tmp_path / "one.toml"), """
[sweep]
kernel = "engine_exercise"
nprocs = 2
[parameters]
nrec = [1, 2]
nx = [8, 16, 0]          # the kernel refuses nx 0: those runs fail
""")
    # --no-check: not refused before the runs (the kernel is not asked), so they run and fail
    p = run_tool(["run", sw, "--no-check"], cwd=str(tmp_path), check=False)
    out = str(tmp_path / "one.sweep")
    assert p.returncode == 1 and "6 runs: 4 done, 2 failed" in p.stdout, p.stdout
    p = run_tool(["report", out, "--run", "np2,nrec=2,nx=16/rep0"], cwd=str(tmp_path))
    rep = os.path.join(out, "report")
    assert pngs(rep) == ["bandwidth.png", "heatmap_nrec_nx.png", "imbalance.png", "phases.png"]
    page = open(os.path.join(rep, "report.html")).read()
    assert "4 successful run(s), 2 failed" in page
    assert "<h2>Failed runs</h2>" in page and page.count("<tr class=\"failed\">") == 2
    assert "Run np2,nrec=2,nx=16/rep0 (null/none nonblocking_collective), chosen with --run: fastest, mean and " \
           "slowest rank" in page
    p = run_tool(["report", out, "--run", "nosuch"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "report --run: expected a successful run of this sweep, found 'nosuch'" in p.stderr
    # a metric no run measured (these runs did not read back), and --out beside a folder target
    p = run_tool(["report", out, "--metric", "read"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "report --metric read: no run of this sweep measured it" in p.stderr, p.stderr
    p = run_tool(["report", out, "--out", str(tmp_path / "other")], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "--out names the output folder of a sweep file" in p.stderr, p.stderr
    assert not os.path.exists(str(tmp_path / "other"))


def test_pfio_overlap_figure_from_kernel_report(tmp_path, exercise):
    """engine_exercise writes no kernel_report; add the figures a pfio_io run
    reports (under the names pfio_io uses) to the results, and the report draws them."""
    sw = write(str(tmp_path / "p.toml"), """
[sweep]
kernel = "engine_exercise"
nprocs = [1, 2]
[parameters]
nrec = [1, 2]
""")
    run_tool(["run", sw], cwd=str(tmp_path))
    out = str(tmp_path / "p.sweep")
    expect = {}
    for rid, d in runs_of(out).items():
        path = os.path.join(d, "result.json")
        res = load(path)
        nrec = res["config"]["nrec"]["value"]
        res["kernel_report"] = {"model": {"blocked_s_mean": 0.1 * nrec, "blocked_s_max": 0.12 * nrec,
                                          "blocked_s_max_rank": 1},
                                "overlap": {"blocked_s": 0.1 * nrec, "synchronous_s": 0.5 * nrec, "efficiency": 0.8},
                                "server": {"type": "multigroup"}}
        with open(path, "w") as f:
            json.dump(res, f)
        expect[rid] = nrec
    run_tool(["report", out], cwd=str(tmp_path))
    rep = os.path.join(out, "report")
    assert "overlap.png" in pngs(rep)
    page = open(os.path.join(rep, "report.html")).read()
    assert "overlap.blocked_s vs overlap.synchronous_s" in page
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
    for r in rows:
        assert float(r["kernel_report.overlap.blocked_s"]) == 0.1 * expect[r["run"]]
        assert float(r["kernel_report.overlap.synchronous_s"]) == 0.5 * expect[r["run"]]
        assert int(r["kernel_report.model.blocked_s_max_rank"]) == 1
        assert r["kernel_report.server.type"] == "multigroup"
    assert len(re.findall(r"<img src=", page)) == len(pngs(rep))
