"""Notebook 06, *your own bound*: the runners and plots behind it.

The notebook writes its bounds, criteria and query rules itself (that is its subject); the
functions here take them as arguments, grow trees with them on RandCBT streams (000's Algorithm 4,
whose Bayes error is known), and tabulate and draw the results.  Nothing here is specific to the
functions the notebook writes.

* :func:`bit_for_bit`: a built-in learner and its user copy, compared array for array.
* :func:`grow`: learners x seeds on RandCBT; per run the prequential accuracy, the disagreement
  with the Bayes classifier on a held-out sample (the excess error over the Bayes error is
  ``|2q - 1|`` times it), the leaves, and the instance at which the root split.
* :func:`summary`, :func:`paired`: means with 95% t-intervals, and a paired comparison of two
  learners over the same seeds (Wilcoxon's signed-rank test).
* :func:`plot_accuracy_vs_size`, :func:`plot_first_split`.
* :func:`active_runs`: query strategies (built-in or :class:`workbench.active.Custom`) on the
  same streams in the ACTIVE setting.

Sections 6-8 (a split rule, a grace schedule and data-dependent bounds of one's own):

* :func:`grow_on`: learners x seeds on RandCBT, SEA, Waveform-21 or MOA's RandomTree, with
  the split attempts each tree made (:func:`attempts`) and its CPU time.
* :func:`intervals`, :func:`ratios`: means with 95% t-intervals per learner, and each learner's
  per-seed ratio to a baseline's.
* :func:`plot_by_learner`, :func:`plot_ratios`, :func:`plot_radii`.
* :func:`slider`: a slider that redraws a figure or a table for each value (cached).

(The notebook's bounds, and the chi-square quantile its G-test radius needs, are numba functions
the notebook writes itself: this module defines no kernel, so that its edits never make numba
compile the package's kernels again.)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..viz.fast import fast_mode
from .paper000._common import Stopwatch  # noqa: F401  (the notebook's run-time line)


@dataclass(frozen=True)
class Sizes:
    """How large the notebook's experiments are in one mode."""

    n: int  # rows of a RandCBT stream
    holdout: int  # held-out rows drawn from the same concept
    seeds: int  # streams per learner
    trials: int  # Monte Carlo trials per (law, n)
    active_n: int  # rows of the ACTIVE runs
    hooks_n: int  # rows of each stream in sections 6-8 (split rules, schedules, 5-argument bounds)
    hooks_seeds: int  # streams per learner there


FAST = Sizes(
    n=20_000, holdout=5_000, seeds=3, trials=4_000, active_n=10_000, hooks_n=40_000, hooks_seeds=5
)
FULL = Sizes(
    n=200_000,
    holdout=20_000,
    seeds=10,
    trials=40_000,
    active_n=100_000,
    hooks_n=200_000,
    hooks_seeds=10,
)

#: 000's RandCBT as in its Sec. VII-A: 50 leaves over [0, 1]^5, q = 0.7 (Bayes error 0.3)
CBT = dict(n_leaves=50, d=5, q=0.7)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: read ``WORKBENCH_FAST``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    s = sizes(fast)
    mode = "QUICK (WORKBENCH_FAST=1)" if s is FAST else "FULL"
    return (
        f"Mode: {mode}. RandCBT streams of {s.n:,} rows (+{s.holdout:,} held out), {s.seeds} "
        f"seeds per learner; {s.trials:,} Monte Carlo trials per point; ACTIVE runs of "
        f"{s.active_n:,} rows; sections 6-8: {s.hooks_seeds} streams of {s.hooks_n:,} rows each."
    )


def stream(seed: int, n: int, holdout: int, **cbt):
    """A RandCBT stream of ``n`` rows and ``holdout`` more from the same concept (its rows are
    shuffled, so the last ones are an independent sample), with the concept itself."""
    from .. import streams

    X, y, info = streams.rand_cbt(n + holdout, seed=seed, return_info=True, **{**CBT, **cbt})
    return X[:n], y[:n], X[n:], info.tree


def same_arrays(a, b, ignore=()) -> bool:
    """Whether two learners' trees are equal array for array (NaN where NaN), except the
    arrays named in ``ignore``."""
    return all(
        x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f")
        for name, x, y in zip(a.tree._fields, a.tree, b.tree)
        if name not in ignore
    )


def bit_for_bit(pairs: dict, ignore=()) -> pd.DataFrame:
    """``pairs``: {label: (built-in learner, its user copy, X, y)}; each learner learns (X, y)
    test-then-train.  One row per pair: identical predictions, identical tree arrays (but those
    named in ``ignore``), leaves, accuracy."""
    from .. import evaluate

    rows = []
    for label, (a, b, X, y) in pairs.items():
        ra, rb = evaluate.prequential(a, X, y), evaluate.prequential(b, X, y)
        rows.append(
            {
                "learner": label,
                "same predictions": bool(np.array_equal(ra.predictions, rb.predictions)),
                "same tree arrays": same_arrays(a, b, ignore),
                "leaves": a.n_leaves,
                "accuracy": ra.accuracy,
            }
        )
    return pd.DataFrame(rows)


def checks(bounds: list, statistic, **kw) -> pd.DataFrame:
    """:func:`workbench.montecarlo.check_bound` of each bound, one table, a column naming it."""
    from .. import montecarlo

    frames = [
        montecarlo.check_bound(b, statistic, **kw).assign(bound=getattr(b, "__name__", str(b)))
        for b in bounds
    ]
    df = pd.concat(frames, ignore_index=True)
    return df[["bound"] + [c for c in df.columns if c != "bound"]]


def plot_checks(table: pd.DataFrame, ax=None):
    """Violation rate (with its upper confidence limit) against n, per bound and law, one panel
    per delta; the dashed line is delta."""
    import matplotlib.pyplot as plt

    deltas = sorted(table.delta.unique(), reverse=True)
    if ax is None:
        _fig, ax = plt.subplots(1, len(deltas), figsize=(4.2 * len(deltas), 3.4), squeeze=False)
        ax = ax[0]
    for a, d in zip(ax, deltas):
        t = table[table.delta == d]
        for i, ((b, law), r) in enumerate(t.groupby(["bound", "distribution"], sort=False)):
            a.errorbar(
                r.n,
                r.violation_rate,
                yerr=[np.zeros(len(r)), r.upper_limit - r.violation_rate],
                marker="os^vD"[i % 5],
                capsize=2,
                label=f"{b}, {law}",
            )
        a.axhline(d, ls="--", color="k", lw=1)
        a.set_xscale("log")
        a.set_yscale("symlog", linthresh=d / 10)
        a.set_ylim(bottom=0)
        a.set_xlabel("n")
        a.set_title(f"delta = {d:g}")
        a.grid(alpha=0.3)
    ax[0].set_ylabel("violation rate")
    ax[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return ax


def split_choices(bounds: list, delta=0.05, trials=None, seed=1) -> pd.DataFrame:
    """One leaf, two binary attributes of close true information gains (0.53 and 0.50 bits,
    :func:`workbench.montecarlo.split_selection`), VFDT's test every 200 examples up to
    5,000 with each bound: how often the split goes to the worse attribute, with its exact
    (Clopper-Pearson) 95% interval, and the one-sided binomial p-value against delta."""
    from scipy import stats

    from .. import montecarlo

    trials = trials or sizes().trials
    theta = [[0.1, 0.9], [0.11, 0.89]]
    rows = []
    for b in bounds:
        r = montecarlo.split_selection(
            0.5, theta, delta, m_max=5_000, n_min=200, trials=trials, seed=seed, bound=b
        )
        s = r.summary()
        ci = stats.binomtest(s["n_suboptimal"], trials).proportion_ci(0.95, "exact")
        rows.append(
            {
                "bound": getattr(b, "__name__", str(b)),
                "delta": delta,
                "trials": trials,
                "split by 5,000": s["p_split"],
                "median split at": s["median_split_at"],
                "worse attribute": s["p_suboptimal"],
                "95% CI": (round(ci.low, 4), round(ci.high, 4)),
                "p (H0: <= delta)": s["p_value"],
            }
        )
    return pd.DataFrame(rows)


def first_split(model) -> float:
    """The instance at which the root split (NaN if it has not)."""
    t = int(model.tree.t_split[model.root])
    return float(t) if t >= 0 else np.nan


def grow(makers: dict, seeds=None, n=None, holdout=None, progress=True, **cbt) -> pd.DataFrame:
    """Every learner of ``makers`` ({label: function returning a fresh learner for d features})
    on the same RandCBT streams, one per seed.  One row per (learner, seed)."""
    from .. import evaluate

    s = sizes()
    seeds = range(s.seeds) if seeds is None else seeds
    n = s.n if n is None else n
    holdout = s.holdout if holdout is None else holdout
    rows = []
    data = {}
    for seed, label in _each([(seed, label) for seed in seeds for label in makers], progress):
        if seed not in data:
            data[seed] = stream(seed, n, holdout, **cbt)
        X, y, X_test, concept = data[seed]
        model = makers[label](X.shape[1])
        t0 = time.perf_counter()
        res = evaluate.prequential(model, X, y, n_points=50)
        seconds = time.perf_counter() - t0
        bayes = (concept.p1[concept.apply(X_test)] > 0.5).astype(np.int64)
        rows.append(
            {
                "learner": label,
                "seed": seed,
                "accuracy": res.accuracy,
                "disagreement with Bayes": float(np.mean(model.predict(X_test) != bayes)),
                "leaves": model.n_leaves,
                "first split": first_split(model),
                "seconds": seconds,
                "bayes error": concept.bayes_error(),
            }
        )
    return pd.DataFrame(rows)


def _each(jobs: list, progress: bool):
    """The jobs, with a progress bar (tqdm) when asked for."""
    if not progress:
        return jobs
    from tqdm.auto import tqdm

    return tqdm(jobs, unit="runs", leave=False)


def _ci(values) -> tuple[float, float]:
    from scipy import stats

    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    if v.size < 2:
        return (np.nan, np.nan)
    half = stats.t.ppf(0.975, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
    return float(v.mean() - half), float(v.mean() + half)


def summary(runs: pd.DataFrame, order=None) -> pd.DataFrame:
    """Per learner: means with 95% t-intervals of the excess error over the Bayes error and of
    the leaves, and the root's first split (median; how many runs split at all)."""
    rows = []
    for label in order or list(dict.fromkeys(runs.learner)):
        r = runs[runs.learner == label]
        q = float(r["bayes error"].iloc[0])
        excess = abs(1 - 2 * q) * r["disagreement with Bayes"]
        lo, hi = _ci(excess)
        llo, lhi = _ci(r.leaves)
        split = r["first split"]
        rows.append(
            {
                "learner": label,
                "runs": len(r),
                "accuracy": r.accuracy.mean(),
                "excess error": excess.mean(),
                "excess error 95% CI": f"[{lo:.4f}, {hi:.4f}]",
                "leaves": r.leaves.mean(),
                "leaves 95% CI": f"[{llo:.1f}, {lhi:.1f}]",
                "root split at (median)": split.median() if split.notna().any() else np.nan,
                "runs whose root split": int(split.notna().sum()),
            }
        )
    return pd.DataFrame(rows)


def paired(runs: pd.DataFrame, a: str, b: str, metric: str = "disagreement with Bayes") -> dict:
    """Learner ``a`` against ``b`` on the same seeds: the mean of the paired differences
    ``a - b`` of ``metric``, its 95% t-interval, and the two-sided p-value of Wilcoxon's
    signed-rank test (exact for few seeds; NaN when every difference is 0)."""
    from scipy import stats

    x = runs[runs.learner == a].set_index("seed")[metric]
    y = runs[runs.learner == b].set_index("seed")[metric]
    d = (x - y).dropna()
    lo, hi = _ci(d)
    p = float(stats.wilcoxon(d).pvalue) if np.any(d != 0) and len(d) > 1 else np.nan
    return {
        "a": a,
        "b": b,
        "metric": metric,
        "seeds": len(d),
        "mean difference (a - b)": float(d.mean()),
        "95% CI": (lo, hi),
        "a larger in": int((d > 0).sum()),
        "wilcoxon p": p,
    }


def plot_accuracy_vs_size(runs: pd.DataFrame, colors=None, ax=None):
    """Excess error over the Bayes error against leaves, one point per run, the learner's mean
    with its 95% intervals as a cross.  Each learner has its own marker, drawn hollow, so that
    learners whose runs end alike (e.g. roots that never split) stay visible on top of each
    other."""
    import matplotlib.pyplot as plt

    markers = "osD^vPX*"

    if ax is None:
        _fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for i, label in enumerate(dict.fromkeys(runs.learner)):
        r = runs[runs.learner == label]
        q = float(r["bayes error"].iloc[0])
        excess = abs(1 - 2 * q) * r["disagreement with Bayes"]
        c = (colors or {}).get(label, f"C{i}")
        ax.scatter(r.leaves, excess, s=14, alpha=0.45, color=c)
        xlo, xhi = _ci(r.leaves)
        ylo, yhi = _ci(excess)
        ax.errorbar(
            r.leaves.mean(),
            excess.mean(),
            xerr=[[r.leaves.mean() - xlo], [xhi - r.leaves.mean()]] if np.isfinite(xlo) else None,
            yerr=[[excess.mean() - ylo], [yhi - excess.mean()]] if np.isfinite(ylo) else None,
            fmt=markers[i % len(markers)],
            color=c,
            mfc="none",
            mew=1.8,
            ms=7 + 2 * (i % 3),
            capsize=3,
            label=label,
        )
    from matplotlib.ticker import ScalarFormatter

    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.set_xlabel("leaves at the end of the stream (log scale)")
    ax.set_ylabel("excess error over the Bayes error")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return ax


def plot_first_split(runs: pd.DataFrame, n: int, colors=None, ax=None):
    """When the root split, per learner (a run whose root never split is drawn at ``n``)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _fig, ax = plt.subplots(figsize=(7.5, 3.2))
    labels = list(dict.fromkeys(runs.learner))
    for i, label in enumerate(labels):
        t = runs[runs.learner == label]["first split"].to_numpy()
        never = ~np.isfinite(t)
        c = (colors or {}).get(label, f"C{i}")
        ax.scatter(np.where(never, n, t), np.full(t.size, i), color=c, s=20, alpha=0.7)
        if never.any():
            ax.annotate(
                f"{never.sum()} never",
                (n, i),
                xytext=(4, 4),
                textcoords="offset points",
                fontsize=8,
            )
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xscale("log")
    ax.set_xlim(right=n * 2)  # room for the "never" notes beside the points at n
    ax.set_xlabel("instance at which the root split (log scale; never: drawn at the end)")
    ax.grid(alpha=0.3, axis="x")
    return ax


def gain_sd(table) -> float:
    """The asymptotic standard deviation of sqrt(n) (G_hat - G) for the plug-in information gain
    (bits) of a (K, B) law with G > 0: the standard deviation of the pointwise mutual information
    log2(p(y, f) / (p(y) p(f))) (the delta method)."""
    t = np.asarray(table, float)
    t = t / t.sum()
    pmi = np.zeros_like(t)
    pos = t > 0
    outer = t.sum(axis=1, keepdims=True) * t.sum(axis=0, keepdims=True)
    pmi[pos] = np.log2(t[pos] / outer[pos])
    mean = (t * pmi).sum()
    return float(np.sqrt((t * (pmi - mean) ** 2).sum()))


def active_runs(strategies: dict, make_stream=None, seeds=None, n=None, budget=0.3, progress=True):
    """``strategies``: {label: function returning a fresh strategy}; each runs the ACTIVE
    setting (000 Algorithm 3) with a Hoeffding tree on the same streams, ``make_stream(seed, n)
    -> (X, y)`` (default: RandCBT).  One row per (strategy, seed): accuracy, labels used,
    leaves."""
    from .. import evaluate, learners

    s = sizes()
    seeds = range(s.seeds) if seeds is None else seeds
    n = s.active_n if n is None else n
    if make_stream is None:
        make_stream = lambda seed, n: stream(seed, n, 0)[:2]  # noqa: E731
    rows = []
    data = {}
    for seed, label in _each([(seed, label) for seed in seeds for label in strategies], progress):
        if seed not in data:
            data[seed] = make_stream(seed, n)
        X, y = data[seed]
        model = learners.HoeffdingTree(X.shape[1], 2)
        res = evaluate.prequential(model, X, y, strategy=strategies[label](), budget=budget)
        rows.append(
            {
                "strategy": label,
                "seed": seed,
                "accuracy": res.accuracy,
                "labels used": res.labels_used,
                "leaves": model.n_leaves,
            }
        )
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------ sections 6-8


def attempts(model) -> int:
    """The split attempts a tree made, over all its nodes: each node's ``looks`` (a leaf's
    attempts so far; an inner node's attempts as a leaf, the one that split it included).  For
    trees that never remove nodes (EFDT's re-evaluation frees rows and loses their looks)."""
    from ..core import state as st

    T = model.tree
    return int(T.looks[: int(T.meta[st.M_N_NODES])].sum())


#: the streams of :func:`grow_on`: name -> (learner's n_classes, a one-line description)
STREAMS = {
    "RandCBT": (2, "000's RandCBT, 50 leaves over [0, 1]^5, q = 0.7 (Bayes error 0.3)"),
    "SEA": (2, "SEA, concept 0, 10% label noise (Bayes error 0.1)"),
    "Waveform-21": (3, "Waveform, 21 numeric attributes, 3 classes"),
    "RandomTree": (2, "MOA's RandomTree generator, 5 nominal (5 values) and 5 numeric attributes"),
}


def stream_data(name: str, seed: int, n: int):
    """``(X, y, setup, score)`` of stream ``name`` (:data:`STREAMS`) for ``seed``: ``setup`` the
    learner's keywords (n_features, n_classes, nominal_features), ``score(model)`` the excess
    error over the Bayes error on held-out rows for RandCBT (NaN for the others)."""
    from .. import streams

    if name not in STREAMS:
        raise ValueError(f"stream must be one of {list(STREAMS)}; got {name!r}")
    setup = dict(n_classes=STREAMS[name][0])
    score = lambda model: math.nan  # noqa: E731
    if name == "RandCBT":
        s = sizes()
        X, y, X_test, concept = stream(seed, n, s.holdout)
        bayes = (concept.p1[concept.apply(X_test)] > 0.5).astype(np.int64)
        scale = abs(1 - 2 * concept.bayes_error())

        def score(model):
            return scale * float(np.mean(model.predict(X_test) != bayes))

    elif name == "SEA":
        X, y = streams.sea(n, seed=seed)
    elif name == "Waveform-21":
        X, y = streams.waveform(n, seed=seed)
    else:
        X, y, info = streams.random_tree(n, seed=seed, return_info=True)
        setup["nominal_features"] = info.nominal_features
    setup["n_features"] = X.shape[1]
    return X, y, setup, score


def grow_on(
    makers: dict, stream: str = "RandCBT", seeds=None, n=None, progress=True
) -> pd.DataFrame:
    """Every learner of ``makers`` ({label: function of the learner's keywords ``n_features``,
    ``n_classes`` (and ``nominal_features``) returning a fresh learner}) on the same streams,
    one per seed.  One row per (learner, seed): prequential accuracy, excess error over the
    Bayes error (RandCBT; NaN elsewhere), leaves, split attempts, splits, the instance at
    which the root split, and the CPU time of the prequential pass in ms (each learner first
    runs once on 500 rows, untimed, so that no compilation is timed)."""
    from .. import evaluate

    s = sizes()
    seeds = range(s.hooks_seeds) if seeds is None else seeds
    n = s.hooks_n if n is None else n
    rows = []
    data = {}
    warm = set()
    for seed, label in _each([(seed, label) for seed in seeds for label in makers], progress):
        if seed not in data:
            data[seed] = stream_data(stream, seed, n)
        X, y, setup, score = data[seed]
        if label not in warm:
            evaluate.prequential(makers[label](**setup), X[:500], y[:500])
            warm.add(label)
        model = makers[label](**setup)
        t0 = time.thread_time()
        res = evaluate.prequential(model, X, y)
        cpu = time.thread_time() - t0
        rows.append(
            {
                "stream": stream,
                "learner": label,
                "seed": seed,
                "accuracy": res.accuracy,
                "excess error": score(model),
                "leaves": model.n_leaves,
                "attempts": attempts(model),
                "splits": model.summary()["n_splits"],
                "first split": first_split(model),
                "cpu ms": 1e3 * cpu,
            }
        )
    return pd.DataFrame(rows)


def intervals(runs: pd.DataFrame, metrics, digits: int = 4) -> pd.DataFrame:
    """Per stream and learner (in the order of the runs): the number of seeds, and each
    metric's mean with its 95% t-interval over the seeds, as ``mean [low, high]`` text."""
    rows = []
    for (stream_name, label), r in runs.groupby(["stream", "learner"], sort=False):
        row = {"stream": stream_name, "learner": label, "seeds": len(r)}
        for m in metrics:
            lo, hi = _ci(r[m])
            mean = float(np.nanmean(r[m])) if r[m].notna().any() else np.nan
            row[m] = f"{mean:.{digits}g} [{lo:.{digits}g}, {hi:.{digits}g}]"
        rows.append(row)
    return pd.DataFrame(rows)


def ratios(runs: pd.DataFrame, base: str, metrics) -> pd.DataFrame:
    """Each learner against ``base`` on the same seeds: per stream, learner and metric the
    mean of the per-seed ratios learner / base with its 95% t-interval, and in how many seeds
    the ratio is below 1."""
    rows = []
    for stream_name, r in runs.groupby("stream", sort=False):
        b = r[r.learner == base].set_index("seed")
        for label in dict.fromkeys(r.learner):
            if label == base:
                continue
            a = r[r.learner == label].set_index("seed")
            for m in metrics:
                q = (a[m] / b[m]).dropna()
                lo, hi = _ci(q)
                rows.append(
                    {
                        "stream": stream_name,
                        "learner": label,
                        "metric": m,
                        "seeds": len(q),
                        "mean ratio": float(q.mean()),
                        "95% CI low": lo,
                        "95% CI high": hi,
                        "below 1 in": int((q < 1).sum()),
                    }
                )
    return pd.DataFrame(rows)


def plot_by_learner(runs: pd.DataFrame, metrics: dict, axes=None, order=None):
    """One panel per (metric, stream): each learner's mean with its 95% t-interval over the
    seeds, the learners on the x axis in ``order``, the runs as faint dots, the first learner's
    mean as a dashed line.  ``metrics``: {column: axis label}."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(runs.stream))
    order = order or list(dict.fromkeys(runs.learner))
    if axes is None:
        _fig, axes = plt.subplots(
            len(metrics),
            len(names),
            figsize=(5.2 * len(names), 2.6 * len(metrics)),
            squeeze=False,
            sharex=True,
        )
    for j, name in enumerate(names):
        r = runs[runs.stream == name]
        for i, (m, label) in enumerate(metrics.items()):
            a = axes[i][j]
            for x, learner in enumerate(order):
                v = r.loc[r.learner == learner, m].to_numpy(float)
                lo, hi = _ci(v)
                a.scatter(np.full(v.size, x) + 0.12, v, s=10, color="0.6", zorder=1)
                mean = np.nanmean(v)
                err = [[mean - lo], [hi - mean]] if np.isfinite(lo) else None
                a.errorbar(x, mean, yerr=err, fmt="o", color=f"C{x}", capsize=4, zorder=2)
                if x == 0:
                    a.axhline(mean, ls="--", color=f"C{x}", lw=1, zorder=0)
            a.set_xticks(range(len(order)), order, rotation=20, ha="right")
            a.grid(alpha=0.3, axis="y")
            if j == 0:
                a.set_ylabel(label)
            if i == 0:
                a.set_title(name)
    return axes


def plot_ratios(table: pd.DataFrame, ax=None, labels=None):
    """The per-seed ratios of :func:`ratios` (mean and 95% t-interval) per metric, one marker
    per stream, on a log scale with the line of equality at 1."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    if ax is None:
        _fig, ax = plt.subplots(figsize=(9.5, 4.0))
    metrics = list(dict.fromkeys(table.metric))
    names = list(dict.fromkeys(table.stream))
    width = 0.75 / max(1, len(names))
    for k, name in enumerate(names):
        t = table[table.stream == name].set_index("metric").loc[metrics]
        x = np.arange(len(metrics)) + (k - (len(names) - 1) / 2) * width
        lo = (t["mean ratio"] - t["95% CI low"]).clip(lower=0).fillna(0)
        hi = (t["95% CI high"] - t["mean ratio"]).clip(lower=0).fillna(0)
        ax.errorbar(
            x, t["mean ratio"], yerr=[lo, hi], fmt="os^D"[k % 4], capsize=4, label=name, ms=7
        )
        # each mean's value under its interval, centred on its marker
        for xi, v, low in zip(x, t["mean ratio"], t["mean ratio"] - lo):
            ax.annotate(
                f"{v:.2f}",
                (xi, low),
                xytext=(0, -11),
                textcoords="offset points",
                fontsize=8,
                ha="center",
            )
    ax.axhline(1.0, color="k", lw=1, ls="--")
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.set_xticks(range(len(metrics)), [(labels or {}).get(m, m) for m in metrics])
    ax.set_xlim(-0.6, len(metrics) - 0.4)
    ax.grid(alpha=0.3, axis="y", which="both")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax


def plot_radii(curves: dict, n, tau=None, ax=None):
    """Radii against the leaf's weight: ``curves`` {label: array of epsilon at the weights
    ``n``}, log-log, with tau as a horizontal line (where a tie splits)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _fig, ax = plt.subplots(figsize=(7.5, 4.0))
    for i, (label, eps) in enumerate(curves.items()):
        ax.plot(n, eps, label=label, lw=2, ls=["-", "--", "-.", ":"][i % 4], color=f"C{i}")
    if tau is not None:
        ax.axhline(tau, color="k", lw=1)
        ax.annotate(f"tau = {tau:g}", (n[0], tau), xytext=(2, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n, the leaf's weight (log scale)")
    ax.set_ylabel("epsilon, bits (log scale)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return ax


def slider(values, draw, description: str, value=None):
    """A slider over ``values`` (a list of numbers) whose every move shows ``draw(value)`` (a
    matplotlib figure, a table or text) below it; each value is drawn once and kept, so
    moving back is instant."""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from IPython.display import display

    out = widgets.Output()
    pick = widgets.SelectionSlider(
        options=list(values),
        value=values[len(values) // 2] if value is None else value,
        description=description,
        continuous_update=False,
        style={"description_width": "initial"},
        layout=widgets.Layout(width="480px"),
    )
    shown = {}

    def show(change=None):
        v = pick.value
        if v not in shown:
            shown[v] = draw(v)
            if isinstance(shown[v], plt.Figure):
                plt.close(shown[v])
        with out:
            out.clear_output(wait=True)
            display(shown[v])

    pick.observe(show, names="value")
    show()
    return widgets.VBox([pick, out])
