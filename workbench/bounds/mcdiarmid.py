r"""McDiarmid's bound for the information gain (Rutkowski et al. 2013), quoted in 000 eq. (2).

The bound of 000's CorrH-Tree baseline.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._checks import _evaluate, _finish, _first_bad, _integer, _open_unit, _positive


@njit(cache=True)
def mcdiarmid_entropy_nb(m, delta, n_classes):
    """Scalar core of :func:`mcdiarmid_entropy`."""
    log2e = 1.0 / np.log(2.0)
    c = 6.0 * (n_classes * log2e + np.log2(2.0 * m)) + 2.0 * np.log2(n_classes)
    return c * np.sqrt(np.log(1.0 / delta) / (2.0 * m))


def mcdiarmid_entropy(m, delta, n_classes):
    r"""McDiarmid bound of Rutkowski et al. (2013) for the information gain, quoted in 000 eq. (2).

    .. math:: \varepsilon_{\mathrm{md}}(m,\delta) = C(K,m)\sqrt{\frac{1}{2m}\ln\frac{1}{\delta}},
       \qquad C(K,m) = 6\bigl(K\log_2 e + \log_2 2m\bigr) + 2\log_2 K

    with ``K = n_classes`` and ``m >= 1`` examples.  It bounds ``|G_hat - E G_hat|`` for the information gain in bits
    (not ``|G_hat - G|``: the bias is not covered, as 000 remarks).  For two classes it exceeds
    1 bit, the whole range of the gain, until ``m`` is about 14,000 (at ``delta = 0.1``).

    Examples
    --------
    >>> mcdiarmid_entropy(100, 0.1, 2) > 1.0   # vacuous: the gain lies in [0, 1] bit
    True
    """
    m_, d_ = _positive("m", m), _open_unit("delta", delta)
    if (m_ < 1).any():
        raise ValueError(
            f"m must be >= 1 (a number of examples: below about 0.054 the constant C(K, m) "
            f"turns negative), got {_first_bad(m_, m_ < 1)}"
        )
    k_ = _integer("n_classes", n_classes, 2)
    out = _evaluate(mcdiarmid_entropy_nb.py_func, m_, d_, k_, m=m, delta=delta, n_classes=n_classes)
    return _finish(out, m, delta, n_classes)
