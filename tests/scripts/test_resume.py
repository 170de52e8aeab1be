"""Resuming: a sweep stopped midway (Ctrl-C, or kill -9 of the whole process
group) loses no finished run and duplicates none; running it again skips what
is done, re-runs the interrupted and failed runs, and keeps failed runs' logs."""

import os
import signal
import subprocess
import time

import pytest

from conftest import TOOL, load, run_tool, runs_of, tool_env, write

# A kernel that takes a moment (so the sweep can be stopped in the middle of a
# run) and fails on purpose for nx 24 while the file `broken` exists.
WRAPPER = """#!/bin/sh
if [ -f "{flag}" ] && grep -q '^nx 24$' params.in; then
  echo "deliberate failure for nx 24" >&2
  exit 3
fi
sleep 0.7
exec "{exercise}" "$@"
"""

# round-robin: the test stops the sweep at known runs (nx 16 done, then nx 24's failure)
SWEEP = """
[sweep]
name = "resume"
kernel = "engine_exercise"
executable = "slow_exercise.sh"
nprocs = 1
repetitions = 2
order = "round-robin"
[parameters]
nx = [16, 24, 32]
"""


@pytest.fixture
def setup(tmp_path, exercise):
    flag = str(tmp_path / "broken")
    w = write(str(tmp_path / "slow_exercise.sh"), WRAPPER.format(flag=flag, exercise=exercise))
    os.chmod(w, 0o755)
    sw = write(str(tmp_path / "resume.toml"), SWEEP)
    return str(tmp_path), sw, flag, os.path.join(str(tmp_path), "resume.sweep")


def states(out):
    return {rid: (load(os.path.join(d, "status.json")) or {}).get("state") if os.path.exists(
        os.path.join(d, "status.json")) else None for rid, d in runs_of(out).items()}


def start(cwd, sw):
    return subprocess.Popen([TOOL, "run", sw, "--no-check"], cwd=cwd, env=tool_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def wait_midway(out, proc, ndone, timeout=60):
    """Until ndone runs are done and the next one is running."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        st = states(out) if os.path.isdir(os.path.join(out, "runs")) else {}
        if list(st.values()).count("done") >= ndone and "running" in st.values():
            return st
        assert proc.poll() is None, "the sweep ended before it could be stopped: %s" % proc.stdout.read()
        time.sleep(0.05)
    raise AssertionError("the sweep did not reach %d done runs: %s" % (ndone, states(out)))


def processes_under(path):
    """Processes whose working folder is inside path (the runs' mpiexec, ranks, wrapper)."""
    out = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.readlink("/proc/%s/cwd" % pid).startswith(path):
                    out.append(int(pid))
            except OSError:
                pass
    return out


def wait_no_processes(path, timeout=20):
    t0 = time.time()
    while processes_under(path) and time.time() - t0 < timeout:
        time.sleep(0.1)
    assert not processes_under(path), "processes left running after the sweep was stopped"


def results_snapshot(out):
    snap = {}
    for rid, d in runs_of(out).items():
        r = os.path.join(d, "result.json")
        if os.path.exists(r):
            snap[rid] = (os.stat(r).st_mtime_ns, open(r).read(), open(os.path.join(d, "stdout.txt")).read())
    return snap


def test_ctrl_c_then_kill_then_failures_then_fixed(setup):
    cwd, sw, flag, out = setup
    open(flag, "w").close()

    # 1. Ctrl-C (SIGINT to the process group) while the second run is running
    p = start(cwd, sw)
    wait_midway(out, p, 1)
    # a second sweep on the same folder is refused while this one works
    second = run_tool(["run", sw, "--no-check"], cwd=cwd, check=False)
    assert second.returncode == 2 and "another climio-sweep is working on this folder" in second.stderr
    os.killpg(p.pid, signal.SIGINT)
    text = p.communicate(timeout=60)[0]
    assert p.returncode == 130, text
    assert "stopped; runs finished so far are kept" in text
    wait_no_processes(out)
    st = states(out)
    assert list(st.values()).count("interrupted") == 1, st
    done1 = results_snapshot(out)
    assert len(done1) >= 1

    # 2. kill -9 of the whole process group in the middle of a later run
    p = start(cwd, sw)
    wait_midway(out, p, len(done1) + 1)
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate(timeout=60)
    wait_no_processes(out)
    st = states(out)
    assert len(st) == 6, "one folder per run, never two"
    assert "running" in st.values(), st     # the killed run left its state and no result
    done2 = results_snapshot(out)
    for rid, snap in done1.items():
        assert done2[rid] == snap, "a finished run was run again: %s" % rid
    for rid, d in runs_of(out).items():
        if st[rid] != "done":
            assert not os.path.exists(os.path.join(d, "result.json")), rid

    # 3. run to the end: finished runs skipped, nx 24 fails twice with logs kept
    p = run_tool(["run", sw, "--no-check"], cwd=cwd, check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "run(s) already done were skipped" in p.stdout
    done3 = results_snapshot(out)
    for rid, snap in done2.items():
        assert done3[rid] == snap, "a finished run was run again: %s" % rid
    st = states(out)
    failed = sorted(r for r, s in st.items() if s == "failed")
    assert failed == ["np1,nx=24/rep0", "np1,nx=24/rep1"], st
    assert all(st[r] == "done" for r in st if r not in failed)
    assert "failed runs (logs kept in their folders" in p.stdout
    for rid in failed:
        d = runs_of(out)[rid]
        assert d in p.stdout and "exit status 3" in p.stdout
        assert "deliberate failure for nx 24" in open(os.path.join(d, "stderr.txt")).read()
        assert load(os.path.join(d, "status.json"))["exit_status"] == 3
    # status says the same
    s = run_tool(["status", out], cwd=cwd, check=False)
    assert s.returncode == 1 and "6 runs: 4 done, 2 failed" in s.stdout
    # collect lists failed runs with their reason
    run_tool(["collect", out], cwd=cwd)
    import csv
    rows = list(csv.DictReader(open(os.path.join(out, "results.csv"))))
    assert len(rows) == 6
    assert sorted(r["run"] for r in rows if r["status"] == "failed") == failed
    # the wrapper's own line, which names no "error:", relayed as the program's words
    assert all(r["reason"] == "exit status 3: deliberate failure for nx 24" for r in rows if r["status"] == "failed")

    # 4. fix the cause: only the failed runs run again; their old logs are kept aside
    os.remove(flag)
    p = run_tool(["run", sw, "--no-check"], cwd=cwd)
    ran = [l for l in p.stdout.splitlines() if l.startswith("[")]
    assert len(ran) == 2 and all("np1,nx=24/" in l and " done " in l for l in ran), p.stdout
    done4 = results_snapshot(out)
    assert len(done4) == 6
    for rid, snap in done3.items():
        assert done4[rid] == snap
    for rid in failed:
        d = runs_of(out)[rid]
        old = [a for a in os.listdir(d) if a.startswith("attempt-")]
        assert old, "the failed attempt's logs are kept"
        assert any("deliberate failure" in open(os.path.join(d, a, "stderr.txt")).read() for a in old)
        assert load(os.path.join(d, "status.json"))["attempt"] >= 2
    # 5. nothing left to do
    p = run_tool(["run", sw, "--no-check"], cwd=cwd)
    assert "6 run(s) already done were skipped" in p.stdout and "6 runs: 6 done" in p.stdout


def test_changed_settings_are_refused(setup):
    cwd, sw, flag, out = setup
    small = write(os.path.join(cwd, "small.toml"), SWEEP.replace("repetitions = 2", "repetitions = 1")
                  .replace("[16, 24, 32]", "[16]").replace('name = "resume"', 'name = "small"'))
    run_tool(["run", small, "--no-check"], cwd=cwd)
    changed = write(small, open(small).read() + "ny = 20\n")
    p = run_tool(["run", changed, "--no-check"], cwd=cwd, check=False)
    assert p.returncode == 2
    assert "expected the settings of the runs already done" in p.stderr
    assert 'np1,nx=16/rep0: params: {"nx": 16} -> {"nx": 16, "ny": 20}' in p.stderr
