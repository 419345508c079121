"""The claims table a paper notebook shows: in quick mode the stored quick run, unless the cell
asks to recompute it.

A quick claims run (3 seeds at small sizes) takes up to a minute of processor time (13-60 s
for papers 000-002, measured 2026-11-24), as much as the rest of a notebook in quick mode or
more, and its verdicts are smoke-test verdicts.  So a notebook in quick mode shows the stored
quick run (``results/claims_quick.csv``; one sentence says when it was made and whether the
code that makes it has changed since), which ``tests/test_stored_results.py`` makes again from
scratch at the same seeds and compares exactly: a stored table that today's code no longer
computes fails the suite.  A ``RECOMPUTE = True`` in the cell runs it live instead; the full
mode always runs live.
"""

from __future__ import annotations


def claims_to_show(paper, quick: bool, recompute: bool = False, **kwargs):
    """``paper.claims(quick=quick, **kwargs)`` run now (full mode, or ``recompute``), or, in
    quick mode, ``paper.stored_claims(quick=True)``, with a printed line saying which, when the
    stored run was made and whether its code has changed since.  The table's ``attrs["live"]``
    says whether it was computed now; a stored table has no ``attrs["seconds"]``."""
    if quick and not recompute:
        table = paper.stored_claims(quick=True)
        if table is not None:
            _show(
                "Quick mode shows the stored quick claims run (set `RECOMPUTE = True` in this "
                "cell to run it now; `tests/test_stored_results.py` runs it again from scratch "
                "and compares). " + table.attrs["note"]
            )
            table.attrs["live"] = False
            return table
        _show("No stored quick claims run: computing it now.")
    table = paper.claims(quick=quick, **kwargs)
    table.attrs["live"] = True
    return table


def _show(text: str) -> None:
    """Markdown in a notebook (the stored run's note has some), plain text elsewhere."""
    from IPython import get_ipython

    if get_ipython() is None:
        print(text)
    else:
        from IPython.display import Markdown, display

        display(Markdown(text))


def run_time(table) -> str:
    """``"computed now in N s"`` for a live table, ``"stored run"`` otherwise (for a cell's
    summary line)."""
    if table.attrs.get("live", True) and "seconds" in table.attrs:
        return f"computed now in {table.attrs['seconds']:.0f} s"
    return "stored run"


__all__ = ["claims_to_show", "run_time"]
