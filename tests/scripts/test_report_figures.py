"""Each figure of the report read back through its texts (the matplotlib
Figure handed to report.SAVE_HOOK before it is written, not its pixels), on
synthetic results: every repetition drawn, plain decimals in the cells, one
time unit per report, the phases adding up to the end-to-end time with pack
apart, the imbalance figure's run chosen by its stated rule and named by
what ran, one category order everywhere, and the subtitle carrying the
workload, the host, the dates and the load."""

import copy

import pytest

from conftest import SRCDIR  # noqa: F401  (puts scripts/ on sys.path)
from climio_sweep import html, report

pytest.importorskip("matplotlib")

CB = [4, 1, 2]                      # the sweep file's order, which is not the sorted one
DRIVERS = ["pnetcdf", "netcdf"]


def row(np_, drv, cb, rep, bw, e2e=None, busy=False, **extra):
    point = "np%d,driver=%s,cb_nodes=%d" % (np_, drv, cb)
    e2e = e2e if e2e is not None else 10.0 / bw
    r = {"run": "%s/rep%d" % (point, rep), "point": point, "repetition": rep, "status": "done", "nprocs": np_,
         "driver": drv, "hints.cb_nodes": cb, "io.driver": drv, "io.driver_asked": drv,
         "io.format": "cdf2", "io.iotype": "blocking_collective", "io.iotype_effective": "nonblocking_collective",
         "io.iotype_cause": "gcrm_original_blocking", "io.call_pattern": "original", "io.timing_window": "io",
         "input": "zgrd.in.r3", "bytes_written_bytes": 9437184, "write_bandwidth_MiBps": bw, "end_to_end_s": e2e,
         "phase.create_mean_s": 0.1 * e2e, "phase.define_mean_s": 0.05 * e2e, "phase.write_mean_s": 0.4 * e2e,
         "phase.wait_mean_s": 0.2 * e2e, "phase.close_mean_s": 0.05 * e2e, "timer.pack_mean_s": 0.3,
         "timer.pack_max_s": 0.35, "host": "vm", "date": "2026-11-28T17:%02d:00+0000" % (10 + rep),
         "host.cpus_online": 2, "host.load_start_1m": 3.5 if busy else 1.0, "host.load_end_1m": 1.5,
         "host.load_over_cores": busy, "context.mpi.library": "Open MPI v4.1.4", "context.build.commit": "abc123",
         "context.file_system.type": "ext4", "context.file_system.source": "/dev/vda1",
         "context.page_cache.fits": True, "io.durable": False, "run_dir": "runs/" + point}
    r.update(extra)
    timers = {"create": {"min": 0.01, "mean": 0.02, "max": 0.03, "min_rank": 1, "max_rank": 0, "calls": 4},
              "put": {"min": 0.2, "mean": 0.3, "max": 0.4 * e2e, "min_rank": 0, "max_rank": 1, "calls": 40},
              "pack": {"min": 0.2, "mean": 0.3, "max": 0.35, "min_rank": 0, "max_rank": 1, "calls": 40}}
    return {"row": r, "result": {"write": {"timers": timers, "memory": {
        "tracked_peak_bytes": {"min": 1 << 20, "mean": 3 << 19, "max": 2 << 20, "max_rank": 1}}}}}


def doc(nprocs=(1, 2), reps=5, busy_run=None, scale=1.0):
    runs = []
    for np_ in nprocs:
        for drv in DRIVERS:
            for cb in CB:
                for rep in range(reps):
                    bw = scale * (100 + 10 * CB.index(cb) + (30 if drv == "pnetcdf" else 0) + np_ * 5 + rep)
                    r = row(np_, drv, cb, rep, bw)
                    if busy_run == r["row"]["run"]:
                        r = row(np_, drv, cb, rep, bw, busy=True)
                    runs.append(r)
    return {"kernel": "gcrm_io", "sweep": "figs", "columns": list(runs[0]["row"]),
            "axes": [{"key": "nprocs", "kind": "sweep", "values": list(nprocs)},
                     {"key": "driver", "kind": "param", "values": DRIVERS},
                     {"key": "hints.cb_nodes", "kind": "hint", "values": CB}], "runs": runs}


def figures(d, tmp_path, **kw):
    """make_all with the Figures kept: {file name: (figure, its texts)}."""
    seen = {}

    def hook(fig, path):
        import os
        seen[os.path.basename(path)] = (fig, report.figure_texts(fig))
    report.SAVE_HOOK.append(hook)
    try:
        figs, res = report.make_all(d, str(tmp_path), **kw)
    finally:
        report.SAVE_HOOK.remove(hook)
    return seen, res, figs


def all_text(texts):
    return "\n".join(texts)


def one_line(texts):
    return " ".join(all_text(texts).split())


def test_every_figure_says_what_decided_its_numbers(tmp_path):
    busy = "np2,driver=netcdf,cb_nodes=1/rep3"
    seen, res, figs = figures(doc(busy_run=busy), tmp_path)
    assert set(seen) == {"scaling.png", "phases.png", "heatmap_driver_cb_nodes.png", "imbalance.png"}
    for name in ("scaling.png", "phases.png", "heatmap_driver_cb_nodes.png"):
        text = one_line(seen[name][1])
        for words in ("input zgrd.in.r3", "9437184 B (9 MiB) per run", "call pattern original", "format cdf2",
                      "timing window io", "host vm", "2026-11-28 17:10 to 17:14",
                      "load 1-3.5 (1 minute, start and end of each run) on 2 cores",
                      "1 of 60 runs with the load above the cores (marked \u00d7)",
                      "ext4 on /dev/vda1, page cache, not durable"):
            assert words in text, (name, words, text)
    # the driver labelled with the format it wrote (netCDF-C writing CDF-2 through PnetCDF)
    assert "driver=netcdf/cdf2" in all_text(seen["scaling.png"][1])
    page = html.page(res, figs, str(tmp_path))
    assert "<b>Ran under:</b> host vm, 2026-11-28 17:10 to 17:14, load 1-3.5" in page
    assert "<b>Built with:</b> MPI Open MPI v4.1.4, climio commit abc123" in page
    assert "<b>Load above the cores</b> during 1 of 60 runs" in page and busy in page
    # the results table: input, bytes per run, call pattern, driver/format
    assert '<td>zgrd.in.r3</td><td class="num">9437184</td><td>original</td><td>netcdf/cdf2</td>' in page


def scatter_points(ax):
    """(x, y) of every point drawn by scatter (the repetitions' dots)."""
    out = []
    for c in ax.collections:
        if hasattr(c, "get_offsets") and type(c).__name__ == "PathCollection":
            out += [tuple(p) for p in c.get_offsets()]
    return out


def test_every_repetition_is_drawn_and_the_loaded_one_marked(tmp_path):
    busy = "np2,driver=netcdf,cb_nodes=1/rep3"
    seen, res, _ = figures(doc(busy_run=busy), tmp_path)
    fig, texts = seen["scaling.png"]
    assert len(scatter_points(fig.axes[0])) == 60            # 2 x 2 x 3 points x 5 repetitions
    assert "one repetition" in texts and "repetition with the load\nabove the cores" in texts
    red = [c for c in fig.axes[0].collections if type(c).__name__ == "PathCollection"
           and tuple(round(x, 3) for x in c.get_edgecolor()[0][:3]) == (0.839, 0.153, 0.157)]
    assert len(red) == 1
    # one process count: the bandwidth figure, a row per point, every repetition a dot
    seen, _, _ = figures(doc(nprocs=(2,)), tmp_path / "one")
    fig, texts = seen["bandwidth.png"]
    assert len(scatter_points(fig.axes[0])) == 30
    assert "one repetition" in texts and "repetition with the load\nabove the cores" not in texts


def test_heatmap_cells_in_plain_decimals(tmp_path):
    seen, _, _ = figures(doc(scale=12.5), tmp_path)
    texts = seen["heatmap_driver_cb_nodes.png"][1]
    cells = [t for t in texts if "[" in t and "\n" in t and t[0].isdigit()]
    assert len(cells) == 12, texts
    assert not [t for t in cells if "e+" in t or "e-" in t]
    # 12.5 x (100 + 10 x 2 + 30 + 2 x 5 + 2) = 2025: the median of pnetcdf, cb_nodes=2, 2 processes
    assert "2025\n[2000-2050]" in cells


def test_one_time_unit_per_report_from_the_data(tmp_path):
    """The end-to-end times straddle 1 s in one run only: the phases and the
    imbalance figures both use the unit of the largest time (s), whichever
    run is shown."""
    d = doc(nprocs=(2,))
    for r in d["runs"]:
        r["row"]["end_to_end_s"] = 0.08
    d["runs"][7]["row"]["end_to_end_s"] = 1.2
    seen, res, _ = figures(d, tmp_path)
    assert res.unit == "s"
    assert "time (s)" in one_line(seen["phases.png"][1])
    assert "time per rank (s" in one_line(seen["imbalance.png"][1])
    d["runs"][7]["row"]["end_to_end_s"] = 0.08
    seen, res, _ = figures(d, tmp_path / "ms")
    assert res.unit == "ms" and "time (ms)" in one_line(seen["phases.png"][1])
    assert "time per rank (ms" in one_line(seen["imbalance.png"][1])


def test_phases_add_up_to_the_end_to_end_time_with_pack_apart(tmp_path):
    seen, res, _ = figures(doc(nprocs=(2,)), tmp_path)
    fig, texts = seen["phases.png"]
    ax, pack_ax = fig.axes[0], fig.axes[1]
    # per bar (point), the stacked segments end at the median repetition's end-to-end time
    ends = {}
    for patch in ax.patches:
        y = round(patch.get_y() + patch.get_height() / 2, 3)
        ends[y] = max(ends.get(y, 0), patch.get_x() + patch.get_width())
    points = list(res.points().values())
    for i, rows in enumerate(points):
        e2e = sorted(r["end_to_end_s"] for r in rows)[(len(rows) - 1) // 2] * res.unit_factor
        assert abs(ends[float(i)] - e2e) < 1e-9 * max(e2e, 1), (i, ends[float(i)], e2e)
    legend = all_text(texts)
    assert "in the window, outside the timed calls" in legend and "making the data (pack)" not in \
        [t.get_text() for t in fig.legends[0].get_texts()]
    assert "outside the timing window" in pack_ax.get_xlabel()
    assert [round(p.get_width(), 6) for p in pack_ax.patches] == [round(0.3 * res.unit_factor, 6)] * len(points)
    # the window holding the data: pack is a phase of the bar, and no panel apart
    d = doc(nprocs=(2,))
    for r in d["runs"]:
        r["row"]["io.timing_window"] = "end_to_end_with_data"
    seen, _, _ = figures(d, tmp_path / "with")
    fig, _ = seen["phases.png"]
    assert len(fig.axes) == 1 and "making the data (pack)" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_imbalance_run_by_a_stable_rule_named_by_what_ran(tmp_path):
    d = doc()
    seen, res, figs = figures(d, tmp_path)
    title = seen["imbalance.png"][1]
    text = one_line(title)
    # the first point of 2 processes in the file's order (pnetcdf, cb_nodes 4), its median repetition (2)
    assert "run np2,driver=pnetcdf,cb_nodes=4/rep2, chosen as the first point of the largest process count" in text
    assert "pnetcdf/cdf2 nonblocking_collective (asked blocking_collective)" in text
    # a rerun whose other points changed places picks the same point
    d2 = copy.deepcopy(d)
    d2["runs"].reverse()
    for r in d2["runs"]:
        if r["row"]["point"] != "np2,driver=pnetcdf,cb_nodes=4":
            r["row"]["write_bandwidth_MiBps"] *= 3
    seen2, _, _ = figures(d2, tmp_path / "again")
    assert "run np2,driver=pnetcdf,cb_nodes=4/rep2," in one_line(seen2["imbalance.png"][1])


def test_one_category_order_in_every_figure_and_the_page(tmp_path):
    """The sweep file lists cb_nodes as 4, 1, 2 and the drivers as pnetcdf,
    netcdf; every figure and the page keep that order."""
    d = doc(nprocs=(2,))
    d["runs"].reverse()                          # the runs' order (a shuffled sweep) does not matter
    seen, res, figs = figures(d, tmp_path)
    heat = seen["heatmap_driver_cb_nodes.png"][0].axes[0]
    assert [t.get_text() for t in heat.get_xticklabels()] == ["pnetcdf/cdf2", "netcdf/cdf2"]
    assert [t.get_text() for t in heat.get_yticklabels()] == ["4", "1", "2"]
    want = ["driver=%s/cdf2, cb_nodes=%d" % (drv, cb) for drv in DRIVERS for cb in CB]
    for name in ("bandwidth.png", "phases.png"):
        labels = [t.get_text().replace("\n", " ") for t in seen[name][0].axes[0].get_yticklabels()]
        assert labels == want, (name, labels)
    page = html.page(res, figs, str(tmp_path))
    at = [page.index("<td>%s</td><td>%d</td>" % ("%s/cdf2" % drv, cb)) for drv in DRIVERS for cb in CB]
    assert at == sorted(at)
    seen, _, _ = figures(doc(), tmp_path / "scaling")
    legend = [t for t in seen["scaling.png"][1] if t.startswith(("driver=", "cb_nodes="))]
    assert legend == ["driver=pnetcdf/cdf2", "driver=netcdf/cdf2", "cb_nodes=4", "cb_nodes=1", "cb_nodes=2"]


def test_pairwise_matrix_within_each_panel(tmp_path):
    seen, res, figs = figures(doc(), tmp_path)
    assert [w for w, _, _ in res.pairs] == ["1 processes", "2 processes"]
    words, names, table = res.pairs[1]
    assert len(names) == 6 and len(table) == 15
    # pnetcdf beats netcdf by 30/135: separated by the test and more than 10% apart
    p = table[("driver=pnetcdf/cdf2, cb_nodes=4", "driver=netcdf/cdf2, cb_nodes=4")]
    assert p.better == "driver=pnetcdf/cdf2, cb_nodes=4" and abs(p.ratio - 142 / 112) < 1e-12
    assert p.low <= p.ratio <= p.high
    # cb_nodes 4 against 1: 10 MiB/s apart on about 120: separated but under the 10% minimum
    p = table[("driver=pnetcdf/cdf2, cb_nodes=4", "driver=pnetcdf/cdf2, cb_nodes=1")]
    assert p.better is None and "apart (at least 10% needed)" in p.reason
    with open(str(tmp_path / "pairwise.csv")) as f:
        lines = f.read().splitlines()
    assert lines[0].startswith("panel,point_a,point_b,median_a,median_b,ratio_a_b,ratio_ci95_low,ratio_ci95_high,p,")
    assert len(lines) == 1 + 2 * 15
    page = html.page(res, figs, str(tmp_path))
    assert "<h2>Every point against every other</h2>" in page and "<h3>2 processes</h3>" in page


def test_overlap_and_compression_figures_read_back(tmp_path):
    """The two figures drawn only when the results have them: the model-visible
    output time against the synchronous one (every repetition a dot, in the
    report's time unit) and the compression ratio against the bandwidth."""
    d = doc(nprocs=(2,))
    for r in d["runs"]:
        r["row"]["kernel_report.overlap.blocked_s"] = 0.02
        r["row"]["kernel_report.overlap.synchronous_s"] = 0.08
        r["row"]["storage_ratio"] = 2.0 + CB.index(r["row"]["hints.cb_nodes"])
    seen, res, _ = figures(d, tmp_path)
    fig, texts = seen["overlap.png"]
    text = one_line(texts)
    assert "time (ms), bars the median of the repetitions, dots every repetition" in text
    assert "overlap 75%" in texts and "host vm" in text and "input zgrd.in.r3" in text
    assert len(scatter_points(fig.axes[0])) == 2 * 30
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [
        "driver=%s/cdf2, cb_nodes=%d" % (drv, cb) for drv in DRIVERS for cb in CB]
    fig, texts = seen["ratio_bandwidth.png"]
    assert [t.get_text() for t in fig.axes[0].texts] == [
        "driver=%s/cdf2, cb_nodes=%d" % (drv, cb) for drv in DRIVERS for cb in CB]
    assert "compression ratio (data bytes / bytes on disk)" in texts and "host vm" in one_line(texts)


def test_comparison_figure_read_back(tmp_path):
    from climio_sweep import compare
    a, b = doc(nprocs=(2,)), doc(nprocs=(2,), scale=1.5)
    for r in b["runs"]:
        r["row"]["host.load_start_1m"] = 7.0
        r["row"]["host.load_over_cores"] = True
    cmp = compare.Comparison(a, b, "A", "B")
    seen = {}
    report.output_formats(["png"], 100)
    compare.figure(cmp, str(tmp_path / "compare.png"),
                   lambda fig, path: seen.update(texts=report.figure_texts(fig), fig=fig) or path)
    text = one_line(seen["texts"])
    assert "Sweep B against sweep A, point by point (gcrm_io)" in text
    assert "A: host vm, 2026-11-28 17:10 to 17:14, load 1-1.5" in text
    assert "B: host vm, 2026-11-28 17:10 to 17:14, load 1.5-7 (1 minute, start and end of each run) on 2 cores, 30 " \
           "of 30 runs with the load above the cores" in text
    counts = cmp.counts()
    assert sum(counts.values()) == 15 and set(counts) <= {"held", "held: no clear difference"}    # scaled: all hold
    assert "pairwise verdicts within each process count: %d held, %d held: no clear difference" % (
        counts["held"], counts["held: no clear difference"]) in text
    ax, ax2 = seen["fig"].axes
    assert len(scatter_points(ax)) == 60
    # every ratio 1.5 (B is A scaled), each drawn with its interval
    assert all(abs(p.ratio - 1.5) < 1e-12 for _, _, p, _, _ in cmp.points)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "driver=%s/cdf2, cb_nodes=%d" % (drv, cb) for drv in DRIVERS for cb in CB]
