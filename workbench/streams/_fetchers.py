"""Well-kept fetchers that already maintain a data set's source and its checksum.

scikit-learn's ``fetch_covtype`` and ``fetch_kddcup99`` download their own copies of the UCI
files and check each against a SHA-256 written in scikit-learn's source; ``fetch_openml`` checks
a data set's file against the MD5 that OpenML publishes in the data set's description.  Where the
registry names such a fetcher (``Dataset.fetcher``), it is the first source and the direct URL
the fallback (:func:`workbench.streams.remote.fetch`).

A fetcher runs with a fresh, empty ``data_home`` of its own inside the data set's folder, which
is deleted when it returns: scikit-learn keeps what it parsed as joblib pickles, and a pickle
found in a shared data folder would run code when loaded, so none is ever read back; the arrays
it returns are checked and cached as the workbench's own ``.npz`` like a parsed file.  Each
fetcher returns the rows as a table laid out like the source file (the features in file order,
the label in the registry's ``target`` column), which the loader converts exactly as it converts
the file (:func:`workbench.streams.remote._frame_arrays`), and a record of the checksums.
"""

from __future__ import annotations

import gzip
import hashlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Fetched:
    """What a fetcher returns: the rows in the source file's layout and their provenance."""

    frame: object  # pandas DataFrame, columns as in the source file
    feature_names: list[str] | None  # names from the source (None: the registry's)
    source: str  # e.g. "scikit-learn fetch_covtype"
    sha256: dict  # {file name: SHA-256}
    checksum: str  # how the sums are known


def describe(fetcher: str) -> str:
    """The source a registry ``fetcher`` key names, as ``list_datasets`` shows it."""
    kind, _, arg = fetcher.partition(":")
    if kind == "sklearn":
        return (
            f"scikit-learn sklearn.datasets.{arg}() (its copy of the file, checked against the "
            f"SHA-256 in scikit-learn's source)"
        )
    if kind == "openml":
        return (
            f"OpenML data id {arg} through sklearn.datasets.fetch_openml (checked against the MD5 "
            f"OpenML publishes)"
        )
    raise ValueError(f"unknown fetcher {fetcher!r}")


def run(fetcher: str, folder: Path) -> Fetched:
    """Run the fetcher ``fetcher`` (a registry key) with a temporary data home in ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix=".fetcher-", dir=folder))
    try:
        kind, _, arg = fetcher.partition(":")
        if kind == "sklearn" and arg == "fetch_covtype":
            return _covtype(home)
        if kind == "sklearn" and arg.startswith("fetch_kddcup99"):
            return _kddcup99(home, full="percent10=False" in arg)
        if kind == "openml":
            return _openml(home, int(arg))
        raise ValueError(f"unknown fetcher {fetcher!r}")
    finally:
        shutil.rmtree(home, ignore_errors=True)


def _published_sha256(module: str, name: str) -> dict:
    """{file name: SHA-256} of the archive a scikit-learn fetcher checked (its ``RemoteFile
    Metadata``, not a public name: empty when a version of scikit-learn moves it)."""
    import importlib

    try:
        meta = getattr(importlib.import_module(module), name)
        return {f"{meta.filename} ({meta.url})": str(meta.checksum)}
    except (ImportError, AttributeError):
        return {}


def _covtype(home: Path) -> Fetched:
    import numpy as np
    import pandas as pd
    from sklearn.datasets import fetch_covtype

    bunch = fetch_covtype(data_home=str(home), download_if_missing=True)
    frame = pd.DataFrame(np.column_stack([bunch.data, np.asarray(bunch.target, dtype=float)]))
    return Fetched(
        frame=frame,
        feature_names=None,
        source="scikit-learn fetch_covtype",
        sha256=_published_sha256("sklearn.datasets._covtype", "ARCHIVE"),
        checksum="SHA-256 published in scikit-learn's source, checked by fetch_covtype",
    )


def _kddcup99(home: Path, full: bool) -> Fetched:
    import numpy as np
    import pandas as pd
    from sklearn.datasets import fetch_kddcup99

    bunch = fetch_kddcup99(data_home=str(home), percent10=not full, download_if_missing=True)
    data = np.column_stack([bunch.data, bunch.target])

    def text(value):
        return value.decode("ascii", "replace") if isinstance(value, bytes) else value

    frame = pd.DataFrame(data).map(text).infer_objects()
    return Fetched(
        frame=frame,
        feature_names=None,
        source="scikit-learn fetch_kddcup99" + ("" if not full else "(percent10=False)"),
        sha256=_published_sha256(
            "sklearn.datasets._kddcup99", "ARCHIVE" if full else "ARCHIVE_10_PERCENT"
        ),
        checksum="SHA-256 published in scikit-learn's source, checked by fetch_kddcup99",
    )


def _openml(home: Path, data_id: int) -> Fetched:
    from sklearn.datasets import fetch_openml

    bunch = fetch_openml(data_id=data_id, data_home=str(home), as_frame=True, parser="auto")
    frame = bunch.frame[[*bunch.feature_names, *bunch.target_names]].copy()
    for col in bunch.target_names:
        frame[col] = frame[col].astype(str)
    # the data file fetch_openml downloaded (and checked against OpenML's MD5), kept gzipped in
    # its cache: its SHA-256 is the one a direct download of the same file records
    sums = {}
    for path in sorted(home.rglob("*.gz")):
        if "data/v1/download" in path.as_posix():
            with gzip.open(path, "rb") as fh:
                sums[path.with_suffix("").name] = hashlib.sha256(fh.read()).hexdigest()
    return Fetched(
        frame=frame,
        feature_names=[str(c) for c in bunch.feature_names],
        source=f"OpenML data id {data_id} (fetch_openml)",
        sha256=sums,
        checksum="MD5 published by OpenML, checked by fetch_openml; SHA-256 computed here",
    )
