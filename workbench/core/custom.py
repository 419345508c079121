"""A user's own bound in the engine: the epsilon of ``bound=my_bound`` (and Hoeffding's epsilon
over a user criterion, whose range R the user gave).

:func:`workbench.core.split.split_epsilon` hands these cases here in one line, so the built-in
bounds keep their code; the user function is called through the address of its compiled code
(:mod:`workbench._functions`), so no kernel is compiled again for it.  A user criterion's own
impurity is computed in :func:`workbench.core.criteria.user_impurity`.
"""

from __future__ import annotations


from numba import njit

from .._functions import bound_at, schedule_at
from ..bounds import hoeffding_moa_nb
from .params import (
    BOUND_USER,
    BOUND_USER_SCHEDULE,
    P_BOUND,
    P_BOUND_FN,
    P_DELTA,
)


@njit(cache=True, no_cpython_wrapper=True)
def user_epsilon(params, d, n_classes, depth, t_learned, node, n, R):
    """Epsilon at a leaf of weight n when the bound or the criterion is a user's.

    A user bound gets ``(n, delta, R, K)`` (``BOUND_USER``) or ``(n, delta, R, K, depth, t, d)``
    (``BOUND_USER_SCHEDULE``): the leaf's weight, the confidence (``delta=None``: 1/t, as 000's
    Remark 1), the range of the criterion's gain, the number of classes, and for a schedule
    the leaf's depth (root 0), the instances the tree has learned (at least 1) and the number
    of features.  A value that is NaN or negative stops the kernel with an error (the learner
    names the function).  Under the built-in Hoeffding bound with a user criterion, this is
    Hoeffding's epsilon with the range the user gave (the other built-in bounds do not read R),
    computed in MOA's order of operations as the built-in Hoeffding bound is.  ``R``: the range
    of the criterion's gain at this node (:func:`workbench.core.split.split_epsilon` gives it).
    It takes the policy vector, the tree's depths and the scalars it reads, not the tree: a call
    that takes the tree costs two atomic reference counts per array."""
    bound = int(params[P_BOUND])
    delta = params[P_DELTA]
    t = max(t_learned, 1)
    if delta <= 0.0:
        delta = 1.0 / t
    if bound == BOUND_USER:
        eps = bound_at(int(params[P_BOUND_FN]))(n, delta, R, n_classes)
    elif bound == BOUND_USER_SCHEDULE:
        eps = schedule_at(int(params[P_BOUND_FN]))(n, delta, R, n_classes, depth[node], t, d)
    else:  # Hoeffding's, with a user criterion's R (the other bounds do not read R)
        return hoeffding_moa_nb(n, delta, R)
    if not eps >= 0.0:
        raise ValueError("workbench: a user bound returned NaN or a negative epsilon")
    return eps
