"""Classification metrics from predictions: confusion matrix, accuracy, precision, recall, F."""

from __future__ import annotations

import numpy as np


def confusion_matrix(y_true, y_pred, n_classes: int) -> np.ndarray:
    """[true class, predicted class] counts."""
    y_true = np.asarray(y_true, np.int64)
    y_pred = np.asarray(y_pred, np.int64)
    return np.bincount(y_true * n_classes + y_pred, minlength=n_classes * n_classes).reshape(
        n_classes, n_classes
    )


def _check_class(cm: np.ndarray, c) -> int:
    """c as a class index of the confusion matrix, or a ValueError that names the range."""
    k = cm.shape[0]
    if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < k:
        raise ValueError(
            f"class {c!r} is not a class index of this result: the classes are "
            f"0..{k - 1} (indices into the model's classes_)"
        )
    return int(c)


def precision(cm: np.ndarray, c: int) -> float:
    """Of the instances predicted as class c, the fraction that are c (nan if none)."""
    c = _check_class(cm, c)
    predicted = cm[:, c].sum()
    return float(cm[c, c] / predicted) if predicted else float("nan")


def recall(cm: np.ndarray, c: int) -> float:
    """Of the instances of class c, the fraction predicted as c (nan if none)."""
    c = _check_class(cm, c)
    actual = cm[c, :].sum()
    return float(cm[c, c] / actual) if actual else float("nan")


def f_measure(cm: np.ndarray, c: int, beta: float = 1.0) -> float:
    """F_beta of class c: the weighted harmonic mean of its precision and recall."""
    c = _check_class(cm, c)
    p, r = precision(cm, c), recall(cm, c)
    if not (p + r > 0):
        return 0.0 if np.isfinite(p) or np.isfinite(r) else float("nan")
    b2 = beta * beta
    return float((1 + b2) * p * r / (b2 * p + r))


def kappa(cm: np.ndarray) -> float:
    """Cohen's kappa: accuracy corrected for the agreement expected by chance."""
    n = cm.sum()
    if n == 0:
        return float("nan")
    po = np.trace(cm) / n
    pe = float((cm.sum(0) * cm.sum(1)).sum()) / (n * n)
    return float((po - pe) / (1 - pe)) if pe < 1 else float("nan")
