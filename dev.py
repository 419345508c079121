#!/usr/bin/env python3
"""One entry point for setting up and using the workbench.

    python3 dev.py lab     set everything up, then open JupyterLab on notebooks/
    python3 dev.py test    set everything up, then run the whole test suite
    python3 dev.py bench   set everything up (with River and CapyMOA), then run the benchmarks

Only a Python 3.11+ interpreter is needed to start: the script makes a virtual environment
in ``.venv`` next to itself, installs the package with its extras into it, and installs the
system tools the workbench uses (Graphviz's ``dot``; Chromium for the browser test; Java for
the MOA benchmarks) with the system's package manager when it can.  It re-installs only when
``pyproject.toml`` has changed since the last set-up, and then compiles the numba kernels
into numba's cache (``python -m workbench.precompile``: about 40 s the first time, seconds
afterwards) so that no notebook cell waits for the compiler.
"""
from __future__ import annotations

import hashlib
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
        subprocess.run(prefix + ["apt-get", "update", "-qq"], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        subprocess.run(prefix + ["apt-get", "install", "-y", "-qq", *packages], check=True,
                       env=env, stdout=subprocess.DEVNULL)
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
    say("Graphviz 'dot' not found: trees still draw in JupyterLab; for SVG/PNG/PDF export "
        "install it (apt-get install graphviz, brew install graphviz or conda install graphviz).")


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
    say("Chromium not found and not installable here: the browser test will be skipped "
        "(install it with apt-get install chromium).")
    return None


def ensure_java() -> None:
    """CapyMOA runs MOA in a JVM: the benchmarks need Java 17 or newer on the PATH."""
    if provide(lambda: shutil.which("java"), ["openjdk-17-jre-headless"],
               "Java 17 (CapyMOA runs MOA in it)"):
        return
    say("Java not found and not installable here: the MOA columns of the benchmarks need Java 17 "
        "or newer on the PATH (apt-get install openjdk-17-jre-headless, or any JDK 17+).")


def ensure_venv(extras: str) -> None:
    if sys.version_info < (3, 11):
        sys.exit("the workbench needs Python 3.11 or newer; run this script with python3.11")
    if not PY.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / ".setup-stamp"
    if stamp.exists() and stamp.read_text() == digest:
        return
    run([PY, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    run([PY, "-m", "pip", "install", "-q", "-e", f"{ROOT}[{extras}]"])
    stamp.write_text(digest)


def precompile() -> None:
    """numba compiles each kernel on first use; do it now, not in the first notebook cell."""
    run([PY, "-m", "workbench.precompile"])


def cmd_lab(args: list[str]) -> int:
    ensure_venv("dev")
    ensure_graphviz()
    precompile()
    os.chdir(ROOT)
    extra = []
    if _is_root() and "--allow-root" not in args:
        # JupyterLab refuses to start as root without it (containers, CI boxes, cloud VMs)
        say("running as root: starting JupyterLab with --allow-root")
        extra.append("--allow-root")
    return subprocess.call([str(BIN / "jupyter"), "lab", str(ROOT / "notebooks"), *extra, *args])


def cmd_test(args: list[str]) -> int:
    ensure_venv("dev")
    ensure_graphviz()
    ensure_chromium()
    precompile()
    os.chdir(ROOT)
    env = dict(os.environ, WORKBENCH_FAST="1")
    return subprocess.call([str(PY), "-m", "pytest", *args], env=env)


def cmd_bench(args: list[str]) -> int:
    ensure_venv("dev,bench")
    ensure_java()
    os.chdir(ROOT)
    # bench_hoeffding last: its list of targets reads the start-up and memory results just written
    scripts = args or sorted((str(p) for p in (ROOT / "benchmarks").glob("bench_*.py")),
                             key=lambda p: (p.endswith("bench_hoeffding.py"), p))
    rc = 0
    for script in scripts:
        rc |= subprocess.call([str(PY), script])
    return rc


COMMANDS = {"lab": cmd_lab, "test": cmd_test, "bench": cmd_bench}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(__doc__)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
