r"""001 Sec. III: the split rule and its 3-delta claim, by Monte Carlo under both readings.

A *useless* split: both children have the same Bernoulli parameter, so condition (6)
:math:`W_pH(\mu_p) > W_1H(\mu_1) + W_2H(\mu_2)` is false (equality).  The claim: the rule
installs such a test with probability at most :math:`3\delta`.  ``figure3`` compares the
children's weighted credible upper bounds with the parent's *lower* end
:math:`W_p\epsilon_p(1-\delta)`; ``text`` with its upper end :math:`W_p\epsilon_p(\delta)`.
:math:`W` are the label counts (eq. 1), as in ``docs/bounds_findings.md``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...bounds import credible_interval


def useless_split_rate(
    n_trials=4000, n_per_child=20, delta=0.05, mu=0.5, heterogeneity="entropy", seed=0
):
    """Fraction of trials in which each reading installs a useless test, with the exact
    one-sided binomial p-value of "rate <= 3 delta"."""
    rng = np.random.default_rng(seed)
    k1 = rng.binomial(n_per_child, mu, n_trials).astype(float)
    k2 = rng.binomial(n_per_child, mu, n_trials).astype(float)
    m = float(n_per_child)
    up1 = credible_interval(k1, m - k1, delta, heterogeneity)[1]
    up2 = credible_interval(k2, m - k2, delta, heterogeneity)[1]
    children = m * up1 + m * up2
    lo_p, up_p = credible_interval(k1 + k2, 2 * m - k1 - k2, delta, heterogeneity)
    rows = []
    for rule, parent in (("figure3", 2 * m * lo_p), ("text", 2 * m * up_p)):
        splits = int(np.sum(children < parent))
        p = stats.binomtest(splits, n_trials, min(3 * delta, 1.0), alternative="greater").pvalue
        rows.append(
            dict(
                rule=rule,
                mu=mu,
                n_per_child=n_per_child,
                delta=delta,
                trials=n_trials,
                splits=splits,
                rate=splits / n_trials,
                claim_3delta=3 * delta,
                p_value=p,
                verdict="holds" if p > 1e-3 else "fails",
            )
        )
    return pd.DataFrame(rows)


def rule_table(
    n_trials=4000, mus=(0.5, 0.3, 0.1), ns=(5, 20, 100), delta=0.05, seed=0, progress=True
):
    """:func:`useless_split_rate` over a grid of mu and children sizes; ``progress``: a bar
    over the grid (tqdm; the full run's 100,000 trials per point take about a minute)."""
    from tqdm.auto import tqdm

    grid = [(mu, n) for mu in mus for n in ns]
    frames = [
        useless_split_rate(n_trials, n, delta, mu, seed=seed + 7 * i)
        for i, (mu, n) in enumerate(tqdm(grid, desc="useless splits", disable=not progress))
    ]
    return pd.concat(frames, ignore_index=True)
