"""Figures 1 and 14 (random-tree streams) and Figures 2-13 (real data sets, shuffled and not):
prequential error of VFDT and EFDT over the stream, with CPU time."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._common import COLOR, LEARNERS, make, sizes, timed_prequential

CLASSES = (2, 3, 4, 5)


def _rt(n, seed, n_classes):
    from ... import streams

    return streams.random_tree(
        n,
        seed=seed,
        tree_seed=seed,
        n_classes=n_classes,
        n_nominal=5,
        n_numeric=0,
        n_values=5,
        return_info=True,
    )


#: the two pairs of Figures 1 and 14: 004's own code (kdd2018) and MOA's port (our defaults)
REFERENCES = {"kdd2018": "004's code (kdd2018)", "moa": "MOA's port"}
WINDOW = 1000  # MOA's windowed evaluator (EvaluatePrequential -f 1000 in 004's scripts)


def _warm_up():
    """One small untimed run of each learner, so that no CPU time below includes loading the
    compiled kernels."""
    X, y, info = _rt(2000, 1, 2)
    for learner in LEARNERS:
        for ref in REFERENCES:
            model = make(learner, X.shape[1], 2, info.nominal_features, reference=ref)
            timed_prequential(model, X, y)


def random_tree_runs(n: int, n_streams: int, progress: bool = True, references=tuple(REFERENCES)):
    """Prequential error of VFDT and EFDT, under each reference (004's code, MOA's port), on
    ``n_streams`` random-tree streams (5 nominal attributes of 5 values, MOA's generator) per
    number of classes 2-5.  Returns (curves, runs): curves has (pair, learner, classes,
    stream, t, error, window_error), with a point every 1,000 instances and the error over
    that window of 1,000 (MOA's windowed evaluator, what 004's scripts plot); runs one row per
    run with the total error and CPU seconds."""
    from tqdm.auto import tqdm

    curves, runs = [], []
    _warm_up()
    jobs = [(k, s) for k in CLASSES for s in range(n_streams)]
    for k, s in tqdm(jobs, desc="streams", disable=not progress):
        X, y, info = _rt(n, 100 + s, k)
        for ref in references:
            for learner in LEARNERS:
                model = make(learner, X.shape[1], k, info.nominal_features, reference=ref)
                res, cpu = timed_prequential(
                    model, X, y, n_points=max(n // WINDOW, 1), window=WINDOW
                )
                key = dict(pair=REFERENCES[ref], learner=learner, classes=k, stream=s)
                curves.append(
                    pd.DataFrame(
                        dict(key, t=res.t, error=1 - res.curve, window_error=1 - res.window_curve)
                    )
                )
                runs.append(
                    dict(key, n=n, error=1 - res.accuracy, cpu_seconds=cpu, leaves=model.n_leaves)
                )
    return pd.concat(curves, ignore_index=True), pd.DataFrame(runs)


def figure_1(fast: bool | None = None, progress: bool = True):
    s = sizes(fast)
    return random_tree_runs(s.fig1_n, s.fig1_streams, progress)


def figure_14(fast: bool | None = None, progress: bool = True):
    s = sizes(fast)
    return random_tree_runs(s.fig14_n, 1, progress)


def plot_random_tree(curves: pd.DataFrame, runs: pd.DataFrame, title: str, windowed=False):
    """One row of panels per pair (004's code, MOA's port), one panel per learner, one line
    per number of classes (mean over streams); the legend gives CPU seconds T (mean per run)
    and total error E, as 004's Figure 1 does.  ``windowed``: the error over each window of
    1,000 instances on a log scale (Figure 14, as 004's scripts plot it) instead of the
    cumulative error."""
    import matplotlib.pyplot as plt

    pairs = list(dict.fromkeys(curves.pair))
    fig, axes = plt.subplots(len(pairs), 2, figsize=(12, 4.4 * len(pairs)), sharey=True,
                             squeeze=False)  # fmt: skip
    cmap = plt.get_cmap("viridis")
    col = "window_error" if windowed else "error"
    for row, pair in zip(axes, pairs):
        for ax, learner in zip(row, LEARNERS):
            for i, k in enumerate(CLASSES):
                sel = (curves.pair == pair) & (curves.learner == learner) & (curves.classes == k)
                m = curves[sel].groupby("t")[col].mean()
                r = runs[(runs.pair == pair) & (runs.learner == learner) & (runs.classes == k)]
                y = m.values.clip(min=0.5 / WINDOW) if windowed else m.values
                ax.plot(m.index, y, color=cmap(i / 3.5), lw=0.9 if windowed else 1.5,
                        label=f"{k} classes: T={r.cpu_seconds.mean():.2f} s, E={r.error.mean():.3f}")  # fmt: skip
            ax.set_title(f"{learner}, {pair}")
            ax.set_xlabel("instances")
            ax.set_xscale("log")
            if windowed:
                ax.set_yscale("log")
            ax.grid(alpha=0.3)
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8,
                      frameon=False)  # fmt: skip
        row[0].set_ylabel(
            "error over each window of 1,000 (0 drawn at 0.0005)"
            if windowed
            else "prequential error (cumulative)"
        )
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def random_tree_summary(runs: pd.DataFrame, curves: pd.DataFrame, last: int = 10) -> pd.DataFrame:
    """Per pair and number of classes: total error E, the error over the last ``last`` windows
    of 1,000 of both learners (MOA's windowed evaluator), their ratio and the CPU ratio.  An
    EFDT without an error in those windows counts as one error: the ratio is then a floor."""
    last_ts = np.sort(curves.t.unique())[-last:]
    tail = (
        curves[curves.t.isin(last_ts)].groupby(["pair", "learner", "classes"]).window_error.mean()
    )
    tot = runs.groupby(["pair", "learner", "classes"])[["error", "cpu_seconds"]].mean()
    floor = 1 / (WINDOW * last)
    out = []
    for pair in dict.fromkeys(runs.pair):
        for k in CLASSES:
            v, e = tot.loc[(pair, "VFDT", k)], tot.loc[(pair, "EFDT", k)]
            tv, te = tail[(pair, "VFDT", k)], tail[(pair, "EFDT", k)]
            out.append(
                {
                    "pair": pair,
                    "classes": k,
                    "VFDT E": v.error,
                    "EFDT E": e.error,
                    f"VFDT error, last {last} windows": tv,
                    f"EFDT error, last {last} windows": te,
                    "last-windows ratio VFDT/EFDT": max(tv, floor) / max(te, floor),
                    "EFDT error-free there": bool(te == 0),
                    "CPU ratio EFDT/VFDT": e.cpu_seconds / v.cpu_seconds,
                }
            )
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------- Figures 2-13
#: 004's data sets that the workbench can load (when cached), then the two it ships
PAPER_SETS = {
    "kdd99": "Figure 2",
    "poker": "Figure 3",
    "covertype": "Figure 5",
    "skin": "Figure 6",
    "higgs": "Figure 11",
    "hepmass": "Figure 12",
    "susy": "Figure 13",
}
SHIPPED = {"electricity": "not in 004", "adult": "not in 004"}


def available_sets() -> pd.DataFrame:
    """Which of 004's data sets are on this machine; the shipped ones always are."""
    from ... import streams

    table = streams.list_datasets().set_index("name")
    rows = []
    for name, fig in {**PAPER_SETS, **SHIPPED}.items():
        cached = name in SHIPPED or bool(table.loc[name, "cached"])
        rows.append({"data set": name, "004": fig, "available": cached})
    return pd.DataFrame(rows)


def _load(name: str, rows: int | None):
    from ... import streams

    X, y, info = getattr(streams, name)(return_info=True)
    if rows is not None:
        X, y = X[:rows], y[:rows]
    return X, y, info


def real_runs(fast: bool | None = None, progress: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Prequential error of VFDT and EFDT on each available data set, unshuffled and under
    ``real_shuffles`` seeded shuffles.  Returns (curves, runs)."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    names = [r["data set"] for _, r in available_sets().iterrows() if r.available]
    curves, runs = [], []
    jobs = [(name, sh) for name in names for sh in range(-1, s.real_shuffles)]
    loaded = {}
    for name, sh in tqdm(jobs, desc="runs", disable=not progress):
        if name not in loaded:
            loaded[name] = _load(name, s.real_rows)
        X, y, info = loaded[name]
        if sh >= 0:
            order = np.random.default_rng(sh).permutation(len(y))
            X, y = X[order], y[order]
        k = int(info.n_classes or y.max() + 1)
        for learner in LEARNERS:
            model = make(learner, X.shape[1], k, info.nominal_features or ())
            res, cpu = timed_prequential(model, X, y, n_points=200)
            order_name = "unshuffled" if sh < 0 else "shuffled"
            curves.append(
                pd.DataFrame(
                    dict(
                        data=name,
                        order=order_name,
                        shuffle=sh,
                        learner=learner,
                        t=res.t,
                        error=1 - res.curve,
                    )
                )
            )
            runs.append(
                dict(
                    data=name,
                    order=order_name,
                    shuffle=sh,
                    learner=learner,
                    n=len(y),
                    error=1 - res.accuracy,
                    cpu_seconds=cpu,
                    leaves=model.n_leaves,
                )
            )
    return pd.concat(curves, ignore_index=True), pd.DataFrame(runs)


def plot_real(curves: pd.DataFrame):
    """One row of panels per data set: shuffled (mean and min-max band over shuffles) and
    unshuffled prequential error."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(curves.data))
    fig, axes = plt.subplots(len(names), 2, figsize=(12, 3.2 * len(names)), squeeze=False)
    for row, name in zip(axes, names):
        for ax, order in zip(row, ("shuffled", "unshuffled")):
            c = curves[(curves.data == name) & (curves.order == order)]
            for learner in LEARNERS:
                g = c[c.learner == learner].groupby("t").error
                m = g.mean()
                ax.plot(m.index, m.values, color=COLOR[learner], label=learner)
                if order == "shuffled":
                    ax.fill_between(
                        m.index, g.min().values, g.max().values, color=COLOR[learner], alpha=0.2
                    )
            ax.set_title(f"{name}, {order}")
            ax.set_xlabel("instances")
            ax.set_ylabel("prequential error")
            ax.grid(alpha=0.3)
            ax.legend(loc="upper right")
    fig.tight_layout()
    return fig


def real_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per data set and order: mean error of both learners, the winner, and the CPU ratio."""
    g = runs.groupby(["data", "order", "learner"])[["error", "cpu_seconds"]].mean().unstack()
    out = pd.DataFrame(
        {
            "VFDT error": g[("error", "VFDT")],
            "EFDT error": g[("error", "EFDT")],
            "EFDT - VFDT (pp)": 100 * (g[("error", "EFDT")] - g[("error", "VFDT")]),
            "CPU ratio EFDT/VFDT": g[("cpu_seconds", "EFDT")] / g[("cpu_seconds", "VFDT")],
        }
    )
    out["lower error"] = np.where(out["EFDT - VFDT (pp)"] < 0, "EFDT", "VFDT")
    return out.reset_index()


# ---------------------------------------------------------------------------- drift
def two_concepts(n1: int, n2: int, seed: int = 0):
    """Three uniform features; y = [x0 > 0.5] for n1 rows, then y = [x1 > 0.5] for n2 rows."""
    rng = np.random.default_rng(seed)
    X = rng.random((n1 + n2, 3))
    y = np.where(np.arange(n1 + n2) < n1, X[:, 0] > 0.5, X[:, 1] > 0.5).astype(np.int64)
    return X, y


def drift_run(n1: int = 10_000, n2: int = 150_000, seed: int = 0):
    """'Some inbuilt tolerance to drift' on :func:`two_concepts`.  Returns curves (learner, t,
    window_error), the instance at which EFDT's root came to test x1 (None if it did not), and
    the instance of the change."""
    X, y = two_concepts(n1, n2, seed)
    curves, switched = [], None
    for learner in LEARNERS:
        model = make(learner, 3, 2)
        res, _ = timed_prequential(model, X, y, n_points=400, window=2000)
        curves.append(
            pd.DataFrame(dict(learner=learner, t=res.t, window_error=1 - res.window_curve))
        )
        if learner == "EFDT" and model.tree.feature[model.root] == 1:
            switched = int(model.tree.t_split[model.root])
    return pd.concat(curves, ignore_index=True), switched, n1


def drift_recovery(curves: pd.DataFrame, n1: int, span: int = 20_000) -> pd.DataFrame:
    """Mean sliding-window error of each learner over the ``span`` instances after the change,
    and the first instance after it at which its window error is back below 1%."""
    rows = []
    for learner, c in curves.groupby("learner"):
        after = c[(c.t > n1) & (c.t <= n1 + span)]
        back = c[(c.t > n1 + 2000) & (c.window_error < 0.01)]
        rows.append(
            {
                "learner": learner,
                f"mean error, {span:,} after": after.window_error.mean(),
                "back below 1% at": int(back.t.iloc[0]) if len(back) else None,
            }
        )
    return pd.DataFrame(rows)
