"""Extremely Fast Decision Tree (Hoeffding Anytime Tree) of Manapragada, Webb and Salehi (004)."""

from __future__ import annotations

from ..core.params import MERIT_ESTIMATES, REEVAL_CLOCKS
from ..core.validate import check_choice, check_positive_int
from .base import BaseTree

#: ``reference``: which code's reading of 004 the tree follows where MOA's port and the paper's
#: own code (github.com/chaitanya-m/kdd2018, 2018) differ
REFERENCES = {
    # MOA's trees.EFDT (2019): a leaf's null-split sum is clamped at 0, R from the leaf's class
    # vector now
    "moa": dict(
        grace_clock="count", range="moa", null_sum="clamped", attempts="one", used_nominal=True
    ),
    # 004's EFDT.java: the null split's sum is not clamped (-inf under information gain, so an
    # impure leaf whose best merit reaches 1e-10 splits at every attempt), and a leaf's R is
    # that of its class vector when it was made
    "kdd2018": dict(
        grace_clock="count", range="created", null_sum="raw", attempts="one", used_nominal=True
    ),
}


class EFDT(BaseTree):
    """Hoeffding Anytime Tree (HATT, 004 Algorithm 3), as MOA's ``EFDT`` implements it.

    Two changes to the Hoeffding tree.  A leaf splits as soon as its best attribute beats the
    *null split* (no split, gain 0) by the Hoeffding bound (004 eq. (1)),

    .. math:: \\bar G(X_a) - \\bar G(X_\\emptyset) > \\epsilon
              = \\sqrt{R^2 \\ln(1/\\delta) / (2n)},

    or on a tie (``epsilon < tau``), instead of waiting until the best beats the second best.
    And every node keeps learning after it split, so that an inner node can be re-evaluated: if
    the best attribute now beats the *current* split attribute by epsilon, the node's subtree is
    replaced by a split on the best attribute with new leaves (the null split winning turns the
    node back into a leaf).

    Where 004 is silent, this follows MOA's ``EFDT`` (read in MOA's source), and
    ``notebooks/05_extremely_fast_decision_tree.ipynb`` lists each choice:

    * a leaf attempts a split when the number of instances it has learned since it was made is
      a multiple of ``grace_period`` (MOA's ``nodeTime``, an integer: no rounding of the
      fractional counts a new leaf inherits can move an attempt);
    * R in the bound is log2 of the length of the node's class-count vector (its highest class
      index seen, plus one, at least 2), at a leaf now and at an inner node when it got its
      test, as MOA's ``getRangeOfMerit`` reads it; with every class seen that is log2 K;
    * the null split is a candidate too; under information gain its merit is -inf (a split
      with one branch), so a leaf's sum for it is clamped at 0 and the leaf compares its best
      attribute's mean merit with 0, while at re-evaluation the null split never wins;

    * ``merits="moa"``: the G-bar that the tests compare is, per node and attribute, the sum of
      the attribute's best merit over the node's split attempts divided by the number of
      attempts since the node last changed (a node that splits or is replaced keeps its sums
      but counts again from zero); the candidate itself is the attribute of highest merit now,
      and a best merit below 1e-10 never splits.  ``merits="current"`` compares the merits
      computed from the node's statistics now, the rest staying MOA's; it is not Algorithm 3
      as printed, which has no tau ties, starts new leaves at zero counts, runs both
      functions on every example and takes X_a from X minus the null split.
    * ``reeval_clock="tree"``: re-evaluation happens when the tree's count of instances is a
      multiple of ``min_samples_reevaluate``, at every inner node on that one instance's path,
      root first, until one of them changes the tree; ``"node"``: whenever a node's own weight
      grew by ``min_samples_reevaluate``.
    * a tie at re-evaluation (``epsilon < tau``) also needs the best to be ahead of the current
      split by more than ``tau / 2``; the same attribute winning again, with another cut point,
      keeps the node and its subtree as they are;
    * a killed node becomes a leaf that keeps its class counts and statistics; the replaced
      node keeps its statistics, its new leaves start from the class distribution its
      statistics estimate for them;
    * nominal attributes split multiway (or ``x == v`` where that candidate of MOA's nominal
      observer has the higher merit), and a leaf never splits on a nominal attribute tested
      above it.

    ``reference="kdd2018"`` follows 004's own code instead (the repository the paper cites, of
    2018, of which MOA's class is a 2019 port): the null split's sum is not clamped, so every
    impure attempt whose best merit reaches 1e-10 splits, and a leaf's R is that of its class
    vector when it was made.  On 004's random-tree streams this grows much larger trees than
    MOA's port (notebook 05, Figure 1).

    Parameters are the Hoeffding tree's (:class:`~workbench.learners.HoeffdingTree`) with 004's
    and MOA's defaults, and:

    min_samples_reevaluate : the re-evaluation period (004's experiments and MOA: 2,000).
    merits : ``"moa"`` (default) or ``"current"``, see above.
    reeval_clock : ``"tree"`` (default, MOA) or ``"node"``, see above.
    reference : ``"moa"`` (default) or ``"kdd2018"``, see above.

    A user's ``split_rule`` decides at EFDT's leaves (where it receives the null split's merit
    as ``g_null``); the re-evaluation of inner nodes keeps EFDT's own rule (best vs current),
    and a ``grace_schedule`` times the leaves' attempts only (not the re-evaluations).

    Examples
    --------
    >>> from workbench import learners, streams, evaluate
    >>> X, y = streams.sea(n=20_000, seed=1)
    >>> model = learners.EFDT(n_features=3, n_classes=2)
    >>> res = evaluate.prequential(model, X, y)
    >>> round(res.accuracy, 2) > 0.8
    True
    """

    _split_rule = "best_vs_null"
    _update = "path"
    _reeval_rule = "best_vs_current"
    _extra_params = dict(
        min_samples_reevaluate=2000, merits="moa", reeval_clock="tree", reference="moa"
    )

    def _validated(self, n_features, n_classes, categories=None):
        p = super()._validated(n_features, n_classes, categories)
        if p.bound not in ("hoeffding", "user", "user_schedule", "user_stats"):
            raise ValueError(
                "EFDT uses the Hoeffding bound (004 eq. (1)) or a user's own bound function; "
                f"got bound={p.bound!r}"
            )
        p.reeval_period = check_positive_int(self.min_samples_reevaluate, "min_samples_reevaluate")
        p.merits = check_choice(self.merits, "merits", MERIT_ESTIMATES)
        p.reeval_clock = check_choice(self.reeval_clock, "reeval_clock", REEVAL_CLOCKS)
        p.reference = check_choice(self.reference, "reference", REFERENCES)
        for name, value in REFERENCES[p.reference].items():
            setattr(p, name, value)
        return p
