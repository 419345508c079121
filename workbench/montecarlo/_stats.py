"""Small helpers shared by the Monte Carlo modules: argument checks and binomial tests."""

from __future__ import annotations

import numbers

import numpy as np


def require_int(name, value, lo):
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer >= {lo}, got {value!r}")
    value = int(value)
    if value < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {value}")
    return value


#: seeds are mixed as 64-bit words (``workbench._rng``): a larger one would wrap around and
#: give another seed's draws (2**64 those of 0)
MAX_SEED = 2**64 - 1


def require_seed(seed):
    seed = require_int("seed", seed, 0)
    if seed > MAX_SEED:
        raise ValueError(
            f"seed must be an integer in [0, 2**64 - 1] (it is mixed as a 64-bit word, so a "
            f"larger one repeats a smaller one's draws); got {seed}"
        )
    return seed


def _real(value):
    """``value`` as a float if it is a real number (not a bool), else NaN (which no range
    holds)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        return float("nan")
    return float(value)


def require_open_unit(name, value, upper=1.0):
    v = _real(value)
    if not (0.0 < v < upper):
        raise ValueError(f"{name} must lie in the open interval (0, {upper:g}), got {value!r}")
    return v


def require_closed_unit(name, value):
    v = _real(value)
    if not (0.0 <= v <= 1.0):
        raise ValueError(f"{name} must lie in [0, 1], got {value!r}")
    return v


def binom_greater_pvalue(k, n, p):
    """P-value of the one-sided binomial test of ``H0: rate <= p`` against ``rate > p``."""
    from scipy.stats import binomtest

    return float(binomtest(int(k), int(n), float(p), alternative="greater").pvalue)


def binom_two_sided_pvalue(k, n, p):
    """P-value of the two-sided exact binomial test of ``H0: rate == p``."""
    from scipy.stats import binomtest

    return float(binomtest(int(k), int(n), float(p), alternative="two-sided").pvalue)


def wilson_interval(k, n, level=0.99):
    """Wilson score interval of a binomial proportion (for reporting)."""
    from scipy.stats import norm

    z = norm.ppf(0.5 + level / 2)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return float(centre - half), float(centre + half)
