"""The sweep's run order, as its dry run prints it: by default each round
shuffled from a seed that the header and plan.json record (derived from the
sweep's settings when the file gives none), or round-robin when asked; and,
before any run, the points that will run as another iotype (gcrm_io's
blocking_collective) with the cause."""

import json
import os
import re
import subprocess

import pytest
from conftest import BUILDDIR, run_tool, tool_env, write

GCRM = os.path.join(BUILDDIR, "src", "gcrm", "gcrm_io")


def sweep(tmp_path, extra=""):
    p = tmp_path / "o.toml"
    p.write_text('[sweep]\nname = "o"\nkernel = "gcrm_io"\nexecutable = "/bin/true"\nnprocs = [1, 2]\n'
                 # /bin/true answers no --print_params: the sweep file names the output parameter
                 'output_parameter = "cdf_output_path"\n'
                 'repetitions = 3\n%s[parameters]\niotype = ["blocking_collective", "nonblocking_collective"]\n'
                 % extra)
    return str(p)


def order(stdout):
    return re.findall(r"^\[\s*\d+/\d+\] (\S+): would run", stdout, re.M)


def test_shuffled_by_default_with_its_seed_recorded(tmp_path, exercise):
    """No order in the file: each round shuffled, from a seed derived from
    the sweep's settings (the same file, the same order), which the header
    and plan.json give."""
    p = run_tool(["run", sweep(tmp_path), "--dry-run", "--no-check"], cwd=str(tmp_path))
    m = re.search(r"^order: interleaved: every point once per round, each round shuffled \(seed (\d+)\), 3 rounds$",
                  p.stdout, re.M)
    assert m, p.stdout
    runs = order(p.stdout)
    rounds = [tuple(r.rsplit("/", 1)[0] for r in runs[i * 4:(i + 1) * 4]) for i in range(3)]
    assert len(set(rounds)) > 1 and all(sorted(rd) == sorted(rounds[0]) for rd in rounds)
    assert order(run_tool(["run", sweep(tmp_path), "--dry-run", "--no-check"], cwd=str(tmp_path)).stdout) == runs
    # the seed in the header orders the same runs when the file gives it
    seeded = run_tool(["run", sweep(tmp_path, 'seed = %s\n' % m.group(1)), "--dry-run", "--no-check"],
                      cwd=str(tmp_path))
    assert order(seeded.stdout) == runs
    # plan.json records the order and the seed of a sweep that ran
    sw = write(str(tmp_path / "e.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\nrepetitions = 2\n'
               '[parameters]\nnx = [8, 16]\nny = 4\nnz = 1\nnrec = 1\n')
    out = run_tool(["run", sw], cwd=str(tmp_path)).stdout
    plan = json.load(open(str(tmp_path / "e.sweep" / "plan.json")))
    assert plan["order"] == "shuffle" and isinstance(plan["seed"], int)
    assert "each round shuffled (seed %d), 2 rounds" % plan["seed"] in out


def test_round_robin(tmp_path):
    p = run_tool(["run", sweep(tmp_path, 'order = "round-robin"\n'), "--dry-run", "--no-check"], cwd=str(tmp_path))
    runs = order(p.stdout)
    points = ["np1,iotype=blocking_collective", "np1,iotype=nonblocking_collective",
              "np2,iotype=blocking_collective", "np2,iotype=nonblocking_collective"]
    assert runs == ["%s/rep%d" % (pt, r) for r in range(3) for pt in points]
    assert "order: interleaved: every point once per round (round-robin), 3 rounds" in p.stdout


def test_shuffle_with_a_recorded_seed(tmp_path):
    p = run_tool(["run", sweep(tmp_path, 'order = "shuffle"\nseed = 7\n'), "--dry-run", "--no-check"],
                 cwd=str(tmp_path))
    runs = order(p.stdout)
    assert "order: interleaved: every point once per round, each round shuffled (seed 7), 3 rounds" in p.stdout
    # every round holds every point once; the rounds differ in order
    rounds = [runs[i * 4:(i + 1) * 4] for i in range(3)]
    assert all(sorted(r.rsplit("/", 1)[0] for r in rd) == sorted(x.rsplit("/", 1)[0] for x in rounds[0])
               for rd in rounds)
    assert all(r.endswith("/rep%d" % i) for i, rd in enumerate(rounds) for r in rd)
    assert len({tuple(r.rsplit("/", 1)[0] for r in rd) for rd in rounds}) > 1
    again = run_tool(["run", sweep(tmp_path, 'order = "shuffle"\nseed = 7\n'), "--dry-run", "--no-check"],
                     cwd=str(tmp_path))
    assert order(again.stdout) == runs
    other = run_tool(["run", sweep(tmp_path, 'order = "shuffle"\nseed = 8\n'), "--dry-run", "--no-check"],
                     cwd=str(tmp_path))
    assert order(other.stdout) != runs
    bad = run_tool(["run", sweep(tmp_path, 'order = "round-robin"\nseed = 7\n'), "--dry-run", "--no-check"],
                   cwd=str(tmp_path), check=False)
    assert bad.returncode == 2 and "seed: expected order = \"shuffle\" beside it" in bad.stderr


def gcrm_sweep(tmp_path, name, params):
    p = tmp_path / ("%s.toml" % name)
    p.write_text('[sweep]\nname = "%s"\nkernel = "gcrm_io"\nexecutable = "%s"\nnprocs = [1, 2]\n[parameters]\n'
                 'level_max = 3\nend_minutes = 0\nrestart_interval = 0\n%s' % (name, GCRM, params))
    return str(p)


def planner_notes(tmp_path, name, params):
    p = run_tool(["run", gcrm_sweep(tmp_path, name, params), "--dry-run"], cwd=str(tmp_path))
    return [l for l in p.stdout.splitlines() if l.startswith("runs as something else:")]


def test_planner_says_what_runs_as_something_else(tmp_path):
    """The planner prints what the kernel answers for each point (its
    --print_params io), for every point and only for those that change."""
    if not os.access(GCRM, os.X_OK):
        pytest.fail("%s is not built" % GCRM)
    notes = planner_notes(tmp_path, "o", 'driver = "null"\niotype = ["blocking_collective", "nonblocking_collective"]\n')
    assert len(notes) == 2, notes
    assert notes[0].startswith("runs as something else: np1,iotype=blocking_collective: asked blocking_collective, "
                               "runs nonblocking_collective: gcrm_io's call_pattern original")
    assert notes[1].startswith("runs as something else: np2,iotype=blocking_collective: ")
    assert planner_notes(tmp_path, "t", 'driver = "null"\ncall_pattern = "textbook"\n'
                         'iotype = ["blocking_collective", "nonblocking_collective"]\n') == []
    # a call_pattern axis: only its original points change
    notes = planner_notes(tmp_path, "c", 'driver = "null"\niotype = "blocking_collective"\n'
                          'call_pattern = ["original", "textbook"]\n')
    assert [n.split(":")[1].strip() for n in notes] == ["np1,call_pattern=original", "np2,call_pattern=original"], notes


def test_planner_asks_the_kernel_about_filters(tmp_path):
    """Filters need collective writes in a netCDF-4 file, not in gcrm_io's
    classic one: the kernel knows its format, the planner says what it answers."""
    if not os.access(GCRM, os.X_OK):
        pytest.fail("%s is not built" % GCRM)
    drivers = json.loads(subprocess.run([GCRM, "--print_params"], stdout=subprocess.PIPE, text=True,
                                        env=tool_env()).stdout)["drivers"]
    if "netcdf" not in drivers:
        pytest.skip("the netcdf driver is not built")
    notes = planner_notes(tmp_path, "f", 'driver = "netcdf"\niotype = "blocking_independent"\ndeflate = 1\n'
                          'format = ["default", "nc4"]\n')
    assert [n.split(":")[1].strip() for n in notes] == ["np1,format=nc4", "np2,format=nc4"], notes
    assert "asked blocking_independent, runs blocking_collective: parallel HDF5 writes filtered" in notes[0]
    # --no-check: the kernel is not asked, and the planner says nothing
    p = run_tool(["run", gcrm_sweep(tmp_path, "f", 'driver = "netcdf"\niotype = "blocking_independent"\n'
                                    'deflate = 1\nformat = "nc4"\n'), "--dry-run", "--no-check"], cwd=str(tmp_path))
    assert "runs as something else" not in p.stdout


def test_planner_asks_with_the_iotype_each_run_reads_from_its_file(tmp_path):
    """gcrm_io's built-in input sets iotype nonblocking_collective; run alone with
    a driver without it, the kernel runs its blocking mode (the kernel's default),
    but every run of a sweep reads it from its parameter file, where it is chosen
    and refused: the planner refuses the point before any run instead of saying
    it will run blocking_collective."""
    if not os.access(GCRM, os.X_OK):
        pytest.fail("%s is not built" % GCRM)
    drivers = json.loads(subprocess.run([GCRM, "--print_params"], stdout=subprocess.PIPE, text=True,
                                        env=tool_env()).stdout)["drivers"]
    lacking = [d for d, v in drivers.items() if "nonblocking_collective" not in v["iotypes"]]
    if not lacking:
        pytest.skip("every driver built has nonblocking_collective")
    p = run_tool(["run", gcrm_sweep(tmp_path, "i", 'driver = "%s"\n' % lacking[0]), "--dry-run"],
                 cwd=str(tmp_path), check=False)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "runs as something else" not in p.stdout
    assert re.search(r"i\.toml:10: gcrm_io cannot run .*driver = \"%s\": .*has no nonblocking_collective mode.* "
                     r"\(iotype nonblocking_collective is the built-in input's, <built-in zgrd.in>:\d+, which every "
                     r"run's parameter file repeats: set iotype in \[parameters\]\)" % lacking[0], p.stderr), p.stderr
    # with the iotype in [parameters], the kernel's answer holds for the runs
    assert planner_notes(tmp_path, "j", 'driver = "%s"\niotype = "nonblocking_collective"\n'
                         'nc4_nonblocking_fallback = true\n' % lacking[0])[0].startswith(
        "runs as something else: np1: asked nonblocking_collective, runs blocking_collective")
