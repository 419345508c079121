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
    # the guide the README links: the API in one page, the architecture, adding a learner
    for page in book.GUIDE:
        assert (html / f"{page.stem}.html").exists(), page.name
    extending = (html / "extending.html").read_text()
    assert "The hooks" in extending and "A learner of your own" in extending
    # the students' book has neither the page for teachers nor any solution
    assert not (html / "teaching.html").exists()
    assert "teaching.html" not in (html / "intro.html").read_text()
    for nb in book.notebooks():
        page = (html / "notebooks" / f"{nb.stem}.html").read_text()
        # (a solution's output says "Check: ✓ right"; a student's cell says "no answer yet")
        assert "Check: ✓ right" not in page and "<strong>Solution.</strong>" not in page, nb.name
        assert "BEGIN SOLUTION" not in page and "✓ right</b>" not in page, nb.name
        if nb.name[:2] in ("01", "02", "03", "04", "05"):
            assert "Exercise 1:" in page and "no answer yet" in page, nb.name
    api = (html / "api.html").read_text()
    for package in book.API_PACKAGES:
        assert f"{package}.html" in api  # a page per package, linked from the reference
        assert (html / "api" / f"{package}.html").exists()
    # autodoc read the docstrings: the learners' page documents their methods and modules
    text = (html / "api" / "workbench.learners.html").read_text()
    assert "HoeffdingTree" in text and "partial_fit" in text and "workbench.learners.ctree" in text
    # the widgets are pictures here and MathJax ships with the book: no page loads a script
    # from the network
    tour = (html / "notebooks" / "00_tour.html").read_text()
    remote = set(re.findall(r'<script[^>]*src="(https?://[^"]*)"', tour))
    assert not remote, remote
    assert (html / "_static" / "mathjax" / book.MATHJAX_FILE).is_file()
    assert f"_static/mathjax/{book.MATHJAX_FILE}" in tour
    assert "application/vnd.jupyter.widget-view+json" not in tour
    assert "html-manager" not in tour and "wb-snapshot" in tour
    # every script once per page: MathJax came twice (from Jupyter Book's scan of _static and
    # from sphinx.ext.mathjax) and sphinx-thebe's `const THEBE_JS_URL` twice, page errors each
    for page in [html / "api.html", *sorted((html / "notebooks").glob("*.html"))]:
        text = page.read_text()
        sources = [s.split("?")[0] for s in re.findall(r'<script[^>]*\ssrc="([^"]*)"', text)]
        bodies = re.findall(r"<script>(.*?)</script>", text, flags=re.S)
        assert len(sources) == len(set(sources)), (page.name, sources)
        assert len(bodies) == len(set(bodies)), (page.name, bodies)
        assert text.count("const THEBE_JS_URL") <= 1, page.name
    # 05's link to the findings (../docs/ in the repository) leads to the book's page
    efdt = (html / "notebooks" / "05_extremely_fast_decision_tree.html").read_text()
    main = efdt[efdt.index("<main") :]
    assert 'href="../bounds_findings.html"' in main and "#../docs/" not in efdt
    print(f"book built in {site['seconds']:.0f} s")


def _rendered_markdown(text: str) -> str:
    """``text`` (a notebook's Markdown cell) as the book's MyST parser renders it, in HTML."""
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig
    from myst_parser.parsers.mdit import create_md_parser

    settings = book.myst_settings()
    settings["enable_extensions"] = set(settings["enable_extensions"])
    md = create_md_parser(MdParserConfig(**settings), RendererHTML).enable("table")
    return md.render(book.table_math_bars(text))


def test_every_formula_of_the_notebooks_is_parsed_as_maths():
    """A `$` left in the text outside maths is a formula the book shows as LaTeX source: a
    `$$...$$` directly under a line of text (read as inline maths between stray `$` unless
    myst_dmath_double_inline), or a `|` inside `$...$` in a table row (which cuts the row)."""
    stray = []
    for nb in book.notebooks():
        for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
            if cell["cell_type"] != "markdown":
                continue
            html = _rendered_markdown("".join(cell["source"]))
            html = re.sub(r'<(span|div) class="math[^"]*">.*?</\1>', "", html, flags=re.S)
            html = re.sub(r"<code>.*?</code>|<pre>.*?</pre>", "", html, flags=re.S)
            if "$" in html:
                k = html.index("$")
                stray.append(f"{nb.name} cell {i}: ...{html[max(0, k - 80) : k + 40]!r}")
    assert not stray, "\n".join(stray)


def test_display_maths_under_text_and_bars_in_tables():
    """The two ways a formula fell apart in the book, on small examples."""
    html = _rendered_markdown("the bound is\n$$\\varepsilon=\\sqrt{x}$$\nand $a$ and $b$.")
    assert '<div class="math inline">\\varepsilon=\\sqrt{x}</div>' in html
    assert "$" not in re.sub(r'<(span|div) class="math[^"]*">.*?</\1>', "", html)
    html = _rendered_markdown("| a | b |\n|---|---|\n| $|+|=3$ | $\\|x\\|$ |")
    assert '<td><span class="math inline">\\vert +\\vert =3</span></td>' in html
    assert "\\Vert x\\Vert" in html  # a norm stays a norm


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


# the formulas of a page once MathJax has typeset them: rendered, display, errors, and any
# LaTeX source or `$` left in the text outside code (a formula the reader sees as source)
MATHS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const main = document.querySelector('main') || document.body;
  const prose = main.cloneNode(true);
  prose.querySelectorAll('pre, code, .cell_input, script, style, mjx-container').forEach(
    e => e.remove());
  const text = prose.innerText;
  const around = i => text.slice(Math.max(0, i - 60), i + 60);
  const raw = ['\\\\(', '\\\\[', '$$', '$'].filter(p => text.includes(p)).map(
    p => around(text.indexOf(p)));
  return {
    loaded: !!(window.MathJax && MathJax.startup),
    rendered: main.querySelectorAll('mjx-container').length,
    display: main.querySelectorAll('mjx-container[display="true"]').length,
    errors: main.querySelectorAll('mjx-merror').length,
    raw: raw,
  };
}"""


@pytest.mark.slow
def test_every_page_shows_its_figures_in_a_browser(site):
    from playwright.sync_api import sync_playwright

    chromium = _chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    html = site["html"]
    pages = {p.stem: p for p in (html / "notebooks").glob("*.html")}
    pages.update(
        {
            "bounds_findings": html / "bounds_findings.html",
            "intro": html / "intro.html",
        }
    )
    seen, maths, requested = {}, {}, []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            # a copy of the site opened from disk with no network: anything but file:// fails
            context = browser.new_context(viewport={"width": 1400, "height": 1000})

            def offline(route):
                if route.request.url.startswith("file:"):
                    route.continue_()
                else:
                    requested.append(route.request.url)
                    route.abort()

            context.route("**/*", offline)
            page = context.new_page()
            page_errors = []
            page.on("pageerror", lambda err: page_errors.append(str(err)))
            for name, path in sorted(pages.items()):
                page.goto(path.as_uri(), wait_until="load")
                maths[name] = page.evaluate(MATHS)
                seen[name] = page.evaluate(COUNT)
                page.screenshot(path=str(ARTIFACTS / f"book-{name}.png"), full_page=False)
        finally:
            browser.close()
    (ARTIFACTS / "book-pages.json").write_text(
        json.dumps({"figures": seen, "maths": maths}, indent=1)
    )
    assert not requested, f"pages asked the network for {sorted(set(requested))[:5]}"
    # no script fails: MathJax loaded twice gave "Cannot set property Package", a second
    # `const THEBE_JS_URL` a SyntaxError, 42 errors over 22 page loads
    assert not page_errors, page_errors[:5]
    for name, got in maths.items():
        assert got["loaded"], f"{name}: MathJax did not load from the site"
        assert not got["errors"] and not got["raw"], f"{name}: formulas not typeset: {got}"
    for nb in book.notebooks():
        source = json.loads(nb.read_text())
        prose = "".join(
            "".join(c["source"]) for c in source["cells"] if c["cell_type"] == "markdown"
        )
        if "$" in prose:
            assert maths[nb.stem]["rendered"] >= prose.count("$$") // 2, (nb.name, maths[nb.stem])
        if "\n$$" in prose:
            assert maths[nb.stem]["display"] >= 1, (nb.name, maths[nb.stem])
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


def _one_notebook_book(tmp_path, monkeypatch, solutions: bool):
    """The book's sources of one small notebook with an exercise, executed as the students' or
    as the teacher's version (nothing run: the outputs are written in)."""
    import nbformat

    from workbench.exercises import versions

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("## Exercises\n\n### Exercise 1: a gain by hand"),
        nbformat.v4.new_code_cell(
            "from workbench.exercises import paper003 as E\n\nanswer = None  # bits\n"
            "E.check(1, answer)"
        ),
    ]
    source_dir = tmp_path / "notebooks"
    source_dir.mkdir(parents=True)
    path = source_dir / "99_small.ipynb"
    nbformat.write(nb, path)
    monkeypatch.setattr(book, "notebooks", lambda: [path])
    if solutions:
        nb = versions.teacher_version(nb)
    executed = tmp_path / "executed"
    book.save_executed(nb, path.name, executed, quick=True)
    src = tmp_path / "src"
    book.assemble(executed, src, solutions=solutions)
    return src, json.loads((src / "notebooks" / path.name).read_text())


def test_the_students_book_has_no_teachers_page_and_the_teachers_has_it(tmp_path, monkeypatch):
    src, nb = _one_notebook_book(tmp_path / "s", monkeypatch, solutions=False)
    assert not (src / "teaching.md").exists() and "teaching" not in (src / "_toc.yml").read_text()
    assert len(nb["cells"]) == 2 and "not in this book" in (src / "intro.md").read_text()
    src, nb = _one_notebook_book(tmp_path / "t", monkeypatch, solutions=True)
    toc = (src / "_toc.yml").read_text()
    assert (src / "teaching.md").exists() and toc.index("teaching") < toc.index("99_small")
    # the answer cell with its solution region is there; the autograder's assert is not
    sources = ["".join(c["source"]) for c in nb["cells"]]
    assert len(sources) == 2 and "### BEGIN SOLUTION" in sources[1]
    assert not any("passed(" in s for s in sources)


def test_a_book_is_built_from_its_own_version_of_the_notebooks(tmp_path, monkeypatch):
    """The teacher's book from students' notebooks (no solutions in it) or the students' book
    from the teacher's versions (solutions in it) is refused."""
    import nbformat

    path = tmp_path / "notebooks" / "99_small.ipynb"
    path.parent.mkdir()
    nbformat.write(nbformat.v4.new_notebook(), path)
    monkeypatch.setattr(book, "notebooks", lambda: [path])
    nb = nbformat.v4.new_notebook()
    book.save_executed(nb, path.name, tmp_path / "student", quick=True)
    with pytest.raises(ValueError, match="a student's notebook"):
        book.assemble(tmp_path / "student", tmp_path / "src", solutions=True)
    nb.metadata["workbench"] = {"version": "teacher"}
    book.save_executed(nb, path.name, tmp_path / "teacher", quick=True)
    with pytest.raises(ValueError, match="the teacher's version"):
        book.assemble(tmp_path / "teacher", tmp_path / "src2", solutions=False)


def test_the_solutions_maths_is_parsed_as_maths_in_the_teachers_book():
    """A solution is Markdown a cell displays: the book reads such output as MyST (with the
    dollar maths), not CommonMark, which showed its formulas as source."""
    import yaml

    from workbench.exercises import paper001, paper002, paper003

    config = yaml.safe_load(book._config(True))["sphinx"]["config"]
    assert config["nb_render_markdown_format"] == "myst"
    for module in (paper001, paper002, paper003):
        for n in module.S.exercises:
            html = _rendered_markdown(module.solution(n).markdown)
            assert '<span class="math inline">' in html, (module.__name__, n)
            rest = re.sub(r'<(span|div) class="math[^"]*">.*?</\1>', "", html, flags=re.S)
            assert "$" not in rest, (module.__name__, n, rest)
