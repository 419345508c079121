"""Results you can trust: every stored result records the revision, date and command that made
it and the fingerprint of its sources, every stored run was made by the code as it is now (a
change that moves a learner fails here until ``python3 dev.py claims --refresh --stale`` makes
the runs again), and the quick version of each paper's claims, re-run at its fixed seeds,
reproduces the stored quick results.

The claims are deterministic given their seeds (every run draws from its own seed, kernels run
single-threaded inside a claims task), so the comparison is exact up to floating-point rounding
(relative 1e-9, far below any difference a code change that alters a result makes); text
columns (the settings a run used) must match exactly, and so must the verdicts.  Run after the
notebook tests (alphabetical order): a notebook's quick claims are kept in the session's claims
cache (tests/conftest.py) and read here instead of being computed again.
"""

import importlib

import numpy as np
import pandas as pd
import pytest

from workbench import claims as C
from workbench import provenance

#: papers whose claims tables and stored results follow workbench.claims / provenance
PAPERS = ("paper000", "paper001", "paper002", "paper003", "paper004")


def _paper(name):
    return importlib.import_module(f"workbench.experiments.{name}")


def _stored_files(name):
    from pathlib import Path

    folder = Path(_paper(name).__file__).parent / "results"
    return sorted(folder.glob("*.csv"))


@pytest.mark.parametrize("name", PAPERS)
def test_every_stored_result_records_revision_date_and_command(name):
    files = _stored_files(name)
    assert files, f"{name} stores no results"
    for path in files:
        head = provenance.header(path)
        assert set(provenance.FIELDS) <= set(head), f"{path.name} lacks its provenance: {head}"
        rev = head["revision"]
        assert len(rev.split(" ")[0]) == 40 and rev.endswith("(clean)"), (path.name, rev)
        assert head["command"] and head["date"].endswith("Z") and head["sources"], path.name
        assert C.recorded_digest(path), f"{path.name} records no fingerprint of its sources"


@pytest.mark.parametrize("name", PAPERS)
def test_every_stored_run_is_made_by_the_current_code(name):
    stale = {p.name: C.changed_sources(p) for p in _stored_files(name)}
    stale = {k: ", ".join(v) for k, v in stale.items() if v}
    assert not stale, (
        f"{name}'s stored runs were made by other code than today's ({stale}): make them again "
        f"with `python3 dev.py claims --refresh --stale {name}`"
    )


def test_no_stored_claims_table_has_a_p_value_from_zero_spread_or_holds_on_no_events():
    """The issue's targets, on every stored table (quick and full): a row with a p-value has a
    spread to test or counts to count, and no row holds on a rate of 0 events alone."""
    for name in PAPERS:
        for quick in (True, False):
            t = _paper(name).stored_claims(quick=quick)
            if t is None:
                continue
            for _, row in t.iterrows():
                if row.p_value == row.p_value:
                    assert row.ci_low != row.ci_high or "binomial" in row.test, (name, row.claim)
                if row.verdict == "holds" and "0 events" in row.evidence:
                    assert row.ci_high < float(
                        row.rule.split("< ")[1].split(",")[0].split(" ")[0]
                    ), (
                        name,
                        row.claim,
                    )


@pytest.mark.parametrize("name", PAPERS)
def test_quick_claims_reproduce_the_stored_quick_results(name):
    P = _paper(name)
    stored = P.stored_claims(quick=True)
    assert stored is not None, f"{name}: no stored quick claims"
    fresh = P.claims(quick=True, progress=False)
    assert fresh.attrs["seeds"] == stored.attrs["seeds"]
    a, b = C.attached(fresh), C.attached(stored)
    assert list(a.columns) == list(b.columns)
    for col in a.columns:
        if "seconds" in col or "/load" in col:  # the machine's time and load, not results
            continue
        x, y = a[col], b[col]
        if pd.api.types.is_numeric_dtype(y) and not pd.api.types.is_bool_dtype(y):
            np.testing.assert_allclose(
                x.to_numpy(float), y.to_numpy(float), rtol=1e-9, atol=0, err_msg=col
            )
        else:
            assert [str(v) if v == v else "" for v in x] == [str(v) if v == v else "" for v in y], (
                col
            )
    # a claim about CPU time is decided from a measurement of the machine: not compared
    timed = fresh.quantity.str.startswith("CPU seconds").to_numpy()
    assert list(fresh.verdict[~timed]) == list(stored.verdict[~timed])
    assert list(fresh.claim) == list(stored.claim)
