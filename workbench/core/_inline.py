"""How the per-instance loop's steps are written into it: ``inline`` and ``release``.

:func:`workbench.core.engine.run_stream` is the one loop over instances, and each of its steps
(route, predict, query, learn, attempt a split) is a small function that numba writes into the
loop instead of calling it (:func:`inline`): a jitted call costs two atomic reference-count
updates per array it takes, and the predictor takes a dozen, more than the work of one instance.

A step takes the tree's arrays one by one, never the :class:`~workbench.core.state.TreeState`
itself, and ends with :func:`release`.  When numba writes a step into the loop it takes a
reference to every array the step receives and drops it after the array's last use; LLVM's
reference-count pruning cancels the pair only when the drop is reached on every path.  Three
things break that: passing a named tuple of arrays (a pair for each of its arrays per instance),
an array whose last use sits inside a branch (the drop is split over several paths), and numba's
Python error model (every float division gets a path that raises ZeroDivisionError and leaves
without the drop; the loop is compiled with ``error_model="numpy"``, and no division in a step
can have a zero divisor: each is guarded by the quantity it divides by).  So every step ends by
passing the sum of its arrays' shapes to :func:`release`, a last use on every path.  On SEA
(200,000 rows) the loop written out by hand took 0.04 s; with the tree passed as a named tuple
0.35 s; with a last use inside a branch 0.055 s (``benchmarks/README.md``).  Rare events that
need the whole tree (a new statistics slot, a split attempt, a drift reset) are ordinary calls.
That is also why a step's long list of arrays is not a named bundle (an ordinary call's is:
:class:`~workbench.core.state.NodeArrays`): a step's signature says so with a pointer here.
"""

from __future__ import annotations

from numba import njit


def inline(fn):
    """A step of the loop: numba writes it into its caller (see the module docstring)."""
    return njit(inline="always")(fn)


@njit(inline="always")
def release(_n):
    """The last use of a step's arrays (it does nothing): every step ends by passing the sum of
    the shapes of the arrays it took, so that each array's last use is unconditional and numba's
    reference-count pruning can cancel the reference the step took."""
    return None
