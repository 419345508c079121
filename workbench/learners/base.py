"""The scikit-learn shell shared by every tree learner: parameters, their checks, the data's
checks and encoding, and the public API (``fit``, ``partial_fit``, ``predict``, the one-instance
``learn_one``/``predict_one`` the stepper uses, the structure's properties).

A learner object holds a :class:`~workbench.core.state.TreeState` (the arrays), a
:class:`~workbench.core.params.Config` (the policy vector) and its constructor arguments.  The
engine driver (:mod:`workbench.learners._driver`) builds and runs them; the explanations
(:mod:`workbench.learners._explain`) put a decision into words.
"""

from __future__ import annotations

import copy
import inspect
import math
import warnings
import numbers
from types import SimpleNamespace

import numpy as np

from .. import _functions as fx
from ..core import engine, state as st
from ..core.dot import tree_to_dot
from ..core.params import CRITERIA, LEAF_PREDICTORS, LOOKS_BOUND_CRITERION
from ..core.criteria import merit_range
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
from .._numbers import count
from . import _rows
from ._api import ClassifierAPI
from .._checks import check_bool
from ._driver import EngineDriver
from ._explain import Explaining
from ._memory import check_memory_limit
from .frames import frame_columns, frame_to_matrix


def _require_y(y, name: str) -> None:
    if y is None:
        raise ValueError(f"{name} requires y to be passed, but the target y is None")


#: values a nominal column may take when ``nominal_features`` lists columns without counts
DEFAULT_NOMINAL_VALUES = 64

#: a user bound's signature by its kind
USER_BOUND_SIGNATURES = {
    "user": fx.BOUND_SIG,
    "user_schedule": fx.SCHEDULE_SIG,
    "user_stats": fx.STATS_BOUND_SIG,
}
#: the set-up's calls of a user's split rule: (g_best, g_second, g_null, eps, tau, n, looks,
#: depth) at a clear margin, a near tie, one candidate, and MOA's null merit of -inf
_RULE_PROBES = (
    (0.3, 0.05, 0.0, 0.1, 0.05, 200.0, 1, 0),
    (0.11, 0.1, 0.0, 0.02, 0.05, 5000.0, 25, 3),
    (0.2, -math.inf, 0.0, 0.3, 0.05, 400.0, 2, 1),
    (0.2, 0.1, -math.inf, 0.08, 0.0, 1000.0, 5, 2),
)
#: the set-up's calls of a user's grace schedule: (n, g_best, g_second, eps, looks)
_SCHEDULE_PROBES = (
    (200.0, 0.3, 0.05, 0.1, 1),
    (5000.0, 0.11, 0.1, 0.02, 25),
    (400.0, 0.2, -math.inf, 0.3, 2),
    (300.0, math.nan, math.nan, math.inf, 3),
)


def _probe_stats(n_classes: int, n: float) -> np.ndarray:
    """A leaf of weight n and its two candidates, as a data-dependent bound sees them at the
    set-up's probe (``workbench.bounds.leaf_stats``)."""
    from ..bounds.leaf_stats import make_stats

    leaf = np.full(n_classes, n / n_classes)
    half = np.vstack([leaf * 0.75, leaf * 0.25])
    return make_stats(leaf, half, half[::-1])


class BaseTree(Explaining, EngineDriver, ClassifierAPI):
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
    _bounds = ("hoeffding", "mcdiarmid", "hoeffding_looks")
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
    #: why the learner takes no split rule or grace schedule of a user's (None: it takes them)
    _no_user_rule: str | None = None
    #: the parameters that may hold a user's numba function, and the role each plays
    _user_function_params = {
        "bound": "bound",
        "criterion": "criterion",
        "split_rule": "split rule",
        "grace_schedule": "grace schedule",
    }

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
        split_rule=None,
        split_rule_monotone=False,
        grace_schedule=None,
        cut_points=None,
        bound_scope="leaf",
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
        self.split_rule = split_rule
        self.split_rule_monotone = split_rule_monotone
        self.grace_schedule = grace_schedule
        self.cut_points = cut_points
        self.bound_scope = bound_scope

    def __init_subclass__(cls, **kwargs):
        """Merge the class-level tables along the class hierarchy, then give the class the
        constructor they describe.  ``_defaults`` and ``_extra_params`` name only what a class
        adds or changes: a subclass of any learner keeps its parent's own parameters (a
        subclass of ``HoeffdingTree`` keeps ``reference``) and their defaults."""
        super().__init_subclass__(**kwargs)
        own_defaults = cls.__dict__.get("_defaults") or {}
        own_extra = cls.__dict__.get("_extra_params") or {}
        defaults, extra = {}, {}
        for klass in reversed(cls.__mro__[1:]):
            defaults.update(klass.__dict__.get("_defaults") or {})
            extra.update(klass.__dict__.get("_extra_params") or {})
        defaults.update(own_defaults)
        extra.update(own_extra)
        cls._defaults, cls._extra_params = defaults, extra
        if "__init__" in cls.__dict__ or not (own_defaults or own_extra):
            return  # the parent's constructor already has this signature
        base = inspect.signature(BaseTree.__init__)
        clash = set(own_extra) & set(base.parameters)
        if clash:
            raise TypeError(f"{cls.__name__}._extra_params repeats BaseTree parameters {clash}")
        unknown = set(defaults) - set(base.parameters) - set(extra)
        if unknown:
            raise TypeError(f"{cls.__name__}._defaults names unknown parameters {unknown}")
        for name in set(defaults) & set(extra):  # a parent's own parameter, another default
            extra[name] = defaults[name]
        sig = base.replace(
            parameters=[
                p.replace(default=defaults.get(p.name, p.default)) for p in base.parameters.values()
            ]
            + [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
                for name, default in extra.items()
            ]
        )

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
        if self.delta is None and p.bound in ("ctree", *USER_BOUND_SIGNATURES):
            p.delta = None  # 000 Remark 1: delta = 1/t
        elif self.delta is None:
            p.delta = 1e-7
        else:
            p.delta = check_probability(self.delta, "delta")
        p.c = float(check_positive_real(self.c, "c"))
        p.binary_nominal = check_bool(self.binary_nominal, "binary_nominal")
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
        p.split_rule, p.rule_monotone, p.grace_schedule = self._checked_hooks()
        p.bound_scope = check_choice(
            getattr(self, "bound_scope", "leaf"), "bound_scope", {"leaf": 0, "tree": 1}
        )
        if p.bound in LOOKS_BOUND_CRITERION and p.criterion != LOOKS_BOUND_CRITERION[p.bound]:
            raise ValueError(
                f"bound {p.bound!r} holds for criterion {LOOKS_BOUND_CRITERION[p.bound]!r} (the "
                f"impurity it is a confidence bound of); got criterion {p.criterion!r}"
            )
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
        p.memory_limit_mb = check_memory_limit(self.memory_limit_mb)
        nbt = self.nb_threshold
        if isinstance(nbt, bool) or not isinstance(nbt, numbers.Real) or nbt < 0:
            raise ValueError(f"nb_threshold must be a number >= 0; got {nbt!r}")
        p.nb_threshold = nbt
        nominal = normalise_nominal(self.nominal_features, p.n_features, DEFAULT_NOMINAL_VALUES)
        for col, cats in (categories or {}).items():
            nominal[col] = max(nominal.get(col, 0), len(cats), 1)
        p.nominal_features = dict(sorted(nominal.items()))
        p.cut_points = self._checked_cut_points(getattr(self, "cut_points", None), p)
        if p.cut_points is not None:
            p.cut_policy = "counted"
        self._probe_functions(p)
        return p

    def _checked_cut_points(self, cuts, p):
        """``cut_points`` as the table of counted cut points (``[d, C]``, sorted, NaN-padded;
        NaN rows for nominal features), or None: one sequence for every numeric feature, or one
        per feature (None for a nominal one)."""
        if cuts is None:
            return None
        if self._update != "leaf" or self._cut_policy != "gaussian":
            raise ValueError(
                f"{type(self).__name__} takes no cut_points: counted cut points are for "
                "learners whose leaves alone learn and that cut at MOA's Gaussian steps "
                "(HoeffdingTree, CTree, CorrHTree, FrugalHoeffdingTree)"
            )
        d = p.n_features
        try:
            arr = np.asarray(cuts, dtype=np.float64)
            rows = [arr] * d if arr.ndim == 1 else None
        except (TypeError, ValueError):
            rows = None
        if rows is None:
            if isinstance(cuts, (str, bytes)) or not hasattr(cuts, "__len__") or len(cuts) != d:
                raise ValueError(
                    "cut_points must be one sequence of numbers (the same cuts for every numeric "
                    f"feature) or one per feature ({d}, None for a nominal one); got {cuts!r:.80}"
                )
            rows = [np.zeros(0) if c is None else np.asarray(c, dtype=np.float64) for c in cuts]
        table_rows = []
        for j, r in enumerate(rows):
            r = np.unique(r.ravel()) if j not in p.nominal_features else np.zeros(0)
            if r.size and not np.all(np.isfinite(r)):
                raise ValueError(f"cut_points of feature {j} must be finite numbers; got {r!r:.80}")
            if r.size > 4096:
                raise ValueError(
                    f"cut_points of feature {j}: {r.size} cuts; at most 4096 (each is a column "
                    "of class counts at every leaf)"
                )
            table_rows.append(r)
        width = max((r.size for r in table_rows), default=0)
        if width == 0:
            raise ValueError("cut_points gives no cut point for any numeric feature")
        table = np.full((d, width), np.nan)
        for j, r in enumerate(table_rows):
            table[j, : r.size] = r
        return table

    # ------------------------------------------------------------------ user functions
    def _user_bound_kinds(self) -> dict:
        """A user's bound by its number of arguments: 4, 7 (a schedule) or 5 (data-dependent;
        not where the learner's own kernel cannot fill the leaf's statistics)."""
        return {4: "user", 7: "user_schedule", 5: "user_stats"}

    def _checked_bound(self) -> str:
        """The bound's name, or "user" / "user_schedule" / "user_stats" for a user's njit
        function of 4 / 7 / 5 arguments (compiled and checked here:
        :mod:`workbench._functions`)."""
        b = self.bound
        if fx.is_user_function(b):
            kind = self._user_bound_kinds().get(fx.n_parameters(b), "user")
            fx.compile_for(b, USER_BOUND_SIGNATURES[kind], "bound")
            return kind
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

    def _checked_hooks(self):
        """(split rule, monotone, grace schedule): "user" or None for each of the user's numba
        functions (compiled and checked here), and whether the rule is declared monotone."""
        rule, monotone, schedule = self.split_rule, self.split_rule_monotone, self.grace_schedule
        for name, value in (("split_rule", rule), ("grace_schedule", schedule)):
            if value is not None and not fx.is_user_function(value):
                sig = fx.SPLIT_RULE_SIG if name == "split_rule" else fx.GRACE_SIG
                raise ValueError(
                    f"{name} must be None or a numba-jitted function {fx.EXPECTED[sig]}; "
                    f"got {value!r}"
                )
            if value is not None and self._no_user_rule:
                raise ValueError(
                    f"{type(self).__name__} takes no {name}: {self._no_user_rule}; got "
                    f"{name}={fx.display_name(value)}"
                )
        if not isinstance(monotone, (bool, np.bool_)):
            raise ValueError(
                f"split_rule_monotone must be True or False; got {monotone!r} (a "
                f"{type(monotone).__name__})"
            )
        if monotone and rule is None:
            raise ValueError(
                "split_rule_monotone declares a user's split_rule monotone; without a "
                "split_rule the built-in rule's screen applies as it is"
            )
        if rule is not None:
            fx.compile_for(rule, fx.SPLIT_RULE_SIG, "split rule")
        if schedule is not None:
            fx.compile_for(schedule, fx.GRACE_SIG, "grace schedule")
        return (
            None if rule is None else "user",
            bool(monotone),
            None if schedule is None else "user",
        )

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

    def _probe_functions(self, p) -> None:
        """Call the user's bound and criterion from Python on a few typical arguments, so that
        one that raises, returns NaN or a negative epsilon is reported now, by name, and not from
        inside the tree's kernel (where the checks stay: :mod:`workbench.core.epsilon`)."""
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
        if p.split_rule == "user":
            for args in _RULE_PROBES:
                v = fx.call(self.split_rule, *args)
                fx.check_value(self.split_rule, "split rule", args, v, "verdict")
        if p.grace_schedule == "user":
            g = float(p.grace_period)
            for n, g1, g2, eps, looks in _SCHEDULE_PROBES:
                args = (n, g1, g2, eps, float(p.tau), g, looks)
                v = fx.call(self.grace_schedule, *args)
                fx.check_value(self.grace_schedule, "grace schedule", args, v, "wait")
        if p.bound not in USER_BOUND_SIGNATURES:
            return
        for n in (1.0, 2.0, 10.0, 200.0, 1e4, 1e6):
            delta = p.delta if p.delta is not None else 1.0 / n
            args = (n, delta, R, K)
            if p.bound == "user_schedule":
                args = (*args, 2, int(n), p.n_features)
            elif p.bound == "user_stats":
                args = (*args, _probe_stats(K, n))
            fx.check_value(self.bound, "bound", args, fx.call(self.bound, *args), "eps")

    # pickled with references to the user functions (module and name), deep-copied sharing
    # them: the stepper keeps deep copies of models; a numba function copies to itself
    def __getstate__(self):
        state = dict(self.__dict__)
        for name, role in self._user_function_params.items():
            f = state.get(name)
            if fx.is_user_function(f):
                state[name] = fx.reference(f, role)
        return state

    def __setstate__(self, state):
        state = dict(state)
        for name, role in self._user_function_params.items():
            if name in state:
                state[name] = fx.resolve(state[name], role)
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

    # ------------------------------------------------------------------ set-up
    def _setup(self, n_features: int, classes, feature_names_in=None, categories=None):
        """Check the parameters and build an empty tree for ``n_features`` columns and the
        labels ``classes``: the start of every ``fit`` and of the first ``partial_fit``."""
        classes = np.asarray(classes)
        if classes.ndim != 1 or len(classes) < 2:
            raise ValueError(f"a classifier needs at least two classes; got {classes.tolist()!r}")
        # the constructor's sizes first: n_features=0 is a bad argument, not a width mismatch
        if self.n_features is not None:
            check_positive_int(self.n_features, "n_features")
        if self.n_classes is not None:
            check_positive_int(self.n_classes, "n_classes", 2)
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

    @classmethod
    def _rows_direct(cls) -> bool:
        """Whether the class learns and predicts as BaseTree does (none of the four overridden),
        so that the one-row methods may call the engine directly (``_rows``)."""
        return (
            cls._learn_checked is BaseTree._learn_checked
            and cls._learn_all is BaseTree._learn_all
            and cls._predict_checked is BaseTree._predict_checked
            and cls.predict is BaseTree.predict
        )

    def _learn_checked(self, X, y):
        self._learn_all(X, y)

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

    def split_log(self):
        """One row per split the tree made, in the order made, replaced and removed ones
        included, as a ``pandas.DataFrame`` (``montecarlo.audit_tree`` reads it):

        ``node``, ``depth``, ``t`` (the tree's count of instances learned when it split), ``n``
        (the leaf's weight then), ``looks`` (its split attempts, this one included),
        ``feature`` (and ``feature_name``), ``threshold`` (the cut; the code v of a binary
        nominal test ``x == v``; NaN for a multiway one), ``tie`` (split by the tie rule,
        epsilon < tau: a split that claims no best feature), ``epsilon``, ``g_best`` and
        ``g_second`` (what the rule compared), ``parent_entry`` (the row of the split the node
        hangs below, -1 at a root) and ``branch`` (which of its branches), ``tree`` (which tree
        of a forest), ``replaced`` (a re-evaluation replaced or killed it: EFDT) and
        ``in_tree`` (it stands in the tree now).  A split made by a re-evaluation has
        ``looks`` 0 and ``g_second`` the current split's merit it beat.

        Under ``memory_limit_mb`` the log holds at most a row per node the limit allows; where
        a re-evaluating learner made more splits than that, the later ones are counted, not
        recorded: a warning says how many (``attrs["lost"]``)."""
        import pandas as pd

        self._require_fitted()
        T = self._state
        lost = int(T.meta[st.M_LOG_LOST])
        if lost:
            warnings.warn(
                f"the split log holds the first {int(T.meta[st.M_N_LOG]):,} splits; {lost:,} "
                f"later ones were not recorded (the log's limit under memory_limit_mb="
                f"{self.memory_limit_mb!r})",
                RuntimeWarning,
                stacklevel=2,
            )
        rows = T.log[: int(T.meta[st.M_N_LOG])]
        parent = rows[:, st.LOG_PARENT].astype(np.int64)
        node = rows[:, st.LOG_NODE].astype(np.int64)
        top = np.arange(len(rows))
        for _ in range(len(rows)):  # climb to each split's root entry
            up = parent[top]
            if not (up >= 0).any():
                break
            top = np.where(up >= 0, up, top)
        roots = {int(r): i for i, r in enumerate(T.roots)}
        feature = rows[:, st.LOG_FEATURE].astype(np.int64)
        frame = pd.DataFrame(
            {
                "node": node,
                "depth": rows[:, st.LOG_DEPTH].astype(np.int64),
                "t": rows[:, st.LOG_T].astype(np.int64),
                "n": rows[:, st.LOG_N],
                "looks": rows[:, st.LOG_LOOKS].astype(np.int64),
                "feature": feature,
                "feature_name": [self.feature_names_[j] for j in feature],
                "threshold": rows[:, st.LOG_THRESHOLD],
                "tie": rows[:, st.LOG_TIE] > 0,
                "epsilon": rows[:, st.LOG_EPS],
                "g_best": rows[:, st.LOG_G_BEST],
                "g_second": rows[:, st.LOG_G_SECOND],
                "parent_entry": parent,
                "branch": rows[:, st.LOG_BRANCH].astype(np.int64),
                "tree": [roots.get(int(node[i]), 0) for i in top],
                "replaced": rows[:, st.LOG_REPLACED] > 0,
                "in_tree": rows[:, st.LOG_IN_TREE] > 0,
            }
        )
        frame.attrs["lost"] = lost
        return frame

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
        self._require_fitted()
        kwargs.setdefault("feature_names", self.feature_names_)
        kwargs.setdefault("class_names", self.class_names_)
        return tree_to_dot(self, **kwargs)

    def __repr__(self) -> str:
        text = super().__repr__()
        if not self._is_set_up():
            return text
        leaves = count(self.n_leaves, "leaf", "leaves")
        return f"{text}  # fitted: {leaves}, depth {self.depth}, seen {self.n_seen}"
