"""Tests of workbench.bounds.

Three kinds of test:

1. argument checking (a ValueError naming the argument);
2. every closed form against a direct computation (root finding on the tail inequality it comes
   from, numerical quadrature, scipy's special functions);
3. every bound against Monte Carlo: the empirical failure probability is compared with delta by a
   one-sided binomial test (scipy.stats.binomtest, alternative="greater") at a fixed seed, with
   enough trials to detect a failure rate of 2 delta with probability >= 0.99.  Where a statement
   as printed in its paper does not hold, a test pins down the failure (p-value < 1e-6) and the
   reading under which it holds.  The numbers are quoted in docs/bounds_findings.md.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit
from scipy import integrate, optimize, special, stats

from workbench import bounds as B
from workbench import montecarlo as mc

pytestmark = pytest.mark.filterwarnings("error::FutureWarning")

ALPHA = 1e-3  # a bound "holds" when the binomial test does not reject at this level
STRONG = 1e-6  # a bound "fails" when the binomial test rejects at this level


def pvalue_greater(k, n, p):
    return stats.binomtest(int(k), int(n), float(p), alternative="greater").pvalue


def trials_for_power(delta, factor=2.0, alpha=ALPHA, power=0.99):
    """Smallest n (on a doubling grid) at which a true failure rate of factor*delta is rejected
    by the one-sided binomial test at level alpha with probability >= power."""
    n = 100
    while True:
        k_crit = stats.binom.isf(alpha, n, delta)  # reject when k > k_crit
        if stats.binom.sf(k_crit, n, min(1.0, factor * delta)) >= power:
            return n
        n *= 2


def assert_holds(k, n, delta, what):
    assert n >= trials_for_power(delta), f"{what}: too few trials ({n}) to detect a violation"
    p = pvalue_greater(k, n, delta)
    assert p > ALPHA, f"{what}: {k}/{n} failures vs delta={delta} (p={p:.3g})"


def assert_fails(k, n, delta, what):
    p = pvalue_greater(k, n, delta)
    assert p < STRONG, f"{what}: expected a violation, got {k}/{n} vs delta={delta} (p={p:.3g})"


# =============================================================================================
# 1. Argument checking
# =============================================================================================

BAD_CALLS = [
    (B.hoeffding, (0, 0.1), {}, "m"),
    (B.hoeffding, (-5, 0.1), {}, "m"),
    (B.hoeffding, (10, 0.0), {}, "delta"),
    (B.hoeffding, (10, 1.0), {}, "delta"),
    (B.hoeffding, (10, 1.5), {}, "delta"),
    (B.hoeffding, (10, 0.1), {"R": 0}, "R"),
    (B.hoeffding, (np.array([10, 0]), 0.1), {}, "m"),
    (B.hoeffding, (float("nan"), 0.1), {}, "m"),
    (B.mcdiarmid_entropy, (0, 0.1, 2), {}, "m"),
    (B.mcdiarmid_entropy, (10, -0.1, 2), {}, "delta"),
    (B.mcdiarmid_entropy, (10, 0.1, 1), {}, "n_classes"),
    (B.mcdiarmid_entropy, (10, 0.1, 2.5), {}, "n_classes"),
    (B.entropy, (0, 0.1), {}, "m"),
    (B.entropy, (0.5, 0.1), {}, "m"),
    (B.entropy, (10, 1.0), {}, "delta"),
    (B.gini, (-1, 0.1), {}, "m"),
    (B.gini, (10, 0), {}, "delta"),
    (B.kearns_mansour, (0, 0.1), {}, "m"),
    (B.kearns_mansour, (10, 2), {}, "delta"),
    (B.ctree_epsilon, (0, 0.1, 0, 10, 3), {}, "m"),
    (B.ctree_epsilon, (10, 0, 0, 10, 3), {}, "delta"),
    (B.ctree_epsilon, (10, 0.1, -1, 10, 3), {}, "depth"),
    (B.ctree_epsilon, (10, 0.1, 0, 0, 3), {}, "t"),
    (B.ctree_epsilon, (10, 0.1, 0, 10, 0), {}, "d"),
    (B.ctree_epsilon, (10, 0.1, 0, 10, 3), {"bound": "hellinger"}, "bound"),
    (B.ctree_practical, (0, 0, 10, 3, 1.0), {}, "m"),
    (B.ctree_practical, (10, -1, 10, 3, 1.0), {}, "depth"),
    (B.ctree_practical, (10, 0, 10, 3, 0.0), {}, "c"),
    (B.leaf_consistency, (0, 10, 0.1), {}, "m"),
    (B.leaf_consistency, (5, 0, 0.1), {}, "t"),
    (B.leaf_consistency, (5, 10, 1.0), {}, "delta"),
    (B.credible_interval, (-1, 3, 0.05), {}, "n_pos"),
    (B.credible_interval, (1, -3, 0.05), {}, "n_neg"),
    (B.credible_interval, (1, 3, 0.0), {}, "delta"),
    (B.credible_interval, (1, 3, 0.5), {}, "delta"),
    (B.credible_interval, (1, 3, 0.05), {"heterogeneity": "gini"}, "heterogeneity"),
    (B.risk_upper, (-1, 3, 0.05), {}, "n_pos"),
    (B.risk_upper, (1, -3, 0.05), {}, "n_neg"),
    (B.risk_upper, (1, 3, 1.0), {}, "delta"),
    (B.risk_upper, (1, 3, 0.05), {"weight": -1.0}, "weight"),
    (B.ddm_levels, (1.2, 0.1, 0.1, 0.01), {}, "p"),
    (B.ddm_levels, (0.2, -0.1, 0.1, 0.01), {}, "s"),
    (B.ddm_levels, (0.2, 0.1, -0.1, 0.01), {}, "p_min"),
    (B.ddm_levels, (0.2, 0.1, 0.1, -0.01), {}, "s_min"),
    (B.heterogeneity, (1.5,), {}, "mu"),
]


@pytest.mark.parametrize(
    "fn,args,kwargs,name",
    BAD_CALLS,
    ids=[f"{c[0].__name__}-{c[3]}-{i}" for i, c in enumerate(BAD_CALLS)],
)
def test_bad_argument_raises_value_error_naming_it(fn, args, kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        fn(*args, **kwargs)


def test_scalars_give_floats_and_arrays_broadcast():
    assert isinstance(B.hoeffding(10, 0.1), float)
    out = B.gini(np.array([[10], [100]]), np.array([0.1, 0.01, 0.001]))
    assert out.shape == (2, 3)
    np.testing.assert_allclose(out[1, 2], B.gini(100, 0.001), rtol=0, atol=0)
    lo, up = B.credible_interval(np.arange(4), 3, 0.05)
    assert lo.shape == up.shape == (4,) and np.all(lo < up)
    w, d = B.ddm_levels(np.array([0.1, 0.3]), 0.01, 0.1, 0.01)
    assert w.dtype == bool and d.tolist() == [False, True]


# =============================================================================================
# 2. Closed forms against direct computations
# =============================================================================================

POINTS = [(1, 0.5), (7, 0.05), (100, 1e-3), (2500, 1e-7), (1e6, 0.3)]


@pytest.mark.parametrize("m,delta", POINTS)
def test_hoeffding_solves_its_tail_equation(m, delta):
    for R in (1.0, math.log2(3)):
        # Hoeffding: P(mean - mu >= eps) <= exp(-2 m eps^2 / R^2); set the tail equal to delta
        root = optimize.brentq(
            lambda e, R=R: math.exp(-2 * m * e * e / R**2) - delta, 1e-12, 10 * R
        )
        assert B.hoeffding(m, delta, R) == pytest.approx(root, rel=1e-10)


@pytest.mark.parametrize("m,delta", POINTS)
def test_mcdiarmid_constant_from_natural_logs(m, delta):
    for K in (2, 3, 10):
        C = 6 * (K / math.log(2) + math.log(2 * m) / math.log(2)) + 2 * math.log(K) / math.log(2)
        assert B.mcdiarmid_entropy(m, delta, K) == pytest.approx(
            C * math.sqrt(math.log(1 / delta) / (2 * m)), rel=1e-12
        )


def _mcdiarmid_radius(c, m, delta):
    """eps with 2 exp(-2 eps^2 / (m c^2)) = delta, solved numerically."""
    return optimize.brentq(lambda e: 2 * math.exp(-2 * e * e / (m * c * c)) - delta, 1e-14, 1e3)


@pytest.mark.parametrize("m,delta", [p for p in POINTS if p[0] >= 2])
def test_entropy_bound_from_proof_ingredients(m, delta):
    # Antos-Kontoyiannis: bounded differences 2 ln(m)/m for each plug-in entropy (unscaled),
    # each at confidence delta/2, then halved (H_1/2); Paninski's bias (N-1)/m halved, N = 4, 2.
    conc = _mcdiarmid_radius(2 * math.log(m) / m, m, delta / 2) / 2
    bias = 0.5 * math.log1p(3 / m) + 0.5 * math.log1p(1 / m)
    bias_linear = 0.5 * 3 / m + 0.5 * 1 / m
    assert bias <= bias_linear
    assert B.entropy(m, delta) == pytest.approx(2 * conc + bias_linear, rel=1e-9)


@pytest.mark.parametrize("m,delta", POINTS)
def test_gini_bound_from_proof_ingredients(m, delta):
    conc = _mcdiarmid_radius(4 / m, m, delta)  # c = 4/m, eq. (13)
    # bias of one harmonic-mean term: max over p, q of 2 sd(p_hat) + 2 sd(q_hat), eq. (15)
    res = optimize.minimize(
        lambda v: -(2 * math.sqrt(v[0] * (1 - v[0]) / m) + 2 * math.sqrt(v[1] * (1 - v[1]) / m)),
        x0=[0.3, 0.6],
        bounds=[(1e-9, 1 - 1e-9)] * 2,
    )
    bias_one = -res.fun
    assert bias_one == pytest.approx(2 / math.sqrt(m), rel=1e-6)
    assert B.gini(m, delta) == pytest.approx(conc + 2 * bias_one, rel=1e-6)


@pytest.mark.parametrize("m,delta", POINTS)
def test_kearns_mansour_bound_from_lemma3_union(m, delta):
    # four uses of Lemma 3 (two-sided tail 2 exp(-m t^2)) at delta/4 each, total radius 4 t
    t = optimize.brentq(lambda x: 4 * 2 * math.exp(-m * x * x) - delta, 1e-14, 100)
    assert B.kearns_mansour(m, delta) == pytest.approx(4 * t, rel=1e-10)


def test_lemma3_holds_exactly():
    """000 Lemma 3, |sqrt(B/m) - sqrt(p)| <= sqrt(ln(2/delta)/m), by exact binomial sums."""
    ps = np.linspace(0.001, 0.999, 333)
    for delta in (0.5, 0.1, 0.01):
        worst = 0.0
        for m in range(1, 121):
            k = np.arange(m + 1)[:, None]
            dev = np.abs(np.sqrt(k / m) - np.sqrt(ps[None, :]))
            fail = stats.binom.pmf(k, m, ps[None, :]) * (dev > math.sqrt(math.log(2 / delta) / m))
            worst = max(worst, fail.sum(axis=0).max())
        assert worst <= delta, (delta, worst)


def test_ctree_epsilon_is_the_union_bound_schedule():
    rng = np.random.default_rng(0)
    m = rng.integers(1, 5000, 50)
    t = m + rng.integers(0, 10**6, 50)
    h = rng.integers(0, 30, 50)
    d = rng.integers(1, 100, 50)
    for name, fn in (
        ("entropy", B.entropy),
        ("gini", B.gini),
        ("kearns_mansour", B.kearns_mansour),
    ):
        got = B.ctree_epsilon(m, 0.05, h, t, d, bound=name)
        want = [
            fn(mi, 0.05 / ((hi + 1) * (hi + 2) * ti * di * mi))
            for mi, hi, ti, di in zip(m, h, t, d)
        ]
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # the depth weights 1/((h+1)(h+2)) telescope to 1 (appendix D)
    H = 10**6
    assert sum(1.0 / ((k + 1) * (k + 2)) for k in range(H + 1)) == pytest.approx(1 - 1 / (H + 2))


def test_ctree_practical_counts_depth_from_one():
    # eq. (10) c sqrt(ln(m^2 h^2 t d) / m): with the root at depth 0 as printed, ln(0);
    # the function uses h = depth + 1
    m, t, d, c = 400.0, 10**5, 5, 0.7
    with pytest.raises(ValueError):
        math.log(m * m * 0**2 * t * d)
    for depth in (0, 1, 7):
        want = c * math.sqrt(math.log(m * m * (depth + 1) ** 2 * t * d) / m)
        assert B.ctree_practical(m, depth, t, d, c) == pytest.approx(want, rel=1e-13)
    # (10) is not (7) at delta = 1/t (Remark 1): at m=400, h=0 (root), t=1e5, d=5 the log terms
    # differ: ln(m^2 t d) = 24.0 vs ln(2 (h+1)(h+2) t^2 d m) = 32.2 inside Gini's bound
    eq7 = B.ctree_epsilon(m, 1 / t, 0, t, d, bound="gini")
    eq10 = B.ctree_practical(m, 0, t, d, 1.0)
    assert eq7 / eq10 > 1.5


@pytest.mark.parametrize("m,t,delta", [(1, 1, 0.5), (10, 100, 0.05), (1000, 10**6, 1e-4)])
def test_leaf_consistency_solves_two_sided_hoeffding_at_delta_over_t(m, t, delta):
    root = optimize.brentq(lambda e: 2 * math.exp(-2 * m * e * e) - delta / t, 1e-14, 100)
    assert B.leaf_consistency(m, t, delta) == pytest.approx(root, rel=1e-10)


def test_betainc_and_inverse_against_scipy():
    rng = np.random.default_rng(1)
    a = np.exp(rng.uniform(np.log(0.5), np.log(5e4), 3000))
    b = np.exp(rng.uniform(np.log(0.5), np.log(5e4), 3000))
    x = rng.uniform(0, 1, 3000) ** rng.choice([1, 4], 3000)
    got = np.array([B.betainc_nb(ai, bi, xi) for ai, bi, xi in zip(a, b, x)])
    want = special.betainc(a, b, x)
    big = want > 1e-280
    np.testing.assert_allclose(got[big], want[big], rtol=1e-8, atol=1e-300)
    y = rng.uniform(1e-6, 1 - 1e-6, 500)
    inv = np.array([B.betaincinv_nb(ai, bi, yi) for ai, bi, yi in zip(a[:500], b[:500], y)])
    np.testing.assert_allclose(inv, special.betaincinv(a[:500], b[:500], y), rtol=1e-7)


def _interval_by_quadrature(n_pos, n_neg, delta, kind):
    """001 eqs. (3)-(4) computed independently: roots in mu of H(mu) = eps (brentq), posterior
    mass between them by quadrature of the Beta density, then f(eps) = delta solved in eps."""
    a, b = n_pos + 1, n_neg + 1
    H = {
        "entropy": lambda u: -special.xlogy(u, u) - special.xlogy(1 - u, 1 - u),
        "variance": lambda u: u * (1 - u),
        "std": lambda u: math.sqrt(u * (1 - u)),
    }[kind]
    hmax = H(0.5)

    def f(eps):  # P(H(mu) >= eps)
        lo = optimize.brentq(lambda u: H(u) - eps, 0.0, 0.5, xtol=1e-15)
        hi = 1.0 - optimize.brentq(lambda u: H(1 - u) - eps, 0.0, 0.5, xtol=1e-15)
        pts = [stats.beta.ppf(q, a, b) for q in (0.25, 0.5, 0.75)]
        pts = [p for p in pts if lo < p < hi]
        val, _ = integrate.quad(
            lambda u: stats.beta.pdf(u, a, b),
            lo,
            hi,
            points=pts or None,
            epsabs=1e-14,
            epsrel=1e-12,
            limit=200,
        )
        return val

    upper = optimize.brentq(lambda e: f(e) - delta, 1e-12, hmax * (1 - 1e-12), xtol=1e-14)
    lower = optimize.brentq(lambda e: f(e) - (1 - delta), 1e-12, hmax * (1 - 1e-12), xtol=1e-14)
    return lower, upper


@pytest.mark.parametrize("kind", ["entropy", "variance", "std"])
@pytest.mark.parametrize(
    "n_pos,n_neg,delta",
    [(0, 0, 0.05), (3, 11, 0.1), (40, 40, 0.025), (150, 20, 0.2), (2, 300, 0.01)],
)
def test_credible_interval_against_quadrature(kind, n_pos, n_neg, delta):
    lo, up = B.credible_interval(n_pos, n_neg, delta, kind)
    qlo, qup = _interval_by_quadrature(n_pos, n_neg, delta, kind)
    assert lo == pytest.approx(qlo, rel=1e-7, abs=1e-12)
    assert up == pytest.approx(qup, rel=1e-7, abs=1e-12)
    # posterior probability of the interval is 1 - 2 delta (scipy's Beta CDF)
    a, b = n_pos + 1, n_neg + 1
    Hs = {
        "entropy": lambda u: -special.xlogy(u, u) - special.xlogy(1 - u, 1 - u),
        "variance": lambda u: u * (1 - u),
        "std": lambda u: np.sqrt(u * (1 - u)),
    }[kind]
    grid = np.sort(stats.beta.rvs(a, b, size=400_000, random_state=5))
    inside = np.mean((Hs(grid) >= lo) & (Hs(grid) <= up))
    assert (
        abs(inside - (1 - 2 * delta)) < 4 * math.sqrt(2 * delta * (1 - 2 * delta) / 400_000) + 1e-4
    )


def test_001_printed_direction_of_the_beta_cdf_is_reversed():
    """001 Sec. III writes P(mu >= eps) = I_eps(a, b); I is the CDF, so it is P(mu <= eps)."""
    a, b, eps = 4.0, 8.0, 0.15
    assert stats.beta.cdf(eps, a, b) == pytest.approx(B.betainc_nb(a, b, eps), rel=1e-12)
    assert abs(stats.beta.sf(eps, a, b) - B.betainc_nb(a, b, eps)) > 0.5
    # eq. (3) itself uses the CDF correctly: I_upp - I_low = P(mu_low <= mu <= mu_upp) > 0
    lo, up = B.credible_interval(3, 7, 0.05, "variance")
    assert 0 < lo < up < 0.25


@pytest.mark.parametrize("n_pos,n_neg", [(0, 0), (0, 12), (12, 0), (5, 5), (3, 40), (77, 20)])
@pytest.mark.parametrize("delta", [0.01, 0.2])
def test_risk_upper_against_scipy(n_pos, n_neg, delta):
    W = 3.5
    a, b = n_pos + 1, n_neg + 1
    if n_pos >= n_neg:  # predicts 1, risk W (1 - mu)
        want = W * (1 - stats.beta.ppf(delta, a, b))
    else:  # predicts 0, risk W mu
        want = W * stats.beta.ppf(1 - delta, a, b)
    assert B.risk_upper(n_pos, n_neg, delta, W) == pytest.approx(want, rel=1e-9)
    if n_pos == n_neg:  # both branches of eq. (7) agree at mu_hat = 1/2
        other = W * stats.beta.ppf(1 - delta, a, b)
        assert B.risk_upper(n_pos, n_neg, delta, W) == pytest.approx(other, rel=1e-9)


def test_heterogeneity_functions():
    mu = np.linspace(0, 1, 101)
    np.testing.assert_allclose(
        B.heterogeneity(mu, "entropy"), [stats.entropy([u, 1 - u]) for u in mu], atol=1e-15
    )
    np.testing.assert_allclose(B.heterogeneity(mu, "variance"), mu * (1 - mu), atol=1e-16)
    np.testing.assert_allclose(B.heterogeneity(mu, "std"), np.sqrt(mu * (1 - mu)), atol=1e-16)


def test_ddm_levels_against_explicit_thresholds():
    rng = np.random.default_rng(2)
    p, s = rng.uniform(0, 1, 1000), rng.uniform(0, 0.1, 1000)
    pm, sm = rng.uniform(0, 1, 1000), rng.uniform(0, 0.1, 1000)
    w, d = B.ddm_levels(p, s, pm, sm)
    np.testing.assert_array_equal(w, p + s >= pm + 2 * sm)
    np.testing.assert_array_equal(d, p + s >= pm + 3 * sm)
    # degenerate minimum (no error among the first examples): >= fires, > does not
    assert B.ddm_levels(0.0, 0.0, 0.0, 0.0) == (True, True)
    assert B.ddm_levels(0.0, 0.0, 0.0, 0.0, strict=True) == (False, False)
    assert B.ddm_levels(0.1, 0.03, 0.1, 0.01) == (True, True)
    assert B.ddm_levels(0.1, 0.025, 0.1, 0.01) == (True, False)
    assert B.ddm_levels(0.1, 0.015, 0.1, 0.01) == (False, False)


@njit(cache=True)
def _all_cores(m, delta, t):
    return (
        B.hoeffding_nb(m, delta, 1.0),
        B.mcdiarmid_entropy_nb(m, delta, 2.0),
        B.entropy_nb(m, delta),
        B.gini_nb(m, delta),
        B.kearns_mansour_nb(m, delta),
        B.ctree_epsilon_nb(m, delta, 2.0, t, 4.0, B.BOUND_GINI),
        B.ctree_epsilon_nb(m, delta, 2.0, t, 4.0, B.BOUND_ENTROPY),
        B.ctree_epsilon_nb(m, delta, 2.0, t, 4.0, B.BOUND_KEARNS_MANSOUR),
        B.ctree_practical_nb(m, 2.0, t, 4.0, 0.5),
        B.leaf_consistency_nb(m, t, delta),
        B.credible_interval_nb(7.0, 3.0, 0.05, B.HET_STD)[1],
        B.risk_upper_nb(7.0, 3.0, delta, 2.0),
        1.0 * B.ddm_levels_nb(0.2, 0.05, 0.1, 0.02, False)[1],
    )


def test_numba_cores_agree_with_public_functions():
    """The cores are callable from a jitted kernel and give what the Python functions give."""
    m, delta, t = 150.0, 0.02, 9000.0
    got = _all_cores(m, delta, t)
    want = (
        B.hoeffding(m, delta),
        B.mcdiarmid_entropy(m, delta, 2),
        B.entropy(m, delta),
        B.gini(m, delta),
        B.kearns_mansour(m, delta),
        B.ctree_epsilon(m, delta, 2, t, 4, "gini"),
        B.ctree_epsilon(m, delta, 2, t, 4, "entropy"),
        B.ctree_epsilon(m, delta, 2, t, 4, "kearns_mansour"),
        B.ctree_practical(m, 2, t, 4, 0.5),
        B.leaf_consistency(m, t, delta),
        B.credible_interval(7, 3, 0.05, "std")[1],
        B.risk_upper(7, 3, delta, 2.0),
        1.0,
    )
    np.testing.assert_allclose(got, want, rtol=1e-14)


# =============================================================================================
# 3. Monte Carlo: does each bound hold?
# =============================================================================================

# --- Hoeffding, 000 eq. (1), 003 eq. (7), 004 eq. (1) -----------------------------------------


@pytest.mark.parametrize(
    "p,m,delta",
    [(0.5, 2, 0.5), (0.417, 2, 0.5), (0.5, 10, 0.2), (0.3, 100, 0.05), (0.5, 1000, 0.5)],
)
def test_hoeffding_one_sided_holds(p, m, delta):
    sim = mc.simulate_means(p, m, trials=200_000, seed=11)
    for reading in ("one-sided", "lower"):
        r = sim.check(delta, reading)
        assert_holds(r["n_exceed"], r["trials"], delta, f"Hoeffding {reading} p={p} m={m}")


def test_hoeffding_two_sided_as_printed_in_000_fails():
    """000 eq. (1) reads 'does not differ by more than eps' with ln(1/delta).  At m = 2,
    Bernoulli(0.417), delta = 0.5 the two-sided failure probability is 0.5138 > 0.5."""
    fail, m, p = mc.hoeffding_worst_case(0.5, m_max=40, n_p=999)
    assert (m, round(p, 3)) == (2, 0.417) and fail == pytest.approx(0.513778, abs=1e-6)
    sim = mc.simulate_means(0.417, 2, trials=400_000, seed=12)
    r = sim.check(0.5, "two-sided")
    assert_fails(r["n_exceed"], r["trials"], 0.5, "000 eq. (1) two-sided")
    # the two-sided statement holds with ln(2/delta), i.e. hoeffding(m, delta/2)
    eps2 = B.hoeffding(2, 0.25)
    n = int(np.count_nonzero(np.abs(sim.deviations()) > eps2))
    assert_holds(n, sim.trials, 0.5, "two-sided with ln(2/delta)")
    # and the one-sided reading (003, 004) holds at the same point
    assert_holds(sim.check(0.5, "one-sided")["n_exceed"], sim.trials, 0.5, "one-sided")


# --- 000 Theorems 1-3 and McDiarmid (eq. 2) ----------------------------------------------------

THEOREMS = ["entropy", "gini", "kearns_mansour"]


@pytest.fixture(scope="module")
def tightest_laws():
    """For each estimator, the law of a coarse grid with the largest 0.95-quantile of |dev| at
    m = 100 (an independent pilot run; the checks below use other seeds)."""
    out = {}
    for i, est in enumerate(THEOREMS + ["info_gain"]):
        table, _, _ = mc.tightest_law(est, 100, 0.05, n=5, trials=1500, seed=100 + i)
        out[est] = table
    return out


@pytest.mark.parametrize("est", THEOREMS)
@pytest.mark.parametrize("m", [10, 100, 1000])
def test_theorems_1_to_3_hold_at_the_tightest_law(est, m, tightest_laws):
    sim = mc.simulate_estimators(
        tightest_laws[est],
        m,
        trials=20_000,
        seed=200 + m,
        method="counts" if m >= 1000 else "examples",
    )
    for delta in (0.5, 0.05):
        r = sim.check(est, delta)
        assert_holds(r["n_exceed"], r["trials"], delta, f"{est} m={m} delta={delta}")
        assert r["ratio"] > 1


@pytest.mark.parametrize("est", THEOREMS)
def test_theorem_checks_have_power(est, tightest_laws):
    """The same apparatus rejects a radius equal to half the empirical 0.95-quantile (from a
    pilot with another seed): so a bound that were too small would be caught."""
    pilot = mc.simulate_estimators(tightest_laws[est], 100, trials=4000, seed=300)
    radius = 0.5 * pilot.quantile(est, 0.95)
    sim = mc.simulate_estimators(tightest_laws[est], 100, trials=20_000, seed=301)
    n, _ = sim.exceed(est, radius)
    assert_fails(n, sim.trials, 0.05, f"half-quantile radius for {est}")


def test_gini_and_km_as_printed_fail_and_corrected_reading_holds():
    """000 defines q_k = 1 - p_k; its proof (eq. 12) needs q_k = P(Y = 0, F = k).
    Law Y = 1 always, F ~ Bernoulli(1/2): J(Y|F) = Q(Y|F) = 0 but the printed estimators equal
    2 p(1-p) + 2 p(1-p) = 1 and sqrt(p(1-p)) + sqrt(p(1-p)) = 1 up to sampling noise."""
    law = mc.joint_law(0.5, 1.0, 1.0)
    sim = mc.simulate_estimators(law, 200, trials=20_000, seed=400)
    for est in ("gini", "kearns_mansour"):
        printed = sim.check(est + "_as_printed", 0.05)
        assert_fails(printed["n_exceed"], printed["trials"], 0.05, est + " as printed")
        assert printed["p_exceed"] > 0.99
        corrected = sim.check(est, 0.05)
        assert corrected["n_exceed"] == 0 and corrected["truth"] == 0.0
    # a non-degenerate law: the printed estimators converge to the wrong limit, so for large m
    # the bound fails with probability -> 1 while the corrected ones hold
    law = mc.joint_law(0.5, 0.2, 0.7)
    lim = mc.limits_as_printed(law)
    truth = mc.functionals(law)
    assert lim["gini_as_printed"] - truth["gini"] == pytest.approx(0.635 - 0.37)
    sim = mc.simulate_estimators(law, 20_000, trials=20_000, seed=401, method="counts")
    for est in ("gini", "kearns_mansour"):
        printed = sim.check(est + "_as_printed", 0.05)
        assert_fails(printed["n_exceed"], printed["trials"], 0.05, est + " as printed, m=20000")
        corrected = sim.check(est, 0.05)
        assert_holds(corrected["n_exceed"], corrected["trials"], 0.05, est + " corrected")


def test_mcdiarmid_bound_holds_and_is_vacuous_for_small_m(tightest_laws):
    for K, table in (
        (2, tightest_laws["info_gain"]),
        (3, np.array([[0.3, 0.05], [0.05, 0.3], [0.15, 0.15]])),
    ):
        sim = mc.simulate_estimators(table, 100, trials=20_000, seed=500 + K)
        for delta in (0.5, 0.05):
            for center in ("truth", "mean"):
                r = sim.check("info_gain", delta, center)
                assert_holds(r["n_exceed"], r["trials"], delta, f"McDiarmid K={K} {center}")
    # the gain lies in [0, 1] bit for two classes; the bound is above 1 bit up to m ~ 14,000
    m_star = optimize.brentq(lambda m: B.mcdiarmid_entropy(m, 0.1, 2) - 1.0, 10, 1e7)
    assert 13_000 < m_star < 16_000


# --- 000 Theorem 4 / eq. (7) and VFDT's rule ---------------------------------------------------


def test_ctree_schedule_never_picks_a_suboptimal_split():
    # one nearly perfect feature, two weaker ones: C-Tree splits, always on the right feature
    theta = [[0.02, 0.98], [0.45, 0.55], [0.5, 0.5]]
    r = mc.split_selection(
        0.5,
        theta,
        0.05,
        rule="ctree",
        criterion="gini",
        m_max=8000,
        n_min=200,
        trials=4000,
        seed=600,
    )
    s = r.summary()
    assert s["p_split"] > 0.99
    # Theorem 4 at the root (h = 0) promises delta / ((h+1)(h+2)) = delta / 2
    assert_holds(s["n_suboptimal"], s["trials"], 0.05 / 2, "C-Tree eq. (7)")


def test_vfdt_hoeffding_rule_on_information_gain_fails():
    """VFDT's test (002, 003, 004): split on the best attribute when the gain difference exceeds
    hoeffding(m, delta, R = log2 K).  The information gain is not a mean of [0, 1] variables and
    the rule picks the worse attribute far more often than delta, even at a single look.  000's
    correction (2 eps) is still violated at delta = 1e-3."""
    theta = [[0.1, 0.9], [0.11, 0.89]]
    r = mc.split_selection(
        0.5, theta, 0.05, rule="vfdt", m_max=50, n_min=50, trials=20_000, seed=700
    )
    s = r.summary()
    assert_fails(s["n_suboptimal"], s["trials"], 0.05, "VFDT eps, delta = 0.05")
    assert s["p_suboptimal"] > 0.13
    r = mc.split_selection(
        0.5, theta, 1e-3, rule="vfdt_2eps", m_max=50, n_min=50, trials=200_000, seed=701
    )
    s = r.summary()
    assert_fails(s["n_suboptimal"], s["trials"], 1e-3, "VFDT 2 eps, delta = 1e-3")


# --- 000 Theorem 5 / eq. (9) -------------------------------------------------------------------


@pytest.mark.parametrize("t,delta", [(20, 0.9), (200, 0.5), (1000, 0.1)])
def test_leaf_consistency_theorem5_holds(t, delta):
    r = mc.leaf_consistency_failure(0.5, t, delta, trials=200_000, seed=800 + t)
    s = r.summary()
    assert_holds(s["p_fail"] * s["trials"], s["trials"], delta, f"Thm 5 t={t}")
    assert s["exact_fail"] <= delta / (2 * t)  # conservative by a factor >= 2t here
    r = mc.leaf_consistency_failure(
        0.5, t, delta, w=0.7, policy="conftree", budget=0.1, trials=20_000, seed=900 + t
    )
    assert_holds(r.n_fail, r.trials, delta, f"Thm 5 ConfTree policy t={t}")


def test_leaf_consistency_check_has_power():
    """With radius 0 (every non-tied leaf 'consistent') the failure rate is about 1/2 at
    p = 1/2 and the same test rejects."""
    from scipy.stats import binom

    m, p = 199, 0.5
    fail = binom.cdf((m - 1) // 2, m, p)  # Y_hat < 1/2 although y* = 1
    rng_sim = mc.simulate_means(p, m, trials=20_000, seed=810)
    n = int(np.count_nonzero(rng_sim.means < 0.5))
    assert abs(n / 20_000 - fail) < 0.02
    assert_fails(n, 20_000, 0.1, "radius-0 consistency")


# --- 001: credible intervals, risk bound, split rule -------------------------------------------


@pytest.mark.parametrize("kind", ["entropy", "variance", "std"])
@pytest.mark.parametrize("n,delta", [(0, 0.05), (7, 0.2), (60, 0.05)])
def test_credible_interval_bayesian_coverage_is_exact(kind, n, delta):
    r = mc.credible_coverage(n, delta, kind, trials=200_000, seed=1000 + n)
    s = r.summary()
    # each end is crossed with posterior probability exactly delta: two-sided tests
    assert s["p_value_below"] > ALPHA and s["p_value_above"] > ALPHA, s
    assert_holds(r.below + r.above, r.trials, 2 * delta, f"coverage {kind} n={n}")


def test_credible_interval_bayesian_coverage_detects_a_wrong_prior():
    """Power: intervals computed with a Beta(1, 1) prior fail to have coverage 1 - 2 delta for
    parameters drawn from a Beta(0.5, 0.5) prior (the test rejects)."""
    n, delta = 10, 0.1
    lo, up = mc.interval_table(n, delta, "entropy")
    rng = np.random.default_rng(1001)
    mu = rng.beta(0.5, 0.5, 100_000)
    k = rng.binomial(n, mu)
    h = B.heterogeneity(mu, "entropy")
    miss = int(np.count_nonzero((h < lo[k]) | (h > up[k])))
    assert_fails(miss, mu.size, 2 * delta, "wrong prior")


def test_credible_interval_frequentist_coverage_can_be_zero():
    """At mu = 1/2 (largest heterogeneity) and mu = 0 (pure subset) the interval never covers."""
    for mu in (0.5, 0.0, 1.0):
        for kind in ("entropy", "variance", "std"):
            r = mc.credible_coverage(50, 0.05, kind, mu=mu, trials=20_000, seed=1100)
            assert r.coverage == 0.0 and r.exact_coverage < 1e-12
    # the hole around 1/2 has a width of order 1/sqrt(n): at n = 200 it reaches mu = 0.497
    r = mc.credible_coverage(200, 0.05, "entropy", mu=0.499, trials=20_000, seed=1101)
    assert r.exact_coverage < 0.5
    assert_fails(r.below + r.above, r.trials, 0.1, "frequentist coverage at mu = 0.499")


@pytest.mark.parametrize("n,delta", [(0, 0.05), (10, 0.05), (40, 0.2)])
def test_risk_upper_bayesian_exceedance_is_exact(n, delta):
    r = mc.risk_coverage(n, delta, trials=200_000, seed=1200 + n)
    s = r.summary()
    assert s["p_value_two_sided"] > ALPHA, s
    assert_holds(r.above, r.trials, delta, f"risk bound n={n}")


def test_risk_upper_is_not_a_frequentist_bound():
    """At n = 10, delta = 0.05 and mu just above 1 - delta**(1/11) = 0.2384, the empty-count
    case alone has probability (1 - mu)**10 = 0.0656 > delta and its bound is below mu (and when
    k >= 5 the leaf predicts 1 and 1 - mu exceeds the bound too: 0.131 in all)."""
    n, delta = 10, 0.05
    mu = 1 - delta ** (1 / (n + 1)) + 1e-6
    r = mc.risk_coverage(n, delta, mu=mu, trials=200_000, seed=1300)
    assert r.exact_above > (1 - mu) ** n > 1.3 * delta
    assert_fails(r.above, r.trials, delta, "frequentist risk bound")


@pytest.mark.parametrize("mu", [0.5, 0.3])
def test_boct_split_rule_on_a_useless_split(mu):
    """Fig. 3's rule (parent lower end) installs a useless split far less often than 3 delta;
    the text's rule (parent upper end eps_p(delta)) does it with probability about 0.9 at 1/2."""
    delta = 0.05
    r = mc.boct_null_split(mu, 20, 20, delta, "entropy", parent="lower", trials=100_000, seed=1400)
    assert_holds(r.n_fired, r.trials, 3 * delta, "BOCT Fig. 3")
    r = mc.boct_null_split(mu, 20, 20, delta, "entropy", parent="upper", trials=100_000, seed=1401)
    assert_fails(r.n_fired, r.trials, 3 * delta, "BOCT as printed in the text")


# --- DDM (002) -------------------------------------------------------------------------------


def test_ddm_false_alarm_rate_is_far_above_the_nominal_level():
    """The drift level p_min + 3 s_min is a 99.87% one-sided normal quantile for one test (002
    sets the drift confidence to 99%); monitoring a stationary stream, DDM raises a false drift
    within 5,000 examples in about 30% of the streams at p = 0.2."""
    r = mc.ddm_false_alarms(0.2, 5000, trials=5000, seed=1500)
    s = r.summary(nominal=0.01)
    assert_fails(int(s["p_false_drift"] * r.trials), r.trials, 0.01, "DDM false drift")
    assert 0.2 < s["p_false_drift"] < 0.4
    assert (r.first_drift[r.first_drift > 0] >= 30).all()


def test_ddm_degenerate_minimum():
    """With no error among the first 30 predictions s_min = 0: '>=' (Gama 2004) signals drift at
    once, '>' (MOA) at the first error."""
    r = mc.ddm_false_alarms(0.0, 200, trials=100, seed=1600)
    assert (r.first_drift == 30).all()
    r = mc.ddm_false_alarms(0.0, 200, trials=100, seed=1600, strict=True)
    assert (r.first_drift == 0).all()


def test_the_trees_hoeffding_epsilon_is_hoeffdings_bound_in_moas_order():
    """hoeffding_moa_nb (what the tree engine uses) against the closed form written another way."""
    for m, delta, R in [(200, 1e-7, 1.0), (1_000, 0.05, math.log2(5)), (37.5, 0.3, 0.5)]:
        expected = R * math.sqrt(math.log(1.0 / delta) / (2.0 * m))
        assert math.isclose(B.hoeffding_moa_nb(m, delta, R), expected, rel_tol=1e-14)
