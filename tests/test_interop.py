"""The workbench's learners in River's and CapyMOA's own loops, and their streams in ours
(workbench.interop, streams.from_river, streams.from_capymoa), against the real libraries.

The target of issue 59: River's ``evaluate.progressive_val_score`` and CapyMOA's
``evaluation.prequential_evaluation`` run two workbench learners each with the prequential
accuracy of :func:`workbench.evaluate.prequential` on the same rows, with the classes in the same
order: checked prediction by prediction.  River's loop leaves out the first row (a learner that
has learned nothing predicts None there, River's convention); CapyMOA's counts every row (the
learner, set up from the schema, predicts with its empty tree, as the workbench's loop does).

Tests that need River or CapyMOA (CapyMOA runs MOA in Java 17+) are skipped, with the reason in
the summary, where they are missing; ``python3 dev.py test`` installs both and Java when it can.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench import evaluate, interop, learners, streams


def _river():
    return pytest.importorskip(
        "river", reason="River is not installed (python3 dev.py test installs it with pip)"
    )


def _capymoa():
    try:
        import capymoa  # noqa: F401  (starts MOA's JVM)
    except Exception as exc:  # ImportError, or CapyMOA's own error when Java is missing
        pytest.skip(
            f"CapyMOA is not usable here ({type(exc).__name__}: {exc}); python3 dev.py test "
            "installs it with pip and Java 17 with apt-get when it can"
        )


# ------------------------------------------------------------------------------------- River
RIVER_LEARNERS = {
    "HoeffdingTree": lambda: learners.HoeffdingTree(grace_period=100, delta=1e-3),
    "EFDT": lambda: learners.EFDT(grace_period=100, delta=1e-3, min_samples_reevaluate=400),
}


def _river_data(name):
    from river import datasets

    if name == "Phishing":  # shipped in River's wheel: 1,250 rows, 9 features, bool labels
        return list(datasets.Phishing())
    # string labels ("no" first, as it comes), numbers and a bool feature
    rows = datasets.synth.Agrawal(classification_function=2, seed=7).take(3_000)
    return [({**x, "young": x["age"] < 40}, ("no", "yes")[y]) for x, y in rows]


@pytest.mark.parametrize("data", ["Phishing", "Agrawal"])
@pytest.mark.parametrize("learner", list(RIVER_LEARNERS))
def test_rivers_loop_predicts_every_row_as_evaluate_prequential(learner, data):
    _river()
    from river import evaluate as river_evaluate
    from river import metrics

    rows = _river_data(data)
    make = RIVER_LEARNERS[learner]
    model = interop.to_river(make())
    steps = list(
        river_evaluate.iter_progressive_val_score(
            rows, model, metrics.Accuracy(), step=1, yield_predictions=True
        )
    )
    river_pred = [s["Prediction"] for s in steps]
    river_acc = steps[-1]["Accuracy"].get()

    X, y, info = streams.from_river(rows)
    labels = info.params["labels"]
    assert labels == list(dict.fromkeys(label for _, label in rows))
    res = evaluate.prequential(make(), X, y)
    ours = [labels[k] for k in res.predictions]
    assert river_pred[0] is None  # nothing learned: no prediction, and River skips the row
    assert river_pred[1:] == ours[1:]
    assert river_acc == pytest.approx(float(np.mean(res.predictions[1:] == y[1:])), abs=1e-12)
    # the learner inside the wrapper is the one evaluate.prequential grew
    assert model.model.n_leaves == res.n_leaves[-1] and model.model.n_leaves > 1
    assert model.model.classes_.tolist() == labels


def test_river_metrics_pipelines_and_clone():
    _river()
    from river import compose, datasets, evaluate as river_evaluate, metrics, preprocessing

    rows = list(datasets.Phishing())
    wrapped = interop.to_river(learners.HoeffdingTree(grace_period=100))
    pipeline = compose.Pipeline(preprocessing.StandardScaler(), wrapped)
    auc = river_evaluate.progressive_val_score(rows, pipeline, metrics.ROCAUC())
    assert 0.8 < auc.get() < 1.0  # probabilities reach River's metrics
    assert wrapped.model.n_seen == len(rows)
    proba = wrapped.predict_proba_one(rows[0][0])
    assert set(proba) == {True, False} and sum(proba.values()) == pytest.approx(1.0)
    assert all(type(k) is bool for k in proba)  # labels come back as the Python values learned
    fresh = wrapped.clone()
    assert fresh.model is not wrapped.model and not fresh.model._is_set_up()
    assert fresh.model.get_params() == wrapped.model.get_params()
    assert fresh.predict_one(rows[0][0]) is None and fresh.predict_proba_one(rows[0][0]) == {}


def test_river_own_checks_pass():
    """River's estimator checks (those of a fixed-schema tree: see RiverClassifier)."""
    _river()
    from river import checks

    from workbench.interop._river import RiverClassifier

    for params in RiverClassifier._unit_test_params():
        model = RiverClassifier(**params)
        for check in checks.yield_checks(model):
            if check.__name__ in model._unit_test_skips():
                continue
            check(model.clone())


def test_from_river_codes_strings_and_needs_n_for_a_generator():
    _river()
    from river import datasets

    rows = [
        ({"colour": "red", "size": 1.0}, "yes"),
        ({"colour": "blue", "size": None}, "no"),
        ({"colour": None, "size": 3.0, "extra": True}, "yes"),
    ]
    X, y, info = streams.from_river(rows)
    assert info.feature_names == ["colour", "extra", "size"]  # sorted: a dict's order is no order
    assert info.nominal_features == {0: 2} and info.categories == {0: ["blue", "red"]}
    assert np.array_equal(X, [[1, np.nan, 1], [0, np.nan, np.nan], [np.nan, 1, 3]], equal_nan=True)
    assert y.tolist() == [0, 1, 0] and info.class_names == ["yes", "no"]
    with pytest.raises(ValueError, match="never ends.*pass n="):
        streams.from_river(datasets.synth.SEA(seed=1))
    X, y, info = streams.from_river(datasets.synth.SEA(seed=1), n=250)
    assert X.shape == (250, 3) and info.params["n"] == 250
    X, _, info = streams.from_river(
        datasets.synth.Agrawal(seed=1), n=400, nominal_features=["elevel", "car"]
    )
    assert info.nominal_features == {1: 20, 3: 5}  # car, elevel among the sorted names
    with pytest.raises(ValueError, match="nominal_features names"):
        streams.from_river(rows, nominal_features=["weight"])
    with pytest.raises(ValueError, match="n must be a whole number"):
        streams.from_river(rows, n=0)
    with pytest.raises(ValueError, match="not an \\(x: dict, y\\) pair"):
        streams.from_river([1, 2, 3])
    with pytest.raises(ValueError, match="no rows"):
        streams.from_river([])


# ----------------------------------------------------------------------------------- CapyMOA
def _moa_streams():
    from capymoa.stream.generator import SEA, RandomTreeGenerator

    return {
        # numeric, 10% label noise
        "SEA": lambda: SEA(instance_random_seed=1, noise_percentage=10),
        # 5 nominal attributes of 5 values and 5 numeric ones, 3 classes
        "RandomTree": lambda: RandomTreeGenerator(
            instance_random_seed=2, tree_random_seed=3, num_classes=3
        ),
    }


CAPYMOA_LEARNERS = {
    "HoeffdingTree": lambda **kw: learners.HoeffdingTree(grace_period=100, delta=1e-3, **kw),
    "EFDT": lambda **kw: learners.EFDT(grace_period=100, delta=1e-3, **kw),
}


@pytest.mark.parametrize("stream", ["SEA", "RandomTree"])
@pytest.mark.parametrize("learner", list(CAPYMOA_LEARNERS))
def test_capymoas_loop_predicts_every_row_as_evaluate_prequential(learner, stream):
    _capymoa()
    from capymoa.evaluation import prequential_evaluation

    n = 4_000
    s = _moa_streams()[stream]()
    make = CAPYMOA_LEARNERS[learner]
    wrapped = interop.to_capymoa(make(), s.get_schema())
    results = prequential_evaluation(s, wrapped, max_instances=n, store_predictions=True)

    X, y, info = streams.from_capymoa(_moa_streams()[stream](), n=n)
    model = make(n_classes=info.n_classes, nominal_features=info.nominal_features)
    res = evaluate.prequential(model, X, y)
    assert list(results.predictions()) == res.predictions.tolist()
    assert results.cumulative.accuracy() == pytest.approx(100.0 * res.accuracy, abs=1e-9)
    assert wrapped.model.n_leaves == model.n_leaves > 1
    assert wrapped.model.nominal_features_ == info.nominal_features
    assert wrapped.model.feature_names_ == info.feature_names
    assert wrapped.model.class_names_ == info.class_names
    if stream == "RandomTree":
        assert len(info.nominal_features) == 5 and info.n_classes == 3


def test_from_capymoa_reads_numpy_and_arff_streams(tmp_path):
    _capymoa()
    from capymoa.stream import ARFFStream, NumpyStream
    from capymoa.stream.generator import SEA

    X0, y0, info0 = streams.random_tree(n=300, seed=4, return_info=True)
    X, y, info = streams.from_capymoa(NumpyStream(X0, y0))
    assert np.array_equal(X, X0) and np.array_equal(y, y0) and info.n_classes == info0.n_classes
    path = tmp_path / "rt.arff"
    streams.write_arff(path, X0, y0, info0)
    X, y, info = streams.from_capymoa(ARFFStream(str(path)))
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    assert info.nominal_features == info0.nominal_features
    assert info.feature_names == info0.feature_names
    with pytest.raises(ValueError, match="never ends.*pass n="):
        streams.from_capymoa(SEA())
    with pytest.raises(ValueError, match="n must be a whole number"):
        streams.from_capymoa(SEA(), n=-3)


def test_to_capymoa_refuses_what_the_learner_cannot_take():
    _capymoa()
    from capymoa.stream.generator import RandomTreeGenerator, SEA

    with pytest.raises(ValueError, match="numeric features only"):
        interop.to_capymoa(learners.UFFT(), RandomTreeGenerator().get_schema())
    with pytest.raises(ValueError, match="schema's nominal attributes"):
        interop.to_capymoa(
            learners.HoeffdingTree(nominal_features={0: 3}), RandomTreeGenerator().get_schema()
        )
    fitted = learners.HoeffdingTree().fit(np.zeros((4, 2)), [0, 1, 0, 1])
    with pytest.raises(ValueError, match="the schema has 3 attributes"):
        interop.to_capymoa(fitted, SEA().get_schema())
    with pytest.raises(TypeError, match="wraps a workbench learner"):
        interop.to_capymoa(object(), SEA().get_schema())


def test_adapters_name_the_missing_library(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_river(name, *args, **kwargs):
        if name.split(".")[0] in ("river", "capymoa"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_river)
    with pytest.raises(ImportError, match="to_river needs river.*pip install river"):
        interop.to_river(learners.HoeffdingTree())
    with pytest.raises(ImportError, match="pip install capymoa"):
        interop.to_capymoa(learners.HoeffdingTree(), None)


def test_islice_helper_is_not_needed_for_lists():
    # from_river takes River's own iterators (dataset.take(n)) as well as lists
    _river()
    from river import datasets

    a = streams.from_river(datasets.Phishing().take(100))
    b = streams.from_river(list(itertools.islice(datasets.Phishing(), 100)))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
