"""climio-sweep: parameter sweeps of the climio kernels (doc/sweep.md).

    climio-sweep run SWEEP.toml [--out DIR] [--dry-run]        run here with mpiexec
    climio-sweep submit SWEEP.toml [--throttle N] [--wait]     Slurm job arrays (srun per run)
    climio-sweep pbs SWEEP.toml                                 PBS job-array scripts
    climio-sweep status SWEEP.toml|DIR                          what is done, failed, pending
    climio-sweep collect SWEEP.toml|DIR                         results.csv and results.json
    climio-sweep report SWEEP.toml|DIR                          figures and report.html
    climio-sweep report A B [--pool]                            two sweeps compared point by point (or pooled)
"""

import argparse
import os
import shlex
import shutil
import signal
import sys

from . import batch, collect as collectmod, execute as ex, kernel, load, local, prepare
from . import sweepfile
from . import plan as planmod, runs_as
from .plan import launcher_words
from .errors import SweepError
from .state import read_json, read_plan, run_dir, state_of


def _load(args):
    sw = sweepfile.load(args.sweep)
    if not getattr(args, "dry_run", False):     # refused at once, before the kernel is asked
        local.refuse_if_locked(prepare.output_dir(sw, args.out))
        prepare.check_output_folder(sw, prepare.output_dir(sw, args.out))
    exe = kernel.find_executable(sw)
    base = None
    env = ex.run_environment({"hints": {}, "env": {}})
    kernel.output_folder(sw, exe, env)      # --no-check too: the runs need it
    if not getattr(args, "no_check", False):
        base = kernel.check_parameters(sw, exe, env)
        sw.base_params = base
        if base is None:
            print("climio-sweep: note: '%s --print_params' did not run here: parameters not checked before the "
                  "runs, and the base file is used as it is" % exe, file=sys.stderr)
    outdir = prepare.output_dir(sw, args.out)
    records = prepare.run_records(sw, outdir, exe, base)
    if not records:
        raise SweepError("%s: expected at least one run, found none: the exclusions remove every point"
                         % sw.where("exclude"))
    return sw, exe, outdir, records


def _header(sw, exe, outdir, records, out=sys.stdout):
    npoints = len({r["point"] for r in records})
    warm = " + %d warm-up round(s)" % sw.warmup if sw.warmup else ""
    print("sweep '%s': %d run(s) (%d point(s) x %d repetition(s)%s) of %s (%s)\noutput folder: %s" % (
        sw.name, len(records), npoints, sw.repetitions, warm, sw.kernel, exe, outdir), file=out)
    print("order: %s" % planmod.order_words(sw), file=out)
    for line in runs_as.notes(sw):
        print("runs as something else: %s" % line, file=out)
    if any(r["hints"] for r in records) and os.environ.get("PNETCDF_HINTS") and "PNETCDF_HINTS" not in sw.fixed["env"]:
        print("climio-sweep: note: PNETCDF_HINTS from your environment is not passed to the runs: it would "
              "override the hints the sweep sets", file=out)


def cmd_run(args):
    sw, exe, outdir, records = _load(args)
    launcher = launcher_words(sw, os.environ)
    _header(sw, exe, outdir, records)
    if any(r["nodes"] > 1 for r in records):
        print("climio-sweep: note: 'nodes' is for submit and pbs; run starts every run here with %s"
              % " ".join(launcher))
    if args.dry_run:
        width = len(str(len(records)))
        for i, rec in enumerate(records, 1):
            rdir = run_dir(outdir, rec["id"])
            st = state_of(rdir)
            what = "done, skipped" if st == "done" else "would run" + (" (again: %s)" % st if st != "pending" else "")
            env = " ".join("%s=%s" % (k, shlex.quote(str(v))) for k, v in rec["env"].items())
            argv = ex.command(rec, launcher)
            if rec.get("warmup"):
                what += " (warm-up: left out of the results)"
            print("[%*d/%d] %s: %s" % (width, i, len(records), rec["id"], what))
            if st != "done":
                print("    cd %s && %s%s" % (shlex.quote(rdir), env + " " if env else "",
                                             " ".join(shlex.quote(a) for a in argv)))
                sets = [l for l in rec["parameter_file"].split("---- set by the sweep ----\n", 1)[1].splitlines()]
                print("    params.in sets: %s" % "; ".join(sets))
        return 0
    with local.SweepLock(outdir, "run"):
        prepare.write(sw, outdir, records)
        return local.run_local(outdir, records, launcher)


def cmd_submit(args):
    sw, exe, outdir, records = _load(args)
    _header(sw, exe, outdir, records)
    throttle = args.throttle or sw.slurm.get("throttle", 1)
    if not args.dry_run:
        if not kernel.have("sbatch"):
            raise SweepError("submit: expected Slurm's sbatch on PATH, found none (use 'run' to run here, or "
                             "'pbs' for PBS)")
        with local.SweepLock(outdir, "submit"):
            prepare.write(sw, outdir, records)
            jobs, n = batch.submit_slurm(sw, outdir, records, throttle, False, args.wait)
    else:
        batch.submit_slurm(sw, outdir, records, throttle, True, False)
        return 0
    if args.wait:
        return local.summary(outdir, records)
    if jobs:
        print("follow with: squeue -j %s; then: %s status %s" % (",".join(jobs), tool_name(), outdir))
    return 0


def cmd_pbs(args):
    sw, exe, outdir, records = _load(args)
    _header(sw, exe, outdir, records)
    throttle = args.throttle or sw.pbs.get("throttle", 1)
    if args.dry_run:
        batch.write_pbs(sw, outdir, records, throttle, True)
        return 0
    with local.SweepLock(outdir, "pbs"):
        prepare.write(sw, outdir, records)
        batch.write_pbs(sw, outdir, records, throttle, False)
    return 0


def tool_name():
    return os.path.basename(sys.argv[0]) if not sys.argv[0].endswith(".py") else "climio-sweep"


def resolve_outdir(target, out=None):
    if os.path.isdir(target):
        if out is not None and os.path.abspath(out) != os.path.abspath(target):
            raise SweepError("%s: --out names the output folder of a sweep file, and this target is already a sweep's "
                             "output folder: drop --out (or give the sweep file)" % target)
        return os.path.abspath(target)
    if os.path.isfile(target):
        return prepare.output_dir(sweepfile.load(target), out)
    raise SweepError("%s: expected a sweep file or a sweep's output folder, found neither" % target)


def cmd_status(args):
    outdir = resolve_outdir(args.target, args.out)
    plan = read_plan(outdir)
    if plan is None:
        raise SweepError("%s: expected a sweep output folder (plan.json), found none: run the sweep first" % outdir)
    records = [{"id": rid} for rid in plan["runs"]]
    if args.verbose:
        for rid in plan["runs"]:
            print("%-12s %s" % (state_of(run_dir(outdir, rid)), rid))
    return local.summary(outdir, records)


def cmd_collect(args):
    outdir = resolve_outdir(args.target, args.out)
    if not os.path.isdir(os.path.join(outdir, "runs")):
        raise SweepError("%s: expected a sweep output folder (runs/), found none: run the sweep first" % outdir)
    given = [args.target] if os.path.isfile(args.target) else []
    rows, cols, c, j = collectmod.collect(outdir, args.csv, args.json, args.all, given)
    ok = sum(1 for r in rows if r["status"] == "done")
    warm = collectmod.warmup_runs(outdir)
    busy = sum(1 for r in rows if r.get("host.load_over_cores"))
    print("collected %d run(s) (%d done, %d failed) into %s and %s (%d columns)%s%s" % (
        len(rows), ok, len(rows) - ok, c, j, len(cols),
        "; %d warm-up run(s) left out" % len(warm) if warm else "",
        "; %d run(s) had the load above the cores (host.load_over_cores)" % busy if busy else ""))
    return 0


def _sweep_doc(target, out=None):
    """A sweep's folder (from a sweep file or the folder) and its results, collected now."""
    outdir = resolve_outdir(target, out)
    if not os.path.isdir(os.path.join(outdir, "runs")):
        raise SweepError("%s: expected a sweep output folder (runs/), found none: run the sweep first" % outdir)
    collectmod.collect(outdir)
    return outdir, read_json(os.path.join(outdir, "results.json"))


def _names(outdirs):
    """Short names for sweeps side by side: their folders' names without .sweep."""
    names = [os.path.basename(d.rstrip("/"))[:-len(".sweep")] if d.endswith(".sweep") else os.path.basename(d)
             for d in outdirs]
    if len(set(names)) < len(names):
        names = ["%d:%s" % (i + 1, n) for i, n in enumerate(names)]
    return names


def _into(dest, write):
    """Run write() into the folder dest, made if missing and removed again
    when writing fails there; OSError becomes one line."""
    if os.path.exists(dest) and not os.path.isdir(dest):
        raise SweepError("%s: --dest: expected a folder, found a file" % dest)
    made = not os.path.exists(dest)
    try:
        os.makedirs(dest, exist_ok=True)
        return write()
    except (OSError, SweepError) as e:
        if made:    # leave nothing behind
            shutil.rmtree(dest, ignore_errors=True)
        if isinstance(e, SweepError):
            raise
        raise SweepError("%s: cannot write the report: %s" % (getattr(e, "filename", None) or dest,
                                                               e.strerror or e))


def cmd_report(args):
    from . import report, html, compare
    report.need_matplotlib()
    targets = args.target
    if len(targets) > 1 and args.out is not None:
        raise SweepError("report --out: expected one target (the output folder of a sweep file), found %d targets: "
                         "give the sweeps' folders" % len(targets))
    if len(targets) > 2 and not args.pool:
        raise SweepError("report: expected one sweep, two to compare, or --pool with several, found %d sweeps "
                         "without --pool" % len(targets))
    if args.pool and len(targets) < 2:
        raise SweepError("report --pool: expected two or more sweeps to pool, found one")
    seen = {}
    for t in targets:       # one sweep twice: compared with itself, or its runs pooled twice
        real = os.path.realpath(resolve_outdir(t, args.out))
        if real in seen:
            raise SweepError("report: %s and %s are one sweep's folder (%s): %s" % (
                seen[real], t, real, "pool the runs of different sweeps of one file" if args.pool else
                "compare two sweeps, runs of one sweep file into two folders"))
        seen[real] = t
    found = [_sweep_doc(t, args.out) for t in targets]
    outdirs = [d for d, _ in found]
    names = _names(outdirs)
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    if len(targets) == 2 and not args.pool:
        report.output_formats(formats, args.dpi)
        cmp = compare.Comparison(found[0][1], found[1][1], names[0], names[1], args.metric)
        dest = os.path.abspath(args.dest or os.path.join(outdirs[0], "compare-%s" % names[1].replace(":", "-")))

        def write_compare():
            fig = compare.figure(cmp, os.path.join(dest, "compare.png"), report._save)
            compare.write_csvs(cmp, dest)
            path = os.path.join(dest, "compare.html")
            collectmod.write_file(path, lambda f: f.write(compare.page(cmp, fig, dest)))
            return fig, path
        fig, path = _into(dest, write_compare)
        print(cmp.summary())
        for f in formats:
            print("wrote %s" % (os.path.splitext(fig)[0] + "." + f))
        for name in ("compare.csv", "verdicts.csv", "compare.html"):
            print("wrote %s" % os.path.join(dest, name))
        return 0
    doc = compare.pooled([d for _, d in found], names) if args.pool else found[0][1]
    default = os.path.join(outdirs[0], "report-pooled" if args.pool else "report")
    dest = os.path.abspath(args.dest or default)

    def write_report():
        figs, res = report.make_all(doc, dest, args.run, formats, args.metric, args.dpi)
        page = html.page(res, figs, outdirs[0] if not args.pool else ", ".join(outdirs))
        path = os.path.join(dest, "report.html")
        collectmod.write_file(path, lambda f: f.write(page))
        return figs, res, path
    figs, res, path = _into(dest, write_report)
    for _, p, _ in figs:
        for f in formats:
            print("wrote %s" % (os.path.splitext(p)[0] + "." + f))
    if res.pairs:
        print("wrote %s" % os.path.join(dest, "pairwise.csv"))
    print("wrote %s" % path)
    if not res.ok:      # a page with no measurement: said, and not a success
        print("climio-sweep: report: no run finished well (%s): the page has no figure" % (
            "%d failed: the page lists them" % len(res.failed) if res.failed else
            "no run has a result yet: climio-sweep status tells where the sweep stands"), file=sys.stderr)
        return 1
    return 0


def cmd_exec(args):
    """One run inside a batch job (or by hand)."""
    outdir = os.path.abspath(args.outdir)
    rid = args.run or batch.list_entry(args.list, args.index)
    launcher = shlex.split(args.launcher)
    # scancel or the time limit sends TERM: stop the run and say so in its status
    stop = {"flag": False}
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, lambda *_: stop.update(flag=True))
    try:
        o = ex.execute(run_dir(outdir, rid), launcher, stop=lambda: stop["flag"])
    except ex.Interrupted:
        print("climio-sweep exec: %s interrupted" % rid, file=sys.stderr)
        return 130
    print("climio-sweep exec: %s: %s %s" % (rid, o.state, o.reason))
    if o.state in ("done", "failed"):
        load.Watch("climio-sweep exec", "in results.csv (host.load_over_cores) and in the report's figures").saw(
            rid, *local.run_load(run_dir(outdir, rid)))
    return {"done": 0, "skipped": 0, "busy": 0}.get(o.state, 1)


def main(argv=None):
    p = argparse.ArgumentParser(prog="climio-sweep", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog="doc/sweep.md describes the sweep file and every command.")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True

    def common(sp):
        sp.add_argument("sweep", help="the sweep file (TOML)")
        sp.add_argument("--out", help="output folder (default: [sweep] output, or NAME.sweep here)")
        sp.add_argument("--dry-run", action="store_true", help="print what would run; write and run nothing")
        sp.add_argument("--no-check", action="store_true", help="do not ask the kernel (--print_params) to check the parameters")

    sp = sub.add_parser("run", help="run the sweep here, one run after another (mpiexec, or $MPIEXEC)")
    common(sp)
    sp.set_defaults(func=cmd_run)
    sp = sub.add_parser("submit", help="submit the sweep to Slurm as job arrays (one run per task, srun)")
    common(sp)
    sp.add_argument("--throttle", type=int, help="array tasks running at once (default: [slurm] throttle or 1)")
    sp.add_argument("--wait", action="store_true", help="wait until every task has ended, then summarise")
    sp.set_defaults(func=cmd_submit)
    sp = sub.add_parser("pbs", help="write PBS job-array scripts for the sweep (submit them with qsub)")
    common(sp)
    sp.add_argument("--throttle", type=int, help="Torque: subjobs running at once")
    sp.set_defaults(func=cmd_pbs)
    for name, fn, hlp in (("status", cmd_status, "say which runs are done, failed or pending"),
                          ("collect", cmd_collect, "merge the runs' JSON into results.csv and results.json"),
                          ("report", cmd_report, "make PNG figures and report.html from the results")):
        sp = sub.add_parser(name, help=hlp)
        if name == "report":
            sp.add_argument("target", nargs="+", help="the sweep file or its output folder; two sweeps of the same "
                                                      "sweep file are compared point by point (or pooled: --pool)")
        else:
            sp.add_argument("target", help="the sweep file or its output folder")
        sp.add_argument("--out", help="output folder, when the target is a sweep file")
        sp.set_defaults(func=fn)
        if name == "status":
            sp.add_argument("-v", "--verbose", action="store_true", help="list every run with its state")
        if name == "collect":
            sp.add_argument("--csv", help="CSV file (default: OUT/results.csv)")
            sp.add_argument("--json", help="JSON file (default: OUT/results.json)")
            sp.add_argument("--all", action="store_true", help="also list runs not finished (pending, interrupted)")
        if name == "report":
            sp.add_argument("--dest", help="folder for the PNGs and report.html (default: OUT/report; two sweeps: "
                                           "A/compare-B; --pool: A/report-pooled)")
            sp.add_argument("--pool", action="store_true", help="with several sweeps of one sweep file: one report "
                                                                "of all their runs, as more repetitions")
            sp.add_argument("--run", help="the run shown in the imbalance figure (default: median of the largest "
                                          "process count)")
            sp.add_argument("--format", default="png", help="figure formats, comma-separated: png, pdf, svg (the "
                                                            "page shows the first; default: png)")
            sp.add_argument("--dpi", type=int, default=200, help="resolution of the PNG figures (default: 200)")
            sp.add_argument("--metric", default="write",
                            help="what the figures show: write (bandwidth, default), read (read-back bandwidth), "
                                 "time (end to end), a timer name (its slowest rank, e.g. wait) or a column of "
                                 "results.csv")
    sp = sub.add_parser("exec")   # one run inside a batch job: not listed in --help
    sp.add_argument("outdir")
    sp.add_argument("run", nargs="?")
    sp.add_argument("--list")
    sp.add_argument("--index", type=int)
    sp.add_argument("--launcher", default="mpiexec")
    sp.set_defaults(func=cmd_exec)
    sub._choices_actions = [a for a in sub._choices_actions if a.dest != "exec"]

    args = p.parse_args(argv)
    for flag in ("out", "dest"):
        if getattr(args, flag, None) == "":
            p.error("--%s: expected a folder name, found ''" % flag)
    try:
        return args.func(args)
    except SweepError as e:
        print("climio-sweep: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("climio-sweep: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 141


if __name__ == "__main__":
    sys.exit(main())
