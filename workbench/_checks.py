"""Argument checks at the entry of public functions outside the learners and the streams.

Each check returns the argument as a plain Python value or raises a ``ValueError`` that names
the argument, shows the value that came and says what was expected, so that nothing odd reaches
NumPy or a numba kernel (where it would fail with a message about something else, or not fail
at all: ``window=2.5`` made accuracies above 1, ``strict='no'`` was taken for True).  NumPy's
scalars count as numbers; ``bool`` does not count as a number, nor a string as a bool.
"""

from __future__ import annotations

import math
import numbers

import numpy as np


def check_bool(value, name: str) -> bool:
    """True or False (NumPy's bool too); ``'no'``, 1 or None are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def check_int(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """An integer in ``[low, high]`` (either bound optional); a float, even 2.0, is refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer{_range(low, high)}; got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{name} must be an integer{_range(low, high)}; got {value!r}")
    return value


def check_real(
    value,
    name: str,
    low: float | None = None,
    high: float | None = None,
    *,
    low_open: bool = False,
    high_open: bool = False,
) -> float:
    """A finite real number in the interval from ``low`` to ``high`` (each end closed unless
    ``*_open``; either optional)."""
    ok = (
        not isinstance(value, (bool, np.bool_))
        and isinstance(value, numbers.Real)
        and math.isfinite(value)
    )
    if ok:
        v = float(value)
        ok = (low is None or (v > low if low_open else v >= low)) and (
            high is None or (v < high if high_open else v <= high)
        )
    if not ok:
        where = ""
        if low is not None or high is not None:
            left = "(" if low_open or low is None else "["
            right = ")" if high_open or high is None else "]"
            lo = "-inf" if low is None else f"{low:g}"
            hi = "inf" if high is None else f"{high:g}"
            where = f" in {left}{lo}, {hi}{right}"
        raise ValueError(f"{name} must be a finite number{where}; got {value!r}")
    return float(value)


def _range(low, high) -> str:
    if low is not None and high is not None:
        return f" in [{low}, {high}]"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""
