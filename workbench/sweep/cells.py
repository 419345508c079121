"""Cells of a sweep: picklable descriptions of one (learner, parameters, stream, seed) run.

A cell never holds a learner, a stream or an array.  It names the learner (a class registered
in :mod:`workbench.learners`, or ``"module:QualName"`` of an importable class), its parameters,
the stream (a generator or loader in :mod:`workbench.streams`, or ``"module:function"``), the
stream's keyword arguments and its seed, the protocol and the metrics.  The worker that runs the
cell builds everything from these names (:mod:`workbench.sweep.worker`), so a cell is a few
hundred bytes to ship, whatever the stream's length.

Every cell has an identity, :attr:`Cell.cell_id`: a hash of the canonical JSON of everything
that determines its result.  The results file stores it in its ``cell_id`` column, and a rerun
skips the cells whose identity is already there.

Not every experiment is one learner on one stream: a paper's claim may need a tuning grid, a
batch kernel and a comparison of several learners on the same draws.  A
:class:`FunctionCell` names an importable function of a seed, ``f(seed=s, **kwargs) -> dict``,
and the same backends run it (:func:`workbench.sweep.apply`).
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import inspect
import itertools
import json
import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .schema import HEAD, MEASURED, TAIL

#: bump when the meaning of a cell's result changes, so that old results are not reused
CELL_VERSION = 1

#: the protocols a cell can run (paper 000, Algorithm 3)
PROTOCOLS = ("full", "active")

#: learner parameters that always come from the stream
FROM_STREAM = ("n_features", "n_classes")

#: metric names that are methods taking a class (``"f_measure"`` or ``"f_measure_0"``)
CLASS_METRICS = ("precision", "recall", "f_measure")


@dataclass
class Cell:
    """One run of a sweep, described by names and numbers only (see the module docstring)."""

    learner: str
    params: dict
    stream: str
    stream_kwargs: dict
    seed: int | None
    protocol: str = "full"
    evaluate_kwargs: dict = field(default_factory=dict)
    metrics: tuple = (("accuracy", "accuracy"), ("kappa", "kappa"))  # (column, spec) pairs
    curve_points: int = 50
    cell_id: str = ""

    def __post_init__(self):
        if not self.cell_id:
            self.cell_id = cell_hash(self)

    def describe(self) -> str:
        """One line a person can read: ``HoeffdingTree{"delta":1e-07} on sea{"n":1000} seed 1``."""
        seed = "" if self.seed is None else f" seed {self.seed}"
        return (
            f"{self.learner}{to_json(self.params)} on "
            f"{self.stream}{to_json(self.stream_kwargs)}{seed}"
        )


@dataclass
class FunctionCell:
    """One call ``function(seed=seed, **kwargs)`` of an importable function that returns a dict
    of results (see :func:`workbench.sweep.apply`); described by names and numbers only."""

    function: str  # "module:qualname"
    kwargs: dict
    seed: int
    cell_id: str = ""

    def __post_init__(self):
        if not self.cell_id:
            spec = {
                "version": CELL_VERSION,
                "function": self.function,
                "kwargs": self.kwargs,
                "seed": self.seed,
            }
            self.cell_id = hashlib.sha256(to_json(spec).encode()).hexdigest()[:20]

    def describe(self) -> str:
        """``module:function{"n":10} seed 3``."""
        return f"{self.function}{to_json(self.kwargs)} seed {self.seed}"


def expand_function(function, seeds, kwargs=None) -> list[FunctionCell]:
    """The cells of :func:`workbench.sweep.apply`: every keyword set (a dict, or a list of
    dicts) with every seed, in that order; checked before anything runs."""
    if isinstance(function, str):
        name = function if ":" in function else None
        if name is None:
            raise ValueError(f"a function is named 'module:function'; got {function!r}")
        fn = resolve_name(name, "function")
    else:
        fn = function
        name = import_name(fn, "function")
    if not callable(fn) or inspect.isclass(fn):
        raise ValueError(f"{name} is not a function")
    if not _takes(fn, "seed"):
        raise ValueError(f"{name} must take a keyword argument seed=")
    sets = [{}] if kwargs is None else kwargs
    if isinstance(sets, Mapping):
        sets = [sets]
    if not isinstance(sets, (list, tuple)) or not sets:
        raise ValueError(f"kwargs must be a dict or a non-empty list of dicts; got {kwargs!r}")
    seeds = list(_alternatives(seeds))
    for sd in seeds:
        if isinstance(sd, bool) or not isinstance(sd, numbers.Integral) or sd < 0:
            raise ValueError(f"seeds must be non-negative integers; got {sd!r}")
    cells, seen = [], set()
    for kw in sets:
        if not isinstance(kw, Mapping):
            raise ValueError(f"kwargs must be dicts; got {kw!r}")
        if "seed" in kw:
            raise ValueError("kwargs must not hold seed: the sweep passes each seed")
        try:
            inspect.signature(fn).bind(seed=0, **kw)
        except TypeError as exc:
            raise ValueError(f"{name}: {exc}") from None
        canonical(kw, f"keyword arguments of {name}")
        for sd in seeds:
            cell = FunctionCell(name, dict(kw), int(sd))
            if cell.cell_id in seen:
                raise ValueError(f"the sweep lists the same cell twice: {cell.describe()}")
            seen.add(cell.cell_id)
            cells.append(cell)
    return cells


# --------------------------------------------------------------------------- canonical JSON
def canonical(value, what: str = "value"):
    """``value`` as plain JSON data with one spelling per meaning (numpy scalars become Python
    numbers, tuples and arrays lists, classes and functions ``"module:qualname"``, objects with
    ``get_params()`` their class and parameters, a numba-jitted function its identity: module,
    name and the digest of its code, ``workbench._functions.identity``).  Anything else is a
    ValueError: a cell must be described by data, so that its identity survives a restart, and
    a cell whose function's code changed is a new cell."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (list, tuple, range, np.ndarray)):
        return [canonical(v, what) for v in value]
    if isinstance(value, Mapping):
        out = {}
        for k, v in value.items():
            if not isinstance(k, (str, numbers.Integral)) or isinstance(k, bool):
                raise ValueError(f"{what}: dictionary keys must be strings or integers; got {k!r}")
            out[str(k)] = canonical(v, what)
        return out
    if _is_jitted(value):  # a user's numba function travels by value; its code identifies it
        from .._functions import identity

        return {"__function__": identity(value)}
    if inspect.isclass(value) or inspect.isfunction(value) or inspect.isbuiltin(value):
        return {"__object__": import_name(value, what)}
    params = init_params(value)
    if params is not None:
        return {"__class__": import_name(type(value), what), "params": canonical(params, what)}
    raise ValueError(
        f"{what}: cannot describe {value!r} (type {type(value).__name__}) as data; "
        "use numbers, strings, lists and dicts, an importable class or function, "
        "or an object with get_params() (or that keeps each constructor argument "
        "as an attribute of the same name)"
    )


def _is_jitted(value) -> bool:
    """A numba-jitted function (a ``Dispatcher``), without importing numba to ask."""
    return any(c.__name__ == "Dispatcher" for c in type(value).__mro__) and hasattr(
        value, "py_func"
    )


def init_params(obj) -> dict | None:
    """The constructor arguments of ``obj``: ``obj.get_params()``, or else (scikit-learn's
    convention) the attributes named like the parameters of ``type(obj).__init__``; None if
    neither describes it."""
    if hasattr(obj, "get_params") and callable(obj.get_params):
        return dict(obj.get_params())
    try:
        sig = inspect.signature(type(obj).__init__)
    except (TypeError, ValueError):
        return None
    params = {}
    for p in list(sig.parameters.values())[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            return None
        if not hasattr(obj, p.name):
            return None
        params[p.name] = getattr(obj, p.name)
    return params


def fresh(value):
    """A new copy of a described value: objects are built again from their constructor
    arguments, so a strategy that has already run (and changed its state) starts afresh, as
    its description says."""
    if isinstance(value, Mapping):
        return {k: fresh(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(v) for v in value)
    if _is_jitted(value):
        return value  # a numba function is immutable: the same object
    if (
        value is None
        or isinstance(value, (bool, str, numbers.Number, np.ndarray, range))
        or inspect.isclass(value)
        or inspect.isfunction(value)
        or inspect.isbuiltin(value)
    ):
        return copy.deepcopy(value)
    params = init_params(value)
    if params is None:
        return copy.deepcopy(value)
    return type(value)(**fresh(params))


def to_json(value) -> str:
    """Canonical JSON text (sorted keys, no spaces): the same value always gives the same text."""
    return json.dumps(canonical(value), sort_keys=True, separators=(",", ":"))


def cell_hash(cell: Cell) -> str:
    """The identity of a cell: 20 hex digits of the SHA-256 of its canonical description."""
    spec = {
        "version": CELL_VERSION,
        "learner": cell.learner,
        "params": cell.params,
        "stream": cell.stream,
        "stream_kwargs": cell.stream_kwargs,
        "seed": cell.seed,
        "protocol": cell.protocol,
        "evaluate_kwargs": cell.evaluate_kwargs,
        "metrics": [[col, metric_id(m)] for col, m in cell.metrics],
        "curve_points": cell.curve_points,
    }
    return hashlib.sha256(to_json(spec).encode()).hexdigest()[:20]


# --------------------------------------------------------------------------- importable names
def import_name(obj, what: str = "object") -> str:
    """``"module:qualname"`` of an importable class or function (checked by importing it)."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not module or not qualname or "<" in qualname:
        raise ValueError(
            f"{what}: {obj!r} is not importable by name (a lambda or a function "
            "defined inside another one); define it at the top level of a module"
        )
    if module == "__main__":
        raise ValueError(
            f"{what}: {qualname} is defined in __main__ (a script or notebook), "
            "which worker processes cannot import; define it in a module file"
        )
    name = f"{module}:{qualname}"
    if resolve_name(name, what) is not obj:
        raise ValueError(f"{what}: importing {name} does not give back {obj!r}")
    return name


def resolve_name(name: str, what: str = "object"):
    """The object named ``"module:qualname"``."""
    module, _, qualname = name.partition(":")
    try:
        obj = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"{what}: cannot import {name!r} ({exc})") from None
    return obj


def learner_name(learner) -> str:
    """The name a cell stores for a learner: its name in :mod:`workbench.learners` when it is
    registered there, ``"module:QualName"`` otherwise."""
    from .. import learners as registry

    if isinstance(learner, str):
        if ":" in learner:
            cls = resolve_name(learner, "learner")
        else:
            cls = getattr(registry, learner, None)
            if not inspect.isclass(cls):
                known = sorted(
                    n
                    for n in getattr(registry, "__all__", dir(registry))
                    if inspect.isclass(getattr(registry, n, None))
                    and n not in ("BaseTree", "Explanation")
                )
                raise ValueError(
                    f"unknown learner {learner!r}; workbench.learners has {known}, "
                    "or give an importable class or 'module:ClassName'"
                )
            return learner
        if not inspect.isclass(cls):
            raise ValueError(f"learner {learner!r} is not a class")
        learner = cls
    if not inspect.isclass(learner):
        raise ValueError(f"a learner must be a class or its name; got {learner!r}")
    if getattr(registry, learner.__name__, None) is learner:
        return learner.__name__
    return import_name(learner, "learner")


def resolve_learner(name: str):
    if ":" in name:
        return resolve_name(name, "learner")
    from .. import learners as registry

    return getattr(registry, name)


def stream_name(stream) -> str:
    """The name a cell stores for a stream: its name in :mod:`workbench.streams`, or
    ``"module:function"`` for a generator defined elsewhere."""
    from .. import streams as registry

    if isinstance(stream, str):
        if ":" in stream:
            fn = resolve_name(stream, "stream")
        else:
            fn = getattr(registry, stream, None)
            if not callable(fn) or inspect.isclass(fn) or not _takes(fn, "return_info"):
                known = sorted(
                    n
                    for n in registry.__all__
                    if callable(getattr(registry, n))
                    and not inspect.isclass(getattr(registry, n))
                    and _takes(getattr(registry, n), "return_info")
                )
                raise ValueError(
                    f"unknown stream {stream!r}; workbench.streams has {known}, "
                    "or give 'module:function'"
                )
            return stream
    else:
        fn = stream
    if not callable(fn) or inspect.isclass(fn) or not _takes(fn, "return_info"):
        raise ValueError(
            f"stream {stream!r} must be a function that takes return_info=True "
            "and returns (X, y, info)"
        )
    if getattr(registry, getattr(fn, "__name__", ""), None) is fn:
        return fn.__name__
    return stream if isinstance(stream, str) else import_name(fn, "stream")


def resolve_stream(name: str):
    if ":" in name:
        return resolve_name(name, "stream")
    from .. import streams as registry

    return getattr(registry, name)


def _takes(fn, parameter: str) -> bool:
    try:
        return parameter in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


# --------------------------------------------------------------------------- metrics
def metric_id(spec) -> str:
    return spec if isinstance(spec, str) else "callable:" + import_name(spec, "metric")


def normalise_metrics(metrics) -> tuple:
    """``(column, spec)`` pairs from metric names, ``(name, class)`` pairs, callables
    ``(result, model) -> float`` or a dict ``{column: name or callable}``.  Names of what every
    row measures anyway (``n_leaves``, ``labels_used``, ``seconds``, ...) are dropped."""
    from ..evaluate import PrequentialResult

    if metrics is None:
        metrics = ()
    if isinstance(metrics, str) or callable(metrics):
        metrics = [metrics]
    if (
        isinstance(metrics, tuple)
        and len(metrics) == 2
        and isinstance(metrics[0], str)
        and isinstance(metrics[1], numbers.Integral)
        and metrics[0] in CLASS_METRICS
    ):
        metrics = [metrics]
    items = list(metrics.items()) if isinstance(metrics, Mapping) else [(None, m) for m in metrics]
    columns, specs = [], []
    for column, m in items:
        if isinstance(m, tuple) and len(m) == 2 and isinstance(m[0], str):
            m = f"{m[0]}_{m[1]}"
        if isinstance(m, str):
            _check_metric_name(m, PrequentialResult)
            if column in (None, m) and m in MEASURED:
                continue  # always measured: n, n_leaves, depth, ...
            column = column or m
        elif callable(m):
            import_name(m, "metric")  # must reach worker processes by name
            column = column or m.__name__
        else:
            raise ValueError(
                f"a metric must be a name such as 'accuracy' or 'f_measure_1', or "
                f"a function (result, model) -> float; got {m!r}"
            )
        if not isinstance(column, str) or not column:
            raise ValueError(f"metric column names must be non-empty strings; got {column!r}")
        if column in columns:
            raise ValueError(f"metric {column!r} is listed twice")
        if column in HEAD + MEASURED + TAIL:
            raise ValueError(
                f"metric column {column!r} would clash with the sweep's own "
                f"column of that name; name it differently"
            )
        columns.append(column)
        specs.append(m)
    return tuple(zip(columns, specs))


def _check_metric_name(name: str, result_cls) -> None:
    base, _, cls = name.rpartition("_")
    if base in CLASS_METRICS and cls.isdigit():
        return
    if name in CLASS_METRICS or name in _model_metrics():
        return
    fields = {f for f in getattr(result_cls, "__dataclass_fields__", {})}
    if name in fields or (not name.startswith("_") and hasattr(result_cls, name)):
        return
    known = sorted(
        {
            *fields,
            *CLASS_METRICS,
            *_model_metrics(),
            *(n for n in dir(result_cls) if not n.startswith("_")),
        }
        - {"t", "curve", "window_curve", "confusion", "predictions"}
    )
    raise ValueError(
        f"unknown metric {name!r}; use one of {known}, a class-specific "
        "'f_measure_<class>' (likewise precision, recall), or a function "
        "(result, model) -> float"
    )


def _model_metrics():
    return ("n_leaves", "depth", "n_nodes", "n_active_leaves")


# --------------------------------------------------------------------------- grids
def _alternatives(value):
    if isinstance(value, (list, tuple, range, np.ndarray)):
        values = list(value)
        if not values:
            raise ValueError("a grid lists no value for a parameter (empty list)")
        return values
    return [value]


def expand_grid(grid, what: str = "grid") -> list[dict]:
    """Parameter sets of a grid: a dict of lists is a cartesian product (a value that is not a
    list, tuple, range or array is fixed); a list of dicts is taken as it is; None is one empty
    set (the learner's defaults)."""
    if grid is None:
        return [{}]
    if isinstance(grid, Mapping):
        keys = list(grid)
        for k in keys:
            if not isinstance(k, str):
                raise ValueError(f"{what}: parameter names must be strings; got {k!r}")
        return [
            dict(zip(keys, combo))
            for combo in itertools.product(*(_alternatives(grid[k]) for k in keys))
        ]
    if isinstance(grid, (list, tuple)):
        sets = []
        for g in grid:
            if not isinstance(g, Mapping):
                raise ValueError(f"{what}: a list grid must hold dicts of parameters; got {g!r}")
            sets.append(dict(g))
        if not sets:
            raise ValueError(f"{what} is an empty list: no parameter set to run")
        return sets
    raise ValueError(f"{what} must be a dict of lists, a list of dicts or None; got {grid!r}")


def _learner_grids(learners, grid) -> list[tuple[str, list[dict]]]:
    """(learner name, parameter sets) pairs from the forms ``run`` accepts."""
    forms = (
        "a learner's name ('HoeffdingTree'), its class, a list of these, or a dict {learner: grid}"
    )
    if isinstance(learners, Mapping):
        if grid is not None:
            raise ValueError(
                "give per-learner grids either as learners={name: grid} or as "
                "grid={name: grid}, not both"
            )
        pairs = list(learners.items())
        if not pairs:
            raise ValueError(f"learners must be {forms}; got an empty dict")
    else:
        if isinstance(learners, (str, type)):
            learners = [learners]
        if isinstance(learners, (bytes, Mapping)) or not isinstance(learners, Iterable):
            raise ValueError(f"learners must be {forms}; got {learners!r:.80}")
        learners = list(learners)
        if not learners:
            raise ValueError(f"learners must be {forms}; got an empty list")
        names = [learner_name(lr) for lr in learners]
        if len(set(names)) != len(names):
            raise ValueError(f"a learner is listed twice: {names}")
        if isinstance(grid, Mapping) and grid and _is_per_learner(grid, learners, names):
            extra = [k for k in grid if _key_name(k) not in names]
            if extra:
                raise ValueError(
                    f"grid has entries for {extra}, which are not among the learners {names}"
                )
            by_name = {_key_name(k): v for k, v in grid.items()}
            pairs = [(lr, by_name.get(n)) for lr, n in zip(learners, names)]
        else:
            pairs = [(lr, grid) for lr in learners]
    out = []
    for lr, g in pairs:
        name = learner_name(lr)
        out.append((name, expand_grid(g, f"grid of {name}")))
    return out


def _key_name(key):
    try:
        return learner_name(key)
    except ValueError:
        return key


def _is_per_learner(grid, learners, names) -> bool:
    """A dict grid is per learner when its keys name learners (``{"CTree": {...}}``)."""
    hits = [
        k
        for k in grid
        if (inspect.isclass(k) or isinstance(k, str)) and _safe_learner_name(k) in names
    ]
    if not hits:
        return False
    if len(hits) != len(grid):
        others = [k for k in grid if k not in hits]
        raise ValueError(
            f"grid mixes learner names {hits} with parameter names {others}; give "
            "either one grid for all learners or one grid per learner"
        )
    return True


def _safe_learner_name(key):
    try:
        return learner_name(key)
    except ValueError:
        return None


def _stream_specs(streams, seeds) -> list[tuple[str, dict, list]]:
    """(stream name, keyword arguments, seeds) triples."""
    if streams is None:
        raise ValueError(
            "streams is required, e.g. streams={'sea': {'n': 100_000}} or "
            "streams=['sea', ('random_tree', {'n': 50_000})]"
        )
    if isinstance(streams, Mapping):
        items = list(streams.items())
    else:
        if isinstance(streams, str) or callable(streams):
            streams = [streams]
        items = []
        for s in streams:
            if isinstance(s, (tuple, list)) and len(s) == 2 and isinstance(s[1], Mapping):
                items.append((s[0], s[1]))
            elif isinstance(s, str) or callable(s):
                items.append((s, {}))
            else:
                raise ValueError(
                    f"a stream is a name, a function or a (name, kwargs) pair; got {s!r}"
                )
    if not items:
        raise ValueError("no stream given")
    specs = []
    for s, kwargs in items:
        if kwargs is None:
            kwargs = {}
        if not isinstance(kwargs, Mapping):
            raise ValueError(
                f"the keyword arguments of stream {s!r} must be a dict; got {kwargs!r}"
            )
        name = stream_name(s)
        fn = resolve_stream(name)
        kwargs = dict(kwargs)
        if "return_info" in kwargs:
            raise ValueError(f"stream {name!r}: do not pass return_info; the sweep sets it")
        own = kwargs.pop("seed", None) if "seed" in kwargs else None
        # a data set's seed only picks a shuffle: without shuffle=True it is a fixed stream
        has_seed = _takes(fn, "seed") and (
            not _takes(fn, "shuffle") or kwargs.get("shuffle") is True
        )
        if has_seed:
            if own is not None:
                stream_seeds = _alternatives(own)
            elif seeds is not None:
                stream_seeds = _alternatives(seeds)
            else:
                default = inspect.signature(fn).parameters["seed"].default
                stream_seeds = [default]
            for sd in stream_seeds:
                if (
                    sd is None
                    or isinstance(sd, bool)
                    or not isinstance(sd, numbers.Integral)
                    or sd < 0
                ):
                    raise ValueError(
                        f"stream {name!r}: seeds must be non-negative integers "
                        f"(None would draw fresh entropy and the cell could not "
                        f"be repeated); got {sd!r}"
                    )
            stream_seeds = [int(sd) for sd in stream_seeds]
        else:
            if own is not None:
                raise ValueError(
                    f"stream {name!r} takes no seed (it is a fixed data set; "
                    "shuffle=True makes each seed a shuffled copy)"
                )
            stream_seeds = [None]
        try:
            inspect.signature(fn).bind(
                **kwargs, return_info=True, **({"seed": 0} if has_seed else {})
            )
        except TypeError as exc:
            raise ValueError(f"stream {name!r}: {exc}") from None
        canonical(kwargs, f"keyword arguments of stream {name!r}")
        specs.append((name, kwargs, stream_seeds))
    return specs


def _check_params(name: str, params: dict) -> None:
    for k in FROM_STREAM:
        if k in params:
            raise ValueError(
                f"learner {name}: {k} comes from each stream's info; remove it from the grid"
            )
    cls = resolve_learner(name)
    try:
        inspect.signature(cls).bind(n_features=1, n_classes=2, **params)
    except TypeError as exc:
        raise ValueError(f"learner {name}: {exc} (parameters {params})") from None
    canonical(params, f"parameters of {name}")


def check_protocol(protocol: str, evaluate_kwargs: dict | None) -> dict:
    """The keyword arguments for ``evaluate.prequential`` after checking that this version of
    :mod:`workbench.evaluate` accepts them (ACTIVE needs ``strategy=``)."""
    from ..evaluate import prequential

    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {PROTOCOLS}; got {protocol!r}")
    kwargs = dict(evaluate_kwargs or {})
    accepted = inspect.signature(prequential).parameters
    if protocol == "active":
        if "strategy" not in accepted:
            raise ValueError(
                "protocol='active' needs evaluate.prequential(model, X, y, "
                "strategy=..., budget=...), and this version of workbench.evaluate "
                "does not accept a label-query strategy yet; run protocol='full'"
            )
        if kwargs.get("strategy") is None:
            raise ValueError(
                "protocol='active' needs a label-query strategy: pass "
                "evaluate_kwargs={'strategy': ..., 'budget': ...}"
            )
    elif "strategy" in kwargs or "budget" in kwargs:
        raise ValueError(
            "protocol='full' learns every label; a strategy or budget belongs to protocol='active'"
        )
    try:
        inspect.signature(prequential).bind(None, None, None, **kwargs)
    except TypeError as exc:
        raise ValueError(f"evaluate_kwargs: {exc}") from None
    canonical(kwargs, "evaluate_kwargs")
    return kwargs


def expand(
    learners,
    grid=None,
    streams=None,
    metrics=("accuracy", "kappa"),
    *,
    seeds=None,
    protocol="full",
    evaluate_kwargs=None,
    curve_points=50,
) -> list[Cell]:
    """Every cell of a sweep, in order learner, parameter set, stream, seed; checked before
    anything runs (unknown names, parameters a learner does not take, seeds, protocol)."""
    if (
        isinstance(curve_points, bool)
        or not isinstance(curve_points, numbers.Integral)
        or curve_points < 0
    ):
        raise ValueError(f"curve_points must be an integer >= 0; got {curve_points!r}")
    ev = check_protocol(protocol, evaluate_kwargs)
    metric_specs = normalise_metrics(metrics)
    pairs = _learner_grids(learners, grid)
    for name, sets in pairs:
        for params in sets:
            _check_params(name, params)
    stream_specs = _stream_specs(streams, seeds)
    cells, seen = [], {}
    for name, sets in pairs:
        for params in sets:
            for sname, skw, sseeds in stream_specs:
                for seed in sseeds:
                    cell = Cell(
                        name,
                        params,
                        sname,
                        skw,
                        seed,
                        protocol,
                        ev,
                        metric_specs,
                        int(curve_points),
                    )
                    if cell.cell_id in seen:
                        raise ValueError(f"the sweep lists the same cell twice: {cell.describe()}")
                    seen[cell.cell_id] = cell
                    cells.append(cell)
    if not cells:
        raise ValueError(
            "the sweep has no cell to run: a grid, a stream list or the seeds are empty "
            f"(learners={learners!r:.60}, grid={grid!r:.60}, seeds={seeds!r:.60})"
        )
    return cells


def curve_sample(t: np.ndarray, values: np.ndarray, points: int) -> tuple[list, list]:
    """At most ``points`` evenly spaced samples of a curve, always with its last point."""
    m = len(t)
    if points <= 0 or m == 0:
        return [], []
    idx = np.unique(np.linspace(0, m - 1, min(points, m)).round().astype(np.int64))
    return (
        [int(v) for v in np.asarray(t)[idx]],
        [None if not math.isfinite(v) else round(float(v), 6) for v in np.asarray(values)[idx]],
    )
