"""UFFT's forest kernel (002): pairwise binary trees in one state, naive-Bayes inner nodes that
detect drift, a short-term memory for new leaves.

The forest is one :class:`~workbench.core.state.TreeState` with ``R = K(K-1)/2`` roots
(``T.roots``), and the state's class axis has two columns: tree r discriminates the classes
``pairs[r] = (a, b)``, ``a < b``, and holds class a as its local class 0 and b as its local class
1.  So every node of every tree is a two-class node, its criterion's range is that of two classes
(information gain: 1 bit) and the analytical cut (:mod:`workbench.core.analytic`) compares
exactly the two Gaussians of its pair.  Learning sends an instance of class c to the K - 1 trees
whose pair holds c; prediction sends it to all R trees and adds their local class probabilities
into the K classes (the sum rule); dividing by R gives probabilities again, since each tree's two
add up to 1.

:func:`run_forest` is the per-instance loop, as :func:`workbench.core.engine.run_stream` is for
one tree (which it cannot be: a forest predicts with every tree, learns with some, and shares
one memory).  It reads as the algorithm::

    predict (every tree, sum rule) -> remember the row -> for each tree of its class:
        route -> detect drift at inner nodes (prune and refill) -> learn along the path
        -> score the leaf's naive Bayes (after a tie) -> attempt a split

with the steps of :mod:`workbench.core.steps` (``learn_path_gaussians``, ``observe``,
``due_for_split``, and UFFT's ``pair_proba``, ``nb_class`` and ``ddm_along_path``).  The rare
events (a split, a prune) are ordinary calls that take the whole state.

Extra per-node state (:class:`ForestState`, rows as the tree's node rows): DDM's
``[n, errors, p_min, s_min]`` and the time its warning began, the 2 x 2 table of the leaf's
naive-Bayes predictions against the true class (rows: predicted local class, columns: true) and
whether the leaf is scoring it; then the short-term memory (:mod:`workbench.core.memory`), the
class pairs, counters (``F_*`` of :mod:`workbench.core.steps`) and UFFT's parameters (``FP_*``).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from .criteria import impurity_row, split_merit
from .memory import MEM_COUNT, mem_position, mem_push
from .params import (
    LEAF_NB,
    P_CRITERION,
    P_GRACE,
    P_LEAF_PRED,
    P_LOG_LIMIT,
    P_MAX_NODES,
    P_MIN_BRANCH_FRAC,
)
from ._inline import inline, release
from .decide import NO_SPLIT_BOUND, SPLIT_MARGIN, SPLIT_TIE, split_decision
from .edits import (
    alloc_slot,
    apply_split,
    deactivate,
    grow_children,
    kill_subtree,
    nodes_in_use,
    release_slot,
)
from .epsilon import split_epsilon
from .state import (
    M_FREE_NODES,
    M_FREE_SLOTS,
    M_GUARD_HITS,
    M_N_ACTIVE,
    M_N_LEAVES,
    M_N_LOG,
    M_N_NODES,
    M_N_SLOTS,
    M_T,
    NB_FUNCTIONAL,
)
from .forest_steps import (
    F_LAST_NODE,
    F_LAST_T,
    F_LAST_TREE,
    F_NB_SPLITS,
    F_SPLITS,
    F_T,
    N_FCOUNTERS,
    ddm_along_path,
    ddm_node_step,
    learn_path_gaussians,
)
from .naive_bayes import nb_class, pair_proba
from .observe import observe
from .steps import due_for_split

# slots of ForestState.fparams
FP_DRIFT = 0  # 1: DDM at inner nodes, 0: off
FP_DDM_MIN = 1  # DDM's minimum number of instances at a node
FP_WARN = 2  # warning level: p + s > p_min + FP_WARN * s_min
FP_DRIFT_LEVEL = 3  # drift level: p + s > p_min + FP_DRIFT_LEVEL * s_min
FP_NB_SPLITS = 4  # 1: functional (naive-Bayes) inner nodes allowed
FP_NB_THRESHOLD = 5  # threshold on the naive-Bayes split's gain (below; FP_NB_ABOVE: above)
FP_K = 6  # classes of the problem
FP_NB_ABOVE = 7  # 1: the naive-Bayes split needs its gain above FP_NB_THRESHOLD instead
N_FPARAMS = 8


class ForestState(NamedTuple):
    ddm: np.ndarray  # [N, 4] float64: n, errors, p_min, s_min per inner node
    warn_t: np.ndarray  # [N] int64: time the node's warning began, -1 if none
    ctx_t: np.ndarray  # [N] int64: start of the context the node grew in (-1: the stream's)
    nb_tab: np.ndarray  # [N, 2, 2] float64: leaf NB prediction x true local class
    nb_on: np.ndarray  # [N] int8: 1 once the leaf scores its naive Bayes (after a tie)
    mem_X: np.ndarray  # [B, d] short-term memory
    mem_y: np.ndarray  # [B] int64 original class codes
    mem_t: np.ndarray  # [B] int64 time stamps
    mem_meta: np.ndarray  # [2] int64 head, count
    pairs: np.ndarray  # [R, 2] int64 class pair of each tree
    counters: np.ndarray  # [N_FCOUNTERS] int64
    fparams: np.ndarray  # [N_FPARAMS] float64
    depth_drifts: np.ndarray  # [64] int64: drifts by depth of the pruned node (the last row
    # counts depths >= 63)


def class_pairs(n_classes: int) -> np.ndarray:
    """The pairs (a, b), a < b, in the order of the trees: (0,1), (0,2), ..., (K-2, K-1)."""
    return np.array(
        [(a, b) for a in range(n_classes) for b in range(a + 1, n_classes)], np.int64
    ).reshape(-1, 2)


def allocate_forest(node_capacity: int, n_features: int, n_classes: int, buffer_size: int):
    ddm = np.zeros((node_capacity, 4))
    ddm[:, 2:] = np.inf
    return ForestState(
        ddm=ddm,
        warn_t=np.full(node_capacity, -1, np.int64),
        ctx_t=np.full(node_capacity, -1, np.int64),
        nb_tab=np.zeros((node_capacity, 2, 2)),
        nb_on=np.zeros(node_capacity, np.int8),
        mem_X=np.zeros((buffer_size, n_features)),
        mem_y=np.zeros(buffer_size, np.int64),
        mem_t=np.zeros(buffer_size, np.int64),
        mem_meta=np.zeros(2, np.int64),
        pairs=class_pairs(n_classes),
        counters=np.array([0, 0, 0, 0, -1, -1, -1, 0], np.int64)[:N_FCOUNTERS],
        fparams=np.zeros(N_FPARAMS),
        depth_drifts=np.zeros(64, np.int64),
    )


def grow_forest(F: ForestState, node_capacity: int) -> ForestState:
    """The per-node arrays extended to ``node_capacity`` rows (after the tree's grew)."""
    old = F.ddm.shape[0]
    if node_capacity <= old:
        return F
    extra = node_capacity - old
    pad_ddm = np.zeros((extra, 4))
    pad_ddm[:, 2:] = np.inf
    return F._replace(
        ddm=np.concatenate([F.ddm, pad_ddm]),
        warn_t=np.concatenate([F.warn_t, np.full(extra, -1, np.int64)]),
        ctx_t=np.concatenate([F.ctx_t, np.full(extra, -1, np.int64)]),
        nb_tab=np.concatenate([F.nb_tab, np.zeros((extra, 2, 2))]),
        nb_on=np.concatenate([F.nb_on, np.zeros(extra, np.int8)]),
    )


@inline
def route_forest(
    kind,
    feature,
    threshold,
    children,
    class_counts,
    stats_slot,
    g_w,
    g_mean,
    g_m2,
    node,
    X,
    i,
    path,
    off,
):
    """Leaf of row i from ``node``: numeric tests as in :mod:`workbench.core.routing` (a missing
    value takes the heavier branch) and functional nodes (``NB_FUNCTIONAL``: branch = the local
    class the node's naive Bayes predicts).  With a ``path`` the nodes visited are written into
    it from ``path[off]`` on, root first; returns (leaf, number of nodes on the path)."""
    depth = 0
    while kind[node] > 0:
        if path is not None:
            path[off + depth] = node
        depth += 1
        if kind[node] == NB_FUNCTIONAL:
            b = nb_class(class_counts, stats_slot, g_w, g_mean, g_m2, node, X, i)
        else:
            xj = X[i, feature[node]]
            if math.isnan(xj):
                c0 = children[node, 0]
                c1 = children[node, 1]
                b = (
                    0
                    if class_counts[c0, 0] + class_counts[c0, 1]
                    >= class_counts[c1, 0] + class_counts[c1, 1]
                    else 1
                )
            else:
                b = 0 if xj <= threshold[node] else 1
        node = children[node, b]
    if path is not None:
        path[off + depth] = node
    release(
        kind.shape[0]
        + feature.shape[0]
        + threshold.shape[0]
        + children.shape[0]
        + class_counts.shape[0]
        + stats_slot.shape[0]
        + g_w.shape[0]
        + g_mean.shape[0]
        + g_m2.shape[0]
        + X.shape[0]
    )
    return node, depth + 1


@njit(cache=True, no_cpython_wrapper=True)
def reset_node(F, node):
    """Fresh drift detector and naive-Bayes scoring for a node row."""
    F.ddm[node, 0] = 0.0
    F.ddm[node, 1] = 0.0
    F.ddm[node, 2] = np.inf
    F.ddm[node, 3] = np.inf
    F.warn_t[node] = -1
    F.nb_on[node] = 0
    for a in range(2):
        for b in range(2):
            F.nb_tab[node, a, b] = 0.0


@njit(cache=True, no_cpython_wrapper=True)
def refill_leaf(T, C, F, node, other, root, r, since):
    """Make ``node`` (a leaf of tree r; and ``other`` too unless it is -1: the two new leaves of
    a split) start from the short-term memory: empty counts and statistics, then every
    remembered row of tree r's pair with time stamp ``>= since`` that the tree routes to it.
    Returns how many rows they learned."""
    for u in (node, other):
        if u < 0:
            continue
        for k in range(2):
            T.class_counts[u, k] = 0.0
        release_slot(T, u)
        reset_node(F, u)
        T.mc_correct[u] = 0.0
        T.nb_correct[u] = 0.0
    a = F.pairs[r, 0]
    b = F.pairs[r, 1]
    cap = F.mem_y.shape[0]
    learned = 0
    for q in range(F.mem_meta[MEM_COUNT]):
        pos = mem_position(F.mem_meta, cap, q)
        if F.mem_t[pos] < since:
            continue
        c = F.mem_y[pos]
        if c == a:
            lc = 0
        elif c == b:
            lc = 1
        else:
            continue
        leaf, _n = route_forest(
            T.kind,
            T.feature,
            T.threshold,
            T.children,
            T.class_counts,
            T.stats_slot,
            T.g_w,
            T.g_mean,
            T.g_m2,
            root,
            F.mem_X,
            pos,
            None,
            0,
        )
        if leaf != node and leaf != other:
            continue
        T.class_counts[leaf, lc] += 1.0
        if T.stats_slot[leaf] < 0:
            T.stats_slot[leaf] = alloc_slot(T)
        observe(
            C.nom_index,
            T.nom,
            T.nom_w,
            T.nom_nv,
            T.nom_q,
            True,
            T.g_w,
            T.g_mean,
            T.g_m2,
            T.g_min,
            T.g_max,
            T.stats_slot[leaf],
            F.mem_X,
            pos,
            lc,
        )
        learned += 1
    for u in (node, other):
        if u >= 0:
            T.last_eval[u] = T.class_counts[u, 0] + T.class_counts[u, 1]
    return learned


@njit(cache=True, no_cpython_wrapper=True)
def prune_node(T, C, F, node, root, r, since):
    """Drift at inner node ``node`` of tree r: its subtree is pruned, the node becomes a leaf
    whose counts and statistics are rebuilt from the rows remembered since ``since`` (the
    warning's start, where 002 declares the new context to begin).  The leaf and every node
    that later grows below it belong to that context (``ctx_t``).  Returns the rows it
    learned."""
    F.depth_drifts[min(T.depth[node], F.depth_drifts.shape[0] - 1)] += 1
    kill_subtree(T, node, False)
    learned = refill_leaf(T, C, F, node, -1, root, r, since)
    F.ctx_t[node] = since
    F.counters[F_LAST_NODE] = node
    F.counters[F_LAST_TREE] = r
    F.counters[F_LAST_T] = F.counters[F_T]
    return learned


@njit(cache=True, no_cpython_wrapper=True)
def nb_table_gain(T, C, F, leaf, post):
    """Information gain (the criterion) of the naive-Bayes attribute from the leaf's 2 x 2
    table (``post[b, k]``: predicted b, true k); returns (gain, weight of the table)."""
    pre = np.zeros((1, 2))
    n = 0.0
    for b in range(2):
        for k in range(2):
            post[b, k] = F.nb_tab[leaf, b, k]
            pre[0, k] += post[b, k]
            n += post[b, k]
    if n <= 0.0:
        return -np.inf, 0.0
    crit = int(C.params[P_CRITERION])
    g = split_merit(n, impurity_row(pre, 0, crit), post, 2, crit, C.params[P_MIN_BRANCH_FRAC])
    return g, n


@njit(cache=True, no_cpython_wrapper=True)
def split_children_from_memory(T, C, F, node, root, r):
    """Initialise the two new leaves of ``node`` from the short-term memory (002): the
    remembered rows that fall into them, of ``node``'s context only.  Below a node pruned by a
    drift that is the rows since the warning began (002: the new context starts there, and
    pruning "forgets older examples"); elsewhere the whole memory."""
    since = F.ctx_t[node]
    c0 = T.children[node, 0]
    c1 = T.children[node, 1]
    refill_leaf(T, C, F, c0, c1, root, r, since)
    F.ctx_t[c0] = since
    F.ctx_t[c1] = since
    reset_node(F, node)


@njit(cache=True, no_cpython_wrapper=True)
def nb_split(T, C, F, leaf, post):
    """Turn ``leaf`` into a functional node routed by its naive Bayes; False if the memory guard
    refused (the leaf is then deactivated)."""
    if nodes_in_use(T) + 2 > C.params[P_MAX_NODES]:
        T.meta[M_GUARD_HITS] += 1
        deactivate(T, leaf)
        return False
    if T.active[leaf] == 1:
        T.meta[M_N_ACTIVE] -= 1
    T.active[leaf] = 0
    T.meta[M_N_LEAVES] -= 1
    grow_children(T, leaf, -1, np.nan, NB_FUNCTIONAL, 2, post)
    return True


# outcomes of forest_attempt (the stepper and explain_one name them)
FA_NONE = 0
FA_ATTRIBUTE = 1
FA_NB = 2
FA_TIE_BREAK = 3


@njit(cache=True, no_cpython_wrapper=True)
def forest_attempt(T, C, F, leaf, root, r, merits, cuts, post):
    """UFFT's expansion test at a leaf (002):

    1. a scoring leaf's naive-Bayes attribute wins if its gain beats the best single attribute's
       by the Hoeffding epsilon of the table's weight and stays below ``FP_NB_THRESHOLD``
       (above it with ``FP_NB_ABOVE``);
    2. else the best attribute splits if its gain is positive and beats the second best by
       epsilon (VFDT);
    3. else, a tie: the leaf starts scoring its naive Bayes (if functional nodes are on), and
       where epsilon < tau the best attribute splits (VFDT's tie break).
    The new leaves start from the short-term memory.  Returns an ``FA_*`` code."""
    outcome, b1, _b2, eps, _q, _thr, g1, g2 = split_decision(T, C, leaf, merits, cuts, post)
    if not (outcome == SPLIT_MARGIN or outcome == SPLIT_TIE or outcome == NO_SPLIT_BOUND):
        return FA_NONE
    g_best = merits[b1]
    nb_on = F.fparams[FP_NB_SPLITS] > 0
    if nb_on and F.nb_on[leaf] == 1:
        g_nb, n_nb = nb_table_gain(T, C, F, leaf, post)
        if n_nb > 0.0:
            eps_nb = split_epsilon(T, C, leaf, n_nb)
            thr = F.fparams[FP_NB_THRESHOLD]
            on_side = g_nb > thr if F.fparams[FP_NB_ABOVE] > 0 else g_nb < thr
            if g_nb - g_best > eps_nb and on_side:
                if nb_split(T, C, F, leaf, post):
                    F.counters[F_NB_SPLITS] += 1
                    split_children_from_memory(T, C, F, leaf, root, r)
                    return FA_NB
                return FA_NONE
    if outcome == NO_SPLIT_BOUND or outcome == SPLIT_TIE:
        if nb_on and F.nb_on[leaf] == 0:
            F.nb_on[leaf] = 1
    if g_best > 0.0 and (outcome == SPLIT_MARGIN or outcome == SPLIT_TIE):
        if apply_split(T, C, leaf, b1, cuts[b1], post, outcome == SPLIT_TIE, eps, g1, g2):
            F.counters[F_SPLITS] += 1
            split_children_from_memory(T, C, F, leaf, root, r)
            return FA_ATTRIBUTE if outcome == SPLIT_MARGIN else FA_TIE_BREAK
    return FA_NONE


@njit(cache=True, error_model="numpy")
def run_forest(T, C, F, X, y, start, learn, pred, proba, leaves, every, path):
    """Predict (sum rule over every tree) and/or learn rows ``start..n-1`` of X in order.

    pred, proba, leaves as in :func:`workbench.core.engine.run_stream`; ``path`` an int64 buffer
    of at least the node capacity + 1.  Returns the index reached: less than n when the arrays
    must grow first (room for a split in every tree)."""
    n = X.shape[0]
    R = F.pairs.shape[0]
    K = int(F.fparams[FP_K])
    kind = T.kind
    feature = T.feature
    threshold = T.threshold
    children = T.children
    class_counts = T.class_counts
    stats_slot = T.stats_slot
    active = T.active
    last_eval = T.last_eval
    meta = T.meta
    g_w = T.g_w
    g_mean = T.g_mean
    g_m2 = T.g_m2
    g_min = T.g_min
    g_max = T.g_max
    nom = T.nom
    nom_w = T.nom_w
    nom_nv = T.nom_nv
    nom_q = T.nom_q
    roots = T.roots
    nom_index = C.nom_index
    ddm = F.ddm
    warn_t = F.warn_t
    nb_tab = F.nb_tab
    nb_on = F.nb_on
    pairs = F.pairs
    counters = F.counters
    n_cap = kind.shape[0]
    s_cap = g_w.shape[0]
    mode = int(C.params[P_LEAF_PRED])
    grace = C.params[P_GRACE]
    drift_on = F.fparams[FP_DRIFT] > 0
    ddm_min = F.fparams[FP_DDM_MIN]
    warn_level = F.fparams[FP_WARN]
    drift_level = F.fparams[FP_DRIFT_LEVEL]
    d = X.shape[1]
    out = np.empty(2)
    acc = np.empty(K)
    merits = np.empty(d)
    cuts = np.empty(d)
    post = np.empty((2, 2))
    want_pred = pred.shape[0] > 0
    want_proba = proba.shape[0] > 0
    want_leaves = leaves.shape[0] > 0
    predicting = want_pred or want_proba
    # what the prediction found in each tree, reused when the row is learned: the path
    # (``paths[r * stride:]``), its length, and the leaf's naive-Bayes class
    stride = n_cap + 1
    paths = np.empty(R * stride if predicting and learn else 0, np.int64)
    len_of = np.empty(R, np.int64)
    nb_of = np.empty(R, np.int64)
    countdown = every - start % every
    for i in range(start, n):
        # ---- room: a split in every tree needs two rows and two statistics slots
        if learn and (
            n_cap - meta[M_N_NODES] + meta[M_FREE_NODES] < 2 * R
            or s_cap - meta[M_N_SLOTS] + meta[M_FREE_SLOTS] < 2 * R
            or (
                T.log.shape[0] - meta[M_N_LOG] < R
                and (C.params[P_LOG_LIMIT] <= 0.0 or T.log.shape[0] < C.params[P_LOG_LIMIT])
            )
        ):
            return i
        # ---- predict: every tree, local probabilities summed into the K classes
        if predicting:
            for k in range(K):
                acc[k] = 0.0
            for r in range(R):
                if learn:
                    leaf, length = route_forest(
                        kind,
                        feature,
                        threshold,
                        children,
                        class_counts,
                        stats_slot,
                        g_w,
                        g_mean,
                        g_m2,
                        roots[r],
                        X,
                        i,
                        paths,
                        r * stride,
                    )
                    len_of[r] = length
                else:
                    leaf, _n = route_forest(
                        kind,
                        feature,
                        threshold,
                        children,
                        class_counts,
                        stats_slot,
                        g_w,
                        g_mean,
                        g_m2,
                        roots[r],
                        X,
                        i,
                        None,
                        0,
                    )
                nb_of[r] = pair_proba(
                    class_counts, stats_slot, g_w, g_mean, g_m2, leaf, X, i, mode, out
                )
                acc[pairs[r, 0]] += out[0]
                acc[pairs[r, 1]] += out[1]
            p = 0
            for k in range(1, K):
                if acc[k] > acc[p]:
                    p = k
            if want_pred:
                pred[i] = p
            if want_proba:
                for k in range(K):
                    proba[i, k] = acc[k] / R
        if not learn:
            continue
        # ---- remember the row, then learn it in the trees of its class
        c = y[i]
        t = counters[F_T]
        counters[F_T] += 1
        meta[M_T] += 1
        mem_push(F.mem_X, F.mem_y, F.mem_t, F.mem_meta, X, i, c, t)
        for r in range(R):
            if pairs[r, 0] == c:
                lc = 0
            elif pairs[r, 1] == c:
                lc = 1
            else:
                continue
            root = roots[r]
            if predicting:  # the path the prediction took
                length = len_of[r]
                for u in range(length):
                    path[u] = paths[r * stride + u]
                leaf = path[length - 1]
            else:
                leaf, length = route_forest(
                    kind,
                    feature,
                    threshold,
                    children,
                    class_counts,
                    stats_slot,
                    g_w,
                    g_mean,
                    g_m2,
                    root,
                    X,
                    i,
                    path,
                    0,
                )
            # ---- drift at inner nodes: prune the top-most drifting node's subtree
            if drift_on:
                hit = ddm_along_path(
                    path,
                    length,
                    kind,
                    children,
                    class_counts,
                    stats_slot,
                    g_w,
                    g_mean,
                    g_m2,
                    ddm,
                    warn_t,
                    X,
                    i,
                    lc,
                    t,
                    ddm_min,
                    warn_level,
                    drift_level,
                    counters,
                )
                if hit >= 0:
                    since = warn_t[hit] if warn_t[hit] >= 0 else t
                    prune_node(T, C, F, hit, root, r, since)
                    continue
            # ---- learn: inner nodes on the path, the leaf's naive-Bayes score, the leaf
            learn_path_gaussians(
                path, length, class_counts, stats_slot, g_w, g_mean, g_m2, X, i, lc
            )
            if nb_on[leaf] == 1:
                if predicting and mode == LEAF_NB:  # the prediction's naive Bayes, again
                    q = nb_of[r]
                else:
                    q = nb_class(class_counts, stats_slot, g_w, g_mean, g_m2, leaf, X, i)
                nb_tab[leaf, q, lc] += 1.0
            class_counts[leaf, lc] += 1.0
            if active[leaf] == 1:
                if stats_slot[leaf] < 0:
                    stats_slot[leaf] = alloc_slot(T)
                observe(
                    nom_index,
                    nom,
                    nom_w,
                    nom_nv,
                    nom_q,
                    True,
                    g_w,
                    g_mean,
                    g_m2,
                    g_min,
                    g_max,
                    stats_slot[leaf],
                    X,
                    i,
                    lc,
                )
                if due_for_split(class_counts, last_eval, None, None, leaf, grace, 0):
                    forest_attempt(T, C, F, leaf, root, r, merits, cuts, post)
        if want_leaves:
            countdown -= 1
            if countdown == 0:
                countdown = every
                leaves[(i + 1) // every - 1] = meta[M_N_LEAVES]
    return n


@njit(cache=True)
def forest_path(T, F, X, i, r, path):
    """(leaf, length) of row i in tree r, the nodes written into ``path`` (explain_one)."""
    return route_forest(
        T.kind,
        T.feature,
        T.threshold,
        T.children,
        T.class_counts,
        T.stats_slot,
        T.g_w,
        T.g_mean,
        T.g_m2,
        T.roots[r],
        X,
        i,
        path,
        0,
    )


@njit(cache=True)
def node_nb_class(T, node, X, i):
    """The class (local 0/1) the naive Bayes of ``node`` predicts for row i."""
    return nb_class(T.class_counts, T.stats_slot, T.g_w, T.g_mean, T.g_m2, node, X, i)


@njit(cache=True)
def explain_forest_split(T, C, F, leaf, merits, cuts, post):
    """The attribute split test at ``leaf`` and its naive-Bayes attribute: (outcome, best,
    second, eps, quantity, threshold, nb gain, nb weight, nb eps)."""
    looks = T.looks[leaf]
    outcome, b1, b2, eps, q, thr, _g1, _g2 = split_decision(T, C, leaf, merits, cuts, post)
    T.looks[leaf] = looks  # an explanation is not a look
    g_nb, n_nb = nb_table_gain(T, C, F, leaf, post)
    eps_nb = split_epsilon(T, C, leaf, n_nb) if n_nb > 0.0 else np.inf
    return outcome, b1, b2, eps, q, thr, g_nb, n_nb, eps_nb


@njit(cache=True)
def node_ddm_run(errors, ddm_min, warn_level, drift_level):
    """Run one node's detector (:func:`workbench.core.forest_steps.ddm_node_step`) over a 0/1 error
    sequence, starting afresh after each drift as a pruned node does: (warning, drift) flags per
    step (tests compare it with :class:`workbench.drift.DDM`)."""
    n = errors.shape[0]
    ddm = np.zeros((1, 4))
    ddm[0, 2:] = np.inf
    warn_t = np.full(1, -1, np.int64)
    counters = np.zeros(N_FCOUNTERS, np.int64)
    warning = np.zeros(n, np.bool_)
    drift = np.zeros(n, np.bool_)
    for i in range(n):
        if ddm_node_step(ddm, warn_t, 0, errors[i], i, ddm_min, warn_level, drift_level, counters):
            drift[i] = True
            ddm[0, 0] = 0.0
            ddm[0, 1] = 0.0
            ddm[0, 2] = np.inf
            ddm[0, 3] = np.inf
            warn_t[0] = -1
        else:
            warning[i] = warn_t[0] >= 0
    return warning, drift


@njit(cache=True)
def refill_from_python(T, C, F, node, root, r, since):
    """:func:`prune_node` callable from Python (tests, the notebook)."""
    return prune_node(T, C, F, node, root, r, since)


__all__ = [
    "ForestState",
    "allocate_forest",
    "grow_forest",
    "run_forest",
    "class_pairs",
]
