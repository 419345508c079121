"""Tests of workbench.streams: each generator's documented properties, the loaders and the errors.

Statistical checks use fixed seeds and exact tests (binomial, chi-square) at level 0.001, so they
are deterministic and would fail if a generator's noise rate, class balance or means were wrong.
"""

from __future__ import annotations

import gzip
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from _moa import moa_jar
from workbench import streams
from workbench.streams._java_random import JavaRandom
from workbench.streams.random_tree import grow_random_tree

ALPHA = 1e-3


# ---------------------------------------------------------------------------------------------- SEA


@pytest.mark.parametrize("concept, theta", [(0, 8.0), (1, 9.0), (2, 7.0), (3, 9.5)])
def test_sea_noise_free_labels_are_the_threshold_rule(concept, theta):
    X, y = streams.sea(20_000, seed=11 + concept, concept=concept, noise=0.0)
    assert X.shape == (20_000, 3) and X.dtype == np.float64 and y.dtype == np.int64
    assert X.min() >= 0.0 and X.max() < 10.0
    np.testing.assert_array_equal(y, (X[:, 0] + X[:, 1] > theta).astype(np.int64))


def test_sea_noise_flips_ten_percent_of_labels_independently_of_class():
    n = 100_000
    X, y = streams.sea(n, seed=7, concept=1, noise=0.1)
    clean = (X[:, 0] + X[:, 1] > 9.0).astype(np.int64)
    flipped = y != clean
    assert stats.binomtest(int(flipped.sum()), n, 0.1).pvalue > ALPHA
    for k in (0, 1):  # the flip does not depend on the true class
        mask = clean == k
        assert stats.binomtest(int(flipped[mask].sum()), int(mask.sum()), 0.1).pvalue > ALPHA
    # noise only touches labels: the attributes are those of the noise-free stream
    X0, _ = streams.sea(n, seed=7, concept=1, noise=0.0)
    np.testing.assert_array_equal(X, X0)


def test_sea_abrupt_drift_positions_and_concepts():
    X, y, info = streams.sea(8_000, seed=3, concepts=(0, 1, 2, 3), noise=0.0, return_info=True)
    assert info.drift_positions == [2_000, 4_000, 6_000]
    for start, theta in zip(range(0, 8_000, 2_000), (8.0, 9.0, 7.0, 9.5)):
        seg = slice(start, start + 2_000)
        np.testing.assert_array_equal(y[seg], (X[seg, 0] + X[seg, 1] > theta).astype(np.int64))
    # a custom period cycles through the sequence; repeated concepts are no drift
    X, y, info = streams.sea(
        5_000, seed=3, concepts=(2, 2, 0), drift_every=1_000, noise=0.0, return_info=True
    )
    assert info.drift_positions == [2_000, 3_000]
    expected_theta = np.array([7.0, 7.0, 8.0, 7.0, 7.0]).repeat(1_000)
    np.testing.assert_array_equal(y, (X[:, 0] + X[:, 1] > expected_theta).astype(np.int64))


# ----------------------------------------------------------------------------------------- Waveform


def _breiman_waves() -> np.ndarray:
    """h1(i) = max(6 - |i - 7|, 0), h2(i) = h1(i - 8), h3(i) = h1(i - 4) for i = 1..21."""
    i = np.arange(1, 22)
    return np.array([np.maximum(6 - np.abs(i - c), 0) for c in (7, 15, 11)], dtype=float)


@pytest.mark.parametrize("n_features", [21, 40])
def test_waveform_classes_are_balanced_and_means_match_the_definition(n_features):
    n = 30_000
    X, y, info = streams.waveform(n, seed=5, n_features=n_features, return_info=True)
    assert X.shape == (n, n_features) and info.n_classes == 3
    counts = np.bincount(y, minlength=3)
    assert stats.chisquare(counts).pvalue > ALPHA
    h = _breiman_waves()
    pairs = [(0, 1), (0, 2), (1, 2)]
    z2 = 0.0
    dof = 0
    for k, (a, b) in enumerate(pairs):
        Xk = X[y == k]
        mean = np.zeros(n_features)
        mean[:21] = (h[a] + h[b]) / 2
        var = np.ones(n_features)
        var[:21] += (h[a] - h[b]) ** 2 / 12  # u h_a + (1 - u) h_b with u ~ U[0, 1), plus N(0, 1)
        z = (Xk.mean(axis=0) - mean) / np.sqrt(var / len(Xk))
        z2 += float(np.sum(z**2))
        dof += n_features
    # the sum of squared z-scores of all class means is chi-square with 3 * n_features dof
    assert stats.chi2.sf(z2, dof) > ALPHA


# ---------------------------------------------------------------------------------------------- LED

# Segments in order top, upper-left, upper-right, middle, lower-left, lower-right, bottom.
_DIGIT_SEGMENTS = {
    0: {"top", "ul", "ur", "ll", "lr", "bottom"},
    1: {"ur", "lr"},
    2: {"top", "ur", "mid", "ll", "bottom"},
    3: {"top", "ur", "mid", "lr", "bottom"},
    4: {"ul", "ur", "mid", "lr"},
    5: {"top", "ul", "mid", "lr", "bottom"},
    6: {"top", "ul", "mid", "ll", "lr", "bottom"},
    7: {"top", "ur", "lr"},
    8: {"top", "ul", "ur", "mid", "ll", "lr", "bottom"},
    9: {"top", "ul", "ur", "mid", "lr", "bottom"},
}
_SEGMENT_ORDER = ["top", "ul", "ur", "mid", "ll", "lr", "bottom"]
_DISPLAY = np.array(
    [[s in _DIGIT_SEGMENTS[k] for s in _SEGMENT_ORDER] for k in range(10)], dtype=float
)


def test_led_without_noise_displays_the_digit():
    X, y, info = streams.led(2_000, seed=2, noise=0.0, return_info=True)
    assert X.shape == (2_000, 24) and info.n_classes == 10
    np.testing.assert_array_equal(X[:, :7], _DISPLAY[y])
    assert info.nominal_features == {j: 2 for j in range(24)}


def test_led_flips_each_segment_with_the_noise_probability():
    n = 50_000
    X, y = streams.led(n, seed=4, noise=0.1)
    flipped = X[:, :7] != _DISPLAY[y]
    for s in range(7):
        assert stats.binomtest(int(flipped[:, s].sum()), n, 0.1).pvalue > ALPHA, s
    assert stats.chisquare(np.bincount(y, minlength=10)).pvalue > ALPHA


def test_led_irrelevant_attributes_are_fair_coins_independent_of_the_class():
    n = 50_000
    X, y = streams.led(n, seed=6, noise=0.1, irrelevant=17)
    extra = X[:, 7:]
    assert extra.shape[1] == 17 and set(np.unique(extra)) == {0.0, 1.0}
    assert stats.binomtest(int(extra.sum()), extra.size, 0.5).pvalue > ALPHA
    # Pearson chi-square of each attribute against the class; independent attributes sum to chi2(17 * 9)
    total = 0.0
    for j in range(17):
        table = np.zeros((2, 10))
        np.add.at(table, (extra[:, j].astype(int), y), 1)
        total += stats.chi2_contingency(table, correction=False)[0]
    assert stats.chi2.sf(total, 17 * 9) > ALPHA
    assert streams.led(10, seed=1, irrelevant=0)[0].shape == (10, 7)


# --------------------------------------------------------------------------------------- RandomTree


def _walk(tree, x) -> int:
    """Label one instance by following the tree's arrays node by node."""
    i = 0
    while tree.feature[i] >= 0:
        j = tree.feature[i]
        if j < tree.n_nominal:
            i = tree.children[i, int(x[j])]
        else:
            i = tree.children[i, 0] if x[j] < tree.threshold[i] else tree.children[i, 1]
    return int(tree.label[i])


def test_random_tree_labels_are_the_returned_trees_function_of_the_attributes():
    X, y, info = streams.random_tree(3_000, seed=5, n_classes=3, return_info=True)
    tree = info.tree
    assert tree.n_leaves > 10
    assert [_walk(tree, x) for x in X] == y.tolist()
    np.testing.assert_array_equal(tree.predict(X), y)
    assert set(np.unique(y)) <= {0, 1, 2}


def test_random_tree_attribute_ranges_and_seeds():
    X, y, info = streams.random_tree(
        5_000, seed=1, n_nominal=4, n_numeric=3, n_values=3, return_info=True
    )
    nominal = X[:, :4]
    assert set(np.unique(nominal)) == {0.0, 1.0, 2.0}
    assert info.nominal_features == {0: 3, 1: 3, 2: 3, 3: 3}
    assert X[:, 4:].min() >= 0.0 and X[:, 4:].max() < 1.0
    for j in range(4):  # nominal values are uniform
        assert stats.chisquare(np.bincount(nominal[:, j].astype(int))).pvalue > ALPHA
    X2, y2 = streams.random_tree(5_000, seed=1, n_nominal=4, n_numeric=3, n_values=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, y3, info3 = streams.random_tree(
        5_000, seed=2, n_nominal=4, n_numeric=3, n_values=3, return_info=True
    )
    assert not np.array_equal(X, X3)
    assert not np.array_equal(info.tree.feature, info3.tree.feature)
    # a fixed tree_seed keeps the concept while the instances change
    _, _, a = streams.random_tree(10, seed=1, tree_seed=9, return_info=True)
    _, _, b = streams.random_tree(10, seed=2, tree_seed=9, return_info=True)
    np.testing.assert_array_equal(a.tree.feature, b.tree.feature)
    np.testing.assert_array_equal(a.tree.threshold, b.tree.threshold)


@pytest.mark.parametrize("tree_seed", [1, 2, 3])
def test_random_tree_growth_rules(tree_seed):
    tree = grow_random_tree(
        tree_seed,
        n_classes=4,
        n_nominal=3,
        n_numeric=2,
        n_values=3,
        max_depth=6,
        first_leaf_level=2,
        leaf_fraction=0.3,
    )
    leaves = tree.is_leaf
    assert tree.depth[leaves].min() >= 2 and tree.depth[leaves].max() <= 6
    assert set(tree.label[leaves]) <= {0, 1, 2, 3} and (tree.label[~leaves] == -1).all()

    def check(i, used_nominal, low, high):
        j = tree.feature[i]
        if j < 0:
            return
        if j < 3:
            assert j not in used_nominal  # a nominal attribute is tested once per path
            for child in tree.children[i]:
                check(child, used_nominal | {j}, low, high)
        else:
            k = j - 3
            t = tree.threshold[i]
            assert low[k] <= t < high[k]  # drawn inside the interval left by the ancestors
            check(tree.children[i, 0], used_nominal, low, {**high, k: t})
            check(tree.children[i, 1], used_nominal, {**low, k: t}, high)

    check(0, frozenset(), {0: 0.0, 1: 0.0}, {0: 1.0, 1: 1.0})
    full = grow_random_tree(tree_seed, n_nominal=2, n_numeric=1, max_depth=3, leaf_fraction=0.0)
    assert (full.depth[full.is_leaf] == 3).all()
    early = grow_random_tree(
        tree_seed, n_nominal=2, n_numeric=1, max_depth=5, first_leaf_level=1, leaf_fraction=1.0
    )
    assert (early.depth[early.is_leaf] == 1).all()
    # nominal attributes only, deeper than their number: paths end in leaves once all are used
    only = grow_random_tree(
        tree_seed, n_nominal=2, n_numeric=0, n_values=2, max_depth=5, leaf_fraction=0.0
    )
    assert only.max_depth == 2


def test_random_tree_value_equal_to_a_threshold_goes_right():
    tree = grow_random_tree(4, n_nominal=0, n_numeric=2, max_depth=4)
    j, t = tree.feature[0], tree.threshold[0]
    x = np.full((1, 2), 0.5)
    x[0, j] = t  # MOA sends x < threshold left, everything else right
    right = tree.children[0, 1]
    assert tree.apply(x)[0] >= right  # pre-order: the right subtree's nodes come after its root
    x[0, j] = np.nextafter(t, 0.0)
    assert tree.apply(x)[0] < right


def test_java_random_matches_reference_values():
    # Values printed by java.util.Random (OpenJDK 17) for new Random(42) and new Random(2024).
    r = JavaRandom(42)
    got = []
    for bound in (2, 3, 5, 10, 16):
        got.append(r.next_int(bound))
        got.append(r.next_double())
    assert got == [
        1,
        0.05466526274716077,
        2,
        0.30871945533265976,
        0,
        0.7077105889551186,
        3,
        0.9033722646721782,
        5,
        0.3816430907807956,
    ]
    r = JavaRandom(2024)  # a bound whose rejection step is taken twice in these six draws
    assert [r.next_int(1610612736) for _ in range(6)] == [
        1328119050,
        1580346626,
        404367186,
        1402689389,
        202218659,
        1490266679,
    ]


# Rows written by MOA 2024 (`WriteStreamToARFFFile -s (generators.RandomTreeGenerator ...) -m 30`).
MOA_RANDOM_TREE_DEFAULT = """@relation 'generators.RandomTreeGenerator '
@attribute nominal1 {value1,value2,value3,value4,value5}
@attribute nominal2 {value1,value2,value3,value4,value5}
@attribute nominal3 {value1,value2,value3,value4,value5}
@attribute nominal4 {value1,value2,value3,value4,value5}
@attribute nominal5 {value1,value2,value3,value4,value5}
@attribute numeric1 numeric
@attribute numeric2 numeric
@attribute numeric3 numeric
@attribute numeric4 numeric
@attribute numeric5 numeric
@attribute class {class1,class2}
@data
value1,value4,value3,value4,value5,0.0362353821503677,0.6588672394716129,0.7107396275716601,0.15273620134152177,0.15957805424728078,class1,
value5,value3,value3,value2,value5,0.3971743421847056,0.34751802920311026,0.29405703200403677,0.5064836273262351,0.11596708803265776,class2,
value1,value5,value1,value2,value4,0.7616746929019993,0.623972537215988,0.8792629643521901,0.4502184063975181,0.004852533415334981,class2,
value3,value1,value4,value1,value3,0.14202270321592614,0.481728301575598,0.5445548088936737,0.5771002613742765,0.20491354575856158,class1,
value1,value2,value2,value4,value4,0.6835265034592647,0.48625958231173216,0.4875150254427949,0.12657499274364126,0.13020870455245015,class2,
value3,value3,value2,value2,value3,0.43200687989353914,0.2331557947513334,0.8899087516553771,0.03832689331927541,0.5923792438629387,class2,
value3,value2,value5,value1,value4,0.5862483975935397,0.9622148157170044,0.26515529117956005,0.36289600228294405,0.8784288366676899,class2,
value5,value4,value4,value4,value3,0.9989808147679288,0.6304048639228539,0.9095840355890242,0.5076599160699481,0.4914512055616126,class1,
value4,value4,value1,value2,value2,0.4946194136502534,0.01538437917072677,0.35899459082855023,0.2424783341430502,0.8011570655624328,class2,
value2,value5,value2,value2,value2,0.6990066224344805,0.20463555220568552,0.2549094512998157,0.7779163595195279,0.22502238600837543,class2,
value5,value3,value4,value3,value2,0.09014655892705203,0.437422687374017,0.3207844348067107,0.6544260178683681,0.37287330937352725,class2,
value2,value2,value2,value4,value1,0.7233716462158025,0.5094929196703692,0.9871021380962999,0.15324623281626104,0.7105747751483344,class2,
value1,value1,value1,value2,value4,0.7077681792059891,0.26590316146240056,0.06344924296656074,0.5908697996753509,0.28400916742442694,class2,
value3,value2,value1,value5,value2,0.679935420191025,0.280001615782666,0.6039836876835672,0.8496408070142764,0.3538232827704746,class1,
value5,value2,value2,value5,value4,0.8257518968619348,0.5397618625049699,0.6418366935224562,0.9706215451850492,0.8632577915463435,class2,
value4,value1,value2,value2,value4,0.4577001830735099,0.8624497547615505,0.9019239557423011,0.06248845991277674,0.7638204881746642,class1,
value2,value5,value4,value5,value3,0.6304712233889196,0.552807920683817,0.5434191027585561,0.2017118618977246,0.9973999596608523,class1,
value5,value2,value3,value5,value1,0.3377209272639704,0.6073350789607563,0.3154227864574829,0.024472129835244494,0.45100850261544956,class1,
value4,value3,value1,value2,value4,0.0420465272087327,0.8242939221199226,0.577427144994879,0.915885521905163,0.7252263961716522,class2,
value4,value1,value5,value2,value4,0.7746041094589238,0.3064827881053399,0.8805986697893162,0.6304014407849913,0.9288937133245545,class1,
value5,value1,value1,value5,value3,0.4242532408562105,0.5650152322444748,0.049864050546426175,0.8963139461390996,0.29231995508482456,class1,
value4,value2,value2,value4,value2,0.31663147897269206,0.6670733531962961,0.42644304740942895,0.40055716131309627,0.7437615476135019,class2,
value3,value3,value4,value5,value5,0.8588647471773447,0.7886097055476289,0.007993714975846111,0.04104313301736828,0.4496849096485467,class2,
value5,value2,value5,value4,value3,0.7779502723802081,0.288100716049866,0.7813547336294311,0.9662539506822094,0.9965234515119386,class1,
value1,value4,value3,value2,value3,0.6567499970566345,0.6499009379160767,0.17086080569370954,0.9002531402702127,0.03589487448776152,class2,
value3,value1,value3,value3,value2,0.776990965679351,0.24227614275862075,0.17570195450010273,0.44479400596125773,0.8296912233491993,class2,
value3,value4,value5,value3,value5,0.4597021500080378,0.7969424119298234,0.33506904939437954,0.5793621872241996,0.5213967308994596,class2,
value1,value2,value4,value4,value5,0.8070763655241631,0.38872927575292127,0.2652464610309502,0.03237285340092644,0.6697852634820785,class1,
value2,value5,value5,value4,value4,0.9795762304907025,0.15354801279535624,0.9303413670924049,0.4595105516282981,0.8590348316911748,class2,
value5,value1,value1,value1,value4,0.16759999599955966,0.5946311329871145,0.8098898289838599,0.5149291408485576,0.34898138772155585,class2,
"""

MOA_RANDOM_TREE_NUMERIC = """@relation 'generators.RandomTreeGenerator -r 11 -c 3 -o 0 -u 3 -d 8 -f 0.1'
@attribute numeric1 numeric
@attribute numeric2 numeric
@attribute numeric3 numeric
@attribute class {class1,class2,class3}
@data
0.7308781907032909,0.41008081149220166,0.20771484130971707,class3,
0.3327170559595112,0.9677559094241207,0.006117182265761301,class1,
0.9637047970232077,0.9398653887819098,0.9471949176631939,class3,
0.9370821488959696,0.3971743421847056,0.34751802920311026,class3,
0.29405703200403677,0.5064836273262351,0.11596708803265776,class3,
0.7705358800791777,0.65989270869342,0.15674689056984625,class2,
0.3782020453210553,0.13976268290375116,0.6949479796024919,class1,
0.8052277714737137,0.005025175992452557,0.523135155788333,class3,
0.7439844862373166,0.14202270321592614,0.481728301575598,class2,
0.5445548088936737,0.5771002613742765,0.20491354575856158,class3,
0.6233638106316658,0.18470709027794863,0.010684410982228831,class1,
0.16104332337170224,0.17805484663717475,0.5403970647837965,class1,
0.9738340099187002,0.24542655358129561,0.39452090629422176,class1,
0.21760212490768482,0.43200687989353914,0.2331557947513334,class3,
0.8899087516553771,0.03832689331927541,0.5923792438629387,class2,
0.6551736031294164,0.11983904230418962,0.6524767068959532,class1,
0.9843228006692949,0.20673750736050733,0.37464950029397015,class3,
0.46334978756947576,0.3336102111746697,0.4432124503172691,class3,
0.5041355667045739,0.9989808147679288,0.6304048639228539,class3,
0.9095840355890242,0.5076599160699481,0.4914512055616126,class1,
0.4287841787462007,0.3080929152084798,0.7173224016222269,class2,
0.9624145927337464,0.20949273346356434,0.17264882091400524,class3,
0.5489525169306556,0.5554683820879616,0.5878158289013334,class3,
0.7891906578350958,0.6990066224344805,0.20463555220568552,class2,
0.2549094512998157,0.7779163595195279,0.22502238600837543,class3,
0.9831031848337031,0.803618606015427,0.8363149477563286,class3,
0.16310352738831468,0.6374974298594064,0.008760417318731673,class1,
0.6311898883115249,0.2079779790426225,0.8803572849070423,class1,
0.7070442260539652,0.7233716462158025,0.5094929196703692,class3,
0.9871021380962999,0.15324623281626104,0.7105747751483344,class1,
"""


@pytest.mark.parametrize(
    "text, options",
    [
        (MOA_RANDOM_TREE_DEFAULT, dict()),
        (
            MOA_RANDOM_TREE_NUMERIC,
            dict(
                tree_seed=11,
                n_classes=3,
                n_nominal=0,
                n_numeric=3,
                max_depth=8,
                first_leaf_level=3,
                leaf_fraction=0.1,
            ),
        ),
    ],
)
def test_random_tree_grows_the_same_tree_as_moa(tmp_path, text, options):
    path = tmp_path / "moa.arff"
    path.write_text(text)
    X, y = streams.read_arff(path)
    options = {"tree_seed": 1, **options}
    tree = grow_random_tree(**options)
    np.testing.assert_array_equal(tree.predict(X), y)


@pytest.mark.slow
@pytest.mark.skipif(moa_jar() is None, reason="needs CapyMOA's moa.jar and java (the bench extra)")
def test_random_tree_matches_moa_on_a_long_stream(tmp_path):
    out = tmp_path / "rt.arff"
    task = (
        "WriteStreamToARFFFile -s (generators.RandomTreeGenerator -r 3 -c 5 -o 2 -u 2 -v 4 -d 10 "
        f"-l 4 -f 0.25) -f {out} -m 5000"
    )
    subprocess.run(
        ["java", "-cp", str(moa_jar()), "moa.DoTask", task], check=True, capture_output=True
    )
    X, y = streams.read_arff(out)
    tree = grow_random_tree(
        3,
        n_classes=5,
        n_nominal=2,
        n_numeric=2,
        n_values=4,
        max_depth=10,
        first_leaf_level=4,
        leaf_fraction=0.25,
    )
    np.testing.assert_array_equal(tree.predict(X), y)


def test_random_tree_text_and_dot_name_every_node():
    _, _, info = streams.random_tree(
        10, seed=1, n_nominal=1, n_numeric=1, max_depth=3, return_info=True
    )
    tree = info.tree
    text = tree.to_text()
    assert text.count(": class") == tree.n_leaves
    dot = tree.to_dot()
    assert dot.count("->") == tree.n_nodes - 1 and dot.startswith("digraph")


# ---------------------------------------------------------------------------------- shipped data sets


@pytest.fixture(scope="module")
def electricity():
    return streams.electricity(return_info=True)


@pytest.fixture(scope="module")
def adult():
    return streams.adult(return_info=True)


def test_electricity_shape_counts_and_label_meaning(electricity):
    X, y, info = electricity
    assert X.shape == (45_312, 6) and info.nominal_features == {}
    assert np.bincount(y).tolist() == [26_075, 19_237]
    assert info.feature_names == [
        "period",
        "nswprice",
        "nswdemand",
        "vicprice",
        "vicdemand",
        "transfer",
    ]
    assert X.min() >= 0.0 and X.max() <= 1.0
    # class 1 ("UP") means: NSW price above its mean over the previous 48 half-hours
    price = X[:, 1]
    window = np.convolve(price, np.ones(48) / 48)[: len(price)]
    above = price[48:] > window[47:-1]
    assert y[48:][~above].sum() == 0
    assert y[48:][above].mean() > 0.99
    X2, y2 = streams.load("Electricity")
    np.testing.assert_array_equal(X, X2)


def test_adult_shape_counts_and_encoding(adult):
    X, y, info = adult
    assert X.shape == (30_162, 14)
    assert info.class_names == ["<=50K", ">50K"]
    assert np.bincount(y).tolist() == [22_654, 7_508]
    nominal_names = [
        "type_employer",
        "education",
        "marital",
        "occupation",
        "relationship",
        "race",
        "sex",
        "country",
    ]
    assert [info.feature_names[j] for j in info.nominal_features] == nominal_names
    for j, k in info.nominal_features.items():
        assert info.categories[j] == sorted(info.categories[j]) and len(info.categories[j]) == k
        assert set(np.unique(X[:, j])) == set(range(k))
    sex = info.feature_names.index("sex")
    assert info.categories[sex] == ["Female", "Male"]
    assert not np.isnan(X).any()


def test_load_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown data set"):
        streams.load("covertype")


# ------------------------------------------------------------------------------------- CSV and ARFF

CSV_TEXT = """colour, size ,weight,label
red,1.5,10,yes
blue,?,9,no
,2.5,,yes
green,3.5,100,maybe
red,-1e-3,50,no
"""


def test_read_csv_encodes_nominal_columns_and_keeps_missing_values(tmp_path):
    path = tmp_path / "tiny.csv"
    path.write_text(CSV_TEXT)
    X, y, info = streams.read_csv(path, return_info=True)
    assert info.feature_names == ["colour", "size", "weight"]
    assert info.categories == {0: ["blue", "green", "red"]} and info.nominal_features == {0: 3}
    assert info.class_names == ["maybe", "no", "yes"]
    expected = np.array(
        [[2, 1.5, 10], [0, np.nan, 9], [np.nan, 2.5, np.nan], [1, 3.5, 100], [2, -1e-3, 50]]
    )
    np.testing.assert_array_equal(X, expected)
    np.testing.assert_array_equal(y, [2, 1, 2, 0, 1])
    # target by name; a numeric column declared nominal has its values in numeric order
    X, y, info = streams.read_csv(path, target="label", nominal=["colour", 2], return_info=True)
    assert info.categories[2] == ["9", "10", "50", "100"] and info.nominal_features == {0: 3, 2: 4}
    np.testing.assert_array_equal(X[:, 2], [1, 0, np.nan, 3, 2])
    # gzip and no header
    gz = tmp_path / "tiny.csv.gz"
    with gzip.open(gz, "wt") as fh:
        fh.write("\n".join(CSV_TEXT.splitlines()[1:]) + "\n")
    X2, y2 = streams.read_csv(gz, header=False)
    np.testing.assert_array_equal(X2, expected)
    np.testing.assert_array_equal(y2, [2, 1, 2, 0, 1])


def test_read_csv_integer_labels_stay_as_written(tmp_path):
    path = tmp_path / "ints.csv"
    path.write_text("a,b,class\n1,2,0\n3,4,2\n5,6,2\n")
    X, y, info = streams.read_csv(path, return_info=True)
    assert (
        y.tolist() == [0, 2, 2]
        and info.class_names == ["0", "1", "2"]
        and info.nominal_features == {}
    )


def test_csv_to_arff_round_trip_with_nominal_columns_and_missing_values(tmp_path):
    path = tmp_path / "tiny.csv"
    path.write_text(CSV_TEXT.replace("green", "\"dark green, 'ish' {1}\""))
    X, y, info = streams.read_csv(path, return_info=True)
    arff = tmp_path / "tiny.arff"
    streams.write_arff(arff, X, y, info, relation="tiny data")
    X2, y2, info2 = streams.read_arff(arff, return_info=True)
    np.testing.assert_array_equal(X2, X)  # NaN compares equal in assert_array_equal
    np.testing.assert_array_equal(y2, y)
    assert info2.categories == info.categories and info2.nominal_features == info.nominal_features
    assert info2.class_names == info.class_names and info2.feature_names == info.feature_names
    assert info2.name == "tiny data"


@pytest.mark.parametrize(
    "make",
    [
        lambda: streams.led(300, seed=1, return_info=True),
        lambda: streams.random_tree(300, seed=1, return_info=True),
        lambda: streams.waveform(300, seed=1, n_features=40, return_info=True),
    ],
)
def test_generated_streams_round_trip_through_arff(tmp_path, make):
    X, y, info = make()
    path = tmp_path / "s.arff.gz"
    streams.write_arff(path, X, y, info)
    X2, y2, info2 = streams.read_arff(path, return_info=True)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    assert info2.nominal_features == info.nominal_features and info2.class_names == info.class_names


def test_round_trip_without_info_and_with_awkward_names(tmp_path):
    X = np.array([[0.0, 1.0], [np.nan, 2.0], [1.0, 5e-324]])
    y = np.array([0, 3, 1])
    path = tmp_path / "plain.arff"
    streams.write_arff(path, X, y)
    X2, y2, info = streams.read_arff(path, return_info=True)
    np.testing.assert_array_equal(X2, X)
    assert y2.tolist() == [0, 3, 1] and info.class_names == ["0", "1", "2", "3"]
    X, y, info = streams.from_arrays(
        [[0, 1.5], [1, 2.5]],
        [0, 1],
        nominal_features={0: 2},
        feature_names=["class", "it's, odd"],
        return_info=True,
    )
    info.categories[0] = ["a b", "{c}"]
    info.class_names = ["%x", "y=1"]
    streams.write_arff(path, X, y, info)
    X2, y2, info2 = streams.read_arff(path, return_info=True)
    np.testing.assert_array_equal(X2, X)
    assert info2.feature_names == ["class", "it's, odd"] and info2.categories[0] == ["a b", "{c}"]
    assert info2.class_names == ["%x", "y=1"]
    info.class_names = ["?", "b"]  # '?' would read back as a missing label
    with pytest.raises(ValueError, match="missing value"):
        streams.write_arff(path, X, y, info)


@settings(max_examples=25, deadline=None)
@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=2, max_dims=2, max_side=6),
        elements=st.floats(allow_infinity=False, allow_nan=True),
    )
)
def test_arff_round_trip_is_exact_for_any_floats(tmp_path_factory, X):
    y = np.arange(X.shape[0]) % 3
    path = tmp_path_factory.mktemp("prop") / "p.arff"
    streams.write_arff(path, X, y)
    X2, y2 = streams.read_arff(path)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)


def test_read_arff_syntax(tmp_path):
    text = """% a comment
@RELATION "my relation"

@Attribute 'first attr' REAL
@attribute count integer
@attribute kind {'a, b', c ,"d"}
% another comment
@attribute cls {no,yes}
@DATA
1.5, 3, 'a, b', yes,
?, 4, c, no
% in the data
2, ?, "d", yes
"""
    path = tmp_path / "s.arff"
    path.write_text(text)
    X, y, info = streams.read_arff(path, return_info=True)
    np.testing.assert_array_equal(X, [[1.5, 3, 0], [np.nan, 4, 1], [2, np.nan, 2]])
    assert y.tolist() == [1, 0, 1] and info.name == "my relation"
    assert info.feature_names == ["first attr", "count", "kind"]
    assert info.categories == {2: ["a, b", "c", "d"]}
    X, y, info = streams.read_arff(path, target="kind", return_info=True)
    assert info.class_names == ["a, b", "c", "d"]
    with pytest.raises(ValueError, match="missing"):
        streams.read_arff(path, target=1)  # the count column has a '?', which cannot be a label


# ----------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "X, y, message",
    [
        ([[1.0, 2.0], [3.0]], [0, 1], "ragged"),
        ([["a", "b"], ["c", "d"]], [0, 1], "numeric"),
        ([[1.0, np.inf]], [0], "infinity"),
        (np.empty((0, 3)), np.empty(0, dtype=int), "empty"),
        (np.empty((2, 0)), [0, 1], "no feature"),
        ([1.0, 2.0], [0, 1], "2-D"),
        ([[1.0], [2.0]], [0.5, 1.0], "integer"),
        ([[1.0], [2.0]], ["a", "b"], "integer"),
        ([[1.0], [2.0]], [0, -1], "0..K-1"),
        ([[1.0], [2.0]], [0, np.nan], "NaN"),
        ([[1.0], [2.0]], [0, 1, 1], "rows"),
    ],
)
def test_from_arrays_rejects_bad_input(X, y, message):
    with pytest.raises(ValueError, match=message):
        streams.from_arrays(X, y)


def test_from_arrays_converts_and_checks_nominal_codes():
    X, y, info = streams.from_arrays(
        [[0, np.nan], [2, 1.0]], np.array([1.0, 0.0]), nominal_features=[0], return_info=True
    )
    assert X.dtype == np.float64 and y.dtype == np.int64 and np.isnan(X[0, 1])
    assert info.nominal_features == {0: 3} and info.n_classes == 2
    with pytest.raises(ValueError, match="codes"):
        streams.from_arrays([[0.5], [1.0]], [0, 1], nominal_features={0: 2})
    with pytest.raises(ValueError, match="codes"):
        streams.from_arrays([[3.0], [1.0]], [0, 1], nominal_features={0: 2})
    with pytest.raises(ValueError, match="class names"):
        streams.from_arrays([[1.0]], [2], class_names=["a", "b"])


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: streams.sea(0), "length zero"),
        (lambda: streams.sea(-5), "at least 1"),
        (lambda: streams.sea(10.5), "integer"),
        (lambda: streams.sea(10, seed=-1), "seed"),
        (lambda: streams.sea(10, seed="one"), "seed"),
        (lambda: streams.sea(10, noise=1.5), "noise"),
        (lambda: streams.sea(10, concept=4), "concept"),
        (lambda: streams.sea(10, concepts=()), "concepts"),
        (lambda: streams.sea(10, concepts=(0, 5)), "concepts"),
        (lambda: streams.sea(10, concepts=(0, 1), drift_every=0), "drift_every"),
        (lambda: streams.sea(10, drift_every=5), "drift_every"),
        (lambda: streams.waveform(10, n_features=30), "21 or 40"),
        (lambda: streams.led(10, noise=-0.1), "noise"),
        (lambda: streams.led(10, irrelevant=-1), "irrelevant"),
        (lambda: streams.random_tree(10, n_classes=1), "n_classes"),
        (lambda: streams.random_tree(10, n_values=1), "n_values"),
        (lambda: streams.random_tree(10, n_nominal=0, n_numeric=0), "at least one attribute"),
        (lambda: streams.random_tree(10, leaf_fraction=2.0), "leaf_fraction"),
        (lambda: streams.random_tree(10, max_depth=-1), "max_depth"),
    ],
)
def test_generators_reject_bad_parameters(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_generators_accept_whole_float_lengths():
    assert streams.sea(1e3, seed=1)[0].shape == (1000, 3)


def test_random_tree_predict_rejects_bad_rows():
    _, _, info = streams.random_tree(10, seed=1, return_info=True)
    with pytest.raises(ValueError, match="missing"):
        info.tree.predict(np.full((1, 10), np.nan))
    with pytest.raises(ValueError, match="columns"):
        info.tree.predict(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="codes"):
        info.tree.predict(np.full((1, 10), 7.0))


@pytest.mark.parametrize(
    "text, kwargs, message",
    [
        ("a,b\n1,0\n1,2,0\n", {}, "line 3"),
        ("a,b,c\n1,x,0\n", {"nominal": []}, "not a number"),
        ("a,b\n1,0\n2,?\n", {}, "missing"),
        ("a,b\n1,0\n", {"target": "z"}, "not a column"),
        ("a,b\n1,0\n", {"target": 5}, "out of range"),
        ("a,b\n", {}, "no data rows"),
        ("", {}, "empty"),
        ("a,b\ninf,0\n", {}, "infinity"),
        ("a\n1\n", {}, "feature column"),
    ],
)
def test_read_csv_rejects_bad_files(tmp_path, text, kwargs, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        streams.read_csv(path, **kwargs)


HEAD = "@relation r\n@attribute a numeric\n@attribute k {x,y}\n@attribute c {0,1}\n@data\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("@relation r\n@attribute s string\n@attribute c {0,1}\n@data\n", "string"),
        ("@relation r\n@attribute d date\n@attribute c {0,1}\n@data\n", "date"),
        (HEAD + "{0 1, 2 1}\n", "sparse"),
        (HEAD + "1,x\n", "2 values"),
        (HEAD + "1,z,0\n", "declared values"),
        (HEAD + "q,x,0\n", "not a number"),
        (HEAD + "1,x,?\n", "missing"),
        (HEAD, "no data rows"),
        ("@relation r\n@attribute a numeric\n", "no @data"),
        ("@relation r\n@attribute k {x,y\n@attribute c {0,1}\n@data\n", "closed"),
        ("@relation r\n@attribute a numeric\n@attribute c {0,1}\n@data\n'1,0\n", "unterminated"),
        ("hello\n", "expected @relation"),
    ],
)
def test_read_arff_rejects_bad_files(tmp_path, text, message):
    path = tmp_path / "bad.arff"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        streams.read_arff(path)


def test_write_arff_rejects_inconsistent_info(tmp_path):
    X, y, info = streams.led(5, seed=1, return_info=True)
    with pytest.raises(ValueError, match="columns"):
        streams.write_arff(tmp_path / "x.arff", X[:, :3], y, info)
    with pytest.raises(ValueError, match="codes"):
        streams.write_arff(tmp_path / "x.arff", X + 2, y, info)
    with pytest.raises(ValueError, match="class names"):
        streams.write_arff(tmp_path / "x.arff", X, y + 10, info)
