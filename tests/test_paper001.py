"""Paper 001's experiments as the notebook runs them: tuning grids that do not leave a chosen
value at their edge, and the claims table decided over seeds (workbench.claims)."""

import numpy as np
import pytest

from workbench import claims as C
from workbench.experiments import paper001 as P


def _check_interior(tuning):
    for learner, g in tuning.groupby("learner"):
        best = g[g.chosen]
        assert len(best) == 1, learner
        assert best.edge.iloc[0] == "", (learner, best.edge.iloc[0])
        for k in ("delta", "delta2"):
            v = best[k].iloc[0]
            if v == v:
                tried = g[k].dropna()
                if learner == "BOCT-AL" and k == "delta" and tried.nunique() == 1:
                    continue  # on real data BOCT-AL takes BOCT's delta
                assert tried.min() < v < tried.max(), (learner, k, v, sorted(tried))


def test_toy_tuning_leaves_no_chosen_value_at_the_edge_of_its_grid():
    """The old grid jumped from 0.228 to its cap 0.45, where BOCT's chosen delta sat."""
    tuning = P.tune_toy(n_grid=4, n_runs=8, n_labels=300, refine=2)
    _check_interior(tuning)
    boct = tuning[tuning.learner == "BOCT"].delta
    assert ((boct > 0.23) & (boct < 0.45)).any()  # the gap below the cap is searched
    assert (boct < 0.5).all() and (tuning[tuning.learner == "Hoeffding"].delta < 1).all()


def test_pool_tuning_of_the_hoeffding_baseline_is_not_at_the_edge():
    """The Hoeffding baseline's best delta was the smallest of its grid (0.001)."""
    X, y = P.dataset("breast_cancer")
    tuning = P.tune_pool(X, y, n_grid=4, n_runs=6, refine=2)
    _check_interior(tuning)
    h = tuning[tuning.learner == "Hoeffding"]
    assert h.delta.min() < 1e-3  # extended below the old grid


@pytest.fixture(scope="module")
def quick_claims():
    return P.claims(quick=True, progress=False)


def test_claims_table_has_every_claim_decided_over_three_seeds(quick_claims):
    t = quick_claims
    assert list(t.columns) == C.COLUMNS and set(t.verdict) <= set(C.VERDICTS)
    assert t.attrs["seeds"] == [0, 1, 2]
    names = " | ".join(t.claim)
    for words in (
        "BOCT-AL as good as the best fixed partition (t = 1000)",
        "BOCT-AL better than BOCT (toy)",
        "BOCT better than the Hoeffding version (breast cancer)",
        "BOCT-AL equals BOCT at the start (breast cancer)",
        "BOCT-AL equals BOCT at the end (breast cancer)",
        "per decision (BOCT as run, δ = 0.05)",
    ):
        assert words in names, words
    # the checkpoints 10 and 30 are tested like the others (the head start is in the evidence)
    early = t[t.claim.str.contains(r"\(t = (?:10|30)\)")]
    assert len(early) == 2 and (early.verdict != "not testable here").all()
    assert early.evidence.str.contains("from the first label").all()
    paired = t[t.test.str.startswith("Wilcoxon")]
    assert len(paired) == 11 and (paired.n_seeds == 3).all()
    # 3 seeds: a rank test cannot reject, has no interval, and its rule says its power is 0
    assert (paired.verdict == "inconclusive").all() and np.isinf(paired.ci_low).all()
    assert paired.rule.str.contains("power 0.00").all()
    # one fixed candidate, one decision: no useless split in any trial, by the exact binomial test
    one = t[t.claim.str.contains("one fixed candidate")].iloc[0]
    assert one.verdict == "holds" and one.test.startswith("exact binomial") and one.estimate == 0
    assert "0 events: the exact upper limit" in one.evidence
    # per decision, BOCT as run: far below 3 delta, but 3 seeds are too few for a bootstrap
    dec = t[t.claim.str.contains("per decision")]
    assert (dec.test.str.startswith("cluster bootstrap")).all() and (
        dec.verdict == "inconclusive"
    ).all()
    assert dec.estimate.iloc[0] < 0.01
    # the workbench's finding (per run, its own family): above 3 delta at the tuned delta
    runs = t[t.claim.str.startswith("a pure-noise run")]
    assert (runs.test.str.endswith("(the workbench's findings)")).all()
    assert runs.verdict.iloc[1] == "fails"
    per_seed = C.attached(t)
    assert (per_seed["noise/tuned/runs_with_test"] > 3 * per_seed["noise/delta_tuned"] * 100).all()
    # the verdict sentences are printed from the table
    text = C.verdict_text(t)
    assert all(f"**{c}**" in text for c in t.claim) and "p = 0 " not in text


def test_noise_runs_are_independent_draws_and_count_decisions():
    """Each run draws its own labels; a run's decisions are one per label and two more per
    split, as Figs. 2-3 make them."""
    from workbench.evaluate.pool import pool_runs

    runs, installs, decisions = P.noise_runs(4, 0.3, 5)
    X, _ = P.dataset("breast_cancer")
    k = []
    for r in range(5):
        y = P.verdicts.noise_labels(4, len(X), r)
        _, leaves = pool_runs(X, y, "BOCT", delta=0.3, n_runs=1, seed=4 * 10_007 + r, n_jobs=1)
        k.append(int(leaves[0, -1]) - 1)
    assert runs == sum(x > 0 for x in k) and installs == sum(k)
    assert decisions == 5 * 284 + 2 * sum(k)
    labels = [tuple(P.verdicts.noise_labels(4, 20, r)) for r in range(5)]
    assert len(set(labels)) == 5


def test_noise_table_pools_independent_runs_with_exact_intervals():
    tab = P.noise_table(deltas=(1e-6, 0.3), seeds=[0, 1], n_runs=5, progress=False)
    assert list(tab.delta) == [1e-6, 0.3] and (tab.runs == 10).all()
    assert tab["runs with a test"].iloc[0] <= tab["runs with a test"].iloc[1]
    k = sum(P.noise_runs(s, 0.3, 5)[0] for s in (0, 1))
    assert tab["runs with a test"].iloc[1] == pytest.approx(k / 10)
    assert (tab["95% low"].iloc[1], tab["95% high"].iloc[1]) == pytest.approx(
        C.clopper_pearson(k, 10)
    )
