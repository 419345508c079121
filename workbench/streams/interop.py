"""River's and CapyMOA's streams as the workbench's arrays: :func:`from_river`, :func:`from_capymoa`.

Both return ``X, y, info``: X float64 ``[n, d]`` (nominal columns as integer codes, NaN for a
missing value), y int64 class codes ``0..K-1`` and a :class:`~workbench.streams.StreamInfo`
naming the columns, the nominal ones with their values, and the classes.  Neither imports River
or CapyMOA itself: they read what the stream hands out.
"""

from __future__ import annotations

import itertools
import math
import numbers
from typing import NamedTuple

import numpy as np

from .info import StreamInfo


def _check_n(n, who: str):
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{who}: n must be a whole number of rows >= 1 (or None); got {n!r}")
    return int(n)


def _sorted_values(values: list) -> list:
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda v: (type(v).__name__, str(v)))


def _missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


# ------------------------------------------------------------------------------------ River
def _endless_river(dataset) -> bool:
    """River's synthetic data sets (generators) have a task and ``n_samples=None``."""
    return hasattr(dataset, "task") and getattr(dataset, "n_samples", 0) is None


def from_river(dataset, n=None, *, nominal_features=None):
    """A River data set (or any iterable of ``(x: dict, y)`` pairs, such as
    ``river.stream.iter_array``) as arrays: returns ``X, y, info``.

    dataset           a River data set (``river.datasets.Phishing()``, a synthetic generator
                      ``river.datasets.synth.SEA(seed=1)``) or an iterable of (dict, label)
    n                 how many rows to take (the first n); required for River's synthetic
                      generators, which never end (a clear error otherwise)
    nominal_features  names (dict keys) of columns to treat as nominal although their values
                      are numbers (Agrawal's ``elevel``, say); a column holding strings is
                      nominal anyway

    Columns are the dicts' keys in their sorted order, as a workbench learner fed River's rows
    orders them (``info.feature_names``: their ``str``; a dict's order does not matter); a key
    a row leaves out is missing there (NaN), and None is missing too.  A
    nominal column's values are coded 0..V-1 in their sorted order (``info.categories``) and
    declared in ``info.nominal_features``; other values must be numbers (a bool is 0 or 1).
    Classes are coded 0..K-1 in the order the labels first appear, as River's learners number
    them (``info.class_names``: their ``str``; ``info.params["labels"]``: the labels
    themselves), so that a learner fed these arrays and the same learner fed River's rows
    through :func:`workbench.interop.to_river` see the same classes in the same order.

    Examples
    --------
    >>> from river import datasets
    >>> from workbench import streams
    >>> X, y, info = streams.from_river(datasets.synth.Agrawal(seed=1), n=1000,
    ...                                 nominal_features=["elevel", "car", "zipcode"])
    >>> X.shape, info.n_classes, info.nominal_features
    ((1000, 9), 2, {1: 20, 3: 5, 8: 9})
    >>> [info.feature_names[j] for j in info.nominal_features]
    ['car', 'elevel', 'zipcode']
    """
    n = _check_n(n, "from_river")
    if n is None and _endless_river(dataset):
        raise ValueError(
            f"from_river: {type(dataset).__name__} is a generator that never ends (River's "
            "synthetic data sets have n_samples=None): pass n=, the number of rows to take"
        )
    try:
        pairs = iter(dataset)
    except TypeError:
        raise ValueError(
            f"from_river: dataset must be a River data set or an iterable of (dict, label) "
            f"pairs; got {type(dataset).__name__}"
        ) from None
    if n is not None:
        pairs = itertools.islice(pairs, n)
    rows, labels = [], []
    for i, pair in enumerate(pairs):
        try:
            x, label = pair
        except (TypeError, ValueError):
            raise ValueError(f"from_river: row {i} is {pair!r}, not an (x: dict, y) pair") from None
        if not isinstance(x, dict):
            raise ValueError(f"from_river: row {i} has x of type {type(x).__name__}, not a dict")
        if _missing(label):
            raise ValueError(f"from_river: row {i} has no label (y is {label!r})")
        rows.append(x)
        labels.append(label.item() if isinstance(label, np.generic) else label)
    if not rows:
        raise ValueError("from_river: the data set gave no rows (a stream of length zero)")
    keys = _sorted_values(list(dict.fromkeys(k for x in rows for k in x)))
    declared = set(nominal_features or ())
    unknown = declared - set(keys)
    if unknown:
        raise ValueError(
            f"from_river: nominal_features names {sorted(map(str, unknown))}, which no row "
            f"has; the columns are {keys}"
        )
    X = np.full((len(rows), len(keys)), np.nan)
    nominal, categories = {}, {}
    for j, key in enumerate(keys):
        values = [x.get(key) for x in rows]
        present = [v for v in values if not _missing(v)]
        if key in declared or any(isinstance(v, (str, bytes)) for v in present):
            cats = _sorted_values(list(dict.fromkeys(present)))
            code = {v: float(c) for c, v in enumerate(cats)}
            X[:, j] = [np.nan if _missing(v) else code[v] for v in values]
            nominal[j] = max(len(cats), 1)
            categories[j] = [str(c) for c in cats]
            continue
        try:
            X[:, j] = [np.nan if _missing(v) else float(v) for v in values]
        except (TypeError, ValueError):
            bad = next(v for v in present if not isinstance(v, (numbers.Real, np.number)))
            raise ValueError(
                f"from_river: column {key!r} holds {bad!r}, neither a number nor a string"
            ) from None
    if np.isinf(X).any():
        i, j = (int(a[0]) for a in np.nonzero(np.isinf(X)))
        raise ValueError(f"from_river: row {i}, column {keys[j]!r} is infinite")
    classes = list(dict.fromkeys(labels))
    code = {c: k for k, c in enumerate(classes)}
    y = np.fromiter((code[c] for c in labels), np.int64, len(labels))
    info = StreamInfo(
        name=type(dataset).__name__.lower(),
        feature_names=[str(k) for k in keys],
        class_names=[str(c) for c in classes],
        nominal_features=nominal,
        categories=categories,
        params={"source": "river", "n": len(rows), "labels": classes, "keys": keys},
    )
    return X, y, info


# ---------------------------------------------------------------------------------- CapyMOA
class SchemaLayout(NamedTuple):
    """What a CapyMOA schema says about the columns of ``instance.x`` and the classes."""

    name: str
    feature_names: list
    nominal_features: dict
    categories: dict
    class_names: list


def schema_layout(schema) -> SchemaLayout:
    """The attributes of a CapyMOA ``Schema`` in the order of ``instance.x`` (the class
    attribute left out, wherever it sits), its nominal ones with their values, and its
    classes in the schema's order."""
    header = schema.get_moa_header()
    target = header.classIndex()
    names, nominal, categories = [], {}, {}
    for i in range(header.numAttributes()):
        if i == target:
            continue
        attr = header.attribute(i)
        j = len(names)
        names.append(str(attr.name()))
        if attr.isNominal():
            values = [str(v) for v in attr.getAttributeValues()]
            nominal[j] = max(len(values), 1)
            categories[j] = values
    return SchemaLayout(
        name=str(header.getRelationName()),
        feature_names=names,
        nominal_features=nominal,
        categories=categories,
        class_names=[str(c) for c in schema.get_label_values()],
    )


def _endless_capymoa(stream) -> bool:
    """A CapyMOA stream with no length that is not a file: MOA's generators never end."""
    if hasattr(stream, "__len__"):
        return False
    moa = stream.get_moa_stream() if hasattr(stream, "get_moa_stream") else None
    if moa is None:
        return False
    return "File" not in str(moa.getClass().getSimpleName())


def from_capymoa(stream, n=None):
    """A CapyMOA stream as arrays, from its start (the stream is restarted first): returns
    ``X, y, info``.

    stream  any CapyMOA classification stream: ``NumpyStream``, ``ARFFStream``, its data sets,
            MOA's generators (``capymoa.stream.generator.SEA(...)``)
    n       how many instances to take; required for MOA's generators, which never end

    X holds ``instance.x`` (nominal attributes as MOA's value codes, declared in
    ``info.nominal_features`` with their values in ``info.categories``; NaN where a value is
    missing), y ``instance.y_index`` (the schema's class order, ``info.class_names``).

    Examples
    --------
    >>> from capymoa.stream.generator import SEA
    >>> from workbench import streams
    >>> X, y, info = streams.from_capymoa(SEA(instance_random_seed=1), n=500)
    >>> X.shape, info.class_names
    ((500, 3), ['groupA', 'groupB'])
    """
    n = _check_n(n, "from_capymoa")
    schema = stream.get_schema()
    if not schema.is_classification():
        raise ValueError("from_capymoa needs a classification stream (a nominal target)")
    if n is None and _endless_capymoa(stream):
        raise ValueError(
            f"from_capymoa: {stream} is a MOA generator, which never ends: pass n=, the "
            "number of instances to take"
        )
    layout = schema_layout(schema)
    stream.restart()
    rows, labels = [], []
    for i, instance in enumerate(itertools.islice(stream, n)):
        label = instance.y_index
        if label is None or label < 0:
            raise ValueError(f"from_capymoa: instance {i} has no class label")
        rows.append(instance.x)
        labels.append(label)
    if not rows:
        raise ValueError("from_capymoa: the stream gave no instances (a stream of length zero)")
    X = np.array(rows, dtype=np.float64).reshape(len(rows), len(layout.feature_names))
    y = np.asarray(labels, dtype=np.int64)
    info = StreamInfo(
        name=layout.name,
        feature_names=layout.feature_names,
        class_names=layout.class_names,
        nominal_features=layout.nominal_features,
        categories=layout.categories,
        params={"source": "capymoa", "n": len(rows)},
    )
    return X, y, info
