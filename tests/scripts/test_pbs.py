"""PBS: the generated job-array scripts have the directives a PBS Pro or Torque
site needs, and each script really runs its runs when executed the way PBS
would (there is no PBS server here: sh with PBS_ARRAY_INDEX set per subjob)."""

import glob
import os
import re
import subprocess

from conftest import load, run_tool, runs_of, tool_env, write

SWEEP = """
[sweep]
name = "pbs"
kernel = "engine_exercise"
nprocs = [1, 2]
[parameters]
iotype = ["blocking_collective", "nonblocking_independent"]
nrec = 1
[pbs]
queue = "debug"
walltime = "00:05:00"
account = "climate"
setup = ["echo setup line ran"]
"""


def test_pbs_pro_scripts_run(tmp_path, exercise):
    sw = write(str(tmp_path / "pbs.toml"), SWEEP)
    dry = run_tool(["pbs", sw, "--dry-run"], cwd=str(tmp_path))
    assert not os.path.exists(str(tmp_path / "pbs.sweep" / "runs"))
    assert dry.stdout.count("#PBS -J 0-1") == 2
    p = run_tool(["pbs", sw], cwd=str(tmp_path))
    out = str(tmp_path / "pbs.sweep")
    scripts = sorted(glob.glob(os.path.join(out, "jobs", "pbs-*.sh")))
    assert len(scripts) == 2, "one job array per process count"
    for s in scripts:
        assert "qsub %s" % s in p.stdout
        text = open(s).read()
        np = int(re.search(r"-np(\d+)-", s).group(1))
        assert "#PBS -J 0-1\n" in text
        assert "#PBS -l select=1:ncpus=%d:mpiprocs=%d\n" % (np, np) in text
        assert "#PBS -l walltime=00:05:00\n#PBS -q debug\n#PBS -A climate\n" in text
        assert "echo setup line ran\n" in text
        for k in (0, 1):
            r = subprocess.run(["sh", s], env=tool_env({"PBS_ARRAY_INDEX": str(k), "PBS_JOBID": "77[%d]" % k}),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
            assert r.returncode == 0, r.stdout
            assert "setup line ran" in r.stdout and " done" in r.stdout
    runs = runs_of(out)
    assert len(runs) == 4
    for rid, d in runs.items():
        st = load(os.path.join(d, "status.json"))
        assert st["state"] == "done" and st["job"].startswith("77[")
        assert st["command"][:3] == ["mpiexec", "-n", str(load(os.path.join(d, "run.json"))["nprocs"])]
    # all done: nothing left to write
    p = run_tool(["pbs", sw], cwd=str(tmp_path))
    assert "4 run(s) already done: left out" in p.stdout and "nothing to submit" in p.stdout


def test_torque_script(tmp_path, exercise):
    sw = write(str(tmp_path / "t.toml"), SWEEP.replace('queue = "debug"', 'flavor = "torque"\nppn = 8')
               .replace('name = "pbs"', 'name = "t"') + "throttle = 3\n")
    p = run_tool(["pbs", sw, "--dry-run"], cwd=str(tmp_path))
    assert p.stdout.count("#PBS -t 0-1%3\n") == 2
    assert p.stdout.count("#PBS -l nodes=1:ppn=8\n") == 2
    assert '"${PBS_ARRAYID:-0}"' in p.stdout
