"""The sample sweep through a real (private, one-node) Slurm: job arrays with a
throttle, one run per array task with srun; resubmitting while the arrays are
queued submits nothing twice, and once all is done nothing at all."""

import csv
import os
import re
import subprocess
import time

import pytest

from conftest import SAMPLE, load, run_tool, runs_of, tool_env
from local_slurm import LocalSlurm, Unavailable


@pytest.fixture(scope="module")
def slurm():
    s = LocalSlurm()
    try:
        s.start()
    except Unavailable as e:
        s.stop()
        pytest.skip("local Slurm unavailable: %s" % e)
    try:
        yield s
    finally:
        s.stop()


def squeue_empty(env, timeout=240):
    t0 = time.time()
    while time.time() - t0 < timeout:
        p = subprocess.run(["squeue", "-h", "-r", "-o", "%i %t"], env=env, stdout=subprocess.PIPE, text=True)
        if not p.stdout.strip():
            return
        time.sleep(0.5)
    raise AssertionError("Slurm jobs still queued after %d s: %s" % (timeout, p.stdout))


def test_sample_sweep_through_slurm(tmp_path, exercise, slurm):
    env = tool_env({"SLURM_CONF": slurm.env["SLURM_CONF"]})
    cwd = str(tmp_path)
    out = os.path.join(cwd, "sample.sweep")
    t0 = time.time()
    p = run_tool(["submit", SAMPLE, "--throttle", "2"], cwd=cwd, env=env)
    jobs = re.findall(r"submitted job array (\d+): (\d+) run\(s\) of (\d+) process", p.stdout)
    assert sorted((int(n), int(np)) for _, n, np in jobs) == [(8, 1), (16, 2)], p.stdout
    # submitting again while the arrays are queued or running submits nothing twice
    again = run_tool(["submit", SAMPLE, "--throttle", "2"], cwd=cwd, env=env)
    assert "submitted job array" not in again.stdout, again.stdout
    assert "nothing to submit" in again.stdout
    squeue_empty(env)
    elapsed = time.time() - t0
    runs = runs_of(out)
    assert len(runs) == 24
    ids = {j for j, _, _ in jobs}
    for rid, d in runs.items():
        st = load(os.path.join(d, "status.json"))
        assert st["state"] == "done", (rid, st, open(os.path.join(d, "stderr.txt")).read())
        job, task = st["job"].split("_")
        assert job in ids
        assert st["command"][:3] == ["srun", "-n", str(load(os.path.join(d, "run.json"))["nprocs"])]
        assert load(os.path.join(d, "result.json"))["nprocs"] == load(os.path.join(d, "run.json"))["nprocs"]
    # each array task wrote its Slurm log
    logs = [f for f in os.listdir(os.path.join(out, "jobs")) if f.endswith(".out")]
    assert len(logs) == 24
    scripts = [open(os.path.join(out, "jobs", f)).read() for f in os.listdir(os.path.join(out, "jobs"))
               if f.endswith(".sh")]
    assert sorted(re.search(r"--array=(\S+)", s).group(1) for s in scripts) == ["0-15%2", "0-7%2"]
    # collect: one row per run
    run_tool(["collect", out], cwd=cwd, env=env)
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
    assert len(rows) == 24 and all(r["status"] == "done" for r in rows)
    # all done: nothing to submit; --wait returns at once with the summary
    p = run_tool(["submit", SAMPLE, "--wait"], cwd=cwd, env=env)
    assert "24 run(s) already done: not submitted" in p.stdout and "nothing to submit" in p.stdout
    assert "24 runs: 24 done" in p.stdout
    print("24 runs through Slurm in %.1f s" % elapsed)


def test_failed_runs_listed_and_resubmitted(tmp_path, exercise, slurm):
    """--wait waits for the arrays and lists the failed runs with their logs;
    submitting again submits only those."""
    env = tool_env({"SLURM_CONF": slurm.env["SLURM_CONF"]})
    flag = tmp_path / "broken"
    flag.write_text("")
    wrapper = tmp_path / "flaky.sh"
    wrapper.write_text('#!/bin/sh\nif [ -f "%s" ] && grep -q "^nx 16$" params.in; then\n'
                       '  echo "deliberate failure" >&2; exit 4\nfi\nexec "%s" "$@"\n' % (flag, exercise))
    wrapper.chmod(0o755)
    sw = tmp_path / "f.toml"
    sw.write_text('[sweep]\nkernel = "engine_exercise"\nexecutable = "flaky.sh"\nnprocs = [1, 2]\n'
                  '[parameters]\nnx = [8, 16]\n')
    p = run_tool(["submit", str(sw), "--wait", "--throttle", "4", "--no-check"], cwd=str(tmp_path), env=env,
                 check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "4 runs: 2 done, 2 failed" in p.stdout
    out = str(tmp_path / "f.sweep")
    runs = runs_of(out)
    for rid in ("np1,nx=16/rep0", "np2,nx=16/rep0"):
        assert runs[rid] in p.stdout and "exit status 4" in p.stdout
        assert "deliberate failure" in open(os.path.join(runs[rid], "stderr.txt")).read()
    flag.unlink()
    p = run_tool(["submit", str(sw), "--wait", "--no-check"], cwd=str(tmp_path), env=env)
    assert "2 run(s) already done: not submitted" in p.stdout
    assert len(re.findall(r"submitted job array \d+: 1 run\(s\)", p.stdout)) == 2
    assert "4 runs: 4 done" in p.stdout
