"""Lustre striping of a run's output folder.

Where `lfs` exists, the folder gets the stripe count and size the run's hints
ask for (files created in it inherit them, whatever the MPI-IO layer does with
the hints) and `lfs getstripe` is recorded.  Elsewhere the striping reaches the
file system only through the MPI-IO hints, and the record says so."""

import shutil
import subprocess

from .plan import hint_text


def _lfs(args):
    try:
        p = subprocess.run(["lfs"] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 1, str(e)
    return p.returncode, p.stdout


def stripe_request(hints):
    """(count, size in bytes) asked by the hints; None where not asked."""
    count = hints.get("striping_factor")
    size = hints.get("striping_unit")
    return (None if count is None else hint_text("striping_factor", count),
            None if size is None else hint_text("striping_unit", size))


def prepare(path, hints):
    """Stripe the (new, empty) folder when possible.  Returns (mode, text):
    mode is 'none' (no striping asked), 'lfs' (set and read back with lfs),
    'lfs failed' (lfs refused: not on Lustre?) or 'hints only' (no lfs here)."""
    count, size = stripe_request(hints)
    if count is None and size is None:
        return "none", "no striping requested\n"
    asked = "striping_factor=%s striping_unit=%s" % (count or "-", size or "-")
    if shutil.which("lfs") is None:
        return "hints only", ("%s requested through the MPI-IO hints only: there is no lfs command on this "
                              "machine, so the output folder was not striped\n" % asked)
    args = ["setstripe"]
    if count is not None:
        args += ["-c", str(count)]
    if size is not None:
        args += ["-S", str(size)]
    rc, out = _lfs(args + [path])
    if rc != 0:
        return "lfs failed", "lfs %s %s failed (%s); striping requested through the MPI-IO hints only\n%s" % (
            " ".join(args), path, asked, out)
    rc, got = _lfs(["getstripe", "-d", path])
    return "lfs", "lfs %s %s\n\n$ lfs getstripe -d %s\n%s" % (" ".join(args), path, path, got)


def after_run(path, mode):
    """The layout of the files the run wrote (lfs getstripe), when striped with lfs."""
    if mode != "lfs":
        return ""
    rc, out = _lfs(["getstripe", "-r", path])
    lines = out.splitlines()
    if len(lines) > 200:
        lines = lines[:200] + ["... (%d more lines)" % (len(lines) - 200)]
    return "\n$ lfs getstripe -r %s\n%s\n" % (path, "\n".join(lines))
