"""C-Tree (paper 000, Algorithm 1) and its baseline CorrH-Tree."""
from __future__ import annotations

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
      ``delta / ((h+1)(h+2) t d m)``; ``delta=None`` takes ``delta = 1/t`` (Remark 1).

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
    _bounds = ("ctree_practical", "ctree")

    def __init__(self, n_features: int, n_classes: int = 2, *, criterion="gini",
                 bound="ctree_practical", c=1.0, delta=None, grace_period=100, tau=0.0,
                 **kwargs):
        kwargs.setdefault("binary_nominal", True)
        super().__init__(n_features, n_classes, criterion=criterion, bound=bound, c=c,
                         delta=1e-7 if (delta is None and bound != "ctree") else delta,
                         grace_period=grace_period, tau=tau, **kwargs)
        if self.n_classes != 2:
            raise ValueError(f"CTree is defined for two classes (paper 000); got n_classes="
                             f"{self.n_classes}")
        if self.criterion not in ("entropy", "gini", "kearns_mansour"):
            raise ValueError("CTree's criterion must be 'entropy', 'gini' or 'kearns_mansour' "
                             f"(000 Theorems 1-3); got {self.criterion!r}")


class CorrHTree(BaseTree):
    """CorrH-Tree, the baseline of paper 000: VFDT with the classification error
    ``min(p, 1 - p)`` as split criterion and the Hoeffding bound (range 1).

    ``bound="mcdiarmid"`` with ``criterion="info_gain"`` gives instead the McDiarmid bound of
    000 eq. (2) (Rutkowski et al.), which the paper reports yields one-node trees.
    Defaults follow paper 000's experiments (grace period 100, tau 0).
    """

    def __init__(self, n_features: int, n_classes: int = 2, *, criterion="error",
                 grace_period=100, tau=0.0, **kwargs):
        super().__init__(n_features, n_classes, criterion=criterion,
                         grace_period=grace_period, tau=tau, **kwargs)
