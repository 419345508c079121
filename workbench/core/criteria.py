"""Split criteria: the merit of a split from the class distributions it produces.

Every criterion has the same interface, ``merit(pre, post, n_branches, min_frac)``, where
``pre`` is the class distribution at the leaf (``[K]``) and ``post`` the distributions of the
branches (``[B, K]``, first ``n_branches`` rows used), and a ``merit_range(n_classes)`` for the
bound.  Merits are gains: the null split (no split) has merit 0.

* information gain (Quinlan): H(pre) - sum_b (n_b / n) H(post_b), with H in bits; range
  log2(K).  As in MOA, a split that leaves fewer than two branches holding more than ``min_frac``
  of the weight has merit -inf, so it is never chosen.
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

from .params import CRIT_ENTROPY_HALF, CRIT_ERROR, CRIT_GINI, CRIT_INFO_GAIN, CRIT_KM


@njit(cache=True)
def entropy_bits(dist):
    """Shannon entropy in bits of an unnormalised class distribution (0 for an empty one)."""
    total = 0.0
    for k in range(dist.shape[0]):
        total += dist[k]
    if total <= 0.0:
        return 0.0
    h = 0.0
    for k in range(dist.shape[0]):
        p = dist[k]
        if p > 0.0:
            h -= p * math.log2(p)
    return h / total + math.log2(total)


@njit(cache=True)
def gini_impurity(dist):
    """Gini impurity 1 - sum p_k^2 of an unnormalised class distribution (0 if empty)."""
    total = 0.0
    for k in range(dist.shape[0]):
        total += dist[k]
    if total <= 0.0:
        return 0.0
    s = 0.0
    for k in range(dist.shape[0]):
        p = dist[k] / total
        s += p * p
    return 1.0 - s


@njit(cache=True)
def km_impurity(dist):
    """Kearns-Mansour index sqrt(p (1 - p)) of a two-class distribution."""
    total = dist[0] + dist[1]
    if total <= 0.0:
        return 0.0
    return math.sqrt(dist[0] * dist[1]) / total


@njit(cache=True)
def error_impurity(dist):
    """Classification error 1 - max_k p_k (min(p, 1-p) for two classes)."""
    total = 0.0
    top = 0.0
    for k in range(dist.shape[0]):
        total += dist[k]
        if dist[k] > top:
            top = dist[k]
    if total <= 0.0:
        return 0.0
    return 1.0 - top / total


@njit(cache=True)
def impurity(dist, criterion):
    if criterion == CRIT_GINI:
        return gini_impurity(dist)
    if criterion == CRIT_ENTROPY_HALF:
        return 0.5 * math.log(2.0) * entropy_bits(dist)
    if criterion == CRIT_KM:
        return km_impurity(dist)
    if criterion == CRIT_ERROR:
        return error_impurity(dist)
    return entropy_bits(dist)


@njit(cache=True)
def merit(pre, post, n_branches, criterion, min_frac):
    """Gain of splitting ``pre`` into the first ``n_branches`` rows of ``post``."""
    total = 0.0
    for k in range(pre.shape[0]):
        total += pre[k]
    if total <= 0.0:
        return -np.inf
    post_total = 0.0
    for b in range(n_branches):
        for k in range(post.shape[1]):
            post_total += post[b, k]
    if post_total <= 0.0:
        return -np.inf
    big = 0
    weighted = 0.0
    for b in range(n_branches):
        wb = 0.0
        for k in range(post.shape[1]):
            wb += post[b, k]
        if wb > min_frac * post_total:
            big += 1
        if wb > 0.0:
            weighted += wb * impurity(post[b], criterion)
    if big < 2:
        return -np.inf
    return impurity(pre, criterion) - weighted / post_total


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
