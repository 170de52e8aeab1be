"""The runs' output folder: the sweep asks the kernel (--print_params's
output_folder) which parameter names it, under every name the kernel knows it
by, and which variables override it, with or without --no-check, asking once
per program and base file; a kernel it cannot ask is one clear error unless the
sweep file names the parameter itself.  Real gcrm_io runs (level 3, one output
time)."""

import os

import pytest

from conftest import BUILDDIR, load, run_tool, runs_of, tool_env, write

GCRM = os.path.join(BUILDDIR, "src", "gcrm", "gcrm_io")
CHEAP = '[parameters]\nlevel_max = 3\nend_minutes = 0\nrestart_interval = 0\ndriver = "pnetcdf"\n'


@pytest.fixture(scope="module")
def gcrm():
    if not os.access(GCRM, os.X_OK):
        pytest.fail("%s is not built" % GCRM)
    return GCRM


def counting_wrapper(tmp_path, exe):
    """A wrapper that logs every call's arguments, then runs exe."""
    log = tmp_path / "calls.log"
    w = tmp_path / "kernel.sh"
    w.write_text('#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' % (log, exe))
    w.chmod(0o755)
    return str(w), log


def sweep(tmp_path, exe, body=CHEAP, extra=""):
    return write(str(tmp_path / "f.toml"), '[sweep]\nname = "f"\nkernel = "gcrm_io"\nexecutable = "%s"\n'
                 'nprocs = 1\n%s%s' % (exe, extra, body))


@pytest.mark.parametrize("check", [True, False], ids=["checked", "no-check"])
def test_folder_from_the_kernel_and_its_variable_unset(gcrm, tmp_path, check):
    """GCRM_OUTPUT_PATH (gcrm_io's override, from --print_params) pointing at
    a folder that cannot exist: the run does not inherit it and writes into its
    own folder through output_dir; the kernel was asked about the base once."""
    exe, log = counting_wrapper(tmp_path, gcrm)
    # GCRM-IO's own spelling of the folder in the base file, which the sweep replaces
    write(str(tmp_path / "base.in"), "Level_Max 3\nend_minutes 15\nio_desc_file ZGrd.desc\n"
          "io_config_file ZGrd.LZ.fcfg.nophys\ncdf_output_frequency 1800\ncdf_output_path ./base_out\n")
    sw = sweep(tmp_path, exe, extra='keep_data = true\nbase = "base.in"\n')
    env = tool_env({"GCRM_OUTPUT_PATH": "/nonexistent/climio/out"})
    p = run_tool(["run", sw] + ([] if check else ["--no-check"]), cwd=str(tmp_path), env=env)
    assert "1 runs: 1 done" in p.stdout, p.stdout
    (d,) = runs_of(str(tmp_path / "f.sweep")).values()
    params = open(os.path.join(d, "params.in")).read()
    assert "\noutput_dir %s/out\n" % d in params, params
    assert "\ncdf_output_path ./base_out" not in params, params
    assert "unset GCRM_OUTPUT_PATH   # it would override the output folder in params.in" in \
        open(os.path.join(d, "command.sh")).read()
    assert load(os.path.join(d, "run.json"))["output_env"] == ["GCRM_OUTPUT_PATH"]
    assert sorted(os.listdir(os.path.join(d, "out")))[0].endswith(".nc")
    base = str(tmp_path / "base.in")
    asked = [line for line in log.read_text().splitlines() if "--print_params" in line]
    assert asked.count(base + " --print_params") == 1, asked
    if not check:
        assert asked == [base + " --print_params"], asked


@pytest.mark.parametrize("name", ["cdf_output_path", "Output-Dir", "output_dir"])
def test_every_name_of_the_folder_refused_in_parameters(gcrm, tmp_path, name):
    sw = sweep(tmp_path, gcrm, CHEAP + '%s = "x"\n' % name)
    for extra in ([], ["--no-check"]):
        p = run_tool(["run", sw, "--dry-run"] + extra, cwd=str(tmp_path), check=False)
        assert p.returncode == 2, p.stdout + p.stderr
        assert p.stderr == ("climio-sweep: error: %s:11: %s: expected a kernel parameter the sweep does not set "
                            "itself, found '%s' (the sweep sets each run's output folder; use data_dir in "
                            "[sweep])\n" % (sw, name, name)), p.stderr
    assert sorted(os.listdir(str(tmp_path))) == ["f.toml"]


def test_kernel_that_cannot_be_asked(tmp_path):
    """A program that answers no --print_params: one line, exit 2, nothing
    written; with output_parameter in [sweep] the sweep goes on without it."""
    mute = tmp_path / "mute.sh"
    mute.write_text("#!/bin/sh\nexit 0\n")
    mute.chmod(0o755)
    sw = sweep(tmp_path, str(mute))
    for extra in ([], ["--no-check"]):
        p = run_tool(["run", sw, "--dry-run"] + extra, cwd=str(tmp_path), check=False)
        assert p.returncode == 2
        # it ran, and ended well: said so (not 'did not run here'), at the executable's line
        assert p.stderr == ("climio-sweep: error: %s:4: cannot ask gcrm_io which parameter names its output "
                            "folder: '%s --print_params' ran and ended well, but printed no climio parameter set "
                            "(is it a climio kernel?); run where the kernel starts, or set output_parameter in "
                            "[sweep]\n" % (sw, mute)), p.stderr
    assert sorted(os.listdir(str(tmp_path))) == ["f.toml", "mute.sh"]
    sw = sweep(tmp_path, str(mute), extra='output_parameter = "cdf_output_path"\n')
    p = run_tool(["run", sw, "--dry-run", "--no-check"], cwd=str(tmp_path))
    assert "params.in sets: level_max 3; end_minutes 0; restart_interval 0; driver pnetcdf; cdf_output_path " \
        "%s/f.sweep/runs/np1/rep0/out" % tmp_path in p.stdout, p.stdout
