"""Checking a run's result.json against doc/results-schema.md before anything
reads it: every field the sweep uses, with its type.  A file that fails is a
failed run with a one-line reason; nothing downstream meets a wrong type."""

NUM = (int, float)
OPT_NUM = (int, float, type(None))
OPT_STR = (str, type(None))
REQUIRED = "required"

# One timer's figures (doc/results-schema.md, "Statistics").
TIMER = {"min": OPT_NUM, "mean": OPT_NUM, "max": OPT_NUM, "sum": OPT_NUM, "min_rank": OPT_NUM,
         "max_rank": OPT_NUM, "calls": OPT_NUM, "bytes": OPT_NUM}
END_TO_END = {"first_open_s": OPT_NUM, "last_close_s": OPT_NUM, "seconds": OPT_NUM,
              "write_bandwidth_MiBps": OPT_NUM, "read_bandwidth_MiBps": OPT_NUM}
STATS = {"timers": ("each", TIMER), "end_to_end": END_TO_END, "bytes": ("each", OPT_NUM)}

# --compression_reference's comparison (doc/compression.md)
COMPRESSION_TIME = {"reference": str, "runs": int, "filtered_seconds": OPT_NUM, "unfiltered_seconds": OPT_NUM,
                    "added_seconds": OPT_NUM, "added_fraction": OPT_NUM,
                    "unfiltered_write_bandwidth_MiBps": OPT_NUM, "unfiltered_repetitions": ("list", OPT_NUM)}

# field -> type(s), a nested dict, ("each", spec) for a dict of like values, or
# ("list", spec) for a list of like values; (spec, REQUIRED) for what must be there.
RESULT = {
    "schema": (str, REQUIRED),
    "schema_version": (int, REQUIRED),
    "kernel": (str, REQUIRED),
    "nprocs": (int, REQUIRED),
    "headline": str,
    "climio_version": str,
    "command_line": ("list", str),
    "host": (str, dict),      # a name (version 1 documents) or the machine's description
    "date": str,
    "parameter_file": str,
    "context": dict,
    "libraries": dict,
    "io": ({"driver": str, "iotype": str, "iotype_effective": str, "format": OPT_STR, "iotype_origin": str,
            "fsync": bool, "durable": bool, "verify_only": bool, "driver_report": OPT_STR}, REQUIRED),
    "config": ("each", {"origin": OPT_STR}),
    "not_applied": ("list", {"key": str, "note": str}),
    "partly_applied": ("list", {"key": str, "note": str}),
    "hints": {"requested": ("each", {"origin": OPT_STR}), "applied": dict},
    "repetitions": ("list", {"repetition": int, "seconds": OPT_NUM, "bytes": OPT_NUM,
                             "write_bandwidth_MiBps": OPT_NUM, "sync_seconds": OPT_NUM}),
    "summary": dict,
    "statistics": ("each", {"path": str, "reduction": str, "unit": OPT_STR}),
    "write": (STATS, REQUIRED),
    "readback": STATS,
    "checksums": ("each", str),
    "data": {"kind": str, "compression": dict, "compression_time": COMPRESSION_TIME},
    "storage": {"ratio": OPT_NUM, "data_bytes": OPT_NUM, "stored_bytes": OPT_NUM, "file_bytes": OPT_NUM},
    "verify": {"verdict": str, "mismatches": OPT_NUM, "performed": bool},
    "kernel_report": dict,
    "wall_seconds": OPT_NUM,
    "setup_seconds": OPT_NUM,
    "exit_status": int,
}


def _tname(t):
    if isinstance(t, tuple):
        return " or ".join(_tname(x) for x in t)
    return {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number",
            bool: "true or false", type(None): "null"}.get(t, t.__name__)


def _found(v):
    if isinstance(v, bool):
        return "true or false"
    return "%s %s" % (_tname(type(v)), repr(v)[:40] if not isinstance(v, (dict, list)) else "")


def _is(v, types):
    types = types if isinstance(types, tuple) else (types,)
    if isinstance(v, bool) and bool not in types:
        return False    # true is no number here
    return isinstance(v, types)


def _check(v, spec, where):
    if isinstance(spec, tuple) and len(spec) == 2 and spec[0] in ("each", "list"):
        kind, inner = spec
        want = dict if kind == "each" else list
        if not isinstance(v, want):
            return "%s: expected %s, found %s" % (where, _tname(want), _found(v).strip())
        items = v.items() if kind == "each" else enumerate(v)
        for k, x in items:
            why = _check(x, inner, "%s%s" % (where, ".%s" % k if kind == "each" else "[%d]" % k))
            if why:
                return why
        return None
    if isinstance(spec, dict):
        if not isinstance(v, dict):
            return "%s: expected an object, found %s" % (where, _found(v).strip())
        return _check_fields(v, spec, where + ".")
    if not _is(v, spec):
        return "%s: expected %s, found %s" % (where, _tname(spec), _found(v).strip())
    return None


def _check_fields(doc, spec, prefix=""):
    for key, s in spec.items():
        required = isinstance(s, tuple) and len(s) == 2 and s[1] == REQUIRED
        if required:
            s = s[0]
        if key not in doc:
            if required:
                return "%s%s: missing" % (prefix, key)
            continue
        why = _check(doc[key], s, prefix + key)
        if why:
            return why
    return None


def check_result(doc):
    """None when doc is a climio-result document the sweep can use, else why not
    (one line: the field, what was expected, what was found)."""
    if not isinstance(doc, dict):
        return "expected a JSON object, found %s" % _found(doc).strip()
    if doc.get("schema") != "climio-result":
        return "schema: expected \"climio-result\", found %s" % (
            _found(doc["schema"]).strip() if "schema" in doc else "none")
    why = _check_fields(doc, RESULT)
    if why:
        return why
    if doc["schema_version"] not in (1, 2):
        return "schema_version: expected 1 or 2, found %r" % doc["schema_version"]
    if doc["nprocs"] < 1:
        return "nprocs: expected a positive integer, found %r" % doc["nprocs"]
    return None


# The sweep's own files in each run folder (written by climio-sweep itself, but
# a user may have edited or truncated them).
RUN = {"point": str, "rep": OPT_NUM, "warmup": (bool, type(None)), "kernel": OPT_STR,
       "nprocs": OPT_NUM, "nodes": OPT_NUM, "settings": dict,
       "hints": dict}
STATUS = {"state": str, "reason": OPT_STR, "exit_status": OPT_NUM, "seconds": OPT_NUM}
PLAN = {"runs": ("list", str), "axes": ("list", {"key": (str, REQUIRED)}), "fixed": ("each", dict),
        "sweep": OPT_STR, "kernel": OPT_STR, "repetitions": OPT_NUM, "warmup": OPT_NUM}


def check_file(doc, spec):
    """None when doc is an object whose fields have spec's types, else why not."""
    if not isinstance(doc, dict):
        return "expected a JSON object, found %s" % _found(doc).strip()
    return _check_fields(doc, spec)
