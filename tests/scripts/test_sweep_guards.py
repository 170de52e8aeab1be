"""What the sweep and the bench scripts refuse before any run, and what they
say when something is wrong: an output folder holding the user's own
sweep.toml and plan.json (refused, the files untouched), a plan.json cut short
or damaged (named so, not "run the sweep first"), and a failed run explained
by the program's own line, never the launcher's rule of dashes nor GNU time's
"Exit status"."""

import json
import os
import stat
import subprocess
import sys

import pytest

from conftest import SAMPLE, SRCDIR, BUILDDIR, run_tool, tool_env, write
from climio_sweep.kernel import program_error_line

BENCH_COMBINE = os.path.join(SRCDIR, "scripts", "bench-combine")
MOM_COMBINE = os.path.join(BUILDDIR, "src", "combine", "mom_combine")


def small_sweep(folder, name="s"):
    return write(os.path.join(folder, "%s.toml" % name),
                 '[sweep]\nname = "%s"\nkernel = "engine_exercise"\nnprocs = 1\n[parameters]\nnx = [8, 16]\nny = 8\n'
                 'nz = 1\nnrec = 1\n' % name)


@pytest.mark.parametrize("command", [["run"], ["pbs"]])
def test_out_beside_the_users_own_files_is_refused(tmp_path, exercise, command):
    """--out . where the user keeps a sweep.toml and a plan.json of their own:
    refused before the kernel runs, both files as they were, nothing made."""
    mine = write(str(tmp_path / "sweep.toml"), "# my own notes, not this sweep\n")
    plan = write(str(tmp_path / "plan.json"), '{"my": "plan"}\n')
    sweep = small_sweep(str(tmp_path), "x")
    p = run_tool(command + [sweep, "--out", "."], cwd=str(tmp_path), check=False)
    assert p.returncode == 2, p.stdout + p.stderr
    assert ("%s: expected a new folder or one a sweep wrote, found sweep.toml, plan.json there, which climio-sweep "
            "did not write (no sweep's plan.json): the sweep would overwrite them; give another output folder "
            "(--out x.sweep)" % tmp_path) in p.stderr
    assert open(mine).read() == "# my own notes, not this sweep\n" and open(plan).read() == '{"my": "plan"}\n'
    assert sorted(os.listdir(str(tmp_path))) == ["plan.json", "sweep.toml", "x.toml"]
    # the dry run writes nothing, so it is not refused
    assert run_tool(command + [sweep, "--out", ".", "--dry-run"], cwd=str(tmp_path)).returncode == 0


def test_the_sweeps_own_folder_and_its_file_are_accepted(tmp_path, exercise):
    """A folder the sweep wrote runs again (its runs skipped); a sweep file
    named sweep.toml run with --out . is not a file to protect from itself."""
    sweep = small_sweep(str(tmp_path))
    run_tool(["run", sweep], cwd=str(tmp_path))
    again = run_tool(["run", sweep], cwd=str(tmp_path))
    assert "2 run(s) already done were skipped" in again.stdout
    own = tmp_path / "own"
    own.mkdir()
    text = open(sweep).read()
    write(str(own / "sweep.toml"), text)
    run_tool(["run", "sweep.toml", "--out", "."], cwd=str(own))
    assert open(str(own / "sweep.toml")).read() == text and os.path.isfile(str(own / "plan.json"))


@pytest.mark.parametrize("damage,words", [
    (lambda t: t[:len(t) // 2], "cut short: the JSON ends after"),
    (lambda t: "", "cut short: the file is empty"),
    (lambda t: t.replace('"runs"', '"runs" "x"', 1), "damaged: not valid JSON (Expecting ':' delimiter)"),
    (lambda t: json.dumps({"runs": 3}), "runs: expected a list"),
])
def test_a_damaged_plan_is_called_so(tmp_path, exercise, damage, words):
    sweep = small_sweep(str(tmp_path))
    run_tool(["run", sweep], cwd=str(tmp_path))
    path = tmp_path / "s.sweep" / "plan.json"
    path.write_text(damage(path.read_text()))
    for cmd in (["status"], ["collect"], ["report"]):
        p = run_tool(cmd + [str(tmp_path / "s.sweep")], cwd=str(tmp_path), check=False)
        assert p.returncode == 2, (cmd, p.stdout, p.stderr)
        assert "%s: " % path in p.stderr and words in p.stderr, (cmd, p.stderr)
        assert "found none: run the sweep first" not in p.stderr and "Traceback" not in p.stderr
        assert "run the sweep again (climio-sweep run SWEEP.toml: the runs already done are kept)" in p.stderr
    # running the sweep again writes it anew, and the runs already done stay done
    p = run_tool(["run", sweep], cwd=str(tmp_path))
    assert "2 run(s) already done were skipped" in p.stdout
    assert run_tool(["status", str(tmp_path / "s.sweep")], cwd=str(tmp_path)).returncode == 0


def launched(script):
    """What a real mpiexec prints for a real process that fails: (stderr, stdout)."""
    p = subprocess.run(["mpiexec", "-n", "1", "sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=tool_env(), timeout=120)
    assert p.returncode != 0
    return p.stderr, p.stdout


def test_program_error_line_on_real_launcher_output():
    # Open MPI surrounds a failure with rules of dashes; MPICH's Hydra with rules of '='
    assert program_error_line(*launched('echo "x: error: cannot open y" >&2; exit 3')) == "x: error: cannot open y"
    assert program_error_line(*launched('echo "Fatal: no memory" >&2; echo done >&2; exit 3')) == "Fatal: no memory"
    assert program_error_line(*launched('echo "the last words" >&2; exit 3')) == "the last words"
    # a program that reports on stdout (e3sm_io: "Error in FILE line N ...")
    # and ends through MPI_Abort on two ranks: Open MPI then adds its
    # help-aggregation lines to stderr, which are not the program's words
    err, out = launched('echo "Error in e3sm_io_driver.cpp line 245: I/O API is not set"; echo done; exit 3')
    for e in (err, err + "[vm:10892] 1 more process has sent help message help-mpi-api.txt / mpi-abort\n"
              '[vm:10892] Set MCA parameter "orte_base_help_aggregate" to 0 to see all help / error messages\n'):
        assert program_error_line(e, out) == "Error in e3sm_io_driver.cpp line 245: I/O API is not set", e
    err, out = launched("kill -SEGV $$")
    said = program_error_line(err, out)
    if "signal" in err.lower():
        assert said and "signal" in said.lower() and not said.startswith("---"), (said, err, out)
    else:   # a loaded machine: the launcher ended without its signal line, and no rule of dashes is quoted
        assert said is None or not said.startswith(("---", "===")), (said, err, out)
    # GNU time -v: its report is not the program's words
    timed = subprocess.run(["/usr/bin/time", "-v", "sh", "-c", 'echo "Error: ncopen failed" >&2; exit 1'],
                           stderr=subprocess.PIPE, text=True) if os.access("/usr/bin/time", os.X_OK) else None
    if timed is not None:
        assert "Exit status: 1" in timed.stderr
        assert program_error_line(timed.stderr) == "Error: ncopen failed"


def test_bench_combine_relays_the_programs_own_line(tmp_path):
    """A set whose members are not netCDF: mom_combine's own error line, not
    GNU time's last line ("Exit status: 1")."""
    if not os.access(MOM_COMBINE, os.X_OK):
        pytest.fail("%s is not built" % MOM_COMBINE)
    for k in range(2):
        write(str(tmp_path / ("a.nc.%04d" % k)), "not a netCDF file\n")
    p = subprocess.run([sys.executable, BENCH_COMBINE, "--bin", os.path.dirname(MOM_COMBINE), "--repetitions", "1",
                        str(tmp_path / "a.nc")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=tool_env(), timeout=300)
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert "bench-combine: mom_combine: exit status" in p.stderr, p.stderr
    # mom_combine speaks as FRE's mppnccombine does ("Error: ...")
    assert 'mom_combine: exit status 1: Error: input file "a.nc.0000" is not a netCDF file' in p.stderr, p.stderr
    assert "Exit status" not in p.stderr, p.stderr


@pytest.mark.parametrize("flag,target,why", [
    ("--csv", "s.toml", "is an input of this run"),
    ("--csv", "FOLDER:s.toml", "is an input of this run"),
    ("--csv", "s.sweep/plan.json", "is an input of this run"),
    ("--json", "s.sweep/sweep.toml", "is an input of this run"),
    ("--csv", "RUN/result.json", "which holds the sweep's own files"),
    ("--json", "fifo", "expected a regular file, found a FIFO"),
    ("--csv", "prog", "is a program (an executable or a script)"),
])
def test_collect_never_writes_over_the_sweeps_own_files(tmp_path, exercise, flag, target, why):
    """collect --csv/--json naming the sweep file (collect given the file, or
    the folder: the file its plan.json records), the sweep folder's plan.json
    or sweep.toml, a run's result, a FIFO (or a device) or a program: refused
    (exit 2, one line), the file as it was; a FIFO is never replaced by a
    regular file (collect wrote a temporary file and renamed it over the name
    given: over /dev/full, as root, too)."""
    sweep = small_sweep(str(tmp_path))
    run_tool(["run", sweep], cwd=str(tmp_path))
    prog = write(str(tmp_path / "prog"), "#!/bin/sh\nexit 0\n")
    os.chmod(prog, 0o755)
    os.mkfifo(str(tmp_path / "fifo"))
    run = os.path.join("s.sweep", "runs", sorted(os.listdir(str(tmp_path / "s.sweep" / "runs")))[0], "rep0")
    path = target.replace("RUN", run)
    full = path if os.path.isabs(path) else str(tmp_path / path)
    before = open(full, "rb").read() if os.path.isfile(full) else None
    # FOLDER: collect given the sweep folder; the sweep file is known from its plan.json
    given = sweep
    if path.startswith("FOLDER:"):
        path, full, given = path[7:], full.replace("FOLDER:", ""), "s.sweep"
        before = open(full, "rb").read()
    p = run_tool(["collect", given, flag, path], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and why in p.stderr and "Traceback" not in p.stderr, p.stdout + p.stderr
    if before is not None:
        assert open(full, "rb").read() == before
    if target == "fifo":
        assert stat.S_ISFIFO(os.lstat(full).st_mode)


def test_collect_csv_and_json_one_name(tmp_path, exercise):
    """--csv and --json naming one file: refused, not a traceback."""
    sweep = small_sweep(str(tmp_path))
    run_tool(["run", sweep], cwd=str(tmp_path))
    p = run_tool(["collect", sweep, "--csv", "x", "--json", "x"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "--csv and --json: expected two files, found one name for both" in p.stderr, \
        p.stdout + p.stderr
    assert not os.path.exists(str(tmp_path / "x"))


def test_report_of_one_sweep_twice_and_of_no_good_run(tmp_path, exercise):
    """report A A compared a sweep with itself (and --pool counted its runs
    twice): refused.  A sweep whose every run failed gets a page that lists the
    failures, and says that no result tells where the runs ran, not that the
    kernel is older than the run context; the command says so too, exit 1."""
    sweep = small_sweep(str(tmp_path))
    run_tool(["run", sweep], cwd=str(tmp_path))
    for extra in ([], ["--pool"]):
        p = run_tool(["report", "s.sweep", "./s.sweep/"] + extra, cwd=str(tmp_path), check=False)
        assert p.returncode == 2 and "are one sweep's folder" in p.stderr, p.stdout + p.stderr
    bad = small_sweep(str(tmp_path), "f")
    with open(bad, "a") as f:
        f.write("[launch]\nmpiexec = \"false\"\n")
    env = tool_env()
    env.pop("MPIEXEC", None)    # $MPIEXEC (make check sets it) wins over [launch] mpiexec
    assert run_tool(["run", bad], cwd=str(tmp_path), env=env, check=False).returncode == 1
    p = run_tool(["report", "f.sweep"], cwd=str(tmp_path), check=False)
    assert p.returncode == 1 and "report: no run finished well (2 failed: the page lists them)" in p.stderr, \
        p.stdout + p.stderr
    page = open(str(tmp_path / "f.sweep" / "report" / "report.html")).read()
    assert "No run finished well, so no result tells where the runs ran" in page, p.stdout + p.stderr
    assert "a kernel from before climio recorded it" not in page


@pytest.mark.parametrize("setting,line,words", [
    ('pioperf = "p.nl"', 6, "--pioperf runs PIO's pioperf experiment, whose JSON is pioperf's own record"),
    ('make_decomp = "block"\ngen_out = "g.dat"', 6, "--make_decomp writes a map file and exits"),
])
def test_a_mode_that_writes_no_result_is_refused_before_any_run(tmp_path, setting, line, words):
    """decomp_io's pioperf experiment and its map generator write no climio
    result: the sweep says so at the line that asks for them, before any run
    (it used to run every point and fail each on the result's schema)."""
    if not os.path.exists(os.path.join(BUILDDIR, "src", "decomp", "decomp_io")):
        pytest.skip("decomp_io is not built")
    write(str(tmp_path / "p.nl"), "&pioperf\n decompfile = 'BLOCK'\n pio_typenames = 'pnetcdf'\n nvars = 1\n/\n")
    sweep = write(str(tmp_path / "s.toml"), '[sweep]\nkernel = "decomp_io"\nnprocs = 1\n\n[parameters]\n%s\n' % setting)
    p = run_tool(["run", sweep, "--out", "o"], cwd=str(tmp_path), check=False)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "%s:%d: decomp_io writes no result a sweep can collect for " % (sweep, line) in p.stderr, p.stderr
    assert words in p.stderr, p.stderr
    assert not os.path.exists(str(tmp_path / "o" / "runs"))
