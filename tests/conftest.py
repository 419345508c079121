"""Suite-wide hooks."""


def pytest_collection_modifyitems(session, config, items):
    """The book is built from the notebooks the notebook tests executed (build/executed/), so
    tests/test_book.py runs after tests/test_notebooks.py, at the end of the suite."""
    items.sort(key=lambda item: item.path.name == "test_book.py")  # stable: keeps the rest
