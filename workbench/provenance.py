"""Stored results that say where they come from: the git revision, date and command that made
them, and whether the code that makes them has changed since.

A stored table is a CSV file whose first lines are comments::

    # revision: 3f2a9c1d... (clean)
    # date: 2026-11-24T20:15:03Z
    # command: paper001.claims(quick=False) in notebooks/02 (full mode)
    # sources: workbench/evaluate/pool.py workbench/experiments/paper001
    learner,n_labels,risk,...

:func:`save` writes it (the revision is the checkout's ``HEAD``; if the listed sources have
uncommitted changes the header says so, and such a file should not be committed);
:func:`load` reads it back with the header in ``frame.attrs["provenance"]``; :func:`staleness`
asks git whether a commit after the stored revision (or an uncommitted edit) touched the
sources, and :func:`describe` turns all that into the sentence a notebook prints above stored
results.

>>> import tempfile, os, pandas as pd
>>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
>>> _ = save(pd.DataFrame({"x": [0.1, 1 / 3]}), path, command="an example",
...          sources=["workbench/provenance.py"])
>>> back = load(path)
>>> back.x.tolist() == [0.1, 1 / 3], back.attrs["provenance"]["command"]
(True, 'an example')
"""

from __future__ import annotations

import datetime as _dt
import os
import subprocess

import pandas as pd

FIELDS = ("revision", "date", "command", "sources")
#: stored results are data, not code: a change to a ``results/`` folder never makes results stale
NOT_CODE = ":(exclude,glob)**/results/**"


def repo_root() -> str | None:
    """The git checkout this package lives in, or None (an installed copy)."""
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = _git(here, "rev-parse", "--show-toplevel")
    return out.strip() if out else None


def _git(cwd, *args) -> str | None:
    try:
        res = subprocess.run(
            ["git", "-C", cwd, *args], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout if res.returncode == 0 else None


def revision(sources=(), root=None) -> str:
    """``<HEAD sha> (clean)``, or ``<sha> (uncommitted changes in: ...)`` when the sources (or,
    without sources, the package) differ from ``HEAD``; ``unknown`` outside a checkout.
    ``root``: the repository (default: the one this package lives in)."""
    root = root or repo_root()
    if root is None:
        return "unknown (not a git checkout)"
    head = (_git(root, "rev-parse", "HEAD") or "").strip() or "unknown"
    paths = list(sources) or ["workbench"]
    dirty = (_git(root, "status", "--porcelain", "--", *paths, NOT_CODE) or "").split("\n")
    dirty = sorted({line[3:] for line in dirty if line.strip()})
    if dirty:
        return f"{head} (uncommitted changes in: {' '.join(dirty)})"
    return f"{head} (clean)"


def save(frame: pd.DataFrame, path, *, command: str, sources=(), root=None) -> pd.DataFrame:
    """Write ``frame`` to the CSV ``path`` under a header with the revision, the date (UTC),
    ``command`` (how to make it again) and ``sources`` (the files and folders, relative to the
    repository, whose changes make it stale; ``results/`` folders in them are data and do
    not count); returns ``frame``."""
    if not command or "\n" in command:
        raise ValueError("command must be one non-empty line saying how the results were made")
    sources = [str(s) for s in sources]
    head = {
        "revision": revision(sources, root),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command,
        "sources": " ".join(sources),
    }
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", newline="") as fh:
        for k in FIELDS:
            fh.write(f"# {k}: {head[k]}\n")
        frame.to_csv(fh, index=False)
    return frame


def header(path) -> dict:
    """The provenance lines of a stored CSV (an empty dict for a file without them)."""
    head = {}
    with open(path) as fh:
        for line in fh:
            if not line.startswith("# "):
                break
            key, _, value = line[2:].rstrip("\n").partition(": ")
            head[key] = value
    return head


def load(path) -> pd.DataFrame:
    """A stored CSV with its header in ``attrs["provenance"]`` (floats read back exactly)."""
    head = header(path)
    frame = pd.read_csv(path, skiprows=len(head), float_precision="round_trip")
    frame.attrs["provenance"] = head
    return frame


def staleness(path, root=None) -> str:
    """Why the results in ``path`` are older than the code that makes them ("" if they are
    not): commits after the stored revision, or uncommitted edits, that touch its sources."""
    head = header(path)
    rev = head.get("revision", "").split(" ")[0]
    if not rev or rev == "unknown":
        return "the file does not record the revision that made it"
    root = root or repo_root()
    if root is None:
        return ""  # an installed copy: no history to compare with
    sources = head.get("sources", "").split() or ["workbench"]
    if _git(root, "cat-file", "-e", f"{rev}^{{commit}}") is None:
        return f"its revision {rev[:10]} is not in this checkout's history"
    log = (
        _git(root, "log", "--format=%h %s", f"{rev}..HEAD", "--", *sources, NOT_CODE) or ""
    ).strip()
    reasons = []
    if log:
        lines = log.split("\n")
        reasons.append(
            f"{len(lines)} commit{'s' if len(lines) > 1 else ''} since changed its code "
            f"(latest: {lines[0][:90]})"
        )
    if "uncommitted" in head.get("revision", ""):
        reasons.append("it was made from uncommitted code")
    dirty = (_git(root, "status", "--porcelain", "--", *sources, NOT_CODE) or "").strip()
    if dirty:
        reasons.append("its code has uncommitted changes here")
    return "; ".join(reasons)


def describe(path, root=None) -> str:
    """The sentence a notebook prints above stored results: when, from which revision and by
    which command they were made, and whether the code has changed since."""
    if not os.path.exists(path):
        return f"No stored results at {os.path.basename(path)}."
    head = header(path)
    if not head:
        return (
            f"{os.path.basename(path)} does not record the revision, date or command that "
            "made it: treat it as of unknown age."
        )
    rev = head.get("revision", "unknown")
    text = (
        f"Stored results {os.path.basename(path)}: made {head.get('date', '?')} at revision "
        f"{rev.split(' ')[0][:10]} by `{head.get('command', '?')}`."
    )
    why = staleness(path, root)
    if why:
        text += f" **Older than the code that makes them:** {why}."
    else:
        text += " The code that makes them has not changed since."
    return text


__all__ = ["save", "load", "header", "staleness", "describe", "revision", "repo_root"]
