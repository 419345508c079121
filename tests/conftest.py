"""Suite-wide hooks."""

import os
import tempfile


def pytest_configure(config):
    """Claims computed in quick mode are kept for this session (``workbench.claims``' cache,
    keyed by the sources), so that a notebook executed by tests/test_notebooks.py and
    tests/test_stored_results.py do not compute the same quick claims twice.  The notebook
    kernels inherit the variable."""
    os.environ.setdefault(
        "WORKBENCH_CLAIMS_CACHE", tempfile.mkdtemp(prefix="workbench-claims-cache-")
    )


def pytest_collection_modifyitems(session, config, items):
    """The book is built from the notebooks the notebook tests executed (build/executed/), so
    tests/test_book.py runs after tests/test_notebooks.py, at the end of the suite."""
    items.sort(key=lambda item: item.path.name == "test_book.py")  # stable: keeps the rest
