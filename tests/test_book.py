"""The rendered book: Jupyter Book 1 builds every notebook (executed by tests/test_notebooks.py,
which saved the copies to build/executed/; this module runs after it, see conftest.py), the
findings in docs/ and the API reference, offline; then Chromium opens every page and checks that
its figures are there: the notebooks' plots as images, the trees and the stepper's charts as the
SVG pictures the widgets carry for pages without a kernel.  Screenshots go to test-artifacts/.

A notebook without an executed copy (this module run alone) is executed here in quick mode.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import time
from pathlib import Path

import pytest

from workbench import book

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    for nb in book.notebooks():
        if book.stale(nb):
            book.execute(nb, book.EXECUTED, quick=True)
    src = tmp_path_factory.mktemp("book") / "src"
    t0 = time.monotonic()
    taken = book.assemble(book.EXECUTED, src)
    html = book.build(src, src.parent / "html")
    return {"html": html, "notebooks": taken, "seconds": time.monotonic() - t0}


def test_the_book_has_every_notebook_the_findings_and_the_api(site):
    html = site["html"]
    assert [p.name for p in site["notebooks"]] == [p.name for p in book.notebooks()]
    for nb in book.notebooks():
        page = html / "notebooks" / f"{nb.stem}.html"
        assert page.exists(), nb.name
        # widgets without a picture are left out, not shown as their text (a progress bar's
        # first state, "interactive(children=...)")
        text = page.read_text()
        assert "interactive(children=" not in text and not re.search(r"\b0%\|", text), nb.name
    assert (html / "index.html").exists() and (html / "bounds_findings.html").exists()
    api = (html / "api.html").read_text()
    for package in book.API_PACKAGES:
        assert f"{package}.html" in api  # a page per package, linked from the reference
        assert (html / "api" / f"{package}.html").exists()
    # autodoc read the docstrings: the learners' page documents their methods and modules
    text = (html / "api" / "workbench.learners.html").read_text()
    assert "HoeffdingTree" in text and "partial_fit" in text and "workbench.learners.ctree" in text
    # the widgets are pictures here: no page loads widget JavaScript from a CDN (the only
    # script from the network is MathJax, which a reader's browser fetches to typeset formulas)
    tour = (html / "notebooks" / "00_tour.html").read_text()
    remote = set(re.findall(r'<script[^>]*src="(https?://[^"]*)"', tour))
    assert all("mathjax" in url for url in remote), remote
    assert "application/vnd.jupyter.widget-view+json" not in tour
    assert "html-manager" not in tour and "wb-snapshot" in tour
    print(f"book built in {site['seconds']:.0f} s")


def _chromium():
    spec = importlib.util.spec_from_file_location("_workbench_dev", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    path = dev.find_chromium()
    if path is None:
        if IN_CI:
            pytest.fail("Chromium is missing in CI: `python3 dev.py test` installs it")
        pytest.skip("Chromium is not installed (sudo apt-get install chromium)")
    return path


# what a page holds, measured in the page: plots (images that loaded), drawn trees and charts
# (SVG), tables, and the widgets' pictures
COUNT = """() => {
  const main = document.querySelector('main') || document.body;
  const imgs = [...main.querySelectorAll('img')];
  return {
    images: imgs.filter(i => i.complete && i.naturalWidth > 0).length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    svgs: main.querySelectorAll('svg').length,
    trees: main.querySelectorAll('.wb-tree-static svg g.node').length,
    snapshots: main.querySelectorAll('.wb-snapshot').length,
    charts: main.querySelectorAll('.wb-snapshot svg.wb-split-svg, .wb-snapshot svg.wb-acc-chart').length,
    tables: main.querySelectorAll('table').length,
    text: main.innerText.length,
  };
}"""


@pytest.mark.slow
def test_every_page_shows_its_figures_in_a_browser(site):
    from playwright.sync_api import sync_playwright

    chromium = _chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    html = site["html"]
    pages = {p.stem: p for p in (html / "notebooks").glob("*.html")}
    pages.update({"bounds_findings": html / "bounds_findings.html", "intro": html / "intro.html"})
    seen = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for name, path in sorted(pages.items()):
                page.goto(path.as_uri(), wait_until="load")
                seen[name] = page.evaluate(COUNT)
                page.screenshot(path=str(ARTIFACTS / f"book-{name}.png"), full_page=False)
        finally:
            browser.close()
    (ARTIFACTS / "book-pages.json").write_text(json.dumps(seen, indent=1))
    for nb in book.notebooks():
        got = seen[nb.stem]
        assert not got["broken"], f"{nb.name}: images that did not load: {got['broken']}"
        source = json.loads(nb.read_text())
        code = "\n".join("".join(c["source"]) for c in source["cells"] if c["cell_type"] == "code")
        plots = code.count("plt.") + code.count("P.plot_")
        if plots:
            assert got["images"] >= 1, f"{nb.name}: no plot on its page: {got}"
        widgets = any(
            k in code
            for k in ("TreeStepper", "viz.show", "side_by_side", "stepper_demo", "ForestStepper")
        )
        if widgets:
            assert got["snapshots"] >= 1 and got["trees"] >= 1, f"{nb.name}: no tree: {got}"
        # (UFFT's forest stepper, forest_stepper_demo, draws a tree and has no charts)
        if any(
            k in code.replace("forest_stepper_demo", "") for k in ("TreeStepper", "stepper_demo")
        ):
            assert got["charts"] >= 2, f"{nb.name}: no stepper charts: {got}"
    tour = seen["00_tour"]
    # the tour shows two plots, two steppers, a finished tree and a side-by-side pair
    assert tour["images"] >= 2 and tour["snapshots"] >= 4, tour
    assert seen["bounds_findings"]["tables"] >= 1
