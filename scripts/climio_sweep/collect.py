"""Merging the runs' JSON results into one tidy table: results.csv (one row per
run, fixed units in the column names: _s seconds, _bytes bytes, _MiBps MiB/s)
and results.json (the same rows plus each run's full JSON document)."""

import csv
import json
import os

from . import load, outfile
from .errors import SweepError
from .resultcheck import RUN, check_result
from .state import command_line, corrupt_result, read_checked, read_json, read_plan, state_of, status

# Groups of engine timers shown as phases (doc/sweep.md explains them).
PHASES = [
    ("create", ("create", "open")),
    ("define", ("def_dim", "def_var", "put_att", "enddef")),
    ("write", ("put", "iput")),
    ("wait", ("wait",)),
    ("sync", ("sync",)),
    ("close", ("close",)),
    ("rearrange", ("rearrange",)),
]

FIRST = ["run", "point", "repetition", "status", "reason", "exit_status", "kernel", "nprocs", "nodes"]
IO = ["io.driver", "io.driver_asked", "io.iotype", "io.iotype_effective", "io.iotype_cause", "io.call_pattern",
      "io.format", "io.format_asked", "data.kind", "data.deflate", "data.shuffle", "data.szip", "data.quantize"]
# What the run was measured on (the run's context), for every row.
CONTEXT = ["io.fsync", "io.durable", "context.file_system.type", "context.file_system.source",
           "context.page_cache.fits", "context.mpi.io_component", "io.hints_asked"]
# What decided the numbers: the input, the timing window, the MPI library and
# the build, and the machine's load (1 minute) at the start and end of the run
# against its cores (load.py).
PROVENANCE = ["input", "io.timing_window", "context.mpi.library", "context.build.commit", "host.cpus_online",
              "host.load_start_1m", "host.load_end_1m", "host.load_over_cores"]
# The statistics' columns (bytes_written_bytes, files_created, rss_peak_max_bytes,
# ...) come from the "statistics" list each result carries (statistic_columns).
MEASURES = [
    "end_to_end_s", "write_bandwidth_MiBps", "read_bandwidth_MiBps",
    "readback_end_to_end_s", "readback_bandwidth_MiBps",
    "wall_s", "run_s",
    # compression (--deflate, --shuffle, --szip, --quantize; --storage_report): data bytes / bytes on disk
    "storage_ratio", "storage_data_bytes", "storage_stored_bytes",
    # --compression_reference: the time compression added against the same run with no filter
    "compression_added_s", "compression_added_fraction", "compression_unfiltered_s",
]
LAST = ["verify_verdict", "verify_mismatches", "striping", "host", "date", "run_dir"]


def _get(d, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def host_name(host):
    """The host name: the host object's name (a plain name in version 1 documents)."""
    return host.get("name") if isinstance(host, dict) else host


def _quantize(comp):
    """'bitround:3' from the result's data.compression, 'none', or None."""
    if not isinstance(comp, dict) or "quantize" not in comp:
        return None
    q = comp["quantize"]
    return q if q == "none" else "%s:%s" % (q, comp.get("quantize_digits"))


def _flatten(prefix, obj, out):
    """Scalar leaves of a nested document as prefix.a.b = value."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            _flatten("%s.%s" % (prefix, k), v, out)
    elif isinstance(obj, (int, float, str, bool)) or obj is None:
        out[prefix] = obj


def _fsync_mode(res):
    """io.fsync_mode: none, close or end (older results have only the bool io.fsync: true = close)."""
    if _get(res, "io", "fsync_mode"):
        return _get(res, "io", "fsync_mode")
    v = _get(res, "io", "fsync")
    if isinstance(v, bool):
        return "close" if v else "none"
    return v


def _hints_asked(res):
    """The hints asked, 'key=value;...' in the order given, '' for none."""
    req = _get(res, "hints", "requested")
    if not isinstance(req, dict):
        return None
    return ";".join("%s=%s" % (k, v.get("value") if isinstance(v, dict) else v) for k, v in req.items())


def _default_hints(res):
    """The hints the MPI-IO component (and the library above it, e.g. PnetCDF's
    nc_*) reported for the run's first file without being asked: its defaults."""
    applied = _get(res, "hints", "applied")
    asked = _get(res, "hints", "requested")
    asked = asked if isinstance(asked, dict) else {}
    if not isinstance(applied, dict):
        return {}
    return {k: v for k, v in applied.items() if k not in asked and isinstance(v, (str, int, float))}


def statistic_columns(res):
    """The statistics a result describes ("statistics": name -> path, reduction,
    unit) as CSV columns: name (+ _bytes for bytes); min_mean_max ones as
    name_max / name_mean; histograms are left to results.json.  Yields
    (column, path in the "write" section, is_per_rank)."""
    for name, desc in (res.get("statistics") or {}).items():
        path = tuple(desc.get("path", "").split("."))
        unit = "_bytes" if desc.get("unit") == "bytes" else ""
        red = desc.get("reduction")
        if red == "min_mean_max":
            for stat in ("max", "mean"):
                yield "%s_%s%s" % (name, stat, unit), path + (stat,), True
        elif red in ("sum", "sum_or_null"):
            yield name + unit, path, False


def phase_seconds(timers, phase_timers, stat="mean"):
    """A phase's time: the sum over its timers of the per-rank statistic."""
    vals = [_get(timers, t, stat) for t in phase_timers]
    vals = [v for v in vals if isinstance(v, (int, float))]
    return sum(vals) if vals else None


def row_for(outdir, rid, plan_axes):
    rdir = os.path.join(outdir, "runs", rid)
    run = read_checked(os.path.join(rdir, "run.json"), RUN) or {}
    st = status(rdir)
    state = state_of(rdir)
    reason = st.get("reason", "")
    res = read_json(os.path.join(rdir, "result.json")) if state == "done" else None
    if state == "failed" and st.get("state") == "done":
        reason = corrupt_result(rdir)     # reported as failed, never dropped
    elif state == "failed":
        res = read_json(os.path.join(rdir, "result.failed.json"))
    if not isinstance(res, dict) or check_result(res):
        res = None
    row = {
        "run": rid, "point": run.get("point", rid.rsplit("/", 1)[0]), "repetition": run.get("rep"),
        "status": state, "reason": reason, "exit_status": st.get("exit_status"),
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
    row["input"] = run.get("input") or (os.path.basename(run["base"]) if run.get("base") else None)
    _load_columns(row, res, st)
    if not res:
        return row
    w = res.get("write") or {}
    timers = w.get("timers") or {}
    row.update({
        "kernel": res.get("kernel", row["kernel"]), "nprocs": res.get("nprocs", row["nprocs"]),
        "io.driver": _get(res, "io", "driver"), "io.iotype": _get(res, "io", "iotype"),
        "io.iotype_effective": _get(res, "io", "iotype_effective"), "io.format": _get(res, "io", "format"),
        "io.driver_asked": _get(res, "config", "driver", "value") or "default",
        "io.format_asked": _get(res, "config", "format", "value"),
        "io.iotype_cause": _get(res, "io", "iotype_cause"), "io.call_pattern": _get(res, "io", "call_pattern"),
        "io.fsync": _fsync_mode(res), "io.durable": _get(res, "io", "durable"),
        "context.file_system.type": _get(res, "context", "file_system", "type"),
        "context.file_system.source": _get(res, "context", "file_system", "source"),
        "context.page_cache.fits": _get(res, "context", "page_cache", "fits"),
        "context.mpi.io_component": _get(res, "context", "mpi", "io_component"),
        "io.hints_asked": _hints_asked(res),
        "io.timing_window": _get(res, "io", "timing_window"),
        "context.mpi.library": _get(res, "context", "mpi", "library") or _get(res, "libraries", "mpi"),
        "context.build.commit": _get(res, "context", "build", "commit"),
        "end_to_end_s": _get(w, "end_to_end", "seconds"),
        "write_bandwidth_MiBps": _get(w, "end_to_end", "write_bandwidth_MiBps"),
        "read_bandwidth_MiBps": _get(w, "end_to_end", "read_bandwidth_MiBps"),
        "readback_end_to_end_s": _get(res, "readback", "end_to_end", "seconds"),
        "readback_bandwidth_MiBps": _get(res, "readback", "end_to_end", "read_bandwidth_MiBps"),
        "data.kind": _get(res, "data", "kind"),
        "data.deflate": _get(res, "data", "compression", "deflate"),
        "data.shuffle": _get(res, "data", "compression", "shuffle"),
        "data.szip": _get(res, "data", "compression", "szip"),
        "data.quantize": _quantize(_get(res, "data", "compression")),
        "compression_added_s": _get(res, "data", "compression_time", "added_seconds"),
        "compression_added_fraction": _get(res, "data", "compression_time", "added_fraction"),
        "compression_unfiltered_s": _get(res, "data", "compression_time", "unfiltered_seconds"),
        "storage_ratio": _get(res, "storage", "ratio"),
        "storage_data_bytes": _get(res, "storage", "data_bytes"),
        "storage_stored_bytes": _get(res, "storage", "stored_bytes"),
        "wall_s": res.get("wall_seconds"),
        "verify_verdict": _get(res, "verify", "verdict"), "verify_mismatches": _get(res, "verify", "mismatches"),
        "host": host_name(res.get("host")), "date": res.get("date"),
    })
    row["_stats"] = []
    for column, path, per_rank in statistic_columns(res):
        row[column] = _get(w, *path)
        row["_stats"].append((column, per_rank))
    for name, _ in (run.get("hints") or {}).items():
        row["hints_applied." + name] = _get(res, "hints", "applied", name)
    for name, value in _default_hints(res).items():
        row["hints_default." + name] = value
    for phase, members in PHASES:
        row["phase.%s_mean_s" % phase] = phase_seconds(timers, members, "mean")
    for t in timers:    # the engine's timers in their order, then the kernel's
        if isinstance(timers[t], dict):
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


def _load_columns(row, res, st):
    cpus, start, end = load.of_run(res, st)
    row.update({"host.cpus_online": cpus, "host.load_start_1m": start, "host.load_end_1m": end,
                "host.load_over_cores": load.over_cores(cpus, start, end)})


def _is_warmup(outdir, rid):
    run = read_checked(os.path.join(outdir, "runs", rid, "run.json"), RUN) or {}
    return run.get("warmup") is True


def warmup_runs(outdir):
    """The warm-up runs ([sweep] warmup) of the sweep's folder: never in the results."""
    plan = read_plan(outdir) or {}
    return [rid for rid in _order(outdir, plan) if _is_warmup(outdir, rid)]


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


def collect(outdir, csv_path=None, json_path=None, include_pending=False, inputs=()):
    """inputs: files the command was given (the sweep file), which --csv and --json may not name; the sweep
    file the plan records is one of them when the command was given the folder."""
    plan = read_plan(outdir) or {}
    if isinstance(plan.get("sweep_file"), str):
        inputs = list(inputs) + [plan["sweep_file"]]
    axes = [a["key"] for a in plan.get("axes", [])]
    rows = []
    for rid in _order(outdir, plan):
        if _is_warmup(outdir, rid):
            continue
        row = row_for(outdir, rid, axes)
        if row["status"] in ("pending", "running", "interrupted") and not include_pending:
            continue
        rows.append(row)
    columns = list(FIRST)
    columns += [k for k in axes if k not in columns]
    seen = set(columns)
    extra_hints, applied, defaults, phases, timers, kr = [], [], [], [], [], []
    stats, memory = [], []
    for r in rows:
        for column, per_rank in r.get("_stats", []):
            if column not in seen:
                seen.add(column)
                (memory if per_rank else stats).append(column)
        for k in r:
            if k in seen or k in ("_doc", "_stats"):
                continue
            seen.add(k)
            if k.startswith("hints_applied."):
                applied.append(k)
            elif k.startswith("hints_default."):
                defaults.append(k)
            elif k.startswith("hints."):
                extra_hints.append(k)
            elif k.startswith("phase."):
                phases.append(k)
            elif k.startswith("timer."):
                timers.append(k)
            elif k.startswith("kernel_report."):
                kr.append(k)
    columns += extra_hints + IO + CONTEXT + PROVENANCE + applied + sorted(defaults) + stats + MEASURES + [p for p in phases] + \
        memory + timers + kr + LAST
    columns = list(dict.fromkeys(columns))
    csv_path = os.path.abspath(csv_path or os.path.join(outdir, "results.csv"))
    json_path = os.path.abspath(json_path or os.path.join(outdir, "results.json"))
    if csv_path == json_path:
        raise SweepError("%s: --csv and --json: expected two files, found one name for both" % csv_path)
    for path, what in ((csv_path, "--csv"), (json_path, "--json")):
        writable_file(path, what, outdir, inputs)

    def write_csv(f):
        w = csv.writer(f)
        w.writerow(columns)
        for r in rows:
            w.writerow([_cell(r.get(c)) for c in columns])
    doc = {
        "schema": "climio-sweep-results", "schema_version": 1, "sweep": plan.get("sweep"),
        "kernel": plan.get("kernel"), "axes": plan.get("axes", []), "fixed": plan.get("fixed", {}),
        "columns": columns, "command_line": command_line(),
        "runs": [{"row": {c: r.get(c) for c in columns}, "result": r["_doc"]} for r in rows],
    }
    tmp_csv = write_file(csv_path, write_csv, newline="", keep_tmp=True)
    try:
        write_file(json_path, lambda f: f.write(json.dumps(doc, indent=1) + "\n"))
    except SweepError:
        os.remove(tmp_csv)      # both files or neither
        raise
    os.replace(tmp_csv, csv_path)
    return rows, columns, csv_path, json_path


def writable_file(path, what, outdir=None, inputs=()):
    """Refuse, before anything is written, a destination that is a folder, not a
    regular file, in no writable folder, or one of the sweep's own files (its
    sweep file, plan.json, anything in runs/ or jobs/): one line, no traceback."""
    own = [os.path.join(outdir, n) for n in ("plan.json", "sweep.toml")] if outdir else []
    why = outfile.problem(path, list(inputs) + own, [os.path.join(outdir, d) for d in ("runs", "jobs")] if outdir else [])
    if why:
        raise SweepError("%s: %s: %s" % (path, what, why.replace("is a directory, expected a file name",
                                                                 "expected a file name, found a folder")))


def write_file(path, fill, newline=None, keep_tmp=False):
    """Write through a temporary file renamed into place (keep_tmp: left for the
    caller to rename, its name returned); on any error the temporary file is
    removed and the error is one SweepError line."""
    tmp = "%s.tmp.%d" % (path, os.getpid())
    try:
        with open(tmp, "w", newline=newline, encoding="utf-8") as f:
            fill(f)
        if keep_tmp:
            return tmp
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise SweepError("%s: cannot write: %s" % (path, e.strerror or e))


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
