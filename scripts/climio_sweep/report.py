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

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle
except ImportError:   # report only; the sweep itself needs no matplotlib
    plt = None

BW = "write_bandwidth_MiBps"
# --metric NAME: (results column, axis label, higher is better)
METRICS = {
    "write": (BW, "write bandwidth (MiB/s)", True),
    "read": ("readback_bandwidth_MiBps", "read-back bandwidth (MiB/s)", True),
    "time": ("end_to_end_s", "end-to-end write time (s)", False),
}
FORMATS = ("png", "pdf", "svg")
PHASE_LABELS = {
    "create": "create/open", "define": "define (dims, vars, atts, enddef)", "write": "write/post (put, iput)",
    "wait": "wait", "close": "close", "rearrange": "rearrange",
}
PHASE_COLORS = {"create": "#4c72b0", "define": "#dd8452", "write": "#55a868", "wait": "#c44e52",
                "close": "#8172b3", "rearrange": "#937860"}
DPI = 200       # --dpi
MAX_SERIES = 8


def need_matplotlib():
    if plt is None:
        raise SweepError("report needs matplotlib: run the tool with a Python that has it "
                         "(CLIMIO_PYTHON=/usr/bin/python3 on Debian, or pip install matplotlib numpy)")


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class Results:
    """The collected rows (successful runs only) and what varies among them."""

    def __init__(self, doc, metric="write"):
        self.doc = doc
        self.kernel = doc.get("kernel") or "?"
        self.sweep = doc.get("sweep") or "?"
        self.axes = [a["key"] for a in doc.get("axes", [])]
        self.all = [dict(r["row"], _doc=r["result"]) for r in doc.get("runs", [])]
        self.metric, self.mlabel, self.higher = resolve_metric(metric, doc.get("columns") or [])
        self.ok = [r for r in self.all if r.get("status") == "done" and isinstance(r.get(self.metric), (int, float))]
        self.notes = []     # what the figures concluded, for the page (heatmap winners)
        self.failed = [r for r in self.all if r.get("status") == "failed"]
        self.varying = [k for k in self.axes if len({fmt(r.get(k)) for r in self.ok}) > 1]
        self.ran = ran_map(self.ok, self.axes)

    def shown(self, key, value):
        """A setting's value as the figures show it: what ran, with what was
        asked in parentheses where they differ (iotype, driver, format)."""
        return self.ran.get(key, {}).get(fmt(value), fmt(value))

    def constant(self, key):
        vals = {fmt(r.get(key)) for r in self.ok if r.get(key) is not None}
        return vals.pop() if len(vals) == 1 else None

    def context(self):
        """What was run, for titles: kernel, sweep, driver/mode/format when fixed."""
        bits = ["%s, sweep '%s'" % (self.kernel, self.sweep)]
        for key, asked, label in (("io.driver", "io.driver_asked", "driver"),
                                  ("io.iotype_effective", "io.iotype", ""), ("io.format", "io.format_asked", "format")):
            v = self.constant(key)
            swept = {key, asked, asked[len("io."):], label or "iotype"} & set(self.varying)
            if v and not swept:
                a = self.constant(asked)
                if a in ("default", None):
                    a = v
                v = runs_as.label(v, a)
                bits.append("%s %s" % (label, v) if label else v)
        reps = {r.get("repetition") for r in self.ok}
        bits.append("%d repetition%s" % (len(reps), "s" if len(reps) != 1 else ""))
        return wrap(", ".join(bits), 90) + ("\n" + self.banner() if self.banner() else "")

    def banner(self):
        """Where and how the runs wrote, in words: 'ext4 on /dev/vda, page
        cache, not durable' (each part 'varies' when the runs differ)."""
        def one(r):
            fs = r.get("context.file_system.type")
            src = r.get("context.file_system.source")
            where = ("%s on %s" % (fs, src) if src else fs) if fs else "file system unknown"
            if fs in ("tmpfs", "ramfs"):
                cache = "in memory"
            elif r.get("context.page_cache.fits") is True:
                cache = "page cache"
            elif r.get("context.page_cache.fits") is False:
                cache = "beyond the page cache"
            else:
                cache = "page cache unknown"
            return where, cache, "durable" if r.get("io.durable") else "not durable"
        parts = [sorted({one(r)[i] for r in self.ok}) for i in range(3)]
        return ", ".join(p[0] if len(p) == 1 else "varies (%s)" % "; ".join(p) for p in parts) if self.ok else ""

    def ran_as_notes(self):
        """One sentence per swept value that ran as something else, with the cause."""
        out = []
        for key, m in self.ran.items():
            for asked, shown in m.items():
                causes = sorted({fmt(r.get("io.iotype_cause")) for r in self.ok
                                 if fmt(r.get(key)) == asked and r.get("io.iotype_cause")})
                out.append("%s=%s ran as %s%s" % (short(key), asked, shown.split(" (asked")[0],
                                                 ": " + "; ".join(causes) if causes else ""))
        return out

    def label(self, row, keys):
        return ", ".join("%s=%s" % (short(k), self.shown(k, row.get(k))) for k in keys) or "all runs"

    def points(self, rows=None):
        """Rows grouped by point (repetitions together), in first-seen order."""
        out = {}
        for r in rows if rows is not None else self.ok:
            out.setdefault(r["point"], []).append(r)
        return out


# swept keys whose value may run as something else: the row's column of what ran
RAN_AS = {"iotype": "io.iotype_effective", "io.iotype": "io.iotype_effective", "driver": "io.driver",
          "io.driver": "io.driver", "format": "io.format", "io.format": "io.format"}


def ran_map(rows, axes):
    """{axis key: {asked value: label}} for the axes whose runs ran as
    something else: 'nonblocking_collective (asked blocking_collective)'."""
    out = {}
    for key in axes:
        col = RAN_AS.get(key)
        if not col:
            continue
        seen = {}
        for r in rows:
            if r.get(col) is not None:
                seen.setdefault(fmt(r.get(key)), set()).add(fmt(r.get(col)))
        for asked, ran in seen.items():
            shown = " or ".join(sorted(ran))
            if shown != asked:
                out.setdefault(key, {})[asked] = runs_as.label(shown, asked)
    return out


# Human names of the engine's timers and of results.csv's columns (axis labels).
TIMER_NAMES = {
    "create": "file create", "open": "file open", "def_dim": "define dimensions", "def_var": "define variables",
    "put_att": "write attributes", "enddef": "end of define mode", "inq": "inquiries", "get_att": "read attributes",
    "put": "blocking writes", "iput": "posting nonblocking writes", "wait": "waiting for nonblocking writes",
    "get": "blocking reads", "iget": "posting nonblocking reads", "get_wait": "waiting for nonblocking reads",
    "sync": "sync (--fsync)", "close": "file close", "pack": "filling buffers (pack)",
    "rearrange": "moving data to I/O tasks", "check": "comparing data read", "generate": "making the data",
}
COLUMN_NAMES = {
    "end_to_end_s": "end-to-end write time", "write_bandwidth_MiBps": "write bandwidth",
    "read_bandwidth_MiBps": "read bandwidth", "readback_end_to_end_s": "read-back time",
    "readback_bandwidth_MiBps": "read-back bandwidth", "wall_s": "wall time of the program",
    "run_s": "wall time of the launch", "storage_ratio": "compression ratio (data / stored)",
    "compression_added_s": "time compression added", "compression_added_fraction": "time compression added (fraction)",
    "compression_unfiltered_s": "end-to-end time without filters",
}
STAT_WORDS = {"max": "slowest rank", "mean": "mean over ranks", "min": "fastest rank"}


def metric_label(col):
    """A results.csv column in words with its unit: timer.wait_max_s ->
    'waiting for nonblocking writes, slowest rank (s)'."""
    unit = "MiB/s" if col.endswith("_MiBps") else "s" if col.endswith("_s") else \
        "bytes" if col.endswith("_bytes") else "calls" if col.endswith("_calls") else ""
    base = col
    for suffix in ("_MiBps", "_s", "_bytes", "_calls"):
        if base.endswith(suffix):
            base = base[:-len(suffix)]
            break
    if col in COLUMN_NAMES:
        words = COLUMN_NAMES[col]
    elif base.startswith("timer."):
        name, _, stat = base[len("timer."):].rpartition("_")
        if stat not in STAT_WORDS:
            name, stat = base[len("timer."):], ""
        words = "%s%s" % (TIMER_NAMES.get(name, name.replace("_", " ")),
                          ", " + STAT_WORDS[stat] if stat else "")
    elif base.startswith("phase."):
        words = "%s phase, mean over ranks" % base[len("phase."):-len("_mean")].replace("_", " ")
    else:
        words = base.replace("kernel_report.", "").replace("_", " ").replace(".", ": ")
    return "%s (%s)" % (words, unit) if unit else words


def resolve_metric(name, columns):
    """--metric: write, read, time, a timer name (its slowest rank: timer.NAME_max_s),
    or any numeric column of results.csv.  Returns (column, label, higher is better)."""
    if name in METRICS:
        return METRICS[name]
    for col in (name, "timer.%s_max_s" % name):
        if col in columns:
            return col, metric_label(col), col.endswith("_MiBps") or col == "storage_ratio"
    timers = sorted(c[len("timer."):-len("_max_s")] for c in columns if c.startswith("timer.") and c.endswith("_max_s"))
    raise SweepError("report --metric: expected write, read, time, a timer (%s) or a column of results.csv, found "
                     "'%s'" % (", ".join(timers) or "none in these results", name))


def spread(values):
    """(median, min, max) of a point's repetitions."""
    return statistics.median(values), min(values), max(values)


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
        return "%s: %s beats the runner-up (%s): %s, p = %.3g" % (what, where(v.winner), where(v.second),
                                                                  verdict.TEST_NAME, v.p)
    return "%s: no clear winner between %s and %s (%s; %s)" % (what, where(v.best), where(v.second), v.reason,
                                                               verdict.TEST_NAME)


def wrap(text, width=30):
    """A label broken into lines of about width characters (never cut)."""
    import textwrap
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def short(key):
    return key.split(".", 1)[1] if key.startswith(("hints.", "env.")) else key


def _values(rows, col):
    return [r[col] for r in rows if isinstance(r.get(col), (int, float))]


def _sortkey(v):
    return (0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (1, 0, fmt(v))


def time_unit(vmax):
    """A unit that keeps tick labels short: (name, factor to multiply seconds by)."""
    if vmax >= 1:
        return "s", 1.0
    if vmax >= 1e-3:
        return "ms", 1e3
    return "\u00b5s", 1e6


SAVE_FORMATS = ["png"]    # set by make_all from --format
SAVE_DPI = [DPI]          # set by make_all from --dpi


def _save(fig, path):
    """Write the figure in every format asked (path's extension replaced);
    returns the path of the first (the page shows it)."""
    base = os.path.splitext(path)[0]
    out = []
    for f in SAVE_FORMATS:
        out.append("%s.%s" % (base, f))
        fig.savefig(out[-1], dpi=SAVE_DPI[0], bbox_inches="tight", format=f)
    plt.close(fig)
    return out[0]


# ---------------------------------------------------------------- bandwidth

MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
STYLES = ["-", "--", ":", "-."]


def _styles(others, keys, shown=lambda k, v: v):
    """Colour for the first varying setting, marker for the second, line
    style for the third (the rest share them): {series key: style} and the
    legend's entries, one per setting value, with short labels."""
    from matplotlib.lines import Line2D
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    values = [sorted({k[i] for k in keys}, key=_sortkey) for i in range(len(others))]
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
            label = "%s=%s" % (short(name), shown(name, v))
            handles.append(Line2D([], [], label=wrap(label), **kw))
    return style, handles


def scaling(res, path):
    """The metric against process count, one line per combination of the other
    swept settings; points are the median of the repetitions, bars min to max."""
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
    nser = len(series)
    style, handles = _styles(others, list(series), res.shown)
    for i, (key, rows) in enumerate(sorted(series.items())):
        xs = sorted({r["nprocs"] for r in rows})
        med, lo, hi = [], [], []
        for n in xs:
            m, a, b = spread(_values([r for r in rows if r["nprocs"] == n], res.metric))
            med.append(m)
            lo.append(m - a)
            hi.append(b - m)
        # dodge the series sideways a little so error bars at one count stay apart
        d = (i - (nser - 1) / 2.0) * 0.012
        xd = [x * 2 ** (d * math.log2(ns[-1] / ns[0])) for x in xs] if log else \
            [x + d * (ns[-1] - ns[0] or 1) for x in xs]
        ax.errorbar(xd, med, yerr=[lo, hi], capsize=4, **style[key])
    if log:
        ax.set_xscale("log", base=2)
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])
    ax.set_xlabel("MPI processes")
    ax.set_ylabel(res.mlabel)
    ax.set_ylim(bottom=0)
    ax.set_title("%s vs process count%s\n%s" % (res.mlabel[0].upper() + res.mlabel[1:], note, res.context()),
                 fontsize=11)
    ax.grid(True, alpha=0.3)
    if handles:
        ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.text(0.01, -0.02, "points: median of the repetitions (shifted sideways a little to keep them apart); "
             "bars: min to max.%s" % (" Bandwidth = bytes written / (last close - first create)."
                                      if res.metric == BW else ""), fontsize=7.5, color="#555")
    return _save(fig, path)


def bandwidth_bars(res, path):
    """With a single process count: one bar per point (median), min to max as error bars."""
    pts = res.points()
    labels = [res.label(rows[0], res.varying) for rows in pts.values()]
    st = [spread(_values(rows, res.metric)) for rows in pts.values()]
    fig, ax = plt.subplots(figsize=(8, 1.2 + 0.35 * len(labels)))
    y = list(range(len(labels)))
    ax.barh(y, [m for m, _, _ in st], xerr=[[m - a for m, a, _ in st], [b - m for m, _, b in st]], capsize=3,
            color="#4c72b0")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("%s: median, bars min to max of the repetitions" % res.mlabel)
    ax.set_title("%s per setting (%s processes)\n%s" % (res.mlabel[0].upper() + res.mlabel[1:],
                                                       res.constant("nprocs"), res.context()), fontsize=11)
    ax.grid(True, axis="x", alpha=0.3)
    return _save(fig, path)


def ratio_points(res):
    """Per setting whose runs measured their storage: (label, bandwidth (median,
    min, max), ratio (median, min, max), the runs' (bandwidth, ratio) pairs), in
    the order of the points."""
    out = []
    for rows in res.points().values():
        rs = [r for r in rows if isinstance(r.get("storage_ratio"), (int, float))
              and isinstance(r.get(BW), (int, float))]
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
    ax.set_title("Compression ratio against bandwidth\n%s" % res.context(), fontsize=11)
    ax.grid(True, alpha=0.3)
    return _save(fig, path)


# ---------------------------------------------------------------- phases

def phases(res, path, max_bars=60):
    """Stacked mean time per rank in each phase, one bar per point; the
    engine's making of the data (pack) is shown too: outside the end-to-end
    window by default (io.timing_window io), inside with end_to_end_with_data."""
    pts = list(res.points().items())[:max_bars]
    cols = [("phase.%s_mean_s" % p, PHASE_LABELS[p], PHASE_COLORS[p]) for p, _ in PHASES]
    cols.append(("timer.pack_mean_s", "making the data (pack, not I/O)", "#bbbbbb"))
    used = [c for c in cols if any((r.get(c[0]) or 0) > 0 for _, rows in pts for r in rows)]
    if not used:
        return None
    labels = [res.label(rows[0], res.varying) for _, rows in pts]
    widths = [[statistics.median([r.get(c) or 0 for r in rows]) for _, rows in pts] for c, _, _ in used]
    e2e_st = [spread(_values(rows, "end_to_end_s") or [0]) for _, rows in pts]
    e2e = [m for m, _, _ in e2e_st]
    unit, f = time_unit(max(e2e + [sum(w) for w in zip(*widths)]))
    fig, ax = plt.subplots(figsize=(9, 1.6 + 0.32 * len(pts)))
    y = list(range(len(pts)))
    left = [0.0] * len(pts)
    for (c, label, color), w in zip(used, widths):
        w = [v * f for v in w]
        ax.barh(y, w, left=left, color=color, label=label, height=0.7)
        left = [a + b for a, b in zip(left, w)]
    ax.errorbar([v * f for v in e2e], y, xerr=[[(m - a) * f for m, a, _ in e2e_st], [(b - m) * f for m, _, b in e2e_st]],
                fmt="|", ms=16, color="black", capsize=3, zorder=3,
                label="end to end (first create to last close), min to max")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.set_xlabel("time (%s): mean over ranks, median over repetitions" % unit)
    ax.set_title("Time per phase\n%s" % res.context(), fontsize=11)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
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
    point's repetitions with [min-max]; a cell is boxed as the best only when
    its whole range beats the runner-up's, else the panel says there is no
    clear winner."""
    others = [k for k in res.varying if k not in (a, b)]
    pick = max if res.higher else min
    panels = {}
    for r in res.ok:
        panels.setdefault(tuple(fmt(r.get(k)) for k in others), []).append(r)
    note = ""
    if len(panels) > max_panels:
        panels = {(): res.ok}
        note = "best over %s" % ", ".join(short(k) for k in others)
    xa = sorted({r.get(a) for r in res.ok}, key=_sortkey)
    yb = sorted({r.get(b) for r in res.ok}, key=_sortkey)
    n = len(panels)
    cols = min(n, 3)
    rows_ = math.ceil(n / cols)
    fig, axes = plt.subplots(rows_, cols, figsize=(1.8 + cols * max(3.6, 1.2 * len(xa) + 1.5),
                                                   1.2 + rows_ * max(2.8, 0.7 * len(yb) + 1.6)),
                             squeeze=False, layout="constrained")
    vmax = 0
    grids = []
    for key, rows in sorted(panels.items()):
        cells = {}
        for i, vb in enumerate(yb):
            for j, va in enumerate(xa):
                cell = [r for r in rows if fmt(r.get(a)) == fmt(va) and fmt(r.get(b)) == fmt(vb)]
                if cell:
                    # the best point in the cell (by median), with all its repetitions
                    by_point = res.points(cell)
                    cells[(i, j)] = _values(pick(by_point.values(),
                                                 key=lambda rs: statistics.median(_values(rs, res.metric))),
                                            res.metric)
                    vmax = max(vmax, statistics.median(cells[(i, j)]))
        grids.append((key, cells))
    cmap = "viridis" if res.higher else "viridis_r"
    for idx, (key, cells) in enumerate(grids):
        ax = axes[idx // cols][idx % cols]
        data = [[statistics.median(cells[(i, j)]) if (i, j) in cells else float("nan") for j in range(len(xa))]
                for i in range(len(yb))]
        im = ax.imshow(data, cmap=cmap, vmin=0, vmax=vmax or 1, aspect="auto", origin="lower")
        v = clear_winner(cells, res.higher)
        winner, best, second = v
        for i in range(len(yb)):
            for j in range(len(xa)):
                if (i, j) not in cells:
                    ax.text(j, i, "-", ha="center", va="center", color="#888")
                    continue
                m, lo, hi = spread(cells[(i, j)])
                light = (m < 0.6 * (vmax or 1)) == res.higher
                text = "%.4g" % m if len(cells[(i, j)]) == 1 else "%.4g\n[%.3g-%.3g]" % (m, lo, hi)
                ax.text(j, i, text, ha="center", va="center", fontsize=7.5, color="white" if light else "black",
                        fontweight="bold" if (i, j) == winner else None)
        sub = ", ".join("%s=%s" % (short(k), res.shown(k, v)) for k, v in zip(others, key)) if key else note
        where = lambda ij: "%s=%s, %s=%s" % (short(a), res.shown(a, xa[ij[1]]), short(b), res.shown(b, yb[ij[0]]))
        res.notes.append(verdict_note("%s x %s%s" % (short(a), short(b), " (%s)" % sub if sub else ""), v, where))
        if winner:
            ax.add_patch(Rectangle((winner[1] - 0.5, winner[0] - 0.5), 1, 1, fill=False, edgecolor="red", lw=2.5))
            verdict_text = "best: %s (p = %.2g)" % (where(winner), v.p)
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
        ax.set_title("%s%s" % (sub + "\n" if sub else "", verdict_text), fontsize=8.5)
    for idx in range(len(grids), rows_ * cols):
        axes[idx // cols][idx % cols].axis("off")
    cb = fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.9)
    cb.set_label("%s, median of repetitions" % res.mlabel)
    fig.suptitle("%s\n%s" % (wrap("%s over %s x %s (cells: median [min-max]; red box: best by %s)" % (
        res.mlabel[0].upper() + res.mlabel[1:], short(a), short(b), verdict.TEST_NAME), 90), res.context()),
        fontsize=10)
    return _save(fig, path)


# ---------------------------------------------------------------- imbalance

def pick_run(res, run_id=None):
    if run_id:
        for r in res.ok:
            if r["run"] == run_id or r["run_dir"].endswith(run_id):
                return r
        raise SweepError("report --run: expected a successful run of this sweep, found '%s' (runs: %s)" % (
            run_id, ", ".join(r["run"] for r in res.ok[:5]) + (" ..." if len(res.ok) > 5 else "")))
    top = max(r["nprocs"] for r in res.ok)
    cand = sorted((r for r in res.ok if r["nprocs"] == top), key=lambda r: r[res.metric])
    return cand[len(cand) // 2]


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
    else:
        ax.set_xlim(0, vmax * 1.35)
    ax.grid(True, axis="x", alpha=0.3)
    return log


def imbalance(res, path, run_id=None):
    """min/mean/max over ranks of every timer of one run, with the ranks of the
    extremes, and the same for peak memory."""
    r = pick_run(res, run_id)
    doc = r["_doc"] or {}
    timers = (doc.get("write") or {}).get("timers") or {}
    rows = [(k, t) for k, t in timers.items() if (t.get("calls") or 0) > 0 and (t.get("max") or 0) > 0]
    if not rows:
        return None, r
    mem = (doc.get("write") or {}).get("memory") or {}
    mems = [(k, m) for k, m in mem.items() if isinstance(m, dict) and (m.get("max") or 0) > 0]
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(9, 2.4 + 0.36 * (len(rows) + len(mems))),
                                  gridspec_kw={"height_ratios": [max(len(rows), 1), max(len(mems), 1) + 0.5]})
    unit, f = time_unit(max(t["max"] for _, t in rows))
    log = _range_panel(ax, rows, unit, f, "#4c72b0",
                       lambda t: "slowest rank %s, fastest rank %s" % (t.get("max_rank"), t.get("min_rank")))
    ax.set_yticklabels(["%s (%d calls)" % (k, t.get("calls", 0)) for k, t in rows], fontsize=8)
    ax.set_xlabel("time per rank (%s%s): bar from the fastest to the slowest rank, diamond = mean" % (
        unit, ", log scale" if log else ""))
    ax.set_title("Per-rank imbalance of one run: %s\n%s, %d processes, %s %.4g" % (
        r["run"], res.kernel, r["nprocs"], res.mlabel, r[res.metric]), fontsize=11)
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
    labels = [res.label(rows[0], res.varying) for _, rows in pts]
    v = [statistics.median(_values(rows, vis)) for _, rows in pts]
    s = [statistics.median(_values(rows, syn)) for _, rows in pts]
    fig, ax = plt.subplots(figsize=(9, 1.6 + 0.45 * len(pts)))
    y = list(range(len(pts)))
    h = 0.38
    ax.barh([i - h / 2 for i in y], s, height=h, color="#c44e52", label="synchronous output time (%s)" % short_kr(syn))
    ax.barh([i + h / 2 for i in y], v, height=h, color="#55a868",
            label="model-visible output time (%s)" % short_kr(vis))
    for i in y:
        if s[i] > 0:
            ax.text(max(s[i], v[i]) * 1.02, i, "overlap %.0f%%" % (100 * (1 - v[i] / s[i])), va="center",
                    fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, max(s + v) * 1.25)
    ax.set_xlabel("time (s), median of repetitions; overlap = 1 - visible / synchronous")
    ax.set_title("Output time seen by the model vs synchronous output\n%s" % res.context(), fontsize=11)
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(pts) < 4 else -0.15), ncol=2)
    return _save(fig, path)


def short_kr(col):
    return col[len("kernel_report."):]


# ---------------------------------------------------------------- all

def make_all(doc, outdir, run_id=None, formats=("png",), metric="write", dpi=DPI):
    """Writes the figures in every format asked; returns [(title, path of the
    first format, caption)] and the Results."""
    need_matplotlib()
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise SweepError("report --format: expected a comma-separated list of %s, found '%s'" % (
            ", ".join(FORMATS), ",".join(formats)))
    SAVE_FORMATS[:] = list(formats)
    if not isinstance(dpi, int) or not 50 <= dpi <= 1200:
        raise SweepError("report --dpi: expected a whole number of dots per inch from 50 to 1200, found '%s'" % dpi)
    SAVE_DPI[0] = dpi
    res = Results(doc, metric)
    done = [r for r in res.all if r.get("status") == "done"]
    if done and not res.ok:
        raise SweepError("report --metric %s: no run of this sweep measured it (%s is empty in all %d successful "
                         "runs): choose a metric the runs measured" % (metric, res.metric, len(done)))
    os.makedirs(outdir, exist_ok=True)
    figs = []
    if not res.ok:
        return figs, res
    m = res.mlabel
    if len({r["nprocs"] for r in res.ok}) > 1:
        figs.append(("Scaling", scaling(res, os.path.join(outdir, "scaling.png")),
                     "%s against the number of MPI processes: median of the repetitions, bars min to max." % (
                         m[0].upper() + m[1:])))
    else:
        figs.append(("Bandwidth" if res.metric == BW else "Per setting",
                     bandwidth_bars(res, os.path.join(outdir, "bandwidth.png")),
                     "%s of each setting: median of the repetitions, bars min to max." % (m[0].upper() + m[1:])))
    p = ratio_bandwidth(res, os.path.join(outdir, "ratio_bandwidth.png"))
    if p:
        figs.append(("Compression ratio vs bandwidth", p,
                     "Each setting's compression ratio (data bytes / bytes HDF5 allocated on disk) against its "
                     "write bandwidth of the data: median of the repetitions, bars min to max, each run a faint "
                     "dot."))
    p = phases(res, os.path.join(outdir, "phases.png"))
    if p:
        figs.append(("Time per phase", p, "Mean time per rank in each phase (median of the repetitions); the black "
                                          "tick is the end-to-end time, its bar min to max."))
    for a, b in heatmap_pairs(res):
        name = "heatmap_%s_%s.png" % (short(a), short(b))
        before = len(res.notes)
        path = heatmap(res, a, b, os.path.join(outdir, name))
        figs.append(("Heatmap %s x %s" % (short(a), short(b)), path,
                     "Median %s for each pair of values, [min-max] below it; a red box marks the best only where it "
                     "beats the runner-up by a stated test. %s" % (m, " ".join(res.notes[before:]))))
    p, r = imbalance(res, os.path.join(outdir, "imbalance.png"), run_id)
    if p:
        figs.append(("Per-rank imbalance", p, "Run %s: fastest, mean and slowest rank of every timer." % r["run"]))
    p = overlap(res, os.path.join(outdir, "overlap.png"))
    if p:
        figs.append(("Model-visible vs synchronous output", p,
                     "From the kernel's report: %s vs %s." % tuple(short_kr(c) for c in overlap_fields(res))))
    return figs, res
