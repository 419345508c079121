"""Storing the papers' claims runs: the per-seed results with their provenance and the
fingerprint of the code that makes them (:func:`workbench.claims.save_table`), the command
that makes them again, and what the run cost.

Every paper stores a quick run (``results/claims_quick.csv``: the suite re-runs it and compares
exactly) and a full run (``results/claims_full.csv``: the notebook shows it), both made by
``python3 dev.py claims --refresh [--quick | --full] paperNNN`` (:mod:`.refresh`).  Their
sources are the paper's own package and the code of the engine under it, so that a change of
a learner makes the stored run stale (``tests/test_stored_results.py`` then fails until the
command is run again)."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from .. import claims as C

#: the code under every paper's experiments whose change can move a result
ENGINE = (
    "workbench/core",
    "workbench/learners",
    "workbench/active",
    "workbench/drift",
    "workbench/bounds",
    "workbench/evaluate",
    "workbench/streams",
    "workbench/montecarlo",
    "workbench/_rng.py",
    "workbench/_numbers.py",
    "workbench/_functions.py",
)


def sources(paper: str) -> tuple:
    """The sources of ``paper``'s stored runs: its package, this module and :data:`ENGINE`."""
    return (f"workbench/experiments/{paper}", "workbench/experiments/_claims_store.py", *ENGINE)


def refresh_command(paper: str, quick: bool) -> str:
    """The one command that makes a paper's stored run again."""
    return f"python3 dev.py claims --refresh {'--quick' if quick else '--full'} {paper}"


def claims_path(results: Path, quick: bool) -> Path:
    """``results/claims_quick.csv`` or ``results/claims_full.csv``."""
    return Path(results) / f"claims_{'quick' if quick else 'full'}.csv"


def run_note(table: pd.DataFrame) -> str:
    """What a claims run cost: wall and processor minutes and the machine's load at its end
    (appended to the stored command, so that a reader can tell a loaded machine's time)."""
    return (
        f"  # {table.attrs['seconds'] / 60:.1f} min wall, "
        f"{table.attrs.get('cpu_seconds', float('nan')) / 60:.1f} min CPU in the workers, load "
        f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end"
    )


def store(table, results, *, paper: str, command: str | None = None):
    """Write a claims run of ``paper`` under ``results`` (:func:`claims_path`) with its
    sources' fingerprint; the command is :func:`refresh_command` unless given, with
    :func:`run_note` appended."""
    quick = bool(table.attrs["quick"])
    command = command or refresh_command(paper, quick)
    return C.save_table(
        table,
        claims_path(results, quick),
        command=command + run_note(table),
        sources=sources(paper),
    )


def load(spec, results, quick: bool):
    """The claims table of the stored run (decided again from its per-seed results with
    ``spec``), or None; ``attrs["note"]`` says in one sentence when it was made and whether
    the code that makes it has changed since."""
    table = C.load_table(spec, claims_path(results, quick))
    if table is not None:
        table.attrs["quick"] = quick
    return table
