"""Faster compiles of the steps numba inlines: one copy of a scope per copied IR, not per block,
while a workbench kernel compiles (and only then).

Every ``@njit(inline="always")`` call site is inlined by numba's ``InlineWorker.inline_ir``,
which copies the callee's IR (twice) with a nested ``copy_ir``: a shallow copy of the function,
then ``copy.deepcopy`` of each block on its own.  Each of those deep copies starts with an empty
memo, and every variable of a block points at the function's scope, which holds every variable
of the function: so the whole scope is copied again for every block.  An inlined callee with B
blocks and V variables costs O(B x V) per copy, and the engine's steps nest (the loop inlines
``leaf_predict``, which has inlined the naive-Bayes passes, ...), so their scopes are large.
Measured on 2026-11-28 (``benchmarks/README.md``): without this, a first use of a learner (an
empty numba cache) took 1.09-1.12 times the CPU time and a cold ``python -m workbench.precompile``
1.23 times.

While numba compiles a function of the workbench (a dispatcher whose Python function was
defined in ``workbench`` or one of its modules), numba's ``Scope`` has a ``__deepcopy__`` that,
inside one run of ``copy_ir``, hands every block the same copy of a scope, as one memo for the
whole IR would; the original IR is made that way (its blocks share one scope).  Anywhere else
(a scope copied outside ``copy_ir``) a scope is copied as ``copy.deepcopy`` always copied it.
The machine code does not change: the code sections of the objects numba caches, compiled with
and without this, are the same bytes for 226 of the 228 functions of a cold precompile, and the
other two differ as much between two builds without it (``benchmarks/README.md``, 2026-11-28;
``tests/test_inline_copies.py`` checks the copies and a nested inlined function's code).

Nothing changes for anyone else's functions: :func:`install` (run by ``import workbench``)
registers a listener for numba's ``"numba:compile"`` events (numba's own extension point), which
puts the copy on ``Scope`` when a workbench function starts compiling and takes it off when that
compile ends.  A compile nested in another (a callee typed while its caller compiles) decides
for itself, so a user's function compiles with numba's own copy even when a workbench kernel
calls for it, and a workbench function typed inside a user's compile gets the faster copy for
its own compile only.  numba compiles under one global lock, so the stack of compiles is one
list, and one record of the current ``copy_ir`` run suffices.

It installs only where numba's code has the shape described above (``Scope`` without a
``__deepcopy__`` of its own, ``inline_ir`` with one nested ``copy_ir`` that builds its copy in
``kernel_copy``); a numba that copies differently is left as it is.
"""

from __future__ import annotations

import copy
import sys

#: the run of ``copy_ir`` being served: [the IR it builds, {id(original scope): (original, copy)}]
#: (the IR and the originals are held so that their ids cannot be reused while recorded; not the
#: frame, which would hold the whole compile's frames and their locals until the next inlining)
_current: list = [None, {}]

#: the package whose functions' compiles get the faster copy
PACKAGE = __name__.rsplit(".", 1)[0]


def _copy_ir_target(frame):
    """The IR that numba's ``copy_ir`` (inside ``inline_ir``) is building in a frame above this
    one, or None where no copy_ir runs: each run builds its own, so it names the run."""
    while frame is not None:
        code = frame.f_code
        if (
            code.co_name == "copy_ir"
            and code.co_filename.endswith("inline_closurecall.py")
            and frame.f_back is not None
            and frame.f_back.f_code.co_name == "inline_ir"
        ):
            return frame.f_locals.get("kernel_copy")
        frame = frame.f_back
    return None


def _scope_deepcopy(self, memo):
    """``Scope.__deepcopy__``: a scope copied once per run of ``copy_ir``, generically elsewhere."""
    target = _copy_ir_target(sys._getframe(1))
    if target is not None:
        if _current[0] is not target:
            _current[0] = target
            _current[1] = {}
        seen = _current[1].get(id(self))
        if seen is not None:
            memo[id(self)] = seen[1]
            return seen[1]
    new = type(self).__new__(type(self))
    memo[id(self)] = new
    # what copy.deepcopy does for an object with a __dict__ and no copy hooks of its own
    new.__dict__.update(copy.deepcopy(self.__dict__, memo))
    if target is not None:
        _current[1][id(self)] = (self, new)
    return new


def is_workbench_function(py_func) -> bool:
    """Whether a function was defined in the workbench (its module is ``workbench`` or one of
    its modules)."""
    module = getattr(py_func, "__module__", None) or ""
    return module == PACKAGE or module.startswith(PACKAGE + ".")


def _put(on: bool) -> None:
    """Put the copy on numba's ``Scope`` (or take it off)."""
    from numba.core import ir

    if on:
        ir.Scope.__deepcopy__ = _scope_deepcopy
    else:
        if vars(ir.Scope).get("__deepcopy__") is _scope_deepcopy:
            del ir.Scope.__deepcopy__
        _current[0] = None
        _current[1] = {}


def _listener_class():
    from numba.core import event

    class WorkbenchCompiles(event.Listener):
        """Follows numba's compiles: the copy is on ``Scope`` exactly while the innermost
        compile in progress is of a workbench function."""

        def __init__(self):
            self.stack: list[bool] = []

        def on_start(self, ev):
            dispatcher = (ev.data or {}).get("dispatcher")
            ours = is_workbench_function(getattr(dispatcher, "py_func", None))
            self.stack.append(ours)
            _put(ours)

        def on_end(self, ev):
            if self.stack:
                self.stack.pop()
            _put(bool(self.stack) and self.stack[-1])

    return WorkbenchCompiles


#: the registered listener (None when not installed)
_listener = None


def applicable() -> bool:
    """Whether this numba copies inlined IR the way described above."""
    from numba.core import inline_closurecall, ir

    if vars(ir.Scope).get("__deepcopy__", _scope_deepcopy) is not _scope_deepcopy:
        return False  # numba copies scopes its own way
    worker = getattr(inline_closurecall, "InlineWorker", None)
    inline_ir = getattr(worker, "inline_ir", None)
    code = getattr(inline_ir, "__code__", None)
    if code is None:
        return False
    nested = [c for c in code.co_consts if getattr(c, "co_name", None) == "copy_ir"]
    return len(nested) == 1 and "kernel_copy" in nested[0].co_varnames


def installed() -> bool:
    """Whether the workbench's compiles get the faster copy (the listener is registered)."""
    return _listener is not None


def install() -> bool:
    """Register the listener that gives the workbench's compiles the copy above, where
    :func:`applicable`; True when in place (idempotent)."""
    global _listener
    if _listener is not None:
        return True
    if not applicable():
        return False
    from numba.core import event

    _listener = _listener_class()()
    event.register("numba:compile", _listener)
    return True


def uninstall() -> None:
    """Take the listener (and any copy it put in place) out again (tests compare compiles with
    and without it)."""
    global _listener
    if _listener is not None:
        from numba.core import event

        event.unregister("numba:compile", _listener)
        _listener = None
    _put(False)
