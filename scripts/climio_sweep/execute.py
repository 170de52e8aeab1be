"""Running one run: the step a local sweep, a Slurm array task and a PBS array
task all take.  A lock on the run's folder makes sure no two processes run the
same run at once; a run that has succeeded is never run again."""

import ctypes
import datetime
import errno
import fcntl
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time

from . import load, lustre
from .kernel import program_error_line
from .resultcheck import check_result
from .state import read_json, write_atomic, write_json, status, is_done

LOG_FILES = ("stdout.txt", "stderr.txt", "status.json", "result.failed.json", "result.partial.json",
             "command.sh", "stripe.txt")


def now():
    return datetime.datetime.now().astimezone().isoformat(timespec="seconds")


class Interrupted(Exception):
    pass


def _die_with_parent():
    """Child side: get SIGTERM if the sweep process dies (kill -9 included), so
    no mpiexec outlives the sweep that started it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def run_environment(run, base_env=None):
    env = dict(os.environ if base_env is None else base_env)
    # Open MPI as root and oversubscribed: the sweep runs where it is started;
    # a value the user set wins.
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    # PNETCDF_HINTS from the caller would override the hints the sweep sets.
    if run["hints"] and "PNETCDF_HINTS" not in run["env"]:
        env.pop("PNETCDF_HINTS", None)
    for k in run.get("output_env") or ():
        if k not in run["env"]:
            env.pop(k, None)
    for k, v in run["env"].items():
        env[k] = "true" if v is True else "false" if v is False else str(v)
    return env


def command(run, launcher):
    """launcher: a list of words (mpiexec [args], srun [args]); -n N is added."""
    return list(launcher) + ["-n", str(run["nprocs"])] + [run["executable"], "params.in",
                                                           "--json", "result.partial.json"]


def _command_sh(rdir, run, argv):
    lines = ["#!/bin/sh",
             "# climio sweep '%s': %s (written by climio-sweep; runs the same command again)" % (
                 run["sweep"], run["id"]),
             "cd %s || exit 1" % shlex.quote(rdir)]
    for k, v in run["env"].items():
        lines.append("export %s=%s" % (k, shlex.quote("true" if v is True else "false" if v is False else str(v))))
    if run["hints"] and "PNETCDF_HINTS" not in run["env"]:
        lines.append("unset PNETCDF_HINTS   # it would override the hints in params.in")
    for k in run.get("output_env") or ():
        if k not in run["env"]:
            lines.append("unset %s   # it would override the output folder in params.in" % k)
    lines.append("exec " + " ".join(shlex.quote(a) for a in argv))
    return "\n".join(lines) + "\n"


def _archive_attempt(rdir, attempt):
    present = [f for f in LOG_FILES if os.path.exists(os.path.join(rdir, f))]
    if not present:
        return
    dest = os.path.join(rdir, "attempt-%d" % attempt)
    os.makedirs(dest, exist_ok=True)
    for f in present:
        os.replace(os.path.join(rdir, f), os.path.join(dest, f))


def _tail(path, n=6):
    try:
        with open(path, errors="replace") as f:
            lines = [l.rstrip("\n") for l in f.readlines()[-n:]]
        return lines
    except OSError:
        return []


class Outcome:
    def __init__(self, state, rdir, status=None, reason=""):
        self.state = state          # done, failed, interrupted, skipped, busy
        self.rdir = rdir
        self.status = status or {}
        self.reason = reason


def execute(rdir, launcher, stop=None, on_start=None):
    """Run the run in folder rdir unless it is done or running elsewhere.
    stop: a callable returning True when the sweep is asked to stop; on_start(proc)
    lets the caller know the child (to kill it on a signal)."""
    os.makedirs(rdir, exist_ok=True)
    lockf = open(os.path.join(rdir, ".lock"), "a")
    try:
        try:
            fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return Outcome("busy", rdir, reason="another process is running it")
            # a file system without locks (Lustre mounted noflock): go on unlocked
            print("climio-sweep: warning: cannot lock %s (%s): runs of this sweep are not protected against "
                  "running twice at once" % (rdir, e.strerror), file=sys.stderr)
        if is_done(rdir):
            return Outcome("skipped", rdir, status(rdir))
        return _execute_locked(rdir, launcher, stop, on_start)
    finally:
        lockf.close()


def _execute_locked(rdir, launcher, stop, on_start):
    run = read_json(os.path.join(rdir, "run.json"))
    if run is None:
        return Outcome("failed", rdir, reason="run.json missing or unreadable: plan the sweep again")
    prev = status(rdir)
    attempt = prev.get("attempt", 0) + 1
    if prev:
        _archive_attempt(rdir, prev.get("attempt", 0))
    for f in LOG_FILES:
        if os.path.exists(os.path.join(rdir, f)):
            os.remove(os.path.join(rdir, f))

    data = run["data_dir"]
    try:
        if os.path.lexists(data):
            shutil.rmtree(data, ignore_errors=True)
        os.makedirs(data, exist_ok=True)
    except OSError as e:
        st = {"state": "failed", "attempt": attempt, "started": now(), "finished": now(), "host": socket.gethostname(),
              "reason": "cannot create the output folder %s: %s" % (data, e.strerror or e)}
        write_json(os.path.join(rdir, "status.json"), st)
        return Outcome("failed", rdir, st, st["reason"])
    stripe_mode, stripe_text = lustre.prepare(data, run["hints"])

    argv = command(run, launcher)
    write_atomic(os.path.join(rdir, "command.sh"), _command_sh(rdir, run, argv))
    os.chmod(os.path.join(rdir, "command.sh"), 0o755)
    env = run_environment(run)
    job = os.environ.get("SLURM_ARRAY_JOB_ID")
    job = "%s_%s" % (job, os.environ.get("SLURM_ARRAY_TASK_ID")) if job else os.environ.get("PBS_JOBID")
    st = {"state": "running", "attempt": attempt, "started": now(), "host": socket.gethostname(),
          "pid": os.getpid(), "job": job, "command": argv, "striping": stripe_mode,
          "cpus_online": load.cores(), "load_average_start": load.sample()}
    write_json(os.path.join(rdir, "status.json"), st)

    t0 = time.monotonic()
    with open(os.path.join(rdir, "stdout.txt"), "wb") as out, open(os.path.join(rdir, "stderr.txt"), "wb") as err:
        rc, reason = run_command(argv, rdir, env, out, err, run.get("timeout") or None, stop, on_start,
                                 "timeout in [sweep]")
    seconds = time.monotonic() - t0

    stripe_text += lustre.after_run(data, stripe_mode)
    write_atomic(os.path.join(rdir, "stripe.txt"), stripe_text)

    partial = os.path.join(rdir, "result.partial.json")
    result = read_json(partial)
    invalid = check_result(result) if result is not None else None
    st.update({"finished": now(), "seconds": round(seconds, 3), "exit_status": rc,
               "load_average_end": load.sample()})
    if reason == "interrupted":
        st.update(state="interrupted", reason="the sweep was stopped while this run was running")
    elif rc == 0 and result is not None and not invalid and result.get("exit_status", 0) == 0:
        os.replace(partial, os.path.join(rdir, "result.json"))
        st["state"] = "done"
        if not run.get("keep_data"):
            shutil.rmtree(data, ignore_errors=True)
    else:
        if not reason:
            if rc != 0:
                reason = "exit status %s" % rc if rc > 0 else "killed by signal %d" % -rc
                said = kernel_error(rdir)
                if said:
                    reason += ": " + said
            elif result is None:
                reason = "exit status 0 but no JSON result (result.partial.json missing or unreadable)"
            elif invalid:
                reason = "exit status 0 but the JSON result does not follow doc/results-schema.md (%s)" % invalid
            else:
                reason = "the result says exit_status %s" % result.get("exit_status")
        st.update(state="failed", reason=reason)
    if os.path.exists(partial):
        os.replace(partial, os.path.join(rdir, "result.failed.json"))
    write_json(os.path.join(rdir, "status.json"), st)
    if st["state"] == "interrupted":
        raise Interrupted()
    return Outcome(st["state"], rdir, st, st.get("reason", ""))


def run_command(argv, cwd, env, out, err, timeout=None, stop=None, on_start=None, timeout_from="the time limit"):
    """The one way climio's tools run a kernel (sweeps and bench-* scripts):
    argv in folder cwd, its output into the open files out and err, stopped
    (TERM, then KILL) when stop() says so or after timeout seconds.  Returns
    (exit status, reason): reason is "" when it ended by itself."""
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                preexec_fn=_die_with_parent)
    except OSError as e:
        reason = "cannot start %s: %s" % (argv[0], e.strerror or e)
        err.write((reason + "\n").encode())
        return 127, reason
    if on_start:
        on_start(proc)
    t0 = time.monotonic()
    rc, reason = None, ""
    while rc is None:
        try:
            rc = proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            if stop and stop():
                _kill(proc)
                rc = proc.wait()
                reason = "interrupted"
            elif timeout and time.monotonic() - t0 > timeout:
                _kill(proc)
                rc = proc.wait()
                reason = "timed out after %g s (%s)" % (timeout, timeout_from)
        except KeyboardInterrupt:   # Ctrl-C: no launcher left running behind the caller
            _kill(proc)
            proc.wait()
            if on_start:
                on_start(None)
            raise
    if rc != 0 and not reason and stop and stop():
        # Ctrl-C reaches the whole process group: the run can die of it before
        # the loop sees the stop, and a launcher that tears down at once (MPICH's
        # Hydra, Open MPI without its kill delay) usually does
        reason = "interrupted"
    if on_start:
        on_start(None)
    return rc, reason


def _kill(proc):
    """TERM, then KILL after a grace period (mpiexec forwards TERM to its ranks)."""
    try:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
    except ProcessLookupError:
        pass


def kernel_error(rdir):
    """What a failed run said, in one line (kernel.program_error_line): the
    kernel's own 'PROGRAM: error: ...' line when it printed one, never the MPI
    launcher's banners around it; or None."""
    texts = []
    for name in ("stderr.txt", "stdout.txt"):
        try:
            with open(os.path.join(rdir, name), errors="replace") as f:
                texts.append(f.read(1 << 22))
        except OSError:
            texts.append("")
    return program_error_line(*texts)


def failure_summary(rdir, n=6):
    """What a failed run said, for the list at the end: the kernel's error line
    when it printed one, else the last lines of its stderr."""
    said = kernel_error(rdir)
    return [said] if said else _tail(os.path.join(rdir, "stderr.txt"), n)
