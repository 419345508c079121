"""What every part of the paper-003 reproduction shares: the mode and its :class:`Sizes`,
the data sets with the thesis's sizes and what is available here, colours, and the
notebook's :class:`Stopwatch`."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...viz.fast import fast_mode
from ..paper000._common import Stopwatch  # noqa: F401  (the notebook's run-time line)

COLOR = {"HoeffdingTree": "#1f77b4", "Frugal": "#d62728", "Random": "#2ca02c", "First L": "#7f7f7f",
         "VarUncertainty": "#9467bd", "ConfTree": "#ff7f0e", "CART": "#8c564b",
         "RandomForest": "#17becf"}  # fmt: skip
#: the thesis's sizes: (train rows, test rows) of Experiment 1, (batches, batch size) of
#: Experiments 2-3, the rows of the full data set, and the class whose precision/recall is shown
THESIS = {
    "adult": dict(train=35_000, test=10_000, batches=44, batch_size=1_000, rows=45_222),
    "covertype": dict(train=400_000, test=95_000, batches=48, batch_size=10_000, rows=581_012),
    "kdd99": dict(train=4_000_000, test=898_000, batches=103, batch_size=50_000, rows=4_898_431),
}


@dataclass(frozen=True)
class Sizes:
    """How large every experiment of the notebook is in one mode."""

    table_seeds: int  # Experiment 1: seeds (row permutations) averaged, the thesis's seven
    table_rows: int | None  # rows of a data set used in Experiment 1 (None: all)
    forest_trees: int  # random forest size
    fig_rows: int | None  # rows of the mini-batch runs (None: all)
    alphas: tuple  # the alpha grid of Experiments 2-3
    region_n: int  # section 3: length of the two-feature stream


FAST = Sizes(
    table_seeds=2,
    table_rows=12_000,
    forest_trees=25,
    fig_rows=15_000,
    alphas=(0.3, 0.6, 0.9),
    region_n=12_000,
)
FULL = Sizes(
    table_seeds=7,
    table_rows=None,
    forest_trees=100,
    fig_rows=None,
    alphas=(0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9),
    region_n=30_000,
)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: read ``WORKBENCH_FAST``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def available(name: str) -> bool:
    """Whether the thesis's data set ``name`` is on this machine (no download is tried)."""
    from ... import streams

    try:
        if name == "adult":
            streams.adult(full=True, download=False)
        else:
            getattr(streams, name)(download=False)
    except (FileNotFoundError, OSError, ValueError):
        return False
    return True


def load(name: str, *, shuffle: bool = False, seed: int | None = None):
    """(X, y, info, note) of a thesis data set: the full one when cached, else (Adult) the
    shipped 30,162-row version; ``note`` says which.  Covertype and KDD Cup 1999 without a
    cached copy raise ``FileNotFoundError`` (no download is tried here)."""
    from ... import streams

    if name == "adult":
        if available("adult"):
            X, y, info = streams.adult(full=True, download=False, return_info=True,
                                       shuffle=shuffle, seed=seed)  # fmt: skip
            return X, y, info, f"full Adult ({len(y):,} rows)"
        X, y, info = streams.adult(return_info=True, shuffle=shuffle, seed=seed)
        return X, y, info, f"shipped Adult ({len(y):,} rows; the full data set is not cached)"
    fn = getattr(streams, name)
    X, y, info = fn(download=False, return_info=True, shuffle=shuffle, seed=seed)
    return X, y, info, f"{name} ({len(y):,} rows, cached)"


def scaled_split(name: str, n_rows: int) -> tuple[int, int]:
    """The thesis's (train, test) sizes, scaled down in proportion when fewer rows exist."""
    t = THESIS[name]
    train, test = t["train"], t["test"]
    if n_rows >= train + test:
        return train, test
    f = n_rows / (train + test)
    train = int(round(train * f))
    return train, n_rows - train


def mean_ci(values, level: float = 0.95) -> tuple[float, float]:
    """Mean and half-width of Student's t interval over seeds (nan width for one value)."""
    from scipy import stats

    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    if len(v) == 0:
        return float("nan"), float("nan")
    if len(v) < 2:
        return float(v.mean()), float("nan")
    half = stats.t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / np.sqrt(len(v))
    return float(v.mean()), float(half)
