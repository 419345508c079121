"""One row at a time, as River's learners take it: ``learn_one(x, y)``, ``predict_one(x)``.

The one-row methods of every learner (:class:`~workbench.learners.base.BaseTree`) call the
functions here.  A row is a dict ``{feature name: value}`` (River's rows), a sequence or a 1-D
array of numbers.

- **Set-up from the first row.**  ``learn_one`` on an unfitted model sets it up from the row:
  a dict's keys name the features, in their sorted order, so that the order of a dict's keys
  does not matter, as in River (``feature_names=`` given to the constructor names them, in its
  order, instead).  A later dict may leave a key out (a missing value, as NaN
  is) but may not bring a key the model does not know.  A value is a number (a bool counts as
  0 or 1; None is missing); a string is a category only in a column the model knows categories
  for (one set up from a DataFrame); nominal features are otherwise integer codes declared with
  ``nominal_features=``.
- **Classes as they come, or up front.**  With ``n_classes=K`` (labels 0..K-1), ``classes=`` to
  the first ``partial_fit`` or :meth:`prepare`, the classes are fixed.  Otherwise the first row's
  label is the first class and a label not seen before adds one, numbered in the order first
  seen, as River's learners do (``classes_`` keeps that order): the tree's arrays get a column
  for it (:func:`workbench.core.state.grow_classes`), all it has learned stays.  UFFT (one tree
  per pair of classes) and BOCT (two classes) need their classes up front, and say so.
- **Before any learning** ``predict_one`` and ``predict_proba_one`` return None, as River's
  ``predict_one`` does; a model that is set up (by :meth:`prepare`, or classes given and a row
  learned) predicts with its tree, an empty tree included.

Per row this is a Python loop over the features into a [1, d] buffer kept per model and one
call of the learner's kernel (``benchmarks/bench_rows.py`` compares the cost with River's own
Hoeffding tree).
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from ..core import engine, state as st
from ..core.validate import as_matrix, check_nominal_codes

_NAN = float("nan")

#: per model, what its one-row methods reuse (rebuilt when the model is set up again; kept
#: beside the model rather than in it, so that pickles and copies of a model do not carry it)
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

#: learners whose trees are made for a fixed number of classes
_FIXED_CLASSES = {
    "workbench.learners.ufft": "UFFT grows one tree per pair of classes",
    "workbench.learners.boct": "BOCT is defined for two classes (paper 001)",
}


class _Rows:
    """What one model's one-row methods reuse: the columns of a dict row, a [1, d] buffer, the
    label codes, the nominal columns to check and the categories to code."""

    __slots__ = ("config", "keys", "index", "X", "y", "codes", "nominal", "cats", "d", "direct")

    def __init__(self, model):
        self.config = model._config
        self.keys = list(model.__dict__.get("_dict_keys") or model.feature_names_)
        self.index = {k: j for j, k in enumerate(self.keys)}
        self.d = model.n_features_in_
        self.X = np.empty((1, self.d))
        self.y = np.zeros(1, np.int64)
        self.codes = {_plain(c): i for i, c in enumerate(model.classes_.tolist())}
        self.nominal = list(model.nominal_features_.items())
        self.cats = {
            j: {_plain(v): float(i) for i, v in enumerate(cats)}
            for j, cats in (getattr(model, "categories_", None) or {}).items()
        }
        self.direct = _direct(model)

    # ---------------------------------------------------------------- a row into the buffer
    def fill(self, model, x, learning: bool) -> np.ndarray:
        """The row as the [1, d] float64 buffer (checked: numbers, no infinity, and when
        learning the nominal codes); the buffer is overwritten by the next row."""
        X = self.X
        if isinstance(x, dict):
            if not x.keys() <= self.index.keys():
                unknown = [k for k in x if k not in self.index]
                raise ValueError(
                    f"x has feature(s) {unknown} that the model does not know; it was set up "
                    f"with {self.keys} (a dict row may leave a feature out, as a missing value, "
                    "but not bring a new one)"
                )
            get = x.get
            values = [get(k, _NAN) for k in self.keys]
            if self.cats:
                values = self._coded(values)
            try:
                if any(map(math.isinf, values)):
                    raise ValueError(_inf_message(values, self.keys))
                X[0] = values
            except TypeError:
                X[0] = self._numbers(values)
        else:
            X = self._array(model, x)
        if learning and self.nominal:
            row = X[0]
            for j, card in self.nominal:
                v = row[j]
                if v == v and not (0.0 <= v < card and v == int(v)):
                    check_nominal_codes(X, model.nominal_features_, name="x", screened=True)
        return X

    def _coded(self, values: list) -> list:
        """Values of the categorical columns as their codes (an unknown category is missing
        here; learning it is refused by the code check, as for a DataFrame)."""
        out = list(values)
        for j, codes in self.cats.items():
            v = out[j]
            if isinstance(v, float) and v != v:
                continue
            code = codes.get(_plain(v)) if _hashable(v) else None
            if code is None:
                raise ValueError(
                    f"feature {self.keys[j]!r} of x holds {v!r}, not one of the categories "
                    f"the model knows: {list(codes)}"
                )
            out[j] = code
        return out

    def _numbers(self, values: list) -> list:
        """The slow path of :meth:`fill`: None as missing, and a clear error for anything
        that is not a number."""
        out = []
        for k, v in zip(self.keys, values):
            if v is None:
                out.append(_NAN)
                continue
            if isinstance(v, (str, bytes)):
                raise ValueError(
                    f"feature {k!r} of x is {v!r}, a string: the one-row methods take numbers "
                    "(a nominal feature as its integer code, declared with "
                    "nominal_features={column: n_values}; streams.from_river codes a River "
                    "data set's strings, and a model fitted on a DataFrame knows its "
                    "categories)"
                )
            try:
                f = float(v)
            except (TypeError, ValueError):
                raise ValueError(
                    f"feature {k!r} of x is {v!r} ({type(v).__name__}), not a number"
                ) from None
            out.append(f)
        if any(map(math.isinf, out)):
            raise ValueError(_inf_message(out, self.keys))
        return out

    def _array(self, model, x) -> np.ndarray:
        """A sequence or a 1-D array as a checked [1, d] row."""
        try:
            arr = np.asarray(x, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"x must be a dict {{feature: value}}, a sequence or a 1-D array of numbers ({exc})"
            ) from None
        return as_matrix(arr.reshape(1, -1), self.d, name="x")

    # ---------------------------------------------------------------- labels
    def code(self, model, y) -> np.ndarray:
        """y's class code in the [1] buffer; a new label adds a class where the model takes
        classes as they come."""
        label = _plain(y)
        try:
            code = self.codes.get(label)
        except TypeError:
            raise ValueError(f"y must be a class label (a hashable value); got {y!r}") from None
        if code is None:
            code = _add_class(model, self, label)
        self.y[0] = code
        return self.y


def _sorted(keys) -> list:
    """Dict keys in sorted order (by type name, then text, where they cannot be compared): a
    dict's order does not matter, as in River, so the columns do not depend on it."""
    try:
        return sorted(keys)
    except TypeError:
        return sorted(keys, key=lambda k: (type(k).__name__, str(k)))


def _plain(v):
    """A NumPy scalar as the Python value (np.int64(1) -> 1, np.str_ -> str)."""
    return v.item() if isinstance(v, np.generic) else v


def _hashable(v) -> bool:
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _inf_message(values, keys) -> str:
    j = next(j for j, v in enumerate(values) if math.isinf(v))
    return f"feature {keys[j]!r} of x is infinite; use NaN (or leave it out) for a missing value"


def _rows(model) -> _Rows:
    """The model's :class:`_Rows`, built again when the model has been set up again."""
    r = _CACHE.get(model)
    if r is None or r.config is not model._config:
        r = _Rows(model)
        _CACHE[model] = r
    return r


# -------------------------------------------------------------------- classes as they come
def label_array(labels: list) -> np.ndarray:
    """``classes_`` for labels in the order first seen: a typed array where NumPy keeps every
    label as it is (ints, floats, bools, strings), an object array otherwise."""
    arr = np.asarray(labels)
    if (
        arr.ndim == 1
        and arr.dtype.kind in "biufU"
        and all(type(a) is type(b) and a == b for a, b in zip(arr.tolist(), labels))
    ):
        return arr
    out = np.empty(len(labels), dtype=object)
    out[:] = labels
    return out


def class_order(classes: np.ndarray) -> np.ndarray | None:
    """None where ``classes`` is sorted (``np.searchsorted`` can code labels against it), else
    the order that sorts it (classes that came as they came)."""
    if classes.shape[0] < 2 or bool(np.all(classes[:-1] < classes[1:])):
        return None
    return np.argsort(classes, kind="stable")


def grows_classes(model) -> bool:
    """Whether the model takes classes as they come: it was set up by ``learn_one`` without
    its classes (the mark names the set-up's policy vector, so a later ``fit`` or ``reset``,
    which makes a new one, ends it)."""
    mark = model.__dict__.get("_classes_as_they_come")
    return mark is not None and mark is model._config


def _check_label(y) -> None:
    if y is None or (isinstance(y, float) and y != y):
        raise ValueError(f"y is {y!r}: every instance learned needs a class label")


def _add_class(model, r: _Rows, label) -> int:
    _check_label(label)
    if not grows_classes(model):
        raise ValueError(
            f"label {label!r} is not one of the classes {model.classes_.tolist()!r} (the "
            "classes were given up front; a model set up by learn_one without them takes "
            "classes as they come)"
        )
    labels = model.classes_.tolist() + [label]
    k = len(labels)
    model._validated(model.n_features_in_, k, model.categories_)  # checks that depend on K
    model._state = st.grow_classes(model._state, 1)
    _set_classes(model, labels)
    _set_memory_limit(model)
    r.codes[label] = k - 1
    return k - 1


def _set_classes(model, labels: list) -> None:
    classes = label_array(labels)
    model.classes_ = classes
    model.n_classes_ = len(labels)
    model._p.n_classes = len(labels)
    model.class_names_ = [str(c) for c in labels]
    model._codes_are_labels = bool(
        classes.dtype.kind in "iu" and np.array_equal(classes, np.arange(len(classes)))
    )


def _set_memory_limit(model) -> None:
    """The memory guard of ``memory_limit_mb`` for the tree's grown rows, planned as a new
    tree's (an error naming the limit where even an empty tree of these sizes would not fit)."""
    model._set_guard(model._room())


def _set_up(model, x, y) -> None:
    """Set an unfitted model up from its first row (and label)."""
    if isinstance(x, dict):
        keys = list(model.feature_names) if model.feature_names is not None else _sorted(x)
        if not keys:
            raise ValueError("x is an empty dict: the first row must name the features")
        d = len(keys)
    else:
        try:
            d = np.asarray(x, dtype=np.float64).reshape(1, -1).shape[1]
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"x must be a dict {{feature: value}}, a sequence or a 1-D array of numbers ({exc})"
            ) from None
        keys = None
    if model.n_classes is not None:
        model._ensure_set_up(np.zeros((1, d)))  # classes 0..K-1
    else:
        _check_label(y)
        for cls in type(model).__mro__:
            why = _FIXED_CLASSES.get(cls.__module__)
            if why:
                raise ValueError(
                    f"{type(model).__name__} needs its classes up front ({why}): construct it "
                    "with n_classes=K for labels 0..K-1, or call prepare(X, classes=[...]) "
                    "or partial_fit(X, y, classes=[...]) first"
                )
        if model.class_names is not None:
            raise ValueError(
                "class_names names the classes in their order, so it needs the classes up "
                "front: construct the model with n_classes=K, or call prepare(X, "
                "classes=[...]) first"
            )
        label = _plain(y)
        # parameters checked as for two classes, then a tree with the one class seen so far
        model._setup(d, label_array([label, label]))
        _set_classes(model, [label])
        model._new_tree()
        model._classes_as_they_come = model._config
    if keys is not None:
        model._dict_keys = keys
        model.feature_names_ = [str(k) for k in keys]


# -------------------------------------------------------------------- the kernel, called directly
class _Direct:
    """The stream kernel's compiled entry points for one model's one-row learn and predict.

    A call through numba's dispatcher first works out the type of every argument (about 50
    arrays, the tree's 33 among them) to pick the compiled version: two thirds of the cost of
    learning one row (measured: 28 us a call against 7 us for the entry point itself, on a
    loaded machine).  The types do not change for a model's life (the arrays grow, their types
    stay), so the entry point is looked up once, after the first call through the dispatcher
    has compiled or loaded it, with the arguments :func:`workbench.core.engine.learn` and
    :func:`~workbench.core.engine.predict` pass; a learner with a loop of its own (UFFT, BOCT,
    the Frugal tree) keeps the ordinary call.  ``tests/test_rows.py`` checks that both paths
    grow the same tree, bit for bit."""

    __slots__ = ("learn_ep", "predict_ep", "extras", "pred")

    def __init__(self):
        self.learn_ep = self.predict_ep = None
        self.extras = engine._full_extras()
        self.pred = np.zeros(1, np.int64)

    def _learn_args(self, model, X, y):
        return engine.learn_args(model._state, model._config, X, y, 0, extras=self.extras)

    def _predict_args(self, model, X):
        return engine.predict_args(model._state, model._config, X, self.pred, extras=self.extras)

    @staticmethod
    def _entry(args):
        kernel = engine.run_stream
        cres = kernel.overloads.get(tuple(kernel.typeof_pyval(a) for a in args))
        return None if cres is None else cres.entry_point

    def learn(self, model, X, y) -> None:
        ep = self.learn_ep
        if ep is None:
            model._learn_checked(X, y)  # compiles or loads the kernel
            self.learn_ep = self._entry(self._learn_args(model, X, y)) or False
            return
        if ep is False:
            model._learn_checked(X, y)
            return
        while True:
            try:
                reached = ep(*self._learn_args(model, X, y))
            except Exception as exc:
                model._kernel_failed(exc)
            if reached >= 1:
                return
            model._grow()

    def predict(self, model, X) -> int:
        ep = self.predict_ep
        if ep is None or ep is False:
            code = int(model._predict_checked(X)[0])
            if ep is None:
                self.predict_ep = self._entry(self._predict_args(model, X)) or False
            return code
        ep(*self._predict_args(model, X))
        return int(self.pred[0])


def _direct(model) -> _Direct | None:
    """The model's direct calls where its learning and prediction are BaseTree's own."""
    return _Direct() if type(model)._rows_direct() else None


# -------------------------------------------------------------------- the one-row methods
def learn_one(model, x, y) -> None:
    if not model._is_set_up():
        _set_up(model, x, y)
    elif "_failed" in model.__dict__:
        model._require_fitted()
    r = _rows(model)
    model._writable()
    X = r.fill(model, x, learning=True)
    y = r.code(model, y)
    if r.direct is None:
        model._learn_checked(X, y)
    else:
        r.direct.learn(model, X, y)


def row(model, x) -> np.ndarray | None:
    """The row as a checked [1, d] array for prediction, or None before any set-up."""
    if not model._is_set_up():
        return None
    if "_failed" in model.__dict__:
        model._require_fitted()
    model._writable()
    return _rows(model).fill(model, x, learning=False)


def predict_one(model, x):
    X = row(model, x)
    if X is None:
        return None
    direct = _CACHE[model].direct
    if direct is None:
        return model.predict(X)[0]
    code = direct.predict(model, X)
    return code if model._codes_are_labels else model.classes_[code]


def predict_proba_one(model, x) -> np.ndarray | None:
    X = row(model, x)
    if X is None:
        return None
    if _CACHE[model].direct is None:
        return model.predict_proba(X)[0]
    out = np.zeros((1, model.n_classes_))
    engine.predict_proba(model._state, model._config, X, out)
    return out[0]
