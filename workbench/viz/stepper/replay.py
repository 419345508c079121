"""Replay: the :class:`TreeStepper` itself, its state and how it moves along the stream.

One step is ``explain_one`` + ``learn_one`` + ``explain_one``; a step of k instances is one
test-then-train kernel call (``evaluate.prequential``, or the strategy's ``run``); a parameter
change rebuilds the learner and replays the stream to the current position; the split traces
replay a leaf's life on a fresh learner from snapshots taken every :data:`SNAPSHOT_EVERY`
learned instances.  Tracing, drawing and the widgets are mixed in from the sibling modules.
"""

from __future__ import annotations

import copy
import math
import time
from dataclasses import dataclass

import numpy as np

from ... import evaluate
from ...active.strategies import Strategy
from ...core.dot import node_test
from ...core.state import LEAF
from ..dot import node_counts
from .drawing import _Drawing
from .edits import find_edits, structure
from .lens import TreeLens
from .tracing import _Tracing
from .widgets import DEFAULT_PARAMS, Compare, ParamSpec, _Widgets

#: the split chart's replays keep a copy of the learner every this many learned instances
SNAPSHOT_EVERY = 4096

_REQUIRED = ("learn_one", "explain_one", "partial_fit", "predict_one", "tree", "apply")


def _maker(make_learner):
    """A function ``make(**params)`` from a factory or a learner instance."""
    if all(hasattr(make_learner, a) for a in ("clone", "learn_one")):
        template = make_learner
        return lambda **p: template.clone(**p)
    if callable(make_learner):
        return make_learner
    raise ValueError(
        "make_learner must be a learner (with .clone) or a callable that takes "
        f"the parameters as keywords and returns one; got {make_learner!r}"
    )


def _check_learner(model) -> None:
    missing = [a for a in _REQUIRED if not hasattr(type(model), a)]
    if missing:
        raise ValueError(
            f"{type(model).__name__} is not a workbench learner: it lacks {', '.join(missing)}"
        )


@dataclass
class LastInstance:
    index: int
    x: np.ndarray
    y: int
    prediction: int
    proba: np.ndarray | None
    queried: bool
    explanation: object  # explain_one after learning (for the drawing)
    before: object | None  # explain_one before learning (single steps only)


# --------------------------------------------------------------------------- the stepper
class TreeStepper(_Tracing, _Drawing, _Widgets):
    """Step a tree learner through a stream, instance by instance, with widgets.

    Parameters
    ----------
    make_learner : callable or learner
        ``make_learner(**params)`` returns a fresh learner, or a learner whose ``clone(**params)``
        does (e.g. ``lambda **p: learners.HoeffdingTree(3, 2, **p)``).
    X, y : the stream (float64 [n, d], int labels [n]).
    params : dict, optional
        Parameter controls: ``{"delta": (1e-9, 1e-1, "log"), "tau": (0.0, 0.2),
        "grace_period": (10, 500), "criterion": ["info_gain", "gini"], "c": (0.1, 10)}``;
        ``(low, high)`` is a linear slider (integer if both are ints), ``(low, high, "log")`` a
        logarithmic one, a list a drop-down.  Default: those of :data:`DEFAULT_PARAMS` that the
        learner has.  ``{}`` shows none.
    k : instances per "step k" (default 100).
    strategy : optional active-learning strategy (see the module docstring).
    feature_names, class_names, category_names : names for the drawing and the panel.
    title : heading of the panel (default: the learner and its parameters).
    max_nodes : the drawing collapses deeper levels beyond about this many nodes.
    recent : splits within this many instances are marked (default: k).
    window : width of the sliding-window accuracy curve.
    trace_points : at most this many points when a leaf's split chart is rebuilt by replay.
    tree : for a forest (UFFT), the pairwise tree shown (for two classes the only one).

    Examples
    --------
    >>> from workbench import learners, streams, viz
    >>> X, y = streams.sea(2000, seed=1)
    >>> s = viz.TreeStepper(lambda **p: learners.HoeffdingTree(3, 2, **p), X, y)
    >>> s.step().step(500).t
    501
    >>> s.set_params(delta=1e-3).t, s.model.delta
    (501, 0.001)
    """

    def __init__(
        self,
        make_learner,
        X,
        y,
        *,
        params=None,
        k: int = 100,
        strategy=None,
        feature_names=None,
        class_names=None,
        category_names=None,
        title=None,
        max_nodes: int = 60,
        recent=None,
        window: int = 500,
        trace_points: int = 60,
        tree: int = 0,
    ):
        self._make = _maker(make_learner)
        probe = self._make()
        _check_learner(probe)
        if params is None:
            known = probe.get_params() if hasattr(probe, "get_params") else {}
            params = {
                name: spec
                for name, spec in DEFAULT_PARAMS.items()
                # a user's own criterion is the learner's: no control replaces it
                if (name in known or hasattr(probe, name)) and not callable(known.get(name))
            }
        if not isinstance(params, dict):
            raise ValueError(f"params must be a dict of name -> spec; got {params!r}")
        self.specs = {name: ParamSpec.parse(name, spec) for name, spec in params.items()}
        known = probe.get_params() if hasattr(probe, "get_params") else {}
        self.params = {}
        for name, spec in self.specs.items():
            value = known.get(name, getattr(probe, name, None))
            self.params[name] = spec.default() if value is None else value
        self.model = self._new_model()
        X, y = self.model._check_Xy(X, y)
        if X.shape[0] == 0:
            raise ValueError("the stream is empty")
        self.X, self.y, self.n = X, y, int(X.shape[0])
        # the stepper feeds class codes 0..K-1: every model it makes is set up for them
        self._classes = np.arange(self.model.n_classes_)
        self.model = self._new_model()
        self.k = self._check_k(k)
        if strategy is not None and not callable(getattr(strategy, "query", None)):
            raise ValueError("strategy must have a method query(model, x) -> bool")
        self._strategy0 = strategy
        self.feature_names = (
            list(feature_names) if feature_names is not None else list(self.model.feature_names_)
        )
        if len(self.feature_names) != X.shape[1]:
            raise ValueError(
                f"feature_names has {len(self.feature_names)} names for {X.shape[1]} features"
            )
        self.class_names = (
            list(class_names) if class_names is not None else list(self.model.class_names_)
        )
        if len(self.class_names) != self.model.n_classes_:
            raise ValueError(
                f"class_names has {len(self.class_names)} names for {self.model.n_classes_} classes"
            )
        self.category_names = dict(category_names or {})
        self.title = title
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 3:
            raise ValueError(f"max_nodes must be an integer >= 3; got {max_nodes!r}")
        self.max_nodes = max_nodes
        if recent is not None and (
            isinstance(recent, bool) or not isinstance(recent, int) or recent < 0
        ):
            raise ValueError(f"recent must be an integer >= 0 or None; got {recent!r}")
        self.recent = recent
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"window must be a positive integer; got {window!r}")
        self.window = window
        if isinstance(trace_points, bool) or not isinstance(trace_points, int) or trace_points < 2:
            raise ValueError(f"trace_points must be an integer >= 2; got {trace_points!r}")
        self.trace_points = trace_points
        if isinstance(tree, bool) or not isinstance(tree, (int, np.integer)) or tree < 0:
            raise ValueError(f"tree must be an integer >= 0; got {tree!r}")
        n_trees = len(getattr(self.model, "pairs_", [0]))
        if tree >= n_trees:
            raise ValueError(f"tree must be below {n_trees} (the learner's trees); got {tree}")
        self.tree = int(tree)
        self.timings = {"learn_ms": 0.0, "draw_ms": 0.0, "step_ms": 0.0}
        self._ui = None
        self._controls = None
        self._reset_state()

    # ------------------------------------------------------------------ construction
    @staticmethod
    def _check_k(k) -> int:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ValueError(f"k must be a positive integer; got {k!r}")
        return int(k)

    def _new_model(self):
        try:
            model = self._make(**self.params)
        except TypeError as err:
            raise ValueError(
                f"make_learner does not accept the parameters {sorted(self.params)}: {err}"
            ) from err
        _check_learner(model)
        if getattr(self, "_classes", None) is not None:
            model.prepare(self.X, classes=self._classes)  # an empty tree that predicts
        return model

    def _reset_state(self) -> None:
        self.t = 0
        self.pred = np.full(self.n, -1, np.int64)
        self.queried = np.zeros(self.n, bool)
        self.strategy = copy.deepcopy(self._strategy0)
        self._counts = np.zeros(self.model.tree.kind.shape[0], np.int64)
        self._traces: dict = {}
        self._snapshots: dict = {}
        self._focus = None
        self.last: LastInstance | None = None
        #: splits replaced or killed while stepping (EFDT's re-evaluations), oldest first
        self.edits: list[dict] = []

    @classmethod
    def compare(cls, steppers, **kwargs) -> "Compare":
        """Several steppers on the same stream, side by side, sharing one set of controls."""
        return Compare(steppers, **kwargs)

    @property
    def lens(self) -> TreeLens:
        """What the panel looks at: the learner's tree (a forest's pairwise tree ``tree``)."""
        return TreeLens(self.model, self.tree)

    # ------------------------------------------------------------------ public actions
    @property
    def done(self) -> bool:
        return self.t >= self.n

    @property
    def accuracy(self) -> float:
        """Prequential accuracy so far (each instance predicted before it was learned)."""
        if self.t == 0:
            return math.nan
        return float(np.mean(self.pred[: self.t] == self.y[: self.t]))

    @property
    def query_rate(self) -> float:
        """Fraction of the instances so far whose label was queried (1 without a strategy)."""
        return float(self.queried[: self.t].mean()) if self.t else math.nan

    def step(self, k: int = 1) -> "TreeStepper":
        """Learn the next k instances (test-then-train) and redraw once."""
        k = self._check_k(k)
        k = min(k, self.n - self.t)
        if k <= 0:
            return self
        t0 = time.perf_counter()
        before, m_before = structure(self.model.tree), self.model.n_seen
        if k == 1:
            self._step_one()
        else:
            self._advance(self.t, self.t + k)
            self._after_jump(m_before)
        self._note_edits(before, m_before)
        t1 = time.perf_counter()
        self.redraw()
        t2 = time.perf_counter()
        self.timings = {
            "learn_ms": (t1 - t0) * 1e3,
            "draw_ms": (t2 - t1) * 1e3,
            "step_ms": (t2 - t0) * 1e3,
        }
        return self

    def _note_edits(self, before: dict, m_before: int) -> None:
        """Record the splits this step replaced or killed (re-evaluating learners, EFDT)."""
        found = find_edits(
            before, self.model.tree, m_before, self.feature_names, self.category_names
        )
        learned = self._learned()
        for e in found:
            e["t"] = self._stream_time(e["t"], learned)
        self.edits.extend(found)

    def run_to(self, t: int) -> "TreeStepper":
        """Go to position t (replaying from the start if t is behind)."""
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or not 0 <= t <= self.n:
            raise ValueError(f"t must be an integer in [0, {self.n}]; got {t!r}")
        if t < self.t:
            self.reset()
        if t > self.t:
            self.step(int(t) - self.t)
        return self

    def reset(self) -> "TreeStepper":
        """Back to the start of the stream with a fresh learner (parameters stay)."""
        self.model = self._new_model()
        self._reset_state()
        self.redraw()
        return self

    def set_params(self, **changes) -> "TreeStepper":
        """Change parameters: the learner is rebuilt and the stream replayed to the current
        position (one kernel call)."""
        unknown = sorted(set(changes) - set(self.specs))
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {unknown}; this stepper controls {sorted(self.specs)}"
            )
        old = dict(self.params)
        self.params.update(changes)
        try:
            model = self._new_model()
        except Exception:
            self.params = old
            raise
        t = self.t
        t0 = time.perf_counter()
        self.model = model
        self._reset_state()
        if t:
            self._advance(0, t)
            self._after_jump(self.model.n_seen)
        t1 = time.perf_counter()
        self._sync_param_widgets()
        self.redraw()
        self.timings = {
            "learn_ms": (t1 - t0) * 1e3,
            "draw_ms": (time.perf_counter() - t1) * 1e3,
            "step_ms": (time.perf_counter() - t0) * 1e3,
        }
        return self

    # ------------------------------------------------------------------ learning
    def _step_one(self) -> None:
        i = self.t
        x, yi = self.X[i], int(self.y[i])
        model, lens = self.model, self.lens
        before = lens.explain_one(x)
        q = True if self.strategy is None else bool(self.strategy.query(model, x))
        if q:
            model.learn_one(x, yi)
        self.pred[i] = before.prediction
        self.queried[i] = q
        self.t = i + 1
        after = lens.explain_one(x) if q else before
        if q:
            self._count_path(after)
        self.last = LastInstance(
            i, x, yi, int(before.prediction), np.asarray(before.proba), q, after, before
        )
        leaf = int(before.leaf)
        T = model.tree
        key = (leaf, int(T.t_created[leaf]))
        self._focus = key
        trace = self._traces.get(key)
        if trace is not None:
            trace.add(i, before)
            if q:
                if T.kind[leaf] == LEAF:
                    trace.add(i + 1, after)
                else:
                    trace.split_t = i + 1
                    trace.split_test = node_test(T, leaf, self.feature_names, self.category_names)

    def _advance(self, a: int, b: int) -> None:
        """Test-then-train rows a..b-1 (fills pred and queried; no drawing)."""
        X, y = self.X[a:b], self.y[a:b]
        s = self.strategy
        if s is None:
            res = evaluate.prequential(self.model, X, y, n_points=1)
            self.pred[a:b] = res.predictions
            self.queried[a:b] = True
        elif isinstance(s, Strategy):  # a strategy with a kernel: the whole slice in numba
            res = evaluate.prequential(
                self.model, X, y, strategy=s, budget=s._budget(), n_points=1, _counters=s.counters
            )
            self.pred[a:b] = res.predictions
            self.queried[a:b] = res.queried.astype(bool)
        elif callable(getattr(s, "run", None)):  # a strategy of one's own with a batch method
            pred, queried = s.run(self.model, X, y)
            pred, queried = np.asarray(pred), np.asarray(queried, bool)
            if pred.shape != (b - a,) or queried.shape != (b - a,):
                raise ValueError(
                    f"strategy.run must return predictions and a queried mask of "
                    f"length {b - a}; got shapes {pred.shape}, {queried.shape}"
                )
            self.pred[a:b] = pred
            self.queried[a:b] = queried
        else:  # slow path: one Python call per instance (strategies without a kernel)
            model = self.model
            for i in range(a, b):
                self.pred[i] = model.predict_one(self.X[i])
                q = bool(s.query(model, self.X[i]))
                self.queried[i] = q
                if q:
                    model.learn_one(self.X[i], int(self.y[i]))
        self.t = b

    def _after_jump(self, m_from: int) -> None:
        """Recompute what single steps keep up to date (after k steps or a replay).

        The split chart follows the leaf the last instance reached, unless a node on its path
        split during the jump (after model time ``m_from``): then it follows that node, so that
        a student who jumps to a split sees its crossing."""
        model, lens = self.model, self.lens
        T = model.tree
        i = self.t - 1
        x = self.X[i]
        after = lens.explain_one(x)
        # the probabilities behind the prediction were not kept (one kernel call for all)
        self.last = LastInstance(
            i, x, int(self.y[i]), int(self.pred[i]), None, bool(self.queried[i]), after, None
        )
        self._traces = {}
        self._recount()
        leaf = int(after.leaf)
        split_on_path = [int(s["node"]) for s in after.path if T.t_split[s["node"]] > m_from]
        if split_on_path:
            leaf = max(split_on_path, key=lambda u: (int(T.t_split[u]), int(T.depth[u])))
        elif (
            self.queried[i]
            and leaf != lens.root
            and T.t_created[leaf] == model.n_seen
            and T.parent[leaf] >= 0
        ):
            # the last instance split the leaf it reached: follow that leaf
            leaf = int(T.parent[leaf])
        self._focus = (leaf, int(T.t_created[leaf]))

    def _learned(self):
        """Stream positions of the instances the model learned so far, or None if all."""
        if self.strategy is None:
            return None
        return np.flatnonzero(self.queried[: self.t])

    def _stream_time(self, m: int, learned=None) -> int:
        """Model time m (instances learned) -> stream time (instances seen)."""
        if m <= 0:
            return 0
        if learned is None:
            return int(m)
        return int(learned[m - 1]) + 1 if m <= learned.shape[0] else self.t

    def _recount(self) -> None:
        learned = self._learned()
        X = self.X[: self.t] if learned is None else self.X[learned]
        times = np.arange(1, X.shape[0] + 1)
        self._counts = node_counts(self.model, X, times, tree=self.tree)

    def _count_path(self, ex) -> None:
        T = self.model.tree
        size = T.kind.shape[0]
        if self._counts.shape[0] < size:
            self._counts = np.concatenate(
                [self._counts, np.zeros(size - self._counts.shape[0], np.int64)]
            )
        now = self.model.n_seen
        for node in [s["node"] for s in ex.path] + [ex.leaf]:
            if T.t_created[node] >= now:  # made by this very instance
                self._counts[node] = 0
            else:
                self._counts[node] += 1

    # ------------------------------------------------------------------ replay from snapshots
    def _model_at(self, m: int, Xl, yl):
        """A fresh learner that has learned the first m learned instances, replayed from the
        nearest snapshot (taken every ``SNAPSHOT_EVERY`` instances along earlier replays; the
        learned sequence only grows until a reset or a parameter change clears them)."""
        start = max((k for k in self._snapshots if k <= m), default=0)
        model = copy.deepcopy(self._snapshots[start]) if start else self._new_model()
        cur = start
        while cur < m:
            nxt = min(m, (cur // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY)
            model.partial_fit(Xl[cur:nxt], yl[cur:nxt])
            cur = nxt
            if cur % SNAPSHOT_EVERY == 0 and cur not in self._snapshots:
                self._snapshots[cur] = copy.deepcopy(model)
        return model
