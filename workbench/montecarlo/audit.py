r"""Does the tree choose the right split?  Every split a tree made, audited against the truth.

VFDT's guarantee (003 eq. (7), 004 eq. (1)) and C-Tree's (000 Theorem 4) are statements about
the split a leaf chooses: with probability at least ``1 - delta`` the attribute it splits on is
truly the best one in that leaf's region.  For a stream whose generating law is known (RandCBT,
MOA's random tree: :mod:`workbench.streams.truth`) the claim can be checked split by split:

* :func:`split_log` -- one row per split the tree made, in the order made (the tree's own log,
  ``model.split_log()``, where the learner keeps one; otherwise the same frame rebuilt from the
  fitted tree's structure, see below);
* :func:`audit_tree` -- that log joined with the truth: for each split, the truly best feature in
  the node's region, the true gain of the split as made and of the best feature's best cut,
  and whether the choice was wrong;
* :func:`audit_splits` -- many seeds of one stream for each of several learners (through
  :func:`workbench.sweep.apply`): the rate of wrong splits per split and per tree, with exact
  95 % intervals.

The split log
-------------
Columns: ``node``, ``depth``, ``t`` (the tree's instance count when it split), ``n`` (the
leaf's weight when it split), ``looks`` (split attempts that leaf made, this one included),
``feature``, ``threshold`` (NaN for a multiway nominal split, the code ``v`` for a binary
``x == v``), ``tie`` (split by the tie rule, epsilon < tau), ``replaced`` (later replaced or
killed by a re-evaluation, EFDT), ``parent_entry`` (the row whose split the node hangs below,
-1 at the root) and ``branch`` (which branch of that split).

Until a learner records its splits as it makes them, :func:`split_log` rebuilds the frame from
the tree as it stands: every inner node is a split, ``t`` from the node's split time, ``n`` its
class weights (an inner node of a leaf-only learner, such as the Hoeffding tree, keeps the
weights it had when it split; one that keeps learning, EFDT's, does not, and gets NaN),
``looks`` NaN (not recorded), ``replaced`` False (a split that a re-evaluation removed is no
longer in the tree, so it cannot be listed), ``tie`` False when the learner's ``tau`` is 0 (no
tie split is possible) and missing (``pd.NA``) otherwise.

Which splits are wrong
----------------------
A split on feature ``f`` is **wrong** when ``f``'s own best cut in the node's region has a true
gain below ``gain_best - tol``, where ``gain_best`` is the best true gain of any feature's any cut
there: the feature choice is judged, not the cut point (a Gaussian observer's ten candidate cuts
rarely hit the true best threshold).  A split made by the tie rule claims no best feature, so
the summaries count tie splits apart.
"""

from __future__ import annotations

import math
import time
import warnings

import numpy as np

#: the columns of a split log, in order
LOG_COLUMNS = (
    "node",
    "depth",
    "t",
    "n",
    "looks",
    "feature",
    "threshold",
    "tie",
    "replaced",
    "parent_entry",
    "branch",
)

#: the columns :func:`audit_tree` adds to the log
AUDIT_COLUMNS = (
    "best_feature",
    "gain_chosen",
    "gain_feature",
    "gain_best",
    "gain_second",
    "region_mass",
    "wrong",
)

_NUMERIC, _NOMINAL_MULTI, _NOMINAL_BINARY = 1, 2, 3


# =============================================================================================
# The split log
# =============================================================================================


def split_log(model):
    """The splits ``model`` made, one row per split in the order made (module docstring).

    ``model.split_log()`` when the learner keeps a log; otherwise the frame rebuilt from its
    fitted structure (:func:`structure_log`)."""
    own = getattr(model, "split_log", None)
    if callable(own):
        log = own()
        missing = [c for c in LOG_COLUMNS if c not in log.columns]
        if missing:
            raise ValueError(f"{type(model).__name__}.split_log() lacks the columns {missing}")
        return log
    return structure_log(model)


def structure_log(model):
    """The split log rebuilt from a fitted tree's current structure (module docstring): the
    fallback of :func:`split_log` for learners that record no log."""
    import pandas as pd

    T = getattr(model, "tree", None)
    if T is None or not hasattr(T, "kind"):
        raise ValueError(
            f"audit needs a fitted tree learner of workbench.learners; got {type(model).__name__}"
        )
    if hasattr(T, "roots") and T.roots.shape[0] > 1:
        raise ValueError(
            f"{type(model).__name__} holds {T.roots.shape[0]} trees (a forest); audit_tree "
            "audits one tree"
        )
    keeps_learning = _path_update(model)
    tau = getattr(model, "tau", None)
    tie_default = False if tau is not None and float(tau) == 0.0 else pd.NA
    root = int(model.root)
    found = []  # (t_split, node, parent node, branch)
    stack = [(root, -1, -1)]
    while stack:
        u, parent, branch = stack.pop()
        kind = int(T.kind[u])
        if kind in (_NUMERIC, _NOMINAL_MULTI, _NOMINAL_BINARY):
            found.append((int(T.t_split[u]), u, parent, branch))
            for b in range(int(T.n_children[u]) - 1, -1, -1):
                c = int(T.children[u, b])
                if c >= 0:
                    stack.append((c, u, b))
        elif kind not in (0, -1):
            raise ValueError(
                f"node {u} of {type(model).__name__} has a test of kind {kind} (not a feature "
                "test); audit_tree audits feature tests only"
            )
    found.sort()
    row_of = {node: i for i, (_t, node, _p, _b) in enumerate(found)}
    rows = []
    for t, u, parent, branch in found:
        kind = int(T.kind[u])
        rows.append(
            {
                "node": u,
                "depth": int(T.depth[u]),
                "t": t,
                "n": np.nan if keeps_learning else float(T.class_counts[u].sum()),
                "looks": np.nan,
                "feature": int(T.feature[u]),
                "threshold": np.nan if kind == _NOMINAL_MULTI else float(T.threshold[u]),
                "tie": tie_default,
                "replaced": False,
                "parent_entry": row_of.get(parent, -1),
                "branch": int(branch),
            }
        )
    log = pd.DataFrame(rows, columns=list(LOG_COLUMNS))
    log["tie"] = log["tie"].astype("boolean")
    return log


def _path_update(model) -> bool:
    """Whether the learner's inner nodes keep counting examples (EFDT, UFFT)."""
    config = getattr(model, "_config", None)
    if config is None:
        return type(model).__name__ in ("EFDT", "UFFT")
    try:
        from ..core.params import P_UPDATE, UPDATE_PATH

        return int(config.params[P_UPDATE]) == UPDATE_PATH
    except (ImportError, AttributeError, IndexError):
        return type(model).__name__ in ("EFDT", "UFFT")


def region_tests(log, row: int, nominal) -> list:
    """The tests from the root to the node of ``log``'s row ``row``: a list of
    ``(feature, op, value)`` (``op`` one of ``"<="``, ``">"``, ``"=="``, ``"!="``).
    ``nominal``: a container of the nominal features' indices."""
    tests = []
    i = row
    parents = log["parent_entry"].to_numpy()
    branches = log["branch"].to_numpy()
    features = log["feature"].to_numpy()
    thresholds = log["threshold"].to_numpy()
    seen = 0
    while parents[i] >= 0:
        p, b = int(parents[i]), int(branches[i])
        j, thr = int(features[p]), float(thresholds[p])
        if j in nominal:
            if math.isnan(thr):
                tests.append((j, "==", float(b)))
            else:
                tests.append((j, "==" if b == 0 else "!=", thr))
        else:
            tests.append((j, "<=" if b == 0 else ">", thr))
        i = p
        seen += 1
        if seen > len(parents):
            raise ValueError("the split log's parent_entry column has a cycle")
    return tests[::-1]


# =============================================================================================
# One tree
# =============================================================================================


def _truth_of(truth, sample, model):
    """A CellLaw or SampleTruth for ``truth`` (and its nominal features)."""
    from ..streams import truth as tr

    if isinstance(truth, (tr.CellLaw, tr.SampleTruth)):
        law = truth
    elif sample is not None:
        X, y = sample
        nominal = getattr(truth, "nominal_features", None)
        if nominal is None:
            nominal = getattr(model, "nominal_features_", None) or {}
        law = tr.SampleTruth(X, y, nominal)
    else:
        law = tr.law_of(truth)
    if isinstance(law, tr.CellLaw):
        nominal = set(np.flatnonzero(law.nominal).tolist())
    else:
        nominal = set(law.nominal_features)
    return law, nominal


def _nominal_of(model, nominal):
    """The nominal cuts the learner could make: binary tests only when it splits nominal
    features binary (C-Tree), the multiway split and the binary tests otherwise."""
    if nominal is not None:
        if nominal not in ("all", "multiway", "binary"):
            raise ValueError(f"nominal must be 'all', 'multiway' or 'binary'; got {nominal!r}")
        return nominal
    return "binary" if getattr(model, "binary_nominal", False) else "all"


def _criterion_of(model, criterion):
    if criterion is not None:
        return criterion
    c = getattr(model, "criterion", "info_gain")
    return "gini" if c == "gini" else "info_gain"


def audit_tree(
    model,
    truth,
    *,
    tol=1e-3,
    criterion=None,
    nominal=None,
    sample=None,
    log=None,
):
    """Every split ``model`` made, against the truth: one row per split (module docstring).

    Parameters
    ----------
    model : a fitted tree learner (or anything with ``split_log()`` and, without ``log=``,
        a tree).
    truth : the stream's ``StreamInfo`` (``return_info=True``) of ``streams.rand_cbt`` or
        ``streams.random_tree`` (the law is then exact), or a law
        (:class:`workbench.streams.truth.CellLaw`, :class:`~workbench.streams.truth.SampleTruth`).
    tol : a split is wrong when its feature's best true gain is below the best by more than
        ``tol`` (bits for information gain).
    criterion : ``"info_gain"`` (bits) or ``"gini"``; default the model's own criterion when it
        is Gini, information gain otherwise (a user criterion is judged by information gain).
    nominal : the nominal cuts that count: ``"all"`` (multiway and binary ``x == v``, the
        candidates of MOA's and the workbench's Hoeffding trees), ``"multiway"``, ``"binary"``;
        default the learner's own (``"binary"`` when it splits nominal features binary, as
        C-Tree does, ``"all"`` otherwise).
    sample : ``(X, y)``, an independent sample of a stream whose law is not known: the truth is
        then estimated from it (:class:`~workbench.streams.truth.SampleTruth`), and the columns
        ``gain_best_se`` and ``gain_feature_se`` state its error.
    log : a split log to audit instead of ``split_log(model)``.

    Returns
    -------
    pandas.DataFrame
        The log's columns, then ``best_feature`` (truly best in the node's region, over all
        cuts), ``gain_chosen`` (the true gain of the split as made, at its threshold),
        ``gain_feature`` (the chosen feature's own best true gain), ``gain_best`` (the best
        feature's best true gain), ``gain_second`` (the best true gain of any other feature),
        ``region_mass`` (the node region's probability) and ``wrong``.
    """
    import pandas as pd

    tol = float(tol)
    if not tol >= 0.0:
        raise ValueError(f"tol must be a number >= 0; got {tol!r}")
    law, nominal_set = _truth_of(truth, sample, model)
    crit = _criterion_of(model, criterion)
    nominal = _nominal_of(model, nominal)
    log = split_log(model) if log is None else log
    estimated = not hasattr(law, "mass")
    out = []
    for i in range(len(log)):
        tests = region_tests(log, i, nominal_set)
        g = law.feature_gains(tests, criterion=crit, nominal=nominal)
        f = int(log["feature"].iloc[i])
        gains = g["gain"].to_numpy()
        best = int(np.nanargmax(gains)) if np.isfinite(gains).any() else -1
        others = np.delete(gains, f)
        row = {
            "best_feature": best,
            "gain_chosen": law.split_gain(
                tests, f, float(log["threshold"].iloc[i]), criterion=crit
            ),
            "gain_feature": float(gains[f]),
            "gain_best": float(gains[best]) if best >= 0 else np.nan,
            "gain_second": float(np.nanmax(others)) if others.size else np.nan,
            "region_mass": float(law.region_mass(tests))
            if hasattr(law, "region_mass")
            else float(g["n"].iloc[0] / law.X.shape[0]),
            "wrong": bool(best >= 0 and gains[f] < gains[best] - tol),
        }
        if estimated:
            row["gain_feature_se"] = float(g["se"].iloc[f])
            row["gain_best_se"] = float(g["se"].iloc[best]) if best >= 0 else np.nan
        out.append(row)
    cols = list(AUDIT_COLUMNS) + (["gain_feature_se", "gain_best_se"] if estimated else [])
    audit = pd.DataFrame(out, columns=cols, index=log.index)
    result = pd.concat([log.reset_index(drop=True), audit.reset_index(drop=True)], axis=1)
    result["wrong"] = result["wrong"].astype(bool)
    return result


def summarize_audit(audit) -> dict:
    """Counts of one tree's audit: ``splits`` (not made by the tie rule), ``wrong`` among them,
    ``ties`` and ``wrong_ties`` (split by the tie rule), ``wrong_root`` (the root's split was
    wrong and no tie), ``any_wrong`` (at least one wrong split that was no tie)."""
    tie = audit["tie"].fillna(False).to_numpy(bool) if len(audit) else np.zeros(0, bool)
    wrong = audit["wrong"].to_numpy(bool)
    root = (audit["parent_entry"].to_numpy() < 0) if len(audit) else np.zeros(0, bool)
    return {
        "splits": int((~tie).sum()),
        "wrong": int((wrong & ~tie).sum()),
        "ties": int(tie.sum()),
        "wrong_ties": int((wrong & tie).sum()),
        "ties_unknown": int(audit["tie"].isna().sum()) if len(audit) else 0,
        "wrong_root": bool((wrong & ~tie & root).any()),
        "any_wrong": bool((wrong & ~tie).any()),
    }


# =============================================================================================
# Many trees: audit_splits
# =============================================================================================


def _make_stream(stream, stream_kwargs, seed):
    from .. import streams

    fn = getattr(streams, stream, None) if isinstance(stream, str) else stream
    if not callable(fn):
        raise ValueError(f"stream must name a generator of workbench.streams; got {stream!r}")
    return fn(**dict(stream_kwargs), seed=seed, return_info=True)


def _make_learner(maker, info):
    if callable(maker) and not hasattr(maker, "get_params"):
        return maker()
    if hasattr(maker, "get_params"):  # a learner as a template: a fresh copy of it
        from ..sweep.cells import fresh

        return fresh(maker)
    raise ValueError(f"a configuration must be a learner or a function making one; got {maker!r}")


def audit_seed(
    seed, maker, stream, stream_kwargs=None, tol=1e-3, criterion=None, nominal=None
) -> dict:
    """One tree of :func:`audit_splits`: the stream of ``seed``, the learner ``maker`` makes,
    trained test-then-train on it, and its audit summarised (:func:`summarize_audit`), with
    the prequential accuracy, the leaves, the instance of the first split (NaN if none) and
    the seconds spent auditing.  ``maker``: a function of no argument returning a learner, its
    ``"module:qualname"``, or a learner (a fresh copy is trained)."""
    from .. import evaluate
    from ..sweep.cells import resolve_name

    if isinstance(maker, str):
        maker = resolve_name(maker, "learner maker")
    X, y, info = _make_stream(stream, stream_kwargs or {}, seed)
    model = _make_learner(maker, info)
    res = evaluate.prequential(model, X, y)
    t0 = time.perf_counter()
    audit = audit_tree(model, info, tol=tol, criterion=criterion, nominal=nominal)
    out = summarize_audit(audit)
    t_first = audit["t"].min() if len(audit) else np.nan
    out.update(
        accuracy=float(res.accuracy),
        n_leaves=int(model.n_leaves),
        first_split=float(t_first),
        audit_seconds=time.perf_counter() - t0,
    )
    return out


def _clopper_pearson(k, n, level=0.95):
    from scipy import stats

    if n == 0:
        return np.nan, np.nan
    a = (1.0 - level) / 2.0
    lo = 0.0 if k == 0 else float(stats.beta.ppf(a, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1.0 - a, k + 1, n - k))
    return lo, hi


def korn_graubard(wrong, splits, level=0.95):
    r"""Exact-type interval of a rate pooled over clusters: Korn and Graubard's (1998)
    Clopper-Pearson interval with the effective sample size.

    The rate is :math:`\hat p = \sum_i w_i / \sum_i s_i` over trees ``i`` (``w_i`` wrong splits
    among ``s_i``).  Splits of one tree are not independent (they share the tree's stream and
    its earlier choices), so the trees are the independent units: the ratio estimator's
    variance :math:`v = \frac{T}{T-1}\sum_i (w_i - \hat p s_i)^2 / S^2` (``T`` trees, ``S``
    splits) gives the effective number of splits :math:`n^* = \hat p(1-\hat p)/v`, scaled by
    :math:`(t_{T-1}/z)^2` for the ``T - 1`` degrees of freedom and capped at ``S``
    (:math:`n^* = S` when :math:`\hat p = 0` or :math:`v = 0`); the interval is Clopper and
    Pearson's for :math:`\hat p n^*` successes in :math:`n^*` trials (the beta quantiles take
    non-integer counts).  Returns ``(rate, lower, upper, n_effective)``."""
    from scipy import stats

    w = np.asarray(wrong, dtype=float)
    s = np.asarray(splits, dtype=float)
    S = s.sum()
    T = w.size
    if S == 0:
        return np.nan, np.nan, np.nan, 0.0
    p = w.sum() / S
    n_eff = S
    if T > 1 and 0.0 < p < 1.0:
        v = T / (T - 1) * ((w - p * s) ** 2).sum() / S**2
        if v > 0:
            z = stats.norm.ppf(0.5 + level / 2.0)
            t = stats.t.ppf(0.5 + level / 2.0, T - 1)
            n_eff = min(S, p * (1.0 - p) / v * (z / t) ** 2)
    k = p * n_eff
    a = (1.0 - level) / 2.0
    lo = 0.0 if k <= 0 else float(stats.beta.ppf(a, k, n_eff - k + 1))
    hi = 1.0 if k >= n_eff else float(stats.beta.ppf(1.0 - a, k + 1, n_eff - k))
    return float(p), lo, hi, float(n_eff)


def _maker_spec(name, maker):
    """What travels to a worker for ``maker``: the learner itself (rebuilt from its parameters)
    or the maker's importable name; None when it can travel by neither."""
    if hasattr(maker, "get_params"):
        return maker
    from ..sweep.cells import import_name

    try:
        return import_name(maker, f"configuration {name!r}")
    except ValueError:
        return None


def audit_splits(
    configs,
    stream="rand_cbt",
    seeds=range(20),
    client=None,
    *,
    stream_kwargs=None,
    tol=1e-3,
    criterion=None,
    nominal=None,
    level=0.95,
    backend=None,
    processes=None,
    progress=False,
    per_tree=False,
):
    r"""Wrong-split rates of each configuration over many seeds, trees as the independent units.

    Each seed draws its own stream (``stream`` with ``stream_kwargs`` and ``seed=s``) and trains
    one tree of each configuration on it test-then-train; :func:`audit_tree` judges every split
    against the stream's exact law (RandCBT and MOA's random tree).  The seeds run through
    :func:`workbench.sweep.apply` (local worker processes by default, Dask with ``client=``).

    Parameters
    ----------
    configs : ``{name: maker}``, ``maker`` a learner (a fresh copy is trained per seed) or a
        function of no argument returning one.  A maker that worker processes cannot import (a
        lambda, a function defined in a notebook) runs in this process, with a warning.
    stream : the name of a generator of :mod:`workbench.streams` with a known law
        (``"rand_cbt"``, ``"random_tree"``).  seeds : the seeds (one tree per seed).
    stream_kwargs : its keyword arguments (``n``, ``n_leaves``, ...).
    tol, criterion, nominal : as in :func:`audit_tree`.  level : of the intervals (0.95).
    per_tree : also return the per-tree rows (a second DataFrame).

    Returns
    -------
    pandas.DataFrame
        One row per configuration: ``trees``, ``splits`` (not by the tie rule), ``wrong``,
        ``split_rate`` with ``split_low`` / ``split_high`` (Korn and Graubard's exact-type
        interval with the effective number of splits, :func:`korn_graubard`: the splits of one
        tree are not independent, the trees are), ``split_high_naive`` (Clopper-Pearson as if
        every split were independent, for comparison), ``n_effective``, ``trees_wrong`` (trees
        with at least one wrong split), ``tree_rate`` with ``tree_low`` / ``tree_high``
        (Clopper-Pearson over trees), ``root_wrong`` (trees whose root split was wrong),
        ``ties`` and ``wrong_ties`` (tie splits, counted apart), ``ties_unknown`` (splits whose
        kind the fallback log cannot tell), ``accuracy`` (mean prequential accuracy),
        ``leaves`` (mean), ``first_split`` (median instance of the first split over the trees
        that split), ``no_split`` (trees that never split), ``seconds``.
    """
    import pandas as pd

    from .. import sweep

    if not isinstance(configs, dict) or not configs:
        raise ValueError("configs must be a non-empty dict {name: learner or maker}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        raise ValueError("seeds must name at least one seed")
    kw = dict(
        stream=stream,
        stream_kwargs=dict(stream_kwargs or {}),
        tol=float(tol),
        criterion=criterion,
        nominal=nominal,
    )
    if not isinstance(stream, str):
        raise ValueError(f"stream must name a generator of workbench.streams; got {stream!r}")
    rows, trees = [], []
    t0 = time.perf_counter()
    for name, maker in configs.items():
        spec = _maker_spec(name, maker)
        if spec is None:
            warnings.warn(
                f"configuration {name!r}: {maker!r} cannot be imported by worker processes "
                "(a lambda or a function defined in a notebook); its seeds run one after "
                "another in this process",
                stacklevel=2,
            )
            per = pd.DataFrame([dict(seed=s, **audit_seed(s, maker, **kw)) for s in seeds])
        else:
            per = sweep.apply(
                audit_seed,
                seeds=seeds,
                kwargs=dict(kw, maker=spec),
                client=client,
                backend=backend,
                processes=processes,
                progress=progress,
            )
        per = per.assign(config=name)
        trees.append(per)
        rows.append(_summary_row(name, per, level))
    table = pd.DataFrame(rows)
    table["seconds"] = time.perf_counter() - t0
    if per_tree:
        cols = ["config", "seed", "splits", "wrong", "ties", "wrong_ties", "ties_unknown"]
        cols += ["wrong_root", "any_wrong", "accuracy", "n_leaves", "first_split", "audit_seconds"]
        return table, pd.concat(trees, ignore_index=True)[cols]
    return table


def _summary_row(name, per, level):
    splits = per["splits"].to_numpy(int)
    wrong = per["wrong"].to_numpy(int)
    T = len(per)
    rate, lo, hi, n_eff = korn_graubard(wrong, splits, level)
    k_tree = int(per["any_wrong"].astype(bool).sum())
    t_lo, t_hi = _clopper_pearson(k_tree, T, level)
    _n_lo, n_hi = _clopper_pearson(int(wrong.sum()), int(splits.sum()), level)
    first = per["first_split"].to_numpy(float)
    return {
        "config": name,
        "trees": T,
        "splits": int(splits.sum()),
        "wrong": int(wrong.sum()),
        "split_rate": rate,
        "split_low": lo,
        "split_high": hi,
        "split_high_naive": n_hi,
        "n_effective": n_eff,
        "trees_wrong": k_tree,
        "tree_rate": k_tree / T,
        "tree_low": t_lo,
        "tree_high": t_hi,
        "root_wrong": int(per["wrong_root"].astype(bool).sum()),
        "ties": int(per["ties"].sum()),
        "wrong_ties": int(per["wrong_ties"].sum()),
        "ties_unknown": int(per["ties_unknown"].sum()),
        "accuracy": float(per["accuracy"].mean()),
        "leaves": float(per["n_leaves"].mean()),
        "first_split": float(np.nanmedian(first)) if np.isfinite(first).any() else np.nan,
        "no_split": int((~np.isfinite(first)).sum()),
    }
