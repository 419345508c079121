"""Naive Bayes's arithmetic at a leaf, and its shortcuts (the predictor itself is
:func:`workbench.core.leaf_predict.leaf_predict`).

Scores are computed in log space: the Gaussian terms are accumulated as a sum of squared
z-scores and a product of variances (:func:`gauss_term`), so a prediction costs one logarithm
per class rather than one per (feature, class); where two classes come within rounding of each
other, MOA's linear products decide (:func:`moa_nb_vote`).  Most rows need not even those
logarithms: a first pass bounds each score from below by the exponent and mantissa of its
product (:func:`ln_below`, within 0.03 of the score), and where the best bound clears the others
by more than that, the exact scores have the same argmax and no tie (:func:`nb_bounds_decide`).
Where every feature is nominal, a class's score is a ratio of two products of counts, and where
those ratios tell the two best classes apart by more than their rounding and the exact path's
tie test, no logarithm and one division per class are computed (:func:`nb_nominal_argmax`).
For two classes both scores are summed in one pass (:func:`nb_pair_bounds`), which UFFT's
pairwise trees also use (:func:`nb_pair_logs`, :func:`nb_class`, :func:`pair_proba`).

Every function here is a step (:mod:`workbench.core._inline`): numba writes it into its caller.
"""

from __future__ import annotations

import math

import numpy as np

from ._inline import inline, release
from .observers import LOG_SQRT_2PI, float_bits
from .params import LEAF_NB


@inline
def gauss_term(w, m2, diff, quad, piv, lpiv, n_gauss, renorm):
    """One numeric feature's part of a class's naive-Bayes log-score: its Gaussian has weight
    ``w``, sum of squared deviations ``m2``, and the row lies ``diff`` from its mean.  The
    squared z-score goes into ``quad``, 1/variance into the product ``piv`` (renormalised into
    ``lpiv`` when it leaves [1e-50, 1e50]), so a score costs one logarithm.  Callers pass
    ``renorm`` as a constant: False leaves the renormalising, and with it the call to ``log``,
    out of the caller's loop, for a caller that checks the range itself (:func:`nb_pair_sums`).
    A Gaussian with no spread is a point mass.  Returns the updated (quad, piv, lpiv, n_gauss)
    and True when the class gets probability 0 (no weight, or off the point mass)."""
    dead = False
    if w > 1.0 and m2 > 0.0:   # the common case first
        inv_var = (w - 1.0) / m2   # z^2 = diff^2 / var, var = m2 / (w - 1): one division
        quad += diff * diff * inv_var
        piv *= inv_var
        if renorm and (piv > 1e50 or piv < 1e-50):
            lpiv += math.log(piv)
            piv = 1.0
        n_gauss += 1
    elif w <= 0.0 or diff != 0.0:
        dead = True
    return quad, piv, lpiv, n_gauss, dead


@inline
def nb_log_score(ck, inv_total, piv, lpiv, n_gauss, quad):
    """A class's naive-Bayes log-score from its count and its :func:`gauss_term` sums:
    log(prior) + log(prod 1/var) / 2 - n log(sqrt(2 pi)) - quad / 2."""
    r = ck * inv_total
    return 0.5 * math.log(r * r * piv) + 0.5 * lpiv - n_gauss * LOG_SQRT_2PI - 0.5 * quad


@inline
def moa_nb_vote(class_counts, g_w, g_mean, g_m2, nom, nom_w, nom_nv, nom_index, nom_card, leaf,
                s, X, i, k, total):
    """Naive Bayes' vote for class k at ``leaf`` (statistics slot s) as MOA's
    ``NaiveBayes.doNaiveBayesPrediction`` computes it: the class's share of the leaf's counts
    times each attribute's likelihood in attribute order, in linear space, the Gaussian density
    as MOA's ``GaussianEstimator`` writes it."""
    v = class_counts[leaf, k] / total
    if s >= 0:
        for j in range(X.shape[1]):   # in attribute order; a missing value is skipped
            xj = X[i, j]
            m = nom_index[j]
            if m < 0 and xj == xj:   # numeric (xj == xj: not missing)
                w = g_w[s, j, k]
                if w <= 0.0:
                    v *= 0.0
                else:
                    sd = math.sqrt(g_m2[s, j, k] / (w - 1.0)) if w > 1.0 else 0.0
                    diff = xj - g_mean[s, j, k]
                    if sd > 0.0:
                        v *= (1.0 / (SQRT_2PI * sd)) * math.exp(-(diff * diff / (2.0 * sd * sd)))
                    else:
                        v *= 1.0 if diff == 0.0 else 0.0
            elif m >= 0 and xj == xj:
                nk = nom_w[s, m, k]
                if nk <= 0.0:
                    v *= 0.0
                else:
                    c = 0.0
                    iv = int(xj)
                    if 0 <= iv < nom_card[m] and iv == xj:
                        c = nom[s, m, iv, k]
                    v *= (c + 1.0) / (nk + nom_nv[s, m, k])
    release(class_counts.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] +
            nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] + nom_index.shape[0] +
            nom_card.shape[0] + X.shape[0])
    return v


SQRT_2PI = math.sqrt(2.0 * math.pi)
#: z^2 beyond which exp(-z^2 / 2) is 0.0 in double precision (exp underflows below -745.13)


#: z^2 beyond which exp(-z^2 / 2) is 0.0 in double precision (exp underflows below -745.13)
EXP_ZERO_Z2 = 1490.4
#: z^2 from which exp(-z^2 / 2) is near the subnormal range (e^-700): MOA's products decide


#: z^2 from which exp(-z^2 / 2) is near the subnormal range (e^-700): MOA's products decide
EXP_EDGE_Z2 = 1400.0


@inline
def gauss_extremes(g_w, g_mean, g_m2, nom_w, nom_index, s, X, i, k):
    """(out, edge) of class k's naive-Bayes score for row i at statistics slot s, for a row
    whose squared z-scores sum beyond ``EXP_EDGE_Z2`` (:func:`leaf_predict` calls it then only:
    every single one is below that sum).  MOA's factor exp(-z^2 / 2) is 0.0 in double precision
    beyond z^2 = ``EXP_ZERO_Z2`` (the class is then out) and subnormal from about 1416
    (``edge``: MOA's products must decide, :func:`moa_nb_resolve`).  The features are taken
    in order, with :func:`gauss_term`'s sums, up to the first that puts the class out.

    A step (numba writes it into the rare branch that needs it): as a call, it and the call to
    :func:`moa_nb_resolve` were two call sites in the loop, and with both SEA ran 10% slower
    (measured); scanning for the extreme factors in the loop itself cost as much."""
    quad = 0.0
    piv = 1.0
    lpiv = 0.0
    n_gauss = 0
    edge = False
    for j in range(X.shape[1]):
        m = nom_index[j]
        xj = X[i, j]
        if m >= 0 and xj == xj and nom_w[s, m, k] <= 0.0:   # (xj == xj: not missing)
            return False, edge   # no count of the class for this feature: it is out
        if m >= 0 or math.isnan(xj):
            continue
        q0 = quad
        quad, piv, lpiv, n_gauss, dead = gauss_term(
            g_w[s, j, k], g_m2[s, j, k], xj - g_mean[s, j, k], quad, piv, lpiv, n_gauss, True)
        if dead:
            return False, edge
        if quad - q0 > EXP_ZERO_Z2:
            return True, edge
        if quad - q0 > EXP_EDGE_Z2:
            edge = True
    return False, edge


# rows of the scratch ``acc`` [N_ACC, K] of :func:`nb_nominal_sums`: per class, the product of
# its nominal likelihoods (kept in [1e-50, 1], its logarithm's rest in the second row), and 1.0
# once a nominal feature puts the class out
ACC_PN = 0


ACC_LPN = 1


ACC_DEAD = 2


N_ACC = 3
# the same scratch in :func:`nb_nominal_argmax`: each class's numerator and denominator in the
# first two rows, and ACC_DEAD as above (where the shortcut declines, nb_nominal_sums starts the
# three rows afresh)


# the same scratch in :func:`nb_nominal_argmax`: each class's numerator and denominator in the
# first two rows, and ACC_DEAD as above (where the shortcut declines, nb_nominal_sums starts the
# three rows afresh)
ACC_NUM = 0


ACC_DEN = 1


@inline
def nb_nominal_sums(class_counts, nom, nom_w, nom_nv, nom_index, nom_card, leaf, s, X, i, acc):
    """Every class's product of nominal likelihoods ``(n_vk + 1) / (n_k + V_k)`` for row i at
    statistics slot s, into ``acc``.  Feature by feature, and for each feature class by class:
    the row's code is read once, and a feature's counts of all classes lie side by side in
    memory.  Each class still takes its factors in feature order, up to the first feature it
    never showed (it is then out), so its product is, to the bit, that of taking the classes
    one at a time."""
    K = class_counts.shape[1]
    for k in range(K):
        acc[ACC_PN, k] = 1.0
        acc[ACC_LPN, k] = 0.0
        acc[ACC_DEAD, k] = 0.0
    for j in range(X.shape[1]):
        m = nom_index[j]
        xj = X[i, j]
        if m < 0 or math.isnan(xj):
            continue
        v = int(xj)
        known = 0 <= v < nom_card[m] and v == xj
        for k in range(K):
            nk = nom_w[s, m, k]
            if nk <= 0.0:
                acc[ACC_DEAD, k] = 1.0
            elif acc[ACC_DEAD, k] == 0.0:
                c = nom[s, m, v, k] if known else 0.0
                pn = acc[ACC_PN, k] * ((c + 1.0) / (nk + nom_nv[s, m, k]))
                if pn < 1e-50:
                    acc[ACC_LPN, k] += math.log(pn)
                    pn = 1.0
                acc[ACC_PN, k] = pn
    release(class_counts.shape[0] + nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] +
            nom_index.shape[0] + nom_card.shape[0] + X.shape[0] + acc.shape[0])


# the shortcut's bounds (:func:`nb_nominal_argmax`): it decides where the runner-up's score is
# below (1 - NB_PROD_GAP) times the best's, and every class's at least NB_PROD_LOWEST
NB_PROD_GAP = 1e-6


NB_PROD_LOWEST = 1e-300


LN_2 = math.log(2.0)
# a = 2^e (1 + f) with 0 <= f < 1: ln a = (e + ln(1 + f) / ln 2) ln 2, and on [0, 1] ln(1 + f) lies
# between its chord f ln 2 and the chord plus the largest gap between them, reached where the
# slope 1 / (1 + f) is ln 2: ln(1 / ln 2) - (1 / ln 2 - 1) ln 2 = 0.0597


# a = 2^e (1 + f) with 0 <= f < 1: ln a = (e + ln(1 + f) / ln 2) ln 2, and on [0, 1] ln(1 + f) lies
# between its chord f ln 2 and the chord plus the largest gap between them, reached where the
# slope 1 / (1 + f) is ln 2: ln(1 / ln 2) - (1 / ln 2 - 1) ln 2 = 0.0597
LN_BELOW_GAP = math.log(1.0 / LN_2) - (1.0 / LN_2 - 1.0) * LN_2
# what the bounded pass of naive Bayes adds to a gap before it trusts it: the rounding of its
# own sums and of the exact path's (each a few units in the last place of terms far below 1e6)


# what the bounded pass of naive Bayes adds to a gap before it trusts it: the rounding of its
# own sums and of the exact path's (each a few units in the last place of terms far below 1e6)
NB_BOUND_SLACK = 1e-6


@inline
def ln_below(a):
    """A lower bound of ln a that is within ``LN_BELOW_GAP`` (0.0597) of it, from a's exponent
    and mantissa: no call to ``log``.  -inf for 0 and subnormals, inf for inf and NaN (the
    caller then computes the logarithm)."""
    bits = float_bits(a)
    field = (bits >> 52) & 0x7FF
    if field == 0:
        return -np.inf
    if field == 0x7FF:
        return np.inf
    return ((field - 1023) + (bits & 0xFFFFFFFFFFFFF) * 2.0 ** -52) * LN_2


@inline
def nb_bounds_decide(top, runner_up, lowest, edge):
    """Whether naive Bayes's bounded pass decides the row: its scores are lower bounds within
    ``LN_BELOW_GAP / 2`` of the exact log-scores, so when the best clears the runner-up by more
    than that (and the rounding slack), the exact scores have the same argmax and are further
    apart than the tie test of :func:`leaf_predict`; and no class may be near the bottom of the
    double range (``lowest``, ``edge``), where MOA's own products decide."""
    return (not edge and lowest >= -699.0 and
            top - runner_up > 0.5 * LN_BELOW_GAP + NB_BOUND_SLACK + 1e-9 * (2.0 + abs(top)))


@inline
def nb_nominal_argmax(class_counts, nom, nom_w, nom_nv, nom_q, nom_index, nom_card, leaf, s,
                      total, X, i, acc):
    """Naive Bayes' class at a leaf where every feature is nominal, from products of counts,
    without a logarithm, where it can be told apart: returns (True, class) or (False, 0).

    A class's score is the ratio r_k = P_k / D_k of two products of counts, its numerator
    P_k = n_k prod_j (n_vk + 1) and its denominator D_k = n prod_j (n_k + V_k) (a missing
    feature is left out).  The numerator is built feature by feature as :func:`nb_nominal_sums`
    reads the counts: one multiplication per (feature, class) instead of a division.  The
    product in the denominator does not depend on the row: for a row without missing values it
    is ``nom_q[s, k]``, which :func:`observe` keeps, and only a row with a missing value builds
    it from the counts of its present features.  One division per class.  With d features r_k
    has at most 2d + 1 roundings, a relative error below (2d + 1) 2^-53 (2e-14 for 100
    features), and the exact path's log-score (:func:`leaf_predict`) is as close to ln r_k:
    both far inside the 3e-7 between the margin below and the tie test.  Every r_k is
    at most 1 (n_k <= n, n_vk + 1 <= n_k + V_k).  So where every product is finite, every live
    class's r_k is at least ``NB_PROD_LOWEST`` (its log-score above -691, clear of the exact
    path's underflow test at -700) and the runner-up's is below (1 - ``NB_PROD_GAP``) times the
    best's (a gap of more than 1e-6 in log-score, beyond the exact path's tie test,
    1e-9 (1 + |top|) <= 6.92e-7), the exact path would decide the same class and find no tie:
    (True, its class).  Otherwise (a product that overflowed, classes too close, a score too
    small, every class out): (False, 0), and the exact path decides.  A class is out, as there,
    without a count at the leaf or where a present feature has no count of it (a factor of 0
    in its denominator: a feature's count and its highest code are both 0 until it is seen)."""
    K = class_counts.shape[1]
    for k in range(K):
        acc[ACC_NUM, k] = class_counts[leaf, k]
    # (the bound on the loop is what lets numba's reference-count pruning cancel the step's
    # pairs: with range(X.shape[1]), in a jitted loop of its own, a row of two classes took
    # 100 ns instead of 30)
    missing = False
    for j in range(X.shape[1] if total > 0.0 else 0):
        xj = X[i, j]
        if math.isnan(xj):
            missing = True
            continue
        m = nom_index[j]
        v = int(xj)
        known = 0 <= v < nom_card[m] and v == xj
        for k in range(K):
            acc[ACC_NUM, k] *= (nom[s, m, v, k] if known else 0.0) + 1.0
    for k in range(K):
        acc[ACC_DEN, k] = 1.0 if missing else nom_q[s, k]
    for j in range(X.shape[1] if missing else 0):   # the present features' factors only
        if not math.isnan(X[i, j]):
            m = nom_index[j]
            for k in range(K):
                acc[ACC_DEN, k] *= nom_w[s, m, k] + nom_nv[s, m, k]
    for k in range(K):
        q = acc[ACC_DEN, k]
        acc[ACC_DEAD, k] = 0.0 if class_counts[leaf, k] > 0.0 and q > 0.0 else 1.0
        acc[ACC_DEN, k] = total * q
    top = 0.0
    second = 0.0
    lowest = np.inf
    best = -1
    finite = True
    for k in range(K):
        if acc[ACC_DEAD, k] > 0.0:
            continue
        num = acc[ACC_NUM, k]
        den = acc[ACC_DEN, k]
        finite = finite and num < np.inf and den < np.inf
        r = num / den
        if r > top:
            best = k
        second = max(second, min(top, r))   # no branch: the two largest
        top = max(top, r)
        lowest = min(lowest, r)
    ok = finite and best >= 0 and lowest >= NB_PROD_LOWEST and second < top * (1.0 - NB_PROD_GAP)
    release(class_counts.shape[0] + nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] +
            nom_q.shape[0] + nom_index.shape[0] + nom_card.shape[0] + X.shape[0] + acc.shape[0])
    return ok, best if ok else 0


@inline
def nominal_factor(acc, has_nominal, k, dead):
    """Class k's product of nominal likelihoods from ``acc`` (:func:`nb_nominal_sums`): (its
    part in [1e-50, 1], its logarithm's rest, ``dead`` or whether a nominal feature put the
    class out); (1, 0, ``dead``) without nominal features."""
    pn = 1.0
    lpn = 0.0
    if has_nominal:
        pn = acc[ACC_PN, k]
        lpn = acc[ACC_LPN, k]
        dead = dead or acc[ACC_DEAD, k] > 0.0
    release(acc.shape[0])
    return pn, lpn, dead


@inline
def nb_class_score(class_counts, g_w, g_mean, g_m2, nom_w, nom_index, acc, has_nominal, leaf,
                   s, X, i, k, total, inv_total, exact):
    """Class k's naive-Bayes log-score for row i at ``leaf`` (statistics slot s, its nominal
    products in ``acc``: :func:`nb_nominal_sums`): returns (score, whether the class is alive,
    whether a Gaussian factor is near the bottom of the double range, ``wide``).  ``exact`` (a
    constant at each call) False: a lower bound within ``LN_BELOW_GAP / 2`` of the score,
    without a logarithm (:func:`ln_below`), and without renormalising the product of inverse
    variances; ``wide`` then says that it left [1e-50, 1e50], where the bound does not hold
    and the caller must not decide from it.  The loop takes the exact scores only; the bounded
    ones are what :func:`nb_pair_bounds` is tested against, class by class."""
    ck = class_counts[leaf, k]
    logv = -np.inf
    alive = False
    edge = False
    wide = False
    if ck > 0.0 and s < 0:
        logv = math.log(ck / total)
    elif ck > 0.0:
        # the Gaussian factors, feature by feature up to the first that puts the class out.
        # (A class a nominal feature put out still sums them all: only its quad is read then,
        # for the test below, and a quad summed past the nominal feature only calls
        # gauss_extremes, which stops there, more often.)
        quad = 0.0
        piv = 1.0   # product of 1/variance, renormalised into lpiv (only where exact)
        lpiv = 0.0
        n_gauss = 0
        dead = False
        lo = 1.0
        hi = 1.0
        for j in range(X.shape[1]):
            xj = X[i, j]
            if dead or nom_index[j] >= 0 or math.isnan(xj):
                continue
            quad, piv, lpiv, n_gauss, dead = gauss_term(
                g_w[s, j, k], g_m2[s, j, k], xj - g_mean[s, j, k], quad, piv, lpiv, n_gauss,
                exact)
            if not exact:
                lo = min(lo, piv)
                hi = max(hi, piv)
        wide = lo < 1e-50 or hi > 1e50
        pn, lpn, dead = nominal_factor(acc, has_nominal, k, dead)
        if quad > EXP_EDGE_Z2:   # rare: some factor exp(-z^2 / 2) may be that small
            out_k, edge = gauss_extremes(g_w, g_mean, g_m2, nom_w, nom_index, s, X, i, k)
            dead = dead or out_k
        if not dead:
            # one logarithm per class: log(prior) + log(pn) + log(prod 1/var) / 2, factors
            # kept in [1e-50, 1e50]
            r = ck * inv_total * pn
            ln_a = math.log(r * r * piv) if exact else ln_below(r * r * piv)
            logv = 0.5 * ln_a + lpn + 0.5 * lpiv - n_gauss * LOG_SQRT_2PI - 0.5 * quad
            alive = True
    release(class_counts.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] +
            nom_w.shape[0] + nom_index.shape[0] + acc.shape[0] + X.shape[0])
    return logv, alive, edge, wide


@inline
def nb_pair_tail(acc, has_nominal, k, ck, inv_total, quad, piv, lpiv, n_gauss, dead):
    """Class k's bounded naive-Bayes score from its Gaussian sums (:func:`nb_pair_bounds`), as
    :func:`nb_class_score` with ``exact`` False finishes it: (score, alive, edge), where
    ``edge`` says only that the extremes test would run (its sum of squared z-scores is
    beyond ``EXP_EDGE_Z2``): the pass then does not decide."""
    logv = -np.inf
    alive = False
    pn, lpn, dead = nominal_factor(acc, has_nominal, k, dead)
    # a factor exp(-z^2 / 2) may be near the bottom of the double range (rare): the exact
    # pass decides that row (gauss_extremes written in here too cost 14% of a first use's
    # compile time)
    edge = quad > EXP_EDGE_Z2
    if not dead and not edge:
        r = ck * inv_total * pn
        logv = (0.5 * ln_below(r * r * piv) + lpn + 0.5 * lpiv - n_gauss * LOG_SQRT_2PI
                - 0.5 * quad)
        alive = True
    release(acc.shape[0])
    return logv, alive, edge


@inline
def nb_pair_bounds(class_counts, g_w, g_mean, g_m2, nom_index, acc, has_nominal, leaf, s, X, i,
                   inv_total):
    """The bounded pass of :func:`leaf_predict` for two classes: both classes' Gaussian sums in
    one pass over the features (:func:`nb_pair_pass`, UFFT's pass too: two chains in
    registers, each feature read once), the products of inverse variances not renormalised
    (no call to ``log``).  The scores are those of :func:`nb_class_score` to the bit wherever
    no product left [1e-50, 1e50]; where one did (``wide``) the pass does not decide and the
    exact pass runs.  Returns (top, runner-up, lowest, edge, naive Bayes' class, wide)."""
    c0 = class_counts[leaf, 0]
    c1 = class_counts[leaf, 1]
    q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1, dead1, wide = nb_pair_pass(
        g_w, g_mean, g_m2, nom_index, s, X, i, not c0 > 0.0, not c1 > 0.0, False)
    top = -np.inf
    runner_up = -np.inf
    lowest = 0.0
    edge = False
    nb_pred = 0
    for k in range(2):   # (a loop, not two copies of the tail: compile time)
        ck = c0 if k == 0 else c1
        if ck > 0.0:
            logv, alive, edge_k = nb_pair_tail(
                acc, has_nominal, k, ck, inv_total, q0 if k == 0 else q1,
                piv0 if k == 0 else piv1,
                lpiv0 if k == 0 else lpiv1, n0 if k == 0 else n1, dead0 if k == 0 else dead1)
            if alive:
                lowest = min(lowest, logv)
            edge = edge or edge_k
            if logv > top:
                nb_pred = k
            runner_up = max(runner_up, min(top, logv))
            top = max(top, logv)
    release(class_counts.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] +
            nom_index.shape[0] + acc.shape[0] + X.shape[0])
    return top, runner_up, lowest, edge, nb_pred, wide


# UFFT's features are all numeric: the nominal index nb_pair_pass is given there
NO_NOMINAL = np.empty(0, np.int64)


@inline
def nb_pair_pass(g_w, g_mean, g_m2, nom_index, s, X, i, dead0, dead1, renorm):
    """Both classes' :func:`gauss_term` sums at statistics slot s for row i, in one pass over
    the features (two independent chains of sums, each feature read once), the nominal ones
    (``nom_index[j] >= 0``; an empty ``nom_index``: none, as in UFFT's forest) left out; a
    class that starts dead is skipped.  Without ``renorm`` (a constant) the products of
    inverse variances are not renormalised, and ``wide`` reports whether either left
    [1e-50, 1e50] on the way (kept as the smallest and largest partial product: a min and a
    max per term, not a branch).
    Returns (q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1, dead1, wide)."""
    q0 = 0.0
    piv0 = 1.0
    lpiv0 = 0.0
    n0 = 0
    q1 = 0.0
    piv1 = 1.0
    lpiv1 = 0.0
    n1 = 0
    lo = 1.0
    hi = 1.0
    some_nominal = nom_index.shape[0] > 0
    for j in range(X.shape[1]):
        xj = X[i, j]
        if (some_nominal and nom_index[j] >= 0) or math.isnan(xj):
            continue
        if not dead0:
            q0, piv0, lpiv0, n0, dead0 = gauss_term(g_w[s, j, 0], g_m2[s, j, 0],
                                                    xj - g_mean[s, j, 0], q0, piv0, lpiv0, n0,
                                                    renorm)
        if not dead1:
            q1, piv1, lpiv1, n1, dead1 = gauss_term(g_w[s, j, 1], g_m2[s, j, 1],
                                                    xj - g_mean[s, j, 1], q1, piv1, lpiv1, n1,
                                                    renorm)
        if not renorm:
            lo = min(lo, min(piv0, piv1))
            hi = max(hi, max(piv0, piv1))
    wide = lo < 1e-50 or hi > 1e50
    release(g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] + nom_index.shape[0] + X.shape[0])
    return q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1, dead1, wide


@inline
def nb_pair_sums(g_w, g_mean, g_m2, s, X, i, dead0, dead1):
    """Both classes' naive-Bayes sums at statistics slot s for row i, as :func:`leaf_predict`
    computes them, to the last bit: a pass that multiplies the inverse variances without
    renormalising (:func:`nb_pair_pass`), and only where a product left [1e-50, 1e50] (where
    leaf_predict renormalises) a second pass that does as leaf_predict does.  The renormalising
    step holds a call to ``log``, and a call in the loop, taken or not, cost UFFT 15% of its
    time on Waveform-21 (measured).  Returns (q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1,
    dead1)."""
    q0, piv0, lpiv0, n0, dead0_, q1, piv1, lpiv1, n1, dead1_, wide = nb_pair_pass(
        g_w, g_mean, g_m2, NO_NOMINAL, s, X, i, dead0, dead1, False)
    if wide:
        q0, piv0, lpiv0, n0, dead0_, q1, piv1, lpiv1, n1, dead1_, wide = nb_pair_pass(
            g_w, g_mean, g_m2, NO_NOMINAL, s, X, i, dead0, dead1, True)
    release(g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] + X.shape[0])
    return q0, piv0, lpiv0, n0, dead0_, q1, piv1, lpiv1, n1, dead1_


@inline
def nb_pair_logs(class_counts, stats_slot, g_w, g_mean, g_m2, node, X, i):
    """Naive Bayes' log-scores (l0, l1) for row i at ``node`` of a pairwise tree (UFFT's forest:
    every node has two local classes), numeric features only, -inf for a class that gets
    probability 0: :func:`leaf_predict`'s naive Bayes to the last bit, both classes in one pass
    over the features (:func:`nb_pair_sums`)."""
    c0 = class_counts[node, 0]
    c1 = class_counts[node, 1]
    total = c0 + c1
    s = stats_slot[node]
    l0 = -np.inf
    l1 = -np.inf
    if total > 0.0 and s < 0:
        if c0 > 0.0:
            l0 = math.log(c0 / total)
        if c1 > 0.0:
            l1 = math.log(c1 / total)
    elif total > 0.0:
        q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1, dead1 = nb_pair_sums(
            g_w, g_mean, g_m2, s, X, i, not c0 > 0.0, not c1 > 0.0)
        inv_total = 1.0 / total
        if not dead0:
            l0 = nb_log_score(c0, inv_total, piv0, lpiv0, n0, q0)
        if not dead1:
            l1 = nb_log_score(c1, inv_total, piv1, lpiv1, n1, q1)
    release(class_counts.shape[0] + stats_slot.shape[0] + g_w.shape[0] + g_mean.shape[0] +
            g_m2.shape[0] + X.shape[0])
    return l0, l1


@inline
def nb_class(class_counts, stats_slot, g_w, g_mean, g_m2, node, X, i):
    """Naive Bayes' local class for row i at ``node`` of a pairwise tree (ties to class 0; the
    majority class when naive Bayes gives both 0): UFFT's drift detectors, its functional
    nodes and their scoring.  Only the sign of the difference of the two log-scores matters,
    so it takes one logarithm (of the ratio of the two classes' prior-and-variance factors)
    where :func:`nb_pair_logs` takes two: 4% of UFFT's time on Waveform-21 (measured).  The
    class is :func:`pair_proba`'s more probable one, up to rounding at an exact tie."""
    c0 = class_counts[node, 0]
    c1 = class_counts[node, 1]
    total = c0 + c1
    s = stats_slot[node]
    best = 1 if c1 > c0 else 0
    if total > 0.0 and s < 0:
        best = 0 if c0 >= c1 else 1
    elif total > 0.0:
        q0, piv0, lpiv0, n0, dead0, q1, piv1, lpiv1, n1, dead1 = nb_pair_sums(
            g_w, g_mean, g_m2, s, X, i, not c0 > 0.0, not c1 > 0.0)
        if not dead0 and not dead1:
            d = (0.5 * math.log((c0 * c0 * piv0) / (c1 * c1 * piv1)) + 0.5 * (lpiv0 - lpiv1)
                 - (n0 - n1) * LOG_SQRT_2PI - 0.5 * (q0 - q1))
            best = 0 if d >= 0.0 else 1
        elif not dead0:
            best = 0
        elif not dead1:
            best = 1
    release(class_counts.shape[0] + stats_slot.shape[0] + g_w.shape[0] + g_mean.shape[0] +
            g_m2.shape[0] + X.shape[0])
    return best


@inline
def pair_proba(class_counts, stats_slot, g_w, g_mean, g_m2, leaf, X, i, mode, out):
    """A pairwise tree's two class probabilities for row i at ``leaf`` into ``out``, as
    :func:`leaf_predict` gives them (the counts' fractions, or naive Bayes' posterior with
    ``mode == LEAF_NB`` where it gives some class a chance); returns naive Bayes' class (the
    majority class when it gives both 0, or in MC mode)."""
    c0 = class_counts[leaf, 0]
    c1 = class_counts[leaf, 1]
    total = c0 + c1
    nb = 1 if c1 > c0 else 0
    out[0] = c0 / total if total > 0.0 else 0.5
    out[1] = c1 / total if total > 0.0 else 0.5
    if mode == LEAF_NB and total > 0.0:
        l0, l1 = nb_pair_logs(class_counts, stats_slot, g_w, g_mean, g_m2, leaf, X, i)
        if l0 > -np.inf or l1 > -np.inf:
            # the posterior: exp(l - top) for each class, where the top's factor is exp(0) = 1
            nb = 0 if l0 >= l1 else 1
            b0 = 1.0 if nb == 0 else math.exp(l0 - l1)
            b1 = 1.0 if nb == 1 else math.exp(l1 - l0)
            norm = b0 + b1
            out[0] = b0 / norm
            out[1] = b1 / norm
    release(class_counts.shape[0] + stats_slot.shape[0] + g_w.shape[0] + g_mean.shape[0] +
            g_m2.shape[0] + X.shape[0] + out.shape[0])
    return nb
