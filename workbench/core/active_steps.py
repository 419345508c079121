"""The ACTIVE protocol's steps in the loop (000 Algorithm 3): ask for a label within the budget,
003's Frugal rule on count leaves, and DDM on the errors of labelled instances.

The strategies' own rules (ConfTree, VarUncertainty, ..., a user's ``active.Custom``) are numba
functions of :mod:`workbench.active.rules`; :func:`query_label` applies the budget and calls them.
Each function here is a step (:mod:`workbench.core._inline`) or a small call off the fast path.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..active.rules import (C_DRIFTS, C_QUERIED, C_SEEN, C_WARNINGS, CUSTOM, custom_query,
                            decide, top_two_margin)
from ..drift.ddm import ddm_reset, ddm_step
from ._inline import inline, release


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
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

    No array goes in, and the counters live in registers (the kernel writes them back before
    it returns): learning waits on this step's answer, and a round trip of the counters
    through memory cost the Frugal tree 5% on SEA at alpha = 1 (``benchmarks/README.md``)."""
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
    the answer lives on through the prediction's code (tested after the prediction instead,
    the Frugal tree at alpha = 1 took about 2% more of the Hoeffding tree's time on SEA)."""
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
