"""Fast checks of the paper-000 experiment runners (workbench.experiments.paper000).

The notebook itself runs in tests/test_notebooks.py; here every runner is called at a tiny size
and checked for its shape, the sanity of its numbers and reproducibility at a fixed seed.
"""

from __future__ import annotations

import json
import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from workbench import evaluate, learners, streams  # noqa: E402
from workbench.experiments import paper000 as P  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


# --------------------------------------------------------------------------- mode
def test_sizes_follow_workbench_fast(monkeypatch):
    monkeypatch.setenv("WORKBENCH_FAST", "1")
    assert P.fast_mode() and P.sizes() is P.FAST
    monkeypatch.setenv("WORKBENCH_FAST", "0")
    assert not P.fast_mode() and P.sizes() is P.FULL
    assert P.sizes(fast=True) is P.FAST
    assert "QUICK" in P.describe_mode(fast=True) and "1,000 x 500,000" in P.describe_mode(True)
    assert "FULL" in P.describe_mode(fast=False)
    # the full reproduction is larger than the fast one in every dimension
    assert P.FULL.fig3_trees > P.FAST.fig3_trees and P.FULL.trials > P.FAST.trials


# --------------------------------------------------------------------------- Sec. III
def test_impurities_bound_the_min_function_except_entropy_in_nats():
    df = P.impurities()
    assert list(df.columns) == [
        "p",
        "min",
        "entropy_nats",
        "entropy_bits",
        "gini",
        "kearns_mansour",
    ]
    assert df.gini.max() == pytest.approx(0.5) and df.kearns_mansour.max() == pytest.approx(0.5)
    chk = P.upper_bound_check(20_001).set_index("impurity")
    assert chk.loc[["entropy_bits", "gini", "kearns_mansour"], "holds"].all()
    assert not chk.loc["entropy_nats", "holds"]
    # ln(2)/2 < 1/2 at p = 1/2; the failure band is symmetric around 1/2
    assert chk.loc["entropy_nats", "min_gap"] == pytest.approx(math.log(2) / 2 - 0.5, abs=1e-9)
    lo, hi = chk.loc["entropy_nats", ["fails_from", "fails_to"]]
    assert lo == pytest.approx(1 - hi, abs=1e-4) and 0.30 < lo < 0.32


def test_gain_table_min_function_is_blind_to_a_split_that_keeps_the_majority():
    g = P.gain_table().set_index("functional")
    assert g.loc["min", "gain"] == pytest.approx(0.0, abs=1e-12)
    assert (g.loc[["entropy_bits", "gini", "kearns_mansour"], "gain"] > 0.03).all()
    # Gini by hand: J(Y) = 2 .75 .25, J(Y|F) = .5 (2 .6 .4) + .5 (2 .9 .1)
    assert g.loc["gini", "gain"] == pytest.approx(0.375 - 0.33)


# --------------------------------------------------------------------------- Theorems 1-3
def test_bound_curves_hold_and_are_reproducible():
    kw = dict(ms=(20, 200), grid=3, search_trials=400, trials=2000, seed=11)
    a = P.bound_curves(**kw)
    b = P.bound_curves(**kw)
    assert len(a) == 6 and set(a.estimator) == set(P.THEOREMS)
    assert (a.p_exceed <= 0.05).all() and (a.ratio > 1).all()
    assert (a.empirical_quantile > 0).all()
    assert a.equals(b)
    # the bound shrinks with m; the 0.95-quantile too
    for _, g in a.groupby("estimator"):
        g = g.sort_values("m")
        assert g.bound.is_monotonic_decreasing and g.empirical_quantile.is_monotonic_decreasing


def test_printed_q_definition_fails_and_corrected_holds():
    df = P.printed_vs_corrected(ms=(10_000,), trials=2000).set_index("estimator")
    assert df.loc["gini", "p_exceed"] == 0 and df.loc["kearns_mansour", "p_exceed"] == 0
    assert df.loc["gini_as_printed", "p_exceed"] == 1
    assert df.loc["kearns_mansour_as_printed", "p_exceed"] == 1
    # the printed estimators converge to sum_k 2 p_k (1 - p_k), not to J
    assert df.loc["gini_as_printed", "mean"] == pytest.approx(0.635, abs=0.01)
    assert df.loc["gini", "mean"] == pytest.approx(df.loc["gini", "truth"], abs=0.01)


def test_plot_bound_curves_returns_a_figure():
    c = P.bound_curves(
        ms=(20, 200),
        grid=2,
        search_trials=200,
        trials=500,
        estimators=("entropy", "gini", "kearns_mansour", "info_gain"),
    )
    pr = P.printed_vs_corrected(ms=(20, 200), trials=500)
    fig = P.plot_bound_curves(c, pr)
    assert sum(ax.get_visible() for ax in fig.axes) == 5


# --------------------------------------------------------------------------- Theorem 4
def test_schedule_grows_with_depth_time_dimension_and_falls_with_m():
    assert P.schedule(100, 0, 10_000, 5) > P.schedule(1000, 0, 10_000, 5)
    assert P.schedule(1000, 5, 10_000, 5) > P.schedule(1000, 0, 10_000, 5)
    assert P.schedule(1000, 0, 10**6, 5) > P.schedule(1000, 0, 10**4, 5)
    assert P.schedule(1000, 0, 10**4, 50) > P.schedule(1000, 0, 10**4, 5)
    # delta = 1/t by default (Remark 1)
    assert P.schedule(1000, 2, 10**4, 5) == pytest.approx(P.schedule(1000, 2, 10**4, 5, delta=1e-4))
    v = P.schedule(np.array([100, 1000]), 1, 10**4, 5, criterion="entropy")
    assert v.shape == (2,) and v[0] > v[1]


def test_eq10_is_undefined_at_the_root_as_printed_and_c_near_4_matches_eq7():
    df = P.eq10_vs_eq7()
    assert df[df.depth == 0].eq10_printed.isna().all()
    assert df[df.depth > 0].eq10_printed.notna().all()
    assert df.c_match.between(3.0, 5.0).all()


def test_split_rule_check_ctree_never_splits_suboptimally():
    df = P.split_rule_check(trials=200, m_max=4000)
    assert len(df) == 6
    ct = df[df.rule == "ctree"]
    assert (ct.p_suboptimal == 0).all()
    easy_vfdt = df[(df.rule == "vfdt") & df.law.str.startswith("easy")].iloc[0]
    assert easy_vfdt.p_split == 1.0 and easy_vfdt.median_split_at == 200


def test_schedule_plot_and_widget():
    fig = P.plot_schedule(depth=2, t=10_000, d=5, c=0.01)
    assert len(fig.axes) == 3
    w = P.schedule_widget()
    assert len(w.children) >= 5


# --------------------------------------------------------------------------- Theorem 5
def test_leaf_consistency_failure_below_delta():
    df = P.leaf_consistency_table(ts=(20, 100), deltas=(0.1, 0.5), trials=4000)
    assert len(df) == 8
    assert (df.p_fail <= df.delta).all()
    always = df[df.policy == "always"]
    assert (always.exact_fail < always.delta / 40).all()
    assert P.plot_leaf_consistency(df) is not None


# --------------------------------------------------------------------------- RandCBT
def test_rand_cbt_prose_loses_leaves_but_algorithm_4_keeps_fifty():
    counts = P.prose_leaf_counts(50, draws=300, seed=1)
    assert counts.max() < 50 and counts.min() > 10
    for seed in range(3):
        _, _, info = streams.rand_cbt(n=1000, seed=seed, return_info=True)
        assert info.tree.n_leaves == 50


def test_stepper_demo_side_by_side_and_generator():
    compare, gen, info = P.stepper_demo(n=3000, start=500, k=100)
    assert len(compare.steppers) == 2 and compare.t == 500
    assert all(s.t == 500 for s in compare.steppers)
    assert "digraph" in gen.dot_source and info.tree.n_leaves == 6
    compare.step(100)
    assert compare.t == 600


# --------------------------------------------------------------------------- Figure 3
@pytest.fixture(scope="module")
def fig3_small():
    return P.fig3_grid(n_trees=2, n_examples=6000, n_params=3, backend="serial")


def _rerun(row, X, y, info):
    """One cell of a sweep, run here without the sweep: (prequential result, model)."""
    cls = getattr(learners, row.learner)
    model = cls(
        n_features=info.n_features,
        n_classes=info.n_classes,
        nominal_features=dict(info.nominal_features),
        **json.loads(row.params),
    )
    return evaluate.prequential(model, X, y), model


def test_fig3_grid_shape_and_sanity(fig3_small):
    df = fig3_small
    assert len(df) == 3 * 3 * 2
    assert set(df.learner) == set(P.LEARNERS)
    assert df.seed.nunique() == 2 and (df.n == 6000).all()
    # the parameter grids: c log-spaced over 10^-3.5..10^-1, delta = exp(-L) with L log-spaced
    grid = {
        "CTree": np.logspace(-3.5, -1.0, 3),
        "HoeffdingTree": np.exp(-np.logspace(-3.5, 0.5, 3)),
        "CorrHTree": np.exp(-np.logspace(-2.5, 2.0, 3)),
    }
    for lr, values in grid.items():
        g = df[df.learner == lr]
        np.testing.assert_allclose(np.sort(g.param.unique()), np.sort(values), rtol=1e-12)
        assert g.groupby("param").seed.apply(lambda v: sorted(v) == [0, 1]).all()
    # H-Tree ran with the paper's settings
    h = df[df.learner == "HoeffdingTree"]
    assert (h.criterion == "gini").all() and (h.grace_period == 100).all() and (h.tau == 0).all()
    # every cell is the prequential run of its learner on RandCBT(seed), recomputed here
    for seed in (0, 1):
        X, y, info = streams.rand_cbt(n=6000, n_leaves=50, d=5, q=0.7, seed=seed, return_info=True)
        for row in df[df.seed == seed].itertuples():
            res, model = _rerun(row, X, y, info)
            assert row.accuracy == pytest.approx(res.accuracy, abs=1e-12)
            assert (row.n_leaves, row.depth) == (model.n_leaves, model.depth)


def test_fig3_grid_is_reproducible(fig3_small):
    again = P.fig3_grid(n_trees=2, n_examples=6000, n_params=3, backend="serial")
    cols = ["learner", "param", "seed", "accuracy", "n_leaves"]
    assert fig3_small[cols].reset_index(drop=True).equals(again[cols].reset_index(drop=True))


def test_fig3_summaries_and_claims(fig3_small):
    df = fig3_small
    s = P.fig3_summary(df)
    assert len(s) == 9 and (s.n_runs == 2).all()
    # mean and standard error over the two trees, recomputed; lo/hi = mean -/+ 1.96 SE
    for r in s.itertuples():
        acc = df[(df.learner == r.learner) & (df.param == r.param)].accuracy.to_numpy()
        se = abs(acc[0] - acc[1]) / 2  # std(ddof=1) / sqrt(2) for two values
        assert r.accuracy == pytest.approx(acc.mean(), abs=1e-12)
        assert r.se == pytest.approx(se, abs=1e-12)
        assert (r.lo, r.hi) == pytest.approx((acc.mean() - 1.96 * se, acc.mean() + 1.96 * se))
    b = P.fig3_binned(df)
    assert b.n_runs.sum() == len(df)
    cmp = P.fig3_compare(df, sizes_=(1, 5, 10_000))
    assert set(cmp.other) == {"HoeffdingTree", "CorrHTree"}
    assert (cmp[cmp.leaves == 10_000].verdict == "n/a").all()  # no tree is that large
    claims = P.fig3_claims(df)
    assert "dominates" not in claims  # judged over trees by P.claims, not by a sign here
    c = s[s.learner == "CTree"]
    best = c.loc[c.accuracy.idxmax()]
    near = c.loc[(np.log(c.leaves) - math.log(50)).abs().idxmin()]
    assert claims["ctree_best"]["c"] == best.param and claims["ctree_best"]["leaves"] == best.leaves
    assert claims["at_generator_size"]["c"] == near.param
    per = claims["best_per_learner"].set_index("learner")
    for lr in P.LEARNERS:
        assert per.loc[lr, "accuracy"] == s[s.learner == lr].accuracy.max()
    report = P.fig3_report(claims, df)
    assert "C-Tree" in report and "holds" not in report
    assert len(P.plot_fig3(df).axes) == 2


def test_rand_cbt_by_leaf_is_the_same_sample_in_leaf_blocks():
    X, y, info = streams.rand_cbt(n=2000, seed=5, n_leaves=8, return_info=True)
    Xb, yb, infob = P.rand_cbt_by_leaf(n=2000, seed=5, n_leaves=8, return_info=True)
    leaves = infob.tree.apply(Xb)
    assert (np.diff(leaves) >= 0).all()  # one block per leaf, in order
    assert sorted(map(tuple, np.c_[X, y])) == sorted(map(tuple, np.c_[Xb, yb]))
    assert infob.name == "rand_cbt_by_leaf"


def test_fig3_grid_by_leaf_order():
    df = P.fig3_grid(n_trees=1, n_examples=4000, n_params=2, backend="serial", order="by_leaf")
    assert len(df) == 6 and (df.order == "by_leaf").all()
    assert df.stream.str.endswith("rand_cbt_by_leaf").all()
    with pytest.raises(ValueError, match="order"):
        P.fig3_grid(n_trees=1, n_examples=4000, n_params=2, backend="serial", order="sorted")


# --------------------------------------------------------------------------- Table I, Fig. 4
def test_table1_records_the_electricity_class_counts():
    t = P.table1().set_index("data set")
    assert t.loc["electricity", "our class 1"] == 19_237
    assert t.loc["electricity", "our class 0"] == 26_075
    assert t.loc["electricity", "paper |+|"] == 26_075
    assert t.loc["adult", "our class 1"] == 7_508


def test_permuted_is_a_reproducible_permutation():
    X0, y0 = P.permuted("electricity", seed=None)
    X1, y1 = P.permuted("electricity", seed=3)
    X2, y2 = P.permuted("electricity", seed=3)
    assert np.array_equal(X1, X2) and np.array_equal(y1, y2)
    assert not np.array_equal(y0, y1) and np.bincount(y0).tolist() == np.bincount(y1).tolist()
    Xn, yn, info = P.permuted("adult", seed=None, n=100, return_info=True)
    assert Xn.shape[0] == 100 and info.nominal_features


def test_fig4_small():
    df = P.fig4(n_perm=1, n_params=2, backend="serial")
    assert len(df) == 2 * 3 * 2
    assert set(df.dataset) == {"electricity", "adult"}
    adult = df[df.dataset == "adult"]
    assert (adult.score == adult.f_measure_1).all()
    elec = df[df.dataset == "electricity"]
    assert (elec.score == elec.accuracy).all()
    # every electricity cell is the prequential run on permutation 0, recomputed here, with
    # the F-measure of class 1 from the confusion counts
    X, y, info = P.permuted("electricity", seed=0, return_info=True)
    for row in elec.itertuples():
        res, _ = _rerun(row, X, y, info)
        tp = int(((res.predictions == 1) & (y == 1)).sum())
        f1 = 2 * tp / (int((res.predictions == 1).sum()) + int((y == 1).sum()))
        assert row.accuracy == pytest.approx(res.accuracy, abs=1e-12)
        assert row.f_measure_1 == pytest.approx(f1, abs=1e-12)
    best = P.fig4_best(df)
    assert len(best) == 6
    for r in best.itertuples():  # one permutation: the best single run
        g = df[(df.dataset == r.dataset) & (df.learner == r.learner)]
        assert r.score == g.score.max() and r.param == g.loc[g.score.idxmax(), "param"]
    cmp = P.fig4_compare(df)
    assert set(cmp.dataset) == {"electricity", "adult"}
    text = P.fig4_report(df)
    assert "electricity" in text and "adult" in text
    assert len(P.plot_fig4(df).axes) == 2


# --------------------------------------------------------------------------- Fig. 5
def test_fig5_small_budget_respected_and_reproducible():
    kw = dict(
        datasets=("electricity",),
        budgets=(0.1, 0.3),
        strategies=("Random", "ConfTree"),
        n_seeds=1,
        c=0.05,
        n_rows=4000,
    )
    a = P.fig5(**kw)
    b = P.fig5(**kw)
    assert len(a) == 1 + 2 * 2
    act = a[a.strategy != "FULL"]
    assert (act.query_rate <= act.budget + 1e-9).all() and (act.query_rate > 0).all()
    assert a[a.strategy == "FULL"].query_rate.iloc[0] == 1.0
    assert a.drop(columns=[]).equals(b)
    ranks = P.fig5_ranks(a)
    assert set(ranks.strategy) == {"Random", "ConfTree"}
    assert len(P.plot_fig5(a).axes) == 2
    assert "ConfTree" in P.fig5_report(a)


def test_tune_c_extends_its_grid_until_the_best_c_is_inside_it():
    c, frame = P.tune_c("electricity", grid=(0.01, 0.1, 1.0), n_rows=3000)
    assert frame.score.max() == frame[frame.c == c].score.iloc[0] and frame.chosen.sum() == 1
    assert frame.c.min() < c < frame.c.max()  # the chosen c is not at an edge of the grid
    assert frame[frame.chosen].edge.iloc[0] == ""


def test_leaf_predictor_table_runs_both_predictors_on_the_same_trees():
    df = P.leaf_predictor_table(fast=True, progress=False)
    assert len(df) == 6 and set(df.learner) == {"C-Tree", "H-Tree", "CorrH-Tree"}
    assert ((df.mc > 0.4) & (df.mc < 1) & (df.nba > 0.4) & (df.nba < 1)).all()
    assert np.allclose(df["nba - mc"], df.nba - df.mc)
    # the predictor changes what the leaves say, not where the tree splits
    X, y, info = streams.electricity(return_info=True)
    trees = [
        learners.HoeffdingTree(6, 2, leaf_prediction=p).partial_fit(X[:5000], y[:5000])
        for p in ("mc", "nba")
    ]
    assert np.array_equal(trees[0].apply(X), trees[1].apply(X))
    assert not np.array_equal(trees[0].predict(X[:5000]), trees[1].predict(X[:5000]))


def test_equal_size_claims_average_the_same_sizes_at_every_seed():
    """The mean over sizes uses only the sizes both learners reach on every tree: a tree whose
    runs stop at 100 leaves removes 200 and 1,000 from every tree's mean, not from its own."""
    import pandas as pd

    from workbench.experiments.paper000 import verdicts as V

    rows = []
    for seed, top in ((0, 2000), (1, 100)):
        for learner, shift in (("CTree", 0.01), ("HoeffdingTree", 0.0)):
            for leaves in (5, 20, 50, top):
                rows.append(dict(seed=seed, learner=learner, n_leaves=leaves, param=leaves,
                                 accuracy=0.5 + 0.01 * np.log(leaves) + shift * (1 + seed)))  # fmt: skip
    out = V._equal_size(pd.DataFrame(rows), "HoeffdingTree", (5, 10, 50, 200, 1000), "accuracy")
    assert out[0]["sizes"] == out[1]["sizes"] == "5, 10, 50"
    assert np.isfinite(out[0]["at1000"]) and np.isnan(out[1]["at1000"])
    assert out[0]["mean"] == pytest.approx(0.01) and out[1]["mean"] == pytest.approx(0.02)


def test_the_theorems_are_decided_on_their_trials_and_theorem_5_by_computation():
    from workbench import claims as C

    t = P.stored_claims(quick=True)
    theory = t[t["where"].str.startswith("Theorem")]
    assert len(theory) == 6 and theory.test.str.endswith("(theorems)").sum() == 5
    exact = theory[theory.test == "exact computation"]
    assert len(exact) == 1 and exact.p_value.isna().all() and exact.ci_low.isna().all()
    mc = theory[theory.test.str.startswith("exact binomial")]
    assert len(mc) == 5 and (mc.verdict == "holds").all()
    # a rate of 0 events holds only because its exact upper limit is below delta
    assert (mc.ci_high < 0.05).all() and mc.evidence.str.contains("trials").all()
    per_seed = C.attached(t)
    assert {"mc/entropy/m10/k", "mc/entropy/m10/n", "mc/ctree/law0/k"} <= set(per_seed.columns)
    best = t[t.claim.str.startswith("C-Tree most accurate at the generator's")]
    assert best.test.str.startswith("sign test").all()
