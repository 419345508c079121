"""Evaluation protocols: prequential (test-then-train), mini-batch test-then-train, holdout.

Prequential evaluation (Dawid 1984; the FULL setting of paper 000, Algorithm 3): every instance
is first predicted, then learned.  The loop runs inside numba (the learner's test-then-train
kernel); Python only turns the predictions into metrics and curves afterwards.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from .._checks import check_bool, check_int, check_real
from .metrics import _check_class, confusion_matrix, f_measure, kappa, precision, recall


@dataclass
class PrequentialResult:
    """What a prequential run measured.

    accuracy    fraction of instances predicted right before they were learned
    t           instance counts at which the curves are sampled
    curve       running (cumulative) accuracy at ``t``
    window_curve  accuracy over the last ``window`` instances at ``t`` (shows drift)
    n_leaves    leaves of the tree at ``t``
    seconds     wall time of the learning loop (compilation excluded once warmed up)
    """

    accuracy: float
    t: np.ndarray
    curve: np.ndarray
    window_curve: np.ndarray
    n_leaves: np.ndarray
    seconds: float
    n: int
    confusion: np.ndarray
    labels_used: int
    predictions: np.ndarray | None = field(default=None, repr=False)
    #: ACTIVE setting: which rows were labelled, the query rate at ``t``, detected drifts
    queried: np.ndarray | None = field(default=None, repr=False)
    query_rate_curve: np.ndarray | None = field(default=None, repr=False)
    n_drifts: int = 0
    n_warnings: int = 0

    def to_frame(self):
        """The curves as a ``pandas.DataFrame``, one row per sampled instance count ``t``:
        accuracy so far, accuracy over the window, leaves, and (ACTIVE) the query rate."""
        import pandas as pd

        table = {
            "t": self.t,
            "accuracy": self.curve,
            "window_accuracy": self.window_curve,
            "n_leaves": self.n_leaves,
        }
        if self.query_rate_curve is not None:
            table["query_rate"] = self.query_rate_curve
        return pd.DataFrame(table)

    @property
    def query_rate(self) -> float:
        """Fraction of the stream whose label was asked for (1 in the FULL setting)."""
        return self.labels_used / self.n if self.n else float("nan")

    @property
    def instances_per_second(self) -> float:
        return self.n / self.seconds if self.seconds > 0 else float("inf")

    def precision(self, c: int = 1) -> float:
        return precision(self.confusion, c)

    def recall(self, c: int = 1) -> float:
        return recall(self.confusion, c)

    def f_measure(self, c: int = 1, beta: float = 1.0) -> float:
        return f_measure(self.confusion, c, beta)

    @property
    def kappa(self) -> float:
        return kappa(self.confusion)

    @property
    def error_rate(self) -> float:
        return 1.0 - self.accuracy


def _cumulative_right(correct: np.ndarray) -> np.ndarray:
    """``cum[t]``: right answers among the first t instances (``cum[0] = 0``)."""
    # summing int8 into int32 is three times faster than the bool-to-int64 default, and a
    # stream fits int32 up to 2**31 - 1 instances
    acc_t = np.int32 if correct.shape[0] < 2**31 - 1 else np.int64
    return np.concatenate(([0], np.cumsum(correct.view(np.int8), dtype=acc_t)))


def _tally(y: np.ndarray, pred: np.ndarray, n_classes: int, every: int, window: int):
    """What :func:`prequential` reports of its predictions, from one compiled pass over them:
    (right answers, confusion matrix, t, the running accuracy at t, the accuracy over the last
    ``window`` rows at t).  (Those took a few NumPy passes and temporaries: 0.8 ms per 200,000
    rows, 3% of a Hoeffding tree's whole run on SEA.)"""
    n = y.shape[0]
    t = np.arange(every, n + 1, every, dtype=np.int64)
    lo = np.maximum(t - window, 0)
    cm, right_t, right_lo = _tally_pass(y, pred, n_classes, t, lo)
    return (
        int(np.trace(cm)),
        cm,
        t,
        right_t / t,
        (right_t - right_lo) / (t - lo),
    )


@njit(cache=True)
def _tally_pass(y, pred, n_classes, t, lo):
    """The confusion matrix of (y, pred) (codes in range(n_classes)), and the right answers
    among the first ``t[j]`` and the first ``lo[j]`` rows (``t`` and ``lo`` ascending, at most
    the number of rows).

    The confusion matrix is counted in four tables, row i into table i % 4, then summed: one
    table made each count wait for the store of the one before whenever two rows fell in the
    same cell, which with few classes is most rows (0.21 against 0.13 ms for SEA's 200,000 rows
    and 2 classes).  The right answers are summed stretch by stretch between consecutive marks
    of t and lo, each stretch a view, over which the compiler vectorises the comparison; over
    the stretch's indices of ``y`` itself it did not (0.19 against 0.04 ms).  (One loop that
    did both and tested for a mark at every row took 1.35-1.7 times as long as the two.)"""
    K = n_classes
    n = y.shape[0]
    lanes = np.zeros((4, K * K), np.int64)
    whole = n - n % 4
    for i in range(0, whole, 4):
        for lane in range(4):
            lanes[lane, y[i + lane] * K + pred[i + lane]] += 1
    for i in range(whole, n):
        lanes[0, y[i] * K + pred[i]] += 1
    cells = np.zeros(K * K, np.int64)
    for lane in range(4):
        for c in range(K * K):
            cells[c] += lanes[lane, c]
    right_t = np.zeros(t.shape[0], np.int64)
    right_lo = np.zeros(lo.shape[0], np.int64)
    a = 0
    b = 0
    right = 0
    i = 0  # rows summed so far
    while a < t.shape[0] or b < lo.shape[0]:
        mark = n
        if a < t.shape[0]:
            mark = min(mark, t[a])
        if b < lo.shape[0]:
            mark = min(mark, lo[b])
        if mark > i:
            ys = y[i:mark]
            ps = pred[i:mark]
            r = 0
            for j in range(ys.shape[0]):
                r += ys[j] == ps[j]
            right += r
            i = mark
        while a < t.shape[0] and t[a] <= i:
            right_t[a] = right
            a += 1
        while b < lo.shape[0] and lo[b] <= i:
            right_lo[b] = right
            b += 1
    return cells.reshape((K, K)), right_t, right_lo


@njit(cache=True)
def _stretch_counts(flags, every, m):
    """The number of nonzero ``flags`` in each of the first ``m`` stretches of ``every`` rows.
    (NumPy's ``count_nonzero`` along the rows of the reshaped array took 0.55-0.84 ms for
    500,000 flags, 2% of the Frugal tree's whole run on SEA; this loop over a stretch's view,
    which the compiler vectorises, 0.03 ms, and over the stretch's indices of ``flags`` itself
    0.2 ms.)"""
    out = np.zeros(m, np.int64)
    for j in range(m):
        stretch = flags[j * every : (j + 1) * every]
        c = 0
        for i in range(stretch.shape[0]):
            c += stretch[i] != 0
        out[j] = c
    return out


def prequential(
    model,
    X,
    y,
    *,
    strategy=None,
    budget: float | None = None,
    drift_detection: bool = False,
    n_points: int = 500,
    window: int = 1000,
    keep_predictions: bool = True,
    _counters=None,
) -> PrequentialResult:
    """Test-then-train ``model`` on the stream (X, y); the model keeps what it learned.

    Paper 000, Algorithm 3.  Without a ``strategy`` this is the FULL setting: every instance is
    predicted, then learned.  With a strategy (:mod:`workbench.active`) it is the ACTIVE
    setting: every instance is predicted (and counts for the accuracy), the strategy is asked
    whether to query its label only while the query rate would stay within ``budget`` (by
    default the strategy's own ``budget``), and the model learns only the queried instances.

    drift_detection  run DDM on the errors of the labelled instances (for the Split strategies,
                     only of the random sub-stream) and reset the tree on a drift, as paper 000
                     does in its active experiments
    n_points         how many points the curves have (at most one per instance)
    window           width of the sliding window of ``window_curve``
    """
    from .._functions import UserFunctionError
    from ..active.rules import C_DRIFTS, C_QUERIED, C_WARNINGS
    from ..core.engine import N_SPARAMS_MAX, active_control, drift_state, strategy_rng

    _check_model(model)
    _check_strategy(strategy)
    drift_detection = check_bool(drift_detection, "drift_detection")
    keep_predictions = check_bool(keep_predictions, "keep_predictions")
    n_points = check_int(n_points, "n_points", 1)
    window = check_int(window, "window", 1)
    budget = _check_budget(budget, strategy, model)
    if (
        getattr(model, "n_classes", 0) is None
        and hasattr(model, "_is_set_up")
        and not model._is_set_up()
        and len(y) > 0
    ):
        # a learner that does not know its classes: the evaluator holds the whole stream, and
        # its labels are the classes, as fit's are (np.unique sorts y: only when needed, it
        # costs a few ms per 100,000 rows)
        model.prepare(X, classes=np.unique(np.asarray(y)))
    X, y = model._check_Xy(X, y)
    n = X.shape[0]
    n_init = 0
    if strategy is None and hasattr(model, "_frugal_rule"):
        # a learner with its own query rule (003's Frugal tree): its initial set S, then its rule
        strategy = model._frugal_rule()
        n_init = model._take_initial(n)
        if _counters is None:
            _counters = model._frugal_counters
    elif strategy is not None:  # the strategy's own warm-up (active.Custom's n_initial)
        n_init = strategy.take_initial(n)
    if budget is None:
        budget = 1.0 if strategy is None or strategy.budget is None else strategy.budget
    every = max(1, n // n_points)
    pred = np.empty(n, np.int64)
    leaves = np.zeros(n // every, np.int64)
    active = ()
    queried = None
    counters = np.zeros(4, np.int64) if _counters is None else _counters
    before = counters.copy()
    if strategy is not None or drift_detection:
        ddm_mode = 0
        if drift_detection:
            split = strategy is not None and strategy.name.startswith("Split")
            ddm_mode = 2 if split else 1
        control = active_control(-1 if strategy is None else strategy.code, budget, ddm_mode)
        strat = strategy if strategy is not None else None
        queried = np.zeros(n, np.int8)
        # 003's Frugal rule on count leaves gets None: the loop's variant that decides from
        # the counts, without the strategy call (workbench.core.engine.strategy_rng), and
        # without the drift step where drift is not detected (engine.drift_state)
        rng = (
            strategy_rng(getattr(model, "_config", None), strat)
            if strat is not None
            else np.zeros(4, np.uint64)
        )
        active = (
            control,
            strat.params if strat else np.zeros(N_SPARAMS_MAX),
            strat.state if strat else np.ones(1),
            rng,
            drift_state(drift_detection, rng),
            counters,
            queried,
        )
    start = time.perf_counter()
    if n_init:  # the initial set: every label, FULL setting
        model._prequential(X[:n_init], y[:n_init], pred[:n_init], leaves, every)
        queried[:n_init] = 1
    if n_init < n:
        try:
            model._prequential(X, y, pred, leaves, every, *active, start=n_init)
        except Exception as exc:
            rule = getattr(strategy, "rule", None)
            if rule is None:
                raise
            # a user's query rule took part: the error names it too
            cause = exc.__cause__ if isinstance(exc, UserFunctionError) else None
            model._kernel_failed(cause or exc, {"query rule": rule})
    seconds = time.perf_counter() - start
    right, confusion, t, curve, window_curve = _tally(y, pred, model.n_classes_, every, window)
    labels = n_init + int(counters[C_QUERIED] - before[C_QUERIED]) if strategy is not None else n
    rate_curve = None
    if queried is not None:
        # labels asked up to each point t (multiples of ``every``): a count per stretch of
        # ``every`` rows, summed (a cumulative sum over all n rows costs 10-20 times more)
        rate_curve = np.cumsum(_stretch_counts(queried, every, t.shape[0])) / t
        if strategy is None:
            queried = None
    return PrequentialResult(
        accuracy=float(right / n),
        t=t,
        curve=curve,
        window_curve=window_curve,
        n_leaves=leaves,
        seconds=seconds,
        n=n,
        confusion=confusion,
        labels_used=labels,
        predictions=pred if keep_predictions else None,
        queried=queried,
        query_rate_curve=rate_curve,
        n_drifts=int(counters[C_DRIFTS] - before[C_DRIFTS]),
        n_warnings=int(counters[C_WARNINGS] - before[C_WARNINGS]),
    )


def _check_strategy(strategy):
    from ..active import Strategy

    if strategy is not None and not isinstance(strategy, Strategy):
        raise ValueError(
            f"strategy must be a workbench.active strategy (e.g. "
            f"active.ConfTree()); got {strategy!r}"
        )


def _check_model(model, name: str = "model"):
    """A workbench learner (the protocols call its kernels)."""
    if not hasattr(type(model), "_check_Xy") or not hasattr(type(model), "_prequential"):
        raise ValueError(
            f"{name} must be a workbench learner (e.g. learners.HoeffdingTree()); got {model!r:.80}"
        )


def _check_budget(budget, strategy, model):
    """``budget`` checked: a query rate in (0, 1], or None; given without a strategy (and to a
    learner without a query rule of its own) it would limit nothing, so it is an error."""
    if budget is None:
        return None
    budget = check_real(budget, "budget", 0.0, 1.0, low_open=True)
    if strategy is None and not hasattr(model, "_frugal_rule"):
        raise ValueError(
            f"budget={budget!r} limits the labels a strategy asks for, and no strategy was "
            "given, so every label would be used; pass strategy= (e.g. active.ConfTree()) "
            "or leave budget out"
        )
    return budget


@dataclass
class MinibatchResult(PrequentialResult):
    """A mini-batch run (:func:`minibatch`): the prequential summary, sampled once per batch,
    plus every batch's own confusion matrix and the labels learned from it.

    batch_confusion  [n_batches, K, K] counts of (true, predicted) within each batch
    batch_labels     labels learned from each batch (its size when every label is used)
    """

    batch_confusion: np.ndarray | None = field(default=None, repr=False)
    batch_labels: np.ndarray | None = field(default=None, repr=False)

    def per_batch(self, c: int = 1):
        """One row per batch: its size, the precision and recall of class ``c`` and the error
        rate on the batch (predicted before it was learned), and the labels used from it
        (003's Figures 4-15).  A ``pandas.DataFrame``."""
        import pandas as pd

        cms = self.batch_confusion
        _check_class(cms[0], c)
        size = cms.sum(axis=(1, 2))
        right = np.trace(cms, axis1=1, axis2=2)
        pred_c = cms[:, :, c].sum(axis=1)
        true_c = cms[:, c, :].sum(axis=1)
        tp = cms[:, c, c]
        with np.errstate(invalid="ignore", divide="ignore"):
            prec = np.where(pred_c > 0, tp / np.maximum(pred_c, 1), np.nan)
            rec = np.where(true_c > 0, tp / np.maximum(true_c, 1), np.nan)
        return pd.DataFrame(
            {
                "batch": np.arange(1, len(cms) + 1),
                "t": self.t,
                "size": size,
                "precision": prec,
                "recall": rec,
                "error": 1.0 - right / size,
                "labels_used": self.batch_labels,
            }
        )


def minibatch(
    model,
    X,
    y,
    *,
    batch_size: int = 1000,
    window: int = 1000,
    strategy=None,
    budget: float | None = None,
) -> MinibatchResult:
    """Mini-batch test-then-train (the protocol of paper 003): predict a whole batch with the
    current model, then learn it.  Curves are sampled once per batch; ``per_batch(c)`` gives
    each batch's precision, recall, error and labels used.

    With a ``strategy`` (:mod:`workbench.active`, e.g. ``active.Frugal(0.3)``) only the queried
    rows of a batch are learned; every query of a batch is decided from the model as it stood
    at the batch's start, as the batch's predictions are (class probabilities, and the leaf
    each row reaches), in the order of the rows and within ``budget`` as in
    :func:`prequential`.  A learner with its own rule (``FrugalHoeffdingTree``) uses it when no
    strategy is given, after learning its initial set S in full: if S ends inside a batch, the
    rest of that batch is predicted and decided by the model that has learned S.
    """
    _check_model(model)
    batch_size = check_int(batch_size, "batch_size", 1)
    window = check_int(window, "window", 1)
    _check_strategy(strategy)
    budget = _check_budget(budget, strategy, model)
    X, y = model._check_Xy(X, y)
    n = X.shape[0]
    own = strategy is None and hasattr(model, "_frugal_rule")
    counters = np.zeros(4, np.int64)
    if own:
        strategy = model._frugal_rule()
        counters = model._frugal_counters
    if strategy is not None:
        if budget is None:
            budget = 1.0 if strategy.budget is None else strategy.budget
    K = model.n_classes_
    pred = np.empty(n, np.int64)
    n_batches = -(-n // batch_size)
    leaves = np.zeros(n_batches, np.int64)
    labels = np.zeros(n_batches, np.int64)
    queried = np.zeros(n, np.int8) if strategy is not None else None
    start = time.perf_counter()
    for b in range(n_batches):
        lo, hi = b * batch_size, min(n, (b + 1) * batch_size)
        if strategy is None:
            pred[lo:hi] = model._predict_checked(X[lo:hi])
            model._learn_all(X[lo:hi], y[lo:hi])
            labels[b] = hi - lo
            leaves[b] = model.n_leaves
            continue
        # the learner's initial set S (its first rows, learned in full) may end inside the
        # batch: its rows are predicted, then learned; the rest of the batch is predicted and
        # decided by the model that has learned S (the thesis's HT(S)), as a batch of its own
        k = model._take_initial(hi - lo) if own else strategy.take_initial(hi - lo)
        if k:
            pred[lo : lo + k] = model._predict_checked(X[lo : lo + k])
            model._learn_all(X[lo : lo + k], y[lo : lo + k])
            queried[lo : lo + k] = 1
        if lo + k < hi:
            _minibatch_rule(model, X[lo + k : hi], y[lo + k : hi], pred[lo + k : hi],
                            queried[lo + k : hi], strategy, float(budget), counters)  # fmt: skip
        labels[b] = int(queried[lo:hi].sum())
        leaves[b] = model.n_leaves
    seconds = time.perf_counter() - start
    correct = pred == y
    cum = _cumulative_right(correct)
    t = np.minimum(np.arange(1, n_batches + 1) * batch_size, n)
    lo = np.maximum(t - window, 0)
    batch_of = np.arange(n) // batch_size
    bc = np.bincount((batch_of * K + y) * K + pred, minlength=n_batches * K * K).reshape(
        n_batches, K, K
    )
    return MinibatchResult(
        accuracy=float(np.count_nonzero(correct) / n),
        t=t,
        curve=cum[t] / t,
        window_curve=(cum[t] - cum[lo]) / (t - lo),
        n_leaves=leaves,
        seconds=seconds,
        n=n,
        confusion=confusion_matrix(y, pred, K),
        labels_used=int(labels.sum()),
        predictions=pred,
        queried=queried,
        query_rate_curve=None if queried is None else np.cumsum(labels) / t,
        batch_confusion=bc,
        batch_labels=labels,
    )


def _minibatch_rule(model, Xb, yb, pred, mask, strategy, budget, counters):
    """One mini-batch under a query rule: predict every row and decide every query with the
    model as it stands (class probabilities, the leaf each row reaches), in row order and
    within ``budget``; then learn the queried rows.  ``pred`` and ``mask`` are filled."""
    from ..core import engine

    T = model._state
    K = model.n_classes_
    pred[:] = model._predict_checked(Xb)
    proba = np.zeros((Xb.shape[0], K))
    engine.predict_proba(T, model._config, Xb, proba)
    leaf = np.zeros(Xb.shape[0], np.int64)
    engine.apply_batch(T, Xb, leaf)
    counts = T.class_counts[leaf]
    m = counts.sum(axis=1)
    gap = np.where(m > 0, np.abs(counts.max(axis=1) / np.maximum(m, 1e-300) - 0.5), 0.0)
    strategy._decide_rows(budget, proba, counts, gap, m, counters, mask)
    sel = mask.astype(bool)
    if sel.any():
        model._learn_all(Xb[sel], yb[sel])


@dataclass
class HoldoutResult:
    """Accuracy on a fixed test set after every ``every`` training instances."""

    t: np.ndarray
    accuracy: np.ndarray
    n_leaves: np.ndarray
    seconds: float
    confusion: np.ndarray

    @property
    def final_accuracy(self) -> float:
        return float(self.accuracy[-1])

    def to_frame(self):
        """The holdout curve as a ``pandas.DataFrame``: t, accuracy, n_leaves."""
        import pandas as pd

        return pd.DataFrame({"t": self.t, "accuracy": self.accuracy, "n_leaves": self.n_leaves})


def holdout(model, X_train, y_train, X_test, y_test, *, every: int = 1000) -> HoldoutResult:
    """Train on the stream in chunks of ``every`` and measure accuracy on (X_test, y_test)
    after each chunk."""
    _check_model(model)
    every = check_int(every, "every", 1)
    X_train, y_train = model._check_Xy(X_train, y_train)
    X_test, y_test = model._check_Xy(X_test, y_test)
    n = X_train.shape[0]
    ts, accs, leaves = [], [], []
    start = time.perf_counter()
    pred = None
    for lo in range(0, n, every):
        hi = min(n, lo + every)
        model._learn_checked(X_train[lo:hi], y_train[lo:hi])
        pred = model._predict_checked(X_test)
        ts.append(hi)
        accs.append(float((pred == y_test).mean()))
        leaves.append(model.n_leaves)
    seconds = time.perf_counter() - start
    return HoldoutResult(
        t=np.array(ts),
        accuracy=np.array(accs),
        n_leaves=np.array(leaves),
        seconds=seconds,
        confusion=confusion_matrix(y_test, pred, model.n_classes_),
    )
