"""The claims of paper 002 (workbench.experiments.paper002.verdicts): the pruned batch baseline,
the Electricity design, and the quick claims table (the notebook's run, read from the claims
cache when the notebook test ran first; tests/test_stored_results.py compares it with the
stored quick results).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench import claims as C
from workbench import learners, streams
from workbench.experiments.paper002 import verdicts as V

ROOT = Path(__file__).resolve().parents[1]


def test_window_grid_of_the_lower_bound():
    full = V.window_lengths(943)
    assert full[:14] == list(range(1, 15)) and full[14:28] == list(range(21, 113, 7))
    assert full[-1] == 943 and full == sorted(set(full))
    assert all(b / a == pytest.approx(1.5, abs=0.02) for a, b in zip(full[28:-2], full[29:-1]))
    quick = V.window_lengths(943, quick=True)
    assert quick[-1] == 943 and len(quick) < len(full) and set(quick) - set(full)


def test_tuned_pruning_beats_the_tree_grown_until_pure_on_led():
    """LED has 10 % attribute noise: the tree grown until pure fits it, the pruned one does not.
    The tuned ccp_alpha lies inside its grid, and its validation error is the grid's best."""
    t = V.tune_batch("LED", 2_000, quick=True)
    assert t.edges["ccp_alpha"] == "" and t.best["ccp_alpha"] > t.table.ccp_alpha.min()
    X, y = V.stationary_stream("LED", 2_000, V.TUNE_SEED)
    Xv, yv = V.stationary_stream("LED", 5_000, V.TUNE_SEED + 1)
    grown = np.mean(V.batch_tree(0.0).fit(X, y).predict(Xv) != yv)
    assert t.score == pytest.approx(t.table.score.min()) and t.score < grown - 0.03


def test_quick_claims_table_and_the_electricity_design():
    t = V.claims(quick=True, progress=False)  # the notebook's run, from the claims cache
    assert list(t.columns) == C.COLUMNS and len(t) == len(V.spec(True))
    assert set(t.verdict) <= set(C.VERDICTS) and (t.n_seeds >= 3).all()
    tested = t.test.str.contains("Holm over")
    n_tested = int(tested.sum())
    # the speed claim is not testable in quick mode; a false-alarm claim without an alarm is
    # not exercised: both stay outside Holm's family
    assert (t.verdict[~tested].isin(["not testable here", "not exercised"])).all()
    assert t.test[tested].str.endswith(f"Holm over {n_tested}").all()
    assert t.test[tested].str.startswith("Wilcoxon signed-rank").all()
    speed = t[t.claim.str.startswith("UFFT learns orders of magnitude faster")].iloc[0]
    assert "implementations" in speed.claim and speed.verdict == "not testable here"
    alarms = t[t.claim.str.startswith("false alarms")]
    for _, row in alarms.iterrows():
        n = int(row.claim.split(", ")[-1].split(" ")[0].replace(",", ""))
        tag = V.TAG[row.claim.split(": ")[1].split(",")[0]]
        drifts = C.attached(t)[f"{tag}/ufft/drifts/{n}"]
        assert (row.verdict == "not exercised") == bool((drifts == 0).all()), row.claim
    assert len(V.choices(t)) == len(V.choices_spec(True))
    per = C.attached(t)
    # Electricity, seed 0: the paper's design (the last week, predicted from all rows before it)
    X, y = streams.electricity()
    cut = len(y) - 7 * V.ROWS_PER_DAY
    m = learners.UFFT(n_classes=2).fit(X[:cut], y[:cut])
    assert per.loc[per.seed == 0, "elec/week/ufft"].item() == np.mean(m.predict(X[cut:]) != y[cut:])


def test_common_modules_import_nothing_above_them():
    """A paper's ``_common`` is the bottom of its package: no import of a sibling module, not
    even inside a function (002's and 003's describe_mode imported verdicts, which imports
    ``_common``: a circle through a deferred import)."""
    import ast

    for paper in ("paper000", "paper001", "paper002", "paper003", "paper004"):
        path = ROOT / "workbench" / "experiments" / paper / "_common.py"
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                raise AssertionError(
                    f"{paper}/_common.py imports from its package: line {node.lineno}"
                )
