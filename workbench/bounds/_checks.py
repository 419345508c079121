"""Argument checking and broadcasting shared by the public functions of :mod:`workbench.bounds`.

Each checker turns an argument into a float64 array and raises a ``ValueError`` naming the
argument when a value is out of range; :func:`_finish` returns a Python float when every input
was a scalar.
"""

from __future__ import annotations

import numpy as np


def _as_float(name, x):
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number or an array of numbers, got {x!r}") from None
    if np.isnan(a).any():
        raise ValueError(f"{name} must not be NaN")
    return a


def _positive(name, x, allow_inf=False):
    a = _as_float(name, x)
    if (a <= 0).any():
        raise ValueError(f"{name} must be > 0, got {_first_bad(a, a <= 0)}")
    if not allow_inf and np.isinf(a).any():
        raise ValueError(f"{name} must be finite")
    return a


def _nonnegative(name, x):
    a = _as_float(name, x)
    if (a < 0).any():
        raise ValueError(f"{name} must be >= 0, got {_first_bad(a, a < 0)}")
    if np.isinf(a).any():
        raise ValueError(f"{name} must be finite")
    return a


def _open_unit(name, x, upper=1.0):
    a = _as_float(name, x)
    bad = (a <= 0) | (a >= upper)
    if bad.any():
        raise ValueError(
            f"{name} must lie in the open interval (0, {upper:g}), got {_first_bad(a, bad)}"
        )
    return a


def _closed_unit(name, x):
    a = _as_float(name, x)
    bad = (a < 0) | (a > 1)
    if bad.any():
        raise ValueError(f"{name} must lie in [0, 1], got {_first_bad(a, bad)}")
    return a


def _integer(name, x, lo):
    a = _as_float(name, x)
    bad = (a < lo) | (a != np.floor(a)) | np.isinf(a)
    if bad.any():
        raise ValueError(f"{name} must be an integer >= {lo}, got {_first_bad(a, bad)}")
    return a


def _first_bad(a, bad):
    return a[bad].flat[0] if a.ndim else float(a)


def _finish(out, *args):
    """Return a Python float when every input was a scalar, else an ndarray."""
    if all(np.ndim(a) == 0 for a in args):
        return float(out)
    return np.asarray(out, dtype=np.float64)


def _flat_broadcast(*arrays):
    """Broadcast, then copy each to a fresh contiguous, writeable 1-d float64 array."""
    return [np.array(a, dtype=np.float64).ravel() for a in np.broadcast_arrays(*arrays)]


def _kind(name, value, codes):
    if value not in codes:
        raise ValueError(f"{name} must be one of {sorted(codes)}, got {value!r}")
    return codes[value]
