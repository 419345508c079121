"""The engine's pieces against independent computations: criteria, observers, leaf predictors."""

import math

import numpy as np
import pytest
from scipy import stats

from workbench.core import criteria, observers
from workbench.core.observe import welford_update
from workbench.core.params import CRIT_GINI, CRIT_INFO_GAIN
from workbench.learners import HoeffdingTree


# ----------------------------------------------------------------------------- criteria
def test_entropy_by_hand():
    # H(3/4, 1/4) = -(3/4 log2 3/4 + 1/4 log2 1/4) = 0.8112781244591328
    assert criteria.entropy_bits(np.array([3.0, 1.0])) == pytest.approx(
        0.8112781244591328, abs=1e-12
    )
    assert criteria.entropy_bits(np.array([5.0, 5.0, 0.0])) == pytest.approx(1.0, abs=1e-12)
    assert criteria.entropy_bits(np.array([0.0, 0.0])) == 0.0
    assert criteria.entropy_bits(np.array([2.0, 2.0, 2.0, 2.0])) == pytest.approx(2.0)


def test_gini_by_hand():
    assert criteria.gini_impurity(np.array([3.0, 1.0])) == pytest.approx(1 - (0.75**2 + 0.25**2))
    assert criteria.gini_impurity(np.array([1.0, 1.0, 1.0])) == pytest.approx(2 / 3)


def test_info_gain_by_hand():
    # Quinlan's weather data, outlook: pre [9 yes, 5 no]; sunny [2,3], overcast [4,0], rain [3,2]
    pre = np.array([9.0, 5.0])
    post = np.array([[2.0, 3.0], [4.0, 0.0], [3.0, 2.0]])
    g = criteria.merit(pre, post, 3, CRIT_INFO_GAIN, 0.01)
    h = lambda p: -sum(q * math.log2(q) for q in p if q > 0)  # noqa: E731
    expect = h([9 / 14, 5 / 14]) - (5 / 14 * h([0.4, 0.6]) + 4 / 14 * 0 + 5 / 14 * h([0.6, 0.4]))
    assert g == pytest.approx(expect, abs=1e-12)
    assert g == pytest.approx(0.2467498, abs=1e-6)  # the textbook figure


def test_gini_gain_by_hand():
    pre = np.array([9.0, 5.0])
    post = np.array([[2.0, 3.0], [4.0, 0.0], [3.0, 2.0]])
    gi = lambda p: 1 - sum(q * q for q in p)  # noqa: E731
    expect = gi([9 / 14, 5 / 14]) - (5 / 14 * gi([0.4, 0.6]) + 5 / 14 * gi([0.6, 0.4]))
    assert criteria.merit(pre, post, 3, CRIT_GINI, 0.0) == pytest.approx(expect, abs=1e-12)


def test_min_branch_fraction_rejects_lopsided_split():
    pre = np.array([500.0, 500.0])
    post = np.array([[500.0, 496.0], [0.0, 4.0]])  # 0.4% of the weight in branch 1
    assert criteria.merit(pre, post, 2, CRIT_INFO_GAIN, 0.01) == -np.inf
    assert np.isfinite(criteria.merit(pre, post, 2, CRIT_INFO_GAIN, 0.0))


def test_merit_range():
    assert criteria.merit_range(2, CRIT_INFO_GAIN) == 1.0
    assert criteria.merit_range(10, CRIT_INFO_GAIN) == pytest.approx(math.log2(10))
    assert criteria.merit_range(5, CRIT_GINI) == 1.0


def test_hoeffding_bound_used_by_the_split_test():
    """The leaf's epsilon is Hoeffding's sqrt(R^2 ln(1/delta) / 2n) at the leaf's n (R = log2 2
    for information gain on two classes), and a split attempt at n splits exactly when the
    margin G(best) - G(second) exceeds it (tau = 0: no tie rule)."""
    rng = np.random.default_rng(11)
    X = rng.uniform(size=(3_000, 2))
    y = ((X[:, 0] > 0.5) ^ (rng.random(3_000) < 0.3)).astype(np.int64)  # x0 with 30% noise
    delta = 1e-7
    watch = HoeffdingTree(2, 2, grace_period=10**9, tau=0.0, delta=delta)  # never attempts
    seen, outcomes = 0, {}
    for n in (100, 500, 1_000, *range(2_000, 3_001, 100)):
        watch.partial_fit(X[seen:n], y[seen:n])
        seen = n
        ex = watch.explain_one(X[0])
        assert ex.n == n and ex.bound_name == "Hoeffding"
        assert ex.epsilon == pytest.approx(math.sqrt(math.log(1 / delta) / (2 * n)), rel=1e-12)
        assert ex.threshold == ex.epsilon
        assert ex.quantity == pytest.approx(ex.best["merit"] - ex.second["merit"], abs=1e-15)
        # the same n instances, and the first split attempt at exactly n
        tried = HoeffdingTree(2, 2, grace_period=n, tau=0.0, delta=delta).partial_fit(X[:n], y[:n])
        assert tried.tree.last_eval[tried.root] == n
        split = tried.n_nodes > 1
        assert split == (ex.quantity > ex.epsilon) == ex.will_split, n
        outcomes[n] = split
    # both outcomes occur: the margin (about 0.05) overtakes epsilon between n = 2,600 and 2,700
    assert not any(outcomes[n] for n in outcomes if n <= 2_600)
    assert all(outcomes[n] for n in outcomes if n >= 2_700)


# ----------------------------------------------------------------------------- observers
def _one_slot(d=1, k=2):
    shape = (1, d, k)
    return (
        np.zeros(shape),
        np.zeros(shape),
        np.zeros(shape),
        np.full(shape, np.inf),
        np.full(shape, -np.inf),
    )


def _add_value(g_w, g_mean, g_m2, g_min, g_max, k, v):
    """One value of class k into slot 0, feature 0: the kernels' own Welford update
    (``observe.welford_update``, called from Python) and the observed range."""
    welford_update(g_w, g_mean, g_m2, 0, 0, k, v)
    g_min[0, 0, k] = min(g_min[0, 0, k], v)
    g_max[0, 0, k] = max(g_max[0, 0, k], v)


def test_welford_update_matches_numpy():
    rng = np.random.default_rng(3)
    vals = rng.normal(4.0, 2.5, 1000)
    g_w, g_mean, g_m2, g_min, g_max = _one_slot()
    for v in vals:
        _add_value(g_w, g_mean, g_m2, g_min, g_max, 1, v)
    assert g_w[0, 0, 1] == 1000
    assert g_mean[0, 0, 1] == pytest.approx(vals.mean(), rel=1e-12)
    assert g_m2[0, 0, 1] / 999 == pytest.approx(vals.var(ddof=1), rel=1e-10)
    assert g_min[0, 0, 1] == vals.min() and g_max[0, 0, 1] == vals.max()
    assert g_w[0, 0, 0] == 0


def test_gaussian_split_dists_match_scipy():
    rng = np.random.default_rng(4)
    g_w, g_mean, g_m2, g_min, g_max = _one_slot()
    a = rng.normal(0.0, 1.0, 400)
    b = rng.normal(2.0, 0.5, 300)
    for v in a:
        _add_value(g_w, g_mean, g_m2, g_min, g_max, 0, v)
    for v in b:
        _add_value(g_w, g_mean, g_m2, g_min, g_max, 1, v)
    post = np.zeros((2, 2))
    for cut in (0.3, 1.1, 1.9):
        observers.gaussian_binary_dists(g_w, g_mean, g_m2, g_min, g_max, 0, 0, cut, post)
        left_a = 400 * stats.norm.cdf(cut, a.mean(), a.std(ddof=1))
        left_b = 300 * stats.norm.cdf(cut, b.mean(), b.std(ddof=1))
        if cut < b.min():
            left_b = 0.0
        assert post[0, 0] == pytest.approx(left_a, rel=1e-9)
        assert post[0, 1] == pytest.approx(left_b, rel=1e-9, abs=1e-9)
        assert post[0] + post[1] == pytest.approx([400, 300])
    # beyond the largest value of a class, all of it is on the left
    observers.gaussian_binary_dists(g_w, g_mean, g_m2, g_min, g_max, 0, 0, a.max(), post)
    assert post[0, 0] == 400


def test_gaussian_without_spread_in_naive_bayes():
    """A class seen once has density 1 at its value and 0 elsewhere (MOA's estimator)."""
    X = np.array([[1.0], [2.0], [2.5], [3.0]])
    y = np.array([0, 1, 1, 1])
    model = HoeffdingTree(1, 2, grace_period=10**9, leaf_prediction="nb").partial_fit(X, y)
    p_at = model.predict_proba(np.array([[1.0]]))[0]
    # class 0: prior 1/4, density 1; class 1: prior 3/4 times its normal density at 1.0
    d1 = stats.norm.pdf(1.0, 2.5, np.std([2.0, 2.5, 3.0], ddof=1))
    assert p_at == pytest.approx(np.array([0.25, 0.75 * d1]) / (0.25 + 0.75 * d1))
    assert model.predict_proba(np.array([[1.5]]))[0] == pytest.approx([0.0, 1.0])


# ----------------------------------------------------------------------------- the leaf
def _single_leaf(X, y, **kw):
    """A tree that never splits: its one leaf has seen everything."""
    model = HoeffdingTree(
        n_features=X.shape[1], n_classes=int(y.max()) + 1, grace_period=10**9, **kw
    )
    model.partial_fit(X, y)
    assert model.n_leaves == 1
    return model


def test_leaf_statistics_match_the_reference_update():
    """The statistics a leaf learned in the kernel equal numpy's."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(600, 3))
    X[rng.random(X.shape) < 0.1] = np.nan
    y = rng.integers(0, 3, 600)
    model = _single_leaf(X, y)
    T = model.tree
    s = T.stats_slot[model.root]
    for j in range(3):
        for k in range(3):
            v = X[y == k, j]
            v = v[~np.isnan(v)]
            assert T.g_w[s, j, k] == len(v)
            assert T.g_mean[s, j, k] == pytest.approx(v.mean(), rel=1e-12)
            assert T.g_m2[s, j, k] == pytest.approx(((v - v.mean()) ** 2).sum(), rel=1e-9)
            assert T.g_min[s, j, k] == v.min() and T.g_max[s, j, k] == v.max()
    assert list(T.class_counts[model.root]) == list(np.bincount(y, minlength=3))


def test_naive_bayes_matches_scipy():
    rng = np.random.default_rng(6)
    n = 500
    y = rng.integers(0, 2, n)
    X = np.column_stack(
        [rng.normal(y * 1.5, 1.0), rng.integers(0, 3, n) * 1.0, rng.normal(-y, 2.0)]
    )
    model = _single_leaf(X, y, leaf_prediction="nb", nominal_features={1: 3})
    Xq = np.array([[0.2, 1.0, -0.5], [2.0, 2.0, 1.0], [np.nan, 0.0, -2.0]])
    got = model.predict_proba(Xq)
    for row, p in zip(Xq, got):
        logp = []
        for k in range(2):
            Xk = X[y == k]
            lp = math.log((y == k).mean())
            if not np.isnan(row[0]):
                lp += stats.norm.logpdf(row[0], Xk[:, 0].mean(), Xk[:, 0].std(ddof=1))
            lp += math.log(((Xk[:, 1] == row[1]).sum() + 1) / (len(Xk) + 3))
            lp += stats.norm.logpdf(row[2], Xk[:, 2].mean(), Xk[:, 2].std(ddof=1))
            logp.append(lp)
        expect = np.exp(np.array(logp) - max(logp))
        assert p == pytest.approx(expect / expect.sum(), rel=1e-9)


def test_majority_class_and_adaptive_choice():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(300, 2))
    y = (rng.random(300) < 0.7).astype(np.int64)  # labels independent of X
    mc = _single_leaf(X, y, leaf_prediction="mc")
    counts = np.bincount(y, minlength=2)
    assert mc.predict_proba(X[:5]) == pytest.approx(np.tile(counts / 300, (5, 1)))
    nba = _single_leaf(X, y, leaf_prediction="nba")
    T = nba.tree
    # the adaptive leaf uses whichever predictor was right more often on what it learned
    used_nb = T.mc_correct[nba.root] <= T.nb_correct[nba.root]
    ref = _single_leaf(X, y, leaf_prediction="nb" if used_nb else "mc")
    assert nba.predict_proba(X[:20]) == pytest.approx(ref.predict_proba(X[:20]))


def test_adaptive_scores_count_prequential_hits():
    """mc_correct / nb_correct equal the hits of MC and NB replayed instance by instance; an
    empty leaf has no majority class in the adaptive score (MOA's), so the first row scores no
    MC hit, though the MC learner answers class 0 there."""
    rng = np.random.default_rng(8)
    X = rng.normal(size=(150, 2))
    y = (X[:, 0] + 0.3 * rng.normal(size=150) > 0).astype(np.int64)
    nba = HoeffdingTree(2, 2, grace_period=10**9).prepare(X)
    mc = HoeffdingTree(2, 2, grace_period=10**9, leaf_prediction="mc").prepare(X)
    nb = HoeffdingTree(2, 2, grace_period=10**9, leaf_prediction="nb").prepare(X)
    hits_mc = hits_nb = 0
    for i, (xi, yi) in enumerate(zip(X, y)):
        hits_mc += i > 0 and mc.predict_one(xi) == yi
        hits_nb += nb.predict_one(xi) == yi
        for m in (nba, mc, nb):
            m.learn_one(xi, yi)
    assert nba.tree.mc_correct[0] == hits_mc
    assert nba.tree.nb_correct[0] == hits_nb


def test_read_only_input_reaches_the_kernels_as_writable_arrays(tmp_path):
    """numba compiles a separate kernel for read-only arrays (a memory map, a frozen view),
    which the set-up's cache does not hold: scikit-learn's read-only check made UFFT's forest
    kernel compile for 85 s (a memory-mapped y).  The learners copy such input instead."""
    from numba.core.registry import CPUDispatcher

    from workbench.learners import UFFT

    rng = np.random.default_rng(0)
    X0 = rng.normal(size=(300, 3))
    y0 = (X0[:, 0] > 0).astype(np.int64)
    X = np.memmap(tmp_path / "X", dtype=np.float64, mode="w+", shape=X0.shape)
    y = np.memmap(tmp_path / "y", dtype=np.int64, mode="w+", shape=y0.shape)
    X[:], y[:] = X0, y0
    X.flush()
    y.flush()
    X = np.memmap(tmp_path / "X", dtype=np.float64, mode="r", shape=X0.shape)
    y = np.memmap(tmp_path / "y", dtype=np.int64, mode="r", shape=y0.shape)
    seen = []

    def spy(kernel):
        def wrapper(*args):
            seen.extend(a for a in args if isinstance(a, np.ndarray) and not a.flags.writeable)
            return kernel(*args)

        return wrapper

    from workbench.core import engine, forest  # the learners call the kernels through these

    # the kernels compiled (or loaded) first, on writable input: numba resolves a kernel's calls
    # when it compiles it, and would find the spies below instead of the jitted functions
    HoeffdingTree().fit(X0, y0).predict(X0)
    UFFT().fit(X0, y0).predict_proba(X0)
    originals = {
        (m, k): f
        for m in (engine, forest)
        for k, f in vars(m).items()
        if isinstance(f, CPUDispatcher)
    }
    try:
        for (m, k), f in originals.items():
            setattr(m, k, spy(f))
        HoeffdingTree().fit(X, y).predict(X)
        UFFT().fit(X, y).predict_proba(X)
    finally:
        for (m, k), f in originals.items():
            setattr(m, k, f)
    assert not seen, [a.shape for a in seen]
