"""Figures from collected results (results.json): scaling, time per phase,
hint heatmaps, per-rank imbalance of one run and, for PFIO-like kernels,
model-visible output time against synchronous output time.  Every figure shows
the median of a point's repetitions with its spread (min to max), for one
metric (--metric: write or read bandwidth, end-to-end time, any timer); each is
written in the formats asked (--format png,pdf,svg); html.py puts them with the
tables in one page."""

import math
import os
import statistics

from .collect import PHASES
from .errors import SweepError
from . import runs_as, verdict
from .results import (BW, METRICS, Results, fixed, fmt, is_num, metric_label, resolve_metric, short,  # noqa: F401
                      spread, wrap, _values)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle
except ImportError:   # report only; the sweep itself needs no matplotlib
    plt = None

FORMATS = ("png", "pdf", "svg")
PHASE_LABELS = {
    "create": "create/open", "define": "define (dims, vars, atts, enddef)", "write": "write/post (put, iput)",
    "wait": "wait", "sync": "sync (--fsync)", "close": "close", "rearrange": "rearrange",
}
PHASE_COLORS = {"create": "#4c72b0", "define": "#dd8452", "write": "#55a868", "wait": "#c44e52",
                "sync": "#da8bc3", "close": "#8172b3", "rearrange": "#937860"}
DPI = 200       # --dpi
MAX_SERIES = 8


def need_matplotlib():
    if plt is None:
        raise SweepError("report needs matplotlib: run the tool with a Python that has it "
                         "(CLIMIO_PYTHON=/usr/bin/python3 on Debian, or pip install matplotlib numpy)")


def clear_winner(cells, higher=True):
    """cells: {key: [values of its repetitions]}: the best cell by median
    tested against the runner-up (verdict.compare: a Mann-Whitney U test on at
    least verdict.MIN_REPS repetitions each).  Returns a verdict.Verdict, which
    unpacks as (winner or None, best key, runner-up key)."""
    return verdict.compare(cells, higher)


def verdict_note(what, v, where=str):
    """One sentence on a comparison: the winner with the test's figures, or
    "no clear winner" and why."""
    if v.best is None or v.second is None:
        return "%s: one cell: no comparison" % what
    if v.winner is not None:
        return "%s: %s beats the runner-up (%s): %s, p = %.3g, ratio of medians %s [%s-%s] (95%% bootstrap " \
               "interval)" % (what, where(v.winner), where(v.second), verdict.TEST_NAME, v.p, fixed(v.ratio),
                              fixed(v.low), fixed(v.high))
    return "%s: no clear winner between %s and %s (%s; %s)" % (what, where(v.best), where(v.second), v.reason,
                                                               verdict.TEST_NAME)


SAVE_FORMATS = ["png"]    # set by make_all from --format
SAVE_DPI = [DPI]          # set by make_all from --dpi
SAVE_HOOK = []            # callables given (figure, path) before it is written: the tests read its texts


def figure_texts(fig):
    """Every text a figure shows: titles, axis labels, tick labels, legend
    entries, texts placed in the axes and on the figure."""
    out = [t.get_text() for t in fig.texts]
    if getattr(fig, "_suptitle", None) is not None:
        out.append(fig._suptitle.get_text())
    for ax in fig.axes:
        out += [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [t.get_text() for t in ax.texts]
        leg = ax.get_legend()
        if leg is not None:
            out += [t.get_text() for t in leg.get_texts()]
    for leg in fig.legends:
        out += [t.get_text() for t in leg.get_texts()]
    return [t for t in out if t]


def _save(fig, path):
    """Write the figure in every format asked (path's extension replaced);
    returns the path of the first (the page shows it)."""
    for hook in SAVE_HOOK:
        hook(fig, path)
    base = os.path.splitext(path)[0]
    out = []
    for f in SAVE_FORMATS:
        out.append("%s.%s" % (base, f))
        fig.savefig(out[-1], dpi=SAVE_DPI[0], bbox_inches="tight", format=f)
    plt.close(fig)
    return out[0]


# ---------------------------------------------------------------- every repetition

MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
STYLES = ["-", "--", ":", "-."]
REP_STYLE = {"s": 14, "alpha": 0.55, "linewidths": 0, "zorder": 4}
BUSY_STYLE = {"marker": "x", "color": "#d62728", "s": 30, "linewidths": 1.4, "zorder": 5}


def _draw_reps(ax, res, rows, at, color, horizontal=False, spread_=0.0):
    """Every repetition of rows as a dot at position `at` (x, or y when
    horizontal), spread a little across it; a run that had the load above
    the cores as a red x.  Returns True when it drew such a run."""
    vals = [(r[res.metric] * res.mfactor, res.busy(r)) for r in rows if is_num(r.get(res.metric))]
    n = len(vals)
    busy = False
    for k, (v, b) in enumerate(vals):
        off = (k - (n - 1) / 2.0) / max(n - 1, 1) * spread_ if n > 1 else 0.0
        xy = (v, at + off) if horizontal else (at + off, v)
        if b:
            ax.scatter([xy[0]], [xy[1]], **BUSY_STYLE)
            busy = True
        else:
            ax.scatter([xy[0]], [xy[1]], color=color, **REP_STYLE)
    return busy


def _rep_handles(busy):
    """Legend entries for the repetitions' marks."""
    from matplotlib.lines import Line2D
    out = [Line2D([], [], marker="o", linestyle="none", color="#555", alpha=0.55, ms=4, label="one repetition")]
    if busy:
        out.append(Line2D([], [], marker="x", linestyle="none", color="#d62728", ms=6,
                          label="repetition with the load\nabove the cores"))
    return out


def _ordered_keys(res, others, keys):
    """Series keys (tuples of values of `others`) in the category order."""
    def place(k):
        out = []
        for i, name in enumerate(others):
            seq = res.order.get(name, [])
            out.append((0, seq.index(k[i]), "") if k[i] in seq else (1, 0, k[i]))
        return tuple(out)
    return sorted(keys, key=place)


# ---------------------------------------------------------------- bandwidth

def _styles(res, others, keys):
    """Colour for the first varying setting, marker for the second, line
    style for the third (the rest share them): {series key: style} and the
    legend's entries, one per setting value in the category order."""
    from matplotlib.lines import Line2D
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    values = [res.in_order(others[i], list({k[i] for k in keys})) for i in range(len(others))]
    style, handles = {}, []
    for k in keys:
        st = {"color": colours[values[0].index(k[0]) % len(colours)] if others else colours[0],
              "marker": MARKERS[values[1].index(k[1]) % len(MARKERS)] if len(others) > 1 else "o",
              "linestyle": STYLES[values[2].index(k[2]) % len(STYLES)] if len(others) > 2 else "-"}
        style[k] = st
    for i, name in enumerate(others[:3]):
        for v in values[i]:
            kw = {"color": "black", "marker": None, "linestyle": "-"}
            kw.update([("color", colours[values[0].index(v) % len(colours)])] if i == 0 else
                      [("marker", MARKERS[values[1].index(v) % len(MARKERS)]), ("linestyle", "none")] if i == 1 else
                      [("linestyle", STYLES[values[2].index(v) % len(STYLES)])])
            label = "%s=%s" % (short(name), res.shown(name, v))
            handles.append(Line2D([], [], label=wrap(label), **kw))
    return style, handles


def scaling(res, path):
    """The metric against process count, one line per combination of the other
    swept settings: the median of the repetitions joined by lines, bars min to
    max, and every repetition a dot beside it."""
    others = [k for k in res.varying if k != "nprocs"]
    pick = max if res.higher else min
    series = {}
    for r in res.ok:
        series.setdefault(tuple(fmt(r.get(k)) for k in others), []).append(r)
    note = ""
    if len(series) > MAX_SERIES:
        # too many lines to read: one per driver and mode, best of the rest
        keep = [k for k in ("io.driver", "io.iotype", "driver", "iotype") if k in others] or others[:1]
        grouped = {}
        for r in res.ok:
            grouped.setdefault(tuple(fmt(r.get(k)) for k in keep), []).append(r)
        series, others = {}, keep
        for key, rows in grouped.items():
            best = []
            for n in sorted({r["nprocs"] for r in rows}):
                by_point = res.points([r for r in rows if r["nprocs"] == n])
                best.append(pick(by_point.values(), key=lambda rs: statistics.median(_values(rs, res.metric))))
            series[key] = [r for rs in best for r in rs]
        note = " (best of the other swept settings)"
    fig, ax = plt.subplots(figsize=(8, 5))
    ns = sorted({r["nprocs"] for r in res.ok})
    log = ns[-1] / ns[0] >= 4
    keys = _ordered_keys(res, others, list(series))
    nser = len(keys)
    style, handles = _styles(res, others, keys)
    busy = False
    for i, key in enumerate(keys):
        rows = series[key]
        xs = sorted({r["nprocs"] for r in rows})
        med, lo, hi = [], [], []
        # dodge the series sideways a little so error bars at one count stay apart
        d = (i - (nser - 1) / 2.0) * 0.03
        place = (lambda x: x * 2 ** (d * math.log2(ns[-1] / ns[0]))) if log else \
            (lambda x: x + d * (ns[-1] - ns[0] or 1))
        for n in xs:
            at = [r for r in rows if r["nprocs"] == n]
            m, a, b = spread(res.mvalues(at))
            med.append(m)
            lo.append(m - a)
            hi.append(b - m)
            busy |= _draw_reps(ax, res, at, place(n), style[key]["color"])
        ax.errorbar([place(x) for x in xs], med, yerr=[lo, hi], capsize=4, zorder=3, **style[key])
    if log:
        ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])
    ax.set_xlabel("MPI processes")
    ax.set_ylabel(res.mlabel)
    ax.set_ylim(bottom=0)
    ax.set_title("%s vs process count%s\n%s" % (res.mlabel[0].upper() + res.mlabel[1:], note, res.context()),
                 fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(handles=handles + _rep_handles(busy), fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0)
    fig.text(0.01, -0.02, "lines: medians of the repetitions (shifted sideways a little to keep them apart); "
             "bars: min to max; dots: every repetition.%s" % (" Bandwidth = bytes written / (last close - first "
                                                              "create)." if res.metric == BW else ""),
             fontsize=7.5, color="#555")
    return _save(fig, path)


def bandwidth_bars(res, path):
    """With a single process count: one row per point, every repetition a
    dot over the median (a bar) and the range (a line from min to max)."""
    pts = res.points()
    labels = [res.label(rows[0], res.varying) for rows in pts.values()]
    fig, ax = plt.subplots(figsize=(8, 1.6 + 0.42 * len(labels)))
    busy = False
    for y, rows in enumerate(pts.values()):
        m, a, b = spread(res.mvalues(rows))
        ax.barh([y], [m], height=0.6, color="#4c72b0", alpha=0.35, zorder=2)
        ax.plot([a, b], [y, y], color="black", lw=1.2, zorder=3)
        ax.plot([m], [y], marker="|", color="black", ms=16, mew=2, zorder=3)
        busy |= _draw_reps(ax, res, rows, y, "#1f3d7a", horizontal=True, spread_=0.3)
    ax.set_yticks(list(range(len(labels))))
    ax.set_yticklabels([wrap(t, 60) for t in labels], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.set_xlabel("%s: bar and tick the median, line min to max, dots every repetition" % res.mlabel)
    ax.set_title("%s per setting (%s processes)\n%s" % (res.mlabel[0].upper() + res.mlabel[1:],
                                                       res.constant("nprocs"), res.context()), fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(handles=_rep_handles(busy), fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    return _save(fig, path)


def ratio_points(res):
    """Per setting whose runs measured their storage: (label, bandwidth (median,
    min, max), ratio (median, min, max), the runs' (bandwidth, ratio) pairs), in
    the order of the points."""
    out = []
    for rows in res.points().values():
        rs = [r for r in rows if is_num(r.get("storage_ratio")) and is_num(r.get(BW))]
        if rs:
            out.append((res.label(rows[0], res.varying), spread(_values(rs, BW)), spread(_values(rs, "storage_ratio")),
                        [(r[BW], r["storage_ratio"]) for r in rs]))
    return out


def ratio_bandwidth(res, path):
    """Compression ratio (data / bytes on disk) against write bandwidth: per
    setting the median of the repetitions with min-max bars (the runs as faint
    dots), labelled by setting; None when no run measured its storage."""
    pts = ratio_points(res)
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, (label, (bm, blo, bhi), (rm, rlo, rhi), runs) in enumerate(pts):
        color = "C%d" % (i % 10)
        ax.scatter([b for b, _ in runs], [r for _, r in runs], s=10, color=color, alpha=0.35, linewidths=0)
        ax.errorbar([bm], [rm], xerr=[[bm - blo], [bhi - bm]], yerr=[[rm - rlo], [rhi - rm]], fmt="o", ms=6,
                    color=color, capsize=3)
        ax.annotate(label, (bm, rm), fontsize=7, xytext=(4, 4), textcoords="offset points")
    ax.set_xlabel("write bandwidth of the data (MiB/s): median, bars min to max of the repetitions")
    ax.set_ylabel("compression ratio (data bytes / bytes on disk)")
    ax.set_title("Compression ratio against bandwidth\n%s" % res.context(), fontsize=10)
    ax.grid(True, alpha=0.3)
    return _save(fig, path)


# ---------------------------------------------------------------- phases

OTHER = ("in the window, outside the timed calls (other ranks, the kernel's own work)", "#d9d9d9")


def representative(res, rows):
    """The repetition a point's phases are drawn from: the one whose
    end-to-end time is the median (the lower of the two middle ones), ties to
    the earlier repetition."""
    timed = sorted((r for r in rows if is_num(r.get("end_to_end_s"))),
                   key=lambda r: (r["end_to_end_s"], r.get("repetition") or 0))
    return timed[(len(timed) - 1) // 2] if timed else None


def phases(res, path, max_bars=60):
    """One bar per point: the phases of its median repetition (mean time per
    rank) stacked with the rest of the end-to-end window, so that the bar's
    length is that repetition's end-to-end time; every repetition's end-to-end
    time a dot on it.  Making the data (pack) is drawn apart, on the right,
    unless the timing window holds it (io.timing_window end_to_end_with_data),
    where it is a phase like the others."""
    pts = [(p, rows, representative(res, rows)) for p, rows in list(res.points().items())[:max_bars]]
    pts = [(p, rows, rep) for p, rows, rep in pts if rep is not None]
    cols = [("phase.%s_mean_s" % p, PHASE_LABELS[p], PHASE_COLORS[p]) for p, _ in PHASES]
    pack = ("timer.pack_mean_s", "making the data (pack)", "#bbbbbb")
    inside = any(fmt(rep.get("io.timing_window")) == "end_to_end_with_data" for _, _, rep in pts)
    if inside:
        cols.append(pack)
    used = [c for c in cols if any((rep.get(c[0]) or 0) > 0 for _, _, rep in pts)]
    if not pts or not used:
        return None
    labels = [res.label(rows[0], res.varying) for _, rows, _ in pts]
    f, unit = res.unit_factor, res.unit
    show_pack = not inside and any((rep.get(pack[0]) or 0) > 0 for _, _, rep in pts)
    fig, axes = plt.subplots(1, 2 if show_pack else 1, figsize=(11 if show_pack else 9, 3.2 + 0.4 * len(pts)),
                             squeeze=False, sharey=True,
                             gridspec_kw={"width_ratios": [4, 1]} if show_pack else None)
    ax = axes[0][0]
    y = list(range(len(pts)))
    left = [0.0] * len(pts)
    over = []
    for c, label, color in used:
        w = [(rep.get(c) or 0) * f for _, _, rep in pts]
        ax.barh(y, w, left=left, color=color, label=label, height=0.7)
        left = [a + b for a, b in zip(left, w)]
    e2e = [rep["end_to_end_s"] * f for _, _, rep in pts]
    rest = [max(e - s, 0.0) for e, s in zip(e2e, left)]
    ax.barh(y, rest, left=left, color=OTHER[1], label=OTHER[0], height=0.7, hatch="//", edgecolor="white")
    for i, (e, s) in enumerate(zip(e2e, left)):
        if s > e * 1.001:
            over.append(labels[i])
    busy = False
    for i, (_, rows, _) in enumerate(pts):
        for r in rows:
            v = r.get("end_to_end_s")
            if is_num(v):
                b = res.busy(r)
                busy |= b
                ax.scatter([v * f], [i], **(BUSY_STYLE if b else dict(REP_STYLE, color="black", marker="|", s=120,
                                                                       linewidths=1.2)))
    ax.set_yticks(y)
    ax.set_yticklabels([wrap(t, 50) for t in labels], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.set_xlabel(wrap("time (%s): the phases of the median repetition (mean over ranks) and the rest of its "
                       "window add up to its end-to-end time; ticks: every repetition's end-to-end time" % unit, 80),
                  fontsize=8.5)
    ax.grid(True, axis="x", alpha=0.3)
    from matplotlib.lines import Line2D
    handles, _ = ax.get_legend_handles_labels()
    handles.append(Line2D([], [], marker="|", linestyle="none", color="black", ms=10,
                          label="end to end of one repetition"))
    if busy:
        handles.append(Line2D([], [], marker="x", linestyle="none", color="#d62728", ms=6,
                              label="repetition with the load\nabove the cores"))
    if show_pack:
        ax2 = axes[0][1]
        ax2.barh(y, [(rep.get(pack[0]) or 0) * f for _, _, rep in pts], color=pack[2], height=0.7)
        ax2.set_xlim(left=0)
        ax2.set_xlabel("making the data (pack, %s):\noutside the timing window" % unit, fontsize=8.5)
        ax2.grid(True, axis="x", alpha=0.3)
    fig.suptitle("Time per phase\n%s" % res.context(), fontsize=10)
    fig.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 0.9), borderaxespad=0)
    if over:
        res.notes.append("Time per phase: the phases' mean times exceed the end-to-end time in %s (timers that "
                         "overlap)" % "; ".join(over))
    fig.tight_layout()
    return _save(fig, path)


# ---------------------------------------------------------------- heatmaps

def heatmap_pairs(res):
    hints = [k for k in res.varying if k.startswith("hints.")]
    pool = hints if len(hints) >= 2 else [k for k in res.varying if k != "nprocs"]
    if len(pool) < 2:
        pool = res.varying
    return [(a, b) for i, a in enumerate(pool) for b in pool[i + 1:]]


def heatmap(res, a, b, path, max_panels=6):
    """The metric over two swept settings: each cell the median of its best
    point's repetitions with [min-max] in plain decimals (x: a run of it had
    the load above the cores); a cell is boxed as the best only when the test
    separates it from the runner-up and their medians are far enough apart
    (verdict.py), else the panel says there is no clear winner."""
    others = [k for k in res.varying if k not in (a, b)]
    pick = max if res.higher else min
    panels = {}
    for r in res.ok:
        panels.setdefault(tuple(fmt(r.get(k)) for k in others), []).append(r)
    note = ""
    if len(panels) > max_panels:
        panels = {(): res.ok}
        note = "best over %s" % ", ".join(short(k) for k in others)
    xa = res.in_order(a, list({fmt(r.get(a)): r.get(a) for r in res.ok}.values()))
    yb = res.in_order(b, list({fmt(r.get(b)): r.get(b) for r in res.ok}.values()))
    n = len(panels)
    cols = min(n, 3)
    rows_ = math.ceil(n / cols)
    fig, axes = plt.subplots(rows_, cols, figsize=(1.8 + cols * max(3.6, 1.2 * len(xa) + 1.5),
                                                   1.6 + rows_ * max(2.8, 0.7 * len(yb) + 1.6)),
                             squeeze=False, layout="constrained")
    vmax = 0
    grids = []
    for key in _ordered_keys(res, others, list(panels)):
        rows = panels[key]
        cells, cell_rows = {}, {}
        for i, vb in enumerate(yb):
            for j, va in enumerate(xa):
                cell = [r for r in rows if fmt(r.get(a)) == fmt(va) and fmt(r.get(b)) == fmt(vb)]
                if cell:
                    # the best point in the cell (by median), with all its repetitions
                    by_point = res.points(cell)
                    best = pick(by_point.values(), key=lambda rs: statistics.median(_values(rs, res.metric)))
                    cells[(i, j)] = _values(best, res.metric)
                    cell_rows[(i, j)] = best
                    vmax = max(vmax, statistics.median(cells[(i, j)]) * res.mfactor)
        grids.append((key, cells, cell_rows))
    cmap = "viridis" if res.higher else "viridis_r"
    any_busy = False
    for idx, (key, cells, cell_rows) in enumerate(grids):
        ax = axes[idx // cols][idx % cols]
        data = [[statistics.median(cells[(i, j)]) * res.mfactor if (i, j) in cells else float("nan")
                 for j in range(len(xa))] for i in range(len(yb))]
        im = ax.imshow(data, cmap=cmap, vmin=0, vmax=vmax or 1, aspect="auto", origin="lower")
        v = clear_winner(cells, res.higher)
        winner, best, second = v
        for i in range(len(yb)):
            for j in range(len(xa)):
                if (i, j) not in cells:
                    ax.text(j, i, "-", ha="center", va="center", color="#888")
                    continue
                m, lo, hi = (x * res.mfactor for x in spread(cells[(i, j)]))
                light = (m < 0.6 * (vmax or 1)) == res.higher
                busy = any(res.busy(r) for r in cell_rows[(i, j)])
                any_busy |= busy
                text = fixed(m, 4) if len(cells[(i, j)]) == 1 else "%s\n[%s-%s]" % (fixed(m, 4), fixed(lo), fixed(hi))
                ax.text(j, i, text + (" \u00d7" if busy else ""), ha="center", va="center", fontsize=7.5,
                        color="white" if light else "black", fontweight="bold" if (i, j) == winner else None)
        sub = ", ".join("%s=%s" % (short(k), res.shown(k, v)) for k, v in zip(others, key)) if key else note
        where = lambda ij: "%s=%s, %s=%s" % (short(a), res.shown(a, xa[ij[1]]), short(b), res.shown(b, yb[ij[0]]))
        res.notes.append(verdict_note("%s x %s%s" % (short(a), short(b), " (%s)" % sub if sub else ""), v, where))
        if winner:
            ax.add_patch(Rectangle((winner[1] - 0.5, winner[0] - 0.5), 1, 1, fill=False, edgecolor="red", lw=2.5))
            verdict_text = "best: %s (p = %s, %sx the runner-up)" % (where(winner), fixed(v.p, 2), fixed(
                v.ratio if res.higher else 1 / v.ratio))
        elif second is None and best is not None:
            verdict_text = "one cell: no comparison"
        else:
            verdict_text = "no clear winner"
        ax.set_xticks(range(len(xa)))
        ax.set_xticklabels([wrap(res.shown(a, v), 16) for v in xa], fontsize=8)
        ax.set_yticks(range(len(yb)))
        ax.set_yticklabels([wrap(res.shown(b, v), 24) for v in yb], fontsize=8)
        ax.set_xlabel(short(a))
        ax.set_ylabel(short(b))
        ax.set_title("\n".join(wrap(t, 60) for t in (sub, verdict_text) if t), fontsize=8.5)
    for idx in range(len(grids), rows_ * cols):
        axes[idx // cols][idx % cols].axis("off")
    cb = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.9)
    cb.set_label("%s, median of repetitions" % res.mlabel)
    fig.suptitle("%s\n%s" % (wrap("%s over %s x %s (cells: median [min-max]%s; red box: best by %s)" % (
        res.mlabel[0].upper() + res.mlabel[1:], short(a), short(b),
        ", \u00d7: a repetition had the load above the cores" if any_busy else "", verdict.TEST_NAME), 100),
        res.context()), fontsize=9.5)
    return _save(fig, path)


# ---------------------------------------------------------------- imbalance

def pick_run(res, run_id=None):
    """The run the imbalance figure shows: --run, else by a stable rule: the
    first point, in the category order, of the largest process count, and of
    its repetitions the one of median metric (the lower of the two middle
    ones; ties to the earlier repetition)."""
    if run_id:
        for r in res.ok:
            if r["run"] == run_id or r["run_dir"].endswith(run_id):
                return r
        raise SweepError("report --run: expected a successful run of this sweep, found '%s' (runs: %s)" % (
            run_id, ", ".join(r["run"] for r in res.ok[:5]) + (" ..." if len(res.ok) > 5 else "")))
    top = max(r["nprocs"] for r in res.ok)
    first = list(res.points([r for r in res.ok if r["nprocs"] == top]).values())[0]
    cand = sorted(first, key=lambda r: (r[res.metric], r.get("repetition") or 0))
    return cand[(len(cand) - 1) // 2]


PICK_RULE = ("the first point of the largest process count (in the sweep file's order), its repetition of median "
             "%s")


def _range_panel(ax, items, unit, factor, color, fmt_extremes):
    """One row per item: a bar from min to max, a diamond at the mean; a log
    axis when the values span more than two decades (zeros drawn at the floor)."""
    vals = [v * factor for _, m in items for v in (m["min"], m["mean"], m["max"]) if v and v > 0]
    vmax = max(vals)
    log = min(vals) > 0 and vmax / min(vals) > 100
    floor = min(vals) / 2 if log else 0
    for i, (k, m) in enumerate(items):
        lo, mean, hi = (max(m[x] * factor, floor) for x in ("min", "mean", "max"))
        ax.plot([lo, hi], [i, i], color=color, lw=7, alpha=0.5, solid_capstyle="butt")
        ax.plot([mean], [i], marker="D", color="black", ms=5)
        ax.text(hi * (1.15 if log else 1) + (0 if log else vmax * 0.01), i, fmt_extremes(m),
                va="center", fontsize=7.5, color="#333")
    ax.set_yticks(list(range(len(items))))
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
        ax.set_xlim(floor, vmax * 30)
        from matplotlib.ticker import FuncFormatter
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fixed(v)))    # no 10^k labels
    else:
        ax.set_xlim(0, vmax * 1.35)
    ax.grid(True, axis="x", alpha=0.3)
    return log


def what_ran(r):
    """A run named by what ran: 'pnetcdf/cdf2 nonblocking_collective (asked
    blocking_collective)'."""
    drv = "/".join(fmt(r.get(k)) for k in ("io.driver", "io.format") if r.get(k) is not None)
    mode = runs_as.label(r.get("io.iotype_effective"), r.get("io.iotype"))
    return " ".join(x for x in (drv, mode) if x) or "?"


def imbalance(res, path, run_id=None):
    """min/mean/max over ranks of every timer of one run, with the ranks of the
    extremes, and the same for peak memory.  The run: --run, or pick_run's
    rule, named by what ran."""
    r = pick_run(res, run_id)
    doc = r["_doc"] or {}
    timers = (doc.get("write") or {}).get("timers") or {}
    rows = [(k, t) for k, t in timers.items() if (t.get("calls") or 0) > 0 and (t.get("max") or 0) > 0]
    if not rows:
        return None, r
    mem = (doc.get("write") or {}).get("memory") or {}
    mems = [(k, m) for k, m in mem.items() if isinstance(m, dict) and (m.get("max") or 0) > 0]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9, 2.8 + 0.36 * (len(rows) + len(mems))),
                                  gridspec_kw={"height_ratios": [max(len(rows), 1), max(len(mems), 1) + 0.5]})
    unit, f = res.unit, res.unit_factor
    log = _range_panel(ax, rows, unit, f, "#4c72b0",
                       lambda t: "slowest rank %s, fastest rank %s" % (t.get("max_rank"), t.get("min_rank")))
    ax.set_yticklabels(["%s (%d calls)" % (k, t.get("calls", 0)) for k, t in rows], fontsize=8)
    ax.set_xlabel("time per rank (%s%s): bar from the fastest to the slowest rank, diamond = mean" % (
        unit, ", log scale" if log else ""))
    chosen = "chosen with --run" if run_id else "chosen as " + PICK_RULE % short(res.metric)
    ax.set_title(wrap("Per-rank imbalance of one run: %s, %d processes, %s%s, repetition %s; %s %s%s" % (
        res.kernel, r["nprocs"], what_ran(r), ", " + res.label(r, res.varying) if res.varying else "",
        r.get("repetition"), res.mlabel + ":", fixed(r[res.metric] * res.mfactor, 4),
        " (load above the cores)" if res.busy(r) else ""), 100) + "\n" + wrap(
        "run %s, %s" % (r["run"], chosen), 110) + "\n" + res.provenance([r]), fontsize=9)
    if mems:
        log2 = _range_panel(ax2, mems, "MiB", 1.0 / 1048576, "#55a868",
                            lambda m: "largest on rank %s" % m.get("max_rank"))
        ax2.set_yticklabels([k.replace("_bytes", "").replace("_", " ") for k, _ in mems], fontsize=8)
        ax2.set_xlabel("peak memory per rank (MiB%s): bar from the smallest to the largest rank, diamond = mean"
                       % (", log scale" if log2 else ""))
    else:
        ax2.axis("off")
    fig.tight_layout()
    return _save(fig, path), r


# ---------------------------------------------------------------- PFIO overlap

def overlap_fields(res):
    """kernel_report columns with the model-visible (blocked) output time and
    the synchronous output time, when the kernel reports them."""
    cols = sorted({k for r in res.ok for k, v in r.items()
                   if k.startswith("kernel_report.") and isinstance(v, (int, float)) and not isinstance(v, bool)
                   and "rank" not in k})
    # pfio_io's names first, then anything that reads like them
    if "kernel_report.overlap.blocked_s" in cols and "kernel_report.overlap.synchronous_s" in cols:
        return "kernel_report.overlap.blocked_s", "kernel_report.overlap.synchronous_s"
    leaf = {c: c.rsplit(".", 1)[1].lower() for c in cols}
    visible = [c for c in cols if ("visible" in leaf[c] or "blocked" in leaf[c]) and "frac" not in leaf[c]]
    sync = [c for c in cols if ("synchronous" in leaf[c] or leaf[c].startswith("sync")) and "async" not in leaf[c]]
    if not visible or not sync:
        return None
    pref = lambda cs: sorted(cs, key=lambda c: (not (c.endswith("_s") or "second" in c), len(c)))[0]
    return pref(visible), pref(sync)


def overlap(res, path):
    f = overlap_fields(res)
    if not f:
        return None
    vis, syn = f
    pts = [(p, rows) for p, rows in res.points().items() if _values(rows, vis) and _values(rows, syn)]
    if not pts:
        return None
    k = res.unit_factor
    labels = [res.label(rows[0], res.varying) for _, rows in pts]
    v = [statistics.median(_values(rows, vis)) * k for _, rows in pts]
    s = [statistics.median(_values(rows, syn)) * k for _, rows in pts]
    fig, ax = plt.subplots(figsize=(9, 1.6 + 0.45 * len(pts)))
    y = list(range(len(pts)))
    h = 0.38
    ax.barh([i - h / 2 for i in y], s, height=h, color="#c44e52", label="synchronous output time (%s)" % short_kr(syn))
    ax.barh([i + h / 2 for i in y], v, height=h, color="#55a868",
            label="model-visible output time (%s)" % short_kr(vis))
    for i, (_, rows) in enumerate(pts):    # every repetition
        for col, off in ((syn, -h / 2), (vis, h / 2)):
            vals = [(r[col] * k, res.busy(r)) for r in rows if is_num(r.get(col))]
            for x, b in vals:
                ax.scatter([x], [i + off], **(BUSY_STYLE if b else dict(REP_STYLE, color="black")))
        if s[i] > 0:
            ax.text(max(s[i], v[i]) * 1.02, i, "overlap %.0f%%" % (100 * (1 - v[i] / s[i])), va="center",
                    fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(s + v) * 1.25)
    ax.set_xlabel("time (%s), bars the median of the repetitions, dots every repetition; overlap = 1 - visible / "
                  "synchronous" % res.unit)
    ax.set_title("Output time seen by the model vs synchronous output\n%s" % res.context(), fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(pts) < 4 else -0.15), ncol=2)
    return _save(fig, path)


def short_kr(col):
    return col[len("kernel_report."):]


# ---------------------------------------------------------------- every pair

def panels(res):
    """The points compared with each other: those of one process and node
    count (the scale is not a setting to choose), in the category order.
    [(panel words, {point label: rows})]."""
    out = {}
    for r in res.ok:
        out.setdefault((r.get("nprocs"), r.get("nodes")), []).append(r)
    result = []
    for (n, nodes), rows in sorted(out.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1] or 0)):
        keys = [k for k in res.varying if k not in ("nprocs", "nodes")]
        pts = {res.label(rs[0], keys): rs for rs in res.points(rows).values()}
        words = "%s processes%s" % (n, ", %s nodes" % nodes if is_num(nodes) and nodes != 1 else "")
        result.append((words, pts))
    return result


def pairwise(res):
    """Every point against every other within a panel (verdict.pairwise):
    [(panel words, [point labels], {(a, b): verdict.Pair})]."""
    out = []
    for words, pts in panels(res):
        if len(pts) < 2:
            continue
        values = {name: _values(rows, res.metric) for name, rows in pts.items()}
        out.append((words, list(values), verdict.pairwise(values, res.higher)))
    return out


PAIR_COLUMNS = ["panel", "point_a", "point_b", "median_a", "median_b", "ratio_a_b", "ratio_ci95_low",
                "ratio_ci95_high", "p", "repetitions_a", "repetitions_b", "better", "why_not"]


def write_pairs(path, pairs, res):
    """pairwise.csv: one row per pair (every point against every other within
    a panel), the metric's medians in its own unit."""
    import csv
    from .collect import write_file

    def fill(f):
        w = csv.writer(f)
        w.writerow(PAIR_COLUMNS + ["metric"])
        for words, _, table in pairs:
            for (a, b), p in table.items():
                w.writerow([words, a, b, repr(p.ma), repr(p.mb), _r(p.ratio), _r(p.low), _r(p.high), _r(p.p), p.na,
                            p.nb, p.better or "", p.reason, res.metric])
    write_file(path, fill, newline="")


def _r(v):
    return "" if v is None else repr(v)


# ---------------------------------------------------------------- all

def output_formats(formats, dpi):
    """--format and --dpi, checked and set for _save."""
    need_matplotlib()
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise SweepError("report --format: expected a comma-separated list of %s, found '%s'" % (
            ", ".join(FORMATS), ",".join(formats)))
    SAVE_FORMATS[:] = list(formats)
    if not isinstance(dpi, int) or not 50 <= dpi <= 1200:
        raise SweepError("report --dpi: expected a whole number of dots per inch from 50 to 1200, found '%s'" % dpi)
    SAVE_DPI[0] = dpi


def make_all(doc, outdir, run_id=None, formats=("png",), metric="write", dpi=DPI):
    """Writes the figures in every format asked, and pairwise.csv; returns
    [(title, path of the first format, caption)] and the Results (its
    .pairs: every point against every other within a panel)."""
    output_formats(formats, dpi)
    res = Results(doc, metric)
    res.pairs = []
    done = [r for r in res.all if r.get("status") == "done"]
    if done and not res.ok:
        raise SweepError("report --metric %s: no run of this sweep measured it (%s is empty in all %d successful "
                         "runs): choose a metric the runs measured" % (metric, res.metric, len(done)))
    os.makedirs(outdir, exist_ok=True)
    figs = []
    if not res.ok:
        return figs, res
    m = res.mlabel
    every = " Every repetition is a dot; a red x marks a repetition that had the load above the machine's cores."
    if len({r["nprocs"] for r in res.ok}) > 1:
        figs.append(("Scaling", scaling(res, os.path.join(outdir, "scaling.png")),
                     "%s against the number of MPI processes: median of the repetitions, bars min to max.%s" % (
                         m[0].upper() + m[1:], every)))
    else:
        figs.append(("Bandwidth" if res.metric == BW else "Per setting",
                     bandwidth_bars(res, os.path.join(outdir, "bandwidth.png")),
                     "%s of each setting: median of the repetitions, line min to max.%s" % (m[0].upper() + m[1:],
                                                                                          every)))
    p = ratio_bandwidth(res, os.path.join(outdir, "ratio_bandwidth.png"))
    if p:
        figs.append(("Compression ratio vs bandwidth", p,
                     "Each setting's compression ratio (data bytes / bytes HDF5 allocated on disk) against its "
                     "write bandwidth of the data: median of the repetitions, bars min to max, each run a faint "
                     "dot."))
    before = len(res.notes)
    p = phases(res, os.path.join(outdir, "phases.png"))
    if p:
        figs.append(("Time per phase", p, "Per point, its median repetition (by end-to-end time): the mean time per "
                                          "rank in each phase, then the rest of its end-to-end window, so that the "
                                          "bar is its end-to-end time; ticks: every repetition's end-to-end time; "
                                          "making the data (pack) apart when it is outside the timing window. %s"
                     % " ".join(res.notes[before:])))
    for a, b in heatmap_pairs(res):
        name = "heatmap_%s_%s.png" % (short(a), short(b))
        before = len(res.notes)
        path = heatmap(res, a, b, os.path.join(outdir, name))
        figs.append(("Heatmap %s x %s" % (short(a), short(b)), path,
                     "Median %s for each pair of values, [min-max] below it; a red box marks the best only where "
                     "the test separates it from the runner-up and their medians are at least %d%% apart. %s" % (
                         m, round(verdict.MIN_EFFECT * 100), " ".join(res.notes[before:]))))
    p, r = imbalance(res, os.path.join(outdir, "imbalance.png"), run_id)
    if p:
        figs.append(("Per-rank imbalance", p, "Run %s (%s), %s: fastest, mean and slowest rank of every timer." % (
            r["run"], what_ran(r), "chosen with --run" if run_id else "chosen as " + PICK_RULE % short(res.metric))))
    p = overlap(res, os.path.join(outdir, "overlap.png"))
    if p:
        figs.append(("Model-visible vs synchronous output", p,
                     "From the kernel's report: %s vs %s." % tuple(short_kr(c) for c in overlap_fields(res))))
    res.pairs = pairwise(res)
    if res.pairs:
        write_pairs(os.path.join(outdir, "pairwise.csv"), res.pairs, res)
    return figs, res
