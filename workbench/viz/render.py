"""Static export of trees (SVG, PNG, PDF) with Graphviz's ``dot`` program, for papers and slides.

In JupyterLab no ``dot`` is needed: :func:`workbench.viz.show` and the stepper draw trees in the
browser with Graphviz compiled to WebAssembly.  Only files need the system program.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .dot import to_dot

FORMATS = ("svg", "png", "pdf")

INSTALL_HINT = (
    "Graphviz's `dot` program is not installed (or not on the PATH), so trees cannot be "
    "written as SVG/PNG/PDF files; they still draw in JupyterLab without it (viz.show, "
    "viz.TreeStepper). Install it with one of: `sudo apt-get install graphviz` (Debian, "
    "Ubuntu), `sudo dnf install graphviz` (Fedora), `brew install graphviz` (macOS), "
    "`conda install -c conda-forge graphviz`, `winget install graphviz` (Windows); or run "
    "`python3 dev.py lab`, which installs it when it can."
)


class GraphvizNotFoundError(RuntimeError):
    """Graphviz's ``dot`` program is needed and missing; the message says how to install it."""


def dot_executable() -> str | None:
    """Path of Graphviz's ``dot`` (``$WORKBENCH_DOT`` first, then the PATH), or None."""
    env = os.environ.get("WORKBENCH_DOT")
    if env:
        return env if os.path.isfile(env) and os.access(env, os.X_OK) else None
    return shutil.which("dot")


def has_dot() -> bool:
    """True if static export (:func:`render`) works on this machine."""
    return dot_executable() is not None


def svg_with_dot(source: str, timeout: float = 60.0) -> str | None:
    """DOT ``source`` laid out by ``dot`` as SVG text, or None without ``dot`` (or if it
    fails): the static pictures of the widgets, which fall back to the DOT source."""
    exe = dot_executable()
    if exe is None:
        return None
    proc = subprocess.run(
        [exe, "-Tsvg"], input=source.encode(), capture_output=True, timeout=timeout
    )
    return proc.stdout.decode() if proc.returncode == 0 else None


def dot_source_to_file(
    source: str, path, format: str | None = None, *, timeout: float = 120.0
) -> Path:
    """Lay out DOT ``source`` with ``dot`` and write it to ``path`` (format from the suffix)."""
    path = Path(path)
    fmt = (format or path.suffix.lstrip(".")).lower()
    if fmt not in FORMATS:
        raise ValueError(
            f"cannot write {path.name!r}: format {fmt or '(none)'!r} is not one "
            f"of {', '.join(FORMATS)} (give a file suffix or format=)"
        )
    exe = dot_executable()
    if exe is None:
        raise GraphvizNotFoundError(INSTALL_HINT)
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [exe, f"-T{fmt}", "-o", str(path)],
        input=source.encode("utf-8"),
        capture_output=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"dot failed ({proc.returncode}): {proc.stderr.decode('utf-8', 'replace').strip()}"
        )
    return path


def render(model, path, format: str | None = None, **dot_options) -> Path:
    """Write ``model``'s tree (or a DOT string) to ``path`` as SVG, PNG or PDF.

    ``dot_options`` are those of :func:`workbench.viz.to_dot` (``highlight``, ``max_nodes``,
    ``title``, ...).  Needs Graphviz's ``dot``; without it a :class:`GraphvizNotFoundError`
    says how to install it.
    """
    if isinstance(model, str):
        if dot_options:
            raise ValueError("options apply to a model, not to DOT source")
        source = model
    else:
        source = to_dot(model, **dot_options)
    return dot_source_to_file(source, path, format)
