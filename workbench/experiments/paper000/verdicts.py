r"""000's claims as a table (:mod:`workbench.claims`): each re-tested over seeds with the test
that fits it, its own quantity, an interval and a rule fixed here, before any run.

What a seed is depends on the experiment, as in the paper: a random tree for Figure 3 (each
learner runs its whole grid on the same stream, so the differences are paired by tree), a
permutation of the data set for Figure 4, the strategies' random draws for Figure 5, and a
Monte Carlo seed for Theorems 1-5.  The figures' runs go through :mod:`workbench.sweep` (their
cells, or :func:`workbench.sweep.apply` for Figure 5); the notebook passes the frames it has
already computed (``frames=``), so nothing runs twice.

Conventions fixed before the run:

* the theorems are statements about probabilities, checked on Monte Carlo trials: each
  claim is an exact binomial test of the violation rate against delta on the pooled trials of
  every grid point (the bound at every ``m`` and law, the rule at both laws, Theorem 5 at every
  ``(t, delta)``), and holds only if it holds at every point; Theorem 5 with every label
  queried is an exact computation (no sampling).
* "better at equal size": on each tree (permutation), each learner's score is interpolated in
  log leaves at fixed sizes (Fig. 3: 5-1,000 leaves; Fig. 4: 2-100), and the claim's quantity
  is the mean of C-Tree's score minus the baseline's over the sizes that both learners reach
  on every tree (the same sizes at every seed); a paired signed-rank test over trees.
* "most accurate at the generator's size": the number of leaves of C-Tree's most accurate run
  on each tree, as log10(leaves / 50); the claim holds if it is within a factor 2 of 50, by
  the sign test (a tree whose best c lies at an end of the grid gives a bound, not a value, and
  the sign test uses only on which side of the margin each tree lies).
* "the most consistent strategy": the mean score over the six budgets minus that of the best
  strategy that is not a ConfTree variant (the one with the highest mean over all seeds).

Two Holm families: the theorems, and the experiments (Figures 3-5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ... import claims as C
from .._claims_store import load, refresh_command, sources, store
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
#: 20 permutations and strategy seeds: the signed-rank test can then reject at Holm's level
#: over the 14 experiments (10 seeds could only at 10 of 10 seeds agreeing)
FULL = ClaimSizes(n_seeds=20)
#: the families Holm's correction runs within
THEORY, EXPERIMENTS = "theorems", "experiments"


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
    violations (``.../k``) and trials (``.../n``) at every grid point, and Theorem 5's exact
    failure probabilities with every label."""
    from .theorem_4 import split_rule_check
    from .theorem_5 import leaf_consistency_table
    from .theorems_1_3 import bound_curves

    out = {}
    curves = bound_curves(seed=seed, fast=True, progress=False, delta=DELTA)
    for _, r in curves.iterrows():
        key = f"mc/{r.estimator}/m{int(r.m)}"
        out[f"{key}/k"] = float(r.n_exceed)
        out[f"{key}/n"] = float(r.trials)
    rule = split_rule_check(seed=seed, fast=True, delta=DELTA)
    for i, law in enumerate(dict.fromkeys(rule.law)):
        for name in ("ctree", "vfdt"):
            r = rule[(rule.law == law) & (rule.rule == name)].iloc[0]
            out[f"mc/{name}/law{i}/k"] = float(round(r.p_suboptimal * r.trials))
            out[f"mc/{name}/law{i}/n"] = float(r.trials)
    leaf = leaf_consistency_table(seed=seed, fast=True)
    every = leaf[leaf.policy == "always"]
    out["mc/leaf/exact_excess"] = float((every.exact_fail - every.delta).max())
    for _, r in leaf[leaf.policy == "conftree"].iterrows():
        key = f"mc/leaf/t{int(r.t)}/d{r.delta:g}"
        out[f"{key}/k"] = float(round(r.p_fail * r.trials))
        out[f"{key}/n"] = float(r.trials)
    return out


def _points(row, prefix, label, per_seed=False, bound=None):
    """``{label: (events, trials[, bound])}`` of the grid points ``prefix/<point>/k`` in a
    seed's row; ``per_seed``: each seed's points are its own (a law searched at that seed)."""
    out = {}
    for col in row.index:
        if not (col.startswith(prefix + "/") and col.endswith("/k")):
            continue
        point = col[len(prefix) + 1 : -2]
        k, n = row[col], row[col[:-2] + "/n"]
        if not (np.isfinite(k) and np.isfinite(n)):
            continue
        name = label(point) + (f", seed {int(row.seed)}" if per_seed else "")
        out[name] = (k, n) if bound is None else (k, n, bound(point))
    return out


# --------------------------------------------------------------------------- per-seed quantities
def _equal_size(df, other, sizes_, score):
    """Per seed: C-Tree minus ``other`` at each size (``at<size>``), their mean over the sizes
    that both learners reach on every seed (``mean``: the same sizes at every seed), and those
    sizes (``sizes``, as text)."""
    ref = {s: _per_tree_at(df, "CTree", s, score) for s in sizes_}
    oth = {s: _per_tree_at(df, other, s, score) for s in sizes_}
    seeds = sorted(set(df.seed))
    diff = {
        seed: {s: ref[s].get(seed, np.nan) - oth[s].get(seed, np.nan) for s in sizes_}
        for seed in seeds
    }
    common = [s for s in sizes_ if all(np.isfinite(diff[seed][s]) for seed in seeds)]
    out = {}
    for seed in seeds:
        row = {f"at{s}": diff[seed][s] for s in sizes_}
        row["mean"] = float(np.mean([diff[seed][s] for s in common])) if common else np.nan
        row["sizes"] = ", ".join(str(s) for s in common)
        out[seed] = row
    return out


def _best_leaves(df):
    """Per tree: log10(leaves / 50) of C-Tree's most accurate run, and where its c lies in the
    grid: -1 at the smallest c (the most leaves: the best size is then a lower bound), +1 at
    the largest, 0 inside."""
    out = {}
    for seed, g in df[df.learner == "CTree"].groupby("seed"):
        b = g.loc[g.accuracy.idxmax()]
        grid = np.sort(g.param.unique())
        edge = -1.0 if b.param == grid[0] else (1.0 if b.param == grid[-1] else 0.0)
        out[seed] = (math.log10(max(float(b.n_leaves), 1.0) / GENERATOR_LEAVES), edge)
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
            if len(v) >= 6:
                m, lo, hi = C.signed_rank_interval(v)
                parts.append(f"{s}: {m:+.4f} [{lo:+.4f}, {hi:+.4f}]")
            elif len(v):
                parts.append(f"{s}: {np.median(v):+.4f} ({len(v)} seeds)")
        common = frame.get(f"{prefix}_sizes")
        text = ""
        if common is not None and len(common.dropna()):
            text = f"averaged over the sizes every seed reaches for both: {common.dropna().iloc[0]} leaves"
        if parts:
            text += (
                ("; " if text else "")
                + "by size (leaves: Hodges-Lehmann, 95 %): "
                + "; ".join(parts)
            )
        return text

    return ev


def _edge_evidence(order):
    def ev(vals, frame):
        col = f"fig3_{order}_best_at_edge"
        if col not in frame:
            return ""
        e = frame[col].dropna()
        leaves = GENERATOR_LEAVES * 10 ** np.asarray(vals)
        text = f"C-Tree's most accurate trees have {np.median(leaves):.0f} leaves (median)"
        low, high = int((e < 0).sum()), int((e > 0).sum())
        if low:
            text += (
                f"; on {low} of {len(e)} trees its best c is the grid's smallest (its best size "
                "is then at least the value shown)"
            )
        if high:
            text += (
                f"; on {high} of {len(e)} trees its best c is the grid's largest (its best "
                "size is then at most the value shown)"
            )
        return text

    return ev


def _rival_evidence(ds):
    def ev(vals, frame):
        col = f"fig5_{ds}_rival"
        return f"the best other strategy: {frame[col].dropna().iloc[0]}" if col in frame else ""

    return ev


#: the effects the experiments' tests are planned for, and the per-seed spreads of the full
#: run of 2026-11-25 (20 trees, 10 permutations and strategy seeds) the plan assumed
PLAN = {
    "fig3": dict(power_at=0.005, power_sd=0.006),  # half a point of accuracy
    "fig4": dict(power_at=0.01, power_sd=0.015),  # one point of accuracy or F-measure
    "fig5": dict(power_at=0.005, power_sd=0.007),  # half a point, mean over budgets
    "best": dict(power_at=0.0, power_sd=0.2),  # log10 leaves: truly at 50
}


def spec() -> list[C.Claim]:
    """000's claims, their quantities, tests and rules (fixed here, before any run)."""
    out = []
    for est in THEOREMS:
        out.append(
            C.Claim(
                f"the {est.replace('_', '-')} estimate is within ε(m, δ) w.p. ≥ 1 - δ",
                THEOREM_OF[est],
                "rate of |Φ̂ - Φ| > ε at the tightest law found at each m = 10-10,000 (δ = 0.05)",
                lambda r, est=est: _points(r, f"mc/{est}", lambda p: f"m = {p[1:]}", True),
                C.Rule.less(DELTA, "δ", power_at=DELTA / 2),
                test="binomial",
                family=THEORY,
            )
        )
    out.append(
        C.Claim(
            "C-Tree's rule (eq. 7) splits on a suboptimal feature w.p. ≤ δ",
            "Theorem 4, eq. (7)",
            "rate of suboptimal splits at one leaf, at each of two laws (δ = 0.05)",
            lambda r: _points(r, "mc/ctree", lambda p: f"law {p[3:]}"),
            C.Rule.less(DELTA, "δ", power_at=DELTA / 2),
            test="binomial",
            family=THEORY,
        )
    )
    out.append(
        C.Claim(
            "a δ-consistent leaf predicts non-optimally w.p. ≤ δ (every label)",
            "Theorem 5, eq. (9)",
            "largest exact failure probability minus δ over t ∈ {20, 200, 1000}, "
            "δ ∈ {0.05, ..., 0.9}, every label queried",
            "mc/leaf/exact_excess",
            C.Rule.less(0.0),
            test="exact",
            family=THEORY,
            fmt="+.4g",
        )
    )
    out.append(
        C.Claim(
            "a δ-consistent leaf predicts non-optimally w.p. ≤ δ (ConfTree's queries)",
            "Theorem 5, eq. (9)",
            "failure rate minus δ at each t ∈ {20, 200, 1000} and δ ∈ {0.05, ..., 0.9}, labels "
            "queried by ConfTree",
            lambda r: _points(
                r,
                "mc/leaf",
                lambda p: p.replace("t", "t = ").replace("/d", ", δ = "),
                bound=lambda p: float(p.split("/d")[1]),
            ),
            C.Rule.less(0.0, "each point's δ", power_at=0.0),
            test="binomial",
            family=THEORY,
        )
    )
    for order, words in ORDERS.items():
        for other in BASELINES:
            out.append(
                C.Claim(
                    f"C-Tree more accurate than {LABEL[other]} at equal size ({words})",
                    "Sec. VII-A, Fig. 3",
                    f"online accuracy, C-Tree minus {LABEL[other]}, paired by tree at equal "
                    "size, mean over the sizes of 5-1,000 leaves both reach on every tree",
                    f"fig3_{order}_{other}_mean",
                    C.Rule.greater(0, "half a point of accuracy planned", **PLAN["fig3"]),
                    evidence=_sizes_evidence(f"fig3_{order}_{other}", FIG3_SIZES),
                    family=EXPERIMENTS,
                )
            )
        out.append(
            C.Claim(
                f"C-Tree most accurate at the generator's 50 leaves ({words})",
                "Sec. VII-A, Fig. 3",
                "log10(leaves of C-Tree's most accurate run / 50), per tree",
                f"fig3_{order}_best_leaves",
                C.Rule.within(math.log10(2), "within a factor 2 of 50 leaves", **PLAN["best"]),
                test="sign",
                evidence=_edge_evidence(order),
                family=EXPERIMENTS,
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
                    "size, mean over the sizes of 2-100 leaves both reach on every permutation",
                    f"fig4_{ds}_{other}_mean",
                    C.Rule.greater(0, "one point planned", **PLAN["fig4"]),
                    evidence=_sizes_evidence(f"fig4_{ds}_{other}", FIG4_SIZES),
                    family=EXPERIMENTS,
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
                    C.Rule.greater(0, "half a point planned", **PLAN["fig5"]),
                    evidence=_rival_evidence(ds),
                    family=EXPERIMENTS,
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
SOURCES = sources("paper000")
#: the command that makes the stored quick results again
STORE_QUICK = refresh_command("paper000", True)


def store_claims(table, command: str | None = None):
    """Write a claims run's per-seed results to ``results/claims_quick.csv`` or
    ``claims_full.csv`` with their provenance and the fingerprint of their sources
    (:func:`workbench.experiments._claims_store.store`).  The quick file is what
    ``tests/test_stored_results.py`` compares a fresh quick run with; both are made again
    by ``python3 dev.py claims --refresh [--quick | --full] paper000``."""
    return store(table, RESULTS, paper="paper000", command=command)


def stored_claims(quick: bool = False):
    """The claims table of the stored run, decided again from its per-seed results with the
    same spec, or None; ``attrs["note"]`` says where it comes from and whether it is stale."""
    return load(spec(), RESULTS, quick)
