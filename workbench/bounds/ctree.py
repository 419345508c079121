r"""The bounds of C-Tree, paper 000 (De Rosa & Cesa-Bianchi).

* Theorems 1-3, eqs. (4)-(6): confidence radii of the entropy, Gini and Kearns-Mansour
  impurities (:func:`entropy`, :func:`gini`, :func:`kearns_mansour`);
* Theorem 4, eq. (7): the union-bound schedule (:func:`ctree_epsilon`, with the ``BOUND_*``
  codes the kernels use);
* eq. (10): the practical radius of the experiments (:func:`ctree_practical`);
* eq. (9), Theorem 5: the leaf-consistency radius of the ACTIVE strategies
  (:func:`leaf_consistency`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._checks import _evaluate, _finish, _first_bad, _integer, _kind, _open_unit, _positive

BOUND_ENTROPY = 0
BOUND_GINI = 1
BOUND_KEARNS_MANSOUR = 2
BOUND_CODES = {"entropy": BOUND_ENTROPY, "gini": BOUND_GINI, "kearns_mansour": BOUND_KEARNS_MANSOUR}


# =============================================================================================
# 000 Theorems 1-3: entropy, Gini, Kearns-Mansour
# =============================================================================================


@njit(cache=True)
def entropy_nb(m, delta):
    """Scalar core of :func:`entropy`."""
    return np.log(m) * np.sqrt(2.0 / m * np.log(4.0 / delta)) + 2.0 / m


def entropy(m, delta):
    r"""000 Theorem 1, eq. (4): confidence radius of the scaled conditional entropy.

    .. math:: \varepsilon_{\mathrm{ent}}(m,\delta) = (\ln m)\sqrt{\frac{2}{m}\ln\frac{4}{\delta}}
       + \frac{2}{m}

    With probability at least ``1 - delta``,
    :math:`|\widehat\Phi_{i|F} - H_{1/2}(Y_{|i}\mid F)| \le \varepsilon_{\mathrm{ent}}`, where
    :math:`\widehat\Phi_{i|F} = \widehat H_{1/2}(Y_{|i},F) - \widehat H_{1/2}(F)` (plug-in joint
    minus marginal entropy, natural logarithm, halved).  The first term is the concentration of
    the two plug-in entropies (Antos & Kontoyiannis), the second their bias (Paninski, with
    ``N = 4`` and ``N = 2`` cells).  Requires ``m >= 1`` (``ln m`` must not be negative).

    Examples
    --------
    >>> round(entropy(1000, 0.05), 4)
    0.6487
    """
    m_, d_ = _positive("m", m), _open_unit("delta", delta)
    if (m_ < 1).any():
        raise ValueError(
            f"m must be >= 1 for the entropy bound (ln m < 0 below 1), got {_first_bad(m_, m_ < 1)}"
        )
    return _finish(_evaluate(entropy_nb.py_func, m_, d_, m=m, delta=delta), m, delta)


@njit(cache=True)
def gini_nb(m, delta):
    """Scalar core of :func:`gini`."""
    return np.sqrt(8.0 / m * np.log(2.0 / delta)) + 4.0 * np.sqrt(1.0 / m)


def gini(m, delta):
    r"""000 Theorem 2, eq. (5): confidence radius of the conditional Gini index.

    .. math:: \varepsilon_{\mathrm{Gini}}(m,\delta) = \sqrt{\frac{8}{m}\ln\frac{2}{\delta}}
       + 4\sqrt{\frac{1}{m}}

    for the estimator :math:`\widehat\Phi_{i|F} = \mathrm{hm}(\hat p_1,\hat q_1)
    + \mathrm{hm}(\hat p_0,\hat q_0)`, :math:`\mathrm{hm}(p,q)=2pq/(p+q)`.  McDiarmid with
    bounded differences ``c = 4/m`` gives the first term, the bias bound (15) the second.

    **Reading.** 000 defines :math:`q_k = 1 - p_k` with :math:`p_k = P(Y=1, F=k)`, but its own
    proof (eq. 12) needs :math:`q_k = P(Y=0, F=k)`; only with the latter is the estimator
    consistent for :math:`J(Y_{|i}\mid F)`.  With the printed definition the deviation does not
    even tend to zero and the bound fails with probability tending to one.

    Examples
    --------
    >>> round(gini(1000, 0.05), 4)
    0.2983
    """
    m_, d_ = _positive("m", m), _open_unit("delta", delta)
    return _finish(_evaluate(gini_nb.py_func, m_, d_, m=m, delta=delta), m, delta)


@njit(cache=True)
def kearns_mansour_nb(m, delta):
    """Scalar core of :func:`kearns_mansour`."""
    return 4.0 * np.sqrt(np.log(8.0 / delta) / m)


def kearns_mansour(m, delta):
    r"""000 Theorem 3, eq. (6): confidence radius of the Kearns-Mansour index.

    .. math:: \varepsilon_{\mathrm{KM}}(m,\delta) = 4\sqrt{\frac{1}{m}\ln\frac{8}{\delta}}

    for :math:`\widehat\Phi_{i|F} = \sqrt{\hat p_1\hat q_1} + \sqrt{\hat p_0\hat q_0}`, an
    estimate of :math:`Q(Y_{|i}\mid F)` with :math:`Q(Z) = \sqrt{p(1-p)}`.  Four applications of
    Lemma 3 (square root of a binomial proportion) with ``delta / 4`` each.  Same reading of
    :math:`q_k` as in :func:`gini`: :math:`q_k = P(Y=0, F=k)`, not :math:`1 - p_k`.

    Examples
    --------
    >>> round(kearns_mansour(1000, 0.05), 4)
    0.285
    """
    m_, d_ = _positive("m", m), _open_unit("delta", delta)
    return _finish(_evaluate(kearns_mansour_nb.py_func, m_, d_, m=m, delta=delta), m, delta)


# =============================================================================================
# 000 eq. (7), (9), (10)
# =============================================================================================


@njit(cache=True)
def ctree_epsilon_nb(m, delta, depth, t, d, kind):
    """Scalar core of :func:`ctree_epsilon`; ``kind`` is one of the ``BOUND_*`` codes."""
    dl = delta / ((depth + 1.0) * (depth + 2.0) * t * d * m)
    if kind == BOUND_ENTROPY:
        return entropy_nb(m, dl)
    elif kind == BOUND_GINI:
        return gini_nb(m, dl)
    else:
        return kearns_mansour_nb(m, dl)


def ctree_epsilon(m, delta, depth, t, d, bound="gini"):
    r"""000 Theorem 4, eq. (7): the union-bound schedule of C-Tree.

    .. math:: \varepsilon_t = \varepsilon\!\left(m_{\ell_t,t},\;
       \frac{\delta}{(h_t+1)(h_t+2)\,t\,d\,m_{\ell_t,t}}\right)

    where :math:`\varepsilon(m,\delta)` is :func:`entropy`, :func:`gini` or
    :func:`kearns_mansour` (``bound``), ``m`` the examples at the leaf, ``depth`` its depth
    ``h`` (root = 0), ``t`` the examples seen by the tree and ``d`` the number of features.
    ``d * m`` counts the candidate binary splits (Lemma 1), ``t`` the possible values of ``m``
    and :math:`\sum_h 1/((h+1)(h+2)) = 1` the depths (appendix D).

    Note: C-Tree splits when :math:`\widehat\Phi_{\hat F} \le \widehat\Phi_{\hat F_2} - 2\varepsilon_t`
    with :math:`\widehat\Phi` a conditional *impurity*, so :math:`\hat F` must be the
    **argmin** of :math:`\widehat\Phi` (Algorithm 1 prints argmax, under which the test can never
    pass).
    """
    code = _kind("bound", bound, BOUND_CODES)
    m_, dl_ = _positive("m", m), _open_unit("delta", delta)
    h_ = _integer("depth", depth, 0)
    t_ = _integer("t", t, 1)
    d_ = _integer("d", d, 1)
    if code == BOUND_ENTROPY and (m_ < 1).any():
        raise ValueError("m must be >= 1 for the entropy bound")
    core = {
        BOUND_ENTROPY: entropy_nb,
        BOUND_GINI: gini_nb,
        BOUND_KEARNS_MANSOUR: kearns_mansour_nb,
    }[code]

    def scheduled(m_, dl_, h_, t_, d_):
        return core.py_func(m_, dl_ / ((h_ + 1.0) * (h_ + 2.0) * t_ * d_ * m_))

    out = _evaluate(scheduled, m_, dl_, h_, t_, d_, m=m, delta=delta, depth=depth, t=t, d=d)
    return _finish(out, m, delta, depth, t, d)


@njit(cache=True)
def ctree_practical_nb(m, depth, t, d, c):
    """Scalar core of :func:`ctree_practical` (``depth`` counted from 0 at the root)."""
    h = depth + 1.0
    return c * np.sqrt(np.log(m * m * h * h * t * d) / m)


def ctree_practical(m, depth, t, d, c):
    r"""000 eq. (10): the practical C-Tree radius used in the experiments.

    .. math:: \tilde\varepsilon_{\mathrm{KM}} = \tilde\varepsilon_{\mathrm{Gini}}
       = c\sqrt{\frac{1}{m}\ln\bigl(m^2 h^2 t d\bigr)}

    **Reading.** As printed, with the depth convention of eq. (7) (root ``h = 0``), the root has
    :math:`\ln 0 = -\infty`.  This function counts levels from one, i.e. uses ``h = depth + 1``
    with ``depth = 0`` at the root, so every leaf gets a finite radius.  Note also that (10) is
    not (7) with :math:`\delta = 1/t` (Remark 1): that would put
    :math:`(h+1)(h+2)\,t^2 d\,m` inside the logarithm, not :math:`m^2 h^2 t d`, and keep the
    bias term :math:`4/\sqrt m`; ``c`` absorbs the difference.

    Parameters
    ----------
    m : examples at the leaf, ``> 0``.  depth : leaf depth, root = 0.  t : examples seen by the
    tree, ``>= 1``.  d : number of features, ``>= 1``.  c : user constant, ``> 0``.
    """
    m_ = _positive("m", m)
    h_ = _integer("depth", depth, 0)
    t_ = _integer("t", t, 1)
    d_ = _integer("d", d, 1)
    c_ = _positive("c", c)
    if (m_ < 1).any():
        raise ValueError("m must be >= 1 for ctree_practical (the logarithm must be >= 0)")
    out = _evaluate(ctree_practical_nb.py_func, m_, h_, t_, d_, c_, m=m, depth=depth, t=t, d=d, c=c)
    return _finish(out, m, depth, t, d, c)


@njit(cache=True)
def leaf_consistency_nb(m, t, delta):
    """Scalar core of :func:`leaf_consistency`."""
    return np.sqrt(np.log(2.0 * t / delta) / (2.0 * m))


def leaf_consistency(m, t, delta):
    r"""000 eq. (9): the radius of delta-consistency of a leaf (Definition 1, Theorem 5).

    .. math:: \varepsilon_{\ell c}(m,t,\delta) = \sqrt{\frac{1}{2m}\ln\frac{2t}{\delta}}

    A leaf with ``m`` queried labels, fraction of positives :math:`\hat Y`, is
    delta-consistent at time ``t`` when :math:`|\hat Y - 1/2| > \varepsilon_{\ell c}`.
    Theorem 5: the probability that a delta-consistent leaf classifies non-optimally is at most
    ``delta`` (two-sided Hoeffding with ``delta / t`` and a union over the ``t`` possible values
    of ``m``).
    """
    m_ = _positive("m", m)
    t_ = _integer("t", t, 1)
    d_ = _open_unit("delta", delta)
    out = _evaluate(leaf_consistency_nb.py_func, m_, t_, d_, m=m, t=t, delta=delta)
    return _finish(out, m, t, delta)
