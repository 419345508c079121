"""DOT export of any engine-backed learner, plus the per-node instance counts of a stream.

``to_dot(model)`` is what ``model.to_dot()`` returns; the options are those of
:func:`workbench.core.dot.tree_to_dot` (highlight an instance's path, mark recent splits,
collapse deep subtrees, name nominal values, show how many instances passed each node).
"""

from __future__ import annotations

import numpy as np

from ..core.dot import tree_to_dot


def to_dot(
    model,
    feature_names=None,
    class_names=None,
    *,
    highlight=None,
    recent=0,
    max_depth=None,
    max_nodes=None,
    category_names=None,
    node_counts=None,
    title=None,
    rankdir="TB",
) -> str:
    """Graphviz DOT source of ``model``'s tree.

    Each inner node shows its test and how many instances it has seen, each leaf its class
    distribution, its prediction (majority class) and confidence.  ``highlight`` (an instance
    or its ``explain_one`` result) draws that instance's path and leaf in red; nodes split
    within the last ``recent`` instances are filled amber with a double border; ``max_nodes``
    collapses the deepest levels behind boxes that count the leaves below, so that trees of a
    few hundred nodes stay legible (the highlighted path stays expanded).

    >>> from workbench import learners, streams, viz
    >>> X, y = streams.sea(3000, seed=1)
    >>> model = learners.HoeffdingTree(3, 2, grace_period=50, delta=1e-2).partial_fit(X, y)
    >>> viz.to_dot(model, highlight=X[0], recent=500).startswith("digraph")
    True
    """
    if not hasattr(type(model), "tree") or not hasattr(type(model), "explain_one"):
        raise ValueError(
            f"model must be a workbench learner (e.g. learners.HoeffdingTree()); got "
            f"{type(model).__name__} {model!r:.80}"
        )
    if hasattr(model, "_require_fitted"):
        model._require_fitted()  # NotFittedError: there is no tree to draw yet
    return tree_to_dot(
        model,
        feature_names=feature_names,
        class_names=class_names,
        highlight=highlight,
        recent=recent,
        max_depth=max_depth,
        title=title,
        max_nodes=max_nodes,
        category_names=category_names,
        node_counts=node_counts,
        rankdir=rankdir,
    )


def node_counts(model, X, times=None, tree: int = 0) -> np.ndarray:
    """How many rows of ``X`` pass through each node of ``model``'s current tree.

    times: optional model time (1-based count of instances learned) at which each row was
    learned; a row then counts at a node only if the node already existed (``t_created``
    before it), so the result is "instances this node has seen" for the stream the model
    learned.  Indexed by node row, zero for free rows.  tree: for a forest (UFFT, whose
    ``apply`` gives a leaf per tree), the pairwise tree counted.
    """
    X = model._check_X(X)
    T = model.tree
    counts = np.zeros(T.kind.shape[0], np.int64)
    if X.shape[0] == 0:
        return counts
    cur = np.asarray(model.apply(X))
    if cur.ndim == 2:
        cur = cur[:, tree].copy()
    if times is not None:
        times = np.asarray(times, np.int64)
        if times.shape != (X.shape[0],):
            raise ValueError(
                f"times must have one entry per row of X ({X.shape[0]}); got shape {times.shape}"
            )
    parent = T.parent
    created = T.t_created
    while cur.size:
        sel = cur if times is None else cur[times > created[cur]]
        counts += np.bincount(sel, minlength=counts.shape[0])
        up = parent[cur]
        keep = up >= 0
        cur = up[keep]
        if times is not None:
            times = times[keep]
    return counts
