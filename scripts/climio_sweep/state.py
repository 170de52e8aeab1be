"""The sweep's folder on disk and each run's state in it.

    OUT/plan.json                  the runs of the sweep as last planned
    OUT/sweep.toml                 the sweep file as last used
    OUT/runs/POINT/repK/           one folder per run:
        run.json                   everything needed to run it (written when planned)
        params.in                  the kernel's parameter file
        command.sh                 the exact command, runnable by hand
        stdout.txt, stderr.txt     the kernel's output
        result.json                the kernel's JSON result, only once the run succeeded
        result.failed.json         the JSON a failed run left, if any
        status.json                state (running, done, failed, interrupted), times, exit status
        stripe.txt                 striping asked and, on Lustre, lfs getstripe
        attempt-N/                 the logs of earlier failed attempts
    OUT/jobs/                      batch scripts, run lists, batch logs, submissions

Every file is written to a temporary name and renamed, so a run killed at any
moment leaves either the old or the new file, never half of one; result.json
appears only after the kernel has finished and succeeded."""

import json
import os
import sys

from .errors import SweepError
from .resultcheck import PLAN, STATUS, check_file, check_result

AGAIN = "run the sweep again (climio-sweep run SWEEP.toml: the runs already done are kept) to write it anew"


def command_line():
    """The command that writes a sweep's JSON, as typed (argv, the program first)."""
    return list(sys.argv)


def write_atomic(path, text):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_json(path, obj):
    write_atomic(path, json.dumps(obj, indent=1, sort_keys=False) + "\n")


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def read_plan(outdir):
    """The plan.json of a sweep's folder, or None when there is none; a
    plan.json that is there but cannot be read as a plan is an error that says
    what is wrong with it: cut short, damaged, or not climio-sweep's."""
    path = os.path.join(outdir, "plan.json")
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        raise SweepError("%s: expected the sweep's plan (a file), found a folder" % path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise SweepError("%s: damaged: expected JSON text, found binary data; %s" % (path, AGAIN))
    except OSError as e:
        raise SweepError("%s: cannot read the sweep's plan: %s" % (path, e.strerror or e))
    if not text.strip():
        raise SweepError("%s: cut short: the file is empty; %s" % (path, AGAIN))
    try:
        doc = json.loads(text)
    except ValueError as e:
        # the text ends inside the document (or inside a string running to its end)
        if getattr(e, "pos", 0) >= len(text.rstrip()) or getattr(e, "msg", "").startswith("Unterminated string"):
            raise SweepError("%s: cut short: the JSON ends after %d bytes, before it is complete; %s" % (
                path, len(text.encode()), AGAIN))
        raise SweepError("%s: damaged: not valid JSON (%s); %s" % (path, getattr(e, "msg", e), AGAIN))
    why = check_file(doc, PLAN) or (None if "runs" in doc else "runs: missing")
    if why:
        raise SweepError("%s: %s: expected a plan written by climio-sweep; %s" % (path, why, AGAIN))
    return doc


def run_dir(outdir, run_id):
    return os.path.join(outdir, "runs", run_id)


def read_checked(path, spec):
    """The JSON object at path when its fields have spec's types, else None."""
    doc = read_json(path)
    return doc if doc is not None and check_file(doc, spec) is None else None


def status(rdir):
    return read_checked(os.path.join(rdir, "status.json"), STATUS) or {}


def is_done(rdir):
    """Done, with a result that can be used (a corrupt result.json runs again)."""
    return status(rdir).get("state") == "done" and os.path.isfile(os.path.join(rdir, "result.json")) and \
        corrupt_result(rdir) is None


def corrupt_result(rdir):
    """Why a run whose status says done has no readable result, or None."""
    path = os.path.join(rdir, "result.json")
    if not os.path.lexists(path):
        return None
    if os.path.isdir(path):
        return "result.json is a folder, expected a file: running the sweep again re-runs it"
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return "result.json cannot be read (%s): running the sweep again re-runs it" % (
            getattr(e, "strerror", None) or str(e).splitlines()[0])
    if not isinstance(doc, dict):
        return "result.json is not a JSON object: running the sweep again re-runs it"
    why = check_result(doc)
    if why:
        return "result.json does not follow doc/results-schema.md (%s): running the sweep again re-runs it" % why
    return None


def state_of(rdir):
    """done, failed (a done run whose result.json is corrupt, too), interrupted,
    running (or killed without a trace), or pending."""
    st = status(rdir)
    s = st.get("state")
    if s == "done":
        if not os.path.lexists(os.path.join(rdir, "result.json")):
            return "pending"
        if corrupt_result(rdir):
            return "failed"
    return s or "pending"
