r"""Does a bound survive optional stopping?  :func:`repeated_coverage` checks it under repeated looks.

:func:`workbench.montecarlo.check_bound` tests a bound at one fixed sample size.  A leaf tests
its bound again and again, so the claim a tree needs is that **no look** is fooled: with
:math:`\hat\Phi_n` the statistic after ``n`` examples and :math:`\varepsilon_k` the radius of the
``k``-th look (at ``n_k = k * every``),

.. math:: P\bigl(\exists k \le n_{max}/every:\ |\hat\Phi_{n_k} - \Phi| > \varepsilon_k\bigr)
   \le \delta .

Each trial draws one stream of examples (one at a time, from the law), looks every ``every``
examples, and records the first look whose deviation left the radius.  The violation rate is
tested against ``delta`` with the exact one-sided binomial test, as ``check_bound`` does.

Statistics: ``"mean"`` (the sample mean of Bernoulli(``law``) variables), ``"gini"`` and
``"entropy"`` (the plug-in conditional Gini index, and the conditional entropy in bits, of a
``(K, B)`` table law of label and branch, a vector meaning ``B = 1``).
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._rng import categorical, seed_state
from ._stats import binom_greater_pvalue, require_int, require_open_unit, require_seed

STATISTICS = ("mean", "gini", "entropy")
SIDES = ("two-sided", "upper")
_KIND = {"mean": 0, "gini": 1, "entropy": 2}

#: the built-in radii by name: (n, delta, looks, K, B) -> epsilon, for one statistic
NAMED = {
    "hoeffding": lambda n, d, k, K, B: _bounds.hoeffding_nb(n, d, 1.0),
    "hoeffding_looks": lambda n, d, k, K, B: _bounds.hoeffding_looks_nb(n, d, 1.0, k, 1, 0, 0),
    "stitched": lambda n, d, k, K, B: _bounds.stitched_nb(n, d, 0.5, _bounds.anytime.CS_N0),
    "gini": lambda n, d, k, K, B: _bounds.gini_nb(n, d),
    "gini_looks": lambda n, d, k, K, B: _bounds.gini_looks_nb(n, d, k, 1, 0, 0),
    "entropy_looks": lambda n, d, k, K, B: _bounds.entropy_looks_nb(n, d, k, 1, 0, 0),
    "cs_gini": lambda n, d, k, K, B: _bounds.cs_gini_nb(n, d, K, B, 1, 0, 0),
    "cs_entropy": lambda n, d, k, K, B: _bounds.cs_entropy_nb(n, d, K, B, 1, 0, 0),
}


@njit(cache=True)
def _conditional(counts, K, B, kind):
    """The plug-in conditional impurity of a flat (K, B) count table (row-major)."""
    m = 0.0
    for i in range(counts.size):
        m += counts[i]
    tot = 0.0
    for b in range(B):
        nb = 0.0
        for k in range(K):
            nb += counts[k * B + b]
        if nb == 0.0:
            continue
        if kind == 1:
            s = 0.0
            for k in range(K):
                s += (counts[k * B + b] / nb) ** 2
            tot += nb / m * (1.0 - s)
        else:
            h = 0.0
            for k in range(K):
                c = counts[k * B + b]
                if c > 0.0:
                    h -= c / m * math.log2(c / nb)
            tot += h
    return tot


@njit(parallel=True, cache=True)
def _repeated_kernel(cum, K, B, kind, truth, eps, every, two_sided, trials, seed, first):
    n_looks = eps.size
    for tr in prange(trials):
        s = seed_state(seed, tr)
        counts = np.zeros(cum.size)
        first[tr] = 0
        n = 0
        for k in range(n_looks):
            for _ in range(every):
                counts[categorical(s, cum)] += 1.0
            n += every
            if kind == 0:
                value = counts[1] / n
            else:
                value = _conditional(counts, K, B, kind)
            dev = value - truth
            if two_sided:
                dev = abs(dev)
            if dev > eps[k]:
                first[tr] = k + 1
                break


def _table_truth(table, kind):
    p = np.asarray(table, dtype=np.float64)
    if kind == 0:
        return float(p[1])
    K, B = p.shape
    out = _conditional(np.ascontiguousarray(p.ravel() * 1.0), K, B, kind)
    return float(out)


def repeated_coverage(
    bound,
    statistic="mean",
    law=0.5,
    *,
    delta=0.05,
    n_max=10_000,
    every=1,
    trials=20_000,
    seed=0,
    side="two-sided",
    alpha=1e-3,
):
    """Monte Carlo of a bound under optional stopping (module docstring).

    Parameters
    ----------
    bound : a name of :data:`NAMED` (``"hoeffding"`` and 000's ``"gini"`` are fixed-``n``
        bounds, the others :mod:`workbench.bounds.anytime`'s), or a function
        ``(n, looks) -> epsilon`` evaluated in Python at every look beforehand.
    statistic : ``"mean"`` (``law`` = p of a Bernoulli), ``"gini"`` or ``"entropy"`` (``law``
        a probability vector or a ``(K, B)`` table of label x branch).
    delta : the confidence the bound gets.  n_max, every : looks at ``every, 2 every, ...,
        n_max``.  trials, seed : trial ``t`` draws from its own stream ``(seed, t)``.
    side : ``"two-sided"`` (|deviation| > epsilon) or ``"upper"`` (deviation > epsilon).
    alpha : the level of the exact binomial test of ``H0: rate <= delta``.

    Returns a dict: ``violations`` (trials whose some look left the radius), ``rate``,
    ``upper_limit`` (one-sided Clopper-Pearson at ``1 - alpha``), ``p_value``, ``verdict``
    (``"violated"`` when ``p_value < alpha``, else ``"holds"``), ``looks``, ``first_looks``
    (per trial: the first look that left the radius, 0 if none) and ``seconds``.
    """
    from scipy import stats

    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {STATISTICS}; got {statistic!r}")
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}; got {side!r}")
    delta = require_open_unit("delta", delta)
    n_max = require_int("n_max", n_max, 1)
    every = require_int("every", every, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    alpha = require_open_unit("alpha", alpha)
    kind = _KIND[statistic]
    if kind == 0:
        p = float(law)
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"law must be a probability for statistic 'mean'; got {law!r}")
        table = np.array([1.0 - p, p])
        K, B = 2, 1
    else:
        table = np.asarray(law, dtype=np.float64)
        if table.ndim == 1:
            table = table[:, None]
        if table.ndim != 2 or table.shape[0] < 2:
            raise ValueError(f"law must be a (K, B) table with K >= 2; got shape {table.shape}")
        if (table < 0).any() or abs(table.sum() - 1.0) > 1e-9:
            raise ValueError("law must hold non-negative probabilities summing to 1")
        K, B = table.shape
    truth = _table_truth(table, kind)
    n_looks = n_max // every
    if n_looks < 1:
        raise ValueError(f"every = {every} leaves no look up to n_max = {n_max}")
    if isinstance(bound, str):
        if bound not in NAMED:
            raise ValueError(f"bound must be a function or one of {sorted(NAMED)}; got {bound!r}")
        fn = NAMED[bound]
        eps = [fn(float(every * (k + 1)), delta, k + 1, K, B) for k in range(n_looks)]
    elif callable(bound):
        eps = [float(bound(float(every * (k + 1)), k + 1)) for k in range(n_looks)]
    else:
        raise ValueError(f"bound must be a name or a function (n, looks) -> epsilon; got {bound!r}")
    eps = np.asarray(eps, dtype=np.float64)
    if not (eps >= 0).all():
        raise ValueError("the bound returned a negative or NaN epsilon")
    cum = np.cumsum(table.ravel())
    cum[-1] = 1.0
    first = np.empty(trials, np.int64)
    t0 = time.perf_counter()
    _repeated_kernel(cum, K, B, kind, truth, eps, every, side == "two-sided", trials, seed, first)
    secs = time.perf_counter() - t0
    k = int((first > 0).sum())
    p_value = binom_greater_pvalue(k, trials, delta)
    upper = 1.0 if k >= trials else float(stats.beta.ppf(1.0 - alpha, k + 1, trials - k))
    return {
        "bound": bound if isinstance(bound, str) else getattr(bound, "__name__", "bound"),
        "statistic": statistic,
        "delta": delta,
        "n_max": n_max,
        "every": every,
        "looks": n_looks,
        "trials": trials,
        "violations": k,
        "rate": k / trials,
        "upper_limit": upper,
        "p_value": p_value,
        "verdict": "violated" if p_value < alpha else "holds",
        "first_looks": first,
        "seconds": secs,
    }
