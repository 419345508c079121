"""Evaluation protocols and metrics."""

from .metrics import confusion_matrix, f_measure, kappa, precision, recall
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
]
