r"""Paper 001 (Collet & Pietquin): Bayesian credible intervals of BOCT and BOCT-AL.

* the heterogeneity functions of Sec. III (:func:`heterogeneity`, with the ``HET_*`` codes);
* eqs. (3)-(4): the beta-posterior credible interval of a subset's heterogeneity
  (:func:`credible_interval`);
* eq. (7): the credible upper bound of a leaf's risk (:func:`risk_upper`).

The beta special functions are in :mod:`workbench.bounds._beta`.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._beta import _solve_increasing, beta_upper_quantile_nb
from ._checks import _closed_unit, _finish, _flat_broadcast, _kind, _nonnegative, _open_unit

HET_ENTROPY = 0
HET_VARIANCE = 1
HET_STD = 2
HETEROGENEITY_CODES = {"entropy": HET_ENTROPY, "variance": HET_VARIANCE, "std": HET_STD}


@njit(cache=True)
def heterogeneity_nb(mu, kind):
    """Heterogeneity ``H(mu)`` of a Bernoulli(mu) subset (001 Sec. III); natural logarithm."""
    if kind == HET_VARIANCE:
        return mu * (1.0 - mu)
    elif kind == HET_STD:
        return math.sqrt(max(mu * (1.0 - mu), 0.0))
    else:
        h = 0.0
        if mu > 0.0:
            h -= mu * math.log(mu)
        if mu < 1.0:
            h -= (1.0 - mu) * math.log1p(-mu)
        return h


def heterogeneity(mu, kind="entropy"):
    r"""001's heterogeneity functions of the Bernoulli parameter ``mu``.

    ``"entropy"``: :math:`-\mu\ln\mu - (1-\mu)\ln(1-\mu)` (001 prints ``log 1 - mu`` without
    parentheses); ``"variance"``: :math:`\mu(1-\mu)`; ``"std"``: :math:`\sqrt{\mu(1-\mu)}`.
    """
    code = _kind("kind", kind, HETEROGENEITY_CODES)
    mu_ = _closed_unit("mu", mu)
    out = np.empty(mu_.shape)
    flat_in, flat_out = mu_.ravel(), out.ravel()
    for i in range(flat_in.size):
        flat_out[i] = heterogeneity_nb(flat_in[i], code)
    return _finish(out, mu)


@njit(cache=True)
def credible_interval_nb(n_pos, n_neg, delta, kind):
    """Scalar core of :func:`credible_interval`; returns ``(lower, upper)``."""
    a = n_pos + 1.0
    b = n_neg + 1.0
    # T(u) = P(mu <= u) + P(mu >= 1 - u) = P(H(mu) <= H(u)), increasing on [0, 1/2].
    u_lo = _solve_increasing(1, a, b, delta, 0.0, 0.5)
    u_up = _solve_increasing(1, a, b, 1.0 - delta, 0.0, 0.5)
    return heterogeneity_nb(u_lo, kind), heterogeneity_nb(u_up, kind)


@njit(cache=True)
def _credible_interval_array(n_pos, n_neg, delta, kind, lo, up):
    for i in range(n_pos.size):
        lo[i], up[i] = credible_interval_nb(n_pos[i], n_neg[i], delta[i], kind)


def credible_interval(n_pos, n_neg, delta, heterogeneity="entropy"):
    r"""001 eqs. (3)-(4): Bayesian credible interval of the heterogeneity of a subset.

    With a uniform prior the posterior of the Bernoulli parameter is
    :math:`\mu \sim \mathrm{Beta}(n_{pos}+1, n_{neg}+1)` (001 writes
    :math:`T\hat\mu + 1,\ T(1-\hat\mu) + 1`).  For a heterogeneity ``H`` that is concave,
    symmetric about 1/2 and zero at 0 and 1,

    .. math:: f(\epsilon) = P(H(\mu)\ge\epsilon) = I_{\mu_{upp}(\epsilon)} - I_{\mu_{low}(\epsilon)}
       \quad (3), \qquad \epsilon(\delta) = f^{-1}(\delta) \quad (4)

    and the interval is :math:`[\epsilon(1-\delta), \epsilon(\delta)]`, posterior probability
    exactly ``1 - 2 delta``.  Returns ``(lower, upper)``.  ``heterogeneity`` is ``"entropy"``
    (nats), ``"variance"`` or ``"std"``.

    **Reading.** 001 first writes :math:`P(\mu_s \ge \epsilon_s) = I_{\epsilon_s}(\cdot)`; the
    regularised incomplete beta function is the CDF, so this is :math:`P(\mu_s \le \epsilon_s)`
    (as 001 itself writes in Sec. IV).  Eq. (3) is correct with the CDF.

    This is a posterior statement.  As a frequentist confidence interval it can fail badly:
    the upper end is always below :math:`H(1/2)` and the lower end always above 0, so the
    interval never covers the heterogeneity of a subset with :math:`\mu = 1/2` or a pure one.

    Parameters
    ----------
    n_pos, n_neg : counts of labels 1 and 0, ``>= 0`` (real values allowed, e.g. weights).
    delta : in ``(0, 1/2)`` so that ``1 - 2 delta > 0``.

    Examples
    --------
    >>> lo, up = credible_interval(0, 0, 0.05, "variance")   # uniform prior: H(delta/2), H(1/2 - delta/2)
    >>> round(lo, 6), round(up, 6)
    (0.024375, 0.249375)
    """
    code = _kind("heterogeneity", heterogeneity, HETEROGENEITY_CODES)
    p_, n_ = _nonnegative("n_pos", n_pos), _nonnegative("n_neg", n_neg)
    d_ = _open_unit("delta", delta, upper=0.5)
    p_b, n_b, d_b = _flat_broadcast(p_, n_, d_)
    shape = np.broadcast_shapes(p_.shape, n_.shape, d_.shape)
    lo = np.empty(shape)
    up = np.empty(shape)
    _credible_interval_array(p_b, n_b, d_b, code, lo.reshape(-1), up.reshape(-1))
    return _finish(lo, n_pos, n_neg, delta), _finish(up, n_pos, n_neg, delta)


@njit(cache=True)
def risk_upper_nb(n_pos, n_neg, delta, weight):
    """Scalar core of :func:`risk_upper`."""
    a = n_pos + 1.0
    b = n_neg + 1.0
    if n_pos >= n_neg:  # predicted label 1 (round half up): risk W (1 - mu), 1 - mu ~ Beta(b, a)
        return weight * beta_upper_quantile_nb(b, a, delta)
    return weight * beta_upper_quantile_nb(a, b, delta)


@njit(cache=True)
def _risk_upper_array(n_pos, n_neg, delta, weight, out):
    for i in range(n_pos.size):
        out[i] = risk_upper_nb(n_pos[i], n_neg[i], delta[i], weight[i])


def risk_upper(n_pos, n_neg, delta, weight=1.0):
    r"""001 eq. (7): credible upper bound of the true risk of a leaf (BOCT-AL selection).

    The leaf predicts :math:`[\hat\mu]` (round operator); its true risk is :math:`W\mu` when it
    predicts 0 and :math:`W(1-\mu)` when it predicts 1, with posterior
    :math:`\mu\sim\mathrm{Beta}(n_{pos}+1, n_{neg}+1)`.  The bound :math:`\epsilon(\delta_2)`
    satisfies :math:`P(R \ge \epsilon(\delta_2)) = \delta_2`:

    .. math:: \epsilon(\delta_2) = W\,\mathcal I^{-1}(1-\delta_2; \alpha, \beta) \text{ if }
       [\hat\mu]=0, \qquad W\bigl(1-\mathcal I^{-1}(\delta_2;\alpha,\beta)\bigr) \text{ if }
       [\hat\mu]=1.

    The second branch is evaluated as :math:`W\,\mathcal I^{-1}(1-\delta_2;\beta,\alpha)`
    (same number, no cancellation).  At :math:`\hat\mu = 1/2` (including an empty leaf) the two
    branches give the same value, so the rounding convention does not matter for the bound.
    Verified: eq. (7) is correct as printed.  It is a posterior bound: at a fixed
    :math:`\mu` its frequentist failure rate can exceed :math:`\delta_2`.

    Parameters
    ----------
    n_pos, n_neg : label counts of the leaf, ``>= 0``.  delta : :math:`\delta_2` in ``(0, 1)``.
    weight : the leaf's size :math:`W_k` (001 eq. 5), ``>= 0``.
    """
    p_, n_ = _nonnegative("n_pos", n_pos), _nonnegative("n_neg", n_neg)
    d_ = _open_unit("delta", delta)
    w_ = _nonnegative("weight", weight)
    out = np.empty(np.broadcast_shapes(p_.shape, n_.shape, d_.shape, w_.shape))
    _risk_upper_array(*_flat_broadcast(p_, n_, d_, w_), out.reshape(-1))
    return _finish(out, n_pos, n_neg, delta, weight)
