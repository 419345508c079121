"""Workbench for confidence-based streaming decision trees.

    from workbench import streams, learners, evaluate, bounds, montecarlo, viz

Submodules are imported on first use, so ``import workbench`` itself is instant; numba compiles
(or loads from its cache) the kernels a submodule needs when it is first used.
"""
from __future__ import annotations

import importlib

__version__ = "0.1.0"

_SUBMODULES = ("core", "learners", "streams", "evaluate", "bounds", "montecarlo", "active",
               "drift", "sweep", "viz")
__all__ = list(_SUBMODULES)


def __getattr__(name):
    if name in _SUBMODULES:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        return module
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
