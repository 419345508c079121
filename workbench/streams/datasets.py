"""The real data sets shipped inside the package (sources and citations in ``data/README.md``)."""

from __future__ import annotations

import copy
import functools
from importlib import resources

from .csvio import read_csv

#: Name -> (file in ``data/``, one-line description).
DATASETS = {
    "electricity": ("electricity.csv.gz",
                    "NSW electricity prices (Harries 1999), MOA's elecNormNew without date and day: "
                    "45,312 rows, 6 numeric features in [0, 1], class 1 = price up"),
    "adult": ("adult.csv.gz",
              "UCI Adult census income (Becker and Kohavi 1996), rows with missing values removed: "
              "30,162 rows, 6 numeric + 8 nominal features, class 1 = income >50K"),
}


def _data_path(filename: str):
    return resources.files(__package__).joinpath("data", filename)


def load(name: str, return_info: bool = False):
    """Load a shipped data set by name (``"electricity"`` or ``"adult"``).

    The rows come in the file's order, which is the order of the stream.  Nominal columns are
    encoded with their categories sorted (``info.categories`` maps codes back to strings).

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.load("electricity")
    >>> X.shape
    (45312, 6)
    """
    if not isinstance(name, str) or name.lower() not in DATASETS:
        raise ValueError(f"unknown data set {name!r}; the shipped ones are {sorted(DATASETS)}")
    X, y, info = _load_cached(name.lower())
    # Copies, so that a caller who edits the arrays or the info does not change the next load.
    if not return_info:
        return X.copy(), y.copy()
    return X.copy(), y.copy(), copy.deepcopy(info)


@functools.lru_cache(maxsize=None)
def _load_cached(key: str):
    filename, _ = DATASETS[key]
    with resources.as_file(_data_path(filename)) as path:
        return read_csv(path, target=-1, name=key, return_info=True)


def electricity(return_info: bool = False):
    """The Electricity stream: 45,312 half-hours, 6 numeric features, 2 classes.

    Features: period, nswprice, nswdemand, vicprice, vicdemand, transfer (normalised to [0, 1]).
    Class 1 ("UP", 19,237 rows) when the NSW price is above its mean over the previous 24 hours,
    class 0 ("DOWN", 26,075 rows) otherwise, as given in the file.  (The data README lists the
    counts as "26,075 / 19,237" next to "1 = price up, 0 = down"; the file and the price rule both
    say that 26,075 is the count of class 0.)
    """
    return load("electricity", return_info=return_info)


def adult(return_info: bool = False):
    """The Adult stream: 30,162 people, 14 features (8 nominal), 2 classes (``>50K`` is class 1).

    The nominal columns (type_employer, education, marital, occupation, relationship, race, sex,
    country) hold codes of their values sorted as strings; ``info.nominal_features`` lists them.
    """
    return load("adult", return_info=return_info)
