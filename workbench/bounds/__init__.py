r"""Closed-form confidence bounds of the five papers.

Every bound exists twice, from one source:

* a scalar numba core ``<name>_nb`` (``@njit(cache=True)``) that tree kernels call from inside
  their own jitted loops, with no argument checking, and
* a public Python function ``<name>`` that checks its arguments (a ``ValueError`` names the bad
  one), broadcasts them with numpy and returns a ``float`` when every argument is a scalar,
  an ``ndarray`` otherwise.

For the arithmetic bounds the Python function evaluates the *same* body as the core (the core's
``py_func``, which only uses ``np.log``/``np.sqrt`` and so broadcasts over arrays); the
iterative ones (credible intervals, risk bound) loop over the broadcast arrays in a jitted kernel.
Nothing is compiled at import time: numba compiles a core the first time it is called (or loads it
from its on-disk cache).

Notation follows the papers: ``m`` examples at a leaf, confidence parameter ``delta``, depth ``h``
of the leaf, ``t`` examples seen by the whole tree, ``d`` features.  Papers: 000 De Rosa,
*Confidence Decision Trees via Online and Active Learning*; 001 Collet & Pietquin, *Bayesian
Credible Intervals for Online and Active Learning of Classification Trees*; 002 Gama, Medas &
Rocha, *Ultra Fast Forest Trees* (DDM after Gama et al. 2004); 003 Izenov, *Frugal Hoeffding
tree*; 004 *Extremely Fast Decision Tree* (Hoeffding Anytime Tree).

Where a formula as printed does not hold, the function implements the reading that does and its
docstring says so; ``docs/bounds_findings.md`` has the evidence.

Numba scalar cores (for kernels)
--------------------------------
``hoeffding_nb(m, delta, R)``, ``mcdiarmid_entropy_nb(m, delta, n_classes)``,
``entropy_nb(m, delta)``, ``gini_nb(m, delta)``, ``kearns_mansour_nb(m, delta)``,
``ctree_epsilon_nb(m, delta, depth, t, d, kind)`` (``kind`` is ``BOUND_ENTROPY``,
``BOUND_GINI`` or ``BOUND_KEARNS_MANSOUR``), ``ctree_practical_nb(m, depth, t, d, c)``,
``leaf_consistency_nb(m, t, delta)``, ``credible_interval_nb(n_pos, n_neg, delta, kind)``
returning ``(lower, upper)`` (``kind`` is ``HET_ENTROPY``, ``HET_VARIANCE`` or ``HET_STD``),
``risk_upper_nb(n_pos, n_neg, delta, weight)``, ``ddm_levels_nb(p, s, p_min, s_min, strict)``
returning ``(warning, drift)``, ``heterogeneity_nb(mu, kind)``, and the special functions
``betainc_nb(a, b, x)`` (regularised incomplete beta), ``betaincinv_nb(a, b, y)`` and
``beta_upper_quantile_nb(a, b, delta)``.

Examples
--------
>>> from workbench import bounds
>>> round(bounds.hoeffding(200, 1e-7), 4)
0.2007
>>> lo, up = bounds.credible_interval(30, 10, 0.05, heterogeneity="variance")
>>> bool(lo < 0.75 * 0.25 < up)
True
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

__all__ = [
    # public, vectorised, validated
    "hoeffding", "mcdiarmid_entropy", "entropy", "gini", "kearns_mansour",
    "ctree_epsilon", "ctree_practical", "leaf_consistency",
    "credible_interval", "risk_upper", "ddm_levels", "heterogeneity",
    # numba scalar cores
    "hoeffding_nb", "mcdiarmid_entropy_nb", "entropy_nb", "gini_nb", "kearns_mansour_nb",
    "ctree_epsilon_nb", "ctree_practical_nb", "leaf_consistency_nb",
    "credible_interval_nb", "risk_upper_nb", "ddm_levels_nb", "heterogeneity_nb",
    "betainc_nb", "betaincinv_nb", "beta_upper_quantile_nb",
    # integer codes understood by the cores
    "BOUND_ENTROPY", "BOUND_GINI", "BOUND_KEARNS_MANSOUR",
    "HET_ENTROPY", "HET_VARIANCE", "HET_STD",
    "BOUND_CODES", "HETEROGENEITY_CODES",
]

BOUND_ENTROPY = 0
BOUND_GINI = 1
BOUND_KEARNS_MANSOUR = 2
BOUND_CODES = {"entropy": BOUND_ENTROPY, "gini": BOUND_GINI,
               "kearns_mansour": BOUND_KEARNS_MANSOUR}

HET_ENTROPY = 0
HET_VARIANCE = 1
HET_STD = 2
HETEROGENEITY_CODES = {"entropy": HET_ENTROPY, "variance": HET_VARIANCE, "std": HET_STD}

_LN2 = math.log(2.0)


# =============================================================================================
# Argument checking and broadcasting
# =============================================================================================

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
        raise ValueError(f"{name} must lie in the open interval (0, {upper:g}), "
                         f"got {_first_bad(a, bad)}")
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


# =============================================================================================
# Hoeffding and McDiarmid
# =============================================================================================

@njit(cache=True)
def hoeffding_nb(m, delta, R):
    """Scalar core of :func:`hoeffding`."""
    return R * np.sqrt(np.log(1.0 / delta) / (2.0 * m))


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
    return _finish(hoeffding_nb.py_func(m_, d_, r_), m, delta, R)


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

    with ``K = n_classes``.  It bounds ``|G_hat - E G_hat|`` for the information gain in bits
    (not ``|G_hat - G|``: the bias is not covered, as 000 remarks).  For two classes it exceeds
    1 bit, the whole range of the gain, until ``m`` is about 14,000 (at ``delta = 0.1``).

    Examples
    --------
    >>> mcdiarmid_entropy(100, 0.1, 2) > 1.0   # vacuous: the gain lies in [0, 1] bit
    True
    """
    m_, d_ = _positive("m", m), _open_unit("delta", delta)
    k_ = _integer("n_classes", n_classes, 2)
    return _finish(mcdiarmid_entropy_nb.py_func(m_, d_, k_), m, delta, n_classes)


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
        raise ValueError(f"m must be >= 1 for the entropy bound (ln m < 0 below 1), "
                         f"got {_first_bad(m_, m_ < 1)}")
    return _finish(entropy_nb.py_func(m_, d_), m, delta)


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
    return _finish(gini_nb.py_func(m_, d_), m, delta)


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
    return _finish(kearns_mansour_nb.py_func(m_, d_), m, delta)


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
    dd = dl_ / ((h_ + 1.0) * (h_ + 2.0) * t_ * d_ * m_)
    core = {BOUND_ENTROPY: entropy_nb, BOUND_GINI: gini_nb,
            BOUND_KEARNS_MANSOUR: kearns_mansour_nb}[code]
    return _finish(core.py_func(m_, dd), m, delta, depth, t, d)


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
    return _finish(ctree_practical_nb.py_func(m_, h_, t_, d_, c_), m, depth, t, d, c)


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
    return _finish(leaf_consistency_nb.py_func(m_, t_, d_), m, t, delta)


# =============================================================================================
# 001: Beta-posterior credible intervals
# =============================================================================================

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
    if n_pos >= n_neg:   # predicted label 1 (round half up): risk W (1 - mu), 1 - mu ~ Beta(b, a)
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


# =============================================================================================
# DDM (Gama et al. 2004, used at UFFT's inner nodes in 002)
# =============================================================================================

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
    w, dr = ddm_levels_nb.py_func(p_, s_, pm_, sm_, bool(strict))
    if all(np.ndim(a) == 0 for a in (p, s, p_min, s_min)):
        return bool(w), bool(dr)
    return np.asarray(w), np.asarray(dr)
