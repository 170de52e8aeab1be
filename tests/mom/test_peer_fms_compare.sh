#!/bin/sh
# scripts/peer-fms's file comparison (compare_config) on real files, no FMS
# needed: two mom_io runs of the same single-file configuration compare equal;
# with 4096 instead of FMS's 16384 free bytes after the header (header_pad,
# FMS's header_buffer_val) the data sections are still equal, and the
# comparison must name the padding as a difference it has no reason for,
# rather than put the 12 KiB down to the headers' text.
. "$top_srcdir/tests/lib.sh"
set -e
[ -n "${PYTHON:-}" ] || skip "no Python 3 configured (./configure PYTHON=...)"
have_driver netcdf || skip "no netcdf driver built (mom_io's single writers use the serial netCDF-C API)"
[ -n "$NCDUMP" ] || skip "ncdump not found"
command -v ncoffsets >/dev/null 2>&1 || skip "ncoffsets not found (the padding is read from it)"
export PYTHONDONTWRITEBYTECODE=1
io="$top_builddir/src/mom/mom_io"
tiny="$top_srcdir/inputs/mom.in.tiny"
for v in a:16384 b:16384 c:4096; do
  d="$TESTTMP/${v%%:*}"
  run 2 "$io" "$tiny" --layout 2,1 --io_layout 1,1 --header_pad "${v#*:}" --out "$d" --quiet </dev/null \
    >"$TESTTMP/log" 2>&1 || { cat "$TESTTMP/log"; fail "mom_io --header_pad ${v#*:}"; }
done
cat >"$TESTTMP/cmp.py" <<'EOF'
import importlib.machinery, importlib.util, sys
path, fdir, mdir = sys.argv[1:4]
loader = importlib.machinery.SourceFileLoader("peer_fms", path)
spec = importlib.util.spec_from_loader("peer_fms", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
report = {"configs": []}
for d in m.compare_config(None, "single", fdir, mdir, {}, {}, report):
    print("%s | %s" % (d, "explained" if m.explain(d) else "UNEXPLAINED"))
EOF
"$PYTHON" "$TESTTMP/cmp.py" "$top_srcdir/scripts/peer-fms" "$TESTTMP/a" "$TESTTMP/b" \
  >"$TESTTMP/same.txt" 2>&1 || { cat "$TESTTMP/same.txt"; fail "comparing two equal runs failed"; }
[ ! -s "$TESTTMP/same.txt" ] || { cat "$TESTTMP/same.txt"; fail "two equal mom_io runs compared different"; }
"$PYTHON" "$TESTTMP/cmp.py" "$top_srcdir/scripts/peer-fms" "$TESTTMP/a" "$TESTTMP/c" \
  >"$TESTTMP/pad.txt" 2>&1 || { cat "$TESTTMP/pad.txt"; fail "comparing the padded runs failed"; }
grep -qx 'ocean.nc: header padding: FMS 16384, mom_io 4096 free bytes after the header (ncoffsets: extent - size) | UNEXPLAINED' \
  "$TESTTMP/pad.txt" || { cat "$TESTTMP/pad.txt"; fail "the other header padding was not reported as unexplained"; }
pass
