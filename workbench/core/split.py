"""Split search, the split decision, and the structural edits of the tree.

Split search (:func:`feature_candidates`): for every feature, the best split a leaf's statistics
suggest and its merit.  Numeric features try the Gaussian observer's candidate cut points; nominal
features one multiway split (one branch per value) and, as MOA's nominal observer does, every
binary test ``x == v`` against the rest, which replaces the multiway split when its merit is
strictly higher (``cuts[j]`` is then ``v``, NaN for a multiway split).  In exact arithmetic a
binary test never gains more than the multiway split; it wins where the multiway split has merit
-inf (fewer than two branches above the minimum branch fraction, while one value against the rest
has two), or by rounding where the two are equal (values with the same class proportions), and
MOA's trees then test ``x == v`` (``binary_nominal=True`` offers binary tests only).

Split decision (:func:`split_decision`): the leaf splits on its best feature when
``G(best) - G(second best) > factor * eps`` or when ``eps < tau`` (tie), with ``eps`` from the
bound policy ``P_BOUND`` (:func:`epsilon_at`).  VFDT (Domingos and Hulten 2000): factor 1 and
the Hoeffding bound ``eps = sqrt(R^2 ln(1/delta) / (2 n))`` (004 eq. (1)), n the leaf's weight
and R the criterion's range.  C-Tree (000 Algorithm 1, line 6, with argmin read for argmax):
factor 2, since each of the two estimates may be off by eps.

Edits: :func:`apply_split` turns a leaf into an inner node with fresh leaves (each starting from
the class distribution the split estimates for it), :func:`deactivate` stops a leaf from
splitting, :func:`release_subtree` returns a subtree's rows to the free lists.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..bounds import (
    BOUND_ENTROPY,
    BOUND_GINI,
    BOUND_KEARNS_MANSOUR,
    ctree_epsilon_nb,
    ctree_practical_nb,
    hoeffding_moa_nb,
    mcdiarmid_entropy_nb,
)
from .analytic import normal_table, slot_cut
from .criteria import LN2, impurity_row, merit_range, moa_entropy_row, split_merit
from .custom import user_epsilon
from .observers import (
    PHI_FAST_ERROR,
    gaussian_binary_dists,
    gaussian_left_weight,
    gaussian_range,
    gaussian_sd,
    log2_fast,
)
from .params import (
    ATTEMPTS_PER_CANDIDATE,
    BOUND_CTREE,
    BOUND_CTREE_PRACTICAL,
    BOUND_HOEFFDING,
    BOUND_MCDIARMID,
    BOUND_USER,
    CRIT_ENTROPY_HALF,
    CRIT_INFO_GAIN,
    CRIT_LAST,
    CRIT_KM,
    CUTS_ANALYTIC,
    CUTS_FIXED,
    CUTS_GAUSSIAN,
    MERITS_MOA,
    NULL_SUM_CLAMPED,
    P_ATTEMPTS,
    P_BINARY_NOMINAL,
    P_BOUND,
    P_C,
    P_CRITERION,
    P_CRITERION_RANGE,
    P_CUTS,
    P_DELTA,
    P_MARGIN_FACTOR,
    P_MAX_DEPTH,
    P_MAX_NODES,
    P_MERITS,
    P_MIN_BRANCH_FRAC,
    P_N_SPLIT_POINTS,
    P_NULL_SUM,
    P_RANGE,
    P_REEVAL_RULE,
    P_SPLIT_RULE,
    P_TAU,
    P_UPDATE,
    P_USED_NOMINAL,
    RANGE_CLASSES,
    RANGE_MOA,
    RULE_BEST_VS_NULL,
    RULE_BEST_VS_SECOND,
    UPDATE_PATH,
)
from .rules import BY_MARGIN, BY_TIE, NULL_GAIN, decide, rule_quantity, tie_floor
from .state import (
    FREE,
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
    M_T,
    NOMINAL_BINARY,
    NOMINAL_MULTI,
    NUMERIC,
)

# outcome codes of split_decision
NO_SPLIT_PURE = 0
NO_SPLIT_NO_CANDIDATE = 1
NO_SPLIT_BOUND = 2
SPLIT_MARGIN = 3
SPLIT_TIE = 4
NO_SPLIT_DEPTH = 5
NO_SPLIT_USED = 6  # the rule says split, on a nominal attribute tested above (P_USED_NOMINAL)

# outcome codes of reevaluate (inner nodes, RULE_BEST_VS_CURRENT)
REEVAL_KEEP = 0  # the current split stays
REEVAL_KILL = 1  # the null split won: the subtree is removed, the node is a leaf again
REEVAL_REPLACE = 2  # another attribute won: the node splits on it, with new leaves


@njit(cache=True, no_cpython_wrapper=True)
def class_len_now(cls_len, class_counts, node):
    """Length of MOA's class-count vector at ``node`` now: the length it had when the node was
    made (``cls_len``) or the highest class it has a count of, plus one.  (It and
    :func:`node_range` take the arrays they read, not the tree: a call that takes the tree costs
    two atomic reference counts per array, and they run at every split attempt.)"""
    L = cls_len[node]
    for k in range(class_counts.shape[1] - 1, L - 1, -1):
        if class_counts[node, k] > 0.0:
            return k + 1
    return L


@njit(cache=True, no_cpython_wrapper=True)
def node_range(params, cls_len, class_counts, kind, node):
    """The range R of the node's merit in the Hoeffding bound.  Information gain:
    ``RANGE_CLASSES``: log2 K; ``RANGE_MOA`` (MOA's ``getRangeOfMerit``): log2 of the length of
    the node's class-count vector, at least 2, at a leaf now, at an inner node when it got its
    test (``classDistributionAtTimeOfCreation``); ``RANGE_CREATED`` (004's code): when the node
    was made, at leaves too.  Other criteria: :func:`workbench.core.criteria.merit_range`."""
    crit = int(params[P_CRITERION])
    policy = int(params[P_RANGE])
    if crit != CRIT_INFO_GAIN or policy == RANGE_CLASSES:
        return merit_range(class_counts.shape[1], crit)
    L = cls_len[node]
    if policy == RANGE_MOA and kind[node] == LEAF:
        L = class_len_now(cls_len, class_counts, node)
    return math.log(max(L, 2)) / LN2  # MOA's Utils.log2


@njit(inline="always")
def epsilon_at(T, C, node, n):
    """Radius of the confidence interval at a node of weight n, per the bound policy
    (:func:`node_epsilon` over the tree's arrays; written into the caller)."""
    return node_epsilon(
        C.params,
        C.nom_index.shape[0],
        T.cls_len,
        T.class_counts,
        T.kind,
        T.depth,
        T.meta[M_T],
        node,
        n,
    )


@njit(inline="always")
def node_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n):
    """Radius of the confidence interval at a node of weight n, per the bound policy, for a
    tree of ``d`` features that has learned ``t_learned`` instances.  The Hoeffding bound is
    computed as MOA computes it, sqrt(R^2 ln(1/delta) / (2 n)), with R from
    :func:`node_range`.  Written into the caller; the bounds it calls take the arrays they read,
    not the tree: a call that takes the tree costs two atomic reference counts per array (see
    :func:`feature_candidates`)."""
    if takes_user_epsilon(params):
        return user_split_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n)
    return builtin_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n)


@njit(cache=True, no_cpython_wrapper=True)
def split_epsilon(T, C, node, n):
    """:func:`epsilon_at` as a call (the forest's kernels)."""
    return epsilon_at(T, C, node, n)


@njit(inline="always")
def takes_user_epsilon(params):
    """A user's bound, or the built-in Hoeffding bound with a user criterion's range."""
    bound = int(params[P_BOUND])
    return bound >= BOUND_USER or (params[P_CRITERION] > CRIT_LAST and bound == BOUND_HOEFFDING)


@njit(cache=True, no_cpython_wrapper=True)
def user_split_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n):
    """:func:`node_epsilon` for a user's bound, or a user criterion's R (custom.py): R is the
    built-in criterion's range as the built-in bounds see it (:func:`node_range`), or the one
    the user gave."""
    crit = int(params[P_CRITERION])
    R = (
        params[P_CRITERION_RANGE]
        if crit > CRIT_LAST
        else node_range(params, cls_len, class_counts, kind, node)
    )
    return user_epsilon(params, d, class_counts.shape[1], depth, t_learned, node, n, R)


@njit(cache=True, no_cpython_wrapper=True)
def builtin_epsilon(params, d, cls_len, class_counts, kind, depth, t_learned, node, n):
    """:func:`epsilon_at` under the built-in bounds (``d`` features, ``t_learned`` instances
    learned by the tree)."""
    bound = int(params[P_BOUND])
    crit = int(params[P_CRITERION])
    n_classes = class_counts.shape[1]
    delta = params[P_DELTA]
    t = max(t_learned, 1)
    if bound == BOUND_MCDIARMID:
        return mcdiarmid_entropy_nb(n, delta, n_classes)
    if bound == BOUND_CTREE:
        if delta <= 0.0:  # Remark 1 of 000: delta = 1/t
            delta = 1.0 / t
        kind_b = BOUND_GINI
        if crit == CRIT_ENTROPY_HALF:
            kind_b = BOUND_ENTROPY
        elif crit == CRIT_KM:
            kind_b = BOUND_KEARNS_MANSOUR
        return ctree_epsilon_nb(n, delta, depth[node], t, d, kind_b)
    if bound == BOUND_CTREE_PRACTICAL:
        return ctree_practical_nb(n, depth[node], t, d, params[P_C])
    R = node_range(params, cls_len, class_counts, kind, node)
    return hoeffding_moa_nb(n, delta, R)


@njit(cache=True, no_cpython_wrapper=True)
def n_observed_classes(class_counts, node):
    c = 0
    for k in range(class_counts.shape[1]):
        if class_counts[node, k] > 0.0:
            c += 1
    return c


@njit(cache=True, no_cpython_wrapper=True)
def nominal_post(nom, s, m, card, post):
    """Class distribution per value of nominal feature m at slot s into ``post[:card]``."""
    for v in range(card):
        for k in range(post.shape[1]):
            post[v, k] = nom[s, m, v, k]


@njit(cache=True, no_cpython_wrapper=True)
def nominal_binary_post(nom, nom_w, s, m, v, post):
    """Class distribution of ``x == v`` (``post[0]``) and of the other values (``post[1]``)."""
    for k in range(post.shape[1]):
        post[0, k] = nom[s, m, v, k]
        post[1, k] = nom_w[s, m, k] - nom[s, m, v, k]


@njit(cache=True, no_cpython_wrapper=True)
def values_seen(nom_nv, s, m):
    """MOA's ``maxAttValsObserved`` of nominal feature m at slot s: the highest code any class
    has shown, plus one."""
    nv = 0.0
    for k in range(nom_nv.shape[2]):
        nv = max(nv, nom_nv[s, m, k])
    return int(nv)


@njit(cache=True, no_cpython_wrapper=True)
def code_weight(nom, s, m, v):
    """Weight of code v of nominal feature m at slot s (all classes)."""
    w = 0.0
    for k in range(nom.shape[3]):
        w += nom[s, m, v, k]
    return w


@njit(cache=True, no_cpython_wrapper=True)
def moa_multiway(nom, s, m, card, post, pre_imp, frac):
    """Information gain of the multiway split on nominal feature m at slot s, as MOA's
    ``InfoGainSplitCriterion`` computes it (each branch's weight, their total, the branches
    above ``frac``, the weighted entropies in branch order); leaves branch b's weight and
    entropy in ``post[b, 0]`` and ``post[b, 1]`` for :func:`moa_binary_from_multiway`."""
    counts = nom[s, m]
    total = 0.0
    weighted = 0.0  # sum of weight x entropy, in branch order
    for b in range(card):
        w = 0.0
        for k in range(counts.shape[1]):
            w += counts[b, k]
        post[b, 0] = w
        post[b, 1] = moa_entropy_row(counts, b)
        total += w
        weighted += w * post[b, 1]
    if total <= 0.0:
        return -np.inf
    big = 0  # branches above the minimum fraction of the weight
    for b in range(card):
        big += post[b, 0] / total > frac
    return pre_imp - weighted / total if big >= 2 else -np.inf


@njit(cache=True, no_cpython_wrapper=True)
def binary_cannot_win(nom, nom_w, s, m, v, n_values, post, limit):
    """True where ``x == v`` surely gains less than the multiway split on nominal feature m,
    also in floating point, so that computing it would change nothing.  The multiway split
    gains D / N more, D = w_rest H(rest) - sum_{u != v} w_u H(u) = sum_{u != v} w_u
    KL(p_u || p_rest) >= 0 (bits; w the weights, N all of them, p the class proportions), zero
    only where the other codes have the same class proportions.  Pinsker's inequality bounds
    each term from below by (2 / ln 2) w_u TV(p_u, p_rest)^2, and with S_u = sum_k |n_uk w_rest
    - n_rest,k w_u| (so TV = S_u / (2 w_u w_rest)) the sum exceeds 1e-9 N (1 + log2 K), orders
    of magnitude above the rounding of either merit (a few units of 1e-16 N log2 K), once
    sum_u S_u^2 / w_u exceeds ``limit`` w_rest^2, ``limit`` = 2 ln 2 1e-9 N (1 + log2 K).  The
    codes are summed in order until it does (usually the first): K products and one division
    each, against the K + 1 logarithms of scoring ``x == v``.  ``post[u, 0]`` holds code u's
    weight (:func:`moa_multiway`)."""
    K = nom.shape[3]
    w_rest = 0.0
    for k in range(K):
        w_rest += nom_w[s, m, k] - nom[s, m, v, k]
    if w_rest <= 0.0:
        return False
    bar = limit * w_rest * w_rest
    acc = 0.0
    for u in range(n_values):
        w_u = post[u, 0]
        if u == v or w_u <= 0.0:
            continue
        d = 0.0
        for k in range(K):
            d += abs(nom[s, m, u, k] * w_rest - (nom_w[s, m, k] - nom[s, m, v, k]) * w_u)
        acc += d * d / w_u
        if acc > bar:
            return True
    return False


@njit(cache=True, no_cpython_wrapper=True)
def moa_binary_from_multiway(nom, nom_w, s, m, v, post, pre_imp, frac):
    """Information gain of ``x == v`` against the rest, MOA's arithmetic, the equal branch's
    weight and entropy taken from :func:`moa_multiway` (the same numbers MOA computes for it)."""
    w_eq = post[v, 0]
    h = 0.0
    w_ne = 0.0
    for k in range(nom.shape[3]):
        c = nom_w[s, m, k] - nom[s, m, v, k]  # the other codes' counts (exact integers)
        if c > 0.0:
            h -= c * (math.log(c) / LN2)
            w_ne += c
    h_ne = (h + w_ne * (math.log(w_ne) / LN2)) / w_ne if w_ne > 0.0 else 0.0
    total = w_eq + w_ne
    if not (w_eq / total > frac and w_ne / total > frac):
        return -np.inf
    return pre_imp - (w_eq * post[v, 1] + w_ne * h_ne) / total


@njit(cache=True, no_cpython_wrapper=True)
def nominal_candidate(params, nom, nom_w, nom_nv, s, m, card, binary, post, pre_total, pre_imp):
    """Best split of nominal feature m at a leaf, as MOA's ``NominalAttributeClassObserver``
    suggests it: (merit, v) for the binary test ``x == v``, or (merit, NaN) for the multiway
    split.  The multiway split (unless ``binary``) comes first; each ``x == v`` for the codes
    seen replaces it only with a strictly higher merit.  With ``binary`` and every merit -inf
    the candidate is ``x == 0``.

    Shortcuts that change no result: a code no instance has shown gives ``x == v`` an empty
    branch (merit -inf), and where only one other code has instances, ``x == v`` is the
    multiway split itself, whose merit it then equals to the bit (so it never replaces it).
    Under information gain the multiway split's per-branch entropies and weights are kept
    (:func:`moa_multiway`), and each ``x == v`` reuses its branch v, in MOA's order of
    operations (K + 1 logarithms), where it could win (:func:`binary_cannot_win`)."""
    crit = int(params[P_CRITERION])
    frac = params[P_MIN_BRANCH_FRAC]
    K = nom.shape[3]
    n_values = min(values_seen(nom_nv, s, m), card)
    if not binary and crit == CRIT_INFO_GAIN and K >= 2:
        best = moa_multiway(nom, s, m, card, post, pre_imp, frac)  # post[b]: weight, entropy
        best_v = np.nan
        filled = 0  # codes with instances
        for v in range(n_values):
            if post[v, 0] > 0.0:
                filled += 1
        if filled < 3:  # every x == v has an empty branch or is the multiway split
            return best, best_v
        n = 0.0
        for b in range(card):
            n += post[b, 0]
        limit = 2.0 * LN2 * 1e-9 * n * (1.0 + math.log(K) / LN2)
        for v in range(n_values):
            if post[v, 0] > 0.0:
                if best > -np.inf and binary_cannot_win(nom, nom_w, s, m, v, n_values, post, limit):
                    continue
                g = moa_binary_from_multiway(nom, nom_w, s, m, v, post, pre_imp, frac)
                if g > best:
                    best = g
                    best_v = v
        return best, best_v
    best = -np.inf
    best_v = 0.0 if binary else np.nan
    filled = 0
    for v in range(n_values):
        if code_weight(nom, s, m, v) > 0.0:
            filled += 1
    if not binary:
        nominal_post(nom, s, m, card, post)
        best = split_merit(pre_total, pre_imp, post, card, crit, frac)
    for v in range(n_values):
        if code_weight(nom, s, m, v) <= 0.0 or (not binary and filled < 3):
            continue  # an empty branch; or x == v is the multiway split
        nominal_binary_post(nom, nom_w, s, m, v, post)
        g = split_merit(pre_total, pre_imp, post, 2, crit, frac)
        if g > best:
            best = g
            best_v = v
    return best, best_v


@njit(cache=True, no_cpython_wrapper=True)
def numeric_best_cut(
    params, cut_table, g_w, g_mean, g_m2, g_min, g_max, s, j, post, sd, pre_total, pre_imp
):
    """Best cut point of numeric feature j at a leaf: (merit, cut); ``sd`` is scratch of a
    float per class.

    Cut-point policy ``P_CUTS``: MOA's ``n_split_points`` equal steps strictly inside the
    observed (min, max) (``CUTS_GAUSSIAN``), only the caller's candidates ``cut_table[j]``
    (``CUTS_FIXED``, NaN-padded; 001's predefined tests), or UFFT's one quadratic-discriminant
    root scored from the normal CDFs (``CUTS_ANALYTIC``, :mod:`workbench.core.analytic`).
    Candidates outside the observed range are skipped under all three: they would send every
    instance down one branch.  As in MOA, a feature with a candidate inside its range returns a
    cut even when every merit is -inf (the feature then has a candidate: :func:`has_candidate`),
    and NaN when it has none.

    It takes the observer's arrays of statistics slot ``s``, not the tree: a call that takes
    the tree costs two atomic reference counts per array, and it runs for every numeric feature
    at every split attempt; under information gain nothing in the loop over cut points calls a
    function that takes an array (:func:`binary_info_gain`)."""
    lo, hi = gaussian_range(g_w, g_min, g_max, s, j)
    best = -np.inf
    best_cut = np.nan
    if not lo < hi:
        return best, best_cut
    crit = int(params[P_CRITERION])
    frac = params[P_MIN_BRANCH_FRAC]
    if params[P_CUTS] == CUTS_ANALYTIC:  # UFFT: one cut, scored from the normal CDFs
        cut = slot_cut(g_w, g_mean, g_m2, s, j)
        if not (lo < cut < hi):
            return best, best_cut
        normal_table(g_w, g_mean, g_m2, s, j, cut, post)
        return split_merit(pre_total, pre_imp, post, 2, crit, frac, True), cut
    fixed = params[P_CUTS] == CUTS_FIXED
    n_points = cut_table.shape[1] if fixed else int(params[P_N_SPLIT_POINTS])
    step = (hi - lo) / (n_points + 1.0)
    for k in range(g_w.shape[2]):  # each class's standard deviation, once for all cuts
        sd[k] = gaussian_sd(max(g_w[s, j, k], 0.0), g_m2[s, j, k])
    gain = crit == CRIT_INFO_GAIN
    for i in range(n_points):
        cut = cut_table[j, i] if fixed else lo + step * (i + 1.0)
        if not (lo < cut < hi):  # (NaN padding fails this too)
            continue
        # the fast estimate (see workbench.core.observers) of each class's weight either side;
        # under information gain each branch's weight and sum of w log2 w as they are found
        wl = 0.0
        wr = 0.0
        sl = 0.0
        sr = 0.0
        for k in range(g_w.shape[2]):
            w = max(g_w[s, j, k], 0.0)
            left = gaussian_left_weight(
                w, g_mean[s, j, k], sd[k], g_min[s, j, k], g_max[s, j, k], cut
            )
            if gain:
                right = w - left
                wl += left
                wr += right
                if left > 0.0:
                    sl += left * math.log2(left)
                if right > 0.0:
                    sr += right * math.log2(right)
            else:
                post[0, k] = left
                post[1, k] = w - left
        if gain:
            g = binary_info_gain(
                pre_total,
                pre_imp,
                wl,
                wr,
                math.log2(wl) if wl > 0.0 else 0.0,
                math.log2(wr) if wr > 0.0 else 0.0,
                sl,
                sr,
                frac,
            )
        else:
            g = split_merit(pre_total, pre_imp, post, 2, crit, frac, True)
        if g > best or np.isnan(best_cut):  # MOA keeps the first cut even at merit -inf
            best = g
            best_cut = cut
    return best, best_cut


@njit(inline="always")
def binary_info_gain(pre_total, pre_imp, wl, wr, lwl, lwr, sl, sr, frac):
    """Information gain of a two-way split whose branches weigh ``wl`` and ``wr`` (their log2
    ``lwl`` and ``lwr``, read where positive) and whose classes' weights c give ``sl`` and
    ``sr``, the sums of c log2 c: :func:`split_merit` with
    ``fast`` on those two rows, the same operations in the same order (so the same bits),
    from scalars.  (:func:`numeric_best_cut` runs it for every cut point; ``split_merit`` and
    ``impurity_row`` take the table, and each call of theirs counted a reference to it:
    a sixth of a split attempt on SEA, measured.)"""
    if pre_total <= 0.0:
        return -np.inf
    post_total = 0.0 + wl + wr
    if post_total <= 0.0:
        return -np.inf
    big = 0
    weighted = 0.0
    if wl > frac * post_total:
        big += 1
    if wl > 0.0:
        weighted += wl * (lwl - sl / wl)
    if wr > frac * post_total:
        big += 1
    if wr > 0.0:
        weighted += wr * (lwr - sr / wr)
    if big < 2:
        return -np.inf
    return pre_imp - weighted / post_total


# How far a merit of the screen (:func:`screen_keeps`) may lie from the split search's.  Each
# class's weight left of a cut is off by at most w_k PHI_FAST_ERROR (and rounding), each
# branch's by the sum of those; a term c log2 c moves by at most 1077 times the move of c (the
# slope |log2 c + 1/ln 2| for c in [2^-1074, 2^64], and near 0 the term itself), and the merit
# divides the 4 sum(w_k) moves of its terms by sum(w_k): 4308 PHI_FAST_ERROR = 4.3e-10.  Each
# logarithm is off by at most LOG2_FAST_ERROR, which moves the merit by at most 4 times that
# (4e-11), and the rounding of both computations stays below 1e-11.  About twice the sum:
SCREEN_SLACK = 2e-9
TINY_NORMAL = 2.2250738585072014e-308  # the smallest normal float64: log2_fast's domain


@njit(cache=True, no_cpython_wrapper=True)
def numeric_screen_gain(
    g_w,
    g_mean,
    g_m2,
    g_min,
    g_max,
    s,
    j,
    n_points,
    lo,
    hi,
    pre_total,
    pre_imp,
    frac,
    sd,
    vals,
    logs,
):
    """:func:`numeric_best_cut`'s best merit over MOA's cut points within ``SCREEN_SLACK``,
    with the normal CDF from a table (:func:`normal_cdf_fast`) and log2 from a polynomial
    (:func:`log2_fast`): (True, merit, whether a cut point lies inside the range), or (False,
    0, False) where a cut's weight lies so near the 1% test that the table's error could decide
    it, a weight is subnormal or too large, or a merit is NaN.  A merit of -inf is exact (the
    test is decided as with the exact weights).

    In three passes over the cut points: every class's weight either side of every cut and
    the branches' weights (into ``vals``, ``n_points`` x (2K + 2)), their logarithms (into
    ``logs``), then the merits.  The table's polynomial is a chain of dependent steps, and side
    by side the weights overlap where one at a time each would wait for the last; the
    logarithms are then a loop numba vectorises."""
    step = (hi - lo) / (n_points + 1.0)
    K = g_w.shape[2]
    W = 2 * K + 2
    total = 0.0  # (the weight either way, whatever the cut)
    for k in range(K):
        sd[k] = gaussian_sd(max(g_w[s, j, k], 0.0), g_m2[s, j, k])
        total += max(g_w[s, j, k], 0.0)
    for i in range(n_points):
        cut = lo + step * (i + 1.0)
        wl = 0.0
        wr = 0.0
        for k in range(K):
            w = max(g_w[s, j, k], 0.0)
            # (a NaN weight makes its branch's weight NaN, which the 1% test below refuses)
            left = gaussian_left_weight(
                w, g_mean[s, j, k], sd[k], g_min[s, j, k], g_max[s, j, k], cut, True
            )
            vals[i * W + k] = left
            vals[i * W + K + k] = w - left
            wl += left
            wr += w - left
        vals[i * W + 2 * K] = wl
        vals[i * W + 2 * K + 1] = wr
    for q in range(n_points * W):
        logs[q] = log2_fast(vals[q])
    best = -np.inf
    inside = False
    for i in range(n_points):
        cut = lo + step * (i + 1.0)
        if not (lo < cut < hi):
            continue
        inside = True
        sl = 0.0
        sr = 0.0
        for k in range(K):
            left = vals[i * W + k]
            right = vals[i * W + K + k]
            if left > 0.0:
                if left < TINY_NORMAL:
                    return False, 0.0, False
                sl += left * logs[i * W + k]
            if right > 0.0:
                if right < TINY_NORMAL:
                    return False, 0.0, False
                sr += right * logs[i * W + K + k]
        wl = vals[i * W + 2 * K]
        wr = vals[i * W + 2 * K + 1]
        room = 4.0 * PHI_FAST_ERROR * total
        limit = frac * (0.0 + wl + wr)
        if not (
            abs(wl - limit) > room
            and abs(wr - limit) > room
            and total < 2.0**60
            and (wl <= 0.0 or wl >= TINY_NORMAL)
            and (wr <= 0.0 or wr >= TINY_NORMAL)
        ):
            return False, 0.0, False
        g = binary_info_gain(
            pre_total, pre_imp, wl, wr, logs[i * W + 2 * K], logs[i * W + 2 * K + 1], sl, sr, frac
        )
        if np.isnan(g):
            return False, 0.0, False
        best = max(best, g)
    return True, best, inside


@njit(inline="always")
def screen_applies(params, eps):
    """Whether :func:`screen_keeps` can speak for the leaf's rule: best vs second or best vs
    null, information gain, MOA's cut points, and eps >= tau (no tie)."""
    rule = int(params[P_SPLIT_RULE])
    return (
        eps >= params[P_TAU]
        and params[P_CUTS] == CUTS_GAUSSIAN
        and int(params[P_CRITERION]) == CRIT_INFO_GAIN
        and (rule == RULE_BEST_VS_SECOND or rule == RULE_BEST_VS_NULL)
    )


@njit(cache=True, no_cpython_wrapper=True)
def screen_keeps(params, nom_index, merits, cuts, eps):
    """Whether the leaf's rule keeps the leaf for certain, told from merits within
    ``SCREEN_SLACK`` of the split search's (:func:`feature_candidates` with ``screen``; a
    numeric feature's cut there is 0 where it has a candidate, NaN where not): the stream
    kernel's split attempt then skips the exact search (True), which it runs otherwise (False),
    so both reach the same decision.  Only where :func:`screen_applies`.

    The exact rule's quantity is the best merit less the second's (or less the null split's
    gain); the true best lies at most ``SCREEN_SLACK`` above the screen's best and the true
    second at most that below the screen's second, so when the screen's quantity plus twice
    the slack is below the threshold, the exact quantity is too."""
    top = -np.inf
    second = -np.inf
    n_candidates = 0
    for j in range(merits.shape[0]):
        if not has_candidate(nom_index, cuts, j):
            continue
        g = merits[j]
        if np.isnan(g):
            return False
        n_candidates += 1
        second = max(second, min(top, g))
        top = max(top, g)
    if top == -np.inf:
        return False  # no candidate with a finite merit: the exact search says so
    if int(params[P_SPLIT_RULE]) == RULE_BEST_VS_NULL:
        return top + SCREEN_SLACK - NULL_GAIN < eps
    if n_candidates < 2 or second == -np.inf:
        return False  # the quantity is infinite: a split
    return (top - second) + 2.0 * SCREEN_SLACK < params[P_MARGIN_FACTOR] * eps


@njit(cache=True, no_cpython_wrapper=True)
def feature_candidates(
    params,
    cut_table,
    nom_index,
    nom_card,
    class_counts,
    g_w,
    g_mean,
    g_m2,
    g_min,
    g_max,
    nom,
    nom_w,
    nom_nv,
    s,
    node,
    merits,
    cuts,
    post,
    screen,
):
    """Best merit (and cut, NaN for a multiway split) of every feature at ``node``, whose
    statistics are in slot ``s``; returns True.

    ``post`` is scratch of shape [B, K]; features without statistics get merit -inf.  It and
    the helpers it calls take the arrays they read, not the tree: a call that takes the tree
    costs two atomic reference counts for each of its ~35 arrays, and they run for every
    feature at every split attempt and re-evaluation (:func:`candidates_at` passes the tree's).

    ``screen`` (for :func:`screen_keeps`, under information gain and MOA's cut points): each
    numeric feature's best merit within ``SCREEN_SLACK`` (:func:`numeric_screen_gain`) and a
    cut of 0 where it has a candidate; False as soon as a feature cannot be scored so.
    Nominal features are scored exactly either way.
    """
    d = merits.shape[0]
    for j in range(d):
        merits[j] = -np.inf
        cuts[j] = np.nan
    if s < 0:
        return True
    crit = int(params[P_CRITERION])
    binary = params[P_BINARY_NOMINAL] > 0
    # the leaf's own weight and impurity, once for every candidate
    pre_total = 0.0
    for k in range(class_counts.shape[1]):
        pre_total += class_counts[node, k]
    pre_imp = impurity_row(class_counts, node, crit)
    K = class_counts.shape[1]
    sd = np.empty(K)  # (numeric_best_cut's scratch)
    n_points = int(params[P_N_SPLIT_POINTS]) if screen else 0
    vals = np.empty(n_points * (2 * K + 2))  # (numeric_screen_gain's)
    logs = np.empty(n_points * (2 * K + 2))
    for j in range(d):
        m = nom_index[j]
        if m >= 0:
            merits[j], cuts[j] = nominal_candidate(
                params, nom, nom_w, nom_nv, s, m, nom_card[m], binary, post, pre_total, pre_imp
            )
        elif screen:
            lo, hi = gaussian_range(g_w, g_min, g_max, s, j)
            if not lo < hi:
                continue  # no candidate
            ok, g, inside = numeric_screen_gain(
                g_w,
                g_mean,
                g_m2,
                g_min,
                g_max,
                s,
                j,
                n_points,
                lo,
                hi,
                pre_total,
                pre_imp,
                params[P_MIN_BRANCH_FRAC],
                sd,
                vals,
                logs,
            )
            if not ok:
                return False
            if inside:
                merits[j] = g
                cuts[j] = 0.0
        else:
            merits[j], cuts[j] = numeric_best_cut(
                params,
                cut_table,
                g_w,
                g_mean,
                g_m2,
                g_min,
                g_max,
                s,
                j,
                post,
                sd,
                pre_total,
                pre_imp,
            )
    return True


@njit(inline="always")
def candidates_at(T, C, node, merits, cuts, post):
    """:func:`feature_candidates` at ``node`` of the tree (written into the caller)."""
    feature_candidates(
        C.params,
        C.cuts,
        C.nom_index,
        C.nom_card,
        T.class_counts,
        T.g_w,
        T.g_mean,
        T.g_m2,
        T.g_min,
        T.g_max,
        T.nom,
        T.nom_w,
        T.nom_nv,
        T.stats_slot[node],
        node,
        merits,
        cuts,
        post,
        False,
    )


@njit(cache=True, no_cpython_wrapper=True)
def leaf_weight(class_counts, node):
    n = 0.0
    for k in range(class_counts.shape[1]):
        n += class_counts[node, k]
    return n


@njit(cache=True, no_cpython_wrapper=True)
def has_candidate(nom_index, cuts, j):
    """Does MOA offer a candidate split for feature j at a leaf whose split search filled
    ``cuts``?  Every nominal feature (its observer exists once the leaf learned an instance);
    a numeric one once the Gaussian observer has a cut point inside its (min, max)."""
    return nom_index[j] >= 0 or not np.isnan(cuts[j])


@njit(cache=True, no_cpython_wrapper=True)
def moa_best_two(nom_index, merits, cuts):
    """MOA's best and second-best suggestion: MOA lists the null split first, then each feature
    with a candidate (:func:`has_candidate`), in order, sorts the list by merit with a stable
    sort and takes the last two; so ties go to the later entry.  Returns (best, second) as
    feature indices, ``d`` for the null split (merit :data:`NULL_MERIT`) and -1 where there is
    none."""
    d = merits.shape[0]
    best = -1
    second = -1
    g_best = -np.inf
    g_second = -np.inf
    for i in range(-1, d):
        idx = d
        g = NULL_MERIT
        if i >= 0:
            if not has_candidate(nom_index, cuts, i):
                continue
            idx = i
            g = merits[i]
        if best < 0 or g >= g_best:
            second = best
            g_second = g_best
            best = idx
            g_best = g
        elif second < 0 or g >= g_second:
            second = idx
            g_second = g
    return best, second


@njit(cache=True)
def last_best(merits):
    """Index of the highest merit, ties going to the later feature (MOA sorts its suggestions by
    merit with a stable sort and takes the last); -1 if there is none."""
    b = -1
    for j in range(merits.shape[0]):
        if b < 0 or merits[j] >= merits[b]:
            b = j
    return b


@njit(cache=True, no_cpython_wrapper=True)
def record_merits(params, nom_index, merit_sum, merit_n, s, merits, cuts, at_leaf):
    """``MERITS_MOA``: one more split attempt at ``node``.  Each feature with a candidate
    (:func:`has_candidate`) adds its best merit to the node's sum, and the null split its merit
    (:data:`NULL_MERIT`) to the last column (a leaf under ``NULL_SUM_CLAMPED`` keeps
    ``max(0, sum + merit)``, as MOA's EFDT does; re-evaluation and ``NULL_SUM_RAW`` add it as it
    is).  The attempt count grows by one,
    or by the number of candidates, the null split included (``ATTEMPTS_PER_CANDIDATE``, 004's
    VFDT).  A merit of -inf (no split sends enough weight down two branches; the null split
    under the minimum branch fraction) stays in the sum for good, as in MOA."""
    d = merits.shape[0]
    n_candidates = 1.0
    for j in range(d):
        if has_candidate(nom_index, cuts, j):
            merit_sum[s, j] += merits[j]
            n_candidates += 1.0
    if at_leaf and params[P_NULL_SUM] == NULL_SUM_CLAMPED:
        merit_sum[s, d] = max(0.0, merit_sum[s, d] + NULL_MERIT)
    else:
        merit_sum[s, d] += NULL_MERIT
    merit_n[s] += n_candidates if params[P_ATTEMPTS] == ATTEMPTS_PER_CANDIDATE else 1.0


@njit(cache=True, no_cpython_wrapper=True)
def mean_merit(merit_sum, merit_n, s, j):
    """``MERITS_MOA``: feature j's merit sum at ``node`` (j = d: the null split's) over its
    attempts since the node last changed.  A node keeps its sums when it splits or its split is
    replaced, but its count of attempts starts again from zero (MOA makes a new node object and
    carries over only the sums), so the ratio can exceed every single merit in it.  (``s``:
    the node's statistics slot.)"""
    return merit_sum[s, j] / merit_n[s]


#: Merit of MOA's null-split suggestion (pre-pruning: the one-branch "split" holding the leaf's
#: whole class distribution) under every criterion here: each applies the minimum branch
#: fraction, which a single branch never passes, so it is -inf, as under MOA's information gain
NULL_MERIT = -np.inf


@njit(cache=True, no_cpython_wrapper=True)
def nominal_used_above(nom_index, parent, kind, feature, replaced, node, j):
    """MOA's EFDT (``usedNominalAttributes``): is nominal feature j on the leaf's list of used
    attributes?  A leaf made by a split inherits its parent's list (as a leaf) plus the split's
    attribute when the test is nominal; a numeric test gives its children an empty list, and
    the children of a test installed by a re-evaluation get only that test's attribute."""
    if nom_index[j] < 0:
        return False
    u = node
    while parent[u] >= 0:
        p = parent[u]
        if kind[p] == NUMERIC:
            return False
        if feature[p] == j:
            return True
        if replaced[p] == 1:
            return False
        u = p
    return False


@njit(cache=True, no_cpython_wrapper=True)
def leaf_outcome(
    params,
    nom_index,
    depth,
    parent,
    kind,
    feature,
    replaced,
    node,
    b1,
    b2,
    eps,
    quantity,
    threshold,
    may_split,
):
    """The outcome of a leaf's rule (:func:`split_decision`): no split below the depth limit,
    else the verdict of ``quantity > threshold`` or a tie; ``may_split=False`` keeps the leaf
    whatever the rule says, and under ``P_USED_NOMINAL`` so does a best attribute that is a
    nominal one tested above (MOA's EFDT)."""
    if depth[node] >= params[P_MAX_DEPTH]:
        return NO_SPLIT_DEPTH, b1, b2, eps, quantity, threshold
    if may_split:
        verdict = decide(quantity, threshold, eps, params[P_TAU])
        if verdict == BY_MARGIN or verdict == BY_TIE:
            if params[P_USED_NOMINAL] > 0 and nominal_used_above(
                nom_index, parent, kind, feature, replaced, node, b1
            ):
                return NO_SPLIT_USED, b1, b2, eps, quantity, threshold
            return (
                SPLIT_MARGIN if verdict == BY_MARGIN else SPLIT_TIE,
                b1,
                b2,
                eps,
                quantity,
                threshold,
            )
    return NO_SPLIT_BOUND, b1, b2, eps, quantity, threshold


@njit(cache=True, no_cpython_wrapper=True)
def moa_split_decision(
    params,
    nom_index,
    stats_slot,
    merit_sum,
    merit_n,
    depth,
    parent,
    kind,
    feature,
    replaced,
    node,
    merits,
    cuts,
    eps,
):
    """:func:`split_decision` under ``MERITS_MOA`` (MOA's EFDT AttemptToSplit): the attempt is
    recorded (:func:`record_merits`); the candidate is the suggestion of highest merit now
    (:func:`moa_best_two`), but the rule compares its mean merit (:func:`mean_merit`) with the
    null split's (best vs null) or the second's (best vs second, 004's VFDT); a best merit
    below 1e-10 never splits."""
    d = merits.shape[0]
    s = stats_slot[node]
    if s < 0:  # a new leaf that has not learned an instance yet
        return NO_SPLIT_NO_CANDIDATE, -1, -1, eps, np.nan, np.nan
    record_merits(params, nom_index, merit_sum, merit_n, s, merits, cuts, True)
    best, second = moa_best_two(nom_index, merits, cuts)
    b2 = second if second < d else -1
    if best < 0 or best == d or merits[best] == -np.inf:
        return NO_SPLIT_NO_CANDIDATE, best if best < d else -1, b2, eps, np.nan, np.nan
    rule = int(params[P_SPLIT_RULE])
    quantity, threshold = rule_quantity(
        rule,
        mean_merit(merit_sum, merit_n, s, best),
        -np.inf if second < 0 else mean_merit(merit_sum, merit_n, s, second),
        mean_merit(merit_sum, merit_n, s, d) if rule == RULE_BEST_VS_NULL else -np.inf,
        np.nan,
        eps,
        params[P_MARGIN_FACTOR],
    )
    # MOA: a best merit below 1e-10 never splits
    return leaf_outcome(
        params,
        nom_index,
        depth,
        parent,
        kind,
        feature,
        replaced,
        node,
        best,
        b2,
        eps,
        quantity,
        threshold,
        merits[best] >= 1e-10,
    )


@njit(cache=True, no_cpython_wrapper=True)
def split_decision(T, C, node, merits, cuts, post):
    """Run the leaf's split test (rule ``P_SPLIT_RULE``, :mod:`workbench.core.rules`).

    Fills ``merits``/``cuts`` and returns (outcome code, best feature, second feature, eps,
    quantity, threshold): the rule splits when ``quantity > threshold`` (or on a tie,
    ``eps < tau``).  Quantity and threshold are NaN where no rule was applied.  The best and
    second best are MOA's (:func:`moa_best_two`: ties go to the later feature).  (The tree's
    arrays go to :func:`leaf_decision`, which the stream kernel calls itself.)
    """
    return leaf_decision(
        C.params,
        C.cuts,
        C.nom_index,
        C.nom_card,
        T.class_counts,
        T.stats_slot,
        T.g_w,
        T.g_mean,
        T.g_m2,
        T.g_min,
        T.g_max,
        T.nom,
        T.nom_w,
        T.nom_nv,
        T.merit_sum,
        T.merit_n,
        T.cls_len,
        T.depth,
        T.parent,
        T.kind,
        T.feature,
        T.replaced,
        T.meta[M_T],
        node,
        merits,
        cuts,
        post,
        False,
    )


@njit(cache=True, no_cpython_wrapper=True)
def leaf_decision(
    params,
    cut_table,
    nom_index,
    nom_card,
    class_counts,
    stats_slot,
    g_w,
    g_mean,
    g_m2,
    g_min,
    g_max,
    nom,
    nom_w,
    nom_nv,
    merit_sum,
    merit_n,
    cls_len,
    depth,
    parent,
    kind,
    feature,
    replaced,
    t_learned,
    node,
    merits,
    cuts,
    post,
    screen,
):
    """:func:`split_decision` over the arrays it reads.  The stream kernel calls this at every
    split attempt: a call that takes the tree (and the policy) costs two atomic reference
    counts for each of their 36 arrays, and an attempt called two such functions (calling this
    instead: SEA, Electricity, Waveform-21 and EFDT on SEA 2-3% faster, measured).

    ``screen`` (the kernel's attempts): where :func:`screen_keeps` finds that the rule keeps
    the leaf for certain, return (``NO_SPLIT_BOUND``, -1, -1, eps, NaN, NaN) without the exact
    search, ``merits`` and ``cuts`` then holding the screen's values (within ``SCREEN_SLACK``;
    a numeric cut of 0 for "has a candidate"), which the kernel does not read: it reads them
    only after a split.  Most attempts keep their leaf, and the exact search spent half its
    time in libm's ``erfc`` and ``log2``."""
    n = leaf_weight(class_counts, node)
    d = merits.shape[0]
    if n_observed_classes(class_counts, node) < 2:
        for j in range(d):
            merits[j] = -np.inf
            cuts[j] = np.nan
        return NO_SPLIT_PURE, -1, -1, np.inf, np.nan, np.nan
    eps = node_epsilon(
        params, nom_index.shape[0], cls_len, class_counts, kind, depth, t_learned, node, n
    )
    # the screen's merits (within SCREEN_SLACK) first where it applies, then, unless they show
    # that the rule keeps the leaf, the exact search.  (One call site: a second one made a first
    # use compile 2-3 s longer)
    screened = screen and params[P_MERITS] != MERITS_MOA and screen_applies(params, eps)
    for _ in range(2):
        complete = feature_candidates(
            params,
            cut_table,
            nom_index,
            nom_card,
            class_counts,
            g_w,
            g_mean,
            g_m2,
            g_min,
            g_max,
            nom,
            nom_w,
            nom_nv,
            stats_slot[node],
            node,
            merits,
            cuts,
            post,
            screened,
        )
        if not screened:
            break
        if complete and screen_keeps(params, nom_index, merits, cuts, eps):
            return NO_SPLIT_BOUND, -1, -1, eps, np.nan, np.nan
        screened = False
    if params[P_MERITS] == MERITS_MOA:
        return moa_split_decision(
            params,
            nom_index,
            stats_slot,
            merit_sum,
            merit_n,
            depth,
            parent,
            kind,
            feature,
            replaced,
            node,
            merits,
            cuts,
            eps,
        )
    b1, b2 = moa_best_two(nom_index, merits, cuts)
    if b2 == d:
        b2 = -1
    if b1 < 0 or b1 == d or merits[b1] == -np.inf:
        return NO_SPLIT_NO_CANDIDATE, b1 if b1 < d else -1, b2, eps, np.nan, np.nan
    rule = int(params[P_SPLIT_RULE])
    quantity, threshold = rule_quantity(
        rule,
        merits[b1],
        -np.inf if b2 < 0 else merits[b2],
        NULL_GAIN if rule == RULE_BEST_VS_NULL else NULL_MERIT,
        np.nan,
        eps,
        params[P_MARGIN_FACTOR],
    )
    return leaf_outcome(
        params,
        nom_index,
        depth,
        parent,
        kind,
        feature,
        replaced,
        node,
        b1,
        b2,
        eps,
        quantity,
        threshold,
        True,
    )


@njit(cache=True, no_cpython_wrapper=True)
def current_merit(T, C, node, post):
    """Merit of inner node ``node``'s own test, from the statistics it kept (UPDATE_PATH)."""
    s = T.stats_slot[node]
    if s < 0 or T.kind[node] <= 0:
        return -np.inf
    n_branches = branch_dists(T, C, s, T.feature[node], T.threshold[node], post)
    crit = int(C.params[P_CRITERION])
    return split_merit(
        leaf_weight(T.class_counts, node),
        impurity_row(T.class_counts, node, crit),
        post,
        n_branches,
        crit,
        C.params[P_MIN_BRANCH_FRAC],
    )


@njit(cache=True, no_cpython_wrapper=True)
def reevaluation_outcome(params, feature, node, best, g_best, g_cur, eps):
    """The re-evaluation rule (``P_REEVAL_RULE``) on the best's and the current split's merits:
    (outcome ``REEVAL_*``, best, eps, quantity, threshold)."""
    rule = int(params[P_REEVAL_RULE])
    quantity, threshold = rule_quantity(rule, g_best, -np.inf, -np.inf, g_cur, eps, 1.0)
    tau = params[P_TAU]
    verdict = decide(quantity, threshold, eps, tau, tie_floor(rule, tau))
    if verdict == BY_MARGIN or verdict == BY_TIE:
        if best < 0:
            return REEVAL_KILL, best, eps, quantity, threshold
        if best != feature[node]:
            return REEVAL_REPLACE, best, eps, quantity, threshold
    return REEVAL_KEEP, best, eps, quantity, threshold


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate_decision(T, C, node, merits, cuts, post):
    """HATT's ReEvaluateBestSplit at an inner node (rule ``P_REEVAL_RULE``): the best of the
    attributes and the null split against the current split.

    Returns (outcome ``REEVAL_*``, best feature or -1 for the null split, eps, quantity,
    threshold).  The same attribute winning again keeps the node as it is.  With the merits of
    the statistics now (``MERITS_CURRENT``) the null split has gain 0 and wins when no attribute
    has a positive gain; with MOA's sums see :func:`moa_reevaluate_decision`."""
    n = leaf_weight(T.class_counts, node)
    if C.params[P_MERITS] == MERITS_MOA:
        return moa_reevaluate_decision(T, C, node, merits, cuts, post, n)
    if n_observed_classes(T.class_counts, node) < 2:
        for j in range(merits.shape[0]):
            merits[j] = -np.inf
            cuts[j] = np.nan
        # one class left below this node: the null split is as good as any test
        g_cur = current_merit(T, C, node, post)
        return REEVAL_KEEP, -1, np.inf, NULL_GAIN - g_cur, np.inf
    d = merits.shape[0]
    candidates_at(T, C, node, merits, cuts, post)
    b1, _b2 = moa_best_two(C.nom_index, merits, cuts)
    g_cur = current_merit(T, C, node, post)
    eps = epsilon_at(T, C, node, n)
    best = -1
    g_best = NULL_GAIN
    if 0 <= b1 < d and merits[b1] > NULL_GAIN:
        best = b1
        g_best = merits[b1]
    return reevaluation_outcome(C.params, T.feature, node, best, g_best, g_cur, eps)


@njit(cache=True, no_cpython_wrapper=True)
def moa_reevaluate_decision(T, C, node, merits, cuts, post, n):
    """:func:`reevaluate_decision` under ``MERITS_MOA`` (MOA's EFDT ReEvaluateBestSplit).  Every
    re-evaluation is recorded, also at a node that sees one class only, the null split's merit
    added as it is.  The best is MOA's best suggestion now (:func:`moa_best_two`): the null
    split only when no attribute has a candidate, since under the minimum branch fraction its
    merit is -inf (so it never kills a subtree, and its mean is -inf from the first
    re-evaluation on).  The rule compares mean merits, the current split's being its
    *feature's* mean (the best cut of that feature, not the installed one), with the range R the
    node had when it got its test (:func:`node_range`)."""
    s = T.stats_slot[node]
    if s < 0:
        return REEVAL_KEEP, -1, np.inf, np.nan, np.nan
    d = merits.shape[0]
    candidates_at(T, C, node, merits, cuts, post)
    record_merits(C.params, C.nom_index, T.merit_sum, T.merit_n, s, merits, cuts, False)
    eps = epsilon_at(T, C, node, n)
    b, _second = moa_best_two(C.nom_index, merits, cuts)
    best = -1
    g_best = mean_merit(T.merit_sum, T.merit_n, s, d)
    if 0 <= b < d:
        best = b
        g_best = mean_merit(T.merit_sum, T.merit_n, s, b)
    g_cur = mean_merit(T.merit_sum, T.merit_n, s, T.feature[node])
    return reevaluation_outcome(C.params, T.feature, node, best, g_best, g_cur, eps)


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate(T, C, node, merits, cuts, post):
    """Re-evaluate inner node ``node`` and edit the tree as the rule says; returns the outcome."""
    outcome, best, _eps, _q, _thr = reevaluate_decision(T, C, node, merits, cuts, post)
    if outcome == REEVAL_KILL:
        kill_subtree(T, node, True)
    elif outcome == REEVAL_REPLACE:
        replace_split(T, C, node, best, cuts[best], post)
    if outcome != REEVAL_KEEP and T.stats_slot[node] >= 0:
        T.merit_n[T.stats_slot[node]] = 0.0  # MERITS_MOA: a changed node counts again
    return outcome


@njit(cache=True, no_cpython_wrapper=True)
def _saved_merits(T, node):
    """A copy of the node's merit sums and attempt count (``MERITS_MOA``), for an explanation
    to put back: explaining a decision must not count as an attempt."""
    s = T.stats_slot[node]
    keep = np.empty(T.merit_sum.shape[1] + 1)
    if s >= 0:
        for j in range(T.merit_sum.shape[1]):
            keep[j] = T.merit_sum[s, j]
        keep[-1] = T.merit_n[s]
    return keep


@njit(cache=True, no_cpython_wrapper=True)
def _restore_merits(T, node, keep):
    s = T.stats_slot[node]
    if s >= 0:
        for j in range(T.merit_sum.shape[1]):
            T.merit_sum[s, j] = keep[j]
        T.merit_n[s] = keep[-1]


@njit(cache=True)
def explain_split(T, C, node, merits, cuts, post):
    """:func:`split_decision` at a leaf, callable from Python (``explain_one``): a separate entry
    point, so that its wrapper is compiled only when an explanation is first asked for.  Returns
    (outcome, best, second, eps, quantity, threshold); the tree is left as it was."""
    keep = _saved_merits(T, node)
    out = split_decision(T, C, node, merits, cuts, post)
    _restore_merits(T, node, keep)
    return out


@njit(cache=True)
def explain_reevaluation(T, C, node, merits, cuts, post):
    """:func:`reevaluate_decision` at an inner node that keeps statistics, callable from Python:
    (outcome, best feature or -1 for the null split, eps, quantity, threshold, G(best),
    G(current)), the merits being those the rule compared; the tree is left as it was."""
    keep = _saved_merits(T, node)
    outcome, best, eps, quantity, threshold = reevaluate_decision(T, C, node, merits, cuts, post)
    moa = C.params[P_MERITS] == MERITS_MOA
    s = T.stats_slot[node]
    g_best = mean_merit(T.merit_sum, T.merit_n, s, merits.shape[0]) if moa else NULL_GAIN
    if best >= 0:
        g_best = mean_merit(T.merit_sum, T.merit_n, s, best) if moa else merits[best]
    _restore_merits(T, node, keep)
    return outcome, best, eps, quantity, threshold, g_best, g_best - quantity


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
    for j in range(T.merit_sum.shape[1]):
        T.merit_sum[s, j] = 0.0
    T.merit_n[s] = 0.0
    for k in range(T.nom_q.shape[1]):
        T.nom_q[s, k] = 0.0
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
def is_binary_nominal(C, m, cut):
    """A test on nominal feature m (index among the nominal ones) with cut ``cut`` is the binary
    ``x == cut`` (binary splits only, or a binary candidate that beat the multiway split)."""
    return m >= 0 and (C.params[P_BINARY_NOMINAL] > 0 or not np.isnan(cut))


@njit(cache=True, no_cpython_wrapper=True)
def branch_dists(T, C, s, j, cut, post):
    """Class distribution of each branch of the test (feature j, cut) from statistics slot s,
    into ``post``; returns the number of branches."""
    m = C.nom_index[j]
    if is_binary_nominal(C, m, cut):
        nominal_binary_post(T.nom, T.nom_w, s, m, int(cut), post)
        return 2
    if m >= 0:
        nominal_post(T.nom, s, m, C.nom_card[m], post)
        return C.nom_card[m]
    gaussian_binary_dists(T.g_w, T.g_mean, T.g_m2, T.g_min, T.g_max, s, j, cut, post)
    return 2


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
def apply_split(T, C, node, j, cut, post):
    """Turn leaf ``node`` into an inner node testing feature j; returns False if the memory
    guard refused (the leaf is then deactivated).  Under ``UPDATE_PATH`` the node keeps its
    statistics (it goes on learning and is re-evaluated); otherwise they are released."""
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
    counts, in the order ``steps.observe`` multiplies them."""
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
def replace_split(T, C, node, j, cut, post):
    """Replace inner node ``node``'s test by (j, cut) (HATT): the old subtree is freed, the node
    keeps its class counts and statistics, and the new branches start as fresh leaves with the
    class distributions the node's statistics estimate for them.  Returns False if the memory
    guard refused; the node is then a leaf (its subtree already freed)."""
    n_branches = branch_dists(T, C, T.stats_slot[node], j, cut, post)
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
