"""What the paper-001 reproduction shares: the learners' labels and colours, the mode and its
:class:`Sizes` (quick mode from ``workbench.viz.fast_mode``)."""

from __future__ import annotations

from dataclasses import dataclass

from ...viz.fast import fast_mode
from ..paper000._common import Stopwatch

LEARNERS = ("BOCT", "BOCT-AL", "Hoeffding", "mbinomial_8", "mbinomial_64", "C4.5-like")
COLOR = {
    "BOCT": "#d62728",
    "BOCT-AL": "#9467bd",
    "Hoeffding": "#1f77b4",
    "mbinomial_8": "#2ca02c",
    "mbinomial_64": "#8c564b",
    "C4.5-like": "#7f7f7f",
}
STYLE = {"BOCT-AL": "--", "mbinomial_8": ":", "mbinomial_64": "-.", "C4.5-like": "-"}


@dataclass(frozen=True)
class Sizes:
    """How large every experiment of notebook 02 is in one mode."""

    rule_trials: int  # Monte Carlo trials of the useless-split check (Sec. 2)
    toy_runs: int  # Figure 5
    toy_labels: int
    toy_grid: int  # delta values of the grid search
    toy_tune_runs: int
    pool_runs: int  # Figure 6
    pool_grid: int
    pool_tune_runs: int
    c45_runs: int
    c45_every: int
    datasets: tuple  # Figure 6 data sets (pima only if cached)
    refine: int  # refinement rounds of the grid searches (workbench.claims.tune)


FAST = Sizes(
    rule_trials=4000,
    toy_runs=100,
    toy_labels=1000,
    toy_grid=3,
    toy_tune_runs=5,
    pool_runs=30,
    pool_grid=3,
    pool_tune_runs=5,
    c45_runs=10,
    c45_every=25,
    datasets=("breast_cancer",),
    refine=1,
)
FULL = Sizes(
    rule_trials=100_000,
    toy_runs=100,
    toy_labels=1000,
    toy_grid=10,
    toy_tune_runs=50,
    pool_runs=1000,
    pool_grid=6,
    pool_tune_runs=50,
    c45_runs=200,
    c45_every=5,
    datasets=("pima", "breast_cancer", "adult", "electricity"),
    refine=2,
)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: as set up, ``workbench.viz.fast_mode``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    s = sizes(fast)
    mode = "QUICK" if s is FAST else "FULL"
    return (
        f"Mode: {mode}. Split rule: {s.rule_trials:,} Monte Carlo trials per point. Figure 5: "
        f"{s.toy_runs} runs x {s.toy_labels:,} labels per learner, delta tuned on a grid of "
        f"{s.toy_grid} values ({s.toy_tune_runs} runs each). Figure 6: {s.pool_runs:,} runs "
        f"per learner and data set ({', '.join(s.datasets)}), delta tuned on {s.pool_grid} "
        f"values ({s.pool_tune_runs} runs each); the C4.5-like tree {s.c45_runs} runs, "
        f"refitted every {s.c45_every} labels. Grids extended at their edges, then refined "
        f"{s.refine} time{'s' * (s.refine > 1)} around the best value."
    )


__all__ = [
    "FAST",
    "FULL",
    "Sizes",
    "sizes",
    "describe_mode",
    "Stopwatch",
    "COLOR",
    "STYLE",
    "store",
    "stored",
    "stored_note",
]


class RunCache:
    """The runs of one protocol at one seed and size, each (learner, setting) run once and
    kept: tuning for several criteria and evaluating the chosen settings share them.
    Subclasses say how to run (:meth:`_run`).  ``progress``: a label for a tqdm bar that
    counts the settings actually run (a tuning does not know in advance how far its grids
    will be extended, so the bar has no total)."""

    def __init__(self, progress: str | None = None):
        self._out = {}
        self._bar = None
        if progress:
            from tqdm.auto import tqdm

            self._bar = tqdm(desc=progress, unit=" settings")

    def runs(self, learner, **setting):
        key = (learner, tuple(sorted(setting.items())))
        if key not in self._out:
            self._out[key] = self._run(learner, setting)
            if self._bar is not None:
                self._bar.update()
        return self._out[key]

    def close(self):
        """Close the progress bar (if any); the runs stay."""
        if self._bar is not None:
            self._bar.close()

    def risk(self, learner, **setting):
        """``[n_runs, n_labels + 1]`` risks of ``learner`` with ``setting``."""
        return self.runs(learner, **setting)[0]

    def _run(self, learner, setting):
        raise NotImplementedError


RESULTS = __import__("pathlib").Path(__file__).parent / "results"
NOTEBOOK = "notebooks/02_bayesian_credible_trees.ipynb"
#: what makes the stored full-mode figures again (:func:`store_figures`, with the full claims)
REFRESH_FULL = "python3 dev.py claims --refresh --full paper001"


def _sources():
    from .._claims_store import sources

    return sources("paper001")


def store(frame, name: str, command: str | None = None):
    """Write a full-mode result table to ``results/<name>.csv`` with its provenance (revision,
    date, command: :mod:`workbench.provenance`) and the fingerprint of its sources
    (:func:`workbench.claims.save_frame`); quick mode writes nothing.  Returns it."""
    from ... import claims

    if sizes() is FULL:
        claims.save_frame(
            frame, RESULTS / f"{name}.csv", command=command or REFRESH_FULL, sources=_sources()
        )
    return frame


def stored(name: str):
    """The table of the last full run (``results/<name>.csv``, its provenance in
    ``attrs["provenance"]``), or None."""
    from ... import provenance

    path = RESULTS / f"{name}.csv"
    return provenance.load(path) if path.exists() else None


def stored_note(name: str) -> str:
    """One sentence saying when ``results/<name>.csv`` was made, how to make it again, and
    whether the code that makes it has changed since (:func:`workbench.claims.stored_note`)."""
    from ... import claims

    return claims.stored_note(RESULTS / f"{name}.csv")
