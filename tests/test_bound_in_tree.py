"""Notebook 07's runners (workbench.experiments.bound_in_tree) and its stored target run: the
stored summary is the stored per-tree rows summarized, its limits are the exact binomial ones
(computed here with scipy), the target's rule holds on it, and one tree of the run is the tree
audit_tree judges."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from workbench import evaluate, montecarlo, streams
from workbench.experiments import bound_in_tree as B


@pytest.fixture(scope="module")
def stored():
    table, trees = B.stored_target()
    if table is None:
        pytest.fail(
            "no stored target run: python3 -m workbench.experiments.bound_in_tree --refresh"
        )
    return table, trees


def test_the_stored_summary_is_its_trees_summarized(stored):
    table, trees = stored
    again = B.summarize_target(trees)
    keep = [c for c in table.columns if c != "seconds_per_tree"]
    pd.testing.assert_frame_equal(
        again[keep].sort_values("config").reset_index(drop=True),
        table[keep].sort_values("config").reset_index(drop=True),
        check_dtype=False,
    )
    assert "--refresh" in table.attrs["provenance"]["command"]


def test_the_stored_limits_are_exact_binomial_limits(stored):
    table, _ = stored
    for _, r in table.iterrows():
        ci = stats.binomtest(int(r.wrong), int(r.splits)).proportion_ci(0.95, "exact")
        assert r.split_high == pytest.approx(ci.high, rel=1e-9)
        ct = stats.binomtest(int(r.trees_wrong), int(r.trees)).proportion_ci(0.95, "exact")
        assert r.tree_high == pytest.approx(ct.high, rel=1e-9)


def test_the_target_rule_on_the_stored_run(stored):
    """The issue's target: 200 trees, at least 100 split decisions of a valid bound, and the
    exact upper 95% limit of its per-split rate of wrong splits at or below delta."""
    table, trees = stored
    t = table.set_index("config")
    valid = t.loc["cs_gini"]
    assert valid.trees >= 100 and valid.splits >= 100
    assert valid.split_high <= B.DELTA
    assert trees.groupby("config").size().min() == valid.trees
    # the comparison ran on the same streams
    seeds = {c: set(g.seed) for c, g in trees.groupby("config")}
    assert seeds["cs_gini"] == seeds["hoeffding"]


def test_one_tree_of_the_run_is_what_audit_tree_says():
    row = B.target_tree("hoeffding", 3, 30_000)
    X, y, info = streams.rand_cbt(n=30_000, seed=3, return_info=True, **B.CBT)
    model = B.make_hoeffding()
    res = evaluate.prequential(model, X, y)
    audit = montecarlo.audit_tree(model, info, tol=B.TOL)
    assert row["splits"] == len(audit) > 0
    assert row["wrong"] == int(audit["wrong"].sum())
    assert row["accuracy"] == res.accuracy and row["n_leaves"] == model.n_leaves
    assert row["first_split"] == audit["t"].min()


def test_one_vs_repeated_counts_the_worse_feature():
    leaf = B.one_vs_repeated(
        trials=200, tests={"VFDT + Hoeffding": ("vfdt", "entropy", "hoeffding")}
    )
    assert len(leaf) == 2 * len(B.SCHEDULES)
    assert ((leaf.wrong >= 0) & (leaf.wrong <= leaf.wrong_high) & (leaf.split <= 1)).all()
    # one test at 2,000 can split only at 2,000
    once = leaf[leaf.schedule == next(iter(B.SCHEDULES))]
    assert np.all((once["median split at"] == 2000) | once["median split at"].isna())
