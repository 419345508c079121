"""C-Tree, CorrH-Tree and RandCBT (paper 000): criteria, bounds in the split test, generator."""

import math

import numpy as np
import pytest
from scipy import stats

from workbench import bounds, evaluate, streams
from workbench.core import criteria
from workbench.core.params import CRIT_ENTROPY_HALF, CRIT_ERROR, CRIT_KM
from workbench.learners import CorrHTree, CTree, HoeffdingTree


# ----------------------------------------------------------------------------- criteria
def test_scaled_entropy_is_joint_minus_marginal():
    """000 Theorem 1's estimator H(Y, F) - H(F), with H_1/2 = half the entropy in nats, equals
    the weighted conditional impurity the engine computes."""
    post = np.array([[30.0, 10.0], [5.0, 55.0]])  # rows: branch F = 0, 1; cols: Y = 0, 1
    n = post.sum()
    joint = post.ravel() / n
    marg = post.sum(1) / n
    h_half = lambda p: -0.5 * np.sum(p[p > 0] * np.log(p[p > 0]))  # noqa: E731
    cond = h_half(joint) - h_half(marg)
    pre = post.sum(0)
    gain = criteria.merit(pre, post, 2, CRIT_ENTROPY_HALF, 0.0)
    assert gain == pytest.approx(h_half(pre / n) - cond, abs=1e-12)


def test_kearns_mansour_is_sum_of_square_roots():
    """sqrt(p1 q1) + sqrt(p0 q0) with p_k = P(Y=1, F=k), q_k = P(Y=0, F=k)."""
    post = np.array([[30.0, 10.0], [5.0, 55.0]])
    n = post.sum()
    est = sum(math.sqrt(post[k, 1] / n * post[k, 0] / n) for k in range(2))
    pre = post.sum(0)
    q_pre = math.sqrt(pre[0] * pre[1]) / n
    assert criteria.merit(pre, post, 2, CRIT_KM, 0.0) == pytest.approx(q_pre - est, abs=1e-12)


def test_error_criterion():
    post = np.array([[30.0, 10.0], [5.0, 55.0]])
    pre = post.sum(0)
    expect = 35 / 100 - (10 + 5) / 100
    assert criteria.merit(pre, post, 2, CRIT_ERROR, 0.0) == pytest.approx(expect)


# ----------------------------------------------------------------------------- split test
def _shadow(model_cls, X, y, **kw):
    """The learner and a twin that never splits, fed the same rows in steps of 100."""
    model = model_cls(X.shape[1], **kw)
    twin = model_cls(X.shape[1], **{**kw, "grace_period": 10**9})
    return model, twin


@pytest.mark.parametrize(
    "bound, kw",
    [
        ("ctree_practical", {"c": 0.01}),
        ("ctree", {"delta": 0.5, "criterion": "gini"}),
        ("ctree", {"delta": None, "criterion": "kearns_mansour"}),
        ("ctree", {"delta": 0.9, "criterion": "entropy"}),
    ],
)
def test_ctree_splits_exactly_when_margin_exceeds_twice_epsilon(bound, kw):
    X, y = streams.rand_cbt(n=20_000, n_leaves=4, seed=2, q=0.9)
    model = CTree(5, bound=bound, grace_period=100, **kw)
    twin = CTree(5, bound=bound, grace_period=10**9, **kw)
    crit = kw.get("criterion", "gini")
    seen_split = False
    for hi in range(100, 20_001, 100):
        model.partial_fit(X[hi - 100 : hi], y[hi - 100 : hi])
        twin.partial_fit(X[hi - 100 : hi], y[hi - 100 : hi])
        ex = twin.explain_one(X[0])
        if ex.best is None or ex.second is None:
            continue
        if bound == "ctree_practical":
            eps = bounds.ctree_practical(hi, 0, hi, 5, kw["c"])
        else:
            delta = kw["delta"] if kw["delta"] is not None else 1 / hi
            eps = bounds.ctree_epsilon(hi, delta, 0, hi, 5, bound=crit)
        assert ex.epsilon == pytest.approx(eps, rel=1e-12)
        margin = ex.best["merit"] - ex.second["merit"]
        assert (model.n_leaves > 1) == (margin > 2 * eps)
        if model.n_leaves > 1:
            seen_split = True
            break
    if bound == "ctree_practical":
        assert seen_split


def test_mcdiarmid_variant_is_one_node_as_the_paper_says():
    X, y = streams.rand_cbt(n=50_000, n_leaves=8, seed=3, q=0.9)
    mcd = CorrHTree(5, criterion="info_gain", bound="mcdiarmid", delta=0.5)
    evaluate.prequential(mcd, X, y)
    assert mcd.n_leaves == 1
    eps = mcd.explain_one(X[0]).epsilon
    assert eps == pytest.approx(bounds.mcdiarmid_entropy(50_000, 0.5, 2))
    assert eps > 10 * bounds.hoeffding(50_000, 0.5)  # far wider than Hoeffding
    hoe = CorrHTree(5, criterion="info_gain", delta=0.5)
    evaluate.prequential(hoe, X, y)
    assert hoe.n_leaves > 1


def test_ctree_binary_nominal_splits():
    rng = np.random.default_rng(0)
    n = 6_000
    colour = rng.integers(0, 4, n)
    y = (colour == 2).astype(np.int64)
    X = np.column_stack([colour.astype(float), rng.normal(size=n)])
    model = CTree(2, nominal_features={0: 4}, c=0.05).partial_fit(X, y)
    T = model.tree
    assert T.kind[model.root] == 3 and T.threshold[model.root] == 2.0
    assert model.predict(np.array([[2.0, 0.0], [1.0, 0.0], [3.0, 0.0]])).tolist() == [1, 0, 0]


def test_learners_reject_what_the_paper_does_not_define():
    X, y2, y3 = np.zeros((6, 3)), [0, 1] * 3, [0, 1, 2] * 2
    with pytest.raises(ValueError, match="two classes"):
        CTree(3, n_classes=3).fit(X, y3)
    with pytest.raises(ValueError, match="Only binary classification"):
        CTree(3, n_classes=None).fit(X, y3)
    with pytest.raises(ValueError, match="criterion"):
        CTree(3, criterion="info_gain").fit(X, y2)
    with pytest.raises(ValueError, match="bound"):
        CTree(3, bound="hoeffding").fit(X, y2)
    with pytest.raises(ValueError, match="two classes"):
        HoeffdingTree(3, 3, criterion="kearns_mansour").fit(X, y3)
    with pytest.raises(ValueError, match="c must be"):
        CTree(3, c=0).fit(X, y2)


def test_clone_keeps_the_policy():
    m = CTree(4, c=0.3, bound="ctree_practical")
    c = m.clone()
    assert type(c) is CTree and c.c == 0.3 and c.bound == "ctree_practical" and c.binary_nominal
    X, y = streams.sea(500, seed=1)
    X = np.column_stack([X, X[:, 0]])
    m.fit(X, y), c.fit(X, y)
    assert c._config.params.tolist() == m._config.params.tolist()


# ----------------------------------------------------------------------------- RandCBT
def test_rand_cbt_tree_and_labels():
    X, y, info = streams.rand_cbt(n=50_000, n_leaves=10, d=3, q=0.8, seed=4, return_info=True)
    tree = info.tree
    assert tree.n_leaves == 10
    leaf = tree.apply(X)
    assert tree.is_leaf[leaf].all()
    # equal examples per leaf, inside the leaf's box
    counts = np.bincount(leaf, minlength=tree.feature.shape[0])[tree.leaves]
    assert counts.tolist() == [5_000] * 10
    assert np.all(X >= tree.lower[leaf]) and np.all(X <= tree.upper[leaf])
    # left leaves label 1 with probability q, right leaves 1 - q (binomial tests)
    for u in tree.leaves:
        k = int(y[leaf == u].sum())
        p = stats.binomtest(k, 5_000, tree.p1[u]).pvalue
        assert p > 1e-4
    assert set(np.round(tree.p1[tree.leaves], 12)) <= {0.8, 0.2}
    assert tree.bayes_error() == pytest.approx(0.2)
    assert "digraph" in tree.to_dot()


def test_rand_cbt_reproducible_and_validated():
    a = streams.rand_cbt(n=1_000, seed=9)
    b = streams.rand_cbt(n=1_000, seed=9)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    with pytest.raises(ValueError, match="n_leaves"):
        streams.rand_cbt(n=10, n_leaves=50)
    with pytest.raises(ValueError, match="q"):
        streams.rand_cbt(n=100, q=1.5)
