"""The leaf predictors, one step of the loop (:func:`leaf_predict`, policy ``P_LEAF_PRED``).

* majority class (MC): the leaf's class distribution, normalised.
* Laplace (003 eq. (2)): the majority class, with probabilities ``(n_k + 1) / (n + K)``.
* naive Bayes (NB): P(k | x) proportional to P(k) prod_j P(x_j | k), with the leaf's class
  counts as prior, a Gaussian per (numeric feature, class) and Laplace-smoothed counts
  ``(n_vk + 1) / (n_k + V_k)`` per (nominal feature, value, class), where V_k is the highest
  code class k has shown at that leaf plus one (MOA's ``NominalAttributeClassObserver``: the
  length of that class's vector of value counts), not the feature's declared number of values;
  missing features are left out of the product.  A class the leaf's observers never saw gets
  probability 0, and a Gaussian with no spread has density 1 at its mean and 0 elsewhere (as in
  MOA).  If every class gets probability 0 (a new leaf whose Gaussians each hold one value,
  say), naive Bayes predicts class 0 with equal probabilities, as MOA's argmax of an all-zero
  vote does (both for the prediction and for the adaptive choice's scoring).  Its arithmetic and
  shortcuts are :mod:`workbench.core.naive_bayes`.
* adaptive naive Bayes (NBA, Gama et al. 2003; MOA's and River's default): each leaf counts how
  often MC and NB would have been right on the instances it learned (:func:`score_predictors`),
  and predicts with NB unless MC has been right more often.

Ties between classes go to the lowest class index, as in MOA.  Where two classes come within
rounding of each other, MOA's linear products decide (:func:`moa_nb_resolve`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._inline import inline, release
from .naive_bayes import (moa_nb_vote, nb_bounds_decide, nb_class_score, nb_nominal_argmax,
                          nb_nominal_sums, nb_pair_bounds)
from .params import LEAF_LAPLACE, LEAF_NB, LEAF_NBA


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
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
        # every feature is nominal (the shortcut above has had its try), or with more classes,
        # only the exact pass runs (a bounded pass for more classes made a first use compile
        # 13% longer for 6% on Waveform-21: benchmarks/README.md)
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


@inline
def score_predictors(mc_correct, nb_correct, class_counts, cls_len, leaf, c, mc_pred, nb_pred,
                     mode):
    """Adaptive naive Bayes: count which of MC and NB would have been right at this leaf.  A
    leaf whose class vector is still empty in MOA's sense (no class count, and none inherited:
    ``cls_len`` 0) has no majority class (MOA's ``maxIndex`` of an empty vector is -1), so its
    first row scores no hit for MC, whatever its label; naive Bayes's argmax of no votes is
    class 0, as MOA's."""
    if mode == LEAF_NBA:
        if mc_pred == c and (cls_len[leaf] > 0 or class_counts[leaf, c] > 0.0):
            mc_correct[leaf] += 1.0
        if nb_pred == c:
            nb_correct[leaf] += 1.0
    release(mc_correct.shape[0] + nb_correct.shape[0] + class_counts.shape[0] + cls_len.shape[0])
