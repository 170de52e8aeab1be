#!/usr/bin/env python3
"""Small FMS domain-decomposed file sets for mom_combine's tests, written as CDL
and turned into netCDF members by ncgen: the kinds of output MOM5, MOM6, FV3/AM4,
a land and an ice model write, and members a user edited.

    fms_sets.py CASE DIR      writes DIR/<set name>.NNNN (and prints the set name)
    fms_sets.py --list        the cases

Each member holds the slice of the whole grid its domain_decomposition says;
values are a formula of the global indices, so every member agrees with the
others where they overlap (MOM6's symmetric q-points)."""
import concurrent.futures
import os
import subprocess
import sys

CDL_TYPES = {"float": "f", "double": "", "int": "", "short": "s", "byte": "b", "char": ""}


def fmt(t, v):
    if t == "char":
        return '"%s"' % v
    if t in ("float", "double"):
        return repr(float(v)) + CDL_TYPES[t]
    return str(int(v)) + CDL_TYPES[t]


def att_text(t, vals):
    if t == "char":
        return '"%s"' % vals
    return ", ".join(fmt(t, v) for v in vals)


class Var:
    def __init__(self, name, t, dims, atts=(), value=None):
        self.name, self.t, self.dims, self.atts, self.value = name, t, dims, list(atts), value


def member_cdl(name, dims, vars_, gatts, box, nrec, nfiles, fname):
    """box: {dim: (first, last)} 1-based inclusive for the decomposed axes."""
    out = ["netcdf %s {" % name, "dimensions:"]
    local = {}
    for d, n in dims:
        if n is None:
            local[d] = nrec
            out.append("\t%s = UNLIMITED ; // (%d currently)" % (d, nrec))
        else:
            a, b = box.get(d, (1, n))
            local[d] = b - a + 1
            out.append("\t%s = %d ;" % (d, local[d]))
    out.append("variables:")
    glen = dict(dims)
    for v in vars_:
        out.append("\t%s %s%s ;" % (v.t, v.name, "(%s)" % ", ".join(v.dims) if v.dims else ""))
        for an, at, av in v.atts:
            out.append("\t\t%s:%s = %s ;" % (v.name, an, att_text(at, av)))
        if v.name in box:
            a, b = box[v.name]
            out.append("\t\t%s:domain_decomposition = 1, %d, %d, %d ;" % (v.name, glen[v.name], a, b))
    out.append("")
    out.append("// global attributes:")
    out.append('\t\t:filename = "%s" ;' % fname)
    for an, at, av in gatts:
        out.append("\t\t:%s = %s ;" % (an, att_text(at, av)))
    if nfiles is not None:
        out.append("\t\t:NumFilesInSet = %d ;" % nfiles)
    out.append("data:")
    for v in vars_:
        if v.value is None:
            continue
        ranges = []
        for d in v.dims:
            n = glen[d]
            if n is None:
                ranges.append(range(nrec))
            else:
                a, b = box.get(d, (1, n))
                ranges.append(range(a - 1, b))
        vals = []

        def walk(k, idx):
            if k == len(ranges):
                vals.append(v.value(*idx))
                return
            for i in ranges[k]:
                walk(k + 1, idx + [i])
        walk(0, [])
        if v.t == "char":
            out.append(" %s = %s ;" % (v.name, fmt("char", "".join(vals))))
        else:
            out.append(" %s = %s ;" % (v.name, ", ".join(fmt(v.t, x) for x in vals)))
    out.append("}")
    return "\n".join(out) + "\n"


def split(n, parts):
    """FMS's even split of 1..n into parts: (first, last) each."""
    base, extra = divmod(n, parts)
    r, at = [], 1
    for p in range(parts):
        ln = base + (1 if p < extra else 0)
        r.append((at, at + ln - 1))
        at += ln
    return r


def write_set(dirname, setname, dims, vars_, gatts, boxes, nrec, kind="classic", nfiles=None, width=4, start=0,
              skip=()):
    kinds = {"classic": "-b", "64bit": "-6", "nc4": "-4", "nc4c": "-7", "cdf5": "-5"}
    n = len(boxes) if nfiles is None else nfiles

    def one(i, box):
        fname = "%s.%0*d" % (setname, width, start + i)
        cdl = member_cdl(setname.split(".")[0], dims, vars_, gatts, box, nrec, n, fname)
        subprocess.run(["ncgen", kinds[kind], "-o", os.path.join(dirname, fname)], input=cdl.encode(), check=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:     # ncgen, two at a time
        for f in [pool.submit(one, i, box) for i, box in enumerate(boxes) if i not in skip]:
            f.result()
    print(setname)


def time_var(nrec_units="days since 0001-01-01 00:00:00"):
    return Var("time", "double", ["time"], [("long_name", "char", "time"), ("units", "char", nrec_units),
                                            ("cartesian_axis", "char", "T"), ("calendar_type", "char", "NOLEAP")],
               lambda t: 15.5 + 31 * t)


def axis(name, n, unit, cart, lo, step):
    return Var(name, "double", [name], [("long_name", "char", name), ("units", "char", unit),
                                        ("cartesian_axis", "char", cart)], lambda i: lo + step * i)


def mom5(d, nrec=2):
    dims = [("xt_ocean", 6), ("yt_ocean", 4), ("st_ocean", 2), ("xu_ocean", 6), ("yu_ocean", 4), ("time", None),
            ("nv", 2)]
    fill = [("missing_value", "float", [-1e20]), ("_FillValue", "float", [-1e20])]
    vars_ = [axis("xt_ocean", 6, "degrees_E", "X", -279.5, 60), axis("yt_ocean", 4, "degrees_N", "Y", -60, 40),
             axis("st_ocean", 2, "meters", "Z", 5, 10), axis("xu_ocean", 6, "degrees_E", "X", -250, 60),
             axis("yu_ocean", 4, "degrees_N", "Y", -40, 40), time_var(),
             Var("nv", "double", ["nv"], [("long_name", "char", "vertex number")], lambda i: i + 1),
             Var("temp", "float", ["time", "st_ocean", "yt_ocean", "xt_ocean"],
                 [("long_name", "char", "Potential temperature"), ("units", "char", "degrees K")] + fill +
                 [("cell_methods", "char", "time: mean")],
                 lambda t, k, j, i: 1000 * t + 100 * k + 10 * j + i),
             Var("u", "float", ["time", "st_ocean", "yu_ocean", "xu_ocean"],
                 [("long_name", "char", "i-current"), ("units", "char", "m/sec")] + fill,
                 lambda t, k, j, i: -(1000 * t + 100 * k + 10 * j + i) / 4.0),
             Var("eta_t", "float", ["time", "yt_ocean", "xt_ocean"],
                 [("long_name", "char", "surface height on T cells"), ("units", "char", "meter")] + fill,
                 lambda t, j, i: t + j / 10.0 + i / 100.0),
             Var("average_T1", "double", ["time"], [("long_name", "char", "Start time for average period")],
                 lambda t: 31.0 * t),
             Var("time_bounds", "double", ["time", "nv"], [("long_name", "char", "time axis boundaries")],
                 lambda t, b: 31.0 * (t + b))]
    boxes = [{"xt_ocean": x, "xu_ocean": x, "yt_ocean": y, "yu_ocean": y} for y in split(4, 2) for x in split(6, 2)]
    write_set(d, "ocean_month.nc", dims, vars_, [("title", "char", "MOM5 ocean")], boxes, nrec)


def mom6(d):
    """Symmetric memory: q-points run 0..n, each member holds both of its edges."""
    dims = [("xh", 6), ("yh", 4), ("xq", 7), ("yq", 5), ("zl", 2), ("time", None)]
    fill = [("missing_value", "float", [1e20]), ("_FillValue", "float", [1e20])]
    vars_ = [axis("xh", 6, "degrees_east", "X", 0.5, 1), axis("yh", 4, "degrees_north", "Y", 0.5, 1),
             axis("xq", 7, "degrees_east", "X", 0, 1), axis("yq", 5, "degrees_north", "Y", 0, 1),
             axis("zl", 2, "meter", "Z", 1, 2), time_var(),
             Var("h", "float", ["time", "zl", "yh", "xh"], [("units", "char", "m")] + fill,
                 lambda t, k, j, i: 1000 * t + 100 * k + 10 * j + i),
             Var("u", "float", ["time", "zl", "yh", "xq"], [("units", "char", "m s-1")] + fill,
                 lambda t, k, j, i: 0.5 + 1000 * t + 100 * k + 10 * j + i),
             Var("v", "float", ["time", "zl", "yq", "xh"], [("units", "char", "m s-1")] + fill,
                 lambda t, k, j, i: -(1000 * t + 100 * k + 10 * j + i))]
    boxes = []
    for (y0, y1) in split(4, 2):
        for (x0, x1) in split(6, 3):
            boxes.append({"xh": (x0, x1), "yh": (y0, y1), "xq": (x0, x1 + 1), "yq": (y0, y1 + 1)})
    write_set(d, "ocean_daily.nc", dims, vars_, [("grid_type", "char", "regular")], boxes, 2)


def fv3(d):
    """A cubed-sphere tile, uneven in x (3 + 5), the tile number in the name."""
    dims = [("grid_xt", 8), ("grid_yt", 4), ("pfull", 3), ("time", None)]
    vars_ = [axis("grid_xt", 8, "degrees_E", "X", 1, 2), axis("grid_yt", 4, "degrees_N", "Y", -3, 2),
             Var("pfull", "float", ["pfull"], [("units", "char", "mb"), ("cartesian_axis", "char", "Z")],
                 lambda k: 100.0 + 300 * k),
             time_var("hours since 2020-01-01 00:00:00"),
             Var("temp", "float", ["time", "pfull", "grid_yt", "grid_xt"],
                 [("units", "char", "K"), ("missing_value", "float", [-1e10]), ("_FillValue", "float", [-1e10])],
                 lambda t, k, j, i: 200 + 10 * t + k + j / 10.0 + i / 100.0),
             Var("ps", "double", ["time", "grid_yt", "grid_xt"], [("units", "char", "Pa")],
                 lambda t, j, i: 1e5 + 100 * t + 10 * j + i)]
    boxes = [{"grid_xt": x, "grid_yt": y} for y in [(1, 2), (3, 4)] for x in [(1, 3), (4, 8)]]
    write_set(d, "atmos_4xdaily.tile1.nc", dims, vars_, [("grid_type", "char", "cubic")], boxes, 3)


def land(d):
    """Static (no time axis), decomposed in y only; packed shorts, int, byte, char, scalar."""
    dims = [("lon", 5), ("lat", 6), ("soil", 2), ("strlen", 8)]
    vars_ = [axis("lon", 5, "degrees_E", "X", 0, 72), axis("lat", 6, "degrees_N", "Y", -75, 30),
             Var("soil", "int", ["soil"], [("long_name", "char", "soil level")], lambda k: k + 1),
             Var("frac", "short", ["lat", "lon"],
                 [("scale_factor", "float", [0.01]), ("add_offset", "float", [0.5]),
                  ("missing_value", "short", [-32768])], lambda j, i: 10 * j + i - 20),
             Var("tile_index", "int", ["soil", "lat", "lon"], [], lambda k, j, i: 100 * k + 10 * j + i),
             Var("mask", "byte", ["lat", "lon"], [("flag_values", "byte", [0, 1])], lambda j, i: (i + j) % 2),
             Var("scheme", "char", ["strlen"], [], lambda c: "lm3-soil"[c]),
             Var("refheight", "double", [], [("units", "char", "m")], lambda: 2.0)]
    boxes = [{"lat": y} for y in split(6, 3)]
    write_set(d, "land_static.nc", dims, vars_, [("comment", "char", "static land fields")], boxes, 0)


def ice(d, skip=(3,)):
    """SIS-like axes; the last of 4 processors masked out (no file), so -f is needed."""
    dims = [("xT", 4), ("yT", 4), ("time", None)]
    vars_ = [axis("xT", 4, "degrees_E", "X", 0, 90), axis("yT", 4, "degrees_N", "Y", -60, 40), time_var(),
             Var("CN", "float", ["time", "yT", "xT"],
                 [("missing_value", "float", [-1e34]), ("_FillValue", "float", [-1e34])],
                 lambda t, j, i: t + j / 10.0 + i / 100.0)]
    boxes = [{"xT": x, "yT": y} for y in split(4, 2) for x in split(4, 2)]
    write_set(d, "ice_month.nc", dims, vars_, [], boxes, 2, skip=skip)


def edited(d):
    """Members after ncap2/ncatted: a variable added, an attribute edited, a field made double."""
    dims = [("xt_ocean", 4), ("yt_ocean", 2), ("time", None)]
    vars_ = [axis("xt_ocean", 4, "degrees_E", "X", 0, 90), axis("yt_ocean", 2, "degrees_N", "Y", -30, 60),
             time_var(),
             Var("sst", "double", ["time", "yt_ocean", "xt_ocean"],
                 [("long_name", "char", "SST (edited by hand)"), ("units", "char", "degC")],
                 lambda t, j, i: 20 + t + j + i / 4.0),
             Var("sst_anom", "float", ["time", "yt_ocean", "xt_ocean"], [("history", "char", "ncap2 added")],
                 lambda t, j, i: 0.25 * (i - j) + t),
             Var("depth_note", "char", ["xt_ocean"], [], lambda i: "abcd"[i])]
    boxes = [{"xt_ocean": x} for x in split(4, 2)]
    write_set(d, "ocean_edit.nc", dims, vars_, [("history", "char", "ncatted -a ...")], boxes, 2)


def nc4(d):
    """netCDF-4 members, chunked and deflated; six-digit numbers from 000010."""
    dims = [("x", 6), ("y", 2), ("time", None)]
    vars_ = [axis("x", 6, "m", "X", 0, 1), axis("y", 2, "m", "Y", 0, 1), time_var(),
             Var("q", "float", ["time", "y", "x"], [("_ChunkSizes", "int", [1, 1, 3]), ("_DeflateLevel", "int", [2])],
                 lambda t, j, i: t * 100 + j * 10 + i)]
    boxes = [{"x": x} for x in split(6, 2)]
    write_set(d, "tracer.nc", dims, vars_, [], boxes, 2, kind="nc4", width=6, start=10)


def many(d, nx=55, ny=20, kind="nc4"):
    """One file per PE on a 1100-PE layout (55 x 20): tiny netCDF-4 members; "many-4": the same grid in 4."""
    dims = [("xt", 110), ("yt", 40), ("zt", 2), ("time", None)]
    vars_ = [axis("xt", 110, "degrees_E", "X", 0, 1), axis("yt", 40, "degrees_N", "Y", -40, 2),
             axis("zt", 2, "m", "Z", 5, 10), time_var(),
             Var("t", "float", ["time", "zt", "yt", "xt"], [("units", "char", "K")],
                 lambda t, k, j, i: 1000 * t + 100 * k + 10 * j + i),
             Var("ssh", "double", ["time", "yt", "xt"], [("units", "char", "m")],
                 lambda t, j, i: t + j / 10.0 + i / 1000.0)]
    boxes = [{"xt": x, "yt": y} for y in split(40, ny) for x in split(110, nx)]
    write_set(d, "ocean_pe.nc", dims, vars_, [("title", "char", "one file per PE")], boxes, 2, kind=kind)


CASES = {"mom5": mom5, "mom5-1rec": lambda d: mom5(d, 1), "mom6": mom6, "fv3": fv3, "land": land, "ice": ice, "edited": edited, "nc4": nc4, "many": many, "many-4": lambda d: many(d, 2, 2)}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(" ".join(CASES))
        sys.exit(0)
    CASES[sys.argv[1]](sys.argv[2])
