"""A researcher's own split rule, attempt schedule and data-dependent bound, in the compiled loop
(issue 55): a user copy of every built-in leaf rule, of the fixed grace period and of Hoeffding's
bound (with the fifth argument it ignores) grows the built-in's tree bit for bit, on both
decision paths (MOA's merits now, and 004's code's mean merits) and both grace clocks; bad
functions get errors that name them and the values they were given; a learner pickled with a
function that has since changed is refused; sweeps take user functions as grid values, a
notebook's included, and record their identity; a query rule gets a warm-up.

The copies are written from the formulas, not by calling the built-ins.
"""

from __future__ import annotations

import math
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit

from workbench import active, evaluate, learners, montecarlo, streams
from workbench._functions import UserFunctionError
from workbench.bounds.leaf_stats import (
    STATS_B_BEST,
    STATS_B_SECOND,
    best_table,
    leaf_weights,
    make_stats,
)

# ------------------------------------------------------------------------ rules, copied


@njit
def vfdt_rule(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    """VFDT / MOA's Hoeffding tree: the best beats the second by epsilon, or a tie."""
    if g_best - g_second > epsilon:
        return 1
    if epsilon < tau:
        return 2
    return 0


@njit
def ctree_rule(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    """C-Tree (000 Algorithm 1): the margin must exceed 2 epsilon."""
    if g_best - g_second > 2.0 * epsilon:
        return 1
    if epsilon < tau:
        return 2
    return 0


@njit
def efdt_rule(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    """EFDT (004 Algorithm 3) and 004's code: the best beats the null split by epsilon."""
    if g_best - g_null > epsilon:
        return 1
    if epsilon < tau:
        return 2
    return 0


@njit
def min_gain_rule(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    """VFDT that also wants the best gain above 0.05 bits (monotone: more gain never waits)."""
    if g_best < 0.05:
        return 0
    if g_best - g_second > epsilon:
        return 1
    if epsilon < tau:
        return 2
    return 0


@njit
def fixed_schedule(n, g_best, g_second, epsilon, tau, grace_period, looks):
    return grace_period


@njit
def adaptive_nmin(n, g_best, g_second, epsilon, tau, grace_period, looks):
    """Garcia-Martin et al. (2018): wait until the bound could have separated the two best."""
    gap = g_best - g_second
    if not gap > 0.0 or not epsilon < math.inf:
        return grace_period
    need = n * (epsilon / max(gap, tau)) ** 2 - n  # instances until epsilon falls to the gap
    return min(max(grace_period, math.ceil(need)), 50.0 * grace_period)


@njit
def hoeffding5(n, delta, value_range, n_classes, stats):
    return value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))


@njit
def bernstein5(n, delta, value_range, n_classes, stats):
    """An empirical-Bernstein-type radius from the leaf's class weights (its majority share's
    variance), the stats layout's first part."""
    w = leaf_weights(stats)
    total = w.sum()
    p = w.max() / total if total > 0 else 0.5
    var = p * (1.0 - p)
    lg = math.log(3.0 / delta)
    return value_range * (math.sqrt(2.0 * var * lg / n) + 3.0 * lg / n)


@njit
def branches5(n, delta, value_range, n_classes, stats):
    """Hoeffding's radius times the best candidate's branch count over 2: reads the table."""
    b = best_table(stats).shape[0]
    return max(b, 2) / 2.0 * value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))


# ------------------------------------------------------------------------ streams, learners


@pytest.fixture(scope="module")
def sea():
    return streams.sea(30_000, seed=7)


@pytest.fixture(scope="module")
def elec():
    X, y, info = streams.electricity(return_info=True)
    return X[:20_000], y[:20_000], info


def _same_tree(a, b, X, y):
    ra = evaluate.prequential(a, X, y)
    rb = evaluate.prequential(b, X, y)
    assert a.n_leaves > 2, "the case must split"
    np.testing.assert_array_equal(ra.predictions, rb.predictions)
    la, lb = a.split_log(), b.split_log()
    assert len(la) == len(lb) == a.summary()["n_splits"]
    for col in ("node", "t", "feature", "tie", "looks"):
        np.testing.assert_array_equal(la[col], lb[col])
    np.testing.assert_array_equal(a.predict_proba(X[:300]), b.predict_proba(X[:300]))


CASES = [
    ("ht", lambda **kw: learners.HoeffdingTree(3, 2, **kw), vfdt_rule),
    ("ht_kdd", lambda **kw: learners.HoeffdingTree(3, 2, reference="kdd2018", **kw), vfdt_rule),
    ("ctree", lambda **kw: learners.CTree(3, 2, c=0.01, **kw), ctree_rule),
    ("corrh", lambda **kw: learners.CorrHTree(3, 2, tau=0.05, **kw), vfdt_rule),
    ("frugal", lambda **kw: learners.FrugalHoeffdingTree(3, 2, alpha=0.9, **kw), vfdt_rule),
    ("efdt", lambda **kw: learners.EFDT(3, 2, **kw), efdt_rule),
    ("efdt_kdd", lambda **kw: learners.EFDT(3, 2, reference="kdd2018", **kw), efdt_rule),
]


@pytest.mark.parametrize("monotone", [True, False], ids=["screened", "opaque"])
@pytest.mark.parametrize("name, make, rule", CASES, ids=[c[0] for c in CASES])
def test_a_copy_of_each_built_in_rule_grows_the_same_tree(name, make, rule, monotone, sea):
    X, y = sea
    _same_tree(make(), make(split_rule=rule, split_rule_monotone=monotone), X, y)


def test_on_nominal_data_and_electricity(elec):
    X, y, info = elec
    kw = dict(nominal_features=info.nominal_features)
    for make, rule in [(learners.HoeffdingTree, vfdt_rule), (learners.EFDT, efdt_rule)]:
        _same_tree(make(**kw), make(split_rule=rule, split_rule_monotone=True, **kw), X, y)


@pytest.mark.parametrize(
    "make",
    [
        lambda **kw: learners.HoeffdingTree(3, 2, **kw),  # the weight clock
        lambda **kw: learners.EFDT(3, 2, **kw),  # the count clock (MOA's EFDT)
        lambda **kw: learners.HoeffdingTree(3, 2, reference="kdd2018", **kw),  # count clock too
    ],
    ids=["weight_clock", "efdt_count_clock", "kdd2018"],
)
def test_a_fixed_schedule_grows_the_same_tree(make, sea):
    X, y = sea
    _same_tree(make(), make(grace_schedule=fixed_schedule), X, y)


@pytest.mark.parametrize("make", [learners.HoeffdingTree, learners.EFDT])
def test_a_five_argument_hoeffding_grows_the_same_tree(make, sea):
    X, y = sea
    _same_tree(make(3, 2, bound="hoeffding"), make(3, 2, bound=hoeffding5), X, y)


def test_rules_schedules_and_bounds_of_ones_own_change_the_tree(sea):
    """The hooks are used: a minimum gain, an adaptive grace period and data-dependent bounds
    grow other trees, and each reads what it was given."""
    X, y = sea
    base = learners.HoeffdingTree(3, 2).fit(X, y)
    strict = learners.HoeffdingTree(3, 2, split_rule=min_gain_rule, split_rule_monotone=True)
    strict.fit(X, y)
    log = strict.split_log()
    assert (log.g_best[~log.tie] >= 0.05).all() and strict.n_leaves < base.n_leaves
    adaptive = learners.HoeffdingTree(3, 2, grace_schedule=adaptive_nmin).fit(X, y)
    assert (adaptive.split_log().looks < base.split_log().looks.mean()).mean() > 0.3
    model = learners.HoeffdingTree(3, 2, bound=bernstein5).fit(X, y)
    assert model.n_leaves > 1
    assert not np.array_equal(model.predict(X[:2000]), base.predict(X[:2000]))


def test_a_data_dependent_bound_reads_the_candidates_tables():
    """On nominal features of 5 values (multiway splits of 5 branches) a bound that scales with
    the best candidate's number of branches grows another tree than Hoeffding's (on SEA's
    binary numeric splits it is Hoeffding's: the tree above)."""
    X, y, info = streams.random_tree(
        20_000, seed=3, n_classes=2, n_nominal=3, n_numeric=2, return_info=True
    )
    kw = dict(nominal_features=info.nominal_features)
    base = learners.HoeffdingTree(**kw).fit(X, y)
    wide = learners.HoeffdingTree(bound=branches5, **kw).fit(X, y)
    assert not np.array_equal(wide.predict(X), base.predict(X))


def test_the_split_log_records_what_the_tree_knew(sea):
    X, y = sea
    model = learners.HoeffdingTree(3, 2, tau=0.0).fit(X, y)
    log = model.split_log()
    T = model.tree
    inner = [u for u in range(T.kind.shape[0]) if T.kind[u] > 0]
    assert sorted(log.node) == sorted(inner) and log.in_tree.all() and not log.replaced.any()
    assert not log.tie.any()  # tau = 0: no tie splits
    assert (log.looks >= 1).all() and (log.epsilon > 0).all()
    assert (log.g_best - log.g_second > log.epsilon).all()  # VFDT's rule, as recorded
    for r in log.itertuples():  # the weight a leaf had, the parent it hangs below
        assert r.n == pytest.approx(T.class_counts[r.node].sum())
        if r.parent_entry >= 0:
            parent = log.node[r.parent_entry]
            assert T.children[parent, r.branch] == r.node
    efdt = learners.EFDT(3, 2).fit(X, y)
    elog = efdt.split_log()
    assert elog.in_tree.sum() == efdt.summary()["n_splits"] - (~elog.in_tree).sum()
    assert (elog.replaced <= ~elog.in_tree).all()


@pytest.mark.parametrize("make", [learners.HoeffdingTree, learners.EFDT], ids=["weight", "count"])
def test_explain_one_says_when_a_scheduled_leaf_tries_again(make, sea):
    """With a grace schedule the next attempt comes after the schedule's wait, not the grace
    period: explain_one's count of instances to go is the count the root (the only leaf before
    its first split) then learns before its looks grow, on both grace clocks."""
    from workbench.learners._explain import _instances_to_go

    X, y = sea
    for start in (700, 2_500):
        model = make(3, 2, grace_schedule=adaptive_nmin)
        model.partial_fit(X[:start], y[:start], classes=[0, 1])
        ex = model.explain_one(X[start])
        assert ex.scheduled and ex.grace_period > model.grace_period
        said = _instances_to_go(ex.grace_period, ex.since_last_test)
        assert f"after {said:,} more instances" in ex.reason, ex.reason
        looks = int(model.tree.looks[0])
        for j in range(start, start + 10_000):
            model.learn_one(X[j], int(y[j]))
            if int(model.tree.looks[0]) > looks:
                break
        assert model.n_leaves <= 2 and j - start + 1 == said != model.grace_period


# ------------------------------------------------------------------------ bad functions


@njit
def rule_returns_five(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    return 5


@njit
def rule_returns_bool(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    return g_best > g_second


@njit
def rule_late_five(g_best, g_second, g_null, epsilon, tau, n, looks, depth):
    return 5 if 4500.0 < n < 4900.0 else 0  # (the set-up's probes do not see it)


@njit
def schedule_zero(n, g_best, g_second, epsilon, tau, grace_period, looks):
    return 0.0


@njit
def schedule_late_nan(n, g_best, g_second, epsilon, tau, grace_period, looks):
    return math.nan if 6 < looks < 20 else grace_period


@njit
def bound_always_raises(n, delta, value_range, n_classes):
    raise ValueError("never")


@njit("float32(float32, float32, float32, int64)")
def bound_float32(n, delta, value_range, n_classes):
    return n


@njit
def bound5_late_nan(n, delta, value_range, n_classes, stats):
    return math.nan if 2000.0 < n < 5000.0 else 0.1


@pytest.mark.parametrize(
    "kw, words",
    [
        (
            dict(split_rule=rule_returns_five),
            ["split rule rule_returns_five", "returned 5", "0 (wait)"],
        ),
        (dict(split_rule=rule_returns_bool), ["rule_returns_bool", "returns bool", "int64"]),
        (
            dict(grace_schedule=schedule_zero),
            ["grace schedule schedule_zero", "returned 0.0", "> 0"],
        ),
        (dict(bound=bound_always_raises), ["bound_always_raises", "never returns a value"]),
        (dict(bound=bound_float32), ["bound_float32", "float32", "declares", "no signature"]),
        (dict(split_rule="vfdt"), ["split_rule must be None or a numba-jitted function"]),
        (dict(split_rule_monotone="yes"), ["split_rule_monotone must be True or False"]),
        (dict(split_rule_monotone=True), ["without a split_rule"]),
    ],
)
def test_a_bad_hook_is_refused_at_set_up_by_name(kw, words, sea):
    X, y = sea
    with pytest.raises((UserFunctionError, ValueError)) as err:
        learners.HoeffdingTree(3, 2, **kw).fit(X[:100], y[:100])
    for w in words:
        assert w in str(err.value), (w, str(err.value))


@pytest.mark.parametrize(
    "kw, words",
    [
        (dict(split_rule=rule_late_five), ["rule_late_five", "returned 5", "g_best=", "looks="]),
        (dict(grace_schedule=schedule_late_nan), ["schedule_late_nan", "returned nan", "looks=7"]),
        (dict(bound=bound5_late_nan), ["bound5_late_nan", "returned nan", "n="]),
    ],
)
def test_a_hook_failing_inside_the_kernel_names_itself_and_its_arguments(kw, words, sea):
    X, y = sea
    model = learners.HoeffdingTree(3, 2, grace_period=100, **kw)
    with pytest.raises(UserFunctionError) as err:
        model.fit(X, y)
    for w in words + ["cannot be used"]:
        assert w in str(err.value), (w, str(err.value))


def test_learners_that_take_no_rule_say_so(sea):
    X, y = sea
    with pytest.raises(ValueError, match="UFFT takes no split_rule: its forest"):
        learners.UFFT(3, 2, split_rule=vfdt_rule).fit(X[:200], y[:200])
    with pytest.raises(ValueError, match="BOCT takes no grace_schedule"):
        learners.BOCT(3, 2, grace_schedule=fixed_schedule).fit(X[:200], y[:200])


def test_check_bound_takes_a_data_dependent_bound():
    """A five-argument copy of Hoeffding's bound that ignores its stats gives the four-argument
    table exactly; the empirical-Bernstein bound reads each trial's counts and holds."""
    kw = dict(n=[100, 400], delta=0.05, trials=4_000, seed=3)
    four = montecarlo.check_bound("hoeffding", "info_gain", **kw)
    five = montecarlo.check_bound(hoeffding5, "info_gain", **kw)
    cols = ["distribution", "n", "violations", "verdict"]
    assert four[cols].equals(five[cols]) and (four.violations > 0).any()
    np.testing.assert_allclose(four.epsilon, five.epsilon, rtol=1e-14)  # the same formula
    bern = montecarlo.check_bound(bernstein5, "mean", n=[200], delta=0.05, trials=20_000, seed=1)
    assert (bern.verdict == "holds").all()
    stats = montecarlo.check.trial_stats(np.array([[3.0, 1.0, 2.0, 4.0]]), 2)
    assert stats[0, STATS_B_BEST] == 2 and stats[0, STATS_B_SECOND] == 0
    np.testing.assert_array_equal(leaf_weights(stats[0]), [4.0, 6.0])
    np.testing.assert_array_equal(best_table(stats[0]), [[3.0, 2.0], [1.0, 4.0]])
    np.testing.assert_array_equal(make_stats([4.0, 6.0], [[3.0, 2.0], [1.0, 4.0]]), stats[0])


@njit
def bound_returns_tuple(n, delta, value_range, n_classes):
    return (0.1, 0.2)


def test_check_bound_names_a_tuple_return():
    with pytest.raises(UserFunctionError, match="bound_returns_tuple.*a tuple.*one number"):
        montecarlo.check_bound(bound_returns_tuple, "mean", n=[10], trials=10)


# ------------------------------------------------------------------------ identity


MODULE_V1 = """
import math
from numba import njit

@njit
def my_bound(n, delta, value_range, n_classes):
    return value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))
"""


def test_a_pickle_whose_function_changed_under_its_name_is_refused(tmp_path, monkeypatch, sea):
    X, y = sea
    (tmp_path / "hooks_mod.py").write_text(MODULE_V1)
    monkeypatch.syspath_prepend(str(tmp_path))
    import hooks_mod

    model = learners.HoeffdingTree(3, 2, bound=hooks_mod.my_bound).fit(X[:5000], y[:5000])
    data = pickle.dumps(model)
    assert (pickle.loads(data).predict(X[:100]) == model.predict(X[:100])).all()
    hooks_mod.my_bound = njit(lambda n, delta, value_range, n_classes: 0.5)
    hooks_mod.my_bound.py_func.__qualname__ = "my_bound"
    with pytest.raises(pickle.UnpicklingError, match="computes something else"):
        pickle.loads(data)


NOTEBOOK_SWEEP = """
import math, json
from numba import njit
from workbench import sweep

@njit
def cell_bound(n, delta, value_range, n_classes):
    return SCALE * value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))

SCALE = {scale}
df = sweep.run("HoeffdingTree", {{"bound": [cell_bound, "hoeffding"]}}, {{"sea": {{"n": 3000}}}},
               seeds=[1], processes=2, results={results!r}, progress=False)
print("ROWS", json.dumps([[r.params, r.error, r.accuracy] for r in df.itertuples()]))
"""


def test_a_notebook_function_in_a_sweep_travels_and_its_change_reruns_the_cell(tmp_path):
    """A function defined in ``__main__`` (a notebook cell) runs in spawned workers, its
    identity is in the row, the file's rerun skips it while the function is unchanged and
    runs it again once its code (here a constant it reads) changes."""
    results = str(tmp_path / "res.csv")

    def run(scale):
        code = textwrap.dedent(NOTEBOOK_SWEEP.format(scale=scale, results=results))
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=900
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("ROWS "))
        import json

        return json.loads(line[5:])

    first = run(1.0)
    assert [r[1] for r in first] == ["", ""]
    assert "__main__.cell_bound#" in first[0][0]
    assert first[0][2] == first[1][2]  # the copy is Hoeffding's bound
    again = run(1.0)
    assert again == first
    changed = run(0.5)
    assert changed[0][0] != first[0][0] and changed[1] == first[1]
    import pandas as pd

    assert len(pd.read_csv(results)) == 3  # the changed function's cell ran again


# ------------------------------------------------------------------------ query rules


@njit
def sure_rule(counts, proba, budget, queried, seen, rng, params, state):
    """Ask only where the leaf has seen some labels and is unsure: a tree that has learned
    nothing is never unsure by this rule, so without a warm-up it never learns."""
    total = counts.sum()
    return total > 0.0 and counts.max() / total < params[0]


def test_a_query_rule_with_a_warm_up_does_not_starve_the_tree(sea):
    X, y = sea
    cold = evaluate.prequential(
        learners.HoeffdingTree(3, 2), X, y, strategy=active.Custom(sure_rule, params=[0.9])
    )
    warm = evaluate.prequential(
        learners.HoeffdingTree(3, 2),
        X,
        y,
        strategy=active.Custom(sure_rule, params=[0.9], n_initial=500),
    )
    assert cold.labels_used == 0  # starved
    assert warm.queried[:500].all() and warm.labels_used > 500
    assert warm.accuracy > cold.accuracy + 0.1
    with pytest.raises(ValueError, match="n_initial must be a whole number >= 0"):
        active.Custom(sure_rule, params=[0.9], n_initial=-1)
