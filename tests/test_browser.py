"""End to end in a real browser: JupyterLab on localhost, the notebooks in headless Chromium.

The test starts a JupyterLab server on 127.0.0.1 over a copy of the repository's layout
(``notebooks/``, ``docs/``, the stored benchmark results the notebooks read), as ``dev.py lab``
does, and drives Debian's Chromium with Playwright.  On the tour (``notebooks/00_tour.ipynb``,
fast mode) it runs all cells, steps the SEA tree until its root splits and the Electricity tree
until its first split, plays and pauses, changes a parameter, steps the side-by-side pair, and
steps every pair of learners of "Step any pair" on every stream it offers.  It checks what a
student would look at: the drawn SVG gains nodes, the accuracy readout changes, the
split-decision chart shows the crossing and the split.  Then it runs all cells of every other
notebook as a student would and finds no solution on screen, follows notebook 05's link to the
bounds findings, and tries the paper notebooks' widgets one by one.  Screenshots go to
``test-artifacts/``.

Chromium comes from the system (``python3 dev.py test`` installs it with apt-get); Playwright
never downloads a browser.  Without Chromium the test is skipped only where it cannot be
installed (not root, no passwordless sudo); in CI (``CI=true``) it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
TOUR = ROOT / "notebooks" / "00_tour.ipynb"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: the browser console of the whole module (both tests), checked at the end of the second
CONSOLE: list[str] = []

pytestmark = pytest.mark.slow


def _dev():
    spec = importlib.util.spec_from_file_location("_workbench_dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _may_install() -> bool:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return True
    if shutil.which("sudo"):
        return subprocess.run(["sudo", "-n", "true"], capture_output=True).returncode == 0
    return False


@pytest.fixture(scope="module")
def chromium():
    dev = _dev()
    path = dev.find_chromium()
    if path is None and _may_install():
        path = dev.ensure_chromium()
    if path is None:
        if IN_CI:
            pytest.fail(
                "Chromium is missing in CI: `python3 dev.py test` should have installed "
                "it with apt-get"
            )
        if _may_install():
            pytest.fail("Chromium is missing and installing it with apt-get failed")
        pytest.skip(
            "Chromium is not installed and cannot be installed here (not root, no "
            "passwordless sudo): run `sudo apt-get install chromium` to enable this test"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if IN_CI:
            pytest.fail("playwright (a dev dependency) is not installed")
        pytest.skip("playwright is not installed: pip install -e '.[dev]'")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _write_settings(settings: Path) -> None:
    """Every cell kept in the page (the news pop-up is turned off by the overrides.json that
    `dev.py lab` ships, which the server below reads: the test checks that it works)."""
    for plugin, values in {
        "@jupyterlab/notebook-extension/tracker": {
            "windowingMode": "none",
            "autoStartDefaultKernel": True,
        },
    }.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))


@pytest.fixture(scope="module")
def lab(tmp_path_factory, chromium):
    # the kernels in numba's cache first (seconds when `dev.py test` has done it already): the
    # test is about the page, and a cold compile in the kernel takes a minute on a busy machine
    subprocess.run(
        [sys.executable, "-m", "workbench.precompile", "--group", "trees"], check=True, cwd=ROOT
    )
    # the repository's layout, as `dev.py lab` serves it (its root is the repository, so that a
    # notebook's link to ../docs opens): the notebooks, the pages they link to, the results
    # they read; copies, so that JupyterLab's autosave writes nothing into the checkout
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copytree(ROOT / "benchmarks" / "results", root / "benchmarks" / "results")
    settings = tmp_path_factory.mktemp("settings")
    _write_settings(settings)
    # the set-up's overrides.json (dev.py lab writes it into the environment's prefix)
    overrides = _dev().write_lab_settings(tmp_path_factory.mktemp("prefix"))
    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        WORKBENCH_FAST="1",
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path_factory.mktemp("workspaces")),
    )
    log = open(root / "server.log", "w")
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.extension_manager=readonly",
        "--ServerApp.port_retries=0",
        f"--LabApp.app_settings_dir={overrides.parent}",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited: {(root / 'server.log').read_text()[-2000:]}")
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not answer within 90 s")
                time.sleep(0.3)
        yield {"url": url, "token": token, "root": root}
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        ARTIFACTS.mkdir(exist_ok=True)
        shutil.copy(root / "server.log", ARTIFACTS / "jupyterlab-server.log")


@pytest.fixture(scope="module")
def page(lab, chromium):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    console = CONSOLE
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1500, "height": 1000})
            pg = context.new_page()
            pg.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            pg.set_default_timeout(60_000)
            pg.goto(f"{lab['url']}/lab/tree/notebooks/{TOUR.name}?token={lab['token']}")
            yield pg
        finally:
            (ARTIFACTS / "browser-console.log").write_text("\n".join(console))
            browser.close()


def _accept_kernel_dialog(page, timeout: float = 3_000) -> None:
    """JupyterLab may still ask which kernel to start: take the proposed one."""
    button = page.locator(".jp-Dialog").get_by_role("button", name="Select", exact=True)
    try:
        button.click(timeout=timeout)
    except Exception:  # no dialog: the kernel started by itself
        pass


def _shot(target, name: str) -> None:
    target.screenshot(path=str(ARTIFACTS / name))


# Click a button from inside the page and time, with the page's clock, (1) until the readout
# shows the new position and (2) until the panel stops changing (the tree drawn, 300 ms quiet).
TIMED_CLICK = """async ([el, selector]) => {
  const readout = () => el.querySelector('.wb-accuracy-readout').dataset.t;
  const before = readout();
  const t0 = performance.now();
  let last = t0, seen = null;
  const obs = new MutationObserver(() => {
    last = performance.now();
    if (seen === null && readout() !== before) seen = last;
  });
  obs.observe(el, {subtree: true, childList: true, attributes: true, characterData: true});
  el.querySelector(selector).click();
  while (seen === null || performance.now() - last < 300) {
    if (performance.now() - t0 > 20000) break;
    await new Promise(r => setTimeout(r, 20));
  }
  obs.disconnect();
  return {readout: seen === null ? null : seen - t0, settled: last - t0};
}"""


def _t(stepper) -> int:
    return int(stepper.locator(".wb-accuracy-readout").get_attribute("data-t"))


def _nodes(stepper) -> int:
    return stepper.locator(".wb-tree svg g.node").count()


def _wait_t(page, stepper, t: int, timeout: float = 30_000) -> None:
    handle = stepper.element_handle()
    page.wait_for_function(
        "([el, t]) => { const r = el.querySelector('.wb-accuracy-readout');"
        " return r && Number(r.dataset.t) === t; }",
        arg=[handle, t],
        timeout=timeout,
    )


def _wait_nodes(page, stepper, at_least: int, at_most: int | None = None) -> None:
    handle = stepper.element_handle()
    page.wait_for_function(
        "([el, lo, hi]) => { const n = el.querySelectorAll('.wb-tree svg g.node').length;"
        " return n >= lo && (hi === null || n <= hi); }",
        arg=[handle, at_least, at_most],
        timeout=30_000,
    )


def _split_chart(stepper):
    return stepper.locator(".wb-split-chart svg.wb-split-svg")


def _step_until_split(page, stepper, max_clicks: int) -> int:
    """Click "step k" until the tree has more than one leaf; returns the clicks."""
    for clicks in range(1, max_clicks + 1):
        before = _t(stepper)
        k = int(stepper.locator(".wb-k input").input_value())
        stepper.locator("button.wb-stepk").click()
        _wait_t(page, stepper, before + k)
        if int(stepper.locator(".wb-treestats").get_attribute("data-leaves")) > 1:
            return clicks
    raise AssertionError(f"no split after {max_clicks} clicks of step k")


#: the notebook shown (the others' panels stay in the page, hidden)
ACTIVE = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# the kernel of the notebook shown is idle (JupyterLab keeps the indicators of other tabs hidden)
# and connected: before the kernel starts the indicator already says "idle" ("No Kernel |
# Initializing" in the status bar), and a Run All clicked then is dropped without a word
KERNEL_IDLE = (
    "() => [...document.querySelectorAll('.jp-Notebook-ExecutionIndicator')]"
    ".some(e => e.dataset.status === 'idle' && e.offsetParent) && "
    "[...document.querySelectorAll('.jp-StatusBar-TextItem')]"
    ".some(e => /\\(ipykernel\\) \\| Idle/.test(e.textContent))"
)


def _run_all(page, shot: str) -> None:
    """Wait for the notebook's kernel, run all cells and wait until every cell has run."""
    page.wait_for_selector(f"{ACTIVE} .jp-Cell")
    _accept_kernel_dialog(page)
    page.wait_for_function(KERNEL_IDLE, timeout=120_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()
    _accept_kernel_dialog(page)
    started = (
        "() => [...document.querySelectorAll("
        f"'{ACTIVE} .jp-CodeCell .jp-InputPrompt')].some(e => /\\[(\\*|\\d+)\\]/.test("
        "e.textContent))"
    )
    try:
        page.wait_for_function(started, timeout=60_000)
    except Exception:
        # dropped (the kernel was not connected yet after all): once more
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_text("Run All Cells", exact=True).click()
        page.wait_for_function(started, timeout=120_000)
    try:
        page.wait_for_function(
            "() => { const p = [...document.querySelectorAll("
            f"'{ACTIVE} .jp-CodeCell .jp-InputPrompt')];"
            " return p.length > 0 && p.every(e => /\\[\\d+\\]/.test(e.textContent)); }",
            timeout=300_000,
        )
    except Exception as err:
        prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_inner_texts()
        raise AssertionError(
            f"Run All did not finish in 300 s: prompts {prompts}; see test-artifacts/"
        ) from err
    finally:
        page.screenshot(path=str(ARTIFACTS / shot))


def test_tour_steps_a_tree_in_jupyterlab(page):
    # ---------------------------------------------------------------- run all cells
    _run_all(page, "00_after_run_all.png")
    errors = page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    ).all_inner_texts()
    tracebacks = [e for e in errors if "Error" in e or "Traceback" in e]
    assert not tracebacks, f"a cell failed:\n{tracebacks[0][:3000]}"
    # no "Would you like to get notified about official Jupyter news?" over the notebook
    assert page.get_by_text("official Jupyter news").count() == 0
    plots = page.locator(".jp-OutputArea-output img")
    for i in range(min(plots.count(), 4)):
        _shot(plots.nth(i), f"00_tour_plot_{i + 1}.png")
    show = page.locator(".wb-treeview").first
    _wait_nodes(page, show, 5)
    _shot(show, "00_tour_show_tree.png")
    steppers = page.locator(".wb-stepper")
    page.wait_for_function("() => document.querySelectorAll('.wb-stepper').length >= 4")
    sea, elec = steppers.nth(0), steppers.nth(1)
    sea.scroll_into_view_if_needed()
    # it opens where the plot above ends, at the root's split; reset starts it again
    _wait_t(page, sea, 3_400)
    _wait_nodes(page, sea, 3)
    assert _split_chart(sea).get_attribute("data-split") == "3400"
    _shot(sea, "01_sea_opens_at_its_split.png")
    sea.locator("button.wb-reset").click()
    _wait_t(page, sea, 0)
    _wait_nodes(page, sea, 1, 1)  # the root leaf alone
    _shot(sea, "01_sea_start.png")

    # ------------------------------------------------ step 1, five times (timed in the page)
    readout0 = sea.locator(".wb-accuracy-readout").inner_text()
    assert _t(sea) == 0
    times = []
    for i in range(1, 6):
        times.append(page.evaluate(TIMED_CLICK, [sea.element_handle(), "button.wb-step1"]))
        _wait_t(page, sea, i)
    assert all(t["readout"] is not None for t in times), times
    readout5 = sea.locator(".wb-accuracy-readout").inner_text()
    assert readout5 != readout0 and "%" in readout5 and "of 5 right" in readout5
    assert "instance 5" in sea.locator(".wb-instance").inner_text()
    assert sea.locator(".wb-acc-chart polyline.wb-acc-line").count() == 1
    _shot(sea, "02_sea_three_steps.png")

    # ---------------------------------------------------------------- step k until the split
    nodes_before = _nodes(sea)
    _step_until_split(page, sea, max_clicks=40)
    _wait_nodes(page, sea, 3)
    assert _nodes(sea) > nodes_before
    assert sea.locator(".wb-tree svg g.node.wbrecent").count() == 1  # marked as new
    chart = _split_chart(sea)
    assert chart.get_attribute("data-split") == "3400"  # the tie deadline
    assert chart.get_attribute("data-crossed") == "tie"
    assert chart.locator(".wb-split-marker").count() >= 1
    assert chart.locator("polyline.wb-quantity").count() >= 1
    assert chart.locator("polyline.wb-threshold").count() >= 1
    assert chart.locator(".wb-tau").count() >= 1
    assert readout5 != sea.locator(".wb-accuracy-readout").inner_text()
    _shot(sea, "03_sea_root_split.png")

    # ---------------------------------------------------------------- Electricity: margin rule
    elec.scroll_into_view_if_needed()
    _step_until_split(page, elec, max_clicks=5)
    _wait_nodes(page, elec, 3)
    chart = _split_chart(elec)
    assert chart.get_attribute("data-split") == "200"
    assert chart.get_attribute("data-crossed") == "margin"  # G(best) - G(second) > epsilon
    assert "rose above" in elec.locator(".wb-split-caption").inner_text()
    _shot(elec, "04_electricity_first_split.png")

    # ---------------------------------------------------------------- play, then pause
    t0 = _t(elec)
    elec.locator("button.wb-play").click()
    page.wait_for_function(
        "([el, t]) => Number(el.querySelector('.wb-accuracy-readout').dataset.t) >= t + 3",
        arg=[elec.element_handle(), t0],
        timeout=30_000,
    )
    elec.locator("button.wb-play").click()
    time.sleep(0.5)
    t_paused = _t(elec)
    time.sleep(1.0)
    assert _t(elec) == t_paused > t0, "play must advance and pause must stop"

    # ---------------------------------------------------------------- a parameter replays
    elec.locator(".wb-param-criterion select").select_option("gini")
    # the Gini tree has not split yet at this position (its root waits until t = 800)
    _wait_nodes(page, elec, 1, 1)
    assert _t(elec) == t_paused
    assert "criterion=gini" in elec.locator(".wb-learner").inner_text()
    _shot(elec, "05_electricity_gini_replayed.png")

    # ---------------------------------------------------------------- side by side in step
    pair = page.locator(".wb-compare").first  # section 3's pair (section 4 shows another)
    pair.scroll_into_view_if_needed()
    left, right = pair.locator(".wb-stepper").nth(0), pair.locator(".wb-stepper").nth(1)
    assert _t(left) == _t(right) == 800
    pair.locator("button.wb-step1").click()
    _wait_t(page, left, 801)
    _wait_t(page, right, 801)
    _wait_nodes(page, right, 3)  # the Gini root split at 800
    _shot(pair, "06_side_by_side.png")
    (ARTIFACTS / "browser-step-ms.json").write_text(
        json.dumps(
            {
                "step1_click_to_readout_ms": [t["readout"] for t in times],
                "step1_click_to_last_change_ms": [t["settled"] for t in times],
            },
            indent=1,
        )
    )


def _tour_menu():
    """The learners and streams "Step any pair" offers (the tour's own lists)."""
    from workbench.experiments import tour

    return [name for name in tour.NOTEBOOK if name != "BOCT"], ["Electricity", "SEA"]


def test_every_pair_of_the_tours_menu_steps_in_jupyterlab(page):
    """The tour's "Step any pair", as a student uses it: choose two learners and a stream,
    show, step 1, step k; every pair of its learners on every stream.  Both panes move to the
    same t, draw a tree, and no error shows (UFFT's pane stayed at t = 0 with a traceback in
    JupyterLab's log)."""
    from itertools import combinations

    learners, stream_names = _tour_menu()
    left = page.locator(".widget-dropdown", has_text="left").first.locator("select")
    right = page.locator(".widget-dropdown", has_text="right").first.locator("select")
    stream = page.locator(".widget-dropdown", has_text="stream").first.locator("select")
    show = page.get_by_role("button", name="show")
    cell = page.locator(".jp-CodeCell").filter(
        has=page.locator(".widget-dropdown", has_text="left")
    )
    stepped = []
    for name in stream_names:
        stream.select_option(name)
        for a, b in combinations(learners, 2):
            left.select_option(a)
            right.select_option(b)
            show.click()
            pair = cell.locator(".wb-compare")
            page.wait_for_function(
                "([el, a, b]) => { const t = [...el.querySelectorAll('.wb-compare .wb-title')]"
                ".map(e => e.textContent); return t.length === 2 && t[0] === a && t[1] === b; }",
                arg=[cell.element_handle(), a, b],
                timeout=60_000,
            )
            panes = pair.locator(".wb-stepper")
            pair.locator("button.wb-step1").click()
            for k in range(2):
                _wait_t(page, panes.nth(k), 1)
            pair.locator("button.wb-stepk").click()
            for k in range(2):
                _wait_t(page, panes.nth(k), 501)
                _wait_nodes(page, panes.nth(k), 1)
            page.wait_for_function(  # the shared header says where both stand
                "el => (el.querySelector('.wb-pos') || {dataset: {}}).dataset.t === '501'",
                arg=pair.element_handle(),
            )
            error = pair.locator(".wb-error-box").inner_text().strip()
            assert not error, (a, b, name, error)
            stderr = cell.locator(
                ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
            ).all_inner_texts()
            assert not [e for e in stderr if "Error" in e], (a, b, name, stderr)
            stepped.append((a, b, name))
            if "UFFT" in (a, b) and name == "Electricity":
                _shot(pair, "07_step_any_pair_with_ufft.png")
    assert len(stepped) == len(learners) * (len(learners) - 1) // 2 * len(stream_names)


# the paper notebooks' widgets, in one small notebook (the notebooks themselves run in
# tests/test_notebooks.py; here what a browser shows of their widgets)
WIDGET_CELLS = [
    "from workbench import learners, streams, viz\n"
    "from workbench.experiments import paper000 as P0, paper002 as P2, paper004 as P4",
    # 03: UFFT's forest stepper after a prune
    "forest = P2.forest_stepper_demo(n=20_000)\n"
    "forest.step(10_000).to_next_prune()\n"
    "forest.widget()",
    # 01: C-Tree and H-Tree side by side
    "compare, generator, info = P0.stepper_demo()\ncompare",
    # 05: VFDT and EFDT side by side, deep enough to be wide
    "X_d, y_d = P4.figures.two_concepts(10_000, 150_000)\n"
    "pair = viz.side_by_side(\n"
    '    viz.TreeStepper(lambda **p: P4.make("VFDT", 3, 2, **p), X_d, y_d, title="VFDT"),\n'
    '    viz.TreeStepper(lambda **p: P4.make("EFDT", 3, 2, **p), X_d, y_d, title="EFDT"),\n'
    "    k=2000)\n"
    "pair.step(70_000)\npair",
    # a pure leaf: the root sees one class only for its first 300 instances
    "X, y = streams.sea(3_000, seed=1)\ny[:300] = 0\n"
    "pure = viz.TreeStepper(lambda **p: learners.HoeffdingTree(3, 2, **p), X, y, k=50)\n"
    "pure.step(50)\npure",
    # 01's schedule widget
    "P0.schedule_widget()",
    # which thread runs a widget's callback (the set-up keeps them on the main thread)
    "import threading, ipywidgets as widgets\n"
    'probe = widgets.IntSlider(0, description="probe")\n'
    'seen = widgets.HTML("none")\nseen.add_class("wb-thread-seen")\nthreads = []\n'
    "def record(change):\n"
    "    threads.append(threading.current_thread().name)\n"
    "    seen.value = f'{len(threads)}: ' + ', '.join(sorted(set(threads)))\n"
    "probe.observe(record, names='value')\nwidgets.VBox([probe, seen])",
    # an exercise's check
    "from workbench.exercises import paper000 as E\nE.check(1, 0.235)",
    # a learner that fails while learning: the stepper shows the error, JupyterLab's log does not
    "class Broken(learners.HoeffdingTree):\n"
    "    def learn_one(self, x, y):\n"
    "        raise RuntimeError('this learner breaks on purpose')\n"
    "broken = viz.TreeStepper(lambda **p: Broken(3, 2, **p), X, y, params={}, title='broken')\n"
    "broken",
]

# where a drawn tree sits in its box, in the page: the box, the drawing, the root node
TREE_BOX = """el => {
  const box = el.querySelector('.wb-tree'), svg = box.querySelector('svg');
  const root = svg.querySelector('g.node');
  const r = x => { const b = x.getBoundingClientRect(); return [b.left, b.right, b.width]; };
  const widths = [...svg.querySelectorAll('g.node')].map(n => n.getBoundingClientRect().width);
  const m = /^([\\d.]+)(pt|px)?$/.exec(svg.getAttribute('width') || '');
  const natural = m ? parseFloat(m[1]) * (m[2] === 'px' ? 1 : 4 / 3) : NaN;
  const texts = [...svg.querySelectorAll('g.node text')].map(t => t.getBoundingClientRect().height);
  return {box: r(box), svg: r(svg), root: r(root), scroll: box.scrollWidth,
          client: box.clientWidth, fit: !!box.closest('.wb-fit'),
          widest: Math.max(...widths), scale: svg.getBoundingClientRect().width / natural,
          text: Math.min(...texts), leaves: svg.querySelectorAll('g.node.wbleaf').length};
}"""


def _in_view(geometry) -> bool:
    """The root node lies within its box horizontally (seen without scrolling)."""
    lo, hi = geometry["box"][0], geometry["box"][1]
    return lo - 1 <= geometry["root"][0] and geometry["root"][1] <= hi + 1


def test_paper_widgets_in_jupyterlab(page, lab):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "name": "python3",
    }
    nb.cells = [nbformat.v4.new_code_cell(c) for c in WIDGET_CELLS]
    nbformat.write(nb, lab["root"] / "notebooks" / "widgets.ipynb")
    page.goto(f"{lab['url']}/lab/tree/notebooks/widgets.ipynb?token={lab['token']}")
    _run_all(page, "10_widgets_after_run_all.png")
    panel = page.locator(ACTIVE)
    cells = panel.locator(".jp-CodeCell")
    errors = panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    tracebacks = [e for e in errors.all_inner_texts() if "Error" in e or "Traceback" in e]
    assert not tracebacks, tracebacks[0][:3000]

    # ---------------------------------------------------- 03: the forest stepper opens fitted
    forest = cells.nth(1)
    forest.scroll_into_view_if_needed()
    page.wait_for_function(
        "el => el.querySelectorAll('.wb-tree svg g.node').length > 5",
        arg=forest.element_handle(),
    )
    fitted = forest.evaluate(TREE_BOX)
    assert fitted["fit"] and _in_view(fitted), fitted  # the root, in view at once
    assert fitted["svg"][2] <= fitted["box"][2] + 1, fitted  # no wider than the column
    assert "Fit:" in forest.locator(".wb-tree-hint").inner_text()
    _shot(forest, "11_forest_fitted.png")
    forest.locator(".wb-view button", has_text="full size").click()
    page.wait_for_function(
        "el => !el.querySelector('.wb-tree').closest('.wb-fit')",
        arg=forest.element_handle(),
    )
    full = forest.evaluate(TREE_BOX)
    # short labels: the DDM's numbers are in a tooltip, not in a 550 px wide node
    assert full["widest"] < 200, full
    assert "scrolls sideways" in forest.locator(".wb-tree-hint").inner_text()
    tooltips = forest.evaluate(
        "el => [...el.querySelectorAll('.wb-tree svg a, .wb-tree svg g.node')].map(a =>"
        " a.getAttributeNS('http://www.w3.org/1999/xlink', 'title') || a.getAttribute('title')"
        " || a.getAttribute('data-tooltip') || a.getAttribute('data-original-title') || '')"
    )
    assert any("DDM NB error p=" in t for t in tooltips), tooltips[:5]
    _shot(forest, "12_forest_full_size.png")
    forest.locator(".wb-view button", has_text="fit").click()
    nodes = forest.locator(".wb-tree svg g.node").count()
    forest.get_by_role("button", name="+1,000").click()  # redraws (no console error below)
    page.wait_for_function(
        "([el, n]) => el.querySelector('.wb-tree svg') && "
        "el.querySelector('pre').textContent.length > 0",
        arg=[forest.element_handle(), nodes],
    )

    # ------------------- 01 and 05: side by side in "fit", the root in view, the text readable
    # (01's C-Tree at t = 4,000 and 05's VFDT at t = 70,000 are wide: fitted to the column their
    # text was about 5 px high; now "fit" stops at 70% and the box scrolls, root in view)
    widest = {}
    for i, name in ((2, "13_ctree_htree_pair.png"), (3, "14_vfdt_efdt_pair.png")):
        pair = cells.nth(i).locator(".wb-compare")
        pair.scroll_into_view_if_needed()
        for k in range(2):
            stepper = pair.locator(".wb-stepper").nth(k)
            _wait_nodes(page, stepper, 1)
            page.wait_for_function(  # the drawing's module has sized it
                "el => { const s = el.querySelector('.wb-tree svg');"
                " return s && el.querySelector('.wb-tree').dataset.minScale; }",
                arg=stepper.element_handle(),
            )
            geometry = stepper.evaluate(TREE_BOX)
            assert geometry["fit"] and _in_view(geometry), (name, k, geometry)
            fits = geometry["svg"][1] <= geometry["box"][1] + 1
            assert fits or geometry["scale"] >= 0.69, (name, k, geometry)
            assert geometry["text"] >= 8.5, (name, k, geometry)  # px: readable
            widest[(i, k)] = geometry
        _shot(pair, name)
    # C-Tree (9 leaves in quick mode) and VFDT are wider than their column at 70%: they scroll
    for key in ((2, 0), (3, 0)):
        assert widest[key]["scroll"] > widest[key]["client"], widest[key]
    pair = cells.nth(3).locator(".wb-compare")
    pair.locator("button.wb-stepk").click()  # both redraw
    _wait_t(page, pair.locator(".wb-stepper").nth(1), 72_000)

    # ------------------------------------------------ 01's Exercise 4: go to t, not 93 clicks
    pair = cells.nth(2).locator(".wb-compare")
    pair.scroll_into_view_if_needed()
    goto = pair.locator(".wb-goto input")
    htree = pair.locator(".wb-stepper").nth(1)
    for t in (13_000, 13_400):  # no split yet; then the root's split, which the jump passed
        goto.fill(str(t))
        goto.press("Enter")
        _wait_t(page, htree, t)
    caption = htree.locator(".wb-split-caption").inner_text()
    assert "Leaf 0 split at t=13,300" in caption, caption
    _shot(pair, "13b_ctree_htree_go_to_13400.png")

    # ------------------------------------------------ a pure leaf says why its chart is empty
    pure = cells.nth(4).locator(".wb-stepper")
    chart = pure.locator(".wb-split-chart svg.wb-split-svg")
    assert chart.get_attribute("data-pure") == "1"
    assert "is pure" in chart.text_content() and "is pure" in pure.inner_text()
    _shot(pure, "15_pure_leaf.png")

    # ------------------------ 01's schedule slider: five quick moves, the figure each time
    schedule = cells.nth(5)
    schedule.scroll_into_view_if_needed()
    handle = schedule.locator(".widget-slider .noUi-handle").first  # depth h
    for _ in range(5):
        handle.focus()
        page.keyboard.press("ArrowRight")
        time.sleep(0.2)
    page.wait_for_function(
        "el => el.querySelectorAll('img').length === 1 && "
        "el.querySelector('.widget-readout').textContent.trim() === '8'",
        arg=schedule.element_handle(),
        timeout=60_000,
    )
    text = schedule.inner_text()
    assert "Error" not in text and "ParseException" not in text, text[-2000:]
    _shot(schedule, "16_schedule_slider.png")

    # -------------------------------- widget callbacks run on the kernel's main thread
    # (JupyterLab 4.6 opens a kernel subshell for the widgets' messages on the first one, and
    # without the set-up's setting ipykernel 7 runs the later ones in that subshell's thread)
    probe = cells.nth(6)
    seen = probe.locator(".wb-thread-seen")
    for k in range(1, 5):
        probe.locator(".noUi-handle").first.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "([el, k]) => el.textContent.trim().startsWith(k + ':')",
            arg=[seen.element_handle(), k],
            timeout=30_000,
        )
        time.sleep(0.5)
    assert seen.inner_text().strip() == "4: MainThread", seen.inner_text()

    # ----------------------------------------------------------------- an exercise's check
    assert "✓ right" in cells.nth(7).locator(".wb-feedback").inner_text()

    # ------------------------------------- an error inside a button's callback, in the widget
    broken = cells.nth(8).locator(".wb-stepper")
    broken.scroll_into_view_if_needed()
    broken.locator("button.wb-step1").click()
    page.wait_for_function(
        "el => (el.querySelector('.wb-error-box') || {}).textContent.includes('breaks on purpose')",
        arg=broken.element_handle(),
    )
    text = broken.locator(".wb-error-box").inner_text()
    assert "step 1 failed: RuntimeError: this learner breaks on purpose" in text, text
    _shot(broken, "17_error_in_the_widget.png")

    # ------------------------------ a stored notebook opens without being marked modified
    page.goto(
        f"{lab['url']}/lab/tree/notebooks/02_bayesian_credible_trees.ipynb?token={lab['token']}"
    )
    page.wait_for_selector(f"{ACTIVE} .jp-Cell")
    _accept_kernel_dialog(page)
    page.wait_for_function(KERNEL_IDLE, timeout=120_000)
    time.sleep(2)  # the kernel's language_info arrives after the idle state
    tab = page.locator(".lm-TabBar-tab", has_text="02_bayesian_credible_trees.ipynb")
    assert "jp-mod-dirty" not in (tab.get_attribute("class") or "")

    # ---------------- every drawing redrew without graphviz-anywidget's console error
    failed = [c for c in CONSOLE if "SVG initialization failed" in c]
    assert not failed, f"{len(failed)} console errors, first: {failed[0]}"


def _shutdown_kernels(lab) -> None:
    """Stop every kernel the server runs (one per notebook opened), so that the next notebook
    does not share the machine with the last one's."""
    base = f"{lab['url']}/api/kernels"
    headers = {"Authorization": f"token {lab['token']}"}
    with urllib.request.urlopen(urllib.request.Request(base, headers=headers), timeout=10) as r:
        kernels = json.loads(r.read())
    for k in kernels:
        req = urllib.request.Request(f"{base}/{k['id']}", method="DELETE", headers=headers)
        urllib.request.urlopen(req, timeout=30).close()


OTHERS = [p for p in NOTEBOOKS if p != TOUR]


def test_run_all_shows_no_solution_in_any_notebook(page, lab):
    """Every notebook, Run All as a student does it: no cell fails, and no solution is on the
    screen: no worked solution, no check that says "✓ right" (every exercise says "no answer
    yet"), no solution region.  (Notebook 00 ran in the tests above.)  Then notebook 05's link
    to the bounds findings opens them, rendered (with JupyterLab rooted at notebooks/ it did
    nothing)."""
    seen = {}
    for path in OTHERS:
        _shutdown_kernels(lab)
        page.goto(f"{lab['url']}/lab/tree/notebooks/{path.name}?token={lab['token']}")
        t0 = time.monotonic()
        _run_all(page, f"20_run_all_{path.stem}.png")
        panel = page.locator(ACTIVE)
        errors = panel.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        ).all_inner_texts()
        tracebacks = [e for e in errors if "Error" in e or "Traceback" in e]
        assert not tracebacks, f"{path.name}: a cell failed:\n{tracebacks[0][:3000]}"
        text = panel.inner_text()
        assert "BEGIN SOLUTION" not in text and "Check: ✓ right" not in text, path.name
        assert panel.locator(".jp-OutputArea-output strong", has_text="Solution.").count() == 0
        feedback = panel.locator(".wb-feedback")
        assert panel.locator(".wb-feedback[data-ok='true']").count() == 0, path.name
        exercises = panel.locator(".jp-MarkdownCell h3", has_text="Exercise").count()
        assert feedback.count() == exercises, (path.name, feedback.count(), exercises)
        assert all("no answer yet" in t for t in feedback.all_inner_texts()), path.name
        seen[path.name] = {"exercises": exercises, "seconds": round(time.monotonic() - t0, 1)}
    (ARTIFACTS / "browser-run-all.json").write_text(json.dumps(seen, indent=1))
    assert sum(v["exercises"] for v in seen.values()) >= 16, seen

    # ------------------------------------------- 05's link to docs/bounds_findings.md opens
    efdt = next(p for p in OTHERS if p.name.startswith("05"))
    page.goto(f"{lab['url']}/lab/tree/notebooks/{efdt.name}?token={lab['token']}")
    page.wait_for_selector(f"{ACTIVE} .jp-Cell")
    _accept_kernel_dialog(page)
    link = page.locator(f"{ACTIVE} .jp-RenderedMarkdown a[href*='bounds_findings']").first
    link.scroll_into_view_if_needed()
    link.click()
    tab = page.locator(".lm-TabBar-tab", has_text="bounds_findings.md")
    tab.wait_for(timeout=30_000)
    shown = page.locator(".jp-MarkdownViewer:not(.lm-mod-hidden) .jp-RenderedMarkdown :is(h1, h2)")
    shown.first.wait_for(timeout=30_000)
    assert "bounds" in shown.first.inner_text().lower()
    page.screenshot(path=str(ARTIFACTS / "21_05_link_to_bounds_findings.png"))
    _shutdown_kernels(lab)
