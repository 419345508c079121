"""Section 2 of notebook 04: the Hoeffding bound (7) of 003 and the split rule as the thesis
states it, checked against ``workbench.bounds`` and (by Monte Carlo) against what the rule
promises; notebook 01, Section 3 has the full check of the rule."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


def epsilon(n, delta, R):
    """Eq. (7) written out: sqrt(R^2 ln(1/delta) / (2n))."""
    n = np.asarray(n, float)
    return np.sqrt(R * R * math.log(1.0 / delta) / (2.0 * n))


def epsilon_table(ns=(200, 1_000, 10_000, 100_000), deltas=(1e-7, 1e-3, 0.05),
                  n_classes=(2, 7)) -> pd.DataFrame:  # fmt: skip
    """Eq. (7) for information gain (R = log2 K) at a few n, delta, K, from
    ``workbench.bounds.hoeffding`` and from the formula written out (the two must agree),
    and the n at which a gain difference of 0.01 bit would pass."""
    from ... import bounds

    rows = []
    for k in n_classes:
        R = math.log2(k)
        for d in deltas:
            for n in ns:
                e_lib = float(bounds.hoeffding(n, d, R))
                rows.append({"K": k, "R = log2 K": R, "delta": d, "n": n, "eps (workbench)": e_lib,
                             "eps (eq. 7 by hand)": float(epsilon(n, d, R)),
                             "n for dG = 0.01": math.ceil(R * R * math.log(1 / d) / (2 * 1e-4))})  # fmt: skip
    return pd.DataFrame(rows)


def plot_epsilon(deltas=(1e-7, 1e-3, 0.05), R: float = 1.0):
    """eps(n) of eq. (7) for a few delta (R = 1 bit: two classes)."""
    import matplotlib.pyplot as plt

    n = np.logspace(1, 6, 200)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for d in deltas:
        ax.loglog(n, epsilon(n, d, R), label=f"δ = {d:g}")
    ax.axhline(0.05, ls=":", color="gray", label="τ = 0.05 (tie threshold)")
    ax.set_xlabel("examples at the leaf, n")
    ax.set_ylabel("ε (bits)")
    ax.set_title("Hoeffding bound (7), R = log2 2 = 1")
    ax.grid(alpha=0.3, which="both")
    ax.legend(loc="best")
    fig.tight_layout()
    return fig


def rule_check(trials: int = 400, delta: float = 0.05, seed: int = 3) -> pd.DataFrame:
    """The thesis's rule at one leaf by Monte Carlo (``workbench.montecarlo.split_selection``):
    two binary features whose information gains differ by about 0.01 bit, label prior 1/2,
    a test every 200 examples up to 20,000.  The rule promises a wrong attribute with
    probability at most delta; ``p_suboptimal`` is what happens, with VFDT's eps and with
    000's 2 eps for comparison, and the exact binomial test of p_suboptimal <= delta."""
    from scipy import stats

    from ... import montecarlo as mc

    theta = np.array([[0.3, 0.7], [0.31, 0.69]])
    rows = []
    for j, rule in enumerate(("vfdt", "vfdt_2eps")):
        res = mc.split_selection(0.5, theta, delta, rule=rule, criterion="entropy",
                                 m_max=20_000, n_min=200, trials=trials, seed=seed + j)  # fmt: skip
        sm = res.summary()
        wrong = int(round(sm["p_suboptimal"] * trials))
        p = stats.binomtest(wrong, trials, delta, alternative="greater").pvalue
        rows.append({"rule": {"vfdt": "thesis / VFDT: dG > eps", "vfdt_2eps": "dG > 2 eps"}[rule],
                     "trials": trials, "p_split": sm["p_split"],
                     "p_suboptimal": sm["p_suboptimal"], "delta": delta,
                     "binomial p (H0: <= delta)": p})  # fmt: skip
    return pd.DataFrame(rows).set_index("rule")
