"""Compare every variable's chunking in a netCDF-4 file with what netCDF-C
chooses by itself for the same variable (a fresh file, same dimensions, type
and shape, no chunk sizes given).  Prints the differences; exit 1 if any.

    chunks_match.py FILE SCRATCH.nc
"""
import sys
import warnings

warnings.filterwarnings("ignore", message="numpy.ndarray size changed")
import netCDF4  # noqa: E402


def main(path, scratch):
    bad = 0
    with netCDF4.Dataset(path) as src, netCDF4.Dataset(scratch, "w") as ref:
        for name, d in src.dimensions.items():
            ref.createDimension(name, None if d.isunlimited() else len(d))
        for name, v in src.variables.items():
            mine = v.chunking()
            lib = ref.createVariable(name, v.dtype, v.dimensions).chunking()
            if mine != lib:
                bad += 1
                print("%s: %s: chunks %s, netCDF-C's default %s" % (path, name, mine, lib))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
