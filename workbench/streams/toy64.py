r"""The toy problem of paper 001 (Sec. V-a): a predefined tree of 2^6 equal cells with known risk.

The unit square is split in two along alternating dimensions (``x1`` at the root, then ``x2``,
...) down to depth 6: an 8 x 8 grid of cells of size 1/64.  Cell ``k`` with centre
:math:`(x_{k,1}, x_{k,2})` has :math:`P(y = 1) = \mu_k = \sigma(5(x_{k,2} - \sqrt{x_{k,1}}))`.

The predefined tree is stored as a heap (node ``i`` has children ``2i + 1`` (left, the lower
half) and ``2i + 2``), 127 nodes, leaves 63..126.  Every node knows its size ``W`` and
``m1 = sum of W_k mu_k`` over its cells, so the true risk of any partition made of predefined
nodes is exact: predicting 1 costs ``W - m1``, predicting 0 costs ``m1``.  :meth:`Toy64.true_risk`
also gives the exact risk of any axis-aligned tree (a fitted BOCT on toy instances).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import check_n, check_real, check_seed

DEPTH = 6
N_CELLS = 2**DEPTH
N_NODES = 2 ** (DEPTH + 1) - 1
FIRST_LEAF = N_CELLS - 1


def _sigmoid(z):
    with np.errstate(over="ignore"):  # a steep slope: exp overflows to inf, the value is 0
        return 1.0 / (1.0 + np.exp(-z))


class Toy64(NamedTuple):
    """Arrays of the predefined tree (heap order)."""

    depth: np.ndarray  # int64 [127]
    W: np.ndarray  # float64 [127] size of each node's subset (1/2^depth)
    m1: np.ndarray  # float64 [127] sum over the node's cells of W_k mu_k
    box: np.ndarray  # float64 [127, 4] x1_lo, x1_hi, x2_lo, x2_hi
    feature: np.ndarray  # int64 [127] attribute the node's test cuts (0: x1, 1: x2), -1 at cells
    cut: np.ndarray  # float64 [127] the cut value
    mu: np.ndarray  # float64 [64] P(y=1) of the cells, in heap-leaf order (node 63 + k)

    def cell_of(self, X) -> np.ndarray:
        """Heap index (63..126) of the cell holding each row of ``X`` [n, 2]."""
        X = np.asarray(X, np.float64)
        node = np.zeros(X.shape[0], np.int64)
        for _ in range(DEPTH):
            f = self.feature[node]
            right = X[np.arange(X.shape[0]), f] > self.cut[node]
            node = 2 * node + 1 + right
        return node

    def sample(self, n: int, seed=None):
        """``n`` instances uniform on the square, labels Bernoulli(mu of their cell)."""
        n = check_n(n, width=3)
        rng = np.random.default_rng(check_seed(seed))
        X = rng.random((n, 2))
        mu = self.mu[self.cell_of(X) - FIRST_LEAF]
        y = (rng.random(n) < mu).astype(np.int64)
        return X, y

    def node_risk(self, node, predict_one) -> np.ndarray:
        """Exact risk contributed by predefined nodes predicting 1 (True) or 0."""
        node = np.asarray(node)
        return np.where(predict_one, self.W[node] - self.m1[node], self.m1[node])

    def bayes_risk(self) -> float:
        """Risk of the full 64-cell tree with the best label in every cell."""
        w = self.W[FIRST_LEAF:]
        return float(np.sum(w * np.minimum(self.mu, 1.0 - self.mu)))

    def true_risk(self, model) -> float:
        """Exact true risk of a fitted tree (any learner on the engine's arrays, numeric tests
        ``x[f] <= t``) on the toy problem: each leaf's box is intersected with the 64 cells."""
        T = model.tree
        from ..core.state import LEAF

        risk = 0.0
        cells = self.box[FIRST_LEAF:]
        stack = [(int(T.meta[4]), np.array([0.0, 1.0, 0.0, 1.0]))]
        while stack:
            s, b = stack.pop()
            if T.kind[s] == LEAF:
                pred = model.predict(np.array([[0.5 * (b[0] + b[1]), 0.5 * (b[2] + b[3])]]))[0]
                ox = np.clip(np.minimum(cells[:, 1], b[1]) - np.maximum(cells[:, 0], b[0]), 0, None)
                oy = np.clip(np.minimum(cells[:, 3], b[3]) - np.maximum(cells[:, 2], b[2]), 0, None)
                area = ox * oy
                loss = (1.0 - self.mu) if pred == 1 else self.mu
                risk += float(np.sum(area * loss))
                continue
            f, t = int(T.feature[s]), float(T.threshold[s])
            left, right = b.copy(), b.copy()
            left[2 * f + 1] = min(b[2 * f + 1], t)
            right[2 * f] = max(b[2 * f], t)
            stack.append((int(T.children[s, 0]), left))
            stack.append((int(T.children[s, 1]), right))
        return risk


def toy64(slope: float = 5.0) -> Toy64:
    """001's toy problem: :math:`\\mu_k = \\sigma(` ``slope`` :math:`(x_{k,2} - \\sqrt{x_{k,1}}))`.

    ``slope`` is a finite number (001 uses 5; 0 makes every cell a fair coin, a negative
    slope mirrors the problem)."""
    slope = check_real(slope, "slope")
    depth = np.zeros(N_NODES, np.int64)
    box = np.zeros((N_NODES, 4))
    box[0] = (0.0, 1.0, 0.0, 1.0)
    feature = np.full(N_NODES, -1, np.int64)
    cut = np.full(N_NODES, np.nan)
    for i in range(FIRST_LEAF):
        f = int(depth[i] % 2)
        lo, hi = box[i, 2 * f], box[i, 2 * f + 1]
        c = 0.5 * (lo + hi)
        feature[i], cut[i] = f, c
        for b, child in enumerate((2 * i + 1, 2 * i + 2)):
            depth[child] = depth[i] + 1
            box[child] = box[i]
            if b == 0:
                box[child, 2 * f + 1] = c
            else:
                box[child, 2 * f] = c
    W = 0.5 ** depth.astype(np.float64)
    centre1 = 0.5 * (box[FIRST_LEAF:, 0] + box[FIRST_LEAF:, 1])
    centre2 = 0.5 * (box[FIRST_LEAF:, 2] + box[FIRST_LEAF:, 3])
    mu = _sigmoid(slope * (centre2 - np.sqrt(centre1)))
    m1 = np.zeros(N_NODES)
    m1[FIRST_LEAF:] = W[FIRST_LEAF:] * mu
    for i in range(FIRST_LEAF - 1, -1, -1):
        m1[i] = m1[2 * i + 1] + m1[2 * i + 2]
    return Toy64(depth, W, m1, box, feature, cut, mu)
