"""A stream from arrays the user already has."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ._validate import check_bool, as_feature_matrix, as_labels, check_int, check_nominal_codes
from .info import StreamInfo


def from_arrays(
    X,
    y,
    nominal_features: Mapping[int, int] | Iterable[int] | None = None,
    feature_names: Sequence[str] | None = None,
    class_names: Sequence[str] | None = None,
    name: str = "arrays",
    return_info: bool = False,
):
    """Check and convert a feature matrix and labels into a stream.

    ``X`` becomes a C-contiguous float64 matrix ``[n, d]`` (no copy when it already is one) and
    ``y`` an int64 vector.  NaN in ``X`` is kept as a missing value.

    Parameters
    ----------
    X: array-like ``[n, d]`` of numbers.
    y: array-like ``[n]`` of integer labels ``0..K-1`` (floats with whole values are accepted).
    nominal_features: ``{column: number of values}``, or just the nominal columns (then the number
        of values is the largest code + 1).  Nominal columns must hold codes ``0..n_values-1`` or NaN.
    feature_names, class_names: optional names (default ``x0, x1, ...`` and ``"0", "1", ...``).
        ``len(class_names)`` fixes ``n_classes``; otherwise it is ``max(y) + 1``, and labels
        that would make over 1,024 classes of which fewer than half occur are refused (they are
        identifiers, not class codes).
    name: name of the stream in ``info``.
    return_info: also return a :class:`StreamInfo`.

    Raises
    ------
    ValueError
        for ragged or non-numeric ``X``, infinities, an empty stream, ``X`` not 2-D, labels that are
        not non-negative integers, a length mismatch, or nominal codes out of range.

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.from_arrays([[0.5, 1], [0.25, 0]], [1, 0])
    >>> X.dtype, y.dtype, X.shape
    (dtype('float64'), dtype('int64'), (2, 2))
    """
    X = as_feature_matrix(X)
    n, d = X.shape
    y = as_labels(y, n)
    if class_names is not None:
        class_names = [str(c) for c in class_names]
        if int(y.max()) >= len(class_names):
            raise ValueError(
                f"y holds label {int(y.max())} but only {len(class_names)} class names were given"
            )
    else:
        k = int(y.max()) + 1
        distinct = np.unique(y).shape[0]
        if k > max(1024, 2 * distinct):  # labels that are identifiers, not class codes
            raise ValueError(
                f"y holds label {k - 1:,}: labels are class codes 0..K-1, so that would make "
                f"{k:,} classes of which {distinct:,} occur; encode the labels first "
                "(names, codes = np.unique(y, return_inverse=True)) or pass class_names"
            )
        class_names = [str(k) for k in range(k)]
    if feature_names is not None:
        feature_names = [str(f) for f in feature_names]
        if len(feature_names) != d:
            raise ValueError(f"{len(feature_names)} feature names given for {d} columns")
    else:
        feature_names = [f"x{j}" for j in range(d)]

    nominal: dict[int, int] = {}
    if nominal_features is not None:
        if isinstance(nominal_features, Mapping):
            for j, k in nominal_features.items():
                nominal[check_int(j, "a nominal feature column", 0, d - 1)] = check_int(
                    k, f"the number of values of nominal column {j}", 1
                )
        else:
            for j in nominal_features:
                j = check_int(j, "a nominal feature column", 0, d - 1)
                col = X[:, j]
                present = col[~np.isnan(col)]
                nominal[j] = int(present.max()) + 1 if present.size else 1
        check_nominal_codes(X, nominal)

    if not check_bool(return_info, "return_info"):
        return X, y
    info = StreamInfo(
        name=name,
        feature_names=feature_names,
        class_names=class_names,
        nominal_features=dict(sorted(nominal.items())),
        categories={j: [str(v) for v in range(k)] for j, k in sorted(nominal.items())},
    )
    return X, y, info
