"""Bad input across the public API (issue 54): every odd argument gets an error that names the
argument, shows what came and says what was expected, and none gives a silently wrong result.

The first part lists calls that must fail, each with the text its error must hold and the text
of the unclear error it replaced (which must not come back).  The second part checks the
results of calls that used to be silently wrong.  Downloads are tested in test_datasets.py,
worker processes in test_sweep.py.
"""

from __future__ import annotations

import gzip
import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from workbench import bounds, evaluate, learners, montecarlo, streams, sweep, viz
from workbench.drift import DDM
from workbench.montecarlo import sequential

X, Y = streams.sea(n=3_000, seed=1)


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def _fitted(cls=learners.HoeffdingTree, **kw):
    return cls(**kw).fit(X, Y)


# ----------------------------------------------------------------------------- clear errors
# (id, call(tmp_path), exception, text the message must match, text of the old error)
CASES = [
    # viz entry checks and to_dot of an unfitted model
    (
        "viz.to_dot unfitted",
        lambda p: viz.to_dot(learners.HoeffdingTree()),
        NotFittedError,
        "HoeffdingTree instance is not fitted yet",
        "to_dot needs a workbench learner",
    ),
    (
        "viz.show unfitted",
        lambda p: viz.show(learners.EFDT()),
        NotFittedError,
        "EFDT instance is not fitted yet",
        "to_dot needs a workbench learner",
    ),
    (
        "viz.render unfitted",
        lambda p: viz.render(learners.CTree(), p / "t.svg"),
        NotFittedError,
        "CTree instance is not fitted yet",
        "to_dot needs a workbench learner",
    ),
    (
        "viz.to_dot not a learner",
        lambda p: viz.to_dot(42),
        ValueError,
        "model must be a workbench learner .*; got int 42",
        "to_dot needs a workbench learner",
    ),
    (
        "model.to_dot unfitted",
        lambda p: learners.HoeffdingTree().to_dot(),
        NotFittedError,
        "not fitted yet",
        "feature_names_",
    ),
    (
        "UFFT.to_dot unfitted",
        lambda p: learners.UFFT().to_dot(),
        NotFittedError,
        "UFFT instance is not fitted yet",
        "_state",
    ),
    # sweeps
    (
        "sweep.run({})",
        lambda p: sweep.run({}, streams="sea", backend="serial", progress=False),
        ValueError,
        "learners must be a learner's name .*; got an empty dict",
        "index",
    ),
    (
        "sweep.run(42)",
        lambda p: sweep.run(42, streams="sea", backend="serial", progress=False),
        ValueError,
        "learners must be .*; got 42",
        "not iterable",
    ),
    # evaluation
    (
        "prequential(None)",
        lambda p: evaluate.prequential(None, X, Y),
        ValueError,
        "model must be a workbench learner .*; got None",
        "_check_Xy",
    ),
    (
        "holdout every=1.5",
        lambda p: evaluate.holdout(learners.HoeffdingTree(), X, Y, X, Y, every=1.5),
        ValueError,
        r"every must be an integer >= 1; got 1\.5",
        "cannot be interpreted",
    ),
    (
        "prequential window=2.5",
        lambda p: evaluate.prequential(learners.HoeffdingTree(), X, Y, window=2.5),
        ValueError,
        r"window must be an integer >= 1; got 2\.5",
        None,
    ),
    (
        "prequential n_points=0",
        lambda p: evaluate.prequential(learners.HoeffdingTree(), X, Y, n_points=0),
        ValueError,
        "n_points must be an integer >= 1; got 0",
        "n_points and window",
    ),
    (
        "budget without strategy",
        lambda p: evaluate.prequential(learners.HoeffdingTree(), X, Y, budget=0.3),
        ValueError,
        r"budget=0\.3 limits the labels a strategy asks for, and no strategy",
        None,
    ),
    (
        "minibatch budget without strategy",
        lambda p: evaluate.minibatch(learners.HoeffdingTree(), X, Y, budget=5),
        ValueError,
        r"budget must be a finite number in \(0, 1\]; got 5",
        None,
    ),
    (
        "minibatch budget 0.5 without strategy",
        lambda p: evaluate.minibatch(learners.HoeffdingTree(), X, Y, budget=0.5),
        ValueError,
        "no strategy was given",
        None,
    ),
    (
        "drift_detection='no'",
        lambda p: evaluate.prequential(learners.HoeffdingTree(), X, Y, drift_detection="no"),
        ValueError,
        "drift_detection must be True or False; got 'no'",
        None,
    ),
    (
        "minibatch(None)",
        lambda p: evaluate.minibatch(None, X, Y),
        ValueError,
        "model must be a workbench learner",
        "_check_Xy",
    ),
    # learners' parameters
    (
        "n_features=0",
        lambda p: learners.HoeffdingTree(n_features=0).fit(X, Y),
        ValueError,
        "n_features must be an integer >= 1; got 0",
        "columns but the model was built for",
    ),
    (
        "binary_nominal='no'",
        lambda p: learners.HoeffdingTree(binary_nominal="no").fit(X, Y),
        ValueError,
        "binary_nominal must be True or False; got 'no'",
        None,
    ),
    (
        "UFFT drift_detection='no'",
        lambda p: learners.UFFT(drift_detection="no").fit(X, Y),
        ValueError,
        "drift_detection must be True or False; got 'no'",
        None,
    ),
    (
        "memory_limit_mb=nan",
        lambda p: learners.HoeffdingTree(memory_limit_mb=math.nan).fit(X, Y),
        ValueError,
        "memory_limit_mb must be a positive number of megabytes.*; got nan",
        None,
    ),
    (
        "memory_limit_mb='256'",
        lambda p: learners.EFDT(memory_limit_mb="256").fit(X, Y),
        ValueError,
        "memory_limit_mb must be a positive number.*; got '256'",
        None,
    ),
    # bounds
    (
        "hoeffding(None)",
        lambda p: bounds.hoeffding(None, 0.05),
        ValueError,
        "m must be a number or an array of numbers, got None",
        "must not be NaN",
    ),
    (
        "hoeffding('10')",
        lambda p: bounds.hoeffding("10", 0.05),
        ValueError,
        "m must be a number or an array of numbers, got '10'",
        None,
    ),
    (
        "mcdiarmid m=0.05",
        lambda p: bounds.mcdiarmid_entropy(0.05, 0.1, 2),
        ValueError,
        r"m must be >= 1 .*got 0\.05",
        None,
    ),
    (
        "hoeffding m=1e-320",
        lambda p: bounds.hoeffding(1e-320, 0.05),
        ValueError,
        r"cannot be computed in double precision at m=1e-320, delta=0\.05",
        None,
    ),
    (
        "hoeffding delta=1e-320",
        lambda p: bounds.hoeffding(100, 1e-320),
        ValueError,
        r"cannot be computed in double precision at m=100, delta=1e-320",
        None,
    ),
    (
        "ctree_epsilon t=1e300",
        lambda p: bounds.ctree_epsilon(10, 0.05, 0, 1e300, 1e300),
        ValueError,
        "cannot be computed in double precision",
        None,
    ),
    (
        "ddm_levels strict='no'",
        lambda p: bounds.ddm_levels(0.1, 0.01, 0.1, 0.01, strict="no"),
        ValueError,
        "strict must be True or False, got 'no'",
        None,
    ),
    # Monte Carlo and drift detection
    (
        "feature_gains prior=1.5",
        lambda p: montecarlo.feature_gains(1.5, np.array([[0.2, 0.9]])),
        ValueError,
        r"prior must lie in \[0, 1\], got 1\.5",
        None,
    ),
    (
        "feature_gains theta 1-D",
        lambda p: montecarlo.feature_gains(0.3, [0.2, 0.9]),
        ValueError,
        r"theta must have shape \(d, 2\) for 2 classes, got \(2,\)",
        None,
    ),
    (
        "ddm_run min_instances=-5",
        lambda p: montecarlo.ddm_run(np.zeros(100), min_instances=-5),
        ValueError,
        "min_instances must be an integer >= 1, got -5",
        None,
    ),
    (
        "ddm_run [0, 2]",
        lambda p: montecarlo.ddm_run([0, 2]),
        ValueError,
        r"errors must be a 1-D sequence of 0 \(right\) and 1 \(wrong\)",
        "reflected list",
    ),
    (
        "ddm_run strict='no'",
        lambda p: montecarlo.ddm_run(np.zeros(10), strict="no"),
        ValueError,
        "strict must be True or False; got 'no'",
        None,
    ),
    (
        "ddm_false_alarms strict='no'",
        lambda p: montecarlo.ddm_false_alarms(0.1, 100, trials=10, strict="no"),
        ValueError,
        "strict must be True or False; got 'no'",
        None,
    ),
    (
        "DDM strict='no'",
        lambda p: DDM(strict="no"),
        ValueError,
        "strict must be True or False; got 'no'",
        None,
    ),
    (
        "DDM min_instances=0",
        lambda p: DDM(min_instances=0),
        ValueError,
        "min_instances must be an integer >= 1; got 0",
        None,
    ),
    (
        "check_bound seed=2**64",
        lambda p: montecarlo.check_bound("hoeffding", n=[10], trials=10, seed=2**64),
        ValueError,
        r"seed must be an integer in \[0, 2\*\*64 - 1\].*got 18446744073709551616",
        None,
    ),
    (
        "check_bound n=[]",
        lambda p: montecarlo.check_bound("hoeffding", n=[], trials=10),
        ValueError,
        r"n must be a sample size or a non-empty list of them; got \[\]",
        None,
    ),
    (
        "check_bound delta=None",
        lambda p: montecarlo.check_bound("hoeffding", n=[10], delta=None, trials=10),
        ValueError,
        "delta must lie in the open interval",
        "float() argument",
    ),
    # generators
    (
        "sea n=10**30",
        lambda p: streams.sea(n=10**30),
        ValueError,
        r"n=1,000,000,000,000,000,000,000,000,000,000 rows of 4 values need [\d.e+,]+ GiB",
        "Maximum allowed dimension",
    ),
    (
        "toy64 slope=nan",
        lambda p: streams.toy64(slope=math.nan),
        ValueError,
        "slope must be a finite number, got nan",
        None,
    ),
    (
        "toy64 sample n=0",
        lambda p: streams.toy64().sample(0),
        ValueError,
        "n must be at least 1",
        None,
    ),
    (
        "sea return_info='no'",
        lambda p: streams.sea(100, return_info="no"),
        ValueError,
        "return_info must be True or False, got 'no'",
        None,
    ),
    (
        "electricity shuffle='no'",
        lambda p: streams.electricity(shuffle="no"),
        ValueError,
        "shuffle must be True or False, got 'no'",
        None,
    ),
    (
        "electricity seed without shuffle",
        lambda p: streams.electricity(seed=5),
        ValueError,
        r"seed=5 chooses a permutation of the rows, which only shuffle=True makes",
        None,
    ),
    (
        "covertype binary='no'",
        lambda p: streams.covertype(binary="no", download=False),
        ValueError,
        "binary must be True or False, got 'no'",
        None,
    ),
    (
        "from_arrays label 10**8",
        lambda p: streams.from_arrays([[1.0], [2.0]], [0, 10**8]),
        ValueError,
        "y holds label 100,000,000: .* 100,000,001 classes of which 2 occur",
        None,
    ),
    (
        "from_arrays label 1e300",
        lambda p: streams.from_arrays([[1.0], [2.0]], [0.0, 1e300]),
        ValueError,
        r"y must hold integer class labels 0..K-1, found 1e\+300 at y\[1\]",
        None,
    ),
    # file readers
    (
        "read_csv latin-1",
        lambda p: streams.read_csv(
            _write(p, "l.csv", "a,b,c\n1,2,x\n3,4,caf\xe9\n".encode("latin-1"))
        ),
        ValueError,
        r"l\.csv, line 3 is not utf-8 text .*encoding='latin-1'",
        "codec can't decode",
    ),
    (
        "read_arff latin-1",
        lambda p: streams.read_arff(
            _write(
                p,
                "l.arff",
                "@relation r\n@attribute a {caf\xe9,b}\n@attribute c {x,y}\n@data\nb,x\n".encode(
                    "latin-1"
                ),
            )
        ),
        ValueError,
        r"l\.arff, line 2 is not utf-8 text",
        "codec can't decode",
    ),
    (
        "read_csv 50 MB field",
        lambda p: streams.read_csv(
            _write(p, "f.csv", 'a,b,c\n1,2,0\n3,"' + "x" * 200_000 + ",1\n")
        ),
        ValueError,
        r"f\.csv, line \d: a field longer than 131,072 characters; a quote that is "
        "never closed",
        "field larger than field limit",
    ),
    (
        "read_csv truncated gz",
        lambda p: streams.read_csv(
            _write(p, "t.csv.gz", gzip.compress(b"a,b,c\n" + b"1,2,0\n" * 500)[:-12])
        ),
        ValueError,
        r"t\.csv\.gz is not a complete gzip file",
        None,
    ),
    (
        "read_arff truncated gz",
        lambda p: streams.read_arff(
            _write(
                p,
                "t.arff.gz",
                gzip.compress(
                    b"@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
                    + b"1,x\n" * 500
                )[:-12],
            )
        ),
        ValueError,
        r"t\.arff\.gz is not a complete gzip file",
        None,
    ),
    (
        "read_csv encoding='nope'",
        lambda p: streams.read_csv(_write(p, "e.csv", "a,c\n1,0\n"), encoding="nope"),
        ValueError,
        "encoding 'nope' is not a text encoding Python knows",
        None,
    ),
    (
        "read_csv header='no'",
        lambda p: streams.read_csv(_write(p, "h.csv", "a,c\n1,0\n"), header="no"),
        ValueError,
        "header must be True or False, got 'no'",
        None,
    ),
    (
        "read_arff numeric class 1.5",
        lambda p: streams.read_arff(
            _write(
                p,
                "n.arff",
                "@relation r\n@attribute a numeric\n@attribute c numeric\n@data\n1,1.5\n2,0\n",
            )
        ),
        ValueError,
        "numeric class attribute 'c' holds '1.5' in data row 1; a numeric class must "
        "hold whole non-negative numbers",
        None,
    ),
    (
        "read_arff empty nominal",
        lambda p: streams.read_arff(
            _write(
                p, "e.arff", "@relation r\n@attribute a {}\n@attribute c {x,y}\n@data\n?,x\n?,y\n"
            )
        ),
        ValueError,
        r"line 2: nominal attribute 'a' declares no value \('\{\}'\)",
        None,
    ),
]


@pytest.mark.parametrize(
    "call, error, match, old", [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_gets_a_clear_error(call, error, match, old, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow warning on the way
        with pytest.raises(error, match=match) as exc:
            call(tmp_path)
    if old is not None:
        assert old not in str(exc.value)


def test_an_np_float32_budget_is_a_budget():
    """np.float32(0.3) was refused ("budget must be a query rate in (0, 1]")."""
    from workbench import active

    res = evaluate.prequential(
        learners.HoeffdingTree(), X, Y, strategy=active.ConfTree(seed=1), budget=np.float32(0.3)
    )
    assert 0 < res.labels_used <= 0.3 * len(Y) + 1


# ------------------------------------------------------------------- results that were wrong
@pytest.mark.parametrize(
    "cls", [learners.HoeffdingTree, learners.EFDT, learners.UFFT, learners.FrugalHoeffdingTree]
)
def test_memory_limit_inf_is_no_limit(cls):
    """``inf // per`` is NaN and ``max(1.0, nan)`` kept 1.0: the tree froze at one node."""
    Xs, ys = streams.sea(n=20_000, seed=1)
    kw = dict(alpha=1.0) if cls is learners.FrugalHoeffdingTree else {}
    unlimited = cls(memory_limit_mb=None, **kw).fit(Xs, ys)
    infinite = cls(memory_limit_mb=float("inf"), **kw).fit(Xs, ys)
    assert infinite.n_nodes == unlimited.n_nodes > 1
    np.testing.assert_array_equal(infinite.predict(Xs), unlimited.predict(Xs))


@pytest.mark.parametrize(
    "make, what",
    [
        (lambda: learners.HoeffdingTree(3, 10**6), "1,000,000 classes"),
        (lambda: learners.HoeffdingTree(nominal_features={0: 10**7}), "10,000,000 values"),
        (lambda: learners.UFFT(memory_limit_mb=0.01), "a UFFT of 3 features and 2 classes"),
    ],
)
def test_a_limit_too_small_for_an_empty_tree_is_an_error_naming_it(make, what):
    model = make()
    ys = Y if "classes" not in what else Y
    with pytest.raises(
        ValueError,
        match=f"memory_limit_mb=.* is too small for even an empty "
        f"tree: .*{what}.* needs [\\d,.]+ MB",
    ):
        model.fit(X[:50], ys[:50])


@pytest.mark.parametrize("limit", [0.5, 2.0, 4.0, 256.0])
def test_the_memory_limit_holds_from_the_first_allocation(limit):
    """Under the limit from the first allocation: 10,000 features made 64 statistics slots of
    0.88 MB each (56 MB under a limit of 4 MB) before any row was learned."""
    rng = np.random.default_rng(0)
    Xw = rng.random((300, 10_000))
    yw = (Xw[:, 0] > 0.5).astype(np.int64)
    if limit == 0.5:
        with pytest.raises(ValueError, match="is too small for even an empty tree"):
            learners.HoeffdingTree(memory_limit_mb=limit).fit(Xw, yw)
        return
    model = learners.HoeffdingTree(memory_limit_mb=limit, grace_period=20).fit(Xw, yw)
    assert model.memory_bytes() <= limit * 2**20


def test_a_growing_tree_never_holds_more_than_its_limit():
    """The arrays double as the tree grows; the last doubling lands within the limit."""
    Xs, ys = streams.random_tree(60_000, seed=2, n_classes=3)
    for limit in (0.05, 0.2):
        model = learners.HoeffdingTree(memory_limit_mb=limit, grace_period=50, delta=0.01)
        for lo in range(0, len(ys), 5_000):
            model.partial_fit(Xs[lo : lo + 5_000], ys[lo : lo + 5_000], classes=[0, 1, 2])
            assert model.memory_bytes() <= limit * 2**20
        assert model.summary()["guard_refusals"] > 0  # the limit did bite


@pytest.mark.parametrize("text", ["3,4,1e300", "3,4,1000000000"])
def test_a_class_column_of_large_numbers_maps_to_its_values(text, tmp_path):
    """1e300 became -2**63 with one class name; 1e9 built a class per integer below it."""
    path = _write(tmp_path, "c.csv", f"a,b,label\n1,2,0\n{text}\n5,6,0\n")
    Xc, yc, info = streams.read_csv(path, return_info=True)
    assert yc.tolist() == [0, 1, 0]
    assert info.class_names == ["0", text.split(",")[-1]]


def test_small_whole_labels_stay_as_written(tmp_path):
    path = _write(tmp_path, "s.csv", "a,label\n1,2\n2,1\n3,2\n")
    _, yc, info = streams.read_csv(path, return_info=True)
    assert yc.tolist() == [2, 1, 2] and info.class_names == ["0", "1", "2"]


def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    path = _write(tmp_path, "b.csv", b"\xef\xbb\xbfa,b,label\n1,2,0\n3,4,1\n")
    _, _, info = streams.read_csv(path, return_info=True)
    assert info.feature_names == ["a", "b"]
    arff = _write(
        tmp_path,
        "b.arff",
        b"\xef\xbb\xbf@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1,x\n",
    )
    assert streams.read_arff(arff)[1].tolist() == [0]


def test_a_latin_1_file_reads_with_its_encoding(tmp_path):
    path = _write(tmp_path, "l.csv", "a,colour,label\n1,rouge,café\n2,bleu,thé\n".encode("latin-1"))
    _, yc, info = streams.read_csv(path, encoding="latin-1", return_info=True)
    assert info.class_names == ["café", "thé"] and yc.tolist() == [0, 1]


def test_window_accuracy_stays_a_fraction():
    """``window=2.5`` gave window accuracies up to 1.2; an integer window gives fractions."""
    res = evaluate.prequential(learners.HoeffdingTree(), X, Y, window=3)
    assert ((res.window_curve >= 0) & (res.window_curve <= 1)).all()


def test_mcdiarmid_is_positive_where_it_is_defined():
    m = np.array([1.0, 2.0, 10.0, 1e6])
    assert (bounds.mcdiarmid_entropy(m, 0.1, 2) > 0).all()


def test_feature_gains_are_gains():
    gains = sequential.feature_gains(0.3, np.array([[0.2, 0.9], [0.5, 0.5]]))
    assert gains[0] > 0 and gains[1] == pytest.approx(0.0, abs=1e-15)


def test_ddm_run_takes_a_list_and_signals_no_drift_on_a_clean_stream():
    warning, drift = montecarlo.ddm_run([0, 1] * 50)
    assert warning.shape == drift.shape == (100,) and not drift.any()


def test_check_bound_seeds_near_2_to_the_64_differ():
    a = montecarlo.check_bound("hoeffding", n=[10], trials=200, seed=2**64 - 1)
    b = montecarlo.check_bound("hoeffding", n=[10], trials=200, seed=0)
    assert not a["empirical_quantile"].equals(b["empirical_quantile"])
