"""HoeffdingTree and evaluation: behaviour, API contract, bad input, determinism, pickling."""

import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.exceptions import NotFittedError

from workbench import evaluate, streams
from workbench.core import state as tree_state
from workbench.core.params import P_MAX_NODES
from workbench.learners import CTree, HoeffdingTree


@pytest.fixture(scope="module")
def sea():
    return streams.sea(n=30_000, seed=3)


@pytest.fixture(scope="module")
def trained(sea):
    X, y = sea
    model = HoeffdingTree(n_features=3, n_classes=2)
    model.partial_fit(X, y)
    return model


def _state_bytes(model):
    return pickle.dumps(model.tree)


# ----------------------------------------------------------------------------- learning
def test_learns_sea(sea):
    X, y = sea
    model = HoeffdingTree(n_features=3, n_classes=2)
    res = evaluate.prequential(model, X, y)
    # 10% label noise caps accuracy at 90%; a tree of a few dozen leaves gets close
    assert 0.84 < res.accuracy < 0.90
    assert model.n_leaves > 5 and model.depth >= 3
    assert res.n_leaves[-1] == model.n_leaves
    assert np.all(np.diff(res.n_leaves) >= 0)  # VFDT never prunes
    assert res.curve[-1] == pytest.approx(res.accuracy, abs=1e-3)


def test_prequential_equals_predict_then_learn_one_by_one():
    X, y = streams.sea(n=3_000, seed=11)
    fast = HoeffdingTree(3, 2, grace_period=50)
    res = evaluate.prequential(fast, X, y)
    slow = HoeffdingTree(3, 2, grace_period=50).prepare(X)  # an empty tree predicts too
    preds = []
    for xi, yi in zip(X, y):
        preds.append(slow.predict_one(xi))
        slow.learn_one(xi, yi)
    assert np.array_equal(res.predictions, preds)
    assert _state_bytes(fast) == _state_bytes(slow)


@given(
    n=st.integers(1, 400),
    K=st.integers(2, 5),
    every=st.integers(1, 60),
    window=st.integers(1, 500),
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=60, deadline=None)
def test_prequential_summary_equals_a_numpy_count(n, K, every, window, seed):
    """The compiled pass behind prequential's accuracy, confusion matrix and curves
    (evaluate.prequential._tally) against the same quantities counted with NumPy."""
    from workbench.evaluate.prequential import _tally

    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    pred = np.where(rng.random(n) < 0.7, y, rng.integers(0, K, n))
    right, cm, t, curve, window_curve = _tally(y, pred, K, every, window)
    correct = pred == y
    cum = np.concatenate(([0], np.cumsum(correct)))
    t_ref = np.arange(every, n + 1, every)
    lo = np.maximum(t_ref - window, 0)
    assert right == np.count_nonzero(correct)
    assert np.array_equal(cm, np.array([[np.sum((y == a) & (pred == b)) for b in range(K)]
                                        for a in range(K)]))  # fmt: skip
    assert np.array_equal(t, t_ref)
    assert np.array_equal(curve, cum[t_ref] / t_ref)
    assert np.array_equal(window_curve, (cum[t_ref] - cum[lo]) / (t_ref - lo))


def test_partial_fit_in_chunks_equals_one_call(sea):
    X, y = sea
    a = HoeffdingTree(3, 2).partial_fit(X, y)
    b = HoeffdingTree(3, 2)
    for lo in range(0, len(y), 7_000):
        b.partial_fit(X[lo : lo + 7_000], y[lo : lo + 7_000])
    assert _state_bytes(a) == _state_bytes(b)


def test_split_happens_exactly_when_the_bound_allows():
    """Replay the VFDT rule by hand at the root: the first test where
    G(best) - G(second) > eps or eps < tau is the one that splits."""
    X, y = streams.sea(n=5_000, seed=5, noise=0.0)
    model = HoeffdingTree(3, 2, grace_period=100)
    shadow = HoeffdingTree(3, 2, grace_period=10**9)  # same statistics, never splits
    for hi in range(100, 5_001, 100):
        model.partial_fit(X[hi - 100 : hi], y[hi - 100 : hi])
        shadow.partial_fit(X[hi - 100 : hi], y[hi - 100 : hi])
        ex = shadow.explain_one(X[0])
        margin = ex.best["merit"] - ex.second["merit"]
        eps = math.sqrt(math.log(1 / 1e-7) / (2 * hi))
        assert ex.epsilon == pytest.approx(eps)
        assert (model.n_leaves > 1) == (margin > eps or eps < 0.05)
        if model.n_leaves > 1:
            break
    assert model.n_leaves > 1
    root = model.root
    assert model.tree.feature[root] in (0, 1)  # SEA's label depends on f1 + f2 only


def test_nominal_multiway_split_and_unseen_code():
    rng = np.random.default_rng(0)
    n = 4_000
    colour = rng.integers(0, 3, n)  # code 3 is declared but never seen
    noise = rng.normal(size=n)
    y = (colour == 1).astype(np.int64)
    X = np.column_stack([colour.astype(float), noise])
    model = HoeffdingTree(2, 2, nominal_features={0: 4}, grace_period=100)
    model.partial_fit(X, y)
    T = model.tree
    assert T.kind[model.root] == 2 and T.feature[model.root] == 0
    assert T.n_children[model.root] == 4
    assert model.predict(np.array([[1.0, 0.0], [0.0, 0.0]])).tolist() == [1, 0]
    # unseen code 3, an out-of-range code and NaN follow the majority branch
    weights = [T.class_counts[c].sum() for c in T.children[model.root]]
    major = int(np.argmax(weights))
    expect = model.predict_proba(np.array([[float(major), 0.0]]))[0]
    for code in (3.0, 17.0, 1.5, np.nan):
        got = model.predict_proba(np.array([[code, 0.0]]))[0]
        assert got == pytest.approx(expect)


def test_missing_values_follow_the_majority_branch():
    rng = np.random.default_rng(1)
    X = rng.uniform(0, 1, (6_000, 2))
    y = (X[:, 0] > 0.3).astype(np.int64)  # 70% of the weight goes right
    X[rng.random(6_000) < 0.05, 0] = np.nan  # 5% missing while learning
    model = HoeffdingTree(2, 2, grace_period=100).partial_fit(X, y)
    T = model.tree
    root = model.root
    assert T.kind[root] == 1 and T.feature[root] == 0
    left, right = T.children[root, :2]
    heavier = left if T.class_counts[left].sum() > T.class_counts[right].sum() else right
    leaf = model.apply(np.array([[np.nan, 0.5]]))[0]
    node = leaf
    while T.parent[node] != root:
        node = T.parent[node]
    assert node == heavier


def test_memory_and_depth_guards(sea):
    X, y = sea
    free = HoeffdingTree(3, 2).partial_fit(X, y)
    shallow = HoeffdingTree(3, 2, max_depth=2).partial_fit(X, y)
    assert free.depth > 2 and shallow.depth == 2  # the guard bites, and at exactly 2

    limit = 0.008 * 2**20  # bytes
    tiny = HoeffdingTree(3, 2, memory_limit_mb=0.008).partial_fit(X, y)
    T = tiny.tree
    per_node, per_slot = tree_state.bytes_per_node(T), tree_state.bytes_per_slot(T)
    max_nodes = limit // (per_node + per_slot)  # a node and the statistics slot it may hold
    assert free.n_nodes > max_nodes  # without the guard the tree outgrows it
    slots = int(T.meta[tree_state.M_N_SLOTS] - T.meta[tree_state.M_FREE_SLOTS])
    assert slots == tiny.n_active_leaves  # only learning leaves keep statistics
    # the arrays the tree holds (not only the rows in use) stay within the limit, and the tree
    # is refused only a split that would leave fewer than one split's rows (and one) free
    assert tiny.memory_bytes() <= limit
    guard = tiny._config.params[P_MAX_NODES]  # SEA's splits are binary: 2 branches + 1 free
    assert guard == min(T.kind.shape[0] - 3, T.g_w.shape[0] - 1)
    assert tiny.n_nodes <= guard < tiny.n_nodes + 2
    s = tiny.summary()
    assert s["guard_refusals"] > 0 and s["n_splits"] == (tiny.n_nodes - 1) // 2
    assert tiny.n_active_leaves < tiny.n_leaves  # refused leaves stop learning


def test_gini_criterion_learns(sea):
    X, y = sea
    res = evaluate.prequential(HoeffdingTree(3, 2, criterion="gini"), X, y)
    assert res.accuracy > 0.84


def test_many_classes_waveform():
    X, y = streams.waveform(n=20_000, seed=2)
    model = HoeffdingTree(21, 3)
    res = evaluate.prequential(model, X, y)
    assert res.accuracy > 0.75  # Bayes rate is about 86%
    assert res.confusion.sum() == 20_000


# ----------------------------------------------------------------------------- API contract
def test_explain_one(trained, sea):
    X, _ = sea
    ex = trained.explain_one(X[10])
    assert len(ex.path) == trained.tree.depth[ex.leaf]
    assert ex.path[0]["node"] == trained.root
    assert ex.prediction == trained.predict_one(X[10])
    assert ex.proba == pytest.approx(trained.predict_proba(X[10:11])[0])
    assert ex.reason and ex.reason.endswith(".")
    assert "leaf" in str(ex)
    if ex.best is not None and ex.second is not None:
        assert ex.best["merit"] >= ex.second["merit"]
        assert ex.epsilon == pytest.approx(math.sqrt(math.log(1e7) / (2 * ex.n)))
    # a dict instance works too
    assert trained.predict_one({"x0": X[10, 0], "x1": X[10, 1], "x2": X[10, 2]}) == ex.prediction


def test_explain_says_why_a_gain_is_negative_and_names_the_bound():
    X, y, info = streams.electricity(return_info=True)
    model = HoeffdingTree(X.shape[1], 2, nominal_features=info.nominal_features)
    model.partial_fit(X, y).partial_fit(X, y)  # a second pass: many young leaves
    T = model.tree
    seen_negative = seen_positive = False
    for i in range(0, X.shape[0], 97):
        ex = model.explain_one(X[i])
        assert "at split)" in str(ex).splitlines()[0]  # inner counts are frozen at the split
        assert f"epsilon (Hoeffding) = {ex.epsilon:.5f}" in str(ex)
        if ex.best is None:
            continue
        note = "gains below 0" in str(ex)
        assert note == (ex.best["merit"] < 0)
        if ex.best["merit"] < 0:
            seen_negative = True
            # the leaf's counts hold more weight than its observers saw: the inherited estimate
            s = T.stats_slot[ex.leaf]
            assert T.class_counts[ex.leaf].sum() > T.g_w[s, ex.best["feature"]].sum() + 1.0
        else:
            seen_positive = True
    assert seen_negative and seen_positive
    ctree = CTree(X.shape[1], 2, c=0.05).partial_fit(X, y)
    ex = ctree.explain_one(X[0])
    assert "epsilon (C-Tree eq. (10)) = " in str(ex)
    assert ex.threshold_label == "2 x C-Tree eq. (10) epsilon"


def test_explain_sentence_on_a_pure_leaf():
    X = np.random.default_rng(0).normal(size=(50, 2))
    model = HoeffdingTree(2, 2).partial_fit(X, np.zeros(50, np.int64))
    assert "same class" in model.explain_one(X[0]).reason


def test_to_dot(trained):
    dot = trained.to_dot()
    assert dot.startswith("digraph")
    assert dot.count("->") == trained.n_nodes - 1
    assert dot.count("leaf ") == trained.n_leaves


def test_pickle_round_trip(trained, sea):
    X, y = sea
    clone = pickle.loads(pickle.dumps(trained))
    assert np.array_equal(clone.predict_proba(X[:2000]), trained.predict_proba(X[:2000]))
    # and it keeps learning identically
    more_X, more_y = streams.sea(n=5_000, seed=99)
    a = pickle.loads(pickle.dumps(trained)).partial_fit(more_X, more_y)
    b = pickle.loads(pickle.dumps(trained)).partial_fit(more_X, more_y)
    assert _state_bytes(a) == _state_bytes(b)


def test_same_seed_same_model_bit_for_bit():
    runs = []
    for _ in range(2):
        X, y = streams.random_tree(n=20_000, seed=4)
        _, _, info = streams.random_tree(n=10, seed=4, return_info=True)
        model = HoeffdingTree(X.shape[1], 2, nominal_features=info.nominal_features)
        res = evaluate.prequential(model, X, y)
        runs.append((_state_bytes(model), res.predictions.tobytes()))
    assert runs[0] == runs[1]


def test_clone_and_params():
    m = HoeffdingTree(3, 2, delta=1e-5, grace_period=50)
    c = m.clone(tau=0.1)
    assert c.delta == 1e-5 and c.grace_period == 50 and c.tau == 0.1 and c.n_seen == 0


# ----------------------------------------------------------------------------- properties
_finite = st.floats(-1e6, 1e6, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(_finite, _finite, st.integers(0, 2)), min_size=1, max_size=300),
    st.sampled_from(["mc", "nb", "nba"]),
    st.lists(
        st.tuples(st.one_of(_finite, st.just(float("nan"))), _finite), min_size=1, max_size=20
    ),
)
def test_probabilities_are_a_distribution_and_prediction_is_pure(rows, leaf, queries):
    X = np.array([[a, b] for a, b, _ in rows])
    y = np.array([c for _, _, c in rows])
    model = HoeffdingTree(2, 3, grace_period=20, leaf_prediction=leaf).partial_fit(X, y)
    before = _state_bytes(model)
    Q = np.array(queries, dtype=float)
    P = model.predict_proba(Q)
    assert np.all(P >= 0) and np.allclose(P.sum(axis=1), 1.0)
    assert np.array_equal(model.predict(Q), P.argmax(axis=1))
    model.explain_one(Q[0])
    model.to_dot()
    assert _state_bytes(model) == before


# ----------------------------------------------------------------------------- bad input
@pytest.fixture
def fresh():
    return HoeffdingTree(n_features=3, n_classes=2, nominal_features={2: 3})


def test_nan_is_a_missing_value(fresh):
    X = np.array([[np.nan, 1.0, 0.0], [0.5, np.nan, np.nan]])
    fresh.partial_fit(X, [0, 1])
    assert fresh.n_seen == 2
    assert np.isfinite(fresh.predict_proba(X)).all()


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.array([[np.inf, 1.0, 0.0]]), [0], "infinity"),
        (np.array([[1.0, -np.inf, 0.0]]), [0], "infinity"),
        (np.ones((2, 4)), [0, 1], "4 columns"),
        (np.ones((2, 2)), [0, 1], "2 columns"),
        (np.zeros((2, 3)), [0, 2], "outside range"),
        (np.zeros((2, 3)), [0, -1], "outside range"),
        (np.zeros((2, 3)), [0, 0.5], "integer class labels"),
        (np.zeros((2, 3)), [0], "1 labels"),
        (np.array([[0.0, 0.0, 3.0]]), [0], "nominal column 2"),
        (np.array([[0.0, 0.0, 1.5]]), [0], "nominal column 2"),
        (np.array([[0.0, 0.0, -1.0]]), [0], "nominal column 2"),
        (np.array([["a", "b", "c"]]), [0], "numeric"),
        (np.array([[1, 2, 3]], dtype=object) * np.nan, [0], None),
        (np.zeros((0, 3)), [], "empty"),
        ([[1.0, 2.0], [3.0]], [0, 1], "numeric"),
    ],
)
def test_bad_input_raises_value_error(fresh, X, y, message):
    if message is None:  # an all-NaN object array is numeric: it must be accepted
        fresh.partial_fit(X, y)
        return
    with pytest.raises(ValueError, match=message):
        fresh.partial_fit(X, y)
    assert fresh.n_seen == 0  # nothing half-learned


def test_bad_input_at_prediction(fresh):
    with pytest.raises(NotFittedError):
        fresh.predict(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="empty"):
        evaluate.prequential(fresh, np.zeros((0, 3)), np.zeros(0))
    fresh.partial_fit(np.zeros((1, 3)), [0])
    with pytest.raises(ValueError, match="infinity"):
        fresh.predict(np.array([[np.inf, 0, 0]]))
    with pytest.raises(ValueError, match="X has 5 features, but HoeffdingTree is expecting 3"):
        fresh.predict_proba(np.zeros((1, 5)))
    # an unseen nominal code at prediction time is not an error
    fresh.predict(np.array([[0.0, 0.0, 7.0]]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"delta": 0.0}, "delta"),
        ({"delta": 1.5}, "delta"),
        ({"grace_period": 0}, "grace_period"),
        ({"tau": -1}, "tau"),
        ({"criterion": "gain"}, "criterion"),
        ({"leaf_prediction": "knn"}, "leaf_prediction"),
        ({"n_classes": 1}, "n_classes"),
        ({"nominal_features": {5: 3}}, "column 5"),
        ({"nominal_features": {0: 0}}, "positive"),
        ({"n_split_points": 0}, "n_split_points"),
        ({"max_depth": -1}, "max_depth"),
    ],
)
def test_bad_parameters(kwargs, message):
    """scikit-learn's contract: the constructor stores its arguments as given, and fit checks
    them (so set_params and GridSearchCV are checked too)."""
    params = {"n_features": 3, "n_classes": 2, **kwargs}
    model = HoeffdingTree(**params)
    assert all(getattr(model, k) is v for k, v in params.items())
    with pytest.raises(ValueError, match=message):
        model.fit(np.zeros((4, 3)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match=message):
        HoeffdingTree(3, 2).set_params(**kwargs).partial_fit(np.zeros((2, 3)), [0, 1])


# ----------------------------------------------------------------------------- evaluation
def test_metrics_by_hand():
    cm = evaluate.confusion_matrix([0, 0, 1, 1, 1, 2], [0, 1, 1, 1, 0, 2], 3)
    assert cm.tolist() == [[1, 1, 0], [1, 2, 0], [0, 0, 1]]
    assert evaluate.precision(cm, 1) == pytest.approx(2 / 3)
    assert evaluate.recall(cm, 1) == pytest.approx(2 / 3)
    assert evaluate.f_measure(cm, 0) == pytest.approx(0.5)
    po, pe = 4 / 6, (2 * 2 + 3 * 3 + 1 * 1) / 36
    assert evaluate.kappa(cm) == pytest.approx((po - pe) / (1 - pe))


def test_minibatch_and_holdout(sea):
    X, y = sea
    mb = evaluate.minibatch(HoeffdingTree(3, 2), X, y, batch_size=1_000)
    assert mb.accuracy > 0.8 and len(mb.t) == 30
    # a batch is predicted before any of it is learned
    m = HoeffdingTree(3, 2)
    first = evaluate.minibatch(m, X[:1_000], y[:1_000], batch_size=1_000)
    assert np.all(first.predictions == 0)
    ho = evaluate.holdout(
        HoeffdingTree(3, 2), X[:20_000], y[:20_000], X[20_000:], y[20_000:], every=5_000
    )
    assert ho.t.tolist() == [5_000, 10_000, 15_000, 20_000]
    assert ho.final_accuracy > 0.8


def test_result_metrics(sea):
    X, y = sea
    res = evaluate.prequential(HoeffdingTree(3, 2), X, y)
    assert res.accuracy == pytest.approx((res.predictions == y).mean())
    tp = ((res.predictions == 1) & (y == 1)).sum()
    assert res.precision(1) == pytest.approx(tp / (res.predictions == 1).sum())
    assert res.recall(1) == pytest.approx(tp / (y == 1).sum())
    assert res.labels_used == len(y) and res.seconds > 0


def test_explain_with_tied_gains_and_no_tie_rule():
    """Two identical features give tied gains; with tau = 0 the sentence must still be made."""
    rng = np.random.default_rng(2)
    a = rng.uniform(size=3_000)
    X = np.column_stack([a, a])
    y = (a > 0.5).astype(np.int64) ^ (rng.random(3_000) < 0.3)
    model = HoeffdingTree(2, 2, tau=0.0, grace_period=10**9).partial_fit(X, y)
    ex = model.explain_one(X[0])
    assert ex.best["merit"] == ex.second["merit"]
    assert "same gain" in ex.reason and "tau = 0" in ex.reason
