"""A compression sweep end to end, for real: climio-sweep runs engine_exercise
writing model data over deflate x shuffle with --compression_reference, as
netCDF-4 and as CDF-2 (no filters); collect's CSV carries each run's filter
settings, compression ratio (none for the classic files, not 0) and the time
compression added (from the runs' JSON), and report draws the ratio against the
bandwidth."""

import csv
import os

from conftest import load, run_tool, runs_of, write

SWEEP = """
[sweep]
name = "compress"
kernel = "engine_exercise"
nprocs = 2
timeout = 120                # a run that hangs fails instead of stopping the sweep

[parameters]
driver = "netcdf"
format = ["nc4", "cdf2"]
iotype = "blocking_collective"
data = "model"
nx = 64
ny = 48
nz = 4
nrec = 2
deflate = [0, 1]
shuffle = [false, true]
storage_report = true
compression_reference = true
"""


def test_compression_sweep(tmp_path, exercise):
    sw = write(str(tmp_path / "compress.toml"), SWEEP)
    p = run_tool(["run", sw], cwd=str(tmp_path), timeout=600)
    assert "8 runs: 8 done" in p.stdout, p.stdout
    out = str(tmp_path / "compress.sweep")
    run_tool(["collect", out], cwd=str(tmp_path))
    with open(os.path.join(out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 8
    for col in ("data.kind", "data.deflate", "data.shuffle", "data.szip", "data.quantize", "storage_ratio",
                "storage_data_bytes", "storage_stored_bytes", "compression_added_s", "compression_added_fraction",
                "compression_unfiltered_s"):
        assert col in rows[0], col
    runs = runs_of(out)
    ratio = {}
    for r in rows:
        res = load(os.path.join(runs[r["run"]], "result.json"))
        comp = res["data"]["compression"]
        assert r["data.kind"] == "model"
        assert r["data.deflate"] == str(comp["deflate"]) and r["data.shuffle"] == str(comp["shuffle"]).lower()
        assert r["data.quantize"] == "none"
        filtered = comp["deflate"] > 0 or comp["shuffle"]
        if filtered:
            ct = res["data"]["compression_time"]
            assert float(r["compression_added_s"]) == ct["added_seconds"]
            assert float(r["compression_unfiltered_s"]) == ct["unfiltered_seconds"] > 0
        else:
            assert r["compression_added_s"] == "" and "compression_time" not in res["data"]
            assert any(n["key"] == "compression_reference" for n in res["not_applied"])
        if r["io.format"] == "cdf2":    # a classic file has no chunks to measure, and the filters asked were off
            assert r["storage_ratio"] == "" and "storage" not in res and not filtered
            continue
        assert float(r["storage_ratio"]) == res["storage"]["ratio"]
        assert int(r["storage_stored_bytes"]) == res["storage"]["stored_bytes"]
        ratio[(comp["deflate"], comp["shuffle"])] = res["storage"]["ratio"]
    assert len(ratio) == 4 and ratio[(0, False)] == 1.0
    assert ratio[(1, True)] > ratio[(0, True)] and ratio[(1, True)] > 1.5, ratio

    run_tool(["report", out], cwd=str(tmp_path))
    rep = os.path.join(out, "report")
    assert "ratio_bandwidth.png" in os.listdir(rep)
    assert os.path.getsize(os.path.join(rep, "ratio_bandwidth.png")) > 10000
    page = open(os.path.join(rep, "report.html")).read()
    assert "Compression ratio vs bandwidth" in page
