"""The label-query rules as the kernels run them: the strategies' codes, their parameter and
state slots, the counters, and the numba decisions (:func:`decide`, :func:`decide_rows`, a user's
:func:`custom_query`).

The engine's loop (:mod:`workbench.core.active_steps`) and the batch kernels read these; the
Python strategy objects (:mod:`workbench.active.strategies`) hold the parameters and state they
pass in.  This module imports nothing of the engine, so the engine can sit above it.
"""

from __future__ import annotations


import numpy as np
from numba import njit

from .. import _functions as fx
from .._rng import normal, uniform
from ..bounds import leaf_consistency_nb


RANDOM = 0
VAR_UNCERTAINTY = 1
RND_VAR_UNCERTAINTY = 2
SELECTIVE_SAMPLING = 3
SPLIT = 4
CONFTREE = 5
SPLIT_CONFTREE = 6
FRUGAL = 7
CUSTOM = 8

# parameter and state slots
S_STEP = 0  # s, threshold adjustment step
S_NU = 1  # nu, share of the random sub-stream
S_DELTA = 2  # delta of leaf consistency (<= 0: 1/t)
S_SIGMA = 3  # spread of the threshold randomisation
S_ALPHA = 4  # Frugal's threshold on the margin p1 - p2
N_SPARAMS = 5
S_RULE = 5  # Custom: the address of the user's rule (workbench._functions)
S_USER = 6  # Custom: the user's own parameters, from here to the end
ST_THETA = 0  # current confidence threshold


@njit(cache=True)
def conftree_query(rng, budget, gap, m, t, delta):
    """Algorithm 2 of 000 at a leaf with m labels and purity gap |Y - 1/2| at time t."""
    if m <= 0.0:
        return True
    if delta <= 0.0:
        delta = 1.0 / t
    eps = leaf_consistency_nb(m, t, delta)
    if gap <= eps:  # not delta-consistent: always ask
        return True
    return uniform(rng) <= (budget + eps) / (budget + eps + gap)


@njit(cache=True)
def var_uncertainty_query(rng, sparams, sstate, confidence, randomised):
    """Algorithms 6 (and its randomised variant): compare the confidence with Theta."""
    theta = sstate[ST_THETA]
    level = theta
    if randomised:
        level = theta * (1.0 + sparams[S_SIGMA] * normal(rng))
    if confidence < level:
        sstate[ST_THETA] = theta * (1.0 - sparams[S_STEP])
        return True
    sstate[ST_THETA] = theta * (1.0 + sparams[S_STEP])
    return False


@njit(cache=True, inline="always")
def top_two_margin(proba):
    """p1 - p2: the largest class probability minus the second largest (003's margin)."""
    p1 = -np.inf
    p2 = -np.inf
    for k in range(proba.shape[0]):
        v = proba[k]
        if v > p1:
            p2 = p1
            p1 = v
        elif v > p2:
            p2 = v
    return p1 - p2


@njit(cache=True, inline="always")
def frugal_query(sparams, margin):
    """003's rule: ask when the margin p1 - p2 is below alpha (strictly, as printed)."""
    return margin < sparams[S_ALPHA]


@njit(cache=True)
def decide(code, sparams, sstate, rng, budget, confidence, gap, m, t, margin=1.0):
    """Ask for the label of the current instance?  Returns (query, from the random sub-stream).

    confidence  the prediction's largest class probability
    gap         |Y - 1/2| at the leaf reached (Y: its fraction of positives)
    m           labels the leaf has learned from;  t  instances seen so far (>= 1)
    margin      p1 - p2, the prediction's two largest class probabilities (Frugal)
    """
    if code == FRUGAL:
        return frugal_query(sparams, margin), False
    if code == RANDOM:
        return uniform(rng) <= budget, True
    if code == VAR_UNCERTAINTY:
        return var_uncertainty_query(rng, sparams, sstate, confidence, False), False
    if code == RND_VAR_UNCERTAINTY:
        return var_uncertainty_query(rng, sparams, sstate, confidence, True), False
    if code == SELECTIVE_SAMPLING:
        return uniform(rng) <= budget / (budget + gap), False
    if code == CONFTREE:
        return conftree_query(rng, budget, gap, m, t, sparams[S_DELTA]), False
    # SPLIT and SPLIT_CONFTREE
    if uniform(rng) <= sparams[S_NU]:
        return uniform(rng) <= budget, True
    if code == SPLIT:
        return var_uncertainty_query(rng, sparams, sstate, confidence, False), False
    return conftree_query(rng, budget, gap, m, t, sparams[S_DELTA]), False


# slots of the ``counters`` vector of an ACTIVE run (the engine's loop and Strategy.query)
C_QUERIED = 0  # labels queried
C_SEEN = 1  # instances seen
C_DRIFTS = 2
C_WARNINGS = 3


@njit(cache=True)
def decide_rows(code, sparams, sstate, rng, budget, proba, gap, m, counters, out):
    """The query decisions of a whole batch, each made from the same model (the mini-batch
    protocol of 003: the model as it stood at the batch's start).  ``proba`` [n, K] are the
    batch's predicted class probabilities, ``gap`` and ``m`` the leaf quantities of
    :func:`decide` per row; the budget rule and ``counters`` as in the engine's query step.
    ``out[i]`` becomes 1 for a queried row."""
    for i in range(proba.shape[0]):
        counters[C_SEEN] += 1
        out[i] = 0
        if counters[C_QUERIED] + 1 <= budget * counters[C_SEEN]:
            row = proba[i]
            q, _r = decide(
                code,
                sparams,
                sstate,
                rng,
                budget,
                row.max(),
                gap[i],
                m[i],
                float(counters[C_SEEN]),
                top_two_margin(row),
            )
            if q:
                out[i] = 1
                counters[C_QUERIED] += 1


@njit(cache=True)
def custom_query(class_counts, leaf, probs, budget, counters, sparams, sstate, rng):
    """A user's rule (:class:`Custom`) at ``leaf``: its function, compiled at the address in
    ``sparams[S_RULE]``, gets the leaf's class counts, the probabilities ``probs``, the budget
    state (B, labels queried so far, instances seen including this one), the random stream, its
    parameters ``sparams[S_USER:]`` and its state ``sstate``."""
    rule = fx.rule_at(int(sparams[S_RULE]))
    return rule(
        np.ascontiguousarray(class_counts[leaf]),
        probs,
        budget,
        float(counters[C_QUERIED]),
        float(counters[C_SEEN]),
        rng,
        np.ascontiguousarray(sparams[S_USER:]),
        sstate,
    )


@njit(cache=True)
def custom_rows(sparams, sstate, rng, budget, proba, counts, counters, out):
    """:func:`decide_rows` for a :class:`Custom` rule: row i's leaf had class counts
    ``counts[i]`` and the model predicted ``proba[i]``."""
    for i in range(proba.shape[0]):
        counters[C_SEEN] += 1
        out[i] = 0
        if counters[C_QUERIED] + 1 <= budget * counters[C_SEEN]:
            if custom_query(
                counts, i, np.ascontiguousarray(proba[i]), budget, counters, sparams, sstate, rng
            ):
                out[i] = 1
                counters[C_QUERIED] += 1
