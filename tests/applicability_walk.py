#!/usr/bin/env python3
"""Walk a program's applicability table (--print_params "applicability") and
run every cell of every row twice, without and with the row's setting: the
setting must be said to have no effect (the JSON's not_applied) exactly when it
changed nothing, the files' bytes and the JSON compared, and a setting said to
apply only in part (partly_applied) must have changed something.

  applicability_walk.py --prog BIN --work DIR [--base 'ARGS'] [--own] [--expect-unseen KEY ...]

--own walks only the program's own rows (a kernel's), else every row.  A cell
is "driver" (every driver built, one format of each kind) or the row's '|'
separated argument lists; 'np=N' in a cell or a base runs N processes (one
process starts as an MPI singleton).  Every row must meet one cell in which the
note is said, unless its key is given to --expect-unseen (a mode this build
cannot reach).  Prints one line per cell and a summary; exit status 1 on any
mismatch.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

FILES_HINTS = "cb_nodes 1\n"


def driver_cells(drivers):
    """One cell per driver and kind of format: its classic format (the last, CDF-5
    where it has it), each netCDF-4 kind, and any other."""
    cells = []
    for name, d in drivers.items():
        fmts = d["formats"]
        classic = [f for f in fmts if f.startswith("cdf")]
        picked = ([classic[-1]] if classic else []) + [f for f in fmts if not f.startswith("cdf")]
        cells += ["--driver %s --format %s" % (name, f) for f in picked]
    return cells


def split_np(args):
    """'ARGS np=2' -> (2, [ARGS])."""
    np, out = 1, []
    for w in shlex.split(args or ""):
        if w.startswith("np="):
            np = int(w[3:])
        else:
            out.append(w)
    return np, out


def digest_file(path, h5dump):
    """The file's bytes, or for an HDF5 file (which holds its objects' times)
    what h5dump shows of it: values, types, attributes, storage and filters."""
    with open(path, "rb") as fh:
        data = fh.read()
    if h5dump and data[:8] == b"\x89HDF\r\n\x1a\n":
        p = subprocess.run([h5dump, "-p", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        data = p.stdout.replace(path.encode(), b"FILE")
    return hashlib.sha256(data).hexdigest()


def digest_tree(folder, h5dump):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            out[os.path.relpath(p, folder)] = digest_file(p, h5dump)
    return out


DROP = {"command_line", "date", "config", "not_applied", "partly_applied", "host", "context", "libraries",
        "headline", "wall_seconds", "setup_seconds", "mpi_io_environment", "memory", "requested", "fsync_mode",
        "compression", "flagged", "planner_memory_bytes"}


def canon(x):
    """The JSON without what varies from run to run or echoes the settings: numbers
    that are not counts become zero / non-zero."""
    if isinstance(x, dict):
        # a hint the run says is "not applicable" did nothing
        return {k: canon(v) for k, v in x.items() if k not in DROP and not k.endswith("_rank") and "memory" not in k
                and not (isinstance(v, dict) and v.get("status") == "not applicable")}
    if isinstance(x, list):
        return [canon(v) for v in x]
    if isinstance(x, float):
        return "0" if x == 0 else "x"
    return x


class Walker:
    def __init__(self, a):
        self.a = a
        self.prog = a.prog
        self.name = os.path.basename(a.prog)
        self.cache = {}
        self.failures = 0
        self.nruns = 0

    def launch(self, np, args, tag):
        work = os.path.join(self.a.work, tag)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        for f in self.a.copy:
            shutil.copy(f, work)
        with open(os.path.join(work, "hints.txt"), "w") as fh:
            fh.write(FILES_HINTS)
        cmd = ([] if np == 1 else shlex.split(self.a.mpiexec) + ["-n", str(np)]) + [self.prog] + args + \
              ["--json", "r.json"]
        # files that hold the time they were made (decomp_io's rundate) take it from here
        env = dict(os.environ, SOURCE_DATE_EPOCH=os.environ.get("SOURCE_DATE_EPOCH", "0"))
        p = subprocess.run(cmd, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=300)
        self.nruns += 1
        res = {"rc": p.returncode, "err": p.stderr, "files": {}, "json": None, "noted": set(), "partly": set(),
               "text": text_shape(p.stdout, work)}
        for root in self.a.outputs:
            if os.path.isdir(os.path.join(work, root)):
                res["files"].update({root + "/" + k: v for k, v in
                                     digest_tree(os.path.join(work, root), self.a.h5dump).items()})
            elif os.path.isfile(os.path.join(work, root)):
                res["files"][root] = digest_file(os.path.join(work, root), self.a.h5dump)
        try:
            with open(os.path.join(work, "r.json")) as fh:
                d = json.load(fh)
            res["json"] = canon(d)
            res["config"] = d.get("config", {})
            res["noted"] = {n["key"] for n in d.get("not_applied", [])}
            res["partly"] = {n["key"] for n in d.get("partly_applied", [])}
        except (OSError, ValueError):
            for line in p.stderr.splitlines():   # a failed run: its notes on stderr
                pre = self.name + ": note: "
                if line.startswith(pre) and " has no effect" in line:
                    res["noted"].add(line[len(pre):].split(" ")[0])
        return res

    def baseline(self, np, args):
        """The run without the setting, twice: what differs between the two is noise."""
        key = (np, tuple(args))
        if key not in self.cache:
            r1 = self.launch(np, args, "base1")
            r2 = self.launch(np, args, "base2")
            r1["noise"] = {f for f in r1["files"] if r1["files"][f] != r2["files"].get(f)}
            r1["json_noisy"] = r1["json"] != r2["json"]
            r1["text_noisy"] = r1["text"] != r2["text"]
            self.cache[key] = r1
        return self.cache[key]

    def run_with(self, np, args):
        """The run with the setting (two rows of one key share their cells)."""
        key = ("with", np, tuple(args))
        if key not in self.cache:
            self.cache[key] = self.launch(np, args, "with")
        return self.cache[key]

    def changed(self, b, w):
        if (b["rc"] == 0) != (w["rc"] == 0):
            return "exit status %d -> %d" % (b["rc"], w["rc"])
        if set(b["files"]) != set(w["files"]):
            return "files %s" % sorted(set(b["files"]) ^ set(w["files"]))
        diff = [f for f in b["files"] if f not in b["noise"] and b["files"][f] != w["files"][f]]
        if diff:
            return "bytes of %s" % ", ".join(sorted(diff)[:3])
        if not b["json_noisy"] and b["json"] != w["json"]:
            return "JSON %s" % first_difference(b["json"], w["json"])
        if not b["text_noisy"] and b["text"] != w["text"]:
            return "the report: %s" % next((x for x in w["text"] if x not in b["text"]), "fewer lines")[:60]
        return None

    def walk_row(self, row, drivers):
        key, probe = row["key"], row["probe"]
        cells = driver_cells(drivers) if row["cells"] == "driver" else row["cells"].split("|")
        seen = 0
        for cell in cells:
            np_b, base = split_np(self.a.base + " " + (row["base"] or ""))
            np_c, cargs = split_np(cell)
            if "--" + key in cargs:     # a cell that sets the key itself shows nothing of it
                continue
            if row["cells"] != "driver":
                cargs = shlex.split(self.a.driver) + cargs
            np = max(np_b, np_c)
            args = base + cargs
            b = self.baseline(np, args)
            w = self.run_with(np, args + ["--" + key, probe])
            if b["rc"] != 0 and w["rc"] != 0:
                print("  %-24s %-40s both refused" % (key, cell or "(plain)"))
                continue
            if str(b.get("config", {}).get(key, {}).get("value")).lower() == probe.lower():
                print("  %-24s %-40s the run's value already" % (key, cell or "(plain)"))
                continue
            ch = self.changed(b, w)
            noted, partly = key in w["noted"], key in w["partly"]
            ok = (noted == (ch is None)) and not (partly and ch is None)
            seen += noted or partly
            verdict = "ok" if ok else "MISMATCH"
            print("  %-24s %-40s %-8s noted=%d partly=%d changed=%s" %
                  (key, cell or "(plain)", verdict, noted, partly, ch or "no"))
            if not ok:
                self.failures += 1
                sys.stdout.write("    " + "\n    ".join(w["err"].splitlines()[-6:]) + "\n")
        return seen


def sample_families(rows, most):
    """At most `most` keys of each family row (its mode), spread over the family."""
    fams = {}
    for r in rows:
        if r.get("family"):
            fams.setdefault(r["mode"], []).append(r)
    keep = set()
    for rs in fams.values():
        step = max(1, len(rs) // most)
        keep.update(id(r) for r in rs[::step][:most])
    return [r for r in rows if not r.get("family") or id(r) in keep]


NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")
NOT_APPLICABLE_HINT = re.compile(r"^hint \S+ +\S+ +not applicable \(")
UNSTEADY = re.compile(r"^!: \d+ repetitions? more than")


def text_shape(out, work):
    """The report's lines with every number as N: what it says, not the figures."""
    # a repetition flagged (" !": more than 25% from the median), and the line counting them, are
    # the machine's noise; a hint's line
    # that says it is not applicable says what the note says (as canon() leaves its JSON status out)
    return [NUMBER.sub("N", " ".join(line.replace(work, "DIR").split())).rstrip(" !") for line in out.splitlines()
            if not NOT_APPLICABLE_HINT.match(line) and not UNSTEADY.match(line)]


def first_difference(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), path + "." + k)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, "%s[%d]" % (path, i))
    return "%s: %s -> %s" % (path, str(a)[:40], str(b)[:40])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prog", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--base", default="")
    ap.add_argument("--copy", nargs="*", default=[], help="input files copied into each run's folder")
    ap.add_argument("--outputs", nargs="*", default=["o"], help="the folders and files the runs write")
    ap.add_argument("--family-max", type=int, default=0,
                    help="walk at most this many keys of a row that takes a family of keys (spread over them)")
    ap.add_argument("--own", action="store_true")
    ap.add_argument("--driver", default="", help="the driver arguments of the cells that do not choose one")
    ap.add_argument("--keys", nargs="*", default=None, help="walk these keys only")
    ap.add_argument("--expect-unseen", nargs="*", default=[])
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"))
    ap.add_argument("--h5dump", default=os.environ.get("H5DUMP", "h5dump"))
    a = ap.parse_args()
    pp_dir = os.path.join(a.work, "print_params")
    os.makedirs(pp_dir, exist_ok=True)
    for f in a.copy:
        shutil.copy(f, pp_dir)
    pp = json.loads(subprocess.run([a.prog, "--print_params"] + split_np(a.base)[1], cwd=pp_dir,
                                   stdout=subprocess.PIPE, check=True, text=True).stdout)
    rows = [r for r in pp["applicability"] if (r["kernel"] or not a.own) and (a.keys is None or r["key"] in a.keys)]
    if a.family_max:
        rows = sample_families(rows, a.family_max)
    wk = Walker(a)
    unseen = []
    for row in rows:
        print("%s: %s" % (row["key"], row["mode"]))
        if not wk.walk_row(row, pp["drivers"]) and row["key"] not in a.expect_unseen:
            unseen.append("%s (%s)" % (row["key"], row["mode"]))
    print("summary %s: %d rows, %d runs, %d mismatches, %d rows never said" %
          (wk.name, len(rows), wk.nruns, wk.failures, len(unseen)))
    for u in unseen:
        print("  never said: " + u)
    sys.exit(1 if wk.failures or unseen or not rows else 0)


if __name__ == "__main__":
    main()
