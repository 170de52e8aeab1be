"""The sample sweep (inputs/sweep.sample.toml) end to end here with mpiexec:
every run in its own folder, collect's CSV and JSON checked against the runs'
JSON results (and the byte count against the plan's arithmetic), and the
report's PNGs and HTML."""

import base64
import csv
import os
import re
import struct

import pytest

from conftest import BUILDDIR, SAMPLE, SRCDIR, load, run_tool, runs_of, tool_env, write

# the sample: nx 64, ny 48, nz 4, nrec 2; engine_exercise writes time (8 B) and
# temp (4 B) + salt (8 B) per element per record, and mask (4 B) once
NX, NY, NZ, NREC = 64, 48, 4, 2
BYTES = NREC * (8 + 12 * NZ * NY * NX) + 4 * NY * NX


@pytest.fixture(scope="module")
def sample(tmp_path_factory, exercise):
    cwd = tmp_path_factory.mktemp("local")
    p = run_tool(["run", SAMPLE], cwd=str(cwd))
    return str(cwd), os.path.join(str(cwd), "sample.sweep"), p


def test_every_point_ran_in_its_own_folder(sample):
    cwd, out, p = sample
    runs = runs_of(out)
    # 2 nprocs x 2 iotypes x 2 cb_nodes x 2 striping_factor, minus np1 with cb_nodes 2, x 2 repetitions
    assert len(runs) == (16 - 4) * 2
    assert "24 runs: 24 done" in p.stdout
    for rid, d in runs.items():
        for f in ("params.in", "stdout.txt", "stderr.txt", "result.json", "status.json", "command.sh",
                  "stripe.txt"):
            assert os.path.isfile(os.path.join(d, f)), (rid, f)
        assert not os.path.exists(os.path.join(d, "out")), "the kernel's files are deleted after success"
        run = load(os.path.join(d, "run.json"))
        res = load(os.path.join(d, "result.json"))
        assert res["nprocs"] == run["nprocs"]
        assert res["config"]["iotype"]["value"] == run["params"]["iotype"]
        # the swept hints reached the kernel as its hints parameter
        req = res["hints"]["requested"]
        assert req["cb_nodes"]["value"] == str(run["hints"]["cb_nodes"])
        assert req["striping_factor"]["value"] == str(run["hints"]["striping_factor"])
        assert req["striping_unit"]["value"] == "1048576"   # "1m" in the sweep file
        assert res["config"]["nx"]["value"] == NX and res["config"]["nx"]["origin"].startswith("params.in:")
        assert res["write"]["bytes"]["written"] == BYTES
        params = open(os.path.join(d, "params.in")).read()
        assert "hints striping_unit=1048576;cb_nodes=%s;striping_factor=%s" % (
            run["hints"]["cb_nodes"], run["hints"]["striping_factor"]) in params
        stripe = open(os.path.join(d, "stripe.txt")).read()
        assert "requested through the MPI-IO hints only" in stripe
        assert "mpiexec -n %d " % run["nprocs"] in open(os.path.join(d, "command.sh")).read()
    # the exclusion: no single-process run with two aggregators
    assert not [r for r in runs if r.startswith("np1,") and "cb_nodes=2" in r]


def test_collect_csv_matches_the_runs(sample):
    cwd, out, _ = sample
    p = run_tool(["collect", out], cwd=cwd)
    assert "collected 24 run(s) (24 done, 0 failed)" in p.stdout
    with open(os.path.join(out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
        f.seek(0)
        header = next(csv.reader(f))
    assert len(rows) == 24
    for col in ("run", "point", "repetition", "status", "nprocs", "iotype", "hints.cb_nodes",
                "hints.striping_factor", "io.driver", "io.iotype", "bytes_written_bytes", "end_to_end_s",
                "write_bandwidth_MiBps", "phase.create_mean_s", "phase.define_mean_s", "phase.write_mean_s",
                "phase.wait_mean_s", "phase.close_mean_s", "rss_peak_max_bytes", "timer.iput_max_s",
                "hints_applied.cb_nodes", "verify_verdict", "run_dir"):
        assert col in header, col
    assert len(header) == len(set(header))
    runs = runs_of(out)
    assert {r["run"] for r in rows} == set(runs)
    per_point = {}
    for r in rows:
        d = runs[r["run"]]
        res = load(os.path.join(d, "result.json"))
        run = load(os.path.join(d, "run.json"))
        w = res["write"]
        t = w["timers"]
        assert r["status"] == "done"
        assert int(r["nprocs"]) == res["nprocs"] == run["nprocs"]
        assert r["iotype"] == run["params"]["iotype"] == res["io"]["iotype"] == r["io.iotype"]
        assert r["hints.cb_nodes"] == str(run["hints"]["cb_nodes"])
        assert r["io.driver"] == res["io"]["driver"]
        assert int(r["bytes_written_bytes"]) == w["bytes"]["written"] == BYTES
        assert float(r["end_to_end_s"]) == w["end_to_end"]["seconds"]
        assert float(r["write_bandwidth_MiBps"]) == w["end_to_end"]["write_bandwidth_MiBps"]
        assert float(r["wall_s"]) == res["wall_seconds"]
        define = sum(t[k]["mean"] for k in ("def_dim", "def_var", "put_att", "enddef"))
        assert float(r["phase.define_mean_s"]) == pytest.approx(define, rel=1e-12)
        assert float(r["phase.write_mean_s"]) == pytest.approx(t["put"]["mean"] + t["iput"]["mean"], rel=1e-12)
        assert float(r["phase.create_mean_s"]) == pytest.approx(t["create"]["mean"] + t["open"]["mean"], rel=1e-12)
        assert float(r["timer.iput_max_s"]) == t["iput"]["max"]
        assert int(r["timer.iput_calls"]) == t["iput"]["calls"]
        assert int(r["rss_peak_max_bytes"]) == w["memory"]["rss_peak_bytes"]["max"]
        applied = res["hints"]["applied"].get("cb_nodes")
        assert r["hints_applied.cb_nodes"] == ("" if applied is None else str(applied))
        assert r["verify_verdict"] == res["verify"]["verdict"]
        assert r["run_dir"] == os.path.join("runs", r["run"])
        per_point.setdefault(r["point"], []).append(int(r["repetition"]))
    assert len(per_point) == 12 and all(sorted(v) == [0, 1] for v in per_point.values())
    doc = load(os.path.join(out, "results.json"))
    assert doc["schema"] == "climio-sweep-results" and len(doc["runs"]) == 24
    for entry in doc["runs"]:
        assert entry["result"] == load(os.path.join(runs[entry["row"]["run"]], "result.json"))
    assert [a["key"] for a in doc["axes"]] == ["nprocs", "iotype", "hints.cb_nodes", "hints.striping_factor"]


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def test_report_pngs_and_html(sample):
    cwd, out, _ = sample
    p = run_tool(["report", out], cwd=cwd)
    rep = os.path.join(out, "report")
    names = ["scaling.png", "phases.png", "heatmap_cb_nodes_striping_factor.png", "imbalance.png"]
    for n in names:
        w, h = png_size(os.path.join(rep, n))
        assert w >= 600 and h >= 300, (n, w, h)
        assert os.path.join(rep, n) in p.stdout
    assert not os.path.exists(os.path.join(rep, "overlap.png")), "no PFIO figures without PFIO results"
    page = open(os.path.join(rep, "report.html")).read()
    imgs = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(imgs) == len(names)
    embedded = {base64.b64decode(i) for i in imgs}
    assert embedded == {open(os.path.join(rep, n), "rb").read() for n in names}
    assert "http://" not in page and "https://" not in page, "self-contained"
    assert page.count("<tr>") >= 12 + 1, "a row per point"
    assert "MPI-IO hints asked and applied" in page
    assert "24 successful run(s), 0 failed" in page


def test_dry_run_writes_nothing(tmp_path, exercise):
    p = run_tool(["run", SAMPLE, "--dry-run"], cwd=str(tmp_path))
    assert not os.listdir(str(tmp_path))
    assert p.stdout.count("would run") == 24
    assert "mpiexec -n 2 %s params.in --json result.partial.json" % exercise in p.stdout


def test_caller_pnetcdf_hints_do_not_override_the_sweep(tmp_path, exercise):
    sw = write(str(tmp_path / "h.toml"), """
[sweep]
kernel = "engine_exercise"
nprocs = 1
keep_data = true
[hints]
cb_nodes = [3]
""")
    run_tool(["run", sw], cwd=str(tmp_path), env=tool_env({"PNETCDF_HINTS": "cb_nodes=9"}))
    (d,) = runs_of(str(tmp_path / "h.sweep")).values()
    res = load(os.path.join(d, "result.json"))
    assert res["hints"]["requested"]["cb_nodes"]["value"] == "3"
    assert "unset PNETCDF_HINTS" in open(os.path.join(d, "command.sh")).read()
    assert os.path.isdir(os.path.join(d, "out")), "keep_data = true keeps the kernel's files"


def test_base_file_and_data_dir(tmp_path, exercise):
    """A base parameter file: keys the sweep sets are replaced, the others kept;
    data_dir moves the kernel's files out of the run folders."""
    write(str(tmp_path / "base.in"), "! base\nny 20\nnx 8   ! replaced by the sweep\nnrec 1\n"
          "hints cb_buffer_size=4096\nhints_file extra.hints\n")
    write(str(tmp_path / "extra.hints"), "romio_ds_write disable\n")
    sw = write(str(tmp_path / "b.toml"), """
[sweep]
kernel = "engine_exercise"
base = "base.in"
nprocs = 2
data_dir = "scratch"
keep_data = true
[parameters]
nx = [10, 12]
[hints]
cb_nodes = 2
""")
    run_tool(["run", sw], cwd=str(tmp_path))
    runs = runs_of(str(tmp_path / "b.sweep"))
    assert sorted(runs) == ["np2,nx=10/rep0", "np2,nx=12/rep0"]
    for rid, d in runs.items():
        res = load(os.path.join(d, "result.json"))
        nx = int(rid.split("nx=")[1].split("/")[0])
        assert res["config"]["nx"]["value"] == nx and res["config"]["ny"]["value"] == 20
        assert res["write"]["bytes"]["written"] == 1 * (8 + 12 * 3 * 20 * nx) + 4 * 20 * nx
        assert os.path.isdir(str(tmp_path / "scratch" / "b" / rid))
        params = open(os.path.join(d, "params.in")).read()
        base = tmp_path / "base.in"
        assert "! nx 8   ! %s:3: set by the sweep below" % base in params
        assert "\nny 20   ! %s:2\n" % base in params
        # hints from the base file and from the sweep together; the base file's
        # hints file (beside it) found although the run starts in its own folder
        req = res["hints"]["requested"]
        assert req["cb_buffer_size"]["value"] == "4096" and req["cb_nodes"]["value"] == "2"
        assert req["romio_ds_write"]["value"] == "disable"
        assert "hints_file %s   ! %s:6: 'extra.hints', relative to the base file" % (
            tmp_path / "extra.hints", base) in params


def test_submit_dry_run_needs_no_slurm(tmp_path, exercise):
    p = run_tool(["submit", SAMPLE, "--dry-run", "--throttle", "3"], cwd=str(tmp_path))
    assert not os.listdir(str(tmp_path)), "a dry run writes nothing"
    assert "#SBATCH --array=0-7%3\n#SBATCH --ntasks=1\n#SBATCH --nodes=1\n" in p.stdout
    assert "#SBATCH --array=0-15%3\n#SBATCH --ntasks=2\n#SBATCH --nodes=1\n" in p.stdout
    assert p.stdout.count("$ sbatch --parsable ") == 2
    # the runs in the sweep's order (shuffled rounds): the last task of the 2-process array is one of its rep1 runs
    assert re.search(r"^#   task 15: np2,iotype=\w+,cb_nodes=\d,striping_factor=\d/rep1$", p.stdout, re.M), p.stdout
    assert "--launcher srun" in p.stdout


def test_unwritable_data_dir_fails_the_run_clearly(tmp_path, exercise):
    sw = write(str(tmp_path / "u.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\n'
               'data_dir = "/proc/climio-not-writable"\n')
    p = run_tool(["run", sw], cwd=str(tmp_path), check=False)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "FAILED  cannot create the output folder /proc/climio-not-writable/u/np1/rep0:" in p.stdout
    assert "1 runs: 1 failed" in p.stdout and "Traceback" not in p.stderr


def test_parameter_naming_a_file_beside_the_sweep(tmp_path, exercise):
    write(str(tmp_path / "my.hints"), "cb_nodes 5\n")
    sw = write(str(tmp_path / "f.toml"), '[sweep]\nkernel = "engine_exercise"\nnprocs = 1\n'
               '[parameters]\nhints_file = "my.hints"\n')
    run_tool(["run", sw], cwd=str(tmp_path))
    (d,) = runs_of(str(tmp_path / "f.sweep")).values()
    assert "hints_file %s   ! was 'my.hints'" % (tmp_path / "my.hints") in open(os.path.join(d, "params.in")).read()
    assert load(os.path.join(d, "result.json"))["hints"]["requested"]["cb_nodes"]["value"] == "5"


GCRM = os.path.join(BUILDDIR, "src", "gcrm", "gcrm_io")
GCRM_SAMPLE = os.path.join(SRCDIR, "inputs", "sweep.gcrm.toml")


@pytest.mark.skipif(not (os.access(GCRM, os.X_OK) and os.path.exists(os.path.join(SRCDIR, "inputs", "zgrd.in.r3"))),
                    reason="gcrm_io or inputs/zgrd.in.r3 not in this tree yet")
def test_gcrm_sample_sweep(tmp_path):
    """inputs/sweep.gcrm.toml end to end: gcrm_io writes the same data whatever
    the process count, mode and hints, so every run has the same bytes and checksums."""
    cwd = str(tmp_path)
    p = run_tool(["run", GCRM_SAMPLE], cwd=cwd, env=tool_env({"CLIMIO_BINDIR": os.path.dirname(GCRM)}))
    assert "24 runs: 24 done" in p.stdout
    out = os.path.join(cwd, "gcrm-sample.sweep")
    runs = runs_of(out)
    assert len(runs) == 24
    first = None
    for rid, d in runs.items():
        res = load(os.path.join(d, "result.json"))
        run = load(os.path.join(d, "run.json"))
        assert res["kernel"] == "gcrm_io" and res["nprocs"] == run["nprocs"]
        assert res["config"]["iotype"]["value"] == run["params"]["iotype"]
        assert res["config"]["level_max"]["value"] == 3
        assert res["verify"]["verdict"] in ("pass", "not applicable") and res["verify"]["mismatches"] == 0
        key = (res["write"]["bytes"]["written"], sorted(res["checksums"].items()))
        first = first or key
        assert key == first, rid
    run_tool(["collect", out], cwd=cwd)
    with open(os.path.join(out, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 24 and {int(r["bytes_written_bytes"]) for r in rows} == {first[0]}
    assert all(r["kernel_report.level_max"] == "3" for r in rows)
