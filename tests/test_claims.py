"""workbench.claims: the statistics checked against independent computations (scipy, Holm's
procedure written out as its definition), the verdict logic on constructed cases, the grid
extension of ``tune``, and ``run_seeds`` (parts merged per seed, the suite's cache)."""

import itertools
import math
import os

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from workbench import claims as C
from workbench import provenance


# ----------------------------------------------------------------------------- helpers
def part_a(seed, scale=1.0):
    """A part of a seed's experiment (importable by name)."""
    rng = np.random.default_rng(seed)
    return {"a_x": float(scale * rng.normal()), "a_seed": seed}


def part_b(seed, marker=None):
    if marker:  # count the calls
        with open(marker, "a") as fh:
            fh.write("x")
    return {"b_y": float(seed) ** 2}


def both_parts(seed, part, **kw):
    return part_a(seed, **kw) if part == "a" else part_b(seed, **kw)


def holm_by_definition(p, alpha):
    """Holm's step-down procedure as Holm (1979) states it: order the p-values, reject while
    p_(i) <= alpha / (k - i + 1), stop at the first that is not."""
    order = np.argsort(p, kind="stable")
    reject = np.zeros(len(p), bool)
    for i, j in enumerate(order):
        if p[j] <= alpha / (len(p) - i):
            reject[j] = True
        else:
            break
    return reject


# ----------------------------------------------------------------------------- statistics
def test_holm_adjusted_p_values_reject_what_the_step_down_procedure_rejects():
    rng = np.random.default_rng(4)
    for _ in range(300):
        k = int(rng.integers(1, 9))
        p = rng.uniform(0, 0.1, k) ** rng.uniform(0.5, 2)
        adj = C.holm(p)
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
        for alpha in (0.01, 0.05, 0.1):
            np.testing.assert_array_equal(adj <= alpha, holm_by_definition(p, alpha))


def test_t_interval_matches_scipy():
    rng = np.random.default_rng(1)
    for n in (2, 3, 10, 40):
        x = rng.normal(0.3, 0.1, n)
        m, lo, hi = C.t_interval(x)
        ref = stats.t.interval(0.95, n - 1, loc=np.mean(x), scale=stats.sem(x))
        assert m == pytest.approx(np.mean(x)) and (lo, hi) == pytest.approx(ref, rel=1e-12)


def test_signed_rank_null_distribution_is_the_count_of_sign_patterns():
    for n in range(1, 11):  # every one of the 2^n sign patterns of the ranks 1..n
        signs = np.array(list(itertools.product((0, 1), repeat=n)))
        t = signs @ np.arange(1, n + 1)
        ref = [(t >= k).mean() for k in range(n * (n + 1) // 2 + 1)]
        np.testing.assert_allclose(C.signed_rank_sf(n), ref, rtol=1e-12)


def test_paired_rank_test_is_scipys_exact_wilcoxon_at_the_boundary():
    rng = np.random.default_rng(1)
    for n in (3, 6, 10, 17, 25):
        for shift, bound in ((0.0, 0.0), (0.05, 0.0), (0.02, 0.01), (-0.03, 0.01)):
            d = rng.normal(shift, 0.05, n)
            for rule in (C.Rule.greater(bound), C.Rule.less(bound)):
                p_for, p_against = rule.one_sided(d)
                up = stats.wilcoxon(d - bound, alternative="greater", method="exact").pvalue
                down = stats.wilcoxon(d - bound, alternative="less", method="exact").pvalue
                ref = (up, down) if rule.kind == "greater" else (down, up)
                assert (p_for, p_against) == pytest.approx(ref, rel=1e-10)


def test_sign_test_is_scipys_binomial_test_of_the_signs():
    rng = np.random.default_rng(2)
    for n in (5, 12, 30):
        v = rng.normal(0.1, 1.0, n)
        p_for, p_against = C.Rule.greater(0.2).one_sided(v, test="sign")
        k = int(np.sum(v > 0.2))
        assert p_for == pytest.approx(stats.binomtest(k, n, 0.5, alternative="greater").pvalue)
        assert p_against == pytest.approx(
            stats.binomtest(n - k, n, 0.5, alternative="greater").pvalue
        )


def _walsh_by_loops(d):
    return sorted((d[i] + d[j]) / 2 for i in range(len(d)) for j in range(i, len(d)))


def test_the_interval_is_the_set_of_boundaries_the_test_does_not_reject():
    """The interval a row prints is the one its verdict uses: a boundary below the interval's
    low end is rejected by the one-sided test at 2.5 %, one above it is not (and likewise at
    the high end), for the signed-rank and the sign test."""
    rng = np.random.default_rng(3)
    for test, interval in (("wilcoxon", C.signed_rank_interval), ("sign", C.sign_interval)):
        for n in (6, 9, 15, 30):
            d = rng.standard_t(3, n) * 0.02 + 0.01
            est, lo, hi = interval(d)
            if test == "wilcoxon":
                assert est == pytest.approx(np.median(_walsh_by_loops(d)))
            else:
                assert est == pytest.approx(np.median(d))
            for b in np.linspace(lo - 0.05, hi + 0.05, 101):
                p_up, _ = C.Rule.greater(b).one_sided(d, test)
                p_down, _ = C.Rule.less(b).one_sided(d, test)
                assert (p_up <= 0.025) == (b < lo), (test, n, b, lo)
                assert (p_down <= 0.025) == (b > hi), (test, n, b, hi)
    # too few seeds for any rejection at 2.5 %: an interval without ends
    assert C.signed_rank_interval([0.1, 0.2, 0.3, 0.4, 0.5])[1:] == (-math.inf, math.inf)
    assert math.isfinite(C.signed_rank_interval(np.arange(6.0))[1])


def test_clopper_pearson_is_the_beta_quantile_interval():
    for k, n in ((0, 17), (0, 4000), (3, 50), (50, 50), (12, 1000)):
        lo, hi = C.clopper_pearson(k, n)
        ref_lo = 0.0 if k == 0 else stats.beta.ppf(0.025, k, n - k + 1)
        ref_hi = 1.0 if k == n else stats.beta.ppf(0.975, k + 1, n - k)
        assert (lo, hi) == pytest.approx((ref_lo, ref_hi), rel=1e-6, abs=1e-12)
    # 0 events: the exact upper limit
    assert C.clopper_pearson(0, 17)[1] == pytest.approx(1 - 0.025 ** (1 / 17))


def test_within_is_two_one_sided_tests_at_the_interval_level():
    x = np.array([0.001, -0.002, 0.0005, 0.0015, -0.001, 0.002, -0.0005, 0.0008])
    p_for, p_against = C.Rule.within(0.01).one_sided(x)
    lo = stats.wilcoxon(x + 0.01, alternative="greater", method="exact").pvalue
    hi = stats.wilcoxon(x - 0.01, alternative="less", method="exact").pvalue
    assert p_for == pytest.approx(max(lo, hi)) and p_against > 0.5
    t = C.table([C.Claim("same", "w", "q", "x", C.Rule.within(0.01))], _frame(x=x))
    assert t.verdict[0] == "holds" and -0.01 < t.ci_low[0] and t.ci_high[0] < 0.01
    # an equivalence claim whose interval is wholly beyond the margin fails
    t = C.table([C.Claim("same", "w", "q", "x", C.Rule.within(0.01))], _frame(x=x + 0.05))
    assert t.verdict[0] == "fails" and t.ci_low[0] > 0.01


# ----------------------------------------------------------------------------- verdicts
def _frame(**cols):
    n = len(next(iter(cols.values())))
    return pd.DataFrame({"seed": range(n), **cols})


def test_verdicts_on_constructed_cases():
    rng = np.random.default_rng(0)
    f = _frame(
        up=0.05 + 0.005 * rng.normal(size=10),
        down=-0.05 + 0.005 * rng.normal(size=10),
        noise=0.01 * rng.normal(size=10),
        near=0.001 * rng.normal(size=10),
        half=[np.nan] * 9 + [1.0],
        events=[0, 1, 0, 0, 0, 2, 0, 0, 1, 0],
        draws=[2000] * 10,
    )
    spec = [
        C.Claim("up", "s1", "q", "up", C.Rule.greater(0)),
        C.Claim("down", "s2", "q", "down", C.Rule.greater(0)),
        C.Claim("noise", "s3", "q", "noise", C.Rule.greater(0)),
        C.Claim("equal", "s4", "q", "near", C.Rule.within(0.01)),
        C.Claim("untestable", "s5", "q", "up", C.Rule.greater(0), testable="no data here"),
        C.Claim("one seed", "s6", "q", "half", C.Rule.greater(0)),
        C.Claim(
            "rate", "s7", "q", lambda r: (r.events, r.draws), C.Rule.less(0.01), test="binomial"
        ),  # fmt: skip
    ]
    t = C.table(spec, f)
    assert list(t.columns) == C.COLUMNS
    assert list(t.verdict) == [
        "holds",
        "fails",
        "inconclusive",
        "holds",
        "not testable here",
        "inconclusive",
        "holds",
    ]
    assert t.n_seeds.tolist() == [10, 10, 10, 10, 10, 1, 10]
    assert np.isnan(t.p_holm[4]) and np.isnan(t.p_holm[5])  # outside Holm's family
    assert t.test[0].endswith("Holm over 5") and t.evidence[4].startswith("no data here")
    assert t.test[0].startswith("Wilcoxon") and t.test[6].startswith("exact binomial")
    assert t.estimate[6] == pytest.approx(4 / 20000)
    # the decision is the Holm-adjusted p against alpha
    finite = np.isfinite(t.p_value)
    np.testing.assert_allclose(t.p_holm[finite], C.holm(t.p_value[finite]))
    text = C.verdict_text(t)
    assert text.count("\n") == len(t) - 1 and "**fails**" in text and "No data here" in text
    assert C.tally(t) == "3 hold, 1 fails, 2 inconclusive, 1 not testable here"


def test_holds_and_fails_only_where_the_interval_agrees():
    """Over many random tables, a row that holds has its whole 95 % interval on the claim's
    side, one that fails on the other side, and each p_holm below 0.05."""
    rng = np.random.default_rng(5)
    seen = set()
    for _ in range(60):
        n = int(rng.integers(6, 25))
        cols = {f"x{i}": rng.normal(rng.normal(0, 0.02), 0.02, n) for i in range(4)}
        rules = [C.Rule.greater(0), C.Rule.less(0.01), C.Rule.within(0.02), C.Rule.greater(-0.01)]
        spec = [C.Claim(k, "w", "q", k, r) for k, r in zip(cols, rules)]
        for _, row in C.table(spec, _frame(**cols)).iterrows():
            r = rules[int(row.claim[1])]
            seen.add(row.verdict)
            if row.verdict == "holds":
                assert r.holds_on(row.ci_low, row.ci_high) and row.p_holm < 0.05
            elif row.verdict == "fails":
                assert r.fails_on(row.ci_low, row.ci_high) and row.p_holm < 0.05
            else:
                assert row.verdict == "inconclusive"
                assert not row.p_holm < 0.05 or "does not agree" in row.evidence
    assert seen == {"holds", "fails", "inconclusive"}


def test_zero_spread_gives_no_p_value_and_no_interval():
    """Every seed the same value: no test of spread, no p = 0, no interval [x, x]."""
    t = C.table(
        [
            C.Claim("flat", "w", "q", "x", C.Rule.greater(0)),
            C.Claim("computed", "w", "q", "x", C.Rule.less(0.005), test="exact"),
            C.Claim("identity", "w", "q", "y", C.Rule.greater(0.999), test="exact"),
        ],
        _frame(x=[0.0219] * 10, y=[1.0] * 10),
    )
    assert t.p_value.isna().all() and t.ci_low.isna().all() and t.ci_high.isna().all()
    assert list(t.verdict) == ["inconclusive", "fails", "holds"]
    assert "nothing to rank" in t.evidence[0]
    assert t.test[1] == "exact computation" and "exact computation" in t.evidence[1]
    text = C.verdict_text(t)
    assert "p =" not in text and "(exact computation)" in text
    # an exact claim that fails at one seed fails, and says at how many it holds
    t = C.table([C.Claim("c", "w", "q", "y", C.Rule.greater(0.999), test="exact")],
                _frame(y=[1.0] * 9 + [0.5]))  # fmt: skip
    assert t.verdict[0] == "fails" and t.estimate[0] == 0.5 and "9 of 10" in t.evidence[0]


def test_zero_events_give_the_exact_upper_limit_and_hold_only_below_the_bound():
    # 0 counterexamples in 17 streams: the rate's exact upper limit is 0.195, far above 0.01
    few = C.table([C.Claim("no exceptions", "L3.1", "q", lambda r: (r.k, r.n), C.Rule.less(0.01),
                           test="binomial")], _frame(k=[0, 0, 0], n=[6, 6, 5]))  # fmt: skip
    assert few.verdict[0] == "inconclusive" and few.estimate[0] == 0.0
    assert few.ci_high[0] == pytest.approx(1 - 0.025 ** (1 / 17))
    assert "0 events: the exact upper limit of the rate is 0.195" in few.evidence[0]
    # 0 of 40,000 Monte Carlo trials against delta = 0.05: holds, by the exact binomial test
    many = C.table([C.Claim("bound", "T1", "q", lambda r: (r.k, r.n), C.Rule.less(0.05),
                            test="binomial")], _frame(k=[0] * 10, n=[4000] * 10))  # fmt: skip
    assert many.verdict[0] == "holds" and many.ci_high[0] < 1e-3
    assert many.p_value[0] == pytest.approx(2 * stats.binom.cdf(0, 40000, 0.05))


def test_a_claim_whose_condition_never_occurred_is_not_exercised():
    f = _frame(d=[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], alarms=[0] * 6, k=[0] * 6, n=[0] * 6)
    spec = [
        C.Claim("false alarms do not matter", "w", "q", "d", C.Rule.within(0.01),
                exercised=lambda r: r.alarms > 0, condition="a false alarm"),
        C.Claim("rate", "w", "q", lambda r: (r.k, r.n), C.Rule.less(0.1), test="binomial"),
        C.Claim("other", "w", "q", lambda r: r.seed + 0.5, C.Rule.greater(0)),
    ]  # fmt: skip
    t = C.table(spec, f)
    assert list(t.verdict[:2]) == ["not exercised", "not exercised"]
    assert "a false alarm" in t.evidence[0] and "0 of 6 seeds" in t.evidence[0]
    assert t.test[2].endswith("Holm over 1")  # the unexercised claims are outside the family
    assert "not exercised" in C.tally(t)
    # exercised at some seeds: tested over all of them, and the evidence says at how many
    f["alarms"] = [0, 2, 0, 1, 0, 0]
    f["d"] = [0.0, 0.001, 0.0, -0.002, 0.0, 0.0005]
    t = C.table(spec[:1], f)
    assert t.verdict[0] != "not exercised" and "occurred at 2 of 6 seeds" in t.evidence[0]


def test_binomial_claims_over_grid_points_must_hold_at_every_point():
    """An intersection-union test: the point with the largest p decides, and its interval is
    the one printed."""
    f = _frame(a=[0, 1, 0], b=[40, 35, 38], n=[400] * 3)
    spec = [C.Claim("bound at every m", "T", "q",
                    lambda r: {"m = 10": (r.a, r.n), "m = 100": (r.b, r.n)},
                    C.Rule.less(0.05), test="binomial")]  # fmt: skip
    t = C.table(spec, f)
    p_worst = stats.binomtest(113, 1200, 0.05, alternative="less").pvalue
    assert t.verdict[0] == "fails" and t.estimate[0] == pytest.approx(113 / 1200)
    assert "at m = 100" in t.evidence[0] and "each of 2 points" in t.evidence[0]
    lo, hi = C.clopper_pearson(113, 1200)
    assert (t.ci_low[0], t.ci_high[0]) == pytest.approx((lo, hi)) and p_worst > 0.5


def test_cluster_bootstrap_resamples_whole_seeds():
    # trials of a seed share its stream: the pooled ratio, with an interval from seeds
    num = np.array([30.0, 2.0, 25.0, 1.0, 28.0, 3.0, 26.0, 2.0, 27.0, 1.0, 29.0, 2.0])
    den = np.full(12, 100.0)
    f = _frame(num=num, den=den)
    t = C.table([C.Claim("rate", "w", "q", lambda r: (r.num, r.den), C.Rule.less(0.15),
                         test="cluster")], f)  # fmt: skip
    rng = np.random.default_rng(0)
    idx = rng.integers(0, 12, (C.BOOTSTRAP_RESAMPLES, 12))
    ref = num[idx].sum(1) / den[idx].sum(1)
    assert t.estimate[0] == pytest.approx(num.sum() / den.sum())
    assert (t.ci_low[0], t.ci_high[0]) == pytest.approx(tuple(np.quantile(ref, [0.025, 0.975])))
    # far wider than the binomial interval of the pooled trials, which ignores the seeds
    lo, hi = C.clopper_pearson(int(num.sum()), int(den.sum()))
    assert t.ci_high[0] - t.ci_low[0] > 2 * (hi - lo)
    # three seeds are too few clusters to trust a bootstrap: no interval, no p, no verdict
    t = C.table([C.Claim("rate", "w", "q", lambda r: (r.num, r.den), C.Rule.less(0.15),
                         test="cluster")], f.iloc[:3])  # fmt: skip
    assert t.verdict[0] == "inconclusive" and t.p_value.isna()[0] and t.ci_low.isna()[0]


def test_holm_runs_within_each_family():
    x = np.array([0.3, 1.1, 0.9, 1.6, 0.2, 1.4, 0.8, 1.0]) - 0.2
    spec = [C.Claim(k, "w", "q", "x", C.Rule.greater(0), family=fam)
            for k, fam in (("a", "one"), ("b", "one"), ("c", "two"))]  # fmt: skip
    t = C.table(spec, _frame(x=x))
    assert t.p_holm[0] == pytest.approx(2 * t.p_value[0]) and t.p_holm[2] == t.p_value[2]
    assert t.test[0].endswith("Holm over 2 (one)") and t.test[2].endswith("Holm over 1 (two)")


def test_power_matches_a_simulation_with_scipys_tests():
    rule = C.Rule.greater(0.0, power_at=0.01, power_sd=0.01)
    n, k = 12, 5
    rng = np.random.default_rng(11)
    hits = [
        stats.wilcoxon(rng.normal(0.01, 0.01, n), alternative="greater", method="exact").pvalue
        <= 0.05 / (2 * k)
        for _ in range(1500)
    ]
    assert C.power(rule, "wilcoxon", n, k) == pytest.approx(np.mean(hits), abs=0.04)
    # binomial: exact, against the count of the rejection region
    rule = C.Rule.less(0.05, power_at=0.02)
    n_trials = 1000
    c = max(x for x in range(n_trials) if stats.binom.cdf(x, n_trials, 0.05) <= 0.025)
    ref = stats.binom.cdf(c, n_trials, 0.02)
    assert C.power(rule, "binomial", 10, 1, trials=[n_trials]) == pytest.approx(ref)
    # 3 seeds cannot reach 2.5 % with a rank test: power 0, and the rule says so
    assert C.power(C.Rule.greater(0, power_at=1, power_sd=0.1), "wilcoxon", 3) == 0.0
    t = C.table([C.Claim("a", "w", "q", "x",
                         C.Rule.greater(0, power_at=1, power_sd=0.1))], _frame(x=[1.0, 2.0, 3.0]))  # fmt: skip
    assert "power 0.00" in t.rule[0] and t.verdict[0] == "inconclusive"
    assert "no 95 % interval from 3 seeds" in C.verdict_text(t)


def test_bad_rules_are_refused():
    for make, match in [
        (lambda: C.Rule("bigger", 0), "kind"),
        (lambda: C.Rule.within(0), "positive"),
        (lambda: C.Rule.greater(math.inf), "finite"),
        (lambda: C.Rule.greater(0, alpha=1.5), "alpha"),
        (lambda: C.Rule.greater(0, power_sd=0.0), "power_sd"),
        (lambda: C.default_seeds(True, n_quick=2), "at least 3"),
        (lambda: C.table([], _frame(x=[1.0])), "no claims"),
        (lambda: C.Claim("a", "w", "q", "x", C.Rule.greater(0), test="t"), "test must be"),
        (
            lambda: C.table([C.Claim("a", "w", "q", "nope", C.Rule.greater(0))], _frame(x=[1.0])),
            "no column",
        ),
        (
            lambda: C.table(
                [C.Claim("a", "w", "q", lambda r: (r.x, 10), C.Rule.less(0.0), test="binomial")],
                _frame(x=[1.0]),
            ),  # fmt: skip
            "strictly between 0 and 1",
        ),
    ]:
        with pytest.raises(ValueError, match=match):
            make()


# ----------------------------------------------------------------------------- tuning
def test_tune_extends_a_grid_until_the_best_value_is_inside():
    calls = []

    def score(delta, delta2):
        calls.append((delta, delta2))
        return (math.log(delta) - math.log(0.002)) ** 2 + (delta2 - 0.3) ** 2

    t = C.tune(
        score, {"delta": [0.01, 0.05, 0.2], "delta2": [0.1, 0.4]}, limits={"delta": (0, 0.5)}
    )
    assert not t.at_edge and t.edges == {"delta": "", "delta2": ""}
    d = sorted(t.table.delta.unique())
    assert d[0] < t.best["delta"] < d[-1] and t.best["delta"] == pytest.approx(0.002, rel=0.6)
    assert len(calls) == len(set(calls)) == len(t.table)  # nothing evaluated twice
    # every setting tried is in the table with its score
    for _, r in t.table.iterrows():
        assert r.score == pytest.approx(score(r.delta, r.delta2))
    # the best of the table is the best returned
    assert t.score == t.table.score.min()


def test_tune_reports_a_best_value_at_the_limit_of_its_range():
    t = C.tune(lambda delta: -delta, {"delta": [0.1, 0.2, 0.3]}, limits={"delta": (0, 0.5)})
    assert t.at_edge and "limit 0.5" in t.edges["delta"] and t.best["delta"] < 0.5
    assert t.table.delta.max() > 0.49  # it went as close as the step allows
    t = C.tune(lambda x: -x, {"x": [1.0, 2.0]}, max_rounds=2)
    assert "after 2 extensions" in t.edges["x"] and t.best["x"] == 8.0
    assert "interior" in C.tune(lambda x: (x - 2) ** 2, {"x": [1.0, 2.0, 3.0]}).describe()


# ----------------------------------------------------------------------------- running seeds
def test_run_seeds_merges_the_parts_of_each_seed(tmp_path, monkeypatch):
    monkeypatch.delenv("WORKBENCH_CLAIMS_CACHE", raising=False)
    parts = [{"part": "a", "scale": 2.0}, {"part": "b"}]
    f = C.run_seeds(both_parts, [5, 3, 4], parts, backend="serial", progress=False)
    assert list(f.seed) == [5, 3, 4]
    assert list(f.b_y) == [25.0, 9.0, 16.0] and list(f.a_seed) == [5, 3, 4]
    assert list(f.a_x) == [part_a(s, 2.0)["a_x"] for s in (5, 3, 4)]
    with pytest.raises(ValueError, match="twice"):
        C.run_seeds(both_parts, [1, 1], parts, backend="serial", progress=False)
    with pytest.raises(ValueError, match="same keys"):
        C.run_seeds(
            both_parts,
            [1],
            [{"part": "a"}, {"part": "a", "scale": 3.0}],
            backend="serial",
            progress=False,
        )


def test_run_seeds_reads_an_identical_call_from_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_CLAIMS_CACHE", str(tmp_path / "cache"))
    marker = str(tmp_path / "calls")
    kw = dict(backend="serial", progress=False)
    one = C.run_seeds(part_b, [1, 2, 3], {"marker": marker}, **kw)
    two = C.run_seeds(part_b, [1, 2, 3], {"marker": marker}, **kw)
    three = C.run_seeds(part_b, [1, 2], {"marker": marker}, **kw)  # other seeds: computed
    assert open(marker).read() == "x" * 5
    pd.testing.assert_frame_equal(one, two)
    assert two.attrs["cached"] and not one.attrs.get("cached") and len(three) == 2
    assert len(os.listdir(tmp_path / "cache")) == 2


def test_every_verdict_is_one_of_the_five():
    rng = np.random.default_rng(3)
    for kind, bound in itertools.product(("greater", "less", "within"), (0.0, 0.1)):
        if kind == "within" and bound == 0:
            continue
        f = _frame(x=rng.normal(0.05, 0.1, 6))
        t = C.table([C.Claim("c", "w", "q", "x", C.Rule(kind, bound))], f)
        assert t.verdict[0] in C.VERDICTS


def test_run_decides_a_spec_over_default_seeds(monkeypatch):
    monkeypatch.delenv("WORKBENCH_CLAIMS_CACHE", raising=False)
    spec = [C.Claim("x is positive", "w", "a_x", "a_x", C.Rule.greater(0))]
    t = C.run(spec, part_a, {"scale": 1.0}, quick=True, processes=1, progress=False)
    assert t.attrs["seeds"] == [0, 1, 2] and t.attrs["quick"] and t.n_seeds[0] == 3
    assert list(C.attached(t).a_x) == [part_a(s)["a_x"] for s in (0, 1, 2)]
    assert str(t) and len(pd.concat([t, t])) == 2  # the attached frame does not upset pandas
    t = C.run(spec, part_a, quick=False, processes=1, progress=False)
    assert t.attrs["seeds"] == list(range(10))


# ----------------------------------------------------------------------------- provenance
def test_stored_results_record_their_revision_and_know_when_the_code_changed(tmp_path):
    import subprocess

    from workbench import provenance

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("y = 1\n")
    git("add", ".")
    git("commit", "-qm", "first")
    path = tmp_path / "results" / "r.csv"
    frame = pd.DataFrame({"a": [0.1, 2 / 3, 1e-300], "b": ["u", "v", "w"]})
    provenance.save(frame, path, command="make r", sources=["code.py"], root=str(tmp_path))
    back = provenance.load(path)
    pd.testing.assert_frame_equal(back, frame)  # floats exactly
    head = back.attrs["provenance"]
    assert head["revision"].endswith("(clean)") and head["command"] == "make r"
    assert head["date"].endswith("Z") and head["sources"] == "code.py"
    assert provenance.staleness(path, root=str(tmp_path)) == ""
    assert "has not changed" in provenance.describe(path, root=str(tmp_path))
    (tmp_path / "other.py").write_text("y = 2\n")  # not a source: still up to date
    git("commit", "-qam", "other")
    assert provenance.staleness(path, root=str(tmp_path)) == ""
    (tmp_path / "code.py").write_text("x = 2\n")
    assert "uncommitted changes here" in provenance.staleness(path, root=str(tmp_path))
    git("commit", "-qam", "change the code")
    why = provenance.staleness(path, root=str(tmp_path))
    assert why.startswith("1 commit since changed its code") and "change the code" in why
    assert "Older than the code" in provenance.describe(path, root=str(tmp_path))
    # a results file made from uncommitted code says so
    (tmp_path / "code.py").write_text("x = 3\n")
    provenance.save(frame, path, command="make r", sources=["code.py"], root=str(tmp_path))
    assert "uncommitted changes in: code.py" in provenance.header(path)["revision"]
    assert "made from uncommitted code" in provenance.staleness(path, root=str(tmp_path))
    # a file without a header is of unknown age
    frame.to_csv(tmp_path / "old.csv", index=False)
    assert "unknown age" in provenance.describe(tmp_path / "old.csv")
    with pytest.raises(ValueError, match="command"):
        provenance.save(frame, path, command="")


def test_tune_refines_around_the_best_value_of_a_coarse_grid():
    def score(delta):
        return (delta - 0.38) ** 2

    coarse = C.tune(score, {"delta": [0.01, 0.1, 0.45]}, limits={"delta": (0, 0.5)})
    fine = C.tune(score, {"delta": [0.01, 0.1, 0.45]}, limits={"delta": (0, 0.5)}, refine=3)
    assert coarse.best["delta"] == 0.45 and not coarse.at_edge  # 0.45 is interior after extension
    assert abs(fine.best["delta"] - 0.38) < abs(coarse.best["delta"] - 0.38) / 2
    assert not fine.at_edge and len(fine.table) <= len(coarse.table) + 6


def test_results_are_data_not_code_for_staleness(tmp_path):
    """Writing one results file must not mark another one (made from clean code) as made from
    uncommitted code, nor make it stale when committed."""
    import subprocess

    from workbench import provenance

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.org")
    git("config", "user.name", "t")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "code.py").write_text("x = 1\n")
    git("add", ".")
    git("commit", "-qm", "code")
    frame = pd.DataFrame({"a": [1.0]})
    kw = dict(command="make", sources=["pkg"], root=str(tmp_path))
    provenance.save(frame, tmp_path / "pkg" / "results" / "one.csv", **kw)
    provenance.save(frame, tmp_path / "pkg" / "results" / "two.csv", **kw)  # one.csv is new
    assert provenance.header(tmp_path / "pkg" / "results" / "two.csv")["revision"].endswith(
        "(clean)"
    )
    git("add", ".")
    git("commit", "-qm", "results")
    assert provenance.staleness(tmp_path / "pkg" / "results" / "one.csv", root=str(tmp_path)) == ""


def test_a_stored_run_knows_whether_its_code_changed_and_says_so_plainly(tmp_path):
    """The fingerprint of the sources is kept with the run; the note is one sentence with the
    date and the changed sources, and never git history."""
    (tmp_path / "pkg" / "results").mkdir(parents=True)
    (tmp_path / "pkg" / "code.py").write_text("x = 1\n")
    (tmp_path / "other.py").write_text("y = 1\n")
    path = tmp_path / "pkg" / "results" / "claims_full.csv"
    cmd = "python3 dev.py claims --refresh --full pkg  # 1.0 min wall"
    kw = dict(command=cmd, sources=["pkg", "other.py"], root=str(tmp_path))
    frame = pd.DataFrame({"seed": [0, 1], "a": [0.5, 1 / 3]})
    C.save_frame(frame, path, **kw)
    back = provenance.load(path)
    pd.testing.assert_frame_equal(back, frame)  # the extra header line is read as a header
    assert C.recorded_digest(path) == C.source_digest(["pkg", "other.py"], tmp_path)
    assert C.changed_sources(path, tmp_path) == []
    note = C.stored_note(path, tmp_path)
    assert note.startswith("Stored full claims run of 20") and "as it is now" in note
    assert "`python3 dev.py claims --refresh --full pkg` makes it again" in note
    # results are data: another result written beside it changes nothing
    C.save_frame(frame, path.with_name("claims_quick.csv"), **kw)
    assert C.changed_sources(path, tmp_path) == []
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "code.cpython-311.pyc").write_bytes(b"\0")
    assert C.changed_sources(path, tmp_path) == []
    # a change of the code: the note names where, with the date, in one sentence
    (tmp_path / "pkg" / "code.py").write_text("x = 2\n")
    assert C.changed_sources(path, tmp_path) == ["pkg"]
    note = C.stored_note(path, tmp_path)
    assert "has changed since (in pkg)" in note and note.count(". ") == 0
    assert "commit" not in note and "latest" not in note and "**" not in note
    # a file without a fingerprint says so
    provenance.save(frame, tmp_path / "old.csv", command="make", sources=["pkg"])
    assert C.changed_sources(tmp_path / "old.csv") == ["(no fingerprint)"]
    assert "records no fingerprint" in C.stored_note(tmp_path / "old.csv")
