"""What a paper notebook's claims cell shows: the stored quick run in quick mode (checked against
a fresh run by tests/test_stored_results.py), a live run in full mode or when asked."""

from types import SimpleNamespace

import pandas as pd

from workbench.experiments import paper001
from workbench.experiments.shown_claims import claims_to_show, run_time


def _paper(stored):
    calls = []

    def claims(quick, **kw):
        calls.append((quick, kw))
        t = pd.DataFrame({"verdict": ["holds"]})
        t.attrs["seconds"] = 12.0
        return t

    return SimpleNamespace(claims=claims, stored_claims=lambda quick: stored, calls=calls)


def _stored():
    t = pd.DataFrame({"verdict": ["inconclusive"]})
    t.attrs["note"] = "Stored results claims_quick.csv: made 2026-11-24T22:32:55Z ..."
    return t


def test_quick_mode_shows_the_stored_run_and_says_where_it_comes_from(capsys):
    p = _paper(_stored())
    t = claims_to_show(p, quick=True)
    assert p.calls == [] and t.attrs["live"] is False and run_time(t) == "stored run"
    out = capsys.readouterr().out
    assert "stored quick claims run" in out and "2026-11-24T22:32:55Z" in out


def test_recompute_full_mode_or_nothing_stored_run_the_claims_now():
    for quick, recompute, stored in (
        (True, True, _stored()),
        (False, False, _stored()),
        (True, False, None),
    ):
        p = _paper(stored)
        t = claims_to_show(p, quick=quick, recompute=recompute, frames="F")
        assert p.calls == [(quick, {"frames": "F"})]
        assert t.attrs["live"] is True and run_time(t) == "computed now in 12 s"


def test_paper001_quick_mode_reads_its_stored_quick_run():
    t = claims_to_show(paper001, quick=True)
    assert len(t.attrs["seeds"]) >= 3 and t.attrs["note"].startswith("Stored quick claims run")
