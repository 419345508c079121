"""A leaf's split decision: its best candidates against its rule.

:func:`leaf_decision` runs a leaf's split test: the epsilon of its bound
(:mod:`workbench.core.epsilon`), its candidates (:mod:`workbench.core.search`, the screen first
where it applies), and its rule (``P_SPLIT_RULE``, :mod:`workbench.core.rules`): the leaf splits
on its best feature when the rule's quantity exceeds its threshold, ``G(best) - G(second best) >
factor * eps`` (VFDT with factor 1 and Hoeffding's bound, 004 eq. (1); C-Tree with factor 2,
000 Algorithm 1, line 6, with argmin read for argmax, since each of the two estimates may be off
by eps) or ``G(best) - G(null) > eps`` (HATT, 004 Algorithm 3), or when ``eps < tau`` (a tie).
Under MOA's merit sums (``MERITS_MOA``) the rule compares the candidates' mean merits
(:func:`moa_split_decision`).  It returns an outcome code (``NO_SPLIT_*``, ``SPLIT_*``) with the
quantity and threshold it compared, which ``explain_one`` and the stepper show.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bounds.leaf_stats import stats_size
from .epsilon import needs_stats, node_epsilon
from .params import (
    MERITS_MOA,
    P_MARGIN_FACTOR,
    P_MAX_DEPTH,
    P_MERITS,
    P_RULE_FN,
    P_SPLIT_RULE,
    P_TAU,
    P_USED_NOMINAL,
    RULE_BEST_VS_NULL,
)
from .rules import BY_MARGIN, BY_TIE, NULL_GAIN, decide, rule_quantity, user_verdict
from .search import (
    NULL_MERIT,
    _restore_merits,
    _saved_merits,
    feature_candidates,
    fill_stats,
    leaf_weight,
    mean_merit,
    moa_best_two,
    n_observed_classes,
    record_merits,
    screen_applies,
    screen_keeps,
)
from .state import M_T, NUMERIC, node_arrays, slot_arrays


# outcome codes of a leaf's split decision
NO_SPLIT_PURE = 0
NO_SPLIT_NO_CANDIDATE = 1
NO_SPLIT_BOUND = 2
SPLIT_MARGIN = 3
SPLIT_TIE = 4
NO_SPLIT_DEPTH = 5
NO_SPLIT_USED = 6  # the rule says split, on a nominal attribute tested above (P_USED_NOMINAL)


@njit(cache=True, no_cpython_wrapper=True)
def nominal_used_above(nom_index, parent, kind, feature, replaced, node, j):
    """MOA's EFDT (``usedNominalAttributes``): is nominal feature j on the leaf's list of used
    attributes?  A leaf made by a split inherits its parent's list (as a leaf) plus the split's
    attribute when the test is nominal; a numeric test gives its children an empty list, and
    the children of a test installed by a re-evaluation get only that test's attribute."""
    if nom_index[j] < 0:
        return False
    u = node
    while parent[u] >= 0:
        p = parent[u]
        if kind[p] == NUMERIC:
            return False
        if feature[p] == j:
            return True
        if replaced[p] == 1:
            return False
        u = p
    return False


@njit(cache=True, no_cpython_wrapper=True)
def leaf_outcome(params, nom_index, N, node, b1, b2, eps, quantity, threshold, may_split, merits):
    """The outcome of a leaf's rule (:func:`split_decision`): no split below the depth limit,
    else the verdict of ``quantity > threshold`` or a tie (a user's rule: its verdict on
    ``merits`` = (n, looks, g_best, g_second, g_null)); ``may_split=False`` keeps the leaf
    whatever the rule says, and under ``P_USED_NOMINAL`` so does a best attribute that is a
    nominal one tested above (MOA's EFDT).  ``N``: the nodes' arrays
    (:class:`~workbench.core.state.NodeArrays`).  Returns the outcome, the two candidates, eps,
    quantity, threshold and the merits of the best and the second best."""
    n, looks, g_best, g_second, g_null = merits
    depth = N.depth[node]
    if depth >= params[P_MAX_DEPTH]:
        return NO_SPLIT_DEPTH, b1, b2, eps, quantity, threshold, g_best, g_second
    if may_split:
        if params[P_RULE_FN] != 0.0:
            verdict = user_verdict(params, g_best, g_second, g_null, eps, n, looks, depth)
        else:
            verdict = decide(quantity, threshold, eps, params[P_TAU])
        if verdict == BY_MARGIN or verdict == BY_TIE:
            if params[P_USED_NOMINAL] > 0 and nominal_used_above(
                nom_index, N.parent, N.kind, N.feature, N.replaced, node, b1
            ):
                return NO_SPLIT_USED, b1, b2, eps, quantity, threshold, g_best, g_second
            return (
                SPLIT_MARGIN if verdict == BY_MARGIN else SPLIT_TIE,
                b1,
                b2,
                eps,
                quantity,
                threshold,
                g_best,
                g_second,
            )
    return NO_SPLIT_BOUND, b1, b2, eps, quantity, threshold, g_best, g_second


@njit(cache=True, no_cpython_wrapper=True)
def moa_split_decision(C, N, S, node, merits, cuts, post, stats, eps, n, looks, t_learned):
    """:func:`split_decision` under ``MERITS_MOA`` (MOA's EFDT AttemptToSplit): the attempt is
    recorded (:func:`record_merits`); the candidate is the suggestion of highest merit now
    (:func:`moa_best_two`), but the rule compares its mean merit (:func:`mean_merit`) with the
    null split's (best vs null) or the second's (best vs second, 004's VFDT); a best merit
    below 1e-10 never splits (outside a user's rule, which sees the mean merits)."""
    params, nom_index = C.params, C.nom_index
    d = merits.shape[0]
    s = N.stats_slot[node]
    if s < 0:  # a new leaf that has not learned an instance yet
        return NO_SPLIT_NO_CANDIDATE, -1, -1, eps, np.nan, np.nan, np.nan, np.nan
    merit_sum, merit_n = S.merit_sum, S.merit_n
    record_merits(params, nom_index, merit_sum, merit_n, s, merits, cuts, True)
    best, second = moa_best_two(nom_index, merits, cuts)
    b2 = second if second < d else -1
    if best < 0 or best == d or merits[best] == -np.inf:
        b1 = best if best < d else -1
        return NO_SPLIT_NO_CANDIDATE, b1, b2, eps, np.nan, np.nan, np.nan, np.nan
    if needs_stats(params):
        fill_stats(C, S, N.class_counts, s, node, best, cuts[best], b2, cuts[b2], stats, post)
        eps = leaf_epsilon(params, nom_index.shape[0], N, t_learned, node, n, looks, stats)
    rule = int(params[P_SPLIT_RULE])
    g_best = mean_merit(merit_sum, merit_n, s, best)
    g_second = -np.inf if second < 0 else mean_merit(merit_sum, merit_n, s, second)
    g_null = mean_merit(merit_sum, merit_n, s, d)
    quantity, threshold = rule_quantity(
        rule,
        g_best,
        g_second,
        g_null if rule == RULE_BEST_VS_NULL else -np.inf,
        np.nan,
        eps,
        params[P_MARGIN_FACTOR],
    )
    # MOA: a best merit below 1e-10 never splits
    return leaf_outcome(
        params,
        nom_index,
        N,
        node,
        best,
        b2,
        eps,
        quantity,
        threshold,
        merits[best] >= 1e-10,
        (n, looks, g_best, g_second, g_null),
    )


@njit(cache=True, no_cpython_wrapper=True)
def split_decision(T, C, node, merits, cuts, post):
    """Run the leaf's split test (rule ``P_SPLIT_RULE``, :mod:`workbench.core.rules`, or the
    user's ``P_RULE_FN``); it counts as one of the leaf's looks.

    Fills ``merits``/``cuts`` and returns (outcome code, best feature, second feature, eps,
    quantity, threshold, G(best), G(second)): the rule splits when ``quantity > threshold``
    (or on a tie, ``eps < tau``).  Quantity and threshold are NaN where no rule was applied.
    The best and second best are MOA's (:func:`moa_best_two`: ties go to the later feature).
    (The stream kernel calls :func:`leaf_decision` itself, with the arrays it reads.)
    """
    # (a local array: a global one is a read-only constant to numba, another type)
    size = stats_size(T.class_counts.shape[1], post.shape[0]) if needs_stats(C.params) else 0
    stats = np.empty(size)
    return leaf_decision(
        C, node_arrays(T), slot_arrays(T), T.meta[M_T], node, merits, cuts, post, stats, False
    )


@njit(inline="always")
def leaf_epsilon(params, d, N, t_learned, node, n, looks, stats):
    """:func:`~workbench.core.epsilon.node_epsilon` at a leaf of a tree of ``d`` features
    (written into the caller)."""
    return node_epsilon(
        params,
        d,
        N.cls_len,
        N.class_counts,
        N.kind,
        N.depth,
        t_learned,
        node,
        n,
        n - N.w0[node],
        looks,
        stats,
    )


@njit(cache=True, no_cpython_wrapper=True)
def leaf_decision(C, N, S, t_learned, node, merits, cuts, post, stats, screen):
    """:func:`split_decision` over the arrays it reads: the policy ``C``, the nodes' arrays
    ``N`` (:class:`~workbench.core.state.NodeArrays`) and the slots' ``S``
    (:class:`~workbench.core.state.SlotArrays`), the tree having learned ``t_learned``
    instances; ``stats`` is scratch for a data-dependent bound (:func:`fill_stats`).  The
    stream kernel calls this at every split attempt: a call counts a reference to each array
    it takes, and the tree holds twice the arrays an attempt reads.

    The attempt is the leaf's next look (``N.looks``).  ``screen`` (the kernel's attempts):
    where :func:`screen_keeps` finds that the rule keeps the leaf for certain, return
    (``NO_SPLIT_BOUND``, -1, -1, eps, NaN, NaN, the screen's best and second merits) without
    the exact search, ``merits`` and ``cuts`` then holding the screen's values (within
    ``SCREEN_SLACK``; a numeric cut of 0 for "has a candidate"), which the kernel does not
    read: it reads them only after a split.  Most attempts keep their leaf, and the exact
    search spends half its time in libm's ``erfc`` and ``log2``.  A data-dependent bound, and
    a user's rule that is not declared monotone, run the exact search at every attempt."""
    params, nom_index = C.params, C.nom_index
    class_counts = N.class_counts
    n = leaf_weight(class_counts, node)
    d = merits.shape[0]
    looks = N.looks[node] + 1
    N.looks[node] = looks
    if n_observed_classes(class_counts, node) < 2:
        for j in range(d):
            merits[j] = -np.inf
            cuts[j] = np.nan
        return NO_SPLIT_PURE, -1, -1, np.inf, np.nan, np.nan, np.nan, np.nan
    late_eps = needs_stats(params)  # epsilon needs the candidates' tables
    eps = np.nan if late_eps else leaf_epsilon(params, d, N, t_learned, node, n, looks, stats)
    # the screen's merits (within SCREEN_SLACK) first where it applies, then, unless they show
    # that the rule keeps the leaf, the exact search (one call site: each adds compile time)
    screened = (
        screen and not late_eps and params[P_MERITS] != MERITS_MOA and screen_applies(params, eps)
    )
    for _ in range(2):
        complete = feature_candidates(
            C, class_counts, S, N.stats_slot[node], node, merits, cuts, post, screened
        )
        if not screened:
            break
        if complete:
            keeps, top, second = screen_keeps(
                params, nom_index, merits, cuts, eps, n, looks, N.depth[node]
            )
            if keeps:
                return NO_SPLIT_BOUND, -1, -1, eps, np.nan, np.nan, top, second
        screened = False
    if params[P_MERITS] == MERITS_MOA:
        return moa_split_decision(
            C, N, S, node, merits, cuts, post, stats, eps, n, looks, t_learned
        )
    b1, b2 = moa_best_two(nom_index, merits, cuts)
    if b2 == d:
        b2 = -1
    if b1 < 0 or b1 == d or merits[b1] == -np.inf:
        return NO_SPLIT_NO_CANDIDATE, b1 if b1 < d else -1, b2, eps, np.nan, np.nan, np.nan, np.nan
    g_best = merits[b1]
    g_second = -np.inf if b2 < 0 else merits[b2]
    if late_eps:
        s = N.stats_slot[node]
        fill_stats(C, S, class_counts, s, node, b1, cuts[b1], b2, cuts[b2], stats, post)
        eps = leaf_epsilon(params, nom_index.shape[0], N, t_learned, node, n, looks, stats)
    rule = int(params[P_SPLIT_RULE])
    quantity, threshold = rule_quantity(
        rule,
        g_best,
        g_second,
        NULL_GAIN if rule == RULE_BEST_VS_NULL else NULL_MERIT,
        np.nan,
        eps,
        params[P_MARGIN_FACTOR],
    )
    return leaf_outcome(
        params,
        nom_index,
        N,
        node,
        b1,
        b2,
        eps,
        quantity,
        threshold,
        True,
        (n, looks, g_best, g_second, NULL_GAIN),
    )


@njit(cache=True)
def explain_split(T, C, node, merits, cuts, post):
    """:func:`split_decision` at a leaf, callable from Python (``explain_one``): a separate entry
    point, so that its wrapper is compiled only when an explanation is first asked for.  Returns
    (outcome, best, second, eps, quantity, threshold, G(best), G(second)); the tree is left as
    it was (the look is not counted)."""
    keep = _saved_merits(T, node)
    looks = T.looks[node]
    out = split_decision(T, C, node, merits, cuts, post)
    T.looks[node] = looks
    _restore_merits(T, node, keep)
    return out
