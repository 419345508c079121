"""Split rules, defined once: what a node's best candidate split is compared with.

Every rule of the five papers has the same shape: a *quantity* that must exceed a *threshold*
(``quantity > threshold``), or else a tie that the tie threshold breaks (``eps < tau``).  The
rules differ only in what the quantity is:

``RULE_BEST_VS_SECOND``  ``G(best) - G(second best)`` against ``f * eps`` (VFDT with f = 1, 004
    eq. (1); C-Tree with f = 2, 000 Algorithm 1).  With one candidate only, the second is MOA's
    *null split* suggestion (pre-pruning): the one-branch "split" that keeps the leaf, scored by
    the criterion itself.  Every criterion here refuses a split with fewer than two branches
    above the minimum branch fraction, so its merit is -inf and the single candidate wins at its
    first test, as in MOA under information gain.
``RULE_BEST_VS_NULL``    ``G(best) - G(null)`` against ``eps``: with the merits of the statistics
    now, ``G(null) = 0``, not splitting changes no impurity (HATT's AttemptToSplit, 004
    Algorithm 3; 001's Hoeffding baseline); with MOA's merit sums, the null split's mean
    (:mod:`workbench.core.search`).
``RULE_BEST_VS_CURRENT`` ``G(best) - G(current)`` against ``eps`` at an inner node, the current
    split's merit computed from the node's own statistics (HATT's ReEvaluateBestSplit).  If the
    null split is the best, the node is turned back into a leaf.  A tie (``eps < tau``) here
    also needs ``G(best) - G(current) > tau / 2``, as in MOA's EFDT (004 states no tie rule for
    re-evaluation): without it, once eps fell below tau every re-evaluation would swap the split
    for any attribute that is ahead by a hair.

Each rule returns ``(quantity, threshold)``; :func:`decide` turns them into an outcome, and
``explain_one`` and the stepper show the same two numbers with the labels of
:data:`RULE_LABELS`, so no rule is restated in Python.  A new rule (the credible intervals of
001) adds a code, a branch in :func:`rule_quantity` and a row in :data:`RULE_LABELS`.

A researcher's own leaf rule needs none of that: ``split_rule=my_rule``, a numba function
``(g_best, g_second, g_null, epsilon, tau, n, looks, depth) -> 0, 1 or 2`` called through the
address of its compiled code (:func:`user_verdict`); it replaces :func:`decide` at a leaf's
split attempt, while the quantity and threshold of the built-in rule are still what
explanations show beside its verdict.
"""

from __future__ import annotations

import math

from numba import njit

from .._functions import split_rule_at
from .params import (
    P_RULE_FN,
    P_TAU,
    RULE_BEST_VS_CURRENT,
    RULE_BEST_VS_NULL,
    RULE_BEST_VS_SECOND,
    RULE_CREDIBLE,
    RULE_CREDIBLE_TEXT,
)

#: G of the null split in the best-vs-null and best-vs-current rules: the gain of keeping a leaf
NULL_GAIN = 0.0

#: code -> (rule name, label of its quantity, name of what the best is compared with)
RULE_LABELS = {
    RULE_BEST_VS_SECOND: ("best vs second best", "G(best) - G(second best)", "second best"),
    RULE_BEST_VS_NULL: ("best vs null split", "G(best) - G(null)", "null split"),
    RULE_BEST_VS_CURRENT: ("best vs current split", "G(best) - G(current)", "current split"),
    RULE_CREDIBLE: (
        "credible (001 Fig. 3)",
        "W_p eps_p(1 - delta)",
        "min W_1 eps_1(delta) + W_2 eps_2(delta)",
    ),
    RULE_CREDIBLE_TEXT: (
        "credible (001 text)",
        "W_p eps_p(delta)",
        "min W_1 eps_1(delta) + W_2 eps_2(delta)",
    ),
}


@njit(cache=True)
def rule_quantity(rule, g_best, g_second, g_null, g_current, eps, factor):
    """(quantity, threshold) of ``rule`` for a best candidate of merit ``g_best``.

    g_second   merit of the second-best candidate (-inf if there is none)
    g_null     merit of the null split: what the best is compared with (best vs null), or MOA's
               null-split suggestion under the criterion, a rival of the second (best vs second)
    g_current  merit of an inner node's current split (best vs current)
    """
    if rule == RULE_BEST_VS_NULL:
        return g_best - g_null, eps
    if rule == RULE_BEST_VS_CURRENT:
        return g_best - g_current, eps
    reference = g_second if g_second > g_null else g_null
    return g_best - reference, factor * eps


@njit(cache=True)
def credible_quantity(rule, parent_lower, parent_upper, children_upper):
    """(quantity, threshold) of BOCT's credible rule (001 Sec. III): split when the quantity,
    the parent's weighted credible bound, exceeds the threshold, the lowest weighted credible
    upper bound of the children over all tests.  ``RULE_CREDIBLE`` (Fig. 3) compares with the
    parent's *lower* end ``W_p eps_p(1 - delta)``, which is what the 3-delta argument needs;
    ``RULE_CREDIBLE_TEXT`` with its upper end ``W_p eps_p(delta)`` as the text prints it."""
    if rule == RULE_CREDIBLE_TEXT:
        return parent_upper, children_upper
    return parent_lower, children_upper


# decisions of decide()
KEEP = 0  # the quantity does not exceed the threshold and eps >= tau
BY_MARGIN = 1  # quantity > threshold
BY_TIE = 2  # eps < tau: the candidates are too close to matter


@njit(cache=True)
def tie_floor(rule, tau):
    """What the quantity must exceed for a tie to count (``-inf``: nothing, not even a quantity
    of -inf or NaN: MOA's leaves split on a tie whatever their mean merits are)."""
    if rule == RULE_BEST_VS_CURRENT:
        return 0.5 * tau
    return -math.inf


@njit(cache=True)
def decide(quantity, threshold, eps, tau, floor=-math.inf):
    """The verdict on ``quantity > threshold``, or a tie ``eps < tau`` (with
    ``quantity > floor``, :func:`tie_floor`)."""
    if quantity > threshold:
        return BY_MARGIN
    if eps < tau and (floor == -math.inf or quantity > floor):
        return BY_TIE
    return KEEP


@njit(cache=True)
def user_verdict(params, g_best, g_second, g_null, eps, n, looks, depth):
    """The verdict (``KEEP``, ``BY_MARGIN``, ``BY_TIE``) of a user's split rule (``split_rule=``,
    at ``P_RULE_FN``) on the merits its learner's decision path compares: ``g_null`` is the null
    split's merit as EFDT compares it (0 with the merits of the statistics now, the null split's
    mean under MOA's merit sums).  Anything but 0, 1 or 2 stops the kernel with an error that
    carries the arguments (the learner names the function)."""
    v = split_rule_at(int(params[P_RULE_FN]))(
        g_best, g_second, g_null, eps, params[P_TAU], n, looks, depth
    )
    if v < KEEP or v > BY_TIE:
        raise ValueError(
            "workbench: a user split rule returned",
            v,
            g_best,
            g_second,
            g_null,
            eps,
            params[P_TAU],
            n,
            looks,
            depth,
        )
    return v


def rule_name(code: int) -> str:
    return RULE_LABELS[code][0]
