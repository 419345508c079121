"""UFFT's steps (002): its inner nodes learn their Gaussians, run naive Bayes and DDM on the
instances that pass, and a drift prunes a subtree and refills it from the short-term memory.
The forest's kernel (:mod:`workbench.core.forest`) calls these; ``run_stream`` does not.
"""

from __future__ import annotations

import math

from numba import njit

from ._inline import inline, release
from .edits import alloc_slot, kill_subtree
from .naive_bayes import nb_class
from .observe import observe, welford_update
from .routing import route
from .state import NB_FUNCTIONAL


@inline
def learn_path_gaussians(path, length, class_counts, stats_slot, g_w, g_mean, g_m2, X, i, c):
    """UFFT's inner nodes on row i's path (``path[:length - 1]``, root first) count it and add
    it to their Gaussians, which their naive Bayes (drift detection, functional nodes) reads.
    Numeric features only (UFFT takes no other), and without the observed range: an inner node
    of UFFT never tests a cut again (a prune rebuilds its statistics from the memory)."""
    for u in range(length - 1):
        node = path[u]
        class_counts[node, c] += 1.0
        s = stats_slot[node]
        if s >= 0:
            for j in range(X.shape[1]):
                xj = X[i, j]
                if not math.isnan(xj):
                    welford_update(g_w, g_mean, g_m2, s, j, c, xj)
    release(path.shape[0] + class_counts.shape[0] + stats_slot.shape[0] + g_w.shape[0] +
            g_mean.shape[0] + g_m2.shape[0] + X.shape[0])


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
@inline
def ddm_along_path(path, length, kind, children, class_counts, stats_slot, g_w, g_mean, g_m2, ddm,
                   warn_t, X, i, c, t, ddm_min, warn_level, drift_level, counters):
    """UFFT's drift step: the naive Bayes of every inner node on row i's path (root first)
    predicts it before learning it, and the node's DDM (``ddm[node] = [n, errors, p_min,
    s_min]``, MOA's strict comparisons) takes the 0/1 error:

    warning when ``p + s > p_min + warn_level s_min``, drift when ``p + s > p_min + drift_level
    s_min`` (002: 2 and 3), from ``ddm_min`` errors on.  ``warn_t[node]`` holds the time ``t`` the
    current warning began (-1: none; a fall back below the warning level clears it).  Returns
    the first (top-most) node that signals a drift, or -1.  (At a functional node the naive
    Bayes' class is the branch the row took: ``kind == NB_FUNCTIONAL``, no second evaluation.)"""
    hit = -1
    for u in range(length - 1):
        node = path[u]
        if kind[node] == NB_FUNCTIONAL:
            p_nb = 0 if path[u + 1] == children[node, 0] else 1
        else:
            p_nb = nb_class(class_counts, stats_slot, g_w, g_mean, g_m2, node, X, i)
        if ddm_node_step(ddm, warn_t, node, 1.0 if p_nb != c else 0.0, t, ddm_min, warn_level,
                         drift_level, counters):
            hit = node
            break
    release(path.shape[0] + kind.shape[0] + children.shape[0] + class_counts.shape[0] +
            stats_slot.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] +
            ddm.shape[0] + warn_t.shape[0] + X.shape[0] + counters.shape[0])
    return hit


@inline
def ddm_node_step(ddm, warn_t, node, err, t, ddm_min, warn_level, drift_level, counters):
    """One DDM update of ``node``'s detector with error ``err`` at time t; True on a drift.
    (:class:`workbench.drift.DDM` with ``strict=True`` at levels 2 and 3, one row of an array.)"""
    drift = False
    ddm[node, 0] += 1.0
    ddm[node, 1] += err
    n = ddm[node, 0]
    if n >= ddm_min:
        p = ddm[node, 1] / n
        sd = math.sqrt(p * (1.0 - p) / n)
        if p + sd < ddm[node, 2] + ddm[node, 3]:
            ddm[node, 2] = p
            ddm[node, 3] = sd
        x = p + sd
        if x > ddm[node, 2] + drift_level * ddm[node, 3]:
            counters[F_DRIFTS] += 1
            drift = True
        elif x > ddm[node, 2] + warn_level * ddm[node, 3]:
            if warn_t[node] < 0:
                warn_t[node] = t
                counters[F_WARNINGS] += 1
        else:
            warn_t[node] = -1
    release(ddm.shape[0] + warn_t.shape[0] + counters.shape[0])
    return drift


# slots of UFFT's counters (workbench.core.forest)
F_WARNINGS = 0     # warnings begun at inner nodes


F_DRIFTS = 1       # drifts signalled (each prunes a subtree)


F_NB_SPLITS = 2    # functional (naive-Bayes) nodes made


F_SPLITS = 3       # attribute splits made


F_LAST_NODE = 4    # the last pruned node, its tree and when (-1: none yet)


F_LAST_TREE = 5


F_LAST_T = 6


F_T = 7            # instances seen (the time stamps of the short-term memory)


N_FCOUNTERS = 8


@njit(cache=True, no_cpython_wrapper=True)
def prune_and_refill(T, C, node, root, X_mem, y_mem, n_mem):
    """Prune the subtree of ``node`` and refill it from a short-term memory (UFFT, 002: a node
    whose drift detector fires forgets its subtree; the new leaf starts from the recent
    instances that reach it).  ``node`` becomes an active leaf with empty counts and statistics,
    then learns those of the rows ``X_mem[:n_mem]`` (labels ``y_mem``) that the tree from
    ``root`` routes to it.  Returns how many rows it learned."""
    kill_subtree(T, node, False)
    for k in range(T.class_counts.shape[1]):
        T.class_counts[node, k] = 0.0
    T.last_eval[node] = 0.0
    T.mc_correct[node] = 0.0
    T.nb_correct[node] = 0.0
    learned = 0
    for i in range(n_mem):
        leaf, _depth, _forked = route(T.kind, T.feature, T.threshold, T.children, T.n_children,
                             T.class_counts, root, X_mem, i, True, None)
        if leaf != node:
            continue
        c = y_mem[i]
        T.class_counts[node, c] += 1.0
        if T.stats_slot[node] < 0:
            T.stats_slot[node] = alloc_slot(T)
        observe(C.nom_index, T.nom, T.nom_w, T.nom_nv, T.nom_q, True, T.g_w, T.g_mean, T.g_m2,
                T.g_min, T.g_max, T.stats_slot[node], X_mem, i, c)
        learned += 1
    T.last_eval[node] = learned
    return learned
