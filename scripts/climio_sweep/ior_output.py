"""IOR's printed results (https://github.com/hpc/ior, IOR 3.3 and 4.x), read
for bench-ior: the per-file rows of the "Results:" table (one per repetition;
with -m each repetition is a new file) and the "Summary of all tests:" line of
an operation, both found by their column names, not their positions.

IOR's own bandwidth of a row is the bytes of that file over its total(s), the
time from the first rank's open to the last rank's close; the time between
files (IOR's barriers, its file removal, its result reduction) is in no row.
The figure to put beside a program timed from its first open to its last close
is all the bytes over the sum of the rows' total(s)."""

import re


class NotIorOutput(ValueError):
    """The text is not the complete output of an IOR run of that operation."""


def _columns(header):
    return header.split()


def _rows(lines, op):
    """The Results table's rows of operation op, as {column: text}, in order."""
    head = None
    rows = []
    for line in lines:
        words = line.split()
        if not words:
            continue
        if words[0] == "access" and "total(s)" in words:
            head = words
            continue
        if head and words[0] == op and len(words) == len(head):
            rows.append(dict(zip(head, words)))
        elif line.startswith("Summary of all tests"):
            break
    return head, rows


def _summary(lines, op):
    """The summary line of operation op as {column: text}, or None."""
    for i, line in enumerate(lines):
        words = line.split()
        if words[:1] == ["Operation"] and "Mean(s)" in words:
            for row in lines[i + 1:]:
                w = row.split()
                if not w or w[0] in ("Finished", "Operation"):
                    break
                if w[0] == op and len(w) == len(words):
                    return dict(zip(words, w))
    return None


def _number(text, what):
    try:
        return float(text)
    except ValueError:
        raise NotIorOutput("%s: expected a number, found %r" % (what, text))


def parse(text, op="write"):
    """IOR's results for operation op ("write" or "read"): a dict with
    files (the rows: each {"iter", "bw_MiBps", "total_s", "open_s", "rdwr_s", "close_s"}),
    total_s (their sum), summary ({"mean_s", "mean_MiBps", "max_MiBps", "min_MiBps", "tasks",
    "reps", "block_bytes", "transfer_bytes", "segments", "api"}) and version (IOR's banner).
    Raises NotIorOutput saying what is missing."""
    lines = text.splitlines()
    m = re.search(r"^(IOR-\S+): MPI Coordinated Test of Parallel I/O", text, re.M)
    if not m:
        raise NotIorOutput("no IOR banner ('IOR-<version>: MPI Coordinated Test of Parallel I/O')")
    head, rows = _rows(lines, op)
    if head is None:
        raise NotIorOutput("no Results table (a line 'access ... total(s) iter')")
    need = ["bw(MiB/s)", "total(s)", "iter"]
    missing = [c for c in need if c not in head]
    if missing:
        raise NotIorOutput("the Results table lacks the column(s) %s" % ", ".join(missing))
    if not rows:
        raise NotIorOutput("no '%s' row in the Results table" % op)
    files = []
    for r in rows:
        f = {"iter": int(_number(r["iter"], "iter")), "bw_MiBps": _number(r["bw(MiB/s)"], "bw(MiB/s)"),
             "total_s": _number(r["total(s)"], "total(s)")}
        for col, key in (("open(s)", "open_s"), ("wr/rd(s)", "rdwr_s"), ("close(s)", "close_s")):
            if col in r:
                f[key] = _number(r[col], col)
        files.append(f)
    s = _summary(lines, op)
    if s is None:
        raise NotIorOutput("no '%s' line under 'Summary of all tests' (the run did not finish)" % op)
    summary = {"mean_s": _number(s.get("Mean(s)", "nan"), "Mean(s)"),
               "mean_MiBps": _number(s.get("Mean(MiB)", "nan"), "Mean(MiB)"),
               "max_MiBps": _number(s.get("Max(MiB)", "nan"), "Max(MiB)"),
               "min_MiBps": _number(s.get("Min(MiB)", "nan"), "Min(MiB)"),
               "tasks": int(_number(s.get("#Tasks", "nan"), "#Tasks")),
               "reps": int(_number(s.get("reps", "nan"), "reps")),
               "block_bytes": int(_number(s.get("blksiz", "nan"), "blksiz")),
               "transfer_bytes": int(_number(s.get("xsize", "nan"), "xsize")),
               "segments": int(_number(s.get("segcnt", "1"), "segcnt")),
               "api": s.get("API")}
    if summary["reps"] != len(files):
        raise NotIorOutput("the summary says %d repetitions, the Results table has %d '%s' rows"
                           % (summary["reps"], len(files), op))
    return {"version": m.group(1), "files": files, "total_s": sum(f["total_s"] for f in files), "summary": summary}


def error_line(text):
    """IOR's own 'ERROR: ...' line (the launcher's banners around it left out),
    as 'ior: ERROR: ...', or None."""
    for line in text.splitlines():
        if line.startswith("ERROR: ") or line.startswith("ior ERROR: "):
            return "ior: " + line.strip()
    return None


_SIZE = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


def size(text):
    """An IOR size option's value ('4m', '131072', '128k') in bytes."""
    m = re.match(r"^(\d+)([kmgt]?)$", text.strip().lower())
    if not m:
        raise ValueError("expected a size such as 131072, 128k or 4m, found %r" % text)
    return int(m.group(1)) * _SIZE[m.group(2)]


def options(words):
    """The shape of the data IOR options ask: {"files": -i, "block_bytes": -b,
    "transfer_bytes": -t, "segments": -s} with IOR's defaults (1, 1 MiB,
    256 KiB, 1); ValueError names an option without its value."""
    got = {"files": 1, "block_bytes": 1048576, "transfer_bytes": 262144, "segments": 1}
    keys = {"-i": ("files", int), "-b": ("block_bytes", size), "-t": ("transfer_bytes", size),
            "-s": ("segments", int)}
    for i, w in enumerate(words):
        if w in keys:
            if i + 1 >= len(words):
                raise ValueError("%s: expected a value after it" % w)
            key, conv = keys[w]
            try:
                got[key] = conv(words[i + 1])
            except ValueError as e:
                raise ValueError("%s %s: %s" % (w, words[i + 1], e))
    return got
