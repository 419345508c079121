r"""A paper's claims as data: one row per claim, re-tested over seeds with the test that fits the
claim, an interval that is the one the verdict uses, a decision rule fixed before the run, and
Holm's correction within a family of claims.

Each paper's package has an entry point ``claims(quick=True, seeds=None, client=None)`` built
from three parts of this module:

1. **What a seed determines.**  A paper writes its experiments as importable functions of a
   seed, ``f(seed=s, **kwargs) -> dict`` of named numbers (risks of several learners on the same
   draws, counts of events and trials, a tuned parameter).  :func:`run_seeds` runs them side by
   side through :func:`workbench.sweep.apply` (local processes by default, a Dask cluster with
   ``client=``) and returns one row per seed.
2. **What each claim measures and how it is tested.**  A :class:`Claim` says what the paper
   claims (its words, shortened), where, the quantity (as the paper measures it), how one
   seed's row gives it, the :class:`Rule` that decides it and the *test* that fits it, all
   written down before the run:

   ==============  ===========================================================================
   ``test``        for
   ==============  ===========================================================================
   ``"wilcoxon"``  a paired difference over seeds (learners that saw the same streams): the
                   exact Wilcoxon signed-rank test, the Hodges-Lehmann estimate and the exact
                   95 % interval that inverts the same test (the default)
   ``"sign"``      a paired quantity over seeds that may be infinite or very skewed: the exact
                   sign test, the median and its order-statistic 95 % interval
   ``"binomial"``  a rate over pooled independent trials (Monte Carlo draws, independent
                   runs): the exact binomial test and the Clopper-Pearson 95 % interval; over
                   several grid points (a bound at every ``m``) the claim must hold at every
                   point (an intersection-union test: the largest p decides)
   ``"cluster"``   a rate (or ratio) of sums over trials that share a seed's stream: the pooled
                   ratio, a 95 % percentile interval and p-value from a bootstrap that
                   resamples whole seeds
   ``"exact"``     a deterministic computation (a formula, a worked example, an identity):
                   the verdict is the computation's, with no p-value and no interval
   ==============  ===========================================================================

   A claim whose condition never occurred in the run (``exercised``: no seed had a false
   alarm, no trial at all) is *not exercised*, never *holds*.
3. **The verdicts.**  :func:`table` computes for each claim its estimate, its 95 % interval, the
   one-sided p-values of the rule's boundary, Holm's correction within the claim's family
   (by default the whole table), the power of its test at the effect its rule names, and the
   verdict: *holds*, *fails*, *inconclusive*, *not exercised* or *not testable here*.
   :func:`verdict_text` prints a notebook's verdict sentences from that table.

The rules.  ``Rule.greater(b)`` (the claim: the quantity is above ``b``), ``Rule.less(b)``
(below ``b``: "no worse than", a non-inferiority margin, a rate below its guarantee) and
``Rule.within(m)`` (in ``(-m, m)``: "the same", "performs as", an equivalence margin, decided
by two one-sided tests).  For each claim the test gives a one-sided p-value for the claim
(null: it is false) and one against it (null: it is true); the table's ``p_value`` is twice the
smaller.  A claim *holds* or *fails* when its Holm-adjusted p is below ``alpha`` (0.05) **and**
its 95 % interval lies wholly on that side of the boundary (for ``within``: wholly inside the
margin, or wholly outside it); otherwise it is *inconclusive*.  Each one-sided test runs at
2.5 %, so the two-one-sided-tests equivalence of ``within`` is a TOST at 2.5 % whose interval
is the 95 % interval the table prints.  Each rule names the effect its power is planned for
(``power_at``, and ``power_sd``, the per-seed spread the plan assumed); the table states the
power of the claim's test at that effect, at Holm's strictest level, for the seeds it had.

A paper's entry point is then one call of :func:`run` (its claims, its function of a seed, the
parts of that function for the mode), and the notebook prints ``verdict_text(table)``.
:func:`save_table` stores a run's per-seed results with their provenance
(:mod:`workbench.provenance`) and a fingerprint of the code that made them;
:func:`load_table` decides the claims again from them, and :func:`stored_note` says in one
sentence when the run was made and whether the code that makes it has changed since.
``docs/claims.md`` explains the tests and the rules for a reader of the tables.

Tuning.  :func:`tune` searches a grid and extends it while the best value lies at an edge, so
that no chosen value sits at the edge of its grid unless the parameter's own range ends there
(then the result says so and the claim's evidence can carry it).

>>> import pandas as pd
>>> from workbench import claims as C
>>> per_seed = pd.DataFrame({"seed": range(8),
...     "risk_a": [0.20, 0.21, 0.19, 0.22, 0.20, 0.21, 0.20, 0.19],
...     "risk_b": [0.25, 0.27, 0.24, 0.26, 0.26, 0.25, 0.27, 0.26],
...     "wrong": [0, 1, 0, 0, 2, 0, 1, 0], "draws": [1000] * 8})
>>> spec = [
...     C.Claim("A beats B", "Fig. 1", "risk of B minus risk of A (final)",
...             lambda r: r.risk_b - r.risk_a, C.Rule.greater(0, power_at=0.02, power_sd=0.01)),
...     C.Claim("A's bound fails w.p. at most 1 %", "Thm. 1", "rate of bound violations",
...             lambda r: (r.wrong, r.draws), C.Rule.less(0.01, power_at=0.002),
...             test="binomial"),
...     C.Claim("B on the large data set", "Fig. 2", "risk of B", "risk_b", C.Rule.less(0.3),
...             testable="the data set is not shipped"),
... ]
>>> t = C.table(spec, per_seed)
>>> for row in t[["claim", "estimate", "ci_low", "ci_high", "verdict"]].round(4).values.tolist():
...     print(row)
['A beats B', 0.055, 0.045, 0.065, 'holds']
["A's bound fails w.p. at most 1 %", 0.0005, 0.0001, 0.0013, 'holds']
['B on the large data set', 0.2575, nan, nan, 'not testable here']
>>> print(C.verdict_text(t.iloc[:1]))  # doctest: +NORMALIZE_WHITESPACE
- **A beats B** (Fig. 1): **holds**. Risk of B minus risk of A (final): +0.0550 [+0.0450,
  +0.0650] (95 %, 8 seeds); Wilcoxon signed-rank p = 0.0078, Holm 0.0078. Rule: holds if the
  value > 0, fails if < 0; power 0.98 at +0.02 (per-seed sd 0.01), 8 seeds, level 0.05/2.
  Per seed: +0.050, +0.060, +0.050, +0.040, +0.060, +0.040, +0.070, +0.070.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

#: the columns of a claims table, in order
COLUMNS = [
    "claim",
    "where",
    "quantity",
    "estimate",
    "ci_low",
    "ci_high",
    "n_seeds",
    "test",
    "p_value",
    "p_holm",
    "rule",
    "verdict",
    "evidence",
]
VERDICTS = ("holds", "fails", "inconclusive", "not exercised", "not testable here")
ALPHA = 0.05
#: the level of every interval a table prints (each one-sided test runs at (1 - LEVEL) / 2)
LEVEL = 0.95
#: the tests a claim can name, and how the table's ``test`` column names them
TESTS = {
    "wilcoxon": "Wilcoxon signed-rank (exact), Hodges-Lehmann interval",
    "sign": "sign test (exact), interval of the median",
    "binomial": "exact binomial over pooled trials, Clopper-Pearson interval",
    "cluster": "cluster bootstrap over seeds (pooled ratio, percentile interval)",
    "exact": "exact computation",
}
#: resamples of the cluster bootstrap (fixed seed: a stored run is decided the same way again)
BOOTSTRAP_RESAMPLES = 9999
#: the fewest seeds a bootstrap over seeds is trusted with (with 3 seeds it has 10 distinct
#: resamples and claims a precision it does not have)
MIN_CLUSTERS = 10


# --------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rule:
    """The decision rule of a claim, fixed before the run: the claim is that the quantity is
    ``> bound`` (``greater``), ``< bound`` (``less``) or within ``(-bound, bound)``
    (``within``), decided at level ``alpha`` after Holm's correction.

    ``power_at``: the true value at which the claim's test should be able to decide it (the
    effect the rule names: a difference, or for ``within`` the true difference, usually 0; for
    a rate, the true rate); ``power_sd``: the per-seed standard deviation the plan assumed
    (paired and cluster tests; say where it comes from in ``note``).  The table states the
    test's power there."""

    kind: str
    bound: float
    alpha: float = ALPHA
    note: str = ""  # why this bound (an effect size, a margin), shown with the rule
    power_at: float | None = None
    power_sd: float | None = None

    def __post_init__(self):
        if self.kind not in ("greater", "less", "within"):
            raise ValueError(f"kind must be 'greater', 'less' or 'within'; got {self.kind!r}")
        if not math.isfinite(self.bound) or (self.kind == "within" and self.bound <= 0):
            raise ValueError(
                f"a {self.kind} rule needs a finite (positive) bound; got {self.bound}"
            )
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be in (0, 1); got {self.alpha}")
        if self.power_sd is not None and not self.power_sd > 0:
            raise ValueError(f"power_sd must be positive; got {self.power_sd}")

    @classmethod
    def greater(cls, bound: float = 0.0, note: str = "", alpha: float = ALPHA, **power) -> "Rule":
        """The claim: the quantity is above ``bound`` (an improvement, a positive effect)."""
        return cls("greater", float(bound), alpha, note, **power)

    @classmethod
    def less(cls, bound: float = 0.0, note: str = "", alpha: float = ALPHA, **power) -> "Rule":
        """The claim: the quantity is below ``bound`` (a rate below its guarantee; "as good as"
        with a non-inferiority margin ``bound``)."""
        return cls("less", float(bound), alpha, note, **power)

    @classmethod
    def within(cls, margin: float, note: str = "", alpha: float = ALPHA, **power) -> "Rule":
        """The claim: the quantity lies in ``(-margin, margin)`` ("the same", up to a margin:
        an equivalence test)."""
        return cls("within", float(margin), alpha, note, **power)

    def describe(self) -> str:
        b = _num(self.bound)
        text = {
            "greater": f"holds if the value > {b}, fails if < {b}",
            "less": f"holds if the value < {b}, fails if > {b}",
            "within": f"holds if -{b} < value < {b}, fails if outside",
        }[self.kind]
        return text + (f" ({self.note})" if self.note else "")

    def one_sided(self, values, test: str = "wilcoxon") -> tuple[float, float]:
        """(p for the claim, p against it) of the paired per-seed ``values``: one-sided
        p-values of the null "the claim is false" and of the null "the claim is true", at the
        rule's boundary, by the exact signed-rank (``"wilcoxon"``) or sign test."""
        d = _paired(np.asarray(values, dtype=np.float64), self, test)
        return d["p_for"], d["p_against"]

    def holds_on(self, lo: float, hi: float) -> bool:
        """Whether the interval ``[lo, hi]`` lies wholly on the claim's side."""
        b = self.bound
        if self.kind == "greater":
            return lo > b
        if self.kind == "less":
            return hi < b
        return -b < lo and hi < b

    def fails_on(self, lo: float, hi: float) -> bool:
        """Whether the interval ``[lo, hi]`` lies wholly on the other side."""
        b = self.bound
        if self.kind == "greater":
            return hi < b
        if self.kind == "less":
            return lo > b
        return lo > b or hi < -b

    def holds_at(self, value: float) -> bool:
        """Whether a computed value satisfies the claim (an exact computation)."""
        return self.holds_on(value, value)


def _num(v: float) -> str:
    return f"{v:.4g}"


# --------------------------------------------------------------------------- paired tests
@functools.lru_cache(maxsize=None)
def signed_rank_sf(n: int) -> np.ndarray:
    """``P(T >= t)`` for ``t = 0 .. n(n+1)/2`` of the signed-rank statistic of ``n`` values
    under the null (each sign a fair coin): the exact distribution, by counting subsets.

    >>> signed_rank_sf(3).tolist()
    [1.0, 0.875, 0.75, 0.625, 0.375, 0.25, 0.125]
    """
    m = n * (n + 1) // 2
    counts = np.zeros(m + 1)
    counts[0] = 1.0
    for k in range(1, n + 1):
        old = counts.copy()
        counts[k:] += old[: m + 1 - k]
    pmf = counts / 2.0**n
    return np.minimum(1.0, np.cumsum(pmf[::-1])[::-1])


@functools.lru_cache(maxsize=None)
def _sign_sf(n: int) -> np.ndarray:
    """``P(K >= k)`` for ``k = 0 .. n``, ``K ~ Binomial(n, 1/2)``."""
    from scipy import stats

    return np.array([stats.binom.sf(k - 1, n, 0.5) for k in range(n + 1)])


def _critical(sf: np.ndarray, a: float) -> int | None:
    """The smallest count ``c`` with ``P(T >= c) <= a``, or None when no count is that rare."""
    ok = np.flatnonzero(sf <= a)
    return int(ok[0]) if len(ok) else None


def _walsh(d: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(len(d))
    return np.sort((d[i] + d[j]) / 2.0)


def signed_rank_interval(values, level: float = LEVEL) -> tuple[float, float, float]:
    """(Hodges-Lehmann estimate, low, high): the median of the Walsh averages
    ``(d_i + d_j) / 2, i <= j`` and the exact ``level`` interval that inverts the signed-rank
    test (the boundaries ``b`` it does not reject); infinite ends when ``len(values)`` is too
    small for any rejection at that level (fewer than 6 values at 95 %).

    >>> [round(v, 3) for v in signed_rank_interval([0.1, 0.3, 0.2, 0.5, 0.4, 0.6, 0.35])]
    [0.35, 0.2, 0.5]
    """
    d = np.asarray(values, dtype=np.float64)
    w = _walsh(d)
    c = _critical(signed_rank_sf(len(d)), (1 - level) / 2)
    if c is None:
        return float(np.median(w)), -math.inf, math.inf
    m = len(w)
    return float(np.median(w)), float(w[m - c]), float(w[c - 1])


def sign_interval(values, level: float = LEVEL) -> tuple[float, float, float]:
    """(median, low, high): the sample median and the order-statistic ``level`` interval that
    inverts the sign test (infinite ends when too few values for any rejection)."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    c = _critical(_sign_sf(len(v)), (1 - level) / 2)
    if c is None:
        return float(np.median(v)), -math.inf, math.inf
    return float(np.median(v)), float(v[len(v) - c]), float(v[c - 1])


def _paired(d: np.ndarray, rule: Rule, test: str) -> dict:
    """Estimate, interval and one-sided p-values of a paired claim (``wilcoxon`` or ``sign``).
    Values equal to a boundary count against both sides (conservative), so that the test
    rejects a boundary exactly when the interval excludes it."""
    if test == "wilcoxon":
        if not np.isfinite(d).all():
            raise ValueError("the signed-rank test needs finite values; use test='sign'")
        pts, sf = _walsh(d), signed_rank_sf(len(d))
        est, lo, hi = signed_rank_interval(d)
    elif test == "sign":
        pts, sf = d, _sign_sf(len(d))
        est, lo, hi = sign_interval(d)
    else:
        raise ValueError(f"a paired test is 'wilcoxon' or 'sign'; got {test!r}")

    def above(b):  # p of the null "the centre is <= b"
        return float(sf[int(np.sum(pts > b))])

    def below(b):
        return float(sf[int(np.sum(pts < b))])

    b = rule.bound
    if rule.kind == "greater":
        p_for, p_against = above(b), below(b)
    elif rule.kind == "less":
        p_for, p_against = below(b), above(b)
    else:  # two one-sided tests for; either side of the margin against
        p_for, p_against = max(above(-b), below(b)), min(below(-b), above(b))
    return dict(estimate=est, ci_low=lo, ci_high=hi, p_for=p_for, p_against=p_against)


# --------------------------------------------------------------------------- rates
def clopper_pearson(events: int, trials: int, level: float = LEVEL) -> tuple[float, float]:
    """The exact (Clopper-Pearson) ``level`` interval of a binomial rate; with 0 events its
    upper end is the exact upper limit ``1 - ((1 - level) / 2) ** (1 / trials)``.

    >>> [round(v, 5) for v in clopper_pearson(0, 17)]
    [0.0, 0.19506]
    """
    from scipy import stats

    ci = stats.binomtest(int(events), int(trials)).proportion_ci(level, method="exact")
    return float(ci.low), float(ci.high)


def _binomial_point(k: int, n: int, rule: Rule, bound: float | None = None) -> dict:
    """One grid point's test; ``bound``: the point's own rate bound (then the rule's bound is
    0 and the estimate and interval are the rate minus ``bound``)."""
    from scipy import stats

    b = rule.bound if bound is None else float(bound)
    if not 0 < b < 1:
        raise ValueError(f"a binomial claim needs a bound strictly between 0 and 1; got {b}")
    below = stats.binomtest(k, n, b, alternative="less").pvalue  # null: rate >= b
    above = stats.binomtest(k, n, b, alternative="greater").pvalue
    p_for, p_against = (below, above) if rule.kind == "less" else (above, below)
    lo, hi = clopper_pearson(k, n)
    shift = 0.0 if bound is None else b
    return dict(
        estimate=k / n - shift,
        ci_low=lo - shift,
        ci_high=hi - shift,
        p_for=float(p_for),
        p_against=float(p_against),
    )


def _binomial(points: dict, rule: Rule) -> dict:
    """Pooled counts per grid point ``{label: (events, trials)}`` (or ``(events, trials,
    bound)``: the point's own bound, the rule's bound then 0 and the values rate minus bound):
    the claim must hold at every point (intersection-union: the largest p for it decides), and
    fails if it fails at one (Bonferroni over the points).  The interval shown is that of the
    deciding point."""
    if rule.kind == "within":
        raise ValueError("a binomial claim is 'greater' or 'less' than a rate")
    own = {len(v) == 3 for v in points.values()}
    if own == {True} and rule.bound != 0:
        raise ValueError("grid points with their own bounds need a rule with bound 0")
    res = {
        lab: _binomial_point(int(v[0]), int(v[1]), rule, v[2] if len(v) == 3 else None)
        for lab, v in points.items()
        if v[1] > 0
    }
    worst_for = max(res, key=lambda lab: res[lab]["p_for"])
    worst_against = min(res, key=lambda lab: res[lab]["p_against"])
    p_for = res[worst_for]["p_for"]
    p_against = min(1.0, len(res) * res[worst_against]["p_against"])
    show = worst_for if p_for <= p_against else worst_against
    out = dict(res[show], p_for=p_for, p_against=p_against, point=show)
    out["events"], out["trials"] = (int(v) for v in points[show][:2])
    out["rate"] = out["events"] / out["trials"]
    out["n_points"] = len(res)
    out["largest"] = max(res[lab]["estimate"] for lab in res)
    out["all_trials"] = [
        (int(points[lab][1]), float(points[lab][2]))
        if len(points[lab]) == 3
        else int(points[lab][1])
        for lab in res
    ]
    out["own_bounds"] = own == {True}
    return out


def _cluster(num: np.ndarray, den: np.ndarray, rule: Rule) -> dict:
    """A pooled ratio ``sum(num) / sum(den)`` over seeds, its percentile interval and one-sided
    p-values from a bootstrap that resamples whole seeds (trials of one seed share its stream,
    so they are not independent draws)."""
    est = float(num.sum() / den.sum())
    rng = np.random.default_rng(0)
    idx = rng.integers(0, len(num), (BOOTSTRAP_RESAMPLES, len(num)))
    d = den[idx].sum(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num[idx].sum(1) / d
    r = r[d > 0]
    a = (1 - LEVEL) / 2
    lo, hi = (float(v) for v in np.quantile(r, [a, 1 - a]))

    def above(b):  # p of the null "ratio <= b"
        return (1 + np.sum(r <= b)) / (len(r) + 1)

    def below(b):
        return (1 + np.sum(r >= b)) / (len(r) + 1)

    b = rule.bound
    if rule.kind == "greater":
        p_for, p_against = above(b), below(b)
    elif rule.kind == "less":
        p_for, p_against = below(b), above(b)
    else:
        p_for, p_against = max(above(-b), below(b)), min(below(-b), above(b))
    return dict(estimate=est, ci_low=lo, ci_high=hi, p_for=float(p_for), p_against=float(p_against))


# --------------------------------------------------------------------------- power
def power(rule: Rule, test: str, n_seeds: int, k: int = 1, trials=None) -> float:
    """The probability that the claim's test decides it for the claim at Holm's strictest
    level (``alpha / k``, each one-sided test at half of it) when the truth is the rule's
    ``power_at``: for a paired test by simulation of ``n_seeds`` normal values with the rule's
    ``power_sd`` (fixed seed), for a binomial claim exactly (``trials``: the pooled trials of
    each grid point, all points at that rate), for a cluster bootstrap by the normal
    approximation.  NaN when the rule names no effect (or no spread where one is needed).

    >>> round(power(Rule.greater(0, power_at=1.0, power_sd=1.0), "wilcoxon", 20, k=10), 2)
    0.88
    """
    from scipy import stats

    at = rule.power_at
    if at is None or test == "exact" or n_seeds < 1:
        return math.nan
    a = rule.alpha / (2 * max(int(k), 1))
    b = rule.bound
    if test == "binomial":
        if not trials:
            return math.nan
        out = 1.0
        for n in trials:
            n, b = (int(n[0]), float(n[1])) if isinstance(n, tuple) else (int(n), rule.bound)
            if rule.kind == "less":  # reject "rate >= b" when the count is at most c
                c = int(stats.binom.ppf(a, n, b))
                while c >= 0 and stats.binom.cdf(c, n, b) > a:
                    c -= 1
                out *= float(stats.binom.cdf(c, n, at)) if c >= 0 else 0.0
            else:
                c = int(stats.binom.isf(a, n, b))
                while c <= n and stats.binom.sf(c - 1, n, b) > a:
                    c += 1
                out *= float(stats.binom.sf(c - 1, n, at)) if c <= n else 0.0
        return out
    sd = rule.power_sd
    if sd is None:
        return math.nan
    if test == "cluster":
        if n_seeds < MIN_CLUSTERS:
            return 0.0
        if rule.kind == "within":
            z = (b - abs(at)) * math.sqrt(n_seeds) / sd
        else:
            z = abs(at - b) * math.sqrt(n_seeds) / sd
        return float(stats.norm.cdf(z - stats.norm.isf(a)))
    sf = signed_rank_sf(n_seeds) if test == "wilcoxon" else _sign_sf(n_seeds)
    c = _critical(sf, a)
    if c is None:
        return 0.0
    x = np.random.default_rng(20261207).normal(at, sd, (4000, n_seeds))
    if test == "wilcoxon":
        i, j = np.triu_indices(n_seeds)
        x = (x[:, i] + x[:, j]) / 2.0
    if rule.kind == "greater":
        ok = np.sum(x > b, 1) >= c
    elif rule.kind == "less":
        ok = np.sum(x < b, 1) >= c
    else:
        ok = (np.sum(x > -b, 1) >= c) & (np.sum(x < b, 1) >= c)
    return float(ok.mean())


def _power_text(rule: Rule, test: str, n: int, k: int, trials) -> str:
    p = power(rule, test, n, k, trials)
    if not math.isfinite(p):
        return ""
    at = f"{rule.power_at:+.4g}" if rule.power_at else "0"
    if test == "binomial":
        counts = [t[0] if isinstance(t, tuple) else t for t in trials]
        per = f"{min(counts):,} trials per point" if len(counts) > 1 else f"{counts[0]:,} trials"
        where = f"at a true rate of {rule.power_at:.4g} ({per})"
    else:
        where = f"at {at} (per-seed sd {rule.power_sd:.2g})"
    level = f"level {rule.alpha:g}/{k}" if k > 1 else f"level {rule.alpha:g}"
    return f"power {p:.2f} {where}, {n} seeds, {level}"


# --------------------------------------------------------------------------- intervals, Holm
def t_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student's t interval of the mean (NaN ends for fewer than 2 values).
    For descriptive tables (a learning curve's band); a claim's interval comes from its test.

    >>> [round(v, 4) for v in t_interval([1.0, 2.0, 3.0])]
    [2.0, -0.4841, 4.4841]
    """
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    m = float(x.mean()) if len(x) else math.nan
    if len(x) < 2:
        return m, math.nan, math.nan
    h = float(stats.t.ppf(0.5 + level / 2, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))
    return m, m - h, m + h


def bootstrap_interval(values, level: float = 0.95, seed: int = 0) -> tuple[float, float, float]:
    """(mean, low, high): a percentile bootstrap interval of the mean (scipy, 9,999 resamples
    at a fixed seed)."""
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    m = float(x.mean()) if len(x) else math.nan
    if len(x) < 2 or np.all(x == x[0]):
        return m, (m if len(x) >= 2 else math.nan), (m if len(x) >= 2 else math.nan)
    res = stats.bootstrap(
        (x,), np.mean, confidence_level=level, method="percentile", random_state=seed
    )
    return m, float(res.confidence_interval.low), float(res.confidence_interval.high)


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (NaN entries are left out of the family and stay NaN).

    >>> holm([0.01, 0.04, 0.03, float("nan")]).round(3).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    idx = np.flatnonzero(np.isfinite(p))
    if not len(idx):
        return out
    order = idx[np.argsort(p[idx], kind="stable")]
    k = len(order)
    adj = np.minimum(1.0, np.maximum.accumulate((k - np.arange(k)) * p[order]))
    out[order] = adj
    return out


# --------------------------------------------------------------------------- claims
@dataclass(frozen=True)
class Claim:
    """One claim of a paper and how it is decided.

    ``measure``: a column of the per-seed frame, or a function of one seed's row (a pandas
    Series) giving that seed's value of ``quantity`` (NaN: not measurable at that seed); for
    ``test="binomial"`` a pair ``(events, trials)`` or a dict ``{grid point: (events,
    trials)}``, for ``test="cluster"`` a pair ``(numerator, denominator)`` whose sums over the
    seeds make the ratio.  ``test``: one of :data:`TESTS` (None: the table's default,
    ``"wilcoxon"``).  ``testable``: True, or a sentence saying why the claim cannot be
    decided here (its estimate is still shown when it can be computed; it is left out of
    Holm's family).  ``exercised``: a function of a seed's row saying whether the claim's
    ``condition`` (words: "a false alarm") occurred at that seed; a claim whose condition
    occurred at no seed is *not exercised*.  ``family``: claims are corrected by Holm within
    their family (default: one family per table).  ``evidence``: None (the default line) or a
    function ``(values, frame) -> str`` giving more context, appended to it.  ``fmt``: the
    format of the estimate and interval."""

    claim: str
    where: str
    quantity: str
    measure: str | Callable
    rule: Rule
    testable: bool | str = True
    evidence: Callable | None = None
    fmt: str = "+.4f"
    test: str | None = None  # None: the table's default
    exercised: Callable | None = None
    condition: str = ""
    family: str = ""

    def __post_init__(self):
        if self.test is not None and self.test not in TESTS:
            raise ValueError(f"test must be one of {sorted(TESTS)}; got {self.test!r}")

    def outcomes(self, frame: pd.DataFrame) -> list:
        """What ``measure`` gives at every seed (rows of ``frame``), in order; NaN for a claim
        that is not testable here and whose results were not computed."""
        if isinstance(self.measure, str):
            if self.measure not in frame.columns and self.testable is not True:
                return [math.nan] * len(frame)
            if self.measure not in frame.columns:
                raise ValueError(f"claim {self.claim!r}: no column {self.measure!r} in the results")
            return [float(v) for v in frame[self.measure]]
        try:
            return [self.measure(row) for _, row in frame.iterrows()]
        except (KeyError, AttributeError):
            if self.testable is not True:
                return [math.nan] * len(frame)
            raise

    def values(self, frame: pd.DataFrame) -> np.ndarray:
        """The claim's scalar quantity at every seed (NaN where it is not measurable)."""
        return np.array([_scalar(v) for v in self.outcomes(frame)], dtype=np.float64)


def _scalar(v) -> float:
    if isinstance(v, tuple):
        a, b = (float(x) for x in v)
        return a / b if b else math.nan
    if isinstance(v, dict):
        k = sum(float(x[0]) for x in v.values())
        n = sum(float(x[1]) for x in v.values())
        return k / n if n else math.nan
    return float(v)


def _finite_pairs(outs) -> list:
    return [
        (float(a), float(b)) for a, b in outs if math.isfinite(float(a)) and math.isfinite(float(b))
    ]


def _occurred(c: Claim, row) -> bool:
    try:
        return bool(c.exercised(row))
    except (KeyError, AttributeError, TypeError):  # not measured at that seed
        return False


def _decide(c: Claim, frame: pd.DataFrame, default: str) -> dict:
    """Everything about one claim except Holm's correction: estimate, interval, the two
    one-sided p-values, whether it enters Holm's family, and notes for its evidence."""
    test = c.test or default
    if test not in TESTS:
        raise ValueError(f"test must be one of {sorted(TESTS)}; got {test!r}")
    outs = c.outcomes(frame)
    vals = np.array([_scalar(v) for v in outs], dtype=np.float64)
    finite = ~np.isnan(vals)
    n = int(finite.sum())
    d = dict(
        test=test,
        n=n,
        estimate=math.nan,
        ci_low=math.nan,
        ci_high=math.nan,
        p_for=math.nan,
        p_against=math.nan,
        eligible=False,
        verdict=None,
        notes=[],
        values=vals[finite],
        trials=None,
    )
    if n:
        d["estimate"] = float(np.mean(vals[finite])) if test != "exact" else float(vals[finite][0])
    if c.testable is not True:
        d["verdict"] = "not testable here"
        return d
    rows = [r for _, r in frame.iterrows()]
    if c.exercised is not None:
        hit = [_occurred(c, r) for r in rows]
        if not any(hit):
            d["verdict"] = "not exercised"
            d["notes"].append(
                f"its condition ({c.condition or 'the claim'}) never occurred: 0 of "
                f"{len(rows)} seeds"
            )
            return d
        d["notes"].append(
            f"{c.condition or 'the condition'} occurred at {sum(hit)} of {len(rows)} seeds"
        )
    if test == "exact":
        v = vals[finite]
        if not n:
            d["verdict"] = "inconclusive"
            d["notes"].append("no seed gave a value")
            return d
        ok = np.array([c.rule.holds_at(x) for x in v])
        same = bool(np.all(v == v[0]))
        if not ok.all():
            d["estimate"] = float(v[~ok][0])
        elif same:
            d["estimate"] = float(v[0])
        else:  # the value nearest the boundary
            edge = (
                np.abs(np.abs(v) - c.rule.bound)
                if c.rule.kind == "within"
                else np.abs(v - c.rule.bound)
            )
            d["estimate"] = float(v[np.argmin(edge)])
        d["verdict"] = "holds" if ok.all() else "fails"
        d["notes"].append(
            "an exact computation: the same at every seed"
            if same
            else f"an exact computation at each seed: the claim holds at {int(ok.sum())} of {n}"
        )
        return d
    if test in ("binomial", "cluster"):
        pts: dict = {}
        pooled: dict = {}  # seeds that contributed to each point
        num, den = [], []
        for v, ok in zip(outs, finite):
            if not ok:
                continue
            if test == "cluster":
                a, b = (float(x) for x in v)
                num.append(a)
                den.append(b)
                continue
            for lab, kn in v.items() if isinstance(v, dict) else [("", v)]:
                k0, m0 = pts.get(lab, (0, 0))[:2]
                pts[lab] = (k0 + int(kn[0]), m0 + int(kn[1]), *tuple(kn[2:]))
                pooled[lab] = pooled.get(lab, 0) + 1
        if test == "binomial":
            if not pts or sum(v[1] for v in pts.values()) == 0:
                d["verdict"] = "not exercised"
                d["notes"].append(f"no trial ({c.condition or 'the condition'} never occurred)")
                return d
            r = _binomial(pts, c.rule)
            d.update({k: r[k] for k in ("estimate", "ci_low", "ci_high", "p_for", "p_against")})
            d["trials"] = r["all_trials"]
            where = f" at {r['point']}" if r["point"] else ""
            k = pooled[r["point"]]
            text = f"{r['events']:,} of {r['trials']:,} trials{where}" + (
                f", pooled over {k} seeds" if k > 1 else ""
            )
            if r["n_points"] > 1:
                what = "rate minus its bound" if r["own_bounds"] else "rate"
                text += (
                    f"; the claim must hold at each of {r['n_points']} points (the largest "
                    f"{what} {r['largest']:.4g})"
                )
            if r["events"] == 0:
                up = clopper_pearson(0, r["trials"])[1]
                text += f"; 0 events: the exact upper limit of the rate is {up:.3g}"
            d["notes"].append(text)
        else:
            num, den = np.array(num), np.array(den)
            if not len(den) or den.sum() == 0:
                d["verdict"] = "not exercised"
                d["notes"].append(f"no trial ({c.condition or 'the condition'} never occurred)")
                return d
            if n < MIN_CLUSTERS:
                d["verdict"] = "inconclusive"
                d["estimate"] = float(num.sum() / den.sum())
                d["notes"].append(
                    f"a ratio of sums over {n} seeds; a bootstrap over fewer than "
                    f"{MIN_CLUSTERS} seeds gives no trustworthy interval"
                )
                return d
            r = _cluster(num, den, c.rule)
            d.update(r)
            d["notes"].append(f"a ratio of sums over {n} seeds, resampled by seed")
        d["eligible"] = True
        return d
    v = vals[finite]
    if n < 2:
        d["verdict"] = "inconclusive"
        d["notes"].append("fewer than 2 seeds gave a value")
        return d
    if np.all(v == v[0]) and np.isfinite(v[0]):  # (all infinite: counts, for a sign test)
        d["verdict"] = "inconclusive"
        d["estimate"] = float(v[0])
        d["notes"].append(
            f"every seed gives {v[0]:.6g}: with no spread a rank test has nothing to rank (a "
            "count or a computation should be stated as one)"
        )
        return d
    d.update(_paired(v, c.rule, test))
    d["eligible"] = True
    return d


def table(
    claims: list[Claim],
    per_seed: pd.DataFrame,
    *,
    test: str = "wilcoxon",
    alpha: float | None = None,
) -> pd.DataFrame:
    """The claims table: one row per claim with the columns :data:`COLUMNS`.

    ``per_seed``: one row per seed (:func:`run_seeds`); ``test``: the test of a claim that
    names none (one of :data:`TESTS`; a paired difference over seeds by default); ``alpha``:
    overrides every rule's level.  Holm's correction runs within each ``family`` over the
    claims that are tested (not exact computations, not untestable, not unexercised)."""
    if not claims:
        raise ValueError("no claims to decide")
    decided = [_decide(c, per_seed, test) for c in claims]
    p_dec = np.array(
        [
            min(1.0, 2 * min(d["p_for"], d["p_against"])) if d["eligible"] else math.nan
            for d in decided
        ]
    )
    adj = np.full(len(claims), math.nan)
    sizes = {}
    fams = [c.family for c in claims]
    for fam in dict.fromkeys(fams):
        idx = [i for i, f in enumerate(fams) if f == fam]
        adj[idx] = holm(p_dec[idx])
        sizes[fam] = int(np.isfinite(p_dec[idx]).sum())
    rows = []
    for c, d, p, a in zip(claims, decided, p_dec, adj):
        level = c.rule.alpha if alpha is None else alpha
        k = sizes[c.family]
        verdict = d["verdict"]
        notes = list(d["notes"])
        if d["eligible"]:
            side = "holds" if d["p_for"] <= d["p_against"] else "fails"
            lo, hi = d["ci_low"], d["ci_high"]
            agrees = c.rule.holds_on(lo, hi) if side == "holds" else c.rule.fails_on(lo, hi)
            if a < level and agrees:
                verdict = side
            else:
                verdict = "inconclusive"
                if agrees and k > 1:
                    notes.append(
                        f"the 95 % interval alone lies {_side_words(c.rule, side)}, but the test "
                        f"does not reject at Holm's level over {k} claims"
                    )
                elif a < level:
                    notes.append("the test rejects but the interval does not agree: undecided")
        name = TESTS[d["test"]]
        if d["eligible"]:
            name += f"; Holm over {k}" + (f" ({c.family})" if c.family else "")
        rule = c.rule.describe()
        pw = (
            _power_text(c.rule, d["test"], d["n"], max(k, 1), d["trials"])
            if c.testable is True and d["test"] != "exact"
            else ""
        )
        if pw:
            rule += f"; {pw}"
        row = dict(
            claim=c.claim,
            where=c.where,
            quantity=c.quantity,
            estimate=d["estimate"],
            ci_low=d["ci_low"],
            ci_high=d["ci_high"],
            n_seeds=d["n"],
            test=name,
            p_value=p,
            p_holm=a,
            rule=rule,
            verdict=verdict,
        )
        row["evidence"] = _evidence(c, notes, d, per_seed)
        rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs["alpha"] = ALPHA if alpha is None else alpha
    return out


def _side_words(rule: Rule, side: str) -> str:
    if rule.kind == "within":
        return "inside the margin" if side == "holds" else "outside the margin"
    return "on the claim's side of the boundary" if side == "holds" else "beyond the boundary"


def _evidence(c: Claim, notes, d: dict, frame) -> str:
    vals = d["values"]
    parts = []
    if c.testable is not True:
        parts.append(str(c.testable))
    parts += notes
    if c.evidence is not None:
        extra = str(c.evidence(vals, frame))
        if extra:
            parts.append(extra)
    if d["test"] in ("wilcoxon", "sign") and len(vals):
        f = c.fmt.replace(".4", ".3")
        per = ", ".join(f"{v:{f}}" for v in vals[:20])
        if len(vals) > 20:
            per += ", ..."
        parts.append(f"per seed: {per}")
    elif not len(vals) and c.testable is True and d["test"] != "binomial":
        parts.append("no seed gave a value")
    return "; ".join(parts)


# --------------------------------------------------------------------------- printing
def _fmt_p(p: float) -> str:
    if not math.isfinite(p):
        return "-"
    if p < 1e-300:
        return "< 1e-300"
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


def _fmt_v(v: float, signed: bool = True) -> str:
    if math.isinf(v):
        return ("+" if signed else "") + "∞" if v > 0 else "-∞"
    a, s = abs(v), "+" if signed else ""
    if a >= 1000:
        return f"{v:{s},.0f}"
    if a >= 10:
        return f"{v:{s}.2f}"
    if a and a < 1e-3 and not signed:
        return f"{v:.2g}"
    return f"{v:{s}.4f}"


#: the test's name in a verdict sentence
SHORT = {
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign test",
    "binomial": "exact binomial",
    "cluster": "cluster bootstrap",
    "exact": "exact computation",
}


def _kind(test_column: str) -> str:
    return next((k for k, v in TESTS.items() if str(test_column).startswith(v)), "wilcoxon")


def verdict_sentence(row) -> str:
    """One Markdown sentence for one row of a claims table."""
    est = row["estimate"]
    head = f"- **{row['claim']}** ({row['where']}): **{row['verdict']}**."
    q = row["quantity"][:1].upper() + row["quantity"][1:]
    kind = _kind(row["test"])
    signed = kind in ("wilcoxon", "sign")
    n = row["n_seeds"]
    seeds = f"{n} seed{'s' if n != 1 else ''}"
    if not math.isnan(est) and row["verdict"] != "not exercised":
        head += f" {q}: {_fmt_v(est, signed)}"
        lo, hi = row["ci_low"], row["ci_high"]
        if kind == "exact":
            head += " (exact computation)"
        elif math.isnan(lo):
            head += f" ({seeds})"
        elif lo == -math.inf and hi == math.inf:
            head += f" (no 95 % interval from {seeds})"
        else:
            head += f" [{_fmt_v(lo, signed)}, {_fmt_v(hi, signed)}] (95 %, {seeds})"
        if math.isfinite(row["p_value"]):
            p, ph = _fmt_p(row["p_value"]), _fmt_p(row["p_holm"])
            p = p if p.startswith("<") else f"= {p}"
            head += f"; {SHORT[kind]} p {p}, Holm {ph}"
        head += "."
    head += f" Rule: {row['rule']}."
    ev = str(row["evidence"])
    if ev:
        head += " " + ev[:1].upper() + ev[1:] + ("" if ev.endswith(".") else ".")
    return head


def verdict_text(claims_table: pd.DataFrame, where: str | None = None) -> str:
    """The verdict sentences of a claims table (or of its rows whose ``where`` contains
    ``where``), one Markdown bullet each: what a notebook prints, never types."""
    t = claims_table
    if where is not None:
        t = t[t["where"].str.contains(where, regex=False)]
    return "\n".join(verdict_sentence(r) for _, r in t.iterrows())


def tally(claims_table: pd.DataFrame) -> str:
    """``"3 hold, 1 fails, 2 inconclusive"``: the verdicts of a table counted."""
    counts = claims_table.verdict.value_counts()
    words = {"holds": "hold", "fails": "fail"}
    parts = []
    for v in VERDICTS:
        n = int(counts.get(v, 0))
        if n:
            parts.append(f"{n} {words.get(v, v) if n != 1 else v}")
    return ", ".join(parts)


# --------------------------------------------------------------------------- tuning
@dataclass
class Tuned:
    """The result of :func:`tune`: the best setting, every setting tried (``table``, with its
    score), and per parameter whether the best value is interior (``edges[name] == ""``) or
    why it lies at an edge."""

    best: dict
    score: float
    table: pd.DataFrame
    edges: dict = field(default_factory=dict)

    @property
    def at_edge(self) -> bool:
        return any(self.edges.values())

    def describe(self) -> str:
        vals = ", ".join(f"{k} = {v:.3g}" for k, v in self.best.items())
        notes = "; ".join(f"{k} {v}" for k, v in self.edges.items() if v)
        return vals + (f" ({notes})" if notes else " (interior of its grid)")


def tune(
    score: Callable,
    grids: dict,
    *,
    limits: dict | None = None,
    max_rounds: int = 6,
    refine: int = 0,
    minimise: bool = True,
) -> Tuned:
    """Grid search of ``score(**setting)`` over the product of ``grids`` (``{name: values}``),
    extending a parameter's grid while the best value lies at its end.

    A grid is extended by one value beyond the end where the best lies: by the ratio of its
    last two values (a log-spaced step), or, where that would leave ``limits[name] = (low,
    high)`` (open interval), half way to the limit.  It stops after ``max_rounds`` extensions
    or when the step becomes negligible; a best value still at an edge is then reported in
    ``edges`` (``"at the upper edge of its range (< 0.5)"``), so that a claim can say so.
    Exact ties (a range where the parameter no longer changes the runs) are broken towards the
    inside of the grid, so a plateau that reaches an end stops the extension there.
    ``refine`` rounds then add, for each parameter, the midpoints (geometric for positive
    values) between the best value and its two neighbours, the other parameters held at their
    best: a coarse grid stays cheap and the chosen value is still found to a finer step.

    >>> t = tune(lambda d: (d - 0.3) ** 2, {"d": [0.01, 0.03, 0.1]}, limits={"d": (0, 0.5)})
    >>> round(t.best["d"], 3), t.edges["d"], len(t.table)
    (0.333, '', 5)
    >>> t = tune(lambda d: -d, {"d": [0.1, 0.2, 0.3]}, limits={"d": (0, 0.5)})
    >>> t.at_edge, t.edges["d"]
    (True, 'at the upper edge of its grid, within 0.0062 of the limit 0.5 of its range')
    """
    import itertools

    limits = dict(limits or {})
    grids = {k: sorted(float(v) for v in vals) for k, vals in grids.items()}
    for k, vals in grids.items():
        if len(vals) < 2:
            raise ValueError(f"the grid of {k} needs at least two values")
    names = list(grids)
    seen: dict[tuple, float] = {}

    def evaluate():
        for combo in itertools.product(*(grids[k] for k in names)):
            if combo not in seen:
                seen[combo] = float(score(**dict(zip(names, combo))))

    def best():
        """The best setting; among exact ties (a plateau: the parameter no longer changes the
        runs) the one farthest from the ends of the grids, so that a plateau reaching an end
        is not mistaken for an optimum beyond it."""
        sign = 1.0 if minimise else -1.0
        top = min(sign * v for v in seen.values())
        tied = [c for c in seen if sign * seen[c] <= top + 1e-12 * max(1.0, abs(top))]

        def inner(c):
            return sum(
                min(grids[k].index(v), len(grids[k]) - 1 - grids[k].index(v))
                for k, v in zip(names, c)
            )

        return max(sorted(tied), key=inner)

    evaluate()
    edges = {k: "" for k in names}
    for rnd in range(max_rounds + 1):
        b = best()
        grew = False
        for i, k in enumerate(names):
            vals = grids[k]
            lo, hi = limits.get(k, (-math.inf, math.inf))
            edges[k] = ""
            for end in ("lower", "upper"):
                at = b[i] == (vals[0] if end == "lower" else vals[-1])
                if not at:
                    continue
                new = _extend(vals, end, lo, hi)
                if new is None:
                    lim = lo if end == "lower" else hi
                    edges[k] = (
                        f"at the {end} edge of its grid, within "
                        f"{abs(vals[0 if end == 'lower' else -1] - lim):.2g} of the limit "
                        f"{lim:g} of its range"
                    )
                elif rnd < max_rounds:
                    grids[k] = sorted(vals + [new])
                    grew = True
                else:
                    edges[k] = f"at the {end} edge of its grid after {max_rounds} extensions"
        if not grew:
            break
        evaluate()
    for _ in range(refine):
        b = best()
        for i, k in enumerate(names):
            vals = grids[k]
            j = vals.index(b[i])
            for nb in (vals[j - 1] if j > 0 else None, vals[j + 1] if j + 1 < len(vals) else None):
                if nb is None:
                    continue
                mid = math.sqrt(nb * b[i]) if nb > 0 and b[i] > 0 else (nb + b[i]) / 2
                if mid not in vals:
                    vals.append(mid)
                combo = b[:i] + (mid,) + b[i + 1 :]
                if combo not in seen:
                    seen[combo] = float(score(**dict(zip(names, combo))))
            vals.sort()
    b = best()
    rows = [dict(zip(names, c), score=s) for c, s in seen.items()]
    tab = pd.DataFrame(rows).sort_values(names).reset_index(drop=True)
    return Tuned(dict(zip(names, b)), seen[b], tab, edges)


def _extend(vals, end, lo, hi):
    """The next grid value beyond ``end``: one log-spaced step (a linear one for a grid that
    is not positive) when it stays inside the range, otherwise half way to the range's limit;
    None when that step would be below 1 % of the value (the limit is as good as reached)."""
    a, b = (vals[1], vals[0]) if end == "lower" else (vals[-2], vals[-1])
    lim = lo if end == "lower" else hi
    new = b * (b / a) if a > 0 and b > 0 else b + (b - a)
    if lo < new < hi:
        return float(new)
    if not math.isfinite(lim):
        return None
    new = (b + lim) / 2
    if abs(new - b) < 0.01 * max(abs(b), 1e-12):
        return None
    return float(new)


# --------------------------------------------------------------------------- running seeds
def run_seeds(
    function,
    seeds,
    parts=None,
    *,
    client=None,
    processes=None,
    backend=None,
    progress=True,
) -> pd.DataFrame:
    """One row per seed: the results of ``function(seed=s, **part)`` for every part (a dict of
    keyword arguments, or a list of them), merged, run side by side through
    :func:`workbench.sweep.apply` (local processes by default; ``client=``: a Dask client).

    Each part returns a dict of numbers whose keys no other part uses (prefix them).  The
    frame has a ``seed`` column and one per key, and ``attrs["seconds"]``: the wall time.

    When the environment variable ``WORKBENCH_CLAIMS_CACHE`` names a folder, the rows are kept
    there under a key of the function, the parts, the seeds and the package's sources, and a
    second identical call reads them instead of running again (the test suite uses this so
    that a notebook and a test do not compute the same quick claims twice)."""
    import time

    from . import sweep

    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("no seeds")
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"a seed is listed twice: {seeds}")
    parts = [{}] if parts is None else ([parts] if isinstance(parts, dict) else list(parts))
    name = function if isinstance(function, str) else None
    if name is None:
        from .sweep.cells import import_name

        name = import_name(function, "function")
    key = {"parts": parts, "seeds": seeds}
    frame = cache_get(name, key)
    if frame is not None:
        return frame
    start = time.perf_counter()
    if backend is None and client is None and (processes == 1 or len(seeds) * len(parts) == 1):
        backend, processes = "serial", None  # one process: no pool to start
    df = sweep.apply(
        function,
        seeds,
        parts,
        client=client,
        processes=processes,
        backend=backend,
        progress={"desc": "claims: seeds", "unit": "task"} if progress is True else progress,
    )
    skip = {"function", "kwargs", "error", "cell_seconds", "cpu_seconds", "worker", "finished"}
    frame = None
    for _, rows in df.groupby("kwargs", sort=False):
        keep = rows[[c for c in rows.columns if c not in skip]]
        keep = keep.dropna(axis=1, how="all").set_index("seed")
        if frame is None:
            frame = keep
        else:
            dup = set(frame.columns) & set(keep.columns)
            if dup:
                raise ValueError(f"two parts return the same keys {sorted(dup)}")
            frame = frame.join(keep, how="outer")
    frame = frame.loc[seeds].reset_index()
    frame.attrs["seconds"] = time.perf_counter() - start
    frame.attrs["cpu_seconds"] = float(df.cpu_seconds.sum())
    cache_put(name, key, frame)
    return frame


def _cache_path(name: str, key) -> str | None:
    import hashlib
    import os

    from .sweep.cells import to_json
    from .sweep.worker import _source_stamp

    folder = os.environ.get("WORKBENCH_CLAIMS_CACHE", "").strip()
    if not folder:
        return None
    text = to_json({"name": name, "key": key}) + _source_stamp()
    digest = hashlib.sha256(text.encode()).hexdigest()[:24]
    return os.path.join(folder, f"{name.replace(':', '.')}-{digest}.pkl")


def cache_get(name: str, key) -> pd.DataFrame | None:
    """A per-seed frame kept by :func:`cache_put` under ``(name, key)`` for the current
    sources, or None (always None unless ``WORKBENCH_CLAIMS_CACHE`` names a folder)."""
    import os

    path = _cache_path(name, key)
    if path is None or not os.path.exists(path):
        return None
    frame = pd.read_pickle(path)
    frame.attrs["cached"] = True
    return frame


def cache_put(name: str, key, frame: pd.DataFrame) -> None:
    """Keep ``frame`` for :func:`cache_get` (when ``WORKBENCH_CLAIMS_CACHE`` names a folder):
    a paper whose notebook computes the per-seed results from its figures' frames puts them
    under the key its stand-alone ``claims()`` reads."""
    import os

    path = _cache_path(name, key)
    if path is not None:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        frame.to_pickle(path)


def run(
    spec: list[Claim],
    function,
    parts=None,
    *,
    quick: bool = True,
    seeds=None,
    client=None,
    processes=None,
    progress=True,
    n_quick: int = 3,
    n_full: int = 10,
    test: str = "wilcoxon",
) -> pd.DataFrame:
    """What a paper's ``claims(quick=True, seeds=None, client=None)`` does: run ``function``
    over the seeds (:func:`run_seeds`; ``parts`` its keyword sets) and decide ``spec``
    (:func:`table`).  Seeds default to :func:`default_seeds`.  ``attached(table,
    "per_seed")`` is the frame the verdicts come from; ``table.attrs`` also hold ``seeds``,
    ``quick`` and ``seconds``."""
    seeds = default_seeds(quick, n_quick, n_full) if seeds is None else [int(s) for s in seeds]
    per_seed = run_seeds(
        function, seeds, parts, client=client, processes=processes, progress=progress
    )
    out = table(spec, per_seed, test=test)
    attach(out, "per_seed", per_seed)
    out.attrs.update(
        seeds=seeds,
        quick=bool(quick),
        seconds=per_seed.attrs.get("seconds", float("nan")),
        cpu_seconds=per_seed.attrs.get("cpu_seconds", float("nan")),
        cached=bool(per_seed.attrs.get("cached", False)),
    )
    return out


def attach(claims_table: pd.DataFrame, name: str, frame: pd.DataFrame) -> None:
    """Keep ``frame`` with the table (in ``attrs``, as plain lists: pandas compares ``attrs``
    when it combines frames, which a DataFrame inside them would break)."""
    claims_table.attrs[name] = {"columns": list(frame.columns), "data": frame.to_dict("list")}


def attached(claims_table: pd.DataFrame, name: str = "per_seed") -> pd.DataFrame:
    """The frame :func:`attach` kept with a table (``"per_seed"``: one row per seed)."""
    if name not in claims_table.attrs:
        raise KeyError(f"the table has no attached {name!r}; it has {sorted(claims_table.attrs)}")
    a = claims_table.attrs[name]
    return pd.DataFrame(a["data"], columns=a["columns"])


# --------------------------------------------------------------------------- stored runs
#: folders under a source that hold no code (results are data, caches the machine's own)
_NOT_CODE_DIRS = {"results", "__pycache__", ".ipynb_checkpoints"}
_NOT_CODE_SUFFIXES = (".pyc", ".pyo", ".nbi", ".nbc", ".orig", ".rej", ".swp", "~")
#: the header line of a stored run with the fingerprint of its sources
DIGEST_FIELD = "sources_sha256"


def code_root() -> str:
    """The folder the sources' paths (``workbench/core``) are relative to: the git checkout,
    or the folder that holds the installed package."""
    from pathlib import Path

    from . import provenance

    return provenance.repo_root() or str(Path(__file__).resolve().parent.parent)


def source_digest(sources, root=None) -> dict:
    """``{source: fingerprint}``: for each source (a file or folder relative to ``root``) the
    first 16 hex digits of the SHA-256 of the paths and contents of its code files (every file
    under it but ``results/`` folders, ``__pycache__`` and numba's cache files); ``"missing"``
    for a source that does not exist."""
    import hashlib
    import os
    from pathlib import Path

    root = Path(root or code_root())
    out = {}
    for src in sources:
        p = root / src
        if p.is_file():
            files = [p]
        elif p.is_dir():
            files = []
            for dirpath, dirs, names in os.walk(p):
                dirs[:] = sorted(x for x in dirs if x not in _NOT_CODE_DIRS)
                files += [
                    Path(dirpath) / x
                    for x in sorted(names)
                    if not x.endswith(_NOT_CODE_SUFFIXES) and not x.startswith(".")
                ]
        else:
            out[str(src)] = "missing"
            continue
        h = hashlib.sha256()
        for f in sorted(files):
            h.update(f.relative_to(root).as_posix().encode() + b"\0")
            h.update(f.read_bytes())
            h.update(b"\0")
        out[str(src)] = h.hexdigest()[:16]
    return out


def _write_digest(path, sources, root=None) -> None:
    """Add the fingerprint of ``sources`` to the header of the stored CSV ``path``."""
    from . import provenance

    head = provenance.header(path)
    with open(path) as fh:
        lines = fh.readlines()
    digest = " ".join(f"{k}={v}" for k, v in source_digest(sources, root).items())
    lines.insert(len(head), f"# {DIGEST_FIELD}: {digest}\n")
    with open(path, "w") as fh:
        fh.writelines(lines)


def recorded_digest(path) -> dict | None:
    """The fingerprint a stored run recorded (:func:`source_digest`), or None for a file
    stored without one."""
    from . import provenance

    text = provenance.header(path).get(DIGEST_FIELD)
    if text is None:
        return None
    return dict(item.split("=", 1) for item in text.split())


def changed_sources(path, root=None) -> list[str]:
    """The sources of a stored run whose code differs from the code that made it (compared
    by fingerprint); ``["(no fingerprint)"]`` for a file that recorded none."""
    old = recorded_digest(path)
    if old is None:
        return ["(no fingerprint)"]
    new = source_digest(list(old), root)
    return [k for k in old if old[k] != new[k]]


def stored_note(path, root=None) -> str:
    """One plain sentence about a stored run: when it was made, how to make it again, and
    whether the code that makes it has changed since (and where); never raw git history."""
    from pathlib import Path

    from . import provenance

    path = Path(path)
    if not path.exists():
        return f"No stored results at {path.name}."
    head = provenance.header(path)
    stem = path.stem
    what = {"claims_quick": "quick claims run", "claims_full": "full claims run"}.get(
        stem, f"result {stem}"
    )
    date = head.get("date", "")[:10] or "an unknown date"
    command = head.get("command", "").split("  # ")[0].strip()
    again = f"`{command}` makes it again" if command else "its command is not recorded"
    changed = changed_sources(path, root)
    if not changed:
        return f"Stored {what} of {date}, made by the code as it is now ({again})."
    if changed == ["(no fingerprint)"]:
        return (
            f"Stored {what} of {date}: it records no fingerprint of the code that made it, so "
            f"it may be older than the code; {again}."
        )
    where = ", ".join(changed)
    return (
        f"Stored {what} of {date}: the code that makes it has changed since (in {where}), so "
        f"the code now may give other numbers; {again}."
    )


def save_table(
    claims_table: pd.DataFrame, path, *, command: str, sources, root=None
) -> pd.DataFrame:
    """Store a claims run: its per-seed frame in the CSV ``path`` and every other attached
    frame ``name`` beside it (``<stem>_<name>.csv``), each with the revision, date and command
    that made it (:func:`workbench.provenance.save`) and the fingerprint of its ``sources``
    (:func:`source_digest`), against which :func:`stored_note` and the suite tell whether the
    code has changed since.  The table itself is not stored: it is decided again from the
    per-seed results by :func:`load_table`."""
    from pathlib import Path

    from . import provenance

    path = Path(path)
    for name in claims_table.attrs:
        if isinstance(claims_table.attrs[name], dict) and "columns" in claims_table.attrs[name]:
            target = path if name == "per_seed" else path.with_name(f"{path.stem}_{name}.csv")
            provenance.save(
                attached(claims_table, name), target, command=command, sources=sources, root=root
            )
            _write_digest(target, sources, root)
    return claims_table


def save_frame(frame: pd.DataFrame, path, *, command: str, sources, root=None) -> pd.DataFrame:
    """Store a result frame like :func:`save_table` stores a claims run (provenance and the
    fingerprint of ``sources``; ``root``: the folder they are relative to)."""
    from . import provenance

    provenance.save(frame, path, command=command, sources=sources, root=root)
    _write_digest(path, sources, root)
    return frame


def load_table(spec: list[Claim], path, *, test: str = "wilcoxon") -> pd.DataFrame | None:
    """The claims table of a stored run (:func:`save_table`), decided again from its per-seed
    results with ``spec``; None when nothing is stored at ``path``.  ``attrs["note"]`` is
    :func:`stored_note` (when it was made, how to make it again, whether the code that makes
    it has changed since), ``attrs["changed"]`` the sources that changed, ``attrs["seeds"]``
    its seeds."""
    from pathlib import Path

    from . import provenance

    path = Path(path)
    if not path.exists():
        return None
    per_seed = provenance.load(path)
    out = table(spec, per_seed, test=test)
    attach(out, "per_seed", per_seed)
    for other in sorted(path.parent.glob(f"{path.stem}_*.csv")):
        attach(out, other.stem[len(path.stem) + 1 :], provenance.load(other))
    out.attrs.update(
        provenance=per_seed.attrs["provenance"],
        note=stored_note(path),
        changed=changed_sources(path),
        seeds=[int(v) for v in per_seed.seed],
    )
    return out


def default_seeds(quick: bool, n_quick: int = 3, n_full: int = 10, first: int = 0) -> list[int]:
    """The seeds of a claims run: ``n_quick`` (at least 3) in quick mode, ``n_full`` (at
    least 10 unless a paper states why fewer) in full mode, starting at ``first``."""
    n = n_quick if quick else n_full
    if n < 3:
        raise ValueError("a claims run needs at least 3 seeds")
    return list(range(first, first + n))


__all__ = [
    "COLUMNS",
    "VERDICTS",
    "TESTS",
    "LEVEL",
    "Rule",
    "Claim",
    "table",
    "power",
    "signed_rank_sf",
    "signed_rank_interval",
    "sign_interval",
    "clopper_pearson",
    "t_interval",
    "bootstrap_interval",
    "holm",
    "verdict_sentence",
    "verdict_text",
    "tally",
    "Tuned",
    "tune",
    "run_seeds",
    "run",
    "cache_get",
    "cache_put",
    "attach",
    "attached",
    "code_root",
    "source_digest",
    "recorded_digest",
    "changed_sources",
    "stored_note",
    "save_table",
    "save_frame",
    "load_table",
    "default_seeds",
]
