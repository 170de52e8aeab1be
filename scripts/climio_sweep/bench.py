"""The runner every bench-* script shares (bench-gcrm, bench-mom, bench-drivers,
bench-aggregation, bench-pfio, bench-adios2, bench-compress): the same flags, spelled the same
way and described in --help; each run in its own empty folder, through the
sweep's run_command (timeouts, no launcher outliving the script); repetitions
interleaved (every configuration once, then again); a failed run explained by
the program's own "error:" line; and table cells that show the median with
[min-max], flagged when the spread is more than 25% of the median."""

import argparse
import contextlib
import json
import math
import os
import re
import shlex
import shutil
import statistics
import sys
import tempfile
import time

from .execute import run_command, run_environment
from .kernel import program_error_line  # noqa: F401  (bench-combine relays it too)
from .launcher import launcher_words
from . import load, outfile, verdict

SPREAD_LIMIT = 0.25      # (max - min) / median above this: the cell is flagged
FLAG = "!"


def default_dir():
    """The build folder's disk: the tree above the script's folder when
    writable (a source or build tree), else the current folder."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(sys.argv[0])))
    return top if os.access(top, os.W_OK | os.X_OK) else "."


def add_arguments(ap, dir_default=None):
    """The flags every bench-* script has."""
    g = ap.add_argument_group("flags every bench-* script has")
    g.add_argument("--repetitions", type=int, default=5, metavar="N",
                   help="runs of each configuration, interleaved (every configuration once, then again); each "
                        "table cell is the median with [min-max] of the N runs, flagged '%s' when max - min is more "
                        "than %d%%%% of the median; a 'faster' claim needs %d or more (default: %%(default)s)"
                        % (FLAG, SPREAD_LIMIT * 100, verdict.MIN_REPS))
    g.add_argument("--warmup", type=int, default=0, metavar="N",
                   help="rounds of every configuration run first and discarded (default: %(default)s)")
    g.add_argument("--dir", default=dir_default,
                   help="file system to write on: every run gets its own empty folder there, removed after it "
                        "(default: the build folder's disk, %s)" % (dir_default or default_dir()))
    g.add_argument("--tmpfs", action="store_true",
                   help="write on /dev/shm (memory: the figures measure memory, not storage; the table's title "
                        "says so)")
    g.add_argument("--json", metavar="FILE", help="also write the table, with every repetition's figures, as JSON")
    g.add_argument("--json-dir", metavar="DIR", help="keep every run's own JSON result in DIR")
    g.add_argument("--mpiexec", default=shlex.join(launcher_words()), metavar="CMD",
                   help="MPI launcher, words split as a shell would (default: $MPIEXEC, else %(default)s)")
    g.add_argument("--timeout", type=float, default=1800, metavar="S",
                   help="seconds a run may take before it is stopped (default: %(default)s)")
    return g


# process counts and other counts a script may have: each must be a whole number >= 1
COUNT_FLAGS = ("np", "convert_np", "combine_np", "cores_per_node", "nx", "ny", "nz", "nrec")


def check_counts(ap, args):
    for key in COUNT_FLAGS:
        v = getattr(args, key, None)
        for n in (v if isinstance(v, list) else [v]):
            if isinstance(n, int) and n < 1:
                ap.error("--%s: expected a whole number >= 1, found %d" % (key.replace("_", "-"), n))


def check_launcher_command(ap, flag, text):
    """A launcher a flag names (--mpiexec): a command whose program is there, or
    a usage error now rather than every run failing for the same reason."""
    words = split_words(ap, flag, text)
    if not words:
        ap.error("%s: expected a launcher command, found ''" % flag)
    if not shutil.which(words[0]):
        ap.error("%s %s: %s: %s" % (flag, text, words[0], "not an executable program" if os.path.exists(words[0])
                                    else "no such program" + ("" if os.sep in words[0] else " on $PATH")))


def check_launcher(ap, args):
    check_launcher_command(ap, "--mpiexec", args.mpiexec)
    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        ap.error("--timeout: expected seconds > 0, found %s" % args.timeout)


def split_words(ap, flag, text):
    """A flag's value split into words as a shell would; a bad quote is a usage error."""
    try:
        return shlex.split(text)
    except ValueError as e:
        ap.error("%s %r: cannot split it as a shell would: %s" % (flag, text, e))


def make_folder(ap, flag, path):
    """An output folder a flag names, made when missing; a file there, or a
    folder the script cannot write in, is named as such before any run."""
    if os.path.exists(path) and not os.path.isdir(path):
        ap.error("%s %s: is not a directory (a file of that name exists)" % (flag, path))
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        ap.error("%s %s: cannot make the folder: %s" % (flag, path, e.strerror or e))
    if not os.access(path, os.W_OK | os.X_OK):
        ap.error("%s %s: the folder is not writable (the runs write their files there)" % (flag, path))


def check_output_file(ap, flag, path, inputs=()):
    """A file a flag names for the script to write at the end (--json): refused
    before the first run when it cannot be written there (a folder, a missing or
    read-only folder, not a regular file, a program) or when it is one of the
    inputs, so that no run's result, and no input, is lost to it."""
    if path is None:
        return
    why = outfile.problem(path, inputs)
    if why:
        ap.error("%s %s: %s" % (flag, path, why))


def check_arguments(ap, args, inputs=()):
    """The shared flags, checked before any run; inputs: files the script
    reads, which no output may name."""
    check_counts(ap, args)
    check_launcher(ap, args)
    check_output_file(ap, "--json", args.json, inputs)
    if args.json_dir is not None:
        make_folder(ap, "--json-dir", args.json_dir)
    if args.repetitions < 1:
        ap.error("--repetitions: expected a whole number >= 1, found %d" % args.repetitions)
    if args.warmup < 0:
        ap.error("--warmup: expected a whole number >= 0, found %d" % args.warmup)
    WARMUP[0] = args.warmup
    if args.tmpfs:
        if args.dir:
            ap.error("--tmpfs and --dir: expected one of them, found both")
        if not os.path.isdir("/dev/shm"):
            ap.error("--tmpfs: expected /dev/shm, found none on this machine")
        args.dir = "/dev/shm"
    args.dir = args.dir or default_dir()
    make_folder(ap, "--dir", args.dir)


def where(path):
    """The table title's words for the folder written: 'on /x (ext4 on
    /dev/vda1)', with 'memory, not storage' for tmpfs."""
    path = os.path.abspath(path)
    best = None
    try:
        with open("/proc/self/mountinfo") as f:
            for line in f:
                a, b = line.split(" - ", 1)
                mnt = a.split()[4].replace("\\040", " ")
                if (path == mnt or path.startswith(mnt.rstrip("/") + "/")) and (not best or len(mnt) >= len(best[0])):
                    fstype, src = b.split()[:2]
                    best = (mnt, fstype, src)
    except (OSError, ValueError, IndexError):
        pass
    if not best:
        return "on %s" % path
    mem = best[1] in ("tmpfs", "ramfs")
    return "on %s (%s on %s%s)" % (path, best[1], best[2], ": memory, not storage" if mem else "")


class RunFailed(Exception):
    """A run that did not succeed: its name and the program's own words.
    input_refused: the program refused a line of an input file before writing
    anything (exit status 2, its error naming FILE:LINE, not the command line),
    which every other run of the script shares: repeat() stops there."""

    def __init__(self, message, input_refused=False):
        super().__init__(message)
        self.input_refused = input_refused


# 'PROG: error: FILE:LINE: ...' (<built-in NAME> for a built-in input), not 'command line: ...'
INPUT_REFUSAL = re.compile(r"^\S+: error: (?!command line:)(<[^>]*>|[^\s:]+):\d+: ")


class Runner:
    """Runs the programs of one bench-* script; use as a context manager so
    its scratch folder goes away whatever happens."""

    def __init__(self, tool, args):
        self.tool = tool
        self.args = args
        self.launcher = shlex.split(args.mpiexec)
        self.env = run_environment({"hints": {}, "env": {}})
        self.work = None
        if args.json_dir:
            os.makedirs(args.json_dir, exist_ok=True)

    def __enter__(self):
        # absolute: each run starts in its own folder, where a relative --dir means nothing
        try:
            self.work = os.path.abspath(tempfile.mkdtemp(prefix="climio-%s-" % self.tool, dir=self.args.dir))
        except OSError as e:
            sys.exit("%s: --dir %s: cannot make the runs' folder there: %s" % (self.tool, self.args.dir,
                                                                                e.strerror or e))
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.work, ignore_errors=True)

    @contextlib.contextmanager
    def folder(self, name):
        """An empty folder for runs that share files (a write, then its
        combine), removed afterwards."""
        wd = os.path.join(self.work, re.sub(r"[^A-Za-z0-9_.=+-]", "_", name) + ".shared")
        shutil.rmtree(wd, ignore_errors=True)
        os.makedirs(wd)
        try:
            yield wd
        finally:
            shutil.rmtree(wd, ignore_errors=True)

    def run(self, name, nprocs, argv, json_option="--json", folder=None, error_line=None):
        """One MPI run of argv (program and options) on nprocs processes, in an
        empty folder of its own (relative output paths land there), or in
        folder (from folder()).  Returns (the run's JSON document, None when
        json_option is None; wall seconds; its stdout); raises RunFailed with
        the program's error line (error_line(text) finds it; by default a
        climio program's, else what the program or its launcher said).  Its own folder is removed after it."""
        safe = re.sub(r"[^A-Za-z0-9_.=+-]", "_", name)
        wd = folder or os.path.join(self.work, safe)
        if not folder:
            shutil.rmtree(wd, ignore_errors=True)
            os.makedirs(wd)
        os.sync()    # the previous run's write-back should not slow this one
        jpath = os.path.join(wd, safe + ".result.json")
        cmd = self.launcher + ["-n", str(nprocs)] + list(argv) + ([json_option, jpath] if json_option else [])
        t0 = time.monotonic()
        before = load.sample()
        started = []
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            rc, reason = run_command(cmd, wd, self.env, out, err, self.args.timeout, timeout_from="--timeout",
                                     on_start=started.append)
            out.seek(0)
            err.seek(0)
            text_out = out.read().decode(errors="replace")
            text_err = err.read().decode(errors="replace")
        seconds = time.monotonic() - t0
        if started:     # the load of a run that never started measures nothing
            record_load(name, before, load.sample(), jpath if json_option else None)
        try:
            if rc != 0 or reason:
                if not started:     # run_command's own line ('cannot start X: ...'), said once
                    raise RunFailed("%s: %s" % (name, reason))
                said = ((error_line(text_err) or error_line(text_out)) if error_line
                        else program_error_line(text_err, text_out)) or "no output"
                raise RunFailed("%s: %s: %s" % (name, reason or "exit status %d" % rc, said[:300]),
                                input_refused=rc == 2 and not reason and bool(INPUT_REFUSAL.match(said)))
            doc = None
            if json_option:
                try:
                    with open(jpath) as f:
                        doc = json.load(f)
                except (OSError, ValueError) as e:
                    raise RunFailed("%s: exit status 0 but no readable JSON result (%s)" % (name, e))
                if self.args.json_dir:
                    shutil.copyfile(jpath, os.path.join(self.args.json_dir, safe + ".json"))
            return doc, seconds, text_out
        finally:
            if folder:
                if os.path.exists(jpath):
                    os.remove(jpath)
            else:
                shutil.rmtree(wd, ignore_errors=True)


LOADS = []           # (run, cores, 1-minute load at the start, at the end) of every run, for the legend and JSON
WATCH = []           # the load.Watch of this script: warns once when a run had the load above the cores


def record_load(name, before, after, result_path=None):
    """A run's load: the program's own figures (its JSON's host) when it
    wrote them, else this script's samples around it; warns once when it was
    above the cores."""
    doc = None
    if result_path and os.path.isfile(result_path):
        try:
            with open(result_path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            doc = None
    cpus, start, end = load.of_run(doc if isinstance(doc, dict) else None,
                                   {"cpus_online": load.cores(), "load_average_start": before,
                                    "load_average_end": after})
    LOADS.append((name, cpus, start, end))
    if not WATCH:
        WATCH.append(load.Watch(os.path.basename(sys.argv[0]), "under the table and in --json (load)"))
    WATCH[0].saw(name, cpus, start, end)


def load_words():
    """The line under a table about the load the runs ran under, or ''."""
    vals = [x for _, _, a, b in LOADS for x in (a, b) if x is not None]
    if not vals:
        return ""
    cores = sorted({c for _, c, _, _ in LOADS if c})
    busy = [n for n, c, a, b in LOADS if load.over_cores(c, a, b)]
    return "load average (1 minute) %.2f-%.2f at the start and end of the %d runs, on %s core(s)%s" % (
        min(vals), max(vals), len(LOADS), "/".join(map(str, cores)) or "?",
        "; ABOVE THE CORES during %d of them: %s" % (len(busy), ", ".join(busy[:6]) + (" ..." if len(busy) > 6
                                                                                         else "")) if busy else "")


def load_json():
    """The load of every run, for --json."""
    return {"runs": [{"run": n, "cores": c, "load_start_1m": a, "load_end_1m": b,
                      "over_cores": load.over_cores(c, a, b)} for n, c, a, b in LOADS]}


INTERRUPTED = []     # set by repeat() when Ctrl-C stopped it: finish() exits 130
REFUSED = []         # set by repeat() when the program refused its input: finish() exits 1


class NotRun(RunFailed):
    """A run left out because the script was interrupted or stopped."""


def _eta(done, total, started):
    if not done:
        return "ETA unknown"
    left = (time.monotonic() - started) / done * (total - done)
    return "ETA %dm%02ds" % (left // 60, left % 60)


WARMUP = [0]         # --warmup, set by check_arguments


def repeat(configs, repetitions, one, log=sys.stderr, warmup=None):
    """one(config, rep) for every configuration, every configuration once per
    repetition (interleaved, so a slow spell of a shared machine spreads over
    all of them), after warmup rounds whose results are discarded.  A progress
    line (run k of N, ETA) goes to log.  Ctrl-C stops the runs: the results so
    far are returned, the runs left out marked NotRun, and finish() exits 130.
    A run whose program refused a line of its input stops the runs the same
    way (every other run reads that input too), and finish() exits 1.
    Returns {index: [result or RunFailed, ...]}."""
    results = {i: [] for i in range(len(configs))}
    warmup = WARMUP[0] if warmup is None else warmup
    total = (warmup + repetitions) * len(configs)
    started, k = time.monotonic(), 0
    tool = os.path.basename(sys.argv[0])
    try:
        for rep in range(-warmup, repetitions):
            for i, cfg in enumerate(configs):
                k += 1
                print("%s: run %d of %d (%s%d), %s" % (tool, k, total, "warm-up " if rep < 0 else "repetition ",
                                                      rep + warmup + 1 if rep < 0 else rep + 1,
                                                      _eta(k - 1, total, started)), file=log, flush=True)
                try:
                    r = one(cfg, max(rep, 0) if rep >= 0 else rep)
                except RunFailed as e:
                    print("%s: FAILED %s" % (tool, e), file=log)
                    r = e
                if rep >= 0:
                    results[i].append(r)
                if isinstance(r, RunFailed) and r.input_refused:
                    REFUSED.append(True)
                    print("%s: stopped after run %d of %d: the program refused a line of its input, which every run "
                          "reads; fix it and run again" % (tool, k, total), file=log, flush=True)
                    for j in results:
                        if not results[j]:
                            results[j].append(NotRun("not run: stopped at the refusal of the input above"))
                    return results
    except KeyboardInterrupt:
        INTERRUPTED.append(True)
        print("%s: interrupted after %d of %d runs: the table below holds the runs that finished" % (
            tool, k - 1, total), file=log, flush=True)
        for i in results:
            if not results[i]:
                results[i].append(NotRun("not run: interrupted"))
    return results


def finish(main):
    """Run a script's main(): its exit status, 130 when Ctrl-C stopped it
    (the partial table printed), never a traceback."""
    try:
        rc = main()
    except SystemExit as e:
        rc = e.code
    except RunFailed as e:     # a run the script needs before its table (a probe) failed
        print("%s: %s" % (os.path.basename(sys.argv[0]), e), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("%s: interrupted" % os.path.basename(sys.argv[0]), file=sys.stderr)
        return 130
    if INTERRUPTED:
        return 130
    return 1 if REFUSED and not rc else rc


def compare(name_a, values_a, name_b, values_b, higher=True, what="faster"):
    """A closing line comparing two cells: 'A is faster than B' only when
    the test says so (verdict.compare), else 'no clear winner'."""
    v = verdict.compare({name_a: values_a, name_b: values_b}, higher)
    if v.winner is not None:
        return "%s is %s than %s (%s, p = %.3g; ratio of medians %.3g [%.3g-%.3g], 95%% bootstrap interval)" % (
            v.winner, what, v.second, verdict.TEST_NAME, v.p, v.ratio, v.low, v.high)
    return "no clear winner between %s and %s (%s; %s)" % (name_a, name_b, v.reason, verdict.TEST_NAME)


def ok(results):
    return [r for r in results if not isinstance(r, Exception)]


def first_error(results):
    return next((str(r) for r in results if isinstance(r, Exception)), None)


def interrupted_cell(results):
    """True when a cell has no result because Ctrl-C stopped the script."""
    return bool(results) and all(isinstance(r, NotRun) for r in results)


class Spread:
    """Median, min and max of a cell's repetitions."""

    def __init__(self, values):
        self.values = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if self.values:
            self.median = statistics.median(self.values)
            self.min, self.max = min(self.values), max(self.values)
        else:
            self.median = self.min = self.max = None

    @property
    def relative(self):
        """(max - min) / median, 0 for one value or a zero median."""
        if len(self.values) < 2 or not self.median:
            return 0.0
        return (self.max - self.min) / abs(self.median)

    @property
    def flagged(self):
        return self.relative > SPREAD_LIMIT

    def cell(self, fmt="%.2f"):
        """'median [min-max]' (just the value for one repetition), FLAG appended
        when the spread is over the limit."""
        if self.median is None:
            return "-"
        if len(self.values) == 1:
            return fmt % self.median
        return "%s [%s-%s]%s" % (fmt % self.median, fmt % self.min, fmt % self.max,
                                 " " + FLAG if self.flagged else "")

    def json(self):
        return {"median": self.median, "min": self.min, "max": self.max, "values": self.values,
                "spread_over_limit": self.flagged}


def cell(values, fmt="%.2f"):
    return Spread(values).cell(fmt)


def legend(repetitions):
    """The line under every table (and, on its own line, the load the runs ran under)."""
    text = _legend(repetitions)
    if INTERRUPTED:
        text = "INTERRUPTED: cells hold the runs that finished (fewer than %d); %s" % (repetitions, text)
    return (load_words() + "\n" if load_words() else "") + text


def _legend(repetitions):
    if repetitions == 1:
        return ("cells: one run each (--repetitions 1): no spread to judge; use --repetitions 3 or more for figures "
                "to compare")
    return ("cells: median [min-max] of %d runs, interleaved; %s: max - min is more than %d%% of the median (the "
            "machine was not steady: compare such cells with care, or run more repetitions)"
            % (repetitions, FLAG, SPREAD_LIMIT * 100))


def markdown(head, rows):
    """A Markdown table as lines."""
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def command_line():
    return " ".join([os.path.basename(sys.argv[0])] + [shlex.quote(a) for a in sys.argv[1:]])


def write_json(path, doc):
    """The script's JSON (--json): the command, then what the script puts in."""
    doc = dict({"command": command_line(), "spread_limit": SPREAD_LIMIT, "load": load_json()}, **doc)
    try:
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    except OSError as e:
        sys.exit("%s: --json %s: cannot write: %s" % (os.path.basename(sys.argv[0]), path, e.strerror or e))


def find_program(name, given=None, env_var=None, tool="bench"):
    """given, $env_var, beside the script (installed bin/), the build tree
    (src/*/, tests/, run/), then $PATH."""
    for cand, said in ((given, "given"), (os.environ.get(env_var) if env_var else None, "$%s" % env_var)):
        if cand:
            if not (os.path.isfile(cand) and os.access(cand, os.X_OK)):
                sys.exit("%s: %s (%s for %s): %s" % (tool, cand, said, name, "no such file" if not os.path.exists(cand)
                                                     else "not an executable program"))
            return os.path.abspath(cand)
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    top = os.path.dirname(here)
    for d in [here, os.path.join(top, "tests"), os.path.join(top, "run")] + sorted(
            os.path.join(top, "src", s) for s in (os.listdir(os.path.join(top, "src"))
                                                  if os.path.isdir(os.path.join(top, "src")) else [])):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    p = shutil.which(name)
    if not p:
        sys.exit("%s: cannot find %s: build it (make) or give its path%s" % (
            tool, name, " (or set %s)" % env_var if env_var else ""))
    return p


def parser(doc, dir_default=None):
    """An argparse parser with the script's docstring and the shared flags."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(ap, dir_default)
    return ap
