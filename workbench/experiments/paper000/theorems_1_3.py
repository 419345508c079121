"""Paper 000, Theorems 1-3 (eqs. 4-6): each bound against the empirical deviation quantile at
the tightest law found by Monte Carlo, and the printed against the corrected reading of
Theorems 2-3 (``q_k = P(Y=0, F=k)``)."""

from __future__ import annotations

from ._common import THEOREMS, THEOREM_OF, _derive, sizes


def bound_curves(
    ms=None,
    delta: float = 0.05,
    grid: int | None = None,
    search_trials: int | None = None,
    trials: int | None = None,
    seed: int = 0,
    estimators=THEOREMS,
    fast: bool | None = None,
    progress: bool = True,
):
    r"""Theorems 1-3 against Monte Carlo, at the law where each bound is tightest, as m grows.

    For every ``m`` and estimator, the laws of ``montecarlo.law_grid(grid)`` (``grid ** 3``
    joint laws of a binary label and a binary split) are searched with ``search_trials``
    trials each for the largest ``1 - delta`` quantile of :math:`|\widehat\Phi - \Phi|`; at that
    law a fresh simulation of ``trials`` trials (fresh seed: the maximum of noisy quantiles is
    biased upwards) gives the reported quantile, the exceedance rate of the bound and a one-sided
    binomial test.

    Returns one row per (estimator, m): ``estimator``, ``theorem``, ``m``, ``delta``, ``bound``,
    ``empirical_quantile``, ``ratio`` (bound / quantile: how many times too wide),
    ``p_exceed``, ``n_exceed``, ``trials``, ``p_value``, ``p_f1``, ``p_y1_given_f0``,
    ``p_y1_given_f1`` (the tightest law), ``search_quantile``.  ``progress``: a tqdm bar over
    the values of m (the full run takes tens of seconds).
    """
    import pandas as pd
    from tqdm.auto import tqdm

    from ... import montecarlo as mc

    s = sizes(fast)
    ms = s.ms if ms is None else tuple(int(m) for m in ms)
    grid = s.law_grid if grid is None else grid
    search_trials = s.search_trials if search_trials is None else search_trials
    trials = s.trials if trials is None else trials
    tables = mc.law_grid(grid)
    rows = []
    for j, m in enumerate(tqdm(ms, desc="Theorems 1-3, m", disable=not progress)):
        best = {e: (-1.0, -1) for e in estimators}
        for i, tab in enumerate(tables):
            sim = mc.simulate_estimators(
                tab, m, search_trials, seed=_derive(seed, 1, j, i), method="counts"
            )
            for e in estimators:
                q = sim.quantile(e, 1.0 - delta)
                if q > best[e][0]:
                    best[e] = (q, i)
        for k, e in enumerate(estimators):
            tab = tables[best[e][1]]
            sim = mc.simulate_estimators(
                tab, m, trials, seed=_derive(seed, 2, j, k), method="counts"
            )
            r = sim.check(e, delta)
            pf1, a, b = mc.describe_law(tab)
            rows.append(
                {
                    "estimator": e,
                    "theorem": THEOREM_OF.get(e, e),
                    "m": m,
                    "delta": delta,
                    "bound": r["bound"],
                    "empirical_quantile": r["empirical_quantile"],
                    "ratio": r["ratio"],
                    "p_exceed": r["p_exceed"],
                    "n_exceed": r["n_exceed"],
                    "trials": trials,
                    "p_value": r["p_value"],
                    "p_f1": pf1,
                    "p_y1_given_f0": a,
                    "p_y1_given_f1": b,
                    "search_quantile": best[e][0],
                    "bias": r["bias"],
                }
            )
    return pd.DataFrame(rows)


def printed_vs_corrected(
    ms=None,
    law=(0.5, 0.2, 0.7),
    delta: float = 0.05,
    trials: int | None = None,
    seed: int = 1,
    fast: bool | None = None,
):
    r"""Theorems 2 and 3 with the printed :math:`q_k = 1 - p_k` against :math:`q_k = P(Y=0,F=k)`.

    One row per (estimator, m) at one law (``(P(F=1), P(Y=1|F=0), P(Y=1|F=1))``):
    ``truth`` (the functional the theorem is about), ``mean`` (of the estimator), ``limit``
    (where the estimator converges), ``bound``, ``empirical_quantile``, ``p_exceed``.
    """
    import pandas as pd

    from ... import montecarlo as mc

    s = sizes(fast)
    ms = s.ms if ms is None else tuple(int(m) for m in ms)
    trials = s.trials if trials is None else trials
    tab = mc.joint_law(*law)
    limits = mc.limits_as_printed(tab)
    truth = mc.functionals(tab)
    rows = []
    for j, m in enumerate(ms):
        sim = mc.simulate_estimators(tab, m, trials, seed=_derive(seed, j), method="counts")
        for e in ("gini", "gini_as_printed", "kearns_mansour", "kearns_mansour_as_printed"):
            r = sim.check(e, delta)
            rows.append(
                {
                    "estimator": e,
                    "m": m,
                    "delta": delta,
                    "truth": truth[e],
                    "mean": r["mean"],
                    "limit": limits.get(e, truth[e]),
                    "bound": r["bound"],
                    "empirical_quantile": r["empirical_quantile"],
                    "p_exceed": r["p_exceed"],
                    "p_value": r["p_value"],
                }
            )
    return pd.DataFrame(rows)


def plot_bound_curves(curves, printed=None):
    """Bound and empirical ``1 - delta`` quantile against m (log-log), one panel per theorem,
    and (with ``printed``) a last panel for the printed ``q_k = 1 - p_k``."""
    import matplotlib.pyplot as plt

    names = [e for e in THEOREMS + ("info_gain",) if e in set(curves.estimator)]
    n = len(names) + (printed is not None)
    ncols = n if n <= 3 else 3
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.5 * nrows), squeeze=False)
    axes = axes.ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    axes = axes[:n]
    for ax, e in zip(axes, names):
        d = curves[curves.estimator == e].sort_values("m")
        ax.loglog(d.m, d.bound, "-", color="#d62728", label="bound")
        ax.loglog(
            d.m,
            d.empirical_quantile,
            "o-",
            color="k",
            ms=4,
            label=f"empirical {1 - d.delta.iloc[0]:.2f}-quantile",
        )
        for _, r in d.iloc[[0, len(d) // 2, -1]].iterrows():
            ax.annotate(
                f"x{r.ratio:.0f}",
                (r.m, r.bound),
                textcoords="offset points",
                xytext=(0, 5),
                fontsize=8,
                ha="center",
                color="#d62728",
            )
        ax.set_title(f"{e} -- {THEOREM_OF[e]}", fontsize=9)
        ax.set_xlabel("m (examples at the leaf)")
        ax.grid(alpha=0.3, which="both")
    for k in range(0, n, ncols):
        axes[k].set_ylabel(r"$|\hat\Phi - \Phi|$")
    axes[0].legend(fontsize=8)
    if printed is not None:
        ax = axes[-1]
        for e, col in (("gini", "#ff7f0e"), ("kearns_mansour", "#17becf")):
            for suffix, ls, lab in (("", "-", "corrected"), ("_as_printed", "--", "as printed")):
                d = printed[printed.estimator == e + suffix].sort_values("m")
                ax.loglog(
                    d.m, d.empirical_quantile, ls, marker="o", ms=3, color=col, label=f"{e}, {lab}"
                )
            d = printed[printed.estimator == e].sort_values("m")
            ax.loglog(d.m, d.bound, ":", color=col, lw=1)
        ax.set_title(r"$q_k = 1-p_k$ (printed) vs $P(Y=0,F=k)$", fontsize=9)
        ax.set_xlabel("m")
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig
