"""The steps of the per-instance loop, one small function each, written into the kernel by numba.

:func:`workbench.core.engine.run_stream` is the one loop over instances; it reads as the algorithm:

    route -> predict -> (ACTIVE: query a label -> detect drift) -> learn -> attempt a split

and each step is a function here.  They are compiled with ``inline="always"``: numba splices
their code into the loop instead of calling them, because a jitted call costs two atomic
reference-count updates per array it takes (the predictor takes a dozen), more than the work of
one instance.  A new learner adds a policy value (``workbench.core.params``) and, where its step
differs, a function here, not a branch in the middle of the loop.

The steps take the tree's arrays one by one, never the :class:`~workbench.core.state.TreeState`
itself, and each ends with :func:`release`.  When numba writes a step into the loop it takes a
reference to every array the step receives and drops it after the array's last use; LLVM's
reference-count pruning cancels the pair only when the drop is reached on every path.  Three
things break that, each measured on SEA (200,000 rows, 0.04 s for the loop written out by hand):
passing the named tuple (a pair for each of its ~25 arrays per instance: 0.35 s); an array whose
last use sits inside a branch (the drop is split over several paths: 0.055 s; a Frugal step that
read the leaf's counts only where the budget admitted a query cost the Frugal tree 10% on
500,000 SEA rows, so :func:`leaf_predict` hands it them); and numba's
Python error model, which gives every float division a path that raises ZeroDivisionError and
leaves the loop without the drop (the kernel is compiled with ``error_model="numpy"``: no
division in the steps can have a zero divisor, each is guarded by the quantity it divides by).
Rare events that need the whole tree (a new statistics slot, a split attempt, a drift reset)
are ordinary calls made by the loop itself.

Leaf predictors (:func:`leaf_predict`, policy ``P_LEAF_PRED``):

* majority class (MC): the leaf's class distribution, normalised.
* Laplace (003 eq. (2)): the majority class, with probabilities ``(n_k + 1) / (n + K)``.
* naive Bayes (NB): P(k | x) proportional to P(k) prod_j P(x_j | k), with the leaf's class
  counts as prior, a Gaussian per (numeric feature, class) and Laplace-smoothed counts
  ``(n_vk + 1) / (n_k + V_k)`` per (nominal feature, value, class), where V_k is the highest
  code class k has shown at that leaf plus one (MOA's ``NominalAttributeClassObserver``: the
  length of that class's vector of value counts), not the feature's declared number of values;
  missing features are left out of the product. A class the leaf's observers never saw gets
  probability 0, and a Gaussian with no spread has density 1 at its mean and 0 elsewhere (as in
  MOA). Computed in log space: the Gaussian terms are accumulated as a sum of squared z-scores
  and a product of variances, so a prediction costs one logarithm per class rather than one per
  (feature, class); where two classes come within rounding of each other, MOA's linear products
  decide (:func:`moa_nb_vote`). Most rows need not even those logarithms: a first pass bounds
  each score from below by the exponent and mantissa of its product (:func:`ln_below`, within
  0.03 of the score), and where the best bound clears the others by more than that, the exact
  scores have the same argmax and no tie (:func:`nb_bounds_decide`); the exact pass runs only
  where it does not, or where the probabilities are asked for. Where every feature is nominal,
  a class's score is a ratio of two products of counts, and where those ratios tell the two
  best classes apart by more than their rounding and the exact path's tie test, no logarithm
  and one division per class are computed (:func:`nb_nominal_argmax`). If every
  class gets probability 0 (a new leaf whose Gaussians each hold one value, say), naive Bayes
  predicts class 0 with equal probabilities, as MOA's argmax of an all-zero vote does (both for
  the prediction and for the adaptive choice's scoring).
* adaptive naive Bayes (NBA, Gama et al. 2003; MOA's and River's default): each leaf counts how
  often MC and NB would have been right on the instances it learned, and predicts with NB
  unless MC has been right more often.

Ties between classes go to the lowest class index, as in MOA.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..active.strategies import (C_DRIFTS, C_QUERIED, C_SEEN, C_WARNINGS, CUSTOM,
                                 custom_query, decide, top_two_margin)
from ..drift.ddm import ddm_reset, ddm_step
from .observers import LOG_SQRT_2PI, float_bits
from .params import (LEAF_LAPLACE, LEAF_NB, LEAF_NBA, P_REEVAL, P_REEVAL_CLOCK,
                     REEVAL_CLOCK_TREE)
from .routing import release, route
from .split import REEVAL_KEEP, alloc_slot, kill_subtree, reevaluate
from .state import M_N_LEAVES, NB_FUNCTIONAL


def inline(fn):
    """A step: numba writes it into its caller (see the module docstring)."""
    return njit(inline="always")(fn)


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
EXP_ZERO_Z2 = 1490.4
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


@njit(cache=True, no_cpython_wrapper=True)
def moa_nb_resolve(T, C, leaf, X, i, mode, mc_pred, need_probs, out, buf):
    """Naive Bayes at ``leaf`` for row i as MOA computes it (:func:`moa_nb_vote` for every
    class), for a row where :func:`leaf_predict` found two classes within rounding of each
    other (equal products then go to the lower class, as in MOA) or a score near the bottom of
    the double range (MOA's linear product, or one of its factors exp(-z^2 / 2), underflows to
    0 there).  Returns (the prediction, naive Bayes' class): MOA's argmax, the first largest
    vote, class 0 when every vote is 0; with ``need_probs`` the probabilities go to ``out``
    where naive Bayes predicts.  Off the fast path: the loop calls it for such rows only."""
    K = T.class_counts.shape[1]
    s = T.stats_slot[leaf]
    total = 0.0
    for k in range(K):
        total += T.class_counts[leaf, k]
    nb = 0
    best_v = -1.0
    top = -np.inf
    for k in range(K):
        v = moa_nb_vote(T.class_counts, T.g_w, T.g_mean, T.g_m2, T.nom, T.nom_w, T.nom_nv,
                        C.nom_index, C.nom_card, leaf, s, X, i, k, total)
        buf[k] = math.log(v) if v > 0.0 else -np.inf
        top = max(top, buf[k])
        if v > best_v:
            nb = k
            best_v = v
    p = mc_pred
    if mode == LEAF_NB or (mode == LEAF_NBA and T.mc_correct[leaf] <= T.nb_correct[leaf]):
        p = nb
        if need_probs:
            norm = 0.0
            for k in range(K):
                buf[k] = math.exp(buf[k] - top) if top > -np.inf else 1.0
                norm += buf[k]
            for k in range(K):
                out[k] = buf[k] / norm
    return p, nb


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
LN_BELOW_GAP = math.log(1.0 / LN_2) - (1.0 / LN_2 - 1.0) * LN_2
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


@inline
def leaf_predict(class_counts, stats_slot, mc_correct, nb_correct, g_w, g_mean, g_m2, nom,
                 nom_w, nom_nv, nom_q, nom_index, nom_card, leaf, X, i, mode, nb_threshold,
                 need_probs, out, buf, acc, all_nominal):
    """Predict row i at ``leaf``: returns (prediction, MC's prediction, NB's prediction, and
    whether naive Bayes must be settled as MOA computes it, :func:`moa_nb_resolve`); with
    ``need_probs`` the class probabilities go to ``out`` (``buf`` and ``acc``, ``[N_ACC, K]``,
    are scratch; ``all_nominal``: every feature is nominal, and naive Bayes first tries
    :func:`nb_nominal_argmax`)."""
    K = class_counts.shape[1]
    has_nominal = nom_card.shape[0] > 0
    total = 0.0
    for k in range(K):
        total += class_counts[leaf, k]
    mc_pred = 0     # argmax of the counts (ties: lowest class)
    for k in range(1, K):
        if class_counts[leaf, k] > class_counts[leaf, mc_pred]:
            mc_pred = k
    if need_probs:
        if mode == LEAF_LAPLACE:
            for k in range(K):
                out[k] = (class_counts[leaf, k] + 1.0) / (total + K)
        else:
            for k in range(K):
                out[k] = class_counts[leaf, k] / total if total > 0.0 else 1.0 / K
    p = mc_pred
    nb_pred = mc_pred
    near = False
    if (mode == LEAF_NB or mode == LEAF_NBA) and total > 0.0 and total >= nb_threshold:
        s = stats_slot[leaf]
        top = -np.inf
        runner_up = -np.inf
        lowest = 0.0   # the lowest log-score of a class that naive Bayes keeps alive
        edge = False   # a Gaussian factor near the bottom of the double range
        nb_pred = 0   # MOA's argmax of an all-zero vote
        inv_total = 1.0 / total
        settled = False   # decided from products of counts (nb_nominal_argmax)
        if all_nominal and s >= 0 and not need_probs:
            settled, nb_pred = nb_nominal_argmax(class_counts, nom, nom_w, nom_nv, nom_q,
                                                 nom_index, nom_card, leaf, s, total, X, i, acc)
        if s >= 0 and has_nominal and not settled:
            nb_nominal_sums(class_counts, nom, nom_w, nom_nv, nom_index, nom_card, leaf, s, X,
                            i, acc)
        # the bounded pass (two classes: nb_pair_bounds, both classes in one pass over the
        # features): each class's log-score from below, without a logarithm (ln_below), which
        # decides 99.5% of rows on SEA, Agrawal, Electricity and Hyperplane; the exact pass
        # where it does not.  With the probabilities asked for, without statistics, where
        # every feature is nominal (the shortcut above has had its try: the bounded pass cost
        # those streams 3%), or with more classes, only the exact pass runs.  (The loop 8-9%
        # faster on the two-class streams than with a bounded pass class by class; that pass,
        # nb_class_score with exact False, kept beside it for more classes made a first use
        # compile 13% longer, and without it Waveform-21's three classes run 6% slower)
        decided = False
        if s >= 0 and not settled and not need_probs and not all_nominal and K == 2:
            top, runner_up, lowest, edge, nb_pred, wide = nb_pair_bounds(
                class_counts, g_w, g_mean, g_m2, nom_index, acc, has_nominal, leaf, s, X, i,
                inv_total)
            decided = not wide and nb_bounds_decide(top, runner_up, lowest, edge)
            if not decided:   # the exact pass starts afresh
                top = -np.inf
                runner_up = -np.inf
                lowest = 0.0
                edge = False
                nb_pred = 0
        for k in range(0 if settled or decided else K):
            logv, alive, edge_k, _wide = nb_class_score(class_counts, g_w, g_mean, g_m2,
                                                        nom_w, nom_index, acc, has_nominal, leaf,
                                                        s, X, i, k, total, inv_total, True)
            if alive:
                lowest = min(lowest, logv)
            edge = edge or edge_k
            buf[k] = logv
            if logv > top:
                nb_pred = k
            runner_up = max(runner_up, min(top, logv))   # no branch: the two largest
            top = max(top, logv)
        # MOA's own products must decide (moa_nb_resolve, called by the loop) when the two
        # largest scores are within rounding of each other, or a score is near the bottom of
        # the double range, where MOA's product or one of its factors exp(-z^2 / 2) underflows
        # (a leaf without statistics compares its counts' shares, as MOA: nothing to settle)
        near = s >= 0 and not settled and not decided and (
            top - runner_up <= 1e-9 * (1.0 + abs(top)) or lowest < -700.0 or edge)
        if mode == LEAF_NB or (mode == LEAF_NBA and mc_correct[leaf] <= nb_correct[leaf]):
            p = nb_pred
            if need_probs and top > -np.inf:   # the exponentials only when asked for
                norm = 0.0
                for k in range(K):
                    buf[k] = math.exp(buf[k] - top)
                    norm += buf[k]
                for k in range(K):
                    out[k] = buf[k] / norm
            elif need_probs:   # NB gives every class 0: no class is more probable
                for k in range(K):
                    out[k] = 1.0 / K
    # (every array's last use unconditional: see the module docstring)
    release(class_counts.shape[0] + stats_slot.shape[0] + mc_correct.shape[0] +
            nb_correct.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] +
            nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] + nom_q.shape[0] +
            nom_index.shape[0] + nom_card.shape[0] + X.shape[0] + out.shape[0] + buf.shape[0] +
            acc.shape[0])
    return p, mc_pred, nb_pred, near


@inline
def welford_update(g_w, g_mean, g_m2, s, j, c, xj):
    """West's weighted Welford update (weight 1) of the Gaussian of (feature j, class c) in
    statistics slot s with the value xj."""
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
    release(g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0])


@inline
def observe(nom_index, nom, nom_w, nom_nv, nom_q, with_q, g_w, g_mean, g_m2, g_min, g_max, s,
            X, i, c):
    """Add row i (class c) to statistics slot s: a count per (nominal feature, value, class),
    with the highest code each class has shown (plus one, ``nom_nv``), and West's weighted
    Welford update (``observers.gaussian_update``, weight 1) per (numeric feature, class).
    Missing values are not observed.  With ``with_q`` (a leaf's slot in a tree whose features
    are all nominal, the only place :func:`nb_nominal_argmax` reads it), where a nominal count
    moved, class c's product of naive Bayes's denominators (``nom_q``) is made again from the
    counts; an inner node's (``learn_along_path`` passes False) is made when the node becomes a
    leaf again (``split.kill_subtree``)."""
    counted = False
    for j in range(X.shape[1]):
        xj = X[i, j]
        if math.isnan(xj):
            continue
        m = nom_index[j]
        if m >= 0:
            v = int(xj)
            nom[s, m, v, c] += 1.0
            nom_w[s, m, c] += 1.0
            if v >= nom_nv[s, m, c]:
                nom_nv[s, m, c] = v + 1.0
            counted = True
        else:
            welford_update(g_w, g_mean, g_m2, s, j, c, xj)
            if xj < g_min[s, j, c]:
                g_min[s, j, c] = xj
            if xj > g_max[s, j, c]:
                g_max[s, j, c] = xj
    if counted and with_q:
        q = 1.0
        for m in range(nom_w.shape[1]):
            q *= nom_w[s, m, c] + nom_nv[s, m, c]
        nom_q[s, c] = q
    release(nom_index.shape[0] + nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] +
            nom_q.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] + g_min.shape[0] + g_max.shape[0] +
            X.shape[0])


@inline
def score_predictors(mc_correct, nb_correct, leaf, c, mc_pred, nb_pred, mode):
    """Adaptive naive Bayes: count which of MC and NB would have been right at this leaf."""
    if mode == LEAF_NBA:
        if mc_pred == c:
            mc_correct[leaf] += 1.0
        if nb_pred == c:
            nb_correct[leaf] += 1.0
    release(mc_correct.shape[0] + nb_correct.shape[0])


@inline
def due_for_split(class_counts, last_eval, counts, leaf, grace, whole):
    """True when the leaf is due for a split attempt; it has just learned an instance.

    ``counts`` None (``GRACE_WEIGHT``, MOA's Hoeffding tree): when the leaf's weight grew by the
    grace period since its last attempt; the weight includes the fractional counts the leaf
    inherited from its parent's split, so rounding can put an attempt one instance later, as in
    MOA.  ``counts`` the tree's ``n_learned`` (``GRACE_COUNT``, MOA's EFDT and 004's code): when
    the number of instances the leaf has learned since it was made is a multiple of the grace
    period.  (None compiles the loop's variant without the count.)  ``whole``: the grace period
    as an integer where it is one, else 0 (the count is then taken modulo the real number).
    The weight at the attempt is recorded either way (``last_eval``)."""
    total = 0.0
    for k in range(class_counts.shape[1]):
        total += class_counts[leaf, k]
    if counts is None:
        due = total - last_eval[leaf] >= grace
    else:
        counts[leaf] += 1
        if whole > 0:   # an integer modulo: the float one is a call into numba's helpers
            due = counts[leaf] % whole == 0
        else:
            due = counts[leaf] % grace == 0.0
    if due:
        last_eval[leaf] = total
    release(class_counts.shape[0] + last_eval.shape[0])
    return due


@inline
def learn_along_path(path, length, class_counts, stats_slot, nom_index, nom, nom_w, nom_nv,
                     nom_q, g_w, g_mean, g_m2, g_min, g_max, X, i, c):
    """UPDATE_PATH (HATT): every inner node on row i's path (``path[:length - 1]``, root first;
    the leaf is ``path[length - 1]`` and learns as every leaf does) counts it and adds it to the
    statistics it kept."""
    for u in range(length - 1):
        node = path[u]
        class_counts[node, c] += 1.0
        s = stats_slot[node]
        if s >= 0:
            observe(nom_index, nom, nom_w, nom_nv, nom_q, False, g_w, g_mean, g_m2, g_min,
                    g_max, s, X, i, c)
    release(path.shape[0] + class_counts.shape[0] + stats_slot.shape[0] + nom_index.shape[0] +
            nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] + nom_q.shape[0] + g_w.shape[0] + g_mean.shape[0] +
            g_m2.shape[0] + g_min.shape[0] + g_max.shape[0] + X.shape[0])


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


@inline
def reevaluation_due(class_counts, last_eval, t, path, length, period, clock):
    """The first position on row i's path (``path[:length - 1]``, root first) whose inner node
    is due for re-evaluation (HATT, every ``P_REEVAL``), or -1.  ``REEVAL_CLOCK_TREE`` (MOA's
    EFDT): when the tree's count of instances before this one (``t - 1``) is a multiple of the
    period, every inner node on the path is due; ``REEVAL_CLOCK_NODE``: a node is due when its
    weight grew by the period since its last re-evaluation."""
    first = -1
    if period > 0 and length > 1:
        if clock == REEVAL_CLOCK_TREE:
            if (t - 1) % period == 0:
                first = 0
        else:
            for u in range(length - 1):
                node = path[u]
                w = 0.0
                for k in range(class_counts.shape[1]):
                    w += class_counts[node, k]
                if w - last_eval[node] >= period:
                    first = u
                    break
    release(class_counts.shape[0] + last_eval.shape[0] + path.shape[0])
    return first


@njit(cache=True, no_cpython_wrapper=True)
def reevaluate_along_path(T, C, path, first, length, merits, cuts, post):
    """Re-evaluate the due inner nodes of the path from position ``first`` on, root first
    (:func:`workbench.core.split.reevaluate`), until one of them edits the tree: the nodes below
    it are then gone or no longer on the row's path.  Returns True if the tree changed: the leaf
    the row reached may be gone, and makes no split attempt for it."""
    period = C.params[P_REEVAL]
    by_tree = C.params[P_REEVAL_CLOCK] == REEVAL_CLOCK_TREE
    for u in range(first, length - 1):
        node = path[u]
        if T.kind[node] <= 0 or T.stats_slot[node] < 0:
            continue
        if not by_tree:
            w = 0.0
            for k in range(T.class_counts.shape[1]):
                w += T.class_counts[node, k]
            if w - T.last_eval[node] < period:
                continue
            T.last_eval[node] = w
        if reevaluate(T, C, node, merits, cuts, post) != REEVAL_KEEP:
            return True
    return False


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


@inline
def query_label(class_counts, control_code, budget, counters, sparams, sstate, rng, leaf, conf,
                probs):
    """ACTIVE setting (000 Algorithm 3): while the query rate stays within the budget, the
    strategy decides whether row i's label is asked.  ``probs`` holds the prediction's class
    probabilities (its two largest give 003's Frugal margin).  Returns (labelled, from the
    random sub-stream)."""
    counters[C_SEEN] += 1
    labelled = control_code < 0
    from_random = True
    if not labelled and counters[C_QUERIED] + 1 <= budget * counters[C_SEEN]:
        m_leaf = 0.0
        top_count = 0.0
        for k in range(class_counts.shape[1]):
            m_leaf += class_counts[leaf, k]
            if class_counts[leaf, k] > top_count:
                top_count = class_counts[leaf, k]
        gap = abs(top_count / m_leaf - 0.5) if m_leaf > 0.0 else 0.0
        if control_code == CUSTOM:   # a user's rule (active.Custom)
            labelled = custom_query(class_counts, leaf, probs, budget, counters, sparams,
                                    sstate, rng)
            from_random = False
        else:
            labelled, from_random = decide(control_code, sparams, sstate, rng, budget, conf,
                                           gap, m_leaf, float(counters[C_SEEN]),
                                           top_two_margin(probs))
    if labelled and control_code >= 0:
        counters[C_QUERIED] += 1
    release(class_counts.shape[0] + counters.shape[0] + sparams.shape[0] + sstate.shape[0] +
            rng.shape[0] + probs.shape[0])
    return labelled, from_random


@inline
def frugal_label(seen, queried, budget, uncertain):
    """ACTIVE setting with 003's Frugal rule (ask when ``p1 - p2 < alpha``, the two largest
    class probabilities) at a leaf whose probabilities are its count fractions: the kernel
    runs this step instead of :func:`query_label` when it gets no random state (``rng=None``,
    see :func:`workbench.core.engine.strategy_rng`).  The loop has tested the margin where
    the leaf predicts (``uncertain``, :func:`count_margin_at`); this step applies the
    budget rule of :func:`query_label` (a budget of 1 admits every query: queried + 1 <= seen
    always holds) to the kernel's local copies of the two counters, ``C_SEEN`` and
    ``C_QUERIED``, and returns (labelled, seen, queried).

    No array goes in.  Learning waits on this step's answer, and with the counters in the
    ``counters`` array the answer also waited on their round trip through memory: that cost
    the Frugal tree 5% on SEA at alpha = 1; in registers (the kernel writes them back before
    it returns) they cost at most 1.5% (measured).  A step that takes the tree's arrays and
    reads them only on some rows, or the strategy call, cost it 5-25% more (numba's
    reference counting, module docstring)."""
    seen += 1
    labelled = False
    if budget >= 1.0 or queried + 1 <= budget * seen:
        labelled = uncertain
    if labelled:
        queried += 1
    return labelled, seen, queried


@njit(cache=True)
def frugal_limits(alpha, K, laplace):
    """The constants of :func:`count_margin_below` for leaves of K classes whose probabilities
    are (n_k + 1) / (n + K) (``laplace``) or n_k / n: (alpha - 1e-14, alpha + 1e-14, what the
    total adds up to m, the prior, alpha, K).  With one class both limits are -inf: there is
    no second probability, the margin is infinite and never below alpha."""
    lo, hi = alpha - 1e-14, alpha + 1e-14
    if K < 2:
        lo = hi = -np.inf
    if laplace:
        return lo, hi, float(K), 1.0, alpha, K
    return lo, hi, 0.0, 0.0, alpha, K


@inline
def count_margin_at(class_counts, leaf, limits):
    """:func:`count_margin_below` at ``leaf``, from its counts: is 003's Frugal margin p1 - p2
    below alpha there?  The kernel's Frugal variant asks before the leaf predicts, so that only
    the answer lives on through the prediction's code.  With the leaf's two largest counts and
    total returned by the prediction and tested after it (as before 2026-11-28), the Frugal tree
    at alpha = 1 took 1.044-1.082 times the Hoeffding tree's time on SEA; asked here,
    1.026-1.064 (median paired ratios; each kernel compiled three times, under PYTHONHASHSEED
    0, 1 and 2, since numba's machine code, and its speed, changes with the hash seed)."""
    total = 0.0
    first = -1.0
    second = -1.0
    for k in range(class_counts.shape[1]):
        ck = class_counts[leaf, k]
        total += ck
        second = max(second, min(first, ck))   # no branch: the order of the counts is noise
        first = max(first, ck)
    release(class_counts.shape[0])
    return count_margin_below(first, second, total, limits)


@inline
def count_margin_below(first, second, total, limits):
    """Is ``p1 - p2 < alpha`` at a leaf whose class probabilities are (n_k + prior) / m, given
    its two largest counts and their total (m = total + K prior; ``limits`` from
    :func:`frugal_limits`)?  The answer is, to the last bit, that of subtracting the two
    probabilities :func:`leaf_predict` writes (``top_two_margin``), without a division where
    it is clear.

    The exact margin is (first - second) / m.  Each rounded probability, and their difference,
    is off by at most half an ulp of a number <= 1, so the float margin lies within 4e-16 of
    the exact one: where the gap first - second is below (alpha - 1e-14) m or above
    (alpha + 1e-14) m, comparing counts gives the answer, and nearer the boundary
    :func:`count_margin_exact` computes the two probabilities as leaf_predict does.

    The first test needs only the largest count and the total.  The second largest count is at
    least the mean of the other K - 1, so the gap is at most (K first - total) / (K - 1), and
    K first - total < (K - 1)(alpha - 1e-14) m means a margin below alpha (the roundings of the
    total and of both sides stay below 2e-15 m).  For two classes the bound is the gap itself;
    for more it settles the leaves far from sure, every leaf at alpha = 1 among them.  It comes
    first because learning waits on the answer: an answer that also waits for the second count
    cost the Frugal tree 1.5-3% on SEA (measured)."""
    lo, hi, add, prior, alpha, K = limits
    m = total + add
    if K * first - total < (K - 1) * (lo * m):
        return True
    gap = first - second
    if gap < lo * m:
        return True
    if gap > hi * m:
        return False
    return count_margin_exact(first, second, m, prior, K, alpha)


@njit(cache=True)
def count_margin_exact(first, second, m, prior, K, alpha):
    """:func:`count_margin_below` within 1e-14 m of the boundary, and at a leaf without counts:
    from the probabilities, as :func:`leaf_predict` computes them.  (An MC leaf with no counts
    has K equal probabilities, margin 0; a problem with one class has no second probability,
    margin inf.)"""
    if K < 2:
        return False
    if m <= 0.0:
        return 0.0 < alpha
    return (first + prior) / m - (second + prior) / m < alpha


@inline
def detect_drift(ddm, counters, error, ddm_min, ddm_strict):
    """DDM on the error of a labelled row.  Returns True on a drift (DDM starts again; the
    kernel then resets the tree)."""
    warning, drift = ddm_step(ddm, error, ddm_min, ddm_strict)
    if warning:
        counters[C_WARNINGS] += 1
    if drift:
        ddm_reset(ddm)
        counters[C_DRIFTS] += 1
    release(ddm.shape[0] + counters.shape[0])
    return drift


@inline
def sample_leaves(meta, leaves, countdown, every, i):
    """Every ``every`` rows, the number of leaves into ``leaves``; a countdown, since an
    integer modulo per instance costs more.  Returns the new countdown."""
    countdown -= 1
    if countdown == 0:
        countdown = every
        leaves[(i + 1) // every - 1] = meta[M_N_LEAVES]
    release(meta.shape[0] + leaves.shape[0])
    return countdown


# ---- UFFT (002): naive Bayes and DDM at inner nodes; the forest kernel
# (workbench.core.forest) calls these, run_stream does not (but for nb_pair_pass, the pass of
# its nb_pair_bounds).

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
