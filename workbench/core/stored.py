r"""Instance-storing trees (001's BOCT): the store, the exhaustive split search, the update.

BOCT (Collet and Pietquin, paper 001, Figs. 2-3) keeps every instance it knows: the labelled
ones, whose labels give the counts :math:`T_s, \hat\mu_s` (eqs. 1-2), and the unlabelled pool,
whose sizes give :math:`W_s` (eq. 5).  A leaf receiving a label considers every midpoint between
consecutive distinct labelled values of every attribute.

The store (:class:`Store`) keeps, for every attribute ``a``, a permutation ``order[a]`` of its
rows in which each leaf owns one contiguous segment ``[lo, hi)`` sorted by attribute ``a``.  The
rows are sorted once, when the store is built; a split partitions its leaf's segments stably into
the two children (as scikit-learn's splitter does), so no segment is ever sorted again: the
search over a leaf is one pass over its segment per attribute, however many labels arrive.

The credible bounds come from lazily filled tables (001 Sec. III: "f^{-1} can be stored in a
table").  The interval of eqs. (3)-(4) is :math:`[H(u_{lo}), H(u_{up})]` where ``u`` solves
:math:`P(|\mu - 1/2| \ge 1/2 - u) = \delta` or ``1 - delta`` under the Beta posterior (see
:func:`workbench.bounds.credible_interval_nb`); ``u`` depends only on the two counts and
``delta``, not on the heterogeneity, and is symmetric in the counts.  :class:`Tables` holds
``H(u)`` for both ends (NaN until first used), so every (count, count) pair is solved once per
``delta`` and heterogeneity and the search reads two numbers per candidate test.

The tree itself is a :class:`~workbench.core.state.TreeState` (numeric tests ``x[f] <= cut``,
branch 0 the left part), so BOCT trees route, export to DOT and draw like every other tree;
``class_counts[:, k]`` are the labelled counts of class ``k`` (0 or 1).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from ..bounds._beta import _solve_increasing, betaincinv_nb
from ..bounds.credible import heterogeneity_nb
from .rules import credible_quantity
from .edits import alloc_node, init_leaf
from .state import LEAF, M_N_ACTIVE, M_N_LEAVES, M_N_SPLITS, M_ROOT, M_T, NUMERIC

# slots of the BOCT parameter vector ``bp``
BP_DELTA = 0  # delta of the split rule
BP_HET = 1  # HET_* code of the heterogeneity (workbench.bounds.credible)
BP_RULE = 2  # RULE_CREDIBLE or RULE_CREDIBLE_TEXT
BP_BOUND = 3  # BOUND_CREDIBLE or BOUND_HOEFFDING
BP_WMODE = 4  # W_s: 0 labelled counts (eq. 1), 1 the pool weights w (eq. 5)
N_BP = 5

W_LABELLED = 0
W_POOL = 1

_BOUND_HOEFFDING = 0  # = params.BOUND_HOEFFDING (the Hoeffding baseline)


class Store(NamedTuple):
    X: np.ndarray  # float64 [n, d] every known instance
    y: np.ndarray  # int64 [n] label code 0/1 once labelled, -1 before
    w: np.ndarray  # float64 [n] weight of the row in W_s (pool member 1, else 0)
    order: np.ndarray  # int64 [d, n] per attribute, each leaf's rows as a sorted segment
    vals: np.ndarray  # float64 [d, n] X[order[a, k], a]: the segment's values, contiguous
    labs: np.ndarray  # int64 [d, n] y[order[a, k]]
    wsort: np.ndarray  # float64 [d, n] w[order[a, k]]
    pos: np.ndarray  # int64 [d, n] position of row r in order[a]
    leaf: np.ndarray  # int64 [n] the leaf each row is in
    lo: np.ndarray  # int64 [N] segment start of each node
    hi: np.ndarray  # int64 [N] segment end
    node_w: np.ndarray  # float64 [N] W_s of each node
    n_unlabelled: np.ndarray  # int64 [N] unlabelled rows of each node
    buf: np.ndarray  # int64 [n] scratch for the partition


class Tables(NamedTuple):
    """Lazily filled bounds of eq. (4) for one ``delta`` and one heterogeneity, indexed
    ``[min(n_pos, n_neg), max(n_pos, n_neg)]`` (the interval is symmetric in the counts).

    ``spec = [delta, HET_* code, plug-in flag]``.  With the plug-in flag (the Hoeffding
    baseline) ``up`` holds the plug-in heterogeneity ``H(n_pos / n)`` instead."""

    spec: np.ndarray  # float64 [3]
    lo: np.ndarray  # float64 [M, M]: eps(1 - delta), NaN until first used
    up: np.ndarray  # float64 [M, M]: eps(delta) (or the plug-in H)


def make_tables(delta: float, max_count: int, kind: int = 0, plugin: bool = False) -> Tables:
    m = int(max_count) + 1
    spec = np.array([float(delta), float(kind), 1.0 if plugin else 0.0])
    return Tables(spec, np.full((m, m), np.nan), np.full((m, m), np.nan))


def make_store(X, w, node_capacity):
    """A store of the rows of ``X`` (all unlabelled, one root segment): sorts each attribute
    once.  Call :func:`sync_sorted` after setting ``y`` and ``w``."""
    n, d = X.shape
    order = np.empty((d, n), np.int64)
    for a in range(d):
        order[a] = np.argsort(X[:, a], kind="stable")
    return Store(
        X=np.ascontiguousarray(X, dtype=np.float64),
        y=np.full(n, -1, np.int64),
        w=np.asarray(w, np.float64).copy(),
        order=order,
        vals=np.empty((d, n)),
        labs=np.empty((d, n), np.int64),
        wsort=np.empty((d, n)),
        pos=np.empty((d, n), np.int64),
        leaf=np.zeros(n, np.int64),
        lo=np.zeros(node_capacity, np.int64),
        hi=np.zeros(node_capacity, np.int64),
        node_w=np.zeros(node_capacity),
        n_unlabelled=np.zeros(node_capacity, np.int64),
        buf=np.empty(n, np.int64),
    )


# ---------------------------------------------------------------------------- bounds
# The per-candidate helpers are inlined into their callers: a jitted call that takes the tables
# costs numba reference-count updates on their arrays, more than the lookup itself.
@njit(cache=True)
def credible_u(n_pos, n_neg, y):
    """``u`` in [0, 1/2] with ``P(H(mu) <= H(u)) = y`` under Beta(n_pos + 1, n_neg + 1): the
    credible end of eq. (4) is ``H(u)`` (``y = delta`` lower end, ``1 - delta`` upper end)."""
    return _solve_increasing(1, n_pos + 1.0, n_neg + 1.0, y, 0.0, 0.5)


@njit(inline="always")
def _table(tab, lower, n_pos, n_neg):
    p = int(n_pos)
    q = int(n_neg)
    if p > q:  # symmetric in the counts: one triangle
        p, q = q, p
    t = tab.lo if lower else tab.up
    e = t[p, q]
    if math.isnan(e):
        kind = int(tab.spec[1])
        if tab.spec[2] > 0.0:
            e = 0.0 if p + q == 0 else heterogeneity_nb(p / (p + q), kind)
        else:
            delta = tab.spec[0]
            e = heterogeneity_nb(credible_u(p, q, delta if lower else 1.0 - delta), kind)
        t[p, q] = e
    return e


@njit(inline="always")
def credible_upper(tab, n_pos, n_neg):
    """eq. (4): eps(delta), the credible upper bound of the heterogeneity (the plug-in H for a
    plug-in table)."""
    return _table(tab, False, n_pos, n_neg)


@njit(inline="always")
def credible_lower(tab, n_pos, n_neg):
    """eps(1 - delta), the credible lower bound of the heterogeneity."""
    return _table(tab, True, n_pos, n_neg)


@njit(cache=True)
def het_range(kind):
    """H(1/2): the range of the heterogeneity (Hoeffding's R)."""
    return heterogeneity_nb(0.5, kind)


@njit(cache=True)
def risk_upper_eq7(n_pos, n_neg, delta2, weight):
    """001 eq. (7): credible upper bound of a leaf's risk (predicts 1 when n_pos >= n_neg)."""
    a = n_pos + 1.0
    b = n_neg + 1.0
    if n_pos >= n_neg:
        return weight * betaincinv_nb(b, a, 1.0 - delta2)
    return weight * betaincinv_nb(a, b, 1.0 - delta2)


# ---------------------------------------------------------------------------- store set-up
@njit(cache=True)
def sync_sorted(S):
    """Fill the sorted copies (``vals``, ``labs``, ``wsort``) and ``pos`` from ``order``."""
    d, n = S.order.shape
    for a in range(d):
        for k in range(n):
            r = S.order[a, k]
            S.vals[a, k] = S.X[r, a]
            S.labs[a, k] = S.y[r]
            S.wsort[a, k] = S.w[r]
            S.pos[a, r] = k


@njit(cache=True)
def reset_tree(T):
    """Make ``T`` a one-leaf tree again (rows are reused from 0)."""
    for i in range(T.meta.shape[0]):
        T.meta[i] = 0
    root = alloc_node(T)
    init_leaf(T, root, -1, 0)
    T.roots[0] = root
    T.meta[M_ROOT] = root
    return root


@njit(cache=True)
def store_root(T, S):
    """Put every row of the store in the root's segment (after :func:`reset_tree`)."""
    root = T.meta[M_ROOT]
    n = S.X.shape[0]
    S.lo[root] = 0
    S.hi[root] = n
    w = 0.0
    unl = 0
    for i in range(n):
        S.leaf[i] = root
        w += S.w[i]
        if S.y[i] < 0:
            unl += 1
    S.node_w[root] = w
    S.n_unlabelled[root] = unl


@njit(cache=True)
def partition(T, S, node, j, cut):
    """Split the segments of ``node`` stably into ``x[j] <= cut`` then the rest; returns the
    number of rows on the left.  Children rows must exist (``T.children[node]``)."""
    lo = S.lo[node]
    hi = S.hi[node]
    d = S.X.shape[1]
    n_left = 0
    for a in range(d):
        nl = 0
        nr = 0
        for k in range(lo, hi):
            r = S.order[a, k]
            if S.X[r, j] <= cut:
                S.order[a, lo + nl] = r
                nl += 1
            else:
                S.buf[nr] = r
                nr += 1
        for k in range(nr):
            S.order[a, lo + nl + k] = S.buf[k]
        for k in range(lo, hi):
            r = S.order[a, k]
            S.vals[a, k] = S.X[r, a]
            S.labs[a, k] = S.y[r]
            S.wsort[a, k] = S.w[r]
            S.pos[a, r] = k
        n_left = nl
    c0 = T.children[node, 0]
    c1 = T.children[node, 1]
    S.lo[c0] = lo
    S.hi[c0] = lo + n_left
    S.lo[c1] = lo + n_left
    S.hi[c1] = hi
    for c in (c0, c1):
        w = 0.0
        unl = 0
        for k in range(S.lo[c], S.hi[c]):
            r = S.order[0, k]
            S.leaf[r] = c
            w += S.w[r]
            if S.y[r] < 0:
                unl += 1
        S.node_w[c] = w
        S.n_unlabelled[c] = unl
    return n_left


@njit(cache=True)
def install_test(T, S, node, j, cut):
    """Turn leaf ``node`` into the test ``x[j] <= cut`` with two leaves holding its rows."""
    T.kind[node] = NUMERIC
    T.feature[node] = j
    T.threshold[node] = cut
    T.n_children[node] = 2
    T.t_split[node] = T.meta[M_T]
    T.meta[M_N_SPLITS] += 1
    if T.active[node] == 1:
        T.meta[M_N_ACTIVE] -= 1
    T.active[node] = 0
    T.meta[M_N_LEAVES] -= 1
    for b in range(2):
        c = alloc_node(T)
        init_leaf(T, c, node, T.depth[node] + 1)
        T.children[node, b] = c
    partition(T, S, node, j, cut)
    for b in range(2):
        c = T.children[node, b]
        for k in range(S.lo[c], S.hi[c]):
            r = S.order[0, k]
            if S.y[r] >= 0:
                T.class_counts[c, S.y[r]] += 1.0


# ---------------------------------------------------------------------------- split search
@njit(inline="always")
def _children_score(tab, pl, nl, wl, pr, nr, wr):
    """W_1 eps_1(delta) + W_2 eps_2(delta) (plug-in H for the Hoeffding baseline's table)."""
    return wl * credible_upper(tab, pl, nl) + wr * credible_upper(tab, pr, nr)


@njit(cache=True)
def node_weight(S, bp, T, node):
    if int(bp[BP_WMODE]) == W_POOL:
        return S.node_w[node]
    return T.class_counts[node, 0] + T.class_counts[node, 1]


@njit(cache=True)
def best_split(T, S, tab, bp, node):
    """Exhaustive search of Fig. 3 at leaf ``node``.

    Returns ``(feature, cut, score, quantity, threshold)``: the test with the lowest score (the
    children's weighted credible upper bounds ``W_1 eps_1(delta) + W_2 eps_2(delta)``; for the
    Hoeffding baseline their weighted plug-in heterogeneities), and the rule's two numbers: the
    leaf splits when ``quantity > threshold``.  ``feature = -1`` when there is no candidate
    (fewer than two distinct labelled values on every attribute)."""
    n_pos = T.class_counts[node, 1]
    n_neg = T.class_counts[node, 0]
    wmode = int(bp[BP_WMODE])
    w_node = node_weight(S, bp, T, node)
    lo = S.lo[node]
    hi = S.hi[node]
    d = S.X.shape[1]
    best_j = -1
    best_cut = np.nan
    best = np.inf
    for a in range(d):
        pl = 0.0
        nl = 0.0
        wl = 0.0
        ptr = lo
        have_prev = False
        prev = 0.0
        for k in range(lo, hi):
            lab = S.labs[a, k]
            if lab < 0:
                continue
            v = S.vals[a, k]
            if have_prev and v > prev:
                cut = 0.5 * (prev + v)
                if cut >= v:  # neighbouring doubles: the midpoint rounds onto v
                    cut = prev
                if wmode == W_POOL:
                    while ptr < hi and S.vals[a, ptr] <= cut:
                        wl += S.wsort[a, ptr]
                        ptr += 1
                    wr = w_node - wl
                else:
                    wl = pl + nl
                    wr = w_node - wl
                c = _children_score(tab, pl, nl, wl, n_pos - pl, n_neg - nl, wr)
                if c < best:
                    best = c
                    best_j = a
                    best_cut = cut
            if lab == 1:
                pl += 1.0
            else:
                nl += 1.0
            prev = v
            have_prev = True
    if best_j < 0 or w_node <= 0.0:
        return best_j, best_cut, best, 0.0, np.inf
    kind = int(bp[BP_HET])
    if int(bp[BP_BOUND]) == _BOUND_HOEFFDING:
        # 001's baseline: best vs no split, G = H(parent) - score / W_p > Hoeffding's eps
        gain = credible_upper(tab, n_pos, n_neg) - best / w_node
        r = het_range(kind)
        eps = math.sqrt(r * r * math.log(1.0 / bp[BP_DELTA]) / (2.0 * (n_pos + n_neg)))
        return best_j, best_cut, best, gain, eps
    lower = w_node * credible_lower(tab, n_pos, n_neg)
    upper = w_node * credible_upper(tab, n_pos, n_neg)
    q, t = credible_quantity(int(bp[BP_RULE]), lower, upper, best)
    return best_j, best_cut, best, q, t


@njit(cache=True)
def update(T, S, tab, bp, node, log):
    """Fig. 3's UpdateTree from leaf ``node``: install the best test while the rule holds, then
    update the new children at once.  Split nodes go to ``log`` (creation order); returns their
    number."""
    n_log = 0
    stack = np.empty(2 * S.X.shape[0] + 2, np.int64)
    top = 0
    stack[top] = node
    top += 1
    while top > 0:
        top -= 1
        s = stack[top]
        j, cut, score, q, t = best_split(T, S, tab, bp, s)
        if j < 0 or not q > t:
            continue
        install_test(T, S, s, j, cut)
        if n_log < log.shape[0]:
            log[n_log] = s
        n_log += 1
        stack[top] = T.children[s, 1]
        top += 1
        stack[top] = T.children[s, 0]
        top += 1
    return n_log


@njit(cache=True)
def label_row(T, S, tab, bp, i, code, log):
    """Row ``i`` of the store receives label ``code``: counts along its path, then Fig. 3 at its
    leaf.  Returns the number of tests installed."""
    S.y[i] = code
    if int(bp[BP_WMODE]) == W_LABELLED:
        S.w[i] = 1.0
    for a in range(S.order.shape[0]):
        k = S.pos[a, i]
        S.labs[a, k] = code
        S.wsort[a, k] = S.w[i]
    node = S.leaf[i]
    T.meta[M_T] += 1
    s = node
    while s >= 0:
        T.class_counts[s, code] += 1.0
        S.n_unlabelled[s] -= 1
        if int(bp[BP_WMODE]) == W_LABELLED:
            S.node_w[s] += 1.0
        s = T.parent[s]
    return update(T, S, tab, bp, node, log)


@njit(cache=True)
def label_rows(T, S, tab, bp, rows, codes):
    """Label ``rows`` in order (the learner's ``partial_fit``)."""
    log = np.empty(0, np.int64)
    for k in range(rows.shape[0]):
        label_row(T, S, tab, bp, rows[k], codes[k], log)


@njit(cache=True)
def replay_tree(T, S):
    """Distribute a new store's rows down the existing tree of ``T`` (segments, ``W_s`` and the
    labelled counts): a ``partial_fit`` that adds rows builds a store and replays the tree."""
    root = T.meta[M_ROOT]
    n = S.X.shape[0]
    store_root(T, S)
    stack = np.empty(T.kind.shape[0] + 1, np.int64)
    top = 0
    stack[top] = root
    top += 1
    while top > 0:
        top -= 1
        s = stack[top]
        if T.kind[s] == LEAF:
            continue
        partition(T, S, s, T.feature[s], T.threshold[s])
        for b in range(2):
            stack[top] = T.children[s, b]
            top += 1
    for i in range(T.class_counts.shape[0]):
        T.class_counts[i, 0] = 0.0
        T.class_counts[i, 1] = 0.0
    for i in range(n):
        if S.y[i] >= 0:
            s = S.leaf[i]
            while s >= 0:
                T.class_counts[s, S.y[i]] += 1.0
                s = T.parent[s]


@njit(cache=True)
def predict_codes(T, X, out, proba):
    """Majority label of the leaf each row reaches (ties and empty leaves: 1, 001's round
    operator), and the posterior mean of P(y = 1) (uniform prior) into ``proba``."""
    root = T.meta[M_ROOT]
    for i in range(X.shape[0]):
        s = root
        while T.kind[s] != LEAF:
            s = T.children[s, 0] if X[i, T.feature[s]] <= T.threshold[s] else T.children[s, 1]
        p = T.class_counts[s, 1]
        q = T.class_counts[s, 0]
        out[i] = 1 if p >= q else 0
        proba[i] = (p + 1.0) / (p + q + 2.0)
