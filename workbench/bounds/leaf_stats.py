r"""What a data-dependent bound sees of a leaf: one float64 array, its layout fixed here.

A user bound with five arguments, ``my_bound(n, delta, value_range, n_classes, stats)``, gets the
leaf's class weights and the branch-by-class weights of the two candidate splits a split rule
compares (the best and the second best), in one flat ``stats`` array:

=====================================  ====================================================
``stats[STATS_K]``                     K, the number of classes
``stats[STATS_B_MAX]``                 B, rows reserved for each candidate's table (the most
                                       branches a split of this tree can have, at least 2)
``stats[STATS_B_BEST]``                branches of the best candidate (0: there is none)
``stats[STATS_B_SECOND]``              branches of the second best (0: there is none)
``stats[STATS_HEADER : +K]``           the leaf's class weights n_k
next ``B * K`` values                  the best candidate's weights, branch by branch
                                       (row b, column k: class k's weight in branch b)
next ``B * K`` values                  the second best's, likewise
=====================================  ====================================================

Rows beyond a candidate's number of branches hold zeros.  :func:`leaf_weights`,
:func:`best_table` and :func:`second_table` read the three parts inside a jitted bound without
index arithmetic; :func:`make_stats` builds the array from Python (tests, ``montecarlo``).

Example: an empirical-Bernstein-type radius needs the variance of the leaf's class indicator,
which ``leaf_weights(stats)`` gives; a G-test radius needs the best candidate's number of
branches, ``stats[STATS_B_BEST]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

STATS_K = 0
STATS_B_MAX = 1
STATS_B_BEST = 2
STATS_B_SECOND = 3
STATS_HEADER = 4


@njit(cache=True)
def stats_size(n_classes, b_max):
    """Length of the ``stats`` array for K classes and B rows per candidate."""
    return STATS_HEADER + n_classes + 2 * b_max * n_classes


@njit(cache=True)
def leaf_weights(stats):
    """The leaf's class weights (a view of ``stats``)."""
    K = int(stats[STATS_K])
    return stats[STATS_HEADER : STATS_HEADER + K]


@njit(cache=True)
def best_table(stats):
    """The best candidate's branch-by-class weights, shape (its branches, K) (a view)."""
    K = int(stats[STATS_K])
    B = int(stats[STATS_B_MAX])
    b = int(stats[STATS_B_BEST])
    start = STATS_HEADER + K
    return stats[start : start + B * K].reshape((B, K))[:b]


@njit(cache=True)
def second_table(stats):
    """The second-best candidate's branch-by-class weights, shape (its branches, K) (a view)."""
    K = int(stats[STATS_K])
    B = int(stats[STATS_B_MAX])
    b = int(stats[STATS_B_SECOND])
    start = STATS_HEADER + K + B * K
    return stats[start : start + B * K].reshape((B, K))[:b]


def make_stats(leaf, best=None, second=None, b_max=None) -> np.ndarray:
    """The ``stats`` array of a leaf with class weights ``leaf`` (length K) and candidates whose
    branch-by-class weights are ``best`` and ``second`` (arrays of shape (branches, K), or None
    where there is no such candidate); ``b_max`` rows per candidate (default: the larger table's
    branches, at least 2)."""
    leaf = np.asarray(leaf, dtype=np.float64)
    if leaf.ndim != 1 or leaf.size < 1:
        raise ValueError(f"leaf must be a 1-D array of class weights; got shape {leaf.shape}")
    K = leaf.size
    tables = []
    for name, table in (("best", best), ("second", second)):
        if table is None:
            tables.append(np.zeros((0, K)))
            continue
        table = np.asarray(table, dtype=np.float64)
        if table.ndim != 2 or table.shape[1] != K:
            raise ValueError(
                f"{name} must have shape (branches, {K}) to match the {K} classes of leaf; "
                f"got shape {table.shape}"
            )
        tables.append(table)
    need = max(2, *(t.shape[0] for t in tables))
    if b_max is None:
        b_max = need
    elif b_max < need:
        raise ValueError(
            f"b_max must be at least {need} (the larger table's branches); got {b_max}"
        )
    out = np.zeros(stats_size(K, b_max))
    out[STATS_K] = K
    out[STATS_B_MAX] = b_max
    out[STATS_B_BEST] = tables[0].shape[0]
    out[STATS_B_SECOND] = tables[1].shape[0]
    out[STATS_HEADER : STATS_HEADER + K] = leaf
    for i, table in enumerate(tables):
        start = STATS_HEADER + K + i * b_max * K
        out[start : start + table.size] = table.ravel()
    return out
