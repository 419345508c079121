r"""BOCT: the Bayesian online classification tree of Collet and Pietquin (paper 001, Figs. 2-3).

A binary tree for two classes.  A leaf that receives a labelled instance considers every midpoint
between consecutive distinct labelled values of every attribute it holds, scores each test by the
children's weighted credible upper bounds :math:`W_1\epsilon_1(\delta) + W_2\epsilon_2(\delta)`
(eqs. 3-4), and installs the best one when the rule holds; the new children are updated at once,
recursively.  Installed tests are never removed.  The kernels are in
:mod:`workbench.core.stored`.
"""

from __future__ import annotations

import math
import numbers
from types import SimpleNamespace

import numpy as np

from ..bounds.credible import HETEROGENEITY_CODES
from ..core import stored as sd
from ..core import state as st
from ..core.params import (
    BOUND_CREDIBLE,
    BOUND_HOEFFDING,
    CUTS_EXHAUSTIVE,
    N_PARAMS,
    P_BOUND,
    P_CUTS,
    P_DELTA,
    P_SPLIT_RULE,
    RULE_BEST_VS_NULL,
    RULE_CREDIBLE,
    RULE_CREDIBLE_TEXT,
    Config,
)
from ..core.validate import check_choice
from .base import BaseTree

#: the two readings of the split rule (see ``docs/bounds_findings.md``)
READINGS = {"figure3": RULE_CREDIBLE, "text": RULE_CREDIBLE_TEXT}


class BOCT(BaseTree):
    r"""Bayesian Online Classification Tree (001, Figs. 2-3); ``bound="hoeffding"`` is 001's
    Hoeffding baseline.

    Parameters
    ----------
    delta : the credible level :math:`\delta` in (0, 1/2) (the Hoeffding baseline: in (0, 1)).
    heterogeneity : ``"entropy"`` (nats), ``"variance"`` :math:`\mu(1-\mu)` or ``"std"``
        :math:`\sqrt{\mu(1-\mu)}`.
    rule : ``"figure3"`` (default) installs the best test when
        :math:`\min W_1\epsilon_1(\delta) + W_2\epsilon_2(\delta) < W_p\epsilon_p(1-\delta)`, the
        parent's *lower* credible end, as Fig. 3 writes it; ``"text"`` compares with
        :math:`W_p\epsilon_p(\delta)`, the parent's upper end, as Sec. III's text prints it.  The
        3-delta argument (the three one-sided events each of posterior probability delta) needs
        the lower end: with the upper end a useless split is installed with probability 0.88
        (``docs/bounds_findings.md``), so Fig. 3's reading is the default.
    bound : ``"credible"`` (BOCT) or ``"hoeffding"``: the same tree, the same exhaustive search
        for the lowest weighted plug-in heterogeneity of the children, installed when the gain
        :math:`H(\hat\mu_p) - \text{score}/W_p` exceeds
        :math:`\epsilon = H(1/2)\sqrt{\ln(1/\delta) / (2 T_p)}` (best split vs no split).

    :math:`W_s` (eq. 5) counts the rows of the unlabelled pool given by :meth:`set_pool` that
    fall in the subset; without a pool it counts the labelled rows (:math:`T_s`, eq. 1).
    Prediction: the leaf's majority label, 1 on a tie (001's round operator :math:`[\hat\mu]`);
    ``predict_proba`` is the posterior mean :math:`(n_1 + 1) / (n + 2)`.

    Examples
    --------
    >>> from workbench import learners, streams
    >>> X, y = streams.breast_cancer()
    >>> model = learners.BOCT(delta=0.05).set_pool(X[:300]).fit(X[:300], y[:300])
    >>> model.score(X[300:], y[300:]) > 0.85
    True
    """

    _bounds = ("credible", "hoeffding")
    _cut_policy = "exhaustive"

    def __init__(
        self,
        n_features=None,
        n_classes=None,
        *,
        delta=0.05,
        heterogeneity="entropy",
        rule="figure3",
        bound="credible",
        feature_names=None,
        class_names=None,
        split_rule=None,
        grace_schedule=None,
    ):
        self.n_features = n_features
        self.n_classes = n_classes
        self.delta = delta
        self.heterogeneity = heterogeneity
        self.rule = rule
        self.bound = bound
        self.feature_names = feature_names
        self.class_names = class_names
        self.split_rule = split_rule
        self.grace_schedule = grace_schedule

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # 001's BOCT is a two-class learner
        tags.input_tags.allow_nan = False
        return tags

    # ------------------------------------------------------------------ parameters
    def _validated(self, n_features, n_classes, categories=None):
        if n_classes != 2:
            raise ValueError(
                f"Only binary classification is supported. BOCT is defined for two classes "
                f"(paper 001); got {n_classes} classes"
            )
        if categories:
            raise ValueError(
                "BOCT cuts numeric attributes at midpoints; the DataFrame has nominal "
                f"(categorical) columns {sorted(categories)!r}: encode them as numbers first"
            )
        p = SimpleNamespace()
        p.n_features = int(n_features)
        p.n_classes = 2
        p.bound = check_choice(self.bound, "bound", self._bounds)
        for name in ("split_rule", "grace_schedule"):
            value = getattr(self, name)
            if value is not None:
                raise ValueError(
                    f"BOCT takes no {name}: its credible rule (001 Fig. 3) compares every "
                    "midpoint's children in BOCT's own kernel, which calls no user rule or "
                    f"schedule; got {name}={value!r}"
                )
        p.heterogeneity = check_choice(self.heterogeneity, "heterogeneity", HETEROGENEITY_CODES)
        p.rule = check_choice(self.rule, "rule", READINGS)
        dl = self.delta
        upper = 0.5 if p.bound == "credible" else 1.0
        if (
            isinstance(dl, bool)
            or not isinstance(dl, numbers.Real)
            or not 0.0 < dl < upper
            or not math.isfinite(dl)
        ):
            raise ValueError(
                f"delta must be a number in (0, {upper:g}) for bound={p.bound!r}; got {dl!r}"
            )
        p.delta = float(dl)
        p.nominal_features = {}
        p.memory_limit_mb = None
        return p

    def _make_config(self) -> Config:
        q = self._p
        p = np.zeros(N_PARAMS)
        p[P_DELTA] = q.delta
        p[P_BOUND] = BOUND_CREDIBLE if q.bound == "credible" else BOUND_HOEFFDING
        p[P_SPLIT_RULE] = READINGS[q.rule] if q.bound == "credible" else RULE_BEST_VS_NULL
        p[P_CUTS] = CUTS_EXHAUSTIVE
        d = q.n_features
        return Config(p, np.full(d, -1, np.int64), np.zeros(0, np.int64), np.empty((d, 0)))

    def boct_params(self, pool: bool) -> np.ndarray:
        """The parameter vector of the kernels in :mod:`workbench.core.stored`."""
        q = self._p
        bp = np.zeros(sd.N_BP)
        bp[sd.BP_DELTA] = q.delta
        bp[sd.BP_HET] = HETEROGENEITY_CODES[q.heterogeneity]
        bp[sd.BP_RULE] = READINGS[q.rule]
        bp[sd.BP_BOUND] = BOUND_CREDIBLE if q.bound == "credible" else BOUND_HOEFFDING
        bp[sd.BP_WMODE] = sd.W_POOL if pool else sd.W_LABELLED
        return bp

    def _new_tree(self):
        self._state = st.allocate(self.n_features_in_, 2, 0, 1, 2, node_capacity=16)
        sd.reset_tree(self._state)
        self._lab_X = np.empty((0, self.n_features_in_))
        self._lab_y = np.empty(0, np.int64)
        self._tables = self._make_tables(64)
        return self

    def _make_tables(self, max_count):
        q = self._p
        return sd.make_tables(
            q.delta, max_count, HETEROGENEITY_CODES[q.heterogeneity], q.bound == "hoeffding"
        )

    # ------------------------------------------------------------------ the pool (eq. 5)
    def set_pool(self, X_pool):
        r"""The unlabelled instances whose counts are :math:`W_s` (001 eq. 5, semi-supervised).

        ``None`` removes the pool (then :math:`W_s` counts labelled instances, eq. 1).  A model
        that has already learned re-reads its tree's :math:`W_s` at the next ``partial_fit``;
        ``fit`` keeps the pool."""
        if X_pool is None:
            self._pool = None
            return self
        arr = np.asarray(X_pool.to_numpy() if hasattr(X_pool, "to_numpy") else X_pool)
        if arr.ndim != 2 or arr.shape[0] == 0:
            raise ValueError(
                f"the pool must be a non-empty 2-D array [n, d]; got shape {arr.shape}"
            )
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the pool must be numeric ({exc})") from None
        if not np.isfinite(arr).all():
            raise ValueError("the pool holds NaN or infinite values; BOCT needs finite values")
        if self.n_features is not None and arr.shape[1] != self.n_features:
            raise ValueError(
                f"the pool has {arr.shape[1]} columns but n_features={self.n_features}"
            )
        if self._is_set_up() and arr.shape[1] != self.n_features_in_:
            raise ValueError(
                f"the pool has {arr.shape[1]} columns but the model has {self.n_features_in_}"
            )
        self._pool = arr
        return self

    @property
    def pool(self):
        return getattr(self, "_pool", None)

    # ------------------------------------------------------------------ learning
    def fit(self, X, y):
        """Forget everything (the pool stays), then learn (X, y) in order."""
        for attr in ("_lab_X", "_lab_y", "_tables"):
            self.__dict__.pop(attr, None)
        return super().fit(X, y)

    def _learn_checked(self, X, y):
        X = np.asarray(X, np.float64)
        if not np.isfinite(X).all():
            raise ValueError(
                "X holds NaN or infinite values; BOCT cuts at midpoints of finite values"
            )
        pool = self.pool
        if pool is not None and pool.shape[1] != X.shape[1]:
            raise ValueError(f"the pool has {pool.shape[1]} columns but X has {X.shape[1]}")
        n_pool = 0 if pool is None else pool.shape[0]
        old_X, old_y = self._lab_X, self._lab_y
        n_old, n_new = old_X.shape[0], X.shape[0]
        parts = [old_X, X] if pool is None else [pool, old_X, X]
        X_all = np.concatenate(parts)
        w = np.zeros(X_all.shape[0])
        y_all = np.full(X_all.shape[0], -1, np.int64)
        if pool is None:
            w[:n_old] = 1.0
        else:
            w[:n_pool] = 1.0
        y_all[n_pool : n_pool + n_old] = old_y
        n_lab = n_old + n_new
        cap = 2 * n_lab + 3
        T = self._state
        if T.kind.shape[0] < cap:
            T = st.grow(T, cap - int(T.meta[st.M_N_NODES]), 0)
            self._state = T
        S = sd.make_store(X_all, w, T.kind.shape[0])
        S.y[:] = y_all
        sd.sync_sorted(S)
        sd.replay_tree(T, S)
        if self._tables.lo.shape[0] <= n_lab:
            self._tables = self._make_tables(max(2 * n_lab, 64))
        rows = np.arange(n_pool + n_old, n_pool + n_lab, dtype=np.int64)
        sd.label_rows(T, S, self._tables, self.boct_params(pool is not None), rows, y)
        self._lab_X = np.concatenate([old_X, X])
        self._lab_y = np.concatenate([old_y, y])
        self._store = S

    # ------------------------------------------------------------------ prediction
    def _predict_checked(self, X):
        out = np.zeros(X.shape[0], np.int64)
        sd.predict_codes(self._state, X, out, np.zeros(X.shape[0]))
        return out

    def _check_finite(self, X):
        X = self._check_X(X)
        if not np.isfinite(X).all():
            raise ValueError("X holds NaN or infinite values; BOCT needs finite values")
        return X

    def predict(self, X):
        codes = self._predict_checked(self._check_finite(X))
        return codes if self._codes_are_labels else self.classes_[codes]

    def predict_proba(self, X):
        X = self._check_finite(X)
        p1 = np.zeros(X.shape[0])
        sd.predict_codes(self._state, X, np.zeros(X.shape[0], np.int64), p1)
        return np.column_stack([1.0 - p1, p1])

    def apply(self, X):
        X = self._check_finite(X)
        out = np.zeros(X.shape[0], np.int64)
        from ..core import engine

        engine.apply_batch(self._state, X, out)
        return out

    # ------------------------------------------------------------------ explanation
    def leaf_bounds(self, node: int) -> dict:
        """The counts, :math:`W_s` and credible interval of eqs. (3)-(4) of a node."""
        from ..bounds.credible import credible_interval

        T = self._state
        n_pos, n_neg = float(T.class_counts[node, 1]), float(T.class_counts[node, 0])
        store = getattr(self, "_store", None)
        if self.pool is not None and store is not None:
            w = float(store.node_w[node])
        else:
            w = n_pos + n_neg
        lo, up = credible_interval(n_pos, n_neg, self._p.delta, self._p.heterogeneity)
        return dict(node=node, n_pos=n_pos, n_neg=n_neg, W=w, lower=lo, upper=up)

    def explain_one(self, x):
        """The path of x, and at its leaf the best test of the exhaustive search with the two
        numbers of the rule (``quantity`` must exceed ``threshold`` for the test to go in)."""
        from ..core.rules import RULE_LABELS

        X = self._row(x)
        if not np.isfinite(X).all():
            raise ValueError("x holds NaN or infinite values; BOCT needs finite values")
        T = self._state
        ex, node = self._explain_path(X)
        ex.prediction = int(ex.class_counts[1] >= ex.class_counts[0])
        ex.predictor = "majority label (a tie predicts 1, 001's round operator)"
        ex.active = True
        code = int(self._config.params[P_SPLIT_RULE])
        ex.rule, ex.quantity_label, ex.threshold_label = RULE_LABELS[code]
        if self._p.bound == "hoeffding":
            ex.threshold_label = "Hoeffding epsilon"
        ex.bound_name = "credible (001 eq. 4)" if self._p.bound == "credible" else "Hoeffding"
        store = getattr(self, "_store", None)
        if store is None or ex.n == 0:
            ex.reason = "This leaf has no labelled instance yet."
            return ex
        bp = self.boct_params(self.pool is not None)
        j, cut, score, q, t = sd.best_split(T, store, self._tables, bp, node)
        if j < 0:
            ex.reason = "No candidate test: the labelled values are equal on every attribute."
            return ex
        ex.best = dict(feature=self.feature_names_[j], cut=float(cut), score=float(score))
        ex.quantity, ex.threshold = float(q), float(t)
        ex.will_split = bool(q > t)
        ex.reason = (
            f"Best test {self.feature_names_[j]} <= {cut:.6g}: {ex.quantity_label} = {q:.4g} "
            f"{'>' if q > t else '<='} {ex.threshold_label} = {t:.4g}, so the test "
            f"{'passes the rule' if q > t else 'waits for more labels'}."
        )
        return ex

    def _prequential(self, *args, **kwargs):
        raise NotImplementedError(
            "BOCT is pool-based: use workbench.evaluate.pool_curves (001 Sec. V-b)"
        )
