"""From a sweep to its runs: the Cartesian product of the swept settings minus
the exclusions, times the repetitions; each run's folder name, parameter file
and command line."""

import hashlib
import itertools
import json
import os
import random
import re
from dataclasses import dataclass

from . import launcher

SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt])(?:i?b)?\s*$", re.I)
SIZE_HINTS = ("striping_unit", "cb_buffer_size", "ind_rd_buffer_size", "ind_wr_buffer_size",
              "romio_lustre_co_ratio_size", "nc_header_align_size", "nc_var_align_size",
              "nc_record_align_size", "nc_header_read_chunk_size", "nc_ibuf_size", "nc_in_place_swap_size")


@dataclass
class Run:
    """One execution of the kernel: a point of the product and a repetition."""
    point: str        # the point's folder name, from its swept values
    rep: int
    settings: dict    # axis key -> value (the point's coordinates)
    nprocs: int
    nodes: int
    params: dict      # every parameter set by the sweep (fixed and swept)
    hints: dict       # every hint (fixed and swept)
    env: dict
    warmup: bool = False   # a warm-up run (rep counts the warm-up rounds): left out of the results

    @property
    def id(self):
        return "%s/%s%d" % (self.point, "warmup" if self.warmup else "rep", self.rep)

    @property
    def what(self):
        """'repetition 2' or 'warm-up 0' (parameter files, messages)."""
        return "%s %d" % ("warm-up" if self.warmup else "repetition", self.rep)


def hint_text(name, value):
    """A hint value as MPI-IO wants it: sizes like "1m" become bytes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    s = str(value)
    m = SIZE.match(s)
    if m and (name in SIZE_HINTS or name.endswith("_size") or name.endswith("_unit")):
        n = float(m.group(1)) * 1024 ** ("kmgt".index(m.group(2).lower()) + 1)
        return str(int(n))
    return s


def param_text(value):
    """A parameter value as a parameter-file token: quoted when it holds blanks,
    comment characters or quotes (the kernels' files have no escapes: a value
    with a double quote is put in single quotes)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    s = str(value)
    if not s or re.search(r"[\s!#\"']", s):
        return "'%s'" % s if '"' in s else '"%s"' % s
    return s


def _slug_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def point_name(sweep, settings):
    """A readable, stable folder name: np2,N1,iotype=blocking_collective,cb_nodes=1."""
    names = {}
    for a in sweep.axes:
        names.setdefault(a.name, []).append(a)
    parts = []
    for a in sweep.axes:
        v = settings[a.key]
        if a.key == "nprocs":
            parts.append("np%s" % v)
        elif a.key == "nodes":
            parts.append("N%s" % v)
        else:
            label = a.name if len(names[a.name]) == 1 else a.key
            parts.append("%s=%s" % (label, _slug_value(v)))
    raw = ",".join(parts)
    safe = re.sub(r"[^A-Za-z0-9._=,+-]", "_", raw)
    if safe != raw or len(safe) > 150:
        digest = hashlib.sha1(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:8]
        safe = safe[:140] + "~" + digest
    return safe


def excluded(sweep, settings):
    for _, cond in sweep.excludes:
        if all(any(_same(settings[k], v) for v in vals) for k, vals in cond.items()):
            return True
    return False


def _same(a, b):
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                            and not isinstance(a, bool) and not isinstance(b, bool) and a == b)


def points(sweep):
    """The settings of every point, in product order (first axis slowest)."""
    out = []
    for combo in itertools.product(*(a.values for a in sweep.axes)):
        settings = {a.key: v for a, v in zip(sweep.axes, combo)}
        if not excluded(sweep, settings):
            out.append(settings)
    return out


def shuffle_seed(sweep):
    """The seed of a shuffled order: the sweep's, else one derived from the
    sweep's settings (the same sweep file gives the same order, so a resumed
    sweep keeps it); None for round-robin."""
    if sweep.order != "shuffle":
        return None
    if sweep.seed is not None:
        return sweep.seed
    text = json.dumps([sweep.name, [[a.key, a.values] for a in sweep.axes], sweep.repetitions], default=str)
    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16)


def order_words(sweep):
    """How the runs are ordered, for the header and plan.json."""
    warm = ""
    if sweep.warmup:
        warm = ", after %d warm-up round%s (left out of the results)" % (sweep.warmup, "" if sweep.warmup == 1 else "s")
    if sweep.order == "shuffle":
        return "interleaved: every point once per round, each round shuffled (seed %d), %d round%s%s" % (
            shuffle_seed(sweep), sweep.repetitions, "" if sweep.repetitions == 1 else "s", warm)
    return "interleaved: every point once per round (round-robin), %d round%s%s" % (
        sweep.repetitions, "" if sweep.repetitions == 1 else "s", warm)


def runs(sweep):
    """Every run, interleaved: repetition 0 of every point, then repetition 1
    of every point, ... so a slow spell of a shared machine spreads over all
    points instead of landing on one; with order = "shuffle" each round's
    points in a random order from the recorded seed."""
    per_point = []
    for settings in points(sweep):
        params = dict(sweep.fixed["param"])
        hints = dict(sweep.fixed["hint"])
        env = dict(sweep.fixed["env"])
        for a in sweep.axes:
            v = settings[a.key]
            if a.kind == "param":
                params[a.name] = v
            elif a.kind == "hint":
                hints[a.name] = v
            elif a.kind == "env":
                env[a.name] = v
        per_point.append((point_name(sweep, settings), settings, params, hints, env))
    seed = shuffle_seed(sweep)
    rng = random.Random(seed) if seed is not None else None
    # warm-up rounds first, shuffled apart so that the measured rounds keep their order
    warm_rng = random.Random("warmup %d" % seed) if seed is not None else None
    result = []
    rounds = [(True, k, warm_rng) for k in range(getattr(sweep, "warmup", 0))] + \
        [(False, k, rng) for k in range(sweep.repetitions)]
    for warmup, rep, shuffler in rounds:
        round_ = list(per_point)
        if shuffler:
            shuffler.shuffle(round_)
        for name, settings, params, hints, env in round_:
            result.append(Run(point=name, rep=rep, settings=settings, nprocs=settings["nprocs"],
                              nodes=settings.get("nodes", 1), params=params, hints=hints, env=env, warmup=warmup))
    return result


# ---------------------------------------------------------------- parameter file

KEY = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:=\s*|\s+|$)(.*)$")


def _value_of(rest):
    """The value token of a parameter-file line (quotes removed, comment dropped)."""
    rest = rest.strip()
    if rest[:1] in "\"'":
        q = rest[0]
        end = rest.find(q, 1)
        return rest[1:end] if end > 0 else rest[1:]
    return re.split(r"\s+[!#]|\s+", rest, maxsplit=1)[0] if rest else ""


def base_hints(base_text):
    """The `hints` value of a base parameter file, as an ordered dict."""
    out = {}
    for line in base_text.splitlines():
        s = line.strip()
        if not s or s[0] in "!#":
            continue
        m = KEY.match(line)
        if m and m.group(1) == "hints":
            for pair in _value_of(m.group(2)).split(";"):
                if "=" in pair:
                    k, v = pair.split("=", 1)
                    out[k.strip()] = v.strip()
    return out


def run_hints(base, hints):
    """The `hints` value a run gets ("k=v;k=v", "" for none): the base file's
    (base: what the kernel said about it), then the sweep's, which win."""
    out = {}
    if base is not None and base.is_set("hints"):
        for pair in (base.value("hints") or "").split(";"):
            if "=" in pair:
                k, v = pair.split("=", 1)
                out[k.strip()] = v.strip()
    out.update({k: hint_text(k, v) for k, v in hints.items()})
    return ";".join("%s=%s" % kv for kv in out.items())


def parameter_file(sweep, run, base, output_dir, base_text=None):
    """The run's parameter file and the input files it names ({key: absolute
    path}).  base: what the kernel said (--print_params) about the base file or,
    without one, its built-in input: every key it set, under the kernel's own
    name, then the sweep's settings (keys the sweep sets are left out above, by
    the kernel's names for them).  Relative names of files beside the base file
    are made absolute, since runs start in their own folder.  base None (the
    kernel cannot run here): the base file's text as it is, see _text_file."""
    if base is None:
        return _text_file(sweep, run, base_text, output_dir), {}
    names = getattr(sweep, "param_names", {}) or {}
    set_here = {names.get(k, k): v for k, v in run.params.items()}
    hints = run_hints(base, run.hints)
    if hints:
        set_here["hints"] = hints
    if sweep.output_parameter and output_dir:
        set_here[base.canonical(sweep.output_parameter)] = output_dir
    lines = ["! climio sweep '%s': point %s, %s" % (sweep.name, run.point, run.what),
             "! base: %s, as %s read it (--print_params)" % (sweep.base or base.doc.get("parameter_file"),
                                                           sweep.kernel)]
    basedir = os.path.dirname(sweep.base) if sweep.base else None
    files = {}
    for key, value, origin in base.from_file():
        if key in set_here:
            lines.append("! %s %s   ! %s: set by the sweep below" % (key, param_text(value), origin))
            continue
        cand = os.path.join(basedir, value) if basedir and value and not os.path.isabs(value) else value
        if basedir and value and os.path.isfile(cand):
            files[key] = os.path.abspath(cand)
            if cand != value:
                lines.append("%s %s   ! %s: '%s', relative to the base file" % (
                    key, param_text(files[key]), origin, value))
                continue
        lines.append("%s %s   ! %s" % (key, param_text(value), origin))
    lines.append("! ---- set by the sweep ----")
    for k, v in set_here.items():
        path = _beside(v, [sweep.dir] + ([os.path.dirname(sweep.base)] if sweep.base else [])) \
            if k in set(names.get(n, n) for n in run.params) else None
        if path:
            files[k] = path
            lines.append("%s %s   ! was '%s', relative to the sweep or base file" % (k, param_text(path), v))
        else:
            if isinstance(v, str) and os.path.isabs(v) and os.path.isfile(v):
                files[k] = v
            lines.append("%s %s" % (k, param_text(v)))
    return "\n".join(lines) + "\n", files


def _text_file(sweep, run, base_text, output_dir):
    """Without the kernel's answer (it cannot run here): the base file with the
    keys the sweep sets (spelled as in the sweep) commented out, then the sweep's
    settings.  Relative names in the base file
    that name files beside it are made absolute, since runs start in their own
    folder."""
    set_here = dict(run.params)
    hints = base_hints(base_text) if base_text else {}
    hints.update({k: hint_text(k, v) for k, v in run.hints.items()})
    if hints:
        set_here["hints"] = ";".join("%s=%s" % kv for kv in hints.items())
    if sweep.output_parameter and output_dir:
        set_here[sweep.output_parameter] = output_dir
    # the output folder under any of the kernel's names for it
    folder_names = {n.lower().replace("-", "_") for n in sweep.output_names} if output_dir else set()
    lines = ["! climio sweep '%s': point %s, %s" % (sweep.name, run.point, run.what)]
    if base_text is not None:
        lines.append("! base parameter file: %s" % sweep.base)
        basedir = os.path.dirname(sweep.base)
        for line in base_text.splitlines():
            s = line.strip()
            m = KEY.match(line) if s and s[0] not in "!#" else None
            if m and (m.group(1) in set_here or m.group(1).lower().replace("-", "_") in folder_names):
                lines.append("! (set by the sweep below) " + line)
                continue
            if m:
                val = _value_of(m.group(2))
                cand = os.path.join(basedir, val) if val and not os.path.isabs(val) else None
                if cand and os.path.isfile(cand):
                    line = "%s %s   ! was '%s', relative to the base file" % (
                        m.group(1), param_text(os.path.abspath(cand)), val)
            lines.append(line)
    lines.append("! ---- set by the sweep ----")
    for k, v in set_here.items():
        path = _beside(v, [sweep.dir] + ([os.path.dirname(sweep.base)] if sweep.base else [])) \
            if k in run.params else None
        if path:
            lines.append("%s %s   ! was '%s', relative to the sweep or base file" % (k, param_text(path), v))
        else:
            lines.append("%s %s" % (k, param_text(v)))
    return "\n".join(lines) + "\n"


def _beside(value, dirs):
    """The absolute path of a relative file name found in one of dirs, else None."""
    if not isinstance(value, str) or not value or os.path.isabs(value):
        return None
    for d in dirs:
        cand = os.path.join(d, value)
        if os.path.isfile(cand):
            return os.path.abspath(cand)
    return None


def launcher_words(sweep, environ):
    """MPIEXEC from the environment wins over [launch] mpiexec (as in the tests)."""
    return launcher.launcher_words(environ, sweep.launch.get("mpiexec") or "mpiexec") + \
        list(sweep.launch.get("mpiexec_args", []))
