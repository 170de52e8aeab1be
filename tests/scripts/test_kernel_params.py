"""The sweep asks the kernel (--print_params) instead of re-implementing its
rules: key spellings the kernel accepts (Level_Max, level-max) reach the run
under the kernel's name, values of the wrong type and driver x iotype points
the driver cannot run are refused before any run with the kernel's own words,
a sweep without base runs the built-in input, the identity of a run holds the
input files its parameters name, and a failed run is explained by the kernel's
own error line.  Real gcrm_io runs (level 3, null driver, one output time)."""

import json
import os
import subprocess

import pytest

from conftest import BUILDDIR, load, run_tool, runs_of, tool_env, write

GCRM = os.path.join(BUILDDIR, "src", "gcrm", "gcrm_io")
# one output time, no restart: a level-3 run takes well under a second
CHEAP = 'end_minutes = 0\nrestart_interval = 0\ndriver = "null"\n'


@pytest.fixture(scope="module")
def gcrm():
    if not os.access(GCRM, os.X_OK):
        pytest.fail("%s is not built" % GCRM)
    return GCRM


def sweep(tmp_path, body, name="s", base=None):
    head = '[sweep]\nname = "%s"\nkernel = "gcrm_io"\nexecutable = "%s"\nnprocs = 2\n' % (name, GCRM)
    if base is not None:
        write(str(tmp_path / "base.in"), base)
        head += 'base = "base.in"\n'
    return write(str(tmp_path / ("%s.toml" % name)), head + body)


def print_params(args, cwd):
    p = subprocess.run([GCRM, "--print_params"] + args, cwd=cwd, env=tool_env(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=120)
    return p


def test_print_params_normalises_and_validates(gcrm, tmp_path):
    p = print_params(["--Level-Max=5", "--IOTYPE", "Blocking_Collective"], str(tmp_path))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["schema"] == "climio-params" and doc["parameter_file"] == "<built-in zgrd.in>"
    prm = doc["parameters"]
    assert prm["level_max"] == dict(prm["level_max"], value="5", origin="command line", set=True)
    assert prm["iotype"]["value"] == "blocking_collective"
    # the built-in input's own settings, with their lines
    assert prm["end_minutes"]["value"] == "15" and prm["end_minutes"]["origin"].startswith("<built-in zgrd.in>:")
    assert [c["key"] for c in doc["command_line"]] == ["print_params", "level_max", "iotype"]
    assert "blocking_collective" in doc["drivers"]["null"]["iotypes"]
    p = print_params(["--restart_interval", "soon"], str(tmp_path))
    assert p.returncode == 2 and p.stdout == ""
    assert "gcrm_io: error: command line: restart_interval expects a number, found 'soon'" in p.stderr


def test_key_spellings_reach_the_run(gcrm, tmp_path):
    """Base 'Level_Max 3', sweep 'level-max = 4': the run ran level 4 (it ran 3)."""
    base = "Level_Max 3\nend_days 0\nend_minutes 15\nrestart_interval 900\nio_desc_file ZGrd.desc\n" \
           "io_config_file ZGrd.LZ.fcfg.nophys\ncdf_output_frequency 1800\n"
    sw = sweep(tmp_path, "[parameters]\nlevel-max = [3, 4]\n" + CHEAP, base=base)
    run_tool(["run", sw], cwd=str(tmp_path))
    runs = runs_of(str(tmp_path / "s.sweep"))
    assert sorted(runs) == ["np2,level-max=3/rep0", "np2,level-max=4/rep0"]
    for rid, d in runs.items():
        res = load(os.path.join(d, "result.json"))
        want = int(rid.split("=")[1][0])
        assert res["config"]["level_max"]["value"] == want, rid
        params = open(os.path.join(d, "params.in")).read()
        assert "! level_max 3   ! %s:1: set by the sweep below" % (tmp_path / "base.in") in params
        assert "\nend_days 0   ! %s:2\n" % (tmp_path / "base.in") in params
        # the base file's relative input names, made absolute: none here (they are the built-in copies)
        assert res["config"]["io_desc_file"]["value"] == "ZGrd.desc"


def test_without_base_runs_the_builtin_input(gcrm, tmp_path):
    """doc/sweep.md: no base = the kernel's built-in input (zgrd.in: 15 minutes,
    nophys fcfg, the built-in descriptor), plus the sweep's settings."""
    # level 4 steps by 120 s: the built-in input's 900 s output frequency is no multiple of it
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 4\ncdf_output_frequency = 1800\n" + CHEAP)
    p = run_tool(["run", sw], cwd=str(tmp_path))
    assert "1 runs: 1 done" in p.stdout
    (d,) = runs_of(str(tmp_path / "s.sweep")).values()
    res = load(os.path.join(d, "result.json"))
    assert res["config"]["level_max"]["value"] == 4
    assert res["config"]["physics_mode"]["value"] == "disabled"     # the built-in zgrd.in's, not the default
    assert res["config"]["cdf_grid_option"]["value"] == "sep_grid"
    err = open(os.path.join(d, "stderr.txt")).read()
    assert "io_desc_file 'ZGrd.desc' (params.in:" in err and "using the built-in copy" in err


def test_wrong_type_refused_before_any_run(gcrm, tmp_path):
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\n" + CHEAP.replace("restart_interval = 0",
                                                                         'restart_interval = ["0", "soon"]'))
    p = run_tool(["run", sw], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert p.stderr.startswith("climio-sweep: error: %s:9: gcrm_io refuses " % sw), p.stderr
    assert "gcrm_io: error: command line: restart_interval expects a number, found 'soon'" in p.stderr
    assert len(p.stderr.splitlines()) == 1
    assert not os.path.exists(str(tmp_path / "s.sweep"))


def test_out_of_range_value_names_its_own_line(gcrm, tmp_path):
    """The kernel says "command line: end_minutes must be between ...": the error
    names end_minutes' line, not the [parameters] table's (nor another key's)."""
    sw = sweep(tmp_path, "[parameters]\nlevel_max = [3, 4]\nend_minutes = -5\nrestart_interval = 0\ndriver = \"null\"\n")
    p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert p.stderr.startswith("climio-sweep: error: %s:8: gcrm_io refuses " % sw), p.stderr
    assert "command line: end_minutes" in p.stderr, p.stderr


def test_unknown_key_refused_with_the_kernels_suggestion(gcrm, tmp_path):
    sw = sweep(tmp_path, "[parameters]\nLevel_Maxx = 3\n" + CHEAP)
    p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert ":7: gcrm_io refuses" in p.stderr
    assert "unknown option '--Level_Maxx=3' (did you mean '--level_max'?)" in p.stderr


def test_driver_iotype_points_the_driver_cannot_run(gcrm, tmp_path):
    doc = json.loads(print_params([], str(tmp_path)).stdout)
    blocking_only = [d for d, v in doc["drivers"].items() if "nonblocking_collective" not in v["iotypes"]]
    if not blocking_only:
        pytest.skip("every driver built runs nonblocking_collective")
    drv = blocking_only[0]
    body = '[parameters]\nlevel_max = 3\nend_minutes = 0\nrestart_interval = 0\ndriver = ["null", "%s"]\n' \
           'iotype = ["blocking_collective", "nonblocking_collective"]\n' % drv
    sw = sweep(tmp_path, body)
    p = run_tool(["run", sw], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert "s.toml:10: gcrm_io cannot run" in p.stderr
    # the kernel's own words (its origin and the driver's reason), not a copy of its rule
    assert "command line: the %s driver has no nonblocking_collective mode (" % drv in p.stderr
    assert not os.path.exists(str(tmp_path / "s.sweep"))
    # excluded, the sweep runs
    write(sw, open(sw).read() + '[[exclude]]\ndriver = "%s"\niotype = "nonblocking_collective"\n' % drv)
    p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path))
    assert "3 run(s)" in p.stdout


def test_io_refusal_names_the_setting_it_is_about(gcrm, tmp_path):
    """A refusal of the io settings (the filters' check, quantize's value) names
    the line of the setting the kernel's words name, not the driver's."""
    sw = sweep(tmp_path, '[parameters]\nlevel_max = 3\nquantize = ["none", "bitround:x"]\n' + CHEAP)
    p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert p.stderr.startswith("climio-sweep: error: %s:8: gcrm_io cannot run " % sw), p.stderr
    assert "quantize expects none, bitgroom:NSD, granularbr:NSD or bitround:NSD" in p.stderr


def test_hints_out_of_range_refused_before_any_run(gcrm, tmp_path):
    """A hint outside its range ([hints] cb_nodes = 0, a swept 2.5) is the
    kernel's refusal, asked through --print_params with the point's hints: the
    sweep names the [hints] line before any run (the runs failed one by one)."""
    for body, line, value in (("cb_nodes = 0\n", 12, "0"), ("cb_nodes = [1, 2.5]\n", 12, "2.5"),
                              ("striping_factor = 2\nstriping_unit = \"0k\"\n", 13, "\"0k\"")):
        sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\n" + CHEAP + "[hints]\n" + body)
        p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path), check=False)
        assert p.returncode == 2, p.stdout
        name = body.splitlines()[-1].split(" ")[0]
        assert p.stderr.startswith("climio-sweep: error: %s:%d: gcrm_io refuses the hint %s = %s: hint %s=" % (
            sw, line, name, value, name)), p.stderr
        assert "expected a whole number from 1 to 2147483647" in p.stderr
        assert not os.path.exists(str(tmp_path / "s.sweep" / "runs"))
    # in range: planned
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\n" + CHEAP + "[hints]\ncb_nodes = [1, 2]\n")
    run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path))


def test_print_params_says_whether_the_run_accepts_its_io(gcrm, tmp_path):
    """--print_params resolves driver, iotype and format as the run does: the sweep's one source of that rule."""
    doc = json.loads(print_params(["--driver", "null", "--iotype", "blocking_independent"], str(tmp_path)).stdout)
    assert doc["io"] == {"driver": "null", "iotype": "blocking_independent", "iotype_effective": "blocking_independent",
                         "iotype_cause": None, "format": "none", "refused": None}
    doc = json.loads(print_params(["--driver", "null", "--format", "cdf5"], str(tmp_path)).stdout)
    assert doc["io"]["refused"] == "command line: the null driver cannot write format cdf5; it writes: none"
    # a hint outside its range, as the run refuses it
    doc = json.loads(print_params(["--hints", "romio_cb_write=enable;cb_nodes=0"], str(tmp_path)).stdout)
    assert doc["io"]["refused"].startswith("command line: hint cb_nodes=0: expected a whole number from 1 to ")
    blocking_only = [d for d, v in doc["drivers"].items() if "nonblocking_collective" not in v["iotypes"]]
    if blocking_only:
        # not chosen: the kernel's default iotype runs as the driver's blocking mode, as in a run
        doc = json.loads(print_params(["--driver", blocking_only[0]], str(tmp_path)).stdout)
        assert doc["io"]["refused"] is None and doc["io"]["iotype"] == "blocking_collective", doc["io"]


def test_failed_run_shows_the_kernels_error_line(gcrm, tmp_path):
    """cdf_output_frequency 7 passes --print_params (that it falls on the model's
    time steps is gcrm_io's own check at start, knowing the level): the run
    fails, and the summary shows gcrm_io's words, not the MPI launcher's
    banner."""
    sw = sweep(tmp_path, "[parameters]\ncdf_output_frequency = 7\n" + CHEAP)
    p = run_tool(["run", sw], cwd=str(tmp_path), check=False)
    assert p.returncode == 1
    want = "gcrm_io: error: params.in:"
    line = [l for l in p.stdout.splitlines() if "FAILED" in l][0]
    assert "exit status 2: " + want in line and "cdf_output_frequency 7 s does not fall on the model time steps" in line
    tail = p.stdout.split("failed runs")[1]
    assert want in tail and "Process name" not in tail and "Exit code" not in tail
    (d,) = runs_of(str(tmp_path / "s.sweep")).values()
    assert load(os.path.join(d, "status.json"))["reason"].startswith("exit status 2: " + want)


def test_input_files_are_part_of_a_runs_identity(gcrm, tmp_path):
    """Editing a file a parameter names (here the hints file) makes the runs
    done with the old one another workload: refused, naming the file."""
    write(str(tmp_path / "h.txt"), "cb_nodes 1\n")
    sw = sweep(tmp_path, '[parameters]\nlevel_max = 3\nhints_file = "h.txt"\n' + CHEAP)
    run_tool(["run", sw], cwd=str(tmp_path))
    (d,) = runs_of(str(tmp_path / "s.sweep")).values()
    run = load(os.path.join(d, "run.json"))
    assert run["input_files"]["hints_file"]["path"] == str(tmp_path / "h.txt")
    run_tool(["run", sw], cwd=str(tmp_path))      # unchanged: nothing to do
    write(str(tmp_path / "h.txt"), "cb_nodes 2\n")
    p = run_tool(["run", sw], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert "expected the settings of the runs already done" in p.stderr and "input_files" in p.stderr


@pytest.mark.parametrize("name", ["..", "."])
def test_name_that_is_a_path_component(tmp_path, name):
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\n", name=name)
    p = run_tool(["run", sw, "--dry-run"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2
    assert "name: expected a name, not a path component, found \"%s\"" % name in p.stderr


def test_corrupt_result_is_failed_not_dropped(gcrm, tmp_path):
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\niotype = [\"blocking_collective\", "
                         "\"nonblocking_collective\"]\n" + CHEAP)
    run_tool(["run", sw], cwd=str(tmp_path))
    out = str(tmp_path / "s.sweep")
    runs = runs_of(out)
    bad = runs["np2,iotype=blocking_collective/rep0"]
    write(os.path.join(bad, "result.json"), '{"schema": "climio-res')
    p = run_tool(["collect", out], cwd=str(tmp_path))
    assert "collected 2 run(s) (1 done, 1 failed)" in p.stdout
    rows = load(os.path.join(out, "results.json"))["runs"]
    row = [r["row"] for r in rows if r["row"]["run"].endswith("blocking_collective/rep0")
           and "nonblocking" not in r["row"]["run"]][0]
    assert row["status"] == "failed" and row["reason"].startswith("result.json cannot be read")
    p = run_tool(["status", out], cwd=str(tmp_path), check=False)
    assert "2 runs: 1 done, 1 failed" in p.stdout
    # running again re-runs it
    p = run_tool(["run", sw], cwd=str(tmp_path))
    assert "2 runs: 2 done" in p.stdout


def test_collect_and_report_into_a_wrong_place(gcrm, tmp_path):
    sw = sweep(tmp_path, "[parameters]\nlevel_max = 3\n" + CHEAP)
    run_tool(["run", sw], cwd=str(tmp_path))
    out = str(tmp_path / "s.sweep")
    before = sorted(os.listdir(out))
    ro = tmp_path / "ro"
    ro.mkdir()
    cases = [
        (["collect", out, "--csv", str(tmp_path / "nope" / "r.csv")], "--csv: expected a file in an existing folder"),
        (["collect", out, "--json", str(tmp_path)], "--json: expected a file name, found a folder"),
        (["collect", out, "--json", "/proc/r.json"], "/proc/r.json: cannot write"),
        (["report", out, "--dest", "/proc/climio-report"], "cannot write the report"),
        (["report", out, "--dest", sw], "--dest: expected a folder, found a file"),
    ]
    for args, want in cases:
        p = run_tool(args, cwd=str(tmp_path), check=False)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert p.stderr.startswith("climio-sweep: error: ") and want in p.stderr, (args, p.stderr)
        assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr, p.stderr
    left = [f for f in os.listdir(out) if f not in before and f not in ("results.csv", "results.json")]
    assert not left and not [f for f in os.listdir(str(tmp_path)) if ".tmp" in f]
    assert not os.path.exists("/proc/climio-report")
