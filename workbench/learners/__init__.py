"""Tree learners: policies over the one engine in :mod:`workbench.core`.

Each learner's module is imported when the learner is first named (``learners.HoeffdingTree``
imports only what the Hoeffding tree needs), so a start that uses one learner does not pay for
the others'.
"""

import importlib

#: learner (or helper class) -> its module in this package
_WHERE = {
    "BaseTree": "base",
    "Explanation": "_explain",
    "HoeffdingTree": "hoeffding",
    "CTree": "ctree",
    "CorrHTree": "ctree",
    "EFDT": "efdt",
    "FrugalHoeffdingTree": "frugal",
    "BOCT": "boct",
    "UFFT": "ufft",
}

__all__ = list(_WHERE)


def __getattr__(name):
    if name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_WHERE))
