"""The report page in a real headless browser (Debian's chromium-headless-shell,
or chromium): every image decodes and the page logs no console error; a page
with a broken image is caught, so the check can fail.  Skipped, saying why,
where no such browser is installed."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import SRCDIR  # noqa: F401  (puts scripts/ on sys.path)
from climio_sweep import html, report
from test_report_labels import gcrm_doc

pytest.importorskip("matplotlib")

BROWSERS = ("chromium-headless-shell", "chromium", "chromium-browser")
# appended to a copy of the page: counts the images that did not decode and
# the errors the page raised, then writes them into the DOM the browser dumps
PROBE = """<script>
var errors = [];
window.addEventListener('error', function (e) { errors.push(String(e.message || e.target.src || e)); }, true);
var origError = console.error;
console.error = function () { errors.push(Array.prototype.join.call(arguments, ' ')); origError.apply(console, arguments); };
window.addEventListener('load', function () {
  var imgs = document.getElementsByTagName('img'), broken = 0;
  for (var i = 0; i < imgs.length; i++) if (!imgs[i].complete || imgs[i].naturalWidth === 0) broken++;
  var d = document.createElement('div');
  d.id = 'climio-check';
  d.textContent = 'images=' + imgs.length + ' broken=' + broken + ' errors=' + errors.length + ' ' + errors.join(' | ');
  document.body.appendChild(d);
});
</script>"""


def browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no headless browser (apt-get install chromium-headless-shell): the page was not checked in one")


def check(page_path, tmp_path):
    """(images, broken, errors, console error lines) of the page in the browser."""
    with open(page_path) as f:
        text = f.read()
    probe = str(tmp_path / ("probe-" + os.path.basename(page_path)))
    with open(probe, "w") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))
    p = subprocess.run([browser(), "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                        "--v=0", "--user-data-dir=%s" % (tmp_path / "profile"), "--virtual-time-budget=10000",
                        "--dump-dom", "file://" + probe],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    m = re.search(r'<div id="climio-check">images=(\d+) broken=(\d+) errors=(\d+)', p.stdout)
    assert m, "the browser did not run the page's check (exit %d):\n%s" % (p.returncode, p.stderr[-3000:])
    console = [l for l in p.stderr.splitlines() if "CONSOLE" in l and ("Uncaught" in l or "ERROR" in l)]
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), console


def test_page_in_a_headless_browser(tmp_path):
    figs, res = report.make_all(gcrm_doc(), str(tmp_path / "report"))
    page = str(tmp_path / "report" / "report.html")
    with open(page, "w") as f:
        f.write(html.page(res, figs, str(tmp_path)))
    images, broken, errors, console = check(page, tmp_path)
    assert images == len(figs) >= 2
    assert (broken, errors, console) == (0, 0, [])
    # the same page with one image cut short: the check sees it
    with open(page) as f:
        text = f.read()
    cut = re.sub(r"(data:image/png;base64,)([A-Za-z0-9+/]{40})[A-Za-z0-9+/=]+", r"\1\2", text, count=1)
    assert cut != text
    bad = str(tmp_path / "report" / "broken.html")
    with open(bad, "w") as f:
        f.write(cut)
    images, broken, _, _ = check(bad, tmp_path)
    assert (images, broken) == (len(figs), 1)
