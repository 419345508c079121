"""Section 6 of notebook 04, what the thesis does not show: the Frugal tree against paper 000's
label-query strategies given the same number of labels.

For every (stream, seed, alpha) the Frugal tree (``FrugalHoeffdingTree(alpha)``: its initial
set S, then the rule) runs prequentially and uses L labels.  The same Hoeffding tree (information
gain, Laplace leaves) then runs with Random, VarUncertainty and ConfTree at the budget
B = L / n, the query rate the Frugal tree ended with (a budget caps the rate at every instant:
``queried + 1 <= B * seen``), and once with every label.  Because the budget spreads the random
labels evenly while the Frugal tree takes most of its labels early (S, then an untrained tree
is uncertain everywhere), a fourth baseline takes the *first* L labels of the stream and no
more ("First L"): it separates "which labels" from "when".  Error is the prequential error over the
whole stream (every instance predicted, labelled or not), as in 000's ACTIVE protocol.

Streams: SEA (a new stream per seed), the shipped Adult and Electricity, each shuffled by the
seed (so that the rows are exchangeable and the seeds give independent replications).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ._common import COLOR, mean_ci, sizes

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


def run(stream_names=STREAMS, alphas=None, *, fast: bool | None = None) -> pd.DataFrame:
    """One row per (stream, seed, alpha, method): labels used, their share, prequential error."""
    from ... import active, evaluate
    from ...learners import FrugalHoeffdingTree, HoeffdingTree

    s = sizes(fast)
    alphas = s.fair_alphas if alphas is None else tuple(alphas)
    rows = []
    jobs = [(name, seed) for name in stream_names for seed in range(s.fair_seeds)]
    for name, seed in tqdm(jobs, desc="Frugal vs 000's strategies", leave=False):
        X, y, nominal = _stream(name, seed, s.fair_rows, s.fair_sea)
        n = len(y)
        common = dict(n_features=X.shape[1], n_classes=2, nominal_features=nominal,
                      criterion="info_gain", leaf_prediction="laplace")  # fmt: skip
        full = evaluate.prequential(HoeffdingTree(**common), X, y, keep_predictions=False)
        rows.append(dict(stream=name, seed=seed, alpha=np.nan, method="every label",
                         labels=n, share=1.0, error=1 - full.accuracy))  # fmt: skip
        for a in alphas:
            res = evaluate.prequential(FrugalHoeffdingTree(alpha=a, **common), X, y,
                                       keep_predictions=False)  # fmt: skip
            L = res.labels_used
            rows.append(dict(stream=name, seed=seed, alpha=a, method="Frugal", labels=L,
                             share=L / n, error=1 - res.accuracy))  # fmt: skip
            rows.append(dict(stream=name, seed=seed, alpha=a, method="First L", labels=L,
                             share=L / n, error=_first_l_error(common, X, y, L)))  # fmt: skip
            budget = max(L / n, 1.0 / n)
            for strat in STRATEGIES:
                st = active.STRATEGIES[strat](budget=budget, seed=1000 + seed)
                r = evaluate.prequential(HoeffdingTree(**common), X, y, strategy=st,
                                         keep_predictions=False)  # fmt: skip
                rows.append(dict(stream=name, seed=seed, alpha=a, method=strat,
                                 labels=r.labels_used, share=r.labels_used / n,
                                 error=1 - r.accuracy))  # fmt: skip
    return pd.DataFrame(rows)


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


def paired(runs: pd.DataFrame, against: str = "Random") -> pd.DataFrame:
    """Per (stream, alpha): mean labels share of both, and the error of Frugal minus that of
    ``against`` on the same seed, with its 95% t interval over seeds and a verdict."""
    out = []
    for (name, a), g in runs.dropna(subset=["alpha"]).groupby(["stream", "alpha"]):
        f = g[g.method == "Frugal"].set_index("seed")
        o = g[g.method == against].set_index("seed")
        d = (f.error - o.error).dropna().round(12)
        m, h = mean_ci(d)
        if not np.isfinite(h):
            verdict = "one seed"
        elif m + h < 0:
            verdict = "Frugal better"
        elif m - h > 0:
            verdict = f"{against} better"
        else:
            verdict = "no difference shown"
        out.append({"stream": name, "alpha": a, "Frugal share": f.share.mean(),
                    f"{against} share": o.share.mean(), "Frugal error": f.error.mean(),
                    f"{against} error": o.error.mean(), "difference": m, "± 95%": h,
                    "seeds": len(d), "verdict": verdict})  # fmt: skip
    return pd.DataFrame(out).set_index(["stream", "alpha"])


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


def verdict(table: pd.DataFrame, against: str = "Random") -> str:
    """How many (stream, alpha) cells favour which, in one Markdown sentence."""
    counts = table.verdict.value_counts()
    parts = [f"{v}: {c}" for v, c in counts.items()]
    return (
        f"Frugal minus {against}, paired by seed, over {len(table)} (stream, alpha) cells: "
        + "; ".join(parts)
        + "."
    )
