"""Tests of workbench.bounds.anytime: bounds that stay valid under repeated looks (issue 56).

1. every closed form against a direct computation (the union's shares add up, the stitched
   boundary against its formula with scipy's zeta, the continuity bounds on random laws);
2. every bound by Monte Carlo under optional stopping (a look every few examples until the
   horizon, a violation being any look whose deviation left the radius), with the exact
   one-sided binomial test at a fixed seed; a bound valid at one sample size only, and a
   radius cut down, are shown to fail the same test;
3. the split decision: one leaf tests every grace period, Hoeffding's bound (one test and
   repeated tests) against the spent-delta bound and the confidence sequence.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

from workbench import bounds as B
from workbench import montecarlo as mc
from workbench.bounds import anytime as A

ALPHA = 1e-3  # a bound "holds" when the binomial test does not reject at this level
STRONG = 1e-6  # a bound "fails" when the binomial test rejects at this level


def assert_holds(k, n, delta, what):
    p = stats.binomtest(int(k), int(n), float(delta), alternative="greater").pvalue
    assert p > ALPHA, f"{what}: {k}/{n} failures vs delta={delta} (p={p:.3g})"


def assert_fails(k, n, delta, what):
    p = stats.binomtest(int(k), int(n), float(delta), alternative="greater").pvalue
    assert p < STRONG, f"{what}: expected a violation, got {k}/{n} vs delta={delta} (p={p:.3g})"


# =============================================================================================
# 1. Closed forms
# =============================================================================================


def test_spent_delta_adds_up_to_delta_over_looks_candidates_and_nodes():
    delta, c = 0.05, 7
    ks = np.arange(1, 200_001)
    total = c * B.spent_delta(delta, ks, c).sum()
    assert total == pytest.approx(delta * (1 - 1 / 200_001), rel=1e-9)
    # a per-tree statement: at most b^h nodes at depth h, each its share
    for b in (2, 3, 5):
        shares = sum(b**h * B.spent_delta(0.5, 1, 1, h, b) * 2 / 0.5 for h in range(60))
        assert shares == pytest.approx(1.0 - 1.0 / 61, rel=1e-9)  # sum 1/((h+1)(h+2))
    assert B.spent_delta(delta, 1, 1, 4, 0) == B.spent_delta(delta, 1) == delta / 2
    with pytest.raises(ValueError, match="looks"):
        B.spent_delta(delta, 0)
    with pytest.raises(ValueError, match="n_candidates"):
        B.spent_delta(delta, 1, 0)


def test_spent_bounds_are_their_fixed_bounds_at_the_spent_delta():
    n, delta, k, c = 3000.0, 0.1, 4, 3
    dl = delta / (k * (k + 1) * c)
    assert B.hoeffding_looks(n, delta, 2.0, k, c) == pytest.approx(B.hoeffding(n, dl, 2.0))
    assert B.gini_looks(n, delta, k, c) == pytest.approx(B.gini(n, dl))
    assert B.entropy_looks(n, delta, k, c) == pytest.approx(B.entropy(n, dl) * 2 / math.log(2))
    v = B.gini_looks([100, 1000], delta, looks=[1, 2])
    assert v.shape == (2,) and v[0] > v[1]


def test_stitched_boundary_is_the_formula_of_howard_et_al():
    assert A.ZETA_S == pytest.approx(float(special.zeta(A.STITCH_S)), rel=1e-14)
    eta, s = 2.0, 1.4
    k1 = (eta**0.25 + eta**-0.25) / math.sqrt(2)
    for n, delta, R, n0 in ((10, 0.05, 1.0, 500), (5_000, 1e-4, 2.0, 500), (1e6, 0.3, 1.0, 50)):
        sigma = R / 2
        v, m = max(n, n0) * sigma**2, n0 * sigma**2
        ell = s * math.log(math.log(eta * v / m)) + math.log(special.zeta(s) / math.log(eta) ** s)
        ell += math.log(1 / delta)
        assert B.stitched(n, delta, R, n0) == pytest.approx(k1 * math.sqrt(v * ell) / n)
    assert B.stitched(100, 0.05, side="two-sided") == B.stitched(100, 0.025)
    # near n0 it costs little over Hoeffding's radius at that one n
    assert B.stitched(500, 0.05) < 1.3 * B.hoeffding(500, 0.05)


def test_total_variation_radius_covers_every_event():
    # the union over the 2^N - 2 events: the radius at delta is the stitched one at that share
    for N in (2, 4, 6):
        assert B.cs_tv(1000, 0.05, N) == pytest.approx(B.stitched(1000, 0.05 / (2**N - 2)))
    assert B.cs_tv(1000, 0.05, 1) == 0.0
    # tiny shares stay finite (the log is carried, not delta itself)
    assert 0 < A.cs_tv_log_nb(1e5, 800.0, 60) < 1


def _tv(p, q):
    return 0.5 * np.abs(p - q).sum()


def _cond_gini(t):
    col = t.sum(axis=0)
    ok = col > 0
    return float((col[ok] - (t[:, ok] ** 2).sum(axis=0) / col[ok]).sum())


def _cond_entropy_bits(t):
    col = t.sum(axis=0)
    h = 0.0
    for b in range(t.shape[1]):
        for k in range(t.shape[0]):
            if t[k, b] > 0:
                h -= t[k, b] * math.log2(t[k, b] / col[b])
    return h


@pytest.mark.parametrize("K,Bn", [(2, 2), (3, 2), (2, 4), (4, 3)])
def test_continuity_bounds_hold_on_random_laws(K, Bn):
    """|J(P) - J(Q)| <= 2 TV and |H(Y|F)_P - H(Y|F)_Q| <= Fannes(joint) + Fannes(marginal),
    on random pairs of (K, B) tables, near ones and ones with empty cells included."""
    rng = np.random.default_rng(K * 10 + Bn)
    worst_g = 0.0
    for i in range(4000):
        p = rng.dirichlet(np.full(K * Bn, 0.3 if i % 2 else 1.0)).reshape(K, Bn)
        q = p + rng.normal(scale=10 ** rng.uniform(-4, -0.5), size=p.shape)
        q = np.clip(q, 0, None)
        if q.sum() == 0:
            continue
        q /= q.sum()
        tv = _tv(p, q)
        if tv == 0:
            continue
        dg = abs(_cond_gini(p) - _cond_gini(q))
        dh = abs(_cond_entropy_bits(p) - _cond_entropy_bits(q))
        bound_h = A.fannes_bits_nb(tv, K * Bn) + A.fannes_bits_nb(tv, Bn)
        assert dg <= 2 * tv + 1e-12
        assert dh <= min(bound_h, math.log2(K)) + 1e-12
        worst_g = max(worst_g, dg / (2 * tv))
    assert worst_g > 0.3  # the Gini bound is not loose by an order of magnitude
    # Audenaert's bound is attained: P = point mass, Q moves T to the other N-1 cells evenly
    N, T = 6, 0.2
    P = np.zeros(N)
    P[0] = 1.0
    Q = np.full(N, T / (N - 1))
    Q[0] = 1 - T
    hq = -(Q * np.log2(Q)).sum()
    assert hq == pytest.approx(A.fannes_bits_nb(T, N))


def test_confidence_sequence_radii():
    # the impurity radii are their continuity bound at the total-variation radius
    n, delta, K, Bn, c = 20_000, 0.05, 3, 2, 4
    tv = B.cs_tv(n, delta / c, K * Bn)
    assert B.cs_gini(n, delta, K, Bn, c) == pytest.approx(2 * tv)
    h = A.fannes_bits_nb(tv, K * Bn) + A.fannes_bits_nb(tv, Bn)
    assert B.cs_entropy(n, delta, K, Bn, c) == pytest.approx(h)
    # capped at the range, and shrinking with n
    assert B.cs_gini(10, 0.05) == 1.0 and B.cs_entropy(10, 0.05) == 1.0
    r = B.cs_gini(np.array([1e3, 1e4, 1e5]), 0.05)
    assert (np.diff(r) < 0).all()
    # a node's share costs a factor inside the logarithm only
    assert B.cs_gini(1e4, 0.05, depth=3, branching=2) == pytest.approx(
        B.cs_gini(1e4, 0.05 / (4 * 5 * 8))
    )


BAD = [
    (B.stitched, (0, 0.05), {}, "n"),
    (B.stitched, (10, 1.5), {}, "delta"),
    (B.stitched, (10, 0.5), {"side": "lower"}, "side"),
    (B.cs_gini, (10, 0.05), {"n_classes": 1}, "n_classes"),
    (B.cs_entropy, (10, 0.05), {"n_branches": 0}, "n_branches"),
    (B.cs_tv, (10, 0.05, 0), {}, "n_cells"),
    (B.entropy_looks, (0.5, 0.05), {}, "n"),
    (B.hoeffding_looks, (10, 0.05), {"R": -1}, "R"),
    (B.gini_looks, (10, 0.05), {"depth": -1}, "depth"),
]


@pytest.mark.parametrize("fn,args,kw,name", BAD)
def test_bad_arguments_name_the_argument(fn, args, kw, name):
    with pytest.raises(ValueError, match=f"^{name} "):
        fn(*args, **kw)


# =============================================================================================
# 2. Monte Carlo under optional stopping
# =============================================================================================


def test_stitched_boundary_holds_at_every_n_where_hoeffding_does_not():
    """The mean of Bernoulli(1/2) variables looked at after every example up to 10,000: the
    one-sided Hoeffding radius at delta (valid at one n) is crossed by far more than delta of
    the paths, the stitched boundary by fewer."""
    kw = dict(n_max=10_000, every=1, trials=8_000, seed=31, side="upper", delta=0.05)
    r = mc.repeated_coverage("hoeffding", "mean", 0.5, **kw)
    assert_fails(r["violations"], r["trials"], 0.05, "Hoeffding at every n")
    r = mc.repeated_coverage("stitched", "mean", 0.5, **kw)
    assert_holds(r["violations"], r["trials"], 0.05, "stitched boundary")
    assert r["violations"] > 0  # the boundary is crossed sometimes: the test can see it
    r = mc.repeated_coverage("stitched", "mean", 0.1, **kw)  # a skewed law too
    assert_holds(r["violations"], r["trials"], 0.05, "stitched boundary, p = 0.1")


@pytest.mark.parametrize(
    "statistic,law",
    [
        ("gini", [[0.3, 0.2], [0.1, 0.4]]),
        ("gini", [[0.25, 0.05], [0.2, 0.1], [0.1, 0.3]]),
        ("entropy", [[0.3, 0.2], [0.1, 0.4]]),
        ("entropy", [[0.25, 0.05], [0.2, 0.1], [0.1, 0.3]]),
    ],
)
def test_impurity_bounds_hold_under_repeated_looks(statistic, law):
    kw = dict(n_max=20_000, every=50, trials=4_000, seed=32, delta=0.05)
    two_class = len(law) == 2
    names = ["cs_" + statistic] + ([f"{statistic}_looks"] if two_class else [])
    for name in names:
        r = mc.repeated_coverage(name, statistic, law, **kw)
        assert_holds(r["violations"], r["trials"], 0.05, f"{name} on {law}")
    # a tenth of the confidence sequence's radius is crossed on many paths: the check sees it
    # (the radii are some 4-6 times the deviations' 95 % quantile over the looks here)
    cut = {"gini": B.cs_gini, "entropy": B.cs_entropy}[statistic]
    K, Bn = np.asarray(law).shape
    r = mc.repeated_coverage(lambda n, k: cut(n, 0.05, K, Bn) / 10, statistic, law, **kw)
    assert_fails(r["violations"], r["trials"], 0.05, "a tenth of the radius")


def test_repeated_coverage_rejects_bad_arguments():
    with pytest.raises(ValueError, match="statistic"):
        mc.repeated_coverage("stitched", "median")
    with pytest.raises(ValueError, match="bound"):
        mc.repeated_coverage("nope", "mean")
    with pytest.raises(ValueError, match="every"):
        mc.repeated_coverage("stitched", "mean", n_max=10, every=20)
    with pytest.raises(ValueError, match="law"):
        mc.repeated_coverage("cs_gini", "gini", [[0.5, 0.6]])


# =============================================================================================
# 3. The split decision under repeated tests
# =============================================================================================

CLOSE = [[0.1, 0.9], [0.11, 0.89]]  # information gains 0.531 and 0.500 bits
GRADED = [[0.02, 0.98], [0.3, 0.7], [0.32, 0.68], [0.35, 0.65], [0.4, 0.6]]


def test_repeated_tests_break_hoeffdings_split_choice():
    """Two close features: VFDT's test at delta = 0.05 (Hoeffding on the information gain)
    once at m = 2,000, and every 200 examples up to 20,000.  Repeating the test multiplies the
    rate of wrong choices; already one test exceeds delta for some laws (test_bounds.py)."""
    once = mc.split_selection(0.5, CLOSE, 0.05, m_max=2000, n_min=2000, trials=8000, seed=40)
    again = mc.split_selection(0.5, CLOSE, 0.05, m_max=20_000, n_min=200, trials=8000, seed=40)
    s1, s2 = once.summary(), again.summary()
    assert s1["mean_looks"] == 1.0 and s2["mean_looks"] > 2
    assert s2["p_suboptimal"] > 3 * s1["p_suboptimal"]
    assert_fails(s2["n_suboptimal"], s2["trials"], 0.05, "VFDT, a test every 200")
    # spending delta over the looks repairs the optional stopping, not the statistic
    spent = mc.split_selection(
        0.5, CLOSE, 0.05, m_max=20_000, n_min=200, trials=8000, seed=40, bound="hoeffding_looks"
    ).summary()
    assert spent["p_suboptimal"] < s2["p_suboptimal"]


@pytest.mark.parametrize(
    "bound,criterion", [("gini_looks", "gini"), ("cs_gini", "gini"), ("cs_entropy", "entropy")]
)
def test_valid_bounds_keep_the_split_choice_under_repeated_tests(bound, criterion):
    """Five features of graded gains, a test every 200 examples up to 20,000, the 2-epsilon
    rule with a bound valid for the impurity at every look and for every candidate: the leaf
    splits, and on a worse feature with probability at most delta."""
    r = mc.split_selection(
        0.5,
        GRADED,
        0.05,
        rule="vfdt_2eps",
        criterion=criterion,
        bound=bound,
        m_max=20_000,
        n_min=200,
        trials=4_000,
        seed=41,
    )
    s = r.summary()
    assert s["p_split"] > 0.5  # the bound is not vacuous here: the leaf does split
    assert_holds(s["n_suboptimal"], s["trials"], 0.05, f"{bound}, repeated tests")
    assert r.n_candidates == 5 and s["n_tie"] == 0
