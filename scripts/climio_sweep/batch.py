"""Batch systems: a Slurm job array per process/node count (sbatch --array with
a throttle, each task running one run with srun), and PBS job-array scripts.

Each array task calls `climio-sweep exec`, which runs the run named by line
TASK of the array's list file, so a task does exactly what a local sweep would
do for that run (lock, skip if done, logs, JSON)."""

import datetime
import os
import shlex
import subprocess
import sys
import time

from .errors import SweepError
from .state import read_json, run_dir, state_of, write_atomic, write_json

PKG_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_ARRAY = 1000     # Slurm's default MaxArraySize is 1001


def q(s):
    return shlex.quote(str(s))


def groups(records):
    """Runs grouped by resources (nprocs, nodes), in plan order."""
    out = {}
    for rec in records:
        out.setdefault((rec["nprocs"], rec["nodes"]), []).append(rec)
    return out


def exec_line(outdir, listfile, index_expr, launcher):
    return ("PYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} exec %s -m climio_sweep exec %s --list %s --index %s "
            "--launcher %s" % (q(PKG_PARENT), q(sys.executable), q(outdir), q(listfile), index_expr,
                               q(" ".join(q(w) for w in launcher))))


def _stamp():
    return datetime.datetime.now().strftime("%Y%m%d-%H%M%S")


# ---------------------------------------------------------------- Slurm

def slurm_script(sweep, outdir, listfile, n, nprocs, nodes, throttle, stem):
    sl = sweep.slurm
    lines = ["#!/bin/sh",
             "#SBATCH --job-name=climio-%s" % sweep.name,
             "#SBATCH --array=0-%d%%%d" % (n - 1, throttle),
             "#SBATCH --ntasks=%d" % nprocs,
             "#SBATCH --nodes=%d" % nodes,
             "#SBATCH --output=%s" % os.path.join(outdir, "jobs", "%s-%%A_%%a.out" % stem)]
    for key, opt in (("partition", "partition"), ("account", "account"), ("qos", "qos"),
                     ("constraint", "constraint"), ("time", "time"), ("ntasks_per_node", "ntasks-per-node")):
        if key in sl:
            lines.append("#SBATCH --%s=%s" % (opt, sl[key]))
    for a in sl.get("sbatch_args", []):
        lines.append("#SBATCH %s" % a)
    lines.append("# climio sweep '%s': %d run(s) of %d process(es) on %d node(s), one per array task;" % (
        sweep.name, n, nprocs, nodes))
    lines.append("# task K runs the run named on line K+1 of %s" % listfile)
    lines += sl.get("setup", [])
    launcher = ["srun"] + list(sl.get("srun_args", []))
    lines.append(exec_line(outdir, listfile, '"$SLURM_ARRAY_TASK_ID"', launcher))
    return "\n".join(lines) + "\n"


def _squeue_ids():
    """Job and array-task ids of the user's jobs still known to Slurm."""
    user = os.environ.get("USER") or os.environ.get("LOGNAME") or ""
    cmd = ["squeue", "-h", "-r", "-o", "%i"] + (["-u", user] if user else [])
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SweepError("squeue failed: %s" % e)
    if p.returncode != 0:
        raise SweepError("squeue failed: %s" % p.stderr.strip())
    return set(p.stdout.split())


def _submissions(outdir):
    return read_json(os.path.join(outdir, "jobs", "submissions.json")) or []


def queued_runs(outdir, live):
    """Run ids that sit in a job array still pending or running."""
    out = set()
    for sub in _submissions(outdir):
        job = sub["job"]
        for i, rid in enumerate(sub["runs"]):
            if "%s_%d" % (job, i) in live or job in live:
                out.add(rid)
    return out


def submit_slurm(sweep, outdir, records, throttle, dry_run, wait, out=sys.stdout):
    todo = [r for r in records if state_of(run_dir(outdir, r["id"])) != "done"]
    skipped_done = len(records) - len(todo)
    if not dry_run:
        live = _squeue_ids()
        inq = queued_runs(outdir, live)
        if inq:
            print("%d run(s) are already queued or running in earlier submissions: not submitted again" % len(inq),
                  file=out)
        todo = [r for r in todo if r["id"] not in inq]
    if skipped_done:
        print("%d run(s) already done: not submitted" % skipped_done, file=out)
    if not todo:
        print("nothing to submit", file=out)
        return [], 0
    stamp = _stamp()
    jobs = []
    subs = _submissions(outdir)
    for (nprocs, nodes), recs in groups(todo).items():
        for c in range(0, len(recs), MAX_ARRAY):
            chunk = recs[c:c + MAX_ARRAY]
            stem = "slurm-%s-np%d-N%d-%d" % (stamp, nprocs, nodes, c // MAX_ARRAY)
            listfile = os.path.join(outdir, "jobs", stem + ".list")
            script = os.path.join(outdir, "jobs", stem + ".sh")
            text = slurm_script(sweep, outdir, listfile, len(chunk), nprocs, nodes, throttle, stem)
            argv = ["sbatch", "--parsable", script]
            if dry_run:
                print("# %s (%d runs)\n$ %s\n%s" % (script, len(chunk), " ".join(argv), text), file=out)
                for i, r in enumerate(chunk):
                    print("#   task %d: %s" % (i, r["id"]), file=out)
                continue
            write_atomic(listfile, "".join(r["id"] + "\n" for r in chunk))
            write_atomic(script, text)
            os.chmod(script, 0o755)
            p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=outdir)
            if p.returncode != 0:
                raise SweepError("sbatch %s failed: %s" % (script, p.stderr.strip() or p.stdout.strip()))
            job = p.stdout.strip().split(";")[0]
            jobs.append(job)
            subs.append({"job": job, "script": script, "submitted": stamp, "runs": [r["id"] for r in chunk]})
            write_json(os.path.join(outdir, "jobs", "submissions.json"), subs)
            print("submitted job array %s: %d run(s) of %d process(es) (%s)" % (job, len(chunk), nprocs, script),
                  file=out)
    if dry_run:
        return [], 0
    if wait:
        wait_for(outdir, jobs, records, out)
    return jobs, len(todo)


def wait_for(outdir, jobs, records, out=sys.stdout, poll=1.0):
    """Until no task of the jobs is pending or running."""
    jobs = set(jobs)
    last = None
    while True:
        live = _squeue_ids()
        mine = [j for j in live if j.split("_")[0] in jobs]
        done = sum(1 for r in records if state_of(run_dir(outdir, r["id"])) == "done")
        msg = "waiting: %d task(s) queued or running, %d/%d run(s) done" % (len(mine), done, len(records))
        if msg != last:
            print(msg, file=out, flush=True)
            last = msg
        if not mine:
            return
        time.sleep(poll)


# ---------------------------------------------------------------- PBS

def pbs_script(sweep, outdir, listfile, n, nprocs, nodes, stem, throttle):
    pb = sweep.pbs
    flavor = pb.get("flavor", "pro")
    ppn = pb.get("ppn") or -(-nprocs // nodes)
    lines = ["#!/bin/sh", "#PBS -N climio-%s" % sweep.name[:200]]
    if flavor == "pro":
        if n > 1:   # PBS Pro refuses an array of one subjob
            lines.append("#PBS -J 0-%d" % (n - 1))
        lines.append("#PBS -l select=%d:ncpus=%d:mpiprocs=%d" % (nodes, ppn, ppn))
        index = '"${PBS_ARRAY_INDEX:-0}"'
    else:
        lines.append("#PBS -t 0-%d%%%d" % (n - 1, throttle))
        lines.append("#PBS -l nodes=%d:ppn=%d" % (nodes, ppn))
        index = '"${PBS_ARRAYID:-0}"'
    if "walltime" in pb:
        lines.append("#PBS -l walltime=%s" % pb["walltime"])
    if "queue" in pb:
        lines.append("#PBS -q %s" % pb["queue"])
    if "account" in pb:
        lines.append("#PBS -A %s" % pb["account"])
    lines += ["#PBS -j oe", "#PBS -o %s" % os.path.join(outdir, "jobs")]
    for a in pb.get("qsub_args", []):
        lines.append("#PBS %s" % a)
    lines.append("# climio sweep '%s': %d run(s) of %d process(es) on %d node(s), one per array subjob;" % (
        sweep.name, n, nprocs, nodes))
    lines.append("# subjob K runs the run named on line K+1 of %s" % listfile)
    lines += pb.get("setup", [])
    launcher = shlex.split(pb.get("mpiexec", "mpiexec"))
    lines.append(exec_line(outdir, listfile, index, launcher))
    return "\n".join(lines) + "\n"


def write_pbs(sweep, outdir, records, throttle, dry_run, out=sys.stdout):
    todo = [r for r in records if state_of(run_dir(outdir, r["id"])) != "done"]
    if len(todo) < len(records):
        print("%d run(s) already done: left out" % (len(records) - len(todo)), file=out)
    stamp = _stamp()
    scripts = []
    for (nprocs, nodes), recs in groups(todo).items():
        stem = "pbs-%s-np%d-N%d" % (stamp, nprocs, nodes)
        listfile = os.path.join(outdir, "jobs", stem + ".list")
        script = os.path.join(outdir, "jobs", stem + ".sh")
        text = pbs_script(sweep, outdir, listfile, len(recs), nprocs, nodes, stem, throttle)
        if dry_run:
            print("# %s (%d runs)\n%s" % (script, len(recs), text), file=out)
            continue
        write_atomic(listfile, "".join(r["id"] + "\n" for r in recs))
        write_atomic(script, text)
        os.chmod(script, 0o755)
        scripts.append(script)
    if scripts:
        print("PBS job scripts written; submit them with:", file=out)
        for s in scripts:
            print("  qsub %s" % s, file=out)
    elif not dry_run:
        print("nothing to submit", file=out)
    return scripts


def list_entry(listfile, index):
    try:
        with open(listfile) as f:
            ids = [l.strip() for l in f if l.strip()]
    except OSError as e:
        raise SweepError("%s: cannot read the run list: %s" % (listfile, e.strerror))
    if not 0 <= index < len(ids):
        raise SweepError("%s: expected a task index from 0 to %d, found %d" % (listfile, len(ids) - 1, index))
    return ids[index]
