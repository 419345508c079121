"""Argument checking and broadcasting shared by the public functions of :mod:`workbench.bounds`.

Each checker turns an argument into a float64 array and raises a ``ValueError`` naming the
argument when a value is out of range; :func:`_finish` returns a Python float when every input
was a scalar.
"""

from __future__ import annotations

import numbers

import numpy as np


def _as_float(name, x):
    """``x`` as a float64 array; anything but (arrays of) real numbers is refused by name:
    None, text and bools too (``np.asarray(None, float)`` is a NaN, ``True`` a 1)."""
    try:
        raw = np.asarray(x)
        kind_ok = raw.dtype.kind in "iuf" or (
            raw.dtype.kind == "O"
            and all(
                isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
                for v in raw.ravel().tolist()
            )
        )
        a = np.asarray(x, dtype=np.float64) if kind_ok else None
    except (TypeError, ValueError):
        a = None
    if a is None:
        raise ValueError(f"{name} must be a number or an array of numbers, got {x!r:.80}")
    if np.isnan(a).any():
        raise ValueError(f"{name} must not be NaN, got {x!r:.80}")
    return a


def _evaluate(core, *args, **named):
    """``core(*args)`` (a scalar core's ``py_func`` on the broadcast arguments) with floating
    point errors raised: an argument so extreme that the formula overflows (``m=1e-320``,
    ``delta=1e-320``) is an error naming the arguments, not an infinity and a warning."""
    try:
        with np.errstate(over="raise", divide="raise", invalid="raise"):
            return core(*args)
    except FloatingPointError as exc:
        shown = ", ".join(f"{k}={v!r:.40}" for k, v in named.items())
        raise ValueError(
            f"the bound cannot be computed in double precision at {shown} ({exc}): an argument "
            "is too extreme (too small a delta or m, too large a t, d or depth)"
        ) from None


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
