r"""001 Figure 5: exact true risk against labels on the toy problem.

Learners: BOCT, BOCT-AL, mbinomial_8, mbinomial_64 and the Hoeffding baseline, each with its
delta (and delta2) chosen by grid search as the paper does.  The criterion of the grid search is
not given in 001; we take the mean risk over the whole curve (the area under it), computed on
runs with other seeds than the reported ones.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ...evaluate.pool import TOY_LEARNERS as SPECS
from ...evaluate.pool import toy_runs
from ._common import COLOR, STYLE, sizes


def grids(n):
    """The delta grids: log-spaced, credible deltas below 1/2, Hoeffding's below 1."""
    cred = [float(v) for v in np.geomspace(1e-3, 0.45, n)]
    hoef = [float(v) for v in np.geomspace(1e-3, 0.9, n)]
    d2 = [float(v) for v in np.geomspace(1e-3, 0.5, max(2, n // 2))]
    return dict(
        BOCT=[dict(delta=d) for d in cred],
        **{"BOCT-AL": [dict(delta=d, delta2=e) for d, e in itertools.product(cred, d2)]},
        mbinomial_8=[dict(delta2=e) for e in d2],
        mbinomial_64=[dict(delta2=e) for e in d2],
        Hoeffding=[dict(delta=d) for d in hoef],
    )


def tune_toy(n_grid=None, n_runs=None, n_labels=None, seed=1000, progress=True):
    """Grid search of each learner's parameters: one row per (learner, setting) with the mean
    risk over the curve; the best per learner is :func:`best_settings` of it.  ``progress``:
    a bar over the settings (tqdm)."""
    from tqdm.auto import tqdm

    s = sizes()
    n_grid = n_grid or s.toy_grid
    n_runs = n_runs or s.toy_tune_runs
    n_labels = n_labels or s.toy_labels
    jobs = [(name, kw) for name, settings in grids(n_grid).items() for kw in settings]
    rows = []
    for name, kw in tqdm(jobs, desc="tuning on the toy problem", disable=not progress):
        risk, _ = toy_runs(n_runs=n_runs, n_labels=n_labels, seed=seed, **SPECS[name], **kw)
        rows.append(dict(learner=name, **kw, mean_risk=float(risk.mean())))
    return pd.DataFrame(rows)


def best_settings(tuning: pd.DataFrame) -> dict:
    out = {}
    for name, grp in tuning.groupby("learner", sort=False):
        best = grp.loc[grp.mean_risk.idxmin()]
        out[name] = {
            k: float(best[k]) for k in ("delta", "delta2") if k in best and best[k] == best[k]
        }
    return out


def fig5(settings=None, n_runs=None, n_labels=None, seed=0, progress=True):
    """The curves of Figure 5 (tidy: learner, n_labels, risk, risk_se, leaves); ``progress``:
    a bar over the learners (tqdm)."""
    from tqdm.auto import tqdm

    s = sizes()
    n_runs = n_runs or s.toy_runs
    n_labels = n_labels or s.toy_labels
    settings = settings or {}
    frames = []
    for name, spec in tqdm(SPECS.items(), desc="Figure 5", disable=not progress):
        kw = settings.get(name, {})
        risk, leaves = toy_runs(n_runs=n_runs, n_labels=n_labels, seed=seed, **spec, **kw)
        n = risk.shape[0]
        frames.append(
            pd.DataFrame(
                dict(
                    learner=name,
                    n_labels=np.arange(risk.shape[1]),
                    risk=risk.mean(0),
                    risk_se=risk.std(0, ddof=1) / np.sqrt(n),
                    leaves=leaves.mean(0),
                )
            )
        )
    return pd.concat(frames, ignore_index=True)


def plot_fig5(curves, bayes_risk=None, ax=None):
    """Mean exact risk against labels (log scale: the early labels are where the learners
    differ most), every point of every curve shown."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.5))
    for name, grp in curves[curves.n_labels >= 1].groupby("learner", sort=False):
        ax.plot(grp.n_labels, grp.risk, label=name, color=COLOR.get(name), ls=STYLE.get(name, "-"))
    if bayes_risk is not None:
        ax.axhline(bayes_risk, color="k", lw=0.7, ls=":", label="best 64-cell risk")
    ax.set_xscale("log")
    ax.set(
        xlabel="labelled instances (log scale)",
        ylabel="true risk (exact, mean over runs)",
        title="Toy problem (001 Fig. 5)",
    )
    ax.legend(loc="best")
    return ax.figure


def compare_at(curves, points=(10, 30, 100, 300, 1000)):
    """Mean risk (and standard error) of each learner at a few label counts."""
    pts = [p for p in points if p <= curves.n_labels.max()]
    sub = curves[curves.n_labels.isin(pts)]
    return sub.pivot(index="n_labels", columns="learner", values="risk").round(4)
