"""The collected results as the report reads them: the successful runs in
one category order (the sweep file's order of every swept list), what varies
among them and how each value is shown (what ran, the format beside the
driver), one time unit for the whole report, and the words every figure and
the page carry about what decided the numbers: the workload (input, bytes per
run, call pattern, format, timing window), where the runs wrote, and the
host, dates and load they ran under."""

import math
import statistics
import textwrap

from .errors import SweepError
from . import runs_as

BW = "write_bandwidth_MiBps"
# --metric NAME: (results column, axis label, higher is better)
METRICS = {
    "write": (BW, "write bandwidth (MiB/s)", True),
    "read": ("readback_bandwidth_MiBps", "read-back bandwidth (MiB/s)", True),
    "time": ("end_to_end_s", "end-to-end write time (s)", False),
}
BUSY = "host.load_over_cores"     # the run had the load above the cores (collect.PROVENANCE)


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def fixed(v, digits=3):
    """A number in plain decimals with about `digits` significant digits and
    never an exponent: 1370, 868, 12.5, 0.0421."""
    if v is None:
        return ""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return fmt(v)
    if isinstance(v, int) or not math.isfinite(v):
        return str(v)
    if v == 0:
        return "0"
    decimals = min(max(digits - 1 - math.floor(math.log10(abs(v))), 0), 12)
    text = "%.*f" % (decimals, v)
    return text.rstrip("0").rstrip(".") if "." in text else text


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class Results:
    """The collected rows (successful runs only) and what varies among them."""

    def __init__(self, doc, metric="write"):
        self.doc = doc
        self.kernel = doc.get("kernel") or "?"
        self.sweep = doc.get("sweep") or "?"
        self.axes = [a["key"] for a in doc.get("axes", [])]
        # the category order: each swept list as the sweep file gives it
        self.order = {a["key"]: [fmt(v) for v in a.get("values", [])] for a in doc.get("axes", [])}
        self.all = [dict(r["row"], _doc=r["result"]) for r in doc.get("runs", [])]
        self.metric, self.mlabel, self.higher = resolve_metric(metric, doc.get("columns") or [])
        self.ok = sorted((r for r in self.all if r.get("status") == "done" and is_num(r.get(self.metric))),
                         key=self.row_key)
        self.notes = []     # what the figures concluded, for the page (heatmap winners)
        self.failed = [r for r in self.all if r.get("status") == "failed"]
        self.varying = [k for k in self.axes if len({fmt(r.get(k)) for r in self.ok}) > 1]
        self.ran = ran_map(self.ok, self.axes)
        self.with_format = format_map(self.ok, self.axes)
        # one time unit for every figure, from the largest time among the runs
        self.unit, self.unit_factor = time_unit(max([0.0] + [v for r in self.ok for v in (
            r.get("end_to_end_s"), r.get("timer.pack_max_s"), r.get("timer.pack_mean_s")) if is_num(v)]))
        self.mfactor = 1.0
        if self.metric.endswith("_s") and self.mlabel.endswith("(s)"):
            self.mfactor = self.unit_factor
            self.mlabel = self.mlabel[:-len("(s)")] + "(%s)" % self.unit

    def row_key(self, row):
        """A row's place in the category order: each swept value's index in
        its list, then the repetition."""
        key = []
        for k in self.axes:
            v = fmt(row.get(k))
            seq = self.order.get(k, [])
            key.append((0, seq.index(v), "") if v in seq else (1, 0, v))
        return tuple(key) + ((row.get("repetition") if is_num(row.get("repetition")) else 0),)

    def in_order(self, key, values):
        """Values of one setting in the category order."""
        seq = self.order.get(key, [])
        return sorted(values, key=lambda v: (0, seq.index(fmt(v)), "") if fmt(v) in seq else (1,) + _sortkey(v)[1:])

    def mvalues(self, rows):
        """The metric of rows as the figures show it (times in the report's unit)."""
        return [v * self.mfactor for v in _values(rows, self.metric)]

    def shown(self, key, value):
        """A setting's value as the figures show it: what ran, with what was
        asked in parentheses where they differ (iotype, driver, format), and
        a driver with the format it wrote (netcdf/cdf2)."""
        text = self.ran.get(key, {}).get(fmt(value), fmt(value))
        fmt_ = self.with_format.get(key, {}).get(fmt(value))
        if fmt_:
            name, sep, rest = text.partition(" (asked")
            text = "%s/%s%s%s" % (name, fmt_, sep, rest)
        return text

    def constant(self, key):
        vals = {fmt(r.get(key)) for r in self.ok if r.get(key) is not None}
        return vals.pop() if len(vals) == 1 else None

    def busy(self, row):
        """The run had the load above the machine's cores."""
        return row.get(BUSY) is True

    def context(self):
        """What decided the figures, for titles: what ran (kernel, sweep,
        driver and mode when fixed), the workload, where the runs wrote, and
        the host, dates and load."""
        bits = ["%s, sweep '%s'" % (self.kernel, self.sweep)]
        for key, asked, label in (("io.driver", "io.driver_asked", "driver"), ("io.iotype_effective", "io.iotype", "")):
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
        lines = [", ".join(bits), self.workload(), self.banner(), self.provenance()]
        return "\n".join(wrap(line, 100) for line in lines if line)

    def _words(self, key, name, show=fmt):
        vals = sorted({fmt(r.get(key)) for r in self.ok if r.get(key) is not None})
        if not vals:
            return None
        if len(vals) == 1:
            return "%s %s" % (name, show(vals[0]))
        return "%s %s" % (name, ", ".join(show(v) for v in vals[:4]) + (" ..." if len(vals) > 4 else ""))

    def workload(self):
        """The workload in words: input, bytes per run, call pattern, format,
        timing window ('varies' parts list their values)."""
        if not self.ok:
            return ""
        bits = [self._words("input", "input")]
        sizes = _values(self.ok, "bytes_written_bytes")
        if sizes:
            lo, hi = min(sizes), max(sizes)
            bits.append("%s per run" % size_words(lo) if lo == hi else
                        "%s to %s per run" % (size_words(lo), size_words(hi)))
        bits.append(self._words("io.call_pattern", "call pattern"))
        bits.append(self._words("io.format", "format"))
        bits.append(self._words("io.timing_window", "timing window"))
        return ", ".join(b for b in bits if b)

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

    def load_range(self, rows=None):
        """(min, max) of the 1-minute load at the start and end of the runs, or None."""
        vals = [v for r in (self.ok if rows is None else rows)
                for v in (r.get("host.load_start_1m"), r.get("host.load_end_1m")) if is_num(v)]
        return (min(vals), max(vals)) if vals else None

    def provenance(self, rows=None):
        """Host, dates and load of the runs: 'host vm, 2026-11-28 17:11 to
        17:40, load 1.2-9.8 (1 minute, start and end of each run) on 2 cores,
        3 of 40 runs above the cores (marked x)'."""
        rows = self.ok if rows is None else rows
        if not rows:
            return ""
        hosts = sorted({fmt(r.get("host")) for r in rows if r.get("host")})
        bits = ["host %s" % hosts[0] if len(hosts) == 1 else
                "%d hosts (%s)" % (len(hosts), ", ".join(hosts[:3]) + (" ..." if len(hosts) > 3 else ""))
                if hosts else "host unknown"]
        dates = sorted(fmt(r.get("date")) for r in rows if r.get("date"))
        if dates:
            bits.append(date_range(dates[0], dates[-1]))
        rng = self.load_range(rows)
        cores = sorted({r.get("host.cpus_online") for r in rows if is_num(r.get("host.cpus_online"))})
        on = " on %s core%s" % ("/".join(str(c) for c in cores), "" if cores == [1] else "s") if cores else ""
        if rng:
            bits.append("load %s-%s (1 minute, start and end of each run)%s" % (fixed(rng[0]), fixed(rng[1]), on))
        else:
            bits.append("load not recorded")
        busy = sum(1 for r in rows if self.busy(r))
        if busy:
            bits.append("%d of %d runs with the load above the cores (marked \u00d7)" % (busy, len(rows)))
        return ", ".join(bits)

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
        """A point's label: its swept values as shown, and the iotype that ran
        when it differs between the points without being swept (gcrm_io's
        pnetcdf runs blocking_collective as nonblocking_collective, the other
        drivers do not)."""
        text = ", ".join("%s=%s" % (short(k), self.shown(k, row.get(k))) for k in keys) or "all runs"
        if not {"iotype", "io.iotype"} & set(keys) and self.constant("io.iotype_effective") is None \
                and row.get("io.iotype_effective"):
            text += ", %s" % runs_as.label(row.get("io.iotype_effective"), row.get("io.iotype"))
        return text

    def points(self, rows=None):
        """Rows grouped by point (repetitions together), in the category order."""
        out = {}
        for r in sorted(rows if rows is not None else self.ok, key=self.row_key):
            out.setdefault(r["point"], []).append(r)
        return out


def size_words(n):
    """Bytes in words: '9437184 B (9.0 MiB)'."""
    for unit, f in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if n >= f:
            return "%d B (%s %s)" % (n, fixed(n / f), unit)
    return "%d B" % n


def date_range(first, last):
    """ISO dates as '2026-11-28 17:11 to 17:40' (the day given once when it is one)."""
    a, b = first.replace("T", " ")[:16], last.replace("T", " ")[:16]
    if a == b:
        return a
    return "%s to %s" % (a, b[11:] if a[:10] == b[:10] else b)


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




# swept keys whose values are drivers: shown with the format each wrote
DRIVER_KEYS = ("driver", "io.driver")
FORMAT_KEYS = ("format", "io.format", "format_asked", "io.format_asked")


def format_map(rows, axes):
    """{driver axis key: {driver value: format it wrote}} when the format is
    not itself swept: the labels then say what was written (netcdf/cdf2:
    netCDF-C writing CDF-2 through its PnetCDF dispatch)."""
    if any(k in axes for k in FORMAT_KEYS):
        return {}
    out = {}
    for key in axes:
        if key not in DRIVER_KEYS:
            continue
        seen = {}
        for r in rows:
            if r.get("io.format") is not None:
                seen.setdefault(fmt(r.get(key)), set()).add(fmt(r.get("io.format")))
        out[key] = {v: " or ".join(sorted(f)) for v, f in seen.items()}
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


def wrap(text, width=30):
    """A label broken into lines of about width characters (never cut)."""
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def short(key):
    return key.split(".", 1)[1] if key.startswith(("hints.", "env.")) else key


def _values(rows, col):
    return [r[col] for r in rows if is_num(r.get(col))]


def _sortkey(v):
    return (0, v, "") if is_num(v) else (1, 0, fmt(v))


def time_unit(vmax):
    """One unit for the times of a report, from the largest of them: s from
    1 s up, ms from 1 ms, else µs.  (name, factor to multiply seconds by)."""
    if vmax >= 1:
        return "s", 1.0
    if vmax >= 1e-3:
        return "ms", 1e3
    return "\u00b5s", 1e6
