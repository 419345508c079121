"""Storing the claims runs of papers 002 and 003: the per-seed results, with their provenance
(:func:`workbench.claims.save_table`) and a note of what the run cost."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from .. import claims as C


def claims_path(results: Path, quick: bool) -> Path:
    """``results/claims_quick.csv`` or ``results/claims_full.csv``."""
    return Path(results) / f"claims_{'quick' if quick else 'full'}.csv"


def run_note(table: pd.DataFrame) -> str:
    """What a claims run cost: wall and processor minutes and the machine's load at its end
    (appended to the stored command, so that a reader can tell a loaded machine's time)."""
    return (
        f"  # {table.attrs['seconds'] / 60:.1f} min wall, "
        f"{table.attrs['cpu_seconds'] / 60:.1f} min CPU in the workers, load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end"
    )


def store(table, results, *, quick_command, full_command, sources, command=None):
    """Write a claims run under ``results`` (:func:`claims_path`); the command is
    ``quick_command`` or ``full_command`` by the run's mode unless given, with :func:`run_note`
    appended."""
    quick = bool(table.attrs["quick"])
    command = command or (quick_command if quick else full_command)
    return C.save_table(
        table, claims_path(results, quick), command=command + run_note(table), sources=sources
    )


def load(spec, results, quick: bool):
    """The claims table of the stored run (decided again from its per-seed results with
    ``spec``), or None; ``attrs["note"]`` says when, from which revision and by which command
    it was made, and whether the code that makes it has changed since."""
    table = C.load_table(spec, claims_path(results, quick))
    if table is not None:
        table.attrs["quick"] = quick
    return table
