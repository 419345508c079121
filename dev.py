#!/usr/bin/env python3
"""One entry point for setting up and using the workbench.

    python3 dev.py lab     set everything up, then open JupyterLab on notebooks/
                           (``--quick``: every notebook runs in quick mode, minutes not hours;
                           ``--teacher``: on the teacher's notebooks, written first)
    python3 dev.py test    set everything up (with River, CapyMOA and Java when it can: the
                           tests against them are skipped, with the reason, where they are
                           missing), then lint (ruff) and run the whole test suite
    python3 dev.py teacher write the teacher's version of every notebook to teacher/: each
                           exercise with its solution (nbgrader's conventions); the students'
                           version is the notebook in notebooks/, which holds none
    python3 dev.py book    set everything up, execute every notebook (full mode; ``--quick``:
                           quick mode) and build the static HTML book in _build/book/html
                           (``--solutions``: the teacher's book, from the teacher's notebooks,
                           in _build/book/html-solutions)
    python3 dev.py bench   set everything up (with River and CapyMOA), then run the benchmarks
    python3 dev.py claims  set everything up, then say which of the papers' stored claims runs
                           the current code made (``--refresh [--quick | --full] [--stale]
                           [paperNNN ...]``: make them again; see workbench/experiments/refresh.py)
    python3 dev.py clean   delete numba's on-disk cache of the workbench's compiled kernels, to
                           free the space or start afresh (never needed after an edit: the
                           package recompiles a kernel whose sources changed by itself)

Only a Python 3.11+ interpreter is needed to start: the script makes a virtual environment
in ``.venv`` next to itself, installs the package with its extras into it, and installs the
system tools the workbench uses (Graphviz's ``dot``; Chromium for the browser test; Java for
CapyMOA's tests and the MOA benchmarks) with the system's package manager when it can.  It re-installs only when
``pyproject.toml`` has changed since the last set-up, and then compiles the numba kernels
into numba's cache (``python -m workbench.precompile``: about 3 minutes the first time, seconds
afterwards) so that no notebook cell waits for the compiler.  ``test`` runs ``ruff check .``
(configured in ``pyproject.toml``) before pytest and stops on lint errors.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")

# `dev.py test` also runs `ruff format --check .` (the code base was formatted once with
# `ruff format`, in one mechanical commit, and stays so)
FORMAT_CHECK = True


def say(msg: str) -> None:
    print(f"[dev] {msg}", flush=True)


def run(cmd, **kw) -> None:
    say(" ".join(str(c) for c in cmd))
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def apt_install(packages: list[str]) -> bool:
    """Install Debian/Ubuntu packages when we are allowed to; return True on success."""
    if not shutil.which("apt-get"):
        return False
    prefix = [] if _is_root() else (["sudo", "-n"] if shutil.which("sudo") else None)
    if prefix is None:
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:
        subprocess.run(
            prefix + ["apt-get", "update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL
        )
        subprocess.run(
            prefix + ["apt-get", "install", "-y", "-qq", *packages],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
        )
        return True
    except (subprocess.CalledProcessError, OSError):
        return False


def provide(find, packages: list[str], what: str):
    """What ``find()`` finds; if nothing, install ``packages`` with apt-get and look again."""
    found = find()
    if not found and apt_install(packages):
        found = find()
        if found:
            say(f"installed {what} with apt-get")
    return found or None


def ensure_graphviz() -> None:
    """`dot` is only needed for static image export (viz.render); try to install it."""
    if provide(lambda: shutil.which("dot"), ["graphviz"], "Graphviz (dot)"):
        return
    if shutil.which("brew"):
        try:
            subprocess.run(["brew", "install", "graphviz"], check=True)
            return
        except (subprocess.CalledProcessError, OSError):
            pass
    say(
        "Graphviz 'dot' not found: trees still draw in JupyterLab; for SVG/PNG/PDF export "
        "install it (apt-get install graphviz, brew install graphviz or conda install graphviz)."
    )


CHROMIUM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")


def find_chromium() -> str | None:
    """Path of a Chromium binary (the end-to-end browser test drives it with Playwright)."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return next((p for p in CHROMIUM_PATHS if os.path.exists(p)), None)


def ensure_chromium() -> str | None:
    """Install Debian's Chromium for the browser test when it is missing and we may (root or
    passwordless sudo); Playwright drives this binary, it never downloads a browser."""
    path = provide(find_chromium, ["chromium"], "Chromium (for the browser test)")
    if path:
        return path
    say(
        "Chromium not found and not installable here: the browser test will be skipped "
        "(install it with apt-get install chromium)."
    )
    return None


def ensure_java() -> None:
    """CapyMOA runs MOA in a JVM: its tests and the benchmarks need Java 17 or newer on the
    PATH."""
    if provide(
        lambda: shutil.which("java"),
        ["openjdk-17-jre-headless"],
        "Java 17 (CapyMOA runs MOA in it)",
    ):
        return
    say(
        "Java not found and not installable here: the CapyMOA tests will be skipped and the MOA "
        "columns of the benchmarks left out; they need Java 17 or newer on the PATH (apt-get "
        "install openjdk-17-jre-headless, or any JDK 17+)."
    )


def ensure_venv(extras: str, optional: str = "") -> None:
    """The virtual environment with the package (editable) and ``extras``; ``optional`` extras
    too where pip can install them (River and CapyMOA for the tests: without them those tests
    are skipped, with the reason in pytest's summary).  Installs again only when pyproject.toml
    (or the extras asked for) changed."""
    if sys.version_info < (3, 11):
        sys.exit("the workbench needs Python 3.11 or newer; run this script with python3.11")
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = ",".join(e for e in (extras, optional) if e)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + wanted.encode()).hexdigest()
    stamp = VENV / ".setup-stamp"
    if stamp.exists() and stamp.read_text() == digest:
        return
    run([PY, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    try:
        run([PY, "-m", "pip", "install", "-q", "-e", f"{ROOT}[{wanted}]"])
    except subprocess.CalledProcessError:
        if not optional:
            raise
        say(
            f"could not install the optional extras [{optional}] (River, CapyMOA): their tests "
            f"will be skipped; installing [{extras}] only (delete {stamp} to try again)"
        )
        run([PY, "-m", "pip", "install", "-q", "-e", f"{ROOT}[{extras}]"])
    stamp.write_text(digest)


#: JupyterLab settings the set-up ships (``overrides.json`` in the environment's settings
#: directory, read by every JupyterLab started from it): no "Would you like to get notified
#: about official Jupyter news?" pop-up over the bottom right of every notebook, no update check;
#: and widget messages handled by the kernel's main thread.  JupyterLab 4.6 sends them to a
#: kernel subshell by default (commsOverSubshells), and ipykernel 7 runs a subshell in a thread of
#: its own, at the same time as the cell the main thread runs: a slider moved while Run All was
#: still drawing later cells made two threads draw with matplotlib at once, which it does not
#: support (its one mathtext parser: "ValueError ... ParseException" instead of the figure).
LAB_OVERRIDES = {
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/apputils-extension:kernels-settings": {
        "commsOverSubshells": "disabled",
    },
    # a link from a notebook to a Markdown page (docs/bounds_findings.md) opens it rendered,
    # not as source in the text editor
    "@jupyterlab/docmanager-extension:plugin": {
        "defaultViewers": {"markdown": "Markdown Preview"},
    },
}


def write_lab_settings(prefix: Path = VENV) -> Path:
    """Write (merge) :data:`LAB_OVERRIDES` into ``prefix/share/jupyter/lab/settings/
    overrides.json``; settings a user put there for other plugins are kept."""
    path = Path(prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        current = json.loads(path.read_text()) if path.exists() else {}
    except ValueError:
        current = {}
    for plugin, values in LAB_OVERRIDES.items():
        current[plugin] = {**current.get(plugin, {}), **values}
    path.write_text(json.dumps(current, indent=2) + "\n")
    return path


def precompile() -> None:
    """numba compiles each kernel on first use; do it now, not in the first notebook cell.
    (A kernel cached from other sources is recompiled: the package checks that itself, see
    ``workbench/_kernel_cache.py``.)"""
    run([PY, "-m", "workbench.precompile"])


def lab_command(folder: str = "notebooks") -> list[str]:
    """JupyterLab's arguments: the server's root is the repository, so that a notebook's link
    to ``../docs/...`` opens, and the file browser starts in ``folder``."""
    return [
        f"--ServerApp.root_dir={ROOT}",
        f"--LabApp.default_url=/lab/tree/{folder}",
    ]


def write_teacher() -> None:
    """The teacher's notebooks in teacher/ (``python -m workbench.exercises.versions``)."""
    run([PY, "-m", "workbench.exercises.versions"])


def cmd_teacher(args: list[str]) -> int:
    ensure_venv("dev")
    os.chdir(ROOT)
    return subprocess.call([str(PY), "-m", "workbench.exercises.versions", *args])


def cmd_lab(args: list[str]) -> int:
    ensure_venv("dev")
    ensure_graphviz()
    write_lab_settings()
    precompile()
    os.chdir(ROOT)
    env = dict(os.environ)
    if "--quick" in args:
        # the notebooks' QUICK = None follows this (workbench.viz.set_quick)
        args = [a for a in args if a != "--quick"]
        env["WORKBENCH_FAST"] = "1"
        say("quick mode: notebooks shrink their experiments (WORKBENCH_FAST=1)")
    folder = "notebooks"
    if "--teacher" in args:
        args = [a for a in args if a != "--teacher"]
        write_teacher()
        folder = "teacher"
        say("the teacher's notebooks (teacher/): every exercise's solution under it")
    extra = []
    if _is_root() and "--allow-root" not in args:
        # JupyterLab refuses to start as root without it (containers, CI boxes, cloud VMs)
        say("running as root: starting JupyterLab with --allow-root")
        extra.append("--allow-root")
    return subprocess.call(
        [str(BIN / "jupyter"), "lab", *lab_command(folder), *extra, *args], env=env
    )


def lint() -> int:
    """``ruff check .`` (and ``ruff format --check .`` if FORMAT_CHECK); 0 when clean."""
    ruff = BIN / ("ruff.exe" if os.name == "nt" else "ruff")
    checks = [[ruff, "check", "."]] + ([[ruff, "format", "--check", "."]] if FORMAT_CHECK else [])
    for cmd in checks:
        say(" ".join(str(c) for c in cmd))
        rc = subprocess.call([str(c) for c in cmd], cwd=ROOT)
        if rc:
            say(
                f"lint failed: `{' '.join(str(c) for c in cmd[1:])}` reported the problems above "
                f"(`{ruff} check --fix .` fixes some of them); the tests were not run."
            )
            return rc
    return 0


#: the package's own module for numba's cache (``clean`` uses it to find the files)
KERNEL_CACHE_PY = ROOT / "workbench" / "_kernel_cache.py"


def kernel_cache_module():
    """``workbench/_kernel_cache.py``, loaded by path: it needs only the standard library, so
    ``clean`` works before (or without) the environment."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_workbench_kernel_cache", KERNEL_CACHE_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clean_numba_cache(root: Path = ROOT, cache_dir: str | None = None) -> int:
    """Delete numba's cache files (``*.nbi``, ``*.nbc``) of the kernels under ``root/workbench``,
    wherever numba keeps them: ``__pycache__`` beside the sources, their places under
    ``cache_dir`` (NUMBA_CACHE_DIR) and under numba's user-wide cache folder; return how many
    files were removed."""
    return kernel_cache_module().clean(Path(root) / "workbench", cache_dir)


def cmd_clean(args: list[str]) -> int:
    cache_dir = os.environ.get("NUMBA_CACHE_DIR")
    n = clean_numba_cache(ROOT, cache_dir)
    where = "workbench/" + (f" and NUMBA_CACHE_DIR={cache_dir}" if cache_dir else "")
    say(
        f"removed {n} numba cache file{'s' if n != 1 else ''} of the kernels under {where} "
        "(and numba's user-wide cache folder); kernels recompile on next use (or run "
        "`python3 dev.py test` / `lab` to precompile)"
    )
    return 0


def cmd_test(args: list[str]) -> int:
    # River and CapyMOA (and Java, in which CapyMOA runs MOA) for tests/test_interop.py and
    # the benchmarks' tests: installed when they can be, skipped with the reason otherwise
    ensure_venv("dev", optional="bench")
    ensure_graphviz()
    ensure_chromium()
    ensure_java()
    rc = lint()
    if rc:
        return rc
    precompile()
    os.chdir(ROOT)
    env = dict(os.environ, WORKBENCH_FAST="1")
    return subprocess.call([str(PY), "-m", "pytest", *args], env=env)


def cmd_book(args: list[str]) -> int:
    """Execute every notebook and build the book with Jupyter Book 1 (offline): the notebooks
    with their figures and tree drawings, the findings in docs/, an API reference."""
    ensure_venv("dev")
    ensure_graphviz()  # the book's tree drawings are laid out by `dot`
    precompile()
    os.chdir(ROOT)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return subprocess.call([str(PY), "-m", "workbench.book", *args], env=env)


def cmd_bench(args: list[str]) -> int:
    ensure_venv("dev,bench")
    ensure_java()
    os.chdir(ROOT)
    # bench_hoeffding last: its list of targets reads the start-up and memory results just written
    scripts = args or sorted(
        (str(p) for p in (ROOT / "benchmarks").glob("bench_*.py")),
        key=lambda p: (p.endswith("bench_hoeffding.py"), p),
    )
    rc = 0
    for script in scripts:
        rc |= subprocess.call([str(PY), script])
    return rc


def cmd_claims(args: list[str]) -> int:
    """The papers' stored claims runs (``workbench.experiments.refresh``): their status, or
    with ``--refresh`` made again by the current code, in the mode each run is for (the
    environment's quick mode and claims cache are not passed on)."""
    ensure_venv("dev")
    precompile()
    os.chdir(ROOT)
    env = {
        k: v for k, v in os.environ.items() if k not in ("WORKBENCH_FAST", "WORKBENCH_CLAIMS_CACHE")
    }
    return subprocess.call([str(PY), "-m", "workbench.experiments.refresh", *args], env=env)


COMMANDS = {
    "lab": cmd_lab,
    "test": cmd_test,
    "teacher": cmd_teacher,
    "book": cmd_book,
    "bench": cmd_bench,
    "clean": cmd_clean,
    "claims": cmd_claims,
}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
