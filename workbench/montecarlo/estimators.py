r"""Monte Carlo of the plug-in split estimators of 000 Theorems 1-3 (and the information gain).

A *law* is the joint distribution of the label ``Y`` (rows, ``K`` classes) and the split outcome
``F`` (columns, ``B`` branches), a ``(K, B)`` table of probabilities.  A trial draws ``m``
examples from it, tallies the table of counts and evaluates, from those counts,

=============================  ==================================================================
``entropy``                    :math:`\widehat H_{1/2}(Y,F) - \widehat H_{1/2}(F)` (000 Thm 1), the
                               joint-minus-marginal plug-in of :math:`H_{1/2}(Y\mid F)` (nats / 2)
``gini``                       :math:`\sum_k \mathrm{hm}(\hat p_k, \hat q_k)` with
                               :math:`q_k = P(Y=0,F=k)` (000 Thm 2), i.e. the plug-in conditional
                               Gini index :math:`J(Y\mid F)`
``kearns_mansour``             :math:`\sum_k\sqrt{\hat p_k\hat q_k}` (000 Thm 3), plug-in
                               :math:`Q(Y\mid F)`
``info_gain``                  :math:`\widehat H(Y) - \widehat H(Y\mid F)` in bits, the quantity of
                               the McDiarmid bound of 000 eq. (2)
``gini_as_printed``            Thm 2's estimator with 000's printed :math:`q_k = 1 - p_k`
``kearns_mansour_as_printed``  Thm 3's estimator with :math:`q_k = 1 - p_k`
=============================  ==================================================================

Each estimator is compared with the functional the theorem is about (the ``_as_printed`` ones
with the same target as their corrected versions), giving deviations, their quantiles, the bias,
and the probability that a deviation exceeds the bound.  ``gini`` and ``kearns_mansour`` and the
``_as_printed`` variants need two classes; with more classes they are NaN.

Two ways to draw a trial, identical in law: ``method="examples"`` draws each of the ``m``
examples (a categorical draw per example, the literal model; throughput is quoted in examples per
second), ``method="counts"`` draws the multinomial table of counts directly (conditional
binomials by exact inversion), which costs about ``O(sqrt(m))`` per trial and is the way to go
for large ``m``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._rng import categorical, derive_seed, multinomial, seed_state
from ._stats import binom_greater_pvalue, require_int, require_open_unit, require_seed

ESTIMATORS = (
    "entropy",
    "gini",
    "kearns_mansour",
    "info_gain",
    "gini_as_printed",
    "kearns_mansour_as_printed",
)
_N_EST = len(ESTIMATORS)

#: which bound of ``workbench.bounds`` each estimator is checked against
BOUND_OF = {
    "entropy": "entropy",
    "gini": "gini",
    "kearns_mansour": "kearns_mansour",
    "info_gain": "mcdiarmid_entropy",
    "gini_as_printed": "gini",
    "kearns_mansour_as_printed": "kearns_mansour",
}

_METHODS = {"examples": 0, "counts": 1}


# ---------------------------------------------------------------------------------------------
# Laws
# ---------------------------------------------------------------------------------------------


def joint_law(p_f1, p_y1_given_f0, p_y1_given_f1):
    """The 2x2 table ``P[y, f]`` of a binary label and a binary split.

    ``p_f1 = P(F = 1)``, ``p_y1_given_f0 = P(Y = 1 | F = 0)``, ``p_y1_given_f1 = P(Y = 1 | F = 1)``.

    >>> joint_law(0.5, 0.2, 0.6)
    array([[0.4, 0.2],
           [0.1, 0.3]])
    """
    for name, v in (
        ("p_f1", p_f1),
        ("p_y1_given_f0", p_y1_given_f0),
        ("p_y1_given_f1", p_y1_given_f1),
    ):
        if not (0.0 <= float(v) <= 1.0):
            raise ValueError(f"{name} must lie in [0, 1], got {v!r}")
    pf1 = float(p_f1)
    a, b = float(p_y1_given_f0), float(p_y1_given_f1)
    return np.array([[(1 - a) * (1 - pf1), (1 - b) * pf1], [a * (1 - pf1), b * pf1]])


def check_table(table):
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2 or t.shape[0] < 2 or t.shape[1] < 1:
        raise ValueError(f"table must be a (K >= 2 classes, B branches) array, got shape {t.shape}")
    if not np.isfinite(t).all() or (t < 0).any():
        raise ValueError("table must hold finite non-negative probabilities")
    if abs(t.sum() - 1.0) > 1e-9:
        raise ValueError(f"table must sum to 1, sums to {t.sum()!r}")
    return t / t.sum()


def describe_law(table):
    """``(p_f1, p_y1_given_f0, p_y1_given_f1)`` of a 2x2 table (NaN where undefined)."""
    t = check_table(table)
    if t.shape != (2, 2):
        return (np.nan, np.nan, np.nan)
    col = t.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        cond = t[1] / col
    return (float(col[1]), float(cond[0]), float(cond[1]))


def _xlogx(p):
    p = np.asarray(p, dtype=np.float64)
    out = np.zeros_like(p)
    pos = p > 0
    out[pos] = p[pos] * np.log(p[pos])
    return out


def functionals(table):
    """True values (at the law) of the quantities the estimators estimate, as a dict.

    Computed with numpy from the conditional definitions (not the joint-minus-marginal or
    harmonic-mean identities the estimators use), so it doubles as a check of those identities.
    """
    t = check_table(table)
    K = t.shape[0]
    pf = t.sum(axis=0)
    py = t.sum(axis=1)
    h_cond = 0.0  # H(Y | F) in nats = sum_f P(f) H(Y | F = f)
    gini = 0.0  # J(Y | F) = sum_f P(f) (1 - sum_y P(y|f)^2)
    km = 0.0  # Q(Y | F) = sum_f P(f) sqrt(P(1|f) P(0|f))
    for f in range(t.shape[1]):
        if pf[f] <= 0:
            continue
        cond = t[:, f] / pf[f]
        h_cond += pf[f] * -_xlogx(cond).sum()
        gini += pf[f] * (1.0 - (cond**2).sum())
        if K == 2:
            km += pf[f] * math.sqrt(cond[0] * cond[1])
    h_y = -_xlogx(py).sum()
    out = {
        "entropy": 0.5 * h_cond,
        "gini": gini,
        "kearns_mansour": km if K == 2 else np.nan,
        "info_gain": (h_y - h_cond) / math.log(2.0),
        "gini_as_printed": gini,
        "kearns_mansour_as_printed": km if K == 2 else np.nan,
    }
    if K != 2:
        out["gini_as_printed"] = np.nan
    return out


def limits_as_printed(table):
    """Where the ``_as_printed`` estimators converge: sum_k 2 p_k (1 - p_k), sum_k sqrt(p_k (1 - p_k))."""
    t = check_table(table)
    if t.shape[0] != 2:
        return {"gini_as_printed": np.nan, "kearns_mansour_as_printed": np.nan}
    p = t[1]
    return {
        "gini_as_printed": float((2 * p * (1 - p)).sum()),
        "kearns_mansour_as_printed": float(np.sqrt(p * (1 - p)).sum()),
    }


# ---------------------------------------------------------------------------------------------
# Plug-in estimates (numba)
# ---------------------------------------------------------------------------------------------


@njit(cache=True)
def plugin_nb(counts, K, B, out):
    """Evaluate every estimator on a flat ``(K * B)`` count table (row ``y``, column ``f``)."""
    m = 0
    for j in range(K * B):
        m += counts[j]
    fm = float(m)
    h_joint = 0.0
    for j in range(K * B):
        c = counts[j]
        if c > 0:
            h_joint -= c / fm * math.log(c / fm)
    h_f = 0.0
    gini = 0.0
    for f in range(B):
        nf = 0
        sq = 0.0
        for y in range(K):
            c = counts[y * B + f]
            nf += c
            sq += float(c) * c
        if nf > 0:
            h_f -= nf / fm * math.log(nf / fm)
            gini += (nf - sq / nf) / fm
    h_y = 0.0
    for y in range(K):
        ny = 0
        for f in range(B):
            ny += counts[y * B + f]
        if ny > 0:
            h_y -= ny / fm * math.log(ny / fm)
    h_cond = h_joint - h_f
    out[0] = 0.5 * h_cond
    out[1] = gini
    out[3] = (h_y - h_cond) / math.log(2.0)
    if K == 2:
        km = 0.0
        g_pr = 0.0
        km_pr = 0.0
        for f in range(B):
            p = counts[B + f] / fm  # P(Y = 1, F = f)
            q = counts[f] / fm  # P(Y = 0, F = f)
            km += math.sqrt(p * q)
            g_pr += 2.0 * p * (1.0 - p)  # hm(p, 1 - p)
            km_pr += math.sqrt(p * (1.0 - p))
        out[2] = km
        out[4] = g_pr
        out[5] = km_pr
    else:
        out[2] = np.nan
        out[4] = np.nan
        out[5] = np.nan


def plugin_estimates(counts):
    """All estimators on one ``(K, B)`` table of counts, as a dict (for checking by hand)."""
    c = np.asarray(counts)
    if c.ndim != 2 or c.shape[0] < 2:
        raise ValueError(f"counts must be a (K >= 2, B) array, got shape {c.shape}")
    if (c < 0).any() or c.sum() <= 0:
        raise ValueError("counts must be non-negative with a positive total")
    out = np.empty(_N_EST)
    plugin_nb(np.ascontiguousarray(c, dtype=np.int64).ravel(), c.shape[0], c.shape[1], out)
    return dict(zip(ESTIMATORS, out))


@njit(parallel=True, cache=True)
def _estimator_kernel(probs, K, B, m, trials, seed, method, out):
    cells = K * B
    cum = np.cumsum(probs)
    cum[cells - 1] = 1.0
    for t in prange(trials):
        s = seed_state(seed, t)
        counts = np.zeros(cells, np.int64)
        if method == 0:
            for _ in range(m):
                counts[categorical(s, cum)] += 1
        else:
            multinomial(s, m, probs, counts)
        plugin_nb(counts, K, B, out[t])


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


def bound_value(estimator, m, delta, n_classes=2):
    """The bound an estimator is checked against (see ``BOUND_OF``)."""
    name = BOUND_OF[estimator]
    if name == "mcdiarmid_entropy":
        return _bounds.mcdiarmid_entropy(m, delta, n_classes)
    return getattr(_bounds, name)(m, delta)


@dataclass
class EstimatorSimulation:
    """Result of :func:`simulate_estimators`.

    ``estimates[name]`` holds one value per trial, ``truth[name]`` the functional at the law.
    """

    table: np.ndarray
    m: int
    trials: int
    seed: int
    method: str
    estimates: dict
    truth: dict
    seconds: float = float("nan")
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def examples_per_second(self):
        return self.m * self.trials / self.seconds

    def deviations(self, name, center="truth"):
        """Signed deviations ``estimate - truth`` (or ``- mean`` with ``center="mean"``)."""
        est = self.estimates[name]
        c = self.truth[name] if center == "truth" else est.mean()
        return est - c

    def bias(self, name):
        """Monte Carlo bias ``E[estimate] - truth`` and its standard error."""
        d = self.deviations(name)
        return float(d.mean()), float(d.std(ddof=1) / math.sqrt(d.size))

    def quantile(self, name, level, center="truth"):
        """Empirical ``level``-quantile of ``|deviation|``."""
        return float(np.quantile(np.abs(self.deviations(name, center)), level))

    def exceed(self, name, eps, center="truth"):
        """``(count, probability)`` of ``|deviation| > eps`` over the trials."""
        n = int(np.count_nonzero(np.abs(self.deviations(name, center)) > eps))
        return n, n / self.trials

    def check(self, name, delta, center="truth"):
        """Binomial test of ``P(|deviation| > bound) <= delta`` (one-sided, "greater").

        Returns a dict with the bound, the empirical ``1 - delta`` quantile, the ratio
        ``bound / quantile``, the number and rate of exceedances and the p-value of the test
        (small p-value: the bound is violated).
        """
        n_classes = self.table.shape[0]
        eps = bound_value(name, self.m, delta, n_classes)
        n, rate = self.exceed(name, eps, center)
        q = self.quantile(name, 1.0 - delta, center)
        return {
            "estimator": name,
            "bound_name": BOUND_OF[name],
            "m": self.m,
            "delta": delta,
            "center": center,
            "bound": eps,
            "empirical_quantile": q,
            "ratio": eps / q if q > 0 else np.inf,
            "n_exceed": n,
            "trials": self.trials,
            "p_exceed": rate,
            "p_value": binom_greater_pvalue(n, self.trials, delta),
            "truth": self.truth[name],
            "mean": float(self.estimates[name].mean()),
            "bias": self.bias(name)[0],
            "bias_se": self.bias(name)[1],
            "quantile_reliable": self.trials * delta >= 10,
        }

    def to_frame(self, deltas=(0.05,), estimators=None, center="truth"):
        """Tidy ``pandas.DataFrame``: one row per (estimator, delta)."""
        import pandas as pd

        names = [e for e in (estimators or ESTIMATORS) if np.isfinite(self.truth[e])]
        pf1, a, b = describe_law(self.table)
        rows = []
        for name in names:
            for delta in np.atleast_1d(deltas):
                r = self.check(name, float(delta), center)
                r.update(
                    p_f1=pf1, p_y1_given_f0=a, p_y1_given_f1=b, seed=self.seed, method=self.method
                )
                rows.append(r)
        return pd.DataFrame(rows)


def simulate_estimators(table, m, trials=100_000, seed=0, method="examples"):
    """Draw ``trials`` samples of ``m`` examples from ``table`` and evaluate every estimator.

    Parameters
    ----------
    table : ``(K, B)`` joint law of ``(Y, F)`` (see :func:`joint_law`).
    m : examples per trial, ``>= 1``.
    trials : number of independent samples, ``>= 1``.
    seed : non-negative integer; trial ``k`` uses its own stream ``(seed, k)``, so the result
        does not depend on the number of threads.
    method : ``"examples"`` (draw every example) or ``"counts"`` (draw the multinomial counts).

    Examples
    --------
    >>> sim = simulate_estimators(joint_law(0.5, 0.2, 0.7), m=200, trials=20_000, seed=1)
    >>> r = sim.check("gini", delta=0.05)
    >>> r["p_exceed"] <= 0.05, r["ratio"] > 1
    (True, True)
    """
    import time

    t = check_table(table)
    m = require_int("m", m, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    if method not in _METHODS:
        raise ValueError(f"method must be one of {sorted(_METHODS)}, got {method!r}")
    K, B = t.shape
    out = np.empty((trials, _N_EST))
    t0 = time.perf_counter()
    _estimator_kernel(np.ascontiguousarray(t.ravel()), K, B, m, trials, seed, _METHODS[method], out)
    secs = time.perf_counter() - t0
    est = {name: out[:, i] for i, name in enumerate(ESTIMATORS)}
    return EstimatorSimulation(t, m, trials, seed, method, est, functionals(t), secs)


# ---------------------------------------------------------------------------------------------
# Grids
# ---------------------------------------------------------------------------------------------


def law_grid(n=5, margin=0.0):
    """2x2 laws on a grid: ``P(F=1)`` in ``n`` interior points, ``P(Y=1|F)`` on ``n`` points each.

    Conditional probabilities run over ``[margin, 1 - margin]`` (``margin=0`` includes the pure
    branches), ``P(F=1)`` over ``(0, 1)`` excluding the ends.  Returns a list of tables.
    """
    n = require_int("n", n, 2)
    pf = (np.arange(n) + 0.5) / n
    cond = np.linspace(margin, 1.0 - margin, n)
    return [joint_law(f, a, b) for f in pf for a in cond for b in cond]


def estimator_grid(
    tables, ms, deltas, trials=20_000, seed=0, method="examples", estimators=None, center="truth"
):
    """Run :func:`simulate_estimators` over laws x sample sizes; return one tidy DataFrame.

    Columns: ``law`` (index into ``tables``), ``p_f1``, ``p_y1_given_f0``, ``p_y1_given_f1``,
    ``m``, ``delta``, ``estimator``, ``bound_name``, ``bound``, ``empirical_quantile`` (the
    ``1 - delta`` quantile of ``|deviation|``), ``ratio`` (``bound / quantile``: how many times
    too wide the bound is), ``n_exceed``, ``p_exceed``, ``p_value`` (one-sided binomial test of
    ``p_exceed <= delta``), ``truth``, ``mean``, ``bias``, ``bias_se``.

    A notebook plots it in one line, e.g.
    ``df.query("estimator == 'gini' and law == 0").plot(x="m", y=["bound", "empirical_quantile"], logx=True)``.
    """
    import pandas as pd

    frames = []
    for i, table in enumerate(tables):
        for j, m in enumerate(np.atleast_1d(ms)):
            sim = simulate_estimators(table, int(m), trials, derive_seed(seed, i, j), method)
            df = sim.to_frame(deltas, estimators, center)
            df.insert(0, "law", i)
            frames.append(df)
    return pd.concat(frames, ignore_index=True)


def tightest_law(estimator, m, delta, n=7, trials=4000, seed=0, method="examples"):
    """Search :func:`law_grid` for the law with the largest ``1 - delta`` quantile of
    ``|deviation|`` of ``estimator`` (the law where its bound is tightest at this ``m``).

    Returns ``(table, quantile, frame)`` where ``frame`` lists every law of the grid.
    """
    if estimator not in ESTIMATORS:
        raise ValueError(f"estimator must be one of {ESTIMATORS}, got {estimator!r}")
    require_open_unit("delta", delta)
    tables = law_grid(n)
    df = estimator_grid(tables, [m], [delta], trials, seed, method, [estimator])
    best = int(df["empirical_quantile"].to_numpy().argmax())
    return tables[int(df["law"].iloc[best])], float(df["empirical_quantile"].iloc[best]), df
