"""Two sweeps of the same sweep file, compared point by point
(`climio-sweep report A B`): for every point both ran, the ratio of the
medians B / A with its bootstrap 95% interval and whether the point moved
(verdict.Pair: the test and the minimum effect); and for every pair of points
within a panel, the verdict in A, the verdict in B and whether it held
(the same point better in both, or no clear difference in both), flipped
(the other point better), vanished or appeared.  `--pool` instead merges the
sweeps' runs into one report, as more repetitions of the same points."""

import csv
import os

from .collect import write_file
from .errors import SweepError
from .results import Results, fixed, fmt, spread, wrap
from . import verdict

FIXED_KINDS = ("param", "hint", "env")


def same_sweep(doc_a, doc_b, name_a, name_b):
    """Refuse two results that are not runs of one sweep file: another kernel
    or other fixed settings.  Swept values may differ: the common points are
    compared."""
    why = []
    if doc_a.get("kernel") != doc_b.get("kernel"):
        why.append("kernel: %s in %s, %s in %s" % (doc_a.get("kernel"), name_a, doc_b.get("kernel"), name_b))
    fa, fb = doc_a.get("fixed") or {}, doc_b.get("fixed") or {}
    for kind in FIXED_KINDS:
        a, b = fa.get(kind) or {}, fb.get(kind) or {}
        for k in sorted(set(a) | set(b)):
            if fmt(a.get(k)) != fmt(b.get(k)):
                why.append("%s %s: %s in %s, %s in %s" % (kind, k, fmt(a.get(k)), name_a, fmt(b.get(k)), name_b))
    keys_a = [x.get("key") for x in doc_a.get("axes", [])]
    keys_b = [x.get("key") for x in doc_b.get("axes", [])]
    if keys_a != keys_b:
        why.append("swept settings: %s in %s, %s in %s" % (", ".join(keys_a), name_a, ", ".join(keys_b), name_b))
    if why:
        raise SweepError("%s and %s: expected two runs of the same sweep file, found other settings: %s" % (
            name_a, name_b, "; ".join(why[:6]) + (" ..." if len(why) > 6 else "")))


def pooled(docs, names):
    """One results document holding the runs of every sweep: each run id
    prefixed by its sweep's name, repetitions numbered on from one sweep to
    the next."""
    for d, n in zip(docs[1:], names[1:]):
        same_sweep(docs[0], d, names[0], n)
    out = dict(docs[0], runs=[], sweep="%s (pooled: %s)" % (docs[0].get("sweep"), ", ".join(names)))
    axes = {}
    for d in docs:
        for a in d.get("axes", []):
            vals = axes.setdefault(a["key"], dict(a, values=[]))["values"]
            vals += [v for v in a.get("values", []) if v not in vals]
    out["axes"] = list(axes.values())
    offset = {}
    for d, n in zip(docs, names):
        top = {}
        for r in d.get("runs", []):
            row = dict(r["row"])
            point = row.get("point")
            rep = row.get("repetition") if isinstance(row.get("repetition"), int) else 0
            row["repetition"] = rep + offset.get(point, 0)
            top[point] = max(top.get(point, 0), row["repetition"] + 1)
            row["run"] = "%s:%s" % (n, row.get("run"))
            out["runs"].append({"row": row, "result": r.get("result")})
        offset.update(top)
    return out


class Comparison:
    """Sweep B against sweep A: .points [(point, label, Pair B vs A, rows A,
    rows B)] and .verdicts [(panel, a, b, Pair in A, Pair in B, outcome)]."""

    def __init__(self, doc_a, doc_b, name_a, name_b, metric="write"):
        same_sweep(doc_a, doc_b, name_a, name_b)
        self.name_a, self.name_b = name_a, name_b
        self.a, self.b = Results(doc_a, metric), Results(doc_b, metric)
        self.higher = self.a.higher
        pa, pb = self.a.points(), self.b.points()
        both = [p for p in pa if p in pb]
        self.only = sorted(set(pa) ^ set(pb))
        if not both:
            raise SweepError("%s and %s: expected points that both ran successfully, found none in common" % (
                name_a, name_b))
        keys = self.a.varying or self.b.varying
        self.points = []
        for p in both:
            label = self.a.label(pa[p][0], keys)
            pair = verdict.Pair(name_b, name_a, self.values(pb[p], self.b), self.values(pa[p], self.a),
                                self.higher)
            self.points.append((p, label, pair, pa[p], pb[p]))
        self.verdicts = []
        panels = {}
        for p, label, _, ra, _ in self.points:
            panels.setdefault((ra[0].get("nprocs"), ra[0].get("nodes")), []).append((p, label))
        for (n, _), members in sorted(panels.items(), key=lambda kv: (kv[0][0] or 0, kv[0][1] or 0)):
            va = {label: self.values(pa[p], self.a) for p, label in members}
            vb = {label: self.values(pb[p], self.b) for p, label in members}
            ta, tb = verdict.pairwise(va, self.higher), verdict.pairwise(vb, self.higher)
            for key in ta:
                self.verdicts.append(("%s processes" % n, key[0], key[1], ta[key], tb[key],
                                      outcome(ta[key].better, tb[key].better)))

    @staticmethod
    def values(rows, res):
        """The metric of rows, in its own unit (the verdicts' input)."""
        return [r[res.metric] for r in rows if isinstance(r.get(res.metric), (int, float))]

    def counts(self):
        out = {}
        for *_, o in self.verdicts:
            out[o] = out.get(o, 0) + 1
        return out

    def summary(self):
        moved = [p for p in self.points if p[2].better is not None]
        ratios = [p[2].ratio for p in self.points if p[2].ratio is not None]
        c = self.counts()
        return ("%d point(s) compared, %d moved beyond the rule (%s); ratio of medians %s / %s from %s to %s; "
                "%d pairwise verdict(s): %s" % (
                    len(self.points), len(moved), verdict.TEST_NAME, self.name_b, self.name_a,
                    fixed(min(ratios)) if ratios else "-", fixed(max(ratios)) if ratios else "-", len(self.verdicts),
                    ", ".join("%d %s" % (c[k], k) for k in OUTCOMES if k in c) or "none"))


OUTCOMES = ("held", "held: no clear difference", "flipped", "vanished", "appeared")


def outcome(in_a, in_b):
    """What became of a pairwise verdict of sweep A in sweep B."""
    if in_a is None and in_b is None:
        return "held: no clear difference"
    if in_a == in_b:
        return "held"
    if in_a is None:
        return "appeared"
    if in_b is None:
        return "vanished"
    return "flipped"


def write_csvs(cmp, dest):
    """compare.csv (one row per point) and verdicts.csv (one row per pair)."""
    def points(f):
        w = csv.writer(f)
        w.writerow(["point", "label", "median_a", "min_a", "max_a", "repetitions_a", "load_over_cores_a",
                    "median_b", "min_b", "max_b", "repetitions_b", "load_over_cores_b", "ratio_b_a",
                    "ratio_ci95_low", "ratio_ci95_high", "p", "moved", "metric"])
        for p, label, pair, ra, rb in cmp.points:
            sa = spread(cmp.values(ra, cmp.a))
            sb = spread(cmp.values(rb, cmp.b))
            w.writerow([p, label, *map(repr, sa), pair.nb, sum(1 for r in ra if cmp.a.busy(r)), *map(repr, sb),
                        pair.na, sum(1 for r in rb if cmp.b.busy(r)), _r(pair.ratio), _r(pair.low), _r(pair.high),
                        _r(pair.p), moved_words(cmp, pair), cmp.a.metric])

    def verdicts(f):
        w = csv.writer(f)
        w.writerow(["panel", "point_1", "point_2", "better_in_a", "p_a", "ratio_1_2_a", "better_in_b", "p_b",
                    "ratio_1_2_b", "outcome"])
        for panel, x, y, pa, pb, o in cmp.verdicts:
            w.writerow([panel, x, y, pa.better or "", _r(pa.p), _r(pa.ratio), pb.better or "", _r(pb.p),
                        _r(pb.ratio), o])
    write_file(os.path.join(dest, "compare.csv"), points, newline="")
    write_file(os.path.join(dest, "verdicts.csv"), verdicts, newline="")


def _r(v):
    return "" if v is None else repr(v)


def moved_words(cmp, pair):
    if pair.better is None:
        return "no: %s" % pair.reason
    up = (pair.better == cmp.name_b) == cmp.higher
    return "yes: %s %s in %s" % ("higher" if up else "lower", "(better)" if pair.better == cmp.name_b else "(worse)",
                                 cmp.name_b)


def figure(cmp, path, save):
    """Per point, both sweeps' repetitions (dots) over their medians and
    ranges, and the ratio of the medians B / A with its interval, a band
    marking the minimum effect."""
    import matplotlib.pyplot as plt
    from .report import BUSY_STYLE, REP_STYLE
    n = len(cmp.points)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 2.6 + 0.42 * n), sharey=True,
                                  gridspec_kw={"width_ratios": [3, 2]})
    f = cmp.a.mfactor
    colours = {cmp.name_a: "#1f77b4", cmp.name_b: "#ff7f0e"}
    for i, (_, label, pair, ra, rb) in enumerate(cmp.points):
        for rows, res, name, off in ((ra, cmp.a, cmp.name_a, -0.17), (rb, cmp.b, cmp.name_b, 0.17)):
            vals = [(r[res.metric] * f, res.busy(r)) for r in rows if isinstance(r.get(res.metric), (int, float))]
            m, lo, hi = spread([v for v, _ in vals])
            ax.plot([lo, hi], [i + off] * 2, color=colours[name], lw=1.2)
            ax.plot([m], [i + off], marker="|", ms=12, mew=2, color=colours[name])
            for v, b in vals:
                ax.scatter([v], [i + off], **(BUSY_STYLE if b else dict(REP_STYLE, color=colours[name])))
        if pair.ratio is not None:
            lo_, hi_ = pair.low or pair.ratio, pair.high or pair.ratio
            ax2.errorbar([pair.ratio], [i], xerr=[[pair.ratio - lo_], [hi_ - pair.ratio]], fmt="o",
                         color="#d62728" if pair.better is not None else "black", capsize=3)
    ax.set_yticks(list(range(n)))
    ax.set_yticklabels([wrap(p[1], 50) for p in cmp.points], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(left=0)
    ax.set_xlabel(wrap("%s: every repetition a dot, tick the median, line min to max (x: the load was above the "
                       "cores)" % cmp.a.mlabel, 70), fontsize=8.5)
    from matplotlib.lines import Line2D
    ax.legend(handles=[Line2D([], [], color=colours[k], marker="o", label="sweep %s" % k) for k in colours],
              fontsize=8, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, borderaxespad=0.2)
    ax.grid(True, axis="x", alpha=0.3)
    e = verdict.MIN_EFFECT
    ax2.axvspan(1 / (1 + e), 1 + e, color="#eeeeee", zorder=0)
    ax2.axvline(1.0, color="#888", lw=1)
    ax2.set_xlabel(wrap("ratio of the medians %s / %s with its 95%% bootstrap interval; red: moved (p < %g and at "
                        "least %d%% apart, grey band)" % (cmp.name_b, cmp.name_a, verdict.ALPHA, round(e * 100)),
                        60), fontsize=8.5)
    ax2.grid(True, axis="x", alpha=0.3)
    c = cmp.counts()
    verdicts = ", ".join("%d %s" % (c[k], k) for k in OUTCOMES if k in c) or "none"
    fig.suptitle("\n".join([
        "Sweep %s against sweep %s, point by point (%s)" % (cmp.name_b, cmp.name_a, cmp.a.kernel),
        wrap(cmp.a.workload(), 120),
        wrap(cmp.a.banner(), 120),
        wrap("%s: %s" % (cmp.name_a, cmp.a.provenance()), 130),
        wrap("%s: %s" % (cmp.name_b, cmp.b.provenance()), 130),
        "pairwise verdicts within each process count: %s" % verdicts]), fontsize=9)
    fig.tight_layout()
    return save(fig, path)


def page(cmp, fig_path, dest):
    """compare.html: the figure, both sweeps' conditions, the points and the verdicts."""
    from .html import CSS, esc, figure as html_figure, num, table
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>climio sweeps %s and %s</title>"
             "<style>%s</style></head><body>" % (esc(cmp.name_a), esc(cmp.name_b), CSS),
             "<h1>Sweep %s against sweep %s: %s</h1>" % (esc(cmp.name_b), esc(cmp.name_a), esc(cmp.a.kernel)),
             "<p class='banner'><b>Workload:</b> %s</p>" % esc(cmp.a.workload())]
    for name, res in ((cmp.name_a, cmp.a), (cmp.name_b, cmp.b)):
        parts.append("<p class='banner'><b>%s ran under:</b> %s; %s</p>" % (esc(name), esc(res.provenance()),
                                                                           esc(res.banner())))
    parts.append("<p>%s</p>" % esc(cmp.summary()))
    if cmp.only:
        parts.append("<p class='note'>Points in only one of the sweeps (not compared): %s</p>" % esc(
            ", ".join(cmp.only)))
    parts.append(html_figure("Point by point", fig_path, "Each point's repetitions in both sweeps, and the ratio of "
                                                          "the medians with its bootstrap interval."))
    rows = []
    for p, label, pair, ra, rb in cmp.points:
        sa, sb = spread(cmp.values(ra, cmp.a)), spread(cmp.values(rb, cmp.b))
        f = cmp.a.mfactor
        rows.append([label, "%s [%s-%s]" % tuple(num(x * f) for x in sa), "%s [%s-%s]" % tuple(num(x * f) for x in sb),
                     "%s [%s-%s]" % (num(pair.ratio, 3), num(pair.low, 3), num(pair.high, 3)),
                     num(pair.p, 2) if pair.p is not None else "not tested", moved_words(cmp, pair)])
    parts.append("<h2>Points</h2>" + table(["point", "%s: %s" % (cmp.name_a, cmp.a.mlabel),
                                            "%s: %s" % (cmp.name_b, cmp.a.mlabel),
                                            "ratio %s / %s [95%% interval]" % (cmp.name_b, cmp.name_a), "p", "moved"],
                                           rows, numeric={1, 2, 3, 4}))
    rows = [[panel, x, y, pa.words(), pb.words(), o] for panel, x, y, pa, pb, o in cmp.verdicts]
    parts.append("<h2>Verdicts</h2><p class='note'>Every pair of points within a process count, judged in each "
                 "sweep by the same rule (%s).</p>" % esc(verdict.TEST_NAME) +
                 table(["panel", "point 1", "point 2", "in %s" % cmp.name_a, "in %s" % cmp.name_b, "outcome"], rows,
                       classes=["failed" if r[5] == "flipped" else "" for r in rows]))
    parts.append("<p class='note'>Made by climio-sweep report %s %s; compare.csv and verdicts.csv hold the same "
                 "figures.</p></body></html>" % (esc(cmp.name_a), esc(cmp.name_b)))
    return "\n".join(parts)
