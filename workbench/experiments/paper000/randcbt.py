"""Paper 000, the RandCBT generator (Algorithm 4, Sec. VII-A): its prose against the algorithm,
and the stepper demo (C-Tree and H-Tree side by side on a random tree)."""

from __future__ import annotations

from ..._numbers import count

import math

import numpy as np


def prose_leaf_counts(n_leaves: int = 50, draws: int = 2000, seed: int = 0):
    r"""Leaf counts of trees grown by the *prose* of Sec. VII-A: a node with budget n > 1 gives
    :math:`\lfloor nX\rfloor` leaves to the left and :math:`n - 1 - \lfloor nX\rfloor` to the
    right (a budget of 0 or 1 becomes one leaf).  Algorithm 4 (implemented by
    ``streams.rand_cbt``) gives :math:`\max(1, \lfloor nX\rfloor)` and the rest, hence exactly n.

    Returns an array of ``draws`` leaf counts.
    """
    rng = np.random.default_rng(seed)

    def grow(n):
        if n <= 1:
            return 1
        left = int(math.floor(n * rng.uniform()))
        return grow(left) + grow(n - 1 - left)

    return np.array([grow(n_leaves) for _ in range(draws)])


def stepper_demo(
    n: int = 20_000,
    seed: int = 4,
    n_leaves: int = 6,
    d: int = 3,
    c: float = 0.02,
    delta: float = 0.5,
    k: int = 500,
    start: int = 4000,
):
    """C-Tree and H-Tree stepping side by side through one RandCBT stream, next to the tree that
    generated it.

    Returns ``(compare, generator, info)``: ``compare`` is ``viz.side_by_side`` of two
    ``viz.TreeStepper`` (C-Tree with a slider for ``c``, H-Tree -- Gini, grace period 100,
    no tie-break -- with a slider for ``delta``), already stepped to ``start``; ``generator`` the
    generating tree drawn by ``viz.show_dot``; ``info`` the stream's info (``info.tree``).
    """
    from ... import learners, streams, viz

    X, y, info = streams.rand_cbt(n=n, seed=seed, n_leaves=n_leaves, d=d, return_info=True)

    def make_ctree(**p):
        return learners.CTree(d, **{"c": c, **p})

    def make_htree(**p):
        # tau = 0: no tie-break, as in Figure 3's H-Tree
        return learners.HoeffdingTree(
            d, 2, **{"criterion": "gini", "grace_period": 100, "tau": 0.0, "delta": delta, **p}
        )

    s1 = viz.TreeStepper(
        make_ctree, X, y, params={"c": (1e-3, 1.0, "log")}, k=k, title="C-Tree (eq. 10)"
    )
    s2 = viz.TreeStepper(
        make_htree, X, y, params={"delta": (1e-7, 0.999, "log")}, k=k, title="H-Tree (VFDT, Gini)"
    )
    compare = viz.side_by_side(s1, s2, k=k)
    if start:
        compare.step(start)
    generator = viz.show_dot(info.tree.to_dot(), title="the tree that generated the stream")
    return compare, generator, info


def stepper_summary(compare, info) -> str:
    """One line on :func:`stepper_demo`'s trees: the generator's size and Bayes error, each
    stepper's tree size and accuracy at its position."""
    parts = [
        f"generating tree: {count(info.tree.n_leaves, 'leaf', 'leaves')}, Bayes error {info.tree.bayes_error():.2f}"
    ]
    parts += [
        f"{s.title}: {count(s.model.n_leaves, 'leaf', 'leaves')}, accuracy {s.accuracy:.3f} at t = {s.t:,}"
        for s in compare.steppers
    ]
    return "; ".join(parts)
