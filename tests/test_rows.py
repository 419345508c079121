"""The one-row protocol as River's users expect it (workbench.learners._rows): dict rows, an
unfitted model set up from its first row, classes as they come, None before any learning.

Every check against an independent run: a model fed dicts one by one grows, bit for bit, the
tree that the array path (evaluate.prequential, on a model given the same classes in the same
order up front) grows from the same rows.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from workbench import evaluate, learners, streams
from workbench.core import state as st
from workbench.learners import _rows


def _dicts(X, names):
    return [dict(zip(names, map(float, row))) for row in X]


def _staged_classes(n=3_000, seed=4):
    """A 3-class stream whose classes appear one after another (class 1 from row 300, class 2
    from row 900), as a River user's stream may."""
    X, y = streams.waveform(n=n, seed=seed)
    y = y.copy()
    y[:300] = 0
    y[300:900] = np.where(y[300:900] == 2, 1, y[300:900])
    return X, y


def _used(T, name):
    """The rows of one of the tree's arrays in use (its capacity is the room plan's, which
    depends on the classes the model was set up with, not on what it learned)."""
    arr = getattr(T, name)
    if name in st.NODE_FIELDS or name == "free_nodes":
        return arr[: T.meta[st.M_N_NODES]]
    if name in st.SLOT_FIELDS or name == "free_slots":
        return arr[: T.meta[st.M_N_SLOTS]]
    if name == "log":
        return arr[: T.meta[st.M_N_LOG]]
    return arr


def _same_tree(a, b) -> bool:
    """Two models' trees hold the same arrays in their used rows (shapes, types and values, NaN
    where NaN)."""
    ta, tb = a.tree, b.tree
    return all(
        x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y, equal_nan=True)
        for x, y in ((_used(ta, f), _used(tb, f)) for f in ta._fields)
    )


@pytest.mark.parametrize(
    "make",
    [
        learners.HoeffdingTree,
        learners.EFDT,
        lambda **kw: learners.HoeffdingTree(criterion="gini", **kw),
    ],
)
def test_dict_rows_and_classes_as_they_come_grow_the_array_paths_tree(make):
    X, y = _staged_classes()
    names = [f"w{j:02d}" for j in range(X.shape[1])]  # (sorted as the model sorts them)
    rows = _dicts(X, names)
    kw = dict(grace_period=50, delta=0.01)
    one = make(**kw)
    preds = []
    for x, label in zip(rows, y.tolist()):
        preds.append(one.predict_one(x))
        one.learn_one(x, label)
    # set up from the first row: features named by the keys, classes in the order first seen
    assert one.feature_names_ == names and one.n_features_in_ == X.shape[1]
    assert one.classes_.tolist() == [0, 1, 2] and one.n_classes_ == 3
    # the same rows as arrays, the classes given up front in the same order
    ref = make(**kw)
    res = evaluate.prequential(ref, X, y)
    assert preds[0] is None  # River's convention: nothing learned, no prediction
    assert [int(p) for p in preds[1:]] == res.predictions[1:].tolist()
    assert _same_tree(one, ref)
    assert one.n_leaves > 3


def test_labels_of_any_kind_numbered_in_the_order_first_seen():
    X, y = streams.sea(n=2_000, seed=3)
    names = ["a", "b", "c"]
    labels = np.where(y == 1, "up", "down")
    m = learners.HoeffdingTree(grace_period=100)
    for x, label in zip(_dicts(X, names), labels):
        m.learn_one(x, label)
    first = labels[0]
    assert m.classes_.tolist() == [first, "down" if first == "up" else "up"]
    # the same tree as the array path with the classes coded in that order
    codes = (labels != first).astype(np.int64)
    ref = learners.HoeffdingTree(grace_period=100, n_classes=2).fit(X, codes)
    assert _same_tree(m, ref)
    # predictions are the labels; arrays in, in the classes' own (unsorted) order
    assert m.predict_one(dict(zip(names, X[5]))) == m.classes_[ref.predict(X[5:6])[0]]
    assert np.array_equal(m.predict(X[:50]), np.asarray(m.classes_)[ref.predict(X[:50])])
    # partial_fit codes the string labels against classes_ that are not sorted
    m.partial_fit(X[:200], labels[:200])
    ref.partial_fit(X[:200], codes[:200])
    assert _same_tree(m, ref)


def test_before_any_learning_the_one_row_methods_return_none():
    m = learners.HoeffdingTree()
    assert m.predict_one({"a": 1.0}) is None and m.predict_proba_one({"a": 1.0}) is None
    assert learners.HoeffdingTree(3, 2).predict_one([0.0, 0.0, 0.0]) is None
    # a set-up model predicts with its tree, an empty one included (prequential's first row)
    p = learners.HoeffdingTree(3, 2).prepare(np.zeros((1, 3)))
    assert p.predict_one([0.0, 0.0, 0.0]) == 0
    assert (
        p.predict_proba_one([0.0, 0.0, 0.0]).tolist()
        == p.predict_proba(np.zeros((1, 3)))[0].tolist()
    )


def test_one_class_so_far_predicts_it():
    m = learners.HoeffdingTree(grace_period=10)
    for i in range(50):
        m.learn_one({"x": float(i)}, "only")
    assert m.classes_.tolist() == ["only"] and m.tree.class_counts.shape[1] == 1
    assert m.predict_one({"x": 3.0}) == "only"
    assert m.predict_proba_one({"x": 3.0}).tolist() == [1.0]
    assert m.n_leaves == 1  # a pure leaf never tries to split
    m.learn_one({"x": 100.0}, "other")
    assert m.classes_.tolist() == ["only", "other"] and m.tree.class_counts.shape[1] == 2
    assert m.tree.class_counts[m.root].tolist() == [50.0, 1.0]


def test_grow_classes_adds_empty_columns_and_keeps_the_rest():
    X, y = streams.led(n=2_000, seed=2)
    m = learners.HoeffdingTree(grace_period=50).fit(X, y)
    T = m.tree
    G = st.grow_classes(T, 2)
    for name in st.CLASS_FIELDS:
        old, new = getattr(T, name), getattr(G, name)
        assert new.shape == old.shape[:-1] + (old.shape[-1] + 2,)
        assert np.array_equal(new[..., :-2], old, equal_nan=True)
    assert (G.class_counts[:, -2:] == 0).all() and (G.g_min[..., -2:] == np.inf).all()
    assert (G.g_max[..., -2:] == -np.inf).all() and (G.nom[..., -2:] == 0).all()
    others = [f for f in T._fields if f not in st.CLASS_FIELDS]
    assert all(getattr(G, f) is getattr(T, f) for f in others)
    assert set(st.CLASS_FIELDS) == {
        f for f in T._fields if getattr(T, f).ndim >= 2 and getattr(T, f).shape[-1] == 10
    } - {"children"}


def test_fixed_classes_where_the_model_was_given_them():
    m = learners.HoeffdingTree(n_classes=2)
    m.learn_one({"a": 1.0}, 1)
    assert m.classes_.tolist() == [0, 1]
    with pytest.raises(ValueError, match="not one of the classes"):
        m.learn_one({"a": 1.0}, 2)
    f = learners.HoeffdingTree().fit(np.zeros((4, 1)) + np.arange(4)[:, None], [0, 1, 0, 1])
    with pytest.raises(ValueError, match="given up front"):
        f.learn_one([1.0], 7)


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda: learners.UFFT(), "one tree per pair of classes"),
        (lambda: learners.BOCT(), "two classes"),
    ],
)
def test_learners_with_fixed_classes_ask_for_them_up_front(make, why):
    with pytest.raises(ValueError, match=f"needs its classes up front.*{why}"):
        make().learn_one({"a": 1.0, "b": 2.0}, 0)


def test_ufft_and_frugal_learn_dict_rows_given_their_classes():
    X, y = streams.sea(n=1_500, seed=5)
    rows = _dicts(X, ["a", "b", "c"])
    for make in (
        lambda: learners.UFFT(n_classes=2),
        lambda: learners.FrugalHoeffdingTree(alpha=0.2, n_initial=100),
    ):
        one, ref = make(), make()
        preds = []
        for x, label in zip(rows, y.tolist()):
            preds.append(one.predict_one(x))
            one.learn_one(x, label)
        # (the Frugal tree takes its classes as they come: SEA's first label is 1, so its codes
        # are y's the other way round)
        codes = y if isinstance(one, learners.UFFT) else (y != y[0]).astype(np.int64)
        res = evaluate.prequential(ref.prepare(X, classes=[0, 1]), X, codes)
        assert one.classes_.tolist() == ([0, 1] if codes is y else [1, 0])
        assert preds[1:] == one.classes_[res.predictions[1:]].tolist()
        if isinstance(one, learners.FrugalHoeffdingTree):
            # the Frugal tree learns the rows its rule asks for: the same ones, and not all
            assert one.labels_used_ == ref.labels_used_ < 1_400
        assert _same_tree(one, ref)


def test_a_grown_model_pickles_and_keeps_growing():
    m = learners.HoeffdingTree(grace_period=20)
    for i in range(60):
        m.learn_one({"x": float(i % 7)}, i % 2)
    back = pickle.loads(pickle.dumps(m))
    assert back.classes_.tolist() == [0, 1] and _rows.grows_classes(back)
    back.learn_one({"x": 1.0}, 5)
    assert back.classes_.tolist() == [0, 1, 5] and back.predict_one({"x": 1.0}) in (0, 1, 5)
    # fit makes the classes fixed again
    back.fit(np.arange(10.0)[:, None], np.arange(10) % 2)
    assert not _rows.grows_classes(back)


def test_two_class_learners_refuse_a_third_class_when_it_comes():
    m = learners.CTree(n_classes=None)  # 000's trees are defined for two classes
    m.learn_one({"x": 0.0}, "a")
    m.learn_one({"x": 1.0}, "b")
    with pytest.raises(ValueError, match="defined for two classes"):
        m.learn_one({"x": 2.0}, "c")
    assert m.classes_.tolist() == ["a", "b"] and m.tree.class_counts.shape[1] == 2
    k = learners.HoeffdingTree(criterion="kearns_mansour")
    k.learn_one({"x": 0.0}, "a")
    k.learn_one({"x": 1.0}, "b")
    with pytest.raises(ValueError, match="two classes only"):
        k.learn_one({"x": 2.0}, "c")


def test_bad_rows_get_clear_errors():
    m = learners.HoeffdingTree()
    m.learn_one({"a": 1.0, "b": 2.0}, 0)
    with pytest.raises(ValueError, match=r"feature\(s\) \['z'\] that the model does not know"):
        m.learn_one({"a": 1.0, "z": 2.0}, 0)
    with pytest.raises(ValueError, match="'b' of x is 'red', a string"):
        m.learn_one({"a": 1.0, "b": "red"}, 0)
    with pytest.raises(ValueError, match="'a' of x is infinite"):
        m.predict_one({"a": float("inf"), "b": 0.0})
    with pytest.raises(ValueError, match="not a number"):
        m.learn_one({"a": [1, 2], "b": 0.0}, 0)
    with pytest.raises(ValueError, match="needs a class label"):
        m.learn_one({"a": 1.0, "b": 2.0}, None)
    with pytest.raises(ValueError, match="needs a class label"):
        learners.HoeffdingTree().learn_one({"a": 1.0}, float("nan"))
    with pytest.raises(ValueError, match="empty dict"):
        learners.HoeffdingTree().learn_one({}, 0)
    with pytest.raises(ValueError, match="class_names"):
        learners.HoeffdingTree(class_names=["x", "y"]).learn_one({"a": 1.0}, 0)
    # a left-out feature and None are missing values, as NaN is
    m.learn_one({"a": 1.0}, 1)
    m.learn_one({"a": None, "b": 3.0}, 1)
    assert m.n_seen == 3 and m.classes_.tolist() == [0, 1]
    n = learners.HoeffdingTree(nominal_features={1: 3})
    n.learn_one({"a": 1.0, "c": 2.0}, 0)
    with pytest.raises(ValueError, match="outside its declared codes"):
        n.learn_one({"a": 1.0, "c": 3.0}, 0)


def test_a_model_fitted_on_a_dataframe_codes_categories_of_dict_rows():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0], "colour": ["red", "blue", "red", "green"]})
    m = learners.HoeffdingTree().fit(df, [0, 1, 0, 1])
    m.learn_one({"size": 2.5, "colour": "green"}, 1)
    assert m.tree.nom[..., :].sum() == 5.0  # the row's code was counted
    with pytest.raises(ValueError, match="not one of the categories"):
        m.learn_one({"size": 2.5, "colour": "violet"}, 1)


def test_the_direct_entry_point_is_used_and_agrees_with_the_dispatcher():
    """The one-row path calls the kernel's entry point (no type resolution per row); rows
    learned that way and through the ordinary call make the same tree."""
    X, y = streams.electricity()
    X, y = X[:3_000], y[:3_000]
    fast = learners.HoeffdingTree(grace_period=50, n_classes=2)
    for xi, yi in zip(X, y):
        fast.predict_one(xi)
        fast.learn_one(xi, yi)
    direct = _rows._CACHE[fast].direct
    assert direct.learn_ep not in (None, False) and direct.predict_ep not in (None, False)
    slow = learners.HoeffdingTree(grace_period=50, n_classes=2).prepare(X)
    for i in range(X.shape[0]):
        slow._learn_checked(X[i : i + 1], y[i : i + 1])
    assert _same_tree(fast, slow)
    # and the one-row predictions are the array path's
    assert [fast.predict_one(x) for x in X[:200]] == fast.predict(X[:200]).tolist()
