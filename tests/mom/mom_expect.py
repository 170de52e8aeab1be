"""Expected figures of a mom_io run, computed independently of the kernel from
the FMS decomposition rules: used by the mom shell tests.

usage: mom_expect.py RESULT.json   -> exit 1 with a message if a figure differs
"""
import json
import sys


def extents(n, ndivs):
    """Near-equal consecutive extents, the larger first."""
    out, at = [], 0
    for k in range(ndivs):
        w = -(-(n - at) // (ndivs - k))
        out.append((at, w))
        at += w
    return out


def main(path):
    d = json.load(open(path))
    k = d["kernel_report"]
    ni, nj, nk = k["grid"]["ni"], k["grid"]["nj"], k["grid"]["nk"]
    npx, npy = k["layout"]
    iox, ioy = k["io_layout"]
    R = k["records"]
    pat = k["pattern"]
    ts = 4 if k["type"] == "float" else 8
    kinds = [f["kind"] for f in k["fields"]]
    levels = sum(1 for x in kinds if x == "static") + R * sum(nk if x == "3d" else 1 for x in kinds if x != "static")
    xs, ys = extents(ni, npx), extents(nj, npy)
    npes = npx * npy
    assert npes == d["nprocs"], "layout %s does not match %d processes" % (k["layout"], d["nprocs"])

    def box(pe):
        return xs[pe % npx][1] * ys[pe // npx][1]

    # roots and the areas they assemble
    if pat == "serial":
        roots = [(0, ni * nj)]
        nfiles, sets = 1, (1, 1)
    elif pat == "perpe":
        roots = [(pe, box(pe)) for pe in range(npes)]
        nfiles = npes
        sets = (npx, npy) if npes > 1 else (1, 1)
    else:
        px, py = npx // iox, npy // ioy
        roots = []
        for jg in range(ioy):
            for ig in range(iox):
                root = jg * py * npx + ig * px
                area = sum(w for _, w in xs[ig * px:(ig + 1) * px]) * sum(h for _, h in ys[jg * py:(jg + 1) * py])
                roots.append((root, area))
        nfiles = 1 if pat == "parallel" or iox * ioy == 1 else iox * ioy
        sets = (1, 1) if nfiles == 1 else (iox, ioy)
    gather = sum(area - box(root) for root, area in roots) * levels * ts
    # the axes: x and y (T and U points), the depths and their nk + 1 edges, nv
    axes = 8 * (2 * ni + 2 * nj + nk + (nk + 1) + 2)
    data = axes + 48 * R + levels * ni * nj * ts
    # a set repeats the depth axis, its edges, nv and the time variables in every
    # member, and an axis slice in every member along the other axis
    extra = (nfiles - 1) * (8 * (nk + (nk + 1) + 2) + 48 * R) + 16 * (sets[1] - 1) * ni + 16 * (sets[0] - 1) * nj
    # diag_manager writes average_T1, average_T2, average_DT and time_bnds (40 bytes)
    # after every time-averaged field, the same values again after all but the first
    navg = sum(1 for x in kinds if x != "static")
    extra += nfiles * R * 40 * max(navg - 1, 0)
    if pat == "parallel":
        # FMS's parallel branch: every io root puts the whole axes and every time value
        extra += (len(roots) - 1) * (axes + R * (8 + 40 * navg))
    want = {
        "writers": len(roots),
        "files": nfiles,
        "gather_bytes": gather,
        "data_bytes": data,
        "bytes_written": data + extra,
    }
    got = {
        "writers": k["writers"],
        "files": k["files"],
        "gather_bytes": k["write"]["gather_bytes"],
        "data_bytes": k["write"]["data_bytes"],
        "bytes_written": d["write"]["bytes"]["written"],
    }
    bad = [f"{key}: got {got[key]}, expected {want[key]}" for key in want if got[key] != want[key]]
    if bad:
        print(f"{path}: " + "; ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
