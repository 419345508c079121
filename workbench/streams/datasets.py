"""The real data sets that need no download: Electricity and Adult shipped inside the package
(sources and citations in ``data/README.md``) and scikit-learn's breast cancer data.  The larger
sets the papers use are downloaded by the loaders of :mod:`workbench.streams.remote`."""

from __future__ import annotations

import copy
import functools
from importlib import resources

from .csvio import read_csv

#: Name -> (file in ``data/``, or None for a set that comes with scikit-learn; one-line description).
DATASETS = {
    "electricity": (
        "electricity.csv.gz",
        "NSW electricity prices (Harries 1999), MOA's elecNormNew without date and day: "
        "45,312 rows, 6 numeric features in [0, 1], class 1 = price up",
    ),
    "adult": (
        "adult.csv.gz",
        "UCI Adult census income (Becker and Kohavi 1996), rows with missing values removed: "
        "30,162 rows, 6 numeric + 8 nominal features, class 1 = income >50K",
    ),
    "breast_cancer": (
        None,
        "Wisconsin diagnostic breast cancer (Street, Wolberg and Mangasarian 1993) as "
        "scikit-learn ships it: 569 rows, 30 numeric features, class 1 = benign",
    ),
}


def _data_path(filename: str):
    return resources.files(__package__).joinpath("data", filename)


def load(name: str, return_info: bool = False, shuffle: bool = False, seed: int | None = None):
    """Load a data set that needs no download by name (``"electricity"``, ``"adult"`` or
    ``"breast_cancer"``).

    The rows come in the file's order, which is the order of the stream; ``shuffle=True, seed=k``
    gives the ``k``-th random permutation instead.  Nominal columns are encoded with their
    categories sorted (``info.categories`` maps codes back to strings).

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.load("electricity")
    >>> X.shape
    (45312, 6)
    """
    if not isinstance(name, str) or name.lower() not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; the shipped ones are {sorted(DATASETS)}")
    from ._validate import check_bool
    from .remote import _shuffled, check_shuffle

    check_shuffle(shuffle, seed)
    check_bool(return_info, "return_info")
    X, y, info = _load_cached(name.lower())
    # Copies, so that a caller who edits the arrays or the info does not change the next load.
    X, y = _shuffled(X.copy(), y.copy(), shuffle, seed)
    if not return_info:
        return X, y
    return X, y, copy.deepcopy(info)


@functools.lru_cache(maxsize=None)
def _load_cached(key: str):
    filename, _ = DATASETS[key]
    if filename is None:
        return _breast_cancer()
    with resources.as_file(_data_path(filename)) as path:
        return read_csv(path, target=-1, name=key, return_info=True)


def _breast_cancer():
    import numpy as np
    from sklearn.datasets import load_breast_cancer

    from .info import StreamInfo

    bunch = load_breast_cancer()
    X = np.ascontiguousarray(bunch.data, dtype=np.float64)
    y = np.asarray(bunch.target, dtype=np.int64)
    info = StreamInfo(
        name="breast_cancer",
        feature_names=[str(f) for f in bunch.feature_names],
        class_names=[str(c) for c in bunch.target_names],
        params=dict(source="sklearn.datasets.load_breast_cancer"),
    )
    return X, y, info


def electricity(return_info: bool = False, shuffle: bool = False, seed: int | None = None):
    """The Electricity stream: 45,312 half-hours, 6 numeric features, 2 classes.

    Features: period, nswprice, nswdemand, vicprice, vicdemand, transfer (normalised to [0, 1]).
    Class 1 ("UP", 19,237 rows) when the NSW price is above its mean over the previous 24 hours,
    class 0 ("DOWN", 26,075 rows) otherwise, as given in the file.  (The data README lists the
    counts as "26,075 / 19,237" next to "1 = price up, 0 = down"; the file and the price rule both
    say that 26,075 is the count of class 0.)
    """
    return load("electricity", return_info=return_info, shuffle=shuffle, seed=seed)


def adult(
    return_info: bool = False,
    full: bool = False,
    data_home=None,
    download: bool = True,
    shuffle: bool = False,
    seed: int | None = None,
    refresh: bool = False,
    progress: bool | None = None,
):
    """The Adult stream: 30,162 people, 14 features (8 nominal), 2 classes (``>50K`` is class 1).

    The nominal columns (type_employer, education, marital, occupation, relationship, race, sex,
    country) hold codes of their values sorted as strings; ``info.nominal_features`` lists them.

    ``full=True`` loads UCI's whole Adult instead: ``adult.data`` (32,561 rows) then ``adult.test``
    (16,281), 48,842 rows with missing values as NaN, downloaded into ``data_home`` on first use
    and cached like :func:`covertype` (``data_home``, ``download``, ``refresh`` and ``progress``
    are those of :func:`covertype`, and are ignored for the shipped file).
    """
    from ._validate import check_bool

    if check_bool(full, "full"):
        from .remote import fetch

        return fetch(
            "adult_full", data_home, download, return_info, shuffle, seed, None, refresh, progress
        )
    return load("adult", return_info=return_info, shuffle=shuffle, seed=seed)


def breast_cancer(return_info: bool = False, shuffle: bool = False, seed: int | None = None):
    """Wisconsin diagnostic breast cancer, as scikit-learn ships it: 569 rows, 30 numeric features.

    Class 0 is malignant (212 rows), class 1 benign (357), scikit-learn's coding.  No download:
    a small real binary set for notebooks that must run offline.

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.breast_cancer()
    >>> X.shape, y.sum()
    ((569, 30), np.int64(357))
    """
    return load("breast_cancer", return_info=return_info, shuffle=shuffle, seed=seed)
