"""Paper 000, Figure 5: the ACTIVE setting: C-Tree with the label-query strategies at six
budgets on Electricity and Adult, ``c`` tuned as the paper did; ranks, verdict and plot."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._common import FAST, METRIC, METRIC_LABEL, STRATEGY_ORDER, sizes
from .table_1 import permuted


_ROWS = {}


def _dataset_rows(name, n_rows):
    """The data set in its original order, cut to ``n_rows`` (kept per process: a sweep worker
    runs many strategies on the same rows)."""
    key = (name, n_rows)
    if key not in _ROWS:
        _ROWS.clear()
        _ROWS[key] = permuted(name, seed=None, n=n_rows, return_info=True)
    return _ROWS[key]


def _score(res, metric):
    return res.accuracy if metric == "accuracy" else res.f_measure(1)


def tune_c(
    name: str,
    grid=None,
    n_rows: int | None = None,
    drift_detection: bool = True,
    fast: bool | None = None,
):
    """The C-Tree ``c`` with the best score in the FULL setting on the data set in its original
    order (with DDM), as the paper tuned its learners before Figure 5.  The grid is extended
    while the best ``c`` lies at an end of it (:func:`workbench.claims.tune`).  Returns
    ``(best_c, frame)``; the frame has every ``c`` tried, ``chosen`` and ``edge`` (why the
    chosen value still lies at an edge of its grid; empty when it does not)."""
    from ... import claims, evaluate, learners

    s = sizes(fast)
    n_rows = s.fig5_rows if n_rows is None else n_rows
    grid = np.logspace(-2.5, 0.3, 6 if s is FAST else 12) if grid is None else grid
    X, y, info = _dataset_rows(name, n_rows)
    rows = {}

    def score(c):
        model = learners.CTree(X.shape[1], c=float(c), nominal_features=info.nominal_features)
        res = evaluate.prequential(
            model, X, y, drift_detection=drift_detection, keep_predictions=False
        )
        rows[c] = {
            "dataset": name,
            "c": float(c),
            "score": _score(res, METRIC[name]),
            "accuracy": res.accuracy,
            "leaves": model.n_leaves,
            "n_drifts": res.n_drifts,
        }
        return rows[c]["score"]

    t = claims.tune(
        score, {"c": [float(v) for v in grid]}, limits={"c": (0.0, np.inf)}, minimise=False
    )
    frame = pd.DataFrame([rows[c] for c in sorted(rows)])
    frame["chosen"] = frame.c == t.best["c"]
    frame["edge"] = np.where(frame.chosen, t.edges["c"], "")
    return float(t.best["c"]), frame


def fig5_run(seed, dataset, strategy, budget, c, n_rows=None):
    """One run of Figure 5: C-Tree with ``c`` and DDM on the data set in its original order,
    labels asked by ``strategy`` (its random draws from ``seed``) within ``budget``; a
    function of the seed, so that :func:`workbench.sweep.apply` runs the seeds side by side.
    ``strategy="FULL"``: every label."""
    from ... import active, evaluate, learners

    X, y, info = _dataset_rows(dataset, n_rows)
    m = learners.CTree(X.shape[1], c=float(c), nominal_features=info.nominal_features)
    kw = {}
    if strategy != "FULL":
        kw = dict(strategy=active.STRATEGIES[strategy](seed=seed), budget=float(budget))
    res = evaluate.prequential(m, X, y, drift_detection=True, keep_predictions=False, **kw)
    return {
        "accuracy": res.accuracy,
        "f_measure_1": res.f_measure(1),
        "query_rate": res.query_rate if strategy != "FULL" else 1.0,
        "labels_used": res.labels_used,
        "n_drifts": res.n_drifts,
        "leaves": m.n_leaves,
    }


def fig5(
    datasets=("electricity", "adult"),
    budgets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6),
    strategies=STRATEGY_ORDER,
    n_seeds: int | None = None,
    c=None,
    fast: bool | None = None,
    n_rows: int | None = None,
    progress: bool = True,
    *,
    seeds=None,
    client=None,
    backend=None,
    processes=None,
):
    """Figure 5: online score against the labelling budget for the seven strategies, C-Tree as
    the base learner with DDM change detection (Sec. VIII), data sets in their original order.

    ``c``: a number, a dict per data set, or None (tuned by :func:`tune_c`).  Each strategy
    runs with ``n_seeds`` seeds (``seeds``: the list; its random draws), side by side through
    :func:`workbench.sweep.apply` (``client``: a Dask client; ``backend``/``processes`` as
    in :func:`workbench.sweep.run`).  A ``FULL`` row per data set (every label, DDM on) is the
    reference.  Rows: ``dataset``, ``strategy``, ``budget``, ``seed``, ``accuracy``,
    ``f_measure_1``, ``score``, ``query_rate``, ``labels_used``, ``n_drifts``, ``leaves``,
    ``c``.  ``progress``: a tqdm bar over the runs of each data set.
    """
    from ... import sweep

    s = sizes(fast)
    n_seeds = s.fig5_seeds if n_seeds is None else n_seeds
    seeds = list(range(n_seeds)) if seeds is None else [int(v) for v in seeds]
    n_rows = s.fig5_rows if n_rows is None else n_rows
    if backend is None and processes is None and client is None:
        backend = s.backend
    frames = []
    for name in datasets:
        if c is None:
            c_ds = tune_c(name, n_rows=n_rows, fast=fast)[0]
        else:
            c_ds = float(c[name] if isinstance(c, dict) else c)
        base = {"dataset": name, "c": c_ds, "n_rows": n_rows}
        full = fig5_run(0, strategy="FULL", budget=1.0, **base)
        frames.append(
            pd.DataFrame(
                [{"dataset": name, "strategy": "FULL", "budget": 1.0, "seed": 0, **full, "c": c_ds}]
            )
        )
        parts = [{**base, "strategy": st, "budget": float(b)} for st in strategies for b in budgets]
        df = sweep.apply(
            fig5_run,
            seeds,
            parts,
            client=client,
            backend=backend,
            processes=processes,
            progress={"desc": f"Figure 5, {name}", "unit": "run"} if progress else False,
        )
        kw = [__import__("json").loads(k) for k in df.kwargs]
        df.insert(0, "dataset", name)
        df.insert(1, "strategy", [k["strategy"] for k in kw])
        df.insert(2, "budget", [k["budget"] for k in kw])
        df["c"] = c_ds
        frames.append(df[["dataset", "strategy", "budget", "seed", *full, "c"]])
    df = pd.concat(frames, ignore_index=True)
    df["score"] = [
        r.accuracy if METRIC[r.dataset] == "accuracy" else r.f_measure_1 for r in df.itertuples()
    ]
    return df


def fig5_ranks(df):
    """Mean rank (1 = best) of each strategy over the budgets, per data set, from the mean score
    over seeds; also its mean score and mean query rate."""
    import pandas as pd

    act = df[df.strategy != "FULL"]
    mean = act.groupby(["dataset", "strategy", "budget"], as_index=False)[
        ["score", "query_rate"]
    ].mean()
    mean["rank"] = mean.groupby(["dataset", "budget"]).score.rank(ascending=False)
    out = mean.groupby(["dataset", "strategy"], as_index=False).agg(
        mean_rank=("rank", "mean"),
        mean_score=("score", "mean"),
        mean_query_rate=("query_rate", "mean"),
    )
    return pd.DataFrame(out).sort_values(["dataset", "mean_rank"]).reset_index(drop=True)


def fig5_report(df) -> str:
    """Where ConfTree and SplitConfTree rank among the seven strategies on each data set, as
    Markdown (the paper claims they are the most consistent; the claim is decided over seeds by
    :func:`workbench.experiments.paper000.claims`)."""
    ranks = fig5_ranks(df)
    lines = []
    for name, g in ranks.groupby("dataset", sort=False):
        g = g.sort_values("mean_rank").reset_index(drop=True)
        place = {r.strategy: i + 1 for i, r in g.iterrows()}
        full = df[(df.dataset == name) & (df.strategy == "FULL")].score.mean()
        lines.append(
            f"- {name}: best mean rank {g.strategy.iloc[0]} ({g.mean_rank.iloc[0]:.2f}); "
            f"ConfTree places {place.get('ConfTree', '-')} of {len(g)} "
            f"(mean rank {g.set_index('strategy').mean_rank.get('ConfTree', np.nan):.2f}), "
            f"SplitConfTree {place.get('SplitConfTree', '-')} of {len(g)}; spread of mean scores "
            f"{g.mean_score.max() - g.mean_score.min():.4f}; FULL {full:.4f}."
        )
    return "\n".join(lines)


def plot_fig5(df):
    """Figure 5: score against budget per data set (mean over seeds with 95% intervals when
    there are several), the FULL setting as a line; below, the query rate actually used."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(df.dataset))
    fig, axes = plt.subplots(
        2,
        len(names),
        figsize=(6 * len(names), 7),
        squeeze=False,
        gridspec_kw={"height_ratios": [2.2, 1]},
        sharex=True,
    )
    colors = dict(
        zip(
            STRATEGY_ORDER,
            ["#7f7f7f", "#1f77b4", "#17becf", "#2ca02c", "#9467bd", "#d62728", "#ff7f0e"],
        )
    )
    for k, name in enumerate(names):
        g = df[df.dataset == name]
        full = g[g.strategy == "FULL"].score.mean()
        ax, axq = axes[0, k], axes[1, k]
        ax.axhline(full, color="k", ls="--", lw=1, label="FULL (all labels)")
        for strat in STRATEGY_ORDER:
            d = g[g.strategy == strat]
            if not len(d):
                continue
            agg = d.groupby("budget").agg(
                score=("score", "mean"),
                sd=("score", "std"),
                n=("score", "size"),
                q=("query_rate", "mean"),
            )
            se = (agg.sd / np.sqrt(agg.n)).fillna(0)
            lw = 2.2 if "ConfTree" in strat else 1.2
            ax.errorbar(
                agg.index,
                agg.score,
                yerr=1.96 * se,
                marker="o",
                ms=4,
                lw=lw,
                capsize=2,
                color=colors[strat],
                label=strat,
            )
            axq.plot(agg.index, agg.q, marker="o", ms=3, lw=lw, color=colors[strat])
        b = np.sort(g[g.strategy != "FULL"].budget.unique())
        axq.plot(b, b, color="k", lw=0.8, ls=":", label="query rate = budget")
        axq.legend(fontsize=8, loc="upper left")
        ax.set_title(f"{name} (original order, DDM on), C-Tree c = {g.c.iloc[0]:.3g}", fontsize=9)
        ax.set_ylabel(METRIC_LABEL[METRIC[name]])
        axq.set_xlabel("labelling budget B")
        axq.set_ylabel("query rate used")
        ax.grid(alpha=0.3)
        axq.grid(alpha=0.3)
    # one legend for the strategies, below the panels, off the data
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.suptitle("Figure 5: ACTIVE setting", fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
