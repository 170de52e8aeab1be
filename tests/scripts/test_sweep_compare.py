"""Two sweeps of one sweep file compared point by point (climio-sweep report
A B): on synthetic results, the ratio of each point's medians with its
interval, a pairwise verdict that holds and one that flips; the sweeps pooled
(--pool) as more repetitions; sweeps of different files refused; and the
command on two real small sweeps, writing its figure, tables and page."""

import csv
import os

import pytest

from conftest import run_tool, write
from climio_sweep import compare, verdict
from climio_sweep.errors import SweepError

pytest.importorskip("matplotlib")


def doc(values, load=1.0, fixed=None):
    """values: {point: [repetitions]} of one process count; points named
    np2,x=V."""
    runs = []
    for x, vals in values.items():
        point = "np2,x=%s" % x
        for rep, v in enumerate(vals):
            runs.append({"row": {"run": "%s/rep%d" % (point, rep), "point": point, "repetition": rep,
                                 "status": "done", "nprocs": 2, "x": x, "write_bandwidth_MiBps": v,
                                 "end_to_end_s": 1.0 / v, "host": "vm", "date": "2026-11-28T17:00:00+0000",
                                 "host.cpus_online": 2, "host.load_start_1m": load, "host.load_end_1m": load,
                                 "host.load_over_cores": load > 2, "run_dir": "runs/" + point}, "result": {}})
    return {"kernel": "engine_exercise", "sweep": "s", "columns": list(runs[0]["row"]),
            "axes": [{"key": "x", "kind": "param", "values": list(values)}],
            "fixed": fixed or {"param": {"nz": 4}, "hint": {}, "env": {}}, "runs": runs}


# a is far above b in both sweeps: that verdict holds; c and d trade places: it flips
A = {"a": [200, 205, 210, 198, 202], "b": [100, 104, 99, 101, 103], "c": [150, 152, 149, 151, 153],
     "d": [120, 121, 119, 122, 118]}
B = {"a": [190, 195, 200, 188, 192], "b": [98, 99, 102, 100, 97], "c": [110, 112, 109, 111, 113],
     "d": [140, 141, 139, 142, 138]}


def test_a_verdict_that_holds_and_one_that_flips():
    cmp = compare.Comparison(doc(A), doc(B, load=9.0), "A", "B")
    by = {(x, y): o for _, x, y, _, _, o in cmp.verdicts}
    assert by[("x=a", "x=b")] == "held"
    assert by[("x=c", "x=d")] == "flipped"
    assert by[("x=a", "x=c")] == "held" and by[("x=b", "x=d")] == "held"
    assert len(cmp.verdicts) == 6 and cmp.counts() == {"held": 5, "flipped": 1}
    points = {label: pair for _, label, pair, _, _ in cmp.points}
    # c: 150 in A, 111 in B: moved, the ratio B / A with its interval
    c = points["x=c"]
    assert abs(c.ratio - 111 / 151) < 1e-12 and c.low <= c.ratio <= c.high < 1
    assert c.better == "A" and compare.moved_words(cmp, c) == "yes: lower (worse) in B"
    # a: 200 against 192: separated, but only 4% apart: not moved
    a = points["x=a"]
    assert a.better is None and "apart (at least 10% needed)" in a.reason
    assert "4 point(s) compared, 2 moved beyond the rule" in cmp.summary()
    assert "6 pairwise verdict(s): 5 held, 1 flipped" in cmp.summary()


def test_verdict_outcomes():
    assert compare.outcome("p", "p") == "held"
    assert compare.outcome(None, None) == "held: no clear difference"
    assert compare.outcome("p", "q") == "flipped"
    assert compare.outcome("p", None) == "vanished"
    assert compare.outcome(None, "q") == "appeared"


def test_pooling_and_refusals():
    pooled = compare.pooled([doc(A), doc(B)], ["A", "B"])
    rows = [r["row"] for r in pooled["runs"] if r["row"]["point"] == "np2,x=c"]
    assert sorted(r["repetition"] for r in rows) == list(range(10))
    assert {r["run"].split(":")[0] for r in rows} == {"A", "B"}
    v = verdict.compare({"c": [r["write_bandwidth_MiBps"] for r in rows], "d": [
        r["row"]["write_bandwidth_MiBps"] for r in pooled["runs"] if r["row"]["point"] == "np2,x=d"]})
    assert v.winner is None     # pooled, c and d are not apart: the flip shows as no clear difference
    with pytest.raises(SweepError, match="expected two runs of the same sweep file, found other settings: param nz: "
                                         "4 in A, 8 in B"):
        compare.Comparison(doc(A), doc(B, fixed={"param": {"nz": 8}}), "A", "B")


def test_report_of_two_real_sweeps(tmp_path, exercise):
    sw = write(str(tmp_path / "two.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\nrepetitions = 5\n'
               '[parameters]\nnx = [16, 64]\nny = 16\nnz = 2\nnrec = 1\n')
    run_tool(["run", sw, "--out", "A.sweep"], cwd=str(tmp_path))
    run_tool(["run", sw, "--out", "B.sweep"], cwd=str(tmp_path))
    p = run_tool(["report", "A.sweep", "B.sweep", "--format", "png,svg"], cwd=str(tmp_path))
    dest = tmp_path / "A.sweep" / "compare-B"
    assert "2 point(s) compared" in p.stdout and "1 pairwise verdict(s)" in p.stdout
    for name in ("compare.png", "compare.svg", "compare.csv", "verdicts.csv", "compare.html"):
        assert (dest / name).is_file(), name
    rows = list(csv.DictReader(open(str(dest / "compare.csv"))))
    assert [r["point"] for r in rows] == ["np1,nx=16", "np1,nx=64"]
    assert all(int(r["repetitions_a"]) == 5 and int(r["repetitions_b"]) == 5 for r in rows)
    assert all(float(r["ratio_ci95_low"]) <= float(r["ratio_b_a"]) <= float(r["ratio_ci95_high"]) for r in rows)
    page = (dest / "compare.html").read_text()
    assert "<b>A ran under:</b> host " in page and "<b>B ran under:</b> host " in page
    # pooled: one report of all ten repetitions of each point
    run_tool(["report", "A.sweep", "B.sweep", "--pool"], cwd=str(tmp_path))
    page = (tmp_path / "A.sweep" / "report-pooled" / "report.html").read_text()
    assert "20 successful run(s)" in page
    bad = run_tool(["report", "A.sweep", "B.sweep", "A.sweep"], cwd=str(tmp_path), check=False)
    assert bad.returncode == 2 and "expected one sweep, two to compare, or --pool with several" in bad.stderr
    other = write(str(tmp_path / "other.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\n[parameters]\n'
                  'nx = [16, 64]\nny = 8\nnz = 2\nnrec = 1\n')
    run_tool(["run", other], cwd=str(tmp_path))
    bad = run_tool(["report", "A.sweep", "other.sweep"], cwd=str(tmp_path), check=False)
    assert bad.returncode == 2 and "param ny: 16 in A, 8 in other" in bad.stderr, bad.stderr
    assert not os.path.exists(str(tmp_path / "A.sweep" / "compare-other"))
