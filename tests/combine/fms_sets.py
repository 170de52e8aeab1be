#!/usr/bin/env python3
"""Small FMS domain-decomposed file sets for mom_combine's tests, written as CDL
and turned into netCDF members by ncgen: the kinds of output MOM5, MOM6, FV3/AM4,
a land and an ice model write, and members a user edited.

    fms_sets.py CASE DIR      writes DIR/<set name>.NNNN (and prints the set name)
    fms_sets.py --list        the cases
    fms_sets.py --slice FILE PX PY DIR   mom_io's combined FILE as a PX x PY set of members

Each member holds the slice of the whole grid its domain_decomposition says;
values are a formula of the global indices, so every member agrees with the
others where they overlap (MOM6's symmetric q-points)."""
import concurrent.futures
import os
import subprocess
import sys

CDL_TYPES = {"float": "f", "double": "", "int": "", "short": "s", "byte": "b", "char": "", "int64": "ll", "ubyte": "ub",
             "ushort": "us", "uint": "u", "uint64": "ull"}


def fmt(t, v):
    if t in ("char", "string"):
        return '"%s"' % v
    if t in ("float", "double"):
        return ("NaN" if v != v else repr(float(v))) + CDL_TYPES[t]
    return str(int(v)) + CDL_TYPES[t]


def att_text(t, vals):
    if t == "raw":      # as ncdump printed it
        return vals
    if t == "char":
        return '"%s"' % vals
    return ", ".join(fmt(t, v) for v in vals)


class Var:
    def __init__(self, name, t, dims, atts=(), value=None):
        self.name, self.t, self.dims, self.atts, self.value = name, t, dims, list(atts), value


def member_cdl(name, dims, vars_, gatts, box, nrec, nfiles, fname):
    """box: {dim: (first, last)} 1-based inclusive for the decomposed axes; "_gstart":
    {dim: first global index} (a regional grid's, default 1); "_len": {dim: length}
    of an axis whose length is the member's own (a compressed index: its values are
    the member's, by local index)."""
    out = ["netcdf %s {" % name, "dimensions:"]
    local = {}
    own = box.get("_len", {})
    for d, n in dims:
        if n is None:
            local[d] = nrec
            out.append("\t%s = UNLIMITED ; // (%d currently)" % (d, nrec))
        else:
            a, b = box.get(d, (1, own.get(d, n)))
            local[d] = b - a + 1
            out.append("\t%s = %d ;" % (d, local[d]))
    out.append("variables:")
    glen = dict(dims)
    g0 = box.get("_gstart", {})
    for v in vars_:
        out.append("\t%s %s%s ;" % (v.t, v.name, "(%s)" % ", ".join(v.dims) if v.dims else ""))
        for an, at, av in v.atts:
            out.append("\t\t%s:%s = %s ;" % (v.name, an, att_text(at, av)))
        if v.name in box and not v.name.startswith("_"):
            a, b = box[v.name]
            o = g0.get(v.name, 1) - 1
            out.append("\t\t%s:domain_decomposition = %d, %d, %d, %d ;" % (v.name, o + 1, o + glen[v.name], o + a, o + b))
    out.append("")
    out.append("// global attributes:")
    if fname is not None:
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
                a, b = box.get(d, (1, own.get(d, n)))
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


def symmetric_boxes(nx, px, ny, py, h, q):
    """A px x py layout of h = (x, y) axes of nx x ny points, with q = (x, y) corner
    axes one point longer: each member holds both of its edges (MOM6's symmetric memory)."""
    return [{h[0]: (x0, x1), h[1]: (y0, y1), q[0]: (x0, x1 + 1), q[1]: (y0, y1 + 1)}
            for (y0, y1) in split(ny, py) for (x0, x1) in split(nx, px)]


def land_boxes():
    """LM4's 2 x 2 layout of the 8 x 4 land grid, each member with its own tiles."""
    return [{"lon": x, "lat": y, "_len": {"tile_index": len(lm4_tiles(m))}}
            for m, (y, x) in enumerate([(y, x) for y in split(4, 2) for x in split(8, 2)])]


def write_set(dirname, setname, dims, vars_, gatts, boxes, nrec, kind="classic", nfiles=None, width=4, start=0,
              skip=(), numbers=None, filename=True):
    """vars_: the variables, or a function of (member number, box) giving each
    member's own; a box's "_nrec": that member's record count (a crashed run);
    numbers: the members' numbers (default start, start + 1, ...); filename: the
    global attribute naming the member (fms2_io writes none)."""
    kinds = {"classic": "-b", "64bit": "-6", "nc4": "-4", "nc4c": "-7", "cdf5": "-5"}
    n = len(boxes) if nfiles is None else None if nfiles == "absent" else nfiles

    def one(i, box):
        fname = "%s.%0*d" % (setname, width, numbers[i] if numbers else start + i)
        vs = vars_(i, box) if callable(vars_) else vars_
        cdl = member_cdl(setname.split(".")[0], dims, vs, gatts, box, box.get("_nrec", nrec), n,
                         fname if filename else None)
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
    boxes = symmetric_boxes(6, 3, 4, 2, ("xh", "yh"), ("xq", "yq"))
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


def am4(d):
    """AM4's atmos_daily on one cubed-sphere tile: pfull and phalf, time bounds and
    averages, a 3 x 2 layout, 64-bit offset members."""
    dims = [("grid_xt", 12), ("grid_yt", 8), ("pfull", 3), ("phalf", 4), ("time", None), ("nv", 2)]
    vars_ = [axis("grid_xt", 12, "degrees_E", "X", 0.5, 1), axis("grid_yt", 8, "degrees_N", "Y", -3.5, 1),
             Var("pfull", "float", ["pfull"], [("units", "char", "mb"), ("positive", "char", "down")],
                 lambda k: 250.0 + 300 * k),
             Var("phalf", "float", ["phalf"], [("units", "char", "mb")], lambda k: 100.0 + 300 * k),
             time_var("days since 1979-01-01 00:00:00"), Var("nv", "double", ["nv"], [], lambda i: i + 1.0),
             Var("bk", "float", ["phalf"], [("long_name", "char", "vertical coordinate sigma value")],
                 lambda k: k / 3.0),
             Var("temp", "float", ["time", "pfull", "grid_yt", "grid_xt"],
                 [("units", "char", "K"), ("missing_value", "float", [1e20]), ("_FillValue", "float", [1e20]),
                  ("cell_methods", "char", "time: mean")],
                 lambda t, k, j, i: 220 + t + 10 * k + j / 10.0 + i / 100.0),
             Var("ps", "float", ["time", "grid_yt", "grid_xt"], [("units", "char", "Pa")],
                 lambda t, j, i: 1e5 + 10 * t + j + i / 10.0),
             Var("average_T1", "double", ["time"], [], lambda t: float(t)),
             Var("average_DT", "double", ["time"], [], lambda t: 1.0),
             Var("time_bnds", "double", ["time", "nv"], [], lambda t, b: float(t + b))]
    boxes = [{"grid_xt": x, "grid_yt": y} for y in split(8, 2) for x in split(12, 3)]
    write_set(d, "atmos_daily.tile3.nc", dims, vars_, [("grid_type", "char", "gnomonic_ed"), ("grid_tile", "char", "3")],
              boxes, 2, kind="64bit")


def fv3_grid(d):
    """FV3's static grid file of a tile: centres and corners (one point more, each
    member holding both its edges), no time axis."""
    dims = [("grid_xt", 8), ("grid_yt", 6), ("grid_x", 9), ("grid_y", 7)]
    vars_ = [axis("grid_xt", 8, "degrees_E", "X", 0.5, 1), axis("grid_yt", 6, "degrees_N", "Y", 0.5, 1),
             axis("grid_x", 9, "degrees_E", "X", 0, 1), axis("grid_y", 7, "degrees_N", "Y", 0, 1),
             Var("grid_lont", "double", ["grid_yt", "grid_xt"], [("units", "char", "degrees_E")],
                 lambda j, i: 0.5 + i + j / 100.0),
             Var("grid_lon", "double", ["grid_y", "grid_x"], [("units", "char", "degrees_E")],
                 lambda j, i: i + j / 100.0),
             Var("area", "float", ["grid_yt", "grid_xt"], [("units", "char", "m**2")], lambda j, i: 1e8 + 10 * j + i)]
    boxes = symmetric_boxes(8, 2, 6, 2, ("grid_xt", "grid_yt"), ("grid_x", "grid_y"))
    write_set(d, "grid_spec.tile1.nc", dims, vars_, [], boxes, 0)


def lm4_tiles(i):
    """Member i's land tiles: (tile, j, i) of the whole 8 x 4 grid, a different count per member."""
    return [[(0, 0, 0), (1, 0, 0), (0, 0, 2), (0, 1, 1), (2, 1, 3)], [(0, 0, 5), (0, 1, 4), (1, 1, 7)],
            [(0, 2, 0), (0, 2, 1), (1, 2, 1), (0, 3, 2), (2, 3, 3), (1, 3, 0)], [(0, 2, 6), (0, 3, 7)]][i]


def lm4_restart(d):
    """LM4's land restart: a compressed tile_index axis (compress = "tile lat lon")
    whose length is the member's own land tiles, beside lon/lat decomposed 2 x 2."""
    dims = [("lon", 8), ("lat", 4), ("tile", 3), ("zfull", 2), ("tile_index", 9), ("Time", None)]

    def vars_(m, box):
        tiles = lm4_tiles(m)
        idx = [t * 32 + j * 8 + i for (t, j, i) in tiles]
        return [axis("lon", 8, "degrees_east", "X", 22.5, 45), axis("lat", 4, "degrees_north", "Y", -67.5, 45),
                Var("tile", "int", ["tile"], [("long_name", "char", "tile number")], lambda k: k + 1),
                Var("zfull", "double", ["zfull"], [("units", "char", "m")], lambda k: 0.01 + 0.1 * k),
                Var("tile_index", "int", ["tile_index"], [("compress", "char", "tile lat lon"),
                                                          ("valid_min", "int", [0])], lambda k: idx[k]),
                Var("Time", "double", ["Time"], [("units", "char", "days since 0001-01-01 00:00:00")],
                    lambda t: 365.0),
                Var("frac", "double", ["tile_index"], [("long_name", "char", "fractional area of tile")],
                    lambda k: 0.25 * (tiles[k][0] + 1)),
                Var("soil_T", "double", ["Time", "zfull", "tile_index"], [("units", "char", "degK")],
                    lambda t, z, k: 270.0 + z + idx[k] / 100.0),
                Var("area", "float", ["lat", "lon"], [("units", "char", "m2")], lambda j, i: 1000.0 * j + i)]
    write_set(d, "land.res.nc", dims, vars_, [], land_boxes(), 1)


def lm4_history(d):
    """A land history set of our own making: gridded fields by soil level and
    time, a static tile fraction on a compressed tile_index axis, lon/lat 2 x 2."""
    dims = [("lon", 8), ("lat", 4), ("zfull", 2), ("tile_index", 9), ("time", None)]

    def vars_(m, box):
        tiles = lm4_tiles(m)
        idx = [t * 32 + j * 8 + i for (t, j, i) in tiles]
        return [axis("lon", 8, "degrees_east", "X", 22.5, 45), axis("lat", 4, "degrees_north", "Y", -67.5, 45),
                Var("zfull", "double", ["zfull"], [("units", "char", "m")], lambda k: 0.01 + 0.1 * k),
                Var("tile_index", "int", ["tile_index"], [("compress", "char", "tile lat lon")], lambda k: idx[k]),
                time_var(),
                Var("tile_frac", "float", ["tile_index"], [], lambda k: 0.25 * (tiles[k][0] + 1)),
                Var("soil_liq", "float", ["time", "zfull", "lat", "lon"],
                    [("units", "char", "kg/m2"), ("missing_value", "float", [-1e20])],
                    lambda t, z, j, i: 10 * t + z + j / 10.0 + i / 100.0),
                Var("evap", "float", ["time", "lat", "lon"], [("units", "char", "kg/(m2 s)")],
                    lambda t, j, i: t + j + i / 8.0),
                Var("landmask", "byte", ["lat", "lon"], [], lambda j, i: (i + j) % 2)]
    write_set(d, "land_month.nc", dims, vars_, [("title", "char", "land history")], land_boxes(), 2)


def sis2_restart(d):
    """SIS2's ice restart as fms_io writes restarts: xaxis_1, yaxis_1 decomposed,
    categories and layers on zaxis_1, zaxis_2, one Time record, 3 x 2 layout."""
    dims = [("xaxis_1", 9), ("yaxis_1", 4), ("zaxis_1", 5), ("zaxis_2", 4), ("Time", None)]
    vars_ = [Var("xaxis_1", "double", ["xaxis_1"], [("long_name", "char", "xaxis_1"), ("units", "char", "none"),
                                                     ("cartesian_axis", "char", "X")], lambda i: i + 1.0),
             Var("yaxis_1", "double", ["yaxis_1"], [("long_name", "char", "yaxis_1"), ("units", "char", "none"),
                                                     ("cartesian_axis", "char", "Y")], lambda j: j + 1.0),
             Var("zaxis_1", "double", ["zaxis_1"], [("cartesian_axis", "char", "Z")], lambda k: k + 1.0),
             Var("zaxis_2", "double", ["zaxis_2"], [("cartesian_axis", "char", "Z")], lambda k: k + 1.0),
             Var("Time", "double", ["Time"], [("cartesian_axis", "char", "T"), ("units", "char", "time level")],
                 lambda t: 1.0),
             Var("part_size", "double", ["Time", "zaxis_1", "yaxis_1", "xaxis_1"], [("units", "char", "none")],
                 lambda t, k, j, i: k / 10.0 + j / 100.0 + i / 1000.0),
             Var("enth_ice", "double", ["Time", "zaxis_2", "yaxis_1", "xaxis_1"], [("units", "char", "J kg-1")],
                 lambda t, k, j, i: -3e5 + 1000 * k + 10 * j + i),
             Var("sfc_salt", "float", ["Time", "yaxis_1", "xaxis_1"], [], lambda t, j, i: 30 + j + i / 10.0)]
    boxes = [{"xaxis_1": x, "yaxis_1": y} for y in split(4, 2) for x in split(9, 3)]
    write_set(d, "ice_model.res.nc", dims, vars_, [], boxes, 1)


def mom6_restart(d):
    """MOM6's restart: Layer and Interface, h points on xaxis_1/yaxis_1, symmetric
    q points on xaxis_2/yaxis_2 (one more, each member holding both edges)."""
    dims = [("xaxis_1", 6), ("yaxis_1", 4), ("xaxis_2", 7), ("yaxis_2", 5), ("Layer", 2), ("Interface", 3),
            ("Time", None)]
    ax = lambda n, c, lo: Var(n, "double", [n], [("cartesian_axis", "char", c)], lambda i: lo + i)
    vars_ = [ax("xaxis_1", "X", 0.5), ax("yaxis_1", "Y", 0.5), ax("xaxis_2", "X", 0), ax("yaxis_2", "Y", 0),
             ax("Layer", "Z", 1), ax("Interface", "Z", 0.5),
             Var("Time", "double", ["Time"], [("units", "char", "days")], lambda t: 3650.0),
             Var("u", "double", ["Time", "Layer", "yaxis_1", "xaxis_2"], [("units", "char", "m s-1")],
                 lambda t, k, j, i: 0.001 * (100 * k + 10 * j + i)),
             Var("v", "double", ["Time", "Layer", "yaxis_2", "xaxis_1"], [("units", "char", "m s-1")],
                 lambda t, k, j, i: -0.001 * (100 * k + 10 * j + i)),
             Var("h", "double", ["Time", "Layer", "yaxis_1", "xaxis_1"], [("units", "char", "m")],
                 lambda t, k, j, i: 100.0 * (k + 1) + j + i / 10.0),
             Var("ave_ssh", "double", ["Time", "yaxis_1", "xaxis_1"], [], lambda t, j, i: j / 10.0 - i / 100.0)]
    boxes = symmetric_boxes(6, 2, 4, 2, ("xaxis_1", "yaxis_1"), ("xaxis_2", "yaxis_2"))
    write_set(d, "MOM.res.nc", dims, vars_, [], boxes, 1)


def regional(d):
    """A regional FV3 domain: its axes start at global point 101 (domain_decomposition
    = 101, 110, ...), uneven 3 x 1 layout, a missing_value -m uses."""
    dims = [("grid_xt", 10), ("grid_yt", 3), ("time", None)]
    vars_ = [axis("grid_xt", 10, "degrees_E", "X", 250, 0.5), axis("grid_yt", 3, "degrees_N", "Y", 30, 0.5),
             time_var("hours since 2020-06-01 00:00:00"),
             Var("refc", "float", ["time", "grid_yt", "grid_xt"],
                 [("units", "char", "dBZ"), ("missing_value", "float", [-999.0])],
                 lambda t, j, i: t + j / 10.0 + i / 100.0)]
    boxes = [{"grid_xt": x, "grid_yt": (1, 3), "_gstart": {"grid_xt": 101, "grid_yt": 51}} for x in [(1, 4), (5, 7), (8, 10)]]
    write_set(d, "fv3_regional.nc", dims, vars_, [("grid_type", "char", "regional")], boxes, 2)


def fms2_axis(name, unit, cart, lo, step, long_name=None):
    """An axis as fms2_io writes it: units first, CF's axis for cartesian_axis."""
    return Var(name, "double", [name], [("units", "char", unit), ("long_name", "char", long_name or name),
                                        ("axis", "char", cart)], lambda i: lo + step * i)


def fms2_perpe(d, skip=(), nfiles=0, boxes=None, numbers=None):
    """The FMS release's diagnostics (fms2_io, 2026.01.01) without an io domain
    (io_layout 0,0): one 64-bit offset file per PE of a 2 x 2 layout, each with
    NumFilesInSet = 0 (the set's size is not recorded), no filename attribute,
    CF's axis attributes and calendar "noleap"; skip: PEs whose files are gone;
    nfiles "absent": no NumFilesInSet; boxes, numbers: other members."""
    dims = [("xt_ocean", 8), ("yt_ocean", 6), ("st_ocean", 2), ("time", None), ("nv", 2)]
    fill = [("_FillValue", "float", [-1e20]), ("missing_value", "float", [-1e20])]
    vars_ = [fms2_axis("xt_ocean", "degrees_E", "X", -279.5, 45, "tcell longitude"),
             fms2_axis("yt_ocean", "degrees_N", "Y", -75, 30, "tcell latitude"),
             fms2_axis("st_ocean", "meters", "Z", 5, 10, "tcell zstar depth"),
             Var("time", "double", ["time"], [("units", "char", "days since 0001-01-01 00:00:00"),
                                              ("long_name", "char", "time"), ("axis", "char", "T"),
                                              ("calendar_type", "char", "NOLEAP"), ("calendar", "char", "noleap"),
                                              ("bounds", "char", "time_bnds")], lambda t: 0.0625 * (t + 0.5)),
             Var("nv", "double", ["nv"], [("long_name", "char", "vertex number")], lambda i: i + 1),
             Var("temp", "float", ["time", "st_ocean", "yt_ocean", "xt_ocean"],
                 fill + [("units", "char", "deg_C"), ("long_name", "char", "Conservative temperature"),
                         ("cell_methods", "char", "time: mean")],
                 lambda t, k, j, i: 1000 * t + 100 * k + 10 * j + i),
             Var("eta_t", "float", ["time", "yt_ocean", "xt_ocean"],
                 fill + [("units", "char", "meter"), ("long_name", "char", "surface height on T cells")],
                 lambda t, j, i: t + j / 10.0 + i / 100.0),
             Var("time_bnds", "double", ["time", "nv"], [("units", "char", "days since 0001-01-01 00:00:00"),
                                                        ("long_name", "char", "time axis boundaries")],
                 lambda t, b: 0.0625 * (t + b))]
    boxes = boxes or [{"xt_ocean": x, "yt_ocean": y} for y in split(6, 2) for x in split(8, 2)]
    write_set(d, "ocean.nc", dims, vars_, [("title", "char", "MOM5"), ("grid_type", "char", "regular")], boxes, 2,
              kind="64bit", nfiles=nfiles, filename=False, skip=skip, numbers=numbers)


def fms2_perpe_stale(d):
    """fms2-perpe beside a file of an earlier run of the same grid on 1 x 2 PEs
    (ocean.nc.0004: x 1-8, y 1-3), which overlaps the set's members."""
    fms2_perpe(d)
    with open(os.devnull, "w") as devnull:
        old, sys.stdout = sys.stdout, devnull
        try:
            fms2_perpe(d, boxes=[{"xt_ocean": (1, 8), "yt_ocean": (1, 3)}], numbers=[4])
        finally:
            sys.stdout = old


def regional_perpe(d):
    """A regional diagnostic of the FMS release without an io domain
    (diag_output.F90): only the PEs holding part of the region write, each its
    own file numbered by its PE (0001, 0002, 0005, 0006 of a 4 x 2 layout), with
    NumFilesInSet = 0 and sub-axes whose domain_decomposition is the region's
    (x 11-26 of 40, y 4-9 of 12)."""
    dims = [("xt_ocean_sub01", 16), ("yt_ocean_sub01", 6), ("time", None)]
    vars_ = [fms2_axis("xt_ocean_sub01", "degrees_E", "X", -229.5, 9), fms2_axis("yt_ocean_sub01", "degrees_N", "Y",
                                                                                -60, 15),
             Var("time", "double", ["time"], [("units", "char", "days since 0001-01-01 00:00:00"),
                                              ("axis", "char", "T"), ("calendar", "char", "noleap")],
                 lambda t: 1.0 + t),
             Var("sst", "float", ["time", "yt_ocean_sub01", "xt_ocean_sub01"],
                 [("_FillValue", "float", [-1e20]), ("units", "char", "degC")],
                 lambda t, j, i: 20 + t + j / 10.0 + i / 100.0)]
    g0 = {"xt_ocean_sub01": 11, "yt_ocean_sub01": 4}
    boxes = [{"xt_ocean_sub01": x, "yt_ocean_sub01": y, "_gstart": g0} for y in [(1, 3), (4, 6)]
             for x in [(1, 10), (11, 16)]]
    write_set(d, "ocean_region.nc", dims, vars_, [("title", "char", "MOM5")], boxes, 2, kind="64bit", nfiles=0,
              filename=False, numbers=[1, 2, 5, 6])


def crashed(d):
    """A run that crashed while writing: the last member holds one record, the others two."""
    mom5(d)
    nm = "ocean_month.nc.0003"
    one = os.path.join(d, "crash1")
    os.mkdir(one)
    with open(os.devnull, "w") as devnull:
        old, sys.stdout = sys.stdout, devnull
        try:
            mom5(one, 1)
        finally:
            sys.stdout = old
    os.replace(os.path.join(one, nm), os.path.join(d, nm))
    for f in os.listdir(one):
        os.remove(os.path.join(one, f))
    os.rmdir(one)


def truncated(d):
    """A member cut short in its values (a copy interrupted, a full disk)."""
    mom5(d)
    p = os.path.join(d, "ocean_month.nc.0002")
    with open(p, "r+b") as f:
        f.truncate(os.path.getsize(p) - 100)


def cdf5(d):
    """CDF-5 members as PnetCDF writes them: unsigned integer fields decomposed (ncgen 4.9
    writes a CDL int64 as int in CDF-5, so the count is an int)."""
    dims = [("x", 6), ("y", 2), ("time", None)]
    vars_ = [axis("x", 6, "m", "X", 0, 1), axis("y", 2, "m", "Y", 0, 1), time_var(),
             Var("count", "int", ["time", "y", "x"], [], lambda t, j, i: 1000000000 + 100 * t + 10 * j + i),
             Var("id", "uint", ["y", "x"], [], lambda j, i: 4000000000 + 10 * j + i),
             Var("flags", "ubyte", ["time", "y", "x"], [], lambda t, j, i: 200 + 10 * t + j + i),
             Var("cat", "ushort", ["y", "x"], [], lambda j, i: 60000 + 10 * j + i),
             Var("q", "double", ["time", "y", "x"], [], lambda t, j, i: t + j / 10.0 + i / 100.0)]
    boxes = [{"x": x} for x in split(6, 2)]
    write_set(d, "pnetcdf_out.nc", dims, vars_, [("source", "char", "PnetCDF")], boxes, 2, kind="cdf5")


def nc4_strings(d):
    """netCDF-4 members another writer made: a string variable and attribute, an
    int64 time, NaN _FillValue and a scalar grid mapping (xarray's way), 2 members in x."""
    dims = [("x", 4), ("y", 2), ("time", None), ("nchar", 3)]
    vars_ = [axis("x", 4, "degrees_east", "X", 0, 90), axis("y", 2, "degrees_north", "Y", -45, 90),
             Var("time", "int64", ["time"], [("units", "char", "hours since 2000-01-01")], lambda t: 6 * t),
             Var("station", "string", ["nchar"], [("long_name", "string", "station names")],
                 lambda c: ["abc", "de", "f"][c]),
             Var("sst", "float", ["time", "y", "x"], [("_FillValue", "float", [float("nan")]),
                                                     ("coordinates", "char", "y x")],
                 lambda t, j, i: 20 + t + j + i / 4.0),
             Var("crs", "int", [], [("grid_mapping_name", "char", "latitude_longitude")], lambda: 0),
             Var("wind", "double", ["time", "y", "x"], [], lambda t, j, i: 5.0 * t + j - i)]
    boxes = [{"x": x} for x in split(4, 2)]
    write_set(d, "xr_out.nc", dims, vars_, [("Conventions", "char", "CF-1.8")], boxes, 2, kind="nc4")


def huge(d):
    """Two tiny members of a 200000 x 20000 grid (a 15 GiB block of floats): the rest of the grid
    is nobody's, as if most processors were masked out."""
    dims = [("x", 200000), ("y", 20000), ("time", None)]
    vars_ = [axis("x", 200000, "m", "X", 0, 1), axis("y", 20000, "m", "Y", 0, 1), time_var(),
             Var("f", "float", ["time", "y", "x"], [], lambda t, j, i: t + j + i)]
    write_set(d, "huge.nc", dims, vars_, [], [{"x": (1, 2), "y": (1, 2)}, {"x": (3, 4), "y": (1, 2)}], 1)


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


def cdl_parse(path):
    """A netCDF file as ncdump -p 9,17 prints it (every value exact): its
    dimensions [(name, length or None)], variables [(type, name, dims, [(att,
    text)])], global attributes [(att, text)] and values {name: [numbers]}."""
    text = subprocess.run(["ncdump", "-p", "9,17", path], stdout=subprocess.PIPE, check=True, text=True).stdout
    head, data = text.split("\ndata:\n", 1)
    dims, vars_, gatts, where = [], [], [], None
    for line in head.splitlines()[1:]:
        t = line.strip()
        if t in ("dimensions:", "variables:"):
            where = t
        elif t == "// global attributes:":
            where = "global"
        elif where == "dimensions:" and "=" in t:
            name, n = [x.strip() for x in t.rstrip(" ;").split("//")[0].rstrip(" ;").split("=")]
            dims.append((name, None if n == "UNLIMITED" else int(n)))
        elif t.startswith(":") and where == "global":
            name, val = t[1:].split(" = ", 1)
            gatts.append((name, val.rstrip(" ;")))
        elif ":" in t and " = " in t:
            name, val = t.split(" = ", 1)
            vars_[-1][3].append((name.split(":", 1)[1], val.rstrip(" ;")))
        elif where == "variables:" and t.endswith(";"):
            typ, rest = t.rstrip(" ;").split(" ", 1)
            name, _, dl = rest.partition("(")
            vars_.append((typ, name, [x.strip() for x in dl.rstrip(")").split(",")] if dl else [], []))
    values = {}
    for chunk in data.rstrip().rstrip("}").split(";"):
        if "=" not in chunk:
            continue
        name, vals = chunk.split("=", 1)
        values[name.strip()] = [float(x) for x in vals.replace("\n", " ").split(",") if x.strip()]
    return dims, vars_, gatts, values


def mom5_sliced(d, src, px, py):
    """mom_io's combined file src cut into a px x py layout of members as mom_io's
    per-PE pattern writes them (the decomposed axes' domain_decomposition,
    NumFilesInSet, the member's filename, climio_mom_fields kept), for sets of more
    members than a test can run ranks: mom_combine --mom5 reads them as mom_io's."""
    dims, vars_, gatts, values = cdl_parse(src)
    glen = dict(dims)
    nrec = len(values.get("time", [])) if glen.get("time", 1) is None else 0

    def value_of(name, vdims):
        shape = [nrec if glen[x] is None else glen[x] for x in vdims]
        arr = values[name]

        def f(*idx):
            at = 0
            for i, n in zip(idx, shape):
                at = at * n + i
            return arr[at]
        return f
    vs = [Var(name, typ, vdims, [(a, "raw", t) for a, t in atts if a != "domain_decomposition"], value_of(name, vdims))
          for typ, name, vdims, atts in vars_]
    nx, ny = glen["xt_ocean"], glen["yt_ocean"]
    boxes = [{"xt_ocean": x, "xu_ocean": x, "yt_ocean": y, "yu_ocean": y} for y in split(ny, py) for x in split(nx, px)]
    base = os.path.basename(src)
    write_set(d, base, dims, vs, [(a, "raw", t) for a, t in gatts if a not in ("filename", "NumFilesInSet")], boxes, nrec,
              width=6 if len(boxes) > 10000 else 4)


CASES = {"mom5": mom5, "mom5-1rec": lambda d: mom5(d, 1), "mom6": mom6, "fv3": fv3, "land": land, "ice": ice, "edited": edited, "nc4": nc4, "many": many, "many-4": lambda d: many(d, 2, 2),
         "am4": am4, "fv3-grid": fv3_grid, "lm4-restart": lm4_restart, "lm4-history": lm4_history,
         "sis2-restart": sis2_restart, "mom6-restart": mom6_restart, "regional": regional, "crashed": crashed,
         "truncated": truncated, "cdf5": cdf5, "nc4-strings": nc4_strings, "huge": huge,
         "fms2-perpe": fms2_perpe, "fms2-perpe-gap": lambda d: fms2_perpe(d, skip=(2,)),
         "regional-perpe": regional_perpe, "fms2-perpe-stale": fms2_perpe_stale,
         "fms2-perpe-nocount": lambda d: fms2_perpe(d, nfiles="absent")}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(" ".join(CASES))
        sys.exit(0)
    if sys.argv[1] == "--slice":        # --slice SRC PX PY DIR
        mom5_sliced(sys.argv[5], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
        sys.exit(0)
    CASES[sys.argv[1]](sys.argv[2])
