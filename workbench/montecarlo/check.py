r"""Monte Carlo check of any confidence bound: ``check_bound(my_bound, statistic="mean")``.

A bound is a function ``(n, delta, value_range, n_classes) -> epsilon`` (the signature a tree
takes as ``bound=``).  It claims that the empirical value of a statistic on ``n`` independent
examples deviates from the true value by more than epsilon with probability at most ``delta``.
The check draws many samples, counts the deviations beyond epsilon, and tests the violation rate
against ``delta`` with an exact one-sided binomial test, as the notebooks do for the papers'
bounds (``docs/bounds_findings.md``).

Statistics
----------
A *law* is a probability vector (one categorical variable) or a ``(K, B)`` table, the joint law
of a label ``Y`` (``K`` classes) and a split outcome ``F`` (``B`` branches).  A trial draws the
``n`` examples' table of counts (a multinomial draw) and computes from it

=============  ===========================================================  ================
``"mean"``     the sample mean of a variable on ``L`` equally spaced values  R (default 1)
               ``0, R/(L-1), ..., R`` with probabilities ``law`` (a number
               ``p`` is Bernoulli(p) on ``{0, R}``, the extreme law of
               Hoeffding's inequality)
``"entropy"``  the plug-in entropy in bits, :math:`H(Y)` of a vector,         log2 K
               :math:`H(Y\mid F)` of a table
``"gini"``     the plug-in Gini index :math:`1-\sum_k p_k^2` of a vector,      1
               :math:`\sum_f P(f)\,(1-\sum_k p(k\mid f)^2)` of a table
``"info_gain"``  the plug-in information gain :math:`H(Y)-H(Y\mid F)` in      log2 K
               bits of a table (the gain a tree's split test compares)
a function     a user's numba function of the counts (a vector for a         given by the
               vector law, a ``(K, B)`` array for a table), such as a tree   user
               criterion's impurity; its true value is its value at the
               law's probabilities, so it must depend on the counts only
               through their proportions
=============  ===========================================================  ================

and the deviation is the statistic minus its value at the law.  The last column is the
``value_range`` passed to the bound (the range of the statistic, as a tree passes its
criterion's range); ``n_classes`` is ``K`` (2 for ``"mean"``).

Verdict
-------
``side="two-sided"`` counts a violation when ``|deviation| > epsilon`` (the reading of 000
eq. (1)); ``"upper"`` when ``deviation >= epsilon``, ``"lower"`` when ``-deviation >= epsilon``
(Hoeffding's own one-sided statements).  For each (law, n, delta) the exact binomial test of
``H0: P(violation) <= delta`` against ``>`` gives a p-value; the verdict is

* ``"violated"`` when the p-value is below ``alpha`` (default 0.001);
* ``"holds"`` when it is not and the trials were enough to detect a violation rate of
  ``2 delta`` with probability 0.99 at that level;
* ``"inconclusive"`` otherwise (too few trials for this delta: a delta of 1e-7 cannot be checked
  by sampling).

``upper_limit`` is the one-sided Clopper-Pearson upper confidence limit of the violation rate at
level ``1 - alpha``, ``empirical_quantile`` the ``1 - delta`` quantile of the deviation (of its
absolute value when two-sided), and ``ratio`` = epsilon / that quantile: how many times wider the
bound is than it needs to be (below 1: too tight).

Example
-------
>>> import math
>>> from numba import njit
>>> from workbench import montecarlo
>>> @njit
... def half_hoeffding(n, delta, value_range, n_classes):
...     return 0.5 * value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))
>>> table = montecarlo.check_bound(half_hoeffding, "mean", n=[100], delta=0.05,
...                                distributions=[0.5], trials=20_000, seed=1)
>>> table.loc[0, "verdict"], bool(table.loc[0, "violation_rate"] > 0.05)
('violated', True)
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numba import njit, prange
from numba.core.dispatcher import Dispatcher

from .. import _functions as fx
from .. import bounds as _bounds
from ..bounds.leaf_stats import (
    STATS_B_BEST,
    STATS_B_MAX,
    STATS_HEADER,
    STATS_K,
    stats_size,
)
from .._rng import multinomial, seed_state
from ._stats import binom_greater_pvalue, require_int, require_open_unit, require_seed

STATISTICS = ("mean", "entropy", "gini", "info_gain")
SIDES = ("two-sided", "upper", "lower")
_POWER = 0.99  # "holds" needs this power against a violation rate of 2 delta

#: the built-in bounds by name (a user's function is passed as it is)
_NAMED_BOUNDS = {
    "hoeffding": lambda n, delta, R, K: _bounds.hoeffding_nb(n, delta, R),
    "mcdiarmid": lambda n, delta, R, K: _bounds.mcdiarmid_entropy_nb(n, delta, K),
}


@njit(parallel=True, cache=True)
def _count_tables(probs, n, trials, seed, out):
    """``out[t]`` = the multinomial(n, probs) counts of trial t (its own stream (seed, t))."""
    for t in prange(trials):
        s = seed_state(seed, t)
        counts = np.zeros(probs.size, np.int64)
        multinomial(s, n, probs, counts)
        for j in range(probs.size):
            out[t, j] = counts[j]


@njit
def _apply(fn, counts, out):
    """``out[t] = fn(counts[t])``: a user statistic on every trial's counts.  (Typed by the
    function itself, so not kept in numba's cache: a new process compiles it again, well under a
    second.)"""
    for t in range(counts.shape[0]):
        out[t] = fn(counts[t])


def _entropy_bits(p, axis):
    """Entropy in bits of the (unnormalised) rows of ``p`` along ``axis`` (0 for an empty one)."""
    tot = p.sum(axis=axis, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.where(tot > 0, p / np.where(tot > 0, tot, 1.0), 0.0)
        terms = np.where(q > 0, q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    return -terms.sum(axis=axis)


def statistic_values(statistic: str, tables: np.ndarray, value_range: float = 1.0) -> np.ndarray:
    """A built-in statistic of every ``(K, B)`` table of ``tables`` (shape ``[m, K, B]``,
    counts or probabilities: only the proportions matter)."""
    t = np.asarray(tables, dtype=np.float64)
    total = t.sum(axis=(1, 2))
    col = t.sum(axis=1)  # [m, B]: weight per branch
    w = col / total[:, None]  # P(f)
    if statistic == "mean":  # one variable (B = 1) on L equally spaced points
        L = t.shape[1]
        points = value_range * np.arange(L) / max(L - 1, 1)
        return (t[:, :, 0] * points).sum(axis=1) / total
    if statistic == "entropy":
        return (w * _entropy_bits(t, axis=1)).sum(axis=1)
    if statistic == "gini":
        with np.errstate(divide="ignore", invalid="ignore"):
            cond = np.where(col[:, None, :] > 0, t / np.where(col > 0, col, 1.0)[:, None, :], 0.0)
        return (w * (1.0 - (cond**2).sum(axis=1))).sum(axis=1)
    if statistic == "info_gain":
        h_y = _entropy_bits(t.sum(axis=2), axis=1)
        return h_y - (w * _entropy_bits(t, axis=1)).sum(axis=1)
    raise ValueError(
        f"statistic must be one of {STATISTICS} or a numba function; got {statistic!r}"
    )


def _laws(statistic, distributions, user):
    """{label: (law as a (K, B) array, the shape the user's statistic gets it in)}."""
    if distributions is None:
        if statistic == "mean":
            distributions = [0.5, 0.1]
        elif statistic == "info_gain":
            from .estimators import joint_law

            distributions = {
                "independent (gain 0)": joint_law(0.5, 0.3, 0.3),
                "gain 0.19 bits": joint_law(0.5, 0.25, 0.75),  # 1 - H(0.25) bits
            }
        else:
            distributions = [[0.5, 0.5], [0.8, 0.2]]
    items = (
        list(distributions.items())
        if isinstance(distributions, dict)
        else [(None, d) for d in distributions]
    )
    if not items:
        raise ValueError("distributions must name at least one law")
    out = {}
    for i, (label, law) in enumerate(items):
        if isinstance(law, numbers.Real) and not isinstance(law, bool):
            if not 0.0 <= float(law) <= 1.0:
                raise ValueError(f"a Bernoulli law needs p in [0, 1]; got {law!r}")
            arr = np.array([1.0 - float(law), float(law)])
            name = f"Bernoulli({float(law):g})" if label is None else str(label)
        else:
            arr = np.asarray(law, dtype=np.float64)
            name = str(label) if label is not None else _describe(arr, i)
        if arr.ndim not in (1, 2) or arr.shape[0] < 2 or arr.size < 2:
            raise ValueError(
                f"law {name!r} must be a probability vector (at least 2 entries) or a (K, B) "
                f"table; got shape {arr.shape}"
            )
        if not np.all(np.isfinite(arr)) or np.any(arr < 0) or abs(arr.sum() - 1.0) > 1e-9:
            raise ValueError(f"law {name!r} must hold non-negative probabilities summing to 1")
        if statistic == "mean" and arr.ndim != 1:
            raise ValueError(f"statistic 'mean' takes laws over values (vectors); {name!r} is 2-D")
        if statistic == "info_gain" and arr.ndim != 2:
            raise ValueError(
                f"statistic 'info_gain' takes (K, B) tables of label x branch; {name!r} is 1-D"
            )
        table = arr.reshape(arr.shape[0], -1) / arr.sum()
        out[name] = (table, arr.shape if user else table.shape)
    return out


def _describe(arr, i):
    if arr.ndim == 1 and arr.size <= 4:
        return "[" + ", ".join(f"{v:g}" for v in arr) + "]"
    return f"law {i}"


def _bound_function(bound):
    if isinstance(bound, str):
        if bound not in _NAMED_BOUNDS:
            raise ValueError(f"bound must be a function or one of {sorted(_NAMED_BOUNDS)}")
        return _NAMED_BOUNDS[bound], bound, 4
    if not callable(bound):
        raise ValueError(
            f"bound must be a function (n, delta, value_range, n_classes) -> epsilon; got {bound!r}"
        )
    n_args = fx.n_parameters(bound)
    if n_args not in (None, 4, 5, 7):
        raise fx.UserFunctionError(
            f"bound {fx.display_name(bound)} takes {n_args} argument(s); a bound takes "
            f"{fx.EXPECTED[fx.BOUND_SIG]} (or the seven of a schedule, "
            f"{fx.EXPECTED[fx.SCHEDULE_SIG]}, or the five of a data-dependent bound, "
            f"{fx.EXPECTED[fx.STATS_BOUND_SIG]})"
        )
    return bound, getattr(bound, "__name__", "bound"), n_args or 4


def trial_stats(counts: np.ndarray, K: int) -> np.ndarray:
    """What a data-dependent bound sees of each trial (:mod:`workbench.bounds.leaf_stats`),
    one row per trial of ``counts`` (``[trials, K * B]``, a (K, B) table's counts row-major):
    the class weights (the rows' sums), and, for a table (B > 1), its branch-by-class weights
    as the best candidate's table.  The second candidate's part is empty (0 branches): the
    statistic concerns one split, so there is no rival."""
    trials = counts.shape[0]
    B = counts.shape[1] // K
    table = counts.reshape(trials, K, B)
    b_max = max(2, B)
    out = np.zeros((trials, stats_size(K, b_max)))
    out[:, STATS_K] = K
    out[:, STATS_B_MAX] = b_max
    out[:, STATS_HEADER : STATS_HEADER + K] = table.sum(axis=2)
    if B > 1:
        out[:, STATS_B_BEST] = B
        start = STATS_HEADER + K
        out[:, start : start + B * K] = table.transpose(0, 2, 1).reshape(trials, B * K)
    return out


@njit(cache=True)
def _stats_epsilons(address, stats, m, delta, R, n_classes, out):
    """``out[t]`` = a data-dependent bound's epsilon on trial t's ``stats``, called through the
    address of its compiled code; stops at the first value that is NaN or negative (returns its
    trial, else -1)."""
    at = fx.stats_bound_at(address)
    for t in range(stats.shape[0]):
        out[t] = at(m, delta, R, n_classes, stats[t])
        if not out[t] >= 0.0:
            return t
    return -1


def _epsilons(fn, stats, m, delta, R, n_classes) -> np.ndarray:
    """A data-dependent bound's epsilon on every trial (checked: a number >= 0)."""
    out = np.empty(stats.shape[0])
    if isinstance(fn, Dispatcher):
        address = int(fx.address(fn, fx.STATS_BOUND_SIG, "bound"))
        bad = _stats_epsilons(address, stats, float(m), float(delta), float(R), n_classes, out)
        if bad >= 0:
            args = (float(m), delta, R, n_classes, stats[bad])
            fx.check_value(fn, "bound", args, out[bad], "eps")
        return out
    for t in range(stats.shape[0]):
        args = (float(m), delta, R, n_classes, stats[t])
        out[t] = fx.check_value(fn, "bound", args, fx.call(fn, *args), "eps")
    return out


def _power_ok(trials, delta, alpha):
    """Whether ``trials`` detect a violation rate of 2 delta with probability _POWER."""
    from scipy import stats

    k_crit = stats.binom.isf(alpha, trials, delta)
    return bool(stats.binom.sf(k_crit, trials, min(1.0, 2.0 * delta)) >= _POWER)


def _upper_limit(k, trials, alpha):
    from scipy import stats

    return 1.0 if k >= trials else float(stats.beta.ppf(1.0 - alpha, k + 1, trials - k))


def _values(name, value, what):
    """A number or a non-empty sequence of numbers, as a list (an empty one would give an
    empty table, which looks like a bound without a violation)."""
    try:
        values = np.atleast_1d(np.asarray(value, dtype=object)).ravel().tolist()
    except (TypeError, ValueError):
        values = None
    if not values:
        raise ValueError(f"{name} must be a {what} or a non-empty list of them; got {value!r}")
    return values


def check_bound(
    bound,
    statistic="mean",
    *,
    n=(10, 100, 1000),
    delta=0.05,
    distributions=None,
    trials=20_000,
    seed=0,
    value_range=None,
    side="two-sided",
    alpha=1e-3,
    schedule=None,
):
    """Check ``bound`` by Monte Carlo: one row per (law, n, delta), as a ``pandas.DataFrame``.

    Parameters
    ----------
    bound : a function ``(n, delta, value_range, n_classes) -> epsilon`` (usually the numba
        function a tree takes as ``bound=``; a plain Python function works here too), or
        ``"hoeffding"`` / ``"mcdiarmid"``.  A seven-argument schedule ``(n, delta,
        value_range, n_classes, depth, t, n_features)`` gets the values of ``schedule``
        (default ``dict(depth=0, t=n, n_features=1)``).  A five-argument data-dependent bound
        ``(n, delta, value_range, n_classes, stats)`` gets each trial's own ``stats``
        (:func:`trial_stats`: its class weights, and a table's branch-by-class weights as the
        best candidate's; no second candidate), so its epsilon differs from trial to trial:
        the ``epsilon`` column is then their mean, and a violation is counted against each
        trial's own epsilon.
    statistic : ``"mean"``, ``"entropy"``, ``"gini"``, ``"info_gain"`` or a numba function of
        the counts (see the module docstring).
    n : sample sizes.  delta : one or several confidence levels.
    distributions : laws, as a list or a ``{label: law}`` dict (module docstring); default:
        two laws suited to the statistic.
    trials : samples per (law, n); trial t of a run with ``seed`` draws from its own stream
        ``(seed', t)``, so the table is the same whatever the number of threads.
    value_range : the ``value_range`` the bound gets (and the scale of ``"mean"``); default the
        statistic's range (required for a user statistic).
    side : ``"two-sided"``, ``"upper"`` or ``"lower"``.  alpha : level of the binomial test.

    Columns: ``statistic``, ``distribution``, ``n``, ``delta``, ``epsilon``, ``trials``,
    ``violations``, ``violation_rate``, ``upper_limit``, ``p_value``, ``verdict``,
    ``empirical_quantile``, ``ratio``, ``truth``, ``bias`` (mean deviation), ``vacuous``
    (epsilon at least the whole range).
    """
    import pandas as pd

    from .._rng import derive_seed

    fn, _name, n_args = _bound_function(bound)
    user = not isinstance(statistic, str)
    if user:
        if not isinstance(statistic, Dispatcher):
            raise fx.UserFunctionError(
                f"statistic {fx.display_name(statistic)} must be a numba-jitted function of "
                "the counts (decorate it with @numba.njit), or one of " + ", ".join(STATISTICS)
            )
        if value_range is None:
            raise ValueError(
                f"statistic {fx.display_name(statistic)} needs value_range=R, its range (the "
                "value_range the bound gets)"
            )
    elif statistic not in STATISTICS:
        raise ValueError(
            f"statistic must be one of {STATISTICS} or a numba function; got {statistic!r}"
        )
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}; got {side!r}")
    ns = [require_int("n", v, 1) for v in _values("n", n, "sample size")]
    deltas = [require_open_unit("delta", v) for v in _values("delta", delta, "confidence level")]
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    alpha = require_open_unit("alpha", alpha)
    laws = _laws(statistic, distributions, user)
    extra = dict(depth=0, t=None, n_features=1, **(schedule or {}))
    rows = []
    for i, (label, (table, shape)) in enumerate(laws.items()):
        K = table.shape[0]
        if value_range is not None:
            R = float(value_range)
            if not (R > 0 and math.isfinite(R)):
                raise ValueError(f"value_range must be a number > 0; got {value_range!r}")
        elif statistic in ("entropy", "info_gain"):
            R = math.log2(K)
        else:
            R = 1.0
        n_classes = 2 if statistic == "mean" else K
        probs = np.ascontiguousarray(table.ravel())
        if user:
            at_law = np.ascontiguousarray(table.reshape(shape))
            truth = fx.check_value(
                statistic, "statistic", (at_law,), fx.call(statistic, at_law), "finite"
            )
        else:
            truth = float(statistic_values(statistic, table[None], R)[0])
        for j, m in enumerate(ns):
            counts = np.empty((trials, probs.size))
            _count_tables(probs, m, trials, derive_seed(seed, i, j), counts)
            if user:
                values = np.empty(trials)
                _apply(statistic, np.ascontiguousarray(counts.reshape((trials, *shape))), values)
            else:
                values = statistic_values(statistic, counts.reshape(trials, *table.shape), R)
            dev = values - truth
            stats = trial_stats(counts, K) if n_args == 5 else None
            for d in deltas:
                args = (float(m), d, R, n_classes)
                if n_args == 7:
                    t = extra["t"] if extra["t"] is not None else m
                    args = (*args, int(extra["depth"]), int(t), int(extra["n_features"]))
                if n_args == 5:  # epsilon from each trial's own data
                    eps_t = _epsilons(fn, stats, m, d, R, n_classes)
                    eps = float(eps_t.mean())
                else:
                    eps = eps_t = fx.check_value(fn, "bound", args, fx.call(fn, *args), "eps")
                tol = 1e-12 * R
                if side == "two-sided":
                    over = np.abs(dev) > eps_t + tol
                    spread = np.abs(dev)
                elif side == "upper":
                    over = dev >= eps_t - tol
                    spread = dev
                else:
                    over = -dev >= eps_t - tol
                    spread = -dev
                k = int(np.count_nonzero(over))
                p_value = binom_greater_pvalue(k, trials, d)
                if p_value < alpha:
                    verdict = "violated"
                elif _power_ok(trials, d, alpha):
                    verdict = "holds"
                else:
                    verdict = "inconclusive"
                q = float(np.quantile(spread, 1.0 - d))
                rows.append(
                    {
                        "statistic": statistic if not user else fx.display_name(statistic),
                        "distribution": label,
                        "n": m,
                        "delta": d,
                        "epsilon": eps,
                        "trials": trials,
                        "violations": k,
                        "violation_rate": k / trials,
                        "upper_limit": _upper_limit(k, trials, alpha),
                        "p_value": p_value,
                        "verdict": verdict,
                        "empirical_quantile": q,
                        "ratio": eps / q if q > 0 else math.inf,
                        "truth": truth,
                        "bias": float(dev.mean()),
                        "vacuous": bool(np.all(eps_t >= R)),
                    }
                )
    return pd.DataFrame(rows)
