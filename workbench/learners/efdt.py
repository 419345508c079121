"""Extremely Fast Decision Tree (Hoeffding Anytime Tree) of Manapragada, Webb and Salehi (004)."""

from __future__ import annotations

from ..core.params import MERIT_ESTIMATES, REEVAL_CLOCKS
from ..core.validate import check_choice, check_positive_int
from .base import BaseTree


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

    * ``merits="moa"``: the G-bar that the tests compare is, per node and attribute, the sum of
      the attribute's best merit over the node's split attempts divided by the number of
      attempts since the node last changed (a node that splits or is replaced keeps its sums
      but counts again from zero); the candidate itself is the attribute of highest merit now,
      and a best merit below 1e-10 never splits.  ``merits="current"`` compares the merits
      computed from the node's statistics now, as 004's Algorithm 3 reads.
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
    * nominal attributes split multiway, so an attribute tested above a node never splits it
      again (all its instances share the value).

    Parameters are the Hoeffding tree's (:class:`~workbench.learners.HoeffdingTree`) with 004's
    and MOA's defaults, and:

    min_samples_reevaluate : the re-evaluation period (004's experiments and MOA: 2,000).
    merits : ``"moa"`` (default) or ``"current"``, see above.
    reeval_clock : ``"tree"`` (default, MOA) or ``"node"``, see above.

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
    _extra_params = dict(min_samples_reevaluate=2000, merits="moa", reeval_clock="tree")

    def _validated(self, n_features, n_classes, categories=None):
        p = super()._validated(n_features, n_classes, categories)
        if p.bound not in ("hoeffding", "user", "user_schedule"):
            raise ValueError(
                "EFDT uses the Hoeffding bound (004 eq. (1)) or a user's own bound function; "
                f"got bound={p.bound!r}"
            )
        p.reeval_period = check_positive_int(self.min_samples_reevaluate, "min_samples_reevaluate")
        p.merits = check_choice(self.merits, "merits", MERIT_ESTIMATES)
        p.reeval_clock = check_choice(self.reeval_clock, "reeval_clock", REEVAL_CLOCKS)
        return p
