"""One self-contained HTML page: the figures embedded as data: URIs (PNG or
SVG; PDFs linked), the sweep's description, the run context the results carry
(file system, nodes, MPI, build), a table per point (median [min-max] of the
repetitions), the hints asked and applied, and the failed runs."""

import base64
import html
import os

from . import verdict
from .results import fixed, fmt, short, spread, _values

CSS = """
body { font-family: sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; } tr.failed td { background: #fde8e8; }
figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; border: 1px solid #eee; } pre { font-size: 0.8em; background: #f7f7f7; padding: 4px; }
.note { font-size: 0.85em; color: #555; }
.banner { background: #fff8e0; border: 1px solid #e0c870; padding: 4px 8px; }
"""


def esc(v):
    return html.escape("" if v is None else fmt(v))


def num(v, digits=4):
    """A number in plain decimals, never an exponent."""
    return fixed(v, digits)


def table(head, rows, numeric=(), classes=None):
    out = ["<table><tr>%s</tr>" % "".join("<th>%s</th>" % esc(h) for h in head)]
    for i, r in enumerate(rows):
        cls = ' class="%s"' % classes[i] if classes and classes[i] else ""
        out.append("<tr%s>%s</tr>" % (cls, "".join(
            '<td class="num">%s</td>' % esc(c) if j in numeric else "<td>%s</td>" % esc(c)
            for j, c in enumerate(r))))
    out.append("</table>")
    return "\n".join(out)


def img(path):
    kind = {".png": "image/png", ".svg": "image/svg+xml"}.get(os.path.splitext(path)[1])
    with open(path, "rb") as f:
        return "data:%s;base64,%s" % (kind, base64.b64encode(f.read()).decode())


def figure(title, path, caption):
    """A figure: embedded when PNG or SVG, else (PDF) a link beside the page."""
    if os.path.splitext(path)[1] in (".png", ".svg"):
        body = "<img src='%s' alt='%s'>" % (img(path), esc(title))
    else:
        body = "<p><a href='%s'>%s</a></p>" % (esc(os.path.basename(path)), esc(os.path.basename(path)))
    return "<h2>%s</h2><figure>%s<figcaption>%s</figcaption></figure>" % (esc(title), body, esc(caption))


def _flat(prefix, obj, out):
    if isinstance(obj, dict):
        for k, v in obj.items():
            _flat("%s.%s" % (prefix, k) if prefix else k, v, out)
    elif isinstance(obj, list):
        out[prefix] = ", ".join(fmt(v) for v in obj)
    else:
        out[prefix] = obj


def context_rows(res):
    """The run context the kernels wrote into their results (the 'context'
    section: file system, striping applied, nodes, ranks per node, MPI and its
    I/O component, build), one row per item; an item that differs between
    runs lists its values.  [] when the results carry none."""
    values = {}
    for r in res.ok:
        ctx = (r.get("_doc") or {}).get("context")
        if isinstance(ctx, dict):
            flat = {}
            _flat("", ctx, flat)
            for k, v in flat.items():
                values.setdefault(k, [])
                if fmt(v) not in values[k]:
                    values[k].append(fmt(v))
    return [[k, v[0] if len(v) == 1 else "varies: " + "; ".join(v[:6]) + (" ..." if len(v) > 6 else "")]
            for k, v in values.items()]


def one_of(rows, key):
    """The rows' value of key, or their values joined when they differ."""
    vals = list(dict.fromkeys(fmt(r.get(key)) for r in rows if r.get(key) is not None))
    return ", ".join(vals)


def built_with(res):
    """MPI library and build commit of the runs (each listed when they differ)."""
    bits = []
    for key, name in (("context.mpi.library", "MPI"), ("context.build.commit", "climio commit")):
        vals = sorted({fmt(r.get(key)) for r in res.ok if r.get(key) is not None})
        bits.append("%s %s" % (name, "; ".join(vals) if vals else "not recorded"))
    return ", ".join(bits)


def pairs_section(res):
    """Every point against every other within a panel: the ratio of medians
    (row over column) with its bootstrap interval, the test's p-value, and
    which is better where the rule says so."""
    pairs = getattr(res, "pairs", None)
    if not pairs:
        return ""
    out = ["<h2>Every point against every other</h2><p class='note'>Within each panel (one process count): the "
           "ratio of the medians of the %s, row over column, with its 95%% bootstrap interval (%d resamples, "
           "seeded from the values), and the p-value of the %s. A point is called better only when both hold: the "
           "test separates them (p &lt; %g) and their medians are at least %d%% apart; bold marks it. "
           "pairwise.csv has every pair.</p>" % (esc(res.mlabel), verdict.BOOTSTRAP, esc(verdict.TEST_NAME),
                                                 verdict.ALPHA, round(verdict.MIN_EFFECT * 100))]
    for words, names, table_ in pairs:
        out.append("<h3>%s</h3><table><tr><th></th>%s</tr>" % (esc(words), "".join(
            "<th>%s</th>" % esc(n) for n in names)))
        for a in names:
            cells = []
            for b in names:
                p = table_.get((a, b))
                flip = p is None and (b, a) in table_
                if flip:
                    p = table_[(b, a)]
                if p is None:
                    cells.append("<td></td>")
                    continue
                ratio, low, high = (p.ratio, p.low, p.high) if not flip else (
                    1 / p.ratio if p.ratio else None, 1 / p.high if p.high else None, 1 / p.low if p.low else None)
                text = "%s [%s-%s]<br>p = %s" % (num(ratio, 3), num(low, 3), num(high, 3),
                                                  num(p.p, 2) if p.p is not None else "not tested")
                mark = p.better == a
                title = esc(p.words())
                cells.append("<td class='num' title='%s'>%s%s</td>" % (
                    title, "<b>%s</b>" % text if mark else text, "<br><b>better</b>" if mark else ""))
            out.append("<tr><th>%s</th>%s</tr>" % (esc(a), "".join(cells)))
        out.append("</table>")
    return "\n".join(out)


def page(res, figs, outdir_sweep):
    doc = res.doc
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>climio sweep %s</title><style>%s</style>"
             "</head><body>" % (esc(res.sweep), CSS)]
    parts.append("<h1>climio sweep '%s': %s</h1>" % (esc(res.sweep), esc(res.kernel)))
    parts.append("<p>%d successful run(s), %d failed, from <code>%s</code>.</p>" % (
        len(res.ok), len(res.failed), esc(outdir_sweep)))
    if res.banner():
        parts.append("<p class='banner'><b>Measured on:</b> %s</p>" % esc(res.banner()))
    if res.ok:
        parts.append("<p class='banner'><b>Ran under:</b> %s</p>" % esc(res.provenance()))
        parts.append("<p class='banner'><b>Workload:</b> %s</p>" % esc(res.workload()))
        parts.append("<p class='banner'><b>Built with:</b> %s</p>" % esc(built_with(res)))
        busy = [r["run"] for r in res.ok if res.busy(r)]
        if busy:
            parts.append("<p class='banner'><b>Load above the cores</b> during %d of %d runs (marked \u00d7 in the "
                         "figures, <code>host.load_over_cores</code> in results.csv): %s</p>" % (
                             len(busy), len(res.ok), esc(", ".join(busy[:10]) + (" ..." if len(busy) > 10 else ""))))
    for note in res.ran_as_notes():
        parts.append("<p class='banner'><b>Ran as something else:</b> %s</p>" % esc(note))
    # what was swept
    axes = doc.get("axes", [])
    rows = [[a["key"], a["kind"], ", ".join(fmt(v) for v in a["values"])] for a in axes]
    for kind, vals in (doc.get("fixed") or {}).items():
        for k, v in vals.items():
            rows.append([k if kind == "param" else "%s.%s" % ("hints" if kind == "hint" else kind, k),
                         kind + " (fixed)", fmt(v)])
    parts.append("<h2>Settings</h2>" + table(["setting", "kind", "values"], rows))
    parts.append("<p class='note'>Units: seconds, bytes, MiB/s (2<sup>20</sup> bytes per second). Write bandwidth "
                 "= bytes written (summed over ranks) / (latest close - earliest create/open over ranks).</p>")
    # where and how it ran
    ctx = context_rows(res)
    if ctx:
        parts.append("<h2>Run context</h2><p class='note'>As the kernels recorded it in their results (the file "
                     "system is the output folder's; striping is what the file system applied).</p>" +
                     table(["item", "value"], ctx))
    elif not res.ok:
        parts.append("<h2>Run context</h2><p class='note'>No run finished well, so no result tells where the runs "
                     "ran (file system, nodes, MPI).</p>")
    else:
        parts.append("<h2>Run context</h2><p class='note'>The results carry no run context (a kernel from before "
                     "climio recorded it): file system, nodes and MPI are not known here.</p>")
    for note in res.notes:
        parts.append("<p class='note'>%s</p>" % esc(note))
    # figures
    for title, path, caption in figs:
        parts.append(figure(title, path, caption))
    if not figs:
        parts.append("<p>No successful runs: nothing to plot.</p>")
    # per point
    head = [short(k) for k in res.varying] + ["runs", "%s: median" % res.mlabel, "min", "max",
                                              "end to end (%s): median [min-max]" % res.unit, "input",
                                              "bytes per run", "call pattern", "driver/format",
                                              "runs with the load above the cores", "verify"]
    body = []
    for point, prs in res.points().items():
        m, lo, hi = spread(res.mvalues(prs))
        e2e = [v * res.unit_factor for v in _values(prs, "end_to_end_s")]
        body.append([res.shown(k, prs[0].get(k)) for k in res.varying] + [
            len(prs), num(m), num(lo), num(hi),
            "%s [%s-%s]" % tuple(num(x) for x in spread(e2e)) if e2e else "", one_of(prs, "input"),
            one_of(prs, "bytes_written_bytes"), one_of(prs, "io.call_pattern"),
            "/".join(x for x in (one_of(prs, "io.driver"), one_of(prs, "io.format")) if x),
            sum(1 for r in prs if res.busy(r)), ", ".join(sorted({fmt(r.get("verify_verdict")) for r in prs}))])
    nv = len(res.varying)
    parts.append("<h2>Results per point</h2>" + table(head, body, numeric=set(range(nv, nv + 5)) | {nv + 6}))
    parts.append(pairs_section(res))
    # hints asked and applied
    hint_keys = sorted({k[len("hints."):] for r in res.ok for k in r if k.startswith("hints.")})
    if hint_keys:
        head = ["point"] + ["%s asked / applied" % h for h in hint_keys]
        body = []
        for point, prs in res.points().items():
            r = prs[0]
            body.append([point] + ["%s / %s" % (fmt(r.get("hints." + h)), fmt(r.get("hints_applied." + h))
                                                if r.get("hints_applied." + h) is not None else "not reported")
                                   for h in hint_keys])
        parts.append("<h2>MPI-IO hints asked and applied</h2><p class='note'>Applied: what the MPI-IO layer "
                     "reported in effect on the first file; 'not reported' means it did not list the hint "
                     "(often: ignored).</p>" + table(head, body))
    # failures
    if res.failed:
        body = [[r["run"], r.get("reason"), r.get("run_dir")] for r in res.failed]
        parts.append("<h2>Failed runs</h2>" + table(["run", "reason", "folder (logs)"], body,
                                                    classes=["failed"] * len(body)))
    parts.append("<p class='note'>Made by climio-sweep report from %s.</p></body></html>" % esc(
        os.path.join(outdir_sweep, "results.json")))
    return "\n".join(parts)
