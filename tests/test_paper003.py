"""The claims of paper 003 (workbench.experiments.paper003.verdicts): the equal-label protocol
against a plain-Python replay, the cells left out of the equal-label family, the default alpha
(code, README and the stored full run agree), and the quick claims table (the notebook's run,
read from the claims cache when the notebook test ran first).
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from workbench import active, streams
from workbench import claims as C
from workbench.experiments.paper003 import verdicts as V
from workbench.learners import FrugalHoeffdingTree, HoeffdingTree

ROOT = Path(__file__).resolve().parents[1]


def _replay(strategy, budget, seed, common, X, y, L):
    """Prequential error of the Hoeffding tree asking by ``strategy`` at ``budget`` and learning
    nothing after its L-th label, one row at a time in Python (Strategy.query)."""
    model = HoeffdingTree(**common).prepare(X)
    st = active.STRATEGIES[strategy](budget=budget, seed=1000 + seed)
    wrong = used = 0
    for i in range(len(y)):
        wrong += int(model.predict(X[i : i + 1])[0] != y[i])
        if used < L and st.query(model, X[i]):
            model.learn_one(X[i], int(y[i]))
            used += 1
    return wrong / len(y), used


def test_equal_labels_uses_exactly_L_labels_as_a_plain_replay_does():
    strategy = "ConfTree"  # asks by the leaf's counts and its own budget rule
    X, y = streams.sea(800, seed=3)
    common = dict(n_features=3, n_classes=2, criterion="info_gain", leaf_prediction="laplace",
                  grace_period=100)  # fmt: skip
    L = 300
    err, used, budget = V.equal_label_error(strategy, common, X, y, L, seed=3)
    assert used == L and L / len(y) <= budget <= 1.0
    ref_err, ref_used = _replay(strategy, budget, 3, common, X, y, L)
    assert ref_used == L
    assert err == pytest.approx(ref_err, abs=1e-12)


def test_a_strategy_that_cannot_reach_L_labels_reports_fewer():
    X, y = streams.sea(1_500, seed=5)
    common = dict(n_features=3, n_classes=2, criterion="info_gain", leaf_prediction="laplace")
    # VarUncertainty's threshold keeps its query rate near one half even at budget 1
    err, used, budget = V.equal_label_error("VarUncertainty", common, X, y, 1_400, seed=5)
    assert budget == 1.0 and used < 1_400
    assert 0.0 <= err <= 1.0


def _frame(first_rows, varunc_share):
    """A per-seed frame of one stream and one alpha for fair_spec (3 seeds)."""
    s = V.claim_sizes(True)
    cols = {"seed": [0, 1, 2], "fair/sea/n": [1000.0] * 3, "fair/sea/every/err": [0.2] * 3}
    for stream in V.STREAMS:
        cols[f"fair/{stream}/n"] = [1000.0] * 3
        for a in s.fair_alphas:
            k = f"fair/{stream}/{a:.1f}"
            cols[f"{k}/first_L_rows"] = first_rows
            cols[f"{k}/frugal/share"] = [0.8] * 3
            cols[f"{k}/frugal/err"] = [0.20, 0.21, 0.19]
            for b in ("first", "random", "conftree"):
                cols[f"{k}/{b}/share"] = [0.8] * 3
                cols[f"{k}/{b}/err"] = [0.25, 0.26, 0.24]
                cols[f"{k}/{b}/budget"] = [0.9] * 3
            cols[f"{k}/varunc/share"] = varunc_share
            cols[f"{k}/varunc/err"] = [0.3] * 3
            cols[f"{k}/varunc/budget"] = [1.0] * 3
    return pd.DataFrame(cols)


def test_cells_identical_by_construction_or_unreachable_are_left_out():
    spec = V.fair_spec(_frame([1.0, 1.0, 1.0], [0.5, 0.5, 0.5]), quick=True)
    testable = {c.claim: c.testable for c in spec}
    first = [c for k, c in testable.items() if k.endswith("beats First L at equal labels")]
    varunc = [c for k, c in testable.items() if "VarUncertainty" in k]
    random = [c for k, c in testable.items() if "Random" in k]
    assert first and all("identical by construction" in str(c) for c in first)
    assert varunc and all("fewer than L labels" in str(c) for c in varunc)
    assert random and all(c is True for c in random)
    # one seed where the Frugal tree asked after row L: the first-L cell is a comparison again
    spec = V.fair_spec(_frame([1.0, 0.0, 1.0], [0.8, 0.8, 0.8]), quick=True)
    assert all(c.testable is True for c in spec)


def test_default_alpha_agrees_in_code_readme_and_the_stored_evidence():
    default = FrugalHoeffdingTree._extra_params["alpha"]
    assert FrugalHoeffdingTree(n_features=2, n_classes=2).alpha == default
    readme = (ROOT / "README.md").read_text()
    shown = re.findall(r"FrugalHoeffdingTree\(alpha=([0-9.]+)", readme)
    assert shown and all(float(a) == default for a in shown)
    doc = FrugalHoeffdingTree.__doc__
    assert f"default {default:g}" in doc


def test_the_stored_evidence_chooses_alpha_by_its_rule():
    stored = V.default_alpha(V.stored_claims())
    # the choice is the rule's: the smallest alpha that is within the margin on every stream
    ok = stored.groupby("alpha").ok.all()
    assert ok.any() and stored.attrs["choice"] == ok[ok].index.min()


@pytest.mark.xfail(
    strict=True,
    reason="the full run of 2026-12-07 (20 seeds, the final engine) chooses alpha 0.7 by the "
    "rule, the default is 0.8: moving the default changes workbench/learners, which every "
    "paper's stored runs list as a source, so it waits for the next refresh of all five",
)
def test_the_default_alpha_is_the_stored_evidences_choice():
    stored = V.default_alpha(V.stored_claims())
    assert stored.attrs["choice"] == FrugalHoeffdingTree._extra_params["alpha"]


def test_quick_claims_table():
    t = V.claims(quick=True, progress=False)  # the notebook's run, from the claims cache
    assert list(t.columns) == C.COLUMNS
    assert len(t) == len(V.spec(True)) and set(t.verdict) <= set(C.VERDICTS)
    testable = t[t.verdict != "not testable here"]
    assert (testable.n_seeds >= 3).all()
    assert set(t[t.verdict == "not testable here"]["where"]) == {"Table 4", "Table 5"}
    # exact facts are decided as such, with no p-value and no interval: Table 2's gains differ
    # from the printed ones by 0.02; alpha = 1 is the Hoeffding tree, prediction by prediction
    rows = t.set_index("claim")
    row = rows.loc["gains of Table 2 (0.25, 0.05, 0.17, 0.07) are those of Table 1"]
    assert row.verdict == "fails" and row.estimate == pytest.approx(0.0219, abs=5e-4)
    assert row.test == "exact computation" and row.p_value != row.p_value
    row = rows.loc["alpha = 1 gives the original Hoeffding tree"]
    assert row.verdict == "holds" and row.estimate == 0 and row.test == "exact computation"
    # whether the tree grows past its root is a count over runs
    roots = t[t.claim.str.contains("its root in most runs")]
    assert len(roots) and roots.test.str.startswith("exact binomial").all()
    fair = V.fair(t)
    assert list(fair.columns) == C.COLUMNS and len(fair) == len(V.fair_spec(C.attached(t)))
    # Holm over the testable cells of the family only
    tested = fair.test.str.contains("Holm over")
    assert fair.test[tested].str.endswith(f"Holm over {int(tested.sum())}").all()
