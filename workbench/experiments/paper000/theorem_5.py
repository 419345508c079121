"""Paper 000, Theorem 5 (eq. 9): how often a delta-consistent leaf classifies non-optimally."""

from __future__ import annotations

import numpy as np

from ._common import _derive, sizes


def leaf_consistency_table(
    ts=(20, 200, 1000),
    deltas=(0.05, 0.2, 0.5, 0.9),
    p: float = 0.5,
    policies=("always", "conftree"),
    budget: float = 0.1,
    w: float = 1.0,
    trials: int | None = None,
    seed: int = 5,
    fast: bool | None = None,
):
    """Theorem 5 by Monte Carlo: P(leaf delta-consistent and predicting non-optimally) at time t.

    ``p = 1/2`` is the worst case.  ``policy="always"`` queries every label (an exact value is
    computed too); ``"conftree"`` queries by Algorithm 2 with budget ``budget``.  One row per
    (policy, t, delta) with ``p_fail``, ``exact_fail``, ``ratio`` (delta / failure rate),
    ``p_consistent``, ``mean_labels``, ``p_value``.
    """
    import pandas as pd

    from ... import montecarlo as mc

    trials = sizes(fast).leaf_trials if trials is None else trials
    rows = []
    for a, policy in enumerate(policies):
        for b, t in enumerate(ts):
            for c, delta in enumerate(deltas):
                r = mc.leaf_consistency_failure(
                    p,
                    t,
                    delta,
                    w=w,
                    policy=policy,
                    budget=budget,
                    trials=trials,
                    seed=_derive(seed, a, b, c),
                )
                sm = r.summary()
                fail = sm["exact_fail"] if policy == "always" else sm["p_fail"]
                sm["ratio"] = delta / fail if fail > 0 else np.inf
                rows.append(sm)
    return pd.DataFrame(rows)


def plot_leaf_consistency(df):
    """Failure probability against delta (log-log) per t and policy, with the line y = delta."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.5, 4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    deltas = np.sort(df.delta.unique())
    ax.loglog(deltas, deltas, color="k", lw=2, label=r"Theorem 5: $\delta$")
    for i, t in enumerate(sorted(df.t.unique())):
        d = df[(df.t == t) & (df.policy == "always")].sort_values("delta")
        if len(d):
            ax.loglog(
                d.delta,
                d.exact_fail.clip(lower=1e-9),
                "-o",
                color=colors[i],
                ms=4,
                label=f"t = {t}, every label (exact)",
            )
        d = df[(df.t == t) & (df.policy == "conftree")].sort_values("delta")
        if len(d):
            floor = 1.0 / d.trials.iloc[0]
            ax.loglog(
                d.delta,
                d.p_fail.clip(lower=floor / 3),
                "--s",
                color=colors[i],
                ms=4,
                mfc="none",
                label=f"t = {t}, ConfTree (Monte Carlo)",
            )
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel("P(consistent and non-optimal)")
    ax.set_title("Theorem 5: leaf consistency at p = 1/2", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1))  # beside, off the data
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig
