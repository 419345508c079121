"""The loop's bookkeeping steps: when a leaf is due for a split attempt, and the leaf count's
samples.

:func:`workbench.core.engine.run_stream` is the one loop over instances; it reads as the
algorithm, each step a function numba writes into the loop (:mod:`workbench.core._inline`):

    route (``routing``) -> predict (``leaf_predict``) -> (ACTIVE: query a label, detect drift:
    ``active_steps``) -> learn (``observe``) -> re-evaluate inner nodes (``reevaluate``) ->
    attempt a split (:func:`due_for_split`, then ``decide.leaf_decision`` and
    ``edits.apply_split``)

A new learner adds a policy value (``workbench.core.params``) and, where its step differs, a
function in the step's module, not a branch in the middle of the loop.
"""

from __future__ import annotations

from numba import njit

from .._functions import grace_at
from ._inline import inline, release
from .params import P_GRACE, P_GRACE_FN, P_TAU
from .state import M_N_LEAVES


@inline
def due_for_split(class_counts, last_eval, counts, wait, leaf, grace, whole):
    """True when the leaf is due for a split attempt; it has just learned an instance.

    ``counts`` None (``GRACE_WEIGHT``, MOA's Hoeffding tree): when the leaf's weight grew by the
    grace period since its last attempt; the weight includes the fractional counts the leaf
    inherited from its parent's split, so rounding can put an attempt one instance later, as in
    MOA.  ``counts`` the tree's ``n_learned`` (``GRACE_COUNT``, MOA's EFDT and 004's code): when
    the number of instances the leaf has learned since it was made is a multiple of the grace
    period.  (None compiles the loop's variant without the count.)  ``whole``: the grace period
    as an integer where it is one, else 0 (the count is then taken modulo the real number).
    With a grace schedule (``wait`` the tree's ``wait``; None compiles the variant without
    one), the leaf's ``wait`` replaces the grace period once the schedule has spoken: the
    weight it waits, or the count it waits for (:func:`schedule_next`).  The weight at the
    attempt is recorded either way (``last_eval``)."""
    total = 0.0
    for k in range(class_counts.shape[1]):
        total += class_counts[leaf, k]
    if counts is None:
        period = grace
        if wait is not None and wait[leaf] >= 0.0:
            period = wait[leaf]
        due = total - last_eval[leaf] >= period
    else:
        counts[leaf] += 1
        if wait is not None:
            due = counts[leaf] >= (wait[leaf] if wait[leaf] >= 0.0 else grace)
        elif whole > 0:  # an integer modulo: the float one is a call into numba's helpers
            due = counts[leaf] % whole == 0
        else:
            due = counts[leaf] % grace == 0.0
    if due:
        last_eval[leaf] = total
    release(class_counts.shape[0] + last_eval.shape[0])
    release(wait)  # (an array's last use inside a branch would cost a reference count per row)
    return due


@njit(cache=True, no_cpython_wrapper=True)
def schedule_next(params, wait, counts, leaf, n, g_best, g_second, eps, looks):
    """A user's grace schedule (``grace_schedule=``, at ``P_GRACE_FN``) after a leaf's split
    attempt: ``(n, g_best, g_second, eps, tau, grace_period, looks) -> w``, the weight the leaf
    waits before its next attempt (``counts`` None), or the instances it learns first (the
    leaf's ``wait`` is then the count it waits for).  The merits are those the attempt's rule
    compared (where the split screen decided, its merits, within ``SCREEN_SLACK`` of the exact
    ones; NaN at a leaf of one class).  A ``w`` that is not > 0 stops the kernel with an error
    that carries the arguments; inf means no attempt again."""
    tau = params[P_TAU]
    grace = params[P_GRACE]
    w = grace_at(int(params[P_GRACE_FN]))(n, g_best, g_second, eps, tau, grace, looks)
    if not w > 0.0:
        raise ValueError(
            "workbench: a user grace schedule returned",
            w,
            n,
            g_best,
            g_second,
            eps,
            tau,
            grace,
            looks,
        )
    if counts is None:
        wait[leaf] = w
    else:
        wait[leaf] = counts[leaf] + w


@inline
def sample_leaves(meta, leaves, countdown, every, i):
    """Every ``every`` rows, the number of leaves into ``leaves``; a countdown, since an
    integer modulo per instance costs more.  Returns the new countdown."""
    countdown -= 1
    if countdown == 0:
        countdown = every
        leaves[(i + 1) // every - 1] = meta[M_N_LEAVES]
    release(meta.shape[0] + leaves.shape[0])
    return countdown
