"""The binary cache of a parsed data set: one ``.npz`` of plain arrays, never a pickle.

The file holds ``X`` (float32 when that round-trips every value exactly, else float64), ``y``
(int64) and ``info``: the UTF-8 bytes of a small JSON document (the :class:`StreamInfo` and what
the cache was built from), stored as a uint8 array so that the whole cache is one file written by
one ``os.replace``.  It is read with ``allow_pickle=False``, so a file planted in a shared data
folder cannot run code when loaded.  Read the record by hand with
``json.loads(np.load(path)["info"].tobytes())``.

A damaged cache is an error naming the file and the fix (delete it, or pass ``refresh=True``); it
is not rebuilt silently, so a disk or copy problem does not go unnoticed.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from .info import StreamInfo

FORMAT = 1


class CacheError(ValueError):
    """A cache file that cannot be read back; the message names the file and the fix."""


def info_to_json(info: StreamInfo) -> dict:
    return dict(
        name=info.name,
        feature_names=list(info.feature_names),
        class_names=list(info.class_names),
        nominal_features={str(k): int(v) for k, v in info.nominal_features.items()},
        categories={str(k): list(v) for k, v in info.categories.items()},
        params=info.params,
    )


def info_from_json(doc: dict) -> StreamInfo:
    return StreamInfo(
        name=doc["name"],
        feature_names=list(doc["feature_names"]),
        class_names=list(doc["class_names"]),
        nominal_features={int(k): int(v) for k, v in doc["nominal_features"].items()},
        categories={int(k): list(v) for k, v in doc["categories"].items()},
        params=dict(doc["params"]),
    )


def _compact(X: np.ndarray) -> np.ndarray:
    X32 = X.astype(np.float32)
    if np.array_equal(X32.astype(np.float64), X, equal_nan=True):
        return X32
    return X


def readable_like_a_new_file(tmp) -> None:
    """Give a ``mkstemp`` file (created 0600) the permissions ``open()`` would have given it, so
    that a cache in a shared data folder is readable by the others who share it."""
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)


def save(path: Path, X: np.ndarray, y: np.ndarray, info: StreamInfo, meta: dict) -> None:
    """Write the cache through a temporary file in the same folder and an atomic rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = dict(format=FORMAT, meta=meta, info=info_to_json(info))
    blob = np.frombuffer(json.dumps(doc).encode("utf-8"), dtype=np.uint8)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, X=_compact(X), y=y.astype(np.int64), info=blob)
        readable_like_a_new_file(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_meta(path: Path) -> dict:
    """The record of what a cache file was built from (its ``meta``), without its arrays."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as npz:
            doc = json.loads(npz["info"].tobytes().decode("utf-8"))
        return dict(doc["meta"])
    except Exception as exc:
        raise CacheError(
            f"the cache file {path} is damaged ({type(exc).__name__}: {exc}); delete {path} "
            f"(or pass refresh=True) and the data set is rebuilt"
        ) from None


def load(path: Path) -> tuple[np.ndarray, np.ndarray, StreamInfo, dict]:
    """Read a cache written by :func:`save`: ``X`` (float64), ``y``, the info and the meta record."""
    path = Path(path)
    fix = (
        f"delete {path} (or pass refresh=True) and the data set is rebuilt from its raw file, "
        f"downloaded again if that is missing"
    )
    try:
        with np.load(path, allow_pickle=False) as npz:
            X, y, blob = npz["X"], npz["y"], npz["info"]
        doc = json.loads(blob.tobytes().decode("utf-8"))
        if doc.get("format") != FORMAT:
            raise ValueError(f"cache format {doc.get('format')!r}, expected {FORMAT}")
        info = info_from_json(doc["info"])
        meta = dict(doc["meta"])
    except Exception as exc:  # a truncated zip, a missing key, bad JSON, an object array ...
        raise CacheError(
            f"the cache file {path} is damaged ({type(exc).__name__}: {exc}); {fix}"
        ) from None
    if (
        X.ndim != 2
        or y.ndim != 1
        or X.shape[0] != y.shape[0]
        or X.shape[1] != info.n_features
        or X.dtype.kind != "f"
        or y.dtype != np.int64
        or (y.size and (y.min() < 0 or y.max() >= info.n_classes))
    ):
        raise CacheError(
            f"the cache file {path} is inconsistent (X {X.shape} {X.dtype}, "
            f"y {y.shape} {y.dtype}, {info.n_features} features and "
            f"{info.n_classes} classes recorded); {fix}"
        )
    return X.astype(np.float64), y, info, meta
