"""results.csv's hints_default.KEY columns: every hint the MPI-IO layer (and
PnetCDF) reported for a run without being asked, as the run's result.json has
it (hints.applied less hints.requested); the hints asked stay in their own
columns."""

import csv
import os
import subprocess

from conftest import load, run_tool, runs_of, write


def drivers(exercise):
    text = subprocess.run([exercise, "--version"], stdout=subprocess.PIPE, text=True).stdout
    return text.split("drivers:")[1].split() if "drivers:" in text else []


def test_default_hints_columns(tmp_path, exercise):
    use = [d for d in ("pnetcdf", "mpiio") if d in drivers(exercise)]
    sw = write(str(tmp_path / "h.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\n[parameters]\n'
               'driver = [%s]\nnx = 8\nny = 4\nnz = 2\nnrec = 1\n[hints]\ncb_nodes = 1\n'
               % ", ".join('"%s"' % d for d in use))
    run_tool(["run", sw], cwd=str(tmp_path))
    out = str(tmp_path / "h.sweep")
    run_tool(["collect", out], cwd=str(tmp_path))
    with open(os.path.join(out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(use)
    runs = runs_of(out)
    columns = [c for c in rows[0] if c.startswith("hints_default.")]
    assert "hints_default.cb_nodes" not in columns, "a hint asked is listed as a default"
    assert rows[0]["hints_applied.cb_nodes"] in ("1", ""), rows[0]["hints_applied.cb_nodes"]
    for row in rows:
        res = load(os.path.join(runs[row["run"]], "result.json"))
        want = {k: v for k, v in res["hints"]["applied"].items() if k not in res["hints"]["requested"]}
        have = {c[len("hints_default."):]: row[c] for c in columns if row[c] != ""}
        assert have == want, (row["run"], have, want)
        if row["io.driver"] == "pnetcdf":
            # PnetCDF reports its own defaults on every file, whatever the MPI-IO layer
            assert row["hints_default.nc_header_read_chunk_size"] != "", row
