"""The docstring examples of every module of the ``workbench`` package run, offline and fast.

Every module found by walking the package is collected; none is skipped silently.  A module whose
examples cannot run here is listed in NOT_RUNNABLE with the reason, and is marked as an expected
failure (strict): when its examples are fixed, the test fails until the entry is removed.
"""

import doctest
import importlib
import inspect
import pkgutil

import pytest

import workbench

MODULES = sorted(m.name for m in pkgutil.walk_packages(workbench.__path__, "workbench."))

# module -> why its examples do not run (each entry is an expected failure, strict)
NOT_RUNNABLE: dict[str, str] = {}


def test_every_module_is_collected():
    assert "workbench" not in MODULES and len(MODULES) > 50
    assert {
        "workbench.bounds",
        "workbench.core.engine",
        "workbench.streams.sea",
        "workbench.viz.dot",
        "workbench.learners.hoeffding",
    } <= set(MODULES)
    assert set(NOT_RUNNABLE) <= set(MODULES), "a NOT_RUNNABLE entry names no module"


def _params():
    for name in ["workbench"] + MODULES:
        marks = (
            [pytest.mark.xfail(reason=NOT_RUNNABLE[name], strict=True)]
            if name in NOT_RUNNABLE
            else []
        )
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize("name", list(_params()))
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
    if ">>> " in inspect.getsource(module):
        # examples written in the module's source are found by doctest (not hidden, e.g. in a
        # string that is no docstring)
        assert result.attempted > 0
