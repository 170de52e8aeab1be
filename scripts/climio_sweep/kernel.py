"""Finding the kernel program and checking a sweep's parameters against the
kernel's own --help (every climio kernel prints its parameter table there)."""

import glob
import os
import re
import shutil
import subprocess

from .errors import SweepError
from .sweepfile import _did_you_mean, _esc, _show

TOOL_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # scripts/ or bin/


def search_dirs():
    """(label, folder): $CLIMIO_BINDIR, $PATH, then beside this tool (installed)
    and the build tree it sits in (run/, tests/, src/*/)."""
    dirs = []
    if os.environ.get("CLIMIO_BINDIR"):
        dirs.append(("$CLIMIO_BINDIR", os.environ["CLIMIO_BINDIR"]))
    dirs += [("$PATH", d) for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    top = os.path.dirname(TOOL_DIR)
    tree = [TOOL_DIR, os.path.join(top, "run"), os.path.join(top, "tests")]
    tree += sorted(glob.glob(os.path.join(top, "src", "*")))
    dirs += [(d, d) for d in tree]
    return dirs


def find_executable(sweep):
    if sweep.executable:
        if os.path.isfile(sweep.executable) and os.access(sweep.executable, os.X_OK):
            return os.path.abspath(sweep.executable)
        raise SweepError("%s: executable: expected an executable program, found '%s' (%s)" % (
            sweep.where("sweep", "executable"), _esc(sweep.executable),
            "not executable" if os.path.exists(sweep.executable) else "no such file"))
    looked = []
    for label, d in search_dirs():
        p = os.path.join(d, sweep.kernel)
        looked.append(label)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    raise SweepError("%s: kernel: expected a program named '%s' in $CLIMIO_BINDIR, $PATH or the build tree, "
                     "found none (looked in %s); build it (make) or set executable in [sweep]" % (
                         sweep.where("sweep", "kernel"), _esc(sweep.kernel), ", ".join(dict.fromkeys(looked))))


class KernelInfo:
    """What `kernel --help` says: parameter names, their kind, choices, drivers."""
    OPT = re.compile(r"^\s+--([A-Za-z0-9_]+)(?:\s+(\S+))?")

    def __init__(self, text):
        self.params = {}
        self.drivers = None
        for line in text.splitlines():
            m = self.OPT.match(line)
            if m:
                tok = m.group(2) or ""
                if tok == "[true|false]":
                    kind, choices = "bool", None
                elif tok == "N":
                    kind, choices = "int", None
                elif tok == "BYTES":
                    kind, choices = "size", None
                elif "|" in tok and not tok.startswith("["):
                    kind, choices = "choice", tok.split("|")
                else:
                    kind, choices = "str", None
                self.params[m.group(1)] = (kind, choices)
            elif line.startswith("Drivers built:"):
                self.drivers = line.split(":", 1)[1].split()


def kernel_info(exe, env):
    """Run `exe --help`; None when it cannot run here (e.g. a login node)."""
    try:
        p = subprocess.run([exe, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, env=env, timeout=60, text=True, errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    info = KernelInfo(p.stdout)
    return info if info.params else None


BOOL_WORDS = {"true", "false", "yes", "no", "on", "off", "enable", "enabled", "disable", "disabled", "1", "0"}
SIZE_RE = re.compile(r"^\d+(\.\d+)?\s*([kmgt](i?b)?)?$", re.I)


def check_parameters(sweep, info):
    """Every [parameters] key must be one of the kernel's, with a value of its kind."""
    if info is None:
        return
    entries = [(a.name, a.values) for a in sweep.axes if a.kind == "param"]
    entries += [(k, [v]) for k, v in sweep.fixed["param"].items()]
    for name, values in entries:
        where = sweep.where("parameters", name)
        if name not in info.params:
            raise SweepError("%s: expected a parameter of %s, found '%s'%s" % (
                where, sweep.kernel, _esc(name), _did_you_mean(name, info.params)))
        kind, choices = info.params[name]
        for v in values:
            ok = True
            if kind == "bool":
                ok = isinstance(v, bool) or (isinstance(v, (str, int)) and str(v).lower() in BOOL_WORDS)
            elif kind == "int":
                ok = not isinstance(v, bool) and (isinstance(v, int) or (isinstance(v, str) and re.match(r"^-?\d+$", v)))
            elif kind == "size":
                ok = not isinstance(v, bool) and (isinstance(v, int) or (isinstance(v, str) and SIZE_RE.match(v)))
            elif kind == "choice":
                ok = isinstance(v, str) and v.lower() in [c.lower() for c in choices]
            if not ok:
                want = {"bool": "true or false", "int": "a whole number", "size": "a size in bytes (k/m/g suffix)",
                        "choice": "one of " + "|".join(choices or [])}.get(kind, "a value")
                raise SweepError("%s: %s: expected %s, found %s" % (where, name, want, _show(v)))
        if name == "driver" and info.drivers:
            for v in values:
                if v not in info.drivers:
                    raise SweepError("%s: driver: expected one of the drivers built into %s (%s), found %s" % (
                        where, sweep.kernel, " ".join(info.drivers), _show(v)))


def have(cmd):
    return shutil.which(cmd) is not None
