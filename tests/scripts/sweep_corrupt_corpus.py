"""Every climio-sweep subcommand over a corpus of damaged sweep folders: result,
status, run and plan files truncated, emptied, replaced by a folder, or with a
field of the wrong type.  Each must end with a one-line error or count the run
as failed with a reason; a Python traceback anywhere fails the test.

Usage: sweep_corrupt_corpus.py ENGINE_EXERCISE WORKDIR"""

import contextlib
import copy
import io
import json
import os
import shutil
import subprocess
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.environ.get("top_srcdir") or os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SRCDIR, "scripts"))
from climio_sweep import cli  # noqa: E402
from climio_sweep.resultcheck import check_result  # noqa: E402

SWEEP = """[sweep]
name = "c"
kernel = "engine_exercise"
executable = "%s"
nprocs = 1
repetitions = 1
[parameters]
nx = [8, 16]
ny = 8
nz = 2
nrec = 1
"""

# Values of every other JSON type, put in place of each field in turn.
ODD = [None, "text", [1, "a"]]


def leaves(doc, path=(), depth=3):
    """Field paths of doc to the given depth (the first 3 of each object's
    fields below the top level: the corpus stays small enough for seconds)."""
    if len(path) >= depth:
        return
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else []
    for k, v in list(items)[:None if not path else 3]:
        yield path + (k,)
        yield from leaves(v, path + (k,), depth)


def set_at(doc, path, value):
    d = doc
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def run_cli(argv):
    """One subcommand in process: (exit status, stdout, stderr); any exception
    other than SystemExit is the defect this test looks for."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv)
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


class SameFigures:
    """report's figures (report.make_all) drawn once per distinct input: many
    damaged folders collect to results another case already had (a damaged run
    is failed either way), and drawing the same figures again from the same
    results checks nothing new, at about a second of matplotlib each.  A repeat
    gets the figures drawn before, copied into its own folder; the rest of the
    report (collect, the page) runs every time."""

    def __init__(self, store):
        from climio_sweep import report
        self.report, self.store, self.seen, self.drawn, self.reused = report, store, {}, 0, 0
        self.make_all = report.make_all
        report.make_all = self

    def __call__(self, doc, outdir, *args, **kw):
        key = json.dumps([doc, args, kw], sort_keys=True, default=repr)
        if key not in self.seen:
            figs, res = self.make_all(doc, outdir, *args, **kw)
            keep = os.path.join(self.store, str(len(self.seen)))
            shutil.copytree(outdir, keep)
            self.seen[key] = (keep, copy.deepcopy((figs, res)))
            self.drawn += 1
            return figs, res
        keep, (figs, res) = self.seen[key]
        shutil.copytree(keep, outdir, dirs_exist_ok=True)
        self.reused += 1
        return [(t, os.path.join(outdir, os.path.basename(p)), c) for t, p, c in figs], copy.deepcopy(res)


class Corpus:
    def __init__(self, base, work):
        self.base, self.work, self.cases, self.failures = base, work, [], []
        self.drawn = self.reused = 0

    def case(self, what, damage, expect_failed_run=None):
        """A case to run later: damage(folder) binds every value it uses."""
        self.cases.append((what, damage, expect_failed_run))

    def run(self, workers):
        """Every case, shared among forked worker processes (the cases are
        independent; the figures are most of the time, on one core each)."""
        pipes = []
        sys.stdout.flush()
        sys.stderr.flush()
        for w in range(workers):
            r, wr = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(r)
                status = 1
                try:
                    figures = SameFigures(os.path.join(self.work, "figures%d" % w))
                    for n in range(w, len(self.cases), workers):
                        self.run_case(n + 1, *self.cases[n])
                    with os.fdopen(wr, "w") as f:
                        json.dump([self.failures, figures.drawn, figures.reused], f)
                    status = 0
                except BaseException:
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os._exit(status)
            os.close(wr)
            pipes.append((pid, r))
        for pid, r in pipes:
            with os.fdopen(r) as f:
                text = f.read()
            _, status = os.waitpid(pid, 0)
            if status != 0 or not text:
                self.failures.append("worker %d ended with status %d" % (pid, status))
                continue
            failures, drawn, reused = json.loads(text)
            self.failures += failures
            self.drawn += drawn
            self.reused += reused

    def run_case(self, n, what, damage, expect_failed_run):
        """Copy the base sweep, damage it, run status, collect and report."""
        d = os.path.join(self.work, "case%d" % n)
        shutil.copytree(self.base, d)
        damage(d)
        for argv in (["status", "-v", d], ["collect", d], ["report", d]):
            try:
                rc, out, err = run_cli(argv)
            except Exception as e:  # a traceback a user would see
                self.failures.append("%s: %s: %s: %r" % (what, " ".join(argv[:1]), type(e).__name__, e))
                continue
            if rc not in (0, 1, 2):
                self.failures.append("%s: %s: exit %r" % (what, argv[0], rc))
            lines = [ln for ln in err.splitlines() if ln.startswith("climio-sweep: error:")]
            if rc == 2 and len(lines) != 1:
                self.failures.append("%s: %s: exit 2 without one error line: %r" % (what, argv[0], err))
            if argv[0] == "collect" and rc == 0 and expect_failed_run:
                rows = json.load(open(os.path.join(d, "results.json")))["runs"]
                bad = [r["row"] for r in rows if r["row"]["run"] == expect_failed_run]
                if not bad or bad[0]["status"] != "failed" or not bad[0]["reason"]:
                    self.failures.append("%s: collect: the damaged run is not failed with a reason: %r" % (
                        what, bad[0] if bad else None))
        shutil.rmtree(d)


def write(path, text, mode="w"):
    if os.path.isdir(path):
        shutil.rmtree(path)
    with open(path, mode) as f:
        f.write(text)


def main():
    exercise, work = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    sw = os.path.join(work, "c.toml")
    write(sw, SWEEP % exercise)
    subprocess.run([os.path.join(SRCDIR, "scripts", "climio-sweep"), "run", sw, "--no-check"], cwd=work,
                   check=True, stdout=subprocess.DEVNULL)
    base = os.path.join(work, "c.sweep")
    plan = json.load(open(os.path.join(base, "plan.json")))
    rid = plan["runs"][0]
    rdir = os.path.join("runs", rid)
    result = json.load(open(os.path.join(base, rdir, "result.json")))
    assert check_result(result) is None, check_result(result)
    c = Corpus(base, os.path.join(work, "cases"))
    os.fsync = lambda fd: None    # durability is not under test: thousands of small files, seconds not minutes

    files = {name: json.load(open(os.path.join(base, rdir, name))) for name in ("run.json", "status.json")}
    files["plan.json"] = plan
    files["result.json"] = result
    for name, doc in files.items():
        rel = name if name == "plan.json" else os.path.join(rdir, name)
        text = json.dumps(doc)
        failed = rid if name == "result.json" else None
        for cut in (0, 1, len(text) // 3, len(text) // 2, len(text) - 1):
            c.case("%s truncated at %d" % (name, cut),
                   lambda d, t=text[:cut], rel=rel: write(os.path.join(d, rel), t), failed)
        c.case("%s binary" % name, lambda d, rel=rel: write(os.path.join(d, rel), b"\x00\xff\xfe{", "wb"), failed)
        c.case("%s a folder" % name,
               lambda d, rel=rel: (os.remove(os.path.join(d, rel)), os.mkdir(os.path.join(d, rel))), failed)
        for top in ([], "x", 3, None):
            c.case("%s is %r" % (name, top),
                   lambda d, t=top, rel=rel: write(os.path.join(d, rel), json.dumps(t)), failed)
        for path in leaves(doc, (), 2 if name == "result.json" else 1):
            for v in ODD if name == "result.json" else ODD[1:]:
                bad = copy.deepcopy(doc)
                set_at(bad, path, v)
                if name == "result.json" and check_result(bad) is None:
                    continue    # still a valid result: nothing to see
                c.case("%s %s = %r" % (name, ".".join(map(str, path)), v),
                       lambda d, b=bad, rel=rel: write(os.path.join(d, rel), json.dumps(b)), None)
    c.run(min(2, len(os.sched_getaffinity(0))))
    # --out names a sweep file's output folder: beside a folder target it is refused, not ignored
    for cmd in ("status", "collect"):    # report: tests/scripts/test_report.py (it needs matplotlib first)
        rc, out, err = run_cli([cmd, base, "--out", os.path.join(work, "other")])
        if rc != 2 or "--out names the output folder of a sweep file" not in err:
            c.failures.append("%s DIR --out OTHER: exit %r, %r" % (cmd, rc, err))
    print("%d damaged sweep folders, 3 subcommands each (report's figures drawn for %d distinct results, "
          "reused for %d)" % (len(c.cases), c.drawn, c.reused))
    for f in c.failures[:30]:
        print("FAIL", f)
    if c.failures:
        print("%d failures" % len(c.failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
