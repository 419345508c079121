r"""Hoeffding's bound: 000 eq. (1), 003 eq. (7), 004 eq. (1).

The confidence radius of VFDT (the H-Tree of 000, UFFT's expansion test in 002, the Frugal
Hoeffding tree of 003, EFDT / HATT of 004).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._checks import _evaluate, _finish, _open_unit, _positive


@njit(cache=True)
def hoeffding_nb(m, delta, R):
    """Scalar core of :func:`hoeffding`."""
    return R * np.sqrt(np.log(1.0 / delta) / (2.0 * m))


@njit(cache=True)
def hoeffding_moa_nb(m, delta, R):
    """Hoeffding's epsilon in MOA's order of operations, sqrt(R^2 ln(1/delta) / (2 m)): the same
    value as :func:`hoeffding_nb` to rounding, and the one a tree uses (a split decided on the
    last bit then falls where MOA's falls)."""
    return math.sqrt(((R * R) * math.log(1.0 / delta)) / (2.0 * m))


def hoeffding(m, delta, R=1.0):
    r"""Hoeffding's bound for the mean of ``m`` independent variables with range ``R``.

    .. math:: \varepsilon_{\mathrm{hof}}(m, \delta) = R\sqrt{\frac{1}{2m}\ln\frac{1}{\delta}}

    000 eq. (1), 003 eq. (7), 004 eq. (1).  This is a **one-sided** bound: with probability at
    least ``1 - delta`` the true mean is at least the sample mean minus epsilon (the reading of
    003 and 004).  000 states it two-sided ("does not differ by more than"); the two-sided
    statement needs ``ln(2/delta)``, i.e. ``hoeffding(m, delta / 2, R)``.  As printed in 000 it
    fails for some laws, e.g. ``m = 2``, Bernoulli(0.417), ``delta = 0.5`` (see
    ``docs/bounds_findings.md``).

    Parameters
    ----------
    m : number of observations, ``> 0``.
    delta : confidence parameter in ``(0, 1)``.
    R : range of the variables, ``> 0`` (``log2(n_classes)`` for information gain in VFDT).

    Examples
    --------
    >>> round(hoeffding(1000, 0.05), 5)
    0.0387
    """
    m_, d_, r_ = _positive("m", m), _open_unit("delta", delta), _positive("R", R)
    out = _evaluate(hoeffding_nb.py_func, m_, d_, r_, m=m, delta=delta, R=R)
    return _finish(out, m, delta, R)
