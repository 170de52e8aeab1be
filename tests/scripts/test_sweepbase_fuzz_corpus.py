"""Replay every base file the base-file fuzzer kept (tests/fuzz/corpus/sweepbase,
grown by scripts/fuzz with atheris) through the sweep, without atheris: each is
refused with one line naming the sweep file and the kernel's own error, or the
params.in the sweep writes reads back, by the kernel itself, as the base's
settings with the sweep's on top (tests/fuzz/fuzz_sweepbase.py says what else
it checks).  Real engine_exercise --print_params calls."""

import importlib.util
import os

import pytest

from conftest import SRCDIR

CORPUS = os.path.join(SRCDIR, "tests", "fuzz", "corpus", "sweepbase")
TARGET = os.path.join(SRCDIR, "tests", "fuzz", "fuzz_sweepbase.py")
FILES = sorted(os.listdir(CORPUS)) if os.path.isdir(CORPUS) else []


@pytest.fixture(scope="module")
def target(exercise):
    os.environ.setdefault("CLIMIO_EXERCISE", exercise)
    spec = importlib.util.spec_from_file_location("fuzz_sweepbase", TARGET)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._import()
    return mod


def test_corpus_is_there():
    assert len(FILES) >= 10, "expected the fuzz corpus in %s, found %d file(s)" % (CORPUS, len(FILES))


RESULTS = {}


def replay(target, name):
    """check() on a corpus file, once (each costs a few kernel runs)."""
    if name not in RESULTS:
        with open(os.path.join(CORPUS, name), "rb") as f:
            RESULTS[name] = target.check(f.read())
    return RESULTS[name]


@pytest.mark.parametrize("name", FILES)
def test_replay(target, name):
    replay(target, name)


# What each hand-made seed shows: accepted (None) or refused with these words.
EXPECT = {
    "seed-plain": None, "seed-spellings": None, "seed-quotes": None, "seed-hints-file": None,
    "seed-comments": None, "seed-crlf": None, "seed-duplicate-same": None, "seed-driver": None,
    "seed-value-comment-chars": None, "seed-value-double-quote": None,
    "seed-bad-key": "base.in:1: unknown key 'nyy' (did you mean 'ny'?)",
    "seed-bad-value": "base.in:1: ny expects an integer, found 'big'",
    "seed-duplicate-different": "base.in:2: duplicate key 'ny' with a different value",
    "seed-empty": "base.in: file is empty",
    "seed-command-line-key": "base.in:1: dry_run is a command-line option, not a parameter-file key",
    "seed-not-utf8": "base: expected UTF-8 text, found a byte that is not UTF-8 in hints_file",
}


@pytest.mark.parametrize("name", sorted(EXPECT))
def test_seed(target, name):
    result = replay(target, name)
    if EXPECT[name] is None:
        assert not isinstance(result, target.SweepError), str(result)
    else:
        assert isinstance(result, target.SweepError) and EXPECT[name] in str(result), str(result)


def test_the_checker_catches_a_lost_setting(target, monkeypatch):
    """A writer that drops a base line is noticed."""
    real = target.prepare.planmod.parameter_file

    def lossy(*a, **kw):
        text, files = real(*a, **kw)
        return "\n".join(l for l in text.split("\n") if not l.startswith("ny ")) + "\n", files
    monkeypatch.setattr(target.prepare.planmod, "parameter_file", lossy)
    with pytest.raises(AssertionError, match="params.in read by the kernel differs"):
        target.check(b"ny 20\n")
