"""What the stepper looks at: the one tree of a learner, or one pairwise tree of a forest.

A tree learner's ``explain_one`` returns one explanation (the path, the leaf, the quantity that
decides its split and the level it must beat); UFFT (paper 002) is a forest of pairwise trees
and returns a ``ForestExplanation``, one entry per tree with its path, leaf and the reason of
its leaf, and the forest's vote.  :class:`TreeLens` gives the stepper the same view of both:
for a forest, pairwise tree ``tree`` (for two classes the only one), with the forest's
prediction.  A forest's leaves do not report their split numbers one by one, so its split
chart shows the leaf's reason in words instead of a trace (:attr:`TreeLens.traced`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...core.dot import tree_to_dot
from ...core.state import FREE, LEAF


@dataclass
class TreeExplanation:
    """One tree's explanation of an instance, as the stepper reads it (the attributes a tree
    learner's explanation has)."""

    path: list = field(default_factory=list)
    leaf: int = -1
    prediction: int = -1
    proba: np.ndarray | None = None
    reason: str = ""
    n: float = 0.0
    quantity: float = math.nan
    threshold: float = math.nan
    quantity_label: str = ""
    threshold_label: str = ""
    tau: float = math.nan
    will_split: bool = False


def is_forest(model) -> bool:
    """True for a learner of several trees (its ``pairs_``, one tree per pair of classes)."""
    return hasattr(model, "pairs_") and hasattr(model, "tree_view")


class TreeLens:
    """The stepper's view of ``model``: its tree, or pairwise tree ``tree`` of a forest."""

    def __init__(self, model, tree: int = 0):
        self.model = model
        self.forest = is_forest(model)
        self.tree = int(tree) if self.forest else 0

    @property
    def traced(self) -> bool:
        """True when the explanations carry the split-deciding numbers (tree learners)."""
        return not self.forest

    @property
    def root(self) -> int:
        return int(self.model.roots[self.tree]) if self.forest else int(self.model.root)

    def explain_one(self, x):
        ex = self.model.explain_one(x)
        if not self.forest:
            return ex
        tr = ex.trees[self.tree]
        return TreeExplanation(
            path=list(tr["path"]),
            leaf=int(tr["leaf"]),
            prediction=int(ex.prediction),
            proba=np.asarray(ex.proba),
            reason=str(tr["reason"]),
            n=float(np.asarray(tr["counts"]).sum()),
        )

    def apply(self, X) -> np.ndarray:
        """The leaf of the tree looked at that each row reaches."""
        leaves = np.asarray(self.model.apply(X))
        return leaves[:, self.tree] if leaves.ndim == 2 else leaves

    def nodes(self) -> np.ndarray:
        """The node rows of the tree looked at (a forest keeps all its trees in one array)."""
        T = self.model.tree
        used = np.flatnonzero(T.kind != FREE)
        if not self.forest:
            return used
        top = used.copy()
        for _ in range(int(T.depth[used].max(initial=0))):
            up = T.parent[top]
            top = np.where(up >= 0, up, top)
        return used[top == self.root]

    @property
    def n_leaves(self) -> int:
        if not self.forest:
            return int(self.model.n_leaves)
        return int(np.sum(self.model.tree.kind[self.nodes()] == LEAF))

    @property
    def depth(self) -> int:
        if not self.forest:
            return int(self.model.depth)
        T = self.model.tree
        nodes = self.nodes()
        return int(T.depth[nodes].max() - T.depth[self.root]) if nodes.size else 0

    def class_names(self, names) -> list:
        """The class names of the tree looked at (a pairwise tree has its pair's two)."""
        if not self.forest:
            return list(names)
        a, b = (int(v) for v in self.model.pairs_[self.tree])
        return [names[a], names[b]]

    def dot(self, **options) -> str:
        """DOT source of the tree looked at (``options`` as ``core.dot.tree_to_dot``)."""
        if self.forest:
            options["class_names"] = self.class_names(options.get("class_names") or [])
            return self.model.to_dot(self.tree, **options)
        return tree_to_dot(self.model, **options)

    def title(self) -> str:
        """A note on which tree is looked at ('' for a tree learner)."""
        if not self.forest or len(self.model.pairs_) == 1:
            return ""
        return f"pairwise tree {self.tree} of {len(self.model.pairs_)}"
