"""Running a sweep here, one run after another, with mpiexec (or $MPIEXEC)."""

import errno
import fcntl
import os
import signal
import sys

from . import execute as ex, load
from .errors import SweepError
from .resultcheck import check_result
from .state import corrupt_result, read_json, run_dir, state_of, status


def refuse_if_locked(outdir):
    """Before the slower steps of a sweep that will take the folder's lock: the
    same refusal SweepLock gives when another climio-sweep holds it now."""
    path = os.path.join(outdir, ".sweep.lock")
    try:
        f = open(path, "r")
    except OSError:
        return      # no lock file (yet): SweepLock decides
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise SweepError("%s: another climio-sweep is working on this folder (%s); wait for it or stop it"
                                 % (outdir, f.read().strip() or "pid unknown"))


class SweepLock:
    """One sweep process per output folder at a time."""

    def __init__(self, outdir, what):
        self.path = os.path.join(outdir, ".sweep.lock")
        self.what = what
        self.f = None

    def __enter__(self):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            self.f = open(self.path, "a+")
        except OSError as e:
            raise SweepError("%s: cannot create the sweep's output folder: %s" % (
                os.path.dirname(self.path), e.strerror or e))
        try:
            fcntl.flock(self.f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return self     # no locks on this file system: nothing to protect with
            self.f.seek(0)
            who = self.f.read().strip()
            self.f.close()
            raise SweepError("%s: another climio-sweep is working on this folder (%s); wait for it or stop it"
                             % (os.path.dirname(self.path), who or "pid unknown"))
        self.f.seek(0)
        self.f.truncate()
        self.f.write("%s pid %d\n" % (self.what, os.getpid()))
        self.f.flush()
        return self

    def __exit__(self, *exc):
        self.f.close()


def bandwidth_of(rdir):
    res = read_json(os.path.join(rdir, "result.json")) or {}
    if check_result(res):
        return None
    try:
        return res["write"]["end_to_end"]["write_bandwidth_MiBps"]
    except (KeyError, TypeError):
        return None


def run_load(rdir):
    """(cores, 1-minute load at the start, at the end) of a run that ended."""
    res = read_json(os.path.join(rdir, "result.json")) or read_json(os.path.join(rdir, "result.failed.json"))
    return load.of_run(res if isinstance(res, dict) and not check_result(res) else None, status(rdir))


def describe(outcome):
    st = outcome.status
    if outcome.state == "done":
        bw = bandwidth_of(outcome.rdir)
        return "done %7.2f s%s" % (st.get("seconds", 0), "  %10.2f MiB/s" % bw if bw is not None else "")
    if outcome.state == "failed":
        return "FAILED  %s" % outcome.reason
    return outcome.state


def run_local(outdir, records, launcher, out=sys.stdout):
    """Returns the exit status: 0 all done, 1 some failed, 130 interrupted."""
    stop = {"flag": False, "proc": None}

    def on_signal(signum, frame):
        stop["flag"] = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    n = len(records)
    counts = {"done": 0, "skipped": 0, "failed": 0, "busy": 0}
    watch = load.Watch("climio-sweep", "in results.csv (host.load_over_cores) and in the report's figures")
    width = len(str(n))
    idw = max(len(r["id"]) for r in records)
    try:
        for i, rec in enumerate(records, 1):
            if stop["flag"]:
                raise ex.Interrupted()
            rdir = run_dir(outdir, rec["id"])
            if state_of(rdir) == "done":
                counts["skipped"] += 1
                continue
            print("[%*d/%d] %-*s  " % (width, i, n, idw, rec["id"]), end="", file=out, flush=True)
            o = ex.execute(rdir, launcher, stop=lambda: stop["flag"])
            counts[o.state] = counts.get(o.state, 0) + 1
            print(describe(o), file=out, flush=True)
            if o.state in ("done", "failed"):
                watch.saw(rec["id"], *run_load(rdir))
    except ex.Interrupted:
        print("interrupted", file=out)
        print("climio-sweep: stopped; runs finished so far are kept, the interrupted one runs again next time",
              file=out)
        summary(outdir, records, out)
        return 130
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if counts["skipped"]:
        print("%d run(s) already done were skipped" % counts["skipped"], file=out)
    if watch.runs:
        print("climio-sweep: %d of the %d run(s) run now had the load above the cores: %s" % (
            len(watch.runs), counts["done"] + counts["failed"], ", ".join(watch.runs[:8]) +
            (" ..." if len(watch.runs) > 8 else "")), file=out)
    return summary(outdir, records, out)


def summary(outdir, records, out=sys.stdout):
    """Counts by state and the failed runs with their logs; 1 if any failed."""
    by = {}
    for rec in records:
        by.setdefault(state_of(run_dir(outdir, rec["id"])), []).append(rec["id"])
    parts = ["%d %s" % (len(v), k) for k, v in sorted(by.items())]
    print("sweep %s: %d runs: %s" % (outdir, len(records), ", ".join(parts)), file=out)
    failed = by.get("failed", [])
    if failed:
        print("failed runs (logs kept in their folders; running the sweep again re-runs them):", file=out)
        for rid in failed:
            rdir = run_dir(outdir, rid)
            st = status(rdir)
            reason = corrupt_result(rdir) or st.get("reason", "")
            print("  %s: %s" % (rdir, reason), file=out)
            for line in ex.failure_summary(rdir, 3):
                if line not in reason:
                    print("      | %s" % line, file=out)
    return 1 if failed else 0
