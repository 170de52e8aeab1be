#!/usr/bin/env python3
"""Filter combinations x data kinds through one kernel and the drivers that filter.

Every combination of --deflate, --shuffle, --szip and --quantize with --data
pattern or model must either write files that read back (the run's --verify
passes, h5dump decodes every dataset of every file, ncdump -hs opens each
netCDF-4 file, and the filters asked for are on the variables: h5dump -p -H,
ncdump -hs) or be refused before any file is made,
with the refusal this script expects (szip with shuffle, szip with deflate, szip
on the pattern through parallel HDF5).  Anything else is a failure: a refusal
that was not expected, a file a tool cannot read, a filter missing.

  --mode pairs: every pair of factor values at least once (a greedy all-pairs
                set, a few seconds a kernel and driver: make check)
  --mode full:  the whole cartesian product (make check-matrix)

Prints one line per combination and a summary; exit status 1 on any failure.
"""
import argparse
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import time

FACTORS = [
    ("deflate", ["0", "1", "9"]),
    ("shuffle", ["false", "true"]),
    ("szip", ["false", "true"]),
    ("quantize", ["none", "bitgroom:3", "granularbr:3", "bitround:3"]),
    ("data", ["pattern", "model"]),
]

# program (under src/), its arguments for a tiny run in the current folder, and
# whether its netCDF files go through netCDF-C's serial API by default (one writer)
KERNELS = {
    # chunks of GCRM's 64-cell blocks: under chunking auto (all cells a chunk) each block's write
    # rewrites a whole compressed chunk, 10 s a run here instead of 1
    "gcrm": ("gcrm/gcrm_io", ["--level_max", "3", "--restart_interval", "0", "--cdf_output_nsamples", "1",
                              "--end_minutes", "0", "--cdf_grid_option", "sep_grid", "--chunking", "1,64,256"], False),
    "mom": ("mom/mom_io", ["{src}/inputs/mom.in.tiny", "--out", "out"], True),
    "pfio": ("pfio/pfio_io", ["{src}/inputs/pfio.in", "--output_dir", "out", "--im_world", "36", "--jm_world", "19",
                              "--km_world", "4"], True),
    "decomp": ("decomp/decomp_io", ["--nvars", "2", "--records", "2", "--out", "out"], False),
    "exercise": ("exercise/engine_exercise", ["--nx", "8", "--ny", "6", "--nz", "2", "--out", "out", "--mkdir", "true"],
                 False),
}

# the formats of each driver that filters (the driver's filter_formats)
FORMATS = {"netcdf": ["nc4", "nc4c"], "hdf5": ["hdf5"]}


def all_pairs(factors):
    """A small set of combinations holding every pair of values of two factors."""
    names = [n for n, _ in factors]
    full = [dict(zip(names, vals)) for vals in itertools.product(*[v for _, v in factors])]
    todo = set()
    for (i, (a, av)), (j, (b, bv)) in itertools.combinations(enumerate(factors), 2):
        for x in av:
            for y in bv:
                todo.add((a, x, b, y))
    chosen = []
    while todo:
        def gain(c):
            return sum(1 for (a, x, b, y) in todo if c[a] == x and c[b] == y)
        best = max(full, key=gain)
        chosen.append(best)
        todo = {(a, x, b, y) for (a, x, b, y) in todo if not (best[a] == x and best[b] == y)}
    return chosen


def expected_refusal(c, serial):
    """The refusal this combination must meet (its message), or None: it must run."""
    if c["szip"] == "true" and c["shuffle"] == "true":
        return "szip with shuffle is refused"
    if c["szip"] == "true" and c["deflate"] != "0":
        return "szip with deflate is refused"
    if c["szip"] == "true" and c["data"] == "pattern" and not serial:
        return "szip with data pattern (command line) is refused"
    return None


def outputs(folder):
    found = []
    for root, _, files in os.walk(folder):
        for f in files:
            if re.search(r"\.(nc|nc4|h5)(\.\d+)?$", f):
                found.append(os.path.join(root, f))
    return sorted(found)


def tool(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def quantizes(driver, fmt):
    """netCDF-4 only: netCDF-C 4.9.0 fails nc_enddef on a quantized variable in the classic model."""
    return driver == "netcdf" and fmt == "nc4"


def check_files(files, c, driver, fmt, a):
    """Every file read whole by the library's tool; the filters asked for present. '' or why not."""
    headers = ""
    for f in files:
        # every dataset decoded through HDF5's filters (binary, so a large file dumps in
        # a fraction of the text's time); netCDF-C reads the values in --verify
        rc, out, err = tool([a.h5dump, "-b", "LE", "-o", os.devnull, f])
        if rc != 0 or "error" in err.lower():
            return "h5dump cannot read %s: %s" % (f, (err.strip().splitlines() or ["?"])[-1])
        rc, out, err = tool([a.h5dump, "-p", "-H", f])
        if rc != 0:
            return "h5dump -p -H %s failed" % f
        headers += out
        if driver == "netcdf":
            rc, out, err = tool([a.ncdump, "-hs", f])
            if rc != 0:
                return "ncdump -hs cannot read %s: %s" % (f, (err.strip().splitlines() or ["?"])[-1])
            headers += out
    want = []
    if c["deflate"] != "0":
        want.append(("deflate", "COMPRESSION DEFLATE { LEVEL %s }" % c["deflate"]))
    if c["shuffle"] == "true":
        want.append(("shuffle", "PREPROCESSING SHUFFLE"))
    if c["szip"] == "true":
        want.append(("szip", "COMPRESSION SZIP"))
    if c["quantize"] != "none" and quantizes(driver, fmt):
        alg = {"bitgroom": "BitGroom", "granularbr": "GranularBitRound", "bitround": "BitRound"}[c["quantize"].split(":")[0]]
        want.append(("quantize", "_Quantize%sNumberOf" % alg))
    for name, text in want:
        if text not in headers:
            return "%s asked but not on any variable (no '%s' in the headers)" % (name, text)
    return ""


def run_one(kernel, driver, fmt, c, a, work):
    prog, args, serial = KERNELS[kernel]
    serial = serial and driver == "netcdf"
    folder = os.path.join(work, "%s-%s-%s-%s" % (kernel, driver, fmt, "-".join(c[n] for n, _ in FACTORS)))
    folder = folder.replace(":", "_")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    cmd = (a.mpiexec.split() + ["-n", "1"] if a.mpiexec else []) + [os.path.join(a.bin, prog)]
    cmd += [x.format(src=a.src) for x in args]
    cmd += ["--driver", driver, "--format", fmt, "--iotype", "blocking_collective", "--verify", "true",
            "--json", "r.json", "--quiet", "true"]
    for n, _ in FACTORS:
        cmd += ["--" + n, c[n]]
    p = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                       timeout=300)
    refusal = expected_refusal(c, serial)
    files = outputs(folder)
    if refusal:
        if p.returncode == 0:
            return "FAIL", "ran, expected '%s'" % refusal
        if refusal not in p.stderr:
            return "FAIL", "exit %d without '%s': %s" % (p.returncode, refusal, p.stderr.strip()[-300:])
        if files:
            return "FAIL", "refused, but files were made: %s" % ", ".join(files)
        shutil.rmtree(folder, ignore_errors=True)
        return "refused", refusal
    if p.returncode != 0:
        return "FAIL", "exit %d: %s" % (p.returncode, p.stderr.strip()[-400:])
    try:
        with open(os.path.join(folder, "r.json")) as fh:
            d = json.load(fh)
    except (OSError, ValueError) as e:
        return "FAIL", "no JSON report: %s" % e
    if d.get("verify", {}).get("verdict") != "pass":
        return "FAIL", "verify verdict %r" % d.get("verify", {}).get("verdict")
    if not files:
        return "FAIL", "no file written"
    why = check_files(files, c, driver, fmt, a)
    if why:
        return "FAIL", why
    noted = [n.get("key") for n in d.get("not_applied", [])]
    if c["quantize"] != "none" and not quantizes(driver, fmt) and "quantize" not in noted:
        return "FAIL", "quantize has no effect through %s %s but was not said (not_applied: %s)" % (driver, fmt, noted)
    shutil.rmtree(folder, ignore_errors=True)
    return "ok", "%d files read back, verify pass" % len(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel", required=True, choices=sorted(KERNELS))
    ap.add_argument("--driver", required=True, choices=sorted(FORMATS))
    ap.add_argument("--mode", choices=("pairs", "full"), default="pairs")
    ap.add_argument("--bin", required=True, help="the build's src folder")
    ap.add_argument("--src", required=True, help="the source tree (inputs/)")
    ap.add_argument("--work", required=True, help="scratch folder")
    ap.add_argument("--mpiexec", default=os.environ.get("MPIEXEC", "mpiexec"),
                    help="the launcher; '' runs each one-rank run as an MPI singleton (faster refusals)")
    ap.add_argument("--ncdump", default=os.environ.get("NCDUMP") or "ncdump")
    ap.add_argument("--h5dump", default=os.environ.get("H5DUMP") or "h5dump")
    a = ap.parse_args()
    a.bin, a.src = os.path.abspath(a.bin), os.path.abspath(a.src)
    factors = FACTORS + [("format", FORMATS[a.driver])]
    combos = all_pairs(factors) if a.mode == "pairs" else \
        [dict(zip([n for n, _ in factors], v)) for v in itertools.product(*[v for _, v in factors])]
    os.makedirs(a.work, exist_ok=True)
    counts = {"ok": 0, "refused": 0, "FAIL": 0}
    t0 = time.time()
    for c in combos:
        verdict, why = run_one(a.kernel, a.driver, c["format"], c, a, a.work)
        counts[verdict] += 1
        print("%-7s %s %s %s: %s" % (verdict, a.kernel, a.driver, " ".join("%s=%s" % (n, c[n]) for n, _ in factors), why))
        sys.stdout.flush()
    print("summary %s %s %s: %d combinations, %d ok, %d refused, %d FAIL, %.1f s" %
          (a.kernel, a.driver, a.mode, len(combos), counts["ok"], counts["refused"], counts["FAIL"], time.time() - t0))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
