"""Coverage-guided fuzz target (atheris) for the sweep's handling of a base
parameter file: the kernel reads the base (--print_params), the sweep writes
each run's params.in from what the kernel read plus the sweep's settings
(scripts/climio_sweep/kernel.py, plan.py, prepare.py).

    python3 tests/fuzz/fuzz_sweepbase.py [libFuzzer options] [CORPUS_DIR...]

An input is the text of a base file for engine_exercise (the test kernel; the
build tree's src/exercise/engine_exercise, or $CLIMIO_EXERCISE).  The sweep over it sets
nx = 8 (spelled NX, as the kernel allows) and a hint.  It is a bug when:
- the sweep raises anything but a SweepError, or a SweepError that is not one
  line naming the sweep file with the kernel's own error line (or the sweep's
  refusal of a value that is not UTF-8, which it could not write back);
- the sweep accepts the base and the params.in it writes does not give, read
  by the kernel itself, exactly the settings of the base (as the kernel read
  it) with the sweep's on top: a key lost, a value changed by quoting, a
  comment taken for a value, a key the sweep sets left to the base;
- a run's identity does not hold the base's settings.
scripts/fuzz runs it; tests/scripts/test_sweepbase_fuzz_corpus.py replays the
kept corpus (tests/fuzz/corpus/sweepbase) without atheris."""

import os
import shlex
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(SRCDIR, "scripts")
SWEEP = """[sweep]
name = "fuzz"
kernel = "engine_exercise"
executable = "%s"
base = "base.in"
nprocs = 1
[parameters]
NX = 8
[hints]
cb_nodes = 1
"""

kernel = sweepfile = prepare = SweepError = None


def _import():
    global kernel, sweepfile, prepare, SweepError
    if kernel is None:
        if SCRIPTS not in sys.path:
            sys.path.insert(0, SCRIPTS)
        from climio_sweep import kernel as k, prepare as p, sweepfile as s
        from climio_sweep.errors import SweepError as e
        kernel, prepare, sweepfile, SweepError = k, p, s, e


def exercise():
    exe = os.environ.get("CLIMIO_EXERCISE") or os.path.join(
        os.environ.get("top_builddir") or SRCDIR, "src", "exercise", "engine_exercise")
    if not os.access(exe, os.X_OK):
        raise RuntimeError("%s is not built (make)" % exe)
    return os.path.abspath(exe)


def environment():
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    env.pop("PNETCDF_HINTS", None)
    return env


def settings(exe, path, env):
    """{key: value} of every key the kernel says path sets (values as it read them)."""
    kp = kernel.print_params(exe, path, [], env)
    assert kp is not None, "%s --print_params did not run" % exe
    return {k: v for k, v, _ in kp.from_file()}


def check(data):
    """Run one base file through the sweep; raise AssertionError on a bug.
    Returns the SweepError or the records."""
    _import()
    exe = exercise()
    env = environment()
    with tempfile.TemporaryDirectory(prefix="fuzz-sweepbase-") as tmp:
        with open(os.path.join(tmp, "base.in"), "wb") as f:
            f.write(data)
        path = os.path.join(tmp, "fuzz.toml")
        with open(path, "w") as f:
            f.write(SWEEP % exe)
        try:
            sw = sweepfile.load(path)
            kernel.forget_answers()     # one run of the tool per input: base.in is new each time
            kernel.output_folder(sw, exe, env)
            base = kernel.check_parameters(sw, exe, env)
            assert base is not None, "%s --print_params did not run" % exe
            records = prepare.run_records(sw, os.path.join(tmp, "out"), exe, base)
        except SweepError as e:
            msg = str(e)
            assert "Traceback" not in msg and len(msg.splitlines()) == 1, "not one line: %r" % msg[:500]
            assert msg.startswith(path + ":"), "does not name the sweep file: %r" % msg[:300]
            assert ": engine_exercise: error: " in msg or "base: expected UTF-8 text" in msg, \
                "not the kernel's own words: %r" % msg[:300]
            return e
        want_base = {k: v for k, v, _ in base.from_file()}
        assert len(records) == 1
        for rec in records:
            assert rec["base_settings"] == want_base, "the identity lacks the base's settings"
            p = os.path.join(tmp, "params-%d.in" % rec["params"]["NX"])
            with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(rec["parameter_file"])
            got = settings(exe, p, env)
            want = dict(want_base)
            want["nx"] = str(rec["params"]["NX"])
            hints = [h for h in (want_base.get("hints") or "").split(";") if "=" in h]
            hints = dict((h.split("=", 1)[0].strip(), h.split("=", 1)[1].strip()) for h in hints)
            hints["cb_nodes"] = "1"
            want["hints"] = ";".join("%s=%s" % kv for kv in hints.items())
            out = base.canonical(sw.output_parameter)
            want[out] = rec["data_dir"]
            # files named relative to the base file are made absolute
            for k, v in want_base.items():
                if k in rec["input_files"] and k not in ("nx", "hints", out):
                    want[k] = rec["input_files"][k]["path"]
            assert got == want, "params.in read by the kernel differs from base + sweep:\n%s\n--- got %r\n--- " \
                                "want %r" % (rec["parameter_file"], got, want)
        return records


def TestOneInput(data):
    check(data)


def main():
    import atheris
    with atheris.instrument_imports():
        _import()
    exercise()
    argv = [" ".join(shlex.quote(a) for a in (sys.executable, os.path.abspath(__file__)))] + sys.argv[1:]
    atheris.Setup(argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
