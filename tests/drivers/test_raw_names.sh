#!/bin/sh
# Raw MPI-IO files are named .raw, not .nc, by every kernel; and the reader that
# doc/drivers.md gives for them returns the same values as ncdump shows for the
# CDF-5 file of the same plan.
. "$top_srcdir/tests/lib.sh"
set -e
have_driver pnetcdf || skip "needs the pnetcdf driver for the CDF-5 reference"
[ -n "$NCDUMP" ] || skip "needs ncdump"
cd "$TESTTMP"
run 2 "$top_builddir/src/gcrm/gcrm_io" --driver mpiio --cdf_output_path g/ --quiet true >/dev/null || fail "gcrm_io mpiio run"
[ "$(ls g | grep -c '\.raw$')" = 14 ] || fail "gcrm_io wrote $(ls g | tr '\n' ' '), expected 14 .raw files"
[ -z "$(ls g | grep '\.nc$')" ] || fail "gcrm_io named raw files .nc"
run 2 "$top_builddir/src/mom/mom_io" --driver mpiio --out m --records 1 --pattern parallel --io_layout 2,1 --quiet true >/dev/null || fail "mom_io mpiio run"
[ "$(ls m)" = ocean.raw ] || fail "mom_io wrote $(ls m), expected ocean.raw"
run 2 "$top_builddir/src/mom/mom_io" --driver mpiio --out s --records 1 --pattern perpe --single_writer mpiio --quiet true >/dev/null \
    || fail "mom_io per-PE mpiio run"
[ "$(ls s | tr '\n' ' ')" = "ocean.raw.0000 ocean.raw.0001 " ] || fail "mom_io per-PE set: $(ls s | tr '\n' ' ')"
run 2 "$top_builddir/src/decomp/decomp_io" --driver mpiio --nvars 1 --out d --quiet true >/dev/null || fail "decomp_io mpiio run"
[ "$(ls d)" = decomp_io.raw ] || fail "decomp_io wrote $(ls d), expected decomp_io.raw"
run 2 "$top_builddir/src/pfio/pfio_io" "$top_srcdir/inputs/pfio.in" --driver mpiio --im_world 36 --jm_world 19 --km_world 4 \
    --output_dir p --quiet true >/dev/null || fail "pfio_io mpiio run"
[ "$(ls p | tr '\n' ' ')" = "Nsample_pfio_file_Day0001.raw Nsample_pfio_file_Day0002.raw Nsample_pfio_file_Day0003.raw " ] \
    || fail "pfio_io wrote $(ls p | tr '\n' ' ')"
run 2 "$top_builddir/src/exercise/engine_exercise" --driver mpiio --out r --quiet true >/dev/null || fail "engine_exercise mpiio"
run 2 "$top_builddir/src/exercise/engine_exercise" --driver pnetcdf --format cdf5 --out n --quiet true >/dev/null \
    || fail "engine_exercise pnetcdf"
"$PYTHON" - "$top_srcdir/doc/drivers.md" r/exercise.raw n/exercise.nc "$NCDUMP" <<'PY' || fail "the reader in doc/drivers.md disagrees with ncdump"
import re, subprocess, sys
doc, raw_path, nc_path, ncdump = sys.argv[1:5]
src = open(doc).read()
code = src[src.index("```python\n") + 10:]
exec(code[:code.index("```")])
raw = read_raw(raw_path)
assert sorted(raw) == ["mask", "salt", "temp", "time"], sorted(raw)
for name, (shape, vals) in raw.items():
    text = subprocess.run([ncdump, "-v", name, "-p", "9,17", nc_path], capture_output=True, text=True, check=True).stdout
    body = text[text.index("data:"):]
    body = body[body.index("=") + 1:body.rindex(";")]
    want = [float(x) for x in re.split(r"[,\s]+", body.strip()) if x]
    if len(vals) != len(want) or any(abs(a - b) > 1e-6 * max(1.0, abs(b)) for a, b in zip(vals, want)):
        sys.exit("%s: raw values differ from ncdump's" % name)
    print(name, shape, "equal")
PY
pass
