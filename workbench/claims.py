r"""A paper's claims as data: one row per claim, re-tested over seeds, with an interval, a
paired test, a decision rule fixed before the run, and Holm's correction across the table.

Each paper's package has an entry point ``claims(quick=True, seeds=None, client=None)`` built
from three parts of this module:

1. **What a seed determines.**  A paper writes its experiments as importable functions of a
   seed, ``f(seed=s, **kwargs) -> dict`` of named numbers (risks of several learners on the same
   draws, a tuned parameter, a rate).  :func:`run_seeds` runs them side by side through
   :func:`workbench.sweep.apply` (local processes by default, a Dask cluster with ``client=``)
   and returns one row per seed.
2. **What each claim measures.**  A :class:`Claim` says what the paper claims (its words,
   shortened), where, the quantity (as the paper measures it), how one seed's row gives that
   quantity (a column, or a function of the row: a difference of two learners on the same
   draws is *paired* by seed), and the :class:`Rule` that decides it, written down before the
   run.
3. **The verdicts.**  :func:`table` computes, for each claim, the mean over seeds, its 95 %
   t-interval, the test of the rule's boundary, Holm's correction over the table, and the
   verdict: *holds*, *fails*, *inconclusive* or *not testable here*.  :func:`verdict_text`
   prints a notebook's verdict sentences from that table.

The rules.  ``Rule.greater(b)`` (the claim: the mean is above ``b``), ``Rule.less(b)`` (below
``b``: "no worse than ``b``" is a non-inferiority margin) and ``Rule.within(m)`` (the mean lies
in ``(-m, m)``: "equal" up to a margin).  For each claim the test gives a one-sided p-value for
the claim (null: it is false) and one against it (null: it is true); the claim's p-value is
twice the smaller of the two (the two-sided p at the boundary for ``greater``/``less``).  Holm's
step-down correction runs over the testable claims of the table; a claim whose adjusted p is
below ``alpha`` (0.05) *holds* or *fails* by the side the data fall on, any other is
*inconclusive*.  So the chance that any verdict of the table is a wrong holds or fails is at
most 5 %.  The default test is Student's t on the per-seed values (for a difference of
learners that saw the same streams: the paired t-test); ``test="wilcoxon"`` uses the
signed-rank test and a bootstrap interval (with fewer than 6 seeds it can never reject).

A paper's entry point is then one call of :func:`run` (its claims, its function of a seed, the
parts of that function for the mode), and the notebook prints ``verdict_text(table)``.
:func:`save_table` stores a run's per-seed results with their provenance
(:mod:`workbench.provenance`) and :func:`load_table` decides the claims again from them.

Tuning.  :func:`tune` searches a grid and extends it while the best value lies at an edge, so
that no chosen value sits at the edge of its grid unless the parameter's own range ends there
(then the result says so and the claim's evidence can carry it).

>>> import pandas as pd
>>> from workbench import claims as C
>>> per_seed = pd.DataFrame({"seed": [0, 1, 2, 3, 4],
...                          "risk_a": [0.20, 0.21, 0.19, 0.22, 0.20],
...                          "risk_b": [0.25, 0.27, 0.24, 0.26, 0.26]})
>>> spec = [
...     C.Claim("A beats B", "Fig. 1", "risk of B minus risk of A (final)",
...             lambda r: r.risk_b - r.risk_a, C.Rule.greater(0)),
...     C.Claim("A as good as a risk of 0.2", "Sec. 2", "risk of A minus 0.2",
...             lambda r: r.risk_a - 0.2, C.Rule.less(0.005)),
...     C.Claim("B on the large data set", "Fig. 2", "risk of B", "risk_b", C.Rule.less(0.3),
...             testable="the data set is not shipped"),
... ]
>>> t = C.table(spec, per_seed)
>>> for row in t[["claim", "estimate", "n_seeds", "verdict"]].round(3).values.tolist():
...     print(row)
['A beats B', 0.052, 5, 'holds']
['A as good as a risk of 0.2', 0.004, 5, 'inconclusive']
['B on the large data set', 0.256, 5, 'not testable here']
>>> print(C.verdict_text(t.iloc[:1]))  # doctest: +NORMALIZE_WHITESPACE
- **A beats B** (Fig. 1): **holds**. Risk of B minus risk of A (final): +0.0520
  [+0.0416, +0.0624] (95 %, 5 seeds); paired t p = 1.6e-04, Holm 3.1e-04. Rule: holds if
  the mean > 0, fails if < 0. Per seed: +0.050, +0.060, +0.050, +0.040, +0.060.
"""

from __future__ import annotations

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
VERDICTS = ("holds", "fails", "inconclusive", "not testable here")
ALPHA = 0.05


# --------------------------------------------------------------------------- rules
@dataclass(frozen=True)
class Rule:
    """The decision rule of a claim, fixed before the run: the claim is that the mean of the
    per-seed quantity is ``> bound`` (``greater``), ``< bound`` (``less``) or within
    ``(-bound, bound)`` (``within``); decided at level ``alpha`` after Holm's correction."""

    kind: str
    bound: float
    alpha: float = ALPHA
    note: str = ""  # why this bound (an effect size, a margin), shown with the rule

    def __post_init__(self):
        if self.kind not in ("greater", "less", "within"):
            raise ValueError(f"kind must be 'greater', 'less' or 'within'; got {self.kind!r}")
        if not math.isfinite(self.bound) or (self.kind == "within" and self.bound <= 0):
            raise ValueError(
                f"a {self.kind} rule needs a finite (positive) bound; got {self.bound}"
            )
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be in (0, 1); got {self.alpha}")

    @classmethod
    def greater(cls, bound: float = 0.0, note: str = "", alpha: float = ALPHA) -> "Rule":
        """The claim: the mean is above ``bound`` (an improvement, a positive effect)."""
        return cls("greater", float(bound), alpha, note)

    @classmethod
    def less(cls, bound: float = 0.0, note: str = "", alpha: float = ALPHA) -> "Rule":
        """The claim: the mean is below ``bound`` (a rate below its guarantee; "as good as"
        with a non-inferiority margin ``bound``)."""
        return cls("less", float(bound), alpha, note)

    @classmethod
    def within(cls, margin: float, note: str = "", alpha: float = ALPHA) -> "Rule":
        """The claim: the mean lies in ``(-margin, margin)`` ("the same", up to a margin)."""
        return cls("within", float(margin), alpha, note)

    def describe(self) -> str:
        b = _num(self.bound)
        text = {
            "greater": f"holds if the mean > {b}, fails if < {b}",
            "less": f"holds if the mean < {b}, fails if > {b}",
            "within": f"holds if -{b} < mean < {b}, fails if outside",
        }[self.kind]
        return text + (f" ({self.note})" if self.note else "")

    def one_sided(self, values, test: str = "t") -> tuple[float, float]:
        """(p for the claim, p against it): one-sided p-values of the null "the claim is
        false" and of the null "the claim is true", at the rule's boundary."""
        x = np.asarray(values, dtype=np.float64)
        if self.kind == "greater":
            return _p_above(x, self.bound, test), _p_below(x, self.bound, test)
        if self.kind == "less":
            return _p_below(x, self.bound, test), _p_above(x, self.bound, test)
        m = self.bound
        p_for = max(_p_above(x, -m, test), _p_below(x, m, test))  # both sides (TOST)
        p_against = min(1.0, 2 * min(_p_below(x, -m, test), _p_above(x, m, test)))
        return p_for, p_against


def _num(v: float) -> str:
    return f"{v:.4g}"


def _p_above(x, b, test):
    """One-sided p of the null "mean <= b" (small when the values lie above b)."""
    return _one_sided(x - b, test)


def _p_below(x, b, test):
    return _one_sided(b - x, test)


def _one_sided(d, test):
    """p of the null "the mean of d is <= 0" against "> 0"."""
    from scipy import stats

    n = len(d)
    if n < 2:
        return 1.0
    if np.all(d == d[0]):  # no spread: the sign decides (a t statistic would be infinite)
        return 0.0 if d[0] > 0 else 1.0
    if test == "t":
        return float(stats.ttest_1samp(d, 0.0, alternative="greater").pvalue)
    if test == "wilcoxon":
        if np.all(d == 0):
            return 1.0
        return float(stats.wilcoxon(d, alternative="greater", zero_method="zsplit").pvalue)
    raise ValueError(f"test must be 't' or 'wilcoxon'; got {test!r}")


# --------------------------------------------------------------------------- intervals, Holm
def t_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """(mean, low, high): Student's t interval of the mean (NaN ends for fewer than 2 values).

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
    Series) giving that seed's value of ``quantity`` (NaN: not measurable at that seed).
    ``testable``: True, or a sentence saying why the claim cannot be decided here (its
    estimate is still shown when it can be computed; it is left out of Holm's family).
    ``evidence``: None (the default line: estimate, interval, p, per-seed values) or a
    function ``(values, frame) -> str`` giving more context, appended to it.
    ``fmt``: the format of the estimate and interval."""

    claim: str
    where: str
    quantity: str
    measure: str | Callable
    rule: Rule
    testable: bool | str = True
    evidence: Callable | None = None
    fmt: str = "+.4f"
    test: str | None = None  # None: the table's default

    def values(self, frame: pd.DataFrame) -> np.ndarray:
        """The claim's quantity at every seed (rows of ``frame``); NaN at every seed for a
        claim that is not testable here and whose results were not computed."""
        if isinstance(self.measure, str):
            if self.measure not in frame.columns and self.testable is not True:
                return np.full(len(frame), np.nan)
            if self.measure not in frame.columns:
                raise ValueError(f"claim {self.claim!r}: no column {self.measure!r} in the results")
            return frame[self.measure].to_numpy(dtype=np.float64)
        try:
            return np.array([float(self.measure(row)) for _, row in frame.iterrows()])
        except (KeyError, AttributeError):
            if self.testable is not True:
                return np.full(len(frame), np.nan)
            raise


def table(
    claims: list[Claim], per_seed: pd.DataFrame, *, test: str = "t", alpha: float | None = None
) -> pd.DataFrame:
    """The claims table: one row per claim with the columns :data:`COLUMNS`.

    ``per_seed``: one row per seed (:func:`run_seeds`); ``test``: ``"t"`` (Student / paired
    t, t-interval) or ``"wilcoxon"`` (signed-rank test, bootstrap interval) unless a claim
    sets its own; ``alpha``: overrides every rule's level."""
    if not claims:
        raise ValueError("no claims to decide")
    rows, p_dec, sides = [], [], []
    for c in claims:
        t_name = c.test or test
        vals = c.values(per_seed)
        vals = vals[np.isfinite(vals)]
        n = len(vals)
        m, lo, hi = bootstrap_interval(vals) if t_name == "wilcoxon" and n else t_interval(vals)
        testable = c.testable is True and n >= 2
        if testable:
            p_for, p_against = c.rule.one_sided(vals, t_name)
            p = min(1.0, 2 * min(p_for, p_against))
            side = "holds" if p_for <= p_against else "fails"
        else:
            p, side = math.nan, None
        rows.append(
            dict(
                claim=c.claim,
                where=c.where,
                quantity=c.quantity,
                estimate=m,
                ci_low=lo,
                ci_high=hi,
                n_seeds=n,
                test=_test_name(t_name),
                p_value=p,
                rule=c.rule.describe(),
            )
        )
        p_dec.append(p)
        sides.append(side)
    adj = holm(p_dec)
    k = int(np.isfinite(adj).sum())
    for c, row, a, side in zip(claims, rows, adj, sides):
        level = c.rule.alpha if alpha is None else alpha
        row["p_holm"] = a
        if c.testable is not True:
            verdict = "not testable here"
        elif row["n_seeds"] < 2:
            verdict = "inconclusive"
        elif a < level:
            verdict = side
        else:
            verdict = "inconclusive"
        row["verdict"] = verdict
        if math.isfinite(a):
            row["test"] += f", Holm over {k}"
        vals = c.values(per_seed)
        row["evidence"] = _evidence(c, row, vals[np.isfinite(vals)], per_seed)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs["alpha"] = ALPHA if alpha is None else alpha
    return out


def _test_name(t: str) -> str:
    return {"t": "paired t (t-interval)", "wilcoxon": "Wilcoxon signed-rank (bootstrap CI)"}[t]


def _evidence(c: Claim, row: dict, vals, frame) -> str:
    f = c.fmt
    per = ", ".join(f"{v:{f.replace('.4', '.3')}}" for v in vals[:12])
    if len(vals) > 12:
        per += ", ..."
    parts = []
    if c.testable is not True:
        parts.append(str(c.testable))
    if c.evidence is not None:
        parts.append(str(c.evidence(vals, frame)))
    parts.append(f"per seed: {per}" if len(vals) else "no seed gave a value")
    return "; ".join(parts)


# --------------------------------------------------------------------------- printing
def _fmt_p(p: float) -> str:
    if not math.isfinite(p):
        return "-"
    return f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}"


def verdict_sentence(row) -> str:
    """One Markdown sentence for one row of a claims table."""
    f = "+.4f"
    est = row["estimate"]
    head = f"- **{row['claim']}** ({row['where']}): **{row['verdict']}**."
    q = row["quantity"][:1].upper() + row["quantity"][1:]
    if math.isfinite(est):
        ci = (
            f" [{row['ci_low']:{f}}, {row['ci_high']:{f}}] (95 %, {row['n_seeds']} seeds)"
            if math.isfinite(row["ci_low"])
            else f" ({row['n_seeds']} seed{'s' if row['n_seeds'] != 1 else ''})"
        )
        head += f" {q}: {est:{f}}{ci}"
        if math.isfinite(row["p_value"]):
            test = row["test"].split(" (")[0]
            head += f"; {test} p = {_fmt_p(row['p_value'])}, Holm {_fmt_p(row['p_holm'])}"
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
    test: str = "t",
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


def save_table(claims_table: pd.DataFrame, path, *, command: str, sources) -> pd.DataFrame:
    """Store a claims run: its per-seed frame in the CSV ``path`` and every other attached
    frame ``name`` beside it (``<stem>_<name>.csv``), each with the revision, date and command
    that made it (:func:`workbench.provenance.save`).  The table itself is not stored: it is
    decided again from the per-seed results by :func:`load_table`."""
    from pathlib import Path

    from . import provenance

    path = Path(path)
    for name in claims_table.attrs:
        if isinstance(claims_table.attrs[name], dict) and "columns" in claims_table.attrs[name]:
            target = path if name == "per_seed" else path.with_name(f"{path.stem}_{name}.csv")
            provenance.save(attached(claims_table, name), target, command=command, sources=sources)
    return claims_table


def load_table(spec: list[Claim], path, *, test: str = "t") -> pd.DataFrame | None:
    """The claims table of a stored run (:func:`save_table`), decided again from its per-seed
    results with ``spec``; None when nothing is stored at ``path``.  ``attrs["note"]`` says
    when, from which revision and by which command it was made, and whether the code that
    makes it has changed since; ``attrs["seeds"]`` lists its seeds."""
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
        note=provenance.describe(path),
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
    "Rule",
    "Claim",
    "table",
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
    "save_table",
    "load_table",
    "default_seeds",
]
