"""Every learner is a scikit-learn estimator: its own checks, pipelines and grid search, any
hashable labels, pandas DataFrames in, and the bad inputs a new user runs into."""

import pickle
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.estimator_checks import parametrize_with_checks

from workbench import evaluate, streams
from workbench.learners import (
    BOCT,
    EFDT,
    UFFT,
    CorrHTree,
    CTree,
    FrugalHoeffdingTree,
    HoeffdingTree,
)


class MinGainTree(HoeffdingTree):
    """A user's subclass with a parameter of its own: it keeps HoeffdingTree's (``reference``)."""

    _extra_params = dict(min_gain=0.01)


class PatientEFDT(EFDT):
    """A subclass of EFDT with a parameter and a changed default of its own."""

    _defaults = dict(grace_period=100)
    _extra_params = dict(patience=3)


# the Frugal tree with NB leaves: with the thesis's Laplace (majority-class) leaves the one-leaf
# tree of 300 rows fails check_classifiers_train as HoeffdingTree(leaf_prediction="laplace") does
LEARNERS = [
    HoeffdingTree(),
    CTree(),
    CorrHTree(),
    EFDT(),
    FrugalHoeffdingTree(leaf_prediction="nba"),
    BOCT(),
    UFFT(),
    MinGainTree(),
    PatientEFDT(),
]

#: checks a streaming learner legitimately fails, with the reason (none so far)
EXPECTED_FAILURES: dict = {}


# The learners implement scikit-learn's estimator API without BaseEstimator among their bases
# (importing sklearn.base costs a second of every start: workbench/learners/_api.py); the checks
# say so in a UserWarning when they are collected, and then run all the same.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Estimator .* does not inherit from", UserWarning)
    _all_checks = parametrize_with_checks(
        LEARNERS, expected_failed_checks=lambda est: EXPECTED_FAILURES
    )


@_all_checks
def test_scikit_learn_checks(estimator, check):
    check(estimator)


def test_a_subclass_keeps_its_parents_parameters():
    """``_extra_params`` and ``_defaults`` merge along the class hierarchy: a subclass of a
    learner names only what it adds, and keeps everything its parent has."""
    mine = MinGainTree(reference="kdd2018", min_gain=0.5)
    assert {"reference", "min_gain", "delta"} <= set(mine.get_params())
    assert mine.get_params()["reference"] == "kdd2018" and mine.min_gain == 0.5
    assert MinGainTree().reference == "moa"
    X, y = streams.sea(3_000, seed=1)
    fitted = MinGainTree(reference="kdd2018", grace_period=100).fit(X, y)
    parent = HoeffdingTree(reference="kdd2018", grace_period=100).fit(X, y)
    assert (fitted.predict(X) == parent.predict(X)).all()  # the parent's reference took effect
    efdt = EFDT().get_params()
    patient = PatientEFDT().get_params()
    assert set(efdt) | {"patience"} == set(patient)
    assert patient["grace_period"] == 100 and patient["patience"] == 3
    assert all(patient[k] == v for k, v in efdt.items() if k != "grace_period")
    assert clone(PatientEFDT(patience=5)).patience == 5


def test_learning_imports_neither_scikit_learn_nor_pandas():
    """A learner is built, fitted, scored by prequential evaluation and asked to predict without
    importing scikit-learn, scipy.stats or pandas (about a second of a start); scikit-learn's
    tools still recognise it as a classifier."""
    code = (
        "import sys\n"
        "from workbench import evaluate, learners, streams\n"
        "X, y = streams.sea(300, seed=1)\n"
        "model = learners.HoeffdingTree(grace_period=50).fit(X, y)\n"
        "evaluate.prequential(learners.HoeffdingTree(grace_period=50), X, y)\n"
        "model.predict(X); repr(model); model.get_params(); model.clone()\n"
        "heavy = ['sklearn', 'scipy.stats', 'pandas', 'pyarrow']\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=600
    )
    assert out.stdout.strip() == "[]", out.stdout
    from sklearn.base import is_classifier
    from sklearn.utils import get_tags

    model = HoeffdingTree()
    assert is_classifier(model) and get_tags(model).input_tags.allow_nan
    assert get_tags(BOCT()).classifier_tags.multi_class is False
    assert repr(HoeffdingTree(grace_period=100, delta=1e-3)) == (
        "HoeffdingTree(delta=0.001, grace_period=100)"
    )


def test_parameters_come_from_the_signature():
    m = CTree(4, c=0.3)
    params = m.get_params()
    assert params["c"] == 0.3 and params["n_features"] == 4 and params["grace_period"] == 100
    assert params["binary_nominal"] is True and params["n_classes"] == 2  # CTree's defaults
    assert HoeffdingTree().get_params()["grace_period"] == 200
    c = clone(m).set_params(tau=0.2)
    assert type(c) is CTree and c.tau == 0.2 and c.c == 0.3
    with pytest.raises(TypeError):
        CTree(4, no_such_parameter=1)


def test_pipeline_under_grid_search_on_electricity():
    X, y = streams.electricity()
    X, y = X[:6_000], y[:6_000]
    pipe = make_pipeline(StandardScaler(), HoeffdingTree(grace_period=100))
    grid = GridSearchCV(
        pipe, {"hoeffdingtree__delta": [1e-7, 1e-2]}, cv=KFold(3), scoring="accuracy"
    )
    grid.fit(X, y)
    scores = grid.cv_results_["mean_test_score"]
    assert scores.shape == (2,) and np.all((scores > 0.55) & (scores <= 1))
    # the refitted best pipeline is the learner fitted on all rows, through the scaler
    best = grid.best_estimator_
    direct = HoeffdingTree(grace_period=100, delta=grid.best_params_["hoeffdingtree__delta"])
    direct.fit(StandardScaler().fit_transform(X), y)
    assert np.array_equal(best.predict(X), direct.predict(StandardScaler().fit(X).transform(X)))


def test_any_hashable_labels():
    X, y = streams.sea(3_000, seed=4)
    ref = HoeffdingTree().fit(X, y)
    for labels in (np.array(["down", "up"]), np.array([-1.0, 2.0]), np.array([False, True])):
        m = HoeffdingTree().fit(X, labels[y])
        assert m.classes_.tolist() == sorted(labels.tolist())
        assert np.array_equal(m.predict(X), labels[ref.predict(X)])
        np.testing.assert_array_equal(m.predict_proba(X), ref.predict_proba(X))
        assert m.score(X, labels[y]) == pytest.approx((ref.predict(X) == y).mean())
    with pytest.raises(ValueError, match="'sideways' at y\\[0\\] is not one of the classes"):
        m = HoeffdingTree().fit(X, np.array(["down", "up"])[y])
        m.partial_fit(X[:1], ["sideways"])


def test_partial_fit_needs_the_classes_first():
    X, y = streams.sea(500, seed=5)
    with pytest.raises(ValueError, match="classes="):
        HoeffdingTree().partial_fit(X, y)
    # (learn_one, River's way, takes classes as they come: tests/test_rows.py)
    assert HoeffdingTree().learn_one(X[0], y[0]).classes_.tolist() == [y[0]]
    m = HoeffdingTree().partial_fit(X[:100], y[:100], classes=[0, 1])
    m.partial_fit(X[100:], y[100:])
    assert m.classes_.tolist() == [0, 1] and m.n_seen == 500 and m.n_features_in_ == 3
    with pytest.raises(ValueError, match="differs from the classes"):
        m.partial_fit(X, y, classes=[0, 1, 2])


def test_not_fitted_until_it_learns():
    for method in ("predict", "predict_proba", "apply"):
        with pytest.raises(NotFittedError):
            getattr(HoeffdingTree(3, 2), method)(np.zeros((1, 3)))
    with pytest.raises(NotFittedError):
        HoeffdingTree(3, 2).explain_one([0, 0, 0])
    # the one-row predictions follow River: None before any learning (tests/test_rows.py)
    assert HoeffdingTree(3, 2).predict_one([0, 0, 0]) is None


# ----------------------------------------------------------------------------- pandas
def _frame(X, y=None):
    return pd.DataFrame(X, columns=["a", "b", "c"])


def test_columns_are_matched_by_name():
    X, y = streams.sea(4_000, seed=6)
    df = _frame(X)
    m = HoeffdingTree().fit(df, y)
    assert m.feature_names_in_.tolist() == ["a", "b", "c"] and m.feature_names_ == ["a", "b", "c"]
    shuffled = df[["c", "a", "b"]]
    assert np.array_equal(m.predict(shuffled), m.predict(X))
    with pytest.raises(ValueError, match=r"missing \['c'\], unexpected \['d'\]"):
        m.predict(df.rename(columns={"c": "d"}))
    with pytest.raises(ValueError, match=r"missing \['c'\]"):
        m.predict(df[["a", "b"]])
    # learning from reordered columns learns the same tree
    twin = HoeffdingTree().fit(df, y)
    twin.partial_fit(shuffled, y)
    m.partial_fit(df, y)
    assert pickle.dumps(twin.tree) == pickle.dumps(m.tree)


def test_categorical_and_string_columns_become_nominal():
    rng = np.random.default_rng(7)
    n = 4_000
    colour = rng.choice(["red", "green", "blue"], n)
    size = pd.Categorical(rng.choice(["S", "M", "L"], n), categories=["S", "M", "L"])
    x = rng.uniform(size=n)
    y = ((colour == "red") ^ (x > 0.7)).astype(int)
    df = pd.DataFrame({"colour": colour, "size": size, "x": x})
    m = HoeffdingTree(grace_period=100).fit(df, y)
    assert m.nominal_features_ == {0: 3, 1: 3}
    assert m.categories_ == {0: ["blue", "green", "red"], 1: ["S", "M", "L"]}
    # the same data as integer codes with declared nominal columns gives the same tree
    codes = np.column_stack([np.searchsorted(["blue", "green", "red"], colour), size.codes, x])
    ref = HoeffdingTree(grace_period=100, nominal_features={0: 3, 1: 3}).fit(codes, y)
    assert pickle.dumps(ref.tree) == pickle.dumps(m.tree)
    assert m.score(df, y) > 0.9
    # an unseen category predicts like a missing value; learning it is an error
    odd = df.iloc[:1].copy()
    odd["colour"] = "purple"
    nan_row = df.iloc[:1].copy()
    nan_row["colour"] = None
    assert np.array_equal(m.predict_proba(odd), m.predict_proba(nan_row))
    with pytest.raises(ValueError, match="'purple', not one of the categories"):
        m.partial_fit(odd, y[:1])


def test_pd_na_is_a_missing_value():
    X, y = streams.sea(2_000, seed=8)
    df = _frame(X).astype("Float64")
    df.iloc[::7, 1] = pd.NA
    m = HoeffdingTree().fit(df, y)
    Xn = X.copy()
    Xn[::7, 1] = np.nan
    ref = HoeffdingTree().fit(Xn, y)
    assert pickle.dumps(ref.tree) == pickle.dumps(m.tree)


# ----------------------------------------------------------------------------- bad input
def test_one_dimensional_X_is_refused_with_a_reshape_hint():
    m = HoeffdingTree(6, 2)
    for row in (np.zeros(6), np.zeros(5)):
        with pytest.raises(ValueError, match=r"got a 1-D array of \d values\. Reshape your data"):
            m.partial_fit(row, [0])
    m.partial_fit(np.zeros((2, 6)), [0, 1])
    with pytest.raises(ValueError, match="Reshape your data"):
        m.predict(np.zeros(6))
    assert m.predict_one(np.zeros(6)) in (0, 1)  # one instance: the _one methods


def test_f_measure_of_a_class_that_does_not_exist():
    X, y = streams.sea(1_000, seed=9)
    res = evaluate.prequential(HoeffdingTree(3, 2), X, y)
    for bad in (5, -1, 2, 1.0):
        with pytest.raises(ValueError, match="not a class index of this result"):
            res.f_measure(bad)
    assert 0 <= res.f_measure(1) <= 1


def test_nominal_codes_must_be_integers():
    m = HoeffdingTree(2, 2, nominal_features={1: 3})
    with pytest.raises(ValueError, match="holds 1.5, which is not an integer code"):
        m.partial_fit(np.array([[0.0, 1.5]]), [0])
    with pytest.raises(ValueError, match="holds 3, outside its declared codes 0..2"):
        m.partial_fit(np.array([[0.0, 3.0]]), [0])


def test_nominal_code_check_finds_the_first_fault_of_each_column():
    """The compiled scan behind the nominal-code errors against a plain loop: per nominal
    column, the first row that is not a whole number and the first whole number out of range;
    the error names the first column with a fault, with that value."""
    from workbench.core.validate import nominal_code_faults

    rng = np.random.default_rng(4)
    X = rng.integers(0, 4, (300, 4)).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    X[[17, 40, 200], 1] = [2.5, -0.5, 7.0]
    X[[33, 90], 3] = [4.0, -1.0]
    X[150, 2] = 9.0  # column 2 is not nominal: no fault
    cols, cards = np.array([0, 1, 3]), np.array([4.0, 4.0, 4.0])
    expected = np.full((2, 3), -1)
    for q, col in enumerate(cols):
        for i, x in enumerate(X[:, col]):
            if np.isnan(x):
                continue
            if x != np.floor(x):
                expected[0, q] = i if expected[0, q] < 0 else expected[0, q]
            elif not 0 <= x < cards[q]:
                expected[1, q] = i if expected[1, q] < 0 else expected[1, q]
    assert np.array_equal(nominal_code_faults(X, cols, cards), expected)
    assert expected.tolist() == [[-1, 17, -1], [-1, 200, 33]]
    m = HoeffdingTree(4, 2, nominal_features={0: 4, 1: 4, 3: 4})
    with pytest.raises(ValueError, match="nominal column 1 of X holds 2.5, which is not"):
        m.partial_fit(X, np.zeros(300, int))
    X[[17, 40], 1] = 0.0
    with pytest.raises(ValueError, match="nominal column 1 of X holds 7, outside"):
        m.partial_fit(X, np.zeros(300, int))
    X[200, 1] = 3.0
    with pytest.raises(ValueError, match="nominal column 3 of X holds 4, outside"):
        m.partial_fit(X, np.zeros(300, int))
    assert m.n_leaves == 1 and m.tree.meta[7] == 0  # nothing was learned


@pytest.mark.parametrize("n", [300, 5000])
def test_learning_refuses_an_infinity_or_a_bad_code_on_either_side_of_the_screen(n):
    """A learner's input goes through the screen from ``SCREEN_MIN_VALUES`` values on, through
    NumPy's checks below: both refuse a fault in the last row, an infinity in a numeric column
    or a code out of range, with the same message, before anything is learned."""
    from workbench import evaluate
    from workbench.core.validate import SCREEN_MIN_VALUES

    assert (n * 4 >= SCREEN_MIN_VALUES) == (n == 5000)
    rng = np.random.default_rng(5)
    X = rng.normal(size=(n, 4))
    X[:, [0, 3]] = rng.integers(0, 4, (n, 2))
    y = rng.integers(0, 2, n)
    for col, value, message in [
        (1, np.inf, "contains infinity \\(first at row %d, column 1\\)" % (n - 1)),
        (2, -np.inf, "contains infinity \\(first at row %d, column 2\\)" % (n - 1)),
        (3, 4.0, "nominal column 3 of X holds 4, outside"),
    ]:
        bad = X.copy()
        bad[n - 1, col] = value
        m = HoeffdingTree(4, 2, nominal_features={0: 4, 3: 4})
        with pytest.raises(ValueError, match=message):
            m.partial_fit(bad, y)
        with pytest.raises(ValueError, match=message):
            evaluate.prequential(m, bad, y)
        assert m.n_leaves == 1 and m.tree.meta[7] == 0  # nothing was learned
    m = HoeffdingTree(4, 2, nominal_features={0: 4, 3: 4}).partial_fit(X, y)
    assert m.tree.meta[7] == n


def test_input_screen_flags_exactly_the_arrays_with_a_fault():
    """The screen that spares learning the exact checks: it must flag every array in which the
    nominal scan finds a fault, or that holds an infinity in any column (a false negative
    would let a bad code or an infinity into the kernel), and, NaN and finite numeric values
    aside, nothing else, whatever the width (blocks of 512 // d rows, one row per block beyond
    512 columns) and wherever the fault lies (first row, last row, a last block that is not
    full)."""
    from workbench.core.validate import nominal_code_faults, values_suspect

    rng = np.random.default_rng(11)
    for d, n in [(1, 1), (3, 1000), (5, 777), (9, 300), (600, 5)]:
        nominal = {j: int(rng.integers(2, 6)) for j in range(d) if j % 3 != 1}
        cols = np.fromiter(nominal, np.int64)
        cards = np.fromiter(nominal.values(), np.float64)
        base = rng.normal(size=(n, d)) * 10.0  # numeric columns: anything finite
        for j, card in nominal.items():
            base[:, j] = rng.integers(0, card, n)
        base[rng.random((n, d)) < 0.05] = np.nan
        assert not values_suspect(base, nominal)
        assert not values_suspect(base, {})
        for inf in (np.inf, -np.inf):
            for i in {0, n - 1, int(rng.integers(0, n))}:
                j = int(rng.integers(0, d))
                X = base.copy()
                X[i, j] = inf
                assert values_suspect(X, nominal), (d, n, i, j, inf)
                assert values_suspect(X, {}), (d, n, i, j, inf)
        for bad in (0.5, -1.0, 1e9, -0.0 - 1e-12):
            for i in {0, n - 1, int(rng.integers(0, n))}:
                j = int(rng.choice(cols))
                X = base.copy()
                X[i, j] = bad if bad != 1e9 else nominal[j]
                assert (nominal_code_faults(X, cols, cards) >= 0).any()
                assert values_suspect(X, nominal), (d, n, i, j, X[i, j])
        if 1 in range(d) and 1 not in nominal:
            X = base.copy()
            X[n - 1, 1] = 2.5  # a numeric column: no fault
            assert not values_suspect(X, nominal)


def test_sparse_and_complex_input_are_refused():
    from scipy import sparse

    with pytest.raises(TypeError, match="sparse input is not supported"):
        HoeffdingTree().fit(sparse.csr_matrix(np.eye(3)), [0, 1, 0])
    with pytest.raises(ValueError, match="Complex data not supported"):
        HoeffdingTree().fit(np.eye(2) * 1j, [0, 1])


def test_results_come_back_as_tables():
    X, y = streams.sea(5_000, seed=10)
    res = evaluate.prequential(HoeffdingTree(3, 2), X, y, n_points=50)
    df = res.to_frame()
    assert list(df.columns) == ["t", "accuracy", "window_accuracy", "n_leaves"]
    assert len(df) == len(res.t) and df["t"].iloc[-1] == 5_000
    assert df["accuracy"].iloc[-1] == pytest.approx(res.accuracy)
    ho = evaluate.holdout(
        HoeffdingTree(3, 2), X[:4_000], y[:4_000], X[4_000:], y[4_000:], every=1_000
    )
    assert ho.to_frame()["t"].tolist() == [1_000, 2_000, 3_000, 4_000]


def test_reset_keeps_classes_and_columns_and_reads_new_parameters():
    rng = np.random.default_rng(11)
    df = pd.DataFrame({"colour": rng.choice(["red", "blue"], 600), "x": rng.uniform(size=600)})
    y = np.where(df["colour"] == "red", "yes", "no")
    m = HoeffdingTree(grace_period=50).fit(df, y)
    assert m.n_leaves > 1
    m.set_params(grace_period=10**9).reset()
    assert m.n_leaves == 1 and m.n_seen == 0 and m.classes_.tolist() == ["no", "yes"]
    assert m.categories_ == {0: ["blue", "red"]} and m.feature_names_in_.tolist() == ["colour", "x"]
    m.partial_fit(df, y)
    assert m.n_leaves == 1  # the new grace period holds


def _bad_inputs():
    """(what a new user tries, the call, what the ValueError must say)."""
    X, y = streams.sea(300, seed=1)
    X_inf = X.copy()
    X_inf[5, 1] = np.inf
    y_nan = y.astype(float)
    y_nan[3] = np.nan
    strings = np.array([["a", "b", "c"]] * 10)
    wider = np.hstack([X, X[:, :1]])
    words = np.where(y == 1, "up", "down")
    return [
        ("inf", lambda m: m.fit(X_inf, y), r"X contains infinity \(first at row 5, column 1\)"),
        ("wrong width", lambda m: m.fit(X, y).predict(wider), r"X has 4 features, but .* 3"),
        (
            "unknown label",
            lambda m: m.fit(X, y).partial_fit(X[:3], [0, 1, 2]),
            r"label 2 at y\[2\] is outside range\(n_classes\)",
        ),
        (
            "unknown word label",
            lambda m: m.fit(X, words).partial_fit(X[:2], ["up", "sideways"]),
            r"label 'sideways' at y\[1\] is not one of the classes \['down', 'up'\]",
        ),
        ("empty", lambda m: m.fit(X[:0], y[:0]), r"y is empty"),
        ("strings", lambda m: m.fit(strings, y[:10]), r"X must be numeric"),
        ("1-D", lambda m: m.fit(X[:, 0], y), r"X must be 2-D .*X\.reshape\(-1, 1\)"),
        ("length mismatch", lambda m: m.fit(X, y[:-1]), r"y has 299 labels but X has 300 rows"),
        ("float labels", lambda m: m.fit(X, y + 0.5), r"Unknown label type: continuous"),
        ("NaN labels", lambda m: m.fit(X, y_nan), r"y contains NaN"),
    ]


SEVEN = [HoeffdingTree, CTree, CorrHTree, EFDT, FrugalHoeffdingTree, BOCT, UFFT]
BAD = _bad_inputs()


@pytest.mark.parametrize("learner", SEVEN, ids=lambda c: c.__name__)
@pytest.mark.parametrize("case, call, message", BAD, ids=[b[0] for b in BAD])
def test_every_bad_input_is_a_value_error_that_names_it(learner, case, call, message):
    """What a new user gets wrong, tried on every learner: each is a ValueError whose message
    names the problem (never an error from inside numba, a hang or a model)."""
    with pytest.raises(ValueError, match=message):
        call(learner())
