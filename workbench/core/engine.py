"""The batch kernels: learning, test-then-train and prediction over whole arrays, in numba.

Every kernel takes the tree (:class:`~workbench.core.state.TreeState`), the policy
(:class:`~workbench.core.params.Config`), the data, and a start index.  A kernel that needs more
rows than the arrays hold returns the index it reached; the Python layer doubles the arrays
(:func:`workbench.core.state.grow`) and calls it again from there.  Learning therefore never
calls back into Python per instance, and the arrays never move while a kernel runs.

Leaf predictors (written out inside :func:`run_stream`):

* majority class (MC): the leaf's class distribution, normalised.
* naive Bayes (NB): P(k | x) proportional to P(k) prod_j P(x_j | k), with the leaf's class
  counts as prior, a Gaussian per (numeric feature, class) and Laplace-smoothed counts
  ``(n_vk + 1) / (n_k + V)`` per (nominal feature, value, class); missing features are left out
  of the product.  A class the leaf's observers never saw gets probability 0, and a Gaussian
  with no spread has density 1 at its mean and 0 elsewhere (as in MOA).  Computed in log space:
  the Gaussian terms are accumulated as a sum of squared z-scores and a product of variances, so
  a prediction costs one logarithm per class rather than one per (feature, class).  If every
  class gets probability 0, the leaf falls back to MC.
* adaptive naive Bayes (NBA, Gama et al. 2003; MOA's and River's default): each leaf counts how
  often MC and NB would have been right on the instances it learned, and predicts with NB
  unless MC has been right more often.

Ties between classes go to the lowest class index, as in MOA.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from .observers import LOG_SQRT_2PI
from .params import LEAF_MC, LEAF_NB, LEAF_NBA, P_GRACE, P_LEAF_PRED, P_NB_THRESHOLD
from .routing import route, route_inline, walk
from ..active.strategies import C_DRIFTS, C_QUERIED, C_SEEN, C_WARNINGS, decide
from ..drift.ddm import ddm_reset, ddm_step
from .split import (SPLIT_MARGIN, SPLIT_TIE, alloc_node, alloc_slot, apply_split, init_leaf,
                    reset_tree, split_decision)
from .state import (M_FREE_NODES, M_FREE_SLOTS, M_N_LEAVES, M_N_NODES, M_N_SLOTS, M_ROOT,
                    M_T)

# slots of the ``control`` vector of run_stream
A_CODE = 0        # strategy code (workbench.active), -1: every label is used (FULL)
A_BUDGET = 1      # B: the query rate may not exceed it
A_DDM = 2         # 0: no drift detection, 1: DDM on every labelled instance, 2: only on the
                  #    random sub-stream (Split strategies)
A_DDM_MIN = 3     # DDM's minimum number of instances
A_DDM_STRICT = 4  # 1: MOA's strict comparisons
N_ACTIVE = 5
N_SPARAMS_MAX = 4


@njit(cache=True)
def init_root(T):
    root = alloc_node(T)
    init_leaf(T, root, -1, 0)
    T.meta[M_ROOT] = root
    return root


@njit(cache=True, no_cpython_wrapper=True)
def attempt_split(T, C, leaf, merits, cuts, post):
    """Run the split test at ``leaf`` and split it if the test says so (the rare, cold path)."""
    outcome, b1, _b2, _eps = split_decision(T, C, leaf, merits, cuts, post)
    if outcome == SPLIT_MARGIN or outcome == SPLIT_TIE:
        return apply_split(T, C, leaf, b1, cuts[b1], post)
    return False


@njit(cache=True)
def run_stream(T, C, X, y, start, learn, pred, proba, leaves, every, control, sparams, sstate,
               rng, ddm, counters, queried):
    """Route, predict and/or learn rows ``start..n-1`` of X, in order; the one per-instance loop.

    learn   learn (X[i], y[i]) after predicting it (y is ignored when False)
    pred    if non-empty, the prediction for row i goes to ``pred[i]`` (made before learning it)
    proba   if non-empty [n, K], the class probabilities for row i go to ``proba[i]``
    leaves  if non-empty, the number of leaves after every ``every`` rows
    control None for the FULL setting (every label is used; numba then compiles a variant
            without any of the code below), or a vector (``A_*`` slots): with a strategy
            code >= 0 this is the ACTIVE setting
            of 000 Algorithm 3: while ``queried + 1 <= B * seen`` the strategy
            (:func:`workbench.active.decide`, parameters ``sparams``, state ``sstate``, random
            state ``rng``) decides whether the label is asked; only asked labels are learned.
            With DDM on (state ``ddm``), the errors of labelled instances feed it and a drift
            resets the tree.  ``counters`` (``C_*``) accumulate; ``queried[i]`` (if non-empty)
            is 1 for a labelled row.

    Returns the index reached: less than n when the arrays must grow before the next row.

    The leaf predictors (see the module docstring) and the leaf update are written out in this
    one loop rather than called per instance: numba keeps a reference to every array a large
    jitted function receives for the duration of each call, and those atomic counter updates
    cost more than the work itself.  Only the rare events (a new statistics slot, a split
    attempt) are calls.
    """
    n, d = X.shape
    K = T.class_counts.shape[1]
    # unpack once: the loop then touches plain local arrays
    kind = T.kind
    feature = T.feature
    threshold = T.threshold
    n_children = T.n_children
    children = T.children
    class_counts = T.class_counts
    stats_slot = T.stats_slot
    active = T.active
    last_eval = T.last_eval
    mc_correct = T.mc_correct
    nb_correct = T.nb_correct
    g_w = T.g_w
    g_mean = T.g_mean
    g_m2 = T.g_m2
    g_min = T.g_min
    g_max = T.g_max
    nom = T.nom
    nom_w = T.nom_w
    meta = T.meta
    nom_index = C.nom_index
    nom_card = C.nom_card
    mode = int(C.params[P_LEAF_PRED])
    nb_threshold = C.params[P_NB_THRESHOLD]
    grace = C.params[P_GRACE]
    has_nominal = nom_card.shape[0] > 0
    out = np.empty(K)
    buf = np.empty(K)
    merits = np.empty(d)
    cuts = np.empty(d)
    post = np.empty((max(children.shape[1], 2), K))
    n_cap = kind.shape[0]
    s_cap = g_w.shape[0]
    branch = children.shape[1]
    want_pred = pred.shape[0] > 0
    want_proba = proba.shape[0] > 0
    want_leaves = leaves.shape[0] > 0
    need_nb_scores = learn and mode == LEAF_NBA
    predicting = want_pred or want_proba or need_nb_scores
    if control is None:
        # FULL setting.  ``control`` typed None makes numba prune every ``control is not None``
        # branch below, so this variant of the kernel never compiles the strategies, DDM and
        # the tree reset: a quarter less compile time on first use
        code = -1
        budget = 1.0
        ddm_mode = 0
        ddm_min = 0
        ddm_strict = False
    else:
        code = int(control[A_CODE])
        budget = control[A_BUDGET]
        ddm_mode = int(control[A_DDM])
        ddm_min = int(control[A_DDM_MIN])
        ddm_strict = control[A_DDM_STRICT] > 0
    want_queried = queried.shape[0] > 0
    if code >= 0 or ddm_mode > 0:
        predicting = True
    need_probs = want_proba or code >= 0     # class probabilities, not only the argmax
    countdown = every - start % every        # rows until the next leaves sample
    for i in range(start, n):
        if learn and (n_cap - meta[M_N_NODES] + meta[M_FREE_NODES] < branch or
                      s_cap - meta[M_N_SLOTS] + meta[M_FREE_SLOTS] < 1):
            return i     # no room for a split or a new statistics slot: grow first
        leaf, _depth = route_inline(kind, feature, threshold, children, n_children,
                                    class_counts, meta[M_ROOT], X, i, False, None)
        mc_pred = 0
        nb_pred = 0
        p = 0
        p_first = 0
        rep_pred_conf = -1.0
        if predicting:
            # ---------------- leaf predictors: majority class, naive Bayes, adaptive NB
            for rep in range(2):
                total = 0.0
                for k in range(K):
                    total += class_counts[leaf, k]
                mc_pred = 0     # argmax of the counts (ties: lowest class)
                for k in range(1, K):
                    if class_counts[leaf, k] > class_counts[leaf, mc_pred]:
                        mc_pred = k
                if need_probs or want_proba:
                    for k in range(K):
                        out[k] = class_counts[leaf, k] / total if total > 0.0 else 1.0 / K
                p = mc_pred
                nb_pred = mc_pred
                if mode != LEAF_MC and total > 0.0 and total >= nb_threshold:
                    s = stats_slot[leaf]
                    top = -np.inf
                    nb_pred = 0
                    inv_total = 1.0 / total
                    for k in range(K):
                        ck = class_counts[leaf, k]
                        logv = -np.inf
                        if ck > 0.0 and s < 0:
                            logv = math.log(ck / total)
                        elif ck > 0.0:
                            quad = 0.0
                            piv = 1.0   # product of 1/variance, renormalised into lpiv
                            lpiv = 0.0
                            pn = 1.0    # product of nominal likelihoods, into lpn
                            lpn = 0.0
                            n_gauss = 0
                            dead = False
                            for j in range(d):
                                xj = X[i, j]
                                if dead or math.isnan(xj):
                                    continue
                                m = nom_index[j]
                                if m >= 0:
                                    nk = nom_w[s, m, k]
                                    if nk <= 0.0:
                                        dead = True
                                    else:
                                        card = nom_card[m]
                                        v = int(xj)
                                        c = 0.0
                                        if 0 <= v < card and v == xj:
                                            c = nom[s, m, v, k]
                                        pn *= (c + 1.0) / (nk + card)
                                        if pn < 1e-50:
                                            lpn += math.log(pn)
                                            pn = 1.0
                                else:
                                    w = g_w[s, j, k]
                                    m2 = g_m2[s, j, k]
                                    diff = xj - g_mean[s, j, k]
                                    if w <= 0.0:
                                        dead = True
                                    elif w > 1.0 and m2 > 0.0:
                                        # z^2 = diff^2 / var, var = m2 / (w - 1): one division
                                        inv_var = (w - 1.0) / m2
                                        quad += diff * diff * inv_var
                                        piv *= inv_var
                                        if piv > 1e50 or piv < 1e-50:
                                            lpiv += math.log(piv)
                                            piv = 1.0
                                        n_gauss += 1
                                    elif diff != 0.0:
                                        dead = True
                            if not dead:
                                # one logarithm per class: log(prior) + log(pn)
                                # + log(prod 1/var) / 2, factors kept in [1e-50, 1e50]
                                r = ck * inv_total * pn
                                logv = 0.5 * math.log(r * r * piv) + lpn + 0.5 * lpiv \
                                    - n_gauss * LOG_SQRT_2PI - 0.5 * quad
                        buf[k] = logv
                        if logv > top:
                            top = logv
                            nb_pred = k
                    if top > -np.inf:  # else NB gives every class 0: fall back to MC
                        if mode == LEAF_NB or (mode == LEAF_NBA and
                                               mc_correct[leaf] <= nb_correct[leaf]):
                            p = nb_pred
                            if need_probs:   # the exponentials only when asked for
                                norm = 0.0
                                for k in range(K):
                                    buf[k] = math.exp(buf[k] - top)
                                    norm += buf[k]
                                for k in range(K):
                                    out[k] = buf[k] / norm
                    else:
                        nb_pred = mc_pred
                if rep == 0:
                    p_first = p
                    rep_pred_conf = out[p]
                    if want_pred:
                        pred[i] = p
                    if want_proba:
                        for k in range(K):
                            proba[i, k] = out[k]
                # learning may route an unseen nominal code to its own, still empty branch:
                # score the predictors of the leaf that actually learns
                if not (learn and has_nominal):
                    break
                leaf_l, _depth = route(kind, feature, threshold, children, n_children,
                                       class_counts, meta[M_ROOT], X, i, True, None)
                if leaf_l == leaf:
                    break
                leaf = leaf_l
        if not learn:
            continue
        # ---------------- ACTIVE setting: ask for the label?  (and drift detection)
        if control is not None:   # (pruned by numba in the FULL setting)
            counters[C_SEEN] += 1
            from_random = True
            if code >= 0:
                labelled = False
                if counters[C_QUERIED] + 1 <= budget * counters[C_SEEN]:
                    m_leaf = 0.0
                    top_count = 0.0
                    for k in range(K):
                        m_leaf += class_counts[leaf, k]
                        if class_counts[leaf, k] > top_count:
                            top_count = class_counts[leaf, k]
                    gap = abs(top_count / m_leaf - 0.5) if m_leaf > 0.0 else 0.0
                    labelled, from_random = decide(code, sparams, sstate, rng, budget,
                                                   rep_pred_conf, gap, m_leaf,
                                                   float(counters[C_SEEN]))
                if not labelled:
                    if want_leaves:
                        countdown -= 1
                        if countdown == 0:
                            countdown = every
                            leaves[(i + 1) // every - 1] = meta[M_N_LEAVES]
                    continue
                counters[C_QUERIED] += 1
                if want_queried:
                    queried[i] = 1
            if ddm_mode == 1 or (ddm_mode == 2 and from_random):
                warning, drift = ddm_step(ddm, 1.0 if p_first != y[i] else 0.0, ddm_min,
                                          ddm_strict)
                if warning:
                    counters[C_WARNINGS] += 1
                if drift:
                    ddm_reset(ddm)
                    reset_tree(T)
                    counters[C_DRIFTS] += 1
                    leaf, _depth = route(kind, feature, threshold, children, n_children,
                                         class_counts, meta[M_ROOT], X, i, True, None)
                    mc_pred = -1
                    nb_pred = -1
        if has_nominal and not predicting:
            leaf, _depth = route(kind, feature, threshold, children, n_children, class_counts,
                                 meta[M_ROOT], X, i, True, None)
        # ---------------- learn at the leaf
        c = y[i]
        meta[M_T] += 1
        if mode == LEAF_NBA:
            if mc_pred == c:
                mc_correct[leaf] += 1.0
            if nb_pred == c:
                nb_correct[leaf] += 1.0
        class_counts[leaf, c] += 1.0
        if active[leaf] == 1:
            s = stats_slot[leaf]
            if s < 0:
                s = alloc_slot(T)
                stats_slot[leaf] = s
            for j in range(d):
                xj = X[i, j]
                if math.isnan(xj):
                    continue
                m = nom_index[j]
                if m >= 0:
                    nom[s, m, int(xj), c] += 1.0
                    nom_w[s, m, c] += 1.0
                else:  # West's weighted Welford update (observers.gaussian_update), weight 1
                    w0 = g_w[s, j, c]
                    if w0 > 0.0:
                        w1 = w0 + 1.0
                        mean0 = g_mean[s, j, c]
                        mean1 = mean0 + (xj - mean0) / w1
                        g_m2[s, j, c] += (xj - mean0) * (xj - mean1)
                        g_mean[s, j, c] = mean1
                        g_w[s, j, c] = w1
                    else:
                        g_w[s, j, c] = 1.0
                        g_mean[s, j, c] = xj
                        g_m2[s, j, c] = 0.0
                    if xj < g_min[s, j, c]:
                        g_min[s, j, c] = xj
                    if xj > g_max[s, j, c]:
                        g_max[s, j, c] = xj
            total = 0.0
            for k in range(K):
                total += class_counts[leaf, k]
            if total - last_eval[leaf] >= grace:
                last_eval[leaf] = total
                attempt_split(T, C, leaf, merits, cuts, post)
        if want_leaves:       # a countdown: an integer modulo per instance costs more
            countdown -= 1
            if countdown == 0:
                countdown = every
                leaves[(i + 1) // every - 1] = meta[M_N_LEAVES]
    return n


_NO_INT = np.empty(0, np.int64)
_NO_INT8 = np.empty(0, np.int8)
_NO_FLOAT = np.empty((0, 0))
_NO_F1 = np.zeros(N_SPARAMS_MAX)
_NO_RNG = np.zeros(4, np.uint64)


def _full_extras():
    """Arguments that switch the ACTIVE and drift parts off."""
    return None, _NO_F1, np.ones(1), _NO_RNG, np.zeros(4), np.zeros(4, np.int64), _NO_INT8


def learn(T, C, X, y, start):
    """Learn rows ``start..`` of (X, y); returns the index reached."""
    return run_stream(T, C, X, y, start, True, _NO_INT, _NO_FLOAT, _NO_INT, 1, *_full_extras())


def prequential(T, C, X, y, start, pred, leaves, every, control=None, sparams=None,
                sstate=None, rng=None, ddm=None, counters=None, queried=None):
    """Test-then-train rows ``start..``: ``pred[i]`` is predicted before row i is learned
    (FULL setting; with the ``active`` arguments, the ACTIVE setting)."""
    extras = _full_extras()
    if control is not None:
        extras = (control, sparams, sstate, rng, ddm, counters, queried)
    return run_stream(T, C, X, y, start, True, pred, _NO_FLOAT, leaves, every, *extras)


def predict(T, C, X, pred):
    run_stream(T, C, X, _NO_INT, 0, False, pred, _NO_FLOAT, _NO_INT, 1, *_full_extras())


def predict_proba(T, C, X, proba):
    run_stream(T, C, X, _NO_INT, 0, False, _NO_INT, proba, _NO_INT, 1, *_full_extras())


@njit(cache=True)
def apply_batch(T, X, out):
    """Leaf reached by every row of X (prediction routing) into ``out`` [n]."""
    for i in range(X.shape[0]):
        out[i] = walk(T, X, i, False, None)[0]
