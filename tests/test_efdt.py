"""EFDT (004's Hoeffding Anytime Tree): MOA's bookkeeping, re-evaluation clock and rules, the
explanations, bad input, and (with the bench extra) accuracy against MOA's own EFDT."""

import sys
from pathlib import Path

import numpy as np
import pytest

from _moa import moa_jar
from workbench import evaluate, learners, streams
from workbench.core import search
from workbench.core import state as st

ROOT = Path(__file__).resolve().parents[1]


def _two_concepts(n1, n2, seed=0):
    """y = [x0 > 0.5] for n1 rows, then y = [x1 > 0.5] (x uniform in the unit cube, d = 3)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n1 + n2, 3))
    y = np.where(np.arange(n1 + n2) < n1, X[:, 0] > 0.5, X[:, 1] > 0.5).astype(np.int64)
    return X, y


def test_efdt_splits_earlier_than_the_hoeffding_tree():
    # best vs null: on y = [x0 > 0.5] the first test (200 rows) already splits; VFDT needs the
    # second best to fall behind by epsilon, and here x1 is a copy of x0: with tau = 0 it waits
    X, y = _two_concepts(3000, 0)
    X[:, 1] = X[:, 0]
    efdt = learners.EFDT(3, 2, tau=0.0).partial_fit(X[:200], y[:200])
    ht = learners.HoeffdingTree(3, 2, tau=0.0).partial_fit(X[:200], y[:200])
    # (x0 and x1 tie exactly; MOA breaks the tie towards the later attribute)
    assert efdt.n_leaves == 2 and efdt.tree.feature[efdt.root] == 1
    assert ht.n_leaves == 1


def test_reevaluation_replaces_the_root_on_the_tree_clock():
    # MOA's merit sums remember the first concept: x1 overtakes x0 only after ~80k rows
    X, y = _two_concepts(10_000, 110_000)
    model = learners.EFDT(3, 2, min_samples_reevaluate=2000).partial_fit(X, y)
    T = model.tree
    root = model.root
    assert T.feature[root] == 1, "the root should now test x1, the second concept's attribute"
    # MOA's clock: the replacement happened at an instance whose predecessor count is a
    # multiple of the period
    assert T.t_split[root] > 10_000 and (T.t_split[root] - 1) % 2000 == 0
    ht = learners.HoeffdingTree(3, 2).partial_fit(X, y)
    assert ht.tree.feature[ht.root] == 0, "VFDT never revisits its root"


def test_attempt_count_restarts_when_a_node_changes():
    # every instance passes the root, so under the tree clock the root is re-evaluated at each
    # t with (t - 1) % P == 0 after its last change at t_split; merit_n counts exactly those
    P = 500
    X, y = _two_concepts(4000, 6000, seed=3)
    model = learners.EFDT(3, 2, min_samples_reevaluate=P).partial_fit(X, y)
    T = model.tree
    t_now, t_split = int(T.meta[st.M_T]), int(T.t_split[model.root])
    expected = sum(1 for t in range(t_split + 1, t_now + 1) if (t - 1) % P == 0)
    assert T.merit_n[T.stats_slot[model.root]] == expected


def test_node_clock_reevaluates_by_the_nodes_own_weight():
    X, y = _two_concepts(10_000, 40_000)
    model = learners.EFDT(3, 2, reeval_clock="node", merits="current").partial_fit(X, y)
    assert model.tree.feature[model.root] == 1


def test_merit_estimates_change_the_model_and_explanations_do_not():
    X, y = streams.sea(n=30_000, seed=2)
    moa = learners.EFDT(3, 2)
    cur = learners.EFDT(3, 2, merits="current")
    acc = [evaluate.prequential(m, X, y).accuracy for m in (moa, cur)]
    assert 0.8 < min(acc)
    T = moa.tree
    before = (T.merit_sum.copy(), T.merit_n.copy(), T.kind.copy())
    text = str(moa.explain_one(X[5]))
    after = (T.merit_sum, T.merit_n, T.kind)
    for a, b in zip(before, after):
        np.testing.assert_array_equal(a, b)
    assert "re-evaluation: current split" in text and "mean G" in text
    assert "next re-evaluation at the tree's instance" in text


def test_reevaluation_explanation_agrees_with_the_kernel():
    # the explanation's verdict is the one the kernel's rule gives for the same numbers
    X, y = _two_concepts(10_000, 14_000)
    model = learners.EFDT(3, 2).partial_fit(X, y)
    r = model.explain_one(X[0]).path[0]["reeval"]
    assert r is not None and r["current"] == "x0"
    q, thr = r["quantity"], r["threshold"]
    assert np.isclose(q, r["g_best"] - r["g_current"])
    assert (r["outcome"] == "kept") == (not q > thr and not (r["epsilon"] < 0.05 and q > 0.025))


def test_last_best_breaks_ties_towards_the_later_feature():
    assert search.last_best(np.array([0.1, 0.3, 0.3, -np.inf])) == 2
    assert search.last_best(np.array([-np.inf, -np.inf])) == 1
    assert search.last_best(np.empty(0)) == -1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(min_samples_reevaluate=0), "min_samples_reevaluate"),
        (dict(min_samples_reevaluate=2.5), "min_samples_reevaluate"),
        (dict(merits="mean"), "merits"),
        (dict(reeval_clock="wall"), "reeval_clock"),
        (dict(bound="mcdiarmid"), "Hoeffding bound"),
    ],
)
def test_bad_parameters_are_named(kwargs, message):
    X, y = streams.sea(n=100, seed=1)
    with pytest.raises(ValueError, match=message):
        learners.EFDT(**kwargs).fit(X, y)


def test_nominal_and_multiclass_streams():
    X, y, info = streams.random_tree(
        20_000, seed=4, n_classes=4, n_nominal=5, n_numeric=0, n_values=5, return_info=True
    )
    model = learners.EFDT(nominal_features=info.nominal_features)
    res = evaluate.prequential(model, X, y)
    assert res.accuracy > 0.3 and model.n_leaves > 1
    # a nominal attribute is never tested twice on a path (multiway: its value is fixed below)
    T = model.tree
    for node in np.flatnonzero(T.kind == st.NOMINAL_MULTI):
        u = T.parent[node]
        while u >= 0:
            assert not (T.kind[u] == st.NOMINAL_MULTI and T.feature[u] == T.feature[node])
            u = T.parent[u]


@pytest.mark.slow
@pytest.mark.skipif(moa_jar() is None, reason="needs CapyMOA's moa.jar and java (the bench extra)")
@pytest.mark.parametrize("stream", ["sea", "electricity"])
def test_accuracy_within_one_point_of_moa_efdt(stream, tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import _common as C

    if stream == "sea":
        X, y, info = streams.sea(20_000, seed=1, return_info=True)
    else:
        X, y, info = streams.electricity(return_info=True)
    arff = tmp_path / f"{stream}.arff"
    C.write_arff(arff, X, y, info)
    cli = C.moa_hoeffding_cli(learner="trees.EFDT -R 2000")
    moa = C.moa_cli_prequential(arff, cli, len(y), moa_jar(), stream)
    ours = evaluate.prequential(
        learners.EFDT(nominal_features=info.nominal_features or ()), X, y
    ).accuracy
    assert abs(ours - moa["accuracy"]) < 0.01, (ours, moa["accuracy"])


def test_the_stepper_reports_replaced_splits_as_they_happen():
    from workbench import viz

    X, y = _two_concepts(10_000, 110_000)
    s = viz.TreeStepper(lambda **p: learners.EFDT(3, 2, **p), X, y, k=2000)
    for _ in range(60):
        s.step(2000)
    roots = [e for e in s.edits if e["node"] == s.model.root]
    assert roots and roots[-1]["edit"] == "replaced" and roots[-1]["old"] == "x0"
    assert roots[-1]["t"] == s.model.tree.t_split[s.model.root]
    assert "replaced" in s.instance_html()
    # nothing inside a discarded subtree is reported on its own
    assert len({e["node"] for e in s.edits}) == len(s.edits)
    ht = viz.TreeStepper(lambda **p: learners.HoeffdingTree(3, 2, **p), X, y, k=2000)
    for _ in range(60):
        ht.step(2000)
    assert ht.edits == []


def test_a_path_learner_learns_along_the_learning_route_when_the_prediction_forks():
    """A path-update learner (EFDT) learns along the route its prediction walked, except where that
    walk passed a known code's own, still empty branch (``forked``): learning goes down that
    branch, and the path is walked again.  With majority-class leaves the predictions do not
    steer learning, so learning every row (no prediction: one walk, by learning's rule) and
    test-then-train (a prediction walk first) must leave the same tree, array for array.  A
    nominal stream of many codes and a short grace period makes such forks common."""
    rng = np.random.default_rng(3)
    n = 6000
    X = rng.integers(0, 8, (n, 4)).astype(float)
    X[:, 3] = rng.normal(size=n)
    # rare codes: their branches are made empty at a split, and a row with one comes when the
    # branch the prediction takes instead has split further
    for j in range(3):
        X[rng.random(n) < 0.3, j] = 0.0
        X[(X[:, j] == 6) & (rng.random(n) < 0.97), j] = 7.0
    y = ((X[:, 0] + X[:, 1] * (X[:, 2] > 3)) % 3 + (X[:, 3] > 1.0)).astype(int) % 3
    kw = dict(
        n_features=4,
        n_classes=3,
        grace_period=30,
        delta=0.05,
        leaf_prediction="mc",
        nominal_features={0: 8, 1: 8, 2: 8},
    )
    learned = learners.EFDT(**kw).partial_fit(X, y)
    tested = learners.EFDT(**kw)
    evaluate.prequential(tested, X, y)
    assert learned.n_leaves > 20
    for name in st.TreeState._fields:
        np.testing.assert_array_equal(
            getattr(learned.tree, name), getattr(tested.tree, name), err_msg=name
        )
