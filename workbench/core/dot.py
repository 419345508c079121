"""Graphviz DOT source of a tree, from its arrays alone (no Graphviz needed to produce it).

Inner nodes show their test and the weight they have seen; leaves their class distribution,
prediction and confidence.  Options highlight the path of one instance, mark nodes split within
the last ``recent`` instances, and collapse subtrees below ``max_depth`` behind a count so that
trees of hundreds of nodes stay legible.
"""
from __future__ import annotations

import numpy as np

from .state import LEAF, NOMINAL_BINARY, NUMERIC

_PALETTE = ["#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5",
            "#d9d9d9", "#bc80bd", "#ccebc5"]


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _edge_label(model, node: int, branch: int, names) -> str:
    T = model.tree
    kind = int(T.kind[node])
    if kind == NUMERIC:
        return f"<= {T.threshold[node]:.4g}" if branch == 0 else f"> {T.threshold[node]:.4g}"
    if kind == NOMINAL_BINARY:
        return f"== {int(T.threshold[node])}" if branch == 0 else f"!= {int(T.threshold[node])}"
    return f"= {branch}"


def tree_to_dot(model, feature_names=None, class_names=None, highlight=None, recent=0,
                max_depth=None, title=None) -> str:
    """DOT source for ``model`` (any learner built on the engine).

    highlight: an instance whose path and leaf are drawn in bold red.
    recent:    nodes split within this many instances of the latest are drawn with a double
               border (the node just split is what a student looks for).
    max_depth: subtrees below this depth are drawn as one box with their leaf count.
    """
    T = model.tree
    names = feature_names or model.feature_names
    classes = class_names or model.class_names
    now = model.n_seen
    on_path = set()
    if highlight is not None:
        ex = model.explain_one(highlight)
        on_path = {step["node"] for step in ex.path} | {ex.leaf}
    out = ["digraph tree {",
           '  graph [fontname="Helvetica", ranksep=0.35, nodesep=0.25];',
           '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
           'fillcolor="#f7f7f7"];',
           '  edge [fontname="Helvetica", fontsize=9];']
    if title:
        out.append(f'  labelloc="t"; label="{_esc(title)}";')
    stack = [model.root]
    while stack:
        node = stack.pop()
        counts = T.class_counts[node]
        n = float(counts.sum())
        attrs = []
        if node in on_path:
            attrs.append('color="#d62728", penwidth=2.5')
        if recent and T.t_split[node] >= 0 and now - T.t_split[node] < recent:
            attrs.append("peripheries=2")
        if T.kind[node] == LEAF:
            k = int(np.argmax(counts)) if n > 0 else 0
            conf = counts[k] / n if n > 0 else 0.0
            dist = " ".join(f"{c:g}" for c in counts)
            label = (f"leaf {node}\\nn={n:g} [{dist}]\\n{_esc(str(classes[k]))} "
                     f"({conf:.0%})")
            attrs.append(f'fillcolor="{_PALETTE[k % len(_PALETTE)]}"')
            out.append(f'  n{node} [label="{label}", {", ".join(attrs)}];')
            continue
        if max_depth is not None and T.depth[node] >= max_depth:
            below = _count_leaves(T, node)
            out.append(f'  n{node} [label="{below} leaves below\\nn={n:g}", shape=folder'
                       + (", " + ", ".join(attrs) if attrs else "") + "];")
            continue
        f = int(T.feature[node])
        label = f"{_esc(str(names[f]))}\\nn={n:g}"
        out.append(f'  n{node} [label="{label}"' + (", " + ", ".join(attrs) if attrs else "")
                   + "];")
        for b in range(int(T.n_children[node])):
            c = int(T.children[node, b])
            if c < 0:
                continue
            style = ', color="#d62728", penwidth=2.5' if (node in on_path and c in on_path) \
                else ""
            out.append(f'  n{node} -> n{c} [label="{_esc(_edge_label(model, node, b, names))}"'
                       f"{style}];")
            stack.append(c)
    out.append("}")
    return "\n".join(out)


def _count_leaves(T, node: int) -> int:
    count, stack = 0, [node]
    while stack:
        u = stack.pop()
        if T.kind[u] == LEAF:
            count += 1
        else:
            stack.extend(int(c) for c in T.children[u, : T.n_children[u]] if c >= 0)
    return count
