"""Re-evaluation of inner nodes (HATT, 004 Algorithm 3's ReEvaluateBestSplit).

A path-update learner (``P_UPDATE = UPDATE_PATH``) keeps the statistics of its inner nodes, and
every ``P_REEVAL`` (by the node's weight, or by the tree's count as MOA's EFDT does:
``P_REEVAL_CLOCK``) compares a node's best split with its current one (``P_REEVAL_RULE``,
``RULE_BEST_VS_CURRENT``): when the null split wins the subtree is killed and the node is a leaf
again (``REEVAL_KILL``), when another attribute wins the node splits on it with new leaves
(``REEVAL_REPLACE``), else it stays (``REEVAL_KEEP``).  :func:`reevaluation_due` and
:func:`reevaluate_along_path` are the loop's step; the edits are :mod:`workbench.core.edits`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ._inline import inline, release
from .criteria import impurity_row, split_merit
from .edits import kill_subtree, leave_log, replace_split
from ..bounds.leaf_stats import stats_size
from .epsilon import epsilon_at, needs_stats
from .params import (
    MERITS_MOA,
    P_CRITERION,
    P_MERITS,
    P_MIN_BRANCH_FRAC,
    P_REEVAL,
    P_REEVAL_CLOCK,
    P_REEVAL_RULE,
    P_TAU,
    REEVAL_CLOCK_TREE,
)
from .rules import BY_MARGIN, BY_TIE, NULL_GAIN, decide, rule_quantity, tie_floor
from .state import slot_arrays
from .search import (
    _restore_merits,
    _saved_merits,
    branch_dists,
    candidates_at,
    fill_stats,
    leaf_weight,
    mean_merit,
    moa_best_two,
    n_observed_classes,
    record_merits,
)


# outcome codes of reevaluate (inner nodes, RULE_BEST_VS_CURRENT)
REEVAL_KEEP = 0  # the current split stays


REEVAL_KILL = 1  # the null split won: the subtree is removed, the node is a leaf again


REEVAL_REPLACE = 2  # another attribute won: the node splits on it, with new leaves


@njit(cache=True, no_cpython_wrapper=True)
def current_merit(T, C, node, post):
    """Merit of inner node ``node``'s own test, from the statistics it kept (UPDATE_PATH)."""
    s = T.stats_slot[node]
    if s < 0 or T.kind[node] <= 0:
        return -np.inf
    n_branches = branch_dists(T, C, s, T.feature[node], T.threshold[node], post)
    crit = int(C.params[P_CRITERION])
    return split_merit(
        leaf_weight(T.class_counts, node),
        impurity_row(T.class_counts, node, crit),
        post,
        n_branches,
        crit,
        C.params[P_MIN_BRANCH_FRAC],
    )


@njit(cache=True, no_cpython_wrapper=True)
def reevaluation_outcome(params, feature, node, best, g_best, g_cur, eps):
    """The re-evaluation rule (``P_REEVAL_RULE``) on the best's and the current split's merits:
    (outcome ``REEVAL_*``, best, eps, quantity, threshold)."""
    rule = int(params[P_REEVAL_RULE])
    quantity, threshold = rule_quantity(rule, g_best, -np.inf, -np.inf, g_cur, eps, 1.0)
    tau = params[P_TAU]
    verdict = decide(quantity, threshold, eps, tau, tie_floor(rule, tau))
    if verdict == BY_MARGIN or verdict == BY_TIE:
        if best < 0:
            return REEVAL_KILL, best, eps, quantity, threshold, g_best, g_cur
        if best != feature[node]:
            return REEVAL_REPLACE, best, eps, quantity, threshold, g_best, g_cur
    return REEVAL_KEEP, best, eps, quantity, threshold, g_best, g_cur


@njit(cache=True, no_cpython_wrapper=True)
def reevaluation_stats(T, C, node, best, cuts, post):
    """What a data-dependent bound reads at a re-evaluation (:mod:`workbench.bounds.
    leaf_stats`): the node's class weights, the best candidate's table and, in the second
    candidate's place, the current split's (the rival of best vs current); nothing where the
    bound is not one."""
    if not needs_stats(C.params):
        return np.empty(0)
    stats = np.empty(stats_size(T.class_counts.shape[1], post.shape[0]))
    b1 = best if 0 <= best < cuts.shape[0] else -1
    fill_stats(
        C,
        slot_arrays(T),
        T.class_counts,
        T.stats_slot[node],
        node,
        b1,
        cuts[b1],
        T.feature[node],
        T.threshold[node],
        stats,
        post,
    )
    return stats


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate_decision(T, C, node, merits, cuts, post):
    """HATT's ReEvaluateBestSplit at an inner node (rule ``P_REEVAL_RULE``): the best of the
    attributes and the null split against the current split.

    Returns (outcome ``REEVAL_*``, best feature or -1 for the null split, eps, quantity,
    threshold).  The same attribute winning again keeps the node as it is.  With the merits of
    the statistics now (``MERITS_CURRENT``) the null split has gain 0 and wins when no attribute
    has a positive gain; with MOA's sums see :func:`moa_reevaluate_decision`."""
    n = leaf_weight(T.class_counts, node)
    if C.params[P_MERITS] == MERITS_MOA:
        return moa_reevaluate_decision(T, C, node, merits, cuts, post, n)
    if n_observed_classes(T.class_counts, node) < 2:
        for j in range(merits.shape[0]):
            merits[j] = -np.inf
            cuts[j] = np.nan
        # one class left below this node: the null split is as good as any test
        g_cur = current_merit(T, C, node, post)
        return REEVAL_KEEP, -1, np.inf, NULL_GAIN - g_cur, np.inf, NULL_GAIN, g_cur
    d = merits.shape[0]
    candidates_at(T, C, node, merits, cuts, post)
    b1, _b2 = moa_best_two(C.nom_index, merits, cuts)
    g_cur = current_merit(T, C, node, post)
    eps = epsilon_at(T, C, node, n, reevaluation_stats(T, C, node, b1, cuts, post))
    best = -1
    g_best = NULL_GAIN
    if 0 <= b1 < d and merits[b1] > NULL_GAIN:
        best = b1
        g_best = merits[b1]
    return reevaluation_outcome(C.params, T.feature, node, best, g_best, g_cur, eps)


@njit(cache=True, no_cpython_wrapper=True)
def moa_reevaluate_decision(T, C, node, merits, cuts, post, n):
    """:func:`reevaluate_decision` under ``MERITS_MOA`` (MOA's EFDT ReEvaluateBestSplit).  Every
    re-evaluation is recorded, also at a node that sees one class only, the null split's merit
    added as it is.  The best is MOA's best suggestion now (:func:`moa_best_two`): the null
    split only when no attribute has a candidate, since under the minimum branch fraction its
    merit is -inf (so it never kills a subtree, and its mean is -inf from the first
    re-evaluation on).  The rule compares mean merits, the current split's being its
    *feature's* mean (the best cut of that feature, not the installed one), with the range R the
    node had when it got its test (:func:`node_range`)."""
    s = T.stats_slot[node]
    if s < 0:
        return REEVAL_KEEP, -1, np.inf, np.nan, np.nan, np.nan, np.nan
    d = merits.shape[0]
    candidates_at(T, C, node, merits, cuts, post)
    record_merits(C.params, C.nom_index, T.merit_sum, T.merit_n, s, merits, cuts, False)
    b, _second = moa_best_two(C.nom_index, merits, cuts)
    eps = epsilon_at(T, C, node, n, reevaluation_stats(T, C, node, b, cuts, post))
    best = -1
    g_best = mean_merit(T.merit_sum, T.merit_n, s, d)
    if 0 <= b < d:
        best = b
        g_best = mean_merit(T.merit_sum, T.merit_n, s, b)
    g_cur = mean_merit(T.merit_sum, T.merit_n, s, T.feature[node])
    return reevaluation_outcome(C.params, T.feature, node, best, g_best, g_cur, eps)


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate(T, C, node, merits, cuts, post):
    """Re-evaluate inner node ``node`` and edit the tree as the rule says; returns the outcome."""
    outcome, best, eps, q, _thr, g_best, g_cur = reevaluate_decision(T, C, node, merits, cuts, post)
    if outcome == REEVAL_KILL:
        leave_log(T, node, True)
        kill_subtree(T, node, True)
    elif outcome == REEVAL_REPLACE:
        replace_split(T, C, node, best, cuts[best], post, not q > eps, eps, g_best, g_cur)
    if outcome != REEVAL_KEEP and T.stats_slot[node] >= 0:
        T.merit_n[T.stats_slot[node]] = 0.0  # MERITS_MOA: a changed node counts again
    return outcome


@njit(cache=True)
def explain_reevaluation(T, C, node, merits, cuts, post):
    """:func:`reevaluate_decision` at an inner node that keeps statistics, callable from Python:
    (outcome, best feature or -1 for the null split, eps, quantity, threshold, G(best),
    G(current)), the merits being those the rule compared; the tree is left as it was."""
    keep = _saved_merits(T, node)
    outcome, best, eps, quantity, threshold, _g, _c = reevaluate_decision(
        T, C, node, merits, cuts, post
    )
    moa = C.params[P_MERITS] == MERITS_MOA
    s = T.stats_slot[node]
    g_best = mean_merit(T.merit_sum, T.merit_n, s, merits.shape[0]) if moa else NULL_GAIN
    if best >= 0:
        g_best = mean_merit(T.merit_sum, T.merit_n, s, best) if moa else merits[best]
    _restore_merits(T, node, keep)
    return outcome, best, eps, quantity, threshold, g_best, g_best - quantity


@inline
def reevaluation_due(class_counts, last_eval, t, path, length, period, clock):
    """The first position on row i's path (``path[:length - 1]``, root first) whose inner node
    is due for re-evaluation (HATT, every ``P_REEVAL``), or -1.  ``REEVAL_CLOCK_TREE`` (MOA's
    EFDT): when the tree's count of instances before this one (``t - 1``) is a multiple of the
    period, every inner node on the path is due; ``REEVAL_CLOCK_NODE``: a node is due when its
    weight grew by the period since its last re-evaluation."""
    first = -1
    if period > 0 and length > 1:
        if clock == REEVAL_CLOCK_TREE:
            if (t - 1) % period == 0:
                first = 0
        else:
            for u in range(length - 1):
                node = path[u]
                w = 0.0
                for k in range(class_counts.shape[1]):
                    w += class_counts[node, k]
                if w - last_eval[node] >= period:
                    first = u
                    break
    release(class_counts.shape[0] + last_eval.shape[0] + path.shape[0])
    return first


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate_along_path(T, C, path, first, length, merits, cuts, post):
    """Re-evaluate the due inner nodes of the path from position ``first`` on, root first
    (:func:`reevaluate`), until one of them edits the tree: the nodes below
    it are then gone or no longer on the row's path.  Returns True if the tree changed: the leaf
    the row reached may be gone, and makes no split attempt for it."""
    period = C.params[P_REEVAL]
    by_tree = C.params[P_REEVAL_CLOCK] == REEVAL_CLOCK_TREE
    for u in range(first, length - 1):
        node = path[u]
        if T.kind[node] <= 0 or T.stats_slot[node] < 0:
            continue
        if not by_tree:
            w = 0.0
            for k in range(T.class_counts.shape[1]):
                w += T.class_counts[node, k]
            if w - T.last_eval[node] < period:
                continue
            T.last_eval[node] = w
        if reevaluate(T, C, node, merits, cuts, post) != REEVAL_KEEP:
            return True
    return False
