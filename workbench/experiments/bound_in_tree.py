"""Notebook 07, *does the bound hold as the tree uses it?*: the runners and plots behind it.

A confidence-based tree claims that the split a leaf makes is, with probability at least
``1 - delta``, on the truly best feature.  The leaf tests its bound again and again (optional
stopping) over many candidates (multiple comparisons), so the guarantee of a bound at one fixed
sample size does not carry over.  The functions here measure what happens, with the machinery
of :mod:`workbench.montecarlo` (``split_selection``, ``audit_tree``, ``audit_splits``) and the
bounds of :mod:`workbench.bounds.anytime` that stay valid under repeated looks:

* :func:`one_vs_repeated`: one leaf, one test against a test every grace period
  (:func:`workbench.montecarlo.split_selection`), for Hoeffding's bound and the valid ones;
* :func:`tree_audit`: the tree-level audit of several learners on RandCBT streams (wrong splits
  per split and per tree, with exact intervals);
* :func:`price_of_validity`: accuracy, leaves and rows to the first split of the valid bounds
  against Hoeffding's, and :func:`plot_price`;
* the target run (:func:`run_target`, :func:`summarize_target`, :func:`stored_target`): 200
  trees per configuration on RandCBT (10 leaves, 5 features, q = 0.8), streams long enough for
  the valid bound to split, stored under ``results/`` with the command that made it::

      python3 -m workbench.experiments.bound_in_tree --refresh [--n 3000000] [--trees 200]

  The run appends every finished tree to ``results/bound_in_tree_trees.partial.csv`` (a
  restarted run resumes from it) and writes the stored tables at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..viz.fast import fast_mode
from .paper000._common import Stopwatch  # noqa: F401  (the notebook's run-time line)

#: the target's stream: RandCBT with 10 leaves over [0, 1]^5 and label noise q = 0.8
CBT = dict(n_leaves=10, d=5, q=0.8)
#: the target's confidence, tolerance (a split is wrong when its feature's best true gain is
#: more than TOL below the best one's) and tie threshold (0: no tie split)
DELTA, TOL, TAU = 0.05, 1e-3, 0.0
#: counted cut points, the same for every feature: 255 fixed cuts, known before the data, so
#: that a union bound over the candidates (5 x 255) is valid and the audit judges exact merits
GRID = np.linspace(0.0, 1.0, 257)[1:-1]

RESULTS = Path(__file__).parent / "results"
TARGET_FILE = RESULTS / "bound_in_tree_target.csv"
TREES_FILE = RESULTS / "bound_in_tree_trees.csv"
PARTIAL_FILE = RESULTS / "bound_in_tree_trees.partial.csv"
#: the sources whose change makes the stored target run stale
SOURCES = (
    "workbench/experiments/bound_in_tree.py",
    "workbench/core",
    "workbench/learners",
    "workbench/bounds",
    "workbench/montecarlo",
    "workbench/streams",
    "workbench/evaluate",
)


# =============================================================================================
# The learners (module-level makers: worker processes import them by name)
# =============================================================================================


def make_cs_gini():
    """C-Tree's rule (gap > 2 epsilon) on the Gini index with the confidence sequence
    ``cs_gini`` (valid at every sample size and for every counted candidate)."""
    from .. import learners

    return learners.CTree(
        n_features=CBT["d"], criterion="gini", bound="cs_gini", delta=DELTA, tau=TAU,
        cut_points=GRID,
    )  # fmt: skip


def make_gini_looks():
    """C-Tree's rule on the Gini index with 000's Theorem 2 at delta spent over the looks and
    the candidates (``gini_looks``)."""
    from .. import learners

    return learners.CTree(
        n_features=CBT["d"], criterion="gini", bound="gini_looks", delta=DELTA, tau=TAU,
        cut_points=GRID,
    )  # fmt: skip


def make_hoeffding():
    """VFDT: information gain, Hoeffding's bound (not valid for a gain), the same counted cut
    points as the valid bounds, so that only the bound and rule differ."""
    from .. import learners

    return learners.HoeffdingTree(
        n_features=CBT["d"], n_classes=2, delta=DELTA, tau=TAU, cut_points=GRID
    )


def make_vfdt():
    """VFDT as it ships: Gaussian observer (cut points placed by the data), Hoeffding's bound."""
    from .. import learners

    return learners.HoeffdingTree(n_features=CBT["d"], n_classes=2, delta=DELTA, tau=TAU)


def make_ctree():
    """000's C-Tree: Gini, the practical bound of eq. (10) with c = 0.1 (the default c = 1 makes
    no split within these streams)."""
    from .. import learners

    return learners.CTree(n_features=CBT["d"], c=0.1, delta=DELTA, tau=TAU)


def make_efdt():
    """004's EFDT (Hoeffding Anytime Tree): splits against the null split, re-evaluates."""
    from .. import learners

    return learners.EFDT(n_features=CBT["d"], n_classes=2, delta=DELTA, tau=TAU)


MAKERS = {
    "cs_gini": make_cs_gini,
    "gini_looks": make_gini_looks,
    "hoeffding": make_hoeffding,
    "vfdt": make_vfdt,
    "ctree": make_ctree,
    "efdt": make_efdt,
}

#: what each configuration is, for tables and legends
LABELS = {
    "cs_gini": "C-Tree rule + cs_gini (confidence sequence)",
    "gini_looks": "C-Tree rule + gini_looks (delta over looks)",
    "hoeffding": "VFDT + Hoeffding, counted cuts",
    "vfdt": "VFDT + Hoeffding, Gaussian observer",
    "ctree": "C-Tree, 000's eq. (10), c = 0.1",
    "efdt": "EFDT + Hoeffding",
}


# =============================================================================================
# Sizes
# =============================================================================================


@dataclass(frozen=True)
class Sizes:
    """How large the notebook's experiments are in one mode."""

    trials: int  # split_selection trials per row
    audit_n: int  # rows of a RandCBT stream in the tree-level audit
    audit_seeds: int  # trees per learner in the audit
    price_n: tuple  # stream lengths of the price-of-validity runs
    price_seeds: int  # trees per (learner, length)


FAST = Sizes(trials=500, audit_n=50_000, audit_seeds=3, price_n=(20_000,), price_seeds=2)
FULL = Sizes(
    trials=20_000, audit_n=200_000, audit_seeds=20, price_n=(100_000, 1_000_000), price_seeds=5
)


def sizes(fast: bool | None = None) -> Sizes:
    """The sizes of the current mode (``fast=None``: read ``WORKBENCH_FAST``)."""
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    s = sizes(fast)
    mode = "QUICK (WORKBENCH_FAST=1)" if s is FAST else "FULL"
    lengths = ", ".join(f"{n:,}" for n in s.price_n)
    return (
        f"Mode: {mode}. {s.trials:,} Monte Carlo trials per leaf experiment; tree audits on "
        f"{s.audit_seeds} RandCBT streams of {s.audit_n:,} rows per learner; price of validity "
        f"on {s.price_seeds} streams of {lengths} rows.  The target run (200 trees per "
        "configuration, millions of rows each) is shown from its stored result."
    )


# =============================================================================================
# One tree of the target run
# =============================================================================================


def target_tree(config: str, seed: int, n: int) -> dict:
    """Train the learner of ``config`` test-then-train on the RandCBT stream ``seed`` of ``n``
    rows (:data:`CBT`) and audit every split it made against the stream's exact law.

    The audit judges the learner's own criterion (Gini for the C-Tree rules, information gain
    in bits for VFDT) at ``tol`` = :data:`TOL`; ``wrong_ig`` also judges by information gain,
    so that every row has a figure in bits."""
    from .. import evaluate, montecarlo, streams

    t0 = time.perf_counter()
    X, y, info = streams.rand_cbt(n=n, seed=seed, return_info=True, **CBT)
    model = MAKERS[config]()
    res = evaluate.prequential(model, X, y)
    del X, y
    audit = montecarlo.audit_tree(model, info, tol=TOL)
    out = {"config": config, "seed": int(seed), "n": int(n)}
    out.update(montecarlo.summarize_audit(audit))
    tie = audit["tie"].fillna(False).to_numpy(bool) if len(audit) else np.zeros(0, bool)
    if len(audit) and getattr(model, "criterion", "") == "gini":
        ig = montecarlo.audit_tree(model, info, tol=TOL, criterion="info_gain")
        out["wrong_ig"] = int((ig["wrong"].to_numpy(bool) & ~tie).sum())
    else:
        out["wrong_ig"] = out["wrong"]
    out.update(
        accuracy=float(res.accuracy),
        n_leaves=int(model.n_leaves),
        depth=int(model.depth),
        first_split=float(audit["t"].min()) if len(audit) else float("nan"),
        seconds=time.perf_counter() - t0,
    )
    return out


def _target_task(args):
    return target_tree(*args)


def run_target(
    n=3_000_000, trees=200, configs=("cs_gini", "hoeffding"), processes=2, partial=PARTIAL_FILE
):
    """The target run: ``trees`` seeds (0, 1, ...) of each configuration, every finished tree
    appended to ``partial`` (a restart skips the trees already there).  Returns the per-tree
    frame of every finished tree."""
    import multiprocessing as mp

    partial = Path(partial)
    done = set()
    if partial.exists():
        old = pd.read_csv(partial)
        old = old[old["n"] == n]
        done = set(zip(old["config"], old["seed"]))
    tasks = [(c, s, n) for s in range(trees) for c in configs if (c, s) not in done]
    partial.parent.mkdir(parents=True, exist_ok=True)
    header = not partial.exists()
    t0 = time.perf_counter()
    with open(partial, "a") as fh, mp.get_context("spawn").Pool(processes) as pool:
        for i, row in enumerate(pool.imap_unordered(_target_task, tasks), 1):
            frame = pd.DataFrame([row])
            frame.to_csv(fh, header=header, index=False)
            header = False
            fh.flush()
            print(
                f"[{i}/{len(tasks)} {time.perf_counter() - t0:.0f}s] {row['config']} seed "
                f"{row['seed']}: {row['splits']} splits, {row['wrong']} wrong, "
                f"{row['n_leaves']} leaves, {row['seconds']:.1f}s",
                flush=True,
            )
    out = pd.read_csv(partial)
    return out[(out["n"] == n) & out["config"].isin(list(configs))].reset_index(drop=True)


def summarize_target(per_tree: pd.DataFrame, level=0.95) -> pd.DataFrame:
    """One row per configuration of the target run: trees, splits, wrong splits, the per-split
    rate with its exact (Clopper-Pearson) upper 95% limit (splits counted as independent) and
    Korn and Graubard's interval (trees as the independent units), the per-tree rate with its
    Clopper-Pearson interval, the wrong splits judged by information gain, mean accuracy and
    leaves, median rows to the first split and the wall seconds per tree."""
    from ..montecarlo.audit import _clopper_pearson, korn_graubard

    rows = []
    for config, t in per_tree.groupby("config", sort=False):
        S, W = int(t["splits"].sum()), int(t["wrong"].sum())
        lo, hi = _clopper_pearson(W, S, level)
        one_sided = _clopper_pearson(W, S, 1 - 2 * (1 - level))[1] if S else np.nan
        _r, _kl, kg_hi, n_eff = korn_graubard(t["wrong"], t["splits"], level)
        k_tree = int(t["any_wrong"].astype(bool).sum())
        t_lo, t_hi = _clopper_pearson(k_tree, len(t), level)
        first = t["first_split"].to_numpy(float)
        rows.append(
            {
                "config": config,
                "learner": LABELS.get(config, config),
                "n": int(t["n"].iloc[0]),
                "trees": len(t),
                "splits": S,
                "wrong": W,
                "split_rate": W / S if S else np.nan,
                "split_high": hi,
                "split_high_one_sided": one_sided,
                "split_high_trees": kg_hi,
                "n_effective": n_eff,
                "wrong_ig": int(t["wrong_ig"].sum()),
                "trees_wrong": k_tree,
                "tree_rate": k_tree / len(t),
                "tree_high": t_hi,
                "no_split": int((~np.isfinite(first)).sum()),
                "accuracy": float(t["accuracy"].mean()),
                "leaves": float(t["n_leaves"].mean()),
                "first_split": float(np.nanmedian(first)) if np.isfinite(first).any() else np.nan,
                "seconds_per_tree": float(t["seconds"].mean()),
            }
        )
    return pd.DataFrame(rows)


def refresh_command(n, trees, configs) -> str:
    return (
        f"python3 -m workbench.experiments.bound_in_tree --refresh --n {n} --trees {trees} "
        f"--configs {','.join(configs)}"
    )


def save_target(per_tree: pd.DataFrame, command: str, wall_seconds=None) -> pd.DataFrame:
    """Store the per-tree rows and the summary under ``results/`` with their provenance."""
    from .. import provenance

    note = "" if wall_seconds is None else f"  # {wall_seconds / 60:.0f} min wall"
    table = summarize_target(per_tree)
    provenance.save(per_tree, TREES_FILE, command=command + note, sources=SOURCES)
    provenance.save(table, TARGET_FILE, command=command + note, sources=SOURCES)
    return table


def stored_target():
    """The stored target summary and its per-tree rows (``provenance.load``: the header in
    ``attrs["provenance"]``), or ``(None, None)`` when no run is stored."""
    from .. import provenance

    if not TARGET_FILE.exists():
        return None, None
    return provenance.load(TARGET_FILE), provenance.load(TREES_FILE)


def describe_stored(table) -> str:
    """Where the stored target run comes from: revision, date, command."""
    from .. import provenance

    head = table.attrs.get("provenance", {})
    stale = provenance.staleness(TARGET_FILE)
    return (
        f"Stored run of {head.get('date', '?')}, revision {head.get('revision', '?')[:12]}; "
        f"made by: {head.get('command', '?')}"
        + (f".  Note: {stale}." if stale else ".  The code that made it is unchanged since.")
    )


# =============================================================================================
# One leaf: one test against a test every grace period (split_selection)
# =============================================================================================

#: the leaf's laws: two binary features of close true gains (0.53 and 0.50 bits), and the best
#: of five (one feature as the first, four as the second)
LAWS = {
    "2 features": (0.5, [[0.1, 0.9], [0.11, 0.89]]),
    "best of 5": (0.5, [[0.1, 0.9]] + [[0.11, 0.89]] * 4),
}
#: the split tests compared at the leaf: (rule, criterion, bound) of split_selection
TESTS = {
    "VFDT + Hoeffding": ("vfdt", "entropy", "hoeffding"),
    "VFDT + hoeffding_looks": ("vfdt", "entropy", "hoeffding_looks"),
    "2 eps + gini_looks": ("vfdt_2eps", "gini", "gini_looks"),
    "2 eps + cs_gini": ("vfdt_2eps", "gini", "cs_gini"),
    "C-Tree eq. (7)": ("ctree", "gini", None),
}
#: one test at m = 2,000; a test every 200 examples up to 20,000
SCHEDULES = {"one test at 2,000": (2_000, 2_000), "every 200 up to 20,000": (200, 20_000)}


def one_vs_repeated(trials=None, delta=DELTA, seed=1, tests=None, laws=None) -> pd.DataFrame:
    """How often one leaf splits on a truly worse feature, tested once or every grace period.

    For each law of :data:`LAWS`, each split test of :data:`TESTS` (or ``tests``) and each
    schedule of :data:`SCHEDULES`: ``trials`` streams into one leaf
    (:func:`workbench.montecarlo.split_selection`), the share that split at all, the share
    that split on a feature whose true gain (by the test's own criterion) is below the best,
    its exact one-sided 95% upper limit (Clopper-Pearson) and the one-sided binomial p-value
    of "rate <= delta"."""
    from ..montecarlo import split_selection
    from ..montecarlo.audit import _clopper_pearson

    trials = trials or sizes().trials
    rows = []
    for law, (prior, theta) in (laws or LAWS).items():
        for label, (rule, criterion, bound) in (tests or TESTS).items():
            for schedule, (n_min, m_max) in SCHEDULES.items():
                r = split_selection(
                    prior, theta, delta, rule=rule, criterion=criterion, m_max=m_max,
                    n_min=n_min, trials=trials, seed=seed, bound=bound,
                )  # fmt: skip
                s = r.summary()
                k = s["n_suboptimal"]
                rows.append(
                    {
                        "law": law,
                        "test": label,
                        "schedule": schedule,
                        "trials": trials,
                        "split": s["p_split"],
                        "wrong": s["p_suboptimal"],
                        "wrong_high": _clopper_pearson(k, trials, 0.90)[1],
                        "p (H0: <= delta)": s["p_value"],
                        "median split at": s["median_split_at"],
                    }
                )
    return pd.DataFrame(rows)


def plot_one_vs_repeated(table: pd.DataFrame, delta=DELTA):
    """Bars of the wrong-split rate per test, one test and repeated tests side by side, one
    panel per law; whiskers to the one-sided 95% upper limit; the dashed line is delta."""
    import matplotlib.pyplot as plt

    laws = list(dict.fromkeys(table["law"]))
    fig, axes = plt.subplots(1, len(laws), figsize=(6.2 * len(laws), 3.8), squeeze=False)
    for ax, law in zip(axes[0], laws):
        t = table[table["law"] == law]
        tests = list(dict.fromkeys(t["test"]))
        x = np.arange(len(tests))
        for i, schedule in enumerate(SCHEDULES):
            r = t[t["schedule"] == schedule].set_index("test").loc[tests]
            ax.bar(
                x + (i - 0.5) * 0.38, r["wrong"], 0.38, label=schedule,
                yerr=[np.zeros(len(r)), r["wrong_high"] - r["wrong"]], capsize=3,
                color=("#7aa6c2", "#d9822b")[i],
            )  # fmt: skip
        ax.axhline(delta, ls="--", color="k", lw=1, label=f"delta = {delta:g}")
        ax.set_xticks(x)
        ax.set_xticklabels(tests, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{law}: split on a worse feature")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel("share of streams")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    return fig


# =============================================================================================
# Trees: the audit and the price of validity
# =============================================================================================


def tree_audit(configs: dict, n=None, seeds=None, tol=TOL, progress=False):
    """Every configuration of ``configs`` ({label: function of no argument returning a
    learner, a name of :data:`MAKERS`}) on the same RandCBT streams (:data:`CBT`, ``n`` rows,
    one per seed), every split audited against the stream's exact law
    (:func:`workbench.montecarlo.audit.audit_seed`).  Runs in this process (a learner with a
    bound defined in the notebook needs nothing else).  Returns ``(table, per_tree)``: one row
    per configuration as :func:`workbench.montecarlo.audit_splits` gives it, and one per tree."""
    from ..montecarlo.audit import _summary_row, audit_seed

    s = sizes()
    n = s.audit_n if n is None else int(n)
    seeds = range(s.audit_seeds) if seeds is None else seeds
    jobs = [(label, seed) for seed in seeds for label in configs]
    if progress:
        from tqdm.auto import tqdm

        jobs = tqdm(jobs, unit="trees", leave=False)
    per = []
    for label, seed in jobs:
        maker = configs[label]
        maker = MAKERS[maker] if isinstance(maker, str) else maker
        t0 = time.perf_counter()
        row = audit_seed(seed, maker, "rand_cbt", dict(CBT, n=n), tol=tol)
        per.append(dict(config=label, seed=int(seed), n=n, seconds=time.perf_counter() - t0, **row))
    per = pd.DataFrame(per)
    table = pd.DataFrame([_summary_row(c, per[per["config"] == c], 0.95) for c in configs])
    table.insert(1, "n", n)
    return table, per


def price_of_validity(configs: dict, ns=None, seeds=None, progress=False) -> pd.DataFrame:
    """:func:`tree_audit`'s per-tree rows at every stream length of ``ns``: accuracy, leaves,
    rows to the first split and wrong splits per tree, for the plot of :func:`plot_price`."""
    s = sizes()
    ns = s.price_n if ns is None else ns
    seeds = range(s.price_seeds) if seeds is None else seeds
    return pd.concat(
        [tree_audit(configs, n, seeds, progress=progress)[1] for n in ns], ignore_index=True
    )


def plot_price(per_tree: pd.DataFrame, labels=None):
    """Left: prequential accuracy against leaves, one point per tree, a colour per
    configuration and a marker per stream length.  Right: rows to the first split per
    configuration and length (a tree that never split is drawn at its stream's end, hollow)."""
    import matplotlib.pyplot as plt

    labels = labels or {}
    fig, (a, b) = plt.subplots(1, 2, figsize=(13, 4.4), gridspec_kw={"width_ratios": [1.2, 1]})
    configs = list(dict.fromkeys(per_tree["config"]))
    ns = sorted(per_tree["n"].unique())
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, c in enumerate(configs):
        for j, n in enumerate(ns):
            t = per_tree[(per_tree["config"] == c) & (per_tree["n"] == n)]
            if not len(t):
                continue
            a.scatter(
                t["n_leaves"], t["accuracy"], color=colors[i % len(colors)], marker="os^Dv"[j % 5],
                alpha=0.6, s=22, label=f"{labels.get(c, c)}, {n:,} rows",
            )  # fmt: skip
            first = t["first_split"].to_numpy(float)
            split = np.isfinite(first)
            y = np.full(len(t), i + (j - (len(ns) - 1) / 2) * 0.25)
            b.scatter(first[split], y[split], color=colors[i % len(colors)], marker="os^Dv"[j % 5],
                      alpha=0.6, s=22)  # fmt: skip
            b.scatter(np.full((~split).sum(), n), y[~split], facecolors="none",
                      edgecolors=colors[i % len(colors)], marker="os^Dv"[j % 5], s=22)  # fmt: skip
    a.set_xscale("log")
    a.set_xlabel("leaves at the end of the stream")
    a.set_ylabel("prequential accuracy")
    a.set_title("accuracy against tree size")
    a.grid(alpha=0.3)
    a.legend(fontsize=7, loc="lower right")
    b.set_xscale("log")
    b.xaxis.set_minor_formatter(plt.NullFormatter())
    b.set_yticks(range(len(configs)))
    b.set_yticklabels([labels.get(c, c) for c in configs], fontsize=8)
    b.set_xlabel("rows to the first split (hollow: never split; drawn at the stream's end)")
    b.set_title("how long the first split takes")
    b.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def plot_target(per_tree: pd.DataFrame):
    """The stored target run, per configuration: splits and wrong splits per tree
    (histograms), and rows to the first split."""
    import matplotlib.pyplot as plt

    configs = list(dict.fromkeys(per_tree["config"]))
    fig, axes = plt.subplots(1, 2, figsize=(12, 3.8))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, c in enumerate(configs):
        t = per_tree[per_tree["config"] == c]
        w = t["wrong"] / t["splits"].where(t["splits"] > 0)
        axes[0].hist(w.dropna(), bins=np.linspace(0, 0.5, 26), alpha=0.6, color=colors[i],
                     label=f"{LABELS.get(c, c)} ({int((t['splits'] > 0).sum())} trees that split)")  # fmt: skip
        first = t["first_split"].dropna()
        if len(first):
            axes[1].hist(np.log10(first), bins=30, alpha=0.6, color=colors[i],
                         label=LABELS.get(c, c))  # fmt: skip
    axes[0].axvline(DELTA, ls="--", color="k", lw=1, label=f"delta = {DELTA:g}")
    axes[0].set_xlabel("share of a tree's splits that were wrong")
    axes[0].set_ylabel("trees")
    axes[0].legend(fontsize=7)
    axes[1].set_xlabel("log10 rows to the first split")
    axes[1].set_ylabel("trees")
    axes[1].legend(fontsize=7)
    for ax in axes:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


# =============================================================================================
# A wrong split, found for the stepper
# =============================================================================================


def first_wrong_split(maker, n=20_000, seeds=range(20), tol=TOL, max_t=None):
    """The first seed whose RandCBT stream (:data:`CBT`, ``n`` rows) makes ``maker``'s tree
    split wrongly, with that split's audit row (``seed``, ``t``, ``node``, feature, true
    gains), the stream and the audit of the tree; None if no seed does (before ``max_t``)."""
    from .. import evaluate, montecarlo, streams

    for seed in seeds:
        X, y, info = streams.rand_cbt(n=n, seed=seed, return_info=True, **CBT)
        model = maker()
        evaluate.prequential(model, X, y)
        audit = montecarlo.audit_tree(model, info, tol=tol)
        bad = audit[audit["wrong"] & ~audit["tie"].fillna(False).astype(bool)]
        if max_t is not None:
            bad = bad[bad["t"] < max_t]
        if len(bad):
            row = bad.sort_values("t").iloc[0]
            return {
                "seed": int(seed),
                "row": row,
                "X": X,
                "y": y,
                "info": info,
                "audit": audit,
                "model": model,
            }
    return None


def wrong_split_stepper(n=15_000, seeds=range(20, 40), before=300, k=100, max_t=15_000):
    """A stepper of VFDT (Hoeffding's bound, counted cuts, :func:`make_hoeffding`) on the first
    RandCBT stream (:data:`CBT`) on which it splits wrongly before ``max_t``, stepped to
    ``before`` instances before that split.  Returns ``(stepper, found, generator)``: the
    ``viz.TreeStepper``, :func:`first_wrong_split`'s dict, and the generating tree drawn."""
    from .. import learners, viz

    found = first_wrong_split(make_hoeffding, n=n, seeds=seeds, max_t=max_t)
    if found is None:
        raise RuntimeError(f"no wrong split before t = {max_t:,} in seeds {list(seeds)}")

    def make(**p):
        kw = dict(delta=DELTA, tau=TAU, cut_points=GRID)
        kw.update(p)
        return learners.HoeffdingTree(CBT["d"], 2, **kw)

    stepper = viz.TreeStepper(
        make, found["X"], found["y"], params={"delta": (1e-7, 0.5, "log")}, k=k,
        title="VFDT, Hoeffding's bound, 255 counted cuts per feature",
    )  # fmt: skip
    stepper.step(max(0, int(found["row"]["t"]) - before))
    generator = viz.show_dot(found["info"].tree.to_dot(), title="the tree that made the stream")
    return stepper, found, generator


def describe_wrong(found) -> str:
    """What the audit says about the wrong split :func:`first_wrong_split` found, and how many
    of the examples behind the leaf's epsilon were its own."""
    r = found["row"]
    depth = int(r["depth"])
    where = "the root" if depth == 0 else f"a node at depth {depth}"
    w0 = float(found["model"].tree.w0[int(r["node"])])
    own = float(r["n"]) - w0
    out = (
        f"Stream seed {found['seed']}: at t = {int(r['t']):,} VFDT split {where} (node "
        f"{int(r['node'])}) on x{int(r['feature'])} <= {r['threshold']:.4f}. In that node's region "
        f"the truly best feature is x{int(r['best_feature'])}, with a true gain of "
        f"{r['gain_best']:.4f} bits at its best cut; x{int(r['feature'])} reaches at most "
        f"{r['gain_feature']:.4f} bits, and the cut made has {r['gain_chosen']:.4f}. The leaf "
        f"saw observed gains {r['g_best']:.4f} and {r['g_second']:.4f} (runner-up), against "
        f"epsilon = {r['epsilon']:.4f}, at its look number {int(r['looks'])}."
    )
    if w0 > 0:
        out += (
            f" That epsilon was computed for n = {r['n']:,.0f} examples, but {w0:,.0f} of them are"
            f" the class counts the leaf inherited from its parent's branch when it was made (as"
            f" MOA's VFDT does); the gains it compared came from its own {own:,.0f} examples."
        )
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m workbench.experiments.bound_in_tree")
    ap.add_argument("--refresh", action="store_true", help="make the stored target run again")
    ap.add_argument("--n", type=int, default=3_000_000, help="rows per stream")
    ap.add_argument("--trees", type=int, default=200, help="trees per configuration")
    ap.add_argument("--configs", default="cs_gini,hoeffding", help="comma-separated")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument(
        "--store-partial", action="store_true", help="store what the partial file holds"
    )
    a = ap.parse_args(argv)
    configs = tuple(c for c in a.configs.split(",") if c)
    bad = [c for c in configs if c not in MAKERS]
    if bad:
        ap.error(f"unknown configurations {bad}; known: {sorted(MAKERS)}")
    if not (a.refresh or a.store_partial):
        table, _ = stored_target()
        print("no stored run" if table is None else describe_stored(table))
        if table is not None:
            print(table.to_string())
        return 0
    t0 = time.perf_counter()
    if a.refresh:
        per = run_target(a.n, a.trees, configs, a.processes)
    else:
        per = pd.read_csv(PARTIAL_FILE)
        per = per[(per["n"] == a.n) & per["config"].isin(configs)].reset_index(drop=True)
    trees = int(per.groupby("config").size().min())
    per = per.sort_values(["config", "seed"], kind="stable").reset_index(drop=True)
    table = save_target(
        per, refresh_command(a.n, trees, configs), time.perf_counter() - t0 if a.refresh else None
    )
    print(table.to_string())
    if a.refresh and trees >= a.trees and os.path.exists(PARTIAL_FILE):
        os.remove(PARTIAL_FILE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
