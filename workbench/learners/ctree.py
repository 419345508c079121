"""C-Tree (paper 000, Algorithm 1) and its baseline CorrH-Tree."""

from __future__ import annotations

from .. import _functions as fx
from .base import BaseTree


class CTree(BaseTree):
    """Confidence decision tree of De Rosa and Cesa-Bianchi (paper 000, Algorithm 1).

    Binary splits (nominal features split ``x == v`` against the rest), criteria of Theorems
    1-3 for two classes (``"entropy"``: H_1/2, ``"gini"``: J, ``"kearns_mansour"``: Q), and the
    split test of Algorithm 1, line 6, read with argmin (as printed, with argmax, it could never
    pass)::

        Phi(best) <= Phi(second) - 2 eps_t    i.e.    G(best) - G(second) >= 2 eps_t

    or ``eps_t <= tau``.  ``eps_t`` comes from

    * ``bound="ctree_practical"`` (default, the paper's experiments): eq. (10),
      ``c sqrt(ln(m^2 h^2 t d) / m)``, with h counted from 1 at the root (as printed, h = 0
      at the root makes the logarithm -inf);
    * ``bound="ctree"``: the schedule of eq. (7), the criterion's own Theorem 1-3 bound at
      ``delta / ((h+1)(h+2) t d m)``; ``delta=None`` takes ``delta = 1/t`` (Remark 1);
    * the bounds that stay valid when a leaf tests again and again
      (:mod:`workbench.bounds.anytime`, ``docs/anytime_bounds.md``): ``"gini_looks"`` and
      ``"entropy_looks"`` (000's Theorems 2 and 1 at delta spent over the leaf's looks and
      candidates), ``"cs_gini"`` and ``"cs_entropy"`` (confidence sequences carried to the
      impurity); with ``criterion="gini"`` or ``"info_gain"``, over the leaf's own examples.
      ``bound_scope="tree"`` spends delta over the tree's nodes too.  With
      ``cut_points=...`` (counted cut points) the merits they bound are the exact ones.

    m is the leaf's weight, h its depth, t the number of instances the tree has learned, d the
    number of features.  Defaults follow the paper's experiments: Gini, grace period 100, no
    tie-break (tau = 0).

    Examples
    --------
    >>> from workbench import learners, streams, evaluate
    >>> X, y = streams.rand_cbt(n=20_000, n_leaves=10, seed=1)
    >>> model = learners.CTree(n_features=X.shape[1], c=0.5)
    >>> res = evaluate.prequential(model, X, y)
    >>> res.accuracy > 0.6
    True
    """

    _margin_factor = 2.0
    _bounds = (
        "ctree_practical",
        "ctree",
        "gini_looks",
        "entropy_looks",
        "cs_gini",
        "cs_entropy",
        "hoeffding_looks",
    )

    _defaults = dict(
        n_classes=2,
        criterion="gini",
        bound="ctree_practical",
        c=1.0,
        delta=None,
        grace_period=100,
        tau=0.0,
        binary_nominal=True,
    )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # 000's C-Tree is a two-class learner
        return tags

    def _validated(self, n_features, n_classes, categories=None):
        if n_classes != 2:
            raise ValueError(
                f"Only binary classification is supported. CTree is defined for "
                f"two classes (paper 000); got {n_classes} classes"
            )
        allowed = ("entropy", "gini", "kearns_mansour")
        if self.bound in ("entropy_looks", "cs_entropy", "hoeffding_looks"):
            allowed += ("info_gain",)  # (the bounds of an entropy in bits)
        if not fx.is_user_function(self.criterion) and self.criterion not in allowed:
            raise ValueError(
                "CTree's criterion must be 'entropy', 'gini' or 'kearns_mansour' "
                "(000 Theorems 1-3), or 'info_gain' with an entropy bound valid under repeated "
                f"looks; got {self.criterion!r}"
            )
        return super()._validated(n_features, n_classes, categories)


class CorrHTree(BaseTree):
    """CorrH-Tree, the baseline of paper 000: VFDT with the classification error
    ``min(p, 1 - p)`` as split criterion and the Hoeffding bound (range 1).

    ``bound="mcdiarmid"`` with ``criterion="info_gain"`` gives instead the McDiarmid bound of
    000 eq. (2) (Rutkowski et al.), which the paper reports yields one-node trees.
    Defaults follow paper 000's experiments (grace period 100, tau 0).
    """

    _defaults = dict(n_classes=2, criterion="error", grace_period=100, tau=0.0)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # two classes by default (n_classes=None: any)
        return tags
