"""The rendered book: every notebook executed, with its figures and tree drawings, the bounds
findings and an API reference from the docstrings, as a static HTML site a reader browses
without installing anything.

    python3 dev.py book            # execute every notebook (full mode), build _build/book/html
    python3 dev.py book --quick    # the same in quick mode (minutes)
    python -m workbench.book --executed build/executed   # build from executed copies, no run
    python3 dev.py book --quick --solutions   # the teacher's book, from the teacher's notebooks

The site is built by Jupyter Book 1 (Sphinx, sphinx-book-theme, MyST-NB), which builds offline
(Jupyter Book 2 fetches its theme at build time).  The notebooks are executed here with nbclient,
not by the book (``execute_notebooks: off``), so that the test suite can build the book from the
copies its notebook tests already executed (:data:`EXECUTED`, written by
``tests/test_notebooks.py``) instead of running every notebook twice.

Live widgets (the stepper, ``viz.show``) show nothing without a kernel: their display bundle
carries a picture of their state (:mod:`workbench.viz.snapshot`), and the book is told to leave
the widget view out and show that picture.

Every ``notebooks/*.ipynb`` is picked up (in name order), so new notebooks need no change here.

The students' book is built from the notebooks in ``notebooks/``, which hold no solution.  The
teacher's book (``--solutions``) is built from the teacher's versions of the notebooks
(:mod:`workbench.exercises.versions`, written to ``teacher/`` and executed into
:data:`EXECUTED_TEACHER`), with each exercise's solution under it, and it alone has the page for
teachers (``docs/teaching.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
#: where the notebook tests (and ``dev.py book``) keep executed copies, outputs included
EXECUTED = ROOT / "build" / "executed"
#: the executed copies of the teacher's versions (``dev.py book --solutions``)
EXECUTED_TEACHER = ROOT / "build" / "executed-teacher"
#: the book's sources are assembled here (executed notebooks, findings, API page, config)
SOURCE = ROOT / "_build" / "book" / "src"
#: the finished site: open ``_build/book/html/index.html``
HTML = ROOT / "_build" / "book" / "html"
#: the teacher's build (``--solutions``): the same site with the exercises' solutions shown
HTML_SOLUTIONS = ROOT / "_build" / "book" / "html-solutions"
#: the page for teachers, first in the teacher's book and left out of the students'
#: (``docs/*.md`` other than it and the guide are findings)
TEACHING = ROOT / "docs" / "teaching.md"
#: the guide's pages, in their order: the API in one page, how the workbench is built, how to
#: add a learner (the README links them)
GUIDE = tuple(ROOT / "docs" / f"{name}.md" for name in ("usage", "architecture", "extending"))

#: the workbench's public packages, documented in the API reference
API_PACKAGES = (
    "workbench.learners",
    "workbench.streams",
    "workbench.evaluate",
    "workbench.bounds",
    "workbench.montecarlo",
    "workbench.active",
    "workbench.drift",
    "workbench.sweep",
    "workbench.claims",
    "workbench.provenance",
    "workbench.viz",
    "workbench.experiments",
    "workbench.interop",
    "workbench.core",
)

CONFIG = """\
# written by workbench/book.py: edit it there
title: "Streaming decision trees: a workbench"
author: "the workbench's authors"
copyright: "2026"
only_build_toc_files: true
execute:
  execute_notebooks: "off"   # executed by workbench/book.py (or the notebook tests) before
html:
  use_repository_button: false
  use_issues_button: false
  use_edit_page_button: false
  home_page_in_navbar: true
launch_buttons:
  notebook_interface: ""
  binderhub_url: ""
  colab_url: ""
  thebe: false
sphinx:
  extra_extensions:
    - sphinx.ext.autodoc
    - sphinx.ext.napoleon
    - sphinx.ext.mathjax
    - workbench.book           # each script once per page (see workbench.book.setup)
  config:
    autodoc_default_options:
      members: true
      undoc-members: false
      show-inheritance: true
    autodoc_typehints: "description"
    autodoc_member_order: "bysource"
    add_module_names: false
    # widgets: show the picture of their state their bundle carries, not the (dead) widget
    nb_mime_priority_overrides:
      - ["html", "application/vnd.jupyter.widget-view+json", null]
      - ["html", "application/javascript", null]
    nb_ipywidgets_js: {}
    nb_merge_streams: true
    # Markdown that a cell displays (the exercises' solutions, the verdicts) is read as MyST,
    # with its $...$ maths, as JupyterLab shows it; CommonMark would leave the maths as source
    nb_render_markdown_format: myst
    myst_enable_extensions: ["dollarmath", "amsmath"]
    # `$$...$$` directly under a line of text (no blank line between) is display maths, as
    # JupyterLab shows it; without this MyST reads it as inline maths between two stray `$`
    myst_dmath_double_inline: true
    suppress_warnings: ["mystnb.unknown_mime_type", "myst.header", "misc.highlighting_failure"]
#MATHJAX#"""

#: the book's formulas are typeset by this file of MathJax 3's own browser build, copied into
#: the site (``_static/mathjax/``) so that a copy opened from disk, offline, shows them; it
#: comes from the PyPI package django-static-mathjax (MathJax 3.2.2's ``es5`` directory as
#: static files, with no dependency: Django is not needed to use them).  SVG output: the glyphs
#: are in the script, no web fonts to load (Chromium refuses fonts from ``file://`` pages).
MATHJAX_FILE = "tex-svg-full.js"
MATHJAX_CONFIG = """\
    mathjax_path: "mathjax/{file}"
"""

INTRO = """\
# Streaming decision trees: a workbench

This book is the workbench's notebooks as they ran, with every figure, table and tree drawing,
so that the papers' results can be read without installing anything.  Each notebook is a
lecture: a claim, its derivation, a cell that checks it, a plot, then an interactive part.  The
interactive parts (the tree stepper) are shown here as pictures of the state the notebook left
them in; to step a tree yourself, run the notebooks in JupyterLab (`python3 dev.py lab`).

{mode}

{solutions}

```{{tableofcontents}}
```
"""

API = """\
# API reference

Built from the docstrings of the workbench's public packages, one page per package.
"""

API_PAGE = """\
# {package}

```{{eval-rst}}
.. automodule:: {package}
   :no-members:
   :no-index:

{modules}
```
"""


def mathjax_script() -> Path | None:
    """The MathJax file the book ships (:data:`MATHJAX_FILE`), or None if the package that
    carries it is not installed."""
    import importlib.util

    spec = importlib.util.find_spec("mathjax")
    for loc in (spec.submodule_search_locations or []) if spec else []:
        path = Path(loc) / "static" / "mathjax" / "es5" / MATHJAX_FILE
        if path.is_file():
            return path
    return None


def myst_settings() -> dict:
    """The MyST parser's settings of the book (``myst_*`` in :data:`CONFIG`), without the
    prefix: what ``myst_parser.config.main.MdParserConfig`` takes."""
    import yaml

    config = yaml.safe_load(CONFIG.replace("#MATHJAX#", ""))["sphinx"]["config"]
    return {k[len("myst_") :]: v for k, v in config.items() if k.startswith("myst_")}


def _config(mathjax: bool) -> str:
    extra = MATHJAX_CONFIG.format(file=MATHJAX_FILE) if mathjax else ""
    return CONFIG.replace("#MATHJAX#", extra)


def _ship_mathjax(source: Path) -> bool:
    """Copy MathJax (and its licence) into ``source/_static/mathjax``; False, with a warning,
    if it is not installed (the pages then load it from a CDN: formulas need the network)."""
    script = mathjax_script()
    target = source / "_static" / "mathjax"
    if target.exists():
        shutil.rmtree(target)
    if script is None:
        print(
            "[book] WARNING: MathJax is not installed (pip install django-static-mathjax, part "
            "of the dev extra): the pages load it from a CDN, so formulas show as LaTeX "
            "source without a network",
            file=sys.stderr,
            flush=True,
        )
        return False
    target.mkdir(parents=True)
    shutil.copy2(script, target / script.name)
    licence = script.parent.parent / "LICENSE"
    if licence.is_file():
        shutil.copy2(licence, target / "LICENSE")
    return True


def _public_modules(package: str) -> list[str]:
    """``package``'s modules and subpackages whose names do not start with ``_``; a module
    (``workbench.claims``) is its own page."""
    import importlib
    import pkgutil

    pkg = importlib.import_module(package)
    if not hasattr(pkg, "__path__"):
        return [package]
    names = [
        m.name
        for m in pkgutil.walk_packages(pkg.__path__, package + ".")
        if not any(part.startswith("_") for part in m.name.split("."))
    ]
    return sorted(names)


def _api_page(package: str) -> str:
    blocks = [
        f"{m}\n{'-' * len(m)}\n\n.. automodule:: {m}\n   :members:\n   :show-inheritance:\n"
        for m in _public_modules(package)
    ]
    return API_PAGE.format(package=package, modules="\n".join(blocks))


def notebooks() -> list[Path]:
    """Every notebook of the workbench, in name order."""
    return sorted(NOTEBOOKS.glob("*.ipynb"))


#: seconds a cell may run before the run is given up (and tried once more with a fresh kernel):
#: the longest cell of a full run takes about two minutes on two cores
CELL_TIMEOUT = 900


def execute(
    path: Path, out_dir: Path = EXECUTED, quick: bool = True, timeout: int = CELL_TIMEOUT
) -> Path:
    """Run ``path`` top to bottom (quick mode or full) and write the executed copy, outputs
    included, to ``out_dir``; returns the copy's path.

    Each cell gets ``timeout`` seconds; a cell that raises stops the run.  A run whose kernel
    went silent (no reply within ``timeout``) or died is tried once more with a fresh kernel.
    ``jupyter nbconvert --execute`` has no such limit by default: it waits for the kernel's reply
    to each cell for ever, and a run of notebook 02 once sat for 20 minutes by an idle kernel
    whose reply had not come (the notebook tests have seen the same under nbclient; it has not
    been reproduced on demand).  Use this, or nbconvert with
    ``--ExecutePreprocessor.timeout=900``."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    old = os.environ.get("WORKBENCH_FAST")
    os.environ["WORKBENCH_FAST"] = "1" if quick else "0"
    try:
        for attempt in (1, 2):
            nb = nbformat.read(path, as_version=4)
            try:
                NotebookClient(
                    nb,
                    timeout=timeout,
                    kernel_name="python3",
                    resources={"metadata": {"path": str(path.parent)}},
                ).execute()
                break
            except (CellTimeoutError, DeadKernelError) as err:
                if attempt == 2:
                    raise
                print(f"[book] {path.name}: {type(err).__name__}; running it again", flush=True)
    finally:
        if old is None:
            os.environ.pop("WORKBENCH_FAST", None)
        else:
            os.environ["WORKBENCH_FAST"] = old
    return save_executed(nb, path.name, out_dir, quick)


def save_executed(nb, name: str, out_dir: Path = EXECUTED, quick: bool = True) -> Path:
    """Write an executed notebook ``nb`` as ``out_dir/name``, noting the mode it ran in."""
    import nbformat

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # the widgets' saved state carries graphviz-anywidget's 1.2 MB JavaScript bundle per tree;
    # the book shows the pictures in the display bundles instead (workbench.viz.snapshot)
    nb.metadata.pop("widgets", None)
    nb.metadata["workbench"] = {
        **nb.metadata.get("workbench", {}),  # a teacher's version says so there
        "quick": bool(quick),
        "executed": time.strftime("%Y-%m-%d %H:%M"),
    }
    target = out_dir / name
    nbformat.write(nb, target)
    return target


#: the kernel the notebooks run on, as JupyterLab writes it into a notebook it opens
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def lab_form(text: str) -> str:
    """A notebook's file ``text`` as JupyterLab would save it right after opening it: the
    kernel's spec and ``language_info`` (which JupyterLab fills in from the running kernel, and
    so marks a notebook without them modified the moment it opens), nbformat 4.5 with cell ids,
    one space of indent, sorted keys.  Cells are left as they are."""
    import nbformat
    from ipykernel.ipkernel import IPythonKernel

    nb = nbformat.reads(text, as_version=4)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = dict(IPythonKernel.language_info)
    return nbformat.writes(nb) + "\n"


def tidy(paths=None) -> list[Path]:
    """Write every notebook (or ``paths``) in :func:`lab_form`; returns those it changed."""
    changed = []
    for path in paths or notebooks():
        text = Path(path).read_text(encoding="utf-8")
        form = lab_form(text)
        if form != text:
            Path(path).write_text(form, encoding="utf-8")
            changed.append(Path(path))
    return changed


def stale(path: Path, executed_dir: Path = EXECUTED) -> bool:
    """True if ``path`` has no executed copy in ``executed_dir`` newer than itself."""
    copy = Path(executed_dir) / path.name
    return not copy.exists() or copy.stat().st_mtime < path.stat().st_mtime


def assemble(
    executed_dir: Path = EXECUTED, source: Path = SOURCE, solutions: bool = False
) -> list[Path]:
    """Write the book's sources into ``source``: config, table of contents, intro, the executed
    notebooks, the findings, the guide and the API page.  ``solutions``: the teacher's book, whose
    executed copies in ``executed_dir`` are the teacher's versions of the notebooks (each
    exercise's solution under it), with the page for teachers first; the students' book has
    neither.  Returns the notebooks it took."""
    executed_dir, source = Path(executed_dir), Path(source)
    missing = [p.name for p in notebooks() if not (executed_dir / p.name).exists()]
    if missing:
        raise FileNotFoundError(
            f"no executed copy of {', '.join(missing)} in {executed_dir}: run "
            "`python3 dev.py book` (which executes them) or the notebook tests first"
        )
    nb_dir = source / "notebooks"
    if nb_dir.exists():
        shutil.rmtree(nb_dir)
    nb_dir.mkdir(parents=True)
    for stale_page in source.glob("*.md"):
        stale_page.unlink()  # a teacher's page left by an earlier build in the same folder
    taken, modes = [], set()
    for p in notebooks():
        copy = executed_dir / p.name
        nb = json.loads(copy.read_text())
        teacher = nb.get("metadata", {}).get("workbench", {}).get("version") == "teacher"
        if teacher != solutions:
            which = "the teacher's version" if teacher else "a student's notebook"
            raise ValueError(
                f"{copy} is {which}: the {'teacher' if solutions else 'students'}'s book is "
                f"built from {'the teacher' if solutions else 'the students'}'s notebooks"
            )
        _drop_bare_widgets(nb)
        _hide_tests(nb)
        for cell in nb.get("cells", []):
            if cell.get("cell_type") == "markdown":
                text = (
                    "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                )
                cell["source"] = docs_links(table_math_bars(text))
        (nb_dir / p.name).write_text(json.dumps(nb, indent=1))
        meta = nb.get("metadata", {}).get("workbench", {})
        modes.add(meta.get("quick"))
        taken.append(nb_dir / p.name)
    guide = [f for f in GUIDE if f.exists()]
    findings = [f for f in sorted((ROOT / "docs").glob("*.md")) if f != TEACHING and f not in GUIDE]
    teaching = solutions and TEACHING.exists()
    for f in findings + guide + ([TEACHING] if teaching else []):
        shutil.copy2(f, source / f.name)
    mode = {
        frozenset({True}): "The notebooks ran in **quick mode** (shorter streams, fewer trials): "
        "their numbers are those of the quick runs, which each notebook says.",
        frozenset({False}): "The notebooks ran in **full mode** (the laptop-scale reproduction).",
    }.get(frozenset(modes), "")
    (source / "_config.yml").write_text(_config(_ship_mathjax(source)))
    shown = (
        "**Teacher's book**: each exercise shows its solution under it (the teacher's versions "
        "of the notebooks), and the page for teachers comes first."
        if solutions
        else "Each paper notebook ends with exercises that check the reader's answers and give "
        "hints; the solutions are not in this book."
    )
    (source / "intro.md").write_text(INTRO.format(mode=mode, solutions=shown))
    (source / "api.md").write_text(API)
    api_dir = source / "api"
    api_dir.mkdir(exist_ok=True)
    for package in API_PACKAGES:
        (api_dir / f"{package}.md").write_text(_api_page(package))
    toc = ["format: jb-book", "root: intro", "parts:"]
    if teaching:
        toc += ["  - caption: Teaching", "    chapters:", f"      - file: {TEACHING.stem}"]
    toc += ["  - caption: Notebooks", "    chapters:"]
    toc += [f"      - file: notebooks/{p.stem}" for p in taken]
    if findings:
        toc += ["  - caption: Findings", "    chapters:"]
        toc += [f"      - file: {f.stem}" for f in findings]
    if guide:
        toc += ["  - caption: Guide", "    chapters:"]
        toc += [f"      - file: {f.stem}" for f in guide]
    toc += ["  - caption: Reference", "    chapters:", "      - file: api", "        sections:"]
    toc += [f"          - file: api/{package}" for package in API_PACKAGES]
    (source / "_toc.yml").write_text("\n".join(toc) + "\n")
    return taken


def docs_links(markdown: str) -> str:
    """``markdown`` with its links to ``../docs/<page>.md`` (a notebook's link to the findings,
    which JupyterLab opens from the repository) pointed at ``../<page>.md``, where the book keeps
    that page (at its root): otherwise the book's link goes nowhere."""
    return re.sub(r"\]\(\.\./docs/([\w.-]+\.md)(#[^)]*)?\)", r"](../\1\2)", markdown)


def table_math_bars(markdown: str) -> str:
    """``markdown`` with each ``|`` inside ``$...$`` on a table row written ``\\vert`` (and
    ``\\|`` written ``\\Vert``).  A
    Markdown table splits its rows at every ``|`` before it looks for maths, so the book would
    cut ``$|+|=26{,}075$`` into cells and show stray ``$``; JupyterLab takes the maths out
    first and shows it right.  Other lines are left as they are."""
    out = []
    for line in markdown.split("\n"):
        if not line.lstrip().startswith("|") or "$" not in line:
            out.append(line)
            continue
        chars, in_math, prev = [], False, ""
        for ch in line:
            if ch == "$" and prev != "\\":
                in_math = not in_math
            elif ch == "|" and in_math:
                if prev == "\\":  # a norm's \|: the table would unescape it to |
                    chars.pop()
                    ch = "\\Vert "
                else:
                    ch = "\\vert "
            chars.append(ch)
            prev = ch
        out.append("".join(chars))
    return "\n".join(out)


def _hide_tests(nb: dict) -> int:
    """Leave out of the book the autograder's test cells of a teacher's version (nbgrader's
    ``grade`` cells that are not answers: an ``assert`` a reader has no use for).  Returns how
    many."""
    kept = [
        c
        for c in nb.get("cells", [])
        if not (
            c.get("metadata", {}).get("nbgrader", {}).get("grade")
            and not c["metadata"]["nbgrader"].get("solution")
        )
    ]
    removed = len(nb.get("cells", [])) - len(kept)
    nb["cells"] = kept
    return removed


def _drop_bare_widgets(nb: dict) -> int:
    """Remove the outputs that are only a live widget, with no picture of it: without a kernel
    the page could show only their text form, e.g. a progress bar's first state ("0%| | 0/45")
    or "interactive(children=...)".  The workbench's trees and steppers carry a picture
    (:mod:`workbench.viz.snapshot`) and stay.  Returns how many outputs were removed."""
    removed = 0
    for cell in nb.get("cells", []):
        outputs = cell.get("outputs")
        if not outputs:
            continue
        keep = [
            o
            for o in outputs
            if not (
                "application/vnd.jupyter.widget-view+json" in o.get("data", {})
                and "text/html" not in o.get("data", {})
            )
        ]
        removed += len(outputs) - len(keep)
        cell["outputs"] = keep
    return removed


def build(source: Path = SOURCE, html: Path = HTML, quiet: bool = True) -> Path:
    """Build the site from ``source`` with Jupyter Book 1 into ``html``; returns ``html``."""
    source, html = Path(source), Path(html)
    staging = source.parent / f"jb-{source.name}"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cli = "from jupyter_book.cli.main import main; main()"  # the `jupyter-book` command
    cmd = [sys.executable, "-c", cli, "build", str(source), "--path-output", str(staging)]
    if quiet:
        cmd.append("--quiet")
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(
            f"jupyter-book build failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n"
            f"{proc.stderr[-4000:]}"
        )
    built = staging / "_build" / "html"
    if html.exists():
        shutil.rmtree(html)
    shutil.copytree(built, html)
    return html


def _one_script_each(app, pagename, templatename, context, doctree) -> None:
    """Keep one of each script a page would load twice.  Jupyter Book adds every ``.js`` file
    of ``_static`` to every page, so the MathJax the book ships came once from there and once
    from ``sphinx.ext.mathjax`` ("Cannot set property Package" on every page with maths), and
    sphinx-thebe's and sphinx-togglebutton's settings came twice (``const THEBE_JS_URL``
    declared twice, a page error): the first of each (by Sphinx's priority order) is kept."""
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    seen, kept = set(), []
    for js in sorted(scripts, key=lambda js: getattr(js, "priority", 500)):
        # an inline script's file name is None or "" depending on who added it
        name = str(getattr(js, "filename", js) or "").split("?")[0]
        key = (name, getattr(js, "attributes", {}).get("body", ""))
        if key not in seen:
            seen.add(key)
            kept.append(js)
    context["script_files"] = kept


def setup(app):
    """The book's own Sphinx extension (``workbench.book`` in the book's extensions)."""
    app.connect("html-page-context", _one_script_each, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m workbench.book", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--quick", action="store_true", help="execute the notebooks in quick mode")
    ap.add_argument(
        "--executed",
        type=Path,
        default=None,
        help="build from the executed copies in this directory (run only those missing or older "
        "than their notebook)",
    )
    ap.add_argument(
        "--solutions",
        action="store_true",
        help="the teacher's book: the teacher's versions of the notebooks (written to teacher/ "
        f"and executed), the solutions shown, the page for teachers first (built in "
        f"{HTML_SOLUTIONS})",
    )
    ap.add_argument(
        "--tidy",
        action="store_true",
        help="only write the notebooks as JupyterLab saves them (so that they open unmodified)",
    )
    args = ap.parse_args(argv)
    if args.tidy:
        changed = tidy()
        print(f"[book] {len(changed)} notebook(s) rewritten: {[p.name for p in changed]}")
        return 0
    executed_dir = args.executed or (EXECUTED_TEACHER if args.solutions else EXECUTED)
    t0 = time.monotonic()
    sources = notebooks()
    if args.solutions:
        from workbench.exercises import versions

        sources = versions.write_teacher()
        print(f"[book] the teacher's versions of the notebooks in {versions.TEACHER}", flush=True)
    for p in sources:
        if args.executed is None or stale(p, executed_dir):
            mode = "quick" if args.quick else "full"
            print(f"[book] executing {p.name} ({mode} mode)", flush=True)
            t = time.monotonic()
            execute(p, executed_dir, quick=args.quick)
            print(f"[book]   done in {time.monotonic() - t:.0f} s", flush=True)
    source = SOURCE.with_name("src-solutions") if args.solutions else SOURCE
    assemble(executed_dir, source, solutions=args.solutions)
    print("[book] building the site with Jupyter Book", flush=True)
    html = build(source, HTML_SOLUTIONS if args.solutions else HTML)
    print(f"[book] {html / 'index.html'} ({time.monotonic() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
