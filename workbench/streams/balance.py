"""The balance-scale problem of the UCI repository (Siegler 1976), as a generator."""

from __future__ import annotations

import numpy as np

from ._validate import check_bool, check_n, check_seed
from .info import StreamInfo

#: class codes, in the order of the UCI file's class names
BALANCE_CLASSES = ("L", "B", "R")


def balance(n: int = 100_000, seed: int | None = 1, return_info: bool = False):
    """Draw ``n`` instances of UCI's balance scale: four attributes, each uniform on 1..5
    (left weight, left distance, right weight, right distance), and the side the scale tips to:
    class 0 ("L") if ``left_weight * left_distance > right_weight * right_distance``, class 2
    ("R") if it is smaller, class 1 ("B", balanced) if the two torques are equal.  The UCI file
    is the 625 combinations once each; drawing them uniformly gives the same class frequencies
    (46.08 % L, 7.84 % B, 46.08 % R).  The attributes are numeric (UFFT and 002 treat them so).

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.balance(1000, seed=1)
    >>> X.shape, sorted(set(y.tolist()))
    ((1000, 4), [0, 1, 2])
    """
    n = check_n(n, width=5)
    seed = check_seed(seed)
    rng = np.random.default_rng(seed)
    X = rng.integers(1, 6, size=(n, 4)).astype(np.float64)
    left = X[:, 0] * X[:, 1]
    right = X[:, 2] * X[:, 3]
    y = np.where(left > right, 0, np.where(left < right, 2, 1)).astype(np.int64)
    if not check_bool(return_info, "return_info"):
        return X, y
    info = StreamInfo(
        name="balance",
        feature_names=["left_weight", "left_distance", "right_weight", "right_distance"],
        class_names=list(BALANCE_CLASSES),
        nominal_features={},
        categories={},
        params=dict(n=n, seed=seed),
    )
    return X, y, info
