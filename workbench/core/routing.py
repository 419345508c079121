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

from numba import njit

from .state import M_ROOT, NOMINAL_BINARY, NUMERIC


# Performance note: a jitted call costs numba two atomic reference-count updates per array it
# takes (``T`` has ~25), and the arrays' fields travel on the stack; for a per-instance call that
# is more than routing itself.  The stream kernel therefore routes with ``route_inline`` over the
# node arrays, which numba writes into the kernel's loop; ``walk`` is for the rare callers.


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
    return node, depth + 1, forked


route = njit(cache=True, no_cpython_wrapper=True)(_route)
# the same, written into the caller by numba: no call, so the ~80 fields of its six arrays are not
# passed on the stack at every instance (the stream kernel's hot call site uses this one)
route_inline = njit(inline="always")(_route)
