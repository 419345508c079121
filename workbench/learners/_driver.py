"""The engine driver of a learner: its policy vector (:class:`~workbench.core.params.Config`)
from its checked parameters, its tree's arrays, and the kernel calls that grow them when a
kernel stops for room.  A learner never loops over instances in Python: ``partial_fit``,
``predict`` and the prequential loop each hand whole arrays to a numba kernel here.
"""

from __future__ import annotations

import numpy as np

from .. import _functions as fx
from ..core import edits, engine
from ..core import state as st
from ._memory import allocate_within, log_limit, room_for
from ..core.params import (
    ATTEMPT_COUNTS,
    BOUND_USER,
    BOUND_USER_SCHEDULE,
    BOUND_USER_STATS,
    BOUNDS,
    CRITERIA,
    CUT_POLICIES,
    GRACE_CLOCKS,
    LEAF_PREDICTORS,
    MERIT_ESTIMATES,
    N_PARAMS,
    NULL_SUMS,
    P_ATTEMPTS,
    P_BINARY_NOMINAL,
    P_BOUND,
    P_BOUND_FN,
    P_BRANCHING,
    P_C,
    P_CRITERION,
    P_CRITERION_RANGE,
    P_CUTS,
    P_DELTA,
    P_GRACE,
    P_GRACE_CLOCK,
    P_GRACE_FN,
    P_LEAF_PRED,
    P_LOG_LIMIT,
    P_MARGIN_FACTOR,
    P_MAX_DEPTH,
    P_MAX_NODES,
    P_MERITS,
    P_MIN_BRANCH_FRAC,
    P_N_BRANCHES,
    P_N_CANDIDATES,
    P_N_SPLIT_POINTS,
    P_NB_THRESHOLD,
    P_NULL_SUM,
    P_RANGE,
    P_REEVAL,
    P_REEVAL_CLOCK,
    P_REEVAL_RULE,
    P_RULE_FN,
    P_RULE_SCREEN,
    P_SPLIT_RULE,
    P_TAU,
    P_UPDATE,
    P_USED_NOMINAL,
    RANGES,
    REEVAL_CLOCKS,
    RULES,
    UPDATES,
    Config,
)

#: a new tree's room: nodes, and statistics slots (one per learning leaf).  Where it runs out
#: the kernel stops, the arrays double (``state.grow``) and the kernel starts again, about
#: 75 us a time; with 16 slots a tree of 100-200 leaves stopped 5-7 times in a pass
NODE_CAPACITY = 128
SLOT_CAPACITY = 64
#: where each split bound's epsilon comes from, as explanations and charts name it


#: a user bound's kind -> its code in the policy vector and its signature
_USER_BOUNDS = {
    "user": (BOUND_USER, fx.BOUND_SIG),
    "user_schedule": (BOUND_USER_SCHEDULE, fx.SCHEDULE_SIG),
    "user_stats": (BOUND_USER_STATS, fx.STATS_BOUND_SIG),
}


class EngineDriver:
    """The policy vector, the tree's arrays and the kernel calls of a
    :class:`~workbench.learners.BaseTree` (whose checked parameters are ``self._p``)."""

    def _user_functions(self) -> dict:
        """{role: function} of this learner's user functions."""
        out = {}
        for name, role in self._user_function_params.items():
            f = getattr(self, name, None)
            if fx.is_user_function(f):
                out[role] = f
        return out

    def _bind_functions(self, params) -> None:
        """The user functions' addresses in the policy vector (they hold in this process only:
        an unpickled learner binds them again)."""
        q = self._p
        if q.bound in _USER_BOUNDS:
            code, sig = _USER_BOUNDS[q.bound]
            params[P_BOUND] = code
            params[P_BOUND_FN] = fx.address(self.bound, sig, "bound")
        if q.criterion == "user":
            params[P_CRITERION] = fx.address(self.criterion, fx.IMPURITY_SIG, "criterion")
            params[P_CRITERION_RANGE] = q.criterion_range
        if getattr(q, "split_rule", None) == "user":
            params[P_RULE_FN] = fx.address(self.split_rule, fx.SPLIT_RULE_SIG, "split rule")
            params[P_RULE_SCREEN] = 1.0 if q.rule_monotone else 0.0
        if getattr(q, "grace_schedule", None) == "user":
            params[P_GRACE_FN] = fx.address(self.grace_schedule, fx.GRACE_SIG, "grace schedule")

    def _kernel_failed(self, exc, extra=None):
        """An exception from a kernel: when user functions took part, the learner is marked
        unusable (it learned only part of the rows) and the error names them."""
        functions = {**self._user_functions(), **(extra or {})}
        if not functions:
            raise exc
        err = fx.kernel_failure(exc, functions)
        self._failed = str(err)
        raise err from exc

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
        p[P_CUTS] = CUT_POLICIES[getattr(q, "cut_policy", self._cut_policy)]
        p[P_N_CANDIDATES] = self._n_candidates()
        widest = 2 if q.binary_nominal else max(2, max(q.nominal_features.values(), default=2))
        p[P_N_BRANCHES] = widest
        p[P_BRANCHING] = widest if getattr(q, "bound_scope", "leaf") == "tree" else 0
        nom_index = np.full(q.n_features, -1, np.int64)
        for m, col in enumerate(q.nominal_features):
            nom_index[col] = m
        nom_card = np.array(list(q.nominal_features.values()), np.int64)
        self._bind_functions(p)
        return Config(p, nom_index, nom_card, self._cut_table())

    def _n_candidates(self) -> int:
        """The candidate splits a leaf compares, for the bounds that spend delta over them:
        each numeric feature's cut points, a nominal feature's multiway split and its binary
        tests ``x == v`` (or these alone under ``binary_nominal``)."""
        q = self._p
        policy = getattr(q, "cut_policy", self._cut_policy)
        table = self._cut_table() if policy in ("counted", "fixed") else None
        binary = getattr(q, "binary_nominal", False)
        total = 0
        for j in range(q.n_features):
            card = q.nominal_features.get(j)
            if card is not None:
                total += card if binary else card + 1
            elif table is not None:
                total += int(np.count_nonzero(np.isfinite(table[j])))
            else:
                total += q.n_split_points
        return max(total, 1)

    def _cut_table(self) -> np.ndarray:
        """``Config.cuts``: the candidate cut points per feature, sorted and NaN-padded (the
        class's fixed ones, or ``cut_points=``)."""
        d = self._p.n_features
        if getattr(self._p, "cut_points", None) is not None:
            return self._p.cut_points
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

    def _sizes(self) -> tuple:
        """The sizes of the tree's arrays (``state.allocate``'s first arguments)."""
        card = max(self.nominal_features_.values(), default=1)
        counted = self._config.params[P_CUTS] == CUT_POLICIES["counted"]
        return (
            self.n_features_in_,
            self.n_classes_,
            len(self.nominal_features_),
            card,
            max(2, card),
            self._config.cuts.shape[1] + 1 if counted else 0,
        )

    def _room(self):
        """The room plan of ``memory_limit_mb`` for arrays of the tree's sizes
        (:func:`workbench.learners._memory.room_for`)."""
        return room_for(
            self._p.memory_limit_mb,
            self._sizes(),
            self._n_trees,
            type(self).__name__,
            capacities=(NODE_CAPACITY, SLOT_CAPACITY),
        )

    def _set_guard(self, room) -> None:
        """The memory guard and the split log's limit of a room plan, in the policy vector."""
        self._config.params[P_MAX_NODES] = room.max_nodes
        self._config.params[P_LOG_LIMIT] = log_limit(room)

    def _new_tree(self):
        room = self._room()
        self._state = allocate_within(
            self._sizes(), room, self._n_trees, self._p.memory_limit_mb, type(self).__name__
        )
        edits.init_root(self._state)
        self._set_guard(room)
        return self

    def _is_set_up(self) -> bool:
        return hasattr(self, "_state")

    def _writable(self):
        """Copies of the tree's arrays if they are read-only (a model unpickled from a memory
        map): the kernels write into them."""
        if not self._state.meta.flags.writeable:
            self._state = type(self._state)(*(np.array(a) for a in self._state))
        if not self._config.params.flags.writeable:
            self._config = type(self._config)(*(np.array(a) for a in self._config))

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
            self._grow()

    def _grow(self):
        """Grow the arrays after a kernel stopped for room: one split's branches and a node, a
        statistics slot and a row of the split log (within its limit) free."""
        self._state = st.grow(
            self._state,
            self._state.children.shape[1] + 1,
            1,
            1,
            self._config.params[P_LOG_LIMIT],
        )

    def _learn_all(self, X, y):
        """Learn every row of validated (X, y) (a learner whose ``partial_fit`` selects rows,
        such as the Frugal tree, still learns all of them here: the protocols' labelled rows)."""
        self._run(engine.learn, X.shape[0], X, y)

    def _prequential(self, X, y, pred, leaves, every, *active, start=0):
        """Test-then-train kernel run (validated arrays) from row ``start``; used by
        workbench.evaluate.  ``active``: the ACTIVE-setting arguments of
        :func:`workbench.core.engine.run_stream`."""
        self._run(engine.prequential, X.shape[0], X, y, pred, leaves, every, *active, start=start)
