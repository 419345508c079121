"""The Hoeffding tree and EFDT compute what MOA's ``trees.HoeffdingTree`` and ``trees.EFDT``
compute, to the instance: one small stream per detail of MOA that moves results, each computed
here by hand from MOA's source (moa/classifiers/trees/*.java, core/attributeclassobservers,
bayes/NaiveBayes.java, splitcriteria/InfoGainSplitCriterion.java), and, with the bench extra,
the predictions of MOA itself on whole streams."""

import math
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from _moa import moa_jar
from workbench import evaluate, learners, streams
from workbench.core import criteria, engine, observers
from workbench.core import reevaluate as rv
from workbench.core import search
from workbench.core import state as st

ROOT = Path(__file__).resolve().parents[1]
LN2 = math.log(2.0)
NEVER = 10_000  # a grace period no test stream reaches: the leaf only predicts


def moa_entropy(dist):
    """MOA's InfoGainSplitCriterion.computeEntropy, in its order of operations."""
    h, s = 0.0, 0.0
    for d in dist:
        if d > 0:
            h -= d * (math.log(d) / LN2)
            s += d
    return (h + s * (math.log(s) / LN2)) / s if s > 0 else 0.0


def moa_merit(pre, posts, frac=0.01):
    """MOA's InfoGainSplitCriterion.getMeritOfSplit."""
    weights = [sum(p) for p in posts]
    total = 0.0
    for w in weights:
        total += w
    if sum(w / total > frac for w in weights) < 2:
        return -math.inf
    post = 0.0
    for w, p in zip(weights, posts):
        post += w * moa_entropy(p)
    return moa_entropy(pre) - post / total


# ------------------------------------------------------------------------------ naive Bayes
def test_nominal_naive_bayes_smooths_with_the_values_each_class_has_shown():
    # class 0 has shown codes {0, 1} (V_0 = 2), class 1 codes {0, 2, 3} (V_1 = 4); the column
    # is declared with 5 values, which MOA never looks at
    X = np.array([[0], [0], [1], [0], [2], [3], [3]], float)
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    for cls in (learners.HoeffdingTree, learners.EFDT):
        model = cls(1, 2, nominal_features={0: 5}, grace_period=NEVER, leaf_prediction="nb")
        model.fit(X, y)
        # P(x = 1 | 0) = (1 + 1) / (3 + 2), P(x = 1 | 1) = (0 + 1) / (4 + 4)
        votes = np.array([3 / 7 * 2 / 5, 4 / 7 * 1 / 8])
        np.testing.assert_allclose(model.predict_proba([[1]])[0], votes / votes.sum())
        # a code no class has shown: 1 / (n_c + V_c)
        votes = np.array([3 / 7 * 1 / 5, 4 / 7 * 1 / 8])
        np.testing.assert_allclose(model.predict_proba([[4]])[0], votes / votes.sum())


def test_naive_bayes_ties_go_to_the_lower_class_as_moas_products_do():
    # two nominal columns of 3 values; class 0: (0, 2) twice, class 1: (2, 1) three times.  For
    # x = (2, 2): 2/5 * 1/3 * 3/5 = 3/5 * 4/6 * 1/5 = 0.08 exactly, and in MOA's floating point
    # too; a comparison of log-scores ranks class 1 first by rounding
    X = np.array([[0, 2], [0, 2], [2, 1], [2, 1], [2, 1]], float)
    y = np.array([0, 0, 1, 1, 1])
    v0 = 2 / 5 * ((0 + 1.0) / (2 + 1)) * ((2 + 1.0) / (2 + 3))
    v1 = 3 / 5 * ((3 + 1.0) / (3 + 3)) * ((0 + 1.0) / (3 + 2))
    assert v0 == v1 and Fraction(2, 5) / 3 * Fraction(3, 5) == Fraction(3, 5) * Fraction(4, 6) / 5
    assert 0.5 * math.log((3 * (1 / 5) * (4 / 6 * (1 / 5))) ** 2) > 0.5 * math.log(
        (2 * (1 / 5) * (1 / 3 * (3 / 5))) ** 2
    )  # (the log-scores the kernel compares first: class 1 ahead by rounding)
    model = learners.HoeffdingTree(
        2, 2, nominal_features={0: 3, 1: 3}, grace_period=NEVER, leaf_prediction="nb"
    ).fit(X, y)
    assert model.predict([[2, 2]])[0] == 0
    np.testing.assert_allclose(model.predict_proba([[2, 2]])[0], [0.5, 0.5])


def test_naive_bayes_giving_every_class_zero_predicts_class_0_as_moa():
    # a leaf that learned one instance of class 1 at x = 0.5: its Gaussian is a point mass, so
    # at x = 0.7 every class gets probability 0; MOA's argmax of the all-zero vote is class 0
    model = learners.HoeffdingTree(1, 2, grace_period=NEVER, leaf_prediction="nb")
    model.fit([[0.5]], [1])
    assert model.predict([[0.7]])[0] == 0
    np.testing.assert_allclose(model.predict_proba([[0.7]])[0], [0.5, 0.5])
    assert model.predict([[0.5]])[0] == 1


def test_a_density_that_underflows_in_moa_is_zero_here_too():
    # class 0 at {0, 0.001}, class 1 at {5, 5.001}: at x = 4 the z-scores are 5,656 and 1,413,
    # exp(-z^2 / 2) is 0.0 in double precision for both, and MOA predicts class 0; the
    # log-scores (-1.6e7 and -1.0e6) would rank class 1 first
    X = np.array([[0.0], [0.001], [5.0], [5.001]])
    y = np.array([0, 0, 1, 1])
    model = learners.HoeffdingTree(1, 2, grace_period=NEVER, leaf_prediction="nb").fit(X, y)
    sd = math.sqrt(0.001**2 / 2)
    assert math.exp(-(((4 - 5.0005) / sd) ** 2) / 2) == 0.0
    assert model.predict([[4.0]])[0] == 0
    assert model.predict([[5.0005]])[0] == 1


# ------------------------------------------------------------------------------ grace period
def test_efdt_attempts_at_every_multiple_of_the_grace_period_by_count():
    # SEA, seed 1: at row 16,661 a leaf learns its 200th instance.  It inherited fractional
    # counts from its parent's split, and the sum of its weights has grown by
    # 199.99999999999994, not 200: a grace period that compares weights (ours before, MOA's
    # Hoeffding tree) waits one more instance; MOA's EFDT counts instances and splits now
    X, y = streams.sea(30_000, seed=1)  # (its noise depends on n: the prefix of 30,000 rows)
    X, y = X[:16_662], y[:16_662]
    model = learners.EFDT(3, 2).partial_fit(X[:16_661], y[:16_661])
    T = model.tree
    leaf = int(model.apply(X[16_661:16_662])[0])
    assert T.n_learned[leaf] == 199
    after = T.class_counts[leaf].copy()
    after[y[16_661]] += 1.0
    total = 0.0
    for k in range(2):
        total += after[k]
    assert total - T.last_eval[leaf] < 200  # what the weight clock sees
    text = str(model.explain_one(X[16_661]))
    assert "after 1 more instance" in text and "e-1" not in text
    model.partial_fit(X[16_661:], y[16_661:])
    assert model.tree.kind[leaf] > 0 and model.tree.t_split[leaf] == 16_662


def test_explanations_count_whole_instances_to_the_next_attempt():
    # the Hoeffding tree's clock is the leaf's weight: after row 6,600 of SEA (seed 1) the leaf
    # of row 6,600 has grown by 199.9999999999999 since its last attempt; the next instance
    # brings the attempt, and the explanation says so (not "after 1.1e-13 more instances")
    X, y = streams.sea(20_000, seed=1)
    model = learners.HoeffdingTree(3, 2).fit(X[:6601], y[:6601])
    T = model.tree
    leaf = int(model.apply(X[6600:6601])[0])
    since = T.class_counts[leaf].sum() - T.last_eval[leaf]
    assert 199 < since < 200 and 200 - since < 1e-9
    text = str(model.explain_one(X[6600]))
    assert "the next test runs after 1 more instance" in text and "e-1" not in text


# ------------------------------------------------------------------------------ the rules
def _tied_leaf_stream():
    """One nominal column x0 (2 values), 2 classes.  Rows 0-19: x0 = 0, classes alternate, so
    the leaf's first attempt (at 20) finds the multiway split on x0 with one branch: merit -inf,
    and -inf enters its sum for good.  Rows 20-39: x0 = class."""
    X = np.zeros((40, 1))
    y = np.tile([0, 1], 20)
    X[20:, 0] = y[20:]
    return X, y


def test_an_efdt_leaf_splits_on_a_tie_whatever_its_mean_merit():
    # at the second attempt (n = 40) x0's merit is 1 - H(after 20 mixed rows) > 1e-10, but its
    # mean is (-inf + g) / 2 = -inf; epsilon = sqrt(ln(1e7) / 80) = 0.449 < tau = 0.9: MOA splits
    X, y = _tied_leaf_stream()
    model = learners.EFDT(1, 2, nominal_features={0: 2}, grace_period=20, tau=0.9)
    model.partial_fit(X[:39], y[:39])
    assert model.n_leaves == 1
    eps = math.sqrt(math.log(1e7) / (2 * 40))
    assert eps < 0.9
    model.partial_fit(X[39:], y[39:])
    assert model.n_leaves == 2 and model.tree.feature[model.root] == 0


def test_reevaluation_never_kills_under_information_gain():
    # the null split's merit is -inf under information gain (one branch), so it is never the
    # best at a re-evaluation, even where every attribute's merit now is below 0 (class counts
    # holding an estimate inherited from a parent, set here by hand: [1000, 1] against
    # statistics with a (7, 3) / (3, 7) split).  Treated as a gain of 0, it would kill the node
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2, 1200).astype(float)
    yy = np.where(rng.random(1200) < 0.7, x, 1 - x).astype(np.int64)
    model = learners.EFDT(1, 2, nominal_features={0: 2}, min_samples_reevaluate=10**6)
    model.fit(x[:, None], yy)
    T = model.tree
    root = model.root
    assert T.kind[root] == st.NOMINAL_MULTI
    s = T.stats_slot[root]
    post = T.nom[s, 0, :2, :]
    T.class_counts[root] = [1000.0, 1.0]
    g = moa_merit([1000.0, 1.0], post.tolist())
    s_leaf, n_attempts = T.merit_sum[s, 0], T.merit_n[s]
    assert n_attempts == 0 and s_leaf + g < -0.3  # x0's mean after this re-evaluation
    out = engine.edit(T, model._config, engine.EDIT_NAMES["reevaluate"], root)
    assert out == rv.REEVAL_KEEP and model.tree.kind[root] == st.NOMINAL_MULTI


def test_moa_breaks_ties_between_attributes_towards_the_later_one():
    # x1 is a copy of x0: their merits are equal, MOA sorts the candidates with a stable sort
    # and takes the last; with tau = 0.5 the first attempt (n = 200, epsilon 0.20) is a tie
    rng = np.random.default_rng(1)
    x0 = rng.random(200)
    X = np.column_stack([x0, x0])
    y = (x0 > 0.5).astype(np.int64)
    model = learners.HoeffdingTree(2, 2, tau=0.5).fit(X, y)
    assert model.tree.feature[model.root] == 1


# ------------------------------------------------------------------------------ range R
def test_range_is_log2_of_the_class_vector_length():
    # three classes declared, two seen: MOA's R is log2 of the length of the leaf's class
    # vector, log2(2) = 1, not log2(3)
    rng = np.random.default_rng(2)
    X = rng.random((150, 2))
    y = (X[:, 0] > 0.5).astype(np.int64)
    model = learners.HoeffdingTree(2, 3).partial_fit(X, y, classes=[0, 1, 2])
    ex = model.explain_one(X[0])
    assert ex.epsilon == math.sqrt(((1.0 * 1.0) * math.log(1 / 1e-7)) / (2 * 150))
    # once class 2 reaches the leaf, R = log2(3) (MOA's Utils.log2: ln 3 / ln 2)
    model.partial_fit([[0.2, 0.2]], [2])
    R = math.log(3) / LN2
    assert model.explain_one(X[0]).epsilon == math.sqrt(((R * R) * math.log(1 / 1e-7)) / (2 * 151))


def test_reevaluation_takes_the_range_the_node_had_when_it_got_its_test():
    # EFDT's root splits at 200 having seen classes 0 and 1 (class vector of length 2); class 2
    # arrives later, but the root's re-evaluations keep R = log2(2) = 1
    rng = np.random.default_rng(3)
    X = rng.random((600, 2))
    y = (X[:, 0] > 0.5).astype(np.int64)
    y[400:] = np.where(X[400:, 1] > 0.5, 2, y[400:])
    model = learners.EFDT(2, 3).fit(X, y)
    T = model.tree
    assert T.kind[model.root] > 0 and T.t_split[model.root] <= 400
    r = model.explain_one(X[0]).path[0]["reeval"]
    n = T.class_counts[model.root].sum()
    assert r["epsilon"] == math.sqrt(((1.0 * 1.0) * math.log(1 / 1e-7)) / (2 * n))


# ------------------------------------------------------------------------------ candidates
def test_a_binary_nominal_test_wins_where_the_multiway_split_has_merit_minus_inf():
    # 197 rows of code 0 (class 0), 2 of code 1 and 1 of code 2 (class 1): the multiway split
    # has one branch above 1% of the weight (merit -inf); x == 0 against the rest has two
    X = np.array([[0]] * 197 + [[1]] * 2 + [[2]])
    y = np.array([0] * 197 + [1] * 3)
    assert moa_merit([197, 3], [[197, 0], [0, 2], [0, 1]]) == -math.inf
    assert moa_merit([197, 3], [[197, 0], [0, 3]]) > 0
    model = learners.HoeffdingTree(1, 2, nominal_features={0: 3}).fit(X, y)
    T = model.tree
    assert T.kind[model.root] == st.NOMINAL_BINARY and T.threshold[model.root] == 0
    assert model.describe_test(model.root, 1) == "x0 != 0"


def test_a_binary_nominal_test_wins_a_rounding_tie_as_in_moa():
    # codes 0: (0, 4), 1: (1, 1), 2: (2, 2) (counts of classes 0, 1).  Codes 1 and 2 have the
    # same class proportions, so x == 0 gains as much as the multiway split in exact arithmetic;
    # in MOA's floating point the binary test gains 1.1e-16 more and is chosen
    counts = {0: (0, 4), 1: (1, 1), 2: (2, 2)}
    X = np.array([[v] for v, c in counts.items() for k in (0, 1) for _ in range(c[k])], float)
    y = np.array([k for v, c in counts.items() for k in (0, 1) for _ in range(c[k])])
    multi = moa_merit([3, 7], [[0, 4], [1, 1], [2, 2]])
    binary = moa_merit([3, 7], [[0, 4], [3, 3]])
    assert binary > multi and binary - multi < 1e-15
    model = learners.HoeffdingTree(1, 2, nominal_features={0: 3}, grace_period=10).fit(X, y)
    T = model.tree
    assert T.kind[model.root] == st.NOMINAL_BINARY and T.threshold[model.root] == 0


def test_efdt_never_splits_a_leaf_on_a_nominal_attribute_tested_above_it():
    # x0 has 4 codes, class = code odd; with binary tests the root splits on x0 == v, and below
    # the other branch x0 still separates the classes best.  MOA's EFDT keeps a list of the
    # nominal attributes used on the path and refuses; its Hoeffding tree has no such list
    rng = np.random.default_rng(4)
    X = np.column_stack([rng.integers(0, 4, 3000), rng.integers(0, 2, 3000)]).astype(float)
    y = (X[:, 0] % 2).astype(np.int64)
    kw = dict(nominal_features={0: 4, 1: 2}, binary_nominal=True, grace_period=50)
    efdt = learners.EFDT(2, 2, **kw).fit(X, y)
    T = efdt.tree
    assert T.kind[efdt.root] == st.NOMINAL_BINARY and T.feature[efdt.root] == 0
    rest = T.children[efdt.root, 1]
    assert T.kind[rest] == st.LEAF
    row = X[X[:, 0] != T.threshold[efdt.root]][0]
    assert "tested above this leaf" in efdt.explain_one(row).reason
    ht = learners.HoeffdingTree(2, 2, **kw).fit(X, y)
    assert ht.tree.kind[ht.tree.children[ht.root, 1]] == st.NOMINAL_BINARY


# ------------------------------------------------------------------------------ arithmetic
def test_information_gain_and_the_bound_in_moas_order_of_operations():
    rng = np.random.default_rng(5)
    for _ in range(200):
        dist = rng.integers(0, 50, size=(1, 4)).astype(float)
        assert criteria.impurity_row(dist, 0, criteria.CRIT_INFO_GAIN) == moa_entropy(dist[0])
    X = rng.random((120, 2))
    model = learners.HoeffdingTree(2, 2).fit(X, (X[:, 0] > 0.3).astype(np.int64))
    n = model.tree.class_counts[model.root].sum()
    assert model.explain_one(X[0]).epsilon == math.sqrt(
        ((1.0 * 1.0) * math.log(1 / 1e-7)) / (2 * n)
    )


def test_the_gaussian_observer_splits_its_weight_as_moas_estimator():
    from scipy.stats import norm

    z = np.linspace(-9, 9, 721)
    got = np.array([observers.moa_normal_cdf(v) for v in z])
    np.testing.assert_allclose(got, norm.cdf(z), rtol=1e-14, atol=1e-300)
    # weight at the cut (density x w) and below it (Phi(z) w less that), the rest right
    w, mean, m2, cut = 7.0, 0.4, 0.6, 0.55
    sd = math.sqrt(m2 / (w - 1))
    eq = (1 / (math.sqrt(2 * math.pi) * sd)) * math.exp(-((cut - mean) ** 2 / (2 * sd * sd))) * w
    less = observers.moa_normal_cdf((cut - mean) / sd) * w - eq
    left, right = observers.gaussian_split_weights(w, mean, m2, 0.0, 1.0, cut)
    assert left == less + eq and right == w - eq - less
    assert observers.gaussian_split_weights(w, mean, m2, 0.6, 1.0, cut) == (0.0, w)
    assert observers.gaussian_split_weights(w, mean, m2, 0.0, 0.55, cut) == (w, 0.0)


# ------------------------------------------------------------------------------ MOA itself
def _moa_predictions(tmp_path, X, y, info, learner_cli):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import _common as C

    arff = tmp_path / "s.arff"
    C.write_arff(arff, X, y, info)
    out = C.moa_cli_trace(arff, C.moa_hoeffding_cli(learner=learner_cli), len(y), moa_jar(), "t")
    return out


@pytest.mark.slow
@pytest.mark.skipif(moa_jar() is None, reason="needs CapyMOA's moa.jar and java (the bench extra)")
@pytest.mark.parametrize("stream", ["rt_nominal", "sea"])
@pytest.mark.parametrize("learner", ["HoeffdingTree", "EFDT"])
def test_the_same_predictions_as_moa_instance_by_instance(stream, learner, tmp_path):
    if stream == "sea":
        X, y, info = streams.sea(20_000, seed=2, return_info=True)
    else:
        X, y, info = streams.random_tree(
            20_000, seed=3, n_classes=5, n_nominal=5, n_numeric=0, n_values=5, return_info=True
        )
    cli = "trees.HoeffdingTree" if learner == "HoeffdingTree" else "trees.EFDT -R 2000"
    moa = _moa_predictions(tmp_path, X, y, info, cli)
    model = getattr(learners, learner)(nominal_features=info.nominal_features)
    ours = evaluate.prequential(model, X, y).predictions
    differ = np.flatnonzero(ours != moa["pred"])
    assert differ.size == 0, f"{differ.size} predictions differ, the first at {differ[:5]}"
    assert model.n_leaves == moa["n_leaves"][-1]


# ------------------------------------------------------------------------------ 004's own code
def _two_codes(table):
    """Rows of nominal columns and a class from ``{(codes..., class): count}``."""
    X = np.array([list(key[:-1]) for key, c in table.items() for _ in range(c)], float)
    y = np.array([key[-1] for key, c in table.items() for _ in range(c)], np.int64)
    return X, y


def test_kdd2018_efdt_splits_whenever_the_best_merit_reaches_1e_10():
    # x0 = 0: 60 of class 0, 40 of class 1; x0 = 1: the reverse.  At the first attempt (200)
    # x0's merit is 1 - H(0.6) = 0.029, under epsilon = 0.20: MOA's EFDT compares 0.029 with the
    # null split's clamped mean 0 and waits; 004's code adds the null split's merit, -inf, to its
    # sum unclamped, so the margin is 0.029 - (-inf) = inf and it splits
    X, y = _two_codes({(0, 0): 60, (0, 1): 40, (1, 0): 40, (1, 1): 60})
    order = np.random.default_rng(6).permutation(len(y))
    X, y = X[order], y[order]
    g = moa_merit([100, 100], [[60, 40], [40, 60]])
    eps = math.sqrt(math.log(1 / 1e-7) / (2 * 200))
    assert 1e-10 < g < eps
    kw = dict(nominal_features={0: 2})
    assert learners.EFDT(1, 2, **kw).fit(X, y).n_leaves == 1
    assert learners.EFDT(1, 2, reference="kdd2018", **kw).fit(X, y).n_leaves == 2


def test_kdd2018_vfdt_divides_its_margins_by_the_number_of_candidates():
    # x0 separates 85 / 15 (merit 1 - H(0.15) = 0.39), x1 is independent of the class with the
    # same proportions in each cell (merit 0).  MOA's Hoeffding tree: 0.39 - 0 > epsilon = 0.20,
    # a split.  004's VFDT adds the merits to running sums and counts one attempt per
    # candidate, the null split included: the margin is (0.39 - 0) / 3 = 0.13, no split
    table = {}
    for x0, x1, c, n in [(0, 0, 0, 42), (0, 1, 0, 43), (0, 0, 1, 8), (0, 1, 1, 7)]:
        table[(x0, x1, c)] = n
        table[(1 - x0, x1, 1 - c)] = n
    X, y = _two_codes(table)
    order = np.random.default_rng(7).permutation(len(y))
    X, y = X[order], y[order]
    g0 = moa_merit([100, 100], [[85, 15], [15, 85]])
    g1 = moa_merit([100, 100], [[50, 50], [50, 50]])
    eps = math.sqrt(((1.0 * 1.0) * math.log(1 / 1e-7)) / (2 * 200))
    assert (g0 - g1) / 3 < eps < g0 - g1
    kw = dict(nominal_features={0: 2, 1: 2})
    moa = learners.HoeffdingTree(2, 2, **kw).fit(X, y)
    assert moa.n_leaves == 2 and moa.tree.feature[moa.root] == 0
    kdd = learners.HoeffdingTree(2, 2, reference="kdd2018", **kw).fit(X, y)
    assert kdd.n_leaves == 1
    ex = kdd.explain_one(X[0])
    assert ex.quantity == pytest.approx((g0 - g1) / 3, rel=1e-12) and ex.threshold == eps


def test_kdd2018_vfdt_never_splits_on_a_merit_below_1e_10_even_on_a_tie():
    # x0 has the same class proportions under both codes: merit 0.  With tau = 0.5 the first
    # attempt is a tie (epsilon 0.20): MOA's Hoeffding tree splits on x0 anyway, 004's VFDT
    # (like both EFDTs) needs a best merit of at least 1e-10
    X, y = _two_codes({(0, 0): 50, (0, 1): 50, (1, 0): 50, (1, 1): 50})
    assert abs(moa_merit([100, 100], [[50, 50], [50, 50]])) < 1e-10
    kw = dict(nominal_features={0: 2}, tau=0.5)
    assert learners.HoeffdingTree(1, 2, **kw).fit(X, y).n_leaves == 2
    assert learners.HoeffdingTree(1, 2, reference="kdd2018", **kw).fit(X, y).n_leaves == 1


def test_kdd2018_takes_a_leafs_range_from_its_class_vector_when_it_was_made():
    # the root is made with an empty class vector: 004's code bounds with R = log2(2) = 1 there
    # even after three classes have arrived, MOA with log2(3)
    rng = np.random.default_rng(8)
    X = rng.random((150, 2))
    y = rng.integers(0, 3, 150)
    for cls, R in ((learners.EFDT, 1.0), (learners.HoeffdingTree, 1.0)):
        eps = cls(2, 3, reference="kdd2018").fit(X, y).explain_one(X[0]).epsilon
        assert eps == math.sqrt(((R * R) * math.log(1 / 1e-7)) / (2 * 150))
    R3 = math.log(3) / LN2
    eps = learners.EFDT(2, 3).fit(X, y).explain_one(X[0]).epsilon
    assert eps == math.sqrt(((R3 * R3) * math.log(1 / 1e-7)) / (2 * 150))


# ---- MOA's last two details (issue 54): an empty leaf's majority class, pure branches' ties


def test_an_empty_leaf_has_no_majority_class_for_adaptive_naive_bayes():
    """MOA's LearningNodeNBAdaptive scores MC with ``observedClassDistribution.maxIndex()``,
    which is -1 for the empty vector of a leaf that has seen nothing and inherited no class:
    the first row scores no MC hit, whatever its label.  Naive Bayes's argmax of no votes is
    class 0 (Utils.maxIndex), a hit for a label 0.  By hand, rows labelled 0, 0: after the first
    MC 0 and NB 1; after the second MC 1 (the majority is class 0 now) and NB 2."""
    X = np.array([[0.3], [0.7]])
    model = learners.HoeffdingTree(1, 2, grace_period=NEVER).partial_fit(X[:1], [0])
    T, root = model.tree, model.root
    assert (T.mc_correct[root], T.nb_correct[root]) == (0.0, 1.0)
    model.partial_fit(X[1:], [0])
    assert (T.mc_correct[root], T.nb_correct[root]) == (1.0, 2.0)


@njit
def _merits(C, class_counts, S, s, node, merits, cuts, post):
    search.feature_candidates(C, class_counts, S, s, node, merits, cuts, post, False)
    return search.moa_best_two(C.nom_index, merits, cuts)


def test_candidates_whose_branches_are_all_pure_tie_exactly():
    """A leaf whose observers saw one class (its other class's weight inherited from its
    parent's split): every cut sends that class's weight both ways and nothing else, so each
    branch is pure, its entropy exactly 0 in MOA, and every candidate's merit is H(pre) to the
    bit.  MOA then keeps the first best cut of the last attribute among the tied."""
    model = learners.HoeffdingTree(3, 2, grace_period=NEVER)
    model.prepare(np.zeros((1, 3)), classes=[0, 1])
    T, C = model.tree, model._config
    node, s = model.root, 0
    T.stats_slot[node] = s
    T.class_counts[node] = [5.0, 47.0]
    # (each feature's first cut point leaves more than the 1% minimum fraction either side)
    for j, (mean, sd, lo, hi) in enumerate([(0.2, 0.1, 0.0, 0.5), (3.0, 2.0, -1.0, 7.0),
                                            (10.0, 0.5, 9.1, 11.0)]):  # fmt: skip
        T.g_w[s, j, 1] = 47.0
        T.g_mean[s, j, 1] = mean
        T.g_m2[s, j, 1] = sd * sd * 46.0
        T.g_min[s, j, 1] = lo
        T.g_max[s, j, 1] = hi
    merits, cuts = np.empty(3), np.empty(3)
    post = np.empty((2, 2))
    slots = st.SlotArrays(*(getattr(T, f) for f in st.SlotArrays._fields))
    best, _second = _merits(C, T.class_counts, slots, s, node, merits, cuts, post)
    h_pre = moa_entropy([5.0, 47.0])
    assert merits[0] == merits[1] == merits[2] == pytest.approx(h_pre, abs=1e-15)
    for j, (lo, hi) in enumerate([(0.0, 0.5), (-1.0, 7.0), (9.1, 11.0)]):
        assert cuts[j] == lo + (hi - lo) / 11.0  # the first of MOA's ten cut points
    assert best == 2  # the split the tree makes: the last attribute, at its first cut
