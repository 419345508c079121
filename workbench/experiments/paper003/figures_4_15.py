"""Experiments 2 and 3 of 003 (Figures 4-15): mini-batch test-then-train of the Hoeffding tree
(every label) and the Frugal Hoeffding tree (a grid of alpha), per batch the precision, recall
and error of the chosen class and the labels used.

The thesis: Adult 44 batches of 1K, Covertype 48 of 10K, KDD Cup 1999 103 of 50K (5.15M rows,
more than the 4,898,431 the data set has).  It shows one red line per data set without saying
which alpha drew it, so the runs here cover a grid.  Both trees use information gain and
Laplace leaves (eq. 2); the Frugal tree learns its initial set S (the learner's default, one
grace period) in full, then only the rows whose batch-start margin p1 - p2 is below alpha.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ._common import COLOR, THESIS, load, sizes

METRICS = ("precision", "recall", "error", "labels_used")
YLABEL = {
    "precision": "precision of class 1",
    "recall": "recall of class 1",
    "error": "error rate",
    "labels_used": "labels used in the batch",
}


def experiment_2_3(name: str = "adult", alphas=None, *, fast: bool | None = None,
                   n_initial: int = 200) -> pd.DataFrame:  # fmt: skip
    """Per-batch rows (learner, alpha, batch, precision, recall, error, labels_used) of the
    Hoeffding tree and of the Frugal tree for every alpha, on the data set in its order."""
    from ... import evaluate
    from ...learners import FrugalHoeffdingTree, HoeffdingTree

    s = sizes(fast)
    alphas = s.alphas if alphas is None else tuple(alphas)
    X, y, info, note = load(name)
    if s.fig_rows is not None:
        X, y = X[: s.fig_rows], y[: s.fig_rows]
    batch = THESIS[name]["batch_size"]
    k = int(y.max()) + 1
    common = dict(n_classes=k, nominal_features=info.nominal_features, criterion="info_gain",
                  leaf_prediction="laplace")  # fmt: skip
    frames = []
    runs = [("HoeffdingTree", None)] + [("Frugal", a) for a in alphas]
    for learner, alpha in tqdm(runs, desc=f"Experiments 2-3, {name}", leave=False):
        if alpha is None:
            model = HoeffdingTree(**common)
        else:
            model = FrugalHoeffdingTree(alpha=alpha, n_initial=n_initial, **common)
        res = evaluate.minibatch(model, X, y, batch_size=batch)
        df = res.per_batch(1)
        df.insert(0, "alpha", np.nan if alpha is None else alpha)
        df.insert(0, "learner", learner)
        df["n_leaves"] = res.n_leaves
        df["data"] = name
        df["source"] = note
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def summary(runs: pd.DataFrame, last: int = 5) -> pd.DataFrame:
    """Per run: labels used in all and their share, mean error / precision / recall over the
    last ``last`` batches, and the final number of leaves."""
    out = []
    for (learner, alpha), g in runs.groupby(["learner", "alpha"], dropna=False, sort=False):
        tail = g.tail(last)
        out.append(
            {
                "learner": learner,
                "alpha": alpha,
                "labels used": int(g.labels_used.sum()),
                "share of labels": g.labels_used.sum() / g["size"].sum(),
                "labels in the last batch": int(g.labels_used.iloc[-1]),
                f"error (last {last})": tail.error.mean(),
                f"precision (last {last})": tail.precision.mean(),
                f"recall (last {last})": tail.recall.mean(),
                "leaves": int(g.n_leaves.iloc[-1]),
            }
        )
    return pd.DataFrame(out)


def plot(runs: pd.DataFrame, metrics=METRICS):
    """Figures 4-7 (one data set): a panel per metric, the Hoeffding tree in blue and the
    Frugal tree per alpha in shades of red."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(metrics), figsize=(4.3 * len(metrics), 3.6))
    alphas = sorted(runs.alpha.dropna().unique())
    reds = plt.cm.Reds(np.linspace(0.4, 0.95, max(1, len(alphas))))
    for ax, m in zip(np.atleast_1d(axes), metrics):
        ht = runs[runs.learner == "HoeffdingTree"]
        ax.plot(ht.batch, ht[m], color=COLOR["HoeffdingTree"], lw=2, label="Hoeffding tree")
        for a, c in zip(alphas, reds):
            g = runs[(runs.learner == "Frugal") & (runs.alpha == a)]
            ax.plot(g.batch, g[m], color=c, lw=1.4, label=f"Frugal, α = {a:g}")
        ax.set_xlabel("mini-batch")
        ax.set_ylabel(YLABEL[m])
        ax.grid(alpha=0.3)
    name = runs.data.iloc[0]
    fig.suptitle(
        f"{name}: per mini-batch of {THESIS[name]['batch_size']:,} ({runs.source.iloc[0]})"
    )
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False,
               bbox_to_anchor=(0.5, -0.08))  # fmt: skip
    fig.tight_layout()
    return fig
