"""Bad sweep files: every problem is one line "file:line: what was expected,
what was found" on stderr, exit status 2, and nothing is run or written."""

import os
import subprocess

import pytest

from conftest import run_tool

HEAD = '[sweep]\nkernel = "engine_exercise"\n'

CASES = [
    # (name, sweep file, line, message)
    ("toml-syntax", HEAD + "nprocs = [1, 2\n", 3, "expected valid TOML: Unclosed array; found: the end of the file"),
    ("toml-syntax-line", HEAD + "nprocs = 1\nrepetitions 2\n[hints]\n", 4,
     "expected valid TOML: Expected '=' after a key in a key/value pair; found: repetitions 2"),
    ("no-sweep-table", '[parameters]\nnx = 1\n', 1, "expected a [sweep] table (with at least kernel and nprocs)"),
    ("no-kernel", "[sweep]\nnprocs = 1\n", 1, "expected 'kernel' in [sweep]"),
    ("no-nprocs", HEAD, 1, "expected 'nprocs' in [sweep] (a process count from 1 to 2147483647 (MPI's int) or a list of them), found none"),
    ("unknown-table", HEAD + "nprocs = 1\n[paramaters]\nnx = 1\n", 4,
     "found 'paramaters' (did you mean 'parameters'?)"),
    ("unknown-key", HEAD + "repetitons = 2\nnprocs = 1\n", 3,
     "expected one of the [sweep] keys (name, kernel, executable, base, output, data_dir, keep_data, "
     "output_parameter, repetitions, order, seed, warmup, nprocs, nodes, timeout), found 'repetitons' "
     "(did you mean 'repetitions'?)"),
    ("nprocs-type", HEAD + 'nprocs = "two"\n', 3,
     "nprocs: expected a process count from 1 to 2147483647 (MPI's int) or a list of them, found a string "
     '("two")'),
    ("nprocs-zero", HEAD + "nprocs = [0, 2]\n", 3,
     "nprocs: expected a process count from 1 to 2147483647 (MPI's int) or a list of them, found a list ([0, 2])"),
    ("nprocs-duplicate", HEAD + "nprocs = [1, 1]\n", 3, "nprocs: expected distinct values, found [1, 1]"),
    # a process count MPI cannot hold (an int): refused here, not by every run's launcher
    ("nprocs-huge", HEAD + "nprocs = 1000000000000000000\n", 3,
     "nprocs: expected a process count from 1 to 2147483647 (MPI's int) or a list of them, found a number "
     "(1000000000000000000)"),
    ("repetitions", HEAD + "nprocs = 1\nrepetitions = 0\n", 4,
     "repetitions: expected a whole number from 1 to 1000, found a number (0)"),
    # counts with an upper bound, and a bound on the whole grid: refused here, not by a MemoryError later
    ("repetitions-huge", HEAD + "nprocs = 1\nrepetitions = 100000000\n", 4,
     "repetitions: expected a whole number from 1 to 1000, found a number (100000000)"),
    ("warmup-huge", HEAD + "nprocs = 1\nwarmup = 100000000\n", 4,
     "warmup: expected a whole number from 0 to 100 (warm-up rounds, left out of the results), found a number "
     "(100000000)"),
    ("runs-too-many", HEAD + "nprocs = [1, 2]\nrepetitions = 1000\nwarmup = 1\n[parameters]\n"
     "nx = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n", 4,
     "expected at most 20000 runs (points x (repetitions + warm-up rounds)), found 20020 (20 points x 1001)"),
    ("grid-too-large", HEAD + "nprocs = 1\n[parameters]\n" + "".join(
        "p%d = [%s]\n" % (i, ", ".join(str(v) for v in range(1, 11))) for i in range(7)), 1,
     "expected at most 1000000 points in the grid of swept values, found 10000000 (1 x 10 x 10 x 10 x 10 x 10 x 10 "
     "x 10)"),
    ("keep-data-type", HEAD + 'nprocs = 1\nkeep_data = "yes"\n', 4,
     'keep_data: expected true or false, found a string ("yes")'),
    ("empty-list", HEAD + "nprocs = 1\n[parameters]\niotype = []\n", 5,
     "iotype: expected a non-empty list of values, found []"),
    ("nested-list", HEAD + "nprocs = 1\n[parameters]\nnx = [[1, 2]]\n", 5,
     "nx: expected a list of strings, numbers or booleans, found a list ([1, 2]) in it"),
    ("unknown-parameter", HEAD + 'nprocs = 1\n[parameters]\nnx = 8\niotyp = ["blocking_collective"]\n', 6,
     "engine_exercise refuses nx = 8, iotyp = \"blocking_collective\": engine_exercise: error: command line: "
     "unknown option '--iotyp=blocking_collective' (did you mean '--iotype'?)"),
    ("bad-choice", HEAD + 'nprocs = 1\n[parameters]\niotype = ["blocking", "nonblocking_collective"]\n', 5,
     "engine_exercise: error: command line: iotype expects one of nonblocking_collective|nonblocking_independent|"
     "blocking_collective|blocking_independent, found 'blocking'"),
    ("bad-int", HEAD + 'nprocs = 1\n[parameters]\nnx = ["big"]\n', 5,
     "engine_exercise: error: command line: nx expects an integer, found 'big'"),
    ("bad-bool", HEAD + 'nprocs = 1\n[parameters]\nverify = "maybe"\n', 5,
     "engine_exercise: error: command line: verify expects true or false, found 'maybe'"),
    ("driver-not-built", HEAD + 'nprocs = 1\n[parameters]\ndriver = ["null", "nosuch"]\n', 5,
     'engine_exercise cannot run driver = "nosuch": command line: driver \'nosuch\' is not built into this '
     'engine_exercise; drivers built: '),
    ("reserved-json", HEAD + 'nprocs = 1\n[parameters]\njson = "x.json"\n', 5,
     "json: expected a kernel parameter the sweep does not set itself, found 'json' (the sweep passes --json "
     "itself)"),
    ("reserved-output", HEAD + 'nprocs = 1\n[parameters]\nout = "x"\n', 5,
     "out: expected a kernel parameter the sweep does not set itself, found 'out' (the sweep sets each run's "
     "output folder; use data_dir in [sweep])"),
    ("hints-in-parameters", HEAD + 'nprocs = 1\n[parameters]\nhints = "cb_nodes=2"\n', 5,
     "put MPI-IO hints in the [hints] table"),
    ("hint-value", HEAD + 'nprocs = 1\n[hints]\ncb_nodes = "1;romio_cb_write=enable"\n', 5,
     "cb_nodes: expected a hint value (a string or number without ';' or '='), found "
     '"1;romio_cb_write=enable"'),
    ("env-name", HEAD + 'nprocs = 1\n[env]\n"1BAD" = "x"\n', 5,
     "expected an environment variable name (letters, digits, _), found '1BAD'"),
    ("exclude-unknown", HEAD + "nprocs = [1, 2]\n[hints]\ncb_nodes = [1, 2]\n[[exclude]]\nhints.cb_node = 2\n", 7,
     "expected a swept setting (one of hints.cb_nodes, nprocs), found 'hints.cb_node' "
     "(did you mean 'hints.cb_nodes'?)"),
    ("exclude-value", HEAD + "nprocs = [1, 2]\n[[exclude]]\nnprocs = 3\n", 5,
     "nprocs: expected one of the swept values 1, 2, found 3"),
    ("exclude-second", HEAD + "nprocs = [1, 2]\n[[exclude]]\nnprocs = 1\n[[exclude]]\nnprocs = 4\n", 7,
     "nprocs: expected one of the swept values 1, 2, found 4"),
    ("exclude-single-bracket", HEAD + "nprocs = [1, 2]\n[exclude]\nnprocs = 1\n", 4,
     "expected [[exclude]] tables (double brackets), found a single [exclude] table"),
    ("exclude-everything", HEAD + "nprocs = [1, 2]\n[[exclude]]\nnprocs = [1, 2]\n", 4,
     "expected at least one run, found none: the exclusions remove every point"),
    ("base-missing", HEAD + 'base = "nosuch.in"\nnprocs = 1\n', 3,
     "base: expected an existing parameter file (relative to the sweep file), found 'nosuch.in'"),
    ("kernel-missing", '[sweep]\nnprocs = 1\nkernel = "no_such_kernel"\n', 3,
     "kernel: expected a program named 'no_such_kernel' in $CLIMIO_BINDIR, $PATH or the build tree, found none"),
    ("executable-missing", HEAD + 'nprocs = 1\nexecutable = "bin/nothing"\n', 4,
     "executable: expected an executable program, found"),
    ("slurm-throttle", HEAD + "nprocs = 1\n[slurm]\nthrottle = 0\n", 5,
     "throttle: expected a whole number >= 1 (array tasks running at once), found a number (0)"),
    ("slurm-args", HEAD + 'nprocs = 1\n[slurm]\nsrun_args = "--mpi=pmix"\n', 5,
     'srun_args: expected a list of strings, found a string ("--mpi=pmix")'),
    ("pbs-flavor", HEAD + 'nprocs = 1\n[pbs]\nflavor = "lsf"\n', 5,
     'flavor: expected "pro" (PBS Pro, OpenPBS) or "torque", found a string ("lsf")'),
    ("name", HEAD + 'nprocs = 1\nname = "my sweep"\n', 4,
     'name: expected letters, digits and . _ + - only, found "my sweep"'),
]


BATCH_TOO = {"toml-syntax", "unknown-parameter", "exclude-value", "slurm-throttle", "kernel-missing"}


@pytest.mark.parametrize("name,text,line,msg", CASES, ids=[c[0] for c in CASES])
def test_bad_sweep_file(tmp_path, exercise, name, text, line, msg):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    # every case through `run`; a few also through the batch commands, which share the reader
    cmds = [["run"]] + ([["submit", "--dry-run"], ["pbs", "--dry-run"]] if name in BATCH_TOO else [])
    for cmd in cmds:
        p = run_tool(cmd + [str(path)], cwd=str(tmp_path), check=False)
        assert p.returncode == 2, (name, p.stdout, p.stderr)
        err = p.stderr.strip()
        assert err.startswith("climio-sweep: error: %s:%d: " % (path, line)), err
        assert msg in err, err
        assert len(err.splitlines()) == 1, err
        assert "Traceback" not in p.stderr
    assert os.listdir(str(tmp_path)) == ["bad.toml"], "nothing written"


def test_binary_and_empty_files(tmp_path, exercise):
    path = tmp_path / "bad.toml"
    path.write_bytes(bytes(range(256)) * 4)
    p = run_tool(["run", str(path)], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "%s:1: expected a UTF-8 text (TOML) file, found binary data" % path in p.stderr
    path.write_bytes(b"\x00\x01\x02 = 3\n")
    p = run_tool(["run", str(path)], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "%s:1: expected valid TOML" % path in p.stderr
    path.write_text("")
    p = run_tool(["run", str(path)], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "%s:1: expected a [sweep] table" % path in p.stderr
    p = run_tool(["run", str(tmp_path / "none.toml")], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "none.toml: cannot read the sweep file: No such file or directory" in p.stderr
    p = run_tool(["report", str(tmp_path)], cwd=str(tmp_path), check=False)
    assert p.returncode == 2 and "expected a sweep output folder (runs/), found none" in p.stderr


def test_a_fifo_sweep_file(tmp_path, exercise):
    """A sweep file given as a pipe is read once something writes it (a shell's
    <(...)); a FIFO nothing writes to is refused after 10 s, not read forever."""
    fifo = tmp_path / "f.toml"
    os.mkfifo(str(fifo))
    p = run_tool(["run", str(fifo), "--dry-run"], cwd=str(tmp_path), check=False, timeout=60)
    assert p.returncode == 2 and "f.toml: a FIFO (named pipe) nothing wrote to in 10 s" in p.stderr, p.stderr
    writer = subprocess.Popen(["sh", "-c", "sleep 1; printf '%s' > '%s'" % (HEAD + "nprocs = 1\n", fifo)])
    p = run_tool(["run", str(fifo), "--dry-run"], cwd=str(tmp_path), check=False, timeout=60)
    writer.wait()
    assert p.returncode == 0 and "would run" in p.stdout, p.stdout + p.stderr
