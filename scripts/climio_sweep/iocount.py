"""Building and reading the LD_PRELOAD libraries that scripts/iocount,
scripts/peer-pfio and scripts/peer-fms put under a program: libiocount.c (write
requests per rank at the netCDF, PnetCDF, MPI-IO and POSIX levels) and
libfakenodes.c (nodes of N ranks on one machine).  Their C sources are found
beside the scripts (the source tree) or in $(datadir)/climio/tools (installed);
they are compiled with the MPI C compiler into a folder the caller gives, since
they must match the MPI the measured program runs with."""

import os
import shlex
import subprocess
import sys

SOURCES = ("libiocount.c", "libfakenodes.c")


def source(name):
    """The path of one of the C sources, or None."""
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    for d in (here, os.path.join(here, "..", "share", "climio", "tools"),
              os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return os.path.abspath(p)
    return None


class BuildError(Exception):
    """A library that could not be compiled: the compiler's words."""


def build(name, outdir, mpicc=None):
    """Compiles SOURCES' name (libiocount.c, libfakenodes.c) into outdir/<stem>.so
    with the MPI C compiler ($MPICC, else mpicc); returns its path."""
    src = source(name)
    if not src:
        raise BuildError("%s not found beside the script nor in share/climio/tools" % name)
    cc = shlex.split(mpicc or os.environ.get("MPICC") or "mpicc")
    out = os.path.join(outdir, os.path.splitext(name)[0] + ".so")
    cmd = cc + ["-std=gnu11", "-O2", "-shared", "-fPIC", "-o", out, src, "-ldl", "-lpthread"]
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        raise BuildError("%s: %s" % (cmd[0], e.strerror or e))
    if r.returncode != 0:
        raise BuildError("%s failed:\n%s" % (" ".join(cmd), r.stdout.strip()))
    return out


def preload(env, libs):
    """env with libs put in front of LD_PRELOAD."""
    env = dict(env)
    old = env.get("LD_PRELOAD", "")
    env["LD_PRELOAD"] = " ".join(list(libs) + ([old] if old else []))
    return env


def parse_line(line):
    """One report line as a dict: rank, spawned (ints), level, file, calls,
    bytes (ints), seconds (float), sizes {bytes: count} ("other" kept as -1)."""
    rec = {}
    for word in line.split(" "):
        if "=" not in word:
            continue
        k, v = word.split("=", 1)
        rec[k] = v
    if "file=" in line:
        # a path may hold spaces: everything between file= and " calls="
        rec["file"] = line.split("file=", 1)[1].rsplit(" calls=", 1)[0]
    out = {"rank": int(rec.get("rank", -1)), "spawned": int(rec.get("spawned", 0)), "level": rec.get("level", ""),
           "file": rec.get("file", ""), "calls": int(rec.get("calls", 0)), "bytes": int(rec.get("bytes", 0)),
           "seconds": float(rec.get("seconds", 0)), "sizes": {}}
    for pair in filter(None, rec.get("sizes", "").split(",")):
        k, n = pair.rsplit(":", 1)
        out["sizes"][-1 if k == "other" else int(k)] = int(n)
    return out


def read(folder):
    """Every process's report in folder: a list of line dicts, the process's
    own line (level "process") included; each gets "proc", its process label
    ("rank R", or "spawned rank R")."""
    recs = []
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("iocount.") and name.endswith(".txt")):
            continue
        with open(os.path.join(folder, name)) as f:
            for line in f:
                line = line.rstrip("\n")
                if line:
                    r = parse_line(line)
                    r["proc"] = ("spawned rank %d" if r["spawned"] else "rank %d") % r["rank"]
                    recs.append(r)
    return recs


def per_rank(recs, level, keep=None):
    """{process label: {"files": n, "calls": n, "bytes": n, "seconds": s, "sizes": {size: n}}}
    for one level, over the files keep(path) accepts (all by default)."""
    out = {}
    for r in recs:
        if r["level"] != level or (keep and not keep(r["file"])):
            continue
        d = out.setdefault(r["proc"], {"files": 0, "calls": 0, "bytes": 0, "seconds": 0.0, "sizes": {}})
        d["files"] += 1
        d["calls"] += r["calls"]
        d["bytes"] += r["bytes"]
        d["seconds"] += r["seconds"]
        for k, n in r["sizes"].items():
            d["sizes"][k] = d["sizes"].get(k, 0) + n
    return out


def proc_key(label):
    """Sort key of a process label: ranks first, then spawned ranks, by number."""
    return (label.startswith("spawned"), int(label.rsplit(" ", 1)[1]))


def sizes_text(sizes, most=4):
    """'N x S B, ...' for the most frequent request sizes."""
    items = sorted(sizes.items(), key=lambda kv: (-kv[1], kv[0]))
    words = ["%d x %s" % (n, "other" if k < 0 else "%d B" % k) for k, n in items[:most]]
    rest = sum(n for _, n in items[most:])
    if rest:
        words.append("%d more" % rest)
    return ", ".join(words)
