"""A leaf's epsilon: the radius of the confidence interval its split rule compares against.

:func:`node_epsilon` dispatches on the bound policy ``P_BOUND`` (``workbench.core.params``):

* Hoeffding's bound as MOA computes it, ``sqrt(R^2 ln(1/delta) / (2 n))`` (004 eq. (1)), n the
  leaf's weight and R the range of the criterion's merit (:func:`node_range`: under information
  gain log2 of the number of classes, or of MOA's class-count vector);
* McDiarmid's bound for the information gain (000 eq. (2)), C-Tree's schedule of Theorems 1-3
  (000 eq. (7)) and its practical form (000 eq. (10));
* a user's bound (``bound=my_bound``), called through the address of its compiled code
  (:mod:`workbench._functions`), with 4 arguments or 7 for a schedule (:func:`user_epsilon`).

The functions take the arrays they read, not the tree: a call that takes the tree costs two
atomic reference counts per array, and they run at every split attempt.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._functions import bound_at, schedule_at, stats_bound_at
from ..bounds.anytime import (
    cs_entropy_nb,
    cs_gini_nb,
    entropy_looks_nb,
    gini_looks_nb,
    hoeffding_looks_nb,
)
from ..bounds import (
    BOUND_ENTROPY,
    BOUND_GINI,
    BOUND_KEARNS_MANSOUR,
    ctree_epsilon_nb,
    ctree_practical_nb,
    hoeffding_moa_nb,
    mcdiarmid_entropy_nb,
)
from .criteria import LN2, merit_range
from .params import (
    BOUND_CTREE,
    BOUND_CTREE_PRACTICAL,
    BOUND_CS_GINI,
    BOUND_ENTROPY_LOOKS,
    BOUND_GINI_LOOKS,
    BOUND_HOEFFDING,
    BOUND_HOEFFDING_LOOKS,
    BOUND_MCDIARMID,
    BOUND_USER,
    BOUND_USER_SCHEDULE,
    BOUND_USER_STATS,
    CRIT_ENTROPY_HALF,
    CRIT_INFO_GAIN,
    CRIT_KM,
    CRIT_LAST,
    P_BOUND,
    P_BOUND_FN,
    P_BRANCHING,
    P_C,
    P_CRITERION,
    P_CRITERION_RANGE,
    P_DELTA,
    P_N_BRANCHES,
    P_N_CANDIDATES,
    P_RANGE,
    RANGE_CLASSES,
    RANGE_MOA,
)
from .state import LEAF, M_T, class_len_now


@njit(cache=True, no_cpython_wrapper=True)
def node_range(params, cls_len, class_counts, kind, node):
    """The range R of the node's merit in the Hoeffding bound.  Information gain:
    ``RANGE_CLASSES``: log2 K; ``RANGE_MOA`` (MOA's ``getRangeOfMerit``): log2 of the length of
    the node's class-count vector, at least 2, at a leaf now, at an inner node when it got its
    test (``classDistributionAtTimeOfCreation``); ``RANGE_CREATED`` (004's code): when the node
    was made, at leaves too.  Other criteria: :func:`workbench.core.criteria.merit_range`."""
    crit = int(params[P_CRITERION])
    policy = int(params[P_RANGE])
    if crit != CRIT_INFO_GAIN or policy == RANGE_CLASSES:
        return merit_range(class_counts.shape[1], crit)
    L = cls_len[node]
    if policy == RANGE_MOA and kind[node] == LEAF:
        L = class_len_now(cls_len, class_counts, node)
    return math.log(max(L, 2)) / LN2  # MOA's Utils.log2


@njit(inline="always")
def epsilon_at(T, C, node, n, stats):
    """Radius of the confidence interval at a node of weight n, per the bound policy
    (:func:`node_epsilon` over the tree's arrays; written into the caller)."""
    return node_epsilon(
        C.params,
        C.nom_index.shape[0],
        T.cls_len,
        T.class_counts,
        T.kind,
        T.depth,
        T.meta[M_T],
        node,
        n,
        n - T.w0[node],
        T.looks[node],
        stats,
    )


@njit(inline="always")
def node_epsilon(
    params, d, cls_len, class_counts, kind, depth, t_learned, node, n, n_own, looks, stats
):
    """Radius of the confidence interval at a node of weight n, per the bound policy, for a
    tree of ``d`` features that has learned ``t_learned`` instances, at the node's ``looks``-th
    split attempt, ``n_own`` of its weight learned by itself (the rest inherited from its
    parent's split: the bounds valid under repeated looks count only its own).  The Hoeffding
    bound is computed as MOA computes it, sqrt(R^2 ln(1/delta) / (2 n)), with R from
    :func:`node_range`.  ``stats``: what a data-dependent bound reads
    (:mod:`workbench.bounds.leaf_stats`; filled by the caller where the bound is one).  Written
    into the caller; the bounds it calls take the arrays they read, not the tree (a call counts
    a reference to each array it takes)."""
    if takes_user_epsilon(params):
        return user_split_epsilon(
            params, d, cls_len, class_counts, kind, depth, t_learned, node, n, stats
        )
    return builtin_epsilon(
        params, d, cls_len, class_counts, kind, depth, t_learned, node, n, n_own, looks
    )


@njit(inline="always")
def needs_stats(params):
    """The bound is a data-dependent one (``BOUND_USER_STATS``): its epsilon needs the two best
    candidates' tables, so the attempt searches them before it asks for epsilon."""
    return int(params[P_BOUND]) == BOUND_USER_STATS


@njit(cache=True, no_cpython_wrapper=True)
def split_epsilon(T, C, node, n):
    """:func:`epsilon_at` as a call (the forest's kernels, whose learner takes no
    data-dependent bound)."""
    return epsilon_at(T, C, node, n, np.empty(0))


@njit(inline="always")
def takes_user_epsilon(params):
    """A user's bound, or the built-in Hoeffding bound with a user criterion's range."""
    bound = int(params[P_BOUND])
    user = BOUND_USER <= bound <= BOUND_USER_STATS
    return user or (params[P_CRITERION] > CRIT_LAST and bound == BOUND_HOEFFDING)


@njit(cache=True, no_cpython_wrapper=True)
def user_split_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n, stats):
    """:func:`node_epsilon` for a user's bound, or a user criterion's R: R is the
    built-in criterion's range as the built-in bounds see it (:func:`node_range`), or the one
    the user gave."""
    crit = int(params[P_CRITERION])
    R = (
        params[P_CRITERION_RANGE]
        if crit > CRIT_LAST
        else node_range(params, cls_len, class_counts, kind, node)
    )
    return user_epsilon(params, d, class_counts.shape[1], depth, t_learned, node, n, R, stats)


@njit(cache=True, no_cpython_wrapper=True)
def builtin_epsilon(
    params, d, cls_len, class_counts, kind, depth, t_learned, node, n, n_own, looks
):
    """:func:`epsilon_at` under the built-in bounds (``d`` features, ``t_learned`` instances
    learned by the tree, the node's ``looks``-th attempt, ``n_own`` of its weight its own)."""
    bound = int(params[P_BOUND])
    crit = int(params[P_CRITERION])
    n_classes = class_counts.shape[1]
    delta = params[P_DELTA]
    t = max(t_learned, 1)
    if bound >= BOUND_HOEFFDING_LOOKS:
        return looks_epsilon(
            params,
            bound,
            n_classes,
            depth[node],
            max(n_own, 1.0),
            looks,
            node,
            cls_len,
            class_counts,
            kind,
        )
    if bound == BOUND_MCDIARMID:
        return mcdiarmid_entropy_nb(n, delta, n_classes)
    if bound == BOUND_CTREE:
        if delta <= 0.0:  # Remark 1 of 000: delta = 1/t
            delta = 1.0 / t
        kind_b = BOUND_GINI
        if crit == CRIT_ENTROPY_HALF:
            kind_b = BOUND_ENTROPY
        elif crit == CRIT_KM:
            kind_b = BOUND_KEARNS_MANSOUR
        return ctree_epsilon_nb(n, delta, depth[node], t, d, kind_b)
    if bound == BOUND_CTREE_PRACTICAL:
        return ctree_practical_nb(n, depth[node], t, d, params[P_C])
    R = node_range(params, cls_len, class_counts, kind, node)
    return hoeffding_moa_nb(n, delta, R)


@njit(cache=True, no_cpython_wrapper=True)
def looks_epsilon(params, bound, n_classes, depth, n, looks, node, cls_len, class_counts, kind):
    """The bounds valid when a leaf tests again and again (:mod:`workbench.bounds.anytime`): delta
    spent over the ``looks``-th look and the leaf's candidates (``P_N_CANDIDATES``), per leaf or
    per tree (``P_BRANCHING``), at the leaf's own ``n`` examples; the confidence sequences also
    over the candidates' tables (``P_N_BRANCHES`` branches by ``n_classes``)."""
    delta = params[P_DELTA]
    n_candidates = max(int(params[P_N_CANDIDATES]), 1)
    branching = int(params[P_BRANCHING])
    if bound == BOUND_HOEFFDING_LOOKS:
        R = node_range(params, cls_len, class_counts, kind, node)
        return hoeffding_looks_nb(n, delta, R, looks, n_candidates, depth, branching)
    if bound == BOUND_GINI_LOOKS:
        return gini_looks_nb(n, delta, looks, n_candidates, depth, branching)
    if bound == BOUND_ENTROPY_LOOKS:
        return entropy_looks_nb(n, delta, looks, n_candidates, depth, branching)
    n_branches = max(int(params[P_N_BRANCHES]), 2)
    if bound == BOUND_CS_GINI:
        return cs_gini_nb(n, delta, n_classes, n_branches, n_candidates, depth, branching)
    return cs_entropy_nb(n, delta, n_classes, n_branches, n_candidates, depth, branching)


@njit(cache=True, no_cpython_wrapper=True)
def user_epsilon(params, d, n_classes, depth, t_learned, node, n, R, stats):
    """Epsilon at a leaf of weight n when the bound or the criterion is a user's.

    A user bound gets ``(n, delta, R, K)`` (``BOUND_USER``), ``(n, delta, R, K, depth, t, d)``
    (``BOUND_USER_SCHEDULE``) or ``(n, delta, R, K, stats)`` (``BOUND_USER_STATS``): the leaf's
    weight, the confidence (``delta=None``: 1/t, as 000's Remark 1), the range of the
    criterion's gain, the number of classes, for a schedule the leaf's depth (root 0), the
    instances the tree has learned (at least 1) and the number of features, and for a
    data-dependent bound the leaf's and its two best candidates' weights
    (:mod:`workbench.bounds.leaf_stats`).  A value that is NaN or negative stops the kernel
    with an error that carries the arguments (the learner names the function).  Under the
    built-in Hoeffding bound with a user criterion, this is Hoeffding's epsilon with the range
    the user gave (the other built-in bounds do not read R), computed in MOA's order of
    operations as the built-in Hoeffding bound is.  ``R``: the range of the criterion's gain at
    this node (:func:`user_split_epsilon` gives it)."""
    bound = int(params[P_BOUND])
    delta = params[P_DELTA]
    t = max(t_learned, 1)
    if delta <= 0.0:
        delta = 1.0 / t
    if bound == BOUND_USER:
        eps = bound_at(int(params[P_BOUND_FN]))(n, delta, R, n_classes)
    elif bound == BOUND_USER_SCHEDULE:
        eps = schedule_at(int(params[P_BOUND_FN]))(n, delta, R, n_classes, depth[node], t, d)
    elif bound == BOUND_USER_STATS:
        eps = stats_bound_at(int(params[P_BOUND_FN]))(n, delta, R, n_classes, stats)
    else:  # Hoeffding's, with a user criterion's R (the other bounds do not read R)
        return hoeffding_moa_nb(n, delta, R)
    if not eps >= 0.0:
        raise ValueError("workbench: a user bound returned", eps, n, delta, R, n_classes)
    return eps
