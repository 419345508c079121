"""Input checks at the boundary between Python and the kernels.

Everything that could crash a kernel or silently corrupt a model is caught here with a
``ValueError`` that names the problem: non-numeric data, a wrong number of columns, infinities,
labels that are not integers in ``range(n_classes)``, nominal codes outside their declared range
(when learning), and empty input.  NaN is a missing value and passes.
"""
from __future__ import annotations

import numbers

import numpy as np


def as_matrix(X, n_features: int, *, name: str = "X", allow_empty: bool = False) -> np.ndarray:
    """X as a C-contiguous float64 [n, n_features] array (a single row becomes [1, d])."""
    if isinstance(X, np.ndarray) and X.dtype.kind in "SUV":
        raise ValueError(f"{name} must be numeric; got an array of dtype {X.dtype} (encode "
                         "nominal values as integer codes, e.g. with workbench.streams)")
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array ({exc})") from None
    if arr.ndim == 1:
        arr = arr.reshape(1, -1) if arr.shape[0] == n_features else arr.reshape(-1, 1)
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D [n_samples, n_features]; got {arr.ndim}-D")
    if arr.shape[1] != n_features:
        raise ValueError(f"{name} has {arr.shape[1]} columns but the model was built for "
                         f"n_features={n_features}")
    if arr.shape[0] == 0 and not allow_empty:
        raise ValueError(f"{name} is empty: a stream of length zero cannot be learned from")
    if np.isinf(arr).any():
        rows, cols = np.nonzero(np.isinf(arr))
        raise ValueError(f"{name} contains infinity (first at row {rows[0]}, column {cols[0]}); "
                         "use NaN for a missing value")
    return np.ascontiguousarray(arr)


def as_labels(y, n_classes: int, n_rows: int, *, name: str = "y") -> np.ndarray:
    """y as int64 [n] with every label in range(n_classes)."""
    if isinstance(y, np.ndarray) and y.dtype.kind in "SUV":
        raise ValueError(f"{name} must hold integer class labels; got an array of dtype "
                         f"{y.dtype} (encode classes as 0..n_classes-1)")
    if isinstance(y, np.ndarray) and y.dtype.kind in "iu" and y.ndim == 1 and \
            y.shape[0] == n_rows > 0:
        # integer labels (the usual case): only the range needs checking
        lo, hi = int(y.min()), int(y.max())
        if 0 <= lo and hi < n_classes:
            return np.ascontiguousarray(y, dtype=np.int64)
    try:
        arr = np.asarray(y, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must hold integer class labels ({exc})") from None
    if arr.shape[0] != n_rows:
        raise ValueError(f"{name} has {arr.shape[0]} labels but X has {n_rows} rows")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: a stream of length zero cannot be learned from")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; every instance needs a label")
    as_int = arr.astype(np.int64)
    if (as_int != arr).any():
        i = int(np.argmax(as_int != arr))
        raise ValueError(f"{name} must hold integer class labels; {name}[{i}] = {arr[i]}")
    bad = (as_int < 0) | (as_int >= n_classes)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"label {as_int[i]} at {name}[{i}] is outside range(n_classes) = "
                         f"range({n_classes})")
    return as_int


def check_nominal_codes(X: np.ndarray, nominal: dict[int, int], *, name: str = "X") -> None:
    """Nominal columns must hold integer codes in [0, n_values) (or NaN) when learning."""
    for col, card in nominal.items():
        v = X[:, col]
        v = v[~np.isnan(v)]
        bad = (v != np.floor(v)) | (v < 0) | (v >= card)
        if bad.any():
            raise ValueError(f"nominal column {col} of {name} holds {v[bad][0]!r}, outside its "
                             f"declared codes 0..{card - 1} (declare more values in "
                             "nominal_features, e.g. {col: n_values})")


def normalise_nominal(nominal_features, n_features: int, default_values: int) -> dict[int, int]:
    """``nominal_features`` as {column: number of values}.

    Accepts a mapping {column: n_values} or a sequence of columns (each then declared with
    ``default_values`` values).
    """
    if nominal_features is None:
        return {}
    if isinstance(nominal_features, dict):
        items = list(nominal_features.items())
    else:
        try:
            items = [(c, default_values) for c in nominal_features]
        except TypeError:
            raise ValueError("nominal_features must be a sequence of column indices or a "
                             "mapping {column: number of values}") from None
    out: dict[int, int] = {}
    for col, card in items:
        if not isinstance(col, numbers.Integral) or not 0 <= int(col) < n_features:
            raise ValueError(f"nominal_features names column {col!r}, not a column index in "
                             f"0..{n_features - 1}")
        if not isinstance(card, numbers.Integral) or int(card) < 1:
            raise ValueError(f"nominal column {col} must declare a positive whole number of "
                             f"values; got {card!r}")
        out[int(col)] = int(card)
    return dict(sorted(out.items()))


def check_positive_int(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def check_probability(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be a number in the open interval (0, 1); got {value!r}")
    return float(value)


def check_choice(value, name: str, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}; got {value!r}")
    return value
