"""The Python layer shared by every tree learner: parameters, validation, array growth, API.

A learner object holds a :class:`~workbench.core.state.TreeState` (the arrays), a
:class:`~workbench.core.params.Config` (the policy vector) and its constructor arguments.  It
never loops over instances in Python: ``partial_fit``, ``predict`` and the prequential loop each
hand whole arrays to a numba kernel.  ``learn_one``/``predict_one``/``explain_one`` are the
one-instance protocol the stepper uses.
"""

from __future__ import annotations

import copy
import inspect
import math
import warnings
import numbers
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np

from .. import _functions as fx
from ..core import engine, state as st
from ..core.dot import tree_to_dot
from ..core.params import (
    BOUND_USER,
    BOUND_USER_SCHEDULE,
    BOUNDS,
    CRITERIA,
    CUT_POLICIES,
    LEAF_PREDICTORS,
    N_PARAMS,
    P_BINARY_NOMINAL,
    P_BOUND,
    P_BOUND_FN,
    P_C,
    P_CRITERION,
    P_CRITERION_RANGE,
    P_CUTS,
    P_DELTA,
    P_GRACE,
    P_LEAF_PRED,
    P_MARGIN_FACTOR,
    P_MAX_DEPTH,
    P_MAX_NODES,
    P_MIN_BRANCH_FRAC,
    P_N_SPLIT_POINTS,
    P_NB_THRESHOLD,
    P_REEVAL,
    P_REEVAL_RULE,
    P_REEVAL_CLOCK,
    P_MERITS,
    P_GRACE_CLOCK,
    P_RANGE,
    P_NULL_SUM,
    P_ATTEMPTS,
    P_USED_NOMINAL,
    GRACE_CLOCKS,
    RANGES,
    NULL_SUMS,
    ATTEMPT_COUNTS,
    REEVAL_CLOCKS,
    MERIT_ESTIMATES,
    P_SPLIT_RULE,
    P_TAU,
    P_UPDATE,
    RULES,
    UPDATES,
    Config,
)
from ..core.criteria import merit_range
from ..core.rules import RULE_LABELS
from ..core import split as sp
from ..core.validate import (
    as_labels,
    as_matrix,
    check_choice,
    check_positive_int,
    check_positive_real,
    check_probability,
    is_sparse,
    normalise_nominal,
    one_d_message,
)
from .._numbers import compared, count
from . import _rows
from ._api import ClassifierAPI
from .frames import frame_columns, frame_to_matrix


def _require_y(y, name: str) -> None:
    if y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None")


#: values a nominal column may take when ``nominal_features`` lists columns without counts
DEFAULT_NOMINAL_VALUES = 64
#: a new tree's room: nodes, and statistics slots (one per learning leaf).  Where it runs out
#: the kernel stops, the arrays double (``state.grow``) and the kernel starts again, about
#: 75 us a time; with 16 slots a tree of 100-200 leaves stopped 5-7 times in a pass
NODE_CAPACITY = 128
SLOT_CAPACITY = 64
#: where each split bound's epsilon comes from, as explanations and charts name it
_BOUND_NAMES = {
    "hoeffding": "Hoeffding",
    "mcdiarmid": "McDiarmid",
    "ctree": "C-Tree eq. (7)",  # De Rosa & Cesa-Bianchi, Theorem 4
    "ctree_practical": "C-Tree eq. (10)",  # De Rosa & Cesa-Bianchi, the experiments' radius
}


def _instances_to_go(period: float, since: float) -> int:
    """Instances until a count that grows by one per instance, now ``since``, reaches
    ``period``: at least one (the test runs after an instance is learned).  The count may be a
    sum of weights that holds fractions, so rounding can leave it a hair below a whole number
    (199.99999999999997 needs one more instance, not 2.3e-13 of one)."""
    return max(1, math.ceil(period - since - 1e-9))


def reeval_sentence(r: dict) -> str:
    """One sentence on an inner node's re-evaluation (``Explanation.path[i]["reeval"]``)."""
    q, thr = r["quantity"], r["threshold"]
    qs, ts = compared(q, thr, 3)
    if r["best"] == r["current"]:
        why = f"the best attribute is still {r['current']}, so the split is kept"
    elif r["outcome"] == "kept":
        why = (
            f"G(best) - G(current) = {qs} does not exceed epsilon = {ts}, so {r['current']} is kept"
        )
    else:
        tie = " (a tie: epsilon < tau and the gap above tau / 2)" if not q > thr else ""
        what = (
            "the subtree would be killed"
            if r["outcome"] == "killed"
            else (f"the node would split on {r['best']} instead, with new leaves")
        )
        why = f"G(best) - G(current) = {qs} > epsilon = {ts}{tie}: {what}"
    g = r.get("merit_label", "G")
    return (
        f"re-evaluation: current split {r['current']} ({g} = {r['g_current']:.4g}), best "
        f"now {r['best']} ({g} = {r['g_best']:.4g}); {why}; next re-evaluation {r['next']}."
    )


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
    #: the bound epsilon comes from ("Hoeffding", "McDiarmid", "C-Tree eq. (7)", "C-Tree eq. (10)":
    #: the equations of De Rosa & Cesa-Bianchi's C-Tree paper)
    bound_name: str = "Hoeffding"
    #: the split rule that decides (``workbench.core.rules``), e.g. "best vs second best"
    rule: str = ""

    def __str__(self) -> str:
        lines = []
        for step in self.path:
            lines.append(
                f"node {step['node']} (depth {step['depth']}, n={step['n']:g} "
                f"{'so far' if step.get('reeval') else 'at split'}): "
                f"{step['test']} -> {step['outcome']}"
            )
            r = step.get("reeval")
            if r:
                lines.append("  " + reeval_sentence(r))
        counts = ", ".join(f"{c:g}" for c in self.class_counts)
        proba = ", ".join(f"{p:.3f}" for p in self.proba)
        lines.append(
            f"leaf {self.leaf}: class counts [{counts}], {self.predictor} predicts "
            f"class {self.prediction} with probabilities [{proba}]"
        )
        for tag, cand in (("best", self.best), ("second best", self.second)):
            if cand is not None:
                lines.append(f"  {tag} split: {cand['test']}, gain {cand['merit']:.5f}")
        if self.best is not None and self.best["merit"] < 0 and self.path:
            effect = (
                "so the margin between two candidates is unaffected"
                if self.rule in ("", "best vs second best")
                else f"which moves every candidate against the {self.rule.split(' vs ')[1]}, "
                "whose gain is 0: the leaf waits until its own instances outweigh the estimate"
            )
            lines.append(
                "  (gains below 0: this leaf's class counts start from the estimate its "
                "parent's split made for it, as in MOA, while the split statistics count "
                "only the instances it has seen since; the estimate shifts every "
                f"candidate's gain by the same amount, {effect})"
            )
        if math.isfinite(self.epsilon):
            lines.append(f"  epsilon ({self.bound_name}) = {self.epsilon:.5f} at n = {self.n:g}")
        lines.append(f"  {self.reason}")
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython
        p.text(str(self))


class BaseTree(ClassifierAPI):
    """Engine-backed incremental decision tree, a scikit-learn classifier (see
    :mod:`workbench.learners._api`); subclasses fix the policies.

    A learner is the engine run with a set of policies (``workbench.core.params``): the class
    attributes below choose them, the constructor's arguments fill in their numbers.  The
    constructor stores its arguments as given (scikit-learn's contract: ``get_params``,
    ``set_params``, ``clone`` and ``GridSearchCV`` work from the signature); they are checked,
    and ``n_features``/``n_classes`` learned when left as None, at the first ``fit`` or
    ``partial_fit``.  A subclass with other defaults lists them in ``_defaults``: its signature
    is the base signature with those defaults, so each parameter is defined in one place.

    Fitted attributes: ``classes_`` (any hashable labels, sorted; codes 0..K-1 inside),
    ``n_features_in_``, ``feature_names_in_`` (when fitted on a DataFrame with string column
    names), ``n_classes_``, ``feature_names_``/``class_names_`` (the names explanations and
    drawings use), ``nominal_features_`` ({column: number of values}) and ``categories_``
    ({column: categories} of DataFrame columns that became nominal).
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
    #: what counts the re-evaluation period: "node" (its own weight) or "tree" (MOA's EFDT)
    _reeval_clock = "node"
    #: the merit estimate the rules compare: "current" or "moa" (MOA's EFDT running sums)
    _merits = "current"
    #: what the grace period counts: "weight" (MOA's Hoeffding tree) or "count" (MOA's EFDT)
    _grace_clock = "weight"
    #: the range R of the information gain: "moa" (log2 of the node's class-vector length, as
    #: MOA computes it), "created" (004's code) or "classes" (log2 K)
    _range = "moa"
    #: "moa" merits: how a leaf adds the null split's merit ("clamped": MOA, "raw": 004's code)
    #: and what an attempt adds to the count ("one", or "per_candidate": 004's VFDT)
    _null_sum = "clamped"
    _attempts = "one"
    #: a leaf never splits on a nominal attribute tested above it (MOA's EFDT)
    _used_nominal = False
    #: where numeric features may be cut: "gaussian" (MOA's equal steps) or "fixed"
    #: (``_fixed_cuts``: one sequence of candidate cut points per feature)
    _cut_policy = "gaussian"
    _fixed_cuts = None
    #: trees in the state (a forest of pairwise trees shares one state)
    _n_trees = 1
    #: constructor defaults that differ from BaseTree's (see the class docstring)
    _defaults: dict = {}
    #: the learner's own constructor parameters and their defaults, after BaseTree's (keyword
    #: only; stored as given, checked by the learner's ``_validated``)
    _extra_params: dict = {}

    def __init__(
        self,
        n_features=None,
        n_classes=None,
        *,
        grace_period=200,
        delta=1e-7,
        tau=0.05,
        criterion="info_gain",
        leaf_prediction="nba",
        nominal_features=(),
        n_split_points=10,
        min_branch_fraction=0.01,
        max_depth=None,
        memory_limit_mb=256.0,
        nb_threshold=0,
        feature_names=None,
        class_names=None,
        bound="hoeffding",
        c=1.0,
        binary_nominal=False,
        bound_label=None,
        criterion_range=None,
    ):
        self.n_features = n_features
        self.n_classes = n_classes
        self.grace_period = grace_period
        self.delta = delta
        self.tau = tau
        self.criterion = criterion
        self.leaf_prediction = leaf_prediction
        self.nominal_features = nominal_features
        self.n_split_points = n_split_points
        self.min_branch_fraction = min_branch_fraction
        self.max_depth = max_depth
        self.memory_limit_mb = memory_limit_mb
        self.nb_threshold = nb_threshold
        self.feature_names = feature_names
        self.class_names = class_names
        self.bound = bound
        self.c = c
        self.binary_nominal = binary_nominal
        self.bound_label = bound_label
        self.criterion_range = criterion_range

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "__init__" in cls.__dict__ or not (
            cls.__dict__.get("_defaults") or cls.__dict__.get("_extra_params")
        ):
            return
        base = inspect.signature(BaseTree.__init__)
        extra = dict(cls._extra_params)
        clash = set(extra) & set(base.parameters)
        if clash:
            raise TypeError(f"{cls.__name__}._extra_params repeats BaseTree parameters {clash}")
        sig = base.replace(
            parameters=[
                p.replace(default=cls._defaults.get(p.name, p.default))
                for p in base.parameters.values()
            ]
            + [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
                for name, default in extra.items()
            ]
        )
        unknown = set(cls._defaults) - set(base.parameters)
        if unknown:
            raise TypeError(f"{cls.__name__}._defaults names unknown parameters {unknown}")

        def __init__(self, *args, **kwargs):
            bound = sig.bind(self, *args, **kwargs)
            bound.apply_defaults()
            values = dict(bound.arguments)
            for name in extra:
                setattr(self, name, values.pop(name))
            BaseTree.__init__(**values)

        __init__.__signature__ = sig
        __init__.__doc__ = BaseTree.__init__.__doc__
        cls.__init__ = __init__

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # NaN is a missing value
        tags.non_deterministic = False
        return tags

    # ------------------------------------------------------------------ parameters
    def _validated(self, n_features: int, n_classes: int, categories=None) -> SimpleNamespace:
        """The constructor's arguments checked, with the stream's sizes filled in; the
        ``categories`` of DataFrame columns ({column: categories}) add nominal features."""
        p = SimpleNamespace()
        p.n_features = check_positive_int(n_features, "n_features")
        p.n_classes = check_positive_int(n_classes, "n_classes", 2)
        p.grace_period = check_positive_real(self.grace_period, "grace_period")
        p.bound = self._checked_bound()
        if self.delta is None and p.bound in ("ctree", "user", "user_schedule"):
            p.delta = None  # 000 Remark 1: delta = 1/t
        elif self.delta is None:
            p.delta = 1e-7
        else:
            p.delta = check_probability(self.delta, "delta")
        p.c = float(check_positive_real(self.c, "c"))
        p.binary_nominal = bool(self.binary_nominal)
        tau = self.tau
        if (
            isinstance(tau, bool)
            or not isinstance(tau, numbers.Real)
            or not 0 <= tau
            or not math.isfinite(tau)
        ):
            raise ValueError(f"tau must be a finite number >= 0; got {tau!r}")
        p.tau = float(tau)
        p.criterion, p.criterion_range = self._checked_criterion()
        if p.criterion == "kearns_mansour" and p.n_classes != 2:
            raise ValueError(
                "criterion 'kearns_mansour' is defined for two classes only; "
                f"got {p.n_classes} classes"
            )
        if p.bound == "ctree" and p.criterion not in ("entropy", "gini", "kearns_mansour"):
            raise ValueError(
                "bound 'ctree' (000 eq. (7)) needs criterion 'entropy', 'gini' or "
                f"'kearns_mansour' (the criteria of Theorems 1-3); got "
                f"{self.criterion if p.criterion != 'user' else fx.display_name(self.criterion)!r}"
            )
        p.leaf_prediction = check_choice(self.leaf_prediction, "leaf_prediction", LEAF_PREDICTORS)
        p.n_split_points = check_positive_int(self.n_split_points, "n_split_points")
        mbf = self.min_branch_fraction
        if isinstance(mbf, bool) or not isinstance(mbf, numbers.Real) or not 0.0 <= mbf < 0.5:
            raise ValueError(f"min_branch_fraction must be in [0, 0.5); got {mbf!r}")
        p.min_branch_fraction = float(mbf)
        p.max_depth = (
            None if self.max_depth is None else check_positive_int(self.max_depth, "max_depth", 0)
        )
        mem = self.memory_limit_mb
        if mem is not None and (
            isinstance(mem, bool) or not isinstance(mem, numbers.Real) or not mem > 0
        ):
            raise ValueError(f"memory_limit_mb must be a positive number or None; got {mem!r}")
        p.memory_limit_mb = mem
        nbt = self.nb_threshold
        if isinstance(nbt, bool) or not isinstance(nbt, numbers.Real) or nbt < 0:
            raise ValueError(f"nb_threshold must be a number >= 0; got {nbt!r}")
        p.nb_threshold = nbt
        nominal = normalise_nominal(self.nominal_features, p.n_features, DEFAULT_NOMINAL_VALUES)
        for col, cats in (categories or {}).items():
            nominal[col] = max(nominal.get(col, 0), len(cats), 1)
        p.nominal_features = dict(sorted(nominal.items()))
        self._probe_functions(p)
        return p

    # ------------------------------------------------------------------ user functions
    def _checked_bound(self) -> str:
        """The bound's name, or "user" / "user_schedule" for a user's njit function of 4 / 7
        arguments (compiled and checked here: :mod:`workbench._functions`)."""
        b = self.bound
        if fx.is_user_function(b):
            schedule = fx.n_parameters(b) == len(fx.SCHEDULE_SIG.args)
            fx.compile_for(b, fx.SCHEDULE_SIG if schedule else fx.BOUND_SIG, "bound")
            return "user_schedule" if schedule else "user"
        if b not in self._bounds:
            raise ValueError(
                f"bound must be one of {sorted(self._bounds)} or a numba-jitted function "
                f"{fx.EXPECTED[fx.BOUND_SIG]}; got {b!r}"
            )
        if self.bound_label is not None:
            raise ValueError(
                f"bound_label names a user's bound function; the built-in bound {b!r} has "
                "its own name"
            )
        return b

    def _checked_criterion(self):
        """(name, range): the criterion's name and None, or "user" and the range R of the user
        function's gain (``criterion_range``, required for it)."""
        crit, R = self.criterion, self.criterion_range
        if not fx.is_user_function(crit):
            name = check_choice(crit, "criterion", CRITERIA)
            if R is not None:
                raise ValueError(
                    f"criterion_range is the range of a user criterion's gain; the built-in "
                    f"criterion {name!r} has its own; got criterion_range={R!r}"
                )
            return name, None
        fx.compile_for(crit, fx.IMPURITY_SIG, "criterion")
        if (
            isinstance(R, bool)
            or not isinstance(R, numbers.Real)
            or not (R > 0 and math.isfinite(R))
        ):
            raise ValueError(
                f"criterion={fx.display_name(crit)} needs criterion_range=R, the range of its "
                "gain (a number > 0: the bound's value_range; e.g. 1 for Gini, log2(K) for "
                f"entropy in bits); got criterion_range={R!r}"
            )
        return "user", float(R)

    def _user_functions(self) -> dict:
        """{role: function} of this learner's user functions."""
        out = {}
        for role in ("bound", "criterion"):
            f = getattr(self, role, None)
            if fx.is_user_function(f):
                out[role] = f
        return out

    def _probe_functions(self, p) -> None:
        """Call the user's bound and criterion from Python on a few typical arguments, so that
        one that raises, returns NaN or a negative epsilon is reported now, by name, and not from
        inside the tree's kernel (where the checks stay: :mod:`workbench.core.custom`)."""
        K = p.n_classes
        if p.criterion == "user":
            R = p.criterion_range
            for counts in (np.ones(K), np.eye(K)[0] * 5.0, np.arange(K, 0, -1.0) * 3.0):
                c = np.ascontiguousarray(counts)
                fx.check_value(
                    self.criterion, "criterion", (c,), fx.call(self.criterion, c), "finite"
                )
        else:
            R = float(merit_range(K, CRITERIA[p.criterion]))
        if p.bound not in ("user", "user_schedule"):
            return
        for n in (1.0, 2.0, 10.0, 200.0, 1e4, 1e6):
            delta = p.delta if p.delta is not None else 1.0 / n
            args = (n, delta, R, K)
            if p.bound == "user_schedule":
                args = (*args, 2, int(n), p.n_features)
            fx.check_value(self.bound, "bound", args, fx.call(self.bound, *args), "eps")

    def _bind_functions(self, params) -> None:
        """The user functions' addresses in the policy vector (they hold in this process only:
        an unpickled learner binds them again)."""
        q = self._p
        if q.bound in ("user", "user_schedule"):
            sig = fx.SCHEDULE_SIG if q.bound == "user_schedule" else fx.BOUND_SIG
            params[P_BOUND] = BOUND_USER_SCHEDULE if q.bound == "user_schedule" else BOUND_USER
            params[P_BOUND_FN] = fx.address(self.bound, sig, "bound")
        if q.criterion == "user":
            params[P_CRITERION] = fx.address(self.criterion, fx.IMPURITY_SIG, "criterion")
            params[P_CRITERION_RANGE] = q.criterion_range

    def _bound_name(self) -> str:
        """The name explanations and charts give the bound's epsilon."""
        if self._p.bound in ("user", "user_schedule"):
            return self.bound_label or getattr(self.bound, "__name__", "user bound")
        return _BOUND_NAMES[self._p.bound]

    def _kernel_failed(self, exc, extra=None):
        """An exception from a kernel: when user functions took part, the learner is marked
        unusable (it learned only part of the rows) and the error names them."""
        functions = {**self._user_functions(), **(extra or {})}
        if not functions:
            raise exc
        err = fx.kernel_failure(exc, functions)
        self._failed = str(err)
        raise err from exc

    # pickled with references to the user functions (module and name), deep-copied sharing
    # them: the stepper keeps deep copies of models; a numba function copies to itself
    def __getstate__(self):
        state = dict(self.__dict__)
        for role, f in self._user_functions().items():
            state[role] = fx.reference(f, role)
        return state

    def __setstate__(self, state):
        state = dict(state)
        for role in ("bound", "criterion"):
            if role in state:
                state[role] = fx.resolve(state[role], role)
        self.__dict__.update(state)
        if self._is_set_up() and hasattr(self, "_p") and hasattr(self._p, "criterion"):
            self._writable()
            self._bind_functions(self._config.params)

    def __deepcopy__(self, memo):
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            new.__dict__[key] = copy.deepcopy(value, memo)
        return new

    def _make_config(self) -> Config:
        q = self._p
        p = np.zeros(N_PARAMS)
        p[P_GRACE] = q.grace_period
        p[P_DELTA] = -1.0 if q.delta is None else q.delta
        p[P_TAU] = q.tau
        p[P_N_SPLIT_POINTS] = q.n_split_points
        p[P_MIN_BRANCH_FRAC] = q.min_branch_fraction
        p[P_MAX_DEPTH] = np.inf if q.max_depth is None else q.max_depth
        p[P_CRITERION] = CRITERIA.get(q.criterion, 0)
        p[P_LEAF_PRED] = LEAF_PREDICTORS[q.leaf_prediction]
        p[P_NB_THRESHOLD] = q.nb_threshold
        p[P_SPLIT_RULE] = RULES[self._split_rule]
        p[P_BOUND] = BOUNDS.get(q.bound, 0)
        p[P_MARGIN_FACTOR] = self._margin_factor
        p[P_C] = q.c
        p[P_BINARY_NOMINAL] = 1.0 if q.binary_nominal else 0.0
        p[P_UPDATE] = UPDATES[self._update]
        p[P_REEVAL_RULE] = RULES[self._reeval_rule]
        p[P_REEVAL_CLOCK] = REEVAL_CLOCKS[getattr(q, "reeval_clock", self._reeval_clock)]
        p[P_MERITS] = MERIT_ESTIMATES[getattr(q, "merits", self._merits)]
        p[P_GRACE_CLOCK] = GRACE_CLOCKS[getattr(q, "grace_clock", self._grace_clock)]
        p[P_RANGE] = RANGES[getattr(q, "range", self._range)]
        p[P_NULL_SUM] = NULL_SUMS[getattr(q, "null_sum", self._null_sum)]
        p[P_ATTEMPTS] = ATTEMPT_COUNTS[getattr(q, "attempts", self._attempts)]
        p[P_USED_NOMINAL] = 1.0 if getattr(q, "used_nominal", self._used_nominal) else 0.0
        p[P_REEVAL] = getattr(q, "reeval_period", self._reeval_period)
        p[P_CUTS] = CUT_POLICIES[self._cut_policy]
        nom_index = np.full(q.n_features, -1, np.int64)
        for m, col in enumerate(q.nominal_features):
            nom_index[col] = m
        nom_card = np.array(list(q.nominal_features.values()), np.int64)
        self._bind_functions(p)
        return Config(p, nom_index, nom_card, self._cut_table())

    def _cut_table(self) -> np.ndarray:
        """``Config.cuts``: the fixed candidate cut points per feature, NaN-padded."""
        d = self._p.n_features
        if self._cut_policy != "fixed":
            return np.empty((d, 0))
        cuts = self._fixed_cuts
        if cuts is None or len(cuts) != d:
            raise ValueError(
                f"the fixed cut-point policy needs one sequence of cut points per "
                f"feature ({d}); got {cuts!r}"
            )
        rows = [np.asarray(c, np.float64).ravel() for c in cuts]
        if any(not np.all(np.isfinite(r)) for r in rows):
            raise ValueError("fixed cut points must be finite numbers")
        table = np.full((d, max((len(r) for r in rows), default=0)), np.nan)
        for j, r in enumerate(rows):
            table[j, : len(r)] = np.sort(r)
        return table

    # ------------------------------------------------------------------ set-up
    def _setup(self, n_features: int, classes, feature_names_in=None, categories=None):
        """Check the parameters and build an empty tree for ``n_features`` columns and the
        labels ``classes``: the start of every ``fit`` and of the first ``partial_fit``."""
        classes = np.asarray(classes)
        if classes.ndim != 1 or len(classes) < 2:
            raise ValueError(f"a classifier needs at least two classes; got {classes.tolist()!r}")
        if self.n_features is not None and self.n_features != n_features:
            raise ValueError(
                f"X has {n_features} columns but the model was built for "
                f"n_features={self.n_features}"
            )
        if self.n_classes is not None and self.n_classes != len(classes):
            only = "Only binary classification is supported: " if self.n_classes == 2 else ""
            raise ValueError(
                f"{only}the labels have {len(classes)} classes but the model was "
                f"built for n_classes={self.n_classes} (n_classes=None learns any "
                "number of classes)"
            )
        categories = dict(categories or {})
        p = self._validated(n_features, len(classes), categories)
        names = (
            self.feature_names
            if self.feature_names is not None
            else (
                list(feature_names_in)
                if feature_names_in is not None
                else [f"x{j}" for j in range(n_features)]
            )
        )
        if len(names) != n_features:
            raise ValueError(f"feature_names has {len(names)} names for {n_features} features")
        cnames = self.class_names if self.class_names is not None else [str(c) for c in classes]
        if len(cnames) != len(classes):
            raise ValueError(f"class_names has {len(cnames)} names for {len(classes)} classes")
        self._p = p
        self.__dict__.pop("_failed", None)
        self.classes_ = classes
        self.n_classes_ = len(classes)
        self.n_features_in_ = n_features
        if feature_names_in is not None:
            self.feature_names_in_ = np.asarray(feature_names_in, dtype=object)
        elif hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        self.feature_names_ = list(names)
        self.class_names_ = list(cnames)
        self.nominal_features_ = p.nominal_features
        self.categories_ = categories
        self._codes_are_labels = bool(
            classes.dtype.kind in "iu" and np.array_equal(classes, np.arange(len(classes)))
        )
        self._config = self._make_config()
        return self._new_tree()

    def _new_tree(self):
        card = max(self.nominal_features_.values(), default=1)
        self._state = st.allocate(
            self.n_features_in_,
            self.n_classes_,
            len(self.nominal_features_),
            card,
            max(2, card),
            node_capacity=NODE_CAPACITY,
            slot_capacity=SLOT_CAPACITY,
            n_trees=self._n_trees,
        )
        engine.init_root(self._state)
        p = self._config.params
        if self._p.memory_limit_mb is None:
            p[P_MAX_NODES] = np.inf
        else:  # a node and the statistics slot it may hold
            per = st.bytes_per_node(self._state) + st.bytes_per_slot(self._state)
            p[P_MAX_NODES] = max(1.0, self._p.memory_limit_mb * 2.0**20 // per)
        return self

    def _is_set_up(self) -> bool:
        return hasattr(self, "_state")

    def _ensure_set_up(self, X_raw, classes=None):
        """Set the model up from the first data it sees (and the constructor's sizes)."""
        if self._is_set_up():
            return
        if classes is None and self.n_classes is not None:
            classes = np.arange(check_positive_int(self.n_classes, "n_classes", 2))
        if classes is None:
            raise ValueError(
                f"{type(self).__name__} does not know its classes yet: pass "
                "classes=[...] to the first partial_fit (as SGDClassifier "
                "needs), call fit, or construct it with n_classes=K for labels "
                "0..K-1"
            )
        if is_sparse(X_raw):
            as_matrix(X_raw, 0)  # raises the sparse-input error
        names, categories = frame_columns(X_raw)
        if hasattr(X_raw, "columns"):
            d = X_raw.shape[1]
        else:
            try:
                arr = np.asarray(X_raw) if not isinstance(X_raw, np.ndarray) else X_raw
            except (TypeError, ValueError) as exc:
                raise ValueError(f"X must be a numeric array ({exc})") from None
            if arr.ndim == 1:
                raise ValueError(one_d_message("X", arr))
            if arr.ndim != 2:
                raise ValueError(f"X must be 2-D [n_samples, n_features]; got {arr.ndim}-D")
            d = arr.shape[1]
        if d == 0:
            raise ValueError(
                f"X has 0 feature(s) (shape=({len(X_raw)}, 0)) while a minimum of 1 is required."
            )
        self._setup(d, classes, feature_names_in=names, categories=categories)

    def prepare(self, X, classes=None):
        """Set the model up for the stream X without learning from it: an empty tree that can
        already predict and explain (the stepper's step 0).  Needs the classes as
        ``partial_fit`` does; does nothing if the model has been set up already."""
        self._ensure_set_up(X, None if classes is None else np.unique(np.asarray(classes)))
        return self

    def reset(self):
        """Forget everything learned (parameters, classes and feature names stay)."""
        if self._is_set_up():  # the same set-up again, with the parameters as they are now
            names = getattr(self, "feature_names_in_", None)
            self._setup(
                self.n_features_in_,
                self.classes_,
                feature_names_in=names,
                categories=self.categories_,
            )
        return self

    # ------------------------------------------------------------------ validation
    def _check_X(self, X, name="X", learning=False, nominal=None) -> np.ndarray:
        self._require_fitted()
        self._writable()
        X = frame_to_matrix(X, self, name=name, learning=learning)
        if not isinstance(X, np.ndarray) and not is_sparse(X):
            try:
                X = np.asarray(X)
            except (TypeError, ValueError):
                pass  # as_matrix says what is wrong with it
        shape = np.shape(X)
        if len(shape) == 2 and shape[1] != self.n_features_in_:
            raise ValueError(
                f"{name} has {shape[1]} features, but {type(self).__name__} is "
                f"expecting {self.n_features_in_} features as input"
            )
        return as_matrix(X, self.n_features_in_, name=name, nominal=nominal)

    def _writable(self):
        """Copies of the tree's arrays if they are read-only (a model unpickled from a memory
        map): the kernels write into them."""
        if not self._state.meta.flags.writeable:
            self._state = type(self._state)(*(np.array(a) for a in self._state))
        if not self._config.params.flags.writeable:
            self._config = type(self._config)(*(np.array(a) for a in self._config))

    def _encode(self, y, n_rows: int) -> np.ndarray:
        """Class labels as codes 0..K-1 (indices into ``classes_``)."""
        y = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
        if y.ndim == 2 and y.shape[1] == 1:
            from sklearn.exceptions import DataConversionWarning

            warnings.warn(
                "A column-vector y was passed when a 1d array was expected; it is "
                "read as one label per row",
                DataConversionWarning,
                stacklevel=3,
            )
            y = np.asarray(y).ravel()
        if self._codes_are_labels:
            return as_labels(y, self.n_classes_, n_rows)
        arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr.ravel()
        if arr.ndim != 1 or arr.shape[0] != n_rows:
            raise ValueError(
                f"y must hold one label per row of X ({n_rows}); got shape {arr.shape}"
            )
        try:
            # classes that came as they came (learn_one) are in the order first seen
            order = _rows.class_order(self.classes_)
            codes = np.searchsorted(self.classes_, arr, sorter=order)
        except TypeError as exc:
            raise ValueError(
                f"y holds labels that cannot be compared with the classes "
                f"{self.classes_.tolist()!r} ({exc})"
            ) from None
        codes = np.clip(codes, 0, self.n_classes_ - 1)
        if order is not None:
            codes = order[codes]
        bad = self.classes_[codes] != arr
        if np.any(bad):
            i = int(np.argmax(bad))
            bad_label = arr[i].item() if hasattr(arr[i], "item") else arr[i]
            raise ValueError(
                f"label {bad_label!r} at y[{i}] is not one of the classes "
                f"{self.classes_.tolist()!r}"
            )
        return codes.astype(np.int64)

    def _check_Xy(self, X, y, classes=None):
        if not self._is_set_up():
            self._ensure_set_up(X, classes)
        # (the nominal codes are checked in the pass that screens X for infinities)
        X = self._check_X(X, learning=True, nominal=self.nominal_features_)
        y = self._encode(y, X.shape[0])
        return X, y

    # ------------------------------------------------------------------ kernels
    def _run(self, kernel, n, *args, start=0):
        """Call ``kernel(T, C, *args, start)``-style kernels until all n rows are done (from
        row ``start``), growing the arrays whenever a kernel stops for room."""
        self._writable()
        while True:
            try:
                start = kernel(self._state, self._config, *args[:2], start, *args[2:])
            except Exception as exc:
                self._kernel_failed(exc)
            if start >= n:
                return
            self._state = st.grow(self._state, self._state.children.shape[1] + 1, 1)

    # ------------------------------------------------------------------ batch API
    def partial_fit(self, X, y, classes=None):
        """Learn from the rows of (X, y) in order (one pass, as a stream).

        The first call needs the classes: ``classes=[...]`` (all labels the stream will use),
        or ``n_classes=K`` in the constructor for labels 0..K-1."""
        if classes is not None and self._is_set_up():
            known = np.unique(np.asarray(classes))
            if not np.array_equal(known, self.classes_):
                raise ValueError(
                    f"classes={known.tolist()!r} differs from the classes of the "
                    f"first partial_fit, {self.classes_.tolist()!r}"
                )
        elif classes is not None:
            classes = np.unique(np.asarray(classes))
        _require_y(y, type(self).__name__)
        X, y = self._check_Xy(X, y, classes)
        self._learn_checked(X, y)
        return self

    def _learn_checked(self, X, y):
        self._learn_all(X, y)

    def _learn_all(self, X, y):
        """Learn every row of validated (X, y) (a learner whose ``partial_fit`` selects rows,
        such as the Frugal tree, still learns all of them here: the protocols' labelled rows)."""
        self._run(engine.learn, X.shape[0], X, y)

    def fit(self, X, y):
        """Forget everything, then learn (X, y) as a stream.  Without ``n_classes`` the classes
        are the distinct labels of y."""
        for attr in ("_state", "_p", "_config"):
            self.__dict__.pop(attr, None)
        return self.partial_fit(X, y, classes=self._classes_of(y))

    def _classes_of(self, y) -> np.ndarray:
        """The classes ``fit`` learns: the distinct labels of y; with ``n_classes=K`` given and
        integer labels in 0..K-1, all of 0..K-1 (a class may be absent from this y)."""
        _require_y(y, type(self).__name__)
        y_arr = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
        if (
            y_arr.dtype.kind == "f"
            and np.isfinite(y_arr).all()
            and np.any(y_arr != np.floor(y_arr))
        ):
            from sklearn.utils.multiclass import check_classification_targets

            check_classification_targets(y_arr)  # "Unknown label type: continuous"
        if y_arr.ndim == 2 and y_arr.shape[1] == 1:
            y_arr = y_arr.ravel()
        if y_arr.ndim != 1:
            raise ValueError(f"y must be 1-D (one label per row); got shape {y_arr.shape}")
        if y_arr.size == 0:
            raise ValueError(
                "y is empty (0 labels): fit needs labelled rows of at least two classes"
            )
        if y_arr.dtype.kind == "f" and np.isnan(y_arr).any():
            raise ValueError("y contains NaN; every instance needs a label")
        try:
            classes = np.unique(y_arr)
        except TypeError as exc:
            raise ValueError(
                f"y holds labels of mixed types that cannot be sorted ({exc})"
            ) from None
        k = self.n_classes
        if (
            k is not None
            and classes.dtype.kind in "iuf"
            and len(classes)
            and np.all(classes == np.floor(classes))
            and classes.min() >= 0
            and classes.max() < check_positive_int(k, "n_classes", 2)
        ):
            return np.arange(k)
        if len(classes) < 2:
            raise ValueError(
                f"y has only one class, {classes.tolist()!r}: a classifier needs "
                "at least two classes to learn"
            )
        return classes

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities, columns in the order of ``classes_``."""
        X = self._check_X(X)
        out = np.zeros((X.shape[0], self.n_classes_))
        engine.predict_proba(self._state, self._config, X, out)
        return out

    def predict(self, X) -> np.ndarray:
        """The predicted class of every row (labels of ``classes_``)."""
        codes = self._predict_checked(self._check_X(X))
        return codes if self._codes_are_labels else self.classes_[codes]

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

    def _prequential(self, X, y, pred, leaves, every, *active, start=0):
        """Test-then-train kernel run (validated arrays) from row ``start``; used by
        workbench.evaluate.  ``active``: the ACTIVE-setting arguments of
        :func:`workbench.core.engine.run_stream`."""
        self._run(engine.prequential, X.shape[0], X, y, pred, leaves, every, *active, start=start)

    # ------------------------------------------------------------------ one instance
    # (River's one-row protocol: dict rows, set-up from the first row, classes as they come,
    # None before any learning; the logic is in learners/_rows.py)
    def _row(self, x) -> np.ndarray:
        """One instance as a [1, d] float64 array (x: sequence, array or {name: value})."""
        self._require_fitted()
        return _rows.row(self, x)

    def learn_one(self, x, y):
        """Learn one labelled instance (x: {feature name: value}, a sequence or an array).

        On an unfitted model the first row sets it up: a dict's keys name the features, and
        without ``n_classes`` the classes come as they come, numbered in the order first seen
        (as River's learners do; :mod:`workbench.learners._rows`)."""
        _rows.learn_one(self, x, y)
        return self

    def predict_proba_one(self, x) -> np.ndarray | None:
        """Class probabilities of one instance (in the order of ``classes_``); None before the
        model is set up, as River's ``predict_one``."""
        return _rows.predict_proba_one(self, x)

    def predict_one(self, x):
        """The predicted class of one instance; None before the model is set up (River's
        convention: nothing learned, no prediction)."""
        return _rows.predict_one(self, x)

    def _require_fitted(self):
        if "_failed" in self.__dict__:
            raise fx.UserFunctionError(self._failed)
        if not self._is_set_up():
            from sklearn.exceptions import NotFittedError

            raise NotFittedError(
                f"This {type(self).__name__} instance is not fitted yet: call "
                "fit, partial_fit or learn_one first"
            )

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
        """Instances learned so far (0 before the first fit)."""
        return int(self._state.meta[st.M_T]) if self._is_set_up() else 0

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
        return {
            "n_nodes": self.n_nodes,
            "n_leaves": self.n_leaves,
            "n_active_leaves": self.n_active_leaves,
            "depth": self.depth,
            "n_seen": self.n_seen,
            "n_splits": int(self._state.meta[st.M_N_SPLITS]),
            "memory_bytes": self.memory_bytes(),
            "guard_refusals": int(self._state.meta[st.M_GUARD_HITS]),
        }

    def to_dot(self, **kwargs) -> str:
        """Graphviz DOT source of the tree (see ``workbench.viz.to_dot`` for options)."""
        kwargs.setdefault("feature_names", self.feature_names_)
        kwargs.setdefault("class_names", self.class_names_)
        return tree_to_dot(self, **kwargs)

    def __repr__(self) -> str:
        text = super().__repr__()
        if not self._is_set_up():
            return text
        leaves = count(self.n_leaves, "leaf", "leaves")
        return f"{text}  # fitted: {leaves}, depth {self.depth}, seen {self.n_seen}"

    # ------------------------------------------------------------------ explanation
    def describe_test(self, node: int, branch: int | None = None) -> str:
        """Human-readable test of an inner node (and of one of its branches)."""
        T = self._state
        f = int(T.feature[node])
        name = self.feature_names_[f]
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
        d = self.n_features_in_
        merits, cuts = np.empty(d), np.empty(d)
        post = np.empty((max(T.children.shape[1], 2), self.n_classes_))
        outcome, b1, b2, eps, q, thr = sp.explain_split(T, C, leaf, merits, cuts, post)
        return int(outcome), int(b1), int(b2), float(eps), float(q), float(thr), merits, cuts

    def _reeval_report(self, node: int) -> dict | None:
        """At an inner node of a re-evaluating learner (EFDT): what a re-evaluation now would
        compare and decide (the tree is not changed), and when the next one is due."""
        T, C = self._state, self._config
        period = float(C.params[P_REEVAL])
        if period <= 0 or T.stats_slot[node] < 0 or T.kind[node] <= 0:
            return None
        d = self.n_features_in_
        merits, cuts = np.empty(d), np.empty(d)
        post = np.empty((max(T.children.shape[1], 2), self.n_classes_))
        outcome, best, eps, q, thr, g_best, g_cur = sp.explain_reevaluation(
            T, C, node, merits, cuts, post
        )
        if C.params[P_REEVAL_CLOCK] == REEVAL_CLOCKS["tree"]:
            t = int(T.meta[st.M_T])
            nxt = (t // int(period) + 1) * int(period) + 1  # the instance whose t - 1 is a multiple
            due = f"at the tree's instance {nxt:,} (every {period:g})"
        else:
            w = float(T.class_counts[node].sum())
            due = f"after {_instances_to_go(period, w - float(T.last_eval[node])):,} more instances here"
        verdict = {sp.REEVAL_KEEP: "kept", sp.REEVAL_KILL: "killed", sp.REEVAL_REPLACE: "replaced"}
        return {
            "current": self.feature_names_[int(T.feature[node])],
            "best": "null split" if best < 0 else self.feature_names_[int(best)],
            "g_best": float(g_best),
            "g_current": float(g_cur),
            "quantity": float(q),
            "threshold": float(thr),
            "epsilon": float(eps),
            "outcome": verdict[int(outcome)],
            "next": due,
            "merit_label": "mean G" if C.params[P_MERITS] == MERIT_ESTIMATES["moa"] else "G",
        }

    def _candidate(self, j: int, merits, cuts) -> dict:
        name = self.feature_names_[j]
        if j in self.nominal_features_ and not np.isnan(cuts[j]):
            test = f"{name} == {int(cuts[j])}"
        elif j in self.nominal_features_:
            test = f"{name} (multiway)"
        else:
            test = f"{name} <= {cuts[j]:.6g}"
        return {
            "feature": j,
            "name": name,
            "merit": float(merits[j]),
            "threshold": float(cuts[j]),
            "test": test,
        }

    def explain_one(self, x) -> Explanation:
        """The path of x with each node's test and counts, and at the leaf the best and
        second-best candidate splits, their gains, the Hoeffding epsilon, and one sentence on
        why the leaf has or has not split yet."""
        X = self._row(x)
        T = self._state
        ex, node = self._explain_path(X)
        for step in ex.path:
            step["reeval"] = self._reeval_report(step["node"])
        ex.prediction = int(np.argmax(ex.proba))
        ex.predictor = self._predictor_used(node)
        ex.grace_period = float(self._p.grace_period)
        if self._config.params[P_GRACE_CLOCK] == GRACE_CLOCKS["count"]:
            # MOA's EFDT counts instances: the attempts come at multiples of the grace period
            ex.since_last_test = float(int(T.n_learned[node]) % int(ex.grace_period))
        else:
            ex.since_last_test = ex.n - float(T.last_eval[node])
        ex.tau = self._p.tau
        ex.active = bool(T.active[node])
        outcome, b1, b2, eps, q, thr, merits, cuts = self._split_report(node)
        ex.epsilon = eps
        ex.quantity, ex.threshold = q, thr
        order = [j for j in np.argsort(-merits, kind="stable") if np.isfinite(merits[j])]
        ex.candidates = [self._candidate(int(j), merits, cuts) for j in order]
        ex.best = self._candidate(b1, merits, cuts) if b1 >= 0 and np.isfinite(merits[b1]) else None
        ex.second = (
            self._candidate(b2, merits, cuts) if b2 >= 0 and np.isfinite(merits[b2]) else None
        )
        self._decision_quantity(ex, outcome)
        ex.reason = self._reason(ex, outcome)
        return ex

    def _explain_path(self, X) -> tuple[Explanation, int]:
        """An Explanation of the one row X with its path filled in (each inner node's test,
        counts and the branch taken) and its leaf's counts, probabilities and weight; returns
        it and the leaf."""
        from ..core.routing import walk  # jitted; imported here to keep start-up light

        T = self._state
        ex = Explanation()
        path = np.full(self.depth + 2, -1, np.int64)
        node, length, _forked = walk(T, X, 0, False, path)
        for i in range(length - 1):
            u, child = int(path[i]), int(path[i + 1])
            b = int(np.flatnonzero(T.children[u] == child)[0])
            ex.path.append(
                {
                    "node": u,
                    "depth": int(T.depth[u]),
                    "n": float(T.class_counts[u].sum()),
                    "counts": T.class_counts[u].copy(),
                    "test": self.describe_test(u),
                    "outcome": self.describe_test(u, b),
                    "branch": b,
                }
            )
        ex.leaf = int(node)
        ex.class_counts = T.class_counts[node].copy()
        ex.proba = self.predict_proba(X)[0]
        ex.n = float(ex.class_counts.sum())
        return ex, int(node)

    def _decision_quantity(self, ex: Explanation, outcome: int) -> None:
        """Labels of the quantity and threshold the kernel's rule returned (``ex.quantity``,
        ``ex.threshold``), from the rule table of ``workbench.core.rules``."""
        rule = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])]
        ex.rule = rule[0]
        ex.quantity_label = rule[1]
        f = float(self._config.params[P_MARGIN_FACTOR]) if rule[0] == "best vs second best" else 1.0
        ex.bound_name = self._bound_name()
        ex.threshold_label = (
            f"{ex.bound_name} epsilon" if f == 1 else f"{f:g} x {ex.bound_name} epsilon"
        )
        ex.will_split = outcome in (sp.SPLIT_MARGIN, sp.SPLIT_TIE)

    def _predictor_used(self, leaf: int) -> str:
        T = self._state
        if self._p.leaf_prediction == "mc":
            return "majority class"
        if self._p.leaf_prediction == "nb":
            return "naive Bayes"
        return (
            "naive Bayes (adaptive: it has been right more often)"
            if T.mc_correct[leaf] <= T.nb_correct[leaf]
            else "majority class (adaptive: it has been right more often)"
        )

    def _reason(self, ex: Explanation, outcome: int) -> str:
        if not ex.active:
            return (
                "This leaf no longer splits: it was deactivated (depth limit or memory "
                "guard), so it only counts classes."
            )
        wait = _instances_to_go(ex.grace_period, ex.since_last_test)
        when = (
            f"the next split test runs after {wait:,} more instance{'s' if wait != 1 else ''} "
            f"(grace period {ex.grace_period:g})"
        )
        if ex.n == 0:
            return f"This leaf has seen no instance yet; {when}."
        if outcome == sp.NO_SPLIT_PURE:
            return (
                f"Not split: every instance here has the same class, so no split can help; {when}."
            )
        if outcome == sp.NO_SPLIT_NO_CANDIDATE:
            return (
                f"Not split: no candidate split separates the instances seen so far (every "
                f"candidate leaves almost all weight on one side); {when}."
            )
        if outcome == sp.NO_SPLIT_DEPTH:
            return f"Not split: the leaf is at the maximum depth {self._p.max_depth}."
        if outcome == sp.NO_SPLIT_USED:
            return (
                f"Not split: the rule picks {ex.best['test']}, but that nominal attribute is "
                f"tested above this leaf, and MOA's EFDT never splits on it again below; {when}."
            )
        # the kernel's rule: quantity > threshold = f x epsilon, or epsilon < tau
        q, f = ex.quantity, ex.threshold / ex.epsilon if ex.epsilon > 0 else 1.0
        level = "epsilon" if f == 1 else f"{f:g} x epsilon"
        reference = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])][2]
        if reference == "second best" and ex.second is None:
            reference = "null split"
            lone = (
                " (it is the only candidate; its rival is the null split, not splitting, "
                "whose merit under the minimum branch fraction is -inf, as in MOA)"
            )
        else:
            lone = ""
        q_txt, thr_txt = compared(q, ex.threshold, 4)
        if outcome in (sp.SPLIT_MARGIN, sp.SPLIT_TIE):
            eps_txt, tau_txt = compared(ex.epsilon, ex.tau, 4)
            why = (
                f"{ex.quantity_label} = {q_txt} exceeds {level} = {thr_txt}{lone}"
                if outcome == sp.SPLIT_MARGIN
                else f"epsilon {eps_txt} is below the tie threshold tau = {tau_txt}"
            )
            return (
                f"Ready to split on {ex.best['test']}: {why}; it will split at the next "
                f"test, after {wait:,} more instance{'s' if wait != 1 else ''}."
            )
        # NO_SPLIT_BOUND
        lead = (
            f"the two best splits ({ex.best['test']} and {ex.second['test']}) have the same gain"
            if ex.second is not None and reference == "second best" and q <= 1e-12
            else f"the best split ({ex.best['test']}) beats the {reference} by {q_txt}"
            if q >= 0
            else f"the best split ({ex.best['test']}) falls short of the {reference} by "
            f"{compared(-q, -ex.threshold, 4)[0]}"
        )
        text = (
            f"Not split yet: {lead}, not more than {level} = {thr_txt}, and epsilon "
            f"is still above tau = {ex.tau:g}; the next test runs after {wait:,} more "
            f"instance{'s' if wait != 1 else ''}"
        )
        if self._p.bound == "hoeffding":  # eps = R sqrt(ln(1/delta) / (2n)) can be inverted
            k = ex.epsilon**2 * ex.n  # R^2 ln(1/delta) / 2, with this leaf's range R
            need = k / self._p.tau**2 if self._p.tau > 0 else math.inf
            if q > 0:
                need = min(need, k * f * f / q**2)
            if math.isfinite(need):
                text += (
                    f"; if the gains stay as they are, the leaf splits once it has seen "
                    f"about {math.ceil(need):,} instances (it has {ex.n:,.6g})"
                )
            else:
                text += "; with tau = 0 and tied gains it will not split until the gains differ"
        return text + "."
