"""Coverage-guided fuzz target (atheris, libFuzzer for Python) for the sweep-file
reader, scripts/climio_sweep/sweepfile.py: parse_text (TOML) and the checks
after it (from_text, what load() runs on a file's text).

    python3 tests/fuzz/fuzz_sweepfile.py [libFuzzer options] [CORPUS_DIR...]

scripts/fuzz runs it with atheris (doc/testing.md, "Fuzzing");
tests/scripts/test_sweepfile_fuzz_corpus.py replays the kept corpus
(tests/fuzz/corpus/sweepfile) through check() without atheris.

An input is a bug when the reader raises anything but a SweepError, or a
SweepError that is not one line "PATH:LINE: ..." with LINE in the text (PATH:
inputs/fuzz.toml, which need not exist), or when it accepts a sweep whose
name, [env] or hint names, timeout or whole numbers break the documented rules."""

import math
import os
import re
import shlex
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRCDIR = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(SRCDIR, "scripts")
# the name the text is read under: in inputs/, so the shipped samples' base
# parameter files (base = "zgrd.in.r3") are found and the checks after go on
PATH = os.path.join(SRCDIR, "inputs", "fuzz.toml")
MESSAGE = re.compile(re.escape(PATH) + r":([0-9]+): \S")
SAFE_NAME = re.compile(r"[A-Za-z0-9_.+-]+")
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HINT_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")

sweepfile = SweepError = None


def _import():
    global sweepfile, SweepError
    if sweepfile is None:
        if SCRIPTS not in sys.path:
            sys.path.insert(0, SCRIPTS)
        from climio_sweep import sweepfile as sf
        from climio_sweep.errors import SweepError as se
        sweepfile, SweepError = sf, se


def decode(data):
    """The text an input stands for (what a fuzzer's bytes become)."""
    return data.decode("utf-8", errors="replace")


def check(data):
    """Run one input through the reader; raise AssertionError (or the reader's
    own unexpected exception) on a bug, return the Sweep or the SweepError."""
    _import()
    text = decode(data)
    try:
        sw = sweepfile.from_text(text, PATH)
    except SweepError as e:
        msg = str(e)
        m = MESSAGE.match(msg)
        assert m, "a rejection that does not start with %s:LINE: %r" % (PATH, msg[:500])
        assert "Traceback" not in msg, msg[:500]
        nlines = text.count("\n") + 1
        assert 1 <= int(m.group(1)) <= nlines, "line %s of a %d-line text: %r" % (m.group(1), nlines, msg[:500])
        assert len(msg.splitlines()) == 1, "a rejection on more than one line: %r" % msg[:500]
        return e
    assert SAFE_NAME.fullmatch(sw.name) and sw.name not in (".", ".."), "accepted name %r" % sw.name
    assert isinstance(sw.timeout, float) and math.isfinite(sw.timeout) and sw.timeout >= 0, sw.timeout
    values = [sw.repetitions] + [v for a in sw.axes for v in a.values]
    values += [v for kind in sw.fixed.values() for v in kind.values()]
    for v in values:
        assert not isinstance(v, int) or -2 ** 63 <= v < 2 ** 63, "accepted a number beyond 64 bits"
    for kind, pattern in (("env", ENV_NAME), ("hint", HINT_NAME)):
        names = list(sw.fixed[kind]) + [a.name for a in sw.axes if a.kind == kind]
        for name in names:
            assert pattern.fullmatch(name), "accepted %s name %r" % (kind, name)
    return sw


def TestOneInput(data):
    check(data)


def main():
    import atheris
    with atheris.instrument_imports():
        try:   # instrumented too: its branches guide the fuzzer
            import tomllib  # noqa: F401
        except ImportError:
            try:
                import tomli  # noqa: F401
            except ImportError:
                sys.exit("fuzz_sweepfile: the sweep-file reader needs Python 3.11 (tomllib) or the tomli package")
        _import()
    # libFuzzer runs argv[0] through the shell for -merge=1 and -fork: make it
    # this Python with this script, not the script alone (not executable)
    argv = [" ".join(shlex.quote(a) for a in (sys.executable, os.path.abspath(__file__)))] + sys.argv[1:]
    atheris.Setup(argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
