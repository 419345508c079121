r"""Monte Carlo of the sequential guarantees: leaf consistency, split selection, DDM.

* :func:`leaf_consistency_failure` -- 000 Theorem 5: the probability that a delta-consistent leaf
  (eq. 9) classifies non-optimally is at most ``delta``.  The leaf sees each of the first
  ``t - 1`` examples with probability ``w`` and queries its label either always or by the
  ConfTree strategy of 000 Alg. 2 (so the number of labels is random and data dependent).
* :func:`split_selection` -- a leaf with ``d`` binary features watches a stream and applies a
  split rule every ``n_min`` examples: VFDT's (Hoeffding bound on the gain difference, 002 / 003 /
  004), the same with 000's ``2 epsilon``, or C-Tree's (000 Alg. 1 with eq. 7).  Reports when it
  splits and how often on a suboptimal feature.
* :func:`ddm_false_alarms` -- DDM (Gama et al. 2004, used in 002) on a stationary Bernoulli error
  stream: every alarm is false.  Runs DDM's standard rule (no signal before 30 instances, as MOA)
  inside numba; :func:`ddm_run` exposes the detector on a given error sequence.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._checks import check_bool
from .._rng import binomial, seed_state, uniform
from ..active.rules import conftree_query
from ..drift.ddm import ddm_reset, ddm_step
from ._stats import (
    binom_greater_pvalue,
    require_closed_unit,
    require_int,
    require_open_unit,
    require_seed,
)

# =============================================================================================
# Leaf consistency (000 Theorem 5)
# =============================================================================================

_POLICIES = {"always": 0, "conftree": 1}


@njit(parallel=True, cache=True)
def _leaf_kernel(p, t, w, delta, policy, budget, trials, seed, fail, consistent, m_out):
    ystar = p >= 0.5
    for tr in prange(trials):
        s = seed_state(seed, tr)
        m = 0
        k = 0
        if policy == 0:
            m = binomial(s, t - 1, w)
            k = binomial(s, m, p)
        else:
            for step in range(1, t):
                if uniform(s) >= w:
                    continue
                gap = abs(k / m - 0.5) if m > 0 else 0.0
                if conftree_query(s, budget, gap, float(m), float(step), delta):  # Alg. 2
                    m += 1
                    if uniform(s) < p:
                        k += 1
        m_out[tr] = m
        if m == 0:
            consistent[tr] = False
            fail[tr] = False
            continue
        yhat = k / m
        c = abs(yhat - 0.5) > _bounds.leaf_consistency_nb(m, t, delta)
        consistent[tr] = c
        fail[tr] = c and ((yhat >= 0.5) != ystar)


@dataclass
class LeafConsistencyResult:
    p: float
    t: int
    w: float
    delta: float
    policy: str
    trials: int
    n_fail: int
    n_consistent: int
    mean_labels: float
    exact_fail: float
    seconds: float

    def summary(self):
        return {
            "p": self.p,
            "t": self.t,
            "w": self.w,
            "delta": self.delta,
            "policy": self.policy,
            "trials": self.trials,
            "p_fail": self.n_fail / self.trials,
            "exact_fail": self.exact_fail,
            "p_consistent": self.n_consistent / self.trials,
            "mean_labels": self.mean_labels,
            "ratio": self.delta / self.exact_fail if self.exact_fail > 0 else np.inf,
            "p_value": binom_greater_pvalue(self.n_fail, self.trials, self.delta),
        }


def leaf_consistency_exact(p, t, w, delta):
    """Exact failure probability of Theorem 5 when every label is queried (``m ~ Bin(t-1, w)``)."""
    from scipy.stats import binom

    ms = np.arange(1, t)
    pm = binom.pmf(ms, t - 1, w)
    total = 0.0
    ystar = p >= 0.5
    for m, pmm in zip(ms, pm):
        if pmm == 0.0:
            continue
        eps = _bounds.leaf_consistency_nb(float(m), float(t), delta)
        k = np.arange(m + 1)
        yhat = k / m
        bad = (np.abs(yhat - 0.5) > eps) & ((yhat >= 0.5) != ystar)
        total += pmm * binom.pmf(k[bad], m, p).sum()
    return float(total)


def leaf_consistency_failure(
    p, t, delta, w=1.0, policy="always", budget=0.1, trials=200_000, seed=0
):
    """Probability that the leaf is delta-consistent at time ``t`` and predicts non-optimally.

    Parameters
    ----------
    p : :math:`P(Y = 1 \\mid X \\to \\text{leaf})`; the sup over ``p`` is at ``p = 1/2``.
    t : the time step (the leaf has seen examples ``1 .. t-1``), ``>= 2``.
    delta : confidence parameter of eq. (9).
    w : probability that an example reaches the leaf.
    policy : ``"always"`` (query every label; exact value also computed) or ``"conftree"``
        (000 Alg. 2 with budget ``budget``).
    """
    p = require_closed_unit("p", p)
    t = require_int("t", t, 2)
    delta = require_open_unit("delta", delta)
    w = require_closed_unit("w", w)
    if policy not in _POLICIES:
        raise ValueError(f"policy must be one of {sorted(_POLICIES)}, got {policy!r}")
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    fail = np.empty(trials, np.bool_)
    cons = np.empty(trials, np.bool_)
    m_out = np.empty(trials, np.int64)
    t0 = time.perf_counter()
    _leaf_kernel(p, t, w, delta, _POLICIES[policy], float(budget), trials, seed, fail, cons, m_out)
    secs = time.perf_counter() - t0
    exact = leaf_consistency_exact(p, t, w, delta) if policy == "always" else np.nan
    return LeafConsistencyResult(
        p,
        t,
        w,
        delta,
        policy,
        trials,
        int(fail.sum()),
        int(cons.sum()),
        float(m_out.mean()),
        exact,
        secs,
    )


# =============================================================================================
# Split selection: VFDT, VFDT with 2 epsilon, C-Tree
# =============================================================================================

RULES = {"vfdt": 0, "vfdt_2eps": 1, "ctree": 2}
CRITERIA = {"entropy": 0, "gini": 1, "kearns_mansour": 2}


@njit(cache=True)
def _impurity(n00, n01, n10, n11, criterion, unit):
    """Conditional impurity Phi(Y | X) of a 2x2 count table n[y][x] (one binary feature)."""
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


@njit(parallel=True, cache=True)
def _split_kernel(
    prior,
    theta,
    m_max,
    n_min,
    delta,
    rule,
    criterion,
    tau,
    R,
    trials,
    seed,
    split_at,
    chosen,
    eps_table,
):
    d = theta.shape[0]
    # entropy in bits for VFDT's information gain, scaled nats H_{1/2} for C-Tree
    unit = 1.0 / math.log(2.0) if rule != 2 else 0.5
    for tr in prange(trials):
        s = seed_state(seed, tr)
        cnt = np.zeros((d, 2, 2), np.int64)  # [feature, y, x]
        ny1 = 0
        split_at[tr] = 0
        chosen[tr] = -1
        for m in range(1, m_max + 1):
            y = 1 if uniform(s) < prior else 0
            ny1 += y
            for j in range(d):
                x = 1 if uniform(s) < theta[j, y] else 0
                cnt[j, y, x] += 1
            if m % n_min != 0 or ny1 == 0 or ny1 == m:
                continue
            best = -1
            phi1 = np.inf
            phi2 = np.inf
            for j in range(d):
                ph = _impurity(
                    cnt[j, 0, 0], cnt[j, 0, 1], cnt[j, 1, 0], cnt[j, 1, 1], criterion, unit
                )
                if ph < phi1:
                    phi2 = phi1
                    phi1 = ph
                    best = j
                elif ph < phi2:
                    phi2 = ph
            gap = phi2 - phi1  # = G_best - G_second
            if eps_table.size > 0:  # a user's bound, evaluated at every test's m beforehand
                eps = eps_table[m // n_min - 1]
                c = 1.0 if rule == 0 else 2.0
            elif rule == 2:
                eps = _bounds.ctree_epsilon_nb(float(m), delta, 0.0, m + 1.0, float(d), criterion)
                c = 2.0
            else:
                eps = _bounds.hoeffding_nb(float(m), delta, R)
                c = 1.0 if rule == 0 else 2.0
            if gap > c * eps or eps < tau:
                split_at[tr] = m
                chosen[tr] = best
                break


def feature_gains(prior, theta, criterion="entropy", unit="bits"):
    """True gains ``Phi(Y) - Phi(Y | X_j)`` of each binary feature of the naive-Bayes law.

    ``unit`` only matters for entropy: ``"bits"`` (information gain) or ``"half_nats"``
    (000's :math:`H_{1/2}`).
    """
    prior = require_closed_unit("prior", prior)
    try:
        theta = np.asarray(theta, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"theta must be an array [d, 2] of probabilities P(X_j = 1 | Y = y); got {theta!r}"
        ) from None
    if theta.ndim != 2 or theta.shape[1] != 2 or theta.shape[0] < 1:
        raise ValueError(
            f"theta must be an array [d, 2] of probabilities P(X_j = 1 | Y = y); got shape "
            f"{theta.shape}"
        )
    if not np.isfinite(theta).all() or ((theta < 0) | (theta > 1)).any():
        raise ValueError("theta must hold probabilities in [0, 1]")
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {sorted(CRITERIA)}; got {criterion!r}")
    if unit not in ("bits", "half_nats"):
        raise ValueError(f"unit must be 'bits' or 'half_nats'; got {unit!r}")
    py = np.array([1.0 - prior, prior])

    def phi_of(col):  # col: P(Y = y) restricted to a branch, unnormalised
        tot = col.sum()
        if tot <= 0:
            return 0.0
        q = col / tot
        if criterion == "entropy":
            h = -sum(v * math.log(v) for v in q if v > 0)
            return tot * h * (1 / math.log(2) if unit == "bits" else 0.5)
        if criterion == "gini":
            return tot * 2 * q[0] * q[1]
        return tot * math.sqrt(q[0] * q[1])

    base = phi_of(py)
    gains = []
    for j in range(theta.shape[0]):
        px1 = py * theta[j]  # P(Y = y, X = 1)
        px0 = py * (1 - theta[j])
        gains.append(base - phi_of(px0) - phi_of(px1))
    return np.array(gains)


@dataclass
class SplitSelectionResult:
    rule: str
    criterion: str
    delta: float
    m_max: int
    n_min: int
    trials: int
    gains: np.ndarray
    split_at: np.ndarray
    chosen: np.ndarray
    seconds: float

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
            "delta": self.delta,
            "m_max": self.m_max,
            "n_min": self.n_min,
            "trials": self.trials,
            "p_split": float(made.mean()),
            "p_suboptimal": n_sub / self.trials,
            "n_suboptimal": n_sub,
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


def split_selection(
    prior,
    theta,
    delta,
    rule="vfdt",
    criterion="entropy",
    m_max=5000,
    n_min=200,
    tau=0.0,
    R=1.0,
    trials=20_000,
    seed=0,
    bound=None,
):
    """Stream examples into one leaf and apply a split rule every ``n_min`` examples.

    Law: :math:`Y \\sim \\mathrm{Bernoulli}(\\text{prior})`, features
    :math:`X_j \\mid Y=y \\sim \\mathrm{Bernoulli}(\\theta_{j,y})` independent (``theta`` has shape
    ``(d, 2)``, ``d >= 2``).  Rules, with :math:`\\Delta = \\widehat\\Phi_{(2)} - \\widehat\\Phi_{(1)}`
    the gap between the two lowest conditional impurities (= gain of the best minus gain of the
    second-best feature):

    * ``"vfdt"``: split when :math:`\\Delta > \\varepsilon_{hof}(m, \\delta, R)` or
      :math:`\\varepsilon < \\tau` (Domingos & Hulten; information gain in bits, ``R = 1``);
    * ``"vfdt_2eps"``: :math:`\\Delta > 2\\varepsilon_{hof}` (000's correction, its footnote 2);
    * ``"ctree"``: :math:`\\Delta \\ge 2\\varepsilon_t` with eq. (7) at the root (``h = 0``,
      ``t = m + 1``), ``criterion`` choosing Theorem 1, 2 or 3 (entropy as :math:`H_{1/2}`).

    ``bound``: a function ``(n, delta, value_range, n_classes) -> epsilon`` (a user's own, as a
    tree takes it) in place of Hoeffding's in ``"vfdt"`` and ``"vfdt_2eps"``, with
    ``value_range = R`` and two classes.

    The guarantee checked: P(split on a suboptimal feature by ``m_max``) <= delta.
    """
    prior = require_closed_unit("prior", prior)
    th = np.asarray(theta, dtype=np.float64)
    if th.ndim != 2 or th.shape[1] != 2 or th.shape[0] < 2:
        raise ValueError(f"theta must have shape (d >= 2, 2), got {th.shape}")
    if ((th < 0) | (th > 1)).any() or not np.isfinite(th).all():
        raise ValueError("theta must hold probabilities in [0, 1]")
    delta = require_open_unit("delta", delta)
    if rule not in RULES:
        raise ValueError(f"rule must be one of {sorted(RULES)}, got {rule!r}")
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {sorted(CRITERIA)}, got {criterion!r}")
    m_max = require_int("m_max", m_max, 1)
    n_min = require_int("n_min", n_min, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    split_at = np.empty(trials, np.int64)
    chosen = np.empty(trials, np.int64)
    eps_table = np.empty(0)
    if bound is not None:
        from .check import _bound_function
        from .. import _functions as fx

        if rule == "ctree":
            raise ValueError("bound= replaces Hoeffding's epsilon of 'vfdt' and 'vfdt_2eps'")
        fn, _name, n_args = _bound_function(bound)
        if n_args != 4:
            raise ValueError("split_selection takes a bound of (n, delta, value_range, n_classes)")
        ms = np.arange(n_min, m_max + 1, n_min, dtype=np.float64)
        eps_table = np.array(
            [
                fx.check_value(fn, "bound", a, fx.call(fn, *a), "eps")
                for a in ((m, delta, float(R), 2) for m in ms)
            ]
        )
    t0 = time.perf_counter()
    _split_kernel(
        prior,
        np.ascontiguousarray(th),
        m_max,
        n_min,
        delta,
        RULES[rule],
        CRITERIA[criterion],
        float(tau),
        float(R),
        trials,
        seed,
        split_at,
        chosen,
        eps_table,
    )
    secs = time.perf_counter() - t0
    unit = "half_nats" if rule == "ctree" else "bits"
    gains = feature_gains(prior, th, criterion, unit)
    return SplitSelectionResult(
        rule, criterion, delta, m_max, n_min, trials, gains, split_at, chosen, secs
    )


# =============================================================================================
# DDM
# =============================================================================================


def ddm_run(errors, min_instances=30, strict=False):
    """Run DDM over a 0/1 error sequence, resetting after each drift (a new context).

    ``errors``: a sequence of 0 (right) and 1 (wrong); ``min_instances``: the examples DDM
    sees before it may signal (an integer >= 1); ``strict``: compare with ``>`` (MOA) rather
    than ``>=``.  Returns ``(warning, drift)`` boolean arrays, one entry per example.
    """
    min_instances = require_int("min_instances", min_instances, 1)
    strict = check_bool(strict, "strict")
    try:
        arr = np.asarray(errors, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim != 1 or not np.isin(arr, (0.0, 1.0)).all():
        shape = "" if arr is None else f" of shape {arr.shape}"
        raise ValueError(
            f"errors must be a 1-D sequence of 0 (right) and 1 (wrong) values; got "
            f"{type(errors).__name__}{shape} {errors!r:.60}"
        )
    return _ddm_run(np.ascontiguousarray(arr), min_instances, strict)


@njit(cache=True)
def _ddm_run(errors, min_instances, strict):
    """The loop of :func:`ddm_run` (checked arguments)."""
    n = errors.size
    warning = np.zeros(n, np.bool_)
    drift = np.zeros(n, np.bool_)
    state = np.empty(4)
    ddm_reset(state)
    for i in range(n):
        w, dr = ddm_step(state, float(errors[i]), min_instances, strict)
        warning[i] = w
        drift[i] = dr
        if dr:
            ddm_reset(state)
    return warning, drift


@njit(parallel=True, cache=True)
def _ddm_kernel(p_err, n, min_instances, strict, trials, seed, first_warn, first_drift, n_drifts):
    for tr in prange(trials):
        s = seed_state(seed, tr)
        state = np.empty(4)
        ddm_reset(state)
        fw = 0
        fd = 0
        nd = 0
        for step in range(1, n + 1):
            err = 1.0 if uniform(s) < p_err else 0.0
            w, dr = ddm_step(state, err, min_instances, strict)
            if w and fw == 0:
                fw = step
            if dr:
                if fd == 0:
                    fd = step
                nd += 1
                ddm_reset(state)
        first_warn[tr] = fw
        first_drift[tr] = fd
        n_drifts[tr] = nd


@dataclass
class DDMResult:
    p_error: float
    n: int
    min_instances: int
    strict: bool
    trials: int
    first_warning: np.ndarray  # step of the first warning, 0 = none
    first_drift: np.ndarray  # step of the first drift, 0 = none
    n_drifts: np.ndarray  # drifts per stream (detector reset after each)
    seconds: float

    def p_false_alarm(self, horizon=None, level="drift"):
        h = self.n if horizon is None else int(horizon)
        x = self.first_drift if level == "drift" else self.first_warning
        return float(((x > 0) & (x <= h)).mean())

    def summary(self, nominal=0.01):
        n_fa = int((self.first_drift > 0).sum())
        return {
            "p_error": self.p_error,
            "n": self.n,
            "min_instances": self.min_instances,
            "strict": self.strict,
            "trials": self.trials,
            "p_false_drift": n_fa / self.trials,
            "p_false_warning": self.p_false_alarm(level="warning"),
            "drifts_per_1000": 1000.0 * float(self.n_drifts.mean()) / self.n,
            "median_first_drift": float(np.median(self.first_drift[self.first_drift > 0]))
            if n_fa
            else np.nan,
            "nominal": nominal,
            "p_value_vs_nominal": binom_greater_pvalue(n_fa, self.trials, nominal),
        }

    def curve(self, horizons=None):
        """DataFrame: P(first false warning / drift <= horizon) over horizons."""
        import pandas as pd

        if horizons is None:
            horizons = np.unique(np.geomspace(self.min_instances, self.n, 40).astype(int))
        return pd.DataFrame(
            [
                {
                    "horizon": int(h),
                    "p_warning": self.p_false_alarm(h, "warning"),
                    "p_drift": self.p_false_alarm(h, "drift"),
                }
                for h in horizons
            ]
        )


def ddm_false_alarms(p_error, n, trials=20_000, seed=0, min_instances=30, strict=False):
    """DDM on ``trials`` stationary Bernoulli(``p_error``) error streams of length ``n``.

    Every alarm is false.  Records the first warning, the first drift and the number of drifts
    per stream (the detector restarts after a drift, as a new context).
    """
    p_error = require_closed_unit("p_error", p_error)
    n = require_int("n", n, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    min_instances = require_int("min_instances", min_instances, 1)
    strict = check_bool(strict, "strict")
    fw = np.empty(trials, np.int64)
    fd = np.empty(trials, np.int64)
    nd = np.empty(trials, np.int64)
    t0 = time.perf_counter()
    _ddm_kernel(p_error, n, min_instances, bool(strict), trials, seed, fw, fd, nd)
    return DDMResult(
        p_error, n, min_instances, bool(strict), trials, fw, fd, nd, time.perf_counter() - t0
    )
