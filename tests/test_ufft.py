"""UFFT (paper 002): analytical split, normal-CDF gain, pairwise forest, short-term memory,
DDM-at-node pruning, the balance generator, bad input."""

from __future__ import annotations

import collections
import itertools
import math

import numpy as np
import pytest
from scipy import optimize, stats

from workbench import evaluate, learners, streams
from workbench.core import analytic
from workbench.core import decide as dc
from workbench.core.memory import ShortTermMemory


def _weighted_log_density(x, p, m, v):
    return np.log(p) + stats.norm.logpdf(x, m, np.sqrt(v))


@pytest.mark.parametrize("seed", range(6))
def test_discriminant_root_matches_numeric_root_finding(seed):
    rng = np.random.default_rng(seed)
    p1 = rng.uniform(0.2, 0.8)
    m1, m2 = rng.normal(0, 3, 2)
    v1, v2 = rng.uniform(0.3, 4.0, 2)
    cut = analytic.analytic_cut(p1, m1, v1, 1 - p1, m2, v2)

    def f(x):
        return _weighted_log_density(x, p1, m1, v1) - _weighted_log_density(x, 1 - p1, m2, v2)

    # every sign change of f on a fine grid, refined by Brent's method
    grid = np.linspace(min(m1, m2) - 30, max(m1, m2) + 30, 200_001)
    vals = f(grid)
    idx = np.flatnonzero(np.sign(vals[:-1]) != np.sign(vals[1:]))
    roots = [optimize.brentq(f, grid[i], grid[i + 1], xtol=1e-13) for i in idx]
    mid = 0.5 * (m1 + m2)
    if roots:
        expect = min(roots, key=lambda r: abs(r - mid))
        assert cut == pytest.approx(expect, abs=1e-8)
        r1, r2 = analytic.discriminant_roots(p1, m1, v1, 1 - p1, m2, v2)
        found = sorted(r for r in (r1, r2) if np.isfinite(r))
        assert found == pytest.approx(sorted(roots), abs=1e-7)
    else:
        assert cut == pytest.approx(mid)


def test_equal_variances_give_the_linear_root():
    # p1 N(0,1) = p2 N(2,1): x = 1 + ln(p1/p2) / 2
    cut = analytic.analytic_cut(0.7, 0.0, 1.0, 0.3, 2.0, 1.0)
    assert cut == pytest.approx(1.0 + np.log(0.7 / 0.3) / 2.0, abs=1e-12)


def _entropy(counts):
    counts = np.asarray(counts, float)
    n = counts.sum()
    p = counts[counts > 0] / n
    return -(p * np.log2(p)).sum()


def test_normal_cdf_gain_matches_an_independent_scipy_computation():
    rng = np.random.default_rng(3)
    n0, n1 = 700, 500
    X = np.vstack(
        [rng.normal([0.0, 1.0], [1.0, 2.0], (n0, 2)), rng.normal([1.5, 2.5], [0.6, 0.8], (n1, 2))]
    )
    y = np.r_[np.zeros(n0, int), np.ones(n1, int)]
    order = rng.permutation(n0 + n1)
    X, y = X[order], y[order]
    model = learners.UFFT(2, 2, grace_period=10**9, drift_detection=False).fit(X, y)
    T, C = model.tree, model._config
    merits, cuts, post = np.empty(2), np.empty(2), np.empty((2, 2))
    root = model.roots[0]
    dc.explain_split(T, C, root, merits, cuts, post)
    for j in range(2):
        a, b = X[y == 0, j], X[y == 1, j]
        p0 = len(a) / len(y)
        m, v = (a.mean(), b.mean()), (a.var(ddof=1), b.var(ddof=1))

        def f(x, p0=p0, m=m, v=v):
            return _weighted_log_density(x, p0, m[0], v[0]) - _weighted_log_density(
                x, 1 - p0, m[1], v[1]
            )

        grid = np.linspace(X[:, j].min() - 20, X[:, j].max() + 20, 400_001)
        vals = f(grid)
        idx = np.flatnonzero(np.sign(vals[:-1]) != np.sign(vals[1:]))
        roots = [optimize.brentq(f, grid[i], grid[i + 1], xtol=1e-13) for i in idx]
        cut = min(roots, key=lambda r: abs(r - 0.5 * (m[0] + m[1])))
        left = [
            len(a) * stats.norm.cdf(cut, m[0], np.sqrt(v[0])),
            len(b) * stats.norm.cdf(cut, m[1], np.sqrt(v[1])),
        ]
        right = [len(a) - left[0], len(b) - left[1]]
        n = len(y)
        gain = _entropy([len(a), len(b)]) - (
            sum(left) / n * _entropy(left) + sum(right) / n * _entropy(right)
        )
        assert cuts[j] == pytest.approx(cut, abs=1e-7)
        assert merits[j] == pytest.approx(gain, abs=1e-9)


def test_sum_rule_of_the_pairwise_forest():
    X, y = streams.waveform(6000, seed=2)
    model = learners.UFFT(n_classes=3, grace_period=100).fit(X, y)
    assert model.n_trees == 3
    assert model.pairs_.tolist() == [[0, 1], [0, 2], [1, 2]]
    proba = model.predict_proba(X[:40])
    assert np.allclose(proba.sum(axis=1), 1.0)
    for i in range(40):
        ex = model.explain_one(X[i])
        votes = np.zeros(3)
        for tr in ex.trees:
            a, b = tr["pair"]
            assert tr["proba"].sum() == pytest.approx(1.0)
            votes[a] += tr["proba"][0]
            votes[b] += tr["proba"][1]
        assert proba[i] == pytest.approx(votes / 3, abs=1e-12)
        assert model.predict(X[i : i + 1])[0] == np.argmax(votes)


def test_each_tree_learns_only_its_pair():
    X, y = streams.waveform(3000, seed=4)
    model = learners.UFFT(n_classes=3, grace_period=10**9).fit(X, y)
    T = model.tree
    for r, (a, b) in enumerate(model.pairs_):
        root = model.roots[r]
        assert T.class_counts[root].tolist() == [np.sum(y == a), np.sum(y == b)]


def test_short_term_memory_is_a_bounded_fifo():
    rng = np.random.default_rng(0)
    mem = ShortTermMemory(5, 2)
    ref = collections.deque(maxlen=5)
    for t in range(40):
        if rng.random() < 0.3 and len(ref):
            x, c, tt = mem.pop()
            rx, rc, rt = ref.popleft()
            assert (x.tolist(), c, tt) == (rx, rc, rt)
        else:
            x = rng.normal(size=2).tolist()
            mem.push(x, t % 3, t)
            ref.append((x, t % 3, t))
        Xm, ym, tm = mem.rows()
        assert len(mem) == len(ref)
        assert tm.tolist() == [r[2] for r in ref]
        assert ym.tolist() == [r[1] for r in ref]
        assert Xm.tolist() == [r[0] for r in ref]
    while len(mem):
        mem.pop()
    with pytest.raises(IndexError):
        mem.pop()
    with pytest.raises(ValueError, match="capacity"):
        ShortTermMemory(0, 2)


def _flip_stream(n_before, n_after, seed):
    """Two classes, y = [x0 > 0.5] (with x1 noise), then the concept flips: y = [x0 <= 0.5]."""
    rng = np.random.default_rng(seed)
    n = n_before + n_after
    X = rng.random((n, 2))
    y = (X[:, 0] > 0.5).astype(np.int64)
    y[n_before:] = 1 - y[n_before:]
    return X, y


def test_ddm_at_a_node_prunes_on_an_abrupt_drift():
    n0, n1 = 6000, 6000
    X, y = _flip_stream(n0, n1, seed=5)
    with_dd = learners.UFFT(2, 2, grace_period=100).fit(X[:n0], y[:n0])
    without = learners.UFFT(2, 2, grace_period=100, drift_detection=False).fit(X[:n0], y[:n0])
    # (DDM may fire falsely before the flip: a node whose naive Bayes made no error for its
    # first 30 instances has s_min = 0, and its first error then crosses p_min + 3 s_min)
    assert with_dd.n_leaves > 1
    before = with_dd.drift_counts()["drifts"]
    after = slice(n0, n0 + 2000)
    res_dd = evaluate.prequential(with_dd, X[after], y[after])
    counts = with_dd.drift_counts()
    assert counts["drifts"] > before
    assert n0 <= counts["last_prune_t"] < n0 + 2000  # a prune follows the flip
    res_no = evaluate.prequential(without, X[after], y[after])
    assert without.drift_counts()["drifts"] == 0
    # pruned and regrown from the memory, the forest recovers; without, the old leaves'
    # counts outvote the new concept for the whole window
    assert res_dd.accuracy > 0.8 and res_dd.accuracy > res_no.accuracy + 0.1


def test_balance_generator_follows_the_uci_rule():
    X, y = streams.balance(20_000, seed=7)
    assert set(np.unique(X).tolist()) == {1.0, 2.0, 3.0, 4.0, 5.0}
    left, right = X[:, 0] * X[:, 1], X[:, 2] * X[:, 3]
    assert np.array_equal(y == 0, left > right)
    assert np.array_equal(y == 1, left == right)
    assert np.array_equal(y == 2, left < right)
    # the 625 combinations of the UCI file: 288 L, 49 B, 288 R
    combos = np.array(list(itertools.product(range(1, 6), repeat=4)))
    lt, rt = combos[:, 0] * combos[:, 1], combos[:, 2] * combos[:, 3]
    expected = np.array([(lt > rt).sum(), (lt == rt).sum(), (lt < rt).sum()]) / 625
    assert expected.tolist() == pytest.approx([288 / 625, 49 / 625, 288 / 625])
    observed = np.bincount(y, minlength=3)
    assert stats.chisquare(observed, expected * len(y)).pvalue > 1e-3


def test_bad_input_gives_clear_errors():
    X, y = streams.sea(500, seed=1)
    with pytest.raises(ValueError, match="numeric features only"):
        learners.UFFT(nominal_features={0: 3}).fit(np.floor(X / 4), y)
    import pandas as pd

    df = pd.DataFrame({"a": pd.Categorical(["u", "v"] * 250), "b": X[:, 1]})
    with pytest.raises(ValueError, match="numeric features only"):
        learners.UFFT().fit(df, y)
    for kwargs, pat in [
        (dict(buffer_size=0), "buffer_size"),
        (dict(ddm_warning=3.0, ddm_drift=2.0), "ddm_drift"),
        (dict(nb_split_threshold=-1), "nb_split_threshold"),
        (dict(nb_split_gain="exceeds"), "nb_split_gain"),
        (dict(leaf_prediction="nba"), "leaf_prediction"),
        (dict(drift_detection="yes"), "drift_detection"),
        (dict(ddm_min_instances=0), "ddm_min_instances"),
    ]:
        with pytest.raises(ValueError, match=pat):
            learners.UFFT(**kwargs).fit(X, y)
    bad = X.copy()
    bad[3, 1] = np.inf
    with pytest.raises(ValueError):
        learners.UFFT().fit(bad, y)
    with pytest.raises(ValueError, match="UFFT detects drift"):
        evaluate.prequential(learners.UFFT(n_classes=2), X, y, drift_detection=True)


def test_nb_split_gain_sides():
    """The naive-Bayes split's threshold compares on the side asked for: a gain (in bits, in
    [0, 1] for two classes) is never below 0 nor above 1, so those make no functional node,
    while "above" 0 lets every winning naive Bayes split."""
    X, y = streams.waveform(30_000, seed=2)

    def nb_splits(**kw):
        model = learners.UFFT(n_classes=3, drift_detection=False, **kw).fit(X, y)
        return model.summary()["nb_splits"]

    assert nb_splits(nb_split_threshold=0.0, nb_split_gain="below") == 0
    assert nb_splits(nb_split_threshold=1.0, nb_split_gain="above") == 0
    assert nb_splits(nb_split_threshold=0.0, nb_split_gain="above") > 0
    assert nb_splits(nb_split_threshold=1.0, nb_split_gain="below") > 0


def test_same_seed_same_model_and_pickle():
    import pickle

    X, y = streams.waveform(4000, seed=9)
    a = learners.UFFT(n_classes=3, grace_period=100).fit(X, y)
    b = pickle.loads(pickle.dumps(a))
    assert np.array_equal(a.predict_proba(X[:500]), b.predict_proba(X[:500]))
    c = learners.UFFT(n_classes=3, grace_period=100).fit(X, y)
    assert np.array_equal(a.predict_proba(X[:500]), c.predict_proba(X[:500]))
    assert "digraph" in a.to_dot(1)


def test_node_ddm_is_moa_strict_ddm():
    from workbench.core.forest import node_ddm_run
    from workbench.drift import DDM

    rng = np.random.default_rng(11)
    errors = np.r_[rng.random(3000) < 0.1, rng.random(2000) < 0.35, rng.random(3000) < 0.05]
    errors = errors.astype(float)
    w_ref, d_ref = DDM(30, strict=True).run(errors)
    w, d = node_ddm_run(errors, 30, 2.0, 3.0)
    assert d_ref.any() and np.array_equal(d, d_ref)
    assert np.array_equal(w, w_ref & ~d_ref)


def test_node_naive_bayes_agrees_with_the_leaf_predictor():
    from workbench.core.forest import node_nb_class

    X, y = streams.waveform(3000, seed=12)
    model = learners.UFFT(n_classes=3, grace_period=10**9).fit(X[:2000], y[:2000])
    T = model.tree
    for r in range(model.n_trees):
        # the leaf predictor (leaf_predict's naive Bayes, tree r alone) against nb_class
        local = np.array(
            [model._leaf_local_proba(r, model.roots[r], X[i : i + 1]) for i in range(2000, 2300)]
        )
        calls = np.array([node_nb_class(T, model.roots[r], X, i) for i in range(2000, 2300)])
        assert np.array_equal(calls, np.argmax(local, axis=1))
        assert len(set(calls.tolist())) == 2  # both classes of the pair are called


def test_forest_stepper_reports_prunes():
    from workbench.viz.stepper.forest import ForestStepper

    X, y = _flip_stream(4000, 4000, seed=5)
    stepper = ForestStepper(learners.UFFT(2, 2, grace_period=100), X, y)
    stepper.step(4000)
    assert "DDM NB error p=" in stepper.dot()  # inner nodes show their detector's levels
    before = len(stepper.events)
    stepper.to_next_prune()
    assert len(stepper.events) == before + 1
    event = stepper.events[-1]
    assert 4000 <= event["t"] < stepper.t and event["depth"] >= 0
    assert "prunes so far" in stepper.text() and "digraph" in stepper.dot()


@pytest.mark.parametrize("scale", [1.0, 1e-30, 1e30])
def test_pair_naive_bayes_against_plain_logs(scale):
    """The forest's two-class naive Bayes (naive_bayes.nb_pair_logs, nb_class) against the scores
    written out with one logarithm per term.  Scales of 1e-30 and 1e30 put the products of
    inverse variances far outside [1e-50, 1e50], where the fast pass hands over to the
    renormalising one; a missing value is left out and a Gaussian without spread is a point
    mass."""
    from workbench.core.naive_bayes import nb_class, nb_pair_logs

    rng = np.random.default_rng(8)
    d = 12
    for trial in range(200):
        counts = rng.integers(1, 40, size=2).astype(float)
        w = rng.integers(2, 60, size=(1, d, 2)).astype(float)
        var = rng.uniform(0.2, 5.0, size=(1, d, 2)) * scale**2
        mean = rng.normal(0.0, 2.0, size=(1, d, 2)) * scale
        m2 = var * (w - 1.0)
        x = (rng.normal(0.0, 2.0, size=(1, d)) * scale).copy()
        if trial % 3 == 0:
            x[0, trial % d] = np.nan
        point = trial % 5 == 0
        if point:  # feature 0 of class 1: no spread, the row on its mean
            m2[0, 0, 1] = 0.0
            x[0, 0] = mean[0, 0, 1]
        cc = counts.reshape(1, 2)
        slot = np.zeros(1, np.int64)
        l0, l1 = nb_pair_logs(cc, slot, w, mean, m2, 0, x, 0)
        ref = []
        for k in range(2):
            terms = [math.log(counts[k] / counts.sum())]
            for j in range(d):
                if np.isnan(x[0, j]) or (point and k == 1 and j == 0):
                    continue
                v = var[0, j, k]
                terms.append(
                    -0.5 * math.log(2 * math.pi * v) - 0.5 * (x[0, j] - mean[0, j, k]) ** 2 / v
                )
            ref.append(math.fsum(terms))
        assert l0 == pytest.approx(ref[0], rel=1e-9, abs=1e-6)
        assert l1 == pytest.approx(ref[1], rel=1e-9, abs=1e-6)
        if abs(ref[0] - ref[1]) > 1e-6:
            assert nb_class(cc, slot, w, mean, m2, 0, x, 0) == (0 if ref[0] > ref[1] else 1)


def test_leaves_grown_after_a_prune_start_from_the_new_context_only():
    """002: after a drift the new context starts where the warning began, and the pruned node's
    leaf is rebuilt from the remembered rows since then.  A leaf that later grows below it must
    not be refilled with rows from before the warning either (the old concept): right after its
    first split the forest holds only new-context rows and predicts the new concept."""
    n0 = 6000
    X, y = _flip_stream(n0, 3000, seed=7)
    m = learners.UFFT(2, 2, grace_period=100, buffer_size=4000).fit(X[:n0], y[:n0])
    root = m.roots[0]
    pruned_at = split_at = None
    for i in range(n0, len(y)):
        before = m.drift_counts()
        m.partial_fit(X[i : i + 1], y[i : i + 1])
        after = m.drift_counts()
        if pruned_at is None:
            if after["drifts"] > before["drifts"] and after["last_prune_node"] == root:
                pruned_at = i
        elif after["attribute_splits"] + after["nb_splits"] > (
            before["attribute_splits"] + before["nb_splits"]
        ):
            split_at = i
            break
    assert pruned_at is not None and split_at is not None
    T = m.tree
    leaves = np.flatnonzero((T.kind[: T.meta[0]] == 0) & (T.class_counts[: T.meta[0]].sum(1) > 0))
    weight = T.class_counts[leaves].sum()
    # every row in the leaves arrived after the flip (and after the warning that preceded the
    # prune); refilled from the whole memory they would hold up to 4,000 rows, most of the old
    # concept
    assert 0 < weight <= split_at - n0 + 1
    Xn, yn = _flip_stream(0, 2000, seed=8)
    assert np.mean(m.predict(Xn) == yn) > 0.9
