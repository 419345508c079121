"""Argument checks shared by the generators and loaders.

Every check raises a ``ValueError`` whose message names the argument and what was wrong with it,
so that bad input never reaches a numba kernel.
"""

from __future__ import annotations

import numbers
import os
from typing import Any

import numpy as np


def machine_memory() -> int | None:
    """Bytes of physical memory of this machine, or None where the system does not say."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def check_n(n: Any, name: str = "n", width: int | None = None) -> int:
    """A positive number of instances (a whole-number float such as ``1e6`` is accepted).

    With ``width`` (the float64 values a generator stores per row, the label included) a
    stream that could not fit in this machine's memory is refused here, by name, rather than
    by NumPy ("Maximum allowed dimension exceeded") or after minutes of swapping."""
    if isinstance(n, bool) or not isinstance(n, numbers.Real):
        raise ValueError(f"{name} must be a positive integer, got {n!r}")
    if isinstance(n, numbers.Integral):
        value = int(n)
    else:
        if not np.isfinite(n) or n != int(n):
            raise ValueError(f"{name} must be a positive integer, got {n!r}")
        value = int(n)
    if value < 1:
        raise ValueError(
            f"{name} must be at least 1 (a stream of length zero is not a stream), got {value}"
        )
    if width is not None:
        need = value * width * 8
        have = machine_memory()
        if need >= 2**63 or (have is not None and need > have):
            room = f"this machine's {have / 2**30:,.1f} GiB" if have else "any machine's memory"
            raise ValueError(
                f"{name}={value:,} rows of {width} values need {need / 2**30:,.3g} GiB, more "
                f"than {room}; draw a shorter stream (or several, with different seeds)"
            )
    return value


def check_bool(value: Any, name: str) -> bool:
    """True or False (a NumPy bool too); a string such as ``'no'`` is not taken for True."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_real(value: Any, name: str, low: float | None = None, high: float | None = None) -> float:
    """A finite number in ``[low, high]`` (either bound optional)."""
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, numbers.Real)
        or not np.isfinite(value)
    ):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    value = float(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        raise ValueError(f"{name} must be in [{lo}, {hi}], got {value!r}")
    return value


def check_int(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer in ``[low, high]`` (either bound optional)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}")
    return value


def check_probability(p: Any, name: str) -> float:
    """A probability in ``[0, 1]``."""
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not np.isfinite(p):
        raise ValueError(f"{name} must be a number in [0, 1], got {p!r}")
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"{name} must be in [0, 1], got {p}")
    return p


def check_seed(seed: Any) -> int | None:
    """A seed for ``numpy.random.default_rng``: a non-negative integer, or ``None`` for fresh entropy."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be non-negative, got {seed}")
    return int(seed)


def as_feature_matrix(X: Any, name: str = "X") -> np.ndarray:
    """``X`` as a C-contiguous float64 matrix ``[n, d]`` with n, d >= 1 and no infinities.

    NaN is kept: it is the documented encoding of a missing value.
    """
    try:
        arr = np.asarray(X)
    except ValueError as exc:  # NumPy refuses ragged nested sequences
        raise ValueError(f"{name} is ragged: its rows do not all have the same length") from exc
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"{name} must be numeric; it holds values that are not numbers "
                f"(encode nominal columns as integer codes, e.g. with read_csv)"
            ) from exc
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got an array of dtype {arr.dtype}")
    if arr.ndim != 2:
        hint = " (use X.reshape(-1, 1) for a single feature)" if arr.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-D [n_instances, n_features], got {arr.ndim}-D{hint}")
    n, d = arr.shape
    if n == 0:
        raise ValueError(f"{name} is empty: a stream of length zero")
    if d == 0:
        raise ValueError(f"{name} has no feature columns")
    arr = np.ascontiguousarray(arr, dtype=np.float64)
    bad = np.isinf(arr)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"{name} contains an infinity (first at row {i}, column {j}); "
            f"only NaN is allowed, as a missing value"
        )
    return arr


def as_labels(y: Any, n: int | None = None, name: str = "y") -> np.ndarray:
    """``y`` as an int64 vector of non-negative class labels (whole-number floats accepted)."""
    try:
        arr = np.asarray(y)
    except ValueError as exc:
        raise ValueError(f"{name} is ragged") from exc
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got {arr.ndim}-D")
    if n is not None and arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} labels but X has {n} rows")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: a stream of length zero")
    if arr.dtype.kind in "iub":
        labels = arr.astype(np.int64)
    elif arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} contains NaN or infinity: every instance needs a class label")
        bad = (arr != np.floor(arr)) | (np.abs(arr) >= 2.0**63)
        if bad.any():
            i = int(np.argmax(bad))
            raise ValueError(
                f"{name} must hold integer class labels 0..K-1, found {float(arr[i])!r} at {name}[{i}]"
            )
        labels = arr.astype(np.int64)
    else:
        raise ValueError(
            f"{name} must hold integer class labels 0..K-1, got dtype {arr.dtype} "
            f"(encode string classes first, e.g. np.unique(y, return_inverse=True))"
        )
    if labels.min() < 0:
        raise ValueError(f"{name} must hold class labels 0..K-1, found {labels.min()}")
    return np.ascontiguousarray(labels)


def check_nominal_codes(X: np.ndarray, nominal_features: dict[int, int]) -> None:
    """Each nominal column must hold codes ``0 .. n_values - 1`` (or NaN)."""
    d = X.shape[1]
    for j, n_values in nominal_features.items():
        if not 0 <= j < d:
            raise ValueError(f"nominal feature column {j} is out of range for {d} columns")
        if n_values < 1:
            raise ValueError(
                f"nominal feature column {j} must have at least one value, got {n_values}"
            )
        col = X[:, j]
        present = col[~np.isnan(col)]
        if present.size == 0:
            continue
        if np.any(present != np.floor(present)) or present.min() < 0 or present.max() >= n_values:
            raise ValueError(
                f"nominal feature column {j} must hold integer codes 0..{n_values - 1} "
                f"(or NaN), found values outside that set"
            )
