"""Reading a stream from a LIBSVM (SVMlight) sparse file: ``label index:value index:value ...``.

The sparse rows are parsed by scikit-learn's compiled ``load_svmlight_file`` (imported only when a
file is read) and returned dense, as every stream of the workbench is: an index that a row does
not mention is the value 0, not a missing value.  Files ending in ``.gz`` or ``.bz2`` are read
compressed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ._tabular import check_matrix
from .info import StreamInfo


def _label_names(values) -> list[str]:
    """``-1, +1`` when some label is negative (LIBSVM's binary convention), else ``1, 2, ...``."""
    signed = any(v < 0 for v in values)
    return [f"{v:+g}" if signed else f"{v:g}" for v in values]


def read_libsvm(
    path,
    n_features: int | None = None,
    zero_based: bool = False,
    classes: Sequence[float] | None = None,
    name: str | None = None,
    return_info: bool = False,
):
    """Read a stream from a LIBSVM sparse file (plain, ``.gz`` or ``.bz2``).

    Parameters
    ----------
    path: the file.
    n_features: the number of feature columns.  A file whose largest index is smaller (LIBSVM's
        ``a9a.t`` never uses feature 123) is padded with zero columns; one that uses a larger
        index is a ``ValueError`` naming both widths.  ``None``: the largest index in the file.
    zero_based: whether the indices start at 0 (LIBSVM's own files start at 1).
    classes: the label values in code order, e.g. ``(-1, 1)`` so that -1 is class 0 and +1 class 1
        whatever rows the file holds; a label not listed is a ``ValueError``.  ``None``: the
        file's distinct labels in increasing order.
    name: the stream's name in ``info`` (default: the file name without extensions).
    return_info: also return a :class:`StreamInfo`; features are named ``f1, f2, ...`` after
        LIBSVM's 1-based indices (``f0, ...`` when ``zero_based``).

    Examples
    --------
    >>> import tempfile, os
    >>> from workbench import streams
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.libsvm")
    >>> _ = open(path, "w").write("+1 1:0.5 3:2\\n-1 2:1\\n")
    >>> X, y, info = streams.read_libsvm(path, n_features=4, classes=(-1, 1), return_info=True)
    >>> X.tolist(), y.tolist(), info.class_names
    ([[0.5, 0.0, 2.0, 0.0], [0.0, 1.0, 0.0, 0.0]], [1, 0], ['-1', '+1'])
    """
    from sklearn.datasets import load_svmlight_file

    path = Path(path)
    try:
        Xs, labels = load_svmlight_file(str(path), zero_based=zero_based, dtype=np.float64)
    except (ValueError, EOFError, OSError) as exc:
        raise ValueError(f"{path} is not a readable LIBSVM file: {exc}") from None
    if Xs.shape[0] == 0:
        raise ValueError(f"{path} has no data rows: a stream of length zero")
    width = Xs.shape[1]
    if n_features is not None:
        if width > n_features:
            raise ValueError(
                f"{path} has {width} feature columns where {n_features} are expected "
                f"(its largest feature index is {width - 1 if zero_based else width})"
            )
        width = n_features
    X = np.zeros((Xs.shape[0], width), dtype=np.float64)
    X[:, : Xs.shape[1]] = Xs.toarray()
    values = np.unique(labels) if classes is None else np.asarray(classes, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    pos = np.searchsorted(values[order], labels)
    pos = np.minimum(pos, len(values) - 1)
    known = values[order][pos] == labels
    if not known.all():
        bad = sorted(set(labels[~known].tolist()))[:10]
        raise ValueError(
            f"{path}: label(s) {bad} are not among the expected classes {values.tolist()}"
        )
    y = order[pos].astype(np.int64)
    X = check_matrix(X, str(path))
    if not return_info:
        return X, y
    first = 0 if zero_based else 1
    info = StreamInfo(
        name=name or path.name.split(".")[0],
        feature_names=[f"f{j + first}" for j in range(width)],
        class_names=_label_names([float(v) for v in values]),
        params=dict(source=str(path)),
    )
    return X, y, info
