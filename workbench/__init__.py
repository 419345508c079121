"""Workbench for confidence-based streaming decision trees.

    from workbench import streams, learners, evaluate, bounds, montecarlo, viz, interop

Submodules are imported on first use; numba compiles (or loads from its cache) the kernels a
submodule needs when it is first used.  ``import workbench`` imports numba and makes its cache
tell kernels compiled from other sources apart (:mod:`workbench._kernel_cache`): after an edit to
any file a kernel is built from, the next process compiles it afresh instead of loading the old
machine code.  It also makes numba's inlining of the kernels' steps copy less while the
workbench's own kernels compile, and only then (:mod:`workbench._inline_copies`: the same
machine code, compiled in less time; anyone else's functions compile as with numba alone).
"""

from __future__ import annotations

import importlib

from . import _inline_copies, _kernel_cache

__version__ = "0.1.0"

_kernel_cache.install()
_inline_copies.install()

_SUBMODULES = (
    "core",
    "learners",
    "streams",
    "evaluate",
    "bounds",
    "montecarlo",
    "active",
    "drift",
    "sweep",
    "claims",
    "provenance",
    "viz",
    "experiments",
    "interop",
)
__all__ = list(_SUBMODULES)


def lazy_submodules(package: str, names, namespace: dict):
    """A module ``__getattr__`` that imports the submodules ``names`` of ``package`` on first
    access (and caches them in the package's ``namespace``)."""

    def __getattr__(name):
        if name in names:
            module = importlib.import_module(f".{name}", package)
            namespace[name] = module
            return module
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
