"""The Python layer shared by every tree learner: parameters, validation, array growth, API.

A learner object holds a :class:`~workbench.core.state.TreeState` (the arrays), a
:class:`~workbench.core.params.Config` (the policy vector) and its constructor arguments.  It
never loops over instances in Python: ``partial_fit``, ``predict`` and the prequential loop each
hand whole arrays to a numba kernel.  ``learn_one``/``predict_one``/``explain_one`` are the
one-instance protocol the stepper uses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core import engine, state as st
from ..core.dot import tree_to_dot
from ..core.params import (BOUNDS, CRITERIA, CUT_POLICIES, LEAF_PREDICTORS, N_PARAMS,
                           P_BINARY_NOMINAL, P_BOUND, P_C, P_CRITERION, P_CUTS, P_DELTA, P_GRACE,
                           P_LEAF_PRED, P_MARGIN_FACTOR, P_MAX_DEPTH, P_MAX_NODES,
                           P_MIN_BRANCH_FRAC, P_N_SPLIT_POINTS, P_NB_THRESHOLD, P_REEVAL,
                           P_REEVAL_RULE, P_SPLIT_RULE, P_TAU, P_UPDATE, RULES, UPDATES, Config)
from ..core.rules import RULE_LABELS
from ..core.criteria import merit_range
from ..core import split as sp
from ..core.validate import (as_labels, as_matrix, check_choice, check_nominal_codes,
                             check_positive_int, check_probability, normalise_nominal)

#: values a nominal column may take when ``nominal_features`` lists columns without counts
DEFAULT_NOMINAL_VALUES = 64
#: where each split bound's epsilon comes from, as explanations and charts name it
_BOUND_NAMES = {"hoeffding": "Hoeffding", "mcdiarmid": "McDiarmid", "ctree": "000 eq. (7)",
                "ctree_practical": "000 eq. (10)"}


@dataclass
class Explanation:
    """Why a tree predicts what it predicts for one instance (see ``explain_one``)."""
    path: list = field(default_factory=list)
    leaf: int = -1
    class_counts: np.ndarray | None = None
    proba: np.ndarray | None = None
    prediction: int = -1
    predictor: str = ""
    candidates: list = field(default_factory=list)
    best: dict | None = None
    second: dict | None = None
    epsilon: float = math.inf
    n: float = 0.0
    since_last_test: float = 0.0
    grace_period: float = 0.0
    tau: float = 0.0
    active: bool = True
    reason: str = ""
    #: the quantity that decides the split at this leaf and the level it must exceed, with
    #: labels, so that a plot can show any learner's rule (VFDT: G(best) - G(second) vs epsilon)
    quantity: float = math.nan
    threshold: float = math.nan
    quantity_label: str = ""
    threshold_label: str = ""
    will_split: bool = False
    #: the bound epsilon comes from ("Hoeffding", "McDiarmid", "000 eq. (7)", "000 eq. (10)")
    bound_name: str = "Hoeffding"
    #: the split rule that decides (``workbench.core.rules``), e.g. "best vs second best"
    rule: str = ""

    def __str__(self) -> str:
        lines = []
        for step in self.path:
            lines.append(f"node {step['node']} (depth {step['depth']}, n={step['n']:g} at split): "
                         f"{step['test']} -> {step['outcome']}")
        counts = ", ".join(f"{c:g}" for c in self.class_counts)
        proba = ", ".join(f"{p:.3f}" for p in self.proba)
        lines.append(f"leaf {self.leaf}: class counts [{counts}], {self.predictor} predicts "
                     f"class {self.prediction} with probabilities [{proba}]")
        for tag, cand in (("best", self.best), ("second best", self.second)):
            if cand is not None:
                lines.append(f"  {tag} split: {cand['test']}, gain {cand['merit']:.5f}")
        if self.best is not None and self.best["merit"] < 0 and self.path:
            lines.append("  (gains below 0: this leaf's class counts start from the estimate its "
                         "parent's split made for it, as in MOA, while the split statistics count "
                         "only the instances it has seen since; the estimate shifts every "
                         "candidate's gain by the same amount, so the margin is unaffected)")
        if math.isfinite(self.epsilon):
            lines.append(f"  epsilon ({self.bound_name}) = {self.epsilon:.5f} at n = {self.n:g}")
        lines.append(f"  {self.reason}")
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython
        p.text(str(self))


class BaseTree:
    """Engine-backed incremental decision tree; subclasses fix the policies.

    A learner is the engine run with a set of policies (``workbench.core.params``): these class
    attributes choose them, the constructor's arguments fill in their numbers.
    """

    #: the leaf's split rule (``workbench.core.rules``): "best_vs_second" or "best_vs_null"
    _split_rule = "best_vs_second"
    #: the rule splits when its quantity exceeds _margin_factor * eps (best vs second only)
    _margin_factor = 1.0
    #: the split bounds this learner accepts
    _bounds = ("hoeffding", "mcdiarmid")
    #: which nodes learn an instance: "leaf" (VFDT) or "path" (HATT: every node on its path)
    _update = "leaf"
    #: inner-node re-evaluation ("path" learners): the rule, and the weight between two tests
    #: (0: never)
    _reeval_rule = "best_vs_current"
    _reeval_period = 0
    #: where numeric features may be cut: "gaussian" (MOA's equal steps) or "fixed"
    #: (``_fixed_cuts``: one sequence of candidate cut points per feature)
    _cut_policy = "gaussian"
    _fixed_cuts = None
    #: trees in the state (a forest of pairwise trees shares one state)
    _n_trees = 1

    def __init__(self, n_features: int, n_classes: int, *, grace_period=200, delta=1e-7,
                 tau=0.05, criterion="info_gain", leaf_prediction="nba", nominal_features=(),
                 n_split_points=10, min_branch_fraction=0.01, max_depth=None,
                 memory_limit_mb=256.0, nb_threshold=0, feature_names=None, class_names=None,
                 bound="hoeffding", c=1.0, binary_nominal=False):
        self.n_features = check_positive_int(n_features, "n_features")
        self.n_classes = check_positive_int(n_classes, "n_classes", 2)
        if isinstance(grace_period, bool) or not isinstance(grace_period, (int, float)) \
                or not grace_period > 0 or not math.isfinite(grace_period):
            raise ValueError(f"grace_period must be a positive number; got {grace_period!r}")
        self.grace_period = grace_period
        self.bound = check_choice(bound, "bound", self._bounds)
        if delta is None and self.bound == "ctree":
            self.delta = None          # 000 Remark 1: delta = 1/t
        else:
            self.delta = check_probability(delta, "delta")
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not c > 0 \
                or not math.isfinite(c):
            raise ValueError(f"c must be a positive number; got {c!r}")
        self.c = float(c)
        self.binary_nominal = bool(binary_nominal)
        if not isinstance(tau, (int, float)) or not 0 <= tau or not math.isfinite(tau):
            raise ValueError(f"tau must be a finite number >= 0; got {tau!r}")
        self.tau = float(tau)
        self.criterion = check_choice(criterion, "criterion", CRITERIA)
        if self.criterion == "kearns_mansour" and self.n_classes != 2:
            raise ValueError("criterion 'kearns_mansour' is defined for two classes only; "
                             f"got n_classes={self.n_classes}")
        if self.bound == "ctree" and self.criterion not in ("entropy", "gini",
                                                            "kearns_mansour"):
            raise ValueError("bound 'ctree' (000 eq. (7)) needs criterion 'entropy', 'gini' or "
                             f"'kearns_mansour' (the criteria of Theorems 1-3); got "
                             f"{self.criterion!r}")
        self.leaf_prediction = check_choice(leaf_prediction, "leaf_prediction", LEAF_PREDICTORS)
        self.n_split_points = check_positive_int(n_split_points, "n_split_points")
        if not isinstance(min_branch_fraction, (int, float)) or \
                not 0.0 <= min_branch_fraction < 0.5:
            raise ValueError("min_branch_fraction must be in [0, 0.5); got "
                             f"{min_branch_fraction!r}")
        self.min_branch_fraction = float(min_branch_fraction)
        if max_depth is not None:
            max_depth = check_positive_int(max_depth, "max_depth", 0)
        self.max_depth = max_depth
        if memory_limit_mb is not None and not (isinstance(memory_limit_mb, (int, float))
                                                and memory_limit_mb > 0):
            raise ValueError(f"memory_limit_mb must be a positive number or None; got "
                             f"{memory_limit_mb!r}")
        self.memory_limit_mb = memory_limit_mb
        if not isinstance(nb_threshold, (int, float)) or nb_threshold < 0:
            raise ValueError(f"nb_threshold must be a number >= 0; got {nb_threshold!r}")
        self.nb_threshold = nb_threshold
        self.nominal_features = normalise_nominal(nominal_features, self.n_features,
                                                  DEFAULT_NOMINAL_VALUES)
        if feature_names is not None and len(feature_names) != self.n_features:
            raise ValueError(f"feature_names has {len(feature_names)} names for "
                             f"{self.n_features} features")
        if class_names is not None and len(class_names) != self.n_classes:
            raise ValueError(f"class_names has {len(class_names)} names for "
                             f"{self.n_classes} classes")
        self.feature_names = list(feature_names) if feature_names is not None else \
            [f"x{j}" for j in range(self.n_features)]
        self.class_names = list(class_names) if class_names is not None else \
            [str(k) for k in range(self.n_classes)]
        self._config = self._make_config()
        self.reset()

    # ------------------------------------------------------------------ parameters
    def get_params(self) -> dict:
        """Constructor arguments, so that ``type(m)(**m.get_params())`` is a fresh copy."""
        return dict(n_features=self.n_features, n_classes=self.n_classes, bound=self.bound,
                    c=self.c, binary_nominal=self.binary_nominal,
                    grace_period=self.grace_period, delta=self.delta, tau=self.tau,
                    criterion=self.criterion, leaf_prediction=self.leaf_prediction,
                    nominal_features=dict(self.nominal_features),
                    n_split_points=self.n_split_points,
                    min_branch_fraction=self.min_branch_fraction, max_depth=self.max_depth,
                    memory_limit_mb=self.memory_limit_mb, nb_threshold=self.nb_threshold,
                    feature_names=list(self.feature_names),
                    class_names=list(self.class_names))

    def clone(self, **changes):
        """A fresh, untrained learner with the same parameters (some of them changed)."""
        params = self.get_params()
        params.update(changes)
        return type(self)(**params)

    def _make_config(self) -> Config:
        p = np.zeros(N_PARAMS)
        p[P_GRACE] = self.grace_period
        p[P_DELTA] = -1.0 if self.delta is None else self.delta
        p[P_TAU] = self.tau
        p[P_N_SPLIT_POINTS] = self.n_split_points
        p[P_MIN_BRANCH_FRAC] = self.min_branch_fraction
        p[P_MAX_DEPTH] = np.inf if self.max_depth is None else self.max_depth
        p[P_CRITERION] = CRITERIA[self.criterion]
        p[P_LEAF_PRED] = LEAF_PREDICTORS[self.leaf_prediction]
        p[P_NB_THRESHOLD] = self.nb_threshold
        p[P_SPLIT_RULE] = RULES[self._split_rule]
        p[P_BOUND] = BOUNDS[self.bound]
        p[P_MARGIN_FACTOR] = self._margin_factor
        p[P_C] = self.c
        p[P_BINARY_NOMINAL] = 1.0 if self.binary_nominal else 0.0
        p[P_UPDATE] = UPDATES[self._update]
        p[P_REEVAL] = self._reeval_period
        p[P_REEVAL_RULE] = RULES[self._reeval_rule]
        p[P_CUTS] = CUT_POLICIES[self._cut_policy]
        nom_index = np.full(self.n_features, -1, np.int64)
        for m, col in enumerate(self.nominal_features):
            nom_index[col] = m
        nom_card = np.array(list(self.nominal_features.values()), np.int64)
        return Config(p, nom_index, nom_card, self._cut_table())

    def _cut_table(self) -> np.ndarray:
        """``Config.cuts``: the fixed candidate cut points per feature, NaN-padded."""
        if self._cut_policy != "fixed":
            return np.empty((self.n_features, 0))
        cuts = self._fixed_cuts
        if cuts is None or len(cuts) != self.n_features:
            raise ValueError(f"the fixed cut-point policy needs one sequence of cut points per "
                             f"feature ({self.n_features}); got {cuts!r}")
        rows = [np.asarray(c, np.float64).ravel() for c in cuts]
        if any(not np.all(np.isfinite(r)) for r in rows):
            raise ValueError("fixed cut points must be finite numbers")
        table = np.full((self.n_features, max((len(r) for r in rows), default=0)), np.nan)
        for j, r in enumerate(rows):
            table[j, :len(r)] = np.sort(r)
        return table

    def reset(self):
        """Forget everything learned (parameters stay)."""
        card = max(self.nominal_features.values(), default=1)
        self._state = st.allocate(self.n_features, self.n_classes, len(self.nominal_features),
                                  card, max(2, card), n_trees=self._n_trees)
        engine.init_root(self._state)
        p = self._config.params
        if self.memory_limit_mb is None:
            p[P_MAX_NODES] = np.inf
        else:   # a node and the statistics slot it may hold
            per = st.bytes_per_node(self._state) + st.bytes_per_slot(self._state)
            p[P_MAX_NODES] = max(1.0, self.memory_limit_mb * 2.0 ** 20 // per)
        return self

    # ------------------------------------------------------------------ validation
    def _check_X(self, X, name="X") -> np.ndarray:
        return as_matrix(X, self.n_features, name=name)

    def _check_Xy(self, X, y):
        X = self._check_X(X)
        y = as_labels(y, self.n_classes, X.shape[0])
        if self.nominal_features:
            check_nominal_codes(X, self.nominal_features)
        return X, y

    # ------------------------------------------------------------------ kernels
    def _run(self, kernel, n, *args):
        """Call ``kernel(T, C, *args, start)``-style kernels until all n rows are done,
        growing the arrays whenever a kernel stops for room."""
        start = 0
        while True:
            start = kernel(self._state, self._config, *args[:2], start, *args[2:])
            if start >= n:
                return
            self._state = st.grow(self._state, self._state.children.shape[1] + 1, 1)

    # ------------------------------------------------------------------ batch API
    def partial_fit(self, X, y):
        """Learn from the rows of (X, y) in order (one pass, as a stream)."""
        X, y = self._check_Xy(X, y)
        self._learn_checked(X, y)
        return self

    def _learn_checked(self, X, y):
        self._run(engine.learn, X.shape[0], X, y)

    def fit(self, X, y):
        """Reset, then learn (X, y) as a stream."""
        return self.reset().partial_fit(X, y)

    def predict_proba(self, X) -> np.ndarray:
        X = self._check_X(X)
        out = np.zeros((X.shape[0], self.n_classes))
        engine.predict_proba(self._state, self._config, X, out)
        return out

    def predict(self, X) -> np.ndarray:
        return self._predict_checked(self._check_X(X))

    def _predict_checked(self, X) -> np.ndarray:
        out = np.zeros(X.shape[0], np.int64)
        engine.predict(self._state, self._config, X, out)
        return out

    def apply(self, X) -> np.ndarray:
        """Index of the leaf each row reaches."""
        X = self._check_X(X)
        out = np.zeros(X.shape[0], np.int64)
        engine.apply_batch(self._state, X, out)
        return out

    def _prequential(self, X, y, pred, leaves, every, *active):
        """Test-then-train kernel run (validated arrays); used by workbench.evaluate.
        ``active``: the ACTIVE-setting arguments of :func:`workbench.core.engine.run_stream`."""
        self._run(engine.prequential, X.shape[0], X, y, pred, leaves, every, *active)

    # ------------------------------------------------------------------ one instance
    def _row(self, x) -> np.ndarray:
        """One instance as a [1, d] float64 array (x: sequence, array or {name: value})."""
        if isinstance(x, dict):
            x = [x.get(name, np.nan) for name in self.feature_names]
        return as_matrix(np.asarray(x).reshape(1, -1), self.n_features, name="x")

    def learn_one(self, x, y):
        """Learn one labelled instance (x: sequence, array or {feature name: value})."""
        X = self._row(x)
        yy = as_labels([y], self.n_classes, 1)
        if self.nominal_features:
            check_nominal_codes(X, self.nominal_features, name="x")
        self._learn_checked(X, yy)
        return self

    def predict_proba_one(self, x) -> np.ndarray:
        return self.predict_proba(self._row(x))[0]

    def predict_one(self, x) -> int:
        return int(self.predict(self._row(x))[0])

    # ------------------------------------------------------------------ structure
    @property
    def n_nodes(self) -> int:
        return int(np.count_nonzero(self._state.kind >= 0))

    @property
    def n_leaves(self) -> int:
        return int(self._state.meta[st.M_N_LEAVES])

    @property
    def n_active_leaves(self) -> int:
        return int(self._state.meta[st.M_N_ACTIVE])

    @property
    def depth(self) -> int:
        T = self._state
        used = T.kind >= 0
        return int(T.depth[used].max()) if used.any() else 0

    @property
    def n_seen(self) -> int:
        return int(self._state.meta[st.M_T])

    @property
    def root(self) -> int:
        return int(self._state.meta[st.M_ROOT])

    @property
    def tree(self) -> st.TreeState:
        """The raw arrays (read them, don't write them)."""
        return self._state

    def memory_bytes(self) -> int:
        return st.nbytes(self._state)

    def summary(self) -> dict:
        return {"n_nodes": self.n_nodes, "n_leaves": self.n_leaves,
                "n_active_leaves": self.n_active_leaves, "depth": self.depth,
                "n_seen": self.n_seen, "n_splits": int(self._state.meta[st.M_N_SPLITS]),
                "memory_bytes": self.memory_bytes(),
                "guard_refusals": int(self._state.meta[st.M_GUARD_HITS])}

    def to_dot(self, **kwargs) -> str:
        """Graphviz DOT source of the tree (see ``workbench.viz.to_dot`` for options)."""
        kwargs.setdefault("feature_names", self.feature_names)
        kwargs.setdefault("class_names", self.class_names)
        return tree_to_dot(self, **kwargs)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(n_features={self.n_features}, n_classes="
                f"{self.n_classes}, leaves={self.n_leaves}, depth={self.depth}, "
                f"seen={self.n_seen})")

    # ------------------------------------------------------------------ explanation
    def describe_test(self, node: int, branch: int | None = None) -> str:
        """Human-readable test of an inner node (and of one of its branches)."""
        T = self._state
        f = int(T.feature[node])
        name = self.feature_names[f]
        kind = int(T.kind[node])
        if kind == st.NUMERIC:
            thr = float(T.threshold[node])
            if branch is None:
                return f"{name} <= {thr:.6g}"
            return f"{name} <= {thr:.6g}" if branch == 0 else f"{name} > {thr:.6g}"
        if kind == st.NOMINAL_BINARY:
            v = int(T.threshold[node])
            if branch is None:
                return f"{name} == {v}"
            return f"{name} == {v}" if branch == 0 else f"{name} != {v}"
        if branch is None:
            return f"{name} (multiway, {int(T.n_children[node])} branches)"
        return f"{name} == {branch}"

    def _split_report(self, leaf: int):
        T, C = self._state, self._config
        d = self.n_features
        merits, cuts = np.empty(d), np.empty(d)
        post = np.empty((max(T.children.shape[1], 2), self.n_classes))
        outcome, b1, b2, eps, q, thr = sp.explain_split(T, C, leaf, merits, cuts, post)
        return int(outcome), int(b1), int(b2), float(eps), float(q), float(thr), merits, cuts

    def _candidate(self, j: int, merits, cuts) -> dict:
        name = self.feature_names[j]
        if j in self.nominal_features and self.binary_nominal:
            test = f"{name} == {int(cuts[j])}"
        elif j in self.nominal_features:
            test = f"{name} (multiway)"
        else:
            test = f"{name} <= {cuts[j]:.6g}"
        return {"feature": j, "name": name, "merit": float(merits[j]),
                "threshold": float(cuts[j]), "test": test}

    def explain_one(self, x) -> Explanation:
        """The path of x with each node's test and counts, and at the leaf the best and
        second-best candidate splits, their gains, the Hoeffding epsilon, and one sentence on
        why the leaf has or has not split yet."""
        from ..core.routing import walk  # jitted; imported here to keep start-up light
        X = self._row(x)
        T = self._state
        ex = Explanation()
        path = np.full(self.depth + 2, -1, np.int64)
        node, length = walk(T, X, 0, False, path)
        for i in range(length - 1):
            u, child = int(path[i]), int(path[i + 1])
            b = int(np.flatnonzero(T.children[u] == child)[0])
            ex.path.append({"node": u, "depth": int(T.depth[u]),
                            "n": float(T.class_counts[u].sum()),
                            "counts": T.class_counts[u].copy(),
                            "test": self.describe_test(u),
                            "outcome": self.describe_test(u, b), "branch": b})
        ex.leaf = int(node)
        ex.class_counts = T.class_counts[node].copy()
        ex.proba = self.predict_proba(X)[0]
        ex.prediction = int(np.argmax(ex.proba))
        ex.predictor = self._predictor_used(node)
        ex.n = float(ex.class_counts.sum())
        ex.since_last_test = ex.n - float(T.last_eval[node])
        ex.grace_period = float(self.grace_period)
        ex.tau = self.tau
        ex.active = bool(T.active[node])
        outcome, b1, b2, eps, q, thr, merits, cuts = self._split_report(node)
        ex.epsilon = eps
        ex.quantity, ex.threshold = q, thr
        order = [j for j in np.argsort(-merits, kind="stable") if np.isfinite(merits[j])]
        ex.candidates = [self._candidate(int(j), merits, cuts) for j in order]
        ex.best = self._candidate(b1, merits, cuts) if b1 >= 0 and np.isfinite(merits[b1]) \
            else None
        ex.second = self._candidate(b2, merits, cuts) if b2 >= 0 and np.isfinite(merits[b2]) \
            else None
        self._decision_quantity(ex, outcome)
        ex.reason = self._reason(ex, outcome)
        return ex

    def _decision_quantity(self, ex: Explanation, outcome: int) -> None:
        """Labels of the quantity and threshold the kernel's rule returned (``ex.quantity``,
        ``ex.threshold``), from the rule table of ``workbench.core.rules``."""
        rule = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])]
        ex.rule = rule[0]
        ex.quantity_label = rule[1]
        f = float(self._config.params[P_MARGIN_FACTOR]) if rule[0] == "best vs second best" \
            else 1.0
        ex.bound_name = _BOUND_NAMES[self.bound]
        ex.threshold_label = (f"{ex.bound_name} epsilon" if f == 1 else
                              f"{f:g} x epsilon, {ex.bound_name}")
        ex.will_split = outcome in (sp.SPLIT_MARGIN, sp.SPLIT_TIE)

    def _predictor_used(self, leaf: int) -> str:
        T = self._state
        if self.leaf_prediction == "mc":
            return "majority class"
        if self.leaf_prediction == "nb":
            return "naive Bayes"
        return ("naive Bayes (adaptive: it has been right more often)"
                if T.mc_correct[leaf] <= T.nb_correct[leaf]
                else "majority class (adaptive: it has been right more often)")

    def _reason(self, ex: Explanation, outcome: int) -> str:
        if not ex.active:
            return ("This leaf no longer splits: it was deactivated (depth limit or memory "
                    "guard), so it only counts classes.")
        wait = max(0.0, ex.grace_period - ex.since_last_test)
        when = (f"the next split test runs after {wait:g} more instances (grace period "
                f"{ex.grace_period:g})")
        if ex.n == 0:
            return f"This leaf has seen no instance yet; {when}."
        if outcome == sp.NO_SPLIT_PURE:
            return f"Not split: every instance here has the same class, so no split can help; {when}."
        if outcome == sp.NO_SPLIT_NO_CANDIDATE:
            return (f"Not split: no candidate split separates the instances seen so far (every "
                    f"candidate leaves almost all weight on one side); {when}.")
        if outcome == sp.NO_SPLIT_DEPTH:
            return f"Not split: the leaf is at the maximum depth {self.max_depth}."
        # the kernel's rule: quantity > threshold = f x epsilon, or epsilon < tau
        q, f = ex.quantity, ex.threshold / ex.epsilon if ex.epsilon > 0 else 1.0
        level = "epsilon" if f == 1 else f"{f:g} x epsilon"
        reference = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])][2]
        if reference == "second best" and ex.second is None:
            reference = "null split"
            lone = (" (it is the only candidate; its rival is the null split, not splitting, "
                    "whose merit under the minimum branch fraction is -inf, as in MOA)")
        else:
            lone = ""
        if outcome in (sp.SPLIT_MARGIN, sp.SPLIT_TIE):
            why = (f"{ex.quantity_label} = {q:.4g} exceeds {level} = {ex.threshold:.4g}{lone}"
                   if outcome == sp.SPLIT_MARGIN else
                   f"epsilon {ex.epsilon:.4g} is below the tie threshold tau = {ex.tau:g}")
            return (f"Ready to split on {ex.best['test']}: {why}; it will split at the next "
                    f"test, after {wait:g} more instances.")
        # NO_SPLIT_BOUND
        lead = (f"the two best splits ({ex.best['test']} and {ex.second['test']}) have the "
                f"same gain" if ex.second is not None and reference == "second best"
                and q <= 1e-12 else
                f"the best split ({ex.best['test']}) beats the {reference} by {q:.3g}")
        text = (f"Not split yet: {lead}, less than {level} = {ex.threshold:.4g}, and epsilon "
                f"is still above tau = {ex.tau:g}")
        if self.bound == "hoeffding":   # eps = R sqrt(ln(1/delta) / (2n)) can be inverted
            R = merit_range(self.n_classes, self._config.params[P_CRITERION])
            k = R * R * math.log(1 / self.delta) / 2
            need = k / self.tau ** 2 if self.tau > 0 else math.inf
            if q > 0:
                need = min(need, k * f * f / q ** 2)
            if math.isfinite(need):
                text += (f"; if the gains stay as they are, the leaf splits once it has seen "
                         f"about {math.ceil(need):,} instances (it has {ex.n:g})")
            else:
                text += ("; with tau = 0 and tied gains it will not split until the gains "
                         "differ")
        return text + "."
