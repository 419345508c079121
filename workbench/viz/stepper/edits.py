"""Structural edits a re-evaluating learner (EFDT) makes while the stepper steps: an inner node
whose split was *replaced* by another, or *killed* (turned back into a leaf).

The stepper takes :func:`structure` before a step and :func:`find_edits` after it; a step of k
instances reports the net change of those k instances.
"""

from __future__ import annotations

from ...core.state import FREE, LEAF
from ...core.dot import node_test


def structure(T) -> dict:
    """Inner nodes of the tree: node -> (feature, model time of its split, parent, depth)."""
    return {
        int(u): (int(T.feature[u]), int(T.t_split[u]), int(T.parent[u]), int(T.depth[u]))
        for u in range(int(T.meta[0]))
        if T.kind[u] > 0
    }


def find_edits(before: dict, T, t_from: int, names, categories=None) -> list[dict]:
    """Inner nodes of ``before`` that were replaced or killed after model time ``t_from``,
    top-down: the old subtree of an edited node is gone, and its rows may already hold new
    nodes, so nothing below an edited node is reported."""
    out = []
    gone = set()
    for u, (feature, t_split, parent, _depth) in sorted(before.items(), key=lambda kv: kv[1][3]):
        if parent in gone:
            gone.add(u)
            continue
        kind = int(T.kind[u])
        if kind == FREE:
            gone.add(u)
        elif kind == LEAF and int(T.t_created[u]) > t_from:
            gone.add(u)
            out.append(
                {
                    "node": u,
                    "edit": "killed",
                    "t": int(T.t_created[u]),
                    "old": names[feature],
                    "new": None,
                }
            )
        elif kind > 0 and int(T.t_split[u]) > t_from and int(T.t_split[u]) != t_split:
            gone.add(u)
            out.append(
                {
                    "node": u,
                    "edit": "replaced",
                    "t": int(T.t_split[u]),
                    "old": names[feature],
                    "new": node_test(T, u, names, categories),
                }
            )
    return out
