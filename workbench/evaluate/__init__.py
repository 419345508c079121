"""Evaluation protocols and metrics."""

from .metrics import confusion_matrix, f_measure, kappa, precision, recall
from .pool import pool_curves, pool_runs, toy_curves, toy_runs
from .prequential import (
    HoldoutResult,
    MinibatchResult,
    PrequentialResult,
    holdout,
    minibatch,
    prequential,
)

__all__ = [
    "prequential",
    "minibatch",
    "holdout",
    "PrequentialResult",
    "MinibatchResult",
    "HoldoutResult",
    "confusion_matrix",
    "precision",
    "recall",
    "f_measure",
    "kappa",
    "pool_runs",
    "pool_curves",
    "toy_runs",
    "toy_curves",
]
