"""Sources that a well-kept library maintains together with their checksums.

Where the registry names one (``Dataset.fetcher``) it is the first source of the set and the
direct URL the fallback (:func:`workbench.streams.remote.fetch`):

* ``sklearn:<fetcher>``: the copy of the file that scikit-learn's ``fetch_covtype`` or
  ``fetch_kddcup99`` downloads, at the URL and with the SHA-256 written in scikit-learn's source
  (the ``RemoteFileMetadata`` records ``ARCHIVE`` and ``ARCHIVE_10_PERCENT`` of
  ``sklearn.datasets._covtype`` and ``._kddcup99``).  The workbench downloads it with its own
  downloader against that checksum and parses it as it parses the direct file.  It does not call
  the fetchers themselves: ``fetch_covtype`` parses Covertype with ``numpy.genfromtxt`` and stores
  it as compressed pickles (102 s of CPU against 4.7 s here, measured on a synthetic file of
  Covertype's size on a loaded machine), and
  ``fetch_kddcup99(percent10=False)`` holds each of the full file's 200 million fields as a
  Python string; a pickle left in a shared data folder would also run code when read back.
* ``openml:<data id>``: ``sklearn.datasets.fetch_openml`` by data id, which checks the data file
  against the MD5 OpenML publishes in the data set's description.  It runs with a fresh data home
  of its own inside the set's folder, deleted when it returns (its cache holds no pickle, but
  the workbench keeps its own ``.npz``); the rows it returns are laid out like the source file
  and converted as the file is (:func:`workbench.streams.remote._frame_arrays`).
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: "sklearn:<fetcher>" -> (module, name of its RemoteFileMetadata record)
SKLEARN_RECORDS = {
    "fetch_covtype": ("sklearn.datasets._covtype", "ARCHIVE"),
    "fetch_kddcup99": ("sklearn.datasets._kddcup99", "ARCHIVE_10_PERCENT"),
    "fetch_kddcup99(percent10=False)": ("sklearn.datasets._kddcup99", "ARCHIVE"),
}


@dataclass(frozen=True)
class Fetched:
    """The rows a fetcher returned, laid out like the source file, and their provenance."""

    frame: object  # pandas DataFrame, columns as in the source file
    feature_names: list[str]  # the source's names of the feature columns
    source: str  # e.g. "OpenML data id 37 (fetch_openml)"
    sha256: dict  # {file name: SHA-256}
    checksum: str  # how the sums are known


def kind(fetcher: str) -> str:
    """ "sklearn" (a published file) or "openml" (rows from fetch_openml)."""
    return fetcher.partition(":")[0]


def describe(fetcher: str) -> str:
    """The source a registry ``fetcher`` key names, as ``list_datasets`` shows it."""
    what, _, arg = fetcher.partition(":")
    if what == "sklearn" and arg in SKLEARN_RECORDS:
        module, name = SKLEARN_RECORDS[arg]
        return (
            f"scikit-learn's copy for sklearn.datasets.{arg} (URL and SHA-256 from its source: "
            f"{module}.{name})"
        )
    if what == "openml":
        return (
            f"OpenML data id {arg} through sklearn.datasets.fetch_openml (checked against the MD5 "
            f"OpenML publishes)"
        )
    raise ValueError(f"unknown fetcher {fetcher!r}")


def published_file(fetcher: str) -> tuple[str, str]:
    """(URL, SHA-256) of the file scikit-learn's fetcher ``fetcher`` ("sklearn:...") downloads.

    An ``ImportError`` or ``AttributeError`` when a version of scikit-learn no longer keeps the
    record where it did (the loader then falls back to the direct URL, with a warning)."""
    module, name = SKLEARN_RECORDS[fetcher.partition(":")[2]]
    record = getattr(importlib.import_module(module), name)
    return str(record.url), str(record.checksum)


def openml(fetcher: str, folder: Path) -> Fetched:
    """Run ``fetch_openml`` for an "openml:<data id>" key, with a temporary data home in
    ``folder``; return its rows, the data file's SHA-256 and how its checksum is known."""
    from sklearn.datasets import fetch_openml

    data_id = int(fetcher.partition(":")[2])
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix=".fetch_openml-", dir=folder))
    try:
        bunch = fetch_openml(data_id=data_id, data_home=str(home), as_frame=True, parser="auto")
        frame = bunch.frame[[*bunch.feature_names, *bunch.target_names]].copy()
        for col in bunch.target_names:
            frame[col] = frame[col].astype(str)
        # the data file it downloaded and checked, kept gzipped in its cache: its SHA-256 is
        # the one a direct download of the same file records
        sums = {}
        for path in sorted(home.rglob("*.gz")):
            if "data/v1/download" in path.as_posix():
                with gzip.open(path, "rb") as fh:
                    sums[path.with_suffix("").name] = hashlib.sha256(fh.read()).hexdigest()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return Fetched(
        frame=frame,
        feature_names=[str(c) for c in bunch.feature_names],
        source=f"OpenML data id {data_id} (fetch_openml)",
        sha256=sums,
        checksum="MD5 published by OpenML, checked by fetch_openml; SHA-256 computed here",
    )
