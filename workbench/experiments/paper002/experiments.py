"""Sections 5 and 6 of the notebook: UFFT against a batch tree on stationary problems (002's
Table 1), SEA with abrupt drifts and Electricity (002's Table 2)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ... import evaluate, learners, streams
from ._common import BATCH, RESULTS, VERSIONS, sizes
from .nodes import N_CLASSES, stationary_stream

PROBLEMS = ("Waveform-21", "Waveform-40", "LED", "Balance")


def _batch_tree():
    from sklearn.tree import DecisionTreeClassifier

    return DecisionTreeClassifier(criterion="entropy", random_state=0)


def stationary(fast: bool | None = None, problems=PROBLEMS, progress: bool = True) -> pd.DataFrame:
    """002's Table 1 protocol: training sets of growing size from one generator, a fixed test
    set of another seed; the three UFFT versions (one pass) and scikit-learn's entropy tree
    (batch, grown until pure) on the same rows: test error, training seconds, tree size (UFFT:
    mean nodes per pairwise tree, as the paper reports for its forests; the batch tree: nodes)."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    rows = []
    jobs = [(p, n) for p in problems for n in s.train_sizes]
    for problem, n in tqdm(jobs, desc="stationary", disable=not progress):
        X, y = stationary_stream(problem, max(s.train_sizes), 1)
        Xt, yt = stationary_stream(problem, s.test_n, 2)
        Xn, yn = X[:n], y[:n]
        for name, kw in VERSIONS.items():
            m = learners.UFFT(n_classes=N_CLASSES[problem], **kw)
            t0 = time.perf_counter()
            m.fit(Xn, yn)
            sec = time.perf_counter() - t0
            rows.append(
                {
                    "problem": problem,
                    "train rows": n,
                    "learner": name,
                    "test error": float(np.mean(m.predict(Xt) != yt)),
                    "train seconds": sec,
                    "tree size": m.tree_size(),
                    "drifts": m.drift_counts()["drifts"],
                }
            )
        b = _batch_tree()
        t0 = time.perf_counter()
        b.fit(Xn, yn)
        sec = time.perf_counter() - t0
        rows.append(
            {
                "problem": problem,
                "train rows": n,
                "learner": BATCH,
                "test error": float(np.mean(b.predict(Xt) != yt)),
                "train seconds": sec,
                "tree size": float(b.tree_.node_count),
                "drifts": 0,
            }
        )
    return pd.DataFrame(rows)


def plot_stationary(df: pd.DataFrame, column: str = "test error"):
    import matplotlib.pyplot as plt

    from ._common import COLOR

    problems = list(dict.fromkeys(df.problem))
    fig, axes = plt.subplots(1, len(problems), figsize=(3.6 * len(problems), 3.4), squeeze=False)
    for ax, problem in zip(axes[0], problems):
        sub = df[df.problem == problem]
        for name in dict.fromkeys(sub.learner):
            g = sub[sub.learner == name]
            ax.plot(g["train rows"], g[column], marker="o", color=COLOR.get(name), label=name)
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
    fig.legend(handles, labels, loc="lower center", ncol=4, bbox_to_anchor=(0.5, -0.08))
    fig.tight_layout()
    return fig


def sea_drift(fast: bool | None = None, progress: bool = True) -> pd.DataFrame:
    """SEA with abrupt drifts (concepts 0, 1, 2, 3, each a quarter of the stream, 10% label
    noise): prequential error of UFFT without drift detection and with it at two confidence
    levels (drift at p_min + 3 s_min, DDM's, and at p_min + 2.33 s_min, the one-sided 99%
    quantile; warning at 2 s_min in both), one row per run."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    settings = {
        "no drift detection": dict(drift_detection=False),
        "DDM, drift at 3 s (99.87%)": dict(ddm_drift=3.0),
        "DDM, drift at 2.33 s (99%)": dict(ddm_drift=2.33),
    }
    rows = []
    for run in tqdm(range(s.sea_runs), desc="SEA runs", disable=not progress):
        X, y = streams.sea(s.sea_n, seed=1000 + run, concepts=(0, 1, 2, 3))
        q = s.sea_n // 4
        for name, kw in settings.items():
            m = learners.UFFT(n_classes=2, **kw)
            res = evaluate.prequential(m, X, y)
            wrong = res.predictions != y
            rows.append(
                {
                    "setting": name,
                    "run": run,
                    "error": float(wrong.mean()),
                    "error after the drifts (first 2,000 rows of each new concept)": float(
                        np.mean([wrong[k * q : k * q + 2000].mean() for k in (1, 2, 3)])
                    ),
                    "drifts": m.drift_counts()["drifts"],
                }
            )
    return pd.DataFrame(rows)


def sea_summary(df: pd.DataFrame) -> pd.DataFrame:
    g = df.groupby("setting", sort=False)
    out = g.mean(numeric_only=True).drop(columns="run")
    out["error sd"] = g["error"].std()
    out["runs"] = g.size()
    return out


ROWS_PER_DAY = 48


def electricity_windows(fast: bool | None = None, progress: bool = True) -> pd.DataFrame:
    """002's Electricity design: predict the last day (48 rows) and the last week (336 rows)
    of the shipped file (no date column: days are cut by row count) from the rows before them:

    * the batch tree on all past rows, and on the last year (365 days) of them (the paper's two
      heuristics, its upper bounds);
    * UFFT trained in one pass over all past rows, with and without drift detection;
    * the batch tree on the best window ``[start, test)`` found by trying every start day
      (every ``elec_window_step_days`` days in quick mode): the paper's lower bound.
    """
    from tqdm.auto import tqdm

    s = sizes(fast)
    X, y = streams.electricity()
    n = X.shape[0]
    rows = []
    for horizon, days in (("day", 1), ("week", 7)):
        test0 = n - days * ROWS_PER_DAY
        Xtr, ytr, Xte, yte = X[:test0], y[:test0], X[test0:], y[test0:]

        def batch_error(start, Xtr=Xtr, ytr=ytr, Xte=Xte, yte=yte):
            b = _batch_tree().fit(Xtr[start:], ytr[start:])
            return float(np.mean(b.predict(Xte) != yte))

        rows.append(
            {
                "test": horizon,
                "method": "batch tree, all past data",
                "error": batch_error(0),
                "train rows": test0,
            }
        )
        year = max(0, test0 - 365 * ROWS_PER_DAY)
        rows.append(
            {
                "test": horizon,
                "method": "batch tree, last year",
                "error": batch_error(year),
                "train rows": test0 - year,
            }
        )
        for name, kw in (
            ("UFFT, drift detection", {}),
            ("UFFT, no drift detection", dict(drift_detection=False)),
        ):
            m = learners.UFFT(n_classes=2, **kw).fit(Xtr, ytr)
            rows.append(
                {
                    "test": horizon,
                    "method": name,
                    "error": float(np.mean(m.predict(Xte) != yte)),
                    "train rows": test0,
                    "drifts": m.drift_counts()["drifts"],
                }
            )
        step = s.elec_window_step_days * ROWS_PER_DAY
        starts = list(range(0, test0 - ROWS_PER_DAY, step))
        errs = [
            batch_error(st)
            for st in tqdm(starts, desc=f"windows ({horizon})", disable=not progress)
        ]
        k = int(np.argmin(errs))
        rows.append(
            {
                "test": horizon,
                "method": "batch tree, best window (lower bound)",
                "error": errs[k],
                "train rows": test0 - starts[k],
                "windows tried": len(starts),
            }
        )
    return pd.DataFrame(rows)


def stored(name: str) -> pd.DataFrame:
    """A table of the full run, stored under ``results/`` by :func:`store`."""
    return pd.read_csv(RESULTS / f"{name}.csv")


def store(df: pd.DataFrame, name: str) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    df.to_csv(RESULTS / f"{name}.csv", index=False)
