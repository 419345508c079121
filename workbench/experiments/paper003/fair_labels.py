"""Section 6 of notebook 04, what the thesis does not show: the Frugal tree against paper 000's
label-query strategies and the first L labels, given the same number of labels L.

The runs are part of the claims run (:mod:`.verdicts`: ``fair/<stream>`` parts, where the
equal-label protocol is described); this module holds the streams, the first-L baseline and the
plot.  Error is the prequential error over the whole stream (every instance predicted, labelled
or not), as in 000's ACTIVE protocol.  Streams: SEA (a new stream per seed), the shipped Adult
and Electricity, each shuffled by the seed (so that the rows are exchangeable and the seeds give
independent replications).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from ._common import COLOR, mean_ci

STRATEGIES = ("Random", "VarUncertainty", "ConfTree")
#: every baseline, in the order plotted ("First L": the first L labels of the stream, then none)
BASELINES = ("First L", *STRATEGIES)
STREAMS = ("sea", "adult", "electricity")


def _stream(name, seed, rows, sea_n):
    from ... import streams

    if name == "sea":
        X, y = streams.sea(sea_n, seed=seed)
        return X, y, {}
    fn = getattr(streams, name)
    X, y, info = fn(return_info=True, shuffle=True, seed=seed)
    if rows is not None:
        X, y = X[:rows], y[:rows]
    return X, y, info.nominal_features


def _first_l_error(common, X, y, L):
    """Prequential error of a tree that learns the first L rows (test-then-train) and then only
    predicts the rest."""
    from ... import evaluate
    from ...learners import HoeffdingTree

    model = HoeffdingTree(**common)
    wrong = 0
    if L:
        res = evaluate.prequential(model, X[:L], y[:L], keep_predictions=False)
        wrong = int(round((1 - res.accuracy) * L))
    else:
        model.prepare(X)
    if L < len(y):
        wrong += int(np.count_nonzero(model.predict(X[L:]) != y[L:]))
    return wrong / len(y)


def plot(runs: pd.DataFrame):
    """Error against the share of labels used, a panel per stream: each method's mean over
    seeds at every alpha with 95% intervals (error bars in both directions), and the tree
    with every label as a dashed line."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter

    names = list(dict.fromkeys(runs.stream))
    fig, axes = plt.subplots(1, len(names), figsize=(4.6 * len(names), 3.8))
    for ax, name in zip(np.atleast_1d(axes), names):
        g = runs[runs.stream == name]
        full = g[g.method == "every label"].error
        ax.axhline(full.mean(), ls="--", color=COLOR["HoeffdingTree"], label="every label")
        for method in ("Frugal", *BASELINES):
            h = g[g.method == method]
            pts = []
            for _a, ga in h.groupby("alpha"):
                ex, hx = mean_ci(ga.share)
                ey, hy = mean_ci(ga.error)
                pts.append((ex, ey, hx, hy))
            pts = np.array(sorted(pts))
            ax.errorbar(pts[:, 0], pts[:, 1], xerr=np.nan_to_num(pts[:, 2]),
                        yerr=np.nan_to_num(pts[:, 3]), marker="o", ms=4, capsize=2,
                        color=COLOR[method], label=method)  # fmt: skip
        ax.set_xscale("log")
        # labels at the decades only: with less than a decade shown matplotlib labels the
        # minor ticks too (2x10^-1, 3x10^-1, ...), and they run into each other
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_locator(FixedLocator([0.01, 0.03, 0.1, 0.3, 1.0]))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.set_xlabel("share of labels used (log)")
        ax.set_ylabel("prequential error")
        ax.set_title(name)
        ax.grid(alpha=0.3)
    handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), frameon=False,
               bbox_to_anchor=(0.5, -0.08))  # fmt: skip
    fig.suptitle("Same labels, different choice of which: error against labels used "
                 "(mean over seeds, 95% intervals)")  # fmt: skip
    fig.tight_layout()
    return fig
