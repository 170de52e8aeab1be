"""Finding the kernel program and asking it about a sweep's parameters: every
climio kernel prints, with --print_params, the parameter set a run would use,
normalised and validated by its own rules, and the drivers it can run."""

import glob
import json
import os
import re
import shutil
import subprocess
import tempfile

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


class KernelParams:
    """What `kernel [FILE] --print_params [--key=value ...]` says: the parameter
    set a run would use, normalised and validated by the kernel itself, the
    command-line options under the names the kernel knows them by, and the
    drivers built with the iotypes and formats each can run."""

    def __init__(self, doc):
        self.doc = doc
        self.params = doc.get("parameters") or {}
        self.command_line = doc.get("command_line") or []
        self.drivers = doc.get("drivers") or {}

    def canonical(self, key):
        """The kernel's own name for key (a historical alias names another)."""
        return (self.params.get(key) or {}).get("alias_of") or key

    def value(self, key):
        return (self.params.get(key) or {}).get("value")

    def is_set(self, key):
        return bool((self.params.get(key) or {}).get("set"))

    def from_file(self):
        """(key, value, origin) of every key the parameter file (or built-in
        input) set, in the kernel's order."""
        return [(k, p["value"], p["origin"]) for k, p in self.params.items()
                if p.get("set") and p.get("origin") not in ("command line", "default")
                and not p.get("command_line_only")]

    def output_folder(self):
        """The kernel's output folder (--print_params's "output_folder"): {key,
        names, default, env}, or None when the kernel names none."""
        f = self.doc.get("output_folder")
        return f if isinstance(f, dict) and isinstance(f.get("key"), str) else None

    def io_problem(self):
        """Why the kernel would refuse the driver, iotype and format asked, in its
        own words, or None: the kernel applies its own rule (--print_params's
        "io"), the sweep keeps no copy of it."""
        return (self.doc.get("io") or {}).get("refused")


class KernelRefused(Exception):
    """The kernel refused the parameters: its own error line."""


def kernel_error_line(text):
    """The kernel's own 'PROGRAM: error: ...' line in its output (every rank may
    print it; MPI launchers add banners around it), or None."""
    for line in text.splitlines():
        if re.match(r"^\S+: error: ", line):
            return line.strip()
    return None


# Open MPI's help messages sit between lines of dashes, MPICH's Hydra's between
# lines of '='; GNU time -v's report starts with "Command being timed".
_RULE = re.compile(r"^\s*(-{10,}|={10,})\s*$")
# (Open MPI's "[host:pid] 1 more process has sent help message ..." and its
# "Set MCA parameter" hint follow an MPI_Abort on more than one rank)
_LAUNCHER = re.compile(r"^(Primary job|mpiexec|mpirun|prterun|\[proxy:|BAD TERMINATION|YOUR APPLICATION|"
                       r"\s*(Process name|Exit code|PID|RANK|KILLED BY SIGNAL|EXIT CODE):|"
                       r"\[[^\]\s]+\] (\d+ more process|Set MCA parameter))")
_LAUNCHER_SAYS = re.compile(r"signal|Exit code|exit code|exited|KILLED|not found|unable", re.I)


def _split_output(text):
    """(the program's lines, the launcher's lines) of a run's output: launcher
    banners and GNU time's -v report are set apart."""
    own, launcher = [], []
    inside = False
    for line in text.splitlines():
        if _RULE.match(line):
            inside = not inside
            continue
        if line.startswith("\tCommand being timed:"):
            break       # GNU time -v: the rest is its report
        if not line.strip() or line.startswith("Command exited with non-zero status"):
            continue
        if line.startswith("Command terminated by signal"):     # GNU time's words for a crash
            launcher.append(line.strip())
            continue
        (launcher if inside or _LAUNCHER.match(line) else own).append(line.strip())
    return own, launcher


def program_error_line(err, out=""):
    """What a failed run said, in one line: the program's own 'PROGRAM: error:'
    line; else its own line of stderr that names an error, else its last own
    line of stderr; else, when it wrote nothing of its own there, its line of
    stdout that names an error (e3sm_io reports there); else what the MPI
    launcher said of it (a signal, an exit code); never a launcher's rule of
    dashes nor GNU time's 'Exit status'."""
    said = kernel_error_line(err) or kernel_error_line(out)
    if said:
        return said
    own, launcher = _split_output(err)
    own_out, _ = _split_output(out)
    for line in own or own_out:
        if _NAMES_ERROR.search(line):
            return line
    if own:
        return own[-1]
    for line in launcher:
        if _LAUNCHER_SAYS.search(line) and not line.lstrip().startswith(("Primary job", "a non-zero")):
            return " ".join(line.split())
    return own_out[-1] if own_out else None


_NAMES_ERROR = re.compile(r"\berror\b|abort|fatal|cannot|can't|failed|no such", re.I)


_ASKED = {}


def forget_answers():
    """For a process that plans several sweeps (tests): ask again."""
    _ASKED.clear()


def print_params(exe, base, options, env):
    """_print_params, asked once per program, base file and options in a run of
    the tool (the environment is the runs' own, the same for every question)."""
    key = (exe, base, tuple(options))
    if key not in _ASKED:
        try:
            _ASKED[key] = _print_params(exe, base, options, env)
        except KernelRefused as e:
            _ASKED[key] = e
    if isinstance(_ASKED[key], KernelRefused):
        raise _ASKED[key]
    return _ASKED[key]


def _print_params(exe, base, options, env):
    """Ask the kernel for the parameter set of `exe [base] --print_params
    options...`; returns a KernelParams, None when the kernel cannot run here
    (a login node) or has no --print_params, and raises KernelRefused with the
    kernel's error line when it refuses the parameters.  Runs in an empty folder,
    so a default parameter file in the current folder is not read."""
    argv = [exe] + ([base] if base else []) + ["--print_params"] + list(options)
    with tempfile.TemporaryDirectory(prefix="climio-sweep-") as tmp:
        try:
            p = subprocess.run(argv, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                               env=env, timeout=120, text=True, errors="replace")
        except subprocess.TimeoutExpired:
            return _unanswered("did not answer in 120 s")
        except OSError as e:
            return _unanswered("did not run here (%s)" % (e.strerror or e))
    if p.returncode == 0:
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and doc.get("schema") == "climio-params":
            return KernelParams(doc)
        return _unanswered("ran and ended well, but printed no climio parameter set (is it a climio kernel?)")
    line = kernel_error_line(p.stderr) or kernel_error_line(p.stdout)
    if line is None:
        return _unanswered("did not run here (exit status %d, no error line)" % p.returncode)
    if "print_params" in line and "unknown option" in line:
        return _unanswered("is not known to this kernel (a kernel from before --print_params)")
    raise KernelRefused(line)


UNANSWERED = ["did not run here"]       # why the last question got no answer, for messages


def _unanswered(why):
    UNANSWERED[0] = why
    return None


def option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _settings_of(sweep):
    """[parameters] entries: (name, values, line) in the sweep file's order."""
    out = [(k, [v], sweep.locator.line("parameters", k)) for k, v in sweep.fixed["param"].items()]
    out += [(a.name, a.values, a.line) for a in sweep.axes if a.kind == "param"]
    return out


def ask_base(sweep, exe, env):
    """The kernel's answer about the base file (or its built-in input), or None
    when it cannot be asked here; its refusal of the base is the sweep's error."""
    try:
        return print_params(exe, sweep.base, [], env)
    except KernelRefused as e:
        where = sweep.where("sweep", "base") if sweep.base else sweep.where("sweep", "kernel")
        raise SweepError("%s: %s refuses the %s: %s" % (
            where, sweep.kernel, "base parameter file" if sweep.base else "built-in input", e))


def _norm(name):
    return name.lower().replace("-", "_")


def output_folder(sweep, exe, env):
    """Which kernel parameter names the runs' output folder, every name it has
    and the variables that override it, from the kernel (--print_params's
    "output_folder"), set on sweep (output_parameter, output_names, output_env).
    output_parameter in [sweep] names it without asking; otherwise a kernel that
    cannot be asked, or names no output folder, is the sweep's error.  Then no
    [parameters] entry may set it."""
    asked = ask_base(sweep, exe, env) if not sweep.output_parameter else None
    folder = asked.output_folder() if asked is not None else None
    if sweep.output_parameter:
        sweep.output_names = (sweep.output_parameter,)
    elif asked is None:
        raise SweepError("%s: cannot ask %s which parameter names its output folder: '%s --print_params' %s; run "
                         "where the kernel starts, or set output_parameter in [sweep]" % (
                             sweep.where("sweep", "executable" if sweep.executable else "kernel"), sweep.kernel, exe,
                             UNANSWERED[0]))
    elif folder is None:
        raise SweepError("%s: %s names no output folder in its --print_params answer; set output_parameter in "
                         "[sweep]" % (sweep.where("sweep", "kernel"), sweep.kernel))
    else:
        sweep.output_parameter = folder["key"]
        sweep.output_names = tuple(n for n in folder.get("names") or () if isinstance(n, str)) or (folder["key"],)
        sweep.output_env = tuple(v for v in folder.get("env") or () if isinstance(v, str))
    names = {_norm(n) for n in sweep.output_names}
    for name, _, line in _settings_of(sweep):
        if _norm(name) in names:
            raise SweepError("%s:%d: %s: expected a kernel parameter the sweep does not set itself, found '%s' (the "
                             "sweep sets each run's output folder; use data_dir in [sweep])" % (
                                 sweep.path, line, _esc(name), _esc(name)))


def check_parameters(sweep, exe, env):
    """Ask the kernel about the base file and every distinct parameter set of
    the sweep, before any run: unknown keys, values of the wrong type or range,
    and driver x iotype (or format) points the driver cannot run are refused
    with the kernel's own words and the sweep file's line.  Returns the
    KernelParams of the base file (None when the kernel cannot be asked here) and
    sets sweep.param_names: sweep key -> the kernel's name for it, and
    sweep.point_io: point name -> (the iotype asked, with its origin; the
    kernel's "io" answer for that point), which the planner reads (runs_as)."""
    base_where = sweep.where("sweep", "base") if sweep.base else sweep.where("sweep", "kernel")
    base = ask_base(sweep, exe, env)
    if base is None:
        return None
    for key, value, origin in base.from_file():
        if "\ufffd" in (value or ""):   # not UTF-8: the sweep could not write it back as it is
            raise SweepError("%s: base: expected UTF-8 text, found a byte that is not UTF-8 in %s (%s)" % (
                base_where, key, origin))
    settings = _settings_of(sweep)
    implied, why = _file_iotype(sweep, base, settings)
    names = {}
    seen = {}
    sweep.point_io = {}
    from .plan import points, point_name, run_hints   # the points after exclusions
    for pt in points(sweep):
        chosen = []
        for name, values, line in settings:
            axis = sweep.axis(name)
            v = pt[axis.key] if axis is not None and axis.kind == "param" else values[0]
            chosen.append((name, v, line))
        # the sweep's hints go to the kernel too: it checks their form and ranges
        hints = dict(sweep.fixed["hint"])
        hints.update({a.name: pt[a.key] for a in sweep.axes if a.kind == "hint"})
        hints_opt = ["--hints=%s" % run_hints(base, hints)] if hints else []
        key = tuple((n, option_text(v), type(v).__name__) for n, v, _ in chosen) + tuple(hints_opt)
        if key in seen:
            sweep.point_io[point_name(sweep, pt)] = seen[key]
            continue
        opts = implied + hints_opt + ["--%s=%s" % (n, option_text(v)) for n, v, _ in chosen]
        point = ", ".join("%s = %s" % (n, _show(v)) for n, v, _ in chosen) or "the base settings"
        try:
            kp = print_params(exe, sweep.base, opts, env)
        except KernelRefused as e:
            raise SweepError("%s: %s refuses %s: %s" % (
                _culprit(sweep, chosen, str(e)), sweep.kernel, point, e))
        if kp is None:
            return base
        iotype = kp.params.get("iotype") or {}
        seen[key] = ((iotype.get("value"), iotype.get("origin")), kp.doc.get("io") or {})
        sweep.point_io[point_name(sweep, pt)] = seen[key]
        for (name, v, line), entry in zip(chosen, kp.command_line[-len(chosen):] if chosen else []):
            names[name] = entry["key"]
        no_result = kp.doc.get("no_result")
        if no_result:
            line = next((ln for n, _, ln in chosen if "--%s " % n in no_result), None)
            where = "%s:%d" % (sweep.path, line) if line else _culprit(sweep, chosen, no_result)
            raise SweepError("%s: %s writes no result a sweep can collect for %s: %s" % (
                where, sweep.kernel, point, no_result))
        problem = kp.io_problem()
        if problem:
            # the setting the kernel's words name (a hint, quantize, szip), else the driver, iotype or format
            hint = next((n for n in hints if problem.startswith("command line: hint %s=" % n)), None)
            if hint:    # the kernel's words name the --hints the sweep passed: the [hints] line instead
                raise SweepError("%s: %s refuses the hint %s = %s: %s" % (
                    sweep.where("hints", hint), sweep.kernel, hint, _show(hints[hint]),
                    problem[len("command line: "):]))
            where = _culprit(sweep, chosen, problem)
            line = next((ln for n, _, ln in chosen if names.get(n) in ("driver", "iotype", "format")), None)
            if where == sweep.where("parameters") and line:
                where = "%s:%d" % (sweep.path, line)
            raise SweepError("%s: %s cannot run %s: %s%s; leave the point out with [[exclude]]" % (
                where, sweep.kernel, point, problem, why))
    for name, kname in names.items():
        if kname == base.canonical(sweep.output_parameter or ""):
            raise SweepError("%s: %s: expected a kernel parameter the sweep does not set itself, found '%s' (the "
                             "kernel's '%s': the sweep sets each run's output folder; use data_dir in [sweep])" % (
                                 sweep.where("parameters", name), _esc(name), _esc(name), kname))
        p = base.params.get(kname) or {}
        if p.get("command_line_only"):
            raise SweepError("%s: %s: expected a parameter of a run, found the command-line option '%s'" % (
                sweep.where("parameters", name), _esc(name), kname))
    sweep.param_names = names
    return base


def _file_iotype(sweep, base, settings):
    """Each run reads its settings from a parameter file, where an iotype is the
    user's choice (a driver without it refuses it) rather than the kernel's
    default (adjusted to the driver).  Without a base file, an iotype the
    built-in input sets is written into every run's file: the kernel is asked
    with it given, as the runs will give it.  Returns (options, the words that
    say where it comes from)."""
    if sweep.base or not base.is_set("iotype"):
        return [], ""
    origin = (base.params.get("iotype") or {}).get("origin")
    if origin in ("default", "command line") or any(base.canonical(_norm(n)) == "iotype" for n, _, _ in settings):
        return [], ""
    value = base.value("iotype")
    return ["--iotype=%s" % value], (" (iotype %s is the built-in input's, %s, which every run's parameter file "
                                     "repeats: set iotype in [parameters])" % (value, origin))


def _culprit(sweep, chosen, message):
    """The sweep-file line of the setting a kernel error names (by its option,
    by its name where the kernel's parameter errors start, "command line: deflate
    must be ...", or by its value), else the [parameters] table."""
    for name, v, line in chosen:
        if "--%s=" % name in message or re.search(r"command line: (--)?%s\b" % re.escape(name), message):
            return "%s:%d" % (sweep.path, line)
    for name, v, line in chosen:
        if "'%s'" % option_text(v) in message:
            return "%s:%d" % (sweep.path, line)
    return sweep.where("parameters")


def have(cmd):
    return shutil.which(cmd) is not None
