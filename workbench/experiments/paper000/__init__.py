r"""Paper 000 (De Rosa & Cesa-Bianchi, *Confidence Decision Trees via Online and Active Learning
for Streaming (BIG) Data*): the runners and plots behind ``notebooks/01_confidence_decision_trees``.

Every runner returns a tidy ``pandas.DataFrame`` and takes its sizes from the mode (see
:func:`sizes`): ``WORKBENCH_FAST=1`` gives the fast sizes the tests use, otherwise the
laptop-scale reproduction runs.  Plot helpers take those frames and return a matplotlib figure.

=================================  ==========================================================
Sec. III, the gain functional      :func:`impurities`, :func:`upper_bound_check`,
                                   :func:`gain_table`, :func:`plot_impurities`
Theorems 1-3 (eqs. 4-6)            :func:`bound_curves`, :func:`printed_vs_corrected`,
                                   :func:`plot_bound_curves`
Theorem 4, eqs. (7) and (10)       :func:`schedule`, :func:`practical`, :func:`eq10_vs_eq7`,
                                   :func:`plot_schedule`, :func:`schedule_widget`,
                                   :func:`split_rule_check`
Theorem 5 (eq. 9)                  :func:`leaf_consistency_table`, :func:`plot_leaf_consistency`
RandCBT (Alg. 4, Sec. VII-A)       :func:`prose_leaf_counts`, :func:`rand_cbt_by_leaf`,
                                   :func:`stepper_demo`
Figure 3                           :func:`fig3_grid` (through :func:`workbench.sweep.run`,
                                   shuffled or leaf-ordered streams), :func:`fig3_summary`,
                                   :func:`fig3_binned`, :func:`fig3_compare`,
                                   :func:`fig3_claims`, :func:`fig3_verdict`, :func:`plot_fig3`
Table I and Figure 4               :func:`table1`, :func:`permuted`, :func:`fig4`,
                                   :func:`fig4_best`, :func:`fig4_compare`,
                                   :func:`fig4_verdict`, :func:`plot_fig4`
Figure 5                           :func:`tune_c`, :func:`fig5`, :func:`fig5_ranks`,
                                   :func:`fig5_verdict`, :func:`plot_fig5`
=================================  ==========================================================

Conventions fixed here (the paper leaves them open or prints them wrongly; ``bounds`` and
``docs/bounds_findings.md`` have the evidence): ``q_k = P(Y=0, F=k)`` in Theorems 2-3, C-Tree
splits on the argmin of the conditional impurity, eq. (10) counts depth from 1 at the root.
"""
from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from ... import bounds as _bounds

__all__ = [
    "fast_mode", "sizes", "Sizes", "FAST", "FULL", "describe_mode",
    "impurities", "upper_bound_check", "gain_table", "plot_impurities",
    "bound_curves", "printed_vs_corrected", "plot_bound_curves",
    "schedule", "practical", "eq10_vs_eq7", "plot_schedule", "schedule_widget",
    "split_rule_check",
    "leaf_consistency_table", "plot_leaf_consistency",
    "prose_leaf_counts", "stepper_demo",
    "rand_cbt_by_leaf", "fig3_param_grid", "fig3_grid", "fig3_summary", "fig3_binned",
    "fig3_compare",
    "fig3_claims", "fig3_verdict", "plot_fig3",
    "table1", "permuted", "fig4_param_grid", "fig4", "fig4_best", "fig4_compare", "fig4_verdict",
    "plot_fig4",
    "tune_c", "fig5", "fig5_ranks", "fig5_verdict", "plot_fig5",
]

#: the three criteria of Theorems 1-3 (names of ``workbench.montecarlo`` estimators)
THEOREMS = ("entropy", "gini", "kearns_mansour")
THEOREM_OF = {"entropy": "Theorem 1, eq. (4)", "gini": "Theorem 2, eq. (5)",
              "kearns_mansour": "Theorem 3, eq. (6)",
              "info_gain": "eq. (2), McDiarmid (Rutkowski et al.)"}
LEARNERS = ("CTree", "HoeffdingTree", "CorrHTree")
LABEL = {"CTree": "C-Tree", "HoeffdingTree": "H-Tree", "CorrHTree": "CorrH-Tree"}
COLOR = {"CTree": "#d62728", "HoeffdingTree": "#1f77b4", "CorrHTree": "#2ca02c"}
MARKER = {"CTree": "x", "HoeffdingTree": "o", "CorrHTree": "*"}
#: the parameter each learner's grid runs over (the paper's Figure 3 / 4 grids)
PARAM = {"CTree": "c", "HoeffdingTree": "delta", "CorrHTree": "delta"}
STRATEGY_ORDER = ("Random", "VarUncertainty", "RndVarUncertainty", "SelectiveSampling", "Split",
                  "ConfTree", "SplitConfTree")
#: the score of each data set in Figures 4 and 5 (F-measure of the minority class when the
#: classes are unbalanced, as the paper does for its starred data sets)
METRIC = {"electricity": "accuracy", "adult": "f_measure_1"}
METRIC_LABEL = {"accuracy": "online accuracy", "f_measure_1": "F-measure of class 1 (>50K)"}


# =============================================================================================
# Mode and sizes
# =============================================================================================

def fast_mode() -> bool:
    """True when ``WORKBENCH_FAST`` is 1/true/yes/on (the convention of ``workbench.viz``)."""
    return os.environ.get("WORKBENCH_FAST", "").strip().lower() in {"1", "true", "yes", "on"}


@dataclass(frozen=True)
class Sizes:
    """How large every experiment of the notebook is in one mode."""
    # Theorems 1-3
    ms: tuple
    law_grid: int
    search_trials: int
    trials: int
    # Theorem 4 (split selection) and Theorem 5
    split_trials: int
    leaf_trials: int
    # Figure 3
    fig3_trees: int
    fig3_examples: int
    fig3_params: int
    # Figure 4
    fig4_perms: int
    fig4_params: int
    # Figure 5
    fig5_seeds: int
    fig5_rows: int | None          # None: the whole data set
    backend: str | None            # sweep backend (None: local processes)


FAST = Sizes(ms=(10, 100, 1000, 10_000), law_grid=4, search_trials=1000, trials=4000,
             split_trials=400, leaf_trials=5_000,
             fig3_trees=3, fig3_examples=40_000, fig3_params=5,
             fig4_perms=2, fig4_params=4,
             fig5_seeds=1, fig5_rows=15_000, backend="serial")
FULL = Sizes(ms=(10, 30, 100, 300, 1000, 3000, 10_000, 30_000), law_grid=6, search_trials=4000,
             trials=40_000,
             split_trials=4000, leaf_trials=200_000,
             fig3_trees=20, fig3_examples=500_000, fig3_params=12,
             fig4_perms=10, fig4_params=12,
             fig5_seeds=5, fig5_rows=None, backend=None)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: read ``WORKBENCH_FAST``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    """One paragraph saying which mode runs and how large its experiments are."""
    s = sizes(fast)
    mode = "FAST (WORKBENCH_FAST=1)" if s is FAST else "FULL (laptop-scale reproduction)"
    return (f"Mode: {mode}. Theorems 1-3: m in {list(s.ms)}, {s.trials:,} trials per point "
            f"at the tightest of {s.law_grid ** 3} laws. Figure 3: {s.fig3_trees} random trees x "
            f"{s.fig3_examples:,} examples x {s.fig3_params} parameter values x 3 learners "
            f"(the paper: 1,000 x 500,000 x 200). Figure 4: {s.fig4_perms} permutations x "
            f"{s.fig4_params} parameter values. Figure 5: {s.fig5_seeds} strategy seed(s) x 6 "
            f"budgets x 7 strategies.")


def _derive(seed, *idx) -> int:
    from ..._rng import derive_seed
    return int(derive_seed(int(seed), *idx)) & ((1 << 62) - 1)


# =============================================================================================
# Section III: the min function, the three impurities, the gain
# =============================================================================================

def impurities(p=None):
    r"""The min function and the three impurities of Sec. III on a grid of ``p = P(Y = 1)``.

    Columns: ``p``; ``min`` (:math:`\Psi = \min(p, 1-p)`); ``entropy_nats`` (the paper's
    :math:`H_{1/2} = -\tfrac p2\ln p - \tfrac{1-p}2\ln(1-p)`, natural log as printed and as
    Theorem 1 uses); ``entropy_bits`` (the same with :math:`\log_2`); ``gini``
    (:math:`J = 2p(1-p)`); ``kearns_mansour`` (:math:`Q = \sqrt{p(1-p)}`).
    """
    import pandas as pd
    from scipy.special import xlogy

    p = np.linspace(0.0, 1.0, 1001) if p is None else np.asarray(p, dtype=np.float64)
    h = -(xlogy(p, p) + xlogy(1 - p, 1 - p))
    return pd.DataFrame({"p": p, "min": np.minimum(p, 1 - p), "entropy_nats": h / 2,
                         "entropy_bits": h / (2 * math.log(2)), "gini": 2 * p * (1 - p),
                         "kearns_mansour": np.sqrt(p * (1 - p))})


def upper_bound_check(n: int = 200_001):
    """Does each impurity bound the min function from above (Sec. III needs it)?

    One row per impurity: the smallest value of ``Phi(p) - min(p, 1-p)`` on a grid of ``n``
    points, where it is attained, and the interval of ``p`` where ``Phi < min`` (empty if the
    bound holds).
    """
    import pandas as pd

    df = impurities(np.linspace(0.0, 1.0, n))
    rows = []
    for col in ("entropy_nats", "entropy_bits", "gini", "kearns_mansour"):
        gap = df[col].to_numpy() - df["min"].to_numpy()
        bad = gap < -1e-12
        i = int(gap.argmin())
        rows.append({"impurity": col, "holds": not bad.any(), "min_gap": float(gap[i]),
                     "at_p": float(df.p.iloc[i]),
                     "fails_from": float(df.p[bad].min()) if bad.any() else np.nan,
                     "fails_to": float(df.p[bad].max()) if bad.any() else np.nan})
    return pd.DataFrame(rows)


def _phi(p, name):
    p = np.asarray(p, dtype=np.float64)
    if name == "min":
        return np.minimum(p, 1 - p)
    if name == "gini":
        return 2 * p * (1 - p)
    if name == "kearns_mansour":
        return np.sqrt(p * (1 - p))
    from scipy.special import xlogy
    h = -(xlogy(p, p) + xlogy(1 - p, 1 - p)) / 2
    return h / math.log(2) if name == "entropy_bits" else h


def gain_table(p_f1: float = 0.5, p_y1_given_f0: float = 0.6, p_y1_given_f1: float = 0.9):
    r"""True gain (eq. 3) of one binary split under every functional.

    The law: :math:`P(F=1)` = ``p_f1`` and :math:`P(Y=1\mid F=k)`.  The default split leaves the
    majority label at 1 in both children, so the min function (the risk) gains nothing while
    every strictly concave impurity gains something: the reason the paper splits on
    :math:`\Phi` rather than on :math:`\Psi`.
    """
    import pandas as pd

    a, b = p_y1_given_f0, p_y1_given_f1
    p = (1 - p_f1) * a + p_f1 * b
    rows = []
    for name in ("min", "entropy_bits", "gini", "kearns_mansour"):
        parent = float(_phi(p, name))
        child = float((1 - p_f1) * _phi(a, name) + p_f1 * _phi(b, name))
        rows.append({"functional": name, "Phi(Y)": parent, "Phi(Y | F)": child,
                     "gain": parent - child})
    return pd.DataFrame(rows)


def plot_impurities(ax=None):
    """The min function and the three impurities against ``p`` (entropy drawn in both units)."""
    import matplotlib.pyplot as plt

    df = impurities()
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.2, 4.0))
    ax.plot(df.p, df["min"], color="k", lw=2.2, label=r"$\Psi=\min(p,1-p)$ (risk)")
    ax.plot(df.p, df.entropy_bits, color="#9467bd", label=r"$H_{1/2}$ with $\log_2$")
    ax.plot(df.p, df.entropy_nats, color="#9467bd", ls="--",
            label=r"$H_{1/2}$ with $\ln$ (as Theorem 1)")
    ax.plot(df.p, df.gini, color="#ff7f0e", label=r"$J=2p(1-p)$ (Gini)")
    ax.plot(df.p, df.kearns_mansour, color="#17becf", label=r"$Q=\sqrt{p(1-p)}$ (Kearns-Mansour)")
    bad = df.entropy_nats < df["min"] - 1e-12
    ax.fill_between(df.p, df.entropy_nats, df["min"], where=bad, color="#9467bd", alpha=0.15,
                    label=r"$H_{1/2}(\ln) < \Psi$")
    ax.set_xlabel(r"$p = P(Y=1)$")
    ax.set_ylabel("value")
    ax.set_title("Impurities against the min function (Sec. III)")
    ax.legend(fontsize=8, loc="upper right")
    ax.set_ylim(0, 0.62)
    return fig if fig is not None else ax.figure


# =============================================================================================
# Theorems 1-3: bound against the empirical deviation quantile, at the tightest law
# =============================================================================================

def bound_curves(ms=None, delta: float = 0.05, grid: int | None = None,
                 search_trials: int | None = None, trials: int | None = None, seed: int = 0,
                 estimators=THEOREMS, fast: bool | None = None):
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
    ``p_y1_given_f1`` (the tightest law), ``search_quantile``.
    """
    import pandas as pd

    from ... import montecarlo as mc

    s = sizes(fast)
    ms = s.ms if ms is None else tuple(int(m) for m in ms)
    grid = s.law_grid if grid is None else grid
    search_trials = s.search_trials if search_trials is None else search_trials
    trials = s.trials if trials is None else trials
    tables = mc.law_grid(grid)
    rows = []
    for j, m in enumerate(ms):
        best = {e: (-1.0, -1) for e in estimators}
        for i, tab in enumerate(tables):
            sim = mc.simulate_estimators(tab, m, search_trials, seed=_derive(seed, 1, j, i),
                                         method="counts")
            for e in estimators:
                q = sim.quantile(e, 1.0 - delta)
                if q > best[e][0]:
                    best[e] = (q, i)
        for k, e in enumerate(estimators):
            tab = tables[best[e][1]]
            sim = mc.simulate_estimators(tab, m, trials, seed=_derive(seed, 2, j, k),
                                         method="counts")
            r = sim.check(e, delta)
            pf1, a, b = mc.describe_law(tab)
            rows.append({"estimator": e, "theorem": THEOREM_OF.get(e, e), "m": m,
                         "delta": delta, "bound": r["bound"],
                         "empirical_quantile": r["empirical_quantile"], "ratio": r["ratio"],
                         "p_exceed": r["p_exceed"], "n_exceed": r["n_exceed"], "trials": trials,
                         "p_value": r["p_value"], "p_f1": pf1, "p_y1_given_f0": a,
                         "p_y1_given_f1": b, "search_quantile": best[e][0],
                         "bias": r["bias"]})
    return pd.DataFrame(rows)


def printed_vs_corrected(ms=None, law=(0.5, 0.2, 0.7), delta: float = 0.05,
                         trials: int | None = None, seed: int = 1, fast: bool | None = None):
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
            rows.append({"estimator": e, "m": m, "delta": delta, "truth": truth[e],
                         "mean": r["mean"], "limit": limits.get(e, truth[e]),
                         "bound": r["bound"], "empirical_quantile": r["empirical_quantile"],
                         "p_exceed": r["p_exceed"], "p_value": r["p_value"]})
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
        ax.loglog(d.m, d.empirical_quantile, "o-", color="k", ms=4,
                  label=f"empirical {1 - d.delta.iloc[0]:.2f}-quantile")
        for _, r in d.iloc[[0, len(d) // 2, -1]].iterrows():
            ax.annotate(f"x{r.ratio:.0f}", (r.m, r.bound), textcoords="offset points",
                        xytext=(0, 5), fontsize=8, ha="center", color="#d62728")
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
                ax.loglog(d.m, d.empirical_quantile, ls, marker="o", ms=3, color=col,
                          label=f"{e}, {lab}")
            d = printed[printed.estimator == e].sort_values("m")
            ax.loglog(d.m, d.bound, ":", color=col, lw=1)
        ax.set_title(r"$q_k = 1-p_k$ (printed) vs $P(Y=0,F=k)$", fontsize=9)
        ax.set_xlabel("m")
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


# =============================================================================================
# Theorem 4: eq. (7) and the practical eq. (10)
# =============================================================================================

def schedule(m, depth, t, d, delta=None, criterion: str = "gini"):
    r"""Eq. (7): :math:`\varepsilon(m, \delta / ((h+1)(h+2)\,t\,d\,m))` with the criterion's
    Theorem 1-3 radius; ``delta=None`` is Remark 1's :math:`\delta = 1/t`."""
    m, depth, t, d = np.broadcast_arrays(np.asarray(m, dtype=np.float64),
                                         np.asarray(depth, dtype=np.int64),
                                         np.asarray(t, dtype=np.int64),
                                         np.asarray(d, dtype=np.int64))
    dl = 1.0 / t if delta is None else np.full(t.shape, float(delta))
    out = np.empty(m.shape)
    for idx in np.ndindex(m.shape):
        out[idx] = _bounds.ctree_epsilon(float(m[idx]), float(dl[idx]), int(depth[idx]),
                                         int(t[idx]), int(d[idx]), bound=criterion)
    return out if out.ndim else float(out)


def practical(m, depth, t, d, c=1.0):
    r"""Eq. (10): :math:`c\sqrt{\ln(m^2h^2td)/m}`, h = depth + 1 (finite at the root)."""
    return _bounds.ctree_practical(m, depth, t, d, c)


def eq10_vs_eq7(ms=(100, 1000, 10_000), depths=(0, 2, 5, 10), ts=(10_000, 1_000_000),
                d: int = 5, criterion: str = "gini"):
    r"""Eq. (10) (c = 1) next to eq. (7) with :math:`\delta = 1/t`, and the ``c`` that makes them
    equal (``c_match`` = eq. 7 / eq. 10 at c = 1).  Also the printed eq. (10) with the root at
    h = 0 (``eq10_printed``: NaN, the logarithm of 0)."""
    import pandas as pd

    rows = []
    for t in ts:
        for h in depths:
            for m in ms:
                if m > t:
                    continue
                e7 = schedule(m, h, t, d, None, criterion)
                e10 = float(practical(m, h, t, d, 1.0))
                with np.errstate(divide="ignore", invalid="ignore"):
                    printed = 1.0 * np.sqrt(np.log(float(m) ** 2 * float(h) ** 2 * t * d) / m)
                rows.append({"t": t, "depth": h, "m": m, "d": d, "eq7": e7, "eq10_c1": e10,
                             "c_match": e7 / e10,
                             "eq10_printed": float(printed) if np.isfinite(printed) else np.nan})
    return pd.DataFrame(rows)


def plot_schedule(depth: int = 3, t: float = 1e5, d: int = 5, c: float = 0.01,
                  criterion: str = "gini", delta=None, fig=None):
    """Three panels: eq. (7) against m (three depths, with eq. (10) at ``c``), against the depth
    (three dimensions), and against t (the three criteria)."""
    import matplotlib.pyplot as plt

    t = int(t)
    if fig is None:
        fig = plt.figure(figsize=(12, 3.6))
    axes = fig.subplots(1, 3)
    ms = np.unique(np.logspace(1, math.log10(max(t, 20)), 60).astype(np.int64))
    for h, ls in ((0, ":"), (depth, "-"), (3 * depth + 5, "--")):
        axes[0].loglog(ms, schedule(ms, h, t, d, delta, criterion), ls, color="#d62728",
                       label=f"eq. (7), h = {h}")
    axes[0].loglog(ms, practical(ms, depth, t, d, c), color="#7f7f7f",
                   label=f"eq. (10), c = {c:g}, h = {depth}")
    if c != 4.0:
        axes[0].loglog(ms, practical(ms, depth, t, d, 4.0), color="#7f7f7f", ls=":",
                       label=f"eq. (10), c = 4, h = {depth}")
    axes[0].set_xlabel("m (examples at the leaf)")
    axes[0].set_ylabel(r"$\varepsilon_t$")
    axes[0].set_title(f"{criterion}, t = {t:,}, d = {d}", fontsize=9)
    axes[0].legend(fontsize=7)
    m0 = int(min(1000, t))
    hs = np.arange(0, 21)
    for dd, ls in ((2, ":"), (d, "-"), (10 * d, "--")):
        axes[1].plot(hs, schedule(m0, hs, t, dd, delta, criterion), ls, color="#d62728",
                     label=f"d = {dd}")
    axes[1].set_xlabel("depth h of the leaf")
    axes[1].set_title(f"m = {m0:,}, t = {t:,}", fontsize=9)
    axes[1].legend(fontsize=7)
    ts = np.unique(np.logspace(math.log10(m0), 8, 40).astype(np.int64))
    for crit, col in (("entropy", "#9467bd"), ("gini", "#ff7f0e"), ("kearns_mansour", "#17becf")):
        axes[2].semilogx(ts, schedule(m0, depth, ts, d, delta, crit), color=col, label=crit)
    axes[2].set_xlabel("t (examples seen by the tree)")
    axes[2].set_title(f"m = {m0:,}, h = {depth}, d = {d}" +
                      (r", $\delta = 1/t$" if delta is None else f", delta = {delta:g}"),
                      fontsize=9)
    axes[2].legend(fontsize=7)
    for ax in axes:
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


def schedule_widget():
    """Sliders for depth, t, d, c and the criterion over :func:`plot_schedule`."""
    import ipywidgets as w
    import matplotlib.pyplot as plt

    def draw(criterion, depth, log10_t, d, log10_c):
        plot_schedule(depth=depth, t=10 ** log10_t, d=d, c=10 ** log10_c,
                      criterion=criterion)
        plt.show()
        return None

    return w.interactive(
        draw,
        criterion=w.Dropdown(options=list(THEOREMS), value="gini", description="criterion"),
        depth=w.IntSlider(value=3, min=0, max=20, description="depth h"),
        log10_t=w.FloatSlider(value=5.0, min=2.0, max=8.0, step=0.25, description="log10 t"),
        d=w.IntSlider(value=5, min=1, max=100, description="d"),
        log10_c=w.FloatSlider(value=-2.0, min=-3.0, max=1.0, step=0.1, description="log10 c"))


def split_rule_check(trials: int | None = None, delta: float = 0.05, m_max: int = 20_000,
                     seed: int = 3, fast: bool | None = None):
    r"""Lemma 1 / Theorem 4 at one leaf: how often VFDT's rule, VFDT with the paper's
    :math:`2\varepsilon`, and C-Tree with eq. (7) split on a suboptimal feature.

    Two laws of three (easy) or two (hard) binary features, label prior 1/2, split test every
    200 examples up to ``m_max``; C-Tree uses the Gini bound of Theorem 2 at the root.
    One row per (law, rule): ``p_split``, ``p_suboptimal`` (the quantity Theorem 4 bounds by
    delta), ``median_split_at``.
    """
    import pandas as pd

    from ... import montecarlo as mc

    trials = sizes(fast).split_trials if trials is None else trials
    laws = {"easy: 3 features, gains far apart": np.array([[0.1, 0.9], [0.45, 0.55], [0.5, 0.5]]),
            "hard: 2 features, close gains": np.array([[0.3, 0.7], [0.31, 0.69]])}
    rows = []
    for k, (name, theta) in enumerate(laws.items()):
        for j, (rule, crit) in enumerate((("vfdt", "entropy"), ("vfdt_2eps", "entropy"),
                                          ("ctree", "gini"))):
            res = mc.split_selection(0.5, theta, delta, rule=rule, criterion=crit, m_max=m_max,
                                     n_min=200, trials=trials, seed=_derive(seed, k, j))
            sm = res.summary()
            rows.append({"law": name, "rule": rule, "criterion": crit, "delta": delta,
                         "gains": np.round(res.gains, 4).tolist(), "trials": trials,
                         "p_split": sm["p_split"], "p_suboptimal": sm["p_suboptimal"],
                         "median_split_at": sm["median_split_at"], "p_value": sm["p_value"]})
    return pd.DataFrame(rows)


# =============================================================================================
# Theorem 5: leaf consistency
# =============================================================================================

def leaf_consistency_table(ts=(20, 200, 1000), deltas=(0.05, 0.2, 0.5, 0.9), p: float = 0.5,
                           policies=("always", "conftree"), budget: float = 0.1, w: float = 1.0,
                           trials: int | None = None, seed: int = 5, fast: bool | None = None):
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
                r = mc.leaf_consistency_failure(p, t, delta, w=w, policy=policy, budget=budget,
                                                trials=trials, seed=_derive(seed, a, b, c))
                sm = r.summary()
                fail = sm["exact_fail"] if policy == "always" else sm["p_fail"]
                sm["ratio"] = delta / fail if fail > 0 else np.inf
                rows.append(sm)
    return pd.DataFrame(rows)


def plot_leaf_consistency(df):
    """Failure probability against delta (log-log) per t and policy, with the line y = delta."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    deltas = np.sort(df.delta.unique())
    ax.loglog(deltas, deltas, color="k", lw=2, label=r"Theorem 5: $\delta$")
    for i, t in enumerate(sorted(df.t.unique())):
        d = df[(df.t == t) & (df.policy == "always")].sort_values("delta")
        if len(d):
            ax.loglog(d.delta, d.exact_fail.clip(lower=1e-9), "-o", color=colors[i], ms=4,
                      label=f"t = {t}, every label (exact)")
        d = df[(df.t == t) & (df.policy == "conftree")].sort_values("delta")
        if len(d):
            floor = 1.0 / d.trials.iloc[0]
            ax.loglog(d.delta, d.p_fail.clip(lower=floor / 3), "--s", color=colors[i], ms=4,
                      mfc="none", label=f"t = {t}, ConfTree (Monte Carlo)")
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel("P(consistent and non-optimal)")
    ax.set_title("Theorem 5: leaf consistency at p = 1/2", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


# =============================================================================================
# RandCBT: the prose of Sec. VII-A against Algorithm 4; the stepper demo
# =============================================================================================

def prose_leaf_counts(n_leaves: int = 50, draws: int = 2000, seed: int = 0):
    r"""Leaf counts of trees grown by the *prose* of Sec. VII-A: a node with budget n > 1 gives
    :math:`\lfloor nX\rfloor` leaves to the left and :math:`n - 1 - \lfloor nX\rfloor` to the
    right (a budget of 0 or 1 becomes one leaf).  Algorithm 4 (implemented by
    ``streams.rand_cbt``) gives :math:`\max(1, \lfloor nX\rfloor)` and the rest, hence exactly n.

    Returns an array of ``draws`` leaf counts.
    """
    rng = np.random.default_rng(seed)

    def grow(n):
        if n <= 1:
            return 1
        left = int(math.floor(n * rng.uniform()))
        return grow(left) + grow(n - 1 - left)

    return np.array([grow(n_leaves) for _ in range(draws)])


def stepper_demo(n: int = 20_000, seed: int = 4, n_leaves: int = 6, d: int = 3,
                 c: float = 0.02, delta: float = 0.5, k: int = 500, start: int = 4000):
    """C-Tree and H-Tree stepping side by side through one RandCBT stream, next to the tree that
    generated it.

    Returns ``(compare, generator, info)``: ``compare`` is ``viz.side_by_side`` of two
    ``viz.TreeStepper`` (C-Tree with a slider for ``c``, H-Tree -- Gini, grace period 100,
    no tie-break -- with a slider for ``delta``), already stepped to ``start``; ``generator`` the
    generating tree drawn by ``viz.tree_widget``; ``info`` the stream's info (``info.tree``).
    """
    from ... import learners, streams, viz

    X, y, info = streams.rand_cbt(n=n, seed=seed, n_leaves=n_leaves, d=d, return_info=True)

    def make_ctree(**p):
        return learners.CTree(d, **{"c": c, **p})

    def make_htree(**p):
        # tau = 1e-12 rather than 0: the same split decisions (epsilon never gets that small),
        # but HoeffdingTree.explain_one (learners/base.py, _reason) raises OverflowError when
        # tau = 0 and the two best gains are equal (math.ceil of infinity).
        return learners.HoeffdingTree(d, 2, **{"criterion": "gini", "grace_period": 100,
                                               "tau": 1e-12, "delta": delta, **p})

    s1 = viz.TreeStepper(make_ctree, X, y, params={"c": (1e-3, 1.0, "log")}, k=k,
                         title="C-Tree (eq. 10)")
    s2 = viz.TreeStepper(make_htree, X, y, params={"delta": (1e-7, 0.999, "log")}, k=k,
                         title="H-Tree (VFDT, Gini)")
    compare = viz.side_by_side(s1, s2, k=k)
    if start:
        compare.step(start)
    generator = viz.tree_widget(info.tree.to_dot())
    return compare, generator, info


# =============================================================================================
# Figure 3: online accuracy against leaves over many random trees
# =============================================================================================

def rand_cbt_by_leaf(n: int = 100_000, seed: int | None = 1, n_leaves: int = 50, d: int = 5,
                     q: float = 0.7, return_info: bool = False):
    """``streams.rand_cbt`` with the examples in blocks, one leaf after the other (leaves in
    left-to-right order, each block drawn i.i.d. in its leaf's box), instead of shuffled.

    This is the literal reading of Sec. VII-A ("for each leaf of the tree, 10,000 examples are
    uniformly drawn from the subregion ... obtaining 500,000 examples"), which does not say
    that the stream is shuffled.  Importable by name, so sweep workers build it from its seed.
    """
    from ... import streams

    X, y, info = streams.rand_cbt(n=n, seed=seed, n_leaves=n_leaves, d=d, q=q,
                                  return_info=True)
    order = np.argsort(info.tree.apply(X), kind="stable")
    X, y = np.ascontiguousarray(X[order]), y[order]
    info.name = "rand_cbt_by_leaf"
    if return_info:
        return X, y, info
    return X, y


#: log10 ranges of Figure 3's grids (C-Tree: c; the others: L with delta = exp(-L)), chosen so
#: that the trees span one to a few thousand leaves on 500,000 examples in each stream order
FIG3_RANGES = {
    "shuffled": {"CTree": (-2.7, -1.0), "HoeffdingTree": (-3.5, 0.5), "CorrHTree": (-2.5, 2.0)},
    "by_leaf": {"CTree": (-2.5, 0.0), "HoeffdingTree": (-3.0, 2.0), "CorrHTree": (-2.5, 2.0)},
}


def fig3_param_grid(n_params: int, ranges=None) -> dict:
    r"""Per-learner grids of Figure 3, log-spaced so that the trees span one to a few thousand
    leaves on 500,000-example RandCBT streams: C-Tree :math:`c \in [10^{-2.7}, 10^{-1}]`; H-Tree
    and CorrH-Tree :math:`\delta = e^{-L}` with :math:`L` log-spaced (the Hoeffding radius grows
    as :math:`\sqrt L`).  H-Tree runs with the Gini index, grace period 100 and tau 0 as in the
    paper; CorrH-Tree with the classification error."""
    return _learner_grids({**FIG3_RANGES["shuffled"], **(ranges or {})}, n_params)


def _learner_grids(r: dict, n_params: int, **shared) -> dict:
    """The three learners' grids over the log10 ranges ``r``: C-Tree's c log-spaced, H-Tree's
    and CorrH-Tree's delta = exp(-L) with L log-spaced; ``shared`` settings go to the last two
    (C-Tree splits nominal attributes binary anyway)."""
    def deltas(learner):
        return [float(math.exp(-L)) for L in np.logspace(*r[learner], n_params)]
    return {
        "CTree": {"c": [float(v) for v in np.logspace(*r["CTree"], n_params)]},
        "HoeffdingTree": {"delta": deltas("HoeffdingTree"), "criterion": "gini",
                          "grace_period": 100, "tau": 0.0, **shared},
        "CorrHTree": {"delta": deltas("CorrHTree"), **shared},
    }


def _param_column(df):
    df = df.copy()
    df["param_name"] = [PARAM[lr] for lr in df.learner]
    df["param"] = [float(json.loads(p)[PARAM[lr]]) for p, lr in zip(df.params, df.learner)]
    return df


def _check_errors(df):
    bad = df[df.error.astype(str) != ""]
    if len(bad):
        raise RuntimeError(f"{len(bad)} sweep cells failed; first: {bad.error.iloc[0]}")


def fig3_grid(n_trees: int | None = None, n_examples: int | None = None,
              n_params: int | None = None, fast: bool | None = None, *, backend=None,
              processes=None, results=None, progress=False, first_seed: int = 0,
              n_leaves: int = 50, d: int = 5, q: float = 0.7, ranges=None,
              order: str = "shuffled"):
    """Figure 3's grid through :func:`workbench.sweep.run`: every (learner, parameter value,
    RandCBT seed) is one cell; the worker generates the stream from its seed.

    Returns one row per cell with ``learner``, ``param_name``, ``param``, ``seed`` (the tree),
    ``n``, ``n_leaves`` (final), ``depth``, ``accuracy`` (final online accuracy, the paper's
    M_t at the end of the stream), ``seconds``, ``order`` and the sweep's bookkeeping columns.
    ``order="shuffled"`` runs ``streams.rand_cbt`` (examples in random order);
    ``order="by_leaf"`` runs :func:`rand_cbt_by_leaf` (one leaf's examples after the other).
    ``results`` (a ``.csv`` path) makes an interrupted run resumable.
    """
    from ... import sweep

    s = sizes(fast)
    n_trees = s.fig3_trees if n_trees is None else n_trees
    n_examples = s.fig3_examples if n_examples is None else n_examples
    n_params = s.fig3_params if n_params is None else n_params
    if backend is None and processes is None:
        backend = s.backend
    if order not in ("shuffled", "by_leaf"):
        raise ValueError(f"order must be 'shuffled' or 'by_leaf'; got {order!r}")
    stream = "rand_cbt" if order == "shuffled" else f"{__name__}:rand_cbt_by_leaf"
    ranges = {**FIG3_RANGES[order], **(ranges or {})}
    df = sweep.run(fig3_param_grid(n_params, ranges),
                   streams={stream: {"n": n_examples, "n_leaves": n_leaves, "d": d, "q": q}},
                   seeds=list(range(first_seed, first_seed + n_trees)), metrics=["accuracy"],
                   backend=backend, processes=processes, results=results, progress=progress,
                   curve_points=0)
    _check_errors(df)
    df = _param_column(df)
    df["order"] = order
    return df


def _mean_se(x):
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")


def fig3_summary(df, score: str = "accuracy"):
    """Per (learner, parameter value): mean and standard error over trees of the final score
    and of the final number of leaves; ``lo``/``hi`` = mean -/+ 1.96 SE of the score."""
    import pandas as pd

    rows = []
    for (lr, p), g in df.groupby(["learner", "param"], sort=True):
        a, a_se = _mean_se(g[score])
        lv, lv_se = _mean_se(g.n_leaves.astype(float))
        rows.append({"learner": lr, "param_name": PARAM[lr], "param": p, "n_runs": len(g),
                     score: a, "se": a_se, "lo": a - 1.96 * a_se, "hi": a + 1.96 * a_se,
                     "leaves": lv, "leaves_se": lv_se,
                     "median_leaves": float(g.n_leaves.astype(float).median())})
    return pd.DataFrame(rows)


def fig3_binned(df, score: str = "accuracy", edges=None):
    """Every run pooled, binned by its final number of leaves (log-spaced bins): mean score and
    mean -/+ 1.96 SE per (learner, bin)."""
    import pandas as pd

    leaves = df.n_leaves.astype(float)
    if edges is None:
        hi = max(2.0, float(leaves.max()))
        edges = np.unique(np.round(np.logspace(0, math.log10(hi * 1.001), 14)))
    edges = np.asarray(edges, dtype=np.float64)
    b = np.clip(np.searchsorted(edges, leaves, side="right") - 1, 0, len(edges) - 2)
    rows = []
    for lr in df.learner.unique():
        for k in range(len(edges) - 1):
            sel = (df.learner == lr).to_numpy() & (b == k)
            if sel.sum() == 0:
                continue
            a, se = _mean_se(df[score].to_numpy()[sel])
            rows.append({"learner": lr, "bin_lo": edges[k], "bin_hi": edges[k + 1],
                         "leaves": float(leaves[sel].mean()), "n_runs": int(sel.sum()),
                         score: a, "lo": a - 1.96 * se if sel.sum() > 1 else np.nan,
                         "hi": a + 1.96 * se if sel.sum() > 1 else np.nan})
    return pd.DataFrame(rows)


def _per_tree_at(df, learner, size, score):
    """Score of ``learner`` on each tree at ``size`` leaves, by linear interpolation in
    log(leaves) between its runs on that tree (NaN outside their range)."""
    out = {}
    for seed, g in df[df.learner == learner].groupby("seed"):
        g = g.sort_values(["n_leaves", "param"])
        x = np.log(g.n_leaves.astype(float).to_numpy())
        yv = g[score].to_numpy(dtype=np.float64)
        xs, ix = np.unique(x, return_index=True)
        ys = np.array([yv[x == v].mean() for v in xs])
        lx = math.log(size)
        out[seed] = float(np.interp(lx, xs, ys)) if xs[0] <= lx <= xs[-1] else np.nan
    return out


def fig3_compare(df, sizes_=(5, 10, 20, 50, 100, 200, 500, 1000), score: str = "accuracy",
                 reference: str = "CTree"):
    """C-Tree against each baseline at equal size, paired over trees.

    For each tree and learner the score is interpolated (in log leaves) at each size; the
    difference ``reference - other`` on the trees where both reach that size gives a mean and
    a 95% interval (mean -/+ 1.96 SE).  One row per (size, other learner).
    """
    import pandas as pd

    rows = []
    for s in sizes_:
        ref = _per_tree_at(df, reference, s, score)
        for other in [lr for lr in LEARNERS if lr != reference and lr in set(df.learner)]:
            oth = _per_tree_at(df, other, s, score)
            diffs = [ref[k] - oth[k] for k in ref if k in oth
                     and np.isfinite(ref[k]) and np.isfinite(oth[k])]
            if len(diffs) < 2:
                rows.append({"leaves": s, "other": other, "n_trees": len(diffs),
                             "diff": np.nan, "lo": np.nan, "hi": np.nan, "verdict": "n/a"})
                continue
            m, se = _mean_se(diffs)
            verdict = ("C-Tree better" if m - 1.96 * se > 0 else
                       "C-Tree worse" if m + 1.96 * se < 0 else "no clear difference")
            rows.append({"leaves": s, "other": other, "n_trees": len(diffs), "diff": m,
                         "lo": m - 1.96 * se, "hi": m + 1.96 * se, "verdict": verdict})
    return pd.DataFrame(rows)


def fig3_claims(df, generator_leaves: int = 50, score: str = "accuracy") -> dict:
    """The paper's two claims on Figure 3, checked on ``df``.

    * ``equal_size``: :func:`fig3_compare` at sizes from 5 to 1000 leaves;
      ``dominates`` is True only if C-Tree is significantly better than both baselines at every
      size both reach.
    * ``at_generator_size``: C-Tree's parameter value whose mean size is closest to
      ``generator_leaves`` and its mean score, next to C-Tree's best parameter value (its size
      and score); ``best_at_generator_size`` is True if the best is within a factor 1.5 of the
      generator's size.
    """
    cmp = fig3_compare(df, score=score)
    known = cmp[cmp.verdict != "n/a"]
    summ = fig3_summary(df, score)
    c = summ[summ.learner == "CTree"]
    near = c.iloc[int((np.log(c.leaves) - math.log(generator_leaves)).abs().argmin())]
    best = c.iloc[int(c[score].argmax())]
    best_all = summ.loc[summ.groupby("learner")[score].idxmax()]
    return {
        "equal_size": cmp,
        "dominates": bool(len(known) and (known.verdict == "C-Tree better").all()),
        "at_generator_size": {"c": float(near.param), "leaves": float(near.leaves),
                              score: float(near[score]), "ci": (float(near.lo), float(near.hi))},
        "ctree_best": {"c": float(best.param), "leaves": float(best.leaves),
                       score: float(best[score]), "ci": (float(best.lo), float(best.hi))},
        "best_at_generator_size": bool(abs(math.log(best.leaves / generator_leaves))
                                       <= math.log(1.5)),
        "best_per_learner": best_all[["learner", "param", "leaves", score, "lo", "hi"]]
        .reset_index(drop=True),
    }


def fig3_verdict(claims: dict, df, score: str = "accuracy") -> str:
    """The checks of :func:`fig3_claims` as a short Markdown report (scale, equal-size
    comparison, size of C-Tree's best trees, verdict on both claims)."""
    n_trees, n = df.seed.nunique(), int(df.n.iloc[0])
    n_par = int(df.groupby("learner").param.nunique().max())
    cmp = claims["equal_size"]
    order = f" ({df.order.iloc[0].replace('_', ' ')})" if "order" in df else ""
    lines = [f"**Scale{order}:** {n_trees} random trees x {n:,} examples x {n_par} parameter "
             f"values x {df.learner.nunique()} learners = {len(df):,} runs (the paper: 1,000 "
             "trees x 500,000 examples x 200 values)."]
    for other in [lr for lr in LEARNERS if lr != "CTree"]:
        d = cmp[(cmp.other == other) & (cmp.verdict != "n/a")]
        if not len(d):
            lines.append(f"- C-Tree vs {LABEL[other]}: no common size.")
            continue
        parts = [f"{int(r.leaves)} leaves: {r['diff']:+.4f} [{r.lo:+.4f}, {r.hi:+.4f}]"
                 for _, r in d.iterrows()]
        tally = d.verdict.value_counts().to_dict()
        lines.append(f"- C-Tree minus {LABEL[other]} at equal size (paired over trees, 95%): "
                     + "; ".join(parts) + f". Tally: {tally}.")
    g, b = claims["at_generator_size"], claims["ctree_best"]
    lines.append(f"- C-Tree nearest the generator's size: c = {g['c']:.3g}, "
                 f"{g['leaves']:.0f} leaves, {score} {g[score]:.4f} "
                 f"[{g['ci'][0]:.4f}, {g['ci'][1]:.4f}]; C-Tree's best: c = {b['c']:.3g}, "
                 f"{b['leaves']:.0f} leaves, {score} {b[score]:.4f} "
                 f"[{b['ci'][0]:.4f}, {b['ci'][1]:.4f}].")
    best = claims["best_per_learner"]
    lines.append("- Best mean " + score + " per learner: " + "; ".join(
        f"{LABEL[r.learner]} {r[score]:.4f} at {r.leaves:.0f} leaves"
        for _, r in best.iterrows()) + ".")
    lines.append(f"**Claim 1 (C-Tree best at equal size):** "
                 f"{'holds' if claims['dominates'] else 'does not hold'} in this run. "
                 f"**Claim 2 (C-Tree best when it has the generator's 50 leaves):** "
                 f"{'holds' if claims['best_at_generator_size'] else 'does not hold'} "
                 "in this run.")
    return "\n".join(lines)


def plot_fig3(df, score: str = "accuracy", generator_leaves: int = 50, bayes: float | None = 0.7,
              title: str | None = None):
    """Figure 3: (left) mean final score against mean final leaves, one point per parameter
    value, 95% bands over trees; (right) every run binned by its leaves, 95% intervals."""
    import matplotlib.pyplot as plt

    summ = fig3_summary(df, score)
    binned = fig3_binned(df, score)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.3), sharey=True)
    for lr in [lr for lr in LEARNERS if lr in set(df.learner)]:
        d = summ[summ.learner == lr].sort_values("leaves")
        axes[0].fill_between(d.leaves, d.lo, d.hi, color=COLOR[lr], alpha=0.18, lw=0)
        axes[0].errorbar(d.leaves, d[score], xerr=1.96 * d.leaves_se.fillna(0), fmt="-",
                         marker=MARKER[lr], color=COLOR[lr], ms=6, lw=1.3, elinewidth=0.7,
                         label=LABEL[lr])
        b = binned[binned.learner == lr].sort_values("leaves")
        axes[1].errorbar(b.leaves, b[score],
                         yerr=[(b[score] - b.lo).fillna(0), (b.hi - b[score]).fillna(0)],
                         fmt="-", marker=MARKER[lr], color=COLOR[lr], ms=6, lw=1.3,
                         capsize=2, label=LABEL[lr])
    n_trees = df.seed.nunique()
    n = int(df.n.iloc[0])
    for ax in axes:
        ax.set_xscale("log")
        ax.axvline(generator_leaves, color="k", ls=":", lw=1)
        ax.set_xlabel("number of leaves (end of stream)")
        ax.grid(alpha=0.3, which="both")
        if bayes is not None and score == "accuracy":
            ax.axhline(bayes, color="k", lw=0.8, ls="--")
    if bayes is not None and score == "accuracy":
        axes[0].text(axes[0].get_xlim()[0], bayes, " Bayes accuracy", va="bottom", fontsize=8)
    axes[0].set_ylabel(f"final {METRIC_LABEL.get(score, score)}")
    order = f", {df.order.iloc[0].replace('_', ' ')}" if "order" in df else ""
    axes[0].set_title(title or f"Figure 3: {n_trees} RandCBT trees x {n:,} examples{order}; "
                      "mean and 95% band per parameter value", fontsize=9)
    axes[1].set_title("all runs binned by their number of leaves (mean, 95% interval)",
                      fontsize=9)
    axes[0].legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


# =============================================================================================
# Table I and Figure 4: Electricity and Adult, permuted
# =============================================================================================

#: what label 1 means in the shipped data sets
CLASS1 = {"electricity": "UP (NSW price above its mean of the last 24 h)",
          "adult": ">50K (income above 50,000 USD)"}


def table1():
    """Table I of the paper next to the data shipped here, for the two data sets used."""
    import pandas as pd

    from ... import streams

    rows = []
    paper = {"electricity": ("ELECTRICITY", 8, 45312, 26075, 19237),
             "adult": ("A9A* (Adult, one-hot)", 123, 48842, 11687, 37155)}
    for name, (pname, pdim, pn, ppos, pneg) in paper.items():
        X, y, info = getattr(streams, name)(return_info=True)
        counts = np.bincount(y, minlength=2)
        rows.append({"data set": name, "paper row": pname, "paper dimension": pdim,
                     "paper examples": pn, "paper |+|": ppos, "paper |-|": pneg,
                     "our dimension": X.shape[1], "our examples": X.shape[0],
                     "our class 1": int(counts[1]), "our class 0": int(counts[0]),
                     "class 1 is": CLASS1[name]})
    return pd.DataFrame(rows)


def permuted(name: str = "electricity", seed: int | None = 0, n: int | None = None,
             return_info: bool = False):
    """A data set from :mod:`workbench.streams` in a random order (``seed=None``: the original
    order), optionally cut to its first ``n`` rows.  The paper builds ten streams from each data
    set by random permutations (Sec. VII-B).  Importable by name, so sweep workers build it."""
    from ... import streams

    X, y, info = getattr(streams, name)(return_info=True)
    if seed is not None:
        order = np.random.default_rng(int(seed)).permutation(X.shape[0])
        X, y = np.ascontiguousarray(X[order]), y[order]
    if n is not None:
        X, y = X[:n], y[:n]
    if return_info:
        return X, y, info
    return X, y


def fig4_param_grid(n_params: int, ranges=None) -> dict:
    """Grids of Figure 4 (smaller streams than Figure 3, so larger radii matter).  Nominal
    attributes are split binary (value against the rest) by all three learners, as in the
    paper's one-hot A9A and its binary-split setting."""
    r = {"CTree": (-2.5, 0.3), "HoeffdingTree": (-3.0, 1.5), "CorrHTree": (-3.0, 2.0)}
    return _learner_grids({**r, **(ranges or {})}, n_params, binary_nominal=True)


def fig4(datasets=("electricity", "adult"), n_perm: int | None = None,
         n_params: int | None = None, fast: bool | None = None, *, backend=None, processes=None,
         results=None, progress=False, ranges=None):
    """Figure 4: every (learner, parameter value, permutation) of each data set through
    :func:`workbench.sweep.run`.  Rows carry ``dataset``, ``accuracy``, ``f_measure_1`` and
    ``score`` (the data set's metric: :data:`METRIC`)."""
    import pandas as pd

    from ... import sweep

    s = sizes(fast)
    n_perm = s.fig4_perms if n_perm is None else n_perm
    n_params = s.fig4_params if n_params is None else n_params
    if backend is None and processes is None:
        backend = s.backend
    frames = []
    for name in datasets:
        df = sweep.run(fig4_param_grid(n_params, ranges),
                       streams={f"{__name__}:permuted": {"name": name}},
                       seeds=list(range(n_perm)), metrics=["accuracy", "f_measure_1"],
                       backend=backend, processes=processes, results=results,
                       progress=progress, curve_points=0)
        _check_errors(df)
        df = _param_column(df)
        df.insert(0, "dataset", name)
        df["score"] = df[METRIC[name]]
        frames.append(df)
    return pd.concat(frames, ignore_index=True)


def fig4_best(df):
    """Per data set and learner: the parameter value with the best mean score over
    permutations, its mean size and the 95% interval of its score."""
    import pandas as pd

    rows = []
    for name, g in df.groupby("dataset", sort=False):
        summ = fig3_summary(g, "score")
        for lr in LEARNERS:
            d = summ[summ.learner == lr]
            if not len(d):
                continue
            b = d.iloc[int(d.score.argmax())]
            rows.append({"dataset": name, "metric": METRIC[name], "learner": lr,
                         "param_name": PARAM[lr], "param": b.param, "leaves": b.leaves,
                         "score": b.score, "lo": b.lo, "hi": b.hi})
    return pd.DataFrame(rows)


def fig4_compare(df, sizes_=(2, 5, 10, 20, 50, 100)):
    """C-Tree against each baseline at equal size on each data set, paired over permutations
    (as :func:`fig3_compare`, on the data set's score)."""
    import pandas as pd

    frames = []
    for name, g in df.groupby("dataset", sort=False):
        c = fig3_compare(g, sizes_, score="score")
        c.insert(0, "dataset", name)
        frames.append(c)
    return pd.concat(frames, ignore_index=True)


def fig4_verdict(df) -> str:
    """Best score per learner and the equal-size comparison, as Markdown."""
    best = fig4_best(df)
    cmp = fig4_compare(df)
    lines = []
    for name, g in best.groupby("dataset", sort=False):
        parts = [f"{LABEL[r.learner]} {r.score:.4f} [{r.lo:.4f}, {r.hi:.4f}] at {r.leaves:.0f} "
                 "leaves" for _, r in g.iterrows()]
        c = cmp[(cmp.dataset == name) & (cmp.verdict != "n/a")]
        tally = {o: c[c.other == o].verdict.value_counts().to_dict() for o in c.other.unique()}
        tally = "; ".join(f"vs {LABEL[o]}: {t}" for o, t in tally.items())
        lines.append(f"- {name} ({METRIC[name]}): best per learner: " + "; ".join(parts)
                     + f". C-Tree at equal size (paired over permutations, 2-100 leaves): "
                     f"{tally}.")
    return "\n".join(lines)


def plot_fig4(df):
    """Figure 4: score against leaves per data set, one point per parameter value (mean over
    permutations, 95% band)."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(df.dataset))
    fig, axes = plt.subplots(1, len(names), figsize=(6 * len(names), 4), squeeze=False)
    for ax, name in zip(axes[0], names):
        g = df[df.dataset == name]
        summ = fig3_summary(g, "score")
        for lr in LEARNERS:
            d = summ[summ.learner == lr].sort_values("leaves")
            ax.fill_between(d.leaves, d.lo, d.hi, color=COLOR[lr], alpha=0.18, lw=0)
            ax.plot(d.leaves, d.score, "-", marker=MARKER[lr], color=COLOR[lr], label=LABEL[lr])
        ax.set_xscale("log")
        ax.set_xlabel("number of leaves (end of stream)")
        ax.set_ylabel(METRIC_LABEL[METRIC[name]])
        ax.set_title(f"{name}: {g.seed.nunique()} permutations", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=8)
    fig.suptitle("Figure 4", fontsize=10)
    fig.tight_layout()
    return fig


# =============================================================================================
# Figure 5: the ACTIVE setting
# =============================================================================================

def _dataset_rows(name, n_rows):
    X, y, info = permuted(name, seed=None, n=n_rows, return_info=True)
    return X, y, info


def _score(res, metric):
    return res.accuracy if metric == "accuracy" else res.f_measure(1)


def tune_c(name: str, grid=None, n_rows: int | None = None, drift_detection: bool = True,
           fast: bool | None = None):
    """The C-Tree ``c`` with the best score in the FULL setting on the data set in its original
    order (with DDM), as the paper tuned its learners before Figure 5.  Returns
    ``(best_c, frame)``."""
    import pandas as pd

    from ... import evaluate, learners

    s = sizes(fast)
    n_rows = s.fig5_rows if n_rows is None else n_rows
    grid = np.logspace(-2.5, 0.3, 6 if s is FAST else 12) if grid is None else grid
    X, y, info = _dataset_rows(name, n_rows)
    rows = []
    for c in grid:
        model = learners.CTree(X.shape[1], c=float(c), nominal_features=info.nominal_features)
        res = evaluate.prequential(model, X, y, drift_detection=drift_detection,
                                   keep_predictions=False)
        rows.append({"dataset": name, "c": float(c), "score": _score(res, METRIC[name]),
                     "accuracy": res.accuracy, "leaves": model.n_leaves,
                     "n_drifts": res.n_drifts})
    frame = pd.DataFrame(rows)
    return float(frame.c.iloc[int(frame.score.argmax())]), frame


def fig5(datasets=("electricity", "adult"), budgets=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6),
         strategies=STRATEGY_ORDER, n_seeds: int | None = None, c=None,
         fast: bool | None = None, n_rows: int | None = None):
    """Figure 5: online score against the labelling budget for the seven strategies, C-Tree as
    the base learner with DDM change detection (Sec. VIII), data sets in their original order.

    ``c``: a number, a dict per data set, or None (tuned by :func:`tune_c`).  Each strategy
    runs with ``n_seeds`` seeds (its random draws).  A ``FULL`` row per data set (every label,
    DDM on) is the reference.  Rows: ``dataset``, ``strategy``, ``budget``, ``seed``,
    ``accuracy``, ``f_measure_1``, ``score``, ``query_rate``, ``labels_used``, ``n_drifts``,
    ``leaves``, ``c``.
    """
    import pandas as pd

    from ... import active, evaluate, learners

    s = sizes(fast)
    n_seeds = s.fig5_seeds if n_seeds is None else n_seeds
    n_rows = s.fig5_rows if n_rows is None else n_rows
    rows = []
    for name in datasets:
        X, y, info = _dataset_rows(name, n_rows)
        if c is None:
            c_ds = tune_c(name, n_rows=n_rows, fast=fast)[0]
        else:
            c_ds = float(c[name] if isinstance(c, dict) else c)

        def model():
            return learners.CTree(X.shape[1], c=c_ds, nominal_features=info.nominal_features)

        m = model()
        res = evaluate.prequential(m, X, y, drift_detection=True, keep_predictions=False)
        rows.append({"dataset": name, "strategy": "FULL", "budget": 1.0, "seed": 0,
                     "accuracy": res.accuracy, "f_measure_1": res.f_measure(1),
                     "query_rate": 1.0, "labels_used": res.labels_used,
                     "n_drifts": res.n_drifts, "leaves": m.n_leaves, "c": c_ds})
        for strat in strategies:
            for b in budgets:
                for seed in range(n_seeds):
                    m = model()
                    st = active.STRATEGIES[strat](seed=seed)
                    res = evaluate.prequential(m, X, y, strategy=st, budget=float(b),
                                               drift_detection=True, keep_predictions=False)
                    rows.append({"dataset": name, "strategy": strat, "budget": float(b),
                                 "seed": seed, "accuracy": res.accuracy,
                                 "f_measure_1": res.f_measure(1), "query_rate": res.query_rate,
                                 "labels_used": res.labels_used, "n_drifts": res.n_drifts,
                                 "leaves": m.n_leaves, "c": c_ds})
    df = pd.DataFrame(rows)
    df["score"] = [r.accuracy if METRIC[r.dataset] == "accuracy" else r.f_measure_1
                   for r in df.itertuples()]
    return df


def fig5_ranks(df):
    """Mean rank (1 = best) of each strategy over the budgets, per data set, from the mean score
    over seeds; also its mean score and mean query rate."""
    import pandas as pd

    act = df[df.strategy != "FULL"]
    mean = act.groupby(["dataset", "strategy", "budget"], as_index=False)[
        ["score", "query_rate"]].mean()
    mean["rank"] = mean.groupby(["dataset", "budget"]).score.rank(ascending=False)
    out = mean.groupby(["dataset", "strategy"], as_index=False).agg(
        mean_rank=("rank", "mean"), mean_score=("score", "mean"),
        mean_query_rate=("query_rate", "mean"))
    return pd.DataFrame(out).sort_values(["dataset", "mean_rank"]).reset_index(drop=True)


def fig5_verdict(df) -> str:
    """Where ConfTree and SplitConfTree rank among the seven strategies on each data set, as
    Markdown (the paper claims they are the most consistent)."""
    ranks = fig5_ranks(df)
    lines = []
    for name, g in ranks.groupby("dataset", sort=False):
        g = g.sort_values("mean_rank").reset_index(drop=True)
        place = {r.strategy: i + 1 for i, r in g.iterrows()}
        full = df[(df.dataset == name) & (df.strategy == "FULL")].score.mean()
        lines.append(
            f"- {name}: best mean rank {g.strategy.iloc[0]} ({g.mean_rank.iloc[0]:.2f}); "
            f"ConfTree places {place.get('ConfTree', '-')} of {len(g)} "
            f"(mean rank {g.set_index('strategy').mean_rank.get('ConfTree', np.nan):.2f}), "
            f"SplitConfTree {place.get('SplitConfTree', '-')} of {len(g)}; spread of mean scores "
            f"{g.mean_score.max() - g.mean_score.min():.4f}; FULL {full:.4f}.")
    return "\n".join(lines)


def plot_fig5(df):
    """Figure 5: score against budget per data set (mean over seeds with 95% intervals when
    there are several), the FULL setting as a line; below, the query rate actually used."""
    import matplotlib.pyplot as plt

    names = list(dict.fromkeys(df.dataset))
    fig, axes = plt.subplots(2, len(names), figsize=(6 * len(names), 7), squeeze=False,
                             gridspec_kw={"height_ratios": [2.2, 1]}, sharex=True)
    colors = dict(zip(STRATEGY_ORDER, ["#7f7f7f", "#1f77b4", "#17becf", "#2ca02c", "#9467bd",
                                        "#d62728", "#ff7f0e"]))
    for k, name in enumerate(names):
        g = df[df.dataset == name]
        full = g[g.strategy == "FULL"].score.mean()
        ax, axq = axes[0, k], axes[1, k]
        ax.axhline(full, color="k", ls="--", lw=1, label="FULL (all labels)")
        for strat in STRATEGY_ORDER:
            d = g[g.strategy == strat]
            if not len(d):
                continue
            agg = d.groupby("budget").agg(score=("score", "mean"), sd=("score", "std"),
                                          n=("score", "size"), q=("query_rate", "mean"))
            se = (agg.sd / np.sqrt(agg.n)).fillna(0)
            lw = 2.2 if "ConfTree" in strat else 1.2
            ax.errorbar(agg.index, agg.score, yerr=1.96 * se, marker="o", ms=4, lw=lw,
                        capsize=2, color=colors[strat], label=strat)
            axq.plot(agg.index, agg.q, marker="o", ms=3, lw=lw, color=colors[strat])
        b = np.sort(g[g.strategy != "FULL"].budget.unique())
        axq.plot(b, b, color="k", lw=0.8, ls=":")
        ax.set_title(f"{name} (original order, DDM on), C-Tree c = {g.c.iloc[0]:.3g}",
                     fontsize=9)
        ax.set_ylabel(METRIC_LABEL[METRIC[name]])
        axq.set_xlabel("labelling budget B")
        axq.set_ylabel("query rate used")
        ax.grid(alpha=0.3)
        axq.grid(alpha=0.3)
    axes[0, 0].legend(fontsize=7, ncol=2)
    fig.suptitle("Figure 5: ACTIVE setting", fontsize=10)
    fig.tight_layout()
    return fig


class Stopwatch:
    """Wall time since construction, for the notebook's run-time line."""

    def __init__(self):
        self.start = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start

    def __repr__(self) -> str:
        s = self.seconds
        return f"{s:.0f} s ({s / 60:.1f} min)"
