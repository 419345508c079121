"""What every part of the paper-000 reproduction shares: the names of the theorems, learners
and strategies with their labels, colours and markers, the mode and its :class:`Sizes`
(``WORKBENCH_FAST``), seed derivation, the sweep helpers of Figures 3 and 4 and the
notebook's :class:`Stopwatch`."""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

import numpy as np

from ...viz.fast import fast_mode

#: the three criteria of Theorems 1-3 (names of ``workbench.montecarlo`` estimators)
THEOREMS = ("entropy", "gini", "kearns_mansour")
THEOREM_OF = {
    "entropy": "Theorem 1, eq. (4)",
    "gini": "Theorem 2, eq. (5)",
    "kearns_mansour": "Theorem 3, eq. (6)",
    "info_gain": "eq. (2), McDiarmid (Rutkowski et al.)",
}
LEARNERS = ("CTree", "HoeffdingTree", "CorrHTree")
LABEL = {"CTree": "C-Tree", "HoeffdingTree": "H-Tree", "CorrHTree": "CorrH-Tree"}
COLOR = {"CTree": "#d62728", "HoeffdingTree": "#1f77b4", "CorrHTree": "#2ca02c"}
MARKER = {"CTree": "x", "HoeffdingTree": "o", "CorrHTree": "*"}
#: the parameter each learner's grid runs over (the paper's Figure 3 / 4 grids)
PARAM = {"CTree": "c", "HoeffdingTree": "delta", "CorrHTree": "delta"}
STRATEGY_ORDER = (
    "Random",
    "VarUncertainty",
    "RndVarUncertainty",
    "SelectiveSampling",
    "Split",
    "ConfTree",
    "SplitConfTree",
)
#: the score of each data set in Figures 4 and 5 (F-measure of the minority class when the
#: classes are unbalanced, as the paper does for its starred data sets)
METRIC = {"electricity": "accuracy", "adult": "f_measure_1"}
METRIC_LABEL = {"accuracy": "online accuracy", "f_measure_1": "F-measure of class 1 (>50K)"}


@dataclass(frozen=True)
class Sizes:
    """How large every experiment of the notebook is in one mode."""

    # Theorems 1-3
    ms: tuple
    law_grid: int
    search_trials: int
    trials: int
    # Theorem 4 (split selection) and Theorem 5
    split_trials: int
    leaf_trials: int
    # Figure 3
    fig3_trees: int
    fig3_examples: int
    fig3_params: int
    # Figure 4
    fig4_perms: int
    fig4_params: int
    # Figure 5
    fig5_seeds: int
    fig5_rows: int | None  # None: the whole data set
    backend: str | None  # sweep backend (None: local processes)


FAST = Sizes(
    ms=(10, 100, 1000, 10_000),
    law_grid=4,
    search_trials=1000,
    trials=4000,
    split_trials=400,
    leaf_trials=5_000,
    fig3_trees=3,
    fig3_examples=40_000,
    fig3_params=5,
    fig4_perms=3,
    fig4_params=4,
    fig5_seeds=3,
    fig5_rows=15_000,
    backend="serial",
)
FULL = Sizes(
    ms=(10, 30, 100, 300, 1000, 3000, 10_000, 30_000),
    law_grid=6,
    search_trials=4000,
    trials=40_000,
    split_trials=4000,
    leaf_trials=200_000,
    fig3_trees=20,
    fig3_examples=500_000,
    fig3_params=12,
    fig4_perms=20,  # as many as the claims run's seeds (verdicts.FULL), so it reuses them
    fig4_params=12,
    fig5_seeds=20,
    fig5_rows=None,
    backend=None,
)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: read ``WORKBENCH_FAST``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    """One paragraph saying which mode runs and how large its experiments are."""
    s = sizes(fast)
    mode = (
        "QUICK (a smoke test: QUICK = True, `dev.py lab --quick` or the tests)"
        if s is FAST
        else "FULL (the laptop-scale reproduction)"
    )
    return (
        f"Mode: {mode}. Theorems 1-3: m in {list(s.ms)}, {s.trials:,} trials per point "
        f"at the tightest of {s.law_grid**3} laws. Figure 3: {s.fig3_trees} random trees x "
        f"{s.fig3_examples:,} examples x {s.fig3_params} parameter values x 3 learners "
        f"(the paper: 1,000 x 500,000 x 200). Figure 4: {s.fig4_perms} permutations x "
        f"{s.fig4_params} parameter values. Figure 5: {s.fig5_seeds} strategy seed(s) x 6 "
        f"budgets x 7 strategies."
    )


def signed(v: float, decimals: int = 4) -> str:
    """``v`` with a sign and ``decimals`` decimals; a value that rounds to zero prints as
    ``0.0000`` without a sign (a reader cannot tell "-0.0000" from "+0.0000")."""
    s = f"{v:+.{decimals}f}"
    return s[1:] if float(s) == 0 else s


def tally_text(verdicts) -> str:
    """``"3 sizes: C-Tree better; 5 sizes: no clear difference"`` from the verdict of each
    size (a pandas Series or list of strings), most frequent first."""
    import pandas as pd

    counts = pd.Series(list(verdicts), dtype=object).value_counts()
    return "; ".join(f"{n} size{'s' if n != 1 else ''}: {verdict}" for verdict, n in counts.items())


def progress_options(progress, desc: str):
    """The ``progress`` argument of a sweep: ``True`` becomes a bar labelled ``desc``."""
    return {"desc": desc} if progress is True else progress


def _derive(seed, *idx) -> int:
    from ..._rng import derive_seed

    return int(derive_seed(int(seed), *idx)) & ((1 << 62) - 1)


def _learner_grids(r: dict, n_params: int, **shared) -> dict:
    """The three learners' grids over the log10 ranges ``r``: C-Tree's c log-spaced, H-Tree's
    and CorrH-Tree's delta = exp(-L) with L log-spaced; ``shared`` settings go to the last two
    (C-Tree splits nominal attributes binary anyway)."""

    def deltas(learner):
        return [float(math.exp(-L)) for L in np.logspace(*r[learner], n_params)]

    return {
        "CTree": {"c": [float(v) for v in np.logspace(*r["CTree"], n_params)]},
        "HoeffdingTree": {
            "delta": deltas("HoeffdingTree"),
            "criterion": "gini",
            "grace_period": 100,
            "tau": 0.0,
            **shared,
        },
        "CorrHTree": {"delta": deltas("CorrHTree"), **shared},
    }


def _param_column(df):
    df = df.copy()
    df["param_name"] = [PARAM[lr] for lr in df.learner]
    df["param"] = [float(json.loads(p)[PARAM[lr]]) for p, lr in zip(df.params, df.learner)]
    return df


def _check_errors(df):
    bad = df[df.error.astype(str) != ""]
    if len(bad):
        raise RuntimeError(f"{len(bad)} sweep cells failed; first: {bad.error.iloc[0]}")


class Stopwatch:
    """Wall time since construction, for the notebook's run-time line."""

    def __init__(self):
        self.start = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def __repr__(self) -> str:
        s = self.seconds
        if s < 60:  # "(0.0 min)" says nothing
            return f"{s:.1f} s" if s < 10 else f"{s:.0f} s"
        return f"{s:.0f} s ({s / 60:.1f} min)"
