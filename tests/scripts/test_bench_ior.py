"""bench-ior without IOR: IOR's printed results read from outputs captured from
IOR itself (tests/scripts/ior_output/, IOR 4.1.0+dev, github hpc/ior 5fcf0ba:
text the program printed, not its code), the climio side with real
engine_exercise runs (the dry run's IOR line, the run's figures), and the report
of rounds made from both."""

import argparse
import importlib.machinery
import importlib.util
import json
import os

import pytest

from conftest import HERE, SRCDIR
from climio_sweep import bench, ior_output

FIX = os.path.join(HERE, "ior_output")


def fixture(name):
    with open(os.path.join(FIX, name)) as f:
        return f.read()


def bench_ior():
    path = os.path.join(SRCDIR, "scripts", "bench-ior")
    loader = importlib.machinery.SourceFileLoader("bench_ior", path)
    spec = importlib.util.spec_from_loader("bench_ior", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def test_parse_rows_and_summary():
    r = ior_output.parse(fixture("mpiio-collective-fsync-3files.txt"))
    assert r["version"] == "IOR-4.1.0+dev"
    assert [f["iter"] for f in r["files"]] == [0, 1, 2]
    assert [f["total_s"] for f in r["files"]] == [0.005974, 0.031457, 0.011736]
    assert [f["bw_MiBps"] for f in r["files"]] == [334.78, 63.58, 170.42]
    assert r["files"][1] == {"iter": 1, "bw_MiBps": 63.58, "total_s": 0.031457, "open_s": 0.003517,
                             "rdwr_s": 0.007909, "close_s": 0.024066}
    assert r["total_s"] == pytest.approx(0.049167)
    s = r["summary"]
    assert (s["tasks"], s["reps"], s["block_bytes"], s["transfer_bytes"], s["api"]) == (2, 3, 1048576, 131072, "MPIIO")
    assert (s["max_MiBps"], s["min_MiBps"], s["mean_MiBps"]) == (334.78, 63.58, 189.59)
    # IOR's Mean(s) is the mean of the rows' total(s)
    assert s["mean_s"] * s["reps"] == pytest.approx(r["total_s"], abs=2e-5)


def test_parse_skips_warnings_between_rows():
    r = ior_output.parse(fixture("ncmpi-warnings-2files.txt"))
    assert [f["total_s"] for f in r["files"]] == [0.003054, 0.001712]
    assert r["summary"]["api"] == "NCMPI" and r["summary"]["reps"] == 2


def test_parse_refuses_what_is_not_a_finished_run():
    text = fixture("mpiio-collective-fsync-3files.txt")
    with pytest.raises(ior_output.NotIorOutput, match="no IOR banner"):
        ior_output.parse("hello\n")
    with pytest.raises(ior_output.NotIorOutput, match="under 'Summary of all tests' .the run did not finish"):
        ior_output.parse(text[:text.index("Summary of all tests")])
    with pytest.raises(ior_output.NotIorOutput, match="no Results table"):
        ior_output.parse(text[:text.index("Results:")])
    one_row_less = "\n".join(l for l in text.splitlines() if not l.endswith("0.011736   2   "))
    with pytest.raises(ior_output.NotIorOutput, match="the summary says 3 repetitions, the Results table has 2"):
        ior_output.parse(one_row_less)
    with pytest.raises(ior_output.NotIorOutput, match="no 'read' row"):
        ior_output.parse(text, "read")
    with pytest.raises(ior_output.NotIorOutput, match="no Results table"):
        ior_output.parse(fixture("mpiio-cannot-open.txt")[:fixture("mpiio-cannot-open.txt").index("Results:")])


def test_ior_options_shape():
    assert ior_output.options("-a MPIIO -w -k -c -e -m -i 14 -b 4194304 -t 131072 -s 1 -o ior.out".split()) == \
        {"files": 14, "block_bytes": 4194304, "transfer_bytes": 131072, "segments": 1}
    assert ior_output.options("-i 3 -b 64k -t 64K -s 64".split()) == \
        {"files": 3, "block_bytes": 65536, "transfer_bytes": 65536, "segments": 64}
    assert ior_output.options(["-a", "POSIX"]) == {"files": 1, "block_bytes": 1048576, "transfer_bytes": 262144,
                                                   "segments": 1}
    with pytest.raises(ValueError, match="-b 4q: expected a size such as 131072, 128k or 4m, found '4q'"):
        ior_output.options(["-b", "4q"])
    with pytest.raises(ValueError, match="-t: expected a value after it"):
        ior_output.options(["-t"])
    assert ior_output.parse(fixture("mpiio-collective-fsync-3files.txt"))["summary"]["segments"] == 1


def test_error_line():
    assert ior_output.error_line(fixture("mpiio-cannot-open.txt")) == (
        "ior: ERROR: cannot open file: /nonexistent/dir/ior.out, MPI MPI_ERR_NO_SUCH_FILE: no such file or "
        "directory, (aiori-MPIIO.c:248)")
    assert ior_output.error_line(fixture("mpiio-collective-fsync-3files.txt")) is None


# the plan whose IOR line the captured output ran: 3 files x 1 MiB per rank, 128 KiB transfers, -c -e
OPTS = ["--shape", "ior", "--files", "3", "--block", "1m", "--max_request_size", "128k", "--driver", "mpiio",
        "--iotype", "blocking_collective", "--fsync", "end"]
LINE = "-a MPIIO -w -k -c -e -m -i 3 -b 1048576 -t 131072 -s 1 -o ior.out"


def args(tmp_path, **kw):
    a = argparse.Namespace(repetitions=2, warmup=0, dir=str(tmp_path), json=None, json_dir=None, mpiexec="mpiexec",
                           timeout=120)
    a.__dict__.update(kw)
    return a


def test_ior_figures_from_the_output():
    b = bench_ior()
    eq = {"nprocs": 2, "files": 3, "block_bytes": 1048576, "transfer_bytes": 131072}
    got = b.ior_figures(eq, fixture("mpiio-collective-fsync-3files.txt"), "ior-round1")
    assert got["bytes"] == 6 * 1048576 and got["seconds"] == pytest.approx(0.049167)
    assert got["MiBps"] == pytest.approx(6 / 0.049167)           # all bytes over the sum of total(s)
    assert got["summary_mean_MiBps"] == 189.59                   # IOR's own: the mean of the files' rates
    with pytest.raises(bench.RunFailed, match="IOR ran 2 tasks x 3 files x 1 segments x 1048576 bytes in 131072-byte "
                                              "transfers, the line asked 2 x 3 x 1 x 2097152 in 131072"):
        b.ior_figures(dict(eq, block_bytes=2097152), fixture("mpiio-collective-fsync-3files.txt"), "ior-round1")
    with pytest.raises(bench.RunFailed, match="ior-round2: IOR's output not understood: no IOR banner"):
        b.ior_figures(eq, "", "ior-round2")


def test_climio_side_and_report(tmp_path, exercise, capsys):
    b = bench_ior()
    out_json = str(tmp_path / "r.json")
    a = args(tmp_path, json=out_json)
    with bench.Runner("bench-ior", a) as runner:
        eq, dry = b.ior_line(runner, exercise, OPTS, 2)
        assert eq["options"] == LINE
        assert (eq["nprocs"], eq["files"], eq["block_bytes"], eq["transfer_bytes"], eq["share_of_plan_bytes"]) == \
            (2, 3, 1048576, 131072, 1.0)
        assert dry["files"]["data_bytes"] == 6 * 1048576
        c = [b.climio_run(runner, exercise, OPTS, 2, "climio-round%d" % k) for k in (1, 2)]
    assert all(x["bytes"] == 6 * 1048576 and x["MiBps"] > 0 and len(x["load"]) == 2 for x in c)
    ior = b.ior_figures(eq, fixture("mpiio-collective-fsync-3files.txt"), "ior")
    done = [{"round": k + 1, "order": ["climio", "ior"] if k == 0 else ["ior", "climio"], "climio": [c[k]],
             "ior": dict(ior, load=[0.5, 0.7]), "ratio": [c[k]["MiBps"] / ior["MiBps"]]} for k in (0, 1)]
    rc = b.report(a, [(exercise, OPTS)], "/opt/ior/src/ior", eq, dry, done)
    text = capsys.readouterr().out
    assert rc == 0
    assert "IOR:    mpiexec -n 2 /opt/ior/src/ior " + LINE in text
    assert "climio: mpiexec -n 2 engine_exercise " + " ".join(OPTS) in text
    ratios = sorted(d["ratio"][0] for d in done)
    med = (ratios[0] + ratios[1]) / 2
    assert "ratio climio / IOR, per round: %.2f [%.2f-%.2f]" % (med, ratios[0], ratios[1]) in text
    assert "| IOR | its summary: mean of the files' bandwidths (Mean(MiB)) | 189.6 [189.6-189.6] |" in text
    assert "| IOR | all bytes / sum of the files' total(s) | %.1f [%.1f-%.1f] |" % ((ior["MiBps"],) * 3) in text
    assert "load average (1 minute) " in text
    doc = json.load(open(out_json))
    assert doc["climio"][0]["ratio"]["values"] == [d["ratio"][0] for d in done]
    assert doc["ior"]["equivalent"]["options"] == LINE
    assert [r["order"] for r in doc["rounds"]] == [["climio", "ior"], ["ior", "climio"]]
    assert doc["load"]["cores"] == (os.cpu_count() or 1) and doc["errors"] == []


def test_order_rotates_and_commands_split():
    b = bench_ior()
    assert [b.order(r, 1) for r in range(3)] == [["climio0", "ior"], ["ior", "climio0"], ["climio0", "ior"]]
    assert [b.order(r, 2) for r in range(3)] == [["climio0", "climio1", "ior"], ["climio1", "ior", "climio0"],
                                                 ["ior", "climio0", "climio1"]]
    assert b.commands(["--np", "2", "--ior", "x", "--", "gcrm_io", "--fsync", "end", "--", "engine_exercise"]) == \
        (["--np", "2", "--ior", "x"], [["gcrm_io", "--fsync", "end"], ["engine_exercise"]])
    assert b.commands(["--ior", "x"]) == (["--ior", "x"], [])
