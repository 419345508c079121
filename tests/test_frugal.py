"""The Frugal Hoeffding tree of paper 003 (Izenov): the Frugal rule against an independent
computation, alpha = 1 against the Hoeffding tree bit for bit, the mini-batch protocol against a
plain Python loop, the Weather example against fractions, and bad input."""

import math
from fractions import Fraction

import numpy as np
import pytest
from numba import njit

from workbench import active, evaluate, streams
from workbench._rng import seed_state
from workbench.active.rules import FRUGAL, decide, decide_rows, top_two_margin
from workbench.learners import FrugalHoeffdingTree, HoeffdingTree


# ----------------------------------------------------------------------------- the rule
def test_frugal_decision_matches_numpy_margin():
    rng = np.random.default_rng(5)
    strat = active.Frugal(0.25)
    state = np.ones(1)
    r = seed_state(0, 0)
    for _ in range(500):
        k = int(rng.integers(2, 6))
        counts = rng.integers(0, 30, size=k).astype(float)
        proba = (counts + 1) / (counts.sum() + k)  # Laplace, eq. (2)
        top = np.sort(proba)[::-1]
        want = top[0] - top[1] < 0.25
        assert math.isclose(top_two_margin(proba), top[0] - top[1], rel_tol=0, abs_tol=1e-15)
        got, from_random = decide(
            FRUGAL, strat.params, state, r, 1.0, top[0], 0.0, 0.0, 1.0, top_two_margin(proba)
        )
        assert got == want and not from_random


def _probability_rule(counts, laplace, alpha):
    """The rule as the probabilities give it: leaf_predict's fractions, their two largest
    subtracted (top_two_margin), compared with alpha."""
    k = counts.shape[0]
    n = counts.sum()
    if laplace:
        proba = (counts + 1.0) / (n + k)
    else:
        proba = counts / n if n > 0 else np.full(k, 1.0 / k)
    return top_two_margin(proba) < alpha


@pytest.mark.parametrize("laplace", [True, False])
def test_count_decision_is_the_probability_rule_bit_for_bit(laplace):
    """The kernel's Frugal step decides from the counts without a division where the answer is
    clear (active_steps.count_margin_below); it must answer as the probabilities do, including the
    rows where the margin is alpha up to rounding (first - second = alpha * m exactly)."""
    from workbench.core.active_steps import count_margin_below, frugal_limits

    rng = np.random.default_rng(11)
    cases = []
    for alpha in (0.1, 0.25, 0.3, 0.5, 0.7, 1.0):
        for m in range(2, 400):  # boundary cases: first - second = alpha * m exactly
            gap = alpha * m
            if gap != int(gap):
                continue
            for k, third in ((2, 0), (3, 0), (3, 1), (3, 2)):
                n = m - k if laplace else m
                if (n - third + gap) % 2 == 0:
                    first, second = (n - third + gap) / 2, (n - third - gap) / 2
                    if second >= third:
                        cases.append((alpha, np.array([first, second, third][:k], float)))
        for _ in range(300):
            k = int(rng.integers(2, 6))
            cases.append((alpha, rng.integers(0, 60, size=k).astype(float)))
        # more than two classes with the others tied: the first test's bound on the gap,
        # (K first - total) / (K - 1), is then the gap itself, here exactly alpha * m
        for k in (3, 4):
            for low in range(60):
                prior_k = k if laplace else 0
                f = (low + alpha * ((k - 1) * low + prior_k)) / (1 - alpha) if alpha < 1 else -1
                if f == int(f) and f >= low:
                    cases.append((alpha, np.array([f] + [low] * (k - 1), float)))
    cases.append((0.5, np.zeros(3)))  # MC with no counts: margin 0
    n_boundary = 0
    for alpha, counts in cases:
        k = counts.shape[0]
        top = np.sort(counts)[::-1]
        m = counts.sum() + k if laplace else counts.sum()
        n_boundary += m > 0 and (top[0] - top[1]) == alpha * m
        got = count_margin_below(top[0], top[1], counts.sum(), frugal_limits(alpha, k, laplace))
        assert got == _probability_rule(counts, laplace, alpha), (alpha, counts)
    assert n_boundary > 50  # the boundary is exercised, not only the clear cases
    # ... including boundary leaves of more than two classes whose other classes are tied
    n_tied = sum(
        c.shape[0] > 2
        and np.all(c[1:] == c[1])
        and (c[0] - c[1]) == a * (c.sum() + (c.shape[0] if laplace else 0))
        for a, c in cases
    )
    assert n_tied > 10


def test_frugal_decides_with_the_predicting_leaf_on_nominal_data():
    """A row whose nominal value the split never saw is predicted at the node it reaches and
    then learned in a new, empty branch; the rule must read the leaf that predicted it, as
    predict_proba_one does.  (Values 0 and 1, each of one class, before the split; then values
    0-29, where the heavier branch, 0, predicts the new values with confidence.)"""
    rng = np.random.default_rng(6)
    n = 4_000
    v = np.where(np.arange(n) < 1_000, rng.random(n) < 0.3, rng.integers(0, 30, n))
    X = np.column_stack([v, rng.normal(size=n)]).astype(float)
    y = np.where(v < 2, v, rng.integers(0, 2, n)).astype(int)
    alpha = 0.9  # a pure leaf stops asking after about 20 labels
    kw = dict(nominal_features=[0], leaf_prediction="laplace", grace_period=50)
    res = evaluate.prequential(HoeffdingTree(2, 2, **kw), X, y, strategy=active.Frugal(alpha))
    asked = _replay(HoeffdingTree(2, 2, **kw), X, y, alpha)
    assert np.array_equal(res.queried.astype(bool), asked)
    assert 0 < res.labels_used < len(y)


def test_laplace_margin_never_reaches_one():
    # (n1 - n2) / (n + K) < 1 for any counts: alpha = 1 asks for every label
    for n1 in range(0, 200, 7):
        for n2 in range(0, n1 + 1, 5):
            p = np.array([n1 + 1.0, n2 + 1.0]) / (n1 + n2 + 2.0)
            assert top_two_margin(p) < 1.0


def _replay(fresh, X, y, alpha):
    """The rows the Frugal rule asks for, replayed in Python: a fresh tree learns row by row,
    the rule read from predict_proba_one."""
    ref = fresh.prepare(X)
    asked = np.zeros(len(y), bool)
    for i in range(len(y)):
        p = np.sort(ref.predict_proba_one(X[i]))[::-1]
        if p[0] - p[1] < alpha:
            asked[i] = True
            ref.learn_one(X[i], int(y[i]))
    return asked


@pytest.mark.parametrize("leaves", ["laplace", "mc", "nb", "nba"])
def test_frugal_through_prequential_asks_exactly_the_uncertain_rows(leaves):
    """Count leaves (Laplace, MC) take the kernel's count path, naive-Bayes leaves the general
    strategy path (their probabilities are not count fractions); each against a replay."""
    X, y = streams.sea(3_000, seed=3)
    alpha = 0.3
    model = HoeffdingTree(3, 2, leaf_prediction=leaves, grace_period=50)
    res = evaluate.prequential(model, X, y, strategy=active.Frugal(alpha))
    asked = _replay(HoeffdingTree(3, 2, leaf_prediction=leaves, grace_period=50), X, y, alpha)
    assert np.array_equal(res.queried.astype(bool), asked)
    assert 0 < res.labels_used == asked.sum() < len(y)


def test_frugal_budget_caps_the_queries_as_a_replay_does():
    """With a budget the rule may ask only while queried + 1 <= budget * seen (000's Algorithm
    3).  The kernel keeps the two counters in registers and writes them back when it stops;
    it stops to grow the tree's arrays several times on this stream, so each stretch must start
    from the counts the last one left."""
    X, y = streams.sea(20_000, seed=5)
    alpha, budget = 0.9, 0.5
    kw = dict(leaf_prediction="laplace", grace_period=20, tau=0.2)
    model = HoeffdingTree(3, 2, **kw)
    res = evaluate.prequential(model, X, y, strategy=active.Frugal(alpha, budget=budget))
    assert model._state.kind.shape[0] > 64  # the arrays grew: the kernel stopped and resumed
    ref = HoeffdingTree(3, 2, **kw).prepare(X)
    asked = np.zeros(len(y), bool)
    queried = 0
    for i in range(len(y)):
        p = np.sort(ref.predict_proba_one(X[i]))[::-1]
        if queried + 1 <= budget * (i + 1) and p[0] - p[1] < alpha:
            asked[i] = True
            queried += 1
            ref.learn_one(X[i], int(y[i]))
    assert np.array_equal(res.queried.astype(bool), asked)
    assert res.labels_used == queried
    assert queried / len(y) == pytest.approx(budget, abs=0.01)  # the budget binds


# ----------------------------------------------------------------------------- alpha = 1
@njit
def _margin_below_09(counts, proba, budget, queried, seen, rng, params, state):
    """003's rule at alpha = 0.9 as a user's rule: the two largest probabilities, sorted."""
    top = np.sort(proba)[::-1]
    return top[0] - top[1] < 0.9


def test_frugal_count_path_with_drift_detection_is_the_general_path():
    """Without drift detection the count-leaf variant of the loop (rng None) leaves the drift
    step out (engine.drift_state); with it, that variant must keep DDM and the tree reset, and
    query, reset and predict exactly as the general strategy path does with the same rule
    written as a user's rule (its own margin from the probabilities).  SEA switches concept
    twice, so that DDM fires."""
    from workbench.core import engine

    X, y = streams.sea(24_000, seed=4, concepts=[0, 3, 1], drift_every=8_000)[:2]
    kw = dict(leaf_prediction="laplace", grace_period=50)
    model = HoeffdingTree(3, 2, **kw)
    count = evaluate.prequential(model, X, y, strategy=active.Frugal(0.9), drift_detection=True)
    assert engine.strategy_rng(model._config, active.Frugal(0.9)) is None  # the count path
    general = evaluate.prequential(
        HoeffdingTree(3, 2, **kw),
        X,
        y,
        strategy=active.Custom(_margin_below_09),
        drift_detection=True,
    )
    assert count.n_drifts >= 1
    assert (count.n_drifts, count.n_warnings) == (general.n_drifts, general.n_warnings)
    assert np.array_equal(count.queried, general.queried)
    assert np.array_equal(count.predictions, general.predictions)
    # without detection the count path runs without the drift step, and still as the general
    quiet = evaluate.prequential(HoeffdingTree(3, 2, **kw), X, y, strategy=active.Frugal(0.9))
    general_quiet = evaluate.prequential(
        HoeffdingTree(3, 2, **kw), X, y, strategy=active.Custom(_margin_below_09)
    )
    assert quiet.n_drifts == 0 and np.array_equal(quiet.queried, general_quiet.queried)
    assert np.array_equal(quiet.predictions, general_quiet.predictions)
    assert not np.array_equal(quiet.predictions, count.predictions)  # the resets mattered


@pytest.mark.parametrize("stream", ["sea", "electricity"])
def test_alpha_one_is_the_laplace_hoeffding_tree(stream):
    if stream == "sea":
        X, y = streams.sea(30_000, seed=7)
    else:
        X, y = streams.electricity()
    d = X.shape[1]
    ht = HoeffdingTree(d, 2, leaf_prediction="laplace")
    fr = FrugalHoeffdingTree(d, 2, alpha=1.0, n_initial=0)
    a = evaluate.prequential(ht, X, y)
    b = evaluate.prequential(fr, X, y)
    assert np.array_equal(a.predictions, b.predictions)
    assert b.labels_used == len(y) == fr.labels_used_
    assert np.array_equal(ht.predict_proba(X[:2000]), fr.predict_proba(X[:2000]))
    # partial_fit by the rule, and the mini-batch protocol, agree too
    ht2 = HoeffdingTree(d, 2, leaf_prediction="laplace")
    fr2 = FrugalHoeffdingTree(d, 2, alpha=1.0, n_initial=0)
    ht2.partial_fit(X, y)
    fr2.partial_fit(X, y)
    assert np.array_equal(ht2.predict(X), fr2.predict(X)) and ht2.n_leaves == fr2.n_leaves
    m1 = evaluate.minibatch(HoeffdingTree(d, 2, leaf_prediction="laplace"), X, y, batch_size=997)
    m2 = evaluate.minibatch(FrugalHoeffdingTree(d, 2, alpha=1.0, n_initial=0), X, y, batch_size=997)
    assert np.array_equal(m1.predictions, m2.predictions)
    assert np.array_equal(m1.batch_labels, m2.batch_labels)


def test_initial_set_is_learned_in_full_then_the_rule():
    X, y = streams.sea(4_000, seed=2)
    fr = FrugalHoeffdingTree(3, 2, alpha=0.2, n_initial=700, grace_period=50)
    res = evaluate.prequential(fr, X, y)
    assert res.queried[:700].all()
    ref = HoeffdingTree(3, 2, leaf_prediction="laplace", grace_period=50)
    ref.partial_fit(X[:700], y[:700])
    rest = evaluate.prequential(ref, X[700:], y[700:], strategy=active.Frugal(0.2))
    assert np.array_equal(res.predictions[700:], rest.predictions)
    assert res.labels_used == 700 + rest.labels_used == fr.labels_used_
    # partial_fit in two pieces counts S across calls
    fr2 = FrugalHoeffdingTree(3, 2, alpha=0.2, n_initial=700, grace_period=50)
    fr2.partial_fit(X[:500], y[:500]).partial_fit(X[500:], y[500:])
    assert fr2.labels_used_ == res.labels_used
    assert np.array_equal(fr2.predict(X), fr.predict(X))
    # fit starts again
    fr2.fit(X, y)
    assert fr2.labels_used_ == res.labels_used


# ----------------------------------------------------------------------------- mini-batch
def _reference_minibatch(X, y, batch, alpha, grace):
    """Plain Python: predict a batch and decide its queries with the model as it stood at the
    batch's start, then learn the queried rows in order."""
    model = HoeffdingTree(X.shape[1], 2, leaf_prediction="laplace", grace_period=grace).prepare(X)
    preds, asked = [], []
    for lo in range(0, len(y), batch):
        Xb, yb = X[lo : lo + batch], y[lo : lo + batch]
        preds.append(model.predict(Xb))
        proba = model.predict_proba(Xb)
        mask = np.array([np.sort(p)[::-1][0] - np.sort(p)[::-1][1] < alpha for p in proba])
        asked.append(mask)
        for i in np.flatnonzero(mask):
            model.learn_one(Xb[i], int(yb[i]))
    return np.concatenate(preds), np.concatenate(asked)


def test_minibatch_queries_use_the_model_at_the_batch_start():
    X, y = streams.sea(2_500, seed=11)
    alpha, batch, grace = 0.35, 300, 40
    res = evaluate.minibatch(
        HoeffdingTree(3, 2, leaf_prediction="laplace", grace_period=grace),
        X,
        y,
        batch_size=batch,
        strategy=active.Frugal(alpha),
    )
    pred, asked = _reference_minibatch(X, y, batch, alpha, grace)
    assert np.array_equal(res.predictions, pred)
    assert np.array_equal(res.queried.astype(bool), asked)
    per = res.per_batch(1)
    assert per["labels_used"].tolist() == [
        int(asked[lo : lo + batch].sum()) for lo in range(0, 2_500, batch)
    ]
    # per-batch metrics against a direct count on batch 3
    lo, hi = 600, 900
    p, t = pred[lo:hi], y[lo:hi]
    tp = np.sum((p == 1) & (t == 1))
    assert per.loc[2, "precision"] == tp / np.sum(p == 1)
    assert per.loc[2, "recall"] == tp / np.sum(t == 1)
    assert per.loc[2, "error"] == np.mean(p != t)
    # the batch's first queries do not change its later decisions: a row-by-row run differs
    online = evaluate.prequential(
        HoeffdingTree(3, 2, leaf_prediction="laplace", grace_period=grace),
        X,
        y,
        strategy=active.Frugal(alpha),
    )
    assert not np.array_equal(online.queried.astype(bool), asked)


def test_minibatch_initial_set_then_the_rule_with_the_model_that_learned_it():
    """The thesis: initialise HT(S), then ask with HT(S).  With S = 200 rows and batches of
    1,000, the first batch's other 800 rows are predicted and decided by the model that has
    learned S (not by the empty tree, whose margin 0 would ask for every one of them)."""
    X, y = streams.sea(5_000, seed=4)
    alpha, batch, S, grace = 0.25, 1_000, 200, 200
    res = evaluate.minibatch(
        FrugalHoeffdingTree(3, 2, alpha=alpha, n_initial=S, grace_period=grace),
        X,
        y,
        batch_size=batch,
    )
    model = HoeffdingTree(3, 2, leaf_prediction="laplace", grace_period=grace).prepare(X)
    preds, asked = [model.predict(X[:S])], [np.ones(S, bool)]
    model.partial_fit(X[:S], y[:S])
    cuts = [S, *range(batch, len(y), batch), len(y)]
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        Xb, yb = X[lo:hi], y[lo:hi]
        preds.append(model.predict(Xb))
        top = np.sort(model.predict_proba(Xb), axis=1)[:, ::-1]
        mask = top[:, 0] - top[:, 1] < alpha
        asked.append(mask)
        if mask.any():
            model.partial_fit(Xb[mask], yb[mask])
    pred, asked = np.concatenate(preds), np.concatenate(asked)
    assert np.array_equal(res.predictions, pred)
    assert np.array_equal(res.queried.astype(bool), asked)
    assert res.batch_labels[0] == S + asked[S:batch].sum() < batch
    assert res.labels_used == asked.sum()


def test_decide_rows_budget_and_random_strategy_in_minibatch():
    X, y = streams.sea(6_000, seed=1)
    res = evaluate.minibatch(
        HoeffdingTree(3, 2, leaf_prediction="laplace"),
        X,
        y,
        batch_size=1000,
        strategy=active.Random(budget=0.2, seed=4),
    )
    assert 0 < res.labels_used <= 0.2 * 6_000 + 1
    counters = np.zeros(4, np.int64)
    out = np.zeros(5, np.int8)
    decide_rows(
        FRUGAL,
        active.Frugal(0.5).params,
        np.ones(1),
        seed_state(0, 0),
        1.0,
        np.array([[0.5, 0.5], [0.9, 0.1], [0.7, 0.3], [0.6, 0.4], [0.76, 0.24]]),
        np.zeros(5),
        np.zeros(5),
        counters,
        out,
    )
    assert out.tolist() == [1, 0, 1, 1, 0] and counters[0] == 3 and counters[1] == 5


# ----------------------------------------------------------------------------- Weather, eq. (2)
def _h(*counts):
    n = sum(counts)
    return -sum(Fraction(c, n) * Fraction(math.log2(c / n)) for c in counts if c)


def test_weather_gains_against_fractions():
    from workbench.experiments.paper003 import weather

    table = weather.gain_table()
    # hand counts of Table 1: (No, Yes) per value
    hand = {
        "Outlook": [(0, 4), (3, 2), (2, 3)],
        "Temperature": [(1, 3), (2, 2), (2, 4)],
        "Humidity": [(4, 3), (1, 6)],
        "Windy": [(2, 6), (3, 3)],
    }
    h_root = _h(5, 9)
    for a, parts in hand.items():
        cond = sum(Fraction(sum(p), 14) * _h(*p) for p in parts)
        assert table.loc[a, "H(node)"] == pytest.approx(float(h_root), abs=1e-12)
        assert table.loc[a, "H(node | A)"] == pytest.approx(float(cond), abs=1e-12)
        assert table.loc[a, "G(node, A)"] == pytest.approx(float(h_root - cond), abs=1e-12)
    assert round(float(h_root), 2) == weather.PRINTED_H_ROOT
    # the printed Table 2 is right for Outlook only
    assert table["agrees (2 decimals)"].tolist() == [True, False, False, False]
    tree = weather.id3()
    assert tree["attribute"] == "Outlook"
    assert tree["children"]["Sunny"]["attribute"] == "Windy"
    assert tree["children"]["Rainy"]["attribute"] == "Humidity"
    assert weather.hoeffding_weather().n_leaves == 5


def test_without_an_initial_set_the_rule_can_stop_at_once():
    # two classes, Laplace: one label gives margin (2 - 1) / 3 = 1/3 >= alpha, so no more labels
    X, y = streams.sea(2_000, seed=1)
    fr = FrugalHoeffdingTree(3, 2, alpha=0.3, n_initial=0).fit(X, y)
    assert fr.labels_used_ == 1 and fr.n_queried_ == (2_000, 1)


def test_laplace_leaf_probabilities_eq_2():
    X, y = streams.sea(500, seed=1)
    model = HoeffdingTree(3, 2, leaf_prediction="laplace", grace_period=10_000).fit(X, y)
    n1 = int(y.sum())
    assert np.allclose(model.predict_proba(X[:1])[0], [(500 - n1 + 1) / 502, (n1 + 1) / 502])


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("alpha", [0, -0.1, 1.5, float("nan"), True, "0.3", None])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha"):
        active.Frugal(alpha)
    X, y = streams.sea(100, seed=1)
    with pytest.raises(ValueError, match="alpha"):
        FrugalHoeffdingTree(alpha=alpha).fit(X, y)


@pytest.mark.parametrize("n_initial", [-1, 2.5, True])
def test_bad_initial_set(n_initial):
    X, y = streams.sea(100, seed=1)
    with pytest.raises(ValueError, match="n_initial"):
        FrugalHoeffdingTree(n_initial=n_initial).fit(X, y)


def test_bad_minibatch_arguments():
    X, y = streams.sea(100, seed=1)
    m = HoeffdingTree(3, 2)
    with pytest.raises(ValueError, match="batch_size"):
        evaluate.minibatch(m, X, y, batch_size=0)
    with pytest.raises(ValueError, match="strategy"):
        evaluate.minibatch(m, X, y, strategy="frugal")
    with pytest.raises(ValueError, match="budget"):
        evaluate.minibatch(m, X, y, strategy=active.Frugal(0.3), budget=1.5)
    res = evaluate.minibatch(m, X, y, batch_size=30)
    with pytest.raises(ValueError, match="class"):
        res.per_batch(2)
