r"""Monte Carlo of the sequential guarantees: leaf consistency, split selection, DDM.

* :func:`leaf_consistency_failure` -- 000 Theorem 5: the probability that a delta-consistent leaf
  (eq. 9) classifies non-optimally is at most ``delta``.  The leaf sees each of the first
  ``t - 1`` examples with probability ``w`` and queries its label either always or by the
  ConfTree strategy of 000 Alg. 2 (so the number of labels is random and data dependent).
* :func:`split_selection` (in :mod:`.selection`) -- a leaf with binary and numeric features and
  K classes watches a stream and applies a split rule every ``n_min`` examples: VFDT's (a bound
  on the gain difference, 002 / 003 / 004), the same with 000's ``2 epsilon``, or C-Tree's (000
  Alg. 1 with eq. 7), with Hoeffding's bound, a bound that stays valid under repeated looks, or a
  user's.  Reports when it splits and how often on a suboptimal feature.
* :func:`ddm_false_alarms` -- DDM (Gama et al. 2004, used in 002) on a stationary Bernoulli error
  stream: every alarm is false.  Runs DDM's standard rule (no signal before 30 instances, as MOA)
  inside numba; :func:`ddm_run` exposes the detector on a given error sequence.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._checks import check_bool
from .._rng import binomial, seed_state, uniform
from ..active.rules import conftree_query
from ..drift.ddm import ddm_reset, ddm_step

# split selection lives in its own module; its names stay importable from here
from .selection import (  # noqa: F401
    CRITERIA,
    RULES,
    SplitSelectionResult,
    feature_gains,
    split_selection,
)
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
