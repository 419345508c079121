r"""001 Figure 5: exact true risk against labels on the toy problem.

Learners: BOCT, BOCT-AL, mbinomial_8, mbinomial_64 and the Hoeffding baseline, each with its
delta (and delta2) chosen by grid search as the paper does.  The criterion of the grid search is
not given in 001; we take the mean risk over the whole curve (the area under it), computed on
runs with other seeds than the reported ones.  A grid is extended while its best value lies at
an end (:func:`workbench.claims.tune`) and refined around the best, so that no chosen value sits
at the edge of its grid unless the parameter's range ends there (which ``tune_toy`` reports).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...evaluate.pool import TOY_LEARNERS as SPECS
from ...evaluate.pool import toy_runs
from ._common import COLOR, STYLE, RunCache, sizes


def grids(n):
    """The starting grids of each learner's parameters and the ranges they may be extended in
    (credible deltas below 1/2, Hoeffding's and the credible levels delta2 below 1):
    ``{learner: (grid, limits)}``.  :func:`tune_learner` extends a grid while the best value
    lies at its end and refines it around the best."""
    cred = [float(v) for v in np.geomspace(0.005, 0.45, n)]
    hoef = [float(v) for v in np.geomspace(1e-3, 0.9, n)]
    d2 = [float(v) for v in np.geomspace(1e-3, 0.5, max(2, n // 2))]
    half, unit = (0.0, 0.5), (0.0, 1.0)
    return {
        "BOCT": ({"delta": cred}, {"delta": half}),
        "BOCT-AL": ({"delta": cred, "delta2": d2}, {"delta": half, "delta2": unit}),
        "mbinomial_8": ({"delta2": d2}, {"delta2": unit}),
        "mbinomial_64": ({"delta2": d2}, {"delta2": unit}),
        "Hoeffding": ({"delta": hoef}, {"delta": unit}),
    }


class ToyRuns(RunCache):
    """The risk curves of the toy problem at one seed and size, each setting run once."""

    def __init__(self, n_runs, n_labels, seed, n_jobs=None, progress=None):
        super().__init__(progress)
        self.n_runs, self.n_labels, self.seed, self.n_jobs = n_runs, n_labels, seed, n_jobs

    def _run(self, name, setting):
        return toy_runs(
            n_runs=self.n_runs,
            n_labels=self.n_labels,
            seed=self.seed,
            n_jobs=self.n_jobs,
            **SPECS[name],
            **setting,
        )


def tune_learner(name, runs: ToyRuns, n_grid, at=None, refine=2):
    """:func:`workbench.claims.tune` of one learner on ``runs``: the criterion is the mean
    risk over the whole curve, or (``at=t``) the mean risk after ``t`` labels."""
    from ... import claims

    grid, limits = grids(n_grid)[name]

    def score(**kw):
        r = runs.risk(name, **kw)
        return float(r.mean() if at is None else r[:, at].mean())

    return claims.tune(score, grid, limits=limits, refine=refine)


def tune_toy(n_grid=None, n_runs=None, n_labels=None, seed=1000, progress=True, refine=None):
    """Grid search of each learner's parameters: one row per (learner, setting) with the mean
    risk over the curve; ``chosen`` marks the best per learner (:func:`best_settings`) and
    ``edge`` says why it lies at the edge of its grid (empty: it does not).  ``progress``: a
    bar counting the settings run (tqdm); ``refine``: refinement rounds (default: the
    mode's)."""
    s = sizes()
    runs = ToyRuns(
        n_runs or s.toy_tune_runs,
        n_labels or s.toy_labels,
        seed,
        progress="tuning on the toy problem" if progress else None,
    )
    frames = []
    for name in SPECS:
        t = tune_learner(
            name, runs, n_grid or s.toy_grid, refine=s.refine if refine is None else refine
        )
        f = t.table.rename(columns={"score": "mean_risk"})
        f.insert(0, "learner", name)
        f["chosen"] = np.all([f[k] == v for k, v in t.best.items()], axis=0)
        f["edge"] = np.where(f.chosen, "; ".join(v for v in t.edges.values() if v), "")
        frames.append(f)
    runs.close()
    cols = ["learner", "delta", "delta2", "mean_risk", "chosen", "edge"]
    return pd.concat(frames, ignore_index=True).reindex(columns=cols)


def best_settings(tuning: pd.DataFrame) -> dict:
    """``{learner: {"delta": ..., "delta2": ...}}``: the chosen (lowest mean risk) setting."""
    out = {}
    for name, grp in tuning.groupby("learner", sort=False):
        best = grp.loc[grp.mean_risk.idxmin()]
        out[name] = {
            k: float(best[k]) for k in ("delta", "delta2") if k in best and best[k] == best[k]
        }
    return out


def fig5(settings=None, n_runs=None, n_labels=None, seed=0):
    """The curves of Figure 5 (tidy: learner, n_labels, risk, risk_se, leaves)."""
    s = sizes()
    n_runs = n_runs or s.toy_runs
    n_labels = n_labels or s.toy_labels
    settings = settings or {}
    frames = []
    for name, spec in SPECS.items():
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
