r"""Coverage of 001's Bayesian credible intervals and credible risk bound.

Two notions of coverage:

* **Bayesian** (the paper's claim): draw the Bernoulli parameter :math:`\mu` from the uniform
  prior, then ``n`` labels; the interval of 001 eqs. (3)-(4) contains :math:`H(\mu)` with
  probability exactly ``1 - 2 delta``, and each end is crossed with probability exactly ``delta``;
  the risk bound of eq. (7) is exceeded with probability exactly ``delta``.
* **frequentist**: at a fixed :math:`\mu`, the probability over the labels only.  No guarantee is
  claimed and none holds: at :math:`\mu = 1/2` or :math:`\mu \in \{0, 1\}` the heterogeneity
  interval never covers.

Each simulation also has an exact counterpart by enumeration of the ``n + 1`` possible counts.
``boct_null_split`` measures how often BOCT's split rule (001 Sec. III, Fig. 3) installs a test
whose two children have the same parameter, against the ``3 delta`` of its guarantee.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._rng import binomial, seed_state, uniform
from ._stats import (
    binom_greater_pvalue,
    binom_two_sided_pvalue,
    require_closed_unit,
    require_int,
    require_open_unit,
    require_seed,
)

_QUANTITY_HET = 0
_QUANTITY_RISK = 1


@njit(parallel=True, cache=True)
def _posterior_kernel(lo, up, n, quantity, kind, mu_fixed, bayes, trials, seed, codes):
    # codes[t]: 0 inside, 1 below the lower end, 2 above the upper end
    for t in prange(trials):
        s = seed_state(seed, t)
        mu = uniform(s) if bayes else mu_fixed
        k = binomial(s, n, mu)
        if quantity == _QUANTITY_HET:
            x = _bounds.heterogeneity_nb(mu, kind)
        else:
            x = (1.0 - mu) if 2 * k >= n else mu  # risk of the predicted label (W = 1)
        if x < lo[k]:
            codes[t] = 1
        elif x > up[k]:
            codes[t] = 2
        else:
            codes[t] = 0


def interval_table(n, delta, heterogeneity="entropy"):
    """Credible intervals for every count ``k = 0..n`` of positives: arrays ``(lower, upper)``."""
    k = np.arange(n + 1, dtype=np.float64)
    lo, up = _bounds.credible_interval(k, n - k, delta, heterogeneity)
    return np.atleast_1d(lo), np.atleast_1d(up)


def risk_table(n, delta):
    """Credible upper bounds of the risk (``W = 1``) for every count ``k = 0..n``."""
    k = np.arange(n + 1, dtype=np.float64)
    return np.atleast_1d(_bounds.risk_upper(k, n - k, delta, 1.0))


@dataclass
class CoverageResult:
    """Outcome of a coverage simulation: counts of misses below and above, and tests.

    ``expected_miss`` is the per-side miss probability the Bayesian claim predicts (``delta``)."""

    kind: str  # "bayes" or "frequentist"
    quantity: str  # heterogeneity name or "risk"
    n: int
    delta: float
    mu: float  # NaN for the Bayesian run
    trials: int
    below: int
    above: int
    seconds: float
    exact_below: float = np.nan
    exact_above: float = np.nan

    @property
    def coverage(self):
        return 1.0 - (self.below + self.above) / self.trials

    @property
    def exact_coverage(self):
        return 1.0 - self.exact_below - self.exact_above

    def summary(self):
        d = {
            "kind": self.kind,
            "quantity": self.quantity,
            "n": self.n,
            "delta": self.delta,
            "mu": self.mu,
            "trials": self.trials,
            "coverage": self.coverage,
            "p_below": self.below / self.trials,
            "p_above": self.above / self.trials,
            "exact_coverage": self.exact_coverage,
            "exact_below": self.exact_below,
            "exact_above": self.exact_above,
        }
        if self.quantity == "risk":
            d["nominal_coverage"] = 1.0 - self.delta
            d["p_value_exceed"] = binom_greater_pvalue(self.above, self.trials, self.delta)
            d["p_value_two_sided"] = binom_two_sided_pvalue(self.above, self.trials, self.delta)
        else:
            d["nominal_coverage"] = 1.0 - 2.0 * self.delta
            misses = self.below + self.above
            d["p_value_exceed"] = binom_greater_pvalue(misses, self.trials, 2 * self.delta)
            d["p_value_two_sided"] = binom_two_sided_pvalue(misses, self.trials, 2 * self.delta)
            d["p_value_below"] = binom_two_sided_pvalue(self.below, self.trials, self.delta)
            d["p_value_above"] = binom_two_sided_pvalue(self.above, self.trials, self.delta)
        return d


def _run(n, delta, quantity, heterogeneity, mu, trials, seed):
    n = require_int("n", n, 0)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    if quantity == "risk":
        require_open_unit("delta", delta)
        up = risk_table(n, delta)
        lo = np.full(n + 1, -np.inf)
        qcode, kind = _QUANTITY_RISK, 0
    else:
        require_open_unit("delta", delta, upper=0.5)
        lo, up = interval_table(n, delta, heterogeneity)
        qcode, kind = _QUANTITY_HET, _bounds.HETEROGENEITY_CODES[heterogeneity]
    bayes = mu is None
    mu_f = 0.0 if bayes else require_closed_unit("mu", mu)
    codes = np.empty(trials, np.int8)
    t0 = time.perf_counter()
    _posterior_kernel(lo, up, n, qcode, kind, mu_f, bayes, trials, seed, codes)
    secs = time.perf_counter() - t0
    below = int(np.count_nonzero(codes == 1))
    above = int(np.count_nonzero(codes == 2))
    res = CoverageResult(
        "bayes" if bayes else "frequentist",
        "risk" if quantity == "risk" else heterogeneity,
        n,
        float(delta),
        np.nan if bayes else mu_f,
        trials,
        below,
        above,
        secs,
    )
    if bayes:
        res.exact_below = float(delta) if quantity != "risk" else 0.0
        res.exact_above = float(delta)
    else:
        res.exact_below, res.exact_above = _exact_frequentist(lo, up, n, mu_f, qcode, kind)
    return res


def _exact_frequentist(lo, up, n, mu, qcode, kind):
    from scipy.stats import binom

    k = np.arange(n + 1)
    pmf = binom.pmf(k, n, mu)
    if qcode == _QUANTITY_HET:
        x = np.full(n + 1, _bounds.heterogeneity_nb(mu, kind))
    else:
        x = np.where(2 * k >= n, 1.0 - mu, mu)
    return float(pmf[x < lo].sum()), float(pmf[x > up].sum())


def credible_coverage(n, delta, heterogeneity="entropy", mu=None, trials=200_000, seed=0):
    """Coverage of 001's credible interval of the heterogeneity after ``n`` labels.

    ``mu=None``: Bayesian coverage (``mu`` from the uniform prior; should be exactly
    ``1 - 2 delta``).  A number ``mu``: frequentist coverage at that parameter (also computed
    exactly by enumeration, ``exact_coverage``).

    >>> r = credible_coverage(20, 0.05, "entropy", trials=100_000, seed=1)
    >>> abs(r.coverage - 0.9) < 0.005
    True
    """
    if heterogeneity not in _bounds.HETEROGENEITY_CODES:
        raise ValueError(
            f"heterogeneity must be one of {sorted(_bounds.HETEROGENEITY_CODES)}, "
            f"got {heterogeneity!r}"
        )
    return _run(n, delta, "het", heterogeneity, mu, trials, seed)


def risk_coverage(n, delta, mu=None, trials=200_000, seed=0):
    """How often the true risk of a leaf exceeds 001 eq. (7)'s credible upper bound.

    ``mu=None``: Bayesian (exactly ``delta``); a number: frequentist at that parameter.
    """
    return _run(n, delta, "risk", None, mu, trials, seed)


def coverage_curve(n, delta, mus, heterogeneity="entropy", trials=20_000, seed=0):
    """Frequentist coverage over a grid of ``mus`` (Monte Carlo and exact), as a DataFrame."""
    import pandas as pd

    from .._rng import derive_seed

    rows = []
    for i, mu in enumerate(np.atleast_1d(mus)):
        if heterogeneity == "risk":
            r = risk_coverage(n, delta, float(mu), trials, derive_seed(seed, i))
        else:
            r = credible_coverage(n, delta, heterogeneity, float(mu), trials, derive_seed(seed, i))
        rows.append(r.summary())
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# BOCT's split rule on a useless split
# ---------------------------------------------------------------------------------------------


@njit(parallel=True, cache=True)
def _null_split_kernel(mu, n1, n2, up1, up2, lo_p, trials, seed, fired):
    for t in prange(trials):
        s = seed_state(seed, t)
        k1 = binomial(s, n1, mu)
        k2 = binomial(s, n2, mu)
        fired[t] = (n1 + n2) * lo_p[k1 + k2] > n1 * up1[k1] + n2 * up2[k2]


@dataclass
class NullSplitResult:
    mu: float
    n1: int
    n2: int
    delta: float
    heterogeneity: str
    parent: str
    trials: int
    n_fired: int
    exact_rate: float
    seconds: float

    def summary(self):
        return {
            "mu": self.mu,
            "n1": self.n1,
            "n2": self.n2,
            "delta": self.delta,
            "heterogeneity": self.heterogeneity,
            "parent": self.parent,
            "trials": self.trials,
            "rate": self.n_fired / self.trials,
            "exact_rate": self.exact_rate,
            "claimed": 3 * self.delta,
            "p_value_exceed": binom_greater_pvalue(self.n_fired, self.trials, 3 * self.delta),
            "p_value_vs_exact": binom_two_sided_pvalue(
                self.n_fired, self.trials, min(max(self.exact_rate, 0.0), 1.0)
            ),
        }


def boct_null_split(
    mu, n1, n2, delta, heterogeneity="entropy", parent="lower", trials=200_000, seed=0
):
    r"""Rate at which BOCT installs a split whose children share the parameter ``mu``.

    The children receive ``n1`` and ``n2`` labels, weights :math:`W = T` (counts), and the rule of
    001 Fig. 3 fires when :math:`W_p\,\epsilon_p(1-\delta) > W_{c_1}\epsilon_{c_1}(\delta) +
    W_{c_2}\epsilon_{c_2}(\delta)`.  Such a split does not lower the true weighted heterogeneity
    (condition (6) fails with equality), so firing is the error the ``3 delta`` guarantee is meant
    to control.  Returns Monte Carlo and exact (enumeration) rates.

    ``parent="lower"`` uses the parent's lower end :math:`\epsilon_p(1-\delta)` (Fig. 3, the
    reading under which the ``3 delta`` argument works); ``parent="upper"`` uses
    :math:`\epsilon_p(\delta)` as 001's text prints the rule.
    """
    from scipy.stats import binom

    mu = require_closed_unit("mu", mu)
    n1 = require_int("n1", n1, 1)
    n2 = require_int("n2", n2, 1)
    require_open_unit("delta", delta, upper=0.5)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    _, up1 = interval_table(n1, delta, heterogeneity)
    _, up2 = interval_table(n2, delta, heterogeneity)
    if parent not in ("lower", "upper"):
        raise ValueError(f"parent must be 'lower' or 'upper', got {parent!r}")
    lo_p, up_p = interval_table(n1 + n2, delta, heterogeneity)
    if parent == "upper":
        lo_p = up_p
    k1 = np.arange(n1 + 1)[:, None]
    k2 = np.arange(n2 + 1)[None, :]
    fire = (n1 + n2) * lo_p[k1 + k2] > n1 * up1[k1] + n2 * up2[k2]
    exact = float((binom.pmf(k1, n1, mu) * binom.pmf(k2, n2, mu) * fire).sum())
    fired = np.empty(trials, np.bool_)
    t0 = time.perf_counter()
    _null_split_kernel(mu, n1, n2, up1, up2, lo_p, trials, seed, fired)
    return NullSplitResult(
        mu,
        n1,
        n2,
        float(delta),
        heterogeneity,
        parent,
        trials,
        int(fired.sum()),
        exact,
        time.perf_counter() - t0,
    )
