"""Grace schedules a researcher can start from (``grace_schedule=`` of the tree learners).

A grace schedule is a jitted function ``(n, g_best, g_second, epsilon, tau, grace_period, looks)
-> wait`` that the tree calls after each split attempt of a leaf: the weight (or, on EFDT's
instance clock, the count of instances) the leaf waits before its next attempt.  The tree calls
it through its address, so every schedule shares one compiled variant of the tree's loop;
:mod:`workbench.precompile` compiles that variant with :func:`fixed_grace`.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def fixed_grace(n, g_best, g_second, epsilon, tau, grace_period, looks):
    """The grace period itself: the tree attempts as it does without a schedule (the same tree,
    bit for bit, on both grace clocks)."""
    return grace_period


__all__ = ["fixed_grace"]
