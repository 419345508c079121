"""Every notebook in notebooks/ runs top to bottom in fast mode (WORKBENCH_FAST=1) under nbclient.

New notebooks are picked up by the glob; a cell that raises fails its notebook's test with the
cell's source and the error.  The executed copy (outputs included) is saved to ``build/executed/``,
from which tests/test_book.py builds the rendered book without running the notebooks again.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

from workbench import book

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TIMEOUT = 240  # seconds per cell (fast mode: every notebook takes well under a minute)


def test_the_tour_is_there():
    assert ROOT / "notebooks" / "00_tour.ipynb" in NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_in_fast_mode(path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_FAST", "1")
    # Up to two more attempts with a fresh kernel, only when the kernel went silent or died: we have
    # seen nbclient wait for a message that never came while the kernel sat idle (not
    # reproducible on demand).  A cell that raises fails at once; three hangs fail the test.
    for attempt in (1, 2, 3):
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb,
            timeout=TIMEOUT,
            kernel_name="python3",
            resources={"metadata": {"path": str(path.parent)}},
        )
        try:
            client.execute()
            break
        except CellExecutionError as err:
            pytest.fail(f"{path.name}: a cell failed\n{err}", pytrace=False)
        except (CellTimeoutError, DeadKernelError) as err:
            if attempt == 3:
                pytest.fail(
                    f"{path.name}: the kernel hung or died three times\n{err}", pytrace=False
                )
    ran = [c for c in nb.cells if c.cell_type == "code"]
    assert ran and all(c.get("execution_count") for c in ran if c.source.strip())
    book.save_executed(nb, path.name, book.EXECUTED, quick=True)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_opens_unmodified_in_jupyterlab(path):
    """Stored as JupyterLab saves it right after opening it (the kernel's spec and
    language_info, which JupyterLab fills in from the kernel, nbformat 4.5 with cell ids, its
    JSON layout): opening and closing it leaves no change behind and no 'modified' mark.
    `python -m workbench.book --tidy` rewrites the notebooks in that form."""
    text = path.read_text(encoding="utf-8")
    assert book.lab_form(text) == text, (
        f"{path.name} is not stored as JupyterLab saves it: run `python -m workbench.book --tidy`"
    )
    nb = nbformat.reads(text, as_version=4)
    assert nb.nbformat_minor >= 5 and all(c.get("id") for c in nb.cells)


PAPERS = [p for p in NOTEBOOKS if p.name[:2] in ("01", "02", "03", "04", "05")]


@pytest.mark.parametrize("path", PAPERS, ids=[p.name for p in PAPERS])
def test_paper_notebook_ends_with_exercises_and_hidden_solutions(path):
    nb = nbformat.read(path, as_version=4)
    head = next(i for i, c in enumerate(nb.cells) if c.source.startswith("## Exercises"))
    tail = nb.cells[head + 1 :]
    tasks = [c for c in tail if c.cell_type == "markdown" and c.source.startswith("### Exercise")]
    checks = [c for c in tail if c.cell_type == "code" and "E.check(" in c.source]
    solutions = [c for c in tail if "solution" in c.metadata.get("tags", [])]
    assert 3 <= len(tasks) == len(checks) == len(solutions) <= 5
    for cell in solutions:  # collapsed in JupyterLab until the teacher opens them
        assert cell.metadata["jupyter"] == {"source_hidden": True, "outputs_hidden": True}
        assert cell.source.startswith("E.solution(")
    # the exercises come last: nothing after them but exercises
    assert all(c in tasks + checks + solutions for c in tail)
