"""Split criteria: the merit of a split from the class distributions it produces.

Every criterion has the same interface, ``merit(pre, post, n_branches, min_frac)``, where
``pre`` is the class distribution at the leaf (``[K]``) and ``post`` the distributions of the
branches (``[B, K]``, first ``n_branches`` rows used), and a ``merit_range(n_classes)`` for the
bound.  Merits are gains: the null split (no split) has merit 0.  Inside the kernels the same
formulas run as ``split_merit`` and ``impurity_row``.

* information gain (Quinlan): H(pre) - sum_b (n_b / n) H(post_b), with H in bits; range
  log2(K).  As in MOA, a split that leaves fewer than two branches holding more than ``min_frac``
  of the weight has merit -inf, so it is never chosen.  The entropy is computed as MOA's
  ``InfoGainSplitCriterion`` computes it, (S log2 S - sum_k n_k log2 n_k) / S with
  log2 x = ln x / ln 2, and the branch shares and weights too, so that merits from the same
  counts are MOA's to the last bit: a leaf's choice between candidates whose merits are equal in
  exact arithmetic (a multiway split and a binary one that groups values with the same class
  proportions) then falls where MOA's falls.  ``fast=True`` (the Gaussian observer's candidate
  cut points, whose estimated weights never tie exactly) computes log2(S) - sum_k n_k log2 n_k
  / S instead: the same merit to rounding, in a third of the time of MOA's divisions.
* Gini gain (Breiman et al.): G(pre) - sum_b (n_b / n) G(post_b), G(p) = 1 - sum_k p_k^2; range 1.
* paper 000's criteria for two classes (Sec. III): the scaled entropy H_1/2 (half the entropy in
  nats), the Gini index J = 2p(1-p) (the Gini above), the Kearns-Mansour index
  Q = sqrt(p(1-p)); and the classification error min(p, 1-p) of CorrH-Tree.  Weighting each
  branch by its share of the weight, sum_b (n_b/n) Q(post_b) is exactly 000's estimator
  sqrt(p1 q1) + sqrt(p0 q0) with p_k = P(Y=1, F=k), q_k = P(Y=0, F=k), and the H_1/2 form equals
  the joint-minus-marginal estimator of Theorem 1.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._functions import impurity_at
from .params import CRIT_ENTROPY_HALF, CRIT_ERROR, CRIT_GINI, CRIT_INFO_GAIN, CRIT_KM, CRIT_LAST


# The kernels take a distribution as a row of a 2-D array (``a[r]`` read in place): a view made
# per candidate split would cost numba two atomic reference-count updates, more than the impurity.


@njit(cache=True)
def impurity_row(a, r, criterion, fast=False):
    """Impurity of the unnormalised class distribution ``a[r]`` under ``criterion`` (a
    ``CRIT_*`` code, or the address of a user's impurity function); 0 if empty.  The two-class
    Kearns-Mansour index reads ``a[r, :2]``.  Information gain: MOA's order of operations
    (:func:`moa_entropy_row`) unless ``fast``."""
    total = 0.0
    for k in range(a.shape[1]):
        total += a[r, k]
    if total <= 0.0:
        return 0.0
    if criterion > CRIT_LAST:
        return user_impurity(criterion, a, r)
    if criterion == CRIT_KM:
        return math.sqrt(a[r, 0] * a[r, 1]) / total
    if criterion == CRIT_GINI:
        s = 0.0
        for k in range(a.shape[1]):
            p = a[r, k] / total
            s += p * p
        return 1.0 - s
    if criterion == CRIT_ERROR:
        top = 0.0
        for k in range(a.shape[1]):
            if a[r, k] > top:
                top = a[r, k]
        return 1.0 - top / total
    if criterion == CRIT_INFO_GAIN and not fast:
        return moa_entropy_row(a, r)
    s_log2 = 0.0
    for k in range(a.shape[1]):
        c = a[r, k]
        if c > 0.0:
            s_log2 += c * math.log2(c)
    h = math.log2(total) - s_log2 / total  # entropy in bits
    if criterion == CRIT_ENTROPY_HALF:
        return 0.5 * math.log(2.0) * h
    return h


LN2 = math.log(2.0)


@njit(cache=True)
def user_impurity(address, a, r):
    """A user criterion (``criterion=my_impurity``) on the class weights ``a[r]``: its function,
    compiled at ``address`` (:mod:`workbench._functions`), called with the row; a value that is
    not finite stops the kernel with an error (the learner names the function)."""
    row = np.ascontiguousarray(a[r])
    v = impurity_at(address)(row)
    if not math.isfinite(v):
        raise ValueError("workbench: a user criterion returned", v, row.copy())
    return v


@njit(cache=True)
def moa_entropy_row(a, r):
    """Entropy in bits of ``a[r]``, in the order of operations of MOA's
    ``InfoGainSplitCriterion.computeEntropy``: (-sum_k n_k log2 n_k + S log2 S) / S over the
    positive counts, log2 x = ln x / ln 2; 0 if empty."""
    h = 0.0
    total = 0.0
    for k in range(a.shape[1]):
        c = a[r, k]
        if c > 0.0:
            h -= c * (math.log(c) / LN2)
            total += c
    if total > 0.0:
        return (h + total * (math.log(total) / LN2)) / total
    return 0.0


@njit(cache=True)
def split_merit(pre_total, pre_impurity, post, n_branches, criterion, min_frac, fast=False):
    """Gain of splitting a leaf (total weight ``pre_total``, impurity ``pre_impurity``) into the
    first ``n_branches`` rows of ``post``.  The leaf's part is computed once per split attempt,
    not once per candidate; as in MOA, fewer than two branches holding more than ``min_frac`` of
    the weight give -inf.  ``fast``: see :func:`impurity_row`."""
    if pre_total <= 0.0:
        return -np.inf
    # as MOA: each branch's weight, their total, and the share w_b / total against min_frac
    post_total = 0.0
    for b in range(n_branches):
        wb = 0.0
        for k in range(post.shape[1]):
            wb += post[b, k]
        post_total += wb
    if post_total <= 0.0:
        return -np.inf
    big = 0
    weighted = 0.0
    for b in range(n_branches):
        wb = 0.0
        for k in range(post.shape[1]):
            wb += post[b, k]
        if (wb > min_frac * post_total) if fast else (wb / post_total > min_frac):
            big += 1
        if wb > 0.0:
            weighted += wb * impurity_row(post, b, criterion, fast)
    if big < 2:
        return -np.inf
    return pre_impurity - weighted / post_total


def _one_row(dist):
    return np.ascontiguousarray(dist, dtype=np.float64).reshape(1, -1)


def impurity(dist, criterion):
    """Impurity of one unnormalised class distribution (0 if empty), from Python."""
    return impurity_row(_one_row(dist), 0, criterion)


def entropy_bits(dist):
    """Shannon entropy in bits of an unnormalised class distribution (0 for an empty one)."""
    return impurity(dist, CRIT_INFO_GAIN)


def gini_impurity(dist):
    """Gini impurity 1 - sum p_k^2 of an unnormalised class distribution (0 if empty)."""
    return impurity(dist, CRIT_GINI)


def km_impurity(dist):
    """Kearns-Mansour index sqrt(p (1 - p)) of a two-class distribution."""
    return impurity(dist, CRIT_KM)


def error_impurity(dist):
    """Classification error 1 - max_k p_k (min(p, 1-p) for two classes)."""
    return impurity(dist, CRIT_ERROR)


def merit(pre, post, n_branches, criterion, min_frac):
    """Gain of splitting ``pre`` into the first ``n_branches`` rows of ``post`` (from Python)."""
    pre2 = _one_row(pre)
    return split_merit(
        float(pre2.sum()),
        impurity_row(pre2, 0, criterion),
        np.ascontiguousarray(post, dtype=np.float64),
        n_branches,
        criterion,
        min_frac,
    )


@njit(cache=True)
def merit_range(n_classes, criterion):
    """R in the Hoeffding bound: log2(K) bits for information gain (K >= 2), ln(K)/2 for the
    scaled entropy, 1/2 for Kearns-Mansour, 1 for Gini and the error."""
    if criterion == CRIT_INFO_GAIN:
        return math.log2(max(n_classes, 2))
    if criterion == CRIT_ENTROPY_HALF:
        return 0.5 * math.log(max(n_classes, 2))
    if criterion == CRIT_KM:
        return 0.5
    return 1.0
