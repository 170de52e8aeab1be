"""Open every netCDF file under the given folders the way users do, with
netCDF4-python and xarray, and read one variable of each (the first data
variable with values, in full).  Prints one line per file that fails and a
summary; exits 1 on any failure or when no file was found.

    clients_open.py FOLDER...
"""
import os
import sys
import warnings


def files_under(folders):
    for top in folders:
        for root, _, names in os.walk(top):
            for n in sorted(names):
                if n.endswith(".json") or n.endswith(".txt") or n.startswith("."):
                    continue
                yield os.path.join(root, n)


def first_var(names, skip):
    for n in names:
        if n not in skip:
            return n
    return None


def check(path):
    import netCDF4
    import xarray as xr
    with netCDF4.Dataset(path) as nc:
        name = first_var([v for v in nc.variables if nc.variables[v].size > 0], ())
        if name is None:
            return "netCDF4: no variable with values"
        nc.variables[name][...]
        phony = [d for d in nc.dimensions if d.startswith("phony_dim")]
        if phony:
            return "netCDF4: unnamed dimensions %s" % ", ".join(phony)
    # xarray decodes times as a user's default open_dataset does (cftime where
    # numpy's datetime64 cannot hold them, with a warning that is no failure)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", xr.SerializationWarning)
        with xr.open_dataset(path) as ds:
            name = first_var([v for v in ds.data_vars if ds[v].size > 0], ())
            if name is None:
                name = first_var([v for v in ds.coords if ds[v].size > 0], ())
            if name is None:
                return "xarray: no variable with values"
            ds[name].load()
    return None


def main(argv):
    try:
        import netCDF4  # noqa: F401
        import xarray  # noqa: F401
    except ImportError as e:
        print("clients_open: %s (Debian: python3-netcdf4 python3-xarray)" % e)
        return 77
    warnings.filterwarnings("ignore", message="numpy.ndarray size changed")
    n = bad = 0
    for path in files_under(argv[1:]):
        n += 1
        try:
            why = check(path)
        except Exception as e:  # what the library says is the message
            why = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        if why:
            bad += 1
            print("FAIL %s: %s" % (path, why))
    print("clients_open: %d files, %d failed" % (n, bad))
    return 1 if bad or n == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
