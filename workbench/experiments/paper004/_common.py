"""What the parts of the paper-004 (EFDT) reproduction share: the mode's sizes, the two
learners with their labels and colours, and runs timed in CPU seconds."""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...viz.fast import fast_mode
from ..paper000._common import Stopwatch

LEARNERS = ("VFDT", "EFDT")
COLOR = {"VFDT": "#1f77b4", "EFDT": "#d62728"}
#: 004's experiments (and MOA's defaults): leaves every 200 instances, inner nodes every 2,000
PARAMS = dict(grace_period=200, delta=1e-7, tau=0.05, leaf_prediction="nba")
REEVAL = 2000


@dataclass(frozen=True)
class Sizes:
    lemma_seeds: int  # streams per concept in the convergence checks
    lemma_concepts: int  # random concepts (generator trees) the checks average over
    lemma_n: int  # instances per stream in the convergence checks
    fig1_streams: int  # streams per number of classes (Figure 1)
    fig1_n: int
    fig14_n: int  # the long run (one stream per number of classes and pair)
    real_shuffles: int  # Figures 2-13: shuffled copies of each data set
    real_rows: int | None  # rows of each data set (None: all)


FAST = Sizes(
    lemma_seeds=10,
    lemma_concepts=2,
    lemma_n=30_000,
    fig1_streams=2,
    fig1_n=20_000,
    fig14_n=300_000,
    real_shuffles=2,
    real_rows=15_000,
)
FULL = Sizes(
    lemma_seeds=50,
    lemma_concepts=4,
    lemma_n=300_000,
    fig1_streams=10,
    fig1_n=1_000_000,
    fig14_n=3_000_000,
    real_shuffles=10,
    real_rows=None,
)


def sizes(fast: bool | None = None) -> Sizes:
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    s = sizes(fast)
    mode = "QUICK" if s is FAST else "FULL (laptop scale)"
    return (
        f"Mode: {mode}. Lemmas: {s.lemma_concepts} concepts x {s.lemma_seeds} streams x "
        f"{s.lemma_n:,} instances. Figure 1: {s.fig1_streams} streams x {s.fig1_n:,} instances "
        f"per number of classes (the paper: 10 x 1 million); Figure 14: {s.fig14_n:,} "
        f"instances (the paper: 100 million). Figures 2-13: {s.real_shuffles} shuffles, "
        f"{'all rows' if s.real_rows is None else f'the first {s.real_rows:,} rows'}."
    )


def make(learner: str, n_features: int, n_classes: int, nominal=(), **extra):
    """VFDT (our HoeffdingTree) or EFDT with 004's parameters."""
    from ... import learners

    kw = dict(PARAMS, nominal_features=nominal, **extra)
    if learner == "EFDT":
        kw.setdefault("min_samples_reevaluate", REEVAL)
        return learners.EFDT(n_features, n_classes, **kw)
    return learners.HoeffdingTree(n_features, n_classes, **kw)


def timed_prequential(model, X, y, **kw):
    """``evaluate.prequential`` with the CPU seconds of this thread around it."""
    from ... import evaluate

    c0 = time.thread_time()
    res = evaluate.prequential(model, X, y, **kw)
    return res, time.thread_time() - c0


__all__ = ["Stopwatch", "sizes", "describe_mode", "FAST", "FULL", "make", "timed_prequential"]
