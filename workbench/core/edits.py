"""Structural edits of the tree: allocating nodes and statistics slots, splitting a leaf,
replacing a test, killing a subtree, resetting a tree.

:func:`apply_split` turns a leaf into an inner node with fresh leaves (each starting from the
class distribution the split estimates for it, as in MOA and River), :func:`deactivate` stops a
leaf from splitting, :func:`replace_split` and :func:`kill_subtree` are HATT's edits, and
:func:`release_subtree` / :func:`reset_tree` return a subtree's rows to the free lists.

Functions that only other kernels call are compiled without a CPython wrapper
(``no_cpython_wrapper``): unboxing the tree's arrays for Python would cost seconds of compile
time per function and is never used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .params import P_MAX_NODES, P_UPDATE, UPDATE_PATH
from .search import branch_dists, is_binary_nominal
from .state import (
    FREE,
    LOG_BRANCH,
    LOG_DEPTH,
    LOG_EPS,
    LOG_FEATURE,
    LOG_G_BEST,
    LOG_G_SECOND,
    LOG_IN_TREE,
    LOG_LOOKS,
    LOG_N,
    LOG_NODE,
    LOG_PARENT,
    LOG_REPLACED,
    LOG_T,
    LOG_THRESHOLD,
    LOG_TIE,
    M_LOG_LOST,
    M_N_LOG,
    LEAF,
    M_DEPTH,
    M_FREE_NODES,
    M_FREE_SLOTS,
    M_GUARD_HITS,
    M_N_ACTIVE,
    M_N_LEAVES,
    M_N_NODES,
    M_N_SLOTS,
    M_N_SPLITS,
    M_ROOT,
    M_T,
    NOMINAL_BINARY,
    NOMINAL_MULTI,
    NUMERIC,
    class_len_now,
)


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
    for j in range(T.merit_sum.shape[1]):
        T.merit_sum[s, j] = 0.0
    T.merit_n[s] = 0.0
    for k in range(T.nom_q.shape[1]):
        T.nom_q[s, k] = 0.0
    for j in range(T.h_count.shape[1]):
        for b in range(T.h_count.shape[2]):
            for k in range(T.h_count.shape[3]):
                T.h_count[s, j, b, k] = 0.0
    for m in range(T.nom.shape[1]):
        for k in range(T.nom.shape[3]):
            T.nom_w[s, m, k] = 0.0
            T.nom_nv[s, m, k] = 0.0
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
    T.n_learned[node] = 0
    T.cls_len[node] = 0
    T.replaced[node] = 0
    T.mc_correct[node] = 0.0
    T.nb_correct[node] = 0.0
    T.t_created[node] = T.meta[M_T]
    T.t_split[node] = -1
    T.looks[node] = 0
    T.wait[node] = -1.0
    T.log_row[node] = -1
    T.w0[node] = 0.0
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
def test_kind(C, j, cut):
    m = C.nom_index[j]
    if is_binary_nominal(C, m, cut):
        return NOMINAL_BINARY
    if m >= 0:
        return NOMINAL_MULTI
    return NUMERIC


@njit(cache=True, no_cpython_wrapper=True)
def grow_children(T, node, j, cut, kind, n_branches, post):
    """Give inner-node-to-be ``node`` the test (j, cut) and ``n_branches`` fresh leaves, each
    starting from the class distribution ``post`` estimates for it (as in MOA and River)."""
    T.kind[node] = kind
    T.feature[node] = j
    T.threshold[node] = cut
    T.n_children[node] = n_branches
    T.t_split[node] = T.meta[M_T]
    T.meta[M_N_SPLITS] += 1
    for b in range(n_branches):
        c = alloc_node(T)
        init_leaf(T, c, node, T.depth[node] + 1)
        w = 0.0
        for k in range(T.class_counts.shape[1]):
            T.class_counts[c, k] = post[b, k]
            w += post[b, k]
        T.last_eval[c] = w
        T.w0[c] = w  # what it inherited, not learned
        T.children[node, b] = c


@njit(cache=True, no_cpython_wrapper=True)
def branch_class_len(T, C, s, j, cut, b):
    """Length of the class-count vector MOA gives the leaf of branch b of the test (feature j,
    cut) made from statistics slot s: the highest class index its observer puts in that
    branch's estimated distribution, plus one, even where the estimate is 0.  Gaussian
    observer: a class with values goes left unless the cut is below its smallest value, right
    unless the cut is at or above its largest; nominal observer: a class enters the branch of
    every code below its highest code seen plus one (multiway), or, for ``x == v``, the equal
    branch when it has seen a code of at least v and the other when it has seen another code."""
    m = C.nom_index[j]
    binary = is_binary_nominal(C, m, cut)
    L = 0
    for k in range(T.class_counts.shape[1]):
        if m >= 0:
            nv = T.nom_nv[s, m, k]
            if binary and b == 0:
                add = nv > cut
            elif binary:
                add = nv >= 2.0 or (nv == 1.0 and cut != 0.0)
            else:
                add = nv > b
        else:
            add = T.g_w[s, j, k] > 0.0 and (
                cut >= T.g_min[s, j, k] if b == 0 else cut < T.g_max[s, j, k]
            )
        if add:
            L = k + 1
    return L


@njit(cache=True, no_cpython_wrapper=True)
def set_child_class_lens(T, C, node, j, cut):
    """Each new child's ``cls_len`` (:func:`branch_class_len`) from ``node``'s statistics."""
    s = T.stats_slot[node]
    if s >= 0:
        for b in range(T.n_children[node]):
            T.cls_len[T.children[node, b]] = branch_class_len(T, C, s, j, cut, b)


@njit(cache=True, no_cpython_wrapper=True)
def log_split(T, node, tie, eps, g_best, g_second):
    """Append the split node ``node`` has just been given to the split log (``T.log``, the
    ``LOG_*`` columns of :mod:`workbench.core.state`): the weight and looks it had, the decision
    (``tie``: by the tie rule) and the numbers the rule compared, and where it hangs (its
    parent's log row and its branch there).  The kernels make room for a row before they
    split (the loop's room check); where the log has reached its limit under
    ``memory_limit_mb`` (``P_LOG_LIMIT``), the split is counted in ``M_LOG_LOST`` instead."""
    r = T.meta[M_N_LOG]
    if r >= T.log.shape[0]:  # at its limit under memory_limit_mb: counted, not recorded
        T.meta[M_LOG_LOST] += 1
        T.log_row[node] = -1
        return
    T.meta[M_N_LOG] += 1
    p = T.parent[node]
    branch = -1
    if p >= 0:
        for b in range(T.n_children[p]):
            if T.children[p, b] == node:
                branch = b
    w = 0.0
    for k in range(T.class_counts.shape[1]):
        w += T.class_counts[node, k]
    row = T.log[r]
    row[LOG_NODE] = node
    row[LOG_DEPTH] = T.depth[node]
    row[LOG_T] = T.meta[M_T]
    row[LOG_N] = w
    row[LOG_LOOKS] = T.looks[node]
    row[LOG_FEATURE] = T.feature[node]
    row[LOG_THRESHOLD] = T.threshold[node]
    row[LOG_TIE] = 1.0 if tie else 0.0
    row[LOG_EPS] = eps
    row[LOG_G_BEST] = g_best
    row[LOG_G_SECOND] = g_second
    row[LOG_PARENT] = T.log_row[p] if p >= 0 else -1
    row[LOG_BRANCH] = branch
    row[LOG_REPLACED] = 0.0
    row[LOG_IN_TREE] = 1.0
    T.log_row[node] = r


@njit(cache=True, no_cpython_wrapper=True)
def leave_log(T, node, replaced):
    """The split of ``node`` (if it has one) leaves the tree: ``replaced`` by a re-evaluation,
    or removed with a subtree above it, a prune or a reset."""
    r = T.log_row[node]
    if r >= 0:
        T.log[r, LOG_IN_TREE] = 0.0
        if replaced:
            T.log[r, LOG_REPLACED] = 1.0
        T.log_row[node] = -1


@njit(cache=True, no_cpython_wrapper=True)
def apply_split(T, C, node, j, cut, post, tie, eps, g_best, g_second):
    """Turn leaf ``node`` into an inner node testing feature j; returns False if the memory
    guard refused (the leaf is then deactivated).  Under ``UPDATE_PATH`` the node keeps its
    statistics (it goes on learning and is re-evaluated); otherwise they are released.  The
    split goes into the split log with how it was decided (``tie``, ``eps``, the merits
    ``g_best`` and ``g_second`` the rule compared: :func:`log_split`)."""
    n_branches = branch_dists(T, C, T.stats_slot[node], j, cut, post)
    if nodes_in_use(T) + n_branches > C.params[P_MAX_NODES]:
        T.meta[M_GUARD_HITS] += 1
        deactivate(T, node)
        return False
    if T.active[node] == 1:
        T.meta[M_N_ACTIVE] -= 1
    T.active[node] = 0
    T.meta[M_N_LEAVES] -= 1
    T.cls_len[node] = class_len_now(
        T.cls_len, T.class_counts, node
    )  # MOA: the new inner node's vector at creation
    T.replaced[node] = 0
    grow_children(T, node, j, cut, test_kind(C, j, cut), n_branches, post)
    set_child_class_lens(T, C, node, j, cut)
    log_split(T, node, tie, eps, g_best, g_second)
    if C.params[P_UPDATE] != UPDATE_PATH:
        release_slot(T, node)
    elif T.stats_slot[node] >= 0:
        T.merit_n[T.stats_slot[node]] = 0.0  # MERITS_MOA: the new inner node counts again
    return True


@njit(cache=True, no_cpython_wrapper=True)
def free_below(T, node):
    """Return every row below ``node`` (not ``node`` itself) to the free lists."""
    stack = np.empty(T.kind.shape[0], np.int64)  # every row at most once
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
            leave_log(T, u, False)
            release_slot(T, u)
            T.kind[u] = FREE
            T.free_nodes[T.meta[M_FREE_NODES]] = u
            T.meta[M_FREE_NODES] += 1
    for b in range(T.children.shape[1]):
        T.children[node, b] = -1
    T.n_children[node] = 0


@njit(cache=True, no_cpython_wrapper=True)
def remake_products(nom_w, nom_nv, nom_q, s):
    """Every class's product of naive Bayes's denominators in slot s (``nom_q``), from its
    counts, in the order ``observe.observe`` multiplies them."""
    for k in range(nom_q.shape[1]):
        q = 1.0
        for m in range(nom_w.shape[1]):
            q *= nom_w[s, m, k] + nom_nv[s, m, k]
        nom_q[s, k] = q


@njit(cache=True, no_cpython_wrapper=True)
def kill_subtree(T, node, keep_stats):
    """Make ``node`` a fresh active leaf again, its subtree's rows freed.  It keeps its class
    counts, and with ``keep_stats`` its statistics slot (HATT: a node that kept learning while
    it was an inner node goes on from what it knows)."""
    leave_log(T, node, False)
    free_below(T, node)
    n_classes = T.class_counts.shape[1]
    counts = np.empty(n_classes)
    for k in range(n_classes):
        counts[k] = T.class_counts[node, k]
    if T.kind[node] == LEAF:
        T.meta[M_N_LEAVES] -= 1
        if T.active[node] == 1:
            T.meta[M_N_ACTIVE] -= 1
    s = T.stats_slot[node]
    if keep_stats:
        T.stats_slot[node] = -1
    else:
        release_slot(T, node)
    init_leaf(T, node, T.parent[node], T.depth[node])
    if keep_stats:
        T.stats_slot[node] = s
        if s >= 0:  # (its products of denominators were not kept while it was inner)
            remake_products(T.nom_w, T.nom_nv, T.nom_q, s)
    w = 0.0
    for k in range(n_classes):
        T.class_counts[node, k] = counts[k]
        w += counts[k]
    T.last_eval[node] = w


@njit(cache=True, no_cpython_wrapper=True)
def release_subtree(T, node):
    """Return every row below ``node`` to the free lists and make ``node`` a fresh active leaf
    that keeps its class counts (its statistics are dropped)."""
    kill_subtree(T, node, False)


@njit(cache=True, no_cpython_wrapper=True)
def replace_split(T, C, node, j, cut, post, tie, eps, g_best, g_current):
    """Replace inner node ``node``'s test by (j, cut) (HATT): the old subtree is freed, the node
    keeps its class counts and statistics, and the new branches start as fresh leaves with the
    class distributions the node's statistics estimate for them.  Returns False if the memory
    guard refused; the node is then a leaf (its subtree already freed).  The split log marks
    the old test replaced and records the new one with what the re-evaluation compared."""
    n_branches = branch_dists(T, C, T.stats_slot[node], j, cut, post)
    leave_log(T, node, True)
    free_below(T, node)
    if nodes_in_use(T) + n_branches > C.params[P_MAX_NODES]:
        T.meta[M_GUARD_HITS] += 1
        kill_subtree(T, node, False)
        deactivate(T, node)
        return False
    T.cls_len[node] = class_len_now(
        T.cls_len, T.class_counts, node
    )  # MOA: the replacing node's vector at creation
    T.replaced[node] = 1
    grow_children(T, node, j, cut, test_kind(C, j, cut), n_branches, post)
    set_child_class_lens(T, C, node, j, cut)
    log_split(T, node, tie, eps, g_best, g_current)
    return True


@njit(cache=True)
def reset_tree(T, root):
    """Forget everything below and at ``root``: it becomes an empty active leaf (after a detected
    drift)."""
    release_subtree(T, root)
    for k in range(T.class_counts.shape[1]):
        T.class_counts[root, k] = 0.0
    T.last_eval[root] = 0.0
    T.mc_correct[root] = 0.0
    T.nb_correct[root] = 0.0


@njit(cache=True)
def init_root(T):
    """Make the root leaf of every tree in the state (``T.roots``); returns the first."""
    for r in range(T.roots.shape[0]):
        root = alloc_node(T)
        init_leaf(T, root, -1, 0)
        T.roots[r] = root
    T.meta[M_ROOT] = T.roots[0]
    return T.roots[0]
