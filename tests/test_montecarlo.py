"""Tests of the Monte Carlo machinery in workbench.montecarlo.

The random streams are checked against reference outputs and a pure-Python transcription, the
samplers against their laws (chi-square / Kolmogorov-Smirnov at fixed seeds), each simulator
against an exact computation (enumeration or scipy), and results must not depend on the number
of threads.  The statistical checks of the bounds themselves are in test_bounds.py.
"""

from __future__ import annotations

import itertools
import math
import operator

import numba
import numpy as np
import pytest
from scipy import stats

from workbench import bounds as B
from workbench import montecarlo as mc
from workbench import _rng

P_MIN = 1e-3  # goodness-of-fit tests must not reject at this level

M64 = (1 << 64) - 1
GOLDEN, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


# =============================================================================================
# Random streams
# =============================================================================================


def _py_splitmix_out(z):
    z = ((z ^ (z >> 30)) * MIX1) & M64
    z = ((z ^ (z >> 27)) * MIX2) & M64
    return z ^ (z >> 31)


def _py_seed_state(seed, stream):
    z = (seed * GOLDEN + _py_splitmix_out((stream + GOLDEN) & M64)) & M64
    out = []
    for _ in range(4):
        z = (z + GOLDEN) & M64
        out.append(_py_splitmix_out(z))
    return out


def _py_xoshiro(state, n):
    s = list(state)
    rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64  # noqa: E731
    out = []
    for _ in range(n):
        out.append((rotl((s[1] * 5) & M64, 7) * 9) & M64)
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
    return out


def test_xoshiro_reference_output():
    # published first outputs of xoshiro256** from the state (1, 2, 3, 4)
    got = _rng._draw_u64_from_state(np.array([1, 2, 3, 4], dtype=np.uint64), 4)
    assert got.tolist() == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("seed,stream", [(0, 0), (1, 0), (0, 1), (12345, 987654), (2**62, 3)])
def test_streams_match_pure_python_transcription(seed, stream):
    st = _rng.seed_state(seed, stream)
    assert [int(x) for x in st] == _py_seed_state(seed, stream)
    got = _rng._draw_u64_from_state(st, 1000)
    assert [int(x) for x in got] == _py_xoshiro(_py_seed_state(seed, stream), 1000)
    u = _rng._draw_uniforms(seed, stream, 1000)
    np.testing.assert_array_equal(u, np.array([x >> 11 for x in got], dtype=np.float64) / 2.0**53)


def test_uniforms_within_and_across_streams():
    u = _rng._draw_uniforms(7, 0, 200_000)
    assert u.min() >= 0.0 and u.max() < 1.0
    assert stats.kstest(u, "uniform").pvalue > P_MIN
    # first draw of 100,000 consecutive streams: uniform, and neighbours uncorrelated
    first = np.array([_rng._draw_uniforms(7, k, 1)[0] for k in range(20_000)])
    assert stats.kstest(first, "uniform").pvalue > P_MIN
    r = np.corrcoef(first[:-1], first[1:])[0, 1]
    assert abs(r) < 4 / math.sqrt(first.size)


def _chi2_pvalue(draws, pmf_support, pmf):
    """Chi-square goodness of fit with cells pooled to expected counts >= 5."""
    n = draws.size
    counts = np.bincount(draws - pmf_support[0], minlength=pmf.size)[: pmf.size]
    exp = pmf * n
    obs_cells, exp_cells = [], []
    acc_o = acc_e = 0.0
    for o, e in zip(counts, exp):
        acc_o += o
        acc_e += e
        if acc_e >= 5:
            obs_cells.append(acc_o)
            exp_cells.append(acc_e)
            acc_o = acc_e = 0.0
    obs_cells[-1] += acc_o + (n - counts.sum())
    exp_cells[-1] += acc_e + (n - exp.sum())
    return stats.chisquare(obs_cells, exp_cells).pvalue


@pytest.mark.parametrize(
    "n,p",
    [
        (1, 0.3),
        (10, 0.3),
        (60, 0.2),
        (1000, 0.3),
        (100_000, 0.01),
        (37, 0.9),
        (5000, 0.5),
        (200, 0.999),
    ],
)
def test_binomial_sampler_goodness_of_fit(n, p):
    draws = _rng._draw_binomials(21, n, p, 200_000)
    assert draws.min() >= 0 and draws.max() <= n
    lo, hi = int(stats.binom.ppf(1e-9, n, p)), int(stats.binom.isf(1e-9, n, p))
    support = np.arange(lo, hi + 1)
    assert draws.min() >= lo - 1 and draws.max() <= hi + 1
    clipped = np.clip(draws, lo, hi)
    assert _chi2_pvalue(clipped, support, stats.binom.pmf(support, n, p)) > P_MIN


def test_multinomial_sampler_goodness_of_fit():
    probs = np.array([0.5, 0.2, 0.25, 0.05])
    n = 6
    draws = _rng._draw_multinomials(31, n, probs, 200_000)
    assert (draws.sum(axis=1) == n).all()
    outcomes = [c for c in itertools.product(range(n + 1), repeat=4) if sum(c) == n]
    index = {c: i for i, c in enumerate(outcomes)}
    codes = np.array([index[tuple(r)] for r in draws])
    pmf = np.array([stats.multinomial.pmf(c, n, probs) for c in outcomes])
    assert _chi2_pvalue(codes, np.arange(len(outcomes)), pmf) > P_MIN


def test_results_do_not_depend_on_thread_count_and_follow_the_seed():
    law = mc.joint_law(0.3, 0.2, 0.6)
    n_threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = mc.simulate_estimators(law, 50, trials=5000, seed=9)
        cov1 = mc.credible_coverage(15, 0.1, mu=0.3, trials=5000, seed=9)
        ddm1 = mc.ddm_false_alarms(0.2, 300, trials=500, seed=9)
    finally:
        numba.set_num_threads(n_threads)
    many = mc.simulate_estimators(law, 50, trials=5000, seed=9)
    for name in mc.ESTIMATORS:
        np.testing.assert_array_equal(one.estimates[name], many.estimates[name])
    cov2 = mc.credible_coverage(15, 0.1, mu=0.3, trials=5000, seed=9)
    assert (cov1.below, cov1.above) == (cov2.below, cov2.above)
    ddm2 = mc.ddm_false_alarms(0.2, 300, trials=500, seed=9)
    np.testing.assert_array_equal(ddm1.first_drift, ddm2.first_drift)
    other = mc.simulate_estimators(law, 50, trials=5000, seed=10)
    assert not np.array_equal(other.estimates["gini"], many.estimates["gini"])


# =============================================================================================
# Estimators
# =============================================================================================


def _independent_estimates(c):
    """The estimators from their definitions, with scipy's entropy (nats)."""
    c = np.asarray(c, dtype=float)
    m = c.sum()
    nf = c.sum(axis=0)
    h_cond = sum(nf[f] / m * stats.entropy(c[:, f]) for f in range(c.shape[1]) if nf[f] > 0)
    h_y = stats.entropy(c.sum(axis=1))
    out = {"entropy": 0.5 * h_cond, "info_gain": (h_y - h_cond) / math.log(2)}
    out["gini"] = sum(
        nf[f] / m * (1 - ((c[:, f] / nf[f]) ** 2).sum()) for f in range(c.shape[1]) if nf[f] > 0
    )
    if c.shape[0] == 2:
        p, q = c[1] / m, c[0] / m
        hm = np.where(p + q > 0, 2 * p * q / np.where(p + q > 0, p + q, 1), 0.0)
        assert out["gini"] == pytest.approx(hm.sum(), abs=1e-14)  # 000 eq. (12)
        out["kearns_mansour"] = np.sqrt(p * q).sum()
        out["gini_as_printed"] = (2 * p * (1 - p)).sum()
        out["kearns_mansour_as_printed"] = np.sqrt(p * (1 - p)).sum()
    return out


def test_plugin_estimates_against_independent_computation():
    rng = np.random.default_rng(3)
    for _ in range(300):
        K = rng.choice([2, 2, 3])
        c = rng.integers(0, 20, size=(K, 2)) * (rng.random((K, 2)) < 0.8)
        if c.sum() == 0:
            continue
        got = mc.plugin_estimates(c)
        want = _independent_estimates(c)
        for name, v in want.items():
            assert got[name] == pytest.approx(v, abs=1e-12), (name, c)
        if K == 3:
            assert np.isnan(got["kearns_mansour"]) and np.isnan(got["gini_as_printed"])


def test_functionals_are_the_estimators_at_the_law():
    """At the law itself the plug-in formulas give the functionals: joint-minus-marginal entropy
    = conditional entropy (000 App. A), harmonic means = Gini (eq. 12), sqrt form = Q."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        t = rng.dirichlet(np.ones(4)).reshape(2, 2)
        f = mc.functionals(t)
        big = np.round(t * 2**40).astype(np.int64)  # exact proportions, almost
        est = mc.plugin_estimates(big)
        for name in ("entropy", "gini", "kearns_mansour", "info_gain"):
            assert est[name] == pytest.approx(f[name], abs=1e-9)


def _exact_moments(table, m, name):
    """E and Var of an estimator at sample size m by enumerating all count tables."""
    p = table.ravel()
    vals, probs = [], []
    for c in itertools.product(range(m + 1), repeat=p.size - 1):
        if sum(c) > m:
            continue
        full = np.array(list(c) + [m - sum(c)])
        probs.append(stats.multinomial.pmf(full, m, p))
        vals.append(mc.plugin_estimates(full.reshape(table.shape))[name])
    vals, probs = np.array(vals), np.array(probs)
    mean = (vals * probs).sum()
    return mean, ((vals - mean) ** 2 * probs).sum()


@pytest.mark.parametrize("method", ["examples", "counts"])
def test_estimator_simulation_matches_exact_moments(method):
    law = mc.joint_law(0.4, 0.15, 0.65)
    m = 9
    sim = mc.simulate_estimators(law, m, trials=100_000, seed=41, method=method)
    for name in ("entropy", "gini", "kearns_mansour"):
        mean, var = _exact_moments(law, m, name)
        z = (sim.estimates[name].mean() - mean) / math.sqrt(var / sim.trials)
        assert abs(z) < 4, (name, z)
        chi = (sim.trials - 1) * sim.estimates[name].var(ddof=1) / var
        assert (
            stats.chi2.sf(chi, sim.trials - 1) > P_MIN / 2
            and stats.chi2.cdf(chi, sim.trials - 1) > P_MIN / 2
        )


def test_examples_and_counts_methods_agree_in_law():
    law = mc.joint_law(0.25, 0.1, 0.55)
    a = mc.simulate_estimators(law, 300, trials=30_000, seed=51, method="examples")
    b = mc.simulate_estimators(law, 300, trials=30_000, seed=52, method="counts")
    for name in ("gini", "entropy"):
        assert stats.ks_2samp(a.estimates[name], b.estimates[name]).pvalue > P_MIN


def test_simulation_summaries_are_consistent():
    law = mc.joint_law(0.5, 0.2, 0.7)
    sim = mc.simulate_estimators(law, 80, trials=10_000, seed=61)
    r = sim.check("kearns_mansour", 0.1)
    dev = np.abs(sim.estimates["kearns_mansour"] - sim.truth["kearns_mansour"])
    assert r["bound"] == B.kearns_mansour(80, 0.1)
    assert r["empirical_quantile"] == pytest.approx(np.quantile(dev, 0.9))
    assert r["ratio"] == pytest.approx(r["bound"] / r["empirical_quantile"])
    assert r["n_exceed"] == int((dev > r["bound"]).sum())
    assert r["bias"] == pytest.approx((sim.estimates["kearns_mansour"] - r["truth"]).mean())
    df = sim.to_frame(deltas=[0.1, 0.01])
    assert len(df) == 2 * len(mc.ESTIMATORS)
    for col in (
        "estimator",
        "delta",
        "bound",
        "empirical_quantile",
        "ratio",
        "p_value",
        "p_f1",
        "p_y1_given_f0",
        "p_y1_given_f1",
    ):
        assert col in df.columns
    grid = mc.estimator_grid(
        [law, mc.joint_law(0.3, 0.0, 0.9)],
        [20, 40],
        [0.05],
        trials=500,
        seed=62,
        estimators=["gini", "entropy"],
    )
    assert len(grid) == 2 * 2 * 2 and set(grid["law"]) == {0, 1} and set(grid["m"]) == {20, 40}


def test_tightest_law_returns_the_grid_maximum():
    table, q, df = mc.tightest_law("gini", 30, 0.1, n=3, trials=800, seed=71)
    assert len(df) == 27 and q == df["empirical_quantile"].max()
    assert np.allclose(table.sum(), 1.0)


@pytest.mark.parametrize(
    "kwargs,name",
    [
        ({"table": [[0.5, 0.5], [0.5, 0.5]]}, "table"),
        ({"m": 0}, "m"),
        ({"trials": 0}, "trials"),
        ({"seed": -1}, "seed"),
        ({"method": "fast"}, "method"),
        ({"m": 2.5}, "m"),
    ],
)
def test_simulate_estimators_rejects_bad_arguments(kwargs, name):
    args = {"table": mc.joint_law(0.5, 0.5, 0.5), "m": 10, "trials": 10, "seed": 0}
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{name} must"):
        mc.simulate_estimators(**args)


# =============================================================================================
# Other simulators against exact computations
# =============================================================================================


def _agrees(k, n, p_exact):
    return stats.binomtest(int(k), int(n), min(max(p_exact, 0.0), 1.0)).pvalue > P_MIN


@pytest.mark.parametrize("p,m,delta", [(0.5, 10, 0.3), (0.417, 2, 0.5), (0.1, 40, 0.2)])
def test_mean_simulation_matches_exact_failure(p, m, delta):
    for method in ("examples", "counts"):
        sim = mc.simulate_means(p, m, trials=100_000, seed=81, method=method)
        for reading in ("one-sided", "lower", "two-sided"):
            r = sim.check(delta, reading)
            assert _agrees(r["n_exceed"], r["trials"], sim.exact_failure(delta, reading))


@pytest.mark.parametrize("kind", ["entropy", "std"])
@pytest.mark.parametrize("mu", [0.05, 0.3, 0.49])
def test_frequentist_coverage_matches_enumeration(kind, mu):
    r = mc.credible_coverage(40, 0.1, kind, mu=mu, trials=100_000, seed=91)
    assert _agrees(r.below, r.trials, r.exact_below)
    assert _agrees(r.above, r.trials, r.exact_above)


def test_interval_tables_match_the_bounds():
    lo, up = mc.interval_table(12, 0.05, "variance")
    for k in (0, 5, 12):
        assert (lo[k], up[k]) == B.credible_interval(k, 12 - k, 0.05, "variance")
    assert mc.risk_table(12, 0.1)[3] == B.risk_upper(3, 9, 0.1)


def test_risk_coverage_matches_enumeration():
    r = mc.risk_coverage(25, 0.1, mu=0.35, trials=100_000, seed=92)
    assert _agrees(r.above, r.trials, r.exact_above)


def test_coverage_curve_frame():
    df = mc.coverage_curve(20, 0.1, [0.1, 0.5], "entropy", trials=2000, seed=93)
    assert list(df["mu"]) == [0.1, 0.5] and df["exact_coverage"].iloc[1] < 1e-12


@pytest.mark.parametrize("parent", ["lower", "upper"])
def test_boct_null_split_matches_enumeration(parent):
    r = mc.boct_null_split(0.5, 15, 25, 0.1, "variance", parent=parent, trials=100_000, seed=94)
    assert _agrees(r.n_fired, r.trials, r.exact_rate)


@pytest.mark.parametrize("w", [1.0, 0.6])
def test_leaf_consistency_simulation_matches_exact(w):
    r = mc.leaf_consistency_failure(0.5, 60, 0.9, w=w, trials=200_000, seed=95)
    assert r.exact_fail > 1e-4
    assert _agrees(r.n_fail, r.trials, r.exact_fail)
    # the per-step ConfTree simulation with budget so large that every label is queried has the
    # same law as the 'always' policy
    r2 = mc.leaf_consistency_failure(
        0.5, 60, 0.9, w=w, policy="conftree", budget=1e12, trials=100_000, seed=96
    )
    assert _agrees(r2.n_fail, r2.trials, r.exact_fail)


def test_feature_gains_match_the_joint_law():
    prior, theta = 0.3, np.array([[0.2, 0.9], [0.6, 0.5], [0.1, 0.3]])
    for crit, key in (
        ("entropy", "info_gain"),
        ("gini", "gini"),
        ("kearns_mansour", "kearns_mansour"),
    ):
        g = mc.feature_gains(prior, theta, crit)
        py = np.array([1 - prior, prior])
        for j in range(3):
            table = np.array(
                [
                    [py[0] * (1 - theta[j, 0]), py[0] * theta[j, 0]],
                    [py[1] * (1 - theta[j, 1]), py[1] * theta[j, 1]],
                ]
            )
            f = mc.functionals(table)
            if key == "info_gain":
                assert g[j] == pytest.approx(f["info_gain"], abs=1e-12)
            else:
                root = mc.functionals(np.array([[py[0], 0.0], [py[1], 0.0]]))[key]
                assert g[j] == pytest.approx(root - f[key], abs=1e-12)


def test_split_selection_on_a_perfect_feature():
    theta = [[0.0, 1.0], [0.5, 0.5]]
    r = mc.split_selection(0.5, theta, 0.5, rule="vfdt", m_max=100, n_min=50, trials=2000, seed=97)
    assert (r.chosen == 0).all() and (r.split_at == 50).all()
    curve = r.split_curve()
    assert curve["p_split"].iloc[-1] == 1.0 and curve["p_suboptimal"].max() == 0.0
    with pytest.raises(ValueError, match="^rule must"):
        mc.split_selection(0.5, theta, 0.5, rule="greedy")
    with pytest.raises(ValueError, match="^theta must"):
        mc.split_selection(0.5, [[0.1, 0.2]], 0.5)


@numba.njit
def _gini_copy(counts):
    """The built-in Gini impurity written as a user criterion (same arithmetic as the kernel's
    K-class Gini: 1 - sum of squared proportions)."""
    nb = 0.0
    for k in range(counts.size):
        nb += counts[k]
    s = 0.0
    for k in range(counts.size):
        s += (counts[k] / nb) ** 2
    return 1.0 - s


@numba.njit
def _hoeffding7(n, delta, value_range, n_classes, depth, t, n_features):
    return value_range * np.sqrt(np.log(1.0 / delta) / (2.0 * n))


@numba.njit
def _hoeffding5(n, delta, value_range, n_classes, stats):
    """Hoeffding's bound with n read from the stats array's class weights (they add up to n)."""
    m = B.leaf_stats.leaf_weights(stats).sum()
    return value_range * np.sqrt(np.log(1.0 / delta) / (2.0 * m))


@numba.njit
def _zero_if_tables_ordered(n, delta, value_range, n_classes, stats):
    """0 (split now) when the best candidate's table has the lower conditional Gini index and
    both tables hold the leaf's n examples; infinite (never split) otherwise."""
    best = B.leaf_stats.best_table(stats)
    second = B.leaf_stats.second_table(stats)
    if stats[B.leaf_stats.STATS_B_BEST] != 2 or best.sum() != n or second.sum() != n:
        return np.inf
    phi = np.zeros(2)
    for i in range(2):
        t = best if i == 0 else second
        for b in range(t.shape[0]):
            nb = t[b].sum()
            if nb > 0:
                phi[i] += nb / n * (1.0 - ((t[b] / nb) ** 2).sum())
    # (the kernel's two-class formula rounds differently: a margin of 1e-12)
    return 0.0 if phi[0] <= phi[1] + 1e-12 else np.inf


def test_split_selection_with_k_classes_and_numeric_features():
    prior = [0.5, 0.3, 0.2]
    theta = [[0.1, 0.5, 0.9], [0.5, 0.5, 0.5]]
    mu = [[0.0, 2.0, 4.0], [0.0, 0.0, 0.1]]
    sigma = [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    g = mc.feature_gains(prior, theta, "gini", numeric=(mu, sigma), cuts=7)
    py = np.array(prior)
    # the cuts are the marginal's quantiles: 1/8 .. 7/8 of the mixture's mass lies below them
    edges = mc.selection._edges(py, np.array(mu), np.array(sigma), 7)
    for j in range(2):
        below = (py * stats.norm.cdf(edges[j][:, None], np.array(mu[j]), 1.0)).sum(axis=1)
        np.testing.assert_allclose(below, np.arange(1, 8) / 8, atol=1e-9)
    # the numeric features' true gains against scipy: P(Y = k, X <= c) = p_k Phi((c - mu) / s)
    r = mc.split_selection(prior, theta, 0.05, criterion="gini", numeric=(mu, sigma), cuts=7,
                           m_max=10, n_min=10, trials=1)  # fmt: skip

    def gini(w):
        return w.sum() - (w**2).sum() / w.sum()

    for j in range(2):
        for c, got in zip(edges[j], r.cut_gains[2 + j]):
            left = py * stats.norm.cdf(c, np.array(mu[j]), np.array(sigma[j]))
            assert got == pytest.approx(gini(py) - gini(left) - gini(py - left), abs=1e-12)
        assert g[2 + j] == pytest.approx(max(r.cut_gains[2 + j]))
    # the leaf finds the informative numeric feature (index 2) and a cut near its best
    r = mc.split_selection(prior, theta, 0.05, criterion="gini", numeric=(mu, sigma), cuts=7,
                           m_max=2000, n_min=200, trials=500, seed=3)  # fmt: skip
    made = r.chosen >= 0
    assert made.mean() > 0.95 and (r.chosen[made] == 2).all()
    assert r.n_candidates == 2 + 2 * 7 and int(np.argmax(g)) == 2
    best_cut = int(np.argmax(r.cut_gains[2]))
    assert np.mean(np.abs(r.cut[made] - best_cut) <= 1) > 0.9


def test_split_selection_with_a_user_criterion_is_the_built_in_gini():
    kw = dict(m_max=3000, n_min=100, trials=2000, seed=5)
    prior, theta = [0.4, 0.35, 0.25], [[0.3, 0.5, 0.7], [0.35, 0.5, 0.65]]
    a = mc.split_selection(prior, theta, 0.1, criterion="gini", **kw)
    b = mc.split_selection(prior, theta, 0.1, criterion=_gini_copy, R=1.0, **kw)
    np.testing.assert_array_equal(a.split_at, b.split_at)
    np.testing.assert_array_equal(a.chosen, b.chosen)
    np.testing.assert_allclose(a.gains, b.gains, atol=1e-12)
    assert b.criterion.endswith("_gini_copy")
    with pytest.raises(ValueError, match="R="):
        mc.split_selection(prior, theta, 0.1, criterion=_gini_copy)


def test_split_selection_with_schedule_and_data_dependent_bounds():
    kw = dict(m_max=4000, n_min=200, trials=3000, seed=6)
    theta = [[0.3, 0.7], [0.32, 0.68], [0.4, 0.6]]
    a = mc.split_selection(0.5, theta, 0.05, **kw)
    for bound in (_hoeffding7, _hoeffding5):
        b = mc.split_selection(0.5, theta, 0.05, bound=bound, **kw)
        np.testing.assert_array_equal(a.split_at, b.split_at)
        np.testing.assert_array_equal(a.chosen, b.chosen)
    # the stats array holds the leaf's counts and the best and second candidates' tables
    # (tau > 0: an epsilon of 0 splits even where the two best impurities are equal)
    c = mc.split_selection(
        0.5, theta, 0.05, bound=_zero_if_tables_ordered, criterion="gini", tau=0.5, **kw
    )
    assert (c.split_at == 200).all() and (c.looks == 1).all()
    assert mc.STATS_BOUND_SIG.args[-1].ndim == 1


def test_split_selection_rejects_bad_laws_and_mismatched_bounds():
    with pytest.raises(ValueError, match="numeric"):
        mc.split_selection(0.5, [[0.1, 0.2]], 0.5, numeric=([0.0, 1.0], [1.0, 1.0]))
    with pytest.raises(ValueError, match="sigma"):
        mc.split_selection(0.5, None, 0.5, numeric=([[0, 1], [0, 2]], [[1, 0], [1, 1]]))
    with pytest.raises(ValueError, match="at least 2 features"):
        mc.split_selection(0.5, None, 0.5, numeric=([[0, 1]], [[1, 1]]))
    with pytest.raises(ValueError, match="prior"):
        mc.split_selection([0.5, 0.6], [[0.1, 0.2], [0.3, 0.4]], 0.5)
    with pytest.raises(ValueError, match="criterion='gini'"):
        mc.split_selection(0.5, [[0.1, 0.2], [0.3, 0.4]], 0.5, bound="cs_gini")
    with pytest.raises(ValueError, match="two classes"):
        mc.split_selection([0.3, 0.3, 0.4], [[0.1, 0.2, 0.3]] * 2, 0.5, criterion="gini",
                           bound="gini_looks")  # fmt: skip
    with pytest.raises(ValueError, match="bound must"):
        mc.split_selection(0.5, [[0.1, 0.2], [0.3, 0.4]], 0.5, bound="student")
    with pytest.raises(ValueError, match="cuts"):
        mc.split_selection(0.5, None, 0.5, numeric=([[0, 1], [0, 2]], [[1, 1], [1, 1]]),
                           cuts=[0.5, 0.2])  # fmt: skip


def _ddm_reference(errors, n_min=30, strict=False):
    """DDM written out directly from Gama et al. (2004)."""
    cmp = operator.gt if strict else operator.ge
    warn, drift = [], []
    i = e = 0
    pmin = smin = math.inf
    for x in errors:
        i += 1
        e += x
        p = e / i
        s = math.sqrt(p * (1 - p) / i)
        w = d = False
        if i >= n_min:
            if p + s < pmin + smin:
                pmin, smin = p, s
            w, d = cmp(p + s, pmin + 2 * smin), cmp(p + s, pmin + 3 * smin)
        warn.append(w)
        drift.append(d)
        if d:
            i = e = 0
            pmin = smin = math.inf
    return np.array(warn), np.array(drift)


@pytest.mark.parametrize("strict", [False, True])
def test_ddm_run_matches_reference(strict):
    rng = np.random.default_rng(5)
    for p in (0.0, 0.02, 0.2, 0.5):
        for _ in range(5):
            errors = (
                rng.random(3000) < np.where(np.arange(3000) < 1500, p, min(1.0, 2 * p + 0.1))
            ).astype(np.int64)
            w, d = mc.ddm_run(errors, 30, strict)
            rw, rd = _ddm_reference(errors, 30, strict)
            np.testing.assert_array_equal(w, rw)
            np.testing.assert_array_equal(d, rd)


def test_ddm_kernel_runs_the_same_detector_on_its_own_stream():
    r = mc.ddm_false_alarms(0.1, 2000, trials=300, seed=98)
    for tr in range(0, 300, 7):
        errors = (_rng._draw_uniforms(98, tr, 2000) < 0.1).astype(np.int64)
        w, d = _ddm_reference(errors)
        first = lambda a: int(np.argmax(a)) + 1 if a.any() else 0  # noqa: E731
        assert r.first_drift[tr] == first(d)
        assert r.first_warning[tr] == first(w)
        assert r.n_drifts[tr] == int(d.sum())
    c = r.curve()
    assert (np.diff(c["p_drift"]) >= 0).all() and (c["p_warning"] >= c["p_drift"]).all()


def test_importing_compiles_nothing():
    """`import workbench.bounds / montecarlo` must not compile (or load) any kernel."""
    import subprocess
    import sys

    code = (
        "import numba, workbench.bounds as b, workbench.montecarlo as m, workbench._rng as r\n"
        "from numba.core.dispatcher import Dispatcher\n"
        "mods = [b, r] + [getattr(m, n) for n in ('estimators', 'means', 'credible',"
        " 'sequential', 'selection', 'looks')]\n"
        "d = [v for mod in mods for v in vars(mod).values() if isinstance(v, Dispatcher)]\n"
        "assert len(d) > 30, len(d)\n"
        "assert all(not f.signatures for f in d), [f.__name__ for f in d if f.signatures]\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# =============================================================================================
# Throughput
# =============================================================================================


def test_throughput_is_reported():
    """The simulators report their rate; the target itself (100,000 trials of m = 200 in under
    2 s) is a timing and is measured by benchmarks/bench_montecarlo.py, not asserted here."""
    law = mc.joint_law(0.5, 0.2, 0.7)
    sim = mc.simulate_estimators(law, 200, trials=2_000, seed=1)
    assert sim.m == 200 and sim.trials == 2_000 and sim.seconds > 0
    assert sim.examples_per_second == pytest.approx(200 * 2_000 / sim.seconds)
