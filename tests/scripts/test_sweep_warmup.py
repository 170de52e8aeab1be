"""[sweep] warmup: warm-up rounds of every point run first, marked in the dry
run and the header, recorded in plan.json and run.json, and left out of
results.csv; shuffled measured rounds keep their order.  plan.json and
results.json record the command that wrote them."""

import csv
import os
import re

from conftest import load, run_tool, runs_of, write


def sweep(tmp_path, extra="", name="w"):
    return write(str(tmp_path / ("%s.toml" % name)),
                 '[sweep]\nname = "%s"\nkernel = "gcrm_io"\nexecutable = "/bin/true"\nnprocs = [1, 2]\n'
                 # /bin/true answers no --print_params: the sweep file names the output parameter
                 'output_parameter = "cdf_output_path"\n'
                 'repetitions = 2\n%s' % (name, extra))


def listed(stdout):
    return re.findall(r"^\[\s*\d+/\d+\] (\S+): would run(.*)$", stdout, re.M)


def test_dry_run_shows_the_warmup_runs_first_and_left_out(tmp_path):
    p = run_tool(["run", sweep(tmp_path, 'order = "round-robin"\nwarmup = 1\n'), "--dry-run", "--no-check"],
                 cwd=str(tmp_path))
    runs = listed(p.stdout)
    assert [r for r, _ in runs] == ["np1/warmup0", "np2/warmup0", "np1/rep0", "np2/rep0", "np1/rep1", "np2/rep1"]
    assert [tail for _, tail in runs[:2]] == [" (warm-up: left out of the results)"] * 2
    assert all("warm-up" not in tail for _, tail in runs[2:])
    assert "sweep 'w': 6 run(s) (2 point(s) x 2 repetition(s) + 1 warm-up round(s))" in p.stdout
    assert "order: interleaved: every point once per round (round-robin), 2 rounds, after 1 warm-up round " \
           "(left out of the results)" in p.stdout
    assert "params.in sets:" in p.stdout
    bad = run_tool(["run", sweep(tmp_path, "warmup = -1\n"), "--dry-run", "--no-check"], cwd=str(tmp_path),
                   check=False)
    assert bad.returncode == 2 and "warmup: expected a whole number from 0 to 100" in bad.stderr, bad.stderr


def test_shuffled_measured_rounds_keep_their_order(tmp_path):
    base = 'order = "shuffle"\nseed = 3\n'
    plain = [r for r, _ in listed(run_tool(["run", sweep(tmp_path, base), "--dry-run", "--no-check"],
                                           cwd=str(tmp_path)).stdout)]
    warm = [r for r, _ in listed(run_tool(["run", sweep(tmp_path, base + "warmup = 2\n"), "--dry-run", "--no-check"],
                                          cwd=str(tmp_path)).stdout)]
    assert [r for r in warm if "/warmup" not in r] == plain
    assert sorted(r for r in warm[:4]) == ["np1/warmup0", "np1/warmup1", "np2/warmup0", "np2/warmup1"]


def test_warmup_runs_run_and_stay_out_of_the_results(tmp_path, exercise):
    sw = write(str(tmp_path / "r.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\nrepetitions = 1\n'
               'warmup = 1\n[parameters]\nnx = 8\nny = 4\nnz = 2\nnrec = 1\n')
    run_tool(["run", sw], cwd=str(tmp_path))
    out = str(tmp_path / "r.sweep")
    runs = runs_of(out)
    assert sorted(runs) == ["np1/rep0", "np1/warmup0"]
    assert os.path.isfile(os.path.join(runs["np1/warmup0"], "result.json")), "the warm-up run did not run"
    assert load(os.path.join(runs["np1/warmup0"], "run.json"))["warmup"] is True
    assert "warm-up 0" in open(os.path.join(runs["np1/warmup0"], "params.in")).read()
    plan = load(os.path.join(out, "plan.json"))
    assert plan["warmup"] == 1 and plan["runs"] == ["np1/warmup0", "np1/rep0"]
    # the sweep's own JSON records the command that wrote it, as typed
    assert plan["command_line"][1:] == ["run", sw], plan["command_line"]
    p = run_tool(["collect", out], cwd=str(tmp_path))
    assert "collected 1 run(s) (1 done, 0 failed)" in p.stdout and "; 1 warm-up run(s) left out" in p.stdout
    with open(os.path.join(out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["run"] for r in rows] == ["np1/rep0"]
    results = load(os.path.join(out, "results.json"))
    assert [r["row"]["run"] for r in results["runs"]] == ["np1/rep0"]
    assert results["command_line"][1:] == ["collect", out], results["command_line"]
