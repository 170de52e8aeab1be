"""The report labels what ran (on synthetic results, no kernel runs): an
iotype that ran as another is shown as 'ran (asked X)' in the figures'
labels and the page, with its cause; the page's banner says where the runs
wrote; legends keep their full text; PNGs carry the resolution asked; axis
labels come from the table of human names."""

import struct
import zlib

import pytest

from conftest import SRCDIR  # noqa: F401  (puts scripts/ on sys.path)
from climio_sweep import html, report
from climio_sweep.errors import SweepError

pytest.importorskip("matplotlib")

CAUSE = "gcrm_io call_pattern original: blocking_collective is iput + wait_all per field"


def gcrm_doc():
    runs = []
    for np_ in (1, 2):
        for iotype in ("blocking_collective", "nonblocking_collective"):
            point = "np%d,iotype=%s" % (np_, iotype)
            for rep in range(2):
                row = {"run": "%s/rep%d" % (point, rep), "point": point, "repetition": rep, "status": "done",
                       "nprocs": np_, "iotype": iotype, "io.iotype": iotype, "io.driver": "pnetcdf",
                       "io.driver_asked": "default", "io.format": "cdf5", "io.format_asked": "default",
                       "io.iotype_effective": "nonblocking_collective",
                       "io.iotype_cause": CAUSE if iotype == "blocking_collective" else None,
                       "write_bandwidth_MiBps": 10.0 * np_ + rep, "end_to_end_s": 1.0,
                       "context.file_system.type": "ext4", "context.file_system.source": "/dev/vda1",
                       "context.page_cache.fits": True, "io.durable": False, "run_dir": "runs/" + point}
                runs.append({"row": row, "result": {}})
    return {"kernel": "gcrm_io", "sweep": "labels", "columns": list(runs[0]["row"]),
            "axes": [{"key": "nprocs", "kind": "sweep", "values": [1, 2]},
                     {"key": "iotype", "kind": "param", "values": ["blocking_collective", "nonblocking_collective"]}],
            "runs": runs}


def png_dpi(path):
    """Dots per inch from a PNG's pHYs chunk (pixels per metre)."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 8
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            ppm = struct.unpack(">I", data[pos + 8:pos + 12])[0]
            return round(ppm * 0.0254)
        pos += 12 + n
    return None


def test_effective_iotype_labels_figures_and_page(tmp_path):
    res = report.Results(gcrm_doc())
    row = res.ok[0]
    assert res.label(row, ["iotype"]) == "iotype=nonblocking_collective (asked blocking_collective)"
    assert res.shown("iotype", "nonblocking_collective") == "nonblocking_collective"
    assert res.ran_as_notes() == ["iotype=blocking_collective ran as nonblocking_collective: " + CAUSE]
    assert res.banner() == "ext4 on /dev/vda1, page cache, not durable"
    figs, res = report.make_all(gcrm_doc(), str(tmp_path), formats=["svg", "png"])
    scaling = [p for t, p, _ in figs if t == "Scaling"][0]
    with open(scaling) as f:
        svg = f.read()
    # the legend's entry whole (wrapped over two lines, never cut with an ellipsis)
    assert "iotype=nonblocking_collective" in svg and "(asked blocking_collective)" in svg
    assert "\u2026" not in svg
    assert "ext4 on /dev/vda1, page cache, not durable" in svg
    page = html.page(res, figs, str(tmp_path))
    assert "<b>Measured on:</b> ext4 on /dev/vda1, page cache, not durable" in page
    assert "<b>Ran as something else:</b> iotype=blocking_collective ran as nonblocking_collective" in page
    assert "<td>nonblocking_collective (asked blocking_collective)</td>" in page


def test_png_resolution(tmp_path):
    figs, _ = report.make_all(gcrm_doc(), str(tmp_path / "a"))
    assert png_dpi(figs[0][1]) == 200
    figs, _ = report.make_all(gcrm_doc(), str(tmp_path / "b"), dpi=80)
    assert png_dpi(figs[0][1]) == 80
    with pytest.raises(SweepError, match="report --dpi: expected a whole number of dots per inch from 50 to 1200"):
        report.make_all(gcrm_doc(), str(tmp_path / "c"), dpi=10)


def test_axis_labels_in_words():
    assert report.metric_label("timer.wait_max_s") == "waiting for nonblocking writes, slowest rank (s)"
    assert report.metric_label("timer.put_mean_s") == "blocking writes, mean over ranks (s)"
    assert report.metric_label("readback_bandwidth_MiBps") == "read-back bandwidth (MiB/s)"
    assert report.metric_label("bytes_written_bytes") == "bytes written (bytes)"
