"""Paper 000, Figure 3: online accuracy against number of leaves for C-Tree, H-Tree and
CorrH-Tree over many RandCBT trees, through :func:`workbench.sweep.run`; summaries, claims,
verdict and plot."""

from __future__ import annotations

import math

import numpy as np

from ..._numbers import count
from ._common import (
    COLOR,
    LABEL,
    LEARNERS,
    MARKER,
    METRIC_LABEL,
    PARAM,
    _check_errors,
    progress_options,
    signed,
    tally_text,
    _learner_grids,
    _param_column,
    sizes,
)


def rand_cbt_by_leaf(
    n: int = 100_000,
    seed: int | None = 1,
    n_leaves: int = 50,
    d: int = 5,
    q: float = 0.7,
    return_info: bool = False,
):
    """``streams.rand_cbt`` with the examples in blocks, one leaf after the other (leaves in
    left-to-right order, each block drawn i.i.d. in its leaf's box), instead of shuffled.

    This is the literal reading of Sec. VII-A ("for each leaf of the tree, 10,000 examples are
    uniformly drawn from the subregion ... obtaining 500,000 examples"), which does not say
    that the stream is shuffled.  Importable by name, so sweep workers build it from its seed.
    """
    from ... import streams

    X, y, info = streams.rand_cbt(n=n, seed=seed, n_leaves=n_leaves, d=d, q=q, return_info=True)
    order = np.argsort(info.tree.apply(X), kind="stable")
    X, y = np.ascontiguousarray(X[order]), y[order]
    info.name = "rand_cbt_by_leaf"
    if return_info:
        return X, y, info
    return X, y


#: log10 ranges of Figure 3's grids (C-Tree: c; the others: L with delta = exp(-L)), chosen so
#: that the trees span one to a few thousand leaves on 500,000 examples in each stream order
FIG3_RANGES = {
    "shuffled": {"CTree": (-3.5, -1.0), "HoeffdingTree": (-3.5, 0.5), "CorrHTree": (-2.5, 2.0)},
    "by_leaf": {"CTree": (-3.5, 0.0), "HoeffdingTree": (-3.0, 2.0), "CorrHTree": (-2.5, 2.0)},
}


def fig3_param_grid(n_params: int, ranges=None) -> dict:
    r"""Per-learner grids of Figure 3, log-spaced so that the trees span one to a few thousand
    leaves on 500,000-example RandCBT streams: C-Tree :math:`c \in [10^{-3.5}, 10^{-1}]`
    (its most accurate c lay at the grid's lower end 10^{-2.7} on some trees); H-Tree
    and CorrH-Tree :math:`\delta = e^{-L}` with :math:`L` log-spaced (the Hoeffding radius grows
    as :math:`\sqrt L`).  H-Tree runs with the Gini index, grace period 100 and tau 0 as in the
    paper; CorrH-Tree with the classification error."""
    return _learner_grids({**FIG3_RANGES["shuffled"], **(ranges or {})}, n_params)


def fig3_grid(
    n_trees: int | None = None,
    n_examples: int | None = None,
    n_params: int | None = None,
    fast: bool | None = None,
    *,
    backend=None,
    processes=None,
    client=None,
    results=None,
    progress=True,
    first_seed: int = 0,
    n_leaves: int = 50,
    d: int = 5,
    q: float = 0.7,
    ranges=None,
    order: str = "shuffled",
    seeds=None,
):
    """Figure 3's grid through :func:`workbench.sweep.run`: every (learner, parameter value,
    RandCBT seed) is one cell; the worker generates the stream from its seed.

    Returns one row per cell with ``learner``, ``param_name``, ``param``, ``seed`` (the tree),
    ``n``, ``n_leaves`` (final), ``depth``, ``accuracy`` (final online accuracy, the paper's
    M_t at the end of the stream), ``seconds``, ``order`` and the sweep's bookkeeping columns.
    ``order="shuffled"`` runs ``streams.rand_cbt`` (examples in random order);
    ``order="by_leaf"`` runs :func:`rand_cbt_by_leaf` (one leaf's examples after the other).
    ``results`` (a ``.csv`` path) makes an interrupted run resumable.  ``progress``: a tqdm
    bar over the cells (``False`` for none, or a dict of tqdm options).  ``seeds``: the trees
    (default ``first_seed .. first_seed + n_trees - 1``); ``client``: a Dask client to run the
    cells on.
    """
    from ... import sweep

    s = sizes(fast)
    n_trees = s.fig3_trees if n_trees is None else n_trees
    n_examples = s.fig3_examples if n_examples is None else n_examples
    n_params = s.fig3_params if n_params is None else n_params
    if backend is None and processes is None and client is None:
        backend = s.backend
    if order not in ("shuffled", "by_leaf"):
        raise ValueError(f"order must be 'shuffled' or 'by_leaf'; got {order!r}")
    stream = "rand_cbt" if order == "shuffled" else f"{__package__}:rand_cbt_by_leaf"
    ranges = {**FIG3_RANGES[order], **(ranges or {})}
    df = sweep.run(
        fig3_param_grid(n_params, ranges),
        streams={stream: {"n": n_examples, "n_leaves": n_leaves, "d": d, "q": q}},
        seeds=list(range(first_seed, first_seed + n_trees)) if seeds is None else list(seeds),
        metrics=["accuracy"],
        backend=backend,
        processes=processes,
        client=client,
        results=results,
        progress=progress_options(progress, f"Figure 3, {order} stream"),
        curve_points=0,
    )
    _check_errors(df)
    df = _param_column(df)
    df["order"] = order
    return df


def _mean_se(x):
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")


def fig3_summary(df, score: str = "accuracy"):
    """Per (learner, parameter value): mean and standard error over trees of the final score
    and of the final number of leaves; ``lo``/``hi`` = mean -/+ 1.96 SE of the score."""
    import pandas as pd

    rows = []
    for (lr, p), g in df.groupby(["learner", "param"], sort=True):
        a, a_se = _mean_se(g[score])
        lv, lv_se = _mean_se(g.n_leaves.astype(float))
        rows.append(
            {
                "learner": lr,
                "param_name": PARAM[lr],
                "param": p,
                "n_runs": len(g),
                score: a,
                "se": a_se,
                "lo": a - 1.96 * a_se,
                "hi": a + 1.96 * a_se,
                "leaves": lv,
                "leaves_se": lv_se,
                "median_leaves": float(g.n_leaves.astype(float).median()),
            }
        )
    return pd.DataFrame(rows)


def fig3_binned(df, score: str = "accuracy", edges=None):
    """Every run pooled, binned by its final number of leaves (log-spaced bins): mean score and
    mean -/+ 1.96 SE per (learner, bin)."""
    import pandas as pd

    leaves = df.n_leaves.astype(float)
    if edges is None:
        hi = max(2.0, float(leaves.max()))
        edges = np.unique(np.round(np.logspace(0, math.log10(hi * 1.001), 14)))
    edges = np.asarray(edges, dtype=np.float64)
    b = np.clip(np.searchsorted(edges, leaves, side="right") - 1, 0, len(edges) - 2)
    rows = []
    for lr in df.learner.unique():
        for k in range(len(edges) - 1):
            sel = (df.learner == lr).to_numpy() & (b == k)
            if sel.sum() == 0:
                continue
            a, se = _mean_se(df[score].to_numpy()[sel])
            rows.append(
                {
                    "learner": lr,
                    "bin_lo": edges[k],
                    "bin_hi": edges[k + 1],
                    "leaves": float(leaves[sel].mean()),
                    "n_runs": int(sel.sum()),
                    score: a,
                    "lo": a - 1.96 * se if sel.sum() > 1 else np.nan,
                    "hi": a + 1.96 * se if sel.sum() > 1 else np.nan,
                }
            )
    return pd.DataFrame(rows)


def _per_tree_at(df, learner, size, score):
    """Score of ``learner`` on each tree at ``size`` leaves, by linear interpolation in
    log(leaves) between its runs on that tree (NaN outside their range)."""
    out = {}
    for seed, g in df[df.learner == learner].groupby("seed"):
        g = g.sort_values(["n_leaves", "param"])
        x = np.log(g.n_leaves.astype(float).to_numpy())
        yv = g[score].to_numpy(dtype=np.float64)
        xs, ix = np.unique(x, return_index=True)
        ys = np.array([yv[x == v].mean() for v in xs])
        lx = math.log(size)
        out[seed] = float(np.interp(lx, xs, ys)) if xs[0] <= lx <= xs[-1] else np.nan
    return out


def fig3_compare(
    df,
    sizes_=(5, 10, 20, 50, 100, 200, 500, 1000),
    score: str = "accuracy",
    reference: str = "CTree",
):
    """C-Tree against each baseline at equal size, paired over trees.

    For each tree and learner the score is interpolated (in log leaves) at each size; the
    difference ``reference - other`` on the trees where both reach that size gives a mean and
    a 95% interval (mean -/+ 1.96 SE).  One row per (size, other learner).
    """
    import pandas as pd

    rows = []
    for s in sizes_:
        ref = _per_tree_at(df, reference, s, score)
        for other in [lr for lr in LEARNERS if lr != reference and lr in set(df.learner)]:
            oth = _per_tree_at(df, other, s, score)
            diffs = [
                ref[k] - oth[k]
                for k in ref
                if k in oth and np.isfinite(ref[k]) and np.isfinite(oth[k])
            ]
            if len(diffs) < 2:
                rows.append(
                    {
                        "leaves": s,
                        "other": other,
                        "n_trees": len(diffs),
                        "diff": np.nan,
                        "lo": np.nan,
                        "hi": np.nan,
                        "verdict": "n/a",
                    }
                )
                continue
            m, se = _mean_se(diffs)
            verdict = (
                "C-Tree better"
                if m - 1.96 * se > 0
                else "C-Tree worse"
                if m + 1.96 * se < 0
                else "no clear difference"
            )
            rows.append(
                {
                    "leaves": s,
                    "other": other,
                    "n_trees": len(diffs),
                    "diff": m,
                    "lo": m - 1.96 * se,
                    "hi": m + 1.96 * se,
                    "verdict": verdict,
                }
            )
    return pd.DataFrame(rows)


def fig3_claims(df, generator_leaves: int = 50, score: str = "accuracy") -> dict:
    """The numbers behind the paper's two claims on Figure 3 (the claims themselves are
    decided over trees by :func:`workbench.experiments.paper000.claims`).

    * ``equal_size``: :func:`fig3_compare` at sizes from 5 to 1000 leaves;
    * ``at_generator_size``: C-Tree's parameter value whose mean size is closest to
      ``generator_leaves`` and its mean score, next to C-Tree's best parameter value (its size
      and score), and each learner's best.
    """
    cmp = fig3_compare(df, score=score)
    summ = fig3_summary(df, score)
    c = summ[summ.learner == "CTree"]
    near = c.iloc[int((np.log(c.leaves) - math.log(generator_leaves)).abs().argmin())]
    best = c.iloc[int(c[score].argmax())]
    best_all = summ.loc[summ.groupby("learner")[score].idxmax()]
    return {
        "equal_size": cmp,
        "at_generator_size": {
            "c": float(near.param),
            "leaves": float(near.leaves),
            score: float(near[score]),
            "ci": (float(near.lo), float(near.hi)),
        },
        "ctree_best": {
            "c": float(best.param),
            "leaves": float(best.leaves),
            score: float(best[score]),
            "ci": (float(best.lo), float(best.hi)),
        },
        "best_per_learner": best_all[["learner", "param", "leaves", score, "lo", "hi"]].reset_index(
            drop=True
        ),
    }


def fig3_report(claims: dict, df, score: str = "accuracy") -> str:
    """The numbers of :func:`fig3_claims` as a short Markdown report (scale, equal-size
    comparison, size of C-Tree's best trees).  No verdict: the claims are decided over trees,
    with Holm's correction across the paper's table, by
    :func:`workbench.experiments.paper000.claims`."""
    n_trees, n = df.seed.nunique(), int(df.n.iloc[0])
    n_par = int(df.groupby("learner").param.nunique().max())
    cmp = claims["equal_size"]
    order = f" ({df.order.iloc[0].replace('_', ' ')})" if "order" in df else ""
    lines = [
        f"**Scale{order}:** {n_trees} random trees x {n:,} examples x {n_par} parameter "
        f"values x {df.learner.nunique()} learners = {len(df):,} runs (the paper: 1,000 "
        "trees x 500,000 examples x 200 values)."
    ]
    for other in [lr for lr in LEARNERS if lr != "CTree"]:
        d = cmp[(cmp.other == other) & (cmp.verdict != "n/a")]
        if not len(d):
            lines.append(f"- C-Tree vs {LABEL[other]}: no common size.")
            continue
        parts = [
            f"{int(r.leaves)} leaves: {signed(r['diff'])} [{signed(r.lo)}, {signed(r.hi)}]"
            for _, r in d.iterrows()
        ]
        lines.append(
            f"- C-Tree minus {LABEL[other]} at equal size (paired over trees, 95%): "
            + "; ".join(parts)
            + f". In all: {tally_text(d.verdict)}."
        )
    g, b = claims["at_generator_size"], claims["ctree_best"]
    lines.append(
        f"- C-Tree nearest the generator's size: c = {g['c']:.3g}, "
        f"{count(g['leaves'], 'leaf', 'leaves')}, {score} {g[score]:.4f} "
        f"[{g['ci'][0]:.4f}, {g['ci'][1]:.4f}]; C-Tree's best: c = {b['c']:.3g}, "
        f"{count(b['leaves'], 'leaf', 'leaves')}, {score} {b[score]:.4f} "
        f"[{b['ci'][0]:.4f}, {b['ci'][1]:.4f}]."
    )
    best = claims["best_per_learner"]
    lines.append(
        "- Best mean "
        + score
        + " per learner: "
        + "; ".join(
            f"{LABEL[r.learner]} {r[score]:.4f} at {count(r.leaves, 'leaf', 'leaves')}"
            for _, r in best.iterrows()
        )
        + "."
    )
    return "\n".join(lines)


def plot_fig3(
    df,
    score: str = "accuracy",
    generator_leaves: int = 50,
    bayes: float | None = 0.7,
    title: str | None = None,
):
    """Figure 3: (left) mean final score against mean final leaves, one point per parameter
    value, 95% bands over trees; (right) every run binned by its leaves, 95% intervals."""
    import matplotlib.pyplot as plt

    summ = fig3_summary(df, score)
    binned = fig3_binned(df, score)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.3), sharey=True)
    for lr in [lr for lr in LEARNERS if lr in set(df.learner)]:
        d = summ[summ.learner == lr].sort_values("leaves")
        axes[0].fill_between(d.leaves, d.lo, d.hi, color=COLOR[lr], alpha=0.18, lw=0)
        axes[0].errorbar(
            d.leaves,
            d[score],
            xerr=1.96 * d.leaves_se.fillna(0),
            fmt="-",
            marker=MARKER[lr],
            color=COLOR[lr],
            ms=6,
            lw=1.3,
            elinewidth=0.7,
            label=LABEL[lr],
        )
        b = binned[binned.learner == lr].sort_values("leaves")
        axes[1].errorbar(
            b.leaves,
            b[score],
            yerr=[(b[score] - b.lo).fillna(0), (b.hi - b[score]).fillna(0)],
            fmt="-",
            marker=MARKER[lr],
            color=COLOR[lr],
            ms=6,
            lw=1.3,
            capsize=2,
            label=LABEL[lr],
        )
    n_trees = df.seed.nunique()
    n = int(df.n.iloc[0])
    for ax in axes:
        ax.set_xscale("log")
        ax.axvline(
            generator_leaves, color="k", ls=":", lw=1, label=f"generator: {generator_leaves} leaves"
        )
        ax.set_xlabel("number of leaves (end of stream)")
        ax.grid(alpha=0.3, which="both")
        if bayes is not None and score == "accuracy":
            ax.axhline(bayes, color="k", lw=0.8, ls="--")
    if bayes is not None and score == "accuracy":
        axes[0].text(axes[0].get_xlim()[0], bayes, " Bayes accuracy", va="bottom", fontsize=8)
    axes[0].set_ylabel(f"final {METRIC_LABEL.get(score, score)}")
    order = f", {df.order.iloc[0].replace('_', ' ')}" if "order" in df else ""
    fig.suptitle(title or f"Figure 3: {n_trees} RandCBT trees x {n:,} examples{order}", fontsize=10)
    axes[0].set_title("mean and 95% band per parameter value", fontsize=9)
    axes[1].set_title("all runs binned by their number of leaves (mean, 95% interval)", fontsize=9)
    # one legend for both panels, below them, off the data
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
