"""Replay every input the sweep-file fuzzer kept (tests/fuzz/corpus/sweepfile,
grown by scripts/fuzz with atheris) through the reader, without atheris: each
is read or rejected with a one-line SweepError "FILE:LINE: ..." naming the
file, never another exception (tests/fuzz/fuzz_sweepfile.py says what else it
checks)."""

import importlib.util
import os

import pytest

from conftest import SRCDIR

CORPUS = os.path.join(SRCDIR, "tests", "fuzz", "corpus", "sweepfile")
TARGET = os.path.join(SRCDIR, "tests", "fuzz", "fuzz_sweepfile.py")


@pytest.fixture(scope="module")
def target():
    spec = importlib.util.spec_from_file_location("fuzz_sweepfile", TARGET)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod._import()
    return mod


FILES = sorted(os.listdir(CORPUS)) if os.path.isdir(CORPUS) else []


def test_corpus_is_there():
    assert len(FILES) >= 10, "expected the fuzz corpus in %s, found %d file(s)" % (CORPUS, len(FILES))
    assert any(f.startswith("seed-inputs-") for f in FILES), "the shipped sample sweeps are seeds"


@pytest.mark.parametrize("name", FILES)
def test_replay(target, name):
    with open(os.path.join(CORPUS, name), "rb") as f:
        data = f.read()
    # check() raises on anything but success or a one-line SweepError naming the file
    result = target.check(data)
    if isinstance(result, target.SweepError):
        assert str(result).startswith(target.PATH + ":")


# What the reader once got wrong (crash-*: found by the fuzzer, bug-*: by hand
# while fixing those): the line and message it gives now.
FIXED = {
    # a form feed or \u2028 counted as a line break: lines beyond the end
    "crash-5dbd40eeb08f91b82221df3dd803c571aef32664": (2, "expected valid TOML: Expected \"'\""),
    "crash-396c1429172a90f171e531402cf5640707c9e875": (1, "expected valid TOML: Expected \"'\""),
    "bug-comment-u2028.toml": (5, "found 'foo'"),
    # a \r, \n or \u2028 (TOML escapes) shown raw: a message on two lines
    "crash-587d0a2cefce5eb9ff283b6362d3113f65418650": (28, "found 'MY_\\rSAR'"),
    "crash-9f094f40e1c90c578b69810476cdf8fb28f73459": (5, 'found "1\\rmmio_cb_write=enable"'),
    "crash-27ffa2d20c2f634135add7a9e4dcd79c4f7a3a8d": (6, "found 'zgrd.in\\r.r3'"),
    "bug-key-u2028.toml": (4, "found 'a\\u2028b'"),
    # names ending in a newline accepted ($ matches before a final \n)
    "bug-name-newline.toml": (4, 'name: expected letters, digits and . _ + - only, found "abc\\n"'),
    "bug-env-name-newline.toml": (5, "expected an environment variable name (letters, digits, _), found 'A\\n'"),
    "bug-hint-name-newline.toml": (5, "expected an MPI-IO hint name, found 'cb_nodes\\n'"),
    # whole numbers beyond 64 bits accepted, or a Python ValueError / OverflowError
    "crash-248204dcf65537b859740f6e2fdd8bf2a45a98bd": (8, "nprocs: expected a process count from 1 to 2147483647"),
    "bug-parameter-65-bits.toml": (5, "x: expected whole numbers from -2^63 to 2^63-1, found 36893488147419103231"),
    "bug-hex-parameter.toml": (5, "x: expected whole numbers from -2^63 to 2^63-1, found 0xfff"),
    "bug-hex-keep-data.toml": (4, "keep_data: expected true or false, found a number (0xfff"),
    "bug-hex-exclude.toml": (5, "nprocs: expected one of the swept values 1, 2, found 0xfff"),
    "bug-hex-timeout.toml": (4, "timeout: expected seconds >= 0 (0: no limit), found a number (1721847945"),
    "bug-int-too-long.toml": (5, "expected valid TOML: a number of at most 4300 digits; found: a number of 4401 digits"),
    # nan and inf accepted as a timeout
    "bug-timeout-nan.toml": (4, "timeout: expected seconds >= 0 (0: no limit), found a number (nan)"),
    "bug-timeout-inf.toml": (4, "timeout: expected seconds >= 0 (0: no limit), found a number (inf)"),
    # RecursionError
    "bug-deep-array.toml": (5, "expected valid TOML: arrays or inline tables nested too deeply"),
    "bug-deep-inline-table.toml": (5, "expected valid TOML: arrays or inline tables nested too deeply"),
    "bug-deep-dotted-key.toml": (None, None),
    # Python's repr in a message, a wrong "found"
    "bug-date-value.toml": (5, "expected a list of strings, numbers or booleans, found a date or time (1979-05-27) in it"),
    "bug-exclude-not-tables.toml": (1, "expected [[exclude]] with at least one 'axis = value' line, found a number (1)"),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_fixed(target, name):
    line, msg = FIXED[name]
    with open(os.path.join(CORPUS, name), "rb") as f:
        result = target.check(f.read())
    if msg is None:
        assert not isinstance(result, target.SweepError), str(result)
    else:
        assert str(result).startswith("%s:%d: " % (target.PATH, line)), str(result)[:300]
        assert msg in str(result), str(result)[:300]


def test_the_checker_catches_bugs(target, monkeypatch):
    """The replay would notice a message without the file or on two lines, and
    any other exception."""
    def raises(exc):
        def from_text(text, path):
            raise exc
        return from_text
    for exc in (target.SweepError("something is wrong"), target.SweepError(target.PATH + ":1: two\nlines"),
                target.SweepError(target.PATH + ":9: line 9 of a 1-line file")):
        monkeypatch.setattr(target.sweepfile, "from_text", raises(exc))
        with pytest.raises(AssertionError):
            target.check(b"x = 1\n")
    monkeypatch.setattr(target.sweepfile, "from_text", raises(KeyError("x")))
    with pytest.raises(KeyError):
        target.check(b"x = 1\n")
