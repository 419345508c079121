"""RandCBT (paper 000, Algorithm 4): streams from random complete binary trees over [0, 1]^d."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validate import check_bool, check_int, check_n, check_probability, check_seed
from . import truth
from .info import StreamInfo


@dataclass
class RandCBTConcept:
    """The generating tree of :func:`rand_cbt`, as flat arrays (pre-order, node 0 the root).

    ``feature[i]`` / ``threshold[i]``: an inner node sends ``x[feature] <= threshold`` to
    ``children[i, 0]`` (left) and the rest to ``children[i, 1]``; at a leaf ``feature`` is -1 and
    ``p1[i]`` is P(Y = 1 | x reaches i): q for a left child, 1 - q for a right child.
    ``lower``/``upper`` ``[n_nodes, d]`` bound each node's box.
    """

    feature: np.ndarray
    threshold: np.ndarray
    children: np.ndarray
    p1: np.ndarray
    depth: np.ndarray
    lower: np.ndarray
    upper: np.ndarray

    @property
    def is_leaf(self) -> np.ndarray:
        return self.feature < 0

    @property
    def n_leaves(self) -> int:
        return int(self.is_leaf.sum())

    @property
    def leaves(self) -> np.ndarray:
        return np.flatnonzero(self.is_leaf)

    def apply(self, X) -> np.ndarray:
        """Leaf reached by every row of X."""
        X = np.asarray(X, dtype=np.float64)
        node = np.zeros(X.shape[0], np.int64)
        active = ~self.is_leaf[node]
        while active.any():
            idx = np.flatnonzero(active)
            u = node[idx]
            go_right = X[idx, self.feature[u]] > self.threshold[u]
            node[idx] = self.children[u, go_right.astype(np.int64)]
            active = ~self.is_leaf[node]
        return node

    def bayes_error(self, mass=None) -> float:
        """Error of the Bayes classifier: sum over leaves of P(leaf) min(p1, 1 - p1).

        ``mass`` gives P(leaf) per leaf (in ``leaves`` order); by default every leaf gets the
        same number of examples, as Algorithm 4's stream draws them.
        """
        leaves = self.leaves
        if mass is None:
            mass = np.full(leaves.shape[0], 1.0 / leaves.shape[0])
        p = self.p1[leaves]
        return float(np.sum(np.asarray(mass) * np.minimum(p, 1.0 - p)))

    def law(self):
        """The stream's exact law, cell by cell (a :class:`workbench.streams.truth.CellLaw`):
        ``law().feature_gains(tests)`` is the true merit of every feature's best cut in the
        region the tests describe, ``law().split_gain(tests, feature, threshold)`` that of one
        split."""
        return truth.rand_cbt_law(self)

    def to_dot(self, feature_names=None) -> str:
        """Graphviz DOT source: inner nodes show their test, leaves P(Y = 1)."""
        names = feature_names or [f"x{j}" for j in range(self.lower.shape[1])]
        out = ["digraph rand_cbt {", '  node [fontname="Helvetica", fontsize=10];']
        for i in range(self.feature.shape[0]):
            if self.feature[i] < 0:
                out.append(
                    f'  n{i} [label="P(Y=1) = {self.p1[i]:.2f}", shape=box, '
                    f'style=filled, fillcolor="{"#fdb462" if self.p1[i] > 0.5 else "#80b1d3"}"];'
                )
            else:
                out.append(
                    f'  n{i} [label="{names[self.feature[i]]} <= '
                    f'{self.threshold[i]:.3f}", shape=ellipse];'
                )
                out.append(f'  n{i} -> n{self.children[i, 0]} [label="yes"];')
                out.append(f'  n{i} -> n{self.children[i, 1]} [label="no"];')
        out.append("}")
        return "\n".join(out)


def grow_rand_cbt(n_leaves: int, d: int, q: float, rng: np.random.Generator) -> RandCBTConcept:
    """Algorithm 4 of paper 000: split the leaf budget at a uniform fraction, test a uniformly
    chosen attribute at a threshold uniform inside the node's box, recurse left then right."""
    feature, threshold, children, p1, depth, lower, upper = [], [], [], [], [], [], []

    def node(budget: int, is_left: bool, h: int, lo: np.ndarray, hi: np.ndarray) -> int:
        i = len(feature)
        feature.append(-1)
        threshold.append(np.nan)
        children.append([-1, -1])
        p1.append(np.nan)
        depth.append(h)
        lower.append(lo.copy())
        upper.append(hi.copy())
        if budget == 1:
            p1[i] = q if is_left else 1.0 - q
            return i
        left_budget = max(1, int(np.floor(budget * rng.uniform())))
        j = int(rng.integers(d))
        v = float(rng.uniform(lo[j], hi[j]))
        feature[i] = j
        threshold[i] = v
        hi_left = hi.copy()
        hi_left[j] = v
        lo_right = lo.copy()
        lo_right[j] = v
        children[i][0] = node(left_budget, True, h + 1, lo, hi_left)
        children[i][1] = node(budget - left_budget, False, h + 1, lo_right, hi)
        return i

    # the root counts as a left child (it only matters for a one-leaf tree)
    node(n_leaves, True, 0, np.zeros(d), np.ones(d))
    return RandCBTConcept(
        np.array(feature, np.int64),
        np.array(threshold),
        np.array(children, np.int64),
        np.array(p1),
        np.array(depth, np.int64),
        np.array(lower),
        np.array(upper),
    )


def rand_cbt(
    n: int = 100_000,
    seed: int | None = 1,
    n_leaves: int = 50,
    d: int = 5,
    q: float = 0.7,
    return_info: bool = False,
):
    """Stream from a random complete binary tree (paper 000, Algorithm 4 and Sec. VII-A).

    The tree has ``n_leaves`` leaves over [0, 1]^d; leaf i labels an example 1 with
    probability q if it is a left child and 1 - q if it is a right child.  Every leaf gets the
    same number of examples (n // n_leaves, the first n % n_leaves leaves one more), drawn
    uniformly in its box; the stream is then shuffled.  The paper used n_leaves = 50, d = 5,
    q = 0.7 and 10,000 examples per leaf.  Its Bayes error is min(q, 1 - q).

    With ``return_info=True`` the generating tree is ``info.tree`` (a :class:`RandCBTConcept`:
    draw it with ``info.tree.to_dot()``, ``info.tree.bayes_error()``), and ``info.tree.law()``
    the stream's exact law, which gives the true gain of every feature's best cut in any region
    (``info.tree.law().feature_gains([(0, "<=", 0.5)])``, :mod:`workbench.streams.truth`).

    Note: the prose of Sec. VII-A gives the subtrees floor(nX) and n - 1 - floor(nX) leaves,
    which would lose a leaf at every split; Algorithm 4 (implemented here) gives
    max(1, floor(nX)) and the rest, which keeps exactly n leaves.
    """
    n_leaves = check_int(n_leaves, "n_leaves", low=1)
    d = check_int(d, "d", low=1)
    n = check_n(n, width=d + 1)
    q = check_probability(q, "q")
    if n < n_leaves:
        raise ValueError(
            f"n = {n} is smaller than n_leaves = {n_leaves}: every leaf needs an example"
        )
    rng = np.random.default_rng(check_seed(seed))
    tree = grow_rand_cbt(n_leaves, d, q, rng)
    leaves = tree.leaves
    per_leaf = np.full(leaves.shape[0], n // n_leaves)
    per_leaf[: n % n_leaves] += 1
    owner = np.repeat(leaves, per_leaf)
    X = tree.lower[owner] + rng.uniform(size=(n, d)) * (tree.upper[owner] - tree.lower[owner])
    y = (rng.uniform(size=n) < tree.p1[owner]).astype(np.int64)
    order = rng.permutation(n)
    X, y = np.ascontiguousarray(X[order]), y[order]
    if not check_bool(return_info, "return_info"):
        return X, y
    info = StreamInfo(
        name="rand_cbt",
        feature_names=[f"x{j}" for j in range(d)],
        class_names=["0", "1"],
        tree=tree,
        params={"n": n, "seed": seed, "n_leaves": n_leaves, "d": d, "q": q},
    )
    return X, y, info
