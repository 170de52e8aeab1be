"""The sweep's run order, as its dry run prints it: repetitions interleaved
across points (round-robin), or each round shuffled from a seed that the
header and plan.json record; and, before any run, the points that will run
as another iotype (gcrm_io's blocking_collective) with the cause."""

import re

from conftest import run_tool


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


def test_round_robin(tmp_path):
    p = run_tool(["run", sweep(tmp_path), "--dry-run", "--no-check"], cwd=str(tmp_path))
    runs = order(p.stdout)
    points = ["np1,iotype=blocking_collective", "np1,iotype=nonblocking_collective",
              "np2,iotype=blocking_collective", "np2,iotype=nonblocking_collective"]
    assert runs == ["%s/rep%d" % (pt, r) for r in range(3) for pt in points]
    assert "order: interleaved: every point once per round (round-robin), 3 rounds" in p.stdout


def test_shuffle_with_a_recorded_seed(tmp_path):
    p = run_tool(["run", sweep(tmp_path, 'order = "shuffle"\nseed = 7\n'), "--dry-run", "--no-check"],
                 cwd=str(tmp_path))
    runs = order(p.stdout)
    assert "order: interleaved: every point once per round, each round shuffled (seed 7)" in p.stdout
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
    bad = run_tool(["run", sweep(tmp_path, 'seed = 7\n'), "--dry-run", "--no-check"], cwd=str(tmp_path),
                   check=False)
    assert bad.returncode == 2 and "seed: expected order = \"shuffle\" beside it" in bad.stderr


def test_planner_says_what_runs_as_something_else(tmp_path):
    p = run_tool(["run", sweep(tmp_path), "--dry-run", "--no-check"], cwd=str(tmp_path))
    notes = [l for l in p.stdout.splitlines() if l.startswith("runs as something else:")]
    assert len(notes) == 2, p.stdout
    assert notes[0].startswith("runs as something else: np1,iotype=blocking_collective: asked blocking_collective, "
                               "runs nonblocking_collective: gcrm_io's call_pattern original")
    p = run_tool(["run", sweep(tmp_path).replace("o.toml", "o.toml"), "--dry-run", "--no-check"],
                 cwd=str(tmp_path))
    text = (tmp_path / "o.toml").read_text().replace("[parameters]\n", "[parameters]\ncall_pattern = \"textbook\"\n")
    (tmp_path / "t.toml").write_text(text.replace('name = "o"', 'name = "t"'))
    p = run_tool(["run", str(tmp_path / "t.toml"), "--dry-run", "--no-check"], cwd=str(tmp_path))
    assert "runs as something else" not in p.stdout
