"""Check that a raw file (mpiio driver) holds the data of a classic netCDF file in
the same layout as the netCDF file's data section: every variable and record at
the same offset from the start of the data, the same bytes once the netCDF
file's big-endian elements are swapped to native order.

usage: rawcheck.py FILE.raw FILE.nc   (offsets of the .nc come from ncoffsets -r)
Prints what it compared; exits 1 on the first difference."""
import re
import subprocess
import sys

SIZES = {"char": 1, "byte": 1, "ubyte": 1, "short": 2, "ushort": 2, "int": 4, "uint": 4,
         "float": 4, "double": 8, "int64": 8, "uint64": 8}


def cdf_ranges(path, ncoffsets):
    """[(name, type size, start, end)] for every variable and record, from ncoffsets -r."""
    out = subprocess.run([ncoffsets, "-r", path], check=True, capture_output=True, text=True).stdout
    ranges, cur, size, start = [], None, 0, None
    for line in out.splitlines():
        m = re.match(r"\s*(\w+)\s+(\w+)(\(.*\))?:\s*$", line)
        if m and m.group(1) in SIZES:
            cur, size = m.group(2), SIZES[m.group(1)]
            continue
        m = re.match(r"\s*start file offset =\s*(\d+)", line)
        if m:
            start = int(m.group(1))
            continue
        m = re.match(r"\s*end\s+file offset =\s*(\d+)", line)
        if m and cur is not None and start is not None:
            ranges.append((cur, size, start, int(m.group(1))))
            start = None
    return ranges


def raw_header_bytes(data):
    m = re.match(rb"climio-raw 1\nheader_bytes (\d+)\n", data)
    if not m:
        sys.exit("rawcheck: no climio raw header")
    return int(m.group(1))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    raw_path, nc_path, ncoffsets = sys.argv[1:4]
    raw = open(raw_path, "rb").read()
    nc = open(nc_path, "rb").read()
    hdr = raw_header_bytes(raw)
    ranges = cdf_ranges(nc_path, ncoffsets)
    if not ranges:
        sys.exit("rawcheck: ncoffsets listed no variables")
    data0 = min(r[2] for r in ranges)
    checked = 0
    for name, size, start, end in ranges:
        a = nc[start:end]
        b = raw[hdr + start - data0: hdr + end - data0]
        if len(a) != end - start or len(b) != end - start:
            sys.exit(f"rawcheck: {name} at {start}: the files are too short")
        swapped = b"".join(a[i:i + size][::-1] for i in range(0, len(a), size))
        if swapped != b:
            k = next(i for i in range(len(b)) if swapped[i] != b[i])
            sys.exit(f"rawcheck: {name}: byte {k} of the range at netCDF offset {start} differs")
        checked += end - start
    print(f"rawcheck: {len(ranges)} variable ranges, {checked} bytes identical at the same data offsets")
    if len(raw) - hdr != max(r[3] for r in ranges) - data0:
        sys.exit(f"rawcheck: raw data section is {len(raw) - hdr} bytes, netCDF's {max(r[3] for r in ranges) - data0}")


main()
