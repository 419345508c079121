r"""001 Figure 6: test risk against labels on real data, pool and test halves, until the pool is
exhausted, for BOCT, BOCT-AL, the Hoeffding baseline and a C4.5-like tree.

The C4.5-like baseline is scikit-learn's ``DecisionTreeClassifier(criterion="entropy")`` refitted
on the labels received so far.  It differs from Quinlan's C4.5: binary splits only, no gain ratio
(plain information gain), no pessimistic-error pruning, no special handling of missing values.
It is refitted every ``c45_every`` labels on fewer runs (it is outside the speed target).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...evaluate.pool import pool_runs
from ._common import COLOR, STYLE, RunCache, sizes

SUBSAMPLE = 600  # rows taken from the larger data sets (adult, electricity): pools of 300


def dataset(name, seed=0):
    """(X, y) of a Figure 6 data set: ``pima`` (cached only), ``breast_cancer``, or a
    ``SUBSAMPLE``-row sample of ``adult`` (numeric columns) / ``electricity``."""
    from ... import streams

    if name == "pima":
        X, y = streams.pima()
    elif name == "breast_cancer":
        X, y = streams.breast_cancer()
    elif name in ("adult", "electricity"):
        X, y = getattr(streams, name)()
        rng = np.random.default_rng(seed)
        keep = np.isfinite(X).all(axis=1)
        idx = rng.choice(np.flatnonzero(keep), SUBSAMPLE, replace=False)
        X, y = X[idx], y[idx]
    else:
        raise ValueError(f"unknown data set {name!r}")
    return np.asarray(X, float), np.asarray(y)


def available(names):
    """The names whose data need no download (pima only when cached)."""
    from ...streams import list_datasets

    out = []
    for n in names:
        if n == "pima":
            table = list_datasets()
            if "pima" in table.index and bool(table.loc["pima", "cached"]):
                out.append(n)
        else:
            out.append(n)
    return out


def pool_grids(n):
    """Starting grids and ranges of the pool tuning: ``{learner: (grid, limits)}`` (BOCT-AL's
    delta is BOCT's chosen one; only its delta2 is searched)."""
    cred = [float(v) for v in np.geomspace(1e-3, 0.45, n)]
    hoef = [float(v) for v in np.geomspace(1e-3, 0.9, n)]
    return {
        "BOCT": ({"delta": cred}, {"delta": (0.0, 0.5)}),
        "Hoeffding": ({"delta": hoef}, {"delta": (0.0, 1.0)}),
        "BOCT-AL": ({"delta2": [0.01, 0.1, 0.4]}, {"delta2": (0.0, 1.0)}),
    }


class PoolRuns(RunCache):
    """The test-risk curves of the pool protocol on one data set at one seed and size, each
    setting run once; :meth:`runs` gives ``(risk, leaves)``, each ``[n_runs, n_pool + 1]``."""

    def __init__(self, X, y, n_runs, seed, n_jobs=None, progress=None):
        super().__init__(progress)
        self.X, self.y, self.n_runs, self.seed, self.n_jobs = X, y, n_runs, seed, n_jobs

    def _run(self, learner, setting):
        return pool_runs(
            self.X,
            self.y,
            learner,
            n_runs=self.n_runs,
            seed=self.seed,
            n_jobs=self.n_jobs,
            **setting,
        )


def tune_pool_learners(runs: PoolRuns, n_grid, refine=2) -> dict:
    """``{learner: claims.Tuned}``: BOCT's and the Hoeffding baseline's delta, then BOCT-AL's
    delta2 at BOCT's delta; the criterion is the mean test risk over the whole curve."""
    from ... import claims

    g = pool_grids(n_grid)
    out = {}
    for learner in ("BOCT", "Hoeffding"):
        grid, limits = g[learner]
        out[learner] = claims.tune(
            lambda learner=learner, **kw: float(runs.risk(learner, **kw).mean()),
            grid,
            limits=limits,
            refine=refine,
        )
    d = out["BOCT"].best["delta"]
    grid, limits = g["BOCT-AL"]
    out["BOCT-AL"] = claims.tune(
        lambda **kw: float(runs.risk("BOCT-AL", delta=d, **kw).mean()),
        grid,
        limits=limits,
        refine=refine,
    )
    out["BOCT-AL"].best = {"delta": d, **out["BOCT-AL"].best}
    return out


def tune_pool(X, y, n_grid=None, n_runs=None, seed=1000, progress=True, name="", refine=None):
    """Grid search of delta (and delta2 for BOCT-AL) on runs with other seeds; the criterion is
    the mean test risk over the whole curve.  Grids are extended while their best value lies at
    an end and refined around it; ``chosen`` marks the best per learner and ``edge`` says why
    it lies at the edge of its grid (empty: it does not).  ``progress``: a bar counting the
    settings run (tqdm), labelled with the data set's ``name``; ``refine``: refinement rounds
    (default: the mode's)."""
    s = sizes()
    label = (f"tuning on {name}" if name else "tuning") if progress else None
    runs = PoolRuns(X, y, n_runs or s.pool_tune_runs, seed, progress=label)
    tuned = tune_pool_learners(
        runs, n_grid or s.pool_grid, refine=s.refine if refine is None else refine
    )
    runs.close()
    frames = []
    for learner, t in tuned.items():
        f = t.table.rename(columns={"score": "mean_risk"})
        if learner == "BOCT-AL":
            f.insert(0, "delta", t.best["delta"])
        f.insert(0, "learner", learner)
        f["chosen"] = np.all([f[k] == v for k, v in t.best.items()], axis=0)
        f["edge"] = np.where(f.chosen, "; ".join(v for v in t.edges.values() if v), "")
        frames.append(f)
    cols = ["learner", "delta", "delta2", "mean_risk", "chosen", "edge"]
    return pd.concat(frames, ignore_index=True).reindex(columns=cols)


def best_settings(tuning):
    """``{learner: {"delta": ..., "delta2": ...}}``: the lowest mean risk per learner."""
    out = {}
    for name, grp in tuning.groupby("learner", sort=False):
        b = grp.loc[grp.mean_risk.idxmin()]
        out[name] = dict(
            delta=float(b.delta), **({} if b.delta2 != b.delta2 else {"delta2": float(b.delta2)})
        )
    return out


def c45_curve(X, y, n_runs=None, every=None, seed=0):
    """Test risk of the C4.5-like tree refitted every ``every`` labels (random order)."""
    from sklearn.tree import DecisionTreeClassifier

    s = sizes()
    n_runs = n_runs or s.c45_runs
    every = every or s.c45_every
    rng = np.random.default_rng(seed)
    n = len(y)
    n_pool = int(round(0.5 * n))
    ts = np.unique(np.r_[np.arange(every, n_pool + 1, every), n_pool])
    risk = np.zeros((n_runs, len(ts)))
    classes = np.unique(y)
    for r in range(n_runs):
        perm = rng.permutation(n)
        pool, test = perm[:n_pool], perm[n_pool:]
        for k, t in enumerate(ts):
            lab = pool[:t]
            if len(np.unique(y[lab])) < 2:
                pred = np.full(len(test), y[lab][0] if t else classes[-1])
            else:
                pred = (
                    DecisionTreeClassifier(criterion="entropy", random_state=0)
                    .fit(X[lab], y[lab])
                    .predict(X[test])
                )
            risk[r, k] = np.mean(pred != y[test])
    return pd.DataFrame(
        dict(
            learner="C4.5-like",
            n_labels=ts,
            risk=risk.mean(0),
            risk_se=risk.std(0, ddof=1) / np.sqrt(n_runs) if n_runs > 1 else np.nan,
            leaves=np.nan,
        )
    )


def fig6(name, settings=None, n_runs=None, seed=0, with_c45=True, progress=False):
    """The curves of one panel of Figure 6 (tidy, with a ``dataset`` column); ``progress``: a
    bar counting the curves done (tqdm)."""
    from tqdm.auto import tqdm

    s = sizes()
    n_runs = n_runs or s.pool_runs
    X, y = dataset(name)
    settings = settings or {}
    frames = []
    learners = ("BOCT", "BOCT-AL", "Hoeffding")
    bar = tqdm(
        total=len(learners) + bool(with_c45), desc=f"Figure 6 on {name}", disable=not progress
    )
    for learner in learners:
        kw = settings.get(learner, {})
        risk, leaves = pool_runs(X, y, learner, n_runs=n_runs, seed=seed, **kw)
        frames.append(
            pd.DataFrame(
                dict(
                    learner=learner,
                    n_labels=np.arange(risk.shape[1]),
                    risk=risk.mean(0),
                    risk_se=risk.std(0, ddof=1) / np.sqrt(n_runs),
                    leaves=leaves.mean(0),
                )
            )
        )
        bar.update()
    if with_c45:
        frames.append(c45_curve(X, y, seed=seed))
        bar.update()
    bar.close()
    out = pd.concat(frames, ignore_index=True)
    out.insert(0, "dataset", name)
    return out


def plot_fig6(curves):
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(curves.dataset))
    fig, axes = plt.subplots(1, len(names), figsize=(6 * len(names), 4.2), squeeze=False)
    for ax, name in zip(axes[0], names):
        sub = curves[curves.dataset == name]
        for learner, grp in sub.groupby("learner", sort=False):
            ax.plot(
                grp.n_labels,
                grp.risk,
                label=learner,
                color=COLOR.get(learner),
                ls=STYLE.get(learner, "-"),
                marker="." if learner == "C4.5-like" else None,
            )
        ax.set(xlabel="labelled instances", ylabel="test risk (mean over runs)", title=name)
        ax.legend(loc="best")
    fig.tight_layout()
    return fig
