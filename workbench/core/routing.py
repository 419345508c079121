"""Routing: which branch an instance takes at an inner node, and which leaf it reaches.

* numeric test: branch 0 if ``x[f] <= threshold``, else branch 1;
* nominal multiway test: branch ``v`` for code ``v``;
* nominal binary test: branch 0 if ``x[f] == threshold``, else branch 1.

A missing value (NaN) follows the branch that most training weight took.  At prediction time a
nominal code the split never saw (out of range, not an integer, or a branch still empty) follows
that majority branch too; while learning, an in-range code goes to its own branch, which then
starts to learn, as a new branch would in MOA.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._inline import release
from .state import M_ROOT, NOMINAL_BINARY, NOMINAL_MULTI, NUMERIC


# Performance note: a jitted call costs numba two atomic reference-count updates per array it
# takes (``T`` has ~25), and the arrays' fields travel on the stack; for a per-instance call that
# is more than routing itself.  The stream kernel therefore routes a block of rows at a time
# where it can (``route_block``, below: one call per 64 rows), and otherwise with
# ``route_inline`` over the node arrays, which numba writes into the kernel's loop; ``walk`` is
# for the rare callers.


@njit(cache=True)
def walk(T, X, i, learning, path):
    """Leaf reached by row ``i`` of ``X`` from the root (rows, not views: a view per instance
    costs reference counting), and the number of nodes on the way (and :func:`route`'s
    ``forked``).

    If ``path`` has room, the nodes visited (root first, leaf last) are written into it
    (``explain_one``); an empty ``path`` records nothing.  The stream kernel calls :func:`route`
    directly.
    """
    return route(
        T.kind,
        T.feature,
        T.threshold,
        T.children,
        T.n_children,
        T.class_counts,
        T.meta[M_ROOT],
        X,
        i,
        learning,
        path,
    )


def _route(
    kind, feature, threshold, children, n_children, class_counts, node, X, i, learning, path
):
    """:func:`walk` from ``node`` over the node arrays themselves: the kernels' per-instance loop
    calls this, since a call that takes ``T`` makes numba count references to all its arrays.
    The kernels pass ``path=None``: numba then compiles a variant without the recording, which
    would otherwise cost a reference count on ``path`` at every call.

    Returns (leaf, nodes on the way, forked): ``forked`` is True when a prediction route
    (``learning`` False) passed a known code whose own branch is still empty, where learning
    would have gone down that branch instead; only then does a learner need a second route."""
    depth = 0
    forked = False
    while kind[node] > 0:
        if path is not None:
            if depth < path.shape[0]:
                path[depth] = node
        depth += 1
        xj = X[i, feature[node]]
        kd = kind[node]
        b = -1
        if not math.isnan(xj):
            if kd == NUMERIC:
                b = 0 if xj <= threshold[node] else 1
            elif kd == NOMINAL_BINARY:
                b = 0 if xj == threshold[node] else 1
            else:  # multiway: own branch for a known code, else the majority branch
                v = int(xj)
                if v == xj and 0 <= v < n_children[node]:
                    c = children[node, v]
                    if c >= 0:
                        if learning:
                            b = v
                        else:
                            w = 0.0
                            for k in range(class_counts.shape[1]):
                                w += class_counts[c, k]
                            if w > 0.0:
                                b = v
                            else:
                                forked = True
        if b < 0:  # missing value or unseen code: the branch most training weight took
            best_w = -1.0
            b = 0
            for bb in range(n_children[node]):
                c = children[node, bb]
                if c < 0:
                    continue
                w = 0.0
                for k in range(class_counts.shape[1]):
                    w += class_counts[c, k]
                if w > best_w:
                    best_w = w
                    b = bb
        node = children[node, b]
    if path is not None:
        if depth < path.shape[0]:
            path[depth] = node
        # (the last use of ``path``, outside the test on its length: where the kernel writes
        # this walk into its loop, the reference numba takes to ``path`` is then dropped on one
        # path and pruned; its last use inside that test cost the path-update variant (EFDT) a
        # pair of atomic counts per row, 3% of its time on SEA)
        release(path.shape[0])
    return node, depth + 1, forked


route = njit(cache=True, no_cpython_wrapper=True)(_route)
# the same, written into the caller by numba: no call, so the ~80 fields of its six arrays are not
# passed on the stack at every instance (the stream kernel's hot call site uses this one)
route_inline = njit(inline="always")(_route)


# ---- routing ahead: the stream kernel routes a block of rows at a time ----------------------
#
# Row by row, a walk waits at every level for a load and for a branch on the data that the
# processor cannot predict.  The stream kernel therefore routes rows ahead, ``ROUTE_BLOCK`` at a
# time, through a table of the tree's numeric tests (:func:`route_block`: eight walks side by
# side without a branch, whose load chains overlap), and an edit of the tree (a split, a
# re-evaluation, a reset) sends the rest of the block back to it.  A walk stops at a nominal
# test and at a missing value, where the branch depends on the children's weights, which
# change as rows are learned; :func:`route` goes on from there.  The same holds for a row
# whose block ended at a leaf that has split since: it goes on from that node, so a split needs
# the table's update for speed, not for correctness.  A reset or a subtree's removal frees rows
# (which may be reused), and the block must then be routed afresh.  (A tree whose features are
# all nominal has a table of its own, :func:`route_codes`, at the end of this module.)

#: the table's state (``build_route_table``'s ``edit``): to be built afresh, up to date; a leaf
#: that split since it was built is given by its row
TABLE_STALE = -2
TABLE_CURRENT = -1
#: the numeric table's row: feature, threshold (in the float view), the two successors
ROUTE_ROW = 4


@njit(cache=True, no_cpython_wrapper=True)
def build_route_table(kind, feature, threshold, children, n_children, n_nodes, edit, rt, rt_f):
    """Bring the table of :func:`route_block` up to date with the tree: every row
    ``0..n_nodes-1`` (``edit == TABLE_STALE``), or the rows of the leaf ``edit`` that split and
    of its new children.  The table is one int64 array ``rt`` of ``ROUTE_ROW`` entries a node,
    ``rt_f`` its float64 view: node ``u``'s row holds its feature, its threshold (written
    through the view) and its successors for x <= threshold and x > threshold, so that a step
    reads one cache line.  A numeric test leads to its children; anything else (a leaf, a
    nominal test, a free row) has threshold +inf and leads to itself, and a missing value stops
    at any node (:func:`_step`)."""
    stale = edit == TABLE_STALE
    n_rows = n_nodes if stale else (n_children[edit] + 1 if edit >= 0 else 0)
    for q in range(n_rows):  # (one loop, one copy of its body: compile time)
        u = q if stale else (edit if q == 0 else children[edit, q - 1])
        if u < 0:
            continue
        b = ROUTE_ROW * u
        if kind[u] == NUMERIC:
            rt[b] = feature[u]
            rt_f[b + 1] = threshold[u]
            rt[b + 2] = children[u, 0]
            rt[b + 3] = children[u, 1]
        else:
            rt[b] = 0
            rt_f[b + 1] = np.inf
            rt[b + 2] = u
            rt[b + 3] = u


@njit(inline="always")
def _step(table, X, r, u):
    """One step of a walk through the numeric table ``(rt, rt_f)``: the successor for
    x <= threshold or x > threshold, or the node itself where x is missing (a select, not a
    branch)."""
    rt, rt_f = table
    b = ROUTE_ROW * u
    x = X[r, rt[b]]
    nxt = rt[b + 2 + np.int64(x > rt_f[b + 1])]
    return u if x != x else nxt


def _lockstep(step):
    """A router through one kind of table: ``walk(kind, table, root, depth, X, lo, hi, out)``
    puts where rows ``lo..hi-1`` of X stop into ``out[: hi - lo]`` (their leaf, or the inner
    node where a step led to the node itself: a nominal test or a missing value, where
    :func:`route` goes on) and returns how many stopped at an inner node.  ``depth``: at least
    the deepest leaf's depth; ``step(table, X, r, u)`` is the table's step.

    Eight rows walk side by side, ``depth`` steps each without a branch (a leaf leads to
    itself): their load chains overlap, where a walk row by row waits at every level for its
    load and its unpredictable branch.  On the tree SEA grows in 200,000 rows (11 levels, 77
    leaves), timed alone: 54 ns a row walked one by one, 27 with four walks and the table in
    three arrays, 20.8 with eight, 15.5 with eight and a node's row in one cache line (22.9
    with four: more walks would spill their registers; twelve 17.5, sixteen 15.5).  Each table
    gets its own compiled walker, with its step written in (numba caches each: the step is a
    closure variable, which is part of its cache key)."""

    def walk(kind, table, root, depth, X, lo, hi, out):
        last = hi - 1
        for r in range(lo, hi, 8):
            r1 = min(r + 1, last)
            r2 = min(r + 2, last)
            r3 = min(r + 3, last)
            r4 = min(r + 4, last)
            r5 = min(r + 5, last)
            r6 = min(r + 6, last)
            r7 = min(r + 7, last)
            u0 = u1 = u2 = u3 = u4 = u5 = u6 = u7 = root
            for _ in range(depth):
                u0 = step(table, X, r, u0)
                u1 = step(table, X, r1, u1)
                u2 = step(table, X, r2, u2)
                u3 = step(table, X, r3, u3)
                u4 = step(table, X, r4, u4)
                u5 = step(table, X, r5, u5)
                u6 = step(table, X, r6, u6)
                u7 = step(table, X, r7, u7)
            out[r - lo] = u0
            out[r1 - lo] = u1
            out[r2 - lo] = u2
            out[r3 - lo] = u3
            out[r4 - lo] = u4
            out[r5 - lo] = u5
            out[r6 - lo] = u6
            out[r7 - lo] = u7
        stopped = 0
        for r in range(hi - lo):
            stopped += kind[out[r]] > 0
        return stopped

    return njit(cache=True, no_cpython_wrapper=True)(walk)


#: the numeric table's router: ``route_block(kind, (rt, rt_f), root, depth, X, lo, hi, out)``
route_block = _lockstep(_step)


# ---- routing ahead where a feature is nominal: a table of codes ----------------------------
#
# A tree whose features are all nominal has multiway tests only (or binary ones, with that
# option), and the table above would stop every row at the root; so would a tree whose root
# tests a nominal feature (RandomTree with 5 nominal and 5 numeric features).  Their table has a
# row per node with a feature and a successor per code plus one for anything else, and eight
# rows walk side by side as above (:func:`route_codes`); where some features are numeric the
# row has a threshold too, and a numeric test's children are its first two successors
# (:func:`route_mixed`, whose step costs more: a tree with numeric tests above its nominal ones
# keeps the numeric table).  Where a prediction would take a code's branch only if that branch
# has weight (:func:`route`), the table passes only branches that have it when the table is
# built; a branch that gains its first weight later (a row learned down it: ``forked``) has its
# parent's row brought up to date, and until then rows stop at the parent, where :func:`route`
# decides.


@njit(cache=True, no_cpython_wrapper=True)
def build_code_table(
    kind,
    feature,
    threshold,
    children,
    n_children,
    class_counts,
    n_nodes,
    edit,
    by_weight,
    rt_feat,
    rt_thr,
    rt_kid,
):
    """Bring the table of :func:`route_codes` and :func:`route_mixed` up to date with the tree,
    as :func:`build_route_table` does (every row, or the rows of ``edit`` and its children).
    Row ``u`` holds a feature, a threshold and ``children.shape[1] + 1`` successors.  At a
    multiway test the threshold is NaN and code v leads to its child where that child exists
    (and, with ``by_weight``, has weight: a prediction route's rule); at a numeric test the
    threshold is the test's and the first two successors are its children (x <= the threshold,
    x > it).  Every other successor (the last is for a missing value or a value that is not a
    code), and every successor of any other row, leads to ``u`` itself, where a walk stops."""
    stride = children.shape[1] + 1
    stale = edit == TABLE_STALE
    n_rows = n_nodes if stale else (n_children[edit] + 1 if edit >= 0 else 0)
    for q in range(n_rows):
        u = q if stale else (edit if q == 0 else children[edit, q - 1])
        if u < 0:
            continue
        multi = kind[u] == NOMINAL_MULTI
        numeric = kind[u] == NUMERIC
        rt_feat[u] = feature[u] if multi or numeric else 0
        rt_thr[u] = threshold[u] if numeric else np.nan
        for v in range(stride):
            nxt = u
            if numeric and v < 2:
                nxt = children[u, v]
            elif multi and v < n_children[u] and children[u, v] >= 0:
                c = children[u, v]
                w = 1.0
                if by_weight:
                    w = 0.0
                    for k in range(class_counts.shape[1]):
                        w += class_counts[c, k]
                if w > 0.0:
                    nxt = c
            rt_kid[stride * u + v] = nxt


@njit(inline="always")
def _code_step(table, X, r, u):
    """One step of a walk through the table of codes ``(rt_feat, rt_kid, stride)``: the
    successor for the row's code, or for anything else (NaN, not a whole number, beyond the
    branches) the last one.  No branch: the test selects the index, and the index converted is
    always in range.  (Rows packed with their feature, as in the numeric table: 9.3 ns a row on
    the nominal RandomTree streams' trees, 4 levels, against 8.7.)"""
    rt_feat, rt_kid, stride = table
    top = float(stride - 1)
    x = X[r, rt_feat[u]]
    code = (x >= 0.0) & (x < top) & (x == np.floor(x))
    return rt_kid[stride * u + np.int64(x if code else top)]


@njit(inline="always")
def _mixed_step(table, X, r, u):
    """One step of a walk through the table of codes and thresholds ``(rt_feat, rt_thr,
    rt_kid, stride)``: as :func:`_code_step`, where at a numeric test (a threshold that is a
    number) the code is 0 for x <= threshold and 1 above it.  (Selecting between a code and a
    comparison's index instead took twice as long: 36 against 17 ns a row on RandomTree's
    tree, 6 levels; the numeric table takes 10.)"""
    rt_feat, rt_thr, rt_kid, stride = table
    top = float(stride - 1)
    x = X[r, rt_feat[u]]
    t = rt_thr[u]
    v = np.float64(x > t) if t == t else x
    v = top if x != x else v
    code = (v >= 0.0) & (v < top) & (v == np.floor(v))
    return rt_kid[stride * u + np.int64(v if code else top)]


#: the routers through the table of codes, ``route_codes(kind, (rt_feat, rt_kid, stride), root,
#: depth, X, lo, hi, out)``, and of codes and thresholds, ``route_mixed(kind, (rt_feat,
#: rt_thr, rt_kid, stride), ...)``
route_codes = _lockstep(_code_step)
route_mixed = _lockstep(_mixed_step)
