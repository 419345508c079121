"""Paper 000, Table I: the Electricity and Adult data sets as shipped here, and the permuted
streams Figures 4 and 5 run on."""

from __future__ import annotations

import numpy as np


#: what label 1 means in the shipped data sets
CLASS1 = {
    "electricity": "UP (NSW price above its mean of the last 24 h)",
    "adult": ">50K (income above 50,000 USD)",
}


def table1():
    """Table I of the paper next to the data shipped here, for the two data sets used."""
    import pandas as pd

    from ... import streams

    rows = []
    paper = {
        "electricity": ("ELECTRICITY", 8, 45312, 26075, 19237),
        "adult": ("A9A* (Adult, one-hot)", 123, 48842, 11687, 37155),
    }
    for name, (pname, pdim, pn, ppos, pneg) in paper.items():
        X, y, info = getattr(streams, name)(return_info=True)
        counts = np.bincount(y, minlength=2)
        rows.append(
            {
                "data set": name,
                "paper row": pname,
                "paper dimension": pdim,
                "paper examples": pn,
                "paper |+|": ppos,
                "paper |-|": pneg,
                "our dimension": X.shape[1],
                "our examples": X.shape[0],
                "our class 1": int(counts[1]),
                "our class 0": int(counts[0]),
                "class 1 is": CLASS1[name],
            }
        )
    return pd.DataFrame(rows)


def permuted(
    name: str = "electricity", seed: int | None = 0, n: int | None = None, return_info: bool = False
):
    """A data set from :mod:`workbench.streams` in a random order (``seed=None``: the original
    order), optionally cut to its first ``n`` rows.  The paper builds ten streams from each data
    set by random permutations (Sec. VII-B).  Importable by name, so sweep workers build it."""
    from ... import streams

    X, y, info = getattr(streams, name)(return_info=True)
    if seed is not None:
        order = np.random.default_rng(int(seed)).permutation(X.shape[0])
        X, y = np.ascontiguousarray(X[order]), y[order]
    if n is not None:
        X, y = X[:n], y[:n]
    if return_info:
        return X, y, info
    return X, y
