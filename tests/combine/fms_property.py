#!/usr/bin/env python3
"""Property test of mom_combine's FRE-NCtools form (tests/combine/test_combine_property.sh).

    fms_property.py COMBINE WORKDIR SEED ROUNDS [LAUNCHER ...]

Round trip: ROUNDS random valid FMS sets (1 or 2 decomposed axes of random
global length split unevenly, sometimes a symmetric corner axis, a regional
start, 0-3 records, 1-4 variables of random types and shapes, every netCDF kind,
NumFilesInSet 0 in some, as fms2_io writes it)
are combined, and the output is sliced back into each member: every member's
values must be the output's at the member's place, the whole variables the first
member's.  Damage: each kind of damage (cut short, emptied, overwritten, a
directory or a FIFO in a member's place, another global extent, another type,
other records, NumFilesInSet 0 in one member, a member gone from a set whose
size is not recorded (NumFilesInSet 0 in all), a group, a missing_value -m
cannot use, a domain_decomposition its dimension disagrees with, the points of
another member, a member listed twice) applied to a random member of a fresh
random set must be refused:
exit status 1, the member named, no output.  Values are a formula of the global
indices, so members agree where they overlap.  Prints one line per case; exits 1
at the first failure (with the seed, to replay it)."""
import os
import random
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fms_sets  # noqa: E402

TYPES = {"byte": (-100, 100), "short": (-30000, 30000), "int": (-2 ** 30, 2 ** 30), "float": None, "double": None}
NC4_TYPES = {"ubyte": (0, 250), "ushort": (0, 60000), "uint": (0, 4 * 10 ** 9)}
KINDS = ["classic", "64bit", "nc4", "nc4c", "cdf5"]


def cuts(rng, n, parts):
    """An uneven split of 1..n into at most `parts` non-empty ranges."""
    parts = max(1, min(parts, n))
    at = sorted(rng.sample(range(2, n + 1), parts - 1))
    lo, r = 1, []
    for c in at + [n + 1]:
        r.append((lo, c - 1))
        lo = c
    return r


class RandomSet:
    def __init__(self, rng, kind=None):
        self.rng = rng
        self.kind = kind or rng.choice(KINDS)
        self.nrec = rng.choice([0, 1, 2, 3])
        axes = rng.choice([["x"], ["x", "y"], ["y"]])
        self.glen = {a: rng.randint(3, 9) for a in axes}
        self.gstart = {a: rng.choice([1, 1, 1, 101]) for a in axes}
        self.split = {a: cuts(rng, self.glen[a], rng.randint(1, 3)) for a in axes}
        self.corner = "x" in axes and rng.random() < 0.4     # a symmetric axis: one point more, edges shared
        self.dims = [(a, self.glen[a]) for a in axes]
        if self.corner:
            self.dims.append(("xq", self.glen["x"] + 1))
        self.dims.append(("z", rng.randint(1, 3)))
        if self.nrec:
            self.dims.append(("time", None))
        types = dict(TYPES)
        if self.kind in ("nc4", "cdf5"):
            types.update(NC4_TYPES)
        self.vars = [fms_sets.Var(a, "double", [a], [("cartesian_axis", "char", a.upper()[0])],
                                  (lambda o: lambda i: o + i)(self.gstart.get(a, 1))) for a, _ in self.dims
                     if a not in ("time", "z")]
        self.vars.append(fms_sets.Var("z", "float", ["z"], [], lambda k: 5.0 * k))
        if self.nrec:
            self.vars.append(fms_sets.time_var())
        hor = [a for a in ("y", "x") if a in self.glen]
        for n in range(rng.randint(1, 4)):
            t = rng.choice(sorted(types))
            shape = (["time"] if self.nrec and rng.random() < 0.7 else []) + \
                (["z"] if rng.random() < 0.5 else []) + hor
            if self.corner and rng.random() < 0.5:
                shape = [d if d != "x" else "xq" for d in shape]
            if rng.random() < 0.15:
                shape = [d for d in shape if d not in hor] or ["z"]     # a whole variable
            self.vars.append(fms_sets.Var("v%d" % n, t, shape, [("units", "char", "1")], self.formula(t, len(shape))))
        self.boxes = []
        for yb in self.split.get("y", [None]):
            for xb in self.split.get("x", [None]):
                b = {"_gstart": {a: self.gstart[a] for a in self.gstart}}
                if yb:
                    b["y"] = yb
                if xb:
                    b["x"] = xb
                    if self.corner:
                        b["xq"] = (xb[0], xb[1] + 1)
                        b["_gstart"]["xq"] = self.gstart["x"]
                self.boxes.append(b)

    @staticmethod
    def formula(t, nd):
        lo_hi = TYPES.get(t) or NC4_TYPES.get(t)

        def f(*idx):
            v = 0
            for k, i in enumerate(idx):
                v = v * 10 + i + k
            if lo_hi is None:
                return v / 4.0
            lo, hi = lo_hi
            return lo + v % (min(hi - lo, 10 ** 6))
        return f

    def write(self, d, name="rand.nc", nfiles=None, tweak=None, only=None):
        """tweak(member index, box, vars, records) -> (box, vars, records): a member's
        damage; only: write that member alone."""
        os.makedirs(d, exist_ok=True)
        kinds = {"classic": "-b", "64bit": "-6", "nc4": "-4", "nc4c": "-7", "cdf5": "-5"}
        n = len(self.boxes) if nfiles is None else nfiles
        for i, box in enumerate(self.boxes):
            if only is not None and i != only:
                continue
            vs, b, nrec = self.vars, box, self.nrec
            if tweak:
                b, vs, nrec = tweak(i, dict(box), list(vs), nrec)
            cdl = fms_sets.member_cdl("rand", self.dims, vs, [("title", "char", "random")], b, nrec, n,
                                      "%s.%04d" % (name, i))
            subprocess.run(["ncgen", kinds[self.kind], "-o", os.path.join(d, "%s.%04d" % (name, i))],
                           input=cdl.encode(), check=True)
        return ["%s.%04d" % (name, i) for i in range(len(self.boxes))]


def values(path, var):
    """A variable's values from ncdump, as floats (text and strings are not used here)."""
    out = subprocess.run(["ncdump", "-v", var, path], stdout=subprocess.PIPE, check=True, text=True).stdout
    body = out.split("data:", 1)[1]
    m = re.search(r"\n %s =(.*?);" % re.escape(var), body, re.S)
    return [float(x) for x in re.split(r"[,\s]+", m.group(1)) if x and x != "_"]


def shape_of(rs, v, box, whole):
    r = []
    for dname in v.dims:
        if dname == "time":
            r.append(range(rs.nrec))
        elif whole or dname not in box:
            n = dict(rs.dims)[dname]
            r.append(range(n))
        else:
            a, b = box[dname]
            r.append(range(a - 1, b))
    return r


def flat_index(rs, v, idx):
    at = 0
    for dname, i in zip(v.dims, idx):
        n = rs.nrec if dname == "time" else dict(rs.dims)[dname]
        at = at * n + i
    return at


def walk(ranges):
    if not ranges:
        yield ()
        return
    for i in ranges[0]:
        for rest in walk(ranges[1:]):
            yield (i,) + rest


def round_trip(comb, work, rng, k, launch):
    rs = RandomSet(rng)
    d = os.path.join(work, "rt%d" % k)
    shutil.rmtree(d, ignore_errors=True)
    unsized = rng.random() < 0.3        # NumFilesInSet 0, as fms2_io's per-PE files
    members = rs.write(d, nfiles=0 if unsized else None)
    r = subprocess.run(launch + [comb, "rand.nc"], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    what = "round trip %d (%s, %d members%s, %d records, axes %s%s)" % (
        k, rs.kind, len(members), ", NumFilesInSet 0" if unsized else "", rs.nrec, rs.glen,
        ", corner" if rs.corner else "")
    if r.returncode != 0:
        return "%s: exit status %d: %s" % (what, r.returncode, r.stderr.strip()[-400:])
    out = os.path.join(d, "rand.nc")
    for v in rs.vars:
        if v.name == "time" or (rs.nrec == 0 and "time" in v.dims):
            continue
        full = values(out, v.name)
        decomposed = any(dn in ("x", "y", "xq") for dn in v.dims)
        for i, (m, box) in enumerate(zip(members, rs.boxes)):
            if not decomposed and i > 0:
                continue
            mine = values(os.path.join(d, m), v.name)
            at = [flat_index(rs, v, idx) for idx in walk(shape_of(rs, v, box, not decomposed))]
            got = [full[a] for a in at]
            if got != mine:
                return "%s: variable %s of member %s is not the output's at its place" % (what, v.name, m)
    print("ok: " + what)
    return None


def damage_cases(rng):
    """(name, the kind it needs or None, how to damage: (RandomSet, dir, members, victim) -> (argv, message))."""
    def rewrite(rs, d, victim, tweak):
        def tw(i, box, vs, nrec):
            return tweak(box, vs, nrec) if i == victim else (box, vs, nrec)
        rs.write(d, tweak=tw)

    def cut(rs, d, ms, v):
        p = os.path.join(d, ms[v])
        with open(p, "r+b") as f:
            f.truncate(max(1, os.path.getsize(p) - rng.randint(1, 200)))
        return [], "is cut short"

    def empty(rs, d, ms, v):
        open(os.path.join(d, ms[v]), "w").close()
        return [], "is empty (0 bytes)"

    def garbage(rs, d, ms, v):
        with open(os.path.join(d, ms[v]), "r+b") as f:
            f.write(b"JUNK")
        return [], "is not a netCDF file"

    def folder(rs, d, ms, v):
        os.remove(os.path.join(d, ms[v]))
        os.mkdir(os.path.join(d, ms[v]))
        return [], "is a directory, not a regular file"

    def fifo(rs, d, ms, v):
        os.remove(os.path.join(d, ms[v]))
        os.mkfifo(os.path.join(d, ms[v]))
        return [], "is a FIFO (named pipe), not a regular file"

    def extent(rs, d, ms, v):
        a = rng.choice(sorted(rs.glen))
        other = RandomSet.__new__(RandomSet)
        other.__dict__.update(rs.__dict__)
        other.dims = [(n, (ln + 2 if n == a else ln)) for n, ln in rs.dims]
        other.write(d, only=v)
        return [], "gives the whole axis"

    def retype(rs, d, ms, v):
        def t(box, vs, nrec):
            x = vs[-1]
            vs[-1] = fms_sets.Var(x.name, "double" if x.t != "double" else "float", x.dims, x.atts, x.value)
            return box, vs, nrec
        rewrite(rs, d, v, t)
        return [], "not a member of the same set"

    def records(rs, d, ms, v):
        rewrite(rs, d, v, lambda box, vs, nrec: (box, vs, nrec + 1))
        return [], "different number of records than the first input file"

    def nfiles0(rs, d, ms, v):
        kinds = {"classic": "-b", "64bit": "-6", "nc4": "-4", "nc4c": "-7", "cdf5": "-5"}
        cdl = subprocess.run(["ncdump", os.path.join(d, ms[v])], stdout=subprocess.PIPE, check=True, text=True).stdout
        cdl = re.sub(r":NumFilesInSet = \d+ ;", ":NumFilesInSet = 0 ;", cdl)
        subprocess.run(["ncgen", kinds[rs.kind], "-o", os.path.join(d, ms[v])], input=cdl.encode(), check=True)
        return [], "not a member of the same set"

    def gone_unsized(rs, d, ms, v):
        rs.write(d, nfiles=0)
        os.remove(os.path.join(d, ms[v]))
        return [], "a member is missing"

    def group(rs, d, ms, v):
        cdl = subprocess.run(["ncdump", os.path.join(d, ms[v])], stdout=subprocess.PIPE, check=True, text=True).stdout
        cdl = cdl.rstrip().rstrip("}") + "\ngroup: extra {\n  variables:\n\tint flag ;\n  data:\n flag = 1 ;\n  }\n}\n"
        subprocess.run(["ncgen", "-4", "-o", os.path.join(d, ms[v])], input=cdl.encode(), check=True)
        return [], "holds 1 group (/extra)"

    def missing_value(rs, d, ms, v):
        def t(box, vs, nrec):
            vs = [fms_sets.Var(x.name, x.t, x.dims, x.atts + ([("missing_value", "double", [1e30])]
                                                              if x.name.startswith("v") else []), x.value) for x in vs]
            return box, vs, nrec
        rs.write(d, tweak=lambda i, box, vs, nrec: t(box, vs, nrec))
        return ["-m"], "missing_value lies outside the range of its type"

    def placement(rs, d, ms, v):
        """The first domain_decomposition of the member one point longer (or
        shorter) than its dimension: the placement disagrees with the values."""
        kinds = {"classic": "-b", "64bit": "-6", "nc4": "-4", "nc4c": "-7", "cdf5": "-5"}
        p = os.path.join(d, ms[v])
        cdl = subprocess.run(["ncdump", p], stdout=subprocess.PIPE, check=True, text=True).stdout

        def bump(m):
            g0, g1, l0, l1 = (int(x) for x in m.group(2, 3, 4, 5))
            if l1 < g1:
                l1 += 1
            elif l0 > g0:
                l0 -= 1
            else:
                l1 -= 1
            return "%s:domain_decomposition = %d, %d, %d, %d ;" % (m.group(1), g0, g1, l0, l1)
        cdl = re.sub(r"(\w+):domain_decomposition = (-?\d+), (-?\d+), (-?\d+), (-?\d+) ;", bump, cdl, count=1)
        subprocess.run(["ncgen", kinds[rs.kind], "-o", p], input=cdl.encode(), check=True)
        return [], "gives the member points"

    def same_points(rs, d, ms, v):
        """The member placed where an earlier one is (all members present: the
        rest of the grid would be nobody's, and the two overwrite each other)."""
        other = rng.randrange(v)
        rewrite(rs, d, v, lambda box, vs, nrec: (dict(rs.boxes[other]), vs, nrec))
        return [], "over points"

    def twice(rs, d, ms, v):
        other = (v + 1) % len(ms)
        lst = list(ms)
        lst[other] = ms[v]
        return ["rand.nc"] + lst, "is listed twice"

    return [("cut short", None, cut), ("emptied", None, empty), ("overwritten", None, garbage),
            ("a directory", None, folder), ("a FIFO", None, fifo), ("another global extent", "many", extent),
            ("another type", "many", retype), ("other records", "records+many", records),
            ("NumFilesInSet 0 in one member", "many", nfiles0),
            ("a member gone from a set of unknown size", "many+inner", gone_unsized), ("a group", "nc4", group),
            ("a missing_value -m cannot use", "integer", missing_value), ("listed twice", "many", twice),
            ("a placement its dimension disagrees with", None, placement),
            ("the points of another member", "later+many", same_points)]


def damaged(comb, work, rng, k, name, needs, hurt):
    for _ in range(200):
        rs = RandomSet(rng, kind="nc4" if needs == "nc4" else None)
        if needs == "records+many" and (rs.nrec == 0 or len(rs.boxes) < 2):
            continue
        if needs == "integer" and not any(v.t in ("byte", "short", "int", "ubyte", "ushort") and
                                          any(dn in ("x", "y", "xq") for dn in v.dims) for v in rs.vars):
            continue
        if needs in ("many", "many+inner", "later+many") and len(rs.boxes) < (3 if needs == "many+inner" else 2):
            continue
        break
    d = os.path.join(work, "dmg%d" % k)
    shutil.rmtree(d, ignore_errors=True)
    ms = rs.write(d)
    set_wide = name == "a missing_value -m cannot use"     # said of the first member
    # a member gone from a set of unknown size is named only between two others (its number is absent)
    victim = (0 if set_wide else 1 + rng.randrange(len(ms) - 2) if needs == "many+inner"
              else rng.randrange(1, len(ms)) if needs == "later+many" else rng.randrange(len(ms)))
    args, msg = hurt(rs, d, ms, victim)
    argv = [comb] + args if args and args[0] == "rand.nc" else [comb] + args + ["rand.nc"]
    try:
        r = subprocess.run(argv, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return "damage '%s': mom_combine hung" % name
    what = "damage '%s' to %s (%s, %d members)" % (name, ms[victim], rs.kind, len(ms))
    if r.returncode != 1:
        return "%s: exit status %d, expected 1: %s" % (what, r.returncode, r.stderr.strip()[-300:])
    named = ms[victim]
    if msg not in r.stderr or named not in r.stderr:
        return "%s: stderr does not say '%s' of %s: %s" % (what, msg, named, r.stderr.strip()[-400:])
    if os.path.exists(os.path.join(d, "rand.nc")) or os.path.exists(os.path.join(d, "rand.nc.incomplete")):
        return "%s: an output was left" % what
    print("ok: " + what)
    return None


def main():
    comb, work, seed, rounds, launch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    rng = random.Random(seed)
    os.makedirs(work, exist_ok=True)
    for k in range(rounds):
        err = round_trip(comb, work, rng, k, launch)
        if err:
            sys.exit("FAIL (seed %d): %s" % (seed, err))
    for k, (name, needs, hurt) in enumerate(damage_cases(rng)):
        err = damaged(comb, work, rng, k, name, needs, hurt)
        if err:
            sys.exit("FAIL (seed %d): %s" % (seed, err))
    return 0


if __name__ == "__main__":
    sys.exit(main())
