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

from ._inline import inline, release
from .state import M_N_LEAVES


@inline
def due_for_split(class_counts, last_eval, counts, leaf, grace, whole):
    """True when the leaf is due for a split attempt; it has just learned an instance.

    ``counts`` None (``GRACE_WEIGHT``, MOA's Hoeffding tree): when the leaf's weight grew by the
    grace period since its last attempt; the weight includes the fractional counts the leaf
    inherited from its parent's split, so rounding can put an attempt one instance later, as in
    MOA.  ``counts`` the tree's ``n_learned`` (``GRACE_COUNT``, MOA's EFDT and 004's code): when
    the number of instances the leaf has learned since it was made is a multiple of the grace
    period.  (None compiles the loop's variant without the count.)  ``whole``: the grace period
    as an integer where it is one, else 0 (the count is then taken modulo the real number).
    The weight at the attempt is recorded either way (``last_eval``)."""
    total = 0.0
    for k in range(class_counts.shape[1]):
        total += class_counts[leaf, k]
    if counts is None:
        due = total - last_eval[leaf] >= grace
    else:
        counts[leaf] += 1
        if whole > 0:   # an integer modulo: the float one is a call into numba's helpers
            due = counts[leaf] % whole == 0
        else:
            due = counts[leaf] % grace == 0.0
    if due:
        last_eval[leaf] = total
    release(class_counts.shape[0] + last_eval.shape[0])
    return due


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
