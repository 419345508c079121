r"""003's claims as a table (:mod:`workbench.claims`): each re-tested over seeds, with the
thesis's own quantity, a 95 % interval, a paired test and a rule fixed here, before any run.

One task per (seed, part) through :func:`workbench.claims.run` (local processes, or a Dask
cluster with ``client=``).  A seed permutes the rows of the real data sets (Adult, Electricity)
and draws a new SEA stream; within a seed every learner sees the same rows in the same order,
so differences are paired by seed.

=================  ==============================================================================
part               what one seed computes
=================  ==============================================================================
``checks``         Table 2's gains against the Weather rows (exact: the same at every seed) and
                   ``alpha = 1`` against the Hoeffding tree on the seed's Adult
``experiment1``    Table 3: random forest, CART and the Hoeffding tree in batch on the seed's
                   permutation of Adult (train / test as the thesis, scaled to the rows here)
``minibatch``      Figures 4-7: mini-batch test-then-train of the Hoeffding tree and of the
                   Frugal tree over a grid of alpha and of the initial set's size S
``fair/<stream>``  beyond the thesis, on SEA, Adult and Electricity, prequential: the Frugal tree
                   over the alpha grid (the evidence for the default alpha) and, at the
                   comparison alphas, Random, VarUncertainty, ConfTree and the first L labels
                   given exactly the L labels the Frugal tree used
=================  ==============================================================================

**Equal labels.**  The Frugal tree with alpha uses L labels.  A baseline strategy runs with the
smallest budget on a growing grid (from ``L / n``) at which it asks at least L labels, and
learns nothing after its L-th label (its later rows are still predicted): so it uses exactly
L.  A strategy that asks fewer than L labels even at budget 1 cannot be compared at equal
labels; such a cell is left out (not testable).  So is a comparison with the first L labels
when the Frugal tree took all its labels among the first L rows at every seed: the two trees
are then the same tree (identical by construction).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ... import claims as C
from .._claims_store import load, refresh_command, sources, store
from . import _common
from ._common import THESIS

#: margins fixed before the run
SAME_MARGIN = 0.01  # "performs as the Hoeffding tree": one point of error
LABEL_MARGIN = 0.10  # "about 500 of every 1K labels": a share within 0.4-0.6
#: the default alpha: the smallest on the grid whose prequential error is within this of the
#: Hoeffding tree's (upper end of the 95 % interval over seeds) on every stream
DEFAULT_MARGIN = 0.01
STREAMS = ("sea", "adult", "electricity")
BASELINES = ("First L", "Random", "VarUncertainty", "ConfTree")
STRATEGIES = ("Random", "VarUncertainty", "ConfTree")
KEY = {"First L": "first", "Random": "random", "VarUncertainty": "varunc", "ConfTree": "conftree"}


@dataclass(frozen=True)
class ClaimSizes:
    """How large the claims run is in one mode."""

    n_seeds: int
    table_rows: int | None  # Experiment 1: rows of Adult used (None: all)
    forest_trees: int
    mb_rows: int | None  # Figures 4-7: rows of Adult (None: all)
    mb_alphas: tuple
    mb_initial: tuple  # sizes of the initial set S
    alpha_grid: tuple  # the default's evidence (prequential, every stream)
    fair_alphas: tuple  # the equal-label comparisons
    fair_rows: int | None  # rows of Adult and Electricity (None: all)
    fair_sea: int


QUICK = ClaimSizes(
    n_seeds=3,
    table_rows=8_000,
    forest_trees=20,
    mb_rows=12_000,
    mb_alphas=(0.3, 0.5, 0.8),
    mb_initial=(200, 5_000),
    alpha_grid=(0.2, 0.4, 0.6, 0.8, 1.0),
    fair_alphas=(0.3, 0.8),
    fair_rows=8_000,
    fair_sea=10_000,
)
#: 20 seeds: the signed-rank test can then reject at Holm's level over the thesis's claims and
#: over the 60 equal-label comparisons (10 seeds could only when all 10 agree)
FULL = ClaimSizes(
    n_seeds=20,
    table_rows=None,
    forest_trees=100,
    mb_rows=None,
    mb_alphas=(0.3, 0.5, 0.6, 0.7, 0.8, 0.9),
    mb_initial=(200, 1_000, 5_000),
    alpha_grid=(0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0),
    fair_alphas=(0.3, 0.5, 0.7, 0.8, 0.9),
    fair_rows=None,
    fair_sea=50_000,
)


def claim_sizes(quick: bool) -> ClaimSizes:
    return QUICK if quick else FULL


def describe_claims_mode(quick: bool) -> str:
    s = claim_sizes(quick)
    rows = lambda r: "all rows" if r is None else f"{r:,} rows"  # noqa: E731
    return (
        f"Claims run, {'QUICK' if quick else 'FULL'} mode: {s.n_seeds} seeds (a seed permutes "
        f"the real data, draws SEA). Experiment 1: Adult, {rows(s.table_rows)}, forests of "
        f"{s.forest_trees} trees. Figures 4-7: Adult, {rows(s.mb_rows)}, alpha in "
        f"{list(s.mb_alphas)}, S in {list(s.mb_initial)}. Prequential runs: alpha in "
        f"{list(s.alpha_grid)}; equal-label comparisons at alpha in {list(s.fair_alphas)}; "
        f"Adult and Electricity {rows(s.fair_rows)}, SEA {s.fair_sea:,}."
    )


def describe_mode(fast: bool | None = None) -> str:
    """One paragraph saying which mode runs and how large its experiments are."""
    s = _common.sizes(fast)
    mode = "QUICK (WORKBENCH_FAST=1)" if s is _common.FAST else "FULL"
    rows = lambda r: "all rows" if r is None else f"{r:,} rows"  # noqa: E731
    return (
        f"Mode: {mode}. Section 3: {s.region_n:,} instances. Figures 4-15 (one run, the data "
        f"in their order): {rows(s.fig_rows)}, alpha in {list(s.alphas)}. "
        + describe_claims_mode(s is _common.FAST)
    )


def _a(alpha: float) -> str:
    return f"{alpha:.1f}"


# --------------------------------------------------------------------------- one seed
def seed_part(seed, part, quick=True):
    """One seed of one part (see the module's table); a dict of numbers."""
    s = claim_sizes(quick)
    seed = int(seed)
    if part == "checks":
        return _checks_seed(seed)
    if part == "experiment1":
        return _experiment1_seed(seed, s)
    if part == "minibatch":
        return _minibatch_seed(seed, s)
    if part.startswith("fair/") and part[5:] in STREAMS:
        return _fair_seed(seed, part[5:], s)
    raise ValueError(f"unknown part {part!r}")


def _checks_seed(seed):
    from ... import evaluate, streams
    from ...learners import FrugalHoeffdingTree, HoeffdingTree
    from .weather import gain_table

    g = gain_table()
    out = {"checks/table2_max_gap": float((g["G(node, A)"] - g["printed G"]).abs().max())}
    X, y, info = streams.adult(return_info=True, shuffle=True, seed=seed)
    kw = dict(n_features=X.shape[1], n_classes=2, nominal_features=info.nominal_features)
    a = evaluate.prequential(HoeffdingTree(leaf_prediction="laplace", **kw), X, y)
    b = evaluate.prequential(FrugalHoeffdingTree(alpha=1.0, n_initial=0, **kw), X, y)
    out["checks/alpha1_same"] = float(np.mean(a.predictions == b.predictions))
    out["checks/alpha1_differ"] = float(np.sum(a.predictions != b.predictions))
    out["checks/alpha1_labels"] = float(b.labels_used / len(y))
    return out


def _experiment1_seed(seed, s):
    from .table_3_5 import one_seed

    out = {}
    for r in one_seed("adult", seed, s.table_rows, s.forest_trees):
        for k in ("precision", "recall", "error"):
            out[f"exp1/{r['model']}/{k}"] = float(r[k])
        out["exp1/train"], out["exp1/test"] = float(r["train"]), float(r["test"])
    return out


def minibatch_runs(X, y, nominal, alphas, initial, batch):
    """Mini-batch runs on (X, y): the Hoeffding tree and the Frugal tree for every (S, alpha);
    ``{(S, alpha) or "ht": MinibatchResult}`` with the final leaves in ``.leaves_end``."""
    from ... import evaluate
    from ...learners import FrugalHoeffdingTree, HoeffdingTree

    common = dict(n_classes=2, nominal_features=nominal, criterion="info_gain",
                  leaf_prediction="laplace")  # fmt: skip
    out = {"ht": evaluate.minibatch(HoeffdingTree(**common), X, y, batch_size=batch)}
    for S in initial:
        for a in alphas:
            m = FrugalHoeffdingTree(alpha=a, n_initial=S, **common)
            out[(S, a)] = evaluate.minibatch(m, X, y, batch_size=batch)
    return out


def _summary(res, S, batch, last=5):
    """What the claims read from one mini-batch run: error, precision and recall of class 1
    over the last ``last`` batches, the share of labels, the labels per batch in the ``last``
    batches after the last one S touches and in the last ``last``, the final leaves."""
    per = res.per_batch(1)
    tail = per.tail(last)
    first = S // batch + 1 if S else 0
    early = per.labels_used.iloc[first : first + last]
    return {
        "err": float(tail.error.mean()),
        "prec": float(np.nanmean(tail.precision)) if tail.precision.notna().any() else np.nan,
        "rec": float(np.nanmean(tail.recall)),
        "share": float(per.labels_used.sum() / per["size"].sum()),
        "share_after_S": float(per.labels_used.iloc[first:].sum() / per["size"].iloc[first:].sum())
        if first < len(per)
        else np.nan,
        "labels_early": float(early.mean()) if len(early) else np.nan,
        "labels_late": float(tail.labels_used.mean()),
        "leaves": float(res.n_leaves[-1]),
    }


def _minibatch_seed(seed, s):
    from ._common import load

    X, y, info, _note = load("adult", shuffle=True, seed=seed)
    if s.mb_rows is not None:
        X, y = X[: s.mb_rows], y[: s.mb_rows]
    batch = THESIS["adult"]["batch_size"]
    runs = minibatch_runs(X, y, info.nominal_features, s.mb_alphas, s.mb_initial, batch)
    out = {}
    for key, res in runs.items():
        name = "mb/ht" if key == "ht" else f"mb/{key[0]}/{_a(key[1])}"
        for k, v in _summary(res, 0 if key == "ht" else key[0], batch).items():
            out[f"{name}/{k}"] = v
    return out


def equal_label_error(strategy, common, X, y, L, seed, max_steps=24):
    """Prequential error of the Hoeffding tree (``common``: its parameters) choosing its labels
    by ``strategy`` (a name of :data:`workbench.active.STRATEGIES`) and using exactly ``L`` of
    them: the smallest budget on a growing grid from ``L / n`` at which it asks ``L``, the
    tree frozen after the L-th label.  Returns (error, labels used, budget); fewer than L
    labels means the strategy asks fewer even at budget 1."""
    from ... import active, evaluate
    from ...learners import HoeffdingTree

    n = len(y)
    B = max(L / n, 1.0 / n)
    for _ in range(max_steps):
        st = active.STRATEGIES[strategy](budget=B, seed=1000 + seed)
        r = evaluate.prequential(HoeffdingTree(**common), X, y, strategy=st)
        if r.labels_used >= L or B >= 1.0:
            break
        B = min(1.0, B * max(1.25, 1.1 * L / max(r.labels_used, 1)))
    if r.labels_used <= L:
        return 1.0 - r.accuracy, int(r.labels_used), B
    k = int(np.flatnonzero(r.queried)[L])  # the row of the (L+1)-th query: stop before it
    model = HoeffdingTree(**common)
    st = active.STRATEGIES[strategy](budget=B, seed=1000 + seed)
    evaluate.prequential(model, X[:k], y[:k], strategy=st, keep_predictions=False)
    wrong = np.count_nonzero(r.predictions[:k] != y[:k])
    wrong += np.count_nonzero(model.predict(X[k:]) != y[k:])
    return wrong / n, L, B


def _fair_seed(seed, stream, s):
    from ... import evaluate
    from ...learners import FrugalHoeffdingTree, HoeffdingTree
    from .fair_labels import _first_l_error, _stream

    X, y, nominal = _stream(stream, seed, s.fair_rows, s.fair_sea)
    n = len(y)
    common = dict(n_features=X.shape[1], n_classes=2, nominal_features=nominal,
                  criterion="info_gain", leaf_prediction="laplace")  # fmt: skip
    key = f"fair/{stream}"
    full = evaluate.prequential(HoeffdingTree(**common), X, y, keep_predictions=False)
    out = {f"{key}/every/err": 1.0 - full.accuracy, f"{key}/n": float(n)}
    for a in sorted(set(s.alpha_grid) | set(s.fair_alphas)):
        m = FrugalHoeffdingTree(alpha=a, **common)
        res = evaluate.prequential(m, X, y)
        L = int(res.labels_used)
        k = f"{key}/{_a(a)}"
        out[f"{k}/frugal/err"] = 1.0 - res.accuracy
        out[f"{k}/frugal/share"] = L / n
        out[f"{k}/frugal/leaves"] = float(m.n_leaves)
        if a not in s.fair_alphas:
            continue
        asked = np.flatnonzero(res.queried)
        out[f"{k}/first_L_rows"] = float(len(asked) == 0 or asked[-1] < L)
        out[f"{k}/first/err"] = _first_l_error(common, X, y, L)
        out[f"{k}/first/share"] = L / n
        for name in STRATEGIES:
            err, used, B = equal_label_error(name, common, X, y, L, seed)
            out[f"{k}/{KEY[name]}/err"] = err
            out[f"{k}/{KEY[name]}/share"] = used / n
            out[f"{k}/{KEY[name]}/budget"] = B
    return out


# --------------------------------------------------------------------------- the claims
def _mean(frame, col):
    v = frame[col].to_numpy(dtype=float) if col in frame else np.array([np.nan])
    return float(np.nanmean(v)) if np.isfinite(v).any() else float("nan")


def _diff(a, b):
    return lambda r: r[a] - r[b]


def default_alpha_table(per_seed: pd.DataFrame, quick: bool = True) -> pd.DataFrame:
    """The evidence for the default alpha: per alpha and stream the prequential error of the
    Frugal tree (S = 200) minus the Hoeffding tree's with every label (mean and 95 % interval
    over seeds) and the share of labels; ``ok`` where the upper end of its 95 % interval (the
    signed-rank test's, as the claims use) is below :data:`DEFAULT_MARGIN`; with fewer than 6
    seeds the interval has no upper end and no alpha is ok.  ``attrs["choice"]``: the smallest alpha that is ok on every
    stream (the rule, fixed before the run)."""
    s = claim_sizes(quick)
    rows = []
    for a in s.alpha_grid:
        for stream in STREAMS:
            k = f"fair/{stream}/{_a(a)}"
            d = per_seed[f"{k}/frugal/err"] - per_seed[f"fair/{stream}/every/err"]
            v = d.to_numpy(dtype=float)
            m = float(np.mean(v))
            hi = C.signed_rank_interval(v)[2] if len(v) > 1 else np.inf
            rows.append(
                {
                    "alpha": a,
                    "stream": stream,
                    "error minus every label's": m,
                    "ci_high": hi,
                    "share of labels": _mean(per_seed, f"{k}/frugal/share"),
                    "leaves": _mean(per_seed, f"{k}/frugal/leaves"),
                    "ok": bool(hi < DEFAULT_MARGIN),
                }
            )
    t = pd.DataFrame(rows)
    ok = t.groupby("alpha").ok.all()
    t.attrs["choice"] = float(ok[ok].index.min()) if ok.any() else float("nan")
    t.attrs["rule"] = (
        f"the smallest alpha of {list(s.alpha_grid)} whose prequential error (S = 200) is "
        f"below the Hoeffding tree's + {DEFAULT_MARGIN} (upper end of the signed-rank test's 95 % "
        f"interval over seeds) on {', '.join(STREAMS)}"
    )
    return t


#: the effects the tests are planned for, with the per-seed spreads of the full run of
#: 2026-11-25 (10 seeds) the plan assumed
PLAN = {
    "table3": dict(power_at=0.01, power_sd=0.012),  # one point of error or precision
    "same": dict(power_at=0.0, power_sd=0.004),  # the Frugal tree truly performs as the tree
    "share": dict(power_at=0.0, power_sd=0.12),  # truly half the labels
    "labels": dict(power_at=-100.0, power_sd=80.0),  # a hundred labels fewer per 1K batch
    "fair": dict(power_at=-0.005, power_sd=0.005),  # half a point of error
}


def spec(quick: bool = True, default_alpha: float = 0.8) -> list:
    """The thesis's claims (and the notebook's conditional one), quantities, tests and rules."""
    s = claim_sizes(quick)
    out = [
        C.Claim(
            "gains of Table 2 (0.25, 0.05, 0.17, 0.07) are those of Table 1",
            "Table 2",
            "largest |printed - computed| information gain (bits) over the four attributes",
            "checks/table2_max_gap",
            C.Rule.less(0.005, "the printed two decimals"),
            test="exact",
            evidence=lambda v, f: (
                "computed from the 14 rows; the root choice (outlook) and the tree of Fig. 3 "
                "are the same"
            ),
            fmt=".4f",
        ),
        C.Claim(
            "alpha = 1 gives the original Hoeffding tree",
            "Ch. 4",
            "prequential predictions that differ between the Frugal tree (alpha = 1, no S) and "
            "the Hoeffding tree (Laplace leaves) on the seed's Adult",
            "checks/alpha1_differ",
            C.Rule.less(0.5, "an identity: no prediction may differ"),
            test="exact",
            evidence=lambda v, f: (
                "with Laplace leaves the margin (n1 - n2) / (n + K) is below 1, so alpha = 1 "
                "asks for every label and the two trees are the same by construction; share of "
                f"labels used {_mean(f, 'checks/alpha1_labels'):.3f}"
            ),
            fmt=".0f",
        ),
    ]

    def e1(m, k):
        return f"exp1/{m}/{k}"

    def e1_ev(vals, f):
        return "mean error / precision / recall: " + "; ".join(
            f"{m} {_mean(f, e1(m, 'error')):.3f} / {_mean(f, e1(m, 'precision')):.3f} / "
            f"{_mean(f, e1(m, 'recall')):.3f}"
            for m in ("RandomForest", "CART", "HoeffdingTree")
        )

    out += [
        C.Claim(
            "Adult: the random forest has the lowest error",
            "Table 3",
            "test error of the better of CART and the Hoeffding tree minus the random forest's",
            lambda r: (
                min(r[e1("CART", "error")], r[e1("HoeffdingTree", "error")])
                - r[e1("RandomForest", "error")]
            ),
            C.Rule.greater(0.0, **PLAN["table3"]),
            evidence=e1_ev,
        ),
        C.Claim(
            "Adult: the Hoeffding tree's precision is above CART's",
            "Table 3",
            "precision of class >50K, Hoeffding tree minus CART",
            _diff(e1("HoeffdingTree", "precision"), e1("CART", "precision")),
            C.Rule.greater(0.0, **PLAN["table3"]),
            evidence=e1_ev,
        ),
        C.Claim(
            "Adult: the Hoeffding tree's error is below CART's",
            "Table 3",
            "test error, CART minus the Hoeffding tree",
            _diff(e1("CART", "error"), e1("HoeffdingTree", "error")),
            C.Rule.greater(0.0, **PLAN["table3"]),
            evidence=e1_ev,
        ),
    ]
    for name, table in (("covertype", 4), ("kdd99", 5)):
        out.append(
            C.Claim(
                f"{name}: the random forest has the lowest error",
                f"Table {table}",
                "test error of the better of CART and the Hoeffding tree minus the forest's",
                lambda r: np.nan,
                C.Rule.greater(0.0),
                testable=f"{name} is not cached on this machine (no download is tried)",
            )
        )
    S0 = s.mb_initial[0]

    def mb_ev(vals, f):
        return (
            f"S = {S0}: "
            + "; ".join(
                f"α={a:g}: error {_mean(f, f'mb/{S0}/{_a(a)}/err'):.3f}, "
                f"{_mean(f, f'mb/{S0}/{_a(a)}/share_after_S'):.0%} of labels, "
                f"{_mean(f, f'mb/{S0}/{_a(a)}/leaves'):.0f} leaves"
                for a in s.mb_alphas
            )
            + f"; Hoeffding tree error {_mean(f, 'mb/ht/err'):.3f}, {_mean(f, 'mb/ht/leaves'):.0f} leaves"
        )

    for a in s.mb_alphas:
        out.append(
            C.Claim(
                f"Adult: the Frugal tree performs as the Hoeffding tree (alpha = {a:g}, S = {S0})",
                "Figs. 4-6",
                "error over the last 5 mini-batches of 1K, Frugal minus Hoeffding tree",
                _diff(f"mb/{S0}/{_a(a)}/err", "mb/ht/err"),
                C.Rule.within(
                    SAME_MARGIN, "equivalence margin: one point of error", **PLAN["same"]
                ),
                evidence=lambda v, f, a=a: (
                    f"precision {_mean(f, f'mb/{S0}/{_a(a)}/prec'):.3f} vs "
                    f"{_mean(f, 'mb/ht/prec'):.3f}, recall "
                    f"{_mean(f, f'mb/{S0}/{_a(a)}/rec'):.3f} vs {_mean(f, 'mb/ht/rec'):.3f}; "
                    f"{_mean(f, f'mb/{S0}/{_a(a)}/share_after_S'):.0%} of the labels after S"
                ),
            )
        )
    da = _a(default_alpha)
    out += [
        C.Claim(
            f"Adult: about 500 of every 1K labels used (the default alpha = {default_alpha:g}, "
            f"S = {S0})",
            "Fig. 7",
            "share of the labels used in the mini-batches after S, minus 0.5",
            lambda r: r[f"mb/{S0}/{da}/share_after_S"] - 0.5,
            C.Rule.within(LABEL_MARGIN, "a share between 40 % and 60 %", **PLAN["share"]),
            evidence=mb_ev,
        ),
        C.Claim(
            f"the labels needed fall as the model trains (Adult, alpha = {default_alpha:g})",
            "Ch. 4, Figs. 7, 11, 15",
            "labels per 1K batch: the last 5 batches minus the 5 after S",
            _diff(f"mb/{S0}/{da}/labels_late", f"mb/{S0}/{da}/labels_early"),
            C.Rule.less(0.0, **PLAN["labels"]),
            fmt="+.1f",
        ),
    ]
    big = s.mb_initial[-1]
    for S, kind in ((S0, "less"), (big, "greater")):
        for a in (x for x in s.mb_alphas if x <= 0.5):
            out.append(
                C.Claim(
                    f"Adult, alpha = {a:g}: with S = {S:,} the tree "
                    + ("stays at its root" if kind == "less" else "grows past its root")
                    + " in most runs",
                    "this notebook's Section 5, not the thesis",
                    "share of runs (seeds) whose Frugal tree has more than one leaf after the "
                    "last mini-batch",
                    lambda r, S=S, a=a: (float(r[f"mb/{S}/{_a(a)}/leaves"] > 1.5), 1.0),
                    C.Rule.less(0.5, "in fewer than half the runs", power_at=0.1)
                    if kind == "less"
                    else C.Rule.greater(0.5, "in more than half the runs", power_at=0.9),
                    test="binomial",
                    evidence=lambda v, f, S=S, a=a: (
                        f"leaves {_mean(f, f'mb/{S}/{_a(a)}/leaves'):.1f} on average; error "
                        f"{_mean(f, f'mb/{S}/{_a(a)}/err'):.3f} (Hoeffding tree "
                        f"{_mean(f, 'mb/ht/err'):.3f}), "
                        f"{_mean(f, f'mb/{S}/{_a(a)}/share'):.0%} of the labels"
                    ),
                    fmt=".2f",
                )
            )
    return out


def fair_spec(per_seed: pd.DataFrame, quick: bool = True) -> list:
    """The equal-label comparisons (one family): Frugal minus each baseline, per stream and
    alpha; cells identical by construction or unreachable at equal labels are not testable."""
    s = claim_sizes(quick)
    out = []
    for stream in STREAMS:
        for a in s.fair_alphas:
            k = f"fair/{stream}/{_a(a)}"
            for b in BASELINES:
                testable = True
                share_f = per_seed[f"{k}/frugal/share"]
                share_b = per_seed[f"{k}/{KEY[b]}/share"]
                if b == "First L" and bool((per_seed[f"{k}/first_L_rows"] == 1).all()):
                    testable = (
                        "identical by construction: the Frugal tree took all its labels "
                        "among the first L rows at every seed, so it is the first-L tree"
                    )
                elif bool((share_b < share_f - 0.5 / per_seed[f"fair/{stream}/n"]).any()):
                    testable = (
                        f"{b} asks fewer than L labels even at budget 1 "
                        f"(at most {share_b.min():.0%} against {share_f.mean():.0%})"
                    )
                out.append(
                    C.Claim(
                        f"{stream}, alpha = {a:g}: the Frugal choice beats {b} at equal labels",
                        "beyond the thesis: Section 6",
                        f"prequential error, Frugal minus {b}, both with the L labels "
                        "the Frugal tree used",
                        _diff(f"{k}/frugal/err", f"{k}/{KEY[b]}/err"),
                        C.Rule.less(0.0, **PLAN["fair"]),
                        testable=testable,
                        evidence=lambda v, f, k=k, b=b: (
                            f"L = {_mean(f, f'{k}/frugal/share'):.1%} of the rows; error "
                            f"{_mean(f, f'{k}/frugal/err'):.4f} vs {_mean(f, f'{k}/{KEY[b]}/err'):.4f}"
                            + (
                                f"; budget {_mean(f, f'{k}/{KEY[b]}/budget'):.3f}"
                                if b != "First L"
                                else ""
                            )
                        ),
                    )
                )
    return out


def parts() -> list:
    return ["checks", "experiment1", "minibatch", *(f"fair/{x}" for x in STREAMS)]


def claims(quick=True, seeds=None, client=None, progress=True) -> pd.DataFrame:
    """003's claims table (one row per claim; columns of :data:`workbench.claims.COLUMNS`).

    ``workbench.claims.attached(table)``: the per-seed frame the verdicts come from;
    :func:`fair` and :func:`default_alpha` decide the equal-label family and the default's
    evidence from it.  ``attrs``: ``seeds``, ``quick``, ``seconds``, ``cpu_seconds``."""
    from ...learners import FrugalHoeffdingTree

    default = FrugalHoeffdingTree._extra_params["alpha"]
    table = C.run(
        spec(quick, default),
        "workbench.experiments.paper003.verdicts:seed_part",
        [{"part": p, "quick": bool(quick)} for p in parts()],
        quick=quick,
        seeds=seeds,
        client=client,
        progress=progress,
        n_quick=QUICK.n_seeds,
        n_full=FULL.n_seeds,
    )
    return table


def fair(table: pd.DataFrame) -> pd.DataFrame:
    """The equal-label comparisons of a claims run (:func:`fair_spec`: their own Holm family),
    decided from its per-seed results."""
    per_seed = C.attached(table)
    return C.table(fair_spec(per_seed, table.attrs["quick"]), per_seed)


def default_alpha(table: pd.DataFrame) -> pd.DataFrame:
    """The default alpha's evidence of a claims run (:func:`default_alpha_table`)."""
    return default_alpha_table(C.attached(table), table.attrs["quick"])


# --------------------------------------------------------------------------- frames for plots
def experiment1_frame(per_seed: pd.DataFrame) -> pd.DataFrame:
    """Experiment 1 from a claims run in the form of :func:`table_3_5.experiment_1` (one row
    per model and seed), for :func:`table_3_5.summary`."""
    rows = []
    for _, r in per_seed.iterrows():
        for m in ("RandomForest", "CART", "HoeffdingTree"):
            rows.append(
                dict(
                    data="adult",
                    model=m,
                    seed=int(r.seed),
                    precision=r[f"exp1/{m}/precision"],
                    recall=r[f"exp1/{m}/recall"],
                    error=r[f"exp1/{m}/error"],
                    train=int(r["exp1/train"]),
                    test=int(r["exp1/test"]),
                    source="Adult, permuted by the seed",
                )  # fmt: skip
            )
    return pd.DataFrame(rows)


def initial_set_table(per_seed: pd.DataFrame, quick: bool = True) -> pd.DataFrame:
    """Figures 4-7 over seeds: per (S, alpha) the Frugal tree's final leaves, its error over
    the last 5 mini-batches minus the Hoeffding tree's (mean and 95 % half-width), and its
    share of labels; the Hoeffding tree's row first."""
    s = claim_sizes(quick)
    rows = [
        {
            "S": np.nan,
            "alpha": np.nan,
            "leaves": _mean(per_seed, "mb/ht/leaves"),
            "error (last 5)": _mean(per_seed, "mb/ht/err"),
            "minus the Hoeffding tree's": 0.0,
            "± 95%": 0.0,
            "share of labels": 1.0,
        }
    ]
    for S in s.mb_initial:
        for a in s.mb_alphas:
            k = f"mb/{S}/{_a(a)}"
            m, lo, hi = C.t_interval((per_seed[f"{k}/err"] - per_seed["mb/ht/err"]).to_numpy(float))
            rows.append(
                {
                    "S": S,
                    "alpha": a,
                    "leaves": _mean(per_seed, f"{k}/leaves"),
                    "error (last 5)": _mean(per_seed, f"{k}/err"),
                    "minus the Hoeffding tree's": m,
                    "± 95%": (hi - lo) / 2,
                    "share of labels": _mean(per_seed, f"{k}/share"),
                }
            )
    t = pd.DataFrame(rows)
    t.insert(0, "learner", ["Hoeffding tree"] + ["Frugal"] * (len(t) - 1))
    return t


def fair_frame(per_seed: pd.DataFrame, quick: bool = True) -> pd.DataFrame:
    """The equal-label runs in the form of :func:`fair_labels.run` (one row per stream, seed,
    alpha and method: labels share and prequential error), for :func:`fair_labels.plot`."""
    s = claim_sizes(quick)
    rows = []
    for _, r in per_seed.iterrows():
        for stream in STREAMS:
            n = r[f"fair/{stream}/n"]
            rows.append(dict(stream=stream, seed=int(r.seed), alpha=np.nan, method="every label",
                             labels=n, share=1.0, error=r[f"fair/{stream}/every/err"]))  # fmt: skip
            for a in s.fair_alphas:
                k = f"fair/{stream}/{_a(a)}"
                for method, key in (("Frugal", "frugal"), *((b, KEY[b]) for b in BASELINES)):
                    sh = r[f"{k}/{key}/share"]
                    rows.append(dict(stream=stream, seed=int(r.seed), alpha=a, method=method,
                                     labels=sh * n, share=sh, error=r[f"{k}/{key}/err"]))  # fmt: skip
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- stored runs
RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = sources("paper003")
STORE_QUICK = refresh_command("paper003", True)


def store_claims(table: pd.DataFrame, command: str | None = None) -> pd.DataFrame:
    """Write a claims run's per-seed results (``results/claims_quick.csv`` or
    ``claims_full.csv``) with their provenance, the fingerprint of their sources and what the
    run cost (:func:`workbench.experiments._claims_store.store`).
    ``tests/test_stored_results.py`` compares a fresh quick run with the quick file; both are
    made again by ``python3 dev.py claims --refresh [--quick | --full] paper003``."""
    return store(table, RESULTS, paper="paper003", command=command)


def stored_claims(quick: bool = False) -> pd.DataFrame | None:
    """The stored run's claims table (:func:`workbench.experiments._claims_store.load`), or
    None; ``attrs["note"]`` says where it comes from and whether it is stale."""
    from ...learners import FrugalHoeffdingTree

    return load(spec(quick, FrugalHoeffdingTree._extra_params["alpha"]), RESULTS, quick)


__all__ = [
    "describe_mode",
    "QUICK",
    "FULL",
    "ClaimSizes",
    "claim_sizes",
    "describe_claims_mode",
    "seed_part",
    "minibatch_runs",
    "equal_label_error",
    "default_alpha_table",
    "spec",
    "fair_spec",
    "claims",
    "experiment1_frame",
    "initial_set_table",
    "fair_frame",
    "fair",
    "default_alpha",
    "store_claims",
    "stored_claims",
]
