"""Tests of the split audit (issue 56): the generators' exact truth, the split log rebuilt from a
fitted tree, audit_tree against a direct computation written here, split by split, and the
per-split and per-tree rates of audit_splits with their intervals."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from workbench import learners, streams
from workbench import montecarlo as mc
from workbench.streams import truth as tr

# =============================================================================================
# Direct computations (independent of workbench.streams.truth)
# =============================================================================================


def _entropy_bits(w):
    w = np.asarray(w, dtype=float)
    t = w.sum()
    if t <= 0:
        return 0.0
    return -sum(v / t * math.log2(v / t) for v in w if v > 0)


def _gain(node, branches):
    """Information gain in bits of a split of class weights ``node`` into ``branches``."""
    tot = sum(np.sum(b) for b in branches)
    return _entropy_bits(node) - sum(np.sum(b) / tot * _entropy_bits(b) for b in branches)


def _path(T, node):
    """[(feature, kind, threshold, branch)] from the root to ``node``, read from the tree's
    parent pointers (not from any split log)."""
    out = []
    while T.parent[node] >= 0:
        p = int(T.parent[node])
        b = int(np.flatnonzero(T.children[p] == node)[0])
        out.append((int(T.feature[p]), int(T.kind[p]), float(T.threshold[p]), b))
        node = p
    return out[::-1]


def _cbt_direct(concept, path, d):
    """For a RandCBT concept: per feature, (best gain over the leaf boxes' edges and a fine
    grid, the gain as a function of a threshold) in the region of ``path`` (numeric tests)."""
    lo, hi = np.zeros(d), np.ones(d)
    for j, kind, thr, b in path:
        assert kind == 1
        if b == 0:
            hi[j] = min(hi[j], thr)
        else:
            lo[j] = max(lo[j], thr)
    leaves = np.flatnonzero(concept.feature < 0)
    L = leaves.size

    def boxes():
        for leaf in leaves:
            a = np.maximum(concept.lower[leaf], lo)
            c = np.minimum(concept.upper[leaf], hi)
            vol = np.prod(np.clip(c - a, 0, None) / (concept.upper[leaf] - concept.lower[leaf]))
            p1 = concept.p1[leaf]
            yield a, c, vol / L, np.array([1 - p1, p1])

    cells = list(boxes())
    node = sum(m * p for _a, _c, m, p in cells)

    def gain_at(j, t):
        left = np.zeros(2)
        for a, c, m, p in cells:
            if m <= 0:
                continue
            frac = 0.0 if t <= a[j] else 1.0 if t >= c[j] else (t - a[j]) / (c[j] - a[j])
            left += m * frac * p
        return _gain(node, [left, node - left])

    best = []
    for j in range(d):
        ts = set(np.linspace(lo[j], hi[j], 401)[1:-1])
        for a, c, m, _p in cells:
            if m > 0:
                ts |= {v for v in (a[j], c[j]) if lo[j] < v < hi[j]}
        best.append(max([0.0] + [gain_at(j, t) for t in ts]))
    return np.array(best), gain_at


@pytest.fixture(scope="module")
def cbt_tree():
    X, y, info = streams.rand_cbt(40_000, seed=7, n_leaves=6, d=3, q=0.85, return_info=True)
    model = learners.HoeffdingTree(delta=0.05, tau=0.0, grace_period=200).fit(X, y)
    return model, info


@pytest.fixture(scope="module")
def nominal_tree():
    X, y, info = streams.random_tree(
        30_000, seed=2, n_nominal=4, n_numeric=0, n_values=3, return_info=True
    )
    model = learners.HoeffdingTree(delta=0.05, tau=0.0, nominal_features=info.nominal_features).fit(
        X, y
    )
    return model, info


# =============================================================================================
# The truth
# =============================================================================================


def test_rand_cbt_law_is_the_stream_law():
    X, y, info = streams.rand_cbt(60_000, seed=3, n_leaves=5, d=2, q=0.8, return_info=True)
    law = info.tree.law()
    assert law.mass.sum() == pytest.approx(1.0)
    # P(region) and P(Y = 1 | region) of a box region against the sample (binomial z-scores)
    tests = [(0, "<=", 0.6), (1, ">", 0.3)]
    inside = (X[:, 0] <= 0.6) & (X[:, 1] > 0.3)
    pm = law.region_mass(tests)
    assert abs(inside.mean() - pm) < 4 * math.sqrt(pm * (1 - pm) / X.shape[0])
    p1 = law.class_distribution(tests)[1]
    assert abs(y[inside].mean() - p1) < 4 * math.sqrt(p1 * (1 - p1) / inside.sum())


def test_rand_cbt_truth_matches_the_direct_computation():
    _X, _y, info = streams.rand_cbt(1000, seed=11, n_leaves=7, d=3, q=0.75, return_info=True)
    law = tr.law_of(info)
    for path in ([], [(0, 1, 0.5, 0)], [(1, 1, 0.4, 1), (2, 1, 0.7, 0)]):
        tests = [(j, "<=" if b == 0 else ">", t) for j, _k, t, b in path]
        best, gain_at = _cbt_direct(info.tree, path, 3)
        g = law.feature_gains(tests)
        # the exact maximum over all thresholds is never below a fine grid's
        np.testing.assert_allclose(g["gain"], best, atol=1e-12)
        for j in range(3):
            if g["gain"][j] > 0:
                assert gain_at(j, g["threshold"][j]) == pytest.approx(g["gain"][j], abs=1e-12)
            assert law.split_gain(tests, j, 0.37) == pytest.approx(gain_at(j, 0.37), abs=1e-12)


def test_random_tree_law_enumerates_the_nominal_stream():
    _X, _y, info = streams.random_tree(
        1000, seed=4, n_nominal=3, n_numeric=1, n_values=3, return_info=True
    )
    law = info.tree.law()
    assert law.mass.sum() == pytest.approx(1.0)
    # the numeric feature on a fine grid, the nominal codes enumerated: the class weights of
    # a region, and the multiway gain of feature 0 in it
    grid = (np.arange(4000) + 0.5) / 4000
    pts = np.array([(*codes, x) for codes in itertools.product(range(3), repeat=3) for x in grid])
    lab = info.tree.predict(pts)
    region = (pts[:, 1] != 2) & (pts[:, 3] <= 0.55)
    w = np.bincount(lab[region], minlength=2).astype(float)
    tests = [(1, "!=", 2), (3, "<=", 0.55)]
    np.testing.assert_allclose(law.class_distribution(tests), w / w.sum(), atol=1e-3)
    branches = [np.bincount(lab[region & (pts[:, 0] == v)], minlength=2) for v in range(3)]
    assert law.split_gain(tests, 0) == pytest.approx(_gain(w, branches), abs=2e-3)


def test_law_rejects_unknown_streams_and_bad_tests():
    _X, _y, info = streams.sea(100, seed=1, return_info=True)
    with pytest.raises(ValueError, match="SampleTruth"):
        tr.law_of(info)
    _X, _y, info = streams.random_tree(100, seed=4, n_nominal=2, n_numeric=1, return_info=True)
    law = info.tree.law()
    with pytest.raises(ValueError, match="nominal"):
        law.feature_gains([(0, "<=", 1.0)])
    with pytest.raises(ValueError, match="numeric"):
        law.feature_gains([(2, "==", 1.0)])
    with pytest.raises(ValueError, match="criterion"):
        law.feature_gains([], criterion="entropy")


def test_sample_truth_estimates_the_exact_truth_within_its_stated_error():
    _X, _y, info = streams.rand_cbt(1000, seed=8, n_leaves=6, d=3, q=0.8, return_info=True)
    law = info.tree.law()  # an independent sample of the same law (another seed of rand_cbt
    # would grow another tree)
    rng = np.random.default_rng(0)
    leaves = info.tree.leaves
    owner = leaves[rng.integers(leaves.size, size=300_000)]
    lo, hi = info.tree.lower[owner], info.tree.upper[owner]
    Xs = lo + rng.random(lo.shape) * (hi - lo)
    ys = (rng.random(owner.size) < info.tree.p1[owner]).astype(np.int64)
    est = tr.SampleTruth(Xs, ys)
    for tests in ([], [(0, "<=", 0.5)]):
        exact = law.feature_gains(tests)["gain"].to_numpy()
        g = est.feature_gains(tests)
        # plug-in error: 4 standard errors, its first-order bias and the upward bias of the
        # search over 256 cuts (at most a few times the bias term)
        slack = 4 * g["se"] + 5 * g["bias"] + 1e-3
        assert (np.abs(g["gain"] - exact) <= slack).all(), (g, exact)
    assert (g["se"] > 0).all() and (g["n"] > 100_000).all()


# =============================================================================================
# The split log
# =============================================================================================


def test_structure_log_lists_every_inner_node_in_split_order(cbt_tree):
    model, _info = cbt_tree
    T = model.tree
    log = mc.audit.structure_log(model)
    inner = np.flatnonzero(np.isin(T.kind, (1, 2, 3)))
    assert sorted(log["node"]) == sorted(inner.tolist()) and len(log) >= 3
    assert list(log.columns) == list(mc.audit.LOG_COLUMNS)
    assert (np.diff(log["t"]) >= 0).all()
    for i, row in log.iterrows():
        u = int(row["node"])
        assert row["n"] == T.class_counts[u].sum()
        assert row["depth"] == T.depth[u] and row["feature"] == T.feature[u]
        if row["parent_entry"] < 0:
            assert u == model.root
        else:
            p = int(log["node"].iloc[int(row["parent_entry"])])
            assert T.children[p, int(row["branch"])] == u and row["parent_entry"] < i
    assert not log["replaced"].any() and not log["tie"].any()  # tau = 0: no tie split
    assert log["looks"].isna().all()


def test_structure_log_marks_ties_unknown_when_tau_allows_them():
    X, y, info = streams.rand_cbt(20_000, seed=1, n_leaves=4, d=2, q=0.8, return_info=True)
    model = learners.HoeffdingTree(delta=0.05, tau=0.05).fit(X, y)
    log = mc.audit.structure_log(model)
    assert len(log) > 0 and log["tie"].isna().all()
    # the tree's own log (which split_log and audit_tree prefer) knows each split's kind
    own = mc.split_log(model)
    assert own["tie"].notna().all() and own["tie"].any() and not own["tie"].all()
    assert sorted(own["node"]) == sorted(log["node"])
    counts = mc.summarize_audit(mc.audit_tree(model, info))
    assert counts["ties_unknown"] == 0 and counts["ties"] == int(own["tie"].sum())


def test_a_learners_own_split_log_is_used():
    class Logged:
        def split_log(self):
            return pd.DataFrame({"node": [0]})

    with pytest.raises(ValueError, match="lacks the columns"):
        mc.split_log(Logged())


# =============================================================================================
# audit_tree against the direct computation
# =============================================================================================


def test_audit_tree_matches_the_direct_computation_on_rand_cbt(cbt_tree):
    model, info = cbt_tree
    T = model.tree
    audit = mc.audit_tree(model, info, tol=1e-3)
    assert len(audit) >= 3
    for _i, row in audit.iterrows():
        path = _path(T, int(row["node"]))
        best, gain_at = _cbt_direct(info.tree, path, 3)
        f = int(row["feature"])
        assert row["gain_best"] == pytest.approx(best.max(), abs=1e-12)
        assert row["best_feature"] == int(np.argmax(best))
        assert row["gain_feature"] == pytest.approx(best[f], abs=1e-12)
        assert row["gain_chosen"] == pytest.approx(gain_at(f, row["threshold"]), abs=1e-12)
        assert row["gain_chosen"] <= row["gain_feature"] + 1e-12
        assert bool(row["wrong"]) == bool(best[f] < best.max() - 1e-3)
        assert row["region_mass"] > 0


def test_audit_tree_matches_the_direct_computation_on_a_nominal_random_tree(nominal_tree):
    model, info = nominal_tree
    T = model.tree
    V, d = 3, 4
    points = np.array(list(itertools.product(range(V), repeat=d)), dtype=float)
    labels = info.tree.predict(points)
    audit = mc.audit_tree(model, info, tol=1e-3)
    assert len(audit) >= 3
    for _i, row in audit.iterrows():
        inside = np.ones(len(points), bool)
        for j, kind, thr, b in _path(T, int(row["node"])):
            if kind == 2:
                inside &= points[:, j] == b
            else:
                assert kind == 3
                inside &= (points[:, j] == thr) if b == 0 else (points[:, j] != thr)
        node = np.bincount(labels[inside], minlength=2)
        gains = []
        for j in range(d):
            branches = [np.bincount(labels[inside & (points[:, j] == v)], minlength=2)
                        for v in range(V)]  # fmt: skip
            binary = [_gain(node, [br, node - br]) for br in branches]
            gains.append(max([_gain(node, branches)] + binary))
        gains = np.array(gains)
        f = int(row["feature"])
        assert row["gain_best"] == pytest.approx(gains.max(), abs=1e-12)
        assert row["gain_feature"] == pytest.approx(gains[f], abs=1e-12)
        assert gains[int(row["best_feature"])] == pytest.approx(gains.max(), abs=1e-12)
        if math.isnan(row["threshold"]):
            chosen = _gain(
                node, [np.bincount(labels[inside & (points[:, f] == v)], minlength=2)
                       for v in range(V)]
            )  # fmt: skip
        else:
            br = np.bincount(labels[inside & (points[:, f] == row["threshold"])], minlength=2)
            chosen = _gain(node, [br, node - br])
        assert row["gain_chosen"] == pytest.approx(chosen, abs=1e-12)
        assert bool(row["wrong"]) == bool(gains[f] < gains.max() - 1e-3)


def test_a_binary_nominal_learner_is_judged_among_binary_tests(nominal_tree):
    _model, info = nominal_tree
    X, y = streams.random_tree(30_000, seed=2, n_nominal=4, n_numeric=0, n_values=3)
    ctree = learners.CTree(c=0.1, nominal_features=info.nominal_features).fit(X, y)
    a = mc.audit_tree(ctree, info)
    assert len(a) > 0 and not np.isnan(a["threshold"]).any()  # x == v tests only
    pd.testing.assert_frame_equal(a, mc.audit_tree(ctree, info, nominal="binary"))
    multi = mc.audit_tree(ctree, info, nominal="all")
    assert (multi["gain_best"] >= a["gain_best"] - 1e-12).all()
    with pytest.raises(ValueError, match="nominal"):
        mc.audit_tree(ctree, info, nominal="some")


def test_audit_tree_judges_the_feature_not_the_cut(cbt_tree):
    model, info = cbt_tree
    a0 = mc.audit_tree(model, info, tol=0.0)
    big = mc.audit_tree(model, info, tol=1.0)  # a tolerance of the whole range: nothing wrong
    assert not big["wrong"].any()
    assert (a0["wrong"] == (a0["gain_feature"] < a0["gain_best"])).all()


def test_audit_tree_with_a_sample_states_its_error(cbt_tree):
    model, info = cbt_tree
    exact = mc.audit_tree(model, info)
    law = info.tree.law()
    rng = np.random.default_rng(1)
    leaves = info.tree.leaves
    owner = leaves[rng.integers(leaves.size, size=200_000)]
    lo, hi = info.tree.lower[owner], info.tree.upper[owner]
    X = lo + rng.random(lo.shape) * (hi - lo)
    y = (rng.random(owner.size) < info.tree.p1[owner]).astype(np.int64)
    est = mc.audit_tree(model, info, sample=(X, y))
    assert {"gain_best_se", "gain_feature_se"} <= set(est.columns)
    assert (est["gain_best_se"] > 0).all()
    err = np.abs(est["gain_best"] - exact["gain_best"])
    assert (err <= 4 * est["gain_best_se"] + 2e-3).all()
    pm = exact["region_mass"]
    assert (np.abs(est["region_mass"] - pm) <= 4 * np.sqrt(pm * (1 - pm) / 200_000) + 1e-12).all()
    assert law.region_mass([]) == pytest.approx(1.0)


# =============================================================================================
# audit_splits and its intervals
# =============================================================================================


def make_vfdt():
    """A maker importable by name (module level)."""
    return learners.HoeffdingTree(delta=0.05, tau=0.0)


def test_audit_splits_rows_add_up_over_trees():
    kw = dict(n=20_000, n_leaves=6, d=3, q=0.8)
    table, per = mc.audit_splits(
        {"vfdt": learners.HoeffdingTree(delta=0.05, tau=0.0), "maker": make_vfdt},
        "rand_cbt",
        seeds=range(3),
        stream_kwargs=kw,
        backend="serial",
        per_tree=True,
    )
    assert list(table["config"]) == ["vfdt", "maker"]
    for name, g in per.groupby("config"):
        row = table.set_index("config").loc[name]
        assert row["trees"] == 3 and row["splits"] == g["splits"].sum()
        assert row["wrong"] == g["wrong"].sum()
        assert row["trees_wrong"] == g["any_wrong"].sum()
        assert row["split_low"] <= row["split_rate"] <= row["split_high"]
        assert row["tree_low"] <= row["tree_rate"] <= row["tree_high"]
    # the same learner on the same seeds: the same trees
    a, b = (per[per.config == c].reset_index(drop=True) for c in ("vfdt", "maker"))
    volatile = ["config", "audit_seconds"]
    pd.testing.assert_frame_equal(a.drop(columns=volatile), b.drop(columns=volatile))
    # each seed's tree is the one audit_tree sees
    X, y, info = streams.rand_cbt(seed=1, return_info=True, **kw)
    model = make_vfdt()
    from workbench import evaluate

    evaluate.prequential(model, X, y)
    s = mc.summarize_audit(mc.audit_tree(model, info))
    one = per[(per.config == "vfdt") & (per.seed == 1)].iloc[0]
    assert (one["splits"], one["wrong"]) == (s["splits"], s["wrong"])


def test_audit_splits_runs_a_local_maker_in_this_process():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = mc.audit_splits(
            {"lambda": lambda: learners.HoeffdingTree(delta=0.05, tau=0.0)},
            "rand_cbt",
            seeds=[0],
            stream_kwargs=dict(n=5_000, n_leaves=4, d=2),
        )
    assert any("cannot be imported" in str(w.message) for w in caught)
    assert table["trees"].iloc[0] == 1
    with pytest.raises(ValueError, match="configs"):
        mc.audit_splits({}, "rand_cbt")


def test_korn_graubard_covers_a_clustered_rate_where_the_naive_interval_does_not():
    """Trees whose splits share a tree-level error rate (beta-binomial clusters): the interval
    that takes the trees as the units covers the true rate about 95 % of the time, the
    Clopper-Pearson interval that takes every split as independent far less."""
    rng = np.random.default_rng(3)
    p, rho_a, T, sims = 0.05, 0.5, 60, 2_000
    cover_kg = 0
    ks, ns = np.empty(sims), np.empty(sims)
    for i in range(sims):
        splits = rng.integers(5, 15, size=T)
        rates = rng.beta(rho_a, rho_a * (1 - p) / p, size=T)  # mean p, strongly clustered
        wrong = rng.binomial(splits, rates)
        _r, lo, hi, n_eff = mc.korn_graubard(wrong, splits)
        cover_kg += lo <= p <= hi
        ks[i], ns[i] = wrong.sum(), splits.sum()
        assert n_eff <= ns[i]
    # Clopper-Pearson on the pooled splits, as if independent
    lo = np.where(ks > 0, stats.beta.ppf(0.025, ks, ns - ks + 1), 0.0)
    hi = np.where(ks < ns, stats.beta.ppf(0.975, ks + 1, ns - ks), 1.0)
    cover_naive = int(((lo <= p) & (p <= hi)).sum())
    # exact binomial tests of the coverage against the nominal 95 %
    assert stats.binomtest(cover_kg, sims, 0.95, alternative="less").pvalue > 1e-3, cover_kg
    assert stats.binomtest(cover_naive, sims, 0.95, alternative="less").pvalue < 1e-6
    # independent splits (one per tree): the effective size is the number of trees
    w = (rng.random(400) < 0.1).astype(int)
    _r, _lo, _hi, n_eff = mc.korn_graubard(w, np.ones(400))
    assert 380 < n_eff <= 400
    assert mc.korn_graubard([0, 0, 0], [3, 4, 5])[1:] == (0.0, pytest.approx(
        1 - 0.025 ** (1 / 12)), 12.0)  # fmt: skip
