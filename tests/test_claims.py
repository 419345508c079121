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


def test_t_interval_and_paired_test_match_scipy():
    rng = np.random.default_rng(1)
    for n in (2, 3, 10, 40):
        a, b = rng.normal(0.3, 0.1, n), rng.normal(0.28, 0.1, n)
        m, lo, hi = C.t_interval(a - b)
        ref = stats.t.interval(0.95, n - 1, loc=np.mean(a - b), scale=stats.sem(a - b))
        assert m == pytest.approx(np.mean(a - b)) and (lo, hi) == pytest.approx(ref, rel=1e-12)
        # the rule's one-sided p-values are those of the paired t-test at the boundary
        p_for, p_against = C.Rule.greater(0).one_sided(a - b)
        assert p_for == pytest.approx(stats.ttest_rel(a, b, alternative="greater").pvalue)
        assert p_against == pytest.approx(stats.ttest_rel(a, b, alternative="less").pvalue)
        p_for, _ = C.Rule.less(0.01).one_sided(a - b)
        assert p_for == pytest.approx(stats.ttest_1samp(a - b, 0.01, alternative="less").pvalue)
        p_w, _ = C.Rule.greater(0).one_sided(a - b, test="wilcoxon")
        assert p_w == pytest.approx(
            stats.wilcoxon(a - b, alternative="greater", zero_method="zsplit").pvalue
        )


def test_within_is_two_one_sided_tests():
    x = np.array([0.001, -0.002, 0.0005, 0.0015, -0.001])
    p_for, p_against = C.Rule.within(0.01).one_sided(x)
    lo = stats.ttest_1samp(x, -0.01, alternative="greater").pvalue
    hi = stats.ttest_1samp(x, 0.01, alternative="less").pvalue
    assert p_for == pytest.approx(max(lo, hi)) and p_against > 0.5


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
        flat=np.zeros(10),
        half=[np.nan] * 9 + [1.0],
    )
    spec = [
        C.Claim("up", "s1", "q", "up", C.Rule.greater(0)),
        C.Claim("down", "s2", "q", "down", C.Rule.greater(0)),
        C.Claim("noise", "s3", "q", "noise", C.Rule.greater(0)),
        C.Claim("equal", "s4", "q", "flat", C.Rule.within(0.01)),
        C.Claim("untestable", "s5", "q", "up", C.Rule.greater(0), testable="no data here"),
        C.Claim("one seed", "s6", "q", "half", C.Rule.greater(0)),
        C.Claim("rate", "s7", "q", lambda r: r.up + 0.05, C.Rule.less(0.15)),
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
    assert t.estimate[6] == pytest.approx(f.up.mean() + 0.05)
    # the decision is the Holm-adjusted p against alpha
    finite = np.isfinite(t.p_value)
    np.testing.assert_allclose(t.p_holm[finite], C.holm(t.p_value[finite]))
    text = C.verdict_text(t)
    assert text.count("\n") == len(t) - 1 and "**fails**" in text and "No data here" in text
    assert C.tally(t) == "3 hold, 1 fails, 2 inconclusive, 1 not testable here"


def test_holm_can_turn_a_raw_rejection_into_inconclusive():
    """Two claims each significant on their own (p about 0.03) but not after Holm (0.06)."""
    x = np.array([0.3, 1.1, 0.9, 1.6, 0.2, 1.4]) - 0.2  # two-sided t p = 0.028
    p = C.table([C.Claim("a", "w", "q", "x", C.Rule.greater(0))], _frame(x=x)).p_value[0]
    assert 0.025 < p < 0.05
    y = x * 1.0
    t = C.table(
        [
            C.Claim("a", "w", "q", "x", C.Rule.greater(0)),
            C.Claim("b", "w", "q", "y", C.Rule.greater(0)),
        ],
        _frame(x=x, y=y),
    )
    assert list(t.verdict) == ["inconclusive", "inconclusive"] and t.p_holm[0] == 2 * p


def test_bad_rules_are_refused():
    for make, match in [
        (lambda: C.Rule("bigger", 0), "kind"),
        (lambda: C.Rule.within(0), "positive"),
        (lambda: C.Rule.greater(math.inf), "finite"),
        (lambda: C.Rule.greater(0, alpha=1.5), "alpha"),
        (lambda: C.default_seeds(True, n_quick=2), "at least 3"),
        (lambda: C.table([], _frame(x=[1.0])), "no claims"),
        (
            lambda: C.table([C.Claim("a", "w", "q", "nope", C.Rule.greater(0))], _frame(x=[1.0])),
            "no column",
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


def test_every_verdict_is_one_of_the_four():
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
