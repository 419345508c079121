r"""Monte Carlo of one leaf's split choice under repeated tests: :func:`split_selection`.

A leaf watches a stream and applies its split rule every ``n_min`` examples until the rule
splits or ``m_max`` examples have passed: a test repeated until it passes (optional stopping),
among all candidate splits (multiple comparisons).  The law of the stream is known, so every
trial can say whether the leaf split on a feature that is truly not the best.

The law
-------
:math:`Y` takes ``K`` classes with probabilities ``prior`` (a number ``p`` means two classes,
:math:`P(Y=1) = p`).  Given :math:`Y = k` the features are independent:

* binary features ``j``: :math:`P(X_j = 1 \mid Y = k) = \theta_{jk}` (``theta``, shape
  ``(d_bin, K)``), each one candidate split (``x = 0`` vs ``x = 1``);
* numeric features ``j``: :math:`X_j \mid Y = k \sim N(\mu_{jk}, \sigma_{jk}^2)`
  (``numeric=(mu, sigma)``, each of shape ``(d_num, K)``), cut at ``n_cuts`` fixed thresholds
  (the quantiles ``1/(n_cuts+1), ..., n_cuts/(n_cuts+1)`` of the feature's marginal law, or
  ``cuts=`` given), each threshold a candidate split ``x <= c``.  The candidate set is fixed
  before the data, so a union bound over it is valid (a tree's Gaussian observer places its
  cuts between the observed minimum and maximum instead, which moves them with the data).

A feature's merit at a test is its best candidate's; the leaf compares the features' merits.
The truth is exact: the merit of every candidate at the law's probabilities (normal CDFs for
the numeric features), and a feature's true gain is its best candidate's.

Rules and bounds
----------------
With :math:`\Delta` the gap between the two lowest conditional impurities (the gain of the best
minus the second-best feature) and epsilon the bound's radius:

* ``"vfdt"``: split when :math:`\Delta > \varepsilon` or :math:`\varepsilon < \tau`;
* ``"vfdt_2eps"``: :math:`\Delta > 2\varepsilon` (000's correction; the rule under which an
  impurity bound valid for every candidate guarantees the choice) or :math:`\varepsilon<\tau`;
* ``"ctree"``: :math:`\Delta > 2\varepsilon_t` with 000's eq. (7) at the root (``h = 0``,
  ``t = m + 1``, ``d`` features), ``criterion`` choosing Theorem 1, 2 or 3.

``bound`` (``"vfdt"`` and ``"vfdt_2eps"``): ``"hoeffding"`` (default; **not valid for the
information gain**, which is no mean), the bounds of :mod:`workbench.bounds.anytime` that stay
valid under repeated looks (``"hoeffding_looks"``, ``"gini_looks"``, ``"entropy_looks"``: delta
spent over the looks and the candidates; ``"cs_gini"``, ``"cs_entropy"``: confidence sequences),
or a user's function: ``(n, delta, value_range, n_classes)``,
``(n, delta, value_range, n_classes, depth, t, n_features)`` (a schedule, with ``schedule=``'s
values) or ``(n, delta, value_range, n_classes, stats)`` (data-dependent: ``stats`` is the
array of :mod:`workbench.bounds.leaf_stats`, with the leaf's class counts and the best and
second-best features' (branch x class) tables at their best cuts, built at every test).

The signature of a five-argument bound, :data:`STATS_BOUND_SIG`, is the one the tree's kernels
take (``workbench._functions``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from .. import _functions as fx
from .. import bounds as _bounds
from ..bounds import leaf_stats as _ls
from .._rng import normal, seed_state, uniform
from ._stats import (
    binom_greater_pvalue,
    require_closed_unit,
    require_int,
    require_open_unit,
    require_seed,
)

RULES = {"vfdt": 0, "vfdt_2eps": 1, "ctree": 2}
CRITERIA = {"entropy": 0, "gini": 1, "kearns_mansour": 2}
_CRIT_USER = 3

#: the bounds split_selection knows by name (a user's function is passed as it is)
BOUNDS = ("hoeffding", "hoeffding_looks", "gini_looks", "entropy_looks", "cs_gini", "cs_entropy")
_B_HOEFFDING, _B_CTREE, _B_TABLE, _B_STATS = 0, 1, 2, 3
_B_NAMED = {
    "hoeffding": _B_HOEFFDING,
    "hoeffding_looks": 4,
    "gini_looks": 5,
    "entropy_looks": 6,
    "cs_gini": 7,
    "cs_entropy": 8,
}
#: which criterion each impurity bound is valid for
_BOUND_CRITERION = {
    "gini_looks": "gini",
    "cs_gini": "gini",
    "entropy_looks": "entropy",
    "cs_entropy": "entropy",
}

#: (n, delta, value_range, n_classes, stats) -> epsilon: a data-dependent bound, the signature
#: the tree's kernels take too (``workbench._functions``)
STATS_BOUND_SIG = fx.STATS_BOUND_SIG
stats_bound_at = fx.stats_bound_at


def stats_bound_address(fn) -> float:
    """The address of a five-argument bound compiled for :data:`STATS_BOUND_SIG` (checked as
    ``workbench._functions.address`` checks the others)."""
    return fx.address(fn, STATS_BOUND_SIG, "bound")


# =============================================================================================
# The kernel
# =============================================================================================


@njit(cache=True)
def _impurity(n00, n01, n10, n11, criterion, unit):
    """Conditional impurity Phi(Y | X) of a 2x2 count table n[y][x] (two classes, one binary
    split)."""
    m = n00 + n01 + n10 + n11
    tot = 0.0
    for x in range(2):
        a = n00 if x == 0 else n01  # Y = 0
        b = n10 if x == 0 else n11  # Y = 1
        nx = a + b
        if nx == 0:
            continue
        if criterion == 0:
            h = 0.0
            if a > 0:
                h -= a / m * math.log(a / nx)
            if b > 0:
                h -= b / m * math.log(b / nx)
            tot += h * unit
        elif criterion == 1:
            tot += 2.0 * a * b / (nx * m)
        else:
            tot += math.sqrt(a * b) / m
    return tot


@njit(cache=True)
def _impurity_k(left, right, criterion, unit, crit_addr):
    """Conditional impurity of a binary split with K classes: ``left``/``right`` the class
    counts of the two branches (float64)."""
    K = left.shape[0]
    if K == 2 and criterion != _CRIT_USER:
        return _impurity(left[0], right[0], left[1], right[1], criterion, unit)
    m = 0.0
    for k in range(K):
        m += left[k] + right[k]
    tot = 0.0
    for side in range(2):
        c = left if side == 0 else right
        nb = 0.0
        for k in range(K):
            nb += c[k]
        if nb == 0.0:
            continue
        if criterion == _CRIT_USER:
            tot += nb / m * fx.impurity_at(crit_addr)(np.ascontiguousarray(c))
        elif criterion == 0:
            h = 0.0
            for k in range(K):
                if c[k] > 0.0:
                    h -= c[k] / m * math.log(c[k] / nb)
            tot += h * unit
        else:
            s = 0.0
            for k in range(K):
                s += (c[k] / nb) ** 2
            tot += nb / m * (1.0 - s)
    return tot


@njit(cache=True)
def _feature_impurities(bin_cnt, num_cnt, criterion, unit, crit_addr, phi, cut, left, right):
    """Every feature's conditional impurity at its best candidate (``phi``) and that
    candidate's cut index (``cut``, -1 for a binary feature)."""
    d_bin = bin_cnt.shape[0]
    K = left.shape[0]
    for j in range(d_bin):
        if K == 2 and criterion != _CRIT_USER:
            phi[j] = _impurity(
                bin_cnt[j, 0, 0], bin_cnt[j, 0, 1], bin_cnt[j, 1, 0], bin_cnt[j, 1, 1],
                criterion, unit,
            )  # fmt: skip
        else:
            for k in range(K):
                left[k] = bin_cnt[j, k, 0]
                right[k] = bin_cnt[j, k, 1]
            phi[j] = _impurity_k(left, right, criterion, unit, crit_addr)
        cut[j] = -1
    for j in range(num_cnt.shape[0]):
        n_bins = num_cnt.shape[2]
        best = np.inf
        best_c = 0
        for k in range(K):
            left[k] = 0.0
            right[k] = 0.0
            for b in range(n_bins):
                right[k] += num_cnt[j, k, b]
        for c in range(n_bins - 1):
            for k in range(K):
                left[k] += num_cnt[j, k, c]
                right[k] -= num_cnt[j, k, c]
            v = _impurity_k(left, right, criterion, unit, crit_addr)
            if v < best:
                best = v
                best_c = c
        phi[d_bin + j] = best
        cut[d_bin + j] = best_c


@njit(cache=True)
def _fill_table(stats, start, j, c, bin_cnt, num_cnt):
    """Write feature j's (branch x class) table at cut c into ``stats[start:]``."""
    d_bin = bin_cnt.shape[0]
    K = bin_cnt.shape[1]
    for k in range(K):
        if j < d_bin:
            stats[start + k] = bin_cnt[j, k, 0]
            stats[start + K + k] = bin_cnt[j, k, 1]
        else:
            lft = 0.0
            tot = 0.0
            for b in range(num_cnt.shape[2]):
                tot += num_cnt[j - d_bin, k, b]
                if b <= c:
                    lft += num_cnt[j - d_bin, k, b]
            stats[start + k] = lft
            stats[start + K + k] = tot - lft


@njit(parallel=True, cache=True)
def _selection_kernel(
    prior,
    theta,
    mu,
    sigma,
    edges,
    m_max,
    n_min,
    delta,
    rule,
    criterion,
    crit_addr,
    tau,
    R,
    bound_code,
    bound_addr,
    eps_table,
    n_candidates,
    trials,
    seed,
    split_at,
    chosen,
    chosen_cut,
    looks_out,
    tie_out,
    bad,
):
    K = prior.shape[0]
    d_bin = theta.shape[0]
    d_num = mu.shape[0]
    d = d_bin + d_num
    n_cuts = edges.shape[1]
    # entropy in bits for VFDT's information gain, scaled nats H_{1/2} for C-Tree
    unit = 1.0 / math.log(2.0) if rule != 2 else 0.5
    c_rule = 1.0 if rule == 0 else 2.0
    for tr in prange(trials):
        s = seed_state(seed, tr)
        bin_cnt = np.zeros((d_bin, K, 2), np.int64)  # [feature, y, x]
        num_cnt = np.zeros((d_num, K, n_cuts + 1), np.float64)  # [feature, y, bin]
        ny = np.zeros(K, np.int64)
        phi = np.empty(d)
        cut = np.empty(d, np.int64)
        left = np.empty(K)
        right = np.empty(K)
        stats = np.zeros(_ls.STATS_HEADER + K + 4 * K)
        split_at[tr] = 0
        chosen[tr] = -1
        chosen_cut[tr] = -1
        tie_out[tr] = False
        looks = 0
        for m in range(1, m_max + 1):
            u = uniform(s)
            y = 0
            acc = 0.0
            for k in range(K - 1, 0, -1):  # class K-1 first: two classes draw y = (u < p1)
                acc += prior[k]
                if u < acc:
                    y = k
                    break
            ny[y] += 1
            for j in range(d_bin):
                x = 1 if uniform(s) < theta[j, y] else 0
                bin_cnt[j, y, x] += 1
            for j in range(d_num):
                xv = mu[j, y] + sigma[j, y] * normal(s)
                b = 0
                while b < n_cuts and xv > edges[j, b]:
                    b += 1
                num_cnt[j, y, b] += 1.0
            if m % n_min != 0:
                continue
            pure = False
            for k in range(K):
                if ny[k] == m:
                    pure = True
            if pure:
                continue
            looks += 1
            _feature_impurities(bin_cnt, num_cnt, criterion, unit, crit_addr, phi, cut, left, right)
            best = -1
            second = -1
            phi1 = np.inf
            phi2 = np.inf
            for j in range(d):
                if phi[j] < phi1:
                    phi2 = phi1
                    second = best
                    phi1 = phi[j]
                    best = j
                elif phi[j] < phi2:
                    phi2 = phi[j]
                    second = j
            gap = phi2 - phi1  # = G_best - G_second
            fm = float(m)
            if bound_code == _B_TABLE:  # a user's bound, evaluated at every test's m beforehand
                eps = eps_table[m // n_min - 1]
            elif bound_code == _B_CTREE:
                eps = _bounds.ctree_epsilon_nb(fm, delta, 0.0, m + 1.0, float(d), criterion)
            elif bound_code == _B_STATS:
                stats[_ls.STATS_K] = K
                stats[_ls.STATS_B_MAX] = 2
                stats[_ls.STATS_B_BEST] = 2
                stats[_ls.STATS_B_SECOND] = 2 if second >= 0 else 0
                for k in range(K):
                    stats[_ls.STATS_HEADER + k] = ny[k]
                _fill_table(stats, _ls.STATS_HEADER + K, best, cut[best], bin_cnt, num_cnt)
                if second >= 0:
                    _fill_table(
                        stats, _ls.STATS_HEADER + 3 * K, second, cut[second], bin_cnt, num_cnt
                    )
                eps = stats_bound_at(bound_addr)(fm, delta, R, K, stats)
                if not eps >= 0.0:  # reported after the loop (a raise here stops prange)
                    bad[tr] = eps
                    break
            elif bound_code == 4:
                eps = _bounds.hoeffding_looks_nb(fm, delta, R, looks, n_candidates, 0, 0)
            elif bound_code == 5:
                eps = _bounds.gini_looks_nb(fm, delta, looks, n_candidates, 0, 0)
            elif bound_code == 6:
                eps = _bounds.entropy_looks_nb(fm, delta, looks, n_candidates, 0, 0)
            elif bound_code == 7:
                eps = _bounds.cs_gini_nb(fm, delta, K, 2, n_candidates, 0, 0)
            elif bound_code == 8:
                eps = _bounds.cs_entropy_nb(fm, delta, K, 2, n_candidates, 0, 0)
            else:
                eps = _bounds.hoeffding_nb(fm, delta, R)
            margin = gap > c_rule * eps
            if margin or eps < tau:
                split_at[tr] = m
                chosen[tr] = best
                chosen_cut[tr] = cut[best]
                tie_out[tr] = not margin
                break
        looks_out[tr] = looks


# =============================================================================================
# The truth and the public function
# =============================================================================================


def _norm_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _phi_of(col, criterion, unit, crit_fn):
    """Impurity of a branch with unnormalised class probabilities ``col``, times its weight."""
    tot = float(col.sum())
    if tot <= 0:
        return 0.0
    q = np.asarray(col, dtype=np.float64) / tot
    if crit_fn is not None:
        return tot * float(crit_fn(np.ascontiguousarray(q)))
    if criterion == "entropy":
        h = -sum(v * math.log(v) for v in q if v > 0)
        return tot * h * (1 / math.log(2) if unit == "bits" else 0.5)
    if criterion == "gini":
        if q.size == 2:
            return tot * 2 * q[0] * q[1]
        return tot * (1.0 - float((q**2).sum()))
    return tot * math.sqrt(q[0] * q[1])


def _cut_gains(py, theta, mu, sigma, edges, criterion, unit, crit_fn):
    """The true gain of every candidate: a list per feature (one value for a binary feature,
    one per cut for a numeric one)."""
    base = _phi_of(py, criterion, unit, crit_fn)
    out = []
    for j in range(theta.shape[0]):
        px1 = py * theta[j]  # P(Y = y, X = 1)
        px0 = py * (1 - theta[j])
        g = base - _phi_of(px0, criterion, unit, crit_fn) - _phi_of(px1, criterion, unit, crit_fn)
        out.append(np.array([g]))
    for j in range(mu.shape[0]):
        g = []
        for c in edges[j]:
            left = np.array(
                [py[k] * _norm_cdf((c - mu[j, k]) / sigma[j, k]) for k in range(py.size)]
            )
            g.append(
                base
                - _phi_of(left, criterion, unit, crit_fn)
                - _phi_of(py - left, criterion, unit, crit_fn)
            )
        out.append(np.array(g))
    return out


def feature_gains(prior, theta, criterion="entropy", unit="bits", numeric=None, cuts=10):
    """True gains ``Phi(Y) - Phi(Y | X_j)`` of each feature's best candidate under the law of
    :func:`split_selection` (binary features first, then numeric ones).

    ``unit`` only matters for entropy: ``"bits"`` (information gain) or ``"half_nats"``
    (000's :math:`H_{1/2}`).  ``criterion`` may be a numba impurity function of class weights
    (evaluated at the law's probabilities)."""
    py, th, mu, sg, edges = _law(prior, theta, numeric, cuts)
    crit_fn = None if isinstance(criterion, str) else criterion
    per = _cut_gains(py, th, mu, sg, edges, criterion, unit, crit_fn)
    return np.array([g.max() for g in per])


def _law(prior, theta, numeric, cuts):
    """(prior vector, theta (d_bin, K), mu, sigma (d_num, K), edges (d_num, n_cuts)), checked."""
    if np.ndim(prior) == 0:
        p = require_closed_unit("prior", prior)
        py = np.array([1.0 - p, p])
    else:
        py = np.asarray(prior, dtype=np.float64)
        if py.ndim != 1 or py.size < 2 or not np.isfinite(py).all() or (py < 0).any():
            raise ValueError(
                f"prior must be P(Y = 1) or a vector of K >= 2 class probabilities; got {prior!r}"
            )
        if abs(py.sum() - 1.0) > 1e-9:
            raise ValueError(f"prior must sum to 1; it sums to {py.sum():g}")
    K = py.size
    if theta is None:
        th = np.zeros((0, K))
    else:
        th = np.asarray(theta, dtype=np.float64)
        if th.ndim != 2 or th.shape[1] != K:
            raise ValueError(f"theta must have shape (d, {K}) for {K} classes, got {th.shape}")
        if ((th < 0) | (th > 1)).any() or not np.isfinite(th).all():
            raise ValueError("theta must hold probabilities in [0, 1]")
    if numeric is None:
        mu = np.zeros((0, K))
        sg = np.zeros((0, K))
    else:
        try:
            mu, sg = (np.asarray(a, dtype=np.float64) for a in numeric)
        except (TypeError, ValueError):
            raise ValueError("numeric must be a pair (mu, sigma) of arrays (d_num, K)") from None
        if mu.ndim != 2 or mu.shape[1] != K or sg.shape != mu.shape:
            raise ValueError(
                f"numeric=(mu, sigma) must be two arrays of shape (d_num, {K}); got "
                f"{mu.shape} and {sg.shape}"
            )
        if not (np.isfinite(mu).all() and np.isfinite(sg).all() and (sg > 0).all()):
            raise ValueError("numeric: mu must be finite and sigma finite and > 0")
    if th.shape[0] + mu.shape[0] < 2 and numeric is None:
        raise ValueError(f"theta must have shape (d >= 2, {K}), got {th.shape}")
    if th.shape[0] + mu.shape[0] < 2:
        raise ValueError(
            "split_selection needs at least 2 features (binary theta rows + numeric mu rows)"
        )
    edges = _edges(py, mu, sg, cuts)
    return py, th, mu, sg, edges


def _edges(py, mu, sg, cuts):
    d_num = mu.shape[0]
    if isinstance(cuts, (int, np.integer)) and not isinstance(cuts, bool):
        n_cuts = require_int("cuts", cuts, 1)
        qs = np.arange(1, n_cuts + 1) / (n_cuts + 1)
        edges = np.empty((d_num, n_cuts))
        for j in range(d_num):
            for i, q in enumerate(qs):
                edges[j, i] = _mixture_quantile(py, mu[j], sg[j], q)
        return edges
    e = np.asarray(cuts, dtype=np.float64)
    if e.ndim == 1:
        e = np.broadcast_to(e, (d_num, e.size)).copy()
    if e.ndim != 2 or e.shape[0] != d_num or e.shape[1] < 1:
        raise ValueError(
            f"cuts must be a number of cuts or thresholds of shape (n_cuts,) or ({d_num}, "
            f"n_cuts); got shape {e.shape}"
        )
    if not np.isfinite(e).all() or (np.diff(e, axis=1) <= 0).any():
        raise ValueError("cuts must be finite thresholds in increasing order")
    return np.ascontiguousarray(e)


def _mixture_quantile(py, mu, sg, q):
    lo, hi = float((mu - 10 * sg).min()), float((mu + 10 * sg).max())
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        F = sum(py[k] * _norm_cdf((mid - mu[k]) / sg[k]) for k in range(py.size))
        if F < q:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@dataclass
class SplitSelectionResult:
    rule: str
    criterion: str
    delta: float
    m_max: int
    n_min: int
    trials: int
    gains: np.ndarray  # each feature's true gain at its best candidate
    split_at: np.ndarray
    chosen: np.ndarray
    seconds: float
    looks: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    tie: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    cut: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    cut_gains: list = field(default_factory=list)  # per feature: its candidates' true gains
    bound: str = "hoeffding"
    n_candidates: int = 0

    def suboptimal(self, tol=0.0):
        """Per trial: split made on a feature whose true gain is below the best by more than tol."""
        made = self.chosen >= 0
        g = np.where(made, self.gains[np.maximum(self.chosen, 0)], np.inf)
        return made & (g + tol < self.gains.max())

    def summary(self, tol=0.0):
        n_sub = int(self.suboptimal(tol).sum())
        made = self.chosen >= 0
        return {
            "rule": self.rule,
            "criterion": self.criterion,
            "bound": self.bound,
            "delta": self.delta,
            "m_max": self.m_max,
            "n_min": self.n_min,
            "trials": self.trials,
            "p_split": float(made.mean()),
            "p_suboptimal": n_sub / self.trials,
            "n_suboptimal": n_sub,
            "n_tie": int(self.tie.sum()) if self.tie.size else 0,
            "mean_looks": float(self.looks.mean()) if self.looks.size else np.nan,
            "median_split_at": float(np.median(self.split_at[made])) if made.any() else np.nan,
            "p_value": binom_greater_pvalue(n_sub, self.trials, self.delta),
        }

    def split_curve(self, ms=None):
        """DataFrame: P(split by m) and P(suboptimal split by m) over a grid of m."""
        import pandas as pd

        if ms is None:
            ms = np.arange(self.n_min, self.m_max + 1, self.n_min)
        made = self.chosen >= 0
        sub = self.suboptimal()
        rows = [
            {
                "m": int(m),
                "p_split": float((made & (self.split_at <= m)).mean()),
                "p_suboptimal": float((sub & (self.split_at <= m)).mean()),
            }
            for m in ms
        ]
        return pd.DataFrame(rows)


def _bound_setup(bound, rule, criterion, K, d, R, delta, n_min, m_max, schedule):
    """(bound code, address, eps table, label) for ``bound``."""
    if bound is None:
        return (_B_CTREE if rule == "ctree" else _B_HOEFFDING), 0, np.empty(0), "hoeffding"
    if rule == "ctree":
        raise ValueError("bound= replaces Hoeffding's epsilon of 'vfdt' and 'vfdt_2eps'")
    if isinstance(bound, str):
        if bound not in _B_NAMED:
            raise ValueError(f"bound must be a function or one of {BOUNDS}; got {bound!r}")
        need = _BOUND_CRITERION.get(bound)
        if need is not None and criterion != need:
            raise ValueError(
                f"bound {bound!r} bounds the {need} impurity; it needs criterion={need!r}, "
                f"got {criterion!r}"
            )
        if bound in ("gini_looks", "entropy_looks") and K != 2:
            raise ValueError(
                f"bound {bound!r} is 000's Theorem for two classes; the law has {K} (use "
                f"{'cs_gini' if bound == 'gini_looks' else 'cs_entropy'})"
            )
        return _B_NAMED[bound], 0, np.empty(0), bound
    from .check import _bound_function

    n_args = fx.n_parameters(bound)
    label = fx.display_name(bound)
    if n_args == 5:
        return _B_STATS, int(stats_bound_address(bound)), np.empty(0), label
    fn, _name, n_args = _bound_function(bound)
    ms = np.arange(n_min, m_max + 1, n_min, dtype=np.float64)
    extra = dict(depth=0, t=None, n_features=d, **(schedule or {}))
    table = []
    for m in ms:
        args = (float(m), delta, float(R), int(K))
        if n_args == 7:
            t = int(m) if extra["t"] is None else int(extra["t"])
            args = (*args, int(extra["depth"]), t, int(extra["n_features"]))
        table.append(fx.check_value(fn, "bound", args, fx.call(fn, *args), "eps"))
    return _B_TABLE, 0, np.array(table, dtype=np.float64), label


def split_selection(
    prior,
    theta=None,
    delta=0.05,
    rule="vfdt",
    criterion="entropy",
    m_max=5000,
    n_min=200,
    tau=0.0,
    R=None,
    trials=20_000,
    seed=0,
    bound=None,
    *,
    numeric=None,
    cuts=10,
    schedule=None,
):
    """Stream examples into one leaf and apply a split rule every ``n_min`` examples.

    See the module docstring for the law (``prior``, ``theta``, ``numeric``, ``cuts``), the
    rules and the bounds.  Parameters:

    prior : P(Y = 1) (two classes) or the K class probabilities.
    theta : ``(d_bin, K)`` P(X_j = 1 | Y = k) of the binary features (None: no binary feature).
    delta : the bound's confidence parameter.
    rule : ``"vfdt"``, ``"vfdt_2eps"`` or ``"ctree"``.
    criterion : ``"entropy"`` (bits for VFDT's information gain, :math:`H_{1/2}` for C-Tree),
        ``"gini"``, ``"kearns_mansour"`` (two classes) or a user's numba impurity function of a
        node's class weights (float64 array), as a tree takes it; the leaf scores a candidate by
        its branches' weighted impurity.
    m_max, n_min : the leaf sees at most ``m_max`` examples and tests every ``n_min`` (set
        ``n_min = m_max`` for one test).
    tau : the tie threshold (0: no tie split).
    R : the ``value_range`` the bound gets (default log2 K for entropy, 1 otherwise; required
        with a user criterion).
    trials, seed : trial ``t`` draws from its own stream ``(seed, t)``.
    bound : see the module docstring (a name or a user's function).
    numeric : ``(mu, sigma)``, each ``(d_num, K)``: Gaussian class-conditional numeric
        features, cut at ``cuts`` (a number of quantile cuts, or the thresholds).
    schedule : the values a seven-argument bound gets, ``dict(depth=0, t=None, n_features=d)``
        (``t=None``: the leaf's m, as at a root).

    The guarantee checked: P(split on a suboptimal feature by ``m_max``) <= delta.
    ``looks`` (per trial): the tests the leaf ran (a pure leaf runs none); ``tie``: the split
    was made by the tie rule.
    """
    py, th, mu, sg, edges = _law(prior, theta, numeric, cuts)
    K = py.size
    d = th.shape[0] + mu.shape[0]
    delta = require_open_unit("delta", delta)
    if rule not in RULES:
        raise ValueError(f"rule must be one of {sorted(RULES)}, got {rule!r}")
    user_crit = not isinstance(criterion, str)
    crit_addr = 0
    if user_crit:
        crit_addr = int(fx.address(criterion, fx.IMPURITY_SIG, "criterion"))
        if rule == "ctree":
            raise ValueError("rule 'ctree' uses 000's bounds of its own criteria, not a user's")
        if R is None:
            raise ValueError(
                f"criterion {fx.display_name(criterion)} needs R=, the range of its gain (the "
                "value_range the bound gets)"
            )
        crit_code = _CRIT_USER
    elif criterion not in CRITERIA:
        raise ValueError(
            f"criterion must be one of {sorted(CRITERIA)} or a numba function, got {criterion!r}"
        )
    else:
        crit_code = CRITERIA[criterion]
        if criterion == "kearns_mansour" and K != 2:
            raise ValueError("criterion 'kearns_mansour' is defined for two classes")
    if R is None:
        R = math.log2(K) if criterion == "entropy" else 1.0
    R = float(R)
    if not (R > 0 and math.isfinite(R)):
        raise ValueError(f"R must be a number > 0, got {R!r}")
    m_max = require_int("m_max", m_max, 1)
    n_min = require_int("n_min", n_min, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    tau = float(tau)
    if not tau >= 0.0:
        raise ValueError(f"tau must be a number >= 0, got {tau!r}")
    n_candidates = th.shape[0] + mu.shape[0] * edges.shape[1]
    code, addr, table, label = _bound_setup(
        bound, rule, criterion, K, d, R, delta, n_min, m_max, schedule
    )
    split_at = np.empty(trials, np.int64)
    chosen = np.empty(trials, np.int64)
    cut = np.empty(trials, np.int64)
    looks = np.empty(trials, np.int64)
    tie = np.empty(trials, np.bool_)
    bad = np.zeros(trials)
    t0 = time.perf_counter()
    _selection_kernel(
        py,
        np.ascontiguousarray(th),
        np.ascontiguousarray(mu),
        np.ascontiguousarray(sg),
        np.ascontiguousarray(edges),
        m_max,
        n_min,
        delta,
        RULES[rule],
        crit_code,
        crit_addr,
        tau,
        R,
        code,
        addr,
        table,
        n_candidates,
        trials,
        seed,
        split_at,
        chosen,
        cut,
        looks,
        tie,
        bad,
    )
    secs = time.perf_counter() - t0
    if bad.any():
        raise fx.UserFunctionError(
            f"bound {label} returned {bad[bad != 0][0]!r} inside the Monte Carlo (at a test of "
            "the leaf); an epsilon must be a number >= 0"
        )
    unit = "half_nats" if rule == "ctree" else "bits"
    per = _cut_gains(py, th, mu, sg, edges, criterion, unit, criterion if user_crit else None)
    gains = np.array([g.max() for g in per])
    name = fx.display_name(criterion) if user_crit else criterion
    return SplitSelectionResult(
        rule,
        name,
        delta,
        m_max,
        n_min,
        trials,
        gains,
        split_at,
        chosen,
        secs,
        looks=looks,
        tie=tie,
        cut=cut,
        cut_gains=per,
        bound=label,
        n_candidates=n_candidates,
    )
