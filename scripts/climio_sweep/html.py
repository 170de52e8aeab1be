"""One self-contained HTML page: the figures embedded as data: URIs, the
sweep's description, a table per point, the hints asked and applied, and the
failed runs."""

import base64
import html
import os
import statistics

from .report import BW, fmt, short, _values

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
"""


def esc(v):
    return html.escape("" if v is None else fmt(v))


def num(v, digits=4):
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.*g" % (digits, v)
    return str(v)


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
    with open(path, "rb") as f:
        return "data:image/png;base64," + base64.b64encode(f.read()).decode()


def page(res, figs, outdir_sweep):
    doc = res.doc
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>climio sweep %s</title><style>%s</style>"
             "</head><body>" % (esc(res.sweep), CSS)]
    parts.append("<h1>climio sweep '%s': %s</h1>" % (esc(res.sweep), esc(res.kernel)))
    parts.append("<p>%d successful run(s), %d failed, from <code>%s</code>.</p>" % (
        len(res.ok), len(res.failed), esc(outdir_sweep)))
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
    # figures
    for title, path, caption in figs:
        parts.append("<h2>%s</h2><figure><img src='%s' alt='%s'><figcaption>%s</figcaption></figure>" % (
            esc(title), img(path), esc(title), esc(caption)))
    if not figs:
        parts.append("<p>No successful runs: nothing to plot.</p>")
    # per point
    head = [short(k) for k in res.varying] + ["runs", "bandwidth mean (MiB/s)", "min", "max", "end to end mean (s)",
                                              "bytes written", "verify"]
    body = []
    for point, prs in res.points().items():
        bw = _values(prs, BW)
        e2e = _values(prs, "end_to_end_s")
        body.append([prs[0].get(k) for k in res.varying] + [
            len(prs), num(statistics.mean(bw)), num(min(bw)), num(max(bw)),
            num(statistics.mean(e2e)) if e2e else "", prs[0].get("bytes_written_bytes"),
            ", ".join(sorted({fmt(r.get("verify_verdict")) for r in prs}))])
    nv = len(res.varying)
    parts.append("<h2>Results per point</h2>" + table(head, body, numeric=set(range(nv, nv + 6))))
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
