"""Reading and checking a sweep file (TOML, documented in doc/sweep.md).

Every problem is reported as "file:line: what was expected, what was found".
tomllib gives positions only for syntax errors, so a small scanner maps
(table, key) to the line that sets it for the checks made after parsing."""

import datetime
import difflib
import io
import math
import os
import re
import select
import stat
import sys
from dataclasses import dataclass, field

from .errors import SweepError

try:
    import tomllib
except ImportError:  # Python < 3.11: the same parser is on PyPI as tomli
    try:
        import tomli as tomllib
    except ImportError:
        tomllib = None

SCALARS = (str, int, float, bool)

# Keys of each table: name -> (expected kind, description used in messages).
# MPI counts processes in a C int
MPI_INT_MAX = 2 ** 31 - 1
SWEEP_KEYS = {
    "name": ("str", "a name for the sweep (job names, titles)"),
    "kernel": ("str", "the kernel program, e.g. \"gcrm_io\""),
    "executable": ("str", "path of the kernel program"),
    "base": ("str", "a base parameter file"),
    "output": ("str", "the folder for the sweep's runs"),
    "data_dir": ("str", "the folder the kernels write their files to"),
    "keep_data": ("bool", "true or false"),
    "output_parameter": ("str", "the kernel parameter naming its output folder"),
    "repetitions": ("count:1:1000", "a whole number from 1 to 1000"),
    "order": ("choice:round-robin|shuffle", "\"round-robin\" (every point once, then again) or \"shuffle\" "
              "(each round in a random order)"),
    "seed": ("nonneg_int", "a whole number >= 0 (the shuffle's seed)"),
    "warmup": ("count:0:100", "a whole number from 0 to 100 (warm-up rounds, left out of the results)"),
    "nprocs": ("count_list:1:%d" % MPI_INT_MAX, "a process count from 1 to %d (MPI's int) or a list of them"
               % MPI_INT_MAX),
    "nodes": ("count_list:1:%d" % MPI_INT_MAX, "a node count from 1 to %d or a list of them" % MPI_INT_MAX),
    "timeout": ("nonneg", "seconds >= 0 (0: no limit)"),
}
LAUNCH_KEYS = {
    "mpiexec": ("str", "the MPI launcher command"),
    "mpiexec_args": ("str_list", "a list of strings"),
}
SLURM_KEYS = {
    "partition": ("str", "a partition name"),
    "account": ("str", "an account name"),
    "qos": ("str", "a QOS name"),
    "constraint": ("str", "a node constraint"),
    "time": ("str", "a time limit per run, e.g. \"00:10:00\""),
    "throttle": ("posint", "a whole number >= 1 (array tasks running at once)"),
    "ntasks_per_node": ("posint", "a whole number >= 1"),
    "sbatch_args": ("str_list", "a list of strings"),
    "srun_args": ("str_list", "a list of strings"),
    "setup": ("str_list", "a list of shell lines"),
}
PBS_KEYS = {
    "flavor": ("choice:pro|torque", "\"pro\" (PBS Pro, OpenPBS) or \"torque\""),
    "queue": ("str", "a queue name"),
    "account": ("str", "an account name"),
    "walltime": ("str", "a time limit per run, e.g. \"00:10:00\""),
    "ppn": ("posint", "MPI processes per node, a whole number >= 1"),
    "throttle": ("posint", "a whole number >= 1 (Torque: subjobs running at once)"),
    "qsub_args": ("str_list", "a list of strings"),
    "mpiexec": ("str", "the MPI launcher inside the job"),
    "setup": ("str_list", "a list of shell lines"),
}
TABLES = ("sweep", "parameters", "hints", "env", "exclude", "launch", "slurm", "pbs")

# Parameters the sweep sets itself: a sweep file may not set them.
RESERVED_PARAMS = {
    "json": "the sweep passes --json itself",
    "hints": "put MPI-IO hints in the [hints] table",
    "help": "a command-line action, not a run setting",
    "version": "a command-line action, not a run setting",
    "dry_run": "a command-line action, not a run setting",
    "verify_only": "a command-line action, not a run setting",
    "nprocs": "set nprocs in the [sweep] table",
}

# \Z, not $: $ also matches before a final newline ("A\n" is no name)
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\Z")
HINT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*\Z")
SWEEP_NAME = re.compile(r"^[A-Za-z0-9_.+-]+\Z")
# whole numbers the kernels and launchers can take (C long, 64 bits)
INT64 = (-2 ** 63, 2 ** 63 - 1)
# A sweep's size: the points of the grid (the product of the swept lists, before
# the exclusions) and its runs (points left x (repetitions + warm-up rounds)).
# Each run is a folder and a record in memory while the sweep is planned.
MAX_GRID = 1000000
MAX_RUNS = 20000


@dataclass
class Axis:
    """One swept setting: kind is 'sweep' (nprocs, nodes), 'param', 'hint' or 'env'."""
    kind: str
    name: str
    values: list
    key: str          # nprocs, nodes, NAME, hints.NAME, env.NAME: CSV column and exclusion key
    line: int = 0


@dataclass
class Sweep:
    path: str
    name: str
    kernel: str
    executable: str = None
    base: str = None
    output: str = None
    data_dir: str = None
    keep_data: bool = False
    output_parameter: str = None   # as the sweep file names it; else the kernel's (kernel.output_folder)
    output_names: tuple = ()       # every name of the output parameter (the kernel's answer)
    output_env: tuple = ()         # variables that override it: the runs do not inherit them
    repetitions: int = 1
    order: str = "shuffle"   # each round in an order drawn from the seed (recorded): drift lands on no point
    seed: int = None          # the shuffle's seed (order = "shuffle"); chosen and recorded when not given
    warmup: int = 0           # rounds of every point run first and left out of the results
    timeout: float = 3600.0
    axes: list = field(default_factory=list)
    fixed: dict = field(default_factory=lambda: {"param": {}, "hint": {}, "env": {}})
    excludes: list = field(default_factory=list)   # (line, {key: [values]})
    launch: dict = field(default_factory=dict)
    slurm: dict = field(default_factory=dict)
    pbs: dict = field(default_factory=dict)
    text: str = ""
    locator: object = None
    param_names: dict = field(default_factory=dict)   # [parameters] name -> the kernel's name (kernel.py)

    @property
    def dir(self):
        return os.path.dirname(os.path.abspath(self.path))

    def axis(self, key):
        for a in self.axes:
            if a.key == key:
                return a
        return None

    def where(self, table, key=None, index=0):
        """'file:line' for a key of a table (the table's header when key is None)."""
        return "%s:%d" % (self.path, self.locator.line(table, key, index))


class Locator:
    """Maps (table, occurrence, key) to the line that sets it in a TOML text."""
    KEY = re.compile(r'^\s*((?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\')'
                     r'(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\'))*)\s*=')
    PART = re.compile(r'[A-Za-z0-9_-]+|"[^"]*"|\'[^\']*\'')

    def __init__(self, text):
        self.lines = {}
        table, counts = ("", 0), {}
        for no, line in enumerate(_lines(text), 1):
            s = line.strip()
            if s.startswith("[["):
                name = self._norm(s[2:].split("]]")[0])
                counts[name] = counts.get(name, -1) + 1
                table = (name, counts[name])
                self.lines.setdefault((table, None), no)
            elif s.startswith("["):
                name = self._norm(s[1:].split("]")[0])
                table = (name, 0)
                self.lines.setdefault((table, None), no)
            else:
                m = self.KEY.match(line)
                if m:
                    self.lines.setdefault((table, self._norm(m.group(1))), no)

    def _norm(self, dotted):
        return ".".join(self._part(p) for p in self.PART.findall(dotted))

    @staticmethod
    def _part(p):
        if p.startswith('"') and "\\" in p and tomllib is not None:
            try:   # "a\u00e9": the key tomllib read has the escapes decoded
                return tomllib.loads("k = " + p)["k"]
            except tomllib.TOMLDecodeError:
                pass
        return p.strip("\"'")

    def line(self, table, key=None, index=0):
        n = self.lines.get(((table, index), key))
        if n is None and key is not None:
            n = self.lines.get(((table, index), None))
        if n is None and table:
            # a table set by a key of the top level: exclude = [...], sweep.kernel = "k"
            n = self.lines.get((("", 0), table + "." + key if key else table))
            if n is None:
                n = self.lines.get((("", 0), table))
        return n or 1


def _lines(text):
    """The lines of a TOML text: only \\n ends a line (\\r\\n too, its \\r is stripped
    where lines are shown), not the other characters str.splitlines breaks at
    (form feed, \\x1c, \\u2028, ...), which a string or a comment may hold."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _esc(s):
    """s for a message: characters that are not printable (newlines, control
    characters) as escapes (\\n, \\x0c, \\u2028), so that a message is one line."""
    s = str(s)
    if s.isprintable():
        return s
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in s)


def _int_str(v):
    """A whole number in decimal, or in hex where Python refuses to write it in
    decimal (more than sys.get_int_max_str_digits() digits, from a hex literal)."""
    try:
        return str(v)
    except ValueError:
        return ("-0x%x" % -v) if v < 0 else ("0x%x" % v)


def _did_you_mean(word, choices):
    close = difflib.get_close_matches(word, list(choices), n=1)
    return " (did you mean '%s'?)" % _esc(close[0]) if close else ""


def _show(v):
    """A value as it looks in TOML, for messages."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"%s"' % _esc(v)
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, list):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, int):
        return _int_str(v)
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return v.isoformat()
    return _esc(v)


def _kind_of(v):
    if isinstance(v, bool):
        return "a boolean (%s)" % _show(v)
    if isinstance(v, (int, float)):
        return "a number (%s)" % _show(v)
    if isinstance(v, str):
        return "a string (%s)" % _show(v)
    if isinstance(v, list):
        return "a list (%s)" % _show(v)
    if isinstance(v, dict):
        return "a table"
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time)):
        return "a date or time (%s)" % _show(v)
    return _esc(repr(v))


def _check_typed(sw, table, key, value, kind, desc, index=0):
    """Check one value of a fixed-schema table; returns it normalised."""
    where = sw.where(table, key, index)

    def bad():
        raise SweepError("%s: %s: expected %s, found %s" % (where, key, desc, _kind_of(value)))

    def posint(v):
        return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= INT64[1]

    if kind == "str":
        if not isinstance(value, str) or not value.strip():
            bad()
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            bad()
        return value
    if kind == "posint":
        if not posint(value):
            bad()
        return value
    if kind == "nonneg_int":
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64[1]:
            bad()
        return value
    if kind.startswith("count:"):
        lo, hi = (int(x) for x in kind.split(":")[1:])
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            bad()
        return value
    if kind == "nonneg":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            bad()
        try:
            f = float(value)
        except OverflowError:   # a whole number beyond any float
            bad()
        if not math.isfinite(f) or f < 0:   # nan and inf (TOML has both) are no number of seconds
            bad()
        return f
    if kind.startswith("count_list:"):
        lo, hi = (int(x) for x in kind.split(":")[1:])
        vals = value if isinstance(value, list) else [value]
        if not vals or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in vals):
            bad()
        if len(set(vals)) != len(vals):
            raise SweepError("%s: %s: expected distinct values, found %s" % (where, key, _show(value)))
        return vals
    if kind == "str_list":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            bad()
        return value
    if kind.startswith("choice:"):
        choices = kind[7:].split("|")
        if value not in choices:
            bad()
        return value
    raise AssertionError(kind)


def _check_table(sw, data, table, keys):
    t = data.get(table, {})
    if not isinstance(t, dict):
        raise SweepError("%s: expected a table [%s], found %s" % (sw.where("", table), table, _kind_of(t)))
    out = {}
    for k, v in t.items():
        if k not in keys:
            raise SweepError("%s: expected one of the [%s] keys (%s), found '%s'%s" % (
                sw.where(table, k), table, ", ".join(keys), _esc(k), _did_you_mean(k, keys)))
        out[k] = _check_typed(sw, table, k, v, *keys[k])
    return out


def _setting_values(sw, table, name, value):
    """A [parameters]/[hints]/[env] entry: a scalar (fixed) or a non-empty list
    of distinct scalars (swept).  Returns (values, swept)."""
    where = sw.where(table, name)
    name = _esc(name)
    if isinstance(value, dict):
        raise SweepError("%s: %s: expected a value or a list of values, found a table "
                         "(write %s = [...] in [%s])" % (where, name, name.split(".")[-1], table))
    if isinstance(value, list):
        if not value:
            raise SweepError("%s: %s: expected a non-empty list of values, found []" % (where, name))
        for v in value:
            if not isinstance(v, SCALARS):
                raise SweepError("%s: %s: expected a list of strings, numbers or booleans, found %s in it"
                                 % (where, name, _kind_of(v)))
        values, swept = list(value), True
    elif not isinstance(value, SCALARS):
        raise SweepError("%s: %s: expected a string, number or boolean, found %s" % (where, name, _kind_of(value)))
    else:
        values, swept = [value], False
    for v in values:
        if isinstance(v, int) and not INT64[0] <= v <= INT64[1]:
            raise SweepError("%s: %s: expected whole numbers from -2^63 to 2^63-1, found %s" % (where, name, _show(v)))
    if swept and len(set(map(_show, values))) != len(values):
        raise SweepError("%s: %s: expected distinct values, found %s" % (where, name, _show(value)))
    return values, swept


def parse_text(text, path):
    if tomllib is None:
        raise SweepError("%s: reading TOML needs Python 3.11 (tomllib) or the tomli package" % path)
    lines = _lines(text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        msg = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        if m is None and "(at end of document)" in msg:
            no = max(1, len(lines))
            raise SweepError("%s:%d: expected valid TOML: %s; found: the end of the file" % (
                path, no, _esc(msg.replace("(at end of document)", "").strip())))
        if m:
            no = int(m.group(1))
            found = _esc(lines[no - 1].strip()) if 0 < no <= len(lines) else "the end of the file"
            msg = _esc(msg[:m.start()].strip())
            raise SweepError("%s:%d: expected valid TOML: %s; found: %s" % (path, no, msg, found))
        raise SweepError("%s:1: expected valid TOML: %s" % (path, _esc(msg)))
    except RecursionError:
        # tomllib reads nested arrays and inline tables recursively
        no = _deepest_line(lines)
        raise SweepError("%s:%d: expected valid TOML: arrays or inline tables nested too deeply for Python's "
                         "TOML reader; found: %s" % (path, no, _esc(lines[no - 1].strip()[:200])))
    except ValueError as e:
        # Python refuses to read whole numbers of more than sys.get_int_max_str_digits() digits
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        for no, line in enumerate(lines, 1):
            longest = max((len(n.replace("_", "")) for n in re.findall(r"[0-9][0-9_]*", line)), default=0)
            if limit and longest > limit:
                raise SweepError("%s:%d: expected valid TOML: a number of at most %d digits; found: a number of "
                                 "%d digits" % (path, no, limit, longest))
        raise SweepError("%s:1: expected valid TOML: %s" % (path, _esc(e)))
    return data


def _deepest_line(lines):
    """The line where the most [ and { are open (not told apart from those in
    strings or comments: only for showing where a text nests too deeply)."""
    depth, best, no = 0, -1, 1
    for i, line in enumerate(lines, 1):
        for c in line:
            if c in "[{":
                depth += 1
                if depth > best:
                    best, no = depth, i
            elif c in "]}":
                depth -= 1
    return no


FIFO_WAIT_S = 10


def _read_bytes(path):
    """A file's bytes; a FIFO (a shell's <(...)) once something writes to it,
    refused after FIFO_WAIT_S seconds when nothing does, as the kernels do."""
    try:
        st = os.stat(path)
    except OSError:
        st = None
    if st is not None and stat.S_ISFIFO(st.st_mode):
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        try:
            p = select.poll()
            p.register(fd, select.POLLIN)
            if not p.poll(FIFO_WAIT_S * 1000):
                raise SweepError("%s: a FIFO (named pipe) nothing wrote to in %d s: no process writes to it; give the "
                                 "sweep file, or start the writer first" % (path, FIFO_WAIT_S))
            os.set_blocking(fd, True)
            with os.fdopen(fd, "rb", closefd=False) as f:
                return f.read()
        finally:
            os.close(fd)
    if st is not None and (stat.S_ISSOCK(st.st_mode) or stat.S_ISBLK(st.st_mode)):
        raise SweepError("%s: expected a sweep file (a TOML text), found a %s" % (
            path, "socket" if stat.S_ISSOCK(st.st_mode) else "block device"))
    with open(path, "rb") as f:
        return f.read(64 << 20)     # (a device such as /dev/zero would never end)


def load(path):
    """Read and check a sweep file; returns a Sweep."""
    try:
        text = io.TextIOWrapper(io.BytesIO(_read_bytes(path)), encoding="utf-8").read()    # newlines as open() reads
    except OSError as e:
        raise SweepError("%s: cannot read the sweep file: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise SweepError("%s:1: expected a UTF-8 text (TOML) file, found binary data" % path)
    return from_text(text, path)


def from_text(text, path):
    """Check the text of a sweep file named path (for messages and relative
    paths); returns a Sweep.  Every problem is a SweepError."""
    data = parse_text(text, path)
    sw = Sweep(path=path, name="", kernel="", text=text, locator=Locator(text))

    for k, v in data.items():
        if k not in TABLES:
            line = sw.where("", k) if not isinstance(v, dict) else sw.where(k)
            raise SweepError("%s: expected one of the tables %s, found '%s'%s" % (
                line, ", ".join("[%s]" % t if t != "exclude" else "[[exclude]]" for t in TABLES), _esc(k),
                _did_you_mean(k, TABLES)))
    if "sweep" not in data:
        raise SweepError("%s:1: expected a [sweep] table (with at least kernel and nprocs), found none" % path)

    s = _check_table(sw, data, "sweep", SWEEP_KEYS)
    for req in ("kernel", "nprocs"):
        if req not in s:
            raise SweepError("%s: expected '%s' in [sweep] (%s), found none" % (
                sw.where("sweep"), req, SWEEP_KEYS[req][1]))
    sw.kernel = s["kernel"]
    sw.name = s.get("name") or os.path.splitext(os.path.basename(path))[0]
    if not SWEEP_NAME.match(sw.name):
        raise SweepError("%s: name: expected letters, digits and . _ + - only, found %s" % (
            sw.where("sweep", "name"), _show(sw.name)))
    if sw.name in (".", ".."):   # data_dir/NAME would be data_dir itself or its parent
        raise SweepError("%s: name: expected a name, not a path component, found %s" % (
            sw.where("sweep", "name"), _show(sw.name)))
    for k in ("executable", "base", "data_dir", "output_parameter"):
        setattr(sw, k, s.get(k))
    sw.output = s.get("output")
    sw.keep_data = s.get("keep_data", False)
    sw.repetitions = s.get("repetitions", 1)
    sw.order = s.get("order", "shuffle")
    sw.seed = s.get("seed")
    sw.warmup = s.get("warmup", 0)
    if sw.seed is not None and sw.order != "shuffle":
        raise SweepError("%s: seed: expected order = \"shuffle\" beside it (the seed orders a shuffle), found "
                         "order = \"%s\"" % (sw.where("sweep", "seed"), sw.order))
    sw.timeout = s.get("timeout", 3600.0)
    if sw.base:
        base = os.path.join(sw.dir, sw.base)
        if not os.path.isfile(base):
            raise SweepError("%s: base: expected an existing parameter file (relative to the sweep file), "
                             "found '%s' (no such file: %s)" % (sw.where("sweep", "base"), _esc(sw.base), _esc(base)))
        sw.base = os.path.abspath(base)
    if sw.executable:
        sw.executable = os.path.join(sw.dir, os.path.expanduser(sw.executable))
    sw.axes.append(Axis("sweep", "nprocs", s["nprocs"], "nprocs", sw.locator.line("sweep", "nprocs")))
    if "nodes" in s:
        sw.axes.append(Axis("sweep", "nodes", s["nodes"], "nodes", sw.locator.line("sweep", "nodes")))

    for table, kind in (("parameters", "param"), ("hints", "hint"), ("env", "env")):
        t = data.get(table, {})
        if not isinstance(t, dict):
            raise SweepError("%s: expected a table [%s], found %s" % (sw.where("", table), table, _kind_of(t)))
        for name, value in _flatten(t):
            where = sw.where(table, name)
            if kind == "param":
                if name in RESERVED_PARAMS:
                    raise SweepError("%s: %s: expected a kernel parameter the sweep does not set itself, "
                                     "found '%s' (%s)" % (where, name, name, RESERVED_PARAMS[name]))
            if kind == "hint" and not HINT_NAME.match(name):
                raise SweepError("%s: expected an MPI-IO hint name, found '%s'" % (where, _esc(name)))
            if kind == "env" and not ENV_NAME.match(name):
                raise SweepError("%s: expected an environment variable name (letters, digits, _), found '%s'"
                                 % (where, _esc(name)))
            values, swept = _setting_values(sw, table, name, value)
            if kind == "hint":
                for v in values:
                    if isinstance(v, bool) or (isinstance(v, str) and (";" in v or "=" in v or not v.strip())):
                        raise SweepError("%s: %s: expected a hint value (a string or number without ';' or "
                                         "'='), found %s" % (where, name, _show(v)))
            if swept:
                key = {"param": name, "hint": "hints." + name, "env": "env." + name}[kind]
                sw.axes.append(Axis(kind, name, values, key, sw.locator.line(table, name)))
            else:
                sw.fixed[kind][name] = values[0]

    sw.launch = _check_table(sw, data, "launch", LAUNCH_KEYS)
    sw.slurm = _check_table(sw, data, "slurm", SLURM_KEYS)
    sw.pbs = _check_table(sw, data, "pbs", PBS_KEYS)
    _load_excludes(sw, data.get("exclude", []))
    _check_size(sw)
    return sw


def _check_size(sw):
    """A sweep no larger than MAX_GRID points before the exclusions and
    MAX_RUNS runs after them, refused here rather than while it is planned."""
    grid = 1
    for a in sw.axes:
        grid *= len(a.values)
    rounds = sw.repetitions + sw.warmup
    sizes = " x ".join(str(len(a.values)) for a in sw.axes)
    if grid > MAX_GRID:
        raise SweepError("%s: expected at most %d points in the grid of swept values, found %d (%s): sweep fewer "
                         "values, or split the sweep into several files" % (sw.where("sweep"), MAX_GRID, grid, sizes))
    if grid * rounds <= MAX_RUNS:
        return
    from .plan import points      # the exclusions applied only when they may matter
    n = len(points(sw))
    if n * rounds > MAX_RUNS:
        raise SweepError("%s: expected at most %d runs (points x (repetitions + warm-up rounds)), found %d (%d "
                         "point%s x %d): sweep fewer values or repetitions, or split the sweep into several files" % (
                             sw.where("sweep", "repetitions" if sw.repetitions > 1 else None), MAX_RUNS, n * rounds,
                             n, "" if n == 1 else "s", rounds))


def _flatten(table):
    """Dotted TOML keys (a.b = 1) come back as nested tables: flatten them, in
    the file's order.  Not recursive: a.a.a...a = 1 nests as deep as it is long."""
    stack = [("", iter(table.items()))]
    while stack:
        prefix, items = stack[-1]
        for k, v in items:
            if isinstance(v, dict):
                stack.append((prefix + k + ".", iter(v.items())))
                break
            yield prefix + k, v
        else:
            stack.pop()


def _load_excludes(sw, ex):
    if isinstance(ex, dict) or not isinstance(ex, list):
        raise SweepError("%s: expected [[exclude]] tables (double brackets), found %s" % (
            sw.where("exclude"), "a single [exclude] table" if isinstance(ex, dict) else _kind_of(ex)))
    keys = {a.key: a for a in sw.axes}
    # also accept parameters.NAME for a parameter axis
    aliases = {"parameters." + a.name: a.key for a in sw.axes if a.kind == "param"}
    for i, t in enumerate(ex):
        if not isinstance(t, dict) or not t:
            raise SweepError("%s: expected [[exclude]] with at least one 'axis = value' line, found %s"
                             % (sw.where("exclude", None, i), "an empty table" if t == {} else _kind_of(t)))
        cond = {}
        for k, v in _flatten(t):
            where = sw.where("exclude", k, i)
            k2 = aliases.get(k, k)
            if k2 not in keys:
                raise SweepError("%s: expected a swept setting (one of %s), found '%s'%s" % (
                    where, ", ".join(_esc(n) for n in sorted(keys)), _esc(k), _did_you_mean(k2, keys)))
            vals = v if isinstance(v, list) else [v]
            ax = keys[k2]
            shown = [_show(x) for x in ax.values]
            for x in vals:
                if _show(x) not in shown:
                    raise SweepError("%s: %s: expected one of the swept values %s, found %s" % (
                        where, _esc(k), ", ".join(shown), _show(x)))
            cond[k2] = vals
        sw.excludes.append((sw.locator.line("exclude", None, i), cond))
