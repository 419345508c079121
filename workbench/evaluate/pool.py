r"""001's pool-based protocol (Sec. V-b) and its toy problem (Sec. V-a), one numba kernel per
batch of runs.

Real data (:func:`pool_curves`): each run shuffles the data set, takes the first half as the pool
and the rest as the test set, and labels pool rows one at a time, in random order (BOCT, the
Hoeffding baseline) or where BOCT-AL sends its query (Fig. 4: the leaf with the largest credible
upper bound of its risk, eq. 7, then a random unlabelled pool row inside it), until the pool is
exhausted.  After every label the test error of the tree is recorded.  The unlabelled pool gives
:math:`W_s` (eq. 5).  The test rows are kept in per-leaf segments that a split partitions, so the
test error is updated from the leaf that changed, not recomputed over the test set.

Toy problem (:func:`toy_curves`): no instances; a label comes from a predefined cell drawn with
probability proportional to its size among the cells below the queried subset (all cells for a
passive learner), and the learners only decide whether to install each predefined test.  The
exact true risk is recorded after every label.

Learner codes: ``BOCT`` (passive), ``BOCT_AL``, ``HOEFFDING`` (passive), ``MBINOMIAL`` (toy
only: active learning on the fixed partition of the predefined nodes at one depth, after [13]).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..bounds._beta import betaincinv_nb
from ..core import state as st
from ..core import stored as sd
from ..core.params import BOUND_CREDIBLE, BOUND_HOEFFDING
from ..core.rules import credible_quantity
from ..bounds.credible import HETEROGENEITY_CODES, heterogeneity_nb

BOCT = 0
BOCT_AL = 1
HOEFFDING = 2
MBINOMIAL = 3
LEARNER_CODES = {"BOCT": BOCT, "BOCT-AL": BOCT_AL, "Hoeffding": HOEFFDING, "mbinomial": MBINOMIAL}


# ---------------------------------------------------------------------------- posterior quantiles
@njit(cache=True)
def quantile_tab(qt, level_col, p, n):
    """The Beta(p+1, n+1) quantile at level ``qt[0, 0, level_col]`` (column 0: delta2, column 1:
    1 - delta2), computed once and kept in ``qt[p + 1, n, level_col]`` (row 0 holds the
    levels; NaN marks an entry not computed yet)."""
    v = qt[p + 1, n, level_col]
    if math.isnan(v):
        v = betaincinv_nb(p + 1.0, n + 1.0, qt[0, 0, level_col])
        qt[p + 1, n, level_col] = v
    return v


def make_quantile_table(delta2: float, max_count: int) -> np.ndarray:
    m = int(max_count) + 1
    qt = np.full((m + 1, m, 2), np.nan)
    qt[0, 0, 0] = delta2
    qt[0, 0, 1] = 1.0 - delta2
    return qt


@njit(cache=True)
def risk_bound(qt, p, n, weight):
    """001 eq. (7) from the table: ``W`` times the posterior (1 - delta2)-quantile of the risk
    of the leaf's prediction (1 when p >= n)."""
    if p >= n:
        return weight * (1.0 - quantile_tab(qt, 0, p, n))
    return weight * quantile_tab(qt, 1, p, n)


@njit(cache=True)
def regret_bound(qt, p, n, weight):
    """mbinomial's index: credible upper bound of the excess risk of the current prediction over
    the best one in the cell, ``W max(0, 1 - 2 mu)`` (predicting 1) or ``W max(0, 2 mu - 1)``."""
    if p >= n:
        return weight * max(0.0, 1.0 - 2.0 * quantile_tab(qt, 0, p, n))
    return weight * max(0.0, 2.0 * quantile_tab(qt, 1, p, n) - 1.0)


# ---------------------------------------------------------------------------- batches
def _run_seeds(seed, n_runs):
    """One seed per run (so results do not depend on how the runs are cut into chunks)."""
    return np.random.SeedSequence(int(seed)).generate_state(n_runs, np.uint64).astype(np.int64) & (
        (1 << 31) - 1
    )


def _in_threads(chunk, n_runs, n_jobs):
    """Run ``chunk(indices)`` over the runs cut into ``n_jobs`` pieces, in threads (the kernels
    release the GIL).  ``n_jobs=None``: the number of cores."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    if n_jobs is None:
        n_jobs = os.cpu_count() or 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)) or n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer or None; got {n_jobs!r}")
    parts = [p for p in np.array_split(np.arange(n_runs), min(int(n_jobs), n_runs)) if len(p)]
    if len(parts) == 1:
        chunk(parts[0])
        return
    with ThreadPoolExecutor(len(parts)) as ex:
        for f in [ex.submit(chunk, p) for p in parts]:
            f.result()


# ---------------------------------------------------------------------------- real data
@njit(cache=True)
def _leaf_error(T, t_pos, t_neg, s):
    if T.class_counts[s, 1] >= T.class_counts[s, 0]:
        return t_neg[s]
    return t_pos[s]


@njit(cache=True)
def _subtree_error(T, t_pos, t_neg, s, stack):
    top = 0
    stack[top] = s
    top += 1
    err = 0
    while top > 0:
        top -= 1
        u = stack[top]
        if T.kind[u] == st.LEAF:
            err += _leaf_error(T, t_pos, t_neg, u)
        else:
            stack[top] = T.children[u, 0]
            top += 1
            stack[top] = T.children[u, 1]
            top += 1
    return err


@njit(cache=True)
def _split_test(T, Xt, yt, t_order, t_lo, t_hi, t_pos, t_neg, buf, node):
    lo = t_lo[node]
    hi = t_hi[node]
    j = T.feature[node]
    cut = T.threshold[node]
    nl = 0
    nr = 0
    for k in range(lo, hi):
        r = t_order[k]
        if Xt[r, j] <= cut:
            t_order[lo + nl] = r
            nl += 1
        else:
            buf[nr] = r
            nr += 1
    for k in range(nr):
        t_order[lo + nl + k] = buf[k]
    for b in range(2):
        c = T.children[node, b]
        t_lo[c] = lo if b == 0 else lo + nl
        t_hi[c] = lo + nl if b == 0 else hi
        p = 0
        for k in range(t_lo[c], t_hi[c]):
            p += yt[t_order[k]]
        t_pos[c] = p
        t_neg[c] = (t_hi[c] - t_lo[c]) - p


@njit(cache=True, inline="always")
def _offer(b, s, best, pick, n_ties):
    """Candidate s, with score b, for the pick of the largest score with ties broken uniformly
    at random (reservoir: the k-th candidate tied at the top takes the pick with probability
    1/k).  Returns the new (best, pick, n_ties)."""
    if b > best:
        return b, s, 1
    if b == best:
        n_ties += 1
        if np.random.randint(n_ties) == 0:
            pick = s
    return best, pick, n_ties


@njit(cache=True)
def _pick_leaf_eq7(T, S, qt):
    """Fig. 4: the leaf with the largest eq. (7) bound among leaves with unlabelled rows (ties at
    random); -1 if none is left."""
    best = -np.inf
    pick = -1
    n_ties = 0
    for s in range(T.meta[st.M_N_NODES]):
        if T.kind[s] != st.LEAF or S.n_unlabelled[s] <= 0:
            continue
        b = risk_bound(qt, int(T.class_counts[s, 1]), int(T.class_counts[s, 0]), S.node_w[s])
        best, pick, n_ties = _offer(b, s, best, pick, n_ties)
    return pick


@njit(cache=True)
def _random_unlabelled(S, s):
    k = np.random.randint(S.n_unlabelled[s])
    for q in range(S.lo[s], S.hi[s]):
        r = S.order[0, q]
        if S.y[r] < 0:
            if k == 0:
                return r
            k -= 1
    return -1


@njit(cache=True, nogil=True)
def pool_batch(X, y, n_pool, learner, bp, qt, seeds, T, S, tab, risk, leaves, perms, orders):
    """``n_runs`` runs of the pool protocol; ``risk[run, t]`` is the test error after ``t``
    labels (``t = 0..n_pool``), ``leaves[run, t]`` the number of leaves.  ``perms`` [n_runs, n]
    and ``orders`` [n_runs, n_pool], if not empty, fix each run's shuffle (pool = the first
    ``n_pool`` rows) and its passive labelling order (positions in the pool).  Run ``r`` draws
    from its own seed ``seeds[r]``, so a batch can be cut into chunks run by threads (the
    kernel releases the GIL; the lazily filled tables ``tab``/``qt`` may be shared: a race
    writes the same number twice)."""
    n_runs = seeds.shape[0]
    n, d = X.shape
    n_test = n - n_pool
    Xt = np.empty((n_test, d))
    yt = np.empty(n_test, np.int64)
    y_pool = np.empty(n_pool, np.int64)
    cap = T.kind.shape[0]
    t_order = np.empty(n_test, np.int64)
    t_lo = np.zeros(cap, np.int64)
    t_hi = np.zeros(cap, np.int64)
    t_pos = np.zeros(cap, np.int64)
    t_neg = np.zeros(cap, np.int64)
    tbuf = np.empty(n_test, np.int64)
    stack = np.empty(cap + 1, np.int64)
    log = np.empty(cap, np.int64)
    for run in range(n_runs):
        np.random.seed(seeds[run])
        perm = np.random.permutation(n) if perms.shape[0] == 0 else perms[run]
        for i in range(n_pool):
            r = perm[i]
            for a in range(d):
                S.X[i, a] = X[r, a]
            y_pool[i] = y[r]
            S.y[i] = -1
            S.w[i] = 1.0
        p_all = 0
        for i in range(n_test):
            r = perm[n_pool + i]
            for a in range(d):
                Xt[i, a] = X[r, a]
            yt[i] = y[r]
            t_order[i] = i
            p_all += y[r]
        for a in range(d):
            S.order[a, :] = np.argsort(S.X[:, a], kind="mergesort")
        sd.sync_sorted(S)
        root = sd.reset_tree(T)
        sd.store_root(T, S)
        t_lo[root] = 0
        t_hi[root] = n_test
        t_pos[root] = p_all
        t_neg[root] = n_test - p_all
        err = _leaf_error(T, t_pos, t_neg, root)
        risk[run, 0] = err / n_test
        leaves[run, 0] = 1
        order = np.random.permutation(n_pool) if orders.shape[0] == 0 else orders[run]
        for t in range(n_pool):
            if learner == BOCT_AL:
                s = _pick_leaf_eq7(T, S, qt)
                i = _random_unlabelled(S, s)
            else:
                i = order[t]
            leaf = S.leaf[i]
            err -= _leaf_error(T, t_pos, t_neg, leaf)
            n_split = sd.label_row(T, S, tab, bp, i, y_pool[i], log)
            for k in range(n_split):
                _split_test(T, Xt, yt, t_order, t_lo, t_hi, t_pos, t_neg, tbuf, log[k])
            err += _subtree_error(T, t_pos, t_neg, leaf, stack)
            risk[run, t + 1] = err / n_test
            leaves[run, t + 1] = T.meta[st.M_N_LEAVES]


def _bp(delta, heterogeneity, rule, hoeffding, pool=True):
    from ..learners.boct import READINGS

    bp = np.zeros(sd.N_BP)
    bp[sd.BP_DELTA] = delta
    bp[sd.BP_HET] = HETEROGENEITY_CODES[heterogeneity]
    bp[sd.BP_RULE] = READINGS[rule]
    bp[sd.BP_BOUND] = BOUND_HOEFFDING if hoeffding else BOUND_CREDIBLE
    bp[sd.BP_WMODE] = sd.W_POOL if pool else sd.W_LABELLED
    return bp


def _check_common(learner, delta, delta2, n_runs, heterogeneity, rule, allowed):
    if learner not in allowed:
        raise ValueError(f"learner must be one of {sorted(allowed)}; got {learner!r}")
    hi = 1.0 if learner == "Hoeffding" else 0.5
    if not (isinstance(delta, (int, float)) and 0.0 < delta < hi):
        raise ValueError(f"delta must be in (0, {hi:g}) for {learner}; got {delta!r}")
    if not (isinstance(delta2, (int, float)) and 0.0 < delta2 < 1.0):
        raise ValueError(f"delta2 must be in (0, 1); got {delta2!r}")
    if isinstance(n_runs, bool) or not isinstance(n_runs, (int, np.integer)) or n_runs < 1:
        raise ValueError(f"n_runs must be a positive integer; got {n_runs!r}")
    if heterogeneity not in HETEROGENEITY_CODES:
        raise ValueError(f"heterogeneity must be one of {list(HETEROGENEITY_CODES)}")
    if rule not in ("figure3", "text"):
        raise ValueError(f"rule must be 'figure3' or 'text'; got {rule!r}")


def pool_runs(
    X,
    y,
    learner="BOCT",
    *,
    delta=0.05,
    delta2=0.05,
    n_runs=100,
    pool_fraction=0.5,
    heterogeneity="entropy",
    rule="figure3",
    seed=0,
    perms=None,
    orders=None,
    n_jobs=None,
):
    """Raw curves of the pool protocol: ``(risk, leaves)``, arrays ``[n_runs, n_pool + 1]``
    (test error and number of leaves after 0, 1, ..., n_pool labels).  ``perms``/``orders``
    (optional) fix the shuffles and the passive labelling orders (see :func:`pool_batch`).
    ``n_jobs`` threads share the runs (None: one per core); every run has its own seed, so the
    result does not depend on ``n_jobs``."""
    _check_common(
        learner, delta, delta2, n_runs, heterogeneity, rule, ("BOCT", "BOCT-AL", "Hoeffding")
    )
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
        raise ValueError(f"X must be [n, d] and y [n]; got {X.shape} and {y.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X holds NaN or infinite values; BOCT needs finite values")
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"the pool protocol is for two classes; y has {len(classes)}")
    y = (y == classes[1]).astype(np.int64)
    if not 0.0 < pool_fraction < 1.0:
        raise ValueError(f"pool_fraction must be in (0, 1); got {pool_fraction!r}")
    n = X.shape[0]
    n_pool = int(round(pool_fraction * n))
    if n_pool < 1 or n - n_pool < 1:
        raise ValueError(f"{n} rows leave an empty pool or test set")
    cap = 2 * n_pool + 3
    tab = sd.make_tables(
        delta, n_pool + 1, HETEROGENEITY_CODES[heterogeneity], learner == "Hoeffding"
    )
    qt = make_quantile_table(delta2, n_pool + 1)
    bp = _bp(delta, heterogeneity, rule, learner == "Hoeffding")
    risk = np.zeros((n_runs, n_pool + 1))
    leaves = np.zeros((n_runs, n_pool + 1), np.int64)
    perms = np.zeros((0, n), np.int64) if perms is None else np.asarray(perms, np.int64)
    orders = np.zeros((0, n_pool), np.int64) if orders is None else np.asarray(orders, np.int64)
    for name, arr, width in (("perms", perms, n), ("orders", orders, n_pool)):
        if arr.shape[0] and (
            arr.shape != (n_runs, width) or np.any(np.sort(arr, 1) != np.arange(width))
        ):
            raise ValueError(f"{name} must hold one permutation of range({width}) per run")
    seeds = _run_seeds(seed, n_runs)

    def chunk(idx):
        T = st.allocate(X.shape[1], 2, 0, 1, 2, node_capacity=cap)
        S = sd.make_store(np.zeros((n_pool, X.shape[1])), np.ones(n_pool), cap)
        sl = slice(idx[0], idx[-1] + 1)
        pool_batch(
            X,
            y,
            n_pool,
            LEARNER_CODES[learner],
            bp,
            qt,
            seeds[sl],
            T,
            S,
            tab,
            risk[sl],
            leaves[sl],
            perms[sl] if perms.shape[0] else perms,
            orders[sl] if orders.shape[0] else orders,
        )

    _in_threads(chunk, n_runs, n_jobs)
    return risk, leaves


def pool_curves(
    X, y, learners=("BOCT", "BOCT-AL", "Hoeffding"), *, deltas=None, n_runs=100, seed=0, **kwargs
):
    """Mean test risk against the number of labels for each learner (001 Fig. 6), a tidy
    DataFrame with columns ``learner, n_labels, risk, risk_se, leaves``.

    ``deltas``: ``{learner: delta}`` or ``{learner: (delta, delta2)}`` (default 0.05).  All
    learners use the same seed, so the same pool/test splits."""
    deltas = deltas or {}
    frames = []
    for name in learners:
        dl = deltas.get(name, 0.05)
        d1, d2 = dl if isinstance(dl, tuple) else (dl, 0.05)
        risk, leaves = pool_runs(
            X, y, name, delta=d1, delta2=d2, n_runs=n_runs, seed=seed, **kwargs
        )
        frames.append(_summary(name, risk, leaves))
    import pandas as pd

    return pd.concat(frames, ignore_index=True)


def _summary(name, risk, leaves):
    import pandas as pd  # only here: importing evaluate does not import pandas

    n_runs = risk.shape[0]
    return pd.DataFrame(
        dict(
            learner=name,
            n_labels=np.arange(risk.shape[1]),
            risk=risk.mean(axis=0),
            risk_se=risk.std(axis=0, ddof=1) / np.sqrt(n_runs) if n_runs > 1 else np.nan,
            leaves=leaves.mean(axis=0),
        )
    )


# ---------------------------------------------------------------------------- toy problem
@njit(cache=True)
def _toy_label(node, W, mu, cnt, first_leaf):
    """A label from a cell below predefined node ``node`` (equal cells: uniform); counts go to
    every predefined node on the cell's path."""
    lo = node
    hi = node
    while lo < first_leaf:
        lo = 2 * lo + 1
        hi = 2 * hi + 2
    cell = lo + np.random.randint(hi - lo + 1)
    yv = 1 if np.random.random() < mu[cell - first_leaf] else 0
    s = cell
    while True:
        cnt[s, yv] += 1
        if s == 0:
            break
        s = (s - 1) // 2
    return cell


@njit(cache=True)
def _toy_should_split(s, cnt, W, tab, bp):
    c1 = 2 * s + 1
    c2 = 2 * s + 2
    kind = int(bp[sd.BP_HET])
    p, q = cnt[s, 1], cnt[s, 0]
    if int(bp[sd.BP_BOUND]) == BOUND_HOEFFDING:
        n = p + q
        if n < 1:
            return False
        score = W[c1] * sd.credible_upper(tab, cnt[c1, 1], cnt[c1, 0]) + W[c2] * sd.credible_upper(
            tab, cnt[c2, 1], cnt[c2, 0]
        )
        gain = sd.credible_upper(tab, p, q) - score / W[s]
        r = heterogeneity_nb(0.5, kind)
        return gain > math.sqrt(r * r * math.log(1.0 / bp[sd.BP_DELTA]) / (2.0 * n))
    score = W[c1] * sd.credible_upper(tab, cnt[c1, 1], cnt[c1, 0]) + W[c2] * sd.credible_upper(
        tab, cnt[c2, 1], cnt[c2, 0]
    )
    lower = W[s] * sd.credible_lower(tab, p, q)
    upper = W[s] * sd.credible_upper(tab, p, q)
    qq, tt = credible_quantity(int(bp[sd.BP_RULE]), lower, upper, score)
    return qq > tt


@njit(cache=True)
def _toy_risk(installed, cnt, W, m1, n_nodes, fixed_depth, depth):
    """Exact risk of the learned partition (fixed_depth < 0) or of the fixed partition."""
    r = 0.0
    for s in range(n_nodes):
        if fixed_depth >= 0:
            is_leaf = depth[s] == fixed_depth
        else:
            is_leaf = installed[s] == 0 and (s == 0 or installed[(s - 1) // 2] == 1)
        if is_leaf:
            if cnt[s, 1] >= cnt[s, 0]:
                r += W[s] - m1[s]
            else:
                r += m1[s]
    return r


@njit(cache=True, nogil=True)
def toy_batch(W, m1, mu, depth, learner, bp, qt, fixed_depth, n_labels, seeds, tab, risk, leaves):
    """One run per seed of ``seeds``, ``n_labels`` labels each, on the toy problem;
    ``risk[run, t]`` is the exact true risk after ``t`` labels."""
    n_runs = seeds.shape[0]
    n_nodes = W.shape[0]
    first_leaf = (n_nodes - 1) // 2
    cnt = np.zeros((n_nodes, 2), np.int64)
    installed = np.zeros(n_nodes, np.int8)
    stack = np.empty(n_nodes + 1, np.int64)
    for run in range(n_runs):
        np.random.seed(seeds[run])
        cnt[:, :] = 0
        installed[:] = 0
        n_leaves = 1 if fixed_depth < 0 else 2**fixed_depth
        risk[run, 0] = _toy_risk(installed, cnt, W, m1, n_nodes, fixed_depth, depth)
        leaves[run, 0] = n_leaves
        for t in range(n_labels):
            if learner == MBINOMIAL:
                best = -1.0
                pick = -1
                n_ties = 0
                for s in range(n_nodes):
                    if depth[s] != fixed_depth:
                        continue
                    b = regret_bound(qt, cnt[s, 1], cnt[s, 0], W[s])
                    best, pick, n_ties = _offer(b, s, best, pick, n_ties)
                _toy_label(pick, W, mu, cnt, first_leaf)
            else:
                if learner == BOCT_AL:
                    best = -1.0
                    pick = -1
                    n_ties = 0
                    for s in range(n_nodes):
                        if installed[s] == 1 or (s > 0 and installed[(s - 1) // 2] == 0):
                            continue
                        b = risk_bound(qt, cnt[s, 1], cnt[s, 0], W[s])
                        best, pick, n_ties = _offer(b, s, best, pick, n_ties)
                    cell = _toy_label(pick, W, mu, cnt, first_leaf)
                else:
                    cell = _toy_label(0, W, mu, cnt, first_leaf)
                # the learned leaf holding the cell, then Fig. 3 from it
                s = 0
                path = cell
                while installed[s] == 1:
                    # child of s on the way to the cell
                    c = path
                    while (c - 1) // 2 != s:
                        c = (c - 1) // 2
                    s = c
                top = 0
                stack[top] = s
                top += 1
                while top > 0:
                    top -= 1
                    u = stack[top]
                    if u >= first_leaf:
                        continue
                    if _toy_should_split(u, cnt, W, tab, bp):
                        installed[u] = 1
                        n_leaves += 1
                        stack[top] = 2 * u + 2
                        top += 1
                        stack[top] = 2 * u + 1
                        top += 1
            risk[run, t + 1] = _toy_risk(installed, cnt, W, m1, n_nodes, fixed_depth, depth)
            leaves[run, t + 1] = n_leaves


def toy_runs(
    learner="BOCT",
    *,
    delta=0.05,
    delta2=0.05,
    n_runs=100,
    n_labels=1000,
    partition_depth=3,
    heterogeneity="entropy",
    rule="figure3",
    seed=0,
    toy=None,
    n_jobs=None,
):
    """Raw curves on 001's toy problem: ``(risk, leaves)``, arrays ``[n_runs, n_labels + 1]``
    of the exact true risk and the number of leaves after 0..n_labels labels.

    ``learner``: ``"BOCT"``, ``"BOCT-AL"`` (``delta2`` for eq. 7), ``"Hoeffding"`` or
    ``"mbinomial"`` on the fixed partition of the predefined nodes at ``partition_depth``
    (3: mbinomial_8, 6: mbinomial_64; ``delta2`` is its credible level).  ``n_jobs`` as in
    :func:`pool_runs`."""
    from ..streams.toy64 import toy64

    _check_common(learner, delta, delta2, n_runs, heterogeneity, rule, tuple(LEARNER_CODES))
    if isinstance(n_labels, bool) or not isinstance(n_labels, (int, np.integer)) or n_labels < 1:
        raise ValueError(f"n_labels must be a positive integer; got {n_labels!r}")
    toy = toy or toy64()
    max_depth = int(toy.depth.max())
    if learner == "mbinomial" and not (
        isinstance(partition_depth, (int, np.integer)) and 0 <= partition_depth <= max_depth
    ):
        raise ValueError(f"partition_depth must be an integer in [0, {max_depth}]")
    fixed = int(partition_depth) if learner == "mbinomial" else -1
    tab = sd.make_tables(
        delta, n_labels + 1, HETEROGENEITY_CODES[heterogeneity], learner == "Hoeffding"
    )
    qt = make_quantile_table(delta2, n_labels + 1)
    bp = _bp(delta, heterogeneity, rule, learner == "Hoeffding")
    risk = np.zeros((n_runs, n_labels + 1))
    leaves = np.zeros((n_runs, n_labels + 1), np.int64)
    seeds = _run_seeds(seed, n_runs)

    def chunk(idx):
        sl = slice(idx[0], idx[-1] + 1)
        toy_batch(
            toy.W,
            toy.m1,
            toy.mu,
            toy.depth,
            LEARNER_CODES[learner],
            bp,
            qt,
            fixed,
            n_labels,
            seeds[sl],
            tab,
            risk[sl],
            leaves[sl],
        )

    _in_threads(chunk, n_runs, n_jobs)
    return risk, leaves


#: the learners of 001's Fig. 5 on the toy problem: name -> toy_runs arguments
TOY_LEARNERS = {
    "BOCT": dict(learner="BOCT"),
    "BOCT-AL": dict(learner="BOCT-AL"),
    "mbinomial_8": dict(learner="mbinomial", partition_depth=3),
    "mbinomial_64": dict(learner="mbinomial", partition_depth=6),
    "Hoeffding": dict(learner="Hoeffding"),
}


def toy_curves(learners=None, *, n_runs=100, n_labels=1000, seed=0, **kwargs):
    """Mean exact true risk against labels on the toy problem (001 Fig. 5), a tidy DataFrame.

    ``learners``: ``{name: dict(learner=..., delta=..., delta2=..., partition_depth=...)}``;
    default: BOCT, BOCT-AL, mbinomial_8, mbinomial_64 and the Hoeffding baseline at 0.05."""
    if learners is None:
        learners = TOY_LEARNERS
    frames = []
    for name, spec in learners.items():
        risk, leaves = toy_runs(n_runs=n_runs, n_labels=n_labels, seed=seed, **{**kwargs, **spec})
        frames.append(_summary(name, risk, leaves))
    import pandas as pd

    return pd.concat(frames, ignore_index=True)
