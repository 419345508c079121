r"""The warning and drift levels of DDM (Gama et al. 2004), used at UFFT's inner nodes in 002.

:mod:`workbench.drift` runs the detector itself; this module has the two tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._checks import _closed_unit, _nonnegative


@njit(cache=True)
def ddm_levels_nb(p, s, p_min, s_min, strict):
    """Scalar core of :func:`ddm_levels`; returns ``(warning, drift)``."""
    x = p + s
    if strict:
        return x > p_min + 2.0 * s_min, x > p_min + 3.0 * s_min
    return x >= p_min + 2.0 * s_min, x >= p_min + 3.0 * s_min


def ddm_levels(p, s, p_min, s_min, strict=False):
    r"""The warning and drift tests of DDM (Gama et al. 2004), as used in 002.

    With :math:`p_i` the error rate after ``i`` examples and :math:`s_i=\sqrt{p_i(1-p_i)/i}`,

    * warning: :math:`p_i + s_i \ge p_{min} + 2 s_{min}`,
    * drift: :math:`p_i + s_i \ge p_{min} + 3 s_{min}`,

    where :math:`(p_{min}, s_{min})` is the pair recorded when :math:`p_i + s_i` was lowest.
    Returns ``(warning, drift)`` (booleans, or boolean arrays); ``warning`` is the test itself,
    so it is also true in the drift zone.  ``strict=True`` uses ``>`` (MOA's comparison); the two
    differ when :math:`s_{min} = 0` (no error among the first examples), where the ``>=`` tests
    fire at once.
    """
    p_ = _closed_unit("p", p)
    s_ = _nonnegative("s", s)
    pm_ = _closed_unit("p_min", p_min)
    sm_ = _nonnegative("s_min", s_min)
    if not isinstance(strict, (bool, np.bool_)):
        raise ValueError(f"strict must be True or False, got {strict!r}")
    w, dr = ddm_levels_nb.py_func(p_, s_, pm_, sm_, bool(strict))
    if all(np.ndim(a) == 0 for a in (p, s, p_min, s_min)):
        return bool(w), bool(dr)
    return np.asarray(w), np.asarray(dr)
