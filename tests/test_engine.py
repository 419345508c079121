"""The engine's mechanisms, each on its own with a minimal learner configuration (issue 10):
split rules, the single-candidate fix, cut-point policies, statistics along the path, inner-node
re-evaluation, structural edits (kill, replace, prune and refill), forests, Laplace leaves."""

import math
import pickle

import numpy as np
import pytest
from numba import njit
from scipy import stats

from workbench import evaluate, streams
from workbench.core import decide as dc
from workbench.core import engine, routing, rules, state as st
from workbench.core import leaf_predict as lp
from workbench.core import naive_bayes as nbs
from workbench.core import reevaluate as rv
from workbench.core import search
from workbench.core.state import slot_arrays
from workbench._numbers import compared
from workbench.core.criteria import merit as criterion_merit
from workbench.core.params import (
    CRIT_INFO_GAIN,
    Config,
    P_MARGIN_FACTOR,
    P_TAU,
    LEAF_NB,
    RULE_BEST_VS_CURRENT,
    RULE_CREDIBLE,
    RULE_CREDIBLE_TEXT,
    RULE_BEST_VS_NULL,
    RULE_BEST_VS_SECOND,
)
from workbench.learners import EFDT, BaseTree, CorrHTree, CTree, HoeffdingTree


class PathTree(BaseTree):
    """The smallest HATT-like configuration: every node on the path learns, a leaf splits when
    its best split beats the null split, inner nodes are re-evaluated every 500 instances."""

    _update = "path"
    _split_rule = "best_vs_null"
    _reeval_period = 500


class PathTreeNoReeval(PathTree):
    _reeval_period = 0


class FixedCutTree(HoeffdingTree):
    """VFDT that may cut numeric features only where the class says (001's predefined tests)."""

    _cut_policy = "fixed"
    _fixed_cuts = None

    def __init__(self, n_features, n_classes, cuts, **kwargs):
        self.cuts = self._fixed_cuts = cuts
        super().__init__(n_features, n_classes, **kwargs)


def reachable(T, root):
    seen, stack = [], [root]
    while stack:
        u = stack.pop()
        seen.append(u)
        stack.extend(int(c) for c in T.children[u, : T.n_children[u]] if c >= 0)
    return seen


def check_invariants(T):
    """What every edit must preserve: the counters match the arrays, every used row hangs from a
    root, freed rows are on the free list, and no two nodes share a statistics slot."""
    used = [u for r in T.roots for u in reachable(T, int(r))]
    assert len(used) == len(set(used))
    assert sorted(used) == sorted(np.flatnonzero(T.kind >= 0).tolist())
    assert T.meta[st.M_N_LEAVES] == sum(T.kind[u] == st.LEAF for u in used)
    assert T.meta[st.M_N_ACTIVE] == sum(T.active[u] == 1 for u in used)
    free = T.free_nodes[: T.meta[st.M_FREE_NODES]].tolist()
    assert len(set(free)) == len(free) and all(T.kind[u] == st.FREE for u in free)
    assert T.meta[st.M_N_NODES] == len(used) + len(free)
    slots = [int(T.stats_slot[u]) for u in used if T.stats_slot[u] >= 0]
    assert len(slots) == len(set(slots))
    assert not set(slots) & set(T.free_slots[: T.meta[st.M_FREE_SLOTS]].tolist())
    for u in used:
        for c in T.children[u, : T.n_children[u]]:
            assert c < 0 or T.parent[c] == u


def one_feature_stream(n, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(size=(n, 1))
    return x, (x[:, 0] > 0.5).astype(np.int64)


# ----------------------------------------------------------------------------- rules
def test_rule_quantities_by_hand():
    eps = 0.125
    assert rules.rule_quantity(
        RULE_BEST_VS_SECOND, 0.5, 0.2, -np.inf, np.nan, eps, 2.0
    ) == pytest.approx((0.3, 0.25))
    # one candidate: the second is the null-split suggestion (-inf under min branch fraction)
    q, thr = rules.rule_quantity(RULE_BEST_VS_SECOND, 0.5, -np.inf, -np.inf, np.nan, eps, 1.0)
    assert q == math.inf and thr == eps
    # a finite null suggestion (a criterion without the minimum-branch rule) is a rival too
    assert rules.rule_quantity(RULE_BEST_VS_SECOND, 0.5, -0.1, 0.0, np.nan, eps, 1.0)[0] == 0.5
    assert rules.rule_quantity(
        RULE_BEST_VS_NULL, 0.5, 0.49, 0.0, np.nan, eps, 2.0
    ) == pytest.approx((0.5, eps))  # G(null) = 0; no margin factor
    # MOA's merit sums: the null split's mean is what the best is compared with
    assert rules.rule_quantity(
        RULE_BEST_VS_NULL, 0.5, 0.49, 0.125, np.nan, eps, 2.0
    ) == pytest.approx((0.375, eps))
    assert rules.rule_quantity(
        RULE_BEST_VS_CURRENT, 0.5, 0.0, -np.inf, 0.45, eps, 1.0
    ) == pytest.approx((0.05, eps))
    assert rules.decide(0.3, 0.25, 0.125, 0.05) == rules.BY_MARGIN
    assert rules.decide(0.3, 0.3, 0.04, 0.05) == rules.BY_TIE
    assert rules.decide(0.3, 0.3, 0.125, 0.05) == rules.KEEP
    # a leaf's tie needs no quantity at all (MOA: epsilon < tau splits whatever the means are)
    assert rules.decide(-np.inf, 0.04, 0.04, 0.05) == rules.BY_TIE
    assert rules.decide(np.nan, 0.04, 0.04, 0.05) == rules.BY_TIE
    # best vs current (MOA's EFDT re-evaluation): a tie also needs the gap above tau / 2
    floor = rules.tie_floor(RULE_BEST_VS_CURRENT, 0.05)
    assert floor == 0.025
    assert rules.decide(0.03, 0.04, 0.04, 0.05, floor) == rules.BY_TIE
    assert rules.decide(0.02, 0.04, 0.04, 0.05, floor) == rules.KEEP
    assert rules.tie_floor(RULE_BEST_VS_SECOND, 0.05) == -np.inf
    assert set(rules.RULE_LABELS) == {
        RULE_BEST_VS_SECOND,
        RULE_BEST_VS_NULL,
        RULE_BEST_VS_CURRENT,
        RULE_CREDIBLE,
        RULE_CREDIBLE_TEXT,
    }


# ----------------------------------------------------------------------------- point 5: the fix
@pytest.mark.parametrize(
    "make", [lambda: HoeffdingTree(1, 2), lambda: CorrHTree(1), lambda: CTree(1)]
)
def test_a_single_attribute_splits_at_its_first_test(make):
    """MOA splits on its only attribute at the first split test: the rival is the null split,
    whose merit under the minimum branch fraction is -inf.  (Before issue 10 the tree stayed a
    single leaf after 20,000 instances.)"""
    X, y = one_feature_stream(20_000)
    model = make()
    grace = int(model.grace_period)
    model.partial_fit(X[: grace - 1], y[: grace - 1])
    assert model.n_leaves == 1
    shadow = make().set_params(grace_period=10**9)
    shadow.partial_fit(X[:grace], y[:grace])
    ex = shadow.explain_one(X[0])
    assert ex.will_split and ex.quantity == math.inf and ex.second is None
    assert "null split" in ex.reason and "Ready to split" in ex.reason
    model.partial_fit(X[grace - 1 : grace], y[grace - 1 : grace])
    assert model.n_leaves == 2
    assert abs(model.tree.threshold[model.root] - 0.5) < 0.1
    model.partial_fit(X[grace:], y[grace:])
    assert (model.predict(X) == y).mean() > 0.97


# ----------------------------------------------------------------------------- explanations
def test_explanations_show_the_kernels_rule():
    X, y = streams.sea(4_000, seed=2)
    ht = HoeffdingTree(3, 2, grace_period=10**9).partial_fit(X, y)
    ex = ht.explain_one(X[0])
    n = ex.n
    assert ex.rule == "best vs second best"
    assert ex.quantity == pytest.approx(ex.best["merit"] - ex.second["merit"], abs=1e-15)
    assert ex.threshold == pytest.approx(math.sqrt(math.log(1e7) / (2 * n)))
    ct = CTree(3, grace_period=10**9).partial_fit(X, y)
    ex = ct.explain_one(X[0])
    assert ex.threshold == pytest.approx(2 * ex.epsilon) and ex.threshold_label.startswith("2 x")
    pt = PathTree(3, 2, grace_period=10**9).partial_fit(X, y)
    ex = pt.explain_one(X[0])
    assert ex.rule == "best vs null split" and ex.quantity_label == "G(best) - G(null)"
    assert ex.quantity == pytest.approx(ex.best["merit"]) and ex.threshold == ex.epsilon
    q_txt, eps_txt = compared(ex.quantity, ex.threshold, 4)
    assert f"G(best) - G(null) = {q_txt} exceeds epsilon = {eps_txt}" in ex.reason


def _outcome(model, X, y):
    model.partial_fit(X, y)
    T = model.tree
    d = model.n_features_in_
    post = np.empty((max(T.children.shape[1], 2), model.n_classes_))
    return dc.explain_split(T, model._config, model.root, np.empty(d), np.empty(d), post)[0]


def test_every_split_outcome_is_reached_and_explained():
    rng = np.random.default_rng(4)
    x = rng.uniform(size=(400, 2))
    never = dict(grace_period=10**9)
    cases = {
        dc.NO_SPLIT_PURE: (HoeffdingTree(2, 2, **never), x, np.zeros(400, np.int64)),
        dc.NO_SPLIT_NO_CANDIDATE: (
            HoeffdingTree(2, 2, **never),
            np.ones((400, 2)),
            rng.integers(0, 2, 400),
        ),
        dc.NO_SPLIT_DEPTH: (
            HoeffdingTree(2, 2, max_depth=0, **never),
            x,
            (x[:, 0] > 0.5).astype(np.int64),
        ),
        dc.SPLIT_MARGIN: (HoeffdingTree(2, 2, **never), x, (x[:, 0] > 0.5).astype(np.int64)),
        dc.SPLIT_TIE: (
            HoeffdingTree(2, 2, tau=1.0, **never),
            np.column_stack([x[:, 0]] * 2),
            (x[:, 0] > 0.5).astype(np.int64),
        ),
        dc.NO_SPLIT_BOUND: (
            HoeffdingTree(2, 2, tau=0.0, **never),
            np.column_stack([x[:, 0]] * 2),
            (x[:, 0] > 0.5).astype(np.int64),
        ),
    }
    reasons = {}
    for code, (model, X, y) in cases.items():
        assert _outcome(model, X, y) == code
        reasons[code] = model.explain_one(X[0]).reason
    assert len(set(reasons.values())) == len(cases)
    assert "same class" in reasons[dc.NO_SPLIT_PURE]
    assert "maximum depth" in reasons[dc.NO_SPLIT_DEPTH]
    assert "below the tie threshold" in reasons[dc.SPLIT_TIE]
    assert "same gain" in reasons[dc.NO_SPLIT_BOUND]


# ----------------------------------------------------------------------------- cut points
def test_fixed_cut_points_are_the_only_ones_tried():
    rng = np.random.default_rng(5)
    X = rng.uniform(size=(3_000, 1))
    y = (X[:, 0] > 0.25).astype(np.int64)
    model = FixedCutTree(1, 2, [[0.7, 5.0, 0.25]], grace_period=10**9).partial_fit(X, y)
    ex = model.explain_one(X[0])
    assert ex.best["threshold"] == 0.25  # 5.0 is outside the data; 0.7 is worse
    # the merit at 0.25, from the per-class Gaussians computed here with numpy and scipy
    post = np.empty((2, 2))
    for k in range(2):
        xk = X[y == k, 0]
        w, cut = len(xk), 0.25
        if cut >= xk.max():
            left = w
        elif cut < xk.min():
            left = 0.0
        else:
            left = w * stats.norm.cdf(cut, xk.mean(), xk.std(ddof=1))
        post[:, k] = left, w - left
    expect = criterion_merit(np.bincount(y).astype(float), post, 2, CRIT_INFO_GAIN, 0.01)
    assert ex.best["merit"] == pytest.approx(expect, rel=1e-9)
    grown = FixedCutTree(1, 2, [[0.7, 0.25]]).partial_fit(X, y)
    cuts_used = grown.tree.threshold[grown.tree.kind == st.NUMERIC]
    assert len(cuts_used) >= 1 and set(cuts_used) <= {0.7, 0.25}


def test_fixed_cut_points_need_one_row_per_feature():
    with pytest.raises(ValueError, match="one sequence of cut points per feature"):
        FixedCutTree(2, 2, [[0.5]]).fit(np.zeros((2, 2)), [0, 1])
    with pytest.raises(ValueError, match="finite"):
        FixedCutTree(1, 2, [[np.nan]]).fit(np.zeros((2, 1)), [0, 1])


# ----------------------------------------------------------------------------- path statistics
def test_every_node_on_the_path_learns():
    X, y = streams.sea(20_000, seed=6)
    model = PathTreeNoReeval(3, 2, grace_period=200).partial_fit(X, y)
    T = model.tree
    root = model.root
    assert model.n_leaves > 3
    # the root saw every instance: its counts and its Gaussians are the whole stream's
    assert np.array_equal(T.class_counts[root], np.bincount(y).astype(float))
    s = T.stats_slot[root]
    assert s >= 0
    for k in range(2):
        Xk = X[y == k]
        assert np.array_equal(T.g_w[s, :, k], np.full(3, float(len(Xk))))
        np.testing.assert_allclose(T.g_mean[s, :, k], Xk.mean(axis=0), rtol=1e-12)
        np.testing.assert_allclose(
            T.g_m2[s, :, k] / (len(Xk) - 1), Xk.var(axis=0, ddof=1), rtol=1e-9
        )
    # an inner node's counts grow by the instances routed through it after its split
    leaf_only = HoeffdingTree(3, 2, grace_period=200).partial_fit(X, y)
    assert leaf_only.tree.stats_slot[leaf_only.root] == -1
    check_invariants(T)


def _drifting_stream(n1, n2, seed):
    """x0 decides the class for n1 rows, then x1 does."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n1 + n2, 3))
    y = np.where(np.arange(n1 + n2) < n1, X[:, 0] > 0.5, X[:, 1] > 0.5).astype(np.int64)
    return X, y


def test_reevaluation_replaces_a_split_that_stopped_being_best():
    X, y = _drifting_stream(4_000, 40_000, seed=7)
    model = PathTree(3, 2, grace_period=200)
    model.partial_fit(X[:4_000], y[:4_000])
    assert model.tree.feature[model.root] == 0
    res = evaluate.prequential(model, X[4_000:], y[4_000:])
    T = model.tree
    assert T.feature[model.root] == 1  # replaced: x1 is now the best at the root
    assert T.t_split[model.root] > 4_000
    check_invariants(T)
    assert res.curve[-1] > 0.95
    # VFDT never revisits: its root still tests x0
    vfdt = HoeffdingTree(3, 2, grace_period=200).partial_fit(X, y)
    assert vfdt.tree.feature[vfdt.root] == 0


def test_reevaluation_decision_against_an_independent_merit():
    """At an inner node the rule compares the best candidate with the merit of the node's own
    test, computed here from its statistics with scipy."""
    X, y = _drifting_stream(4_000, 3_000, seed=8)
    model = PathTreeNoReeval(3, 2, grace_period=200).partial_fit(X, y)
    T, C = model.tree, model._config
    root = model.root
    assert T.kind[root] == st.NUMERIC and T.feature[root] == 0
    d = 3
    merits, cuts, post = np.empty(d), np.empty(d), np.empty((2, 2))
    outcome, best, eps, q, thr, _g_best, _g_cur = rv.explain_reevaluation(
        T, C, root, merits, cuts, post
    )
    s, cut = T.stats_slot[root], T.threshold[root]
    dists = np.empty((2, 2))
    for k in range(2):
        w, mean, m2 = T.g_w[s, 0, k], T.g_mean[s, 0, k], T.g_m2[s, 0, k]
        lo, hi = T.g_min[s, 0, k], T.g_max[s, 0, k]
        left = (
            w
            if cut >= hi
            else 0.0
            if cut < lo
            else w * stats.norm.cdf(cut, mean, math.sqrt(m2 / (w - 1)))
        )
        dists[:, k] = left, w - left
    g_current = criterion_merit(T.class_counts[root], dists, 2, CRIT_INFO_GAIN, 0.01)
    g_best = max(merits.max(), 0.0)
    assert q == pytest.approx(g_best - g_current, rel=1e-9)
    assert thr == pytest.approx(eps)
    assert (outcome == rv.REEVAL_REPLACE) == (best not in (-1, 0) and (q > thr or eps < 0.05))


@pytest.mark.parametrize("stream, n_classes", [("sea", 2), ("waveform", 3)])
def test_numeric_split_search_against_an_independent_merit(stream, n_classes):
    """Every numeric feature's best cut and merit at every leaf of a grown tree, as a split
    attempt finds them, against the same search done here with scipy's normal CDF and NumPy's
    entropy: MOA's ten equal steps inside the observed range, each class's weight left of the
    cut from its Gaussian, information gain in bits, -inf below two branches with more than 1%
    of the weight.  (The search's gain is written out over scalars, binary_info_gain.)"""
    X, y = getattr(streams, stream)(20_000, seed=3)
    model = HoeffdingTree(X.shape[1], n_classes, grace_period=200).partial_fit(X, y)
    T, C = model.tree, model._config
    d = X.shape[1]

    def bits(w):
        w = w[w > 0]
        return 0.0 if w.sum() <= 0 else float(-(w / w.sum() * np.log2(w / w.sum())).sum())

    leaves = [
        v for v in range(T.meta[st.M_N_NODES]) if T.kind[v] == st.LEAF and T.stats_slot[v] >= 0
    ]
    assert len(leaves) >= 4
    checked = 0
    for leaf in leaves:
        merits, cuts, post = np.empty(d), np.empty(d), np.empty((2, n_classes))
        dc.explain_split(T, C, leaf, merits, cuts, post)
        s, pre = T.stats_slot[leaf], T.class_counts[leaf]
        for j in range(d):
            w, mean, m2 = T.g_w[s, j], T.g_mean[s, j], T.g_m2[s, j]
            seen = w > 0
            lo, hi = T.g_min[s, j][seen].min(), T.g_max[s, j][seen].max()
            found = []
            for i in range(10):
                cut = lo + (hi - lo) / 11.0 * (i + 1.0)
                sd = np.sqrt(np.where(w > 1, m2 / np.maximum(w - 1, 1e-300), 0.0))
                left = np.where(
                    cut < T.g_min[s, j],
                    0.0,
                    np.where(
                        cut >= T.g_max[s, j],
                        w,
                        np.where(
                            sd > 0,
                            w * stats.norm.cdf(cut, mean, np.where(sd > 0, sd, 1.0)),
                            np.where(cut >= mean, w, 0.0),
                        ),
                    ),
                )
                left = np.where(w > 0, left, 0.0)
                right = np.where(w > 0, w, 0.0) - left
                wl, wr = left.sum(), right.sum()
                g = -np.inf
                if min(wl, wr) > 0.01 * (wl + wr):
                    g = bits(pre) - (wl * bits(left) + wr * bits(right)) / (wl + wr)
                found.append((g, cut))
            g_top = max(g for g, _ in found)
            assert merits[j] == pytest.approx(g_top, rel=1e-9, abs=1e-12), (leaf, j)
            near = [c for g, c in found if g >= g_top - 1e-9]
            assert any(cuts[j] == c for c in near), (leaf, j, cuts[j], near)
            checked += 1
    assert checked >= 4 * d


def test_fast_normal_cdf_and_log2_within_what_the_screen_allows():
    """The split screen's table of the normal CDF and its polynomial log2 against scipy and
    NumPy, far inside the errors the screen's slack is built on."""
    from scipy import special

    from workbench.core import observers as ob

    @njit
    def both(z, a, phi, lg):
        for i in range(z.shape[0]):
            phi[i] = ob.normal_cdf_fast(z[i])
            lg[i] = ob.log2_fast(a[i])

    rng = np.random.default_rng(5)
    z = np.concatenate([np.linspace(-9.5, 9.5, 2_000_001), rng.normal(0, 3, 200_000)])
    a = np.exp(rng.uniform(-690, 700, z.shape[0]))
    a[:4] = [2.2250738585072014e-308, 1.0, 2.0, 1.4142135623730951]
    phi, lg = np.empty_like(z), np.empty_like(z)
    both(z, a, phi, lg)
    assert np.abs(phi - special.ndtr(z)).max() < ob.PHI_FAST_ERROR / 10
    assert np.abs(lg - np.log2(a)).max() < ob.LOG2_FAST_ERROR / 10
    assert ob.normal_cdf_fast(-20.0) == 0.0 and ob.normal_cdf_fast(20.0) == 1.0
    assert np.isnan(ob.normal_cdf_fast(np.nan))


@njit
def _screen(T, C, node, params, eps, merits, cuts, post):
    return (
        search.screen_applies(params, eps)
        and search.feature_candidates(
            Config(params, C.nom_index, C.nom_card, C.cuts),
            T.class_counts,
            slot_arrays(T),
            T.stats_slot[node],
            node,
            merits,
            cuts,
            post,
            True,
        )
        and search.screen_keeps(params, C.nom_index, merits, cuts, eps, 0.0, 1, 0)[0]
    )


@pytest.mark.parametrize("case", ["sea", "waveform", "mixed", "best_vs_null"])
def test_split_screen_keeps_a_leaf_only_where_the_exact_rule_keeps_it(case):
    """The kernel's split attempt skips the exact search where the screen (merits within
    SCREEN_SLACK, from the fast CDF and log2) says the rule keeps the leaf.  At every leaf of a
    grown tree, with tau = 0 so that only the margin decides: just below the exact quantity
    (the exact rule splits) the screen must not keep the leaf; a millionth above it (the exact
    rule keeps it) the screen must, or the screen would never save anything."""
    n_classes = 3 if case == "waveform" else 2
    X, y = (streams.waveform if case == "waveform" else streams.sea)(20_000, seed=4)
    kw = {}
    if case == "mixed":  # a nominal column beside the numeric ones
        X = np.column_stack(
            [X, (X[:, 0] // 2.5).clip(0, 3), np.random.default_rng(0).integers(0, 3, len(y))]
        )
        kw = {"nominal_features": {3: 4, 4: 3}}
    model = (PathTree if case == "best_vs_null" else HoeffdingTree)(
        X.shape[1], n_classes, grace_period=200, **kw
    ).partial_fit(X, y)
    T, C = model.tree, model._config
    params = C.params.copy()
    params[P_TAU] = 0.0
    factor = 1.0 if case == "best_vs_null" else params[P_MARGIN_FACTOR]
    d = X.shape[1]
    kept = 0
    leaves = [
        v for v in range(T.meta[st.M_N_NODES]) if T.kind[v] == st.LEAF and T.stats_slot[v] >= 0
    ]
    for leaf in leaves:
        merits, cuts, post = (
            np.empty(d),
            np.empty(d),
            np.empty((max(T.children.shape[1], 2), n_classes)),
        )
        outcome, b1, b2, eps, q, thr, _g1, _g2 = dc.explain_split(T, C, leaf, merits, cuts, post)
        if not np.isfinite(q) or b1 < 0:
            continue
        below = (q - 1e-12 * (1 + abs(q))) / factor  # exact: q > threshold, a split
        assert not _screen(T, C, leaf, params, below, merits, cuts, post), (leaf, q)
        above = (q + 1e-6) / factor  # exact: kept
        kept += _screen(T, C, leaf, params, above, merits, cuts, post)
    assert kept >= 3


# ----------------------------------------------------------------------------- edits
def _grown(seed=9, n=30_000, cls=PathTreeNoReeval):
    X, y = streams.sea(n, seed=seed)
    return cls(3, 2, grace_period=100).partial_fit(X, y), X, y


def test_kill_subtree_keeps_the_nodes_counts_and_statistics():
    model, X, y = _grown()
    T = model.tree
    root = model.root
    counts, slot = T.class_counts[root].copy(), T.stats_slot[root]
    g_w = T.g_w[slot].copy()
    n_nodes = model.n_nodes
    assert n_nodes > 5
    engine.edit(T, model._config, engine.EDIT_KILL_KEEP_STATS, root, -1, np.nan)
    assert model.n_leaves == 1 and model.n_nodes == 1 and T.kind[root] == st.LEAF
    assert np.array_equal(T.class_counts[root], counts) and T.stats_slot[root] == slot
    assert np.array_equal(T.g_w[slot], g_w)
    assert T.meta[st.M_FREE_NODES] == n_nodes - 1
    check_invariants(T)
    model.partial_fit(X[:5_000], y[:5_000])  # learning goes on, reusing freed rows
    assert model.n_leaves > 1 and T.meta[st.M_N_NODES] == model.tree.meta[st.M_N_NODES]
    check_invariants(model.tree)


def test_replace_split_builds_new_leaves_from_the_nodes_statistics():
    model, X, y = _grown()
    T, C = model.tree, model._config
    root = model.root
    old_feature = int(T.feature[root])
    new_feature = (old_feature + 1) % 3
    s = T.stats_slot[root]
    cut = float(np.median(X[:, new_feature]))
    expected = np.empty((2, 2))
    for k in range(2):
        w, mean, m2 = (
            T.g_w[s, new_feature, k],
            T.g_mean[s, new_feature, k],
            T.g_m2[s, new_feature, k],
        )
        left = w * stats.norm.cdf(cut, mean, math.sqrt(m2 / (w - 1)))
        expected[:, k] = left, w - left
    counts = T.class_counts[root].copy()
    engine.edit(T, C, engine.EDIT_REPLACE, root, new_feature, cut)
    assert T.feature[root] == new_feature and T.threshold[root] == cut
    assert np.array_equal(T.class_counts[root], counts) and T.stats_slot[root] == s
    kids = T.children[root, :2]
    assert model.n_leaves == 2 and all(T.kind[c] == st.LEAF for c in kids)
    np.testing.assert_allclose(T.class_counts[kids], expected, rtol=1e-12)
    check_invariants(T)


def test_prune_and_refill_from_a_short_term_memory():
    model, X, y = _grown(cls=HoeffdingTree)
    T, C = model.tree, model._config
    root = model.root
    child = int(T.children[root, 0])
    assert T.kind[child] > 0  # an inner node with a subtree
    X_mem, y_mem = X[-500:], y[-500:]
    reaches = np.array(
        [
            model.explain_one(x).path[1]["node"] == child
            if len(model.explain_one(x).path) > 1
            else False
            for x in X_mem
        ]
    )
    learned = engine.prune_refill(T, C, child, root, X_mem, y_mem, len(y_mem))
    assert learned == reaches.sum() > 0
    assert T.kind[child] == st.LEAF
    assert np.array_equal(T.class_counts[child], np.bincount(y_mem[reaches], minlength=2))
    s = T.stats_slot[child]
    for k in range(2):
        Xk = X_mem[reaches & (y_mem == k)]
        np.testing.assert_allclose(T.g_mean[s, :, k], Xk.mean(axis=0), rtol=1e-12)
    check_invariants(T)


# ----------------------------------------------------------------------------- forests
class TwoTrees(HoeffdingTree):
    _n_trees = 2


def test_a_forest_shares_one_state_and_its_trees_stay_apart():
    Xa, ya = streams.sea(20_000, seed=10)
    Xb, yb = streams.sea(20_000, seed=11, concept=3)
    forest = TwoTrees(3, 2).prepare(Xa)
    T = forest.tree
    assert T.roots.tolist() == [0, 1] and forest.n_leaves == 2
    for lo in range(0, 20_000, 5_000):  # interleaved chunks, each tree its own stream
        for tree, (X, y) in enumerate(((Xa, ya), (Xb, yb))):
            forest._run(
                lambda T, C, X, y, start, tree=tree: engine.learn(T, C, X, y, start, tree=tree),
                5_000,
                X[lo : lo + 5_000],
                y[lo : lo + 5_000],
            )
    alone = [HoeffdingTree(3, 2).partial_fit(Xa, ya), HoeffdingTree(3, 2).partial_fit(Xb, yb)]
    for tree, single in enumerate(alone):
        out = np.zeros(len(Xa), np.int64)
        engine.predict(forest.tree, forest._config, Xa, out, tree=tree)
        assert np.array_equal(out, single.predict(Xa))
    assert forest.n_leaves == alone[0].n_leaves + alone[1].n_leaves
    check_invariants(forest.tree)


# ----------------------------------------------------------------------------- Laplace leaves
def test_laplace_leaf_probabilities():
    X, y, info = streams.waveform(5_000, seed=12, n_features=21, return_info=True)
    model = HoeffdingTree(21, 3, leaf_prediction="laplace").partial_fit(X, y)
    proba = model.predict_proba(X[:50])
    for i in range(50):
        counts = model.explain_one(X[i]).class_counts
        np.testing.assert_allclose(proba[i], (counts + 1) / (counts.sum() + 3), rtol=1e-14)
    # its predictions are the majority class's
    mc = HoeffdingTree(21, 3, leaf_prediction="mc").partial_fit(X, y)
    assert np.array_equal(model.predict(X), mc.predict(X))


# ---- naive Bayes over nominal features from products of counts (nbs.nb_nominal_argmax) ----


@njit(cache=False)
def _nb_fast_and_exact(T, C, X, X_fast, leaves, fast_ok, fast_cls, exact_cls, exact_near):
    """For each row: the shortcut's answer at its leaf for row i of ``X_fast``, and the exact
    path's for row i of X (the kernel's own leaf_predict told that not every feature is
    nominal, so that it never takes the shortcut)."""
    K = T.class_counts.shape[1]
    out = np.empty(K)
    buf = np.empty(K)
    acc = np.empty((nbs.N_ACC, K))
    for i in range(X.shape[0]):
        leaf = leaves[i]
        total = 0.0
        for k in range(K):
            total += T.class_counts[leaf, k]
        ok, c = nbs.nb_nominal_argmax(
            T.class_counts,
            T.nom,
            T.nom_w,
            T.nom_nv,
            T.nom_q,
            C.nom_index,
            C.nom_card,
            leaf,
            T.stats_slot[leaf],
            total,
            X_fast,
            i,
            acc,
        )
        fast_ok[i] = ok
        fast_cls[i] = c
        r = lp.leaf_predict(
            T.class_counts,
            T.stats_slot,
            T.mc_correct,
            T.nb_correct,
            T.g_w,
            T.g_mean,
            T.g_m2,
            T.nom,
            T.nom_w,
            T.nom_nv,
            T.nom_q,
            C.nom_index,
            C.nom_card,
            leaf,
            X,
            i,
            LEAF_NB,
            0.0,
            False,
            out,
            buf,
            acc,
            False,
        )
        exact_cls[i] = r[2]
        exact_near[i] = r[3]


def _nb_compare(model, X, X_fast=None):
    leaves = np.empty(len(X), np.int64)
    engine.apply_batch(model.tree, X, leaves)
    fast_ok = np.zeros(len(X), np.bool_)
    fast_cls, exact_cls = np.zeros(len(X), np.int64), np.zeros(len(X), np.int64)
    exact_near = np.zeros(len(X), np.bool_)
    _nb_fast_and_exact(
        model.tree,
        model._config,
        X,
        X if X_fast is None else X_fast,
        leaves,
        fast_ok,
        fast_cls,
        exact_cls,
        exact_near,
    )
    return fast_ok, fast_cls, exact_cls, exact_near


def test_nominal_naive_bayes_shortcut_decides_as_the_exact_path():
    # 5 classes on 5 nominal features of 5 values (004's family), a tree of a few leaves of
    # thousands of rows: every row the shortcut decides, the exact path decides the same and
    # finds no tie to settle
    X, y, info = streams.random_tree(
        30_000, seed=3, n_classes=5, n_nominal=5, n_numeric=0, return_info=True
    )
    model = HoeffdingTree(5, 5, nominal_features=info.nominal_features, leaf_prediction="nb")
    model.fit(X[:20_000], y[:20_000])
    assert model.n_leaves >= 5
    ok, fast, exact, near = _nb_compare(model, X[20_000:])
    assert ok.mean() > 0.95
    assert np.array_equal(fast[ok], exact[ok]) and not near[ok].any()
    # the check can fail: with one feature's codes moved by one for the shortcut alone, the
    # two no longer agree everywhere
    moved = X[20_000:].copy()
    moved[:, 2] = (moved[:, 2] + 1) % 5
    ok2, fast2, exact2, _ = _nb_compare(model, X[20_000:], moved)
    assert not np.array_equal(fast2[ok2], exact2[ok2])


def test_nominal_naive_bayes_shortcut_declines_ties_and_overflow():
    # a leaf whose two classes have the same counts everywhere (every row a tie: MOA's
    # products decide), and a leaf of 150 features whose products of counts pass the largest
    # double: the shortcut declines both, and the exact path decides.  With 40 of those
    # features the products stay finite and it decides nearly every row.
    X, y, info = streams.random_tree(
        2_000, seed=6, n_classes=2, n_nominal=150, n_numeric=0, return_info=True
    )

    def leaf(X, y):
        model = HoeffdingTree(
            X.shape[1],
            2,
            nominal_features={j: 5 for j in range(X.shape[1])},
            leaf_prediction="nb",
            grace_period=10**9,
        )
        return model.fit(X, y)

    ok, _, _, near = _nb_compare(leaf(np.vstack([X, X]), np.repeat([0, 1], len(X))), X)
    assert not ok.any() and near.all()
    ok, fast, exact, near = _nb_compare(leaf(X, y), X)
    assert not ok.any() and not near.any()
    # 130 of them and classes 19:1: the larger class's products overflow and the smaller's do
    # not; it declines rather than choose among the classes whose products stayed finite.
    # With 110 only the larger class's denominator overflows (its ratio 0): it declines too.
    skew = (np.arange(len(X)) >= 1_900).astype(np.int64)
    for d in (130, 110):
        ok, _, exact, _ = _nb_compare(leaf(X[:, :d], skew), X[:, :d])
        assert not ok.any() and (exact == 0).mean() > 0.5
    # a class whose score lies below e^-700 with finite products (its weight per feature set
    # to 1e102, none of it on the row's codes): the exact path hands the row to MOA's products,
    # and the shortcut declines it
    small = leaf(X[:60, :3], (np.arange(60) >= 50).astype(np.int64))
    T, s = small.tree, small.tree.stats_slot[0]
    T.nom_w[s, :3, 1] = 1e102
    T.nom[s, :3, :, 1] = 0.0
    T.nom_q[s, 1] = np.prod(T.nom_w[s, :3, 1] + T.nom_nv[s, :3, 1])  # as observe keeps it
    ok, _, _, near = _nb_compare(small, X[:, :3])
    assert not ok.any() and near.all()
    ok, fast, exact, near = _nb_compare(leaf(X[:, :40], y), X[:, :40])
    assert ok.mean() > 0.95 and np.array_equal(fast[ok], exact[ok])


def _predictions_with_and_without_shortcut(monkeypatch, make, X, y):
    """Test-then-train predictions of a fresh ``make()`` with naive Bayes's nominal shortcut,
    and without it (the kernel told that a feature is numeric: the exact path everywhere), and
    the last model."""
    preds = []
    for shortcut in (True, False):
        if not shortcut:
            monkeypatch.setattr(engine, "_all_nominal", lambda C: False)
        model = make()
        preds.append(evaluate.prequential(model, X, y).predictions)
    return preds, model


def test_nominal_naive_bayes_shortcut_leaves_predictions_unchanged(monkeypatch):
    # test-then-train on a nominal stream, and on one of 120 features whose products
    # overflow once the leaves have learned a few hundred rows: the same predictions with
    # the shortcut as without it
    for n_nominal, n in ((5, 40_000), (120, 3_000)):
        X, y, info = streams.random_tree(
            n, seed=4, n_classes=4, n_nominal=n_nominal, n_numeric=0, return_info=True
        )

        def make(d=n_nominal, nominal=info.nominal_features):
            return HoeffdingTree(d, 4, nominal_features=nominal)

        (fast, exact), model = _predictions_with_and_without_shortcut(monkeypatch, make, X, y)
        monkeypatch.undo()
        assert np.array_equal(fast, exact)
    # on the wide stream the shortcut decided early on, and declines at the end
    ok_early, *_ = _nb_compare(make().fit(X[:300], y[:300]), X)
    ok_end, *_ = _nb_compare(model, X)
    assert ok_early.mean() > 0.5 and not ok_end.any()


@pytest.mark.parametrize("learner", [HoeffdingTree, EFDT])
def test_nominal_shortcut_with_missing_values_leaves_predictions_unchanged(monkeypatch, learner):
    # the nominal shortcut (nbs.nb_nominal_argmax) on rows with missing values (a missing
    # feature is left out of every class's product), under leaves that split and slots handed
    # on, and under EFDT's re-evaluations (which learn along the path and replace subtrees):
    # the predictions of the exact path
    X, y, info = streams.random_tree(
        30_000, seed=5, n_classes=3, n_nominal=5, n_numeric=0, return_info=True
    )
    X = X.copy()
    X[np.random.default_rng(0).random(X.shape) < 0.1] = np.nan
    (fast, exact), model = _predictions_with_and_without_shortcut(
        monkeypatch,
        lambda: learner(5, 3, nominal_features=info.nominal_features, grace_period=50, delta=0.01),
        X,
        y,
    )
    assert model.n_leaves >= 10
    assert np.array_equal(fast, exact)


def _products_now(T, s, k):
    q = 1.0
    for m in range(T.nom_w.shape[1]):
        q *= T.nom_w[s, m, k] + T.nom_nv[s, m, k]
    return q


@pytest.mark.parametrize("learner", [HoeffdingTree, EFDT])
def test_denominator_products_follow_the_counts(learner):
    # obs_step.observe keeps nom_q[s, k] at a leaf's slot where every feature is nominal, the
    # product over the features of nom_w + nom_nv, which the nominal shortcut reads instead
    # of the counts: after a stream with missing values, leaves that split (their slots
    # handed on) and, under EFDT, re-evaluations, every leaf's slot holds the product of its
    # counts now, multiplied in the same order (a product of 0: a feature without a count of
    # the class).  An inner node of EFDT, whose products are not kept while it learns along
    # the path, gets them again when it becomes a leaf with its statistics
    # (edits.kill_subtree).  Fails if a slot handed on keeps its last owner's products, or if
    # a node made a leaf again keeps stale ones.
    X, y, info = streams.random_tree(
        20_000, seed=8, n_classes=3, n_nominal=7, n_numeric=0, return_info=True
    )
    X = X.copy()
    X[np.random.default_rng(1).random(X.shape) < 0.1] = np.nan
    model = learner(7, 3, nominal_features=info.nominal_features, grace_period=50, delta=0.01)
    model.fit(X, y)
    T = model.tree
    leaves = np.flatnonzero((T.kind == 0) & (T.stats_slot >= 0))
    assert len(leaves) >= 10
    products = [
        (T.nom_q[T.stats_slot[u], k], _products_now(T, T.stats_slot[u], k))
        for u in leaves
        for k in range(3)
    ]
    assert all(kept == now for kept, now in products)
    assert any(now == 0.0 for _, now in products)  # a feature without a count of a class
    if learner is EFDT:
        inner = np.flatnonzero((T.kind > 0) & (T.stats_slot >= 0))
        stale = [
            int(u)
            for u in inner
            if any(
                T.nom_q[T.stats_slot[u], k] != _products_now(T, T.stats_slot[u], k)
                for k in range(3)
            )
        ]
        assert stale  # (inner nodes count along the path without their products)
        u = stale[-1]
        s = int(T.stats_slot[u])
        engine.edit(T, model._config, engine.EDIT_KILL_KEEP_STATS, u)
        assert T.kind[u] == 0 and T.stats_slot[u] == s
        assert all(T.nom_q[s, k] == _products_now(T, s, k) for k in range(3))


def test_ln_below_is_a_lower_bound_within_its_gap():
    # against numpy's log on values across the double range, and on both sides of the mantissa
    # where the gap peaks (1 + f = 1 / ln 2): the bound holds, and the gap is the real maximum
    rng = np.random.default_rng(0)
    a = np.concatenate(
        [
            np.exp(rng.uniform(-700.0, 700.0, 20_000)),
            2.0 ** rng.integers(-1000, 1000, 2_000) / np.log(2.0),
            [1.0, 2.0, 0.5, np.nextafter(2.0, 1.0), 1e-300, 1e300],
        ]
    )
    lo = np.array([nbs.ln_below(v) for v in a])
    gap = np.log(a) - lo
    assert gap.min() >= -1e-12 and gap.max() <= nbs.LN_BELOW_GAP + 1e-12
    assert gap.max() > nbs.LN_BELOW_GAP - 1e-6
    assert abs(nbs.LN_BELOW_GAP - (0.3665129206 - 0.3068528194)) < 1e-9  # by hand
    assert nbs.ln_below(0.0) == -np.inf and nbs.ln_below(5e-324) == -np.inf
    assert nbs.ln_below(np.inf) == np.inf and nbs.ln_below(np.nan) == np.inf


def test_nb_bounded_pass_decides_only_where_the_exact_scores_agree():
    # random classes' scores as the leaf predictor writes them, 0.5 ln a + rest: where the
    # bounded pass decides, the exact argmax is its class and the exact gap passes the tie test
    rng = np.random.default_rng(1)
    n_decided = 0
    for _ in range(20_000):
        K = int(rng.integers(2, 5))
        a = np.exp(rng.uniform(-100.0, 100.0, K))
        rest = rng.normal(0.0, rng.choice([0.05, 1.0, 30.0]), K)
        exact = 0.5 * np.log(a) + rest
        low = np.array([0.5 * nbs.ln_below(v) for v in a]) + rest
        order = np.argsort(-low, kind="stable")
        top, runner_up = low[order[0]], low[order[1]]
        if nbs.nb_bounds_decide(top, runner_up, min(low.min(), 0.0), False):
            n_decided += 1
            e = np.sort(exact)[::-1]
            assert np.argmax(exact) == order[0]
            assert e[0] - e[1] > 1e-9 * (1.0 + abs(e[0]))
    assert 0.5 < n_decided / 20_000 < 1.0
    # the rule can fail: a gap of less than half LN_BELOW_GAP is not trusted, nor an edge, nor
    # a score near the bottom of the double range
    half = 0.5 * nbs.LN_BELOW_GAP
    assert not nbs.nb_bounds_decide(0.0, -half, -1.0, False)
    assert nbs.nb_bounds_decide(0.0, -half - 1e-5, -1.0, False)
    assert not nbs.nb_bounds_decide(0.0, -5.0, -1.0, True)
    assert not nbs.nb_bounds_decide(0.0, -5.0, -699.5, False)


@njit(cache=False)
def _bounded_both_ways(cc, g_w, g_mean, g_m2, nom_w, nom_index, acc, has_nominal, X):
    """Every row's bounded pass at leaf 0 (slot 0) for two classes, class by class
    (nbs.nb_class_score with ``exact`` False) and in one pass over the features
    (nbs.nb_pair_bounds): [n, 6] each, (top, runner-up, lowest, edge, class, wide)."""
    n = X.shape[0]
    a = np.empty((n, 6))
    b = np.empty((n, 6))
    for i in range(n):
        total = cc[0, 0] + cc[0, 1]
        inv_total = 1.0 / total
        top = -np.inf
        runner_up = -np.inf
        lowest = 0.0
        edge = False
        wide = False
        best = 0
        for k in range(2):
            logv, alive, edge_k, wide_k = nbs.nb_class_score(
                cc,
                g_w,
                g_mean,
                g_m2,
                nom_w,
                nom_index,
                acc,
                has_nominal,
                0,
                0,
                X,
                i,
                k,
                total,
                inv_total,
                False,
            )
            wide = wide or wide_k
            if alive:
                lowest = min(lowest, logv)
            edge = edge or edge_k
            if logv > top:
                best = k
            runner_up = max(runner_up, min(top, logv))
            top = max(top, logv)
        a[i, 0], a[i, 1], a[i, 2], a[i, 3], a[i, 4], a[i, 5] = (
            top,
            runner_up,
            lowest,
            edge,
            best,
            wide,
        )
        top, runner_up, lowest, edge, best, wide = nbs.nb_pair_bounds(
            cc, g_w, g_mean, g_m2, nom_index, acc, has_nominal, 0, 0, X, i, inv_total
        )
        b[i, 0], b[i, 1], b[i, 2], b[i, 3], b[i, 4], b[i, 5] = (
            top,
            runner_up,
            lowest,
            edge,
            best,
            wide,
        )
    return a, b


@pytest.mark.parametrize("seed", range(6))
def test_nb_pair_bounds_equal_the_class_by_class_pass(seed):
    # two classes' bounded naive Bayes in one pass over the features gives, to the bit, the
    # scores of the class-by-class pass wherever neither product of inverse variances left
    # [1e-50, 1e50]; where one did, both say so (the exact pass then decides).  Leaves with
    # empty classes, point masses (a row on and off them), Gaussians without weight, missing
    # values, far rows (the extremes test), tiny and huge variances, and classes a nominal
    # feature put out
    rng = np.random.default_rng(seed)
    d = int(rng.integers(1, 9))
    nominal = rng.random(d) < (0.3 if seed % 2 else 0.0)
    nom_index = np.where(nominal, np.cumsum(nominal) - 1, -1).astype(np.int64)
    n_rows = 400
    n_wide = n_scored = n_far = 0
    for _leaf in range(40):
        cc = np.zeros((1, 2))
        cc[0] = rng.choice([0.0, 1.0, 3.0, 250.0], 2)
        if cc.sum() == 0.0:
            cc[0, 1] = 5.0
        g_w = rng.choice([0.0, 1.0, 2.0, 40.0, 900.0], (1, d, 2), p=[0.02, 0.03, 0.1, 0.45, 0.4])
        g_mean = rng.normal(0.0, 3.0, (1, d, 2))
        scale = 10.0 ** rng.choice(
            [-60.0, -3.0, 0.0, 2.0, 60.0], (1, d, 2), p=[0.01, 0.2, 0.53, 0.25, 0.01]
        )
        g_m2 = np.where(rng.random((1, d, 2)) < 0.03, 0.0, scale * (g_w + 1.0))
        nom_w = rng.choice([0.0, 7.0], (1, max(1, int(nominal.sum())), 2), p=[0.15, 0.85])
        acc = np.zeros((nbs.N_ACC, 2))
        acc[nbs.ACC_PN] = rng.uniform(1e-40, 1.0, 2)
        acc[nbs.ACC_LPN] = rng.choice([0.0, -120.0], 2)
        acc[nbs.ACC_DEAD] = (nom_w[0].min(axis=0) <= 0.0).astype(float)
        X = g_mean[0, :, 0] + rng.normal(0.0, 1.0, (n_rows, d)) * rng.choice(
            [0.0, 1.0, 5.0, 1e3], (n_rows, d), p=[0.05, 0.7, 0.22, 0.03]
        )
        X[rng.random((n_rows, d)) < 0.05] = np.nan
        X[:, nominal] = rng.integers(0, 3, (n_rows, int(nominal.sum())))
        a, b = _bounded_both_ways(
            cc, g_w, g_mean, g_m2, nom_w, nom_index, acc, bool(nominal.any()), X
        )
        np.testing.assert_array_equal(a[:, 5], b[:, 5])
        # the pair pass reports an edge wherever a class's squared z-scores sum beyond
        # EXP_EDGE_Z2 (it leaves the extremes test to the exact pass): never where the
        # class-by-class pass finds one, and never deciding there
        assert np.all(b[a[:, 3] == 1.0, 3] == 1.0)
        n_far += int((b[:, 3] == 1.0).sum())
        fine = (a[:, 5] == 0.0) & (b[:, 3] == 0.0)
        n_wide += int((a[:, 5] == 1.0).sum())
        n_scored += int(np.isfinite(a[fine, 0]).sum())
        np.testing.assert_array_equal(a[fine], b[fine])
    assert 0 < n_wide < 40 * n_rows and n_scored > 3 * n_rows and n_far > 0


# ---- routing ahead (routing.route_block) --------------------------------------------------------


def _route_each(T, X):
    """Every row's leaf by the row-by-row walk (as a prediction), and where a walk over the
    numeric tests alone stops: the leaf, or the first nominal test or numeric test of a missing
    value on the way."""
    leaves = np.empty(len(X), np.int64)
    stops = np.empty(len(X), np.int64)
    root = int(T.meta[st.M_ROOT])
    for i in range(len(X)):
        leaves[i] = routing.walk(T, X, i, False, np.empty(0, np.int64))[0]
        u = root
        while T.kind[u] == st.NUMERIC and not np.isnan(X[i, T.feature[u]]):
            u = T.children[u, 0 if X[i, T.feature[u]] <= T.threshold[u] else 1]
        stops[i] = u
    return leaves, stops


@njit(cache=False)
def _route_blocks(T, X, block, depth, out):
    """X's rows through the block router in blocks of ``block`` rows (its functions take no
    call from Python); returns how many rows stopped at an inner node."""
    n_cap = T.kind.shape[0]
    rt = np.empty(routing.ROUTE_ROW * n_cap, np.int64)
    rt_f = rt.view(np.float64)
    ahead = np.empty(block, np.int64)
    edit = routing.TABLE_STALE
    stopped = 0
    for lo in range(0, X.shape[0], block):
        hi = min(X.shape[0], lo + block)
        routing.build_route_table(
            T.kind, T.feature, T.threshold, T.children, T.n_children, T.meta[st.M_N_NODES],
            edit, rt, rt_f,
        )  # fmt: skip
        edit = routing.TABLE_CURRENT
        stopped += routing.route_block(
            T.kind, (rt, rt_f), T.meta[st.M_ROOT], depth, X, lo, hi, ahead
        )
        out[lo:hi] = ahead[: hi - lo]
    return stopped


@njit(cache=False)
def _route_from(T, X, i, node):
    """Row i's leaf by routing.route from ``node`` (which takes no call from Python)."""
    return routing.route(
        T.kind, T.feature, T.threshold, T.children, T.n_children, T.class_counts, node, X, i,
        False, None,
    )[0]  # fmt: skip


@pytest.mark.parametrize("stream", ["sea", "random_tree"])
def test_block_router_stops_where_the_numeric_tests_end(stream):
    """route_block against a walk in Python, on a numeric tree (SEA) and a mixed one (a
    RandomTree with a numeric root and nominal multiway tests below), with missing values:
    every row stops at its leaf, or at the first nominal test or missing value on its way,
    and the row-by-row walk from there reaches the row's leaf."""
    if stream == "sea":
        X, y = streams.sea(20_000, seed=6)
        model = HoeffdingTree(3, 2, grace_period=50)
    else:
        # a numeric root with nominal tests below it (seed 3: six of them)
        X, y, info = streams.random_tree(20_000, seed=3, n_nominal=2, n_numeric=5, return_info=True)
        model = HoeffdingTree(
            X.shape[1], 2, grace_period=50, nominal_features=info.nominal_features
        )
    model.fit(X, y)
    T = model.tree
    assert T.meta[st.M_DEPTH] >= 4
    Xq = X[:5_000].copy()
    Xq[np.random.default_rng(0).random(Xq.shape) < 0.02] = np.nan
    got = np.empty(len(Xq), np.int64)
    stopped = _route_blocks(T, Xq, 61, T.meta[st.M_DEPTH], got)  # groups of 8 rows and partial ones
    leaves, stops = _route_each(T, Xq)
    assert np.array_equal(got, stops)
    inner = T.kind[got] > 0
    assert stopped == np.count_nonzero(inner)
    assert 0 < inner.mean() < (0.1 if stream == "sea" else 0.9)
    assert np.array_equal(got[~inner], leaves[~inner])
    for i in np.flatnonzero(inner)[:200]:
        assert _route_from(T, Xq, i, got[i]) == leaves[i]
    # a shallower walk leaves rows at inner nodes: the depth matters
    _route_blocks(T, Xq, 61, 2, got)
    assert not np.array_equal(got, stops)


@njit(cache=False)
def _route_code_blocks(T, X, block, by_weight, mixed, out):
    """X's rows through the table of codes (routing.route_codes), or of codes and thresholds
    (``mixed``: routing.route_mixed), in blocks of ``block`` rows; returns how many rows
    stopped at an inner node."""
    n_cap = T.kind.shape[0]
    stride = T.children.shape[1] + 1
    rt_feat = np.empty(n_cap, np.int64)
    rt_thr = np.empty(n_cap)
    rt_kid = np.empty(stride * n_cap, np.int64)
    ahead = np.empty(block, np.int64)
    routing.build_code_table(
        T.kind, T.feature, T.threshold, T.children, T.n_children, T.class_counts,
        T.meta[st.M_N_NODES], routing.TABLE_STALE, by_weight, rt_feat, rt_thr, rt_kid,
    )  # fmt: skip
    stopped = 0
    for lo in range(0, X.shape[0], block):
        hi = min(X.shape[0], lo + block)
        if mixed:
            stopped += routing.route_mixed(
                T.kind, (rt_feat, rt_thr, rt_kid, stride), T.meta[st.M_ROOT], T.meta[st.M_DEPTH],
                X, lo, hi, ahead,
            )  # fmt: skip
        else:
            stopped += routing.route_codes(
                T.kind, (rt_feat, rt_kid, stride), T.meta[st.M_ROOT], T.meta[st.M_DEPTH], X, lo,
                hi, ahead,
            )  # fmt: skip
        out[lo:hi] = ahead[: hi - lo]
    return stopped


@njit(cache=False)
def _route_rule(T, X, i, node, learning):
    """Row i's (leaf, forked) by routing.route from ``node`` with the rule of a prediction
    (``learning`` False) or of learning."""
    leaf, _depth, forked = routing.route(
        T.kind, T.feature, T.threshold, T.children, T.n_children, T.class_counts, node, X, i,
        learning, None,
    )  # fmt: skip
    return leaf, forked


@pytest.mark.parametrize("numeric", [0, 5])
@pytest.mark.parametrize("learning", [False, True])
def test_code_router_stops_where_the_walk_must_decide(learning, numeric):
    """routing.route_codes on an all-nominal tree, and routing.route_mixed on one that tests
    numeric features below a nominal root, against a walk in Python by the rule of
    routing.route: a row goes down its code's branch where that branch exists (and, for a
    prediction, has weight), down a numeric test's branch by its threshold, and stops at the
    node otherwise: a missing value, a value that is not a code (2.5, -1, 99), a branch a
    prediction passes by (route's ``forked``).  The row-by-row walk from where it stopped
    reaches the row's leaf."""
    X, y, info = streams.random_tree(
        20_000, seed=4, n_classes=3, n_nominal=5, n_numeric=numeric, return_info=True
    )
    model = HoeffdingTree(
        X.shape[1], 3, grace_period=50, delta=0.01, nominal_features=info.nominal_features
    ).fit(X, y)
    T = model.tree
    assert T.meta[st.M_DEPTH] >= 4
    inner_kinds = set(T.kind[: T.meta[st.M_N_NODES]].tolist()) - {st.LEAF}
    assert inner_kinds == ({st.NOMINAL_MULTI, st.NUMERIC} if numeric else {st.NOMINAL_MULTI})
    # a branch without weight, which a prediction passes by (the tree grew none here): a
    # child of the root's, emptied
    root = int(T.meta[st.M_ROOT])
    assert T.kind[root] == st.NOMINAL_MULTI
    T.class_counts[T.children[root, 1]] = 0.0
    rng = np.random.default_rng(2)
    Xq = X[:5_000].copy()
    hit = rng.random(Xq.shape)
    Xq[hit < 0.02] = np.nan
    odd = (hit >= 0.02) & (hit < 0.03) & np.isin(np.arange(Xq.shape[1]), info.nominal_features)
    Xq[odd] = rng.choice([2.5, -1.0, 99.0], size=np.count_nonzero(odd))
    got = np.empty(len(Xq), np.int64)
    # (groups of 8 rows and partial ones)
    stopped = _route_code_blocks(T, Xq, 61, not learning, numeric > 0, got)
    expected = np.empty(len(Xq), np.int64)
    for i in range(len(Xq)):
        u = int(T.meta[st.M_ROOT])
        while T.kind[u] in (st.NOMINAL_MULTI, st.NUMERIC):
            x = Xq[i, T.feature[u]]
            if T.kind[u] == st.NUMERIC:
                if np.isnan(x):
                    break
                u = T.children[u, 0 if x <= T.threshold[u] else 1]
                continue
            if np.isnan(x) or x != np.floor(x) or not 0 <= x < T.n_children[u]:
                break
            c = T.children[u, int(x)]
            if c < 0 or (not learning and T.class_counts[c].sum() <= 0.0):
                break
            u = c
        expected[i] = u
    assert np.array_equal(got, expected)
    inner = T.kind[got] > 0
    assert stopped == np.count_nonzero(inner)
    assert 0.02 < inner.mean() < 0.3
    forks = 0
    for i in range(len(Xq)):
        leaf, forked = _route_rule(T, Xq, i, T.meta[st.M_ROOT], learning)
        assert _route_rule(T, Xq, i, got[i], learning) == (leaf, forked)
        forks += forked
    assert (forks > 0) != learning  # a prediction passes the empty branch by


@pytest.mark.parametrize("learner", ["ht", "efdt", "ht_codes", "ht_mixed"])
def test_block_router_leaves_test_then_train_unchanged(learner):
    """Test-then-train in one call (the Hoeffding tree's rows routed ahead, the table kept up
    through its splits; EFDT's loop, which does not route ahead, through its re-evaluations;
    on an all-nominal stream the table of codes, kept up through splits and through branches
    that gain their first weight) against one row at a time (a call shorter than a block
    routes row by row: engine.run_stream), with missing values: the same predictions and the
    same tree, bit for bit.  (A reset's routing afresh is checked by the reference outputs of
    the drift runs, test_engine_regression.)"""
    from workbench.learners import EFDT

    if learner in ("ht_codes", "ht_mixed"):
        X, y, info = streams.random_tree(
            12_000,
            seed=2,
            n_classes=3,
            n_nominal=5,
            n_numeric=0 if learner == "ht_codes" else 3,
            return_info=True,
        )
    else:
        X, y = streams.sea(12_000, seed=8)
    X[np.random.default_rng(1).random(X.shape) < 0.01] = np.nan

    def make():
        if learner == "efdt":
            return EFDT(3, 2, grace_period=50, delta=0.01, min_samples_reevaluate=100)
        if learner in ("ht_codes", "ht_mixed"):
            return HoeffdingTree(
                X.shape[1], 3, grace_period=50, delta=0.01, nominal_features=info.nominal_features
            )
        return HoeffdingTree(3, 2, grace_period=50, delta=0.01)

    fast = make()
    res = evaluate.prequential(fast, X, y)
    slow = make().prepare(X)
    preds = []
    for xi, yi in zip(X, y):
        preds.append(slow.predict_one(xi))
        slow.learn_one(xi, yi)
    assert np.array_equal(res.predictions, preds)
    assert pickle.dumps(fast.tree) == pickle.dumps(slow.tree)
    assert fast.n_leaves > 15
    assert fast.tree.meta[st.M_DEPTH] >= (3 if learner.startswith("ht_") else 6)
    if learner == "ht_mixed":  # both kinds of test, below a nominal root: the mixed table
        T = fast.tree
        assert {st.NUMERIC, st.NOMINAL_MULTI} <= set(T.kind[: fast.n_nodes].tolist())
        assert T.kind[T.meta[st.M_ROOT]] == st.NOMINAL_MULTI
    if learner == "efdt":
        assert fast.tree.meta[st.M_N_SPLITS] > fast.n_leaves - 1  # re-evaluations edited it


@pytest.mark.parametrize("stream", ["sea", "nominal"])
def test_a_tree_that_stops_to_grow_learns_as_one_with_room(monkeypatch, stream):
    """Where a new tree's room runs out the kernel stops, the arrays double and the kernel
    starts again from that row (learners._driver.NODE_CAPACITY, SLOT_CAPACITY): a tree that starts
    with room for 4 nodes and 1 statistics slot, and stops at each doubling, makes the same
    predictions and grows the same tree as one that starts with room for all of it."""
    from workbench.learners import _driver as driver

    if stream == "sea":
        X, y = streams.sea(30_000, seed=5)
        kw = dict(n_features=3, n_classes=2)
    else:
        X, y, info = streams.random_tree(
            30_000, seed=3, n_classes=3, n_nominal=4, n_numeric=2, return_info=True
        )
        kw = dict(n_features=6, n_classes=3, nominal_features=info.nominal_features)
    stops = []
    grow = st.grow
    monkeypatch.setattr(st, "grow", lambda *a: stops.append(1) or grow(*a))
    runs = []
    for nodes, slots in [(4, 1), (4096, 4096)]:
        monkeypatch.setattr(driver, "NODE_CAPACITY", nodes)
        monkeypatch.setattr(driver, "SLOT_CAPACITY", slots)
        stops.clear()
        model = HoeffdingTree(**kw)
        res = evaluate.prequential(model, X, y)
        runs.append(
            (
                res.predictions,
                model.n_nodes,
                model.tree.kind[: model.n_nodes].copy(),
                model.tree.threshold[: model.n_nodes].copy(),
                len(stops),
            )
        )
    small, large = runs
    assert small[4] >= 6 and large[4] == 0
    assert np.array_equal(small[0], large[0]) and small[1] == large[1] > 20
    assert np.array_equal(small[2], large[2])
    assert np.array_equal(small[3], large[3], equal_nan=True)
