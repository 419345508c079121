"""The beta special functions behind 001's credible intervals, in numba.

``betainc_nb(a, b, x)`` (regularised incomplete beta function, the Beta(a, b) CDF),
``betaincinv_nb(a, b, y)`` (its inverse, a quantile), ``beta_upper_quantile_nb(a, b, delta)``,
and the private helpers they use (log beta, the continued fraction, the density, a safeguarded
Newton solver that :mod:`workbench.bounds.credible` also calls).
"""

from __future__ import annotations

import math

from numba import njit


@njit(cache=True)
def _lbeta(a, b):
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


@njit(cache=True)
def _beta_cf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz evaluation).

    Terms: d_{2k+1} = -(a+k)(a+b+k)x / ((a+2k)(a+2k+1)), d_{2k} = k(b-k)x / ((a+2k-1)(a+2k)).
    Converges quickly for x < (a+1)/(a+b+2).
    """
    tiny = 1e-300
    c = 1.0
    dd = 1.0 - (a + b) * x / (a + 1.0)
    if abs(dd) < tiny:
        dd = tiny
    dd = 1.0 / dd
    f = dd
    for k in range(1, 100000):
        # even term
        num = k * (b - k) * x / ((a + 2.0 * k - 1.0) * (a + 2.0 * k))
        dd = 1.0 + num * dd
        if abs(dd) < tiny:
            dd = tiny
        c = 1.0 + num / c
        if abs(c) < tiny:
            c = tiny
        dd = 1.0 / dd
        f *= dd * c
        # odd term
        num = -(a + k) * (a + b + k) * x / ((a + 2.0 * k) * (a + 2.0 * k + 1.0))
        dd = 1.0 + num * dd
        if abs(dd) < tiny:
            dd = tiny
        c = 1.0 + num / c
        if abs(c) < tiny:
            c = tiny
        dd = 1.0 / dd
        step = dd * c
        f *= step
        if abs(step - 1.0) < 1e-15:
            break
    return f


@njit(cache=True)
def betainc_nb(a, b, x):
    """Regularised incomplete beta function ``I_x(a, b)`` (the Beta(a, b) CDF at ``x``)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lfront = a * math.log(x) + b * math.log1p(-x) - _lbeta(a, b)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lfront) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(lfront) * _beta_cf(b, a, 1.0 - x) / b


@njit(cache=True)
def _beta_pdf(a, b, x):
    if x <= 0.0 or x >= 1.0:
        if (x <= 0.0 and a == 1.0) or (x >= 1.0 and b == 1.0):
            return math.exp(-_lbeta(a, b))
        return 0.0
    return math.exp((a - 1.0) * math.log(x) + (b - 1.0) * math.log1p(-x) - _lbeta(a, b))


@njit(cache=True)
def _solve_increasing(mode, a, b, y, lo, hi):
    """Root of g(x) = y on [lo, hi] for an increasing g, safeguarded Newton.

    mode 0: g(x) = I_x(a, b);  mode 1: g(u) = I_u(a, b) + I_u(b, a) (two tails, u <= 1/2).
    """
    x = 0.5 * (lo + hi)
    for _ in range(200):
        if mode == 0:
            g = betainc_nb(a, b, x) - y
            dg = _beta_pdf(a, b, x)
        else:
            g = betainc_nb(a, b, x) + betainc_nb(b, a, x) - y
            dg = _beta_pdf(a, b, x) + _beta_pdf(b, a, x)
        if g > 0.0:
            hi = x
        else:
            lo = x
        if dg > 0.0 and math.isfinite(dg):
            xn = x - g / dg
        else:
            xn = lo - 1.0
        if not (lo < xn < hi):
            xn = 0.5 * (lo + hi)
        if abs(xn - x) <= 1e-15 * max(abs(x), 1e-300) or hi - lo <= 1e-16 * max(hi, 1e-300):
            return xn
        x = xn
    return x


@njit(cache=True)
def betaincinv_nb(a, b, y):
    """Inverse of ``x -> I_x(a, b)``: the ``y``-quantile of Beta(a, b)."""
    if y <= 0.0:
        return 0.0
    if y >= 1.0:
        return 1.0
    return _solve_increasing(0, a, b, y, 0.0, 1.0)


@njit(cache=True)
def beta_upper_quantile_nb(a, b, delta):
    """The point exceeded with probability ``delta`` by a Beta(a, b) variable."""
    return betaincinv_nb(a, b, 1.0 - delta)
