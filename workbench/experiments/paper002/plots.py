"""The plots of sections 5 and 6 of the notebook, drawn from the claims run's frames
(:func:`.verdicts.stationary_frame`, :func:`.verdicts.sea_frame`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._common import COLOR


def plot_stationary(df: pd.DataFrame, column: str = "test error", learners=None):
    """002's Table 1 as curves: ``column`` against the training rows, a panel per problem, one
    line per learner (mean over seeds; the test error with its 95 % interval as a band)."""
    import matplotlib.pyplot as plt

    problems = list(dict.fromkeys(df.problem))
    fig, axes = plt.subplots(1, len(problems), figsize=(3.6 * len(problems), 3.4), squeeze=False)
    for ax, problem in zip(axes[0], problems):
        sub = df[df.problem == problem]
        for name in learners or dict.fromkeys(sub.learner):
            g = sub[sub.learner == name].sort_values("train rows")
            if g.empty:
                continue
            ax.plot(g["train rows"], g[column], marker="o", ms=4, color=COLOR.get(name), label=name)
            if column == "test error" and "± 95%" in g:
                h = np.nan_to_num(g["± 95%"].to_numpy(dtype=float))
                ax.fill_between(g["train rows"], g[column] - h, g[column] + h,
                                color=COLOR.get(name), alpha=0.15, lw=0)  # fmt: skip
        ax.set_xscale("log")
        sizes_ = sorted(set(sub["train rows"]))
        ax.set_xticks(sizes_)
        ax.set_xticklabels([f"{v / 1000:g}k" for v in sizes_])
        ax.xaxis.set_minor_locator(plt.NullLocator())
        if column == "train seconds":
            ax.set_yscale("log")
        ax.set_title(problem)
        ax.set_xlabel("training rows")
    axes[0][0].set_ylabel(column)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, bbox_to_anchor=(0.5, -0.14))
    fig.tight_layout()
    return fig


__all__ = ["plot_stationary"]
