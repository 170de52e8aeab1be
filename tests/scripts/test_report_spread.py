"""The report's honesty rules on synthetic results (no kernel runs): a heatmap
boxes a best cell only when the test separates it from the runner-up and
their medians are at least 10% apart, else it says there is no clear winner
and why; cells and tables show the median with
[min-max]; --metric picks what is shown (time: lower is better); --format
writes every format asked; the page shows the run context the results carry,
and says so when they carry none."""

import os

import pytest

from conftest import SRCDIR  # noqa: F401  (puts scripts/ on sys.path)
from climio_sweep import html, report
from climio_sweep.errors import SweepError

pytest.importorskip("matplotlib")


def test_clear_winner_rule():
    cw = report.clear_winner
    # five repetitions each, all of a above all of b: exact p = 2/252, a winner
    v = cw({"a": [100, 110, 120, 105, 115], "b": [80, 90, 95, 85, 92], "c": [10, 11, 12, 13, 14]})
    assert tuple(v) == ("a", "a", "b") and abs(v.p - 2 / 252) < 1e-12
    # the case: a wide best that reaches below the steady runner-up: no winner
    v = cw({"mpiio": [155.86, 50.61, 53.81, 152.3, 147.3], "other": [79, 80, 81, 80, 82]})
    assert tuple(v) == (None, "mpiio", "other") and v.p > 0.05 and "not below 0.05" in v.reason
    # three repetitions whose ranges do not overlap are still not enough
    v = cw({"a": [100, 110, 120], "b": [80, 90, 95]})
    assert v.winner is None and v.reason == "3 repetitions, the test needs at least 5"
    # lower is better (times): the smaller values win
    assert cw({"a": [1.0, 1.1, 1.05, 1.02, 1.08], "b": [2.0, 2.2, 2.1, 2.05, 2.15]}, higher=False).winner == "a"
    assert cw({"a": [1.0, 2.3, 1.05, 2.4, 1.08], "b": [2.0, 2.2, 2.1, 2.05, 2.15]}, higher=False).winner is None
    assert tuple(cw({})) == (None, None, None)
    # separated by the test (p = 2/252) but medians only 4% apart: no winner, and the page says why
    v = cw({"a": [104, 104.5, 105, 105.5, 106], "b": [100, 100.5, 101, 101.5, 102]})
    assert v.winner is None and v.best == "a" and abs(v.p - 2 / 252) < 1e-12
    assert v.reason == "p = 0.00794, but the medians are only 4.0% apart (at least 10% needed)"
    # the effect: the ratio of the medians with a reproducible bootstrap interval around it
    v = cw({"a": [100, 110, 120, 105, 115], "b": [80, 90, 95, 85, 92]})
    assert abs(v.ratio - 110 / 90) < 1e-12 and v.low <= v.ratio <= v.high
    again = cw({"b": [92, 85, 95, 90, 80], "a": [115, 105, 120, 110, 100]})    # same values, another order
    assert (again.ratio, again.low, again.high) == (v.ratio, v.low, v.high) and v.low > 1


def test_mann_whitney_matches_the_tables():
    from climio_sweep import verdict
    mw = verdict.mann_whitney_p
    assert abs(mw([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) - 2 / 252) < 1e-12
    assert abs(mw([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]) - 0.6904761904761905) < 1e-12
    assert mw([1, 1, 1], [1, 1, 1]) == 1.0
    # large samples: the normal approximation, separated samples far below alpha
    assert mw(list(range(30)), list(range(100, 130))) < 1e-6


def doc(values, context=None, metric_col="write_bandwidth_MiBps"):
    """Results of a 2 x 2 hint sweep: values[(cb_nodes, striping_factor)] = the repetitions."""
    runs = []
    for (cb, sf), vals in values.items():
        point = "np2,cb_nodes=%d,striping_factor=%d" % (cb, sf)
        for rep, v in enumerate(vals):
            row = {"run": "%s/rep%d" % (point, rep), "point": point, "repetition": rep, "status": "done",
                   "nprocs": 2, "hints.cb_nodes": cb, "hints.striping_factor": sf, "run_dir": "runs/" + point,
                   "write_bandwidth_MiBps": v, "end_to_end_s": 100.0 / v, "bytes_written_bytes": 1 << 20}
            result = {"context": context} if context else {}
            runs.append({"row": row, "result": result})
    cols = ["run", "point", "status", "nprocs", "hints.cb_nodes", "hints.striping_factor", "write_bandwidth_MiBps",
            "end_to_end_s", "timer.wait_max_s"]
    return {"kernel": "gcrm_io", "sweep": "synthetic", "columns": cols,
            "axes": [{"key": "hints.cb_nodes", "kind": "hint", "values": [1, 2]},
                     {"key": "hints.striping_factor", "kind": "hint", "values": [1, 2]}], "runs": runs}


CLEAR = {(1, 1): [100, 105, 110, 103, 108], (1, 2): [50, 52, 55, 51, 53], (2, 1): [60, 62, 64, 61, 63],
         (2, 2): [70, 71, 75, 72, 73]}
# the best median (90) from a wide range that reaches below the runner-up's (79-88)
UNCLEAR = {(1, 1): [155.86, 50.61, 90.0, 52.0, 150.0], (1, 2): [79, 85, 88, 84, 86], (2, 1): [60, 62, 64, 61, 63],
           (2, 2): [70, 71, 75, 72, 73]}


def test_heatmap_boxes_only_a_clear_winner(tmp_path):
    figs, res = report.make_all(doc(CLEAR), str(tmp_path / "a"))
    heat = [f for f in figs if f[0].startswith("Heatmap")]
    assert len(heat) == 1 and os.path.isfile(heat[0][1])
    assert res.notes == ["cb_nodes x striping_factor: cb_nodes=1, striping_factor=1 beats the runner-up "
                         "(cb_nodes=2, striping_factor=2): Mann-Whitney U, two-sided, alpha 0.05, at least 5 "
                         "repetitions each, and medians at least 10% apart, p = 0.00794, ratio of medians 1.46 "
                         "[1.37-1.54] (95% bootstrap interval)"]
    figs, res = report.make_all(doc(UNCLEAR), str(tmp_path / "b"))
    assert res.notes == ["cb_nodes x striping_factor: no clear winner between cb_nodes=1, striping_factor=1 and "
                         "cb_nodes=1, striping_factor=2 (p = 0.69, not below 0.05; Mann-Whitney U, two-sided, "
                         "alpha 0.05, at least 5 repetitions each, and medians at least 10% apart)"]
    page = html.page(res, figs, str(tmp_path))
    assert "no clear winner" in page
    # the per-point table: median and range, not the mean (98.82)
    assert "<td class=\"num\">90</td><td class=\"num\">50.61</td><td class=\"num\">155.9</td>" in page
    # three repetitions: no claim, whatever the ranges
    three = {k: v[:3] for k, v in CLEAR.items()}
    figs, res = report.make_all(doc(three), str(tmp_path / "c"))
    assert "3 repetitions, the test needs at least 5" in res.notes[0] and "no clear winner" in res.notes[0]


def test_metric_time_lower_is_better(tmp_path):
    # end_to_end_s = 100 / bandwidth: the fastest point is the best, found with min
    figs, res = report.make_all(doc(CLEAR), str(tmp_path), metric="time")
    assert res.metric == "end_to_end_s" and not res.higher
    assert res.notes[0].startswith("cb_nodes x striping_factor: cb_nodes=1, striping_factor=1 beats")
    with pytest.raises(SweepError, match="report --metric: expected write, read, time, a timer \\(wait\\)"):
        report.Results(doc(CLEAR), "nosuch")
    assert report.resolve_metric("wait", ["timer.wait_max_s"]) == (
        "timer.wait_max_s", "waiting for nonblocking writes, slowest rank (s)", False)


def test_formats(tmp_path):
    figs, _ = report.make_all(doc(CLEAR), str(tmp_path), formats=["svg", "pdf", "png"])
    for _, path, _ in figs:
        base = os.path.splitext(path)[0]
        assert path.endswith(".svg")
        with open(base + ".svg") as f:
            assert "<svg" in f.read(2000)
        with open(base + ".pdf", "rb") as f:
            assert f.read(5) == b"%PDF-"
        with open(base + ".png", "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SweepError, match="report --format: expected a comma-separated list of png, pdf, svg"):
        report.make_all(doc(CLEAR), str(tmp_path), formats=["jpg"])


def test_page_shows_the_run_context(tmp_path):
    ctx = {"file_system": {"type": "tmpfs", "mount_point": "/dev/shm", "lustre_stripe_count": 4},
           "nodes": 1, "ranks_per_node_max": 2, "mpi": {"io_component": "ompio"}}
    figs, res = report.make_all(doc(CLEAR, ctx), str(tmp_path))
    page = html.page(res, figs, str(tmp_path))
    assert "<h2>Run context</h2>" in page
    for item, value in (("file_system.type", "tmpfs"), ("file_system.lustre_stripe_count", "4"),
                        ("mpi.io_component", "ompio"), ("nodes", "1")):
        assert "<td>%s</td><td>%s</td>" % (item, value) in page, item
    figs, res = report.make_all(doc(CLEAR), str(tmp_path / "none"))
    assert "The results carry no run context" in html.page(res, figs, str(tmp_path))


def test_ratio_against_bandwidth_shows_median_and_spread(tmp_path):
    """The compression figure gives each setting's median bandwidth and ratio with
    their min-max (not one dot a run, nor a mean); runs without a storage
    figure (classic files) are left out, and no figure is drawn without any."""
    runs = []
    reps = {0: ([40.0, 10.0, 25.0], [1.0, 1.0, 1.0]), 1: ([12.0, 30.0, 15.0], [2.5, 2.5, 2.4])}
    for deflate, (bws, ratios) in reps.items():
        point = "np2,deflate=%d" % deflate
        for rep, (bw, ratio) in enumerate(zip(bws, ratios)):
            row = {"run": "%s/rep%d" % (point, rep), "point": point, "repetition": rep, "status": "done",
                   "nprocs": 2, "data.deflate": deflate, "run_dir": "runs/" + point, "write_bandwidth_MiBps": bw,
                   "end_to_end_s": 1.0 / bw, "storage_ratio": ratio}
            runs.append({"row": row, "result": {}})
    classic = dict(runs[0]["row"], run="np2,deflate=9/rep0", point="np2,deflate=9", storage_ratio=None,
                   **{"data.deflate": 9})
    runs.append({"row": classic, "result": {}})
    d = {"kernel": "mom_io", "sweep": "synthetic", "columns": ["run", "point", "status", "nprocs", "data.deflate",
                                                               "write_bandwidth_MiBps", "end_to_end_s",
                                                               "storage_ratio"],
         "axes": [{"key": "data.deflate", "kind": "parameter", "values": [0, 1, 9]}], "runs": runs}
    res = report.Results(d)
    pts = report.ratio_points(res)
    assert [p[0] for p in pts] == ["data.deflate=0", "data.deflate=1"]
    assert pts[0][1] == (25.0, 10.0, 40.0) and pts[0][2] == (1.0, 1.0, 1.0)
    assert pts[1][1] == (15.0, 12.0, 30.0) and pts[1][2] == (2.5, 2.4, 2.5)
    assert len(pts[1][3]) == 3
    figs, _ = report.make_all(d, str(tmp_path), formats=("svg",))
    ratio = [f for f in figs if f[0] == "Compression ratio vs bandwidth"]
    assert len(ratio) == 1 and ratio[0][1].endswith(".svg") and os.path.getsize(ratio[0][1]) > 5000
    assert "median of the repetitions, bars min to max" in ratio[0][2]
    for r in d["runs"]:
        r["row"]["storage_ratio"] = None
    assert report.ratio_points(report.Results(d)) == []
    assert not [f for f in report.make_all(d, str(tmp_path / "none"))[0] if f[0].startswith("Compression")]
