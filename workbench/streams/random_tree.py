"""MOA's ``RandomTreeGenerator``: instances labelled by a randomly grown decision tree.

The concept tree is grown exactly as MOA grows it (Domingos and Hulten's synthetic-tree idea, in
Kirkby's implementation), including its random number generator, so ``tree_seed=r`` gives the same
tree as ``RandomTreeGenerator -r r`` with the same options.  The instances themselves are drawn
with NumPy (vectorised), so the stream is statistically, not bit-for-bit, MOA's.  To give MOA the
identical stream, write it with :func:`~workbench.streams.write_arff`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._java_random import JavaRandom
from ._validate import check_bool, check_int, check_n, check_probability, check_seed
from . import truth
from .info import StreamInfo

#: Growing stops with a ValueError beyond this many nodes (a tree that large is a parameter mistake).
MAX_TREE_NODES = 1_000_000


@dataclass
class RandomTreeConcept:
    """The generating tree of :func:`random_tree`, as flat arrays (one entry per node, pre-order).

    Node 0 is the root.  For node ``i``:

    * ``feature[i]``: the column tested, ``-1`` at a leaf;
    * ``threshold[i]``: for a numeric test, go to ``children[i, 0]`` if ``x < threshold[i]`` and to
      ``children[i, 1]`` otherwise; NaN for nominal tests and leaves;
    * ``children[i, v]``: for a nominal test, the child for code ``v``; ``-1`` pads unused slots;
    * ``label[i]``: the class predicted at a leaf, ``-1`` at an inner node;
    * ``depth[i]``: the root has depth 0.

    Examples
    --------
    >>> from workbench import streams
    >>> X, y, info = streams.random_tree(1000, seed=1, return_info=True)
    >>> tree = info.tree
    >>> bool((tree.predict(X) == y).all()), tree.n_leaves > 1
    (True, True)
    >>> print(tree.to_text().splitlines()[0])  # doctest: +SKIP
    nominal1 = 0
    """

    feature: np.ndarray
    threshold: np.ndarray
    children: np.ndarray
    label: np.ndarray
    depth: np.ndarray
    n_nominal: int
    n_numeric: int
    n_values: int
    n_classes: int
    feature_names: list[str] = field(default_factory=list)

    @property
    def n_nodes(self) -> int:
        return int(self.feature.shape[0])

    @property
    def is_leaf(self) -> np.ndarray:
        return self.feature < 0

    @property
    def n_leaves(self) -> int:
        return int(np.count_nonzero(self.is_leaf))

    @property
    def max_depth(self) -> int:
        """Depth of the deepest leaf (0 for a tree that is a single leaf)."""
        return int(self.depth.max())

    def _check_X(self, X) -> np.ndarray:
        X = np.asarray(X, dtype=np.float64)
        d = self.n_nominal + self.n_numeric
        if X.ndim != 2 or X.shape[1] != d:
            raise ValueError(f"X must be 2-D with {d} columns, got shape {X.shape}")
        if np.isnan(X).any():
            raise ValueError("X contains NaN: the generating tree has no rule for missing values")
        nominal = X[:, : self.n_nominal]
        if nominal.size and (
            np.any(nominal != np.floor(nominal))
            or nominal.min() < 0
            or nominal.max() >= self.n_values
        ):
            raise ValueError(f"nominal columns must hold integer codes 0..{self.n_values - 1}")
        return X

    def apply(self, X) -> np.ndarray:
        """Index of the leaf that each row of ``X`` reaches."""
        return self._route(self._check_X(X))

    def _route(self, X: np.ndarray) -> np.ndarray:
        # Vectorised over rows, one step per level: every row moves to the child its value selects;
        # a leaf routes to itself, so rows that arrived early stay put.
        feature = np.where(self.feature < 0, 0, self.feature)
        threshold = np.nan_to_num(self.threshold)
        nominal_test = (self.feature >= 0) & (self.feature < self.n_nominal)
        step = self.children.copy()
        leaves = np.flatnonzero(self.feature < 0)
        step[leaves, :] = leaves[:, None]
        node = np.zeros(X.shape[0], dtype=np.int64)
        rows = np.arange(X.shape[0])
        for _ in range(self.max_depth):
            x = X[rows, feature[node]]
            branch = np.where(nominal_test[node], x, x >= threshold[node]).astype(np.int64)
            node = step[node, branch]
        return node

    def predict(self, X) -> np.ndarray:
        """The class that the tree assigns to each row of ``X`` (int64)."""
        return self.label[self.apply(X)]

    def _name(self, j: int) -> str:
        return self.feature_names[j] if self.feature_names else f"x{j}"

    def _edges(self, i: int):
        """(child, condition text) for every child of inner node ``i``."""
        j = int(self.feature[i])
        if j < self.n_nominal:
            return [
                (int(c), f"{self._name(j)} = {v}") for v, c in enumerate(self.children[i]) if c >= 0
            ]
        t = self.threshold[i]
        return [
            (int(self.children[i, 0]), f"{self._name(j)} < {t:.4g}"),
            (int(self.children[i, 1]), f"{self._name(j)} >= {t:.4g}"),
        ]

    def to_text(self) -> str:
        """The tree as indented rules, one line per branch, leaves as ``: class k``."""
        if self.feature[0] < 0:
            return f": class {self.label[0]}"
        lines: list[str] = []

        def walk(i: int, indent: str) -> None:
            for child, condition in self._edges(i):
                if self.feature[child] < 0:
                    lines.append(f"{indent}{condition}: class {self.label[child]}")
                else:
                    lines.append(f"{indent}{condition}")
                    walk(child, indent + "|   ")

        walk(0, "")
        return "\n".join(lines)

    def law(self):
        """The stream's exact law, cell by cell (a :class:`workbench.streams.truth.CellLaw`):
        ``law().feature_gains(tests)`` is the true merit of every feature's best cut in the
        region the tests describe, ``law().split_gain(tests, feature, threshold)`` that of one
        split."""
        return truth.random_tree_law(self)

    def to_dot(self) -> str:
        """Graphviz DOT source of the tree (inner nodes name the attribute, leaves the class)."""
        out = ["digraph random_tree {", '  node [fontname="Helvetica"];']
        for i in range(self.n_nodes):
            if self.feature[i] < 0:
                out.append(f'  n{i} [label="class {self.label[i]}", shape=box];')
            else:
                out.append(f'  n{i} [label="{self._name(int(self.feature[i]))}", shape=ellipse];')
        for i in range(self.n_nodes):
            if self.feature[i] >= 0:
                for child, condition in self._edges(i):
                    value = condition.split(" ", 1)[1]
                    out.append(f'  n{i} -> n{child} [label="{value}"];')
        out.append("}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.to_text()


def grow_random_tree(
    tree_seed: int,
    n_classes: int = 2,
    n_nominal: int = 5,
    n_numeric: int = 5,
    n_values: int = 5,
    max_depth: int = 5,
    first_leaf_level: int = 3,
    leaf_fraction: float = 0.15,
    feature_names: list[str] | None = None,
) -> RandomTreeConcept:
    """Grow the concept tree of MOA's ``RandomTreeGenerator`` (see :func:`random_tree`)."""
    rng = JavaRandom(tree_seed)
    feature: list[int] = []
    threshold: list[float] = []
    children: list[list[int]] = []
    label: list[int] = []
    depth: list[int] = []

    def new_node(d: int) -> int:
        if len(feature) >= MAX_TREE_NODES:
            raise ValueError(
                f"the random tree exceeds {MAX_TREE_NODES} nodes; lower max_depth or "
                f"raise leaf_fraction"
            )
        feature.append(-1)
        threshold.append(np.nan)
        children.append([])
        label.append(-1)
        depth.append(d)
        return len(feature) - 1

    def grow(d: int, nominal_left: list[int], low: list[float], high: list[float]) -> int:
        i = new_node(d)
        # MOA draws the leaf coin only between first_leaf_level and max_depth (short-circuit order).
        is_leaf = d >= max_depth or (
            d >= first_leaf_level and leaf_fraction >= 1.0 - rng.next_double()
        )
        n_candidates = len(nominal_left) + n_numeric
        if is_leaf or n_candidates == 0:  # MOA fails on the second case; we stop with a leaf
            label[i] = rng.next_int(n_classes)
            return i
        chosen = rng.next_int(n_candidates)
        if chosen < len(nominal_left):
            j = nominal_left[chosen]
            feature[i] = j
            remaining = [
                a for a in nominal_left if a != j
            ]  # a nominal attribute is used once per path
            children[i] = [grow(d + 1, remaining, low, high) for _ in range(n_values)]
        else:
            k = chosen - len(nominal_left)
            feature[i] = n_nominal + k
            t = (high[k] - low[k]) * rng.next_double() + low[k]
            threshold[i] = t
            left_high = list(high)
            left_high[k] = t
            left = grow(d + 1, nominal_left, low, left_high)
            right_low = list(low)
            right_low[k] = t
            right = grow(d + 1, nominal_left, right_low, high)
            children[i] = [left, right]
        return i

    grow(0, list(range(n_nominal)), [0.0] * n_numeric, [1.0] * n_numeric)
    width = max(2, n_values if n_nominal else 2)
    child_array = np.full((len(feature), width), -1, dtype=np.int64)
    for i, kids in enumerate(children):
        child_array[i, : len(kids)] = kids
    return RandomTreeConcept(
        feature=np.asarray(feature, dtype=np.int64),
        threshold=np.asarray(threshold, dtype=np.float64),
        children=child_array,
        label=np.asarray(label, dtype=np.int64),
        depth=np.asarray(depth, dtype=np.int64),
        n_nominal=n_nominal,
        n_numeric=n_numeric,
        n_values=n_values,
        n_classes=n_classes,
        feature_names=list(feature_names) if feature_names else [],
    )


def random_tree(
    n: int = 100_000,
    seed: int | None = 1,
    n_classes: int = 2,
    n_nominal: int = 5,
    n_numeric: int = 5,
    n_values: int = 5,
    max_depth: int = 5,
    first_leaf_level: int = 3,
    leaf_fraction: float = 0.15,
    tree_seed: int | None = None,
    return_info: bool = False,
):
    """Draw ``n`` instances labelled by a random tree, with the semantics of MOA's ``RandomTreeGenerator``.

    **The tree** (grown once, from ``tree_seed``; defaults equal MOA's ``-c 2 -o 5 -u 5 -v 5 -d 5
    -l 3 -f 0.15``).  A node at depth ``d`` (root: 0) becomes a leaf when ``d >= max_depth``, or
    when ``d >= first_leaf_level`` and a uniform draw says so with probability ``leaf_fraction``.
    A leaf's class is uniform on ``0..n_classes-1``.  Otherwise the node tests an attribute chosen
    uniformly among the nominal attributes not yet tested on the path from the root and all numeric
    attributes (numeric ones may be tested again):

    * a nominal test has one child per value ``0..n_values-1`` (multiway split);
    * a numeric test draws its threshold uniformly inside the interval that the path has left for
      that attribute (initially ``[0, 1)``); values ``< threshold`` go to the first child, whose
      interval becomes ``[low, threshold)``, the others to the second, ``[threshold, high)``.

    Children are grown depth first in order, and all draws use ``java.util.Random(tree_seed)``
    in MOA's order, so the tree is MOA's for the same seed and options.  One deliberate difference:
    when a path has used every nominal attribute and there are no numeric ones, MOA fails, while
    here the node becomes a leaf.

    **The instances** (from ``numpy.random.default_rng(seed)``): the first ``n_nominal`` columns
    are codes uniform on ``0..n_values-1`` (stored as float64), the next ``n_numeric`` columns are
    uniform on ``[0, 1)``; the label is the class of the leaf the instance reaches.  There is no
    label noise.  ``tree_seed=None`` uses ``seed`` (so ``seed=1`` gives MOA's default tree).

    With ``return_info=True``, ``info.tree`` is the :class:`RandomTreeConcept`: flat arrays plus
    ``predict``, ``to_text`` and ``to_dot`` for drawing it, and ``law()``, the stream's exact law
    (:mod:`workbench.streams.truth`): the true gain of every feature's best cut, nominal and
    numeric, in any region (``info.tree.law().feature_gains([(0, "==", 2)])``).

    Examples
    --------
    >>> from workbench import streams
    >>> X, y, info = streams.random_tree(2000, seed=3, n_nominal=2, n_numeric=1, return_info=True)
    >>> X.shape, info.nominal_features
    ((2000, 3), {0: 5, 1: 5})
    """
    seed = check_seed(seed)
    n_classes = check_int(n_classes, "n_classes", 2)
    n_nominal = check_int(n_nominal, "n_nominal", 0)
    n_numeric = check_int(n_numeric, "n_numeric", 0)
    if n_nominal + n_numeric == 0:
        raise ValueError("random_tree needs at least one attribute: n_nominal + n_numeric >= 1")
    n = check_n(n, width=n_nominal + n_numeric + 1)
    n_values = check_int(n_values, "n_values", 2)
    max_depth = check_int(max_depth, "max_depth", 0)
    first_leaf_level = check_int(first_leaf_level, "first_leaf_level", 0)
    leaf_fraction = check_probability(leaf_fraction, "leaf_fraction")
    if tree_seed is None:
        tree_seed = seed if seed is not None else int(np.random.default_rng().integers(2**31))
    else:
        tree_seed = check_int(tree_seed, "tree_seed", -(2**63), 2**63 - 1)

    names = [f"nominal{j + 1}" for j in range(n_nominal)] + [
        f"numeric{j + 1}" for j in range(n_numeric)
    ]
    tree = grow_random_tree(
        tree_seed,
        n_classes,
        n_nominal,
        n_numeric,
        n_values,
        max_depth,
        first_leaf_level,
        leaf_fraction,
        names,
    )
    rng = np.random.default_rng(seed)
    X = np.empty((n, n_nominal + n_numeric), dtype=np.float64)
    X[:, :n_nominal] = rng.integers(0, n_values, size=(n, n_nominal))
    X[:, n_nominal:] = rng.random((n, n_numeric))
    y = tree.label[tree._route(X)]  # X is well-formed by construction: skip the checks
    if not check_bool(return_info, "return_info"):
        return X, y
    info = StreamInfo(
        name="random_tree",
        feature_names=names,
        class_names=[str(k) for k in range(n_classes)],
        nominal_features={j: n_values for j in range(n_nominal)},
        categories={j: [str(v) for v in range(n_values)] for j in range(n_nominal)},
        tree=tree,
        params=dict(
            n=n,
            seed=seed,
            tree_seed=tree_seed,
            n_classes=n_classes,
            n_nominal=n_nominal,
            n_numeric=n_numeric,
            n_values=n_values,
            max_depth=max_depth,
            first_leaf_level=first_leaf_level,
            leaf_fraction=leaf_fraction,
        ),
    )
    return X, y, info
