"""Merging the runs' JSON results into one tidy table: results.csv (one row per
run, fixed units in the column names: _s seconds, _bytes bytes, _MiBps MiB/s)
and results.json (the same rows plus each run's full JSON document)."""

import csv
import os

from .state import read_json, write_json

# Groups of engine timers shown as phases (doc/sweep.md explains them).
PHASES = [
    ("create", ("create", "open")),
    ("define", ("def_dim", "def_var", "put_att", "enddef")),
    ("write", ("put", "iput")),
    ("wait", ("wait",)),
    ("close", ("close",)),
    ("rearrange", ("rearrange",)),
]
ENGINE_TIMERS = ("create", "open", "def_dim", "def_var", "put_att", "enddef", "inq", "put", "iput", "wait",
                 "get", "iget", "get_wait", "close", "pack", "rearrange", "check")

FIRST = ["run", "point", "repetition", "status", "reason", "exit_status", "kernel", "nprocs", "nodes"]
IO = ["io.driver", "io.iotype", "io.iotype_effective", "io.format"]
MEASURES = [
    "bytes_written_bytes", "bytes_read_bytes", "header_bytes", "library_written_bytes",
    "files_created", "files_opened", "requests",
    "end_to_end_s", "write_bandwidth_MiBps", "read_bandwidth_MiBps",
    "readback_end_to_end_s", "readback_bandwidth_MiBps",
    "wall_s", "run_s",
]
MEMORY = ["rss_peak_max_bytes", "rss_peak_mean_bytes", "tracked_peak_max_bytes", "buffer_peak_max_bytes"]
LAST = ["verify_verdict", "verify_mismatches", "striping", "host", "date", "run_dir"]


def _get(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def _flatten(prefix, obj, out):
    """Scalar leaves of a nested document as prefix.a.b = value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            _flatten("%s.%s" % (prefix, k), v, out)
    elif isinstance(obj, (int, float, str, bool)) or obj is None:
        out[prefix] = obj


def phase_seconds(timers, phase_timers, stat="mean"):
    """A phase's time: the sum over its timers of the per-rank statistic."""
    vals = [_get(timers, t, stat) for t in phase_timers]
    vals = [v for v in vals if isinstance(v, (int, float))]
    return sum(vals) if vals else None


def row_for(outdir, rid, plan_axes):
    rdir = os.path.join(outdir, "runs", rid)
    run = read_json(os.path.join(rdir, "run.json")) or {}
    st = read_json(os.path.join(rdir, "status.json")) or {}
    state = st.get("state", "pending")
    res = read_json(os.path.join(rdir, "result.json"))
    if res is None or state != "done":
        res = read_json(os.path.join(rdir, "result.failed.json")) if state == "failed" else None
        if state == "done":
            state = "pending"
    row = {
        "run": rid, "point": run.get("point", rid.rsplit("/", 1)[0]), "repetition": run.get("rep"),
        "status": state, "reason": st.get("reason", ""), "exit_status": st.get("exit_status"),
        "kernel": run.get("kernel"), "nprocs": run.get("nprocs"), "nodes": run.get("nodes"),
        "run_s": st.get("seconds"), "striping": st.get("striping"), "run_dir": os.path.join("runs", rid),
    }
    settings = run.get("settings", {})
    for key in plan_axes:
        if key not in ("nprocs", "nodes"):
            row[key] = settings.get(key)
    for name, value in (run.get("hints") or {}).items():
        row.setdefault("hints." + name, value)
    row["_doc"] = res
    if not res:
        return row
    w = res.get("write") or {}
    timers = w.get("timers") or {}
    row.update({
        "kernel": res.get("kernel", row["kernel"]), "nprocs": res.get("nprocs", row["nprocs"]),
        "io.driver": _get(res, "io", "driver"), "io.iotype": _get(res, "io", "iotype"),
        "io.iotype_effective": _get(res, "io", "iotype_effective"), "io.format": _get(res, "io", "format"),
        "bytes_written_bytes": _get(w, "bytes", "written"), "bytes_read_bytes": _get(w, "bytes", "read"),
        "header_bytes": _get(w, "bytes", "header"), "library_written_bytes": _get(w, "bytes", "library_written"),
        "files_created": _get(w, "files", "created"), "files_opened": _get(w, "files", "opened"),
        "requests": _get(w, "requests", "count"),
        "end_to_end_s": _get(w, "end_to_end", "seconds"),
        "write_bandwidth_MiBps": _get(w, "end_to_end", "write_bandwidth_MiBps"),
        "read_bandwidth_MiBps": _get(w, "end_to_end", "read_bandwidth_MiBps"),
        "readback_end_to_end_s": _get(res, "readback", "end_to_end", "seconds"),
        "readback_bandwidth_MiBps": _get(res, "readback", "end_to_end", "read_bandwidth_MiBps"),
        "wall_s": res.get("wall_seconds"),
        "rss_peak_max_bytes": _get(w, "memory", "rss_peak_bytes", "max"),
        "rss_peak_mean_bytes": _get(w, "memory", "rss_peak_bytes", "mean"),
        "tracked_peak_max_bytes": _get(w, "memory", "tracked_peak_bytes", "max"),
        "buffer_peak_max_bytes": _get(w, "memory", "buffer_peak_bytes", "max"),
        "verify_verdict": _get(res, "verify", "verdict"), "verify_mismatches": _get(res, "verify", "mismatches"),
        "host": res.get("host"), "date": res.get("date"),
    })
    for name, _ in (run.get("hints") or {}).items():
        row["hints_applied." + name] = _get(res, "hints", "applied", name)
    for phase, members in PHASES:
        row["phase.%s_mean_s" % phase] = phase_seconds(timers, members, "mean")
    for t in list(ENGINE_TIMERS) + sorted(set(timers) - set(ENGINE_TIMERS)):
        if t in timers:
            for stat in ("min", "mean", "max"):
                row["timer.%s_%s_s" % (t, stat)] = _get(timers, t, stat)
            row["timer.%s_calls" % t] = _get(timers, t, "calls")
            row["timer.%s_bytes" % t] = _get(timers, t, "bytes")
    kr = res.get("kernel_report")
    if isinstance(kr, dict):
        flat = {}
        _flatten("kernel_report", kr, flat)
        row.update(flat)
    return row


def _order(outdir, plan):
    """Runs in plan order, then any other run folders found (earlier plans)."""
    ids = list(plan.get("runs", [])) if plan else []
    seen = set(ids)
    runs_root = os.path.join(outdir, "runs")
    extra = []
    for dirpath, dirnames, filenames in os.walk(runs_root):
        dirnames.sort()
        if "run.json" in filenames:
            rid = os.path.relpath(dirpath, runs_root)
            if rid not in seen:
                extra.append(rid)
            dirnames[:] = []
    return ids + sorted(extra)


def collect(outdir, csv_path=None, json_path=None, include_pending=False):
    plan = read_json(os.path.join(outdir, "plan.json")) or {}
    axes = [a["key"] for a in plan.get("axes", [])]
    rows = []
    for rid in _order(outdir, plan):
        row = row_for(outdir, rid, axes)
        if row["status"] in ("pending", "running", "interrupted") and not include_pending:
            continue
        rows.append(row)
    columns = list(FIRST)
    columns += [k for k in axes if k not in columns]
    seen = set(columns)
    extra_hints, applied, phases, timers, kr = [], [], [], [], []
    for r in rows:
        for k in r:
            if k in seen or k == "_doc":
                continue
            seen.add(k)
            if k.startswith("hints_applied."):
                applied.append(k)
            elif k.startswith("hints."):
                extra_hints.append(k)
            elif k.startswith("phase."):
                phases.append(k)
            elif k.startswith("timer."):
                timers.append(k)
            elif k.startswith("kernel_report."):
                kr.append(k)
    columns += extra_hints + IO + applied + MEASURES + [p for p in phases] + MEMORY + timers + kr + LAST
    columns = list(dict.fromkeys(columns))
    csv_path = csv_path or os.path.join(outdir, "results.csv")
    json_path = json_path or os.path.join(outdir, "results.json")
    tmp = csv_path + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            w.writerow([_cell(r.get(c)) for c in columns])
    os.replace(tmp, csv_path)
    write_json(json_path, {
        "schema": "climio-sweep-results", "schema_version": 1, "sweep": plan.get("sweep"),
        "kernel": plan.get("kernel"), "axes": plan.get("axes", []), "fixed": plan.get("fixed", {}),
        "columns": columns,
        "runs": [{"row": {c: r.get(c) for c in columns}, "result": r["_doc"]} for r in rows],
    })
    return rows, columns, csv_path, json_path


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def read_csv(path):
    """Rows of a results.csv as dicts with numbers converted back."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k, v in r.items():
            r[k] = _parse(v)
    return rows


def _parse(v):
    if v == "":
        return None
    if v in ("true", "false"):
        return v == "true"
    try:
        return int(v)
    except ValueError:
        pass
    try:
        return float(v)
    except ValueError:
        return v
