"""Split search, the split decision, and the structural edits of the tree.

Split search (:func:`feature_candidates`): for every feature, the best split a leaf's statistics
suggest and its merit.  Numeric features try the Gaussian observer's candidate cut points; nominal
features one multiway split (one branch per value).

Split decision (:func:`split_decision`): the leaf splits on its best feature when
``G(best) - G(second best) > factor * eps`` or when ``eps < tau`` (tie), with ``eps`` from the
bound policy ``P_BOUND`` (:func:`split_epsilon`).  VFDT (Domingos and Hulten 2000): factor 1 and
the Hoeffding bound ``eps = sqrt(R^2 ln(1/delta) / (2 n))`` (004 eq. (1)), n the leaf's weight
and R the criterion's range.  C-Tree (000 Algorithm 1, line 6, with argmin read for argmax):
factor 2, since each of the two estimates may be off by eps.

Edits: :func:`apply_split` turns a leaf into an inner node with fresh leaves (each starting from
the class distribution the split estimates for it), :func:`deactivate` stops a leaf from
splitting, :func:`release_subtree` returns a subtree's rows to the free lists.
"""
from __future__ import annotations


import numpy as np
from numba import njit

from ..bounds import (BOUND_ENTROPY, BOUND_GINI, BOUND_KEARNS_MANSOUR, ctree_epsilon_nb,
                      ctree_practical_nb, hoeffding_nb, mcdiarmid_entropy_nb)
from .criteria import impurity_row, merit_range, split_merit
from .observers import gaussian_binary_dists, gaussian_left_weight, gaussian_range
from .params import (BOUND_CTREE, BOUND_CTREE_PRACTICAL, BOUND_MCDIARMID, CRIT_ENTROPY_HALF,
                     CRIT_KM, P_BINARY_NOMINAL, P_BOUND, P_C, P_CRITERION, P_DELTA,
                     P_MARGIN_FACTOR, P_MAX_DEPTH, P_MAX_NODES, P_MIN_BRANCH_FRAC,
                     P_N_SPLIT_POINTS, P_TAU)
from .state import (FREE, LEAF, M_DEPTH, M_ROOT, M_FREE_NODES, M_FREE_SLOTS, M_GUARD_HITS,
                    M_N_ACTIVE, M_N_LEAVES, M_N_NODES, M_N_SLOTS, M_N_SPLITS, M_T, NOMINAL_BINARY,
                    NOMINAL_MULTI, NUMERIC)

# outcome codes of split_decision
NO_SPLIT_PURE = 0
NO_SPLIT_NO_CANDIDATE = 1
NO_SPLIT_BOUND = 2
SPLIT_MARGIN = 3
SPLIT_TIE = 4
NO_SPLIT_DEPTH = 5
NO_SPLIT_SINGLE = 6


@njit(cache=True, no_cpython_wrapper=True)
def split_epsilon(T, C, node, n):
    """Radius of the confidence interval at a leaf of weight n, per the bound policy."""
    bound = int(C.params[P_BOUND])
    crit = int(C.params[P_CRITERION])
    n_classes = T.class_counts.shape[1]
    delta = C.params[P_DELTA]
    t = max(T.meta[M_T], 1)
    d = C.nom_index.shape[0]
    if bound == BOUND_MCDIARMID:
        return mcdiarmid_entropy_nb(n, delta, n_classes)
    if bound == BOUND_CTREE:
        if delta <= 0.0:          # Remark 1 of 000: delta = 1/t
            delta = 1.0 / t
        kind = BOUND_GINI
        if crit == CRIT_ENTROPY_HALF:
            kind = BOUND_ENTROPY
        elif crit == CRIT_KM:
            kind = BOUND_KEARNS_MANSOUR
        return ctree_epsilon_nb(n, delta, T.depth[node], t, d, kind)
    if bound == BOUND_CTREE_PRACTICAL:
        return ctree_practical_nb(n, T.depth[node], t, d, C.params[P_C])
    return hoeffding_nb(n, delta, merit_range(n_classes, crit))


@njit(cache=True, no_cpython_wrapper=True)
def n_observed_classes(T, node):
    c = 0
    for k in range(T.class_counts.shape[1]):
        if T.class_counts[node, k] > 0.0:
            c += 1
    return c


@njit(cache=True, no_cpython_wrapper=True)
def nominal_post(T, s, m, card, post):
    """Class distribution per value of nominal feature m at slot s into ``post[:card]``."""
    for v in range(card):
        for k in range(post.shape[1]):
            post[v, k] = T.nom[s, m, v, k]


@njit(cache=True, no_cpython_wrapper=True)
def nominal_binary_post(T, s, m, v, post):
    """Class distribution of ``x == v`` (``post[0]``) and of the other values (``post[1]``)."""
    for k in range(post.shape[1]):
        post[0, k] = T.nom[s, m, v, k]
        post[1, k] = T.nom_w[s, m, k] - T.nom[s, m, v, k]


@njit(cache=True, no_cpython_wrapper=True)
def nominal_best_value(T, C, node, m, card, post, pre_total, pre_imp):
    """Best binary test ``x == v`` of nominal feature m at a leaf: (merit, v)."""
    s = T.stats_slot[node]
    crit = int(C.params[P_CRITERION])
    frac = C.params[P_MIN_BRANCH_FRAC]
    best = -np.inf
    best_v = np.nan
    for v in range(card):
        nominal_binary_post(T, s, m, v, post)
        g = split_merit(pre_total, pre_imp, post, 2, crit, frac)
        if g > best:
            best = g
            best_v = v
    return best, best_v


@njit(cache=True, no_cpython_wrapper=True)
def numeric_best_cut(T, C, node, j, post, pre_total, pre_imp):
    """Best cut point of numeric feature j at a leaf: (merit, cut)."""
    s = T.stats_slot[node]
    # the observer's arrays taken once, and nothing in the loop over cut points calls a function
    # that takes an array: each such call costs numba atomic reference counts on every array
    g_w, g_mean, g_m2, g_min, g_max = T.g_w, T.g_mean, T.g_m2, T.g_min, T.g_max
    lo, hi = gaussian_range(g_w, g_min, g_max, s, j)
    best = -np.inf
    best_cut = np.nan
    if not lo < hi:
        return best, best_cut
    n_points = int(C.params[P_N_SPLIT_POINTS])
    step = (hi - lo) / (n_points + 1.0)
    crit = int(C.params[P_CRITERION])
    frac = C.params[P_MIN_BRANCH_FRAC]
    for i in range(n_points):
        cut = lo + step * (i + 1.0)
        if not (lo < cut < hi):
            continue
        for k in range(g_w.shape[2]):      # observers.gaussian_binary_dists, written out
            w = max(g_w[s, j, k], 0.0)
            left = gaussian_left_weight(w, g_mean[s, j, k], g_m2[s, j, k], g_min[s, j, k],
                                        g_max[s, j, k], cut)
            post[0, k] = left
            post[1, k] = w - left
        g = split_merit(pre_total, pre_imp, post, 2, crit, frac)
        if g > best:
            best = g
            best_cut = cut
    return best, best_cut


@njit(cache=True, no_cpython_wrapper=True)
def feature_candidates(T, C, node, merits, cuts, post):
    """Best merit (and cut, NaN for a multiway split) of every feature at a leaf.

    ``post`` is scratch of shape [B, K]; features without statistics get merit -inf.
    """
    d = merits.shape[0]
    s = T.stats_slot[node]
    for j in range(d):
        merits[j] = -np.inf
        cuts[j] = np.nan
    if s < 0:
        return
    crit = int(C.params[P_CRITERION])
    frac = C.params[P_MIN_BRANCH_FRAC]
    binary = C.params[P_BINARY_NOMINAL] > 0
    # the leaf's own weight and impurity, once for every candidate
    pre_total = 0.0
    for k in range(T.class_counts.shape[1]):
        pre_total += T.class_counts[node, k]
    pre_imp = impurity_row(T.class_counts, node, crit)
    for j in range(d):
        m = C.nom_index[j]
        if m >= 0:
            card = C.nom_card[m]
            if binary:
                merits[j], cuts[j] = nominal_best_value(T, C, node, m, card, post, pre_total,
                                                        pre_imp)
            else:
                nominal_post(T, s, m, card, post)
                merits[j] = split_merit(pre_total, pre_imp, post, card, crit, frac)
        else:
            merits[j], cuts[j] = numeric_best_cut(T, C, node, j, post, pre_total, pre_imp)


@njit(cache=True)
def top_two(merits):
    """Indices of the best and second-best merit (-1 where absent)."""
    b1 = -1
    b2 = -1
    for j in range(merits.shape[0]):
        if b1 < 0 or merits[j] > merits[b1]:
            b2 = b1
            b1 = j
        elif b2 < 0 or merits[j] > merits[b2]:
            b2 = j
    return b1, b2


@njit(cache=True, no_cpython_wrapper=True)
def split_decision(T, C, node, merits, cuts, post):
    """Run the split test at a leaf.

    Fills ``merits``/``cuts`` and returns (outcome code, best feature, second feature, eps).
    """
    n = 0.0
    for k in range(T.class_counts.shape[1]):
        n += T.class_counts[node, k]
    if n_observed_classes(T, node) < 2:
        for j in range(merits.shape[0]):
            merits[j] = -np.inf
            cuts[j] = np.nan
        return NO_SPLIT_PURE, -1, -1, np.inf
    feature_candidates(T, C, node, merits, cuts, post)
    b1, b2 = top_two(merits)
    eps = split_epsilon(T, C, node, n)
    if b1 < 0 or merits[b1] == -np.inf:
        return NO_SPLIT_NO_CANDIDATE, b1, b2, eps
    if T.depth[node] >= C.params[P_MAX_DEPTH]:
        return NO_SPLIT_DEPTH, b1, b2, eps
    second = -np.inf if b2 < 0 else merits[b2]
    if merits[b1] - second > C.params[P_MARGIN_FACTOR] * eps:
        if b2 < 0:
            return NO_SPLIT_SINGLE, b1, b2, eps
        return SPLIT_MARGIN, b1, b2, eps
    if eps < C.params[P_TAU]:
        return SPLIT_TIE, b1, b2, eps
    return NO_SPLIT_BOUND, b1, b2, eps


@njit(cache=True)
def explain_split(T, C, node, merits, cuts, post):
    """:func:`split_decision` callable from Python (``explain_one``); a separate entry point so
    that its wrapper is compiled only when an explanation is first asked for."""
    return split_decision(T, C, node, merits, cuts, post)


# ---------------------------------------------------------------------------------------------
# structural edits
#
# Functions that only other kernels call are compiled without a CPython wrapper
# (``no_cpython_wrapper``): unboxing the ~25 arrays of a tree for Python would cost seconds of
# compile time per function and is never used.


@njit(cache=True, no_cpython_wrapper=True)
def alloc_node(T):
    if T.meta[M_FREE_NODES] > 0:
        T.meta[M_FREE_NODES] -= 1
        return T.free_nodes[T.meta[M_FREE_NODES]]
    i = T.meta[M_N_NODES]
    T.meta[M_N_NODES] += 1
    return i


@njit(cache=True, no_cpython_wrapper=True)
def alloc_slot(T):
    if T.meta[M_FREE_SLOTS] > 0:
        T.meta[M_FREE_SLOTS] -= 1
        s = T.free_slots[T.meta[M_FREE_SLOTS]]
    else:
        s = T.meta[M_N_SLOTS]
        T.meta[M_N_SLOTS] += 1
    # element loops, not row assignments: broadcasting brings error-formatting code that
    # costs seconds of compile time
    for j in range(T.g_w.shape[1]):
        for k in range(T.g_w.shape[2]):
            T.g_w[s, j, k] = 0.0
            T.g_mean[s, j, k] = 0.0
            T.g_m2[s, j, k] = 0.0
            T.g_min[s, j, k] = np.inf
            T.g_max[s, j, k] = -np.inf
    for m in range(T.nom.shape[1]):
        for k in range(T.nom.shape[3]):
            T.nom_w[s, m, k] = 0.0
            for v in range(T.nom.shape[2]):
                T.nom[s, m, v, k] = 0.0
    return s


@njit(cache=True, no_cpython_wrapper=True)
def release_slot(T, node):
    s = T.stats_slot[node]
    if s >= 0:
        T.free_slots[T.meta[M_FREE_SLOTS]] = s
        T.meta[M_FREE_SLOTS] += 1
        T.stats_slot[node] = -1


@njit(cache=True, no_cpython_wrapper=True)
def init_leaf(T, node, parent, depth):
    T.kind[node] = LEAF
    T.feature[node] = -1
    T.threshold[node] = np.nan
    for b in range(T.children.shape[1]):
        T.children[node, b] = -1
    T.n_children[node] = 0
    T.parent[node] = parent
    T.depth[node] = depth
    for k in range(T.class_counts.shape[1]):
        T.class_counts[node, k] = 0.0
    T.stats_slot[node] = -1
    T.active[node] = 1
    T.last_eval[node] = 0.0
    T.mc_correct[node] = 0.0
    T.nb_correct[node] = 0.0
    T.t_created[node] = T.meta[M_T]
    T.t_split[node] = -1
    T.meta[M_N_LEAVES] += 1
    T.meta[M_N_ACTIVE] += 1
    if depth > T.meta[M_DEPTH]:
        T.meta[M_DEPTH] = depth


@njit(cache=True, no_cpython_wrapper=True)
def deactivate(T, node):
    """Stop a leaf from splitting and drop its statistics (it keeps its class counts)."""
    if T.active[node] == 1:
        T.active[node] = 0
        T.meta[M_N_ACTIVE] -= 1
    release_slot(T, node)


@njit(cache=True, no_cpython_wrapper=True)
def nodes_in_use(T):
    return T.meta[M_N_NODES] - T.meta[M_FREE_NODES]


@njit(cache=True, no_cpython_wrapper=True)
def apply_split(T, C, node, j, cut, post):
    """Turn leaf ``node`` into an inner node testing feature j; returns False if the memory
    guard refused (the leaf is then deactivated)."""
    s = T.stats_slot[node]
    m = C.nom_index[j]
    if m >= 0 and C.params[P_BINARY_NOMINAL] > 0:
        n_branches = 2
        nominal_binary_post(T, s, m, int(cut), post)
        kind = NOMINAL_BINARY
    elif m >= 0:
        n_branches = C.nom_card[m]
        nominal_post(T, s, m, n_branches, post)
        kind = NOMINAL_MULTI
    else:
        n_branches = 2
        gaussian_binary_dists(T.g_w, T.g_mean, T.g_m2, T.g_min, T.g_max, s, j, cut, post)
        kind = NUMERIC
    if nodes_in_use(T) + n_branches > C.params[P_MAX_NODES]:
        T.meta[M_GUARD_HITS] += 1
        deactivate(T, node)
        return False
    T.kind[node] = kind
    T.feature[node] = j
    T.threshold[node] = cut
    T.n_children[node] = n_branches
    T.t_split[node] = T.meta[M_T]
    if T.active[node] == 1:
        T.meta[M_N_ACTIVE] -= 1
    T.active[node] = 0
    T.meta[M_N_LEAVES] -= 1
    T.meta[M_N_SPLITS] += 1
    release_slot(T, node)
    for b in range(n_branches):
        c = alloc_node(T)
        init_leaf(T, c, node, T.depth[node] + 1)
        w = 0.0
        for k in range(T.class_counts.shape[1]):
            T.class_counts[c, k] = post[b, k]
            w += post[b, k]
        T.last_eval[c] = w
        T.children[node, b] = c
    return True


@njit(cache=True, no_cpython_wrapper=True)
def release_subtree(T, node):
    """Return every row below ``node`` (not ``node`` itself) to the free lists and make
    ``node`` a fresh active leaf that keeps its class counts."""
    stack = np.empty(T.kind.shape[0], np.int64)   # every row at most once
    top = 1
    stack[0] = node
    while top > 0:
        top -= 1
        u = stack[top]
        for b in range(T.n_children[u]):
            c = T.children[u, b]
            if c >= 0:
                stack[top] = c
                top += 1
        if u != node:
            if T.kind[u] == LEAF:
                T.meta[M_N_LEAVES] -= 1
                if T.active[u] == 1:
                    T.meta[M_N_ACTIVE] -= 1
            release_slot(T, u)
            T.kind[u] = FREE
            T.free_nodes[T.meta[M_FREE_NODES]] = u
            T.meta[M_FREE_NODES] += 1
    n_classes = T.class_counts.shape[1]
    counts = np.empty(n_classes)
    for k in range(n_classes):
        counts[k] = T.class_counts[node, k]
    was_leaf = T.kind[node] == LEAF
    if was_leaf:
        T.meta[M_N_LEAVES] -= 1
        if T.active[node] == 1:
            T.meta[M_N_ACTIVE] -= 1
    release_slot(T, node)
    init_leaf(T, node, T.parent[node], T.depth[node])
    w = 0.0
    for k in range(n_classes):
        T.class_counts[node, k] = counts[k]
        w += counts[k]
    T.last_eval[node] = w


@njit(cache=True)
def reset_tree(T):
    """Forget everything: the root becomes an empty active leaf (after a detected drift)."""
    root = T.meta[M_ROOT]
    release_subtree(T, root)
    for k in range(T.class_counts.shape[1]):
        T.class_counts[root, k] = 0.0
    T.last_eval[root] = 0.0
    T.mc_correct[root] = 0.0
    T.nb_correct[root] = 0.0
