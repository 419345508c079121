"""Frugal Hoeffding tree (paper 003, Izenov): a Hoeffding tree that learns only the labels of
the instances it is uncertain about."""

from __future__ import annotations

import numpy as np

from ..active.rules import C_QUERIED, C_SEEN
from ..active.strategies import Frugal
from ..core import engine
from ..core.validate import check_positive_int
from .base import BaseTree

_NO_INT = np.empty(0, np.int64)
_NO_INT8 = np.empty(0, np.int8)


class FrugalHoeffdingTree(BaseTree):
    """The Frugal Hoeffding tree of paper 003: VFDT with information gain and Laplace leaves
    (eq. (2), ``(n_k + 1) / (n + K)``) that first learns an initial labelled set S in full (the
    thesis's "Initialize HT(S) in batch mode": its first ``n_initial`` rows), and from then on
    learns an instance only when its prediction is uncertain:

    .. math:: p_1 - p_2 < \\alpha,

    p1 and p2 the two largest class probabilities at the leaf the instance reaches (the rule
    :class:`workbench.active.Frugal`, decided inside the engine's loop, before the instance is
    learned).  The labels of the other instances are never looked at.

    With Laplace leaves the margin is ``(n_(1) - n_(2)) / (n + K) < 1``, so ``alpha = 1`` asks
    for every label and, without an initial set, this is exactly
    ``HoeffdingTree(leaf_prediction="laplace")``.

    ``fit``, ``partial_fit`` and ``learn_one`` learn a labelled stream by this rule (the rows it
    does not ask about are skipped); ``labels_used_`` counts the labels it took (S included).
    ``evaluate.prequential(model, X, y)`` and ``evaluate.minibatch(model, X, y)`` apply the
    same rule (the model's own strategy) and report the labels used; given an explicit
    ``strategy=`` they use that one instead, with no initial set.

    Parameters
    ----------
    alpha : threshold on the margin p1 - p2, in (0, 1]; default 0.8.  The thesis leaves it
        to cross-validation; 0.8 is the smallest alpha of 0.1, 0.2, ..., 1 whose prequential
        error (with the default S) stays within one point of the Hoeffding tree's on SEA,
        Adult and Electricity (notebook 04, Section 6).  Below the class imbalance of the data
        (Adult: 0.5) a tree with a small S freezes at its root.
    n_initial : size of the initial labelled set S, learned in full before the rule starts.
        The thesis gives no size; the default 200 is one grace period, so that the root's first
        split attempt sees full labels.  Without S the rule can stop at once: after one label a
        two-class Laplace leaf has margin 1/3, and with ``alpha <= 1/3`` it never asks again.
    The other parameters are :class:`~workbench.learners.HoeffdingTree`'s; ``criterion``
    defaults to ``"info_gain"`` and ``leaf_prediction`` to ``"laplace"`` (the thesis's choices).

    Examples
    --------
    >>> from workbench import learners, streams, evaluate
    >>> X, y = streams.sea(n=20_000, seed=1)
    >>> model = learners.FrugalHoeffdingTree(n_features=3, n_classes=2, alpha=0.5)
    >>> res = evaluate.prequential(model, X, y)
    >>> res.accuracy > 0.75, res.labels_used < 5_000, model.labels_used_ == res.labels_used
    (True, True, True)
    """

    _defaults = dict(leaf_prediction="laplace")
    _extra_params = dict(alpha=0.8, n_initial=200)

    def _validated(self, n_features, n_classes, categories=None):
        p = super()._validated(n_features, n_classes, categories)
        p.alpha = Frugal(self.alpha).alpha  # (0, 1], with Frugal's error message
        p.n_initial = check_positive_int(self.n_initial, "n_initial", 0)
        return p

    def _new_tree(self):
        super()._new_tree()
        #: [labels queried by the rule, rows the rule saw, -, -] (the engine's C_* slots)
        self._frugal_counters = np.zeros(4, np.int64)
        self._initial_learned = 0
        return self

    # ------------------------------------------------------------------ the rule
    def _frugal_rule(self) -> Frugal:
        """The model's own label-query strategy (the protocols use it when given none)."""
        return Frugal(self._p.alpha)

    def _take_initial(self, n: int) -> int:
        """How many of the next n rows still belong to the initial set S (and count them)."""
        k = max(0, min(n, self._p.n_initial - self._initial_learned))
        self._initial_learned += k
        return k

    @property
    def labels_used_(self) -> int:
        """Labels this model has learned from: S plus those the rule asked for."""
        self._require_fitted()
        return int(self._initial_learned + self._frugal_counters[C_QUERIED])

    @property
    def n_queried_(self) -> int:
        """Rows the Frugal rule was asked about (after S) and how many it took:
        ``(seen, queried)``."""
        self._require_fitted()
        return int(self._frugal_counters[C_SEEN]), int(self._frugal_counters[C_QUERIED])

    def _learn_checked(self, X, y):
        """The thesis's algorithm on validated rows: S in full, then only the uncertain rows."""
        n = X.shape[0]
        k = self._take_initial(n)
        if k:
            self._learn_all(X[:k], y[:k])
        if k < n:
            rule = self._frugal_rule()
            rng = engine.strategy_rng(self._config, rule)
            self._run(
                engine.prequential,
                n,
                X,
                y,
                _NO_INT,
                _NO_INT,
                1,
                engine.active_control(rule.code, 1.0),
                rule.params,
                rule.state,
                # Laplace or MC leaves: None, the kernel's variant that decides from the counts
                # (and then no drift step: engine.drift_state)
                rng,
                engine.drift_state(False, rng),
                self._frugal_counters,
                _NO_INT8,
                start=k,
            )
