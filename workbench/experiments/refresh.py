"""The papers' stored claims runs: which of them the current code made, and making them again.

Every paper stores a quick claims run (``results/claims_quick.csv``; the suite re-runs it at its
seeds and compares exactly) and a full one (``results/claims_full.csv``; the notebooks show it),
each with the fingerprint of the code that made it (:func:`workbench.claims.source_digest`).
Paper 001 also stores its notebook's full-mode figures.  ``python3 dev.py claims`` runs this
module::

    python3 dev.py claims                          which stored runs the current code made
    python3 dev.py claims --refresh --quick        make every paper's quick run again
    python3 dev.py claims --refresh --full         make every paper's full run again (and 001's
                                                   figures); about an hour on two cores
    python3 dev.py claims --refresh paper002       one paper, both modes
    python3 dev.py claims --refresh --stale        only the runs whose code changed since

A run is made in a fresh process tree: quick mode with ``WORKBENCH_FAST=1``, full mode without,
and never from the suite's claims cache.  A change of a learner (``workbench/core``,
``learners``, ...) makes the runs that depend on it stale; ``tests/test_stored_results.py`` then
fails until they are made again with this command.
"""

from __future__ import annotations

import os
import sys
import time

PAPERS = ("paper000", "paper001", "paper002", "paper003", "paper004")
MODES = {"quick": True, "full": False}


def _paper(name: str):
    import importlib

    if name not in PAPERS:
        raise ValueError(f"unknown paper {name!r}; the papers are {', '.join(PAPERS)}")
    return importlib.import_module(f"workbench.experiments.{name}")


def stored_files(name: str) -> list:
    """The stored results of paper ``name`` (every CSV under its ``results/``)."""
    from pathlib import Path

    return sorted((Path(_paper(name).__file__).parent / "results").glob("*.csv"))


def status(papers=PAPERS):
    """One row per stored result: the paper, the file, the date it was made, whether the
    current code made it (``current``) and, if not, the sources that changed since."""
    import pandas as pd

    from .. import claims, provenance

    rows = []
    for name in papers:
        for path in stored_files(name):
            changed = claims.changed_sources(path)
            rows.append(
                {
                    "paper": name,
                    "file": path.name,
                    "made": provenance.header(path).get("date", "")[:10],
                    "current": not changed,
                    "changed since": ", ".join(changed),
                }
            )
    return pd.DataFrame(rows)


def _stale(name: str, quick: bool) -> bool:
    from .. import claims

    files = [
        p for p in stored_files(name) if p.stem.startswith(f"claims_{'quick' if quick else 'full'}")
    ]
    if not quick and name == "paper001":
        files += [p for p in stored_files(name) if not p.stem.startswith("claims_")]
    return not files or any(claims.changed_sources(p) for p in files)


def _cpu_seconds() -> float:
    """Processor seconds of this process and of its finished children (the sweep's workers)."""
    import resource

    return sum(
        r.ru_utime + r.ru_stime
        for r in (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
    )


def refresh(name: str, quick: bool, progress: bool = True) -> tuple[float, float]:
    """Make paper ``name``'s stored run of one mode again with the current code (paper 001's
    full mode also stores its notebook's figures); returns the wall and processor seconds it
    took (processor: this process and its workers)."""
    os.environ["WORKBENCH_FAST"] = "1" if quick else "0"
    os.environ.pop("WORKBENCH_CLAIMS_CACHE", None)
    P = _paper(name)
    start, cpu = time.perf_counter(), _cpu_seconds()
    table = P.claims(quick=quick, progress=progress)
    P.store_claims(table)
    if name == "paper001" and not quick:
        P.store_figures(progress=progress)
    return time.perf_counter() - start, _cpu_seconds() - cpu


def main(argv=None) -> int:
    """The command line (see the module's docstring)."""
    import argparse

    ap = argparse.ArgumentParser(
        prog="python3 dev.py claims",
        description="Which stored claims runs the current code made; --refresh makes them again.",
    )
    ap.add_argument("papers", nargs="*", help=f"papers to act on (default: all of {PAPERS})")
    ap.add_argument("--refresh", action="store_true", help="run the claims again and store them")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="only the quick runs")
    mode.add_argument("--full", action="store_true", help="only the full runs")
    ap.add_argument("--stale", action="store_true", help="only runs whose code changed since")
    args = ap.parse_args(argv)
    papers = tuple(args.papers) or PAPERS
    for name in papers:
        _paper(name)  # an unknown name fails before anything runs
    if not args.refresh:
        import pandas as pd

        with pd.option_context("display.width", 200, "display.max_colwidth", 80):
            table = status(papers)
            print(table.to_string(index=False))
        stale = int((~table.current).sum())
        print(
            f"{stale} of {len(table)} stored results are not made by the current code"
            + ("; `python3 dev.py claims --refresh --stale` makes them again" if stale else "")
        )
        return 0
    modes = ["quick"] if args.quick else ["full"] if args.full else ["quick", "full"]
    for m in modes:
        for name in papers:
            if args.stale and not _stale(name, MODES[m]):
                print(f"[claims] {name} {m}: made by the current code, kept", flush=True)
                continue
            print(
                f"[claims] {name} {m}: running (load average {os.getloadavg()[0]:.1f})", flush=True
            )
            secs, cpu = refresh(name, MODES[m], progress=sys.stderr.isatty())
            print(
                f"[claims] {name} {m}: stored in {secs / 60:.1f} min ({cpu / 60:.1f} min of "
                f"processor time; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
