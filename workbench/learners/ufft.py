"""Ultra Fast Forest Trees (UFFT) of Gama, Medas and Rocha (paper 002)."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from ..core import forest as fo
from ..core import state as st
from ..core.params import P_LOG_LIMIT, P_MAX_NODES
from ..core.forest_steps import (
    F_DRIFTS,
    F_LAST_NODE,
    F_LAST_T,
    F_LAST_TREE,
    F_NB_SPLITS,
    F_SPLITS,
    F_T,
    F_WARNINGS,
)
from ..core import decide as dc
from ..core.validate import check_positive_int
from ._memory import allocate_within, forest_bytes, log_limit, room_for
from .base import BaseTree


def _check_real(value, name, lo, hi=math.inf, lo_open=False):
    ok = (
        not isinstance(value, bool)
        and isinstance(value, numbers.Real)
        and math.isfinite(value)
        and (value > lo if lo_open else value >= lo)
        and value <= hi
    )
    if not ok:
        side = "(" if lo_open else "["
        raise ValueError(f"{name} must be a number in {side}{lo:g}, {hi:g}]; got {value!r}")
    return float(value)


@dataclass
class ForestExplanation:
    """Why a UFFT forest predicts what it predicts for one instance (``UFFT.explain_one``):
    one entry per pairwise tree (its path with each inner node's naive Bayes and DDM levels, its
    leaf and local probabilities) and the sum-rule vote."""

    trees: list = field(default_factory=list)
    votes: np.ndarray | None = None
    proba: np.ndarray | None = None
    prediction: int = -1
    class_names: list = field(default_factory=list)

    def __str__(self) -> str:
        lines = []
        for tr in self.trees:
            a, b = tr["pair"]
            lines.append(
                f"tree {tr['tree']} ({self.class_names[a]} vs {self.class_names[b]}): "
                f"leaf {tr['leaf']}, P = [{tr['proba'][0]:.3f}, {tr['proba'][1]:.3f}]"
            )
            for step in tr["path"]:
                own = "" if step["functional"] else f"; naive Bayes says {step['nb_says']}"
                lines.append(
                    f"  node {step['node']} (depth {step['depth']}): {step['test']} -> "
                    f"{step['outcome']}{own}; {step['ddm']}"
                )
            lines.append(f"  leaf: {tr['reason']}")
        votes = ", ".join(f"{self.class_names[k]}: {v:.3f}" for k, v in enumerate(self.votes))
        lines.append(
            f"sum rule: [{votes}] -> class {self.class_names[self.prediction]} "
            f"(probabilities = sums / {len(self.trees)} trees)"
        )
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython
        p.text(str(self))


def ddm_text(ddm_row, warn_t, warn_level=2.0, drift_level=3.0, min_n=30) -> str:
    """One line on a node's DDM: its error p, s, and how far p + s is from its levels."""
    n, err, p_min, s_min = (float(v) for v in ddm_row)
    if n == 0:
        return "DDM: no instance yet"
    p = err / n
    s = math.sqrt(p * (1 - p) / n)
    if n < min_n or not math.isfinite(p_min):
        return f"DDM: p={p:.3f} after {n:g} (levels from {min_n} on)"
    state = "warning since t=%d" % warn_t if warn_t >= 0 else "in control"
    return (
        f"DDM: NB error p={p:.4f} over {n:g}, p+s={p + s:.4f}, "
        f"warning at {p_min + warn_level * s_min:.4f}, "
        f"drift at {p_min + drift_level * s_min:.4f} ({state})"
    )


def ddm_state(ddm_row, warn_t, min_n=30) -> str:
    """A node's DDM in a few words (its state), short enough for a drawn tree's node label;
    :func:`ddm_text` gives the numbers."""
    n = float(ddm_row[0])
    if n == 0:
        return "DDM: no data yet"
    if n < min_n or not math.isfinite(float(ddm_row[2])):
        return f"DDM: warming up ({n:g} of {min_n})"
    return f"DDM: warning since t={warn_t:,}" if warn_t >= 0 else "DDM: in control"


class UFFT(BaseTree):
    """Ultra Fast Forest Trees (Gama, Medas and Rocha, paper 002): one binary tree per pair of
    classes, analytical cut points, naive Bayes at leaves and inner nodes, drift detection with
    pruning.

    * **Splits.**  For each numeric attribute a leaf keeps each class's mean and variance; the
      cut is the root of the quadratic discriminant of the two class normals weighted by their
      priors, the root closer to the means (:mod:`workbench.core.analytic`), and its merit the
      information gain of the 2 x 2 table filled from the normal CDFs at that point.  A leaf
      splits on its best attribute when the gain is positive and beats the second best by the
      Hoeffding epsilon (VFDT, range 1 bit: every tree has two classes), or on a tie
      (epsilon < tau).
    * **Forest.**  K(K-1)/2 binary trees in one state (:mod:`workbench.core.forest`); tree r
      holds the pair ``pairs_[r] = (a, b)`` with a < b as its local classes 0 and 1.  An
      instance of class c trains the K - 1 trees whose pair holds c; prediction adds every
      tree's two local probabilities into the K classes (sum rule), divided by the number of
      trees.
    * **Leaves** predict by naive Bayes from the Gaussian statistics (``leaf_prediction="nb"``;
      ``"mc"`` for the majority class).
    * **Functional inner nodes** (``nb_splits``).  When a split test ends in a tie (the two best
      attributes are not separated by epsilon), the leaf starts scoring its naive Bayes as an
      extra attribute: a 2 x 2 table of its prediction against the class of every instance that
      arrives.  At a later test, if that attribute's gain beats the best single attribute's by
      epsilon (at the table's weight) and is *below* ``nb_split_threshold``, the leaf becomes a
      node whose branch is the class its naive Bayes predicts.  The paper's text lost the word
      that compares the gain with the threshold; its argument ("if the naive Bayes predictions
      are accurate the gain is high, and then there is no need to expand the leaf") says
      *below*: a leaf whose naive Bayes is already accurate keeps predicting with it.
      ``nb_split_gain="above"`` takes the other reading (the gain must exceed the threshold),
      so the two can be compared.
    * **Short-term memory** of the last ``buffer_size`` instances (a ring buffer,
      :mod:`workbench.core.memory`, shared by all trees): new leaves start from the remembered
      instances of their pair that reach them.
    * **Drift** (``drift_detection``): every inner node keeps learning (its Gaussian statistics
      give it a naive Bayes) and runs DDM on that naive Bayes' online error: warning at
      ``p + s > p_min + ddm_warning s_min``, drift at ``p + s > p_min + ddm_drift s_min`` (MOA's
      strict comparisons, from ``ddm_min_instances`` on).  On a drift the top-most drifting
      node on the instance's path loses its subtree and becomes a leaf rebuilt from the
      instances remembered since the warning began.  That is where 002 starts the new context,
      and the leaves that later grow below the node start from its rows only (rows from
      before the warning stay forgotten; elsewhere new leaves start from the whole memory).

    Numeric attributes only (the method is defined for them); a nominal column is an error.

    Defaults (the paper's own numbers were lost from its text):

    ========================  ========  =======================================================
    grace_period              200       VFDT's n_min (Domingos and Hulten; MOA, River)
    delta                     1e-7      VFDT's confidence (MOA, River)
    tau                       0.05      VFDT's tie threshold (MOA, River)
    buffer_size               1000      five grace periods: room to fill the two new leaves
                                        of a split with a grace period's worth of instances
    nb_split_threshold        0.5       bits; a naive Bayes better than ~89% on a balanced
                                        pair (gain 0.5) is left to predict at the leaf
    nb_split_gain             "below"   the paper's argument (see functional inner nodes)
    ddm_min_instances         30        DDM (Gama et al. 2004; MOA)
    ddm_warning, ddm_drift    2, 3      DDM's levels, as 002 states them
    leaf_prediction           "nb"      002: naive Bayes leaves
    ========================  ========  =======================================================

    ``bound`` is 002's Hoeffding bound (``"hoeffding"``) or a user's numba function
    ``(n, delta, value_range, n_classes) -> epsilon`` (see
    :class:`~workbench.learners.HoeffdingTree`), shown in explanations under its name or
    ``bound_label``.

    Examples
    --------
    >>> from workbench import learners, streams, evaluate
    >>> X, y = streams.waveform(n=20_000, seed=1)
    >>> model = learners.UFFT(n_classes=3)
    >>> res = evaluate.prequential(model, X, y)
    >>> res.accuracy > 0.75, model.n_trees
    (True, 3)
    """

    _update = "path"
    _cut_policy = "analytic"
    _bounds = ("hoeffding",)
    # BaseTree's parameters that UFFT fixes (002: information gain, numeric attributes only)
    criterion = "info_gain"
    n_split_points = 1
    min_branch_fraction = 0.01
    nb_threshold = 0
    c = 1.0
    binary_nominal = False
    criterion_range = None
    split_rule_monotone = False
    cut_points = None
    bound_scope = "leaf"
    _no_user_rule = (
        "its forest's leaves attempt their splits in UFFT's own kernel (naive-Bayes nodes, ties "
        "and the short-term memory), which calls no user rule or schedule"
    )

    def __init__(
        self,
        n_features=None,
        n_classes=None,
        *,
        grace_period=200,
        delta=1e-7,
        tau=0.05,
        buffer_size=1000,
        nb_split_threshold=0.5,
        nb_split_gain="below",
        nb_splits=True,
        drift_detection=True,
        ddm_min_instances=30,
        ddm_warning=2.0,
        ddm_drift=3.0,
        leaf_prediction="nb",
        nominal_features=(),
        max_depth=None,
        memory_limit_mb=256.0,
        feature_names=None,
        class_names=None,
        bound="hoeffding",
        bound_label=None,
        split_rule=None,
        grace_schedule=None,
    ):
        self.n_features = n_features
        self.n_classes = n_classes
        self.grace_period = grace_period
        self.delta = delta
        self.tau = tau
        self.leaf_prediction = leaf_prediction
        self.nominal_features = nominal_features
        self.max_depth = max_depth
        self.memory_limit_mb = memory_limit_mb
        self.feature_names = feature_names
        self.class_names = class_names
        self.buffer_size = buffer_size
        self.nb_split_threshold = nb_split_threshold
        self.nb_split_gain = nb_split_gain
        self.nb_splits = nb_splits
        self.drift_detection = drift_detection
        self.ddm_min_instances = ddm_min_instances
        self.ddm_warning = ddm_warning
        self.ddm_drift = ddm_drift
        self.bound = bound
        self.bound_label = bound_label
        self.split_rule = split_rule
        self.grace_schedule = grace_schedule

    # ------------------------------------------------------------------ set-up
    def _validated(self, n_features, n_classes, categories=None):
        if categories:
            raise ValueError(
                "UFFT handles numeric features only (002's analytical split needs a mean and "
                f"variance per class); the DataFrame has categorical columns {list(categories)}"
            )
        if self.leaf_prediction not in ("nb", "mc"):
            raise ValueError(
                f"UFFT's leaf_prediction must be 'nb' (002) or 'mc'; got {self.leaf_prediction!r}"
            )
        p = super()._validated(n_features, n_classes, categories)
        p.buffer_size = check_positive_int(self.buffer_size, "buffer_size")
        p.nb_split_threshold = _check_real(self.nb_split_threshold, "nb_split_threshold", 0.0)
        if self.nb_split_gain not in ("below", "above"):
            raise ValueError(
                "nb_split_gain must be 'below' (a naive-Bayes split needs its gain below "
                "nb_split_threshold, the paper's argument) or 'above'; got "
                f"{self.nb_split_gain!r}"
            )
        p.nb_split_above = self.nb_split_gain == "above"
        p.ddm_min_instances = check_positive_int(self.ddm_min_instances, "ddm_min_instances")
        p.ddm_warning = _check_real(self.ddm_warning, "ddm_warning", 0.0, lo_open=True)
        p.ddm_drift = _check_real(self.ddm_drift, "ddm_drift", 0.0, lo_open=True)
        if p.ddm_drift < p.ddm_warning:
            raise ValueError(
                f"ddm_drift ({p.ddm_drift:g}) must not be below ddm_warning ({p.ddm_warning:g})"
            )
        for name in ("nb_splits", "drift_detection"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False; got {getattr(self, name)!r}")
        p.nb_splits = bool(self.nb_splits)
        p.drift_detection = bool(self.drift_detection)
        return p

    def _new_tree(self):
        if self.nominal_features_:
            raise ValueError(
                "UFFT handles numeric features only (002's analytical split needs a mean and "
                f"variance per class); got nominal_features {self.nominal_features_}"
            )
        K = self.n_classes_
        R = K * (K - 1) // 2
        q = self._p
        sizes = (self.n_features_in_, 2, 0, 1, 2)
        # the forest's own arrays: a row per node (DDM, naive Bayes) and the short-term memory
        forest_node, forest_fixed = forest_bytes(self.n_features_in_, K, q.buffer_size)
        room = room_for(
            q.memory_limit_mb,
            sizes,
            R,
            type(self).__name__,
            # the forest kernel stops when fewer than 2R rows of either are free (every tree
            # may split once), and the arrays then grow until 2R + 1 of each are
            free_nodes=2 * R + 1,
            free_slots=2 * R + 1,
            extra_node=forest_node,
            extra_fixed=forest_fixed,
            capacities=(64, 16),
        )
        self._state = allocate_within(sizes, room, R, q.memory_limit_mb, type(self).__name__)
        from ..core.edits import init_root

        init_root(self._state)
        self._config.params[P_MAX_NODES] = room.max_nodes
        self._config.params[P_LOG_LIMIT] = log_limit(room)
        F = fo.allocate_forest(self._state.kind.shape[0], self.n_features_in_, K, q.buffer_size)
        F.fparams[fo.FP_DRIFT] = 1.0 if q.drift_detection else 0.0
        F.fparams[fo.FP_DDM_MIN] = q.ddm_min_instances
        F.fparams[fo.FP_WARN] = q.ddm_warning
        F.fparams[fo.FP_DRIFT_LEVEL] = q.ddm_drift
        F.fparams[fo.FP_NB_SPLITS] = 1.0 if q.nb_splits else 0.0
        F.fparams[fo.FP_NB_THRESHOLD] = q.nb_split_threshold
        F.fparams[fo.FP_NB_ABOVE] = 1.0 if q.nb_split_above else 0.0
        F.fparams[fo.FP_K] = K
        self._forest = F
        return self

    # ------------------------------------------------------------------ kernels
    def _run_forest(self, X, y, start, pred, proba, leaves, every, learn):
        """Rows ``start..`` of (X, y) through the forest kernel, growing the arrays as needed."""
        self._writable()
        if not self._forest.ddm.flags.writeable:
            self._forest = fo.ForestState(*(np.array(a) for a in self._forest))
        n = X.shape[0]
        R = self._forest.pairs.shape[0]
        while True:
            path = np.empty(self._state.kind.shape[0] + 1, np.int64)
            try:
                start = fo.run_forest(
                    self._state,
                    self._config,
                    self._forest,
                    X,
                    y,
                    start,
                    learn,
                    pred,
                    proba,
                    leaves,
                    every,
                    path,
                )
            except Exception as exc:
                self._kernel_failed(exc)
            if start >= n:
                return
            self._state = st.grow(
                self._state, 2 * R + 1, 2 * R + 1, R, self._config.params[P_LOG_LIMIT]
            )
            self._forest = fo.grow_forest(self._forest, self._state.kind.shape[0])

    def _learn_checked(self, X, y):
        self._run_forest(X, y, 0, _NO_INT, _NO_FLOAT, _NO_INT, 1, True)

    def _prequential(self, X, y, pred, leaves, every, *active, start=0):
        if active:
            raise ValueError(
                "UFFT detects drift at its own inner nodes (drift_detection=True) and learns "
                "every label: evaluate.prequential's strategy and drift_detection options do "
                "not apply to it"
            )
        self._run_forest(X, y, start, pred, _NO_FLOAT, leaves, every, True)

    def predict_proba(self, X) -> np.ndarray:
        X = self._check_X(X)
        out = np.zeros((X.shape[0], self.n_classes_))
        self._run_forest(X, _NO_INT, 0, _NO_INT, out, _NO_INT, 1, False)
        return out

    def _predict_checked(self, X) -> np.ndarray:
        out = np.zeros(X.shape[0], np.int64)
        self._run_forest(X, _NO_INT, 0, out, _NO_FLOAT, _NO_INT, 1, False)
        return out

    def apply(self, X) -> np.ndarray:
        """Leaf each row reaches in each tree: ``[n, n_trees]``."""
        X = self._check_X(X)
        out = np.zeros((X.shape[0], self.n_trees), np.int64)
        path = np.empty(self._state.kind.shape[0] + 1, np.int64)
        for i in range(X.shape[0]):
            for r in range(self.n_trees):
                out[i, r] = fo.forest_path(self._state, self._forest, X, i, r, path)[0]
        return out

    # ------------------------------------------------------------------ structure
    @property
    def n_trees(self) -> int:
        return int(self._state.roots.shape[0])

    @property
    def pairs_(self) -> np.ndarray:
        """The class pair (codes into ``classes_``) of each tree."""
        return self._forest.pairs.copy()

    @property
    def roots(self) -> list:
        return [int(r) for r in self._state.roots]

    def drift_counts(self) -> dict:
        """Warnings and drifts signalled at inner nodes, naive-Bayes and attribute splits, and
        the last pruned node (its tree, and when)."""
        c = self._forest.counters
        return {
            "warnings": int(c[F_WARNINGS]),
            "drifts": int(c[F_DRIFTS]),
            "nb_splits": int(c[F_NB_SPLITS]),
            "attribute_splits": int(c[F_SPLITS]),
            "last_prune_node": int(c[F_LAST_NODE]),
            "last_prune_tree": int(c[F_LAST_TREE]),
            "last_prune_t": int(c[F_LAST_T]),
            "seen": int(c[F_T]),
        }

    def drifts_by_depth(self) -> np.ndarray:
        """Drifts signalled (subtrees pruned) by the depth of the node that signalled them."""
        d = self._forest.depth_drifts
        nz = np.flatnonzero(d)
        return d[: (nz[-1] + 1 if nz.size else 0)].copy()

    def summary(self) -> dict:
        out = super().summary()
        out.update(self.drift_counts())
        out["n_trees"] = self.n_trees
        return out

    def tree_size(self) -> float:
        """Mean number of nodes per tree (the paper's tree size for its forests)."""
        return self.n_nodes / self.n_trees

    def node_ddm(self, node: int) -> str:
        """The DDM line of an inner node (its error, levels and state)."""
        q = self._p
        return ddm_text(
            self._forest.ddm[node],
            int(self._forest.warn_t[node]),
            q.ddm_warning,
            q.ddm_drift,
            q.ddm_min_instances,
        )

    def tree_view(self, tree: int = 0):
        """A read-only view of one pairwise tree for ``workbench.core.dot``/the stepper: the
        forest's arrays, that tree's root, and its two class names."""
        from types import SimpleNamespace

        if not 0 <= tree < self.n_trees:
            raise ValueError(f"tree must be in 0..{self.n_trees - 1}; got {tree!r}")
        a, b = (int(v) for v in self._forest.pairs[tree])
        view = SimpleNamespace(
            tree=self._state,
            root=int(self._state.roots[tree]),
            n_seen=self.n_seen,
            feature_names_=self.feature_names_,
            class_names_=[self.class_names_[a], self.class_names_[b]],
        )
        view.explain_one = lambda x: self._tree_path(self._row(x), tree)
        return view

    def _tree_path(self, X, tree):
        from types import SimpleNamespace

        path = np.full(self._state.kind.shape[0] + 1, -1, np.int64)
        leaf, length = fo.forest_path(self._state, self._forest, X, 0, tree, path)
        return SimpleNamespace(path=[{"node": int(u)} for u in path[: length - 1]], leaf=int(leaf))

    def to_dot(self, tree: int = 0, ddm_levels: bool | str = "short", **kwargs) -> str:
        """Graphviz DOT of pairwise tree ``tree``.  Inner nodes show their DDM: ``"short"``
        its state in the label and its numbers (error, levels) as the node's tooltip; ``True``
        (or ``"full"``) the numbers in the label (each node is then some 500 px wide); False
        nothing."""
        from ..core.dot import tree_to_dot

        self._require_fitted()
        if ddm_levels not in (True, False, "short", "full"):
            raise ValueError(
                f"ddm_levels must be 'short', 'full', True or False; got {ddm_levels!r}"
            )
        view = self.tree_view(tree)
        kwargs.setdefault("feature_names", self.feature_names_)
        kwargs.setdefault("class_names", view.class_names_)
        if ddm_levels and self._p.drift_detection:
            inner = [int(u) for u in np.flatnonzero(self._state.kind > 0)]
            full = {u: self.node_ddm(u).replace("DDM: ", "DDM ") for u in inner}
            if ddm_levels == "short":
                F = self._forest
                short = {
                    u: ddm_state(F.ddm[u], int(F.warn_t[u]), self._p.ddm_min_instances)
                    for u in inner
                }
                kwargs.setdefault("node_notes", short)
                kwargs.setdefault("node_tooltips", full)
            else:
                kwargs.setdefault("node_notes", full)
        if "highlight" in kwargs and kwargs["highlight"] is not None:
            h = kwargs["highlight"]
            if not hasattr(h, "path"):
                kwargs["highlight"] = view.explain_one(h)
        return tree_to_dot(view, **kwargs)

    def describe_test(self, node: int, branch: int | None = None, tree: int | None = None):
        T = self._state
        if int(T.kind[node]) != st.NB_FUNCTIONAL:
            return super().describe_test(node, branch)
        names = ["first", "second"]
        if tree is not None:
            a, b = (int(v) for v in self._forest.pairs[tree])
            names = [self.class_names_[a], self.class_names_[b]]
        if branch is None:
            return "naive Bayes of the node"
        return f"naive Bayes says {names[branch]}"

    # ------------------------------------------------------------------ explanation
    def explain_one(self, x) -> ForestExplanation:
        """Each pairwise tree's path (with every inner node's test, its naive Bayes' call and
        DDM levels), its leaf and the state of its expansion test; and the sum-rule vote."""
        X = self._row(x)
        T, F = self._state, self._forest
        ex = ForestExplanation(class_names=list(self.class_names_))
        proba = self.predict_proba(X)[0]
        ex.proba = proba
        ex.votes = proba * self.n_trees
        ex.prediction = int(np.argmax(proba))
        path = np.full(T.kind.shape[0] + 1, -1, np.int64)
        for r in range(self.n_trees):
            a, b = (int(v) for v in F.pairs[r])
            leaf, length = fo.forest_path(T, F, X, 0, r, path)
            steps = []
            for i in range(length - 1):
                u, child = int(path[i]), int(path[i + 1])
                br = int(np.flatnonzero(T.children[u] == child)[0])
                nbc = int(fo.node_nb_class(T, u, X, 0))
                steps.append(
                    {
                        "node": u,
                        "depth": int(T.depth[u]),
                        "n": float(T.class_counts[u].sum()),
                        "test": self.describe_test(u, tree=r),
                        "outcome": self.describe_test(u, br, tree=r),
                        "branch": br,
                        "nb_says": self.class_names_[(a, b)[nbc]],
                        "functional": int(T.kind[u]) == st.NB_FUNCTIONAL,
                        "ddm": self.node_ddm(u),
                        "ddm_state": F.ddm[u].copy(),
                    }
                )
            local = self._leaf_local_proba(r, int(leaf), X)
            ex.trees.append(
                {
                    "tree": r,
                    "pair": (a, b),
                    "path": steps,
                    "leaf": int(leaf),
                    "counts": T.class_counts[leaf].copy(),
                    "proba": local,
                    "reason": self._leaf_reason(int(leaf)),
                }
            )
        return ex

    def _leaf_local_proba(self, r, leaf, X):
        """Tree r's own two probabilities for the row X[0] (the forest kernel run over a
        view of the state that holds only that tree)."""
        votes = np.zeros((1, self.n_classes_))
        one = self._forest._replace(pairs=self._forest.pairs[r : r + 1].copy())
        T1 = self._state._replace(roots=self._state.roots[r : r + 1].copy())
        path = np.empty(T1.kind.shape[0] + 1, np.int64)
        fo.run_forest(T1, self._config, one, X, _NO_INT, 0, False, _NO_INT, votes, _NO_INT, 1, path)
        a, b = (int(v) for v in self._forest.pairs[r])
        return np.array([votes[0, a], votes[0, b]])

    def _leaf_reason(self, leaf: int) -> str:
        T, C, F = self._state, self._config, self._forest
        d = self.n_features_in_
        merits, cuts, post = np.empty(d), np.empty(d), np.empty((2, 2))
        out = fo.explain_forest_split(T, C, F, leaf, merits, cuts, post)
        outcome, b1, b2, eps, q, thr, g_nb, n_nb, eps_nb = out
        n = float(T.class_counts[leaf].sum())
        wait = max(0.0, self._p.grace_period - (n - float(T.last_eval[leaf])))
        head = f"n={n:g}, next split test in {wait:g} instances"
        if outcome == dc.NO_SPLIT_PURE:
            return head + "; one class only, nothing to split"
        if b1 < 0 or not np.isfinite(merits[b1]):
            return head + "; no candidate cut yet"
        best = f"{self.feature_names_[b1]} <= {cuts[b1]:.4g} (gain {merits[b1]:.4f})"
        text = f"{head}; best cut {best}"
        if b2 >= 0 and np.isfinite(merits[b2]):
            text += f", margin over the second {q:.4f} vs {self._bound_name()} epsilon {eps:.4f}"
        if F.nb_on[leaf]:
            text += (
                f"; scoring its naive Bayes since a tie: gain {g_nb:.4f} over {n_nb:g} "
                f"instances (epsilon {eps_nb:.4f}, must be "
                f"{'above' if self._p.nb_split_above else 'below'} {self._p.nb_split_threshold:g})"
            )
        return text


_NO_INT = np.empty(0, np.int64)
_NO_FLOAT = np.empty((0, 0))
