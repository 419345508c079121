"""BOCT and BOCT-AL (paper 001): tabulated bounds, exhaustive search, toy problem, protocol."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from workbench import active, evaluate, learners, streams
from workbench.bounds import credible_interval
from workbench.bounds.credible import HETEROGENEITY_CODES
from workbench.core import stored as sd
from workbench.core.params import RULE_CREDIBLE, RULE_CREDIBLE_TEXT
from workbench.core.rules import credible_quantity

HETS = ("entropy", "variance", "std")


def _H(mu, kind):
    mu = np.clip(mu, 0.0, 1.0)
    if kind == "variance":
        return mu * (1 - mu)
    if kind == "std":
        return np.sqrt(mu * (1 - mu))
    return float(stats.entropy([mu, 1 - mu])) if 0 < mu < 1 else 0.0


def _slow_eps(n_pos, n_neg, level, kind):
    """eps with P(H(mu) >= eps) = level, by eq. (3) directly: invert H on each side of 1/2 and
    the resulting f with brentq (scipy's beta CDF)."""
    post = stats.beta(n_pos + 1, n_neg + 1)
    top = _H(0.5, kind)

    def mu_low(e):
        return optimize.brentq(lambda m: _H(m, kind) - e, 0.0, 0.5, xtol=1e-15)

    def f(e):
        lo = mu_low(e)
        return post.cdf(1.0 - lo) - post.cdf(lo)  # mu_upp = 1 - mu_low by symmetry

    return optimize.brentq(lambda e: f(e) - level, 1e-14, top * (1 - 1e-14), xtol=1e-14)


@pytest.mark.parametrize("kind", HETS)
def test_table_matches_slow_exact_inversion(kind):
    rng = np.random.default_rng(15)
    delta = 0.1
    tab = sd.make_tables(delta, 60, HETEROGENEITY_CODES[kind])
    for _ in range(12):
        p, q = (int(v) for v in rng.integers(0, 60, 2))
        up = sd.credible_upper(tab, p, q)
        lo = sd.credible_lower(tab, p, q)
        assert up == pytest.approx(_slow_eps(p, q, delta, kind), rel=1e-8, abs=1e-12)
        assert lo == pytest.approx(_slow_eps(p, q, 1 - delta, kind), rel=1e-8, abs=1e-12)
        assert sd.credible_upper(tab, q, p) == up  # symmetric, one triangle stored
        assert (lo, up) == pytest.approx(credible_interval(p, q, delta, kind), rel=1e-12)


def _brute_force_split(X, y, w, delta, kind, pool):
    """Every midpoint of consecutive distinct labelled values, scored with the (untabulated)
    credible intervals of workbench.bounds; ties: first attribute, then lowest cut."""
    lab = y >= 0
    P, N = (y[lab] == 1).sum(), (y[lab] == 0).sum()
    Wp = w.sum() if pool else lab.sum()
    best = (np.inf, -1, np.nan)
    for a in range(X.shape[1]):
        vals = np.unique(X[lab, a])
        for lo_v, hi_v in zip(vals[:-1], vals[1:]):
            cut = 0.5 * (lo_v + hi_v)
            left = X[:, a] <= cut
            pl, nl = ((y == 1) & left).sum(), ((y == 0) & left).sum()
            wl = w[left].sum() if pool else pl + nl
            score = (
                wl * credible_interval(pl, nl, delta, kind)[1]
                + (Wp - wl) * credible_interval(P - pl, N - nl, delta, kind)[1]
            )
            if score < best[0] - 1e-12:
                best = (score, a, cut)
    lo, up = credible_interval(P, N, delta, kind)
    return best, Wp * lo, Wp * up


@pytest.mark.parametrize("pool", [True, False])
def test_exhaustive_search_matches_brute_force(pool):
    from workbench.core import state as st

    rng = np.random.default_rng(3)
    kind = "entropy"
    for trial in range(25):
        n, d = int(rng.integers(3, 30)), int(rng.integers(1, 4))
        X = rng.integers(0, 5, (n, d)).astype(float)  # many ties and duplicate values
        X[:, 0] += 0.25 * rng.integers(0, 2, n)
        y = np.where(rng.random(n) < 0.6, rng.integers(0, 2, n), -1)
        w = np.ones(n) if pool else (y >= 0).astype(float)
        T = st.allocate(d, 2, 0, 1, 2, node_capacity=2 * n + 3)
        sd.reset_tree(T)
        S = sd.make_store(X, w, T.kind.shape[0])
        S.y[:] = y
        sd.sync_sorted(S)
        sd.replay_tree(T, S)
        tab = sd.make_tables(0.1, n + 1, HETEROGENEITY_CODES[kind])
        bp = np.array([0.1, HETEROGENEITY_CODES[kind], RULE_CREDIBLE, 4, 1 if pool else 0])
        j, cut, score, q, t = sd.best_split(T, S, tab, bp, 0)
        (b_score, b_j, b_cut), lower, upper = _brute_force_split(X, y, w, 0.1, kind, pool)
        if b_j < 0:
            assert j == -1, trial
            continue
        assert (j, cut) == (b_j, b_cut), trial
        assert score == pytest.approx(b_score, rel=1e-9)
        assert (q, t) == pytest.approx((lower, b_score), rel=1e-9)
        bp[2] = RULE_CREDIBLE_TEXT
        assert sd.best_split(T, S, tab, bp, 0)[3] == pytest.approx(upper, rel=1e-9)


def test_credible_quantity_readings():
    assert credible_quantity(RULE_CREDIBLE, 1.0, 2.0, 1.5) == (1.0, 1.5)
    assert credible_quantity(RULE_CREDIBLE_TEXT, 1.0, 2.0, 1.5) == (2.0, 1.5)


def test_split_rule_readings_by_monte_carlo():
    """A useless split (both halves share mu = 1/2): Fig. 3's reading installs it with
    probability far below 3 delta; the text's reading far above."""
    from workbench.experiments.paper001 import split_rule

    res = split_rule.useless_split_rate(n_trials=2000, n_per_child=20, delta=0.05, seed=5)
    fig3 = res.set_index("rule").loc["figure3"]
    text = res.set_index("rule").loc["text"]
    assert stats.binomtest(int(fig3.splits), 2000, 0.15, alternative="greater").pvalue > 1e-3
    assert stats.binomtest(int(text.splits), 2000, 0.15, alternative="greater").pvalue < 1e-6


def test_toy64_geometry_and_exact_risk_by_monte_carlo():
    toy = streams.toy64()
    assert toy.W[0] == 1 and np.isclose(toy.W[63:].sum(), 1) and len(toy.mu) == 64
    # the cell holding (0.3, 0.8): x1 in [0.25, 0.375), x2 in [0.75, 0.875)
    cell = toy.cell_of(np.array([[0.3, 0.8]]))[0]
    assert toy.box[cell].tolist() == [0.25, 0.375, 0.75, 0.875]
    mu = 1 / (1 + math.exp(-5 * (0.8125 - math.sqrt(0.3125))))
    assert toy.mu[cell - 63] == pytest.approx(mu)
    X, y = toy.sample(3000, seed=1)
    model = learners.BOCT(delta=0.2).set_pool(X).fit(X[:1500], y[:1500])
    exact = toy.true_risk(model)
    Xt, yt = toy.sample(200_000, seed=2)
    errors = int((model.predict(Xt) != yt).sum())
    assert stats.binomtest(errors, len(yt), exact).pvalue > 1e-3
    assert toy.bayes_risk() < exact


def test_toy_kernel_risk_is_exact_for_its_partition():
    """With no labels the root predicts 1 (tie): risk = 1 - mean mu; mbinomial's fixed
    partition starts there too."""
    toy = streams.toy64()
    for name, kw in (("BOCT", {}), ("mbinomial", dict(partition_depth=3))):
        risk, leaves = evaluate.toy_runs(name, n_runs=3, n_labels=5, **kw)
        assert risk[:, 0] == pytest.approx(1 - toy.m1[0])
    risk, leaves = evaluate.toy_runs("BOCT", n_runs=20, n_labels=300, delta=0.3)
    assert np.all(np.diff(leaves, axis=1) >= 0)  # installed tests are never removed
    assert np.all(risk >= toy.bayes_risk() - 1e-12)


def test_pool_kernel_matches_the_learner():
    """One run of the kernel with a fixed shuffle and order against the scikit-learn BOCT fed
    the same labels one at a time, with the same pool."""
    X, y = streams.breast_cancer()
    X, y = X[:120, :5], y[:120]
    rng = np.random.default_rng(0)
    perm = rng.permutation(120)
    order = rng.permutation(60)
    risk, leaves = evaluate.pool_runs(
        X, y, "BOCT", delta=0.2, n_runs=1, perms=perm[None], orders=order[None]
    )
    pool, test = perm[:60], perm[60:]
    model = learners.BOCT(delta=0.2, n_classes=2).set_pool(X[pool])
    expected = [np.mean(y[test] != 1)]
    for t in range(60):
        i = pool[order[t]]
        model.partial_fit(X[i : i + 1], y[i : i + 1])
        expected.append(np.mean(model.predict(X[test]) != y[test]))
        assert leaves[0, t + 1] == model.n_leaves
    assert risk[0] == pytest.approx(expected)


def test_pool_protocol_invariants():
    X, y = streams.breast_cancer()
    X, y = X[:200, :6], y[:200]
    for name in ("BOCT", "BOCT-AL", "Hoeffding"):
        risk, leaves = evaluate.pool_runs(X, y, name, delta=0.1, n_runs=30, seed=1)
        assert risk.shape == (30, 101) and np.all((risk >= 0) & (risk <= 1))
        assert np.all(np.diff(leaves, axis=1) >= 0)
    # BOCT-AL and BOCT agree before the first split: one leaf, same eq. (7) choice = any row
    curves = evaluate.pool_curves(X, y, n_runs=30, seed=1)
    assert set(curves.learner) == {"BOCT", "BOCT-AL", "Hoeffding"}


def test_bad_input():
    X, y = streams.breast_cancer()
    with pytest.raises(ValueError, match="two classes"):
        learners.BOCT().fit(X[:30], np.arange(30) % 3)
    with pytest.raises(ValueError, match="delta"):
        learners.BOCT(delta=0.5).fit(X[:30], y[:30])
    with pytest.raises(ValueError, match="heterogeneity"):
        learners.BOCT(heterogeneity="gini").fit(X[:30], y[:30])
    with pytest.raises(ValueError, match="rule"):
        learners.BOCT(rule="fig").fit(X[:30], y[:30])
    Xn = X[:30].copy()
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        learners.BOCT().fit(Xn, y[:30])
    with pytest.raises(ValueError, match="pool"):
        learners.BOCT().set_pool(np.zeros(5))
    with pytest.raises(ValueError, match="pool has"):
        learners.BOCT().set_pool(np.zeros((5, 2))).fit(X[:30], y[:30])
    with pytest.raises(ValueError, match="learner"):
        evaluate.pool_runs(X, y, "C4.5")
    with pytest.raises(ValueError, match="two classes"):
        evaluate.pool_runs(X[:30], np.arange(30) % 3)
    with pytest.raises(ValueError, match="perms"):
        evaluate.pool_runs(X[:30], y[:30], n_runs=1, perms=np.zeros((1, 30), int))
    with pytest.raises(ValueError, match="partition_depth"):
        evaluate.toy_runs("mbinomial", partition_depth=7)
    with pytest.raises(ValueError, match="delta2"):
        active.BOCTAL(1.5)


def test_boctal_select_goes_to_the_largest_bound():
    X, y = streams.breast_cancer()
    pool = X[:200]
    model = learners.BOCT(delta=0.2).set_pool(pool)
    labelled = np.zeros(200, bool)
    labelled[:60] = True
    model.fit(pool[:60], y[:60])
    al = active.BOCTAL(0.05)
    table = al.leaf_bounds(model, labelled)
    i = al.select(model, labelled, rng=0)
    assert not labelled[i]
    leaf = model.apply(pool[i : i + 1])[0]
    open_ = table[table.unlabelled > 0]
    assert table.set_index("leaf").loc[leaf, "bound"] == open_.bound.max()
    assert table.W.sum() == 200


def test_results_do_not_depend_on_threads():
    X, y = streams.breast_cancer()
    X, y = X[:100, :4], y[:100]
    a = evaluate.pool_runs(X, y, "BOCT-AL", n_runs=6, seed=4, n_jobs=1)
    b = evaluate.pool_runs(X, y, "BOCT-AL", n_runs=6, seed=4, n_jobs=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = evaluate.toy_runs("BOCT-AL", n_runs=6, n_labels=50, seed=4, n_jobs=1)
    d = evaluate.toy_runs("BOCT-AL", n_runs=6, n_labels=50, seed=4, n_jobs=3)
    assert np.array_equal(c[0], d[0])


@pytest.mark.parametrize("active_", [False, True])
def test_toy_kernel_agrees_with_the_python_stepper(active_):
    """The numba toy kernel (tabulated bounds) and ToyStepper (Python, workbench.bounds) are
    two implementations of BOCT / BOCT-AL on the toy problem: their mean exact risk after 150
    labels must agree (Welch test over independent runs)."""
    from workbench.experiments.paper001 import ToyStepper

    n_runs, n_labels = 40, 150
    risk, _ = evaluate.toy_runs(
        "BOCT-AL" if active_ else "BOCT",
        delta=0.3,
        delta2=0.05,
        n_runs=n_runs,
        n_labels=n_labels,
        seed=9,
    )
    py = []
    for r in range(n_runs):
        st = ToyStepper(delta=0.3, active=active_, delta2=0.05, seed=100 + r)
        for _ in range(n_labels):
            st.step()
        py.append(st.true_risk())
    assert stats.ttest_ind(risk[:, -1], py, equal_var=False).pvalue > 1e-3


def test_explain_and_draw():
    X, y = streams.breast_cancer()
    m = learners.BOCT(delta=0.2).set_pool(X[:200]).fit(X[:200], y[:200])
    ex = m.explain_one(X[0])
    assert ex.leaf == m.apply(X[:1])[0] and not ex.will_split  # Fig. 3 ran after each label
    assert ex.quantity_label == "W_p eps_p(1 - delta)" and ex.quantity <= ex.threshold
    assert "digraph" in m.to_dot(highlight=X[0])
