"""Writing the sweep's folder: plan.json and, for every run not yet done, its
run.json and parameter file.  A run already done with other settings is an
error: its result would silently stand for an experiment that was not run."""

import hashlib
import json
import os
import shutil

from . import plan as planmod
from .errors import SweepError
from .resultcheck import RUN
from .state import command_line, read_checked, read_json, read_plan, run_dir, is_done, write_atomic, write_json


def output_dir(sweep, override=None):
    return os.path.abspath(override or sweep.output or "%s.sweep" % sweep.name)


# What a sweep writes in its folder (state.py describes them).
OUTPUTS = ("sweep.toml", "plan.json", "runs", "jobs", "results.csv", "results.json", "report")


def _made_by_us(outdir):
    """True when the folder is a sweep's folder: a plan.json climio-sweep
    wrote, or run folders it planned (beside a plan.json cut short, say)."""
    try:
        plan = read_plan(outdir)
    except SweepError:
        plan = None
    if plan is not None and isinstance(plan.get("sweep"), str) and isinstance(plan.get("kernel"), str):
        return True
    for d, _, files in os.walk(os.path.join(outdir, "runs")):
        if "run.json" in files and read_checked(os.path.join(d, "run.json"), RUN) is not None:
            return True
    return False


def check_output_folder(sweep, outdir):
    """Before anything runs or is written: refuse an output folder that holds
    files of the names the sweep writes (sweep.toml, plan.json, runs/, ...)
    that climio-sweep did not write, e.g. --out . beside the user's own
    sweep.toml: they would be overwritten."""
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        raise SweepError("%s: expected a folder for the sweep's runs (--out or [sweep] output), found a file" % outdir)
    if not os.path.isdir(outdir):
        return
    present = [n for n in OUTPUTS if os.path.lexists(os.path.join(outdir, n))
               and not (n == "sweep.toml" and os.path.exists(os.path.join(outdir, n))
                        and os.path.samefile(sweep.path, os.path.join(outdir, n)))]
    if present and not _made_by_us(outdir):
        raise SweepError("%s: expected a new folder or one a sweep wrote, found %s there, which climio-sweep did not "
                         "write (no sweep's plan.json): the sweep would overwrite %s; give another output folder "
                         "(--out %s.sweep)" % (outdir, ", ".join(present), "them" if len(present) > 1 else "it",
                                               sweep.name))


def _identity(run):
    keys = ("kernel", "nprocs", "nodes", "params", "hints", "env", "base_sha1", "base_settings", "input_files",
            "output_parameter")
    return {k: run.get(k) for k in keys}


def _sha1_of(path):
    h = hashlib.sha1()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as e:
        raise SweepError("%s: cannot read this input file of the runs: %s" % (path, e.strerror or e))
    return h.hexdigest()


def input_name(sweep, base):
    """The input the runs read, as figures and tables name it: the base
    file's name, or the kernel's name for its built-in input."""
    if sweep.base:
        return os.path.basename(sweep.base)
    return (base.doc.get("parameter_file") if base is not None else None) or "<built-in>"


def run_records(sweep, outdir, exe, base=None):
    """One dict per run: what run.json holds.  base: the kernel's answer about
    the base file or built-in input (kernel.check_parameters), or None.  A run's
    identity holds the base's settings as the kernel read them and the content
    (SHA-1) of every input file its parameters name, so editing a descriptor,
    fcfg or hints file makes the runs already done stand for another workload."""
    base_text = None
    base_sha1 = None
    if sweep.base:
        with open(sweep.base, encoding="utf-8", errors="replace") as f:
            base_text = f.read()
        base_sha1 = hashlib.sha1(base_text.encode()).hexdigest()
    data_root = os.path.abspath(sweep.data_dir) if sweep.data_dir else None
    records = []
    sha1s = {}
    for r in planmod.runs(sweep):
        rdir = run_dir(outdir, r.id)
        data = os.path.join(data_root, sweep.name, r.id) if data_root else os.path.join(rdir, "out")
        rec = {
            "sweep": sweep.name, "id": r.id, "point": r.point, "rep": r.rep, "warmup": r.warmup,
            "settings": r.settings,
            "kernel": sweep.kernel, "executable": exe, "nprocs": r.nprocs, "nodes": r.nodes,
            "params": r.params, "hints": r.hints, "env": r.env,
            "base": sweep.base, "base_sha1": base_sha1, "output_parameter": sweep.output_parameter,
            "input": input_name(sweep, base),
            "output_env": list(sweep.output_env),
            "data_dir": data, "keep_data": sweep.keep_data, "timeout": sweep.timeout,
        }
        text, files = planmod.parameter_file(sweep, r, base, data if sweep.output_parameter else None, base_text)
        rec["parameter_file"] = text
        rec["base_settings"] = {k: v for k, v, _ in base.from_file()} if base is not None else None
        rec["input_files"] = {k: {"path": p, "sha1": sha1s.setdefault(p, _sha1_of(p))} for k, p in files.items()}
        records.append(rec)
    return records


def _differences(old, new):
    out = []
    a, b = _identity(old), _identity(new)
    for k in a:
        if a[k] != b[k]:
            out.append("%s: %s -> %s" % (k, json.dumps(a[k], sort_keys=True), json.dumps(b[k], sort_keys=True)))
    return out


def write(sweep, outdir, records):
    """Create the folders; returns nothing.  Done runs are left untouched."""
    os.makedirs(os.path.join(outdir, "runs"), exist_ok=True)
    os.makedirs(os.path.join(outdir, "jobs"), exist_ok=True)
    changed = []
    for rec in records:
        rdir = run_dir(outdir, rec["id"])
        old = read_json(os.path.join(rdir, "run.json"))
        if old and is_done(rdir):
            diff = _differences(old, rec)
            if diff:
                changed.append((rec["id"], diff))
    if changed:
        lines = ["%s: %s" % (rid, "; ".join(d)) for rid, d in changed[:10]]
        more = "" if len(changed) <= 10 else "\n  ... and %d more" % (len(changed) - 10)
        raise SweepError("%s: expected the settings of the runs already done in %s, found different ones:\n  %s%s\n"
                         "Use another output folder (--out) for the new settings, or delete those runs' folders."
                         % (sweep.path, outdir, "\n  ".join(lines), more))
    for rec in records:
        rdir = run_dir(outdir, rec["id"])
        if is_done(rdir):
            continue
        os.makedirs(rdir, exist_ok=True)
        text = rec["parameter_file"]
        write_atomic(os.path.join(rdir, "params.in"), text)
        write_json(os.path.join(rdir, "run.json"), {k: v for k, v in rec.items() if k != "parameter_file"})
    kept = os.path.join(outdir, "sweep.toml")
    if not (os.path.exists(kept) and os.path.samefile(sweep.path, kept)):    # run from the copy it keeps
        shutil.copyfile(sweep.path, kept + ".tmp")
        os.replace(kept + ".tmp", kept)
    write_json(os.path.join(outdir, "plan.json"), {
        "schema": "climio-sweep-plan", "sweep": sweep.name, "kernel": sweep.kernel, "sweep_file": os.path.abspath(sweep.path),
        "axes": [{"key": a.key, "kind": a.kind, "name": a.name, "values": a.values} for a in sweep.axes],
        "fixed": sweep.fixed, "repetitions": sweep.repetitions, "warmup": sweep.warmup,
        "order": sweep.order, "seed": planmod.shuffle_seed(sweep), "order_words": planmod.order_words(sweep),
        "runs": [rec["id"] for rec in records], "command_line": command_line(),
    })
