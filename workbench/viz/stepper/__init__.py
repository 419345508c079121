"""Step any tree learner through a stream in JupyterLab and watch it decide when and where to split.

:class:`TreeStepper` is an ipywidgets panel over the public learner protocol (``learn_one``,
``explain_one``, ``partial_fit``, ``clone``, ``to_dot``'s arrays), so it works for every learner
of the workbench.  It shows

* the tree, drawn in the browser (Graphviz as WebAssembly), with the path of the last instance,
  the leaf it reached, and the nodes split recently;
* the last instance, its prediction (made before the tree learned it) and its true label, and
  (with an active-learning ``strategy``) whether its label was queried and the query rate;
* the running (prequential) accuracy against time;
* for the leaf just reached, the quantity that decides that learner's split against the level it
  must exceed, over the leaf's life (Hoeffding tree: ``G(best) - G(second best)`` against the
  Hoeffding epsilon, and the tie level tau), with the moment of the split marked.

Work per action stays small: one step is ``explain_one`` + ``learn_one`` + ``explain_one`` (three
short numba calls) and one redraw; a step of k instances is one test-then-train kernel call over
the slice (``evaluate.prequential``) and one redraw; a change of a parameter rebuilds the learner
and replays the stream to the current position in one kernel call.  The split chart of a leaf seen
for the first time is rebuilt by replaying that leaf's life on a fresh learner (at most
``trace_points`` short kernel calls), and then extended at every step that reaches it.

Active learning
---------------
``strategy`` is any object with ``query(model, x) -> bool`` (ask for the label of instance x,
given the model before it learns x).  The stepper predicts every instance, asks the strategy,
and the learner learns the instance only if its label was queried.  A strategy that can process a
whole slice in numba may also offer ``run(model, X, y) -> (predictions, queried)`` (test, ask and
learn the slice; the model is updated in place); without it, steps of k instances call ``query``
once per instance in Python, which is fine for prototypes but slow for long jumps.  The strategy
is deep-copied at every rebuild so that a replay starts from its initial state.
"""
from __future__ import annotations

import asyncio
import copy
import math
import time
from dataclasses import dataclass, field
from html import escape

import ipywidgets as widgets
import numpy as np

from ... import evaluate
from ...core.dot import node_test, tree_to_dot
from ...core.state import LEAF
from ..svgchart import line_chart
from ..view import TREE_CSS, tree_widget

#: speed label -> (instances per tick, seconds per tick)
SPEEDS = {"1 / s": (1, 1.0), "2 / s": (1, 0.5), "5 / s": (1, 0.2), "10 / s": (1, 0.1),
          "50 / s": (5, 0.1), "100 / s": (10, 0.1), "1,000 / s": (100, 0.1),
          "10,000 / s": (1000, 0.1)}

#: the parameter controls a stepper shows when none are declared (those the learner has)
DEFAULT_PARAMS = {"delta": (1e-10, 1e-1, "log"), "tau": (0.0, 0.2),
                  "grace_period": (10, 500), "criterion": ["info_gain", "gini"],
                  "leaf_prediction": ["nba", "mc", "nb"]}

#: the split chart's replays keep a copy of the learner every this many learned instances
SNAPSHOT_EVERY = 4096

_REQUIRED = ("learn_one", "explain_one", "partial_fit", "predict_one", "tree", "apply")


def _fmt_int(v) -> str:
    return f"{int(v):,}"


def _fmt_value(v) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


# --------------------------------------------------------------------------- parameters
@dataclass
class ParamSpec:
    """One parameter control: a numeric range (linear or log) or a list of choices."""
    name: str
    kind: str                  # "log", "float", "int", "choice", "bool"
    low: float = 0.0
    high: float = 1.0
    step: float | None = None
    choices: tuple = ()

    @classmethod
    def parse(cls, name, spec) -> "ParamSpec":
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"parameter names must be identifiers; got {name!r}")
        if isinstance(spec, ParamSpec):
            return spec
        if spec is bool:
            return cls(name, "bool")
        if isinstance(spec, list):
            if not spec:
                raise ValueError(f"parameter {name!r}: the list of choices is empty")
            return cls(name, "choice", choices=tuple(spec))
        if isinstance(spec, tuple) and len(spec) in (2, 3):
            lo, hi = spec[0], spec[1]
            third = spec[2] if len(spec) == 3 else None
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and
                       math.isfinite(v) for v in (lo, hi)):
                raise ValueError(f"parameter {name!r}: range bounds must be finite numbers; "
                                 f"got {spec!r}")
            if not lo < hi:
                raise ValueError(f"parameter {name!r}: low must be below high; got {spec!r}")
            if third == "log":
                if lo <= 0:
                    raise ValueError(f"parameter {name!r}: a log range needs low > 0; got "
                                     f"{spec!r}")
                return cls(name, "log", float(lo), float(hi))
            if third is not None and not (isinstance(third, (int, float)) and third > 0):
                raise ValueError(f"parameter {name!r}: the third entry must be 'log' or a "
                                 f"positive step; got {third!r}")
            if isinstance(lo, int) and isinstance(hi, int) and (third is None or
                                                                isinstance(third, int)):
                return cls(name, "int", lo, hi, third or 1)
            return cls(name, "float", float(lo), float(hi),
                       float(third) if third else (hi - lo) / 200)
        raise ValueError(f"parameter {name!r}: expected (low, high), (low, high, 'log'), "
                         f"(low, high, step) or a list of choices; got {spec!r}")

    def widget(self, value):
        style = {"description_width": "initial"}
        lay = widgets.Layout(width="250px")
        if self.kind == "choice":
            options = list(self.choices)
            if value not in options:
                options.append(value)
            return widgets.Dropdown(options=options, value=value, description=self.name,
                                    style=style, layout=widgets.Layout(width="210px"))
        if self.kind == "bool":
            return widgets.Checkbox(value=bool(value), description=self.name, style=style)
        if self.kind == "log":
            lo, hi = math.log10(self.low), math.log10(self.high)
            v = math.log10(value) if value and value > 0 else lo
            lo, hi = min(lo, v), max(hi, v)
            return widgets.FloatLogSlider(value=value, base=10, min=lo, max=hi, step=0.25,
                                          description=self.name, readout_format=".1e",
                                          continuous_update=False, style=style, layout=lay)
        lo, hi = min(self.low, value), max(self.high, value)
        if self.kind == "int":
            return widgets.IntSlider(value=int(value), min=int(lo), max=int(hi),
                                     step=int(self.step or 1), description=self.name,
                                     continuous_update=False, style=style, layout=lay)
        return widgets.FloatSlider(value=float(value), min=lo, max=hi, step=self.step,
                                   description=self.name, readout_format=".3g",
                                   continuous_update=False, style=style, layout=lay)

    def default(self):
        if self.kind == "choice":
            return self.choices[0]
        if self.kind == "bool":
            return False
        return int(self.low) if self.kind == "int" else self.low


def _maker(make_learner):
    """A function ``make(**params)`` from a factory or a learner instance."""
    if all(hasattr(make_learner, a) for a in ("clone", "learn_one")):
        template = make_learner
        return lambda **p: template.clone(**p)
    if callable(make_learner):
        return make_learner
    raise ValueError("make_learner must be a learner (with .clone) or a callable that takes "
                     f"the parameters as keywords and returns one; got {make_learner!r}")


def _check_learner(model) -> None:
    missing = [a for a in _REQUIRED if not hasattr(model, a)]
    if missing:
        raise ValueError(f"{type(model).__name__} is not a workbench learner: it lacks "
                         f"{', '.join(missing)}")


# --------------------------------------------------------------------------- traces
@dataclass
class SplitTrace:
    """The split-deciding quantity of one leaf over its life (stream time on the x axis)."""
    leaf: int
    created: int                   # stream time the leaf was made
    t: list = field(default_factory=list)
    quantity: list = field(default_factory=list)
    threshold: list = field(default_factory=list)
    tau: list = field(default_factory=list)
    will_split: list = field(default_factory=list)
    quantity_label: str = "quantity"
    threshold_label: str = "threshold"
    split_t: int = -1              # stream time of the split, -1 while it is a leaf
    split_test: str = ""

    def add(self, t: int, ex) -> None:
        if ex.leaf != self.leaf:
            return
        if self.t and t <= self.t[-1]:
            if t < self.t[-1]:
                return
            # same time: keep the newer values
            for lst in (self.t, self.quantity, self.threshold, self.tau, self.will_split):
                lst.pop()
        self.t.append(int(t))
        self.quantity.append(float(ex.quantity))
        self.threshold.append(float(ex.threshold))
        self.tau.append(float(getattr(ex, "tau", math.nan)))
        self.will_split.append(bool(ex.will_split))
        if ex.quantity_label:
            self.quantity_label = ex.quantity_label
        if ex.threshold_label:
            self.threshold_label = ex.threshold_label

    @property
    def crossing(self) -> str:
        """'margin' if the quantity went above the threshold, 'tie' if the leaf became ready
        by the tie rule (threshold below tau), '' if it never became ready."""
        ready = [i for i, w in enumerate(self.will_split) if w]
        if not ready:
            return ""
        i = ready[-1]
        q, thr = self.quantity[i], self.threshold[i]
        return "margin" if (math.isfinite(q) and math.isfinite(thr) and q > thr) else "tie"

    @property
    def first_ready(self) -> int:
        for t, w in zip(self.t, self.will_split):
            if w:
                return t
        return -1


@dataclass
class LastInstance:
    index: int
    x: np.ndarray
    y: int
    prediction: int
    proba: np.ndarray | None
    queried: bool
    explanation: object          # explain_one after learning (for the drawing)
    before: object | None        # explain_one before learning (single steps only)


# --------------------------------------------------------------------------- the stepper
class TreeStepper:
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

    Examples
    --------
    >>> from workbench import learners, streams, viz
    >>> X, y = streams.sea(2000, seed=1)
    >>> s = viz.TreeStepper(lambda **p: learners.HoeffdingTree(3, 2, **p), X, y)
    >>> s.step(); s.step(500); s.t
    501
    >>> s.set_params(delta=1e-3); s.t, s.model.delta
    (501, 0.001)
    """

    def __init__(self, make_learner, X, y, *, params=None, k: int = 100, strategy=None,
                 feature_names=None, class_names=None, category_names=None, title=None,
                 max_nodes: int = 60, recent=None, window: int = 500,
                 trace_points: int = 60):
        self._make = _maker(make_learner)
        probe = self._make()
        _check_learner(probe)
        if params is None:
            known = probe.get_params() if hasattr(probe, "get_params") else {}
            params = {name: spec for name, spec in DEFAULT_PARAMS.items()
                      if name in known or hasattr(probe, name)}
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
        self.k = self._check_k(k)
        if strategy is not None and not callable(getattr(strategy, "query", None)):
            raise ValueError("strategy must have a method query(model, x) -> bool")
        self._strategy0 = strategy
        self.feature_names = list(feature_names) if feature_names is not None \
            else list(self.model.feature_names)
        if len(self.feature_names) != X.shape[1]:
            raise ValueError(f"feature_names has {len(self.feature_names)} names for "
                             f"{X.shape[1]} features")
        self.class_names = list(class_names) if class_names is not None \
            else list(self.model.class_names)
        if len(self.class_names) != self.model.n_classes:
            raise ValueError(f"class_names has {len(self.class_names)} names for "
                             f"{self.model.n_classes} classes")
        self.category_names = dict(category_names or {})
        self.title = title
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 3:
            raise ValueError(f"max_nodes must be an integer >= 3; got {max_nodes!r}")
        self.max_nodes = max_nodes
        if recent is not None and (isinstance(recent, bool) or not isinstance(recent, int)
                                   or recent < 0):
            raise ValueError(f"recent must be an integer >= 0 or None; got {recent!r}")
        self.recent = recent
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise ValueError(f"window must be a positive integer; got {window!r}")
        self.window = window
        if isinstance(trace_points, bool) or not isinstance(trace_points, int) \
                or trace_points < 2:
            raise ValueError(f"trace_points must be an integer >= 2; got {trace_points!r}")
        self.trace_points = trace_points
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
            raise ValueError(f"make_learner does not accept the parameters "
                             f"{sorted(self.params)}: {err}") from err
        _check_learner(model)
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

    @classmethod
    def compare(cls, steppers, **kwargs) -> "Compare":
        """Several steppers on the same stream, side by side, sharing one set of controls."""
        return Compare(steppers, **kwargs)

    # ------------------------------------------------------------------ public actions
    @property
    def done(self) -> bool:
        return self.t >= self.n

    @property
    def accuracy(self) -> float:
        """Prequential accuracy so far (each instance predicted before it was learned)."""
        if self.t == 0:
            return math.nan
        return float(np.mean(self.pred[:self.t] == self.y[:self.t]))

    @property
    def query_rate(self) -> float:
        """Fraction of the instances so far whose label was queried (1 without a strategy)."""
        return float(self.queried[:self.t].mean()) if self.t else math.nan

    def step(self, k: int = 1) -> "TreeStepper":
        """Learn the next k instances (test-then-train) and redraw once."""
        k = self._check_k(k)
        k = min(k, self.n - self.t)
        if k <= 0:
            return self
        t0 = time.perf_counter()
        if k == 1:
            self._step_one()
        else:
            m_before = self.model.n_seen
            self._advance(self.t, self.t + k)
            self._after_jump(m_before)
        t1 = time.perf_counter()
        self.redraw()
        t2 = time.perf_counter()
        self.timings = {"learn_ms": (t1 - t0) * 1e3, "draw_ms": (t2 - t1) * 1e3,
                        "step_ms": (t2 - t0) * 1e3}
        return self

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
            raise ValueError(f"unknown parameter(s) {unknown}; this stepper controls "
                             f"{sorted(self.specs)}")
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
        self.timings = {"learn_ms": (t1 - t0) * 1e3, "draw_ms": (time.perf_counter() - t1) * 1e3,
                        "step_ms": (time.perf_counter() - t0) * 1e3}
        return self

    # ------------------------------------------------------------------ learning
    def _step_one(self) -> None:
        i = self.t
        x, yi = self.X[i], int(self.y[i])
        model = self.model
        before = model.explain_one(x)
        q = True if self.strategy is None else bool(self.strategy.query(model, x))
        if q:
            model.learn_one(x, yi)
        self.pred[i] = before.prediction
        self.queried[i] = q
        self.t = i + 1
        after = model.explain_one(x) if q else before
        if q:
            self._count_path(after)
        self.last = LastInstance(i, x, yi, int(before.prediction),
                                 np.asarray(before.proba), q, after, before)
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
                    trace.split_test = node_test(T, leaf, self.feature_names,
                                                 self.category_names)

    def _advance(self, a: int, b: int) -> None:
        """Test-then-train rows a..b-1 (fills pred and queried; no drawing)."""
        X, y = self.X[a:b], self.y[a:b]
        s = self.strategy
        if s is None:
            res = evaluate.prequential(self.model, X, y, n_points=1)
            self.pred[a:b] = res.predictions
            self.queried[a:b] = True
        elif callable(getattr(s, "run", None)):
            pred, queried = s.run(self.model, X, y)
            pred, queried = np.asarray(pred), np.asarray(queried, bool)
            if pred.shape != (b - a,) or queried.shape != (b - a,):
                raise ValueError(f"strategy.run must return predictions and a queried mask of "
                                 f"length {b - a}; got shapes {pred.shape}, {queried.shape}")
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
        model = self.model
        T = model.tree
        i = self.t - 1
        x = self.X[i]
        after = model.explain_one(x)
        # the probabilities behind the prediction were not kept (one kernel call for all)
        self.last = LastInstance(i, x, int(self.y[i]), int(self.pred[i]), None,
                                 bool(self.queried[i]), after, None)
        self._traces = {}
        self._recount()
        leaf = int(after.leaf)
        split_on_path = [int(s["node"]) for s in after.path if T.t_split[s["node"]] > m_from]
        if split_on_path:
            leaf = max(split_on_path, key=lambda u: (int(T.t_split[u]), int(T.depth[u])))
        elif self.queried[i] and leaf != model.root and T.t_created[leaf] == model.n_seen \
                and T.parent[leaf] >= 0:
            # the last instance split the leaf it reached: follow that leaf
            leaf = int(T.parent[leaf])
        self._focus = (leaf, int(T.t_created[leaf]))

    def _learned(self):
        """Stream positions of the instances the model learned so far, or None if all."""
        if self.strategy is None:
            return None
        return np.flatnonzero(self.queried[:self.t])

    def _stream_time(self, m: int, learned=None) -> int:
        """Model time m (instances learned) -> stream time (instances seen)."""
        if m <= 0:
            return 0
        if learned is None:
            return int(m)
        return int(learned[m - 1]) + 1 if m <= learned.shape[0] else self.t

    def _recount(self) -> None:
        from ..dot import node_counts
        learned = self._learned()
        X = self.X[:self.t] if learned is None else self.X[learned]
        times = np.arange(1, X.shape[0] + 1)
        self._counts = node_counts(self.model, X, times)

    def _count_path(self, ex) -> None:
        T = self.model.tree
        size = T.kind.shape[0]
        if self._counts.shape[0] < size:
            self._counts = np.concatenate([self._counts,
                                           np.zeros(size - self._counts.shape[0], np.int64)])
        now = self.model.n_seen
        for node in [s["node"] for s in ex.path] + [ex.leaf]:
            if T.t_created[node] >= now:   # made by this very instance
                self._counts[node] = 0
            else:
                self._counts[node] += 1

    # ------------------------------------------------------------------ split traces
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

    def _passes(self, X, leaf: int) -> np.ndarray:
        """Which rows of X pass through node ``leaf`` of the current tree."""
        T = self.model.tree
        cur = self.model.apply(X)
        up = T.depth[cur] - T.depth[leaf]
        for s in range(int(up.max(initial=0))):
            move = up > s
            cur[move] = T.parent[cur[move]]
        return (cur == leaf) & (up >= 0)

    def focus_trace(self) -> SplitTrace | None:
        """The split trace of the leaf just reached (rebuilt by replay when first needed)."""
        if self._focus is None:
            return None
        trace = self._traces.get(self._focus)
        if trace is None:
            trace = self._build_trace(*self._focus)
            self._traces[self._focus] = trace
        return trace

    def _build_trace(self, leaf: int, created: int) -> SplitTrace:
        model = self.model
        T = model.tree
        learned = self._learned()
        Xl = self.X[:self.t] if learned is None else self.X[learned]
        yl = self.y[:self.t] if learned is None else self.y[learned]
        trace = SplitTrace(leaf, self._stream_time(created, learned))
        split_m = int(T.t_split[leaf]) if T.kind[leaf] != LEAF else -1
        m_end = split_m if split_m >= 0 else model.n_seen
        hits = np.empty(0, np.int64)
        if m_end > created:
            hits = created + np.flatnonzero(self._passes(Xl[created:m_end], leaf))
        if split_m >= 0:
            trace.split_t = self._stream_time(split_m, learned)
            trace.split_test = node_test(T, leaf, self.feature_names, self.category_names)
            if hits.size and hits[-1] == split_m - 1:
                hits = hits[:-1]       # after learning this one the leaf is gone
        if hits.size > self.trace_points:
            # two thirds spread over the leaf's life, a third over its last quarter, where
            # a crossing that led to a split (or is about to) happens
            m = hits.size - 1
            wide = np.linspace(0, m, self.trace_points - self.trace_points // 3)
            late = np.linspace(0.75 * m, m, self.trace_points // 3)
            pick = np.unique(np.concatenate([wide, late]).round().astype(np.int64))
            hits = hits[pick]
        if hits.size == 0:
            return trace
        fresh = self._model_at(created, Xl, yl)
        cur = created
        for h in hits:
            h = int(h)
            fresh.partial_fit(Xl[cur:h + 1], yl[cur:h + 1])
            cur = h + 1
            trace.add(self._stream_time(h + 1, learned), fresh.explain_one(Xl[h]))
        return trace

    # ------------------------------------------------------------------ drawing (text)
    def describe(self) -> str:
        """The learner and its parameter values, e.g. ``HoeffdingTree(delta=1e-07, ...)``."""
        params = ", ".join(f"{k}={_fmt_value(v)}" for k, v in self.params.items())
        return f"{type(self.model).__name__}({params})"

    def _heading(self) -> str:
        sub = f"<div class='wb-muted wb-learner' style='font-size:11px'>" \
              f"{escape(self.describe())}</div>"
        return (f"{TREE_CSS}<h4 style='margin:4px 0 0 0'>{escape(self.title or '')}</h4>{sub}"
                if self.title else
                f"{TREE_CSS}<h4 style='margin:4px 0 0 0'>{escape(self.describe())}</h4>")

    def dot(self) -> str:
        """DOT source of the current tree with the last instance's path highlighted."""
        highlight = self.last.explanation if self.last is not None else None
        recent = self.recent if self.recent is not None else self.k
        counts = self._counts
        size = self.model.tree.kind.shape[0]
        if counts.shape[0] < size:
            counts = np.concatenate([counts, np.zeros(size - counts.shape[0], np.int64)])
        return tree_to_dot(self.model, feature_names=self.feature_names,
                           class_names=self.class_names, highlight=highlight, recent=recent,
                           max_nodes=self.max_nodes, category_names=self.category_names,
                           node_counts=counts)

    def _class(self, k: int) -> str:
        return escape(str(self.class_names[k])) if 0 <= k < len(self.class_names) else "?"

    def _value(self, j: int, v: float) -> str:
        if math.isnan(v):
            return "missing"
        if j in self.category_names and v == int(v) and 0 <= v < len(self.category_names[j]):
            return escape(str(self.category_names[j][int(v)]))
        return f"{v:.4g}"

    def instance_html(self) -> str:
        """The panel describing the last instance, its prediction and the tree."""
        model = self.model
        head = (f"<b>instance {_fmt_int(self.t)}</b> of {_fmt_int(self.n)}"
                if self.t else "<b>no instance yet</b>: press <i>step</i>")
        parts = [f"<div class='wb-instance'>{head}"]
        last = self.last
        if last is not None:
            d = len(self.feature_names)
            shown = range(min(d, 12))
            cells = "".join(f"<tr><td>{escape(self.feature_names[j])}</td>"
                            f"<td>{self._value(j, float(last.x[j]))}</td></tr>" for j in shown)
            if d > 12:
                cells += f"<tr><td colspan=2 class='wb-muted'>… {d - 12} more</td></tr>"
            parts.append(f"<table>{cells}</table>")
            ok = last.prediction == last.y
            mark = "<span class='wb-ok'>✓ right</span>" if ok else \
                "<span class='wb-bad'>✗ wrong</span>"
            conf = ""
            if last.proba is not None and 0 <= last.prediction < len(last.proba):
                conf = f" (p = {float(last.proba[last.prediction]):.2f})"
            parts.append(f"<div class='wb-prediction'>true label <b>{self._class(last.y)}</b>"
                         f" · predicted <b>{self._class(last.prediction)}</b>{conf} {mark}"
                         "</div>")
            if self.strategy is not None:
                q = "<span class='wb-ok'>label queried</span>" if last.queried else \
                    "<span class='wb-muted'>label not queried</span>"
                n_q = int(self.queried[:self.t].sum())
                parts.append(f"<div class='wb-query'>{q} · query rate "
                             f"<b class='wb-query-rate'>{self.query_rate:.1%}</b> "
                             f"({_fmt_int(n_q)} of {_fmt_int(self.t)})</div>")
            ex = last.explanation
            route = " → ".join(escape(s["outcome"]) for s in ex.path) or "root"
            parts.append(f"<div>reached <b>leaf {ex.leaf}</b> via {route}</div>")
            parts.append(f"<div class='wb-reason wb-muted'>{escape(ex.reason)}</div>")
        acc = "–" if self.t == 0 else f"{self.accuracy:.1%}"
        right = int((self.pred[:self.t] == self.y[:self.t]).sum())
        parts.append(f"<div class='wb-accuracy-readout' data-t='{self.t}'>accuracy so far "
                     f"<b>{acc}</b> ({_fmt_int(right)} of {_fmt_int(self.t)} right)</div>")
        T = model.tree
        inner = np.flatnonzero((T.kind > 0) & (T.t_split >= 0))
        last_split = ""
        if inner.size:
            u = int(inner[np.argmax(T.t_split[inner])])
            learned = self._learned()
            when = self._stream_time(int(T.t_split[u]), learned)
            last_split = (f"; last split: node {u} on "
                          f"{escape(node_test(T, u, self.feature_names, self.category_names))}"
                          f" at t={_fmt_int(when)}")
        leaves = model.n_leaves
        parts.append(f"<div class='wb-treestats' data-leaves='{leaves}'>{leaves} "
                     f"{'leaf' if leaves == 1 else 'leaves'}, depth {model.depth}{last_split}"
                     "</div></div>")
        return "".join(parts)

    def accuracy_svg(self, width: int = 380, height: int = 170) -> str:
        t = self.t
        series = []
        if t:
            correct = self.pred[:t] == self.y[:t]
            cum = np.concatenate(([0], np.cumsum(correct)))
            times = np.unique(np.linspace(1, t, min(t, 300)).round().astype(np.int64))
            lo = np.maximum(times - self.window, 0)
            series = [{"x": times, "y": cum[times] / times, "label": "accuracy so far",
                       "color": "#1f77b4", "css": "wb-acc-line"},
                      {"x": times, "y": (cum[times] - cum[lo]) / (times - lo),
                       "label": f"last {self.window}", "color": "#ff7f0e", "width": 1.0,
                       "css": "wb-acc-window"}]
            if self.strategy is not None:
                qc = np.concatenate(([0], np.cumsum(self.queried[:t])))
                series.append({"x": times, "y": qc[times] / times, "label": "query rate",
                               "color": "#2ca02c", "dash": "4,3", "css": "wb-query-line"})
        ylim = (0.0, 1.0)
        if series:
            settled = series[0]["y"][series[0]["x"] >= min(t, max(10, t // 50))]
            ylim = (max(0.0, math.floor((float(settled.min()) - 0.03) * 20) / 20), 1.0)
        return line_chart(series, width=width, height=height, title="Prequential accuracy",
                          x_label="instances seen", ylim=ylim, css_class="wb-acc-chart",
                          empty_text="no instance yet", attrs={"data-t": t})

    def split_svg(self, width: int = 380, height: int = 190) -> str:
        trace = self.focus_trace()
        attrs = {"data-leaf": "", "data-split": "", "data-crossed": "", "data-points": 0}
        if trace is None:
            return line_chart([], width=width, height=height, title="Split decision",
                              css_class="wb-split-svg", empty_text="no leaf reached yet",
                              attrs=attrs)
        t = np.asarray(trace.t, float)
        q = np.asarray(trace.quantity)
        thr = np.asarray(trace.threshold)
        tau = np.asarray(trace.tau)
        series = [{"x": t, "y": q, "label": trace.quantity_label, "color": "#1f77b4",
                   "css": "wb-quantity", "step": True},
                  {"x": t, "y": thr, "label": trace.threshold_label, "color": "#d62728",
                   "dash": "5,3", "css": "wb-threshold", "step": True}]
        if tau.size and np.isfinite(tau).any() and np.nanmax(tau) > 0:
            series.append({"x": t, "y": tau, "label": "tau (tie level)", "color": "#7f7f7f",
                           "dash": "2,3", "width": 1.0, "css": "wb-tau"})
        vlines, markers = [], []
        ready = trace.first_ready
        if ready >= 0:   # the first moment the rule was met: on the line that crossed
            i = trace.t.index(ready)
            y_mark = q[i] if trace.crossing == "margin" else thr[i]
            if np.isfinite(y_mark):
                markers.append({"x": ready, "y": y_mark, "css": "wb-ready-marker",
                                "color": "#ff7f0e"})
        if trace.split_t >= 0:
            vlines.append({"x": trace.split_t, "label": f"split at t={_fmt_int(trace.split_t)}",
                           "color": "#2ca02c", "css": "wb-split-marker"})
        attrs.update({"data-leaf": trace.leaf, "data-split": trace.split_t
                      if trace.split_t >= 0 else "", "data-crossed": trace.crossing,
                      "data-points": len(trace.t)})
        x_lo = trace.created
        x_hi = trace.split_t if trace.split_t >= 0 else self.t
        x_hi = max(x_hi, x_lo + 1)
        x_hi += 0.04 * (x_hi - x_lo)        # room to see the split line
        finite = np.concatenate([q[np.isfinite(q)], thr[np.isfinite(thr)]])
        ylim = None
        if finite.size:
            hi = float(np.percentile(finite, 98)) if finite.size > 10 else float(finite.max())
            hi = max(hi, float(np.nanmax(q)) if np.isfinite(q).any() else 0.0)
            ylim = (0.0, hi * 1.1 if hi > 0 else 1.0)
        title = f"Split decision at leaf {trace.leaf}"
        return line_chart(series, width=width, height=height, title=title,
                          x_label="instances seen", xlim=(x_lo, x_hi),
                          ylim=ylim, vlines=vlines, markers=markers, css_class="wb-split-svg",
                          empty_text=f"leaf {trace.leaf}: no statistics yet", attrs=attrs)

    def split_caption(self) -> str:
        trace = self.focus_trace()
        if trace is None:
            return ""
        if trace.split_t >= 0:
            how = {"margin": f"{escape(trace.quantity_label)} rose above "
                             f"{escape(trace.threshold_label)}",
                   "tie": f"{escape(trace.threshold_label)} fell below tau (a tie)"}.get(
                trace.crossing, "the split rule was met")
            ready = f" at t={_fmt_int(trace.first_ready)} (orange dot)" \
                if trace.first_ready >= 0 else ""
            return (f"<div class='wb-split-caption'>Leaf {trace.leaf} split at "
                    f"t={_fmt_int(trace.split_t)} on <b>{escape(trace.split_test)}</b>: {how}"
                    f"{ready}, and the split came at the next test (the leaf tests once per "
                    "grace period).</div>")
        if trace.first_ready >= 0 and not trace.will_split[-1]:
            return (f"<div class='wb-split-caption wb-muted'>Leaf {trace.leaf} met the split "
                    f"rule from t={_fmt_int(trace.first_ready)} (orange dot) but no longer does: "
                    "the rule only counts when the test runs, once per grace period.</div>")
        if trace.first_ready >= 0:
            return (f"<div class='wb-split-caption wb-muted'>Leaf {trace.leaf} meets the split "
                    f"rule since t={_fmt_int(trace.first_ready)} (orange dot): it splits at its "
                    "next test.</div>")
        return ""

    # ------------------------------------------------------------------ widgets
    @property
    def widget(self):
        """The ipywidgets panel (built on first use)."""
        if self._ui is None:
            self._controls = Controls([self])
            self._build_ui(self._controls)
            self.redraw()
        return self._ui["panel"]

    def panel(self, controls=None, layout: str = "wide"):
        """Build the panel, with ``controls`` (a shared :class:`Controls`) or none."""
        self._build_ui(controls, layout)
        self.redraw()
        return self._ui["panel"]

    def _build_ui(self, controls, layout: str = "wide") -> None:
        title = widgets.HTML(self._heading())
        tree = tree_widget(self.dot())
        instance = widgets.HTML()
        instance.add_class("wb-instance-panel")
        acc = widgets.HTML()
        acc.add_class("wb-accuracy")
        split = widgets.HTML()
        split.add_class("wb-split-chart")
        caption = widgets.HTML()
        status = widgets.HTML()
        status.add_class("wb-status")
        param_widgets = {}
        for name, spec in self.specs.items():
            w = spec.widget(self.params[name])
            w.add_class(f"wb-param-{name}")
            w.observe(self._on_param, names="value")
            param_widgets[name] = w
        params_box = widgets.HBox(list(param_widgets.values()),
                                  layout=widgets.Layout(flex_flow="row wrap"))
        side = widgets.VBox([instance, acc, split, caption],
                            layout=widgets.Layout(width="400px", min_width="400px"))
        tree_box = widgets.Box([tree], layout=widgets.Layout(flex="1 1 auto", min_width="0",
                                                             overflow="auto"))
        if layout == "wide":
            body = widgets.HBox([tree_box, side], layout=widgets.Layout(width="100%"))
        else:
            body = widgets.VBox([tree_box, side])
        rows = [title]
        if controls is not None and len(controls.targets) == 1:
            rows.append(controls.bar)
        rows += [params_box, body, status]
        panel = widgets.VBox(rows, layout=widgets.Layout(flex="1 1 0", min_width="0"))
        panel.add_class("wb-stepper")
        self._ui = {"panel": panel, "title": title, "tree": tree, "instance": instance,
                    "acc": acc, "split": split, "caption": caption, "status": status,
                    "params": param_widgets}
        self._controls = controls

    def _on_param(self, change) -> None:
        if getattr(self, "_syncing", False):
            return
        name = next(n for n, w in self._ui["params"].items() if w is change.owner)
        value = change.new
        spec = self.specs[name]
        if spec.kind == "int":
            value = int(value)
        try:
            self.set_params(**{name: value})
        except ValueError as err:
            self._ui["status"].value = f"<span class='wb-bad'>{escape(str(err))}</span>"

    def _sync_param_widgets(self) -> None:
        if self._ui is None:
            return
        self._syncing = True
        try:
            for name, w in self._ui["params"].items():
                if w.value != self.params[name]:
                    w.value = self.params[name]
        finally:
            self._syncing = False

    def redraw(self) -> None:
        """Update every part of the panel (no-op before the panel is built)."""
        if self._ui is None:
            return
        ui = self._ui
        ui["title"].value = self._heading()
        ui["tree"].dot_source = self.dot()
        ui["acc"].value = self.accuracy_svg()
        ui["split"].value = self.split_svg()
        ui["caption"].value = self.split_caption()
        tm = self.timings
        ui["status"].value = (f"<span class='wb-muted' style='font-size:11px'>t = "
                              f"{_fmt_int(self.t)} / {_fmt_int(self.n)} · last action: learn "
                              f"{tm['learn_ms']:.1f} ms, draw {tm['draw_ms']:.1f} ms</span>")
        # last: the browser applies updates in order, so once the readout (data-t) shows the
        # new position, the charts already do
        ui["instance"].value = self.instance_html()
        if self._controls is not None:
            self._controls.refresh()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


# --------------------------------------------------------------------------- controls
class Controls:
    """Step 1, step k, reset, play/pause and speed, for one or several steppers at once."""

    def __init__(self, targets, k: int | None = None):
        self.targets = list(targets)
        k = k if k is not None else self.targets[0].k
        self.step1 = widgets.Button(description="step 1", icon="step-forward",
                                    tooltip="learn the next instance",
                                    layout=widgets.Layout(width="90px"))
        self.stepk = widgets.Button(description=f"step {k:,}", icon="fast-forward",
                                    tooltip="learn the next k instances",
                                    layout=widgets.Layout(width="120px"))
        self.k_box = widgets.BoundedIntText(value=k, min=1, max=self.targets[0].n,
                                            description="k", style={"description_width": "15px"},
                                            layout=widgets.Layout(width="110px"))
        self.reset_button = widgets.Button(description="reset", icon="undo",
                                           tooltip="back to the start with a fresh learner",
                                           layout=widgets.Layout(width="80px"))
        self.play_button = widgets.ToggleButton(value=False, description="play", icon="play",
                                                tooltip="step continuously at the chosen speed",
                                                layout=widgets.Layout(width="85px"))
        self.speed = widgets.SelectionSlider(options=list(SPEEDS), value="10 / s",
                                             description="speed", continuous_update=False,
                                             style={"description_width": "40px"},
                                             layout=widgets.Layout(width="230px"))
        self.position = widgets.HTML()
        for w, css in ((self.step1, "wb-step1"), (self.stepk, "wb-stepk"),
                       (self.reset_button, "wb-reset"), (self.play_button, "wb-play"),
                       (self.speed, "wb-speed"), (self.k_box, "wb-k"),
                       (self.position, "wb-position")):
            w.add_class(css)
        self.step1.on_click(lambda _: self.step(1))
        self.stepk.on_click(lambda _: self.step(self.k_box.value))
        self.reset_button.on_click(lambda _: self.reset())
        self.k_box.observe(self._on_k, names="value")
        self.play_button.observe(self._on_play, names="value")
        self.bar = widgets.HBox([self.step1, self.stepk, self.k_box, self.reset_button,
                                 self.play_button, self.speed, self.position],
                                layout=widgets.Layout(flex_flow="row wrap",
                                                      align_items="center"))
        self.bar.add_class("wb-controls")
        self._task = None
        self._running = False
        self.refresh()

    @property
    def t(self) -> int:
        return self.targets[0].t

    def step(self, k: int = 1) -> None:
        for s in self.targets:
            s.step(k)
        self.refresh()

    def reset(self) -> None:
        self.play_button.value = False
        for s in self.targets:
            s.reset()
        self.refresh()

    def _on_k(self, change) -> None:
        k = int(change.new)
        self.stepk.description = f"step {k:,}"
        for s in self.targets:
            s.k = k

    def refresh(self) -> None:
        done = all(s.done for s in self.targets)
        self.step1.disabled = self.stepk.disabled = done
        ts = {s.t for s in self.targets}
        t = min(ts)
        self.position.value = (f"<span class='wb-pos' data-t='{t}'>&nbsp;t = <b>{t:,}</b> of "
                               f"{self.targets[0].n:,}{' (end)' if done else ''}</span>")
        if done and self.play_button.value:
            self.play_button.value = False

    # play / pause: a coroutine on the kernel's event loop, one step per tick
    def _on_play(self, change) -> None:
        self.play_button.icon = "pause" if change.new else "play"
        self.play_button.description = "pause" if change.new else "play"
        if change.new and not self._running:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:   # no event loop (plain Python): nothing to drive the ticks
                self.play_button.value = False
                return
            self._task = loop.create_task(self.play())

    async def play(self, ticks: int | None = None) -> int:
        """Step at the chosen speed until paused, the stream ends or ``ticks`` ticks ran;
        returns the number of ticks."""
        done = 0
        self._running = True
        if ticks is not None:
            self.play_button.value = True
        try:
            while self.play_button.value and not all(s.done for s in self.targets) and \
                    (ticks is None or done < ticks):
                k, pause = SPEEDS[self.speed.value]
                start = time.perf_counter()
                try:
                    self.step(k)
                except Exception as err:  # show it: nobody awaits this task
                    self.position.value = f"<span class='wb-bad'>{escape(repr(err))}</span>"
                    raise
                done += 1
                await asyncio.sleep(max(0.0, pause - (time.perf_counter() - start)))
        finally:
            self._running = False
            if ticks is not None or all(s.done for s in self.targets):
                self.play_button.value = False
        return done


class Compare:
    """Several steppers on the same stream, side by side, one set of step controls: every
    action moves all of them, so they always stand at the same instance."""

    def __init__(self, steppers, *, k: int | None = None):
        steppers = list(steppers)
        if len(steppers) < 2:
            raise ValueError("compare needs at least two steppers")
        if not all(isinstance(s, TreeStepper) for s in steppers):
            raise ValueError("compare takes TreeStepper objects")
        first = steppers[0]
        for s in steppers[1:]:
            if s.n != first.n or not (np.array_equal(s.y, first.y) and
                                      np.array_equal(s.X, first.X, equal_nan=True)):
                raise ValueError("the steppers must run on the same stream (X, y)")
        if len({id(s) for s in steppers}) != len(steppers):
            raise ValueError("the same stepper appears twice")
        t = max(s.t for s in steppers)
        for s in steppers:      # line them up
            if s.t < t:
                s.step(t - s.t)
        self.steppers = steppers
        self.controls = Controls(steppers, k=k)
        self._box = None

    @property
    def t(self) -> int:
        return self.steppers[0].t

    def step(self, k: int = 1) -> "Compare":
        self.controls.step(k)
        return self

    def reset(self) -> "Compare":
        self.controls.reset()
        return self

    @property
    def widget(self):
        if self._box is None:
            panels = [s.panel(self.controls, layout="tall") for s in self.steppers]
            self._box = widgets.VBox([self.controls.bar,
                                      widgets.HBox(panels, layout=widgets.Layout(width="100%"))])
            self._box.add_class("wb-compare")
            self.controls.refresh()
        return self._box

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def side_by_side(*steppers, k: int | None = None) -> Compare:
    """``side_by_side(a, b)``: two (or more) steppers sharing one set of step controls."""
    if len(steppers) == 1 and isinstance(steppers[0], (list, tuple)):
        steppers = tuple(steppers[0])
    return Compare(steppers, k=k)
