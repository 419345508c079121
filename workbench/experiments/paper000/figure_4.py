"""Paper 000, Figure 4: C-Tree, H-Tree and CorrH-Tree on permuted Electricity and Adult
(FULL setting), through :func:`workbench.sweep.run`; best parameters, verdict and plot."""

from __future__ import annotations

from ._common import (
    COLOR,
    LABEL,
    LEARNERS,
    MARKER,
    METRIC,
    METRIC_LABEL,
    PARAM,
    _check_errors,
    progress_options,
    tally_text,
    _learner_grids,
    _param_column,
    sizes,
)
from .figure_3 import fig3_compare, fig3_summary


def fig4_param_grid(n_params: int, ranges=None) -> dict:
    """Grids of Figure 4 (smaller streams than Figure 3, so larger radii matter).  Nominal
    attributes are split binary (value against the rest) by all three learners, as in the
    paper's one-hot A9A and its binary-split setting."""
    r = {"CTree": (-2.5, 0.3), "HoeffdingTree": (-3.0, 1.5), "CorrHTree": (-3.0, 2.0)}
    return _learner_grids({**r, **(ranges or {})}, n_params, binary_nominal=True)


def fig4(
    datasets=("electricity", "adult"),
    n_perm: int | None = None,
    n_params: int | None = None,
    fast: bool | None = None,
    *,
    backend=None,
    processes=None,
    client=None,
    results=None,
    progress=True,
    ranges=None,
    seeds=None,
):
    """Figure 4: every (learner, parameter value, permutation) of each data set through
    :func:`workbench.sweep.run`.  Rows carry ``dataset``, ``accuracy``, ``f_measure_1`` and
    ``score`` (the data set's metric: :data:`METRIC`).  ``seeds``: the permutations (default
    ``0 .. n_perm - 1``); ``client``: a Dask client to run the cells on."""
    import pandas as pd

    from ... import sweep

    s = sizes(fast)
    n_perm = s.fig4_perms if n_perm is None else n_perm
    n_params = s.fig4_params if n_params is None else n_params
    if backend is None and processes is None and client is None:
        backend = s.backend
    frames = []
    for name in datasets:
        df = sweep.run(
            fig4_param_grid(n_params, ranges),
            streams={f"{__package__}:permuted": {"name": name}},
            seeds=list(range(n_perm)) if seeds is None else list(seeds),
            metrics=["accuracy", "f_measure_1"],
            backend=backend,
            processes=processes,
            client=client,
            results=results,
            progress=progress_options(progress, f"Figure 4, {name}"),
            curve_points=0,
        )
        _check_errors(df)
        df = _param_column(df)
        df.insert(0, "dataset", name)
        df["score"] = df[METRIC[name]]
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def fig4_best(df):
    """Per data set and learner: the parameter value with the best mean score over
    permutations, its mean size and the 95% interval of its score."""
    import pandas as pd

    rows = []
    for name, g in df.groupby("dataset", sort=False):
        summ = fig3_summary(g, "score")
        for lr in LEARNERS:
            d = summ[summ.learner == lr]
            if not len(d):
                continue
            b = d.iloc[int(d.score.argmax())]
            rows.append(
                {
                    "dataset": name,
                    "metric": METRIC[name],
                    "learner": lr,
                    "param_name": PARAM[lr],
                    "param": b.param,
                    "leaves": b.leaves,
                    "score": b.score,
                    "lo": b.lo,
                    "hi": b.hi,
                }
            )
    return pd.DataFrame(rows)


def fig4_compare(df, sizes_=(2, 5, 10, 20, 50, 100)):
    """C-Tree against each baseline at equal size on each data set, paired over permutations
    (as :func:`fig3_compare`, on the data set's score)."""
    import pandas as pd

    frames = []
    for name, g in df.groupby("dataset", sort=False):
        c = fig3_compare(g, sizes_, score="score")
        c.insert(0, "dataset", name)
        frames.append(c)
    return pd.concat(frames, ignore_index=True)


def fig4_report(df) -> str:
    """Best score per learner and the equal-size comparison, as Markdown (no verdict: the claim
    is decided over permutations by :func:`workbench.experiments.paper000.claims`)."""
    best = fig4_best(df)
    cmp = fig4_compare(df)
    lines = []
    for name, g in best.groupby("dataset", sort=False):
        parts = [
            f"{LABEL[r.learner]} {r.score:.4f} [{r.lo:.4f}, {r.hi:.4f}] at {r.leaves:.0f} leaves"
            for _, r in g.iterrows()
        ]
        c = cmp[(cmp.dataset == name) & (cmp.verdict != "n/a")]
        tally = "; ".join(
            f"vs {LABEL[o]}, {tally_text(c[c.other == o].verdict)}" for o in c.other.unique()
        )
        lines.append(
            f"- {name} ({METRIC[name]}): best per learner: "
            + "; ".join(parts)
            + f". C-Tree at equal size (paired over permutations, 2-100 leaves): "
            f"{tally}."
        )
    return "\n".join(lines)


def plot_fig4(df):
    """Figure 4: score against leaves per data set, one point per parameter value (mean over
    permutations, 95% band)."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(df.dataset))
    fig, axes = plt.subplots(1, len(names), figsize=(6 * len(names), 4), squeeze=False)
    for ax, name in zip(axes[0], names):
        g = df[df.dataset == name]
        summ = fig3_summary(g, "score")
        for lr in LEARNERS:
            d = summ[summ.learner == lr].sort_values("leaves")
            ax.fill_between(d.leaves, d.lo, d.hi, color=COLOR[lr], alpha=0.18, lw=0)
            ax.plot(d.leaves, d.score, "-", marker=MARKER[lr], color=COLOR[lr], label=LABEL[lr])
        ax.set_xscale("log")
        ax.set_xlabel("number of leaves (end of stream)")
        ax.set_ylabel(METRIC_LABEL[METRIC[name]])
        ax.set_title(f"{name}: {g.seed.nunique()} permutations", fontsize=9)
        ax.grid(alpha=0.3, which="both")
    # one legend below the panels, off the data
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.suptitle("Figure 4", fontsize=10)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    return fig
