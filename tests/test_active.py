"""Label-query strategies, the ACTIVE protocol and DDM (paper 000 Algorithms 2, 3, 5-7)."""

import math

import numpy as np
import pytest
from scipy import stats

from workbench import active, bounds, drift, evaluate, streams
from workbench._rng import seed_state
from workbench.active.rules import (
    CONFTREE,
    RANDOM,
    SELECTIVE_SAMPLING,
    SPLIT,
    VAR_UNCERTAINTY,
    decide,
)
from workbench.learners import CTree, HoeffdingTree


def _params(s=0.01, nu=0.2, delta=-1.0, sigma=1.0):
    return np.array([s, nu, delta, sigma])


# ----------------------------------------------------------------------------- decisions
def test_random_strategy_rate():
    rng = seed_state(3, 0)
    state = np.ones(1)
    hits = sum(
        decide(RANDOM, _params(), state, rng, 0.3, 0.9, 0.1, 10.0, 5.0)[0] for _ in range(20_000)
    )
    assert stats.binomtest(hits, 20_000, 0.3).pvalue > 1e-3


def test_variable_uncertainty_threshold_moves_as_printed():
    rng = seed_state(0, 0)
    state = np.ones(1)
    # confidence 0.8 < Theta = 1: query, Theta shrinks by (1 - s)
    assert decide(VAR_UNCERTAINTY, _params(s=0.1), state, rng, 0.5, 0.8, 0.3, 5.0, 1.0)[0]
    assert state[0] == pytest.approx(0.9)
    # confidence 0.95 >= Theta = 0.9: no query, Theta grows by (1 + s)
    assert not decide(VAR_UNCERTAINTY, _params(s=0.1), state, rng, 0.5, 0.95, 0.3, 5.0, 2.0)[0]
    assert state[0] == pytest.approx(0.99)


def test_selective_sampling_probability():
    rng = seed_state(5, 0)
    state = np.ones(1)
    B, gap = 0.2, 0.3
    hits = sum(
        decide(SELECTIVE_SAMPLING, _params(), state, rng, B, 0.8, gap, 50.0, 9.0)[0]
        for _ in range(20_000)
    )
    assert stats.binomtest(hits, 20_000, B / (B + gap)).pvalue > 1e-3


def test_conftree_queries_inconsistent_leaves_and_samples_consistent_ones():
    rng = seed_state(6, 0)
    state = np.ones(1)
    t, m, B = 1000.0, 200.0, 0.1
    eps = bounds.leaf_consistency(m, t, 1 / t)  # delta = 1/t
    # not consistent: always asked
    assert all(
        decide(CONFTREE, _params(), state, rng, B, 0.6, eps * 0.99, m, t)[0] for _ in range(200)
    )
    # consistent: asked with probability (B + eps) / (B + eps + gap)
    gap = 0.4
    assert gap > eps
    hits = sum(decide(CONFTREE, _params(), state, rng, B, 0.9, gap, m, t)[0] for _ in range(20_000))
    assert stats.binomtest(hits, 20_000, (B + eps) / (B + eps + gap)).pvalue > 1e-3
    # an empty leaf is always asked
    assert decide(CONFTREE, _params(), state, rng, B, 0.5, 0.0, 0.0, t)[0]


def test_split_strategy_random_share():
    rng = seed_state(7, 0)
    state = np.ones(1)
    from_random = sum(
        decide(SPLIT, _params(nu=0.2), state, rng, 0.5, 0.9, 0.3, 5.0, 3.0)[1]
        for _ in range(20_000)
    )
    assert stats.binomtest(from_random, 20_000, 0.2).pvalue > 1e-3


# ----------------------------------------------------------------------------- protocol
@pytest.fixture(scope="module")
def elec():
    X, y = streams.electricity()
    return X[:20_000], y[:20_000]


@pytest.mark.parametrize("name", sorted(active.STRATEGIES))
@pytest.mark.parametrize("budget", [0.1, 0.4])
def test_query_rate_never_exceeds_the_budget(elec, name, budget):
    X, y = elec
    res = evaluate.prequential(
        CTree(6, c=0.05), X, y, strategy=active.STRATEGIES[name](seed=2), budget=budget
    )
    running = np.cumsum(res.queried) / np.arange(1, len(y) + 1)
    assert running.max() <= budget + 1e-12
    assert res.labels_used == int(res.queried.sum()) > 0
    assert res.query_rate == pytest.approx(res.labels_used / len(y))
    assert res.n == len(y)  # every instance is predicted and counted
    # the curve of the query rate: labels asked up to each point t, over t
    assert np.array_equal(res.query_rate_curve, np.cumsum(res.queried)[res.t - 1] / res.t)


def test_active_learns_only_the_queried_instances(elec):
    """The ACTIVE run equals a FULL run on the queried rows alone (same order)."""
    X, y = elec
    model = HoeffdingTree(6, 2)
    res = evaluate.prequential(model, X, y, strategy=active.ConfTree(seed=4), budget=0.3)
    rows = res.queried.astype(bool)
    replay = HoeffdingTree(6, 2).partial_fit(X[rows], y[rows])
    assert np.array_equal(model.predict(X[:5000]), replay.predict(X[:5000]))
    assert model.n_seen == rows.sum() == replay.n_seen


def test_budget_one_with_random_strategy_is_full(elec):
    X, y = elec
    full = evaluate.prequential(HoeffdingTree(6, 2), X, y)
    act = evaluate.prequential(HoeffdingTree(6, 2), X, y, strategy=active.Random(), budget=1.0)
    assert np.array_equal(full.predictions, act.predictions)
    assert act.labels_used == len(y)


def test_active_runs_are_reproducible(elec):
    X, y = elec
    a = evaluate.prequential(
        CTree(6, c=0.05),
        X,
        y,
        strategy=active.RndVarUncertainty(seed=9),
        budget=0.2,
        drift_detection=True,
    )
    b = evaluate.prequential(
        CTree(6, c=0.05),
        X,
        y,
        strategy=active.RndVarUncertainty(seed=9),
        budget=0.2,
        drift_detection=True,
    )
    assert np.array_equal(a.queried, b.queried) and np.array_equal(a.predictions, b.predictions)


def test_bad_active_arguments(elec):
    X, y = elec
    with pytest.raises(ValueError, match="budget"):
        evaluate.prequential(HoeffdingTree(6, 2), X, y, strategy=active.Random(), budget=0)
    with pytest.raises(ValueError, match="strategy"):
        evaluate.prequential(HoeffdingTree(6, 2), X, y, strategy="random", budget=0.1)
    with pytest.raises(ValueError, match="nu"):
        active.Split(nu=1.5)


# ----------------------------------------------------------------------------- DDM
def test_ddm_levels_by_hand():
    """25 errors, then 75 correct predictions: p_i = 25/i falls, and so does p_i + s_i, so the
    minimum is at i = 100: p_min = 0.25, s_min = sqrt(0.25 * 0.75 / 100) = 0.0433013.  Warning
    level p_min + 2 s_min = 0.3366025, drift level p_min + 3 s_min = 0.3799038.  Then only
    errors: after k more, p + s = (25+k)/(100+k) + sqrt(p (1-p) / (100+k)) is 0.32980 (k = 5),
    0.33664 (k = 6: warning), 0.37480 (k = 12), 0.38073 (k = 13: drift)."""
    ddm = drift.DDM(min_instances=30)
    out = [ddm.update(e) for e in [1] * 25 + [0] * 75]
    assert set(out) == {drift.NONE}
    s_min = math.sqrt(0.25 * 0.75 / 100)
    assert ddm.n == 100 and ddm.error_rate == 0.25
    assert (ddm.state[2], ddm.state[3]) == pytest.approx((0.25, s_min), abs=1e-15)
    assert 0.25 + 2 * s_min == pytest.approx(0.3366025, abs=1e-7)
    assert 0.25 + 3 * s_min == pytest.approx(0.3799038, abs=1e-7)
    out = [ddm.update(1) for _ in range(13)]
    assert out == [drift.NONE] * 5 + [drift.WARNING] * 7 + [drift.DRIFT]
    assert ddm.n == 0  # a drift resets the detector
    # the same levels through bounds.ddm_levels at the two crossings (k = 5, 6 and 12, 13)
    for k, level in (
        (5, (False, False)),
        (6, (True, False)),
        (12, (True, False)),
        (13, (True, True)),
    ):
        p = (25 + k) / (100 + k)
        got = bounds.ddm_levels(p, math.sqrt(p * (1 - p) / (100 + k)), 0.25, s_min, strict=True)
        assert tuple(map(bool, got)) == level, k


def test_ddm_detects_a_jump_and_not_a_stationary_stream():
    rng = np.random.default_rng(0)
    calm = (rng.random(20_000) < 0.2).astype(float)
    assert not drift.DDM().run(calm)[1].any()
    jump = np.r_[(rng.random(5_000) < 0.1), (rng.random(5_000) < 0.6)].astype(float)
    w, d = drift.DDM().run(jump)
    # (DDM may also fire early, while p_min + s_min rests on few errors: finding 12)
    after = np.flatnonzero(d[5_000:])
    assert after.size and after[0] < 300  # the jump is caught within 300 instances
    first = 5_000 + int(after[0])
    assert w[first]  # the drift zone is inside the warning zone


def test_drift_detection_resets_the_tree():
    X1, y1 = streams.sea(n=20_000, seed=1, concept=0, noise=0.0)
    X2, y2 = streams.sea(n=20_000, seed=2, concept=0, noise=0.0)
    X = np.r_[X1, X2]
    y = np.r_[y1, 1 - y2]  # the concept flips: every label inverted
    res = evaluate.prequential(HoeffdingTree(3, 2), X, y, drift_detection=True)
    assert res.n_drifts >= 1
    no = evaluate.prequential(HoeffdingTree(3, 2), X, y)
    # (deterministic at these seeds: 0.98 against 0.93 without detection)
    assert res.window_curve[-1] > no.window_curve[-1] + 0.03


def test_montecarlo_uses_the_same_ddm():
    from workbench import montecarlo

    errs = (np.random.default_rng(3).random(3000) < 0.3).astype(float)
    w1, d1 = montecarlo.ddm_run(errs, 30, True)
    w2, d2 = drift.DDM(strict=True).run(errs)
    assert np.array_equal(w1, w2) and np.array_equal(d1, d2)


def test_leaf_consistency_radius():
    assert bounds.leaf_consistency(50, 1000, 0.01) == pytest.approx(
        math.sqrt(math.log(2 * 1000 / 0.01) / 100)
    )


def test_one_by_one_and_kernel_paths_agree(elec):
    """Strategy.query (one instance, Python; the stepper's slow path) and the ACTIVE loop (a
    slice in numba, the stepper's fast path) make the same decisions and leave the same
    model."""
    X, y = elec
    X, y = X[:4000], y[:4000]
    for name in ("ConfTree", "VarUncertainty", "SplitConfTree"):
        a_model, a = CTree(6, c=0.05).prepare(X), active.STRATEGIES[name](budget=0.3, seed=5)
        b_model, b = CTree(6, c=0.05), active.STRATEGIES[name](budget=0.3, seed=5)
        preds, queried = [], []
        for xi, yi in zip(X, y):
            preds.append(a_model.predict_one(xi))
            q = a.query(a_model, xi)
            queried.append(q)
            if q:
                a_model.learn_one(xi, yi)
        # in two slices, as the stepper runs them: the strategy's counts carry over
        r1, r2 = (
            evaluate.prequential(b_model, Xs, ys, strategy=b, n_points=1, _counters=b.counters)
            for Xs, ys in ((X[:1500], y[:1500]), (X[1500:], y[1500:]))
        )
        assert np.array_equal(np.r_[r1.queried, r2.queried].astype(bool), queried), name
        assert np.array_equal(np.r_[r1.predictions, r2.predictions], preds), name
        assert a.counters.tolist() == b.counters.tolist()


def test_strategy_without_budget_says_so():
    X, y = streams.sea(n=100, seed=1)
    with pytest.raises(ValueError, match="budget"):
        active.ConfTree().query(HoeffdingTree(3, 2), X[0])
    with pytest.raises(ValueError, match="budget"):
        active.Random(budget=2.0)
