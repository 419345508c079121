r"""000's claims as a table (:mod:`workbench.claims`): each re-tested over seeds, with its own
quantity, an interval, a paired test and a rule fixed here, before any run.

What a seed is depends on the experiment, as in the paper: a random tree for Figure 3 (each
learner runs its whole grid on the same stream, so the differences are paired by tree), a
permutation of the data set for Figure 4, the strategies' random draws for Figure 5, and a
Monte Carlo seed for Theorems 1-5.  The figures' runs go through :mod:`workbench.sweep` (their
cells, or :func:`workbench.sweep.apply` for Figure 5); the notebook passes the frames it has
already computed (``frames=``), so nothing runs twice.

Conventions fixed before the run:

* "better at equal size": on each tree (permutation), each learner's score is interpolated in
  log leaves at fixed sizes (Fig. 3: 5-1,000 leaves; Fig. 4: 2-100), and the claim's quantity
  is the mean over the sizes both learners reach of C-Tree's score minus the baseline's.
* "most accurate at the generator's size": the number of leaves of C-Tree's most accurate run
  on each tree, as log10(leaves / 50); the claim holds if it is within a factor 2 of 50.
* "the most consistent strategy": the mean score over the six budgets minus that of the best
  strategy that is not a ConfTree variant (the one with the highest mean over all seeds).
* the theorems: the largest violation rate over the Monte Carlo grid must stay below delta.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import claims as C
from ._common import LABEL, STRATEGY_ORDER, THEOREM_OF, THEOREMS, sizes
from .figure_3 import _per_tree_at

FIG3_SIZES = (5, 10, 20, 50, 100, 200, 500, 1000)
FIG4_SIZES = (2, 5, 10, 20, 50, 100)
GENERATOR_LEAVES = 50
BASELINES = ("HoeffdingTree", "CorrHTree")
ORDERS = {"shuffled": "shuffled stream", "by_leaf": "leaf-ordered stream"}
DATASETS = ("electricity", "adult")
CONF = ("ConfTree", "SplitConfTree")
DELTA = 0.05
NAME = "workbench.experiments.paper000:claims"


@dataclass(frozen=True)
class ClaimSizes:
    n_seeds: int  # Figures 4, 5 and the Monte Carlo checks (Figure 3: the mode's trees)


QUICK = ClaimSizes(n_seeds=3)
FULL = ClaimSizes(n_seeds=10)


def describe_claims_mode(quick: bool) -> str:
    s, f = (QUICK if quick else FULL), sizes(quick)
    return (
        f"Claims run, {'QUICK' if quick else 'FULL'} mode: Figure 3 over {f.fig3_trees} random "
        f"trees per stream order, Figure 4 over {s.n_seeds} permutations, Figure 5 over "
        f"{s.n_seeds} strategy seeds, Theorems 1-5 over {s.n_seeds} Monte Carlo seeds at the "
        "quick mode's trial counts each."
    )


# --------------------------------------------------------------------------- Monte Carlo seeds
def mc_seed(seed):
    """The theorems' checks at one Monte Carlo seed (the quick mode's trial counts): the
    largest violation rate of each."""
    from .theorem_4 import split_rule_check
    from .theorem_5 import leaf_consistency_table
    from .theorems_1_3 import bound_curves

    out = {}
    curves = bound_curves(seed=seed, fast=True, progress=False, delta=DELTA)
    for est in THEOREMS:
        out[f"mc_{est}_exceed"] = float(curves[curves.estimator == est].p_exceed.max())
    rule = split_rule_check(seed=seed, fast=True, delta=DELTA)
    out["mc_ctree_suboptimal"] = float(rule[rule.rule == "ctree"].p_suboptimal.max())
    out["mc_vfdt_suboptimal"] = float(rule[rule.rule == "vfdt"].p_suboptimal.max())
    leaf = leaf_consistency_table(seed=seed, fast=True)
    out["mc_leaf_excess"] = float((leaf.p_fail - leaf.delta).max())
    return out


# --------------------------------------------------------------------------- per-seed quantities
def _equal_size(df, other, sizes_, score):
    """Per seed: C-Tree minus ``other`` at each size (columns ``at<size>``) and their mean over
    the sizes both reach (``mean``)."""
    ref = {s: _per_tree_at(df, "CTree", s, score) for s in sizes_}
    oth = {s: _per_tree_at(df, other, s, score) for s in sizes_}
    seeds = sorted(set(df.seed))
    out = {}
    for seed in seeds:
        row = {}
        for s in sizes_:
            a, b = ref[s].get(seed, np.nan), oth[s].get(seed, np.nan)
            row[f"at{s}"] = a - b
        vals = [v for v in row.values() if np.isfinite(v)]
        row["mean"] = float(np.mean(vals)) if vals else np.nan
        out[seed] = row
    return out


def _best_leaves(df):
    """Per tree: log10(leaves / 50) of C-Tree's most accurate run, and whether its c lies at an
    end of the grid."""
    out = {}
    for seed, g in df[df.learner == "CTree"].groupby("seed"):
        b = g.loc[g.accuracy.idxmax()]
        grid = np.sort(g.param.unique())
        out[seed] = (
            math.log10(max(float(b.n_leaves), 1.0) / GENERATOR_LEAVES),
            float(b.param in (grid[0], grid[-1])),
        )
    return out


def per_seed_frame(fig3=None, fig3b=None, fig4=None, fig5=None, mc=None) -> pd.DataFrame:
    """One row per seed with every quantity the claims read (NaN where an experiment has no
    such seed): built from the frames of :func:`fig3_grid` (shuffled, by leaf), :func:`fig4`,
    :func:`fig5` and the Monte Carlo seeds."""
    cols: dict[str, dict] = {}

    def put(name, seed, value):
        cols.setdefault(name, {})[int(seed)] = value

    for order, df in (("shuffled", fig3), ("by_leaf", fig3b)):
        if df is None:
            continue
        for other in BASELINES:
            for seed, row in _equal_size(df, other, FIG3_SIZES, "accuracy").items():
                for k, v in row.items():
                    put(f"fig3_{order}_{other}_{k}", seed, v)
        for seed, (lg, edge) in _best_leaves(df).items():
            put(f"fig3_{order}_best_leaves", seed, lg)
            put(f"fig3_{order}_best_at_edge", seed, edge)
    if fig4 is not None:
        for ds, g in fig4.groupby("dataset", sort=False):
            for other in BASELINES:
                for seed, row in _equal_size(g, other, FIG4_SIZES, "score").items():
                    for k, v in row.items():
                        put(f"fig4_{ds}_{other}_{k}", seed, v)
    if fig5 is not None:
        act = fig5[fig5.strategy != "FULL"]
        for ds, g in act.groupby("dataset", sort=False):
            m = g.groupby(["strategy", "seed"]).score.mean().unstack("strategy")
            others = [s for s in STRATEGY_ORDER if s in m.columns and s not in CONF]
            rival = max(others, key=lambda s: m[s].mean())
            for conf in CONF:
                if conf not in m.columns:
                    continue
                for seed, v in (m[conf] - m[rival]).items():
                    put(f"fig5_{ds}_{conf}", seed, float(v))
                    put(f"fig5_{ds}_rival", seed, rival)
    frame = pd.DataFrame(cols)
    if mc is not None:
        frame = frame.join(mc.set_index("seed"), how="outer")
    frame = frame.sort_index()
    frame.index.name = "seed"
    return frame.reset_index()


# --------------------------------------------------------------------------- the claims
def _sizes_evidence(prefix, sizes_):
    def ev(vals, frame):
        parts = []
        for s in sizes_:
            col = f"{prefix}_at{s}"
            if col not in frame:
                continue
            v = frame[col].to_numpy(float)
            v = v[np.isfinite(v)]
            if len(v) >= 2:
                m, lo, hi = C.t_interval(v)
                parts.append(f"{s}: {m:+.4f} [{lo:+.4f}, {hi:+.4f}]")
        return "by size (leaves: paired mean, 95 %): " + "; ".join(parts) if parts else ""

    return ev


def _edge_evidence(order):
    def ev(vals, frame):
        col = f"fig3_{order}_best_at_edge"
        if col not in frame:
            return ""
        e = frame[col].dropna()
        leaves = GENERATOR_LEAVES * 10 ** np.asarray(vals)
        text = f"C-Tree's most accurate trees have {np.median(leaves):.0f} leaves (median)"
        if e.sum():
            text += (
                f"; on {int(e.sum())} of {len(e)} trees its best c is at an end of the grid "
                "(the grid should be wider there)"
            )
        return text

    return ev


def _rival_evidence(ds):
    def ev(vals, frame):
        col = f"fig5_{ds}_rival"
        return f"the best other strategy: {frame[col].dropna().iloc[0]}" if col in frame else ""

    return ev


def spec() -> list[C.Claim]:
    """000's claims, their quantities and rules (fixed here, before any run)."""
    out = []
    for est in THEOREMS:
        out.append(
            C.Claim(
                f"the {est.replace('_', '-')} estimate is within ε(m, δ) w.p. ≥ 1 - δ",
                THEOREM_OF[est],
                "largest rate of |Φ̂ - Φ| > ε over m = 10-10,000 at the tightest law found "
                "(δ = 0.05)",
                f"mc_{est}_exceed",
                C.Rule.less(DELTA, "δ"),
                fmt=".4f",
            )
        )
    out.append(
        C.Claim(
            "C-Tree's rule (eq. 7) splits on a suboptimal feature w.p. ≤ δ",
            "Theorem 4, eq. (7)",
            "largest rate of suboptimal splits at one leaf over two laws (δ = 0.05)",
            "mc_ctree_suboptimal",
            C.Rule.less(DELTA, "δ"),
            fmt=".4f",
        )
    )
    out.append(
        C.Claim(
            "a δ-consistent leaf predicts non-optimally w.p. ≤ δ",
            "Theorem 5, eq. (9)",
            "largest failure rate minus δ over t ∈ {20, 200, 1000}, δ ∈ {0.05, ..., 0.9}, "
            "every label or ConfTree's queries",
            "mc_leaf_excess",
            C.Rule.less(0.0),
        )
    )
    for order, words in ORDERS.items():
        for other in BASELINES:
            out.append(
                C.Claim(
                    f"C-Tree more accurate than {LABEL[other]} at equal size ({words})",
                    "Sec. VII-A, Fig. 3",
                    f"online accuracy, C-Tree minus {LABEL[other]}, paired by tree at equal "
                    "size, mean over 5-1,000 leaves",
                    f"fig3_{order}_{other}_mean",
                    C.Rule.greater(0),
                    evidence=_sizes_evidence(f"fig3_{order}_{other}", FIG3_SIZES),
                )
            )
        out.append(
            C.Claim(
                f"C-Tree most accurate at the generator's 50 leaves ({words})",
                "Sec. VII-A, Fig. 3",
                "log10(leaves of C-Tree's most accurate run / 50), per tree",
                f"fig3_{order}_best_leaves",
                C.Rule.within(math.log10(2), "within a factor 2 of 50 leaves"),
                evidence=_edge_evidence(order),
            )
        )
    for ds in DATASETS:
        metric = "accuracy" if ds == "electricity" else "F-measure of >50K"
        for other in BASELINES:
            out.append(
                C.Claim(
                    f"C-Tree compares favourably with {LABEL[other]} ({ds})",
                    "Sec. VII-B, Fig. 4",
                    f"{metric}, C-Tree minus {LABEL[other]}, paired by permutation at equal "
                    "size, mean over 2-100 leaves",
                    f"fig4_{ds}_{other}_mean",
                    C.Rule.greater(0),
                    evidence=_sizes_evidence(f"fig4_{ds}_{other}", FIG4_SIZES),
                )
            )
    for ds in DATASETS:
        for conf in CONF:
            out.append(
                C.Claim(
                    f"{conf} the most consistent labelling strategy ({ds})",
                    "Sec. VIII, Fig. 5",
                    f"mean {'accuracy' if ds == 'electricity' else 'F-measure'} over the six "
                    f"budgets, {conf} minus the best strategy that is not a ConfTree variant",
                    f"fig5_{ds}_{conf}",
                    C.Rule.greater(0),
                    evidence=_rival_evidence(ds),
                )
            )
    return out


def _check_seeds(frame, name, want):
    if frame is not None and sorted(set(frame.seed)) != sorted(want):
        raise ValueError(
            f"frames[{name!r}] has seeds {sorted(set(frame.seed))}; the claims run needs {want}"
        )


def claims(quick=True, seeds=None, client=None, *, frames=None, processes=None, progress=True):
    """000's claims table (:mod:`workbench.claims`): one row per claim, decided over seeds.

    ``quick``: the quick mode's experiments (3 trees, permutations, strategy seeds and Monte
    Carlo seeds) or the full ones (20 trees, 10 of the others); ``seeds``: the seeds of every
    experiment (default ``0..n-1``); ``client``: a Dask client for the sweeps (default: local
    processes, or this process where the mode says so).  ``frames``: the frames a notebook has
    already computed for these seeds (``fig3``, ``fig3b``, ``fig4``, ``fig5``), which are then
    not run again.  ``workbench.claims.attached(table)`` is the per-seed frame."""
    import time

    from .figure_3 import fig3_grid
    from .figure_4 import fig4 as run_fig4
    from .figure_5 import fig5 as run_fig5

    start = time.perf_counter()
    s, f = (QUICK if quick else FULL), sizes(quick)
    n3 = f.fig3_trees if seeds is None else len(seeds)
    seeds3 = list(range(n3)) if seeds is None else [int(v) for v in seeds]
    seeds_ = list(range(s.n_seeds)) if seeds is None else [int(v) for v in seeds]
    key = {"quick": bool(quick), "seeds3": seeds3, "seeds": seeds_}
    per_seed = C.cache_get(NAME, key)
    if per_seed is None:
        frames = dict(frames or {})
        for name, want in (("fig3", seeds3), ("fig3b", seeds3), ("fig4", seeds_), ("fig5", seeds_)):
            _check_seeds(frames.get(name), name, want)
        kw = dict(client=client, processes=processes)
        if frames.get("fig3") is None:
            frames["fig3"] = fig3_grid(
                fast=quick, seeds=seeds3, order="shuffled", progress=progress, **kw
            )
        if frames.get("fig3b") is None:
            frames["fig3b"] = fig3_grid(
                fast=quick, seeds=seeds3, order="by_leaf", progress=progress, **kw
            )
        if frames.get("fig4") is None:
            frames["fig4"] = run_fig4(fast=quick, seeds=seeds_, progress=progress, **kw)
        if frames.get("fig5") is None:
            frames["fig5"] = run_fig5(fast=quick, seeds=seeds_, progress=progress, **kw)
        mc = C.run_seeds(mc_seed, seeds_, client=client, processes=processes, progress=progress)
        per_seed = per_seed_frame(
            frames["fig3"], frames["fig3b"], frames["fig4"], frames["fig5"], mc
        )
        C.cache_put(NAME, key, per_seed)
    table = C.table(spec(), per_seed)
    C.attach(table, "per_seed", per_seed)
    table.attrs.update(
        seeds=seeds_, seeds_fig3=seeds3, quick=bool(quick), seconds=time.perf_counter() - start
    )
    return table


# --------------------------------------------------------------------------- stored claims
RESULTS = __import__("pathlib").Path(__file__).parent / "results"
SOURCES = (
    "workbench/experiments/paper000",
    "workbench/core",
    "workbench/learners",
    "workbench/active",
    "workbench/drift",
    "workbench/bounds",
    "workbench/montecarlo",
    "workbench/evaluate/prequential.py",
    "workbench/streams/rand_cbt.py",
    "workbench/streams/datasets.py",
    "workbench/claims.py",
)


#: the command that makes the stored quick results again
STORE_QUICK = (
    'python -c "from workbench.experiments import paper000 as P; '
    'P.store_claims(P.claims(quick=True))"'
)


def _claims_path(quick: bool):
    return RESULTS / f"claims_{'quick' if quick else 'full'}.csv"


def store_claims(table, command: str | None = None):
    """Write a claims run's per-seed results to ``results/claims_quick.csv`` or
    ``claims_full.csv`` with their provenance (:func:`workbench.claims.save_table`).  The
    quick file is what ``tests/test_stored_results.py`` compares a fresh quick run with: make
    it again with :data:`STORE_QUICK`."""
    quick = bool(table.attrs["quick"])
    command = command or (
        STORE_QUICK
        if quick
        else "notebooks/01_confidence_decision_trees.ipynb in full mode: "
        "P.store_claims(P.claims(quick=False, frames=...))"
    )
    return C.save_table(table, _claims_path(quick), command=command, sources=SOURCES)


def stored_claims(quick: bool = False):
    """The claims table of the stored run, decided again from its per-seed results with the
    same spec, or None; ``attrs["note"]`` says where it comes from and whether it is stale."""
    table = C.load_table(spec(), _claims_path(quick))
    if table is not None:
        table.attrs["quick"] = quick
    return table
