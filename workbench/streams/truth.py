r"""The truth behind a generated stream: the true merit of every split in any region.

A tree learned from a stream of :func:`~workbench.streams.rand_cbt` or
:func:`~workbench.streams.random_tree` can be judged split by split, because the law of the
stream is known exactly: both draw an example by choosing a cell (a leaf of the generating
tree), a point uniform inside it, and a label from the cell's class distribution.  Such a law is
a :class:`CellLaw`: finitely many cells, each a product of an interval per numeric feature and a
set of allowed codes per nominal feature, with its probability and its class distribution.

A *region* is a conjunction of tests (the path from a tree's root to one of its nodes), given as
a list of :class:`Test` (``(feature, op, value)`` with ``op`` one of ``"<="``, ``">"``, ``"=="``,
``"!="``).  Inside a region, :meth:`CellLaw.feature_gains` gives the true merit (information gain
in bits, or the Gini gain) of every feature's **best** cut, and :meth:`CellLaw.split_gain` that
of one given split, exactly:

* a nominal feature's cuts are its multiway split and its binary tests ``x == v``;
* a numeric feature's cuts are all thresholds.  Between two consecutive cell boundaries (the
  *breakpoints* of that feature inside the region) the class weights left of a threshold are
  affine in the threshold, and the branches' weighted impurity, a sum of concave functions of
  those weights (entropy and Gini are concave, and so are their perspectives), is concave in
  it: the gain is convex between breakpoints and its maximum lies on a breakpoint.  Taking the
  best breakpoint is therefore the exact maximum over all thresholds, not a grid search.

For a stream whose law is not known, :class:`SampleTruth` estimates the same quantities from an
independent sample (not the one the tree learned from) and states its own error.

Examples
--------
>>> from workbench import streams
>>> from workbench.streams.truth import law_of
>>> X, y, info = streams.rand_cbt(1000, seed=3, n_leaves=4, d=2, q=0.9, return_info=True)
>>> law = law_of(info)
>>> g = law.feature_gains([])
>>> int(g.gain.idxmax()) in (0, 1), bool(g.gain.max() > 0)
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

CRITERIA = ("info_gain", "gini")
OPS = ("<=", ">", "==", "!=")


class Test(NamedTuple):
    """One test of a path: ``x[feature] <op> value``."""

    feature: int
    op: str
    value: float


def _impurity(w, criterion):
    """Impurity of the rows of ``w`` (class weights along the last axis, unnormalised), times
    the row's weight (so that branches add up)."""
    tot = w.sum(axis=-1)
    safe = np.where(tot > 0, tot, 1.0)
    q = w / safe[..., None]
    if criterion == "gini":
        return tot * (1.0 - (q**2).sum(axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(q > 0, q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    return -tot * terms.sum(axis=-1)


def _check_criterion(criterion):
    if criterion not in CRITERIA:
        raise ValueError(f"criterion must be one of {CRITERIA}; got {criterion!r}")
    return criterion


@dataclass
class CellLaw:
    """A law made of cells, uniform inside each (see the module docstring).

    Attributes
    ----------
    n_values : ``[d]`` the number of codes of each nominal feature, 0 for a numeric one.
    lower, upper : ``[C, d]`` each cell's interval on each numeric feature (nominal columns
        unused).
    allowed : ``[C, d, V]`` the codes each cell allows on each nominal feature (uniform over
        them); numeric columns unused.
    mass : ``[C]`` the probability of each cell.
    class_prob : ``[C, K]`` each cell's class distribution.
    """

    n_values: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    allowed: np.ndarray
    mass: np.ndarray
    class_prob: np.ndarray

    @property
    def n_features(self) -> int:
        return int(self.n_values.shape[0])

    @property
    def n_classes(self) -> int:
        return int(self.class_prob.shape[1])

    @property
    def nominal(self) -> np.ndarray:
        return self.n_values > 0

    # ------------------------------------------------------------------ regions
    def _restrict(self, tests):
        """The cells cut down to the region: (lower, upper, allowed, mass)."""
        lo, hi = self.lower.copy(), self.upper.copy()
        allowed = self.allowed.copy()
        d = self.n_features
        for t in tests:
            j, op, v = int(t[0]), t[1], float(t[2])
            if not 0 <= j < d:
                raise ValueError(f"a test names feature {j}; the law has features 0..{d - 1}")
            if op not in OPS:
                raise ValueError(f"a test's op must be one of {OPS}; got {op!r}")
            if self.nominal[j]:
                if op in ("<=", ">"):
                    raise ValueError(f"feature {j} is nominal: test it with == or !=, not {op}")
                code = int(v)
                if code != v or not 0 <= code < self.n_values[j]:
                    raise ValueError(
                        f"feature {j} has codes 0..{self.n_values[j] - 1}; a test gives {v!r}"
                    )
                keep = np.zeros(allowed.shape[2], bool)
                keep[code] = True
                if op == "!=":
                    keep = ~keep
                allowed[:, j, :] &= keep
            else:
                if op in ("==", "!="):
                    raise ValueError(f"feature {j} is numeric: test it with <= or >, not {op}")
                if op == "<=":
                    hi[:, j] = np.minimum(hi[:, j], v)
                else:
                    lo[:, j] = np.maximum(lo[:, j], v)
        frac = np.ones(self.mass.shape[0])
        for j in range(d):
            if self.nominal[j]:
                had = self.allowed[:, j, :].sum(axis=1)
                frac *= np.where(had > 0, allowed[:, j, :].sum(axis=1) / np.maximum(had, 1), 0.0)
            else:
                width = self.upper[:, j] - self.lower[:, j]
                kept = np.clip(hi[:, j] - lo[:, j], 0.0, None)
                frac *= np.where(width > 0, kept / np.where(width > 0, width, 1.0), 0.0)
        return lo, hi, allowed, self.mass * frac

    def region_mass(self, tests=()) -> float:
        """P(an example falls in the region)."""
        return float(self._restrict(tests)[3].sum())

    def class_distribution(self, tests=()) -> np.ndarray:
        """P(Y = k | region) (NaN if the region has probability 0)."""
        m = self._restrict(tests)[3]
        w = m @ self.class_prob
        tot = w.sum()
        return w / tot if tot > 0 else np.full(self.n_classes, np.nan)

    # ------------------------------------------------------------------ gains
    def _numeric_cuts(self, lo, hi, m, j):
        """Breakpoints of numeric feature j inside the region, and the class weights left of
        each (shape [T, K])."""
        live = m > 0
        if not live.any():
            return np.empty(0), np.empty((0, self.n_classes))
        a, b = lo[live, j], hi[live, j]
        inside = np.unique(np.concatenate([a, b]))
        inside = inside[(inside > a.min()) & (inside < b.max())]
        width = np.where(b > a, b - a, 1.0)
        frac = np.clip((inside[:, None] - a[None, :]) / width[None, :], 0.0, 1.0)
        wcls = m[live, None] * self.class_prob[live]
        return inside, frac @ wcls

    def _nominal_table(self, allowed, m, j):
        """Class weights per code of nominal feature j in the region, shape [V, K]."""
        V = int(self.n_values[j])
        al = allowed[:, j, :V].astype(float)
        n_al = al.sum(axis=1)
        share = np.where(n_al[:, None] > 0, al / np.maximum(n_al, 1)[:, None], 0.0)
        return (share * m[:, None]).T @ self.class_prob

    def feature_gains(self, tests=(), *, criterion="info_gain", nominal="all"):
        """The true merit of every feature's best cut in the region, as a DataFrame.

        Columns: ``feature``, ``kind`` (``"numeric"``/``"nominal"``), ``gain`` (the best cut's
        merit, normalised by the region's probability: the merit a leaf there estimates),
        ``threshold`` (the best numeric threshold, NaN otherwise; the midpoint-free exact
        breakpoint), ``value`` (the code of the best binary nominal test, or -1 when the
        multiway split is best or the feature is numeric), ``multiway`` (a nominal feature's
        multiway gain, NaN for a numeric one).  ``nominal``: which nominal cuts count,
        ``"all"`` (multiway and every ``x == v``), ``"multiway"`` or ``"binary"``.
        """
        import pandas as pd

        criterion = _check_criterion(criterion)
        if nominal not in ("all", "multiway", "binary"):
            raise ValueError(f"nominal must be 'all', 'multiway' or 'binary'; got {nominal!r}")
        lo, hi, allowed, m = self._restrict(tests)
        total = m.sum()
        rows = []
        node = m @ self.class_prob
        base = float(_impurity(node, criterion))
        for j in range(self.n_features):
            row = dict(feature=j, threshold=np.nan, value=-1, multiway=np.nan)
            if total <= 0:
                rows.append(dict(row, kind=self._kind(j), gain=np.nan))
                continue
            if self.nominal[j]:
                tab = self._nominal_table(allowed, m, j)
                multi = (base - _impurity(tab, criterion).sum()) / total
                binary = base - _impurity(tab, criterion) - _impurity(node - tab, criterion)
                binary = binary / total
                best_v = int(np.argmax(binary))
                row["multiway"] = float(multi)
                if nominal == "multiway" or (nominal == "all" and multi >= binary[best_v]):
                    gain = multi
                else:
                    gain, row["value"] = binary[best_v], best_v
                rows.append(dict(row, kind="nominal", gain=float(max(gain, 0.0))))
            else:
                cuts, left = self._numeric_cuts(lo, hi, m, j)
                if cuts.size == 0:
                    rows.append(dict(row, kind="numeric", gain=0.0))
                    continue
                g = base - _impurity(left, criterion) - _impurity(node - left, criterion)
                i = int(np.argmax(g))
                row["threshold"] = float(cuts[i])
                rows.append(dict(row, kind="numeric", gain=float(max(g[i] / total, 0.0))))
        return pd.DataFrame(rows)[["feature", "kind", "gain", "threshold", "value", "multiway"]]

    def _kind(self, j):
        return "nominal" if self.nominal[j] else "numeric"

    def gain_curve(self, tests, feature, thresholds, *, criterion="info_gain"):
        """The true merit of ``x[feature] <= c`` for every ``c`` of ``thresholds`` (a numeric
        feature), to draw against the thresholds a tree chose."""
        return np.array(
            [self.split_gain(tests, feature, float(c), criterion=criterion) for c in thresholds]
        )

    def split_gain(self, tests, feature, threshold=np.nan, *, criterion="info_gain"):
        """The true merit of one split in the region: ``x[feature] <= threshold`` for a numeric
        feature, ``x[feature] == threshold`` for a nominal one given a code, the multiway split
        of a nominal one given NaN."""
        criterion = _check_criterion(criterion)
        j = int(feature)
        lo, hi, allowed, m = self._restrict(tests)
        total = m.sum()
        if total <= 0:
            return np.nan
        node = m @ self.class_prob
        base = float(_impurity(node, criterion))
        if self.nominal[j]:
            tab = self._nominal_table(allowed, m, j)
            if math.isnan(threshold):
                return float(max((base - _impurity(tab, criterion).sum()) / total, 0.0))
            left = tab[int(threshold)]
        else:
            if math.isnan(threshold):
                raise ValueError(f"feature {j} is numeric: its split needs a threshold")
            live = m > 0
            a, b = lo[live, j], hi[live, j]
            width = np.where(b > a, b - a, 1.0)
            frac = np.clip((threshold - a) / width, 0.0, 1.0)
            left = (frac * m[live]) @ self.class_prob[live]
        g = base - _impurity(left, criterion) - _impurity(node - left, criterion)
        return float(max(g / total, 0.0))


# ------------------------------------------------------------------ the generators' laws
def rand_cbt_law(tree) -> CellLaw:
    leaves = tree.leaves
    d = tree.lower.shape[1]
    p1 = tree.p1[leaves]
    return CellLaw(
        n_values=np.zeros(d, np.int64),
        lower=tree.lower[leaves].copy(),
        upper=tree.upper[leaves].copy(),
        allowed=np.ones((leaves.size, d, 1), bool),
        mass=np.full(leaves.size, 1.0 / leaves.size),  # Algorithm 4: equal counts per leaf
        class_prob=np.column_stack([1.0 - p1, p1]),
    )


def random_tree_law(tree) -> CellLaw:
    n_nom, n_num, V, K = tree.n_nominal, tree.n_numeric, tree.n_values, tree.n_classes
    d = n_nom + n_num
    lows, highs, alloweds, labels = [], [], [], []

    def walk(i, lo, hi, al):
        j = int(tree.feature[i])
        if j < 0:
            lows.append(lo.copy())
            highs.append(hi.copy())
            alloweds.append(al.copy())
            labels.append(int(tree.label[i]))
            return
        if j < n_nom:
            for v, c in enumerate(tree.children[i]):
                if c < 0:
                    continue
                a2 = al.copy()
                a2[j, :] = False
                a2[j, v] = True
                walk(int(c), lo, hi, a2)
        else:
            t = float(tree.threshold[i])
            h2 = hi.copy()
            h2[j] = min(h2[j], t)
            walk(int(tree.children[i, 0]), lo, h2, al)
            l2 = lo.copy()
            l2[j] = max(l2[j], t)
            walk(int(tree.children[i, 1]), l2, hi, al)

    al0 = np.zeros((d, max(V, 1)), bool)
    al0[:n_nom, :V] = True
    walk(0, np.zeros(d), np.ones(d), al0)
    lower, upper, allowed = np.array(lows), np.array(highs), np.array(alloweds)
    mass = np.ones(len(labels))
    for j in range(d):
        if j < n_nom:
            mass *= allowed[:, j, :V].sum(axis=1) / V
        else:
            mass *= upper[:, j] - lower[:, j]
    class_prob = np.zeros((len(labels), K))
    class_prob[np.arange(len(labels)), labels] = 1.0
    return CellLaw(
        n_values=np.array([V] * n_nom + [0] * n_num, np.int64),
        lower=lower,
        upper=upper,
        allowed=allowed,
        mass=mass,
        class_prob=class_prob,
    )


def law_of(source) -> CellLaw:
    """The exact law of a generated stream: ``source`` is its ``StreamInfo``
    (``return_info=True``) or its generating tree (``info.tree``) of
    :func:`~workbench.streams.rand_cbt` or :func:`~workbench.streams.random_tree`."""
    tree = getattr(source, "tree", source)
    law = getattr(tree, "law", None)
    if callable(law):  # a generating tree knows its law (rand_cbt's and random_tree's)
        return law()
    name = getattr(source, "name", type(source).__name__)
    raise ValueError(
        f"the law of {name!r} is not known exactly (only rand_cbt's and random_tree's are); "
        "estimate it from an independent sample with SampleTruth(X, y, nominal_features=...)"
    )


# ------------------------------------------------------------------ estimated from a sample
class SampleTruth:
    r"""The same quantities as :class:`CellLaw`, estimated from an independent sample.

    For a stream whose law is not known exactly, draw a large sample that the tree never saw
    (another seed of the generator) and use its plug-in merits as the truth.  Its own error is
    stated with every figure:

    * ``se``: the delta-method standard error of the plug-in information gain (the mutual
      information of label and branch), :math:`\sqrt{(\mathrm{E}[L^2] - I^2)/n}` with
      :math:`L = \log_2 \frac{p(y, b)}{p(y)p(b)}` (for the Gini gain, a plug-in of the same
      form with the Gini gain's influence function is used), ``n`` the region's examples;
    * ``bias``: the first-order bias of the plug-in gain, :math:`(K-1)(B-1)/(2n\ln 2)` bits
      (Miller-Madow; 0 for Gini's, whose bias is of order :math:`1/n` without a closed form);
    * the best numeric cut is searched over every midpoint of the sample's values, so the
      maximum is biased upwards by the search as well (not included in ``se``).

    Parameters
    ----------
    X, y : the independent sample.
    nominal_features : ``{column: n_values}`` (as a learner takes it).
    max_cuts : at most this many candidate thresholds per numeric feature (quantiles of the
        region's values; keyword-only).
    """

    def __init__(self, X, y, nominal_features=None, *, max_cuts=256):
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y)
        if X.ndim != 2 or y.shape != (X.shape[0],):
            raise ValueError(
                f"X must be 2-D and y 1-D of the same length; got {X.shape} and {y.shape}"
            )
        if X.shape[0] == 0:
            raise ValueError("the sample is empty")
        self.X = X
        self.y = y.astype(np.int64)
        self.n_classes = int(self.y.max()) + 1
        self.nominal_features = dict(nominal_features or {})
        self.max_cuts = int(max_cuts)

    @property
    def n_features(self) -> int:
        return self.X.shape[1]

    def _mask(self, tests):
        keep = np.ones(self.X.shape[0], bool)
        for t in tests:
            j, op, v = int(t[0]), t[1], float(t[2])
            x = self.X[:, j]
            if op == "<=":
                keep &= x <= v
            elif op == ">":
                keep &= x > v
            elif op == "==":
                keep &= x == v
            elif op == "!=":
                keep &= x != v
            else:
                raise ValueError(f"a test's op must be one of {OPS}; got {op!r}")
        return keep

    def _table_gain(self, tab, criterion):
        """(gain, se, bias) of a [B, K] count table."""
        n = tab.sum()
        if n <= 0:
            return np.nan, np.nan, np.nan
        node = tab.sum(axis=0)
        g = (_impurity(node, criterion) - _impurity(tab, criterion).sum()) / n
        p = tab / n
        pb = p.sum(axis=1, keepdims=True)
        py = p.sum(axis=0, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            if criterion == "info_gain":
                infl = np.where(p > 0, np.log2(p / (pb * py)), 0.0)
            else:  # influence of one example on the Gini gain
                qb = np.where(pb > 0, p / np.where(pb > 0, pb, 1.0), 0.0)
                gini_b = 1.0 - (qb**2).sum(axis=1, keepdims=True)
                infl = (1.0 - 2.0 * py + (py**2).sum()) - (1.0 - 2.0 * qb + (1.0 - gini_b))
        var = max(float((p * infl**2).sum() - (p * infl).sum() ** 2), 0.0)
        K = int((node > 0).sum())
        B = int((tab.sum(axis=1) > 0).sum())
        bias = (K - 1) * (B - 1) / (2.0 * n * math.log(2.0)) if criterion == "info_gain" else 0.0
        return float(g), math.sqrt(var / n), bias

    def feature_gains(self, tests=(), *, criterion="info_gain", nominal="all"):
        """As :meth:`CellLaw.feature_gains`, with the columns ``se``, ``bias`` and ``n`` (the
        region's examples in the sample) added."""
        import pandas as pd

        criterion = _check_criterion(criterion)
        keep = self._mask(tests)
        X, y = self.X[keep], self.y[keep]
        K = self.n_classes
        rows = []
        for j in range(self.n_features):
            row = dict(feature=j, threshold=np.nan, value=-1, multiway=np.nan, n=int(y.size))
            x = X[:, j]
            ok = ~np.isnan(x)
            if j in self.nominal_features:
                V = int(self.nominal_features[j])
                codes = x[ok].astype(np.int64)
                tab = np.zeros((V, K))
                np.add.at(tab, (codes, y[ok]), 1.0)
                gm, sm, bm = self._table_gain(tab, criterion)
                row["multiway"] = gm
                cands = [] if nominal == "binary" else [(gm, sm, bm, -1)]
                if nominal != "multiway":
                    tot = tab.sum(axis=0)
                    for v in range(V):
                        gb, sb, bb = self._table_gain(np.vstack([tab[v], tot - tab[v]]), criterion)
                        cands.append((gb, sb, bb, v))
                best = max(cands, key=lambda c: -np.inf if np.isnan(c[0]) else c[0])
                rows.append(
                    dict(row, kind="nominal", gain=best[0], se=best[1], bias=best[2], value=best[3])
                )
                continue
            xs, ys = x[ok], y[ok]
            if xs.size < 2:
                rows.append(dict(row, kind="numeric", gain=0.0, se=0.0, bias=0.0))
                continue
            order = np.argsort(xs, kind="stable")
            xs, ys = xs[order], ys[order]
            onehot = np.zeros((xs.size, K))
            onehot[np.arange(xs.size), ys] = 1.0
            cum = np.cumsum(onehot, axis=0)
            ends = np.flatnonzero(np.diff(xs) > 0)  # a cut after row i separates xs[i] < xs[i+1]
            if ends.size == 0:
                rows.append(dict(row, kind="numeric", gain=0.0, se=0.0, bias=0.0))
                continue
            if ends.size > self.max_cuts:
                ends = ends[np.linspace(0, ends.size - 1, self.max_cuts).astype(np.int64)]
            left = cum[ends]
            node = cum[-1]
            g = _impurity(node, criterion) - _impurity(left, criterion)
            g = (g - _impurity(node - left, criterion)) / xs.size
            i = int(np.argmax(g))
            gain, se, bias = self._table_gain(np.vstack([left[i], node - left[i]]), criterion)
            thr = 0.5 * (xs[ends[i]] + xs[ends[i] + 1])
            rows.append(dict(row, kind="numeric", gain=gain, se=se, bias=bias, threshold=thr))
        return pd.DataFrame(rows)[
            ["feature", "kind", "gain", "threshold", "value", "multiway", "se", "bias", "n"]
        ]

    def split_gain(self, tests, feature, threshold=np.nan, *, criterion="info_gain"):
        """As :meth:`CellLaw.split_gain` (the plug-in value on the sample)."""
        criterion = _check_criterion(criterion)
        keep = self._mask(tests)
        x, y = self.X[keep, int(feature)], self.y[keep]
        ok = ~np.isnan(x)
        x, y = x[ok], y[ok]
        K = self.n_classes
        if int(feature) in self.nominal_features and math.isnan(threshold):
            V = int(self.nominal_features[int(feature)])
            tab = np.zeros((V, K))
            np.add.at(tab, (x.astype(np.int64), y), 1.0)
        else:
            left = (x == threshold) if int(feature) in self.nominal_features else x <= threshold
            tab = np.zeros((2, K))
            np.add.at(tab, (np.where(left, 0, 1), y), 1.0)
        return self._table_gain(tab, criterion)[0]
