"""Split search: every feature's best candidate split at a leaf, the screen that settles most
split attempts without it, and MOA's running sums of merits.

:func:`feature_candidates`: for every feature, the best split a leaf's statistics suggest and
its merit.  Numeric features try the Gaussian observer's candidate cut points (MOA's equal steps,
a fixed set, or UFFT's analytical root: ``P_CUTS``); nominal features one multiway split (one
branch per value) and, as MOA's nominal observer does, every binary test ``x == v`` against the
rest, which replaces the multiway split when its merit is strictly higher (``cuts[j]`` is then
``v``, NaN for a multiway split).  In exact arithmetic a binary test never gains more than the
multiway split; it wins where the multiway split has merit -inf (fewer than two branches above
the minimum branch fraction, while one value against the rest has two), or by rounding where the
two are equal (values with the same class proportions), and MOA's trees then test ``x == v``
(``binary_nominal=True`` offers binary tests only).

The screen (:func:`numeric_screen_gain`, :func:`screen_keeps`): each numeric feature's best
merit within ``SCREEN_SLACK``, from a table of the normal CDF and a polynomial log2; where those
merits show that the leaf's rule keeps the leaf for certain, the attempt skips the exact search.

:func:`moa_best_two` orders the candidates as MOA does (ties to the later feature), and
:func:`record_merits` / :func:`mean_merit` keep MOA's EFDT's per-node sums of merits
(``MERITS_MOA``).

The functions take the arrays they read, not the tree: a call that takes the tree costs two
atomic reference counts for each of its arrays, and they run for every feature at every split
attempt (:func:`candidates_at` passes the tree's).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..bounds.leaf_stats import STATS_B_BEST, STATS_B_MAX, STATS_HEADER, STATS_K
from .analytic import normal_table, slot_cut
from .criteria import LN2, impurity_row, moa_entropy_row, split_merit
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
    CRIT_INFO_GAIN,
    CUTS_ANALYTIC,
    CUTS_COUNTED,
    CUTS_FIXED,
    CUTS_GAUSSIAN,
    NULL_SUM_CLAMPED,
    P_ATTEMPTS,
    P_BINARY_NOMINAL,
    P_CRITERION,
    P_CUTS,
    P_MARGIN_FACTOR,
    P_MIN_BRANCH_FRAC,
    P_N_SPLIT_POINTS,
    P_NULL_SUM,
    P_RULE_FN,
    P_RULE_SCREEN,
    P_SPLIT_RULE,
    P_TAU,
    RULE_BEST_VS_NULL,
    RULE_BEST_VS_SECOND,
)
from .rules import KEEP, NULL_GAIN, user_verdict
from .state import slot_arrays


@njit(cache=True, no_cpython_wrapper=True)
def n_observed_classes(class_counts, node):
    c = 0
    for k in range(class_counts.shape[1]):
        if class_counts[node, k] > 0.0:
            c += 1
    return c


@njit(cache=True, no_cpython_wrapper=True)
def leaf_weight(class_counts, node):
    n = 0.0
    for k in range(class_counts.shape[1]):
        n += class_counts[node, k]
    return n


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
    params, cut_table, g_w, g_mean, g_m2, g_min, g_max, h_count, s, j, post, sd, pre_total, pre_imp
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
    if params[P_CUTS] == CUTS_COUNTED:  # the exact class counts either side of each cut
        return counted_best_cut(
            cut_table, h_count, s, j, lo, hi, post, sd, pre_total, pre_imp, crit, frac
        )
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
        nl = 0  # classes with weight on each side: one alone makes the branch pure
        nr = 0
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
                    nl += 1
                if right > 0.0:
                    sr += right * math.log2(right)
                    nr += 1
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
                nl == 1,
                nr == 1,
            )
        else:
            g = split_merit(pre_total, pre_imp, post, 2, crit, frac, True)
        if g > best or np.isnan(best_cut):  # MOA keeps the first cut even at merit -inf
            best = g
            best_cut = cut
    return best, best_cut


@njit(cache=True, no_cpython_wrapper=True)
def counted_best_cut(cut_table, h_count, s, j, lo, hi, post, tot, pre_total, pre_imp, crit, frac):
    """:func:`numeric_best_cut` under counted cut points (``CUTS_COUNTED``): each candidate
    ``cut_table[j, c]`` inside the observed range (lo, hi), scored from the exact class weights
    either side (``h_count``'s bins up to c, and the rest); ``tot`` is scratch of a float per
    class.  The first best cut is kept, as MOA keeps it."""
    K = h_count.shape[3]
    for k in range(K):
        tot[k] = 0.0
        post[0, k] = 0.0
        for b in range(h_count.shape[2]):
            tot[k] += h_count[s, j, b, k]
    best = -np.inf
    best_cut = np.nan
    for c in range(cut_table.shape[1]):
        cut = cut_table[j, c]
        if np.isnan(cut):
            break  # (NaN pads the end of a feature's sorted cuts)
        for k in range(K):
            post[0, k] += h_count[s, j, c, k]
        if not (lo < cut < hi):
            continue
        for k in range(K):
            post[1, k] = tot[k] - post[0, k]
        g = split_merit(pre_total, pre_imp, post, 2, crit, frac)
        if g > best or np.isnan(best_cut):
            best = g
            best_cut = cut
    return best, best_cut


@njit(inline="always")
def binary_info_gain(pre_total, pre_imp, wl, wr, lwl, lwr, sl, sr, frac, pure_l, pure_r):
    """Information gain of a two-way split whose branches weigh ``wl`` and ``wr`` (their log2
    ``lwl`` and ``lwr``, read where positive) and whose classes' weights c give ``sl`` and
    ``sr``, the sums of c log2 c: :func:`split_merit` with
    ``fast`` on those two rows, the same operations in the same order (so the same bits),
    from scalars.  A branch that holds one class only (``pure_l``, ``pure_r``) has entropy 0
    exactly, as MOA computes it (w (log2 w - w log2 w / w) leaves a rounding residue of up to
    1e-13, which broke MOA's exact ties among candidates whose branches are all pure).
    (:func:`numeric_best_cut` runs it for every cut point; ``split_merit`` and
    ``impurity_row`` take the table, and each call of theirs counted a reference to it: a
    sixth of a split attempt on SEA, measured.)"""
    if pre_total <= 0.0:
        return -np.inf
    post_total = 0.0 + wl + wr
    if post_total <= 0.0:
        return -np.inf
    big = 0
    weighted = 0.0
    if wl > frac * post_total:
        big += 1
    if wl > 0.0 and not pure_l:
        weighted += wl * (lwl - sl / wl)
    if wr > frac * post_total:
        big += 1
    if wr > 0.0 and not pure_r:
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
            pre_total,
            pre_imp,
            wl,
            wr,
            logs[i * W + 2 * K],
            logs[i * W + 2 * K + 1],
            sl,
            sr,
            frac,
            False,
            False,
        )
        if np.isnan(g):
            return False, 0.0, False
        best = max(best, g)
    return True, best, inside


@njit(inline="always")
def screen_applies(params, eps):
    """Whether :func:`screen_keeps` can speak for the leaf's rule: information gain, MOA's cut
    points, and the built-in best vs second or best vs null with eps >= tau (no tie), or a
    user's split rule declared monotone (``split_rule_monotone=True``)."""
    if params[P_CUTS] != CUTS_GAUSSIAN or int(params[P_CRITERION]) != CRIT_INFO_GAIN:
        return False
    if params[P_RULE_FN] != 0.0:
        return params[P_RULE_SCREEN] > 0.0
    rule = int(params[P_SPLIT_RULE])
    return eps >= params[P_TAU] and (rule == RULE_BEST_VS_SECOND or rule == RULE_BEST_VS_NULL)


@njit(cache=True, no_cpython_wrapper=True)
def screen_top_two(nom_index, merits, cuts):
    """The screen's best and second-best merits over the features with a candidate: (usable,
    top, second, candidates); not usable where a merit is NaN or no candidate has a finite
    merit (the exact search then decides)."""
    top = -np.inf
    second = -np.inf
    n_candidates = 0
    for j in range(merits.shape[0]):
        if not has_candidate(nom_index, cuts, j):
            continue
        g = merits[j]
        if np.isnan(g):
            return False, top, second, n_candidates
        n_candidates += 1
        second = max(second, min(top, g))
        top = max(top, g)
    return top > -np.inf, top, second, n_candidates


@njit(cache=True, no_cpython_wrapper=True)
def screen_keeps(params, nom_index, merits, cuts, eps, n, looks, depth):
    """(keeps, top, second): whether the leaf's rule keeps the leaf for certain, told from
    merits within ``SCREEN_SLACK`` of the split search's (:func:`feature_candidates` with
    ``screen``; a numeric feature's cut there is 0 where it has a candidate, NaN where not),
    and the screen's best and second-best merits it judged.  The stream kernel's split attempt
    then skips the exact search (True), which it runs otherwise (False), so both reach the same
    decision.  Only where :func:`screen_applies`.

    The exact rule's quantity is the best merit less the second's (or less the null split's
    gain); the true best lies at most ``SCREEN_SLACK`` above the screen's best and the true
    second at most that below the screen's second, so when the screen's quantity plus twice
    the slack is below the threshold, the exact quantity is too.  A user's monotone rule is
    asked at the most favourable merits the slack allows (the best raised by it, the second
    lowered): where it waits there, it waits at the exact merits (n, looks and depth are what
    it is asked with)."""
    usable, top, second, n_candidates = screen_top_two(nom_index, merits, cuts)
    if not usable:
        return False, top, second
    if params[P_RULE_FN] != 0.0:
        verdict = user_verdict(
            params, top + SCREEN_SLACK, second - SCREEN_SLACK, NULL_GAIN, eps, n, looks, depth
        )
        return verdict == KEEP, top, second
    if int(params[P_SPLIT_RULE]) == RULE_BEST_VS_NULL:
        return top + SCREEN_SLACK - NULL_GAIN < eps, top, second
    if n_candidates < 2 or second == -np.inf:
        return False, top, second  # the quantity is infinite: a split
    return (top - second) + 2.0 * SCREEN_SLACK < params[P_MARGIN_FACTOR] * eps, top, second


@njit(cache=True, no_cpython_wrapper=True)
def feature_candidates(C, class_counts, S, s, node, merits, cuts, post, screen):
    """Best merit (and cut, NaN for a multiway split) of every feature at ``node``, whose
    statistics are in slot ``s`` of the slot arrays ``S`` (:class:`~workbench.core.state.
    SlotArrays`), under the policy ``C``; returns True.

    ``post`` is scratch of shape [B, K]; features without statistics get merit -inf.  It takes
    the arrays it reads, not the tree (a call counts a reference to each array it takes), and
    its helpers take single arrays: they run for every feature at every split attempt and
    re-evaluation (:func:`candidates_at` passes the tree's).

    ``screen`` (for :func:`screen_keeps`, under information gain and MOA's cut points): each
    numeric feature's best merit within ``SCREEN_SLACK`` (:func:`numeric_screen_gain`) and a
    cut of 0 where it has a candidate; False as soon as a feature cannot be scored so.
    Nominal features are scored exactly either way.
    """
    params, cut_table, nom_index, nom_card = C.params, C.cuts, C.nom_index, C.nom_card
    g_w, g_mean, g_m2, g_min, g_max = S.g_w, S.g_mean, S.g_m2, S.g_min, S.g_max
    nom, nom_w, nom_nv = S.nom, S.nom_w, S.nom_nv
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
                S.h_count,
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
        C, T.class_counts, slot_arrays(T), T.stats_slot[node], node, merits, cuts, post, False
    )


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


#: Merit of MOA's null-split suggestion (pre-pruning: the one-branch "split" holding the leaf's
#: whole class distribution) under every criterion here: each applies the minimum branch
#: fraction, which a single branch never passes, so it is -inf, as under MOA's information gain
NULL_MERIT = -np.inf


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


@njit(cache=True, no_cpython_wrapper=True)
def is_binary_nominal(C, m, cut):
    """A test on nominal feature m (index among the nominal ones) with cut ``cut`` is the binary
    ``x == cut`` (binary splits only, or a binary candidate that beat the multiway split)."""
    return m >= 0 and (C.params[P_BINARY_NOMINAL] > 0 or not np.isnan(cut))


@njit(cache=True, no_cpython_wrapper=True)
def branch_table(C, S, s, j, cut, post):
    """Class distribution of each branch of the test (feature j, cut) from statistics slot s of
    the slot arrays ``S``, into ``post``; returns the number of branches."""
    m = C.nom_index[j]
    if is_binary_nominal(C, m, cut):
        nominal_binary_post(S.nom, S.nom_w, s, m, int(cut), post)
        return 2
    if m >= 0:
        nominal_post(S.nom, s, m, C.nom_card[m], post)
        return C.nom_card[m]
    if C.params[P_CUTS] == CUTS_COUNTED:
        counted_dists(C.cuts, S.h_count, s, j, cut, post)
        return 2
    gaussian_binary_dists(S.g_w, S.g_mean, S.g_m2, S.g_min, S.g_max, s, j, cut, post)
    return 2


@njit(cache=True, no_cpython_wrapper=True)
def counted_dists(cut_table, h_count, s, j, cut, post):
    """The exact class weights either side of ``cut`` (one of feature j's counted cut points)
    into ``post[0]`` (x <= cut) and ``post[1]``."""
    K = h_count.shape[3]
    for k in range(K):
        post[0, k] = 0.0
        post[1, k] = 0.0
    for b in range(h_count.shape[2]):
        left = b < cut_table.shape[1] and cut_table[j, b] <= cut
        for k in range(K):
            post[0 if left else 1, k] += h_count[s, j, b, k]


@njit(cache=True, no_cpython_wrapper=True)
def branch_dists(T, C, s, j, cut, post):
    """:func:`branch_table` over the tree's arrays."""
    return branch_table(C, slot_arrays(T), s, j, cut, post)


@njit(cache=True, no_cpython_wrapper=True)
def fill_stats(C, S, class_counts, s, node, b1, cut1, b2, cut2, stats, post):
    """What a data-dependent bound reads (:mod:`workbench.bounds.leaf_stats`) into ``stats``:
    the leaf's class weights and the branch-by-class weights of the candidates (b1, cut1) and
    (b2, cut2) (-1: there is none), the tables a split would install (``post`` is scratch)."""
    K = class_counts.shape[1]
    B = (stats.shape[0] - STATS_HEADER - K) // (2 * K)
    for q in range(stats.shape[0]):
        stats[q] = 0.0
    stats[STATS_K] = K
    stats[STATS_B_MAX] = B
    for k in range(K):
        stats[STATS_HEADER + k] = class_counts[node, k]
    for which in range(2):
        j = b1 if which == 0 else b2
        if j < 0:
            continue
        nb = branch_table(C, S, s, j, cut1 if which == 0 else cut2, post)
        stats[STATS_B_BEST + which] = nb
        start = STATS_HEADER + K + which * B * K
        for b in range(min(nb, B)):
            for k in range(K):
                stats[start + b * K + k] = post[b, k]
