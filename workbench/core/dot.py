"""Graphviz DOT source of a tree, from its arrays alone (no Graphviz needed to produce it).

Inner nodes show their test and the weight they have seen; leaves their class distribution,
prediction (the majority class) and confidence (that class's share).  Options highlight the
path of one instance and the leaf it reached, mark nodes split within the last ``recent``
instances, and collapse deep subtrees behind a box with their leaf and instance counts, so that
trees of hundreds of nodes stay legible.  The highlighted path is never collapsed.

The output only reads public state (``model.tree``, ``model.root``, ``model.n_seen``,
``model.feature_names``, ``model.class_names``, ``model.explain_one``), so it works for every
learner built on the engine.
"""

from __future__ import annotations

import math

import numpy as np

from .._numbers import count
from .state import LEAF, NB_FUNCTIONAL, NOMINAL_BINARY, NOMINAL_MULTI, NUMERIC

_PALETTE = [
    "#8dd3c7",
    "#fdb462",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
]
PATH_COLOR = "#d62728"
RECENT_FILL = "#ffe08a"
#: at most this many classes are listed in a leaf; more are summarised by the top ones
_MAX_CLASSES_LISTED = 6


def _esc(text) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _num(v: float) -> str:
    """A weight: integers with thousands separators, fractions with 4 significant digits."""
    if v == int(v) and abs(v) < 1e15:
        return f"{int(v):,}"
    return f"{v:,.4g}" if abs(v) < 1e4 else f"{v:,.0f}"


def _value_name(category_names, feature: int, code: int) -> str:
    if category_names and feature in category_names:
        names = category_names[feature]
        if 0 <= code < len(names):
            return str(names[code])
    return str(code)


def node_test(T, node: int, names, category_names=None) -> str:
    """The test of an inner node, as drawn inside it."""
    kind = int(T.kind[node])
    if kind == NB_FUNCTIONAL:
        return "naive Bayes"
    f = int(T.feature[node])
    name = names[f]
    if kind == NUMERIC:
        return f"{name} ≤ {T.threshold[node]:.4g}"
    if kind == NOMINAL_BINARY:
        return f"{name} = {_value_name(category_names, f, int(T.threshold[node]))}"
    return f"{name} = ?"


def edge_label(T, node: int, branch: int, category_names=None) -> str:
    """The outcome of ``node``'s test that leads into its child ``branch``."""
    kind = int(T.kind[node])
    f = int(T.feature[node])
    if kind == NB_FUNCTIONAL:  # UFFT's functional node: the class its naive Bayes predicts
        return f"NB → {('first', 'second')[branch]}"
    if kind == NUMERIC:
        thr = f"{T.threshold[node]:.4g}"
        return f"≤ {thr}" if branch == 0 else f"> {thr}"
    if kind == NOMINAL_BINARY:
        v = _value_name(category_names, f, int(T.threshold[node]))
        return f"= {v}" if branch == 0 else f"≠ {v}"
    return f"= {_value_name(category_names, f, branch)}"


def _inner_n(T, node: int, own: float, node_counts) -> str:
    if node_counts is not None:
        return f"n={_num(float(node_counts[node]))}"
    if T.stats_slot[node] >= 0:  # keeps statistics (and counts) after its split
        return f"n={_num(own)}"
    return f"n={_num(own)} at split"


def _children(T, node: int):
    return [int(c) for c in T.children[node, : int(T.n_children[node])] if c >= 0]


def _subtree_summary(T, node: int):
    """(leaves, inner nodes) below and including ``node``."""
    leaves = inner = 0
    stack = [node]
    while stack:
        u = stack.pop()
        if T.kind[u] == LEAF:
            leaves += 1
        else:
            inner += 1
            stack.extend(_children(T, u))
    return leaves, inner


def _auto_depth(T, root: int, max_nodes: int) -> int | None:
    """The deepest level to draw so that at most ``max_nodes`` nodes are drawn (the nodes on
    the highlighted path and their children come on top); None when everything fits."""
    level, frontier, drawn = 0, [root], 0
    while frontier:
        drawn += len(frontier)
        nxt = [c for u in frontier if T.kind[u] != LEAF for c in _children(T, u)]
        if not nxt:
            return None
        if drawn + len(nxt) > max_nodes:
            return level
        frontier, level = nxt, level + 1
    return None


def path_of(model, highlight):
    """Nodes on the path of ``highlight`` (an instance, or an Explanation with ``.path`` and
    ``.leaf``) and the leaf it reaches; (set(), -1) for None."""
    if highlight is None:
        return set(), -1
    ex = (
        highlight
        if hasattr(highlight, "path") and hasattr(highlight, "leaf")
        else model.explain_one(highlight)
    )
    return {int(step["node"]) for step in ex.path} | {int(ex.leaf)}, int(ex.leaf)


def tree_to_dot(
    model,
    feature_names=None,
    class_names=None,
    highlight=None,
    recent=0,
    max_depth=None,
    title=None,
    *,
    max_nodes=None,
    category_names=None,
    node_counts=None,
    rankdir="TB",
    node_notes=None,
    node_tooltips=None,
) -> str:
    """DOT source for ``model`` (any learner built on the engine).

    highlight:  an instance (or its ``explain_one`` Explanation) whose path is drawn in red; the
                leaf it reached gets a thick red border.
    recent:     nodes split within this many instances of the latest one are filled amber,
                drawn with a double border and labelled with the time of the split.
    max_depth:  inner nodes at this depth are drawn as one box ("k leaves below") instead of
                their subtree.
    max_nodes:  choose the collapse depth so that at most about this many nodes are drawn.
    category_names:  ``{column: [name of code 0, code 1, ...]}`` for nominal tests.
    node_counts: instances that passed through each node (indexed by node), shown as the ``n``
                of inner nodes (``workbench.viz.node_counts`` computes it from a stream).
                Without it an inner node shows its own weight: the weight it had when it
                split (``n=... at split``) if it stopped counting then, as VFDT's inner nodes do.
    title:      a caption above the tree.
    node_notes: ``{node: text}``, a line added to those inner nodes' labels (UFFT: the DDM
                levels of each node's naive Bayes).
    node_tooltips: ``{node: text}``, shown when the pointer rests on those nodes (UFFT: the
                DDM's numbers, which would make the label wider than the tree is useful).
    """
    T = model.tree
    names = list(feature_names) if feature_names is not None else list(model.feature_names_)
    classes = list(class_names) if class_names is not None else list(model.class_names_)
    tested = T.feature[(T.kind > 0) & (T.kind != NB_FUNCTIONAL)]
    if tested.size and int(tested.max()) >= len(names):
        raise ValueError(
            f"feature_names has {len(names)} names; the tree tests feature {int(tested.max())}"
        )
    if len(classes) != T.class_counts.shape[1]:
        raise ValueError(
            f"class_names has {len(classes)} names for {T.class_counts.shape[1]} classes"
        )
    if max_depth is not None and (
        isinstance(max_depth, bool) or int(max_depth) != max_depth or max_depth < 0
    ):
        raise ValueError(f"max_depth must be an integer >= 0 or None; got {max_depth!r}")
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or int(max_nodes) != max_nodes or max_nodes < 1
    ):
        raise ValueError(f"max_nodes must be a positive integer or None; got {max_nodes!r}")
    if recent is None:
        recent = 0
    if not isinstance(recent, (int, np.integer)) or isinstance(recent, bool) or recent < 0:
        raise ValueError(f"recent must be an integer >= 0; got {recent!r}")
    if node_counts is not None:
        node_counts = np.asarray(node_counts)
        if node_counts.ndim != 1 or node_counts.shape[0] < T.kind.shape[0]:
            raise ValueError(
                f"node_counts needs one entry per node row ({T.kind.shape[0]}); "
                f"got shape {node_counts.shape}"
            )
    now = model.n_seen
    root = int(model.root)
    on_path, reached = path_of(model, highlight)
    cut = max_depth
    if max_nodes is not None:
        auto = _auto_depth(T, root, int(max_nodes))
        if auto is not None:
            cut = auto if cut is None else min(cut, auto)
    out = [
        "digraph tree {",
        f'  graph [fontname="Helvetica", ranksep=0.3, nodesep=0.2, ordering=out, '
        f"rankdir={rankdir}];",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, '
        'fillcolor="#f7f7f7", margin="0.08,0.03"];',
        '  edge [fontname="Helvetica", fontsize=9, color="#555555", arrowsize=0.6];',
    ]
    if title:
        out.append(f'  labelloc="t"; fontsize=12; label="{_esc(title)}";')
    stack = [root]
    while stack:
        node = stack.pop()
        counts = T.class_counts[node]
        n = float(counts.sum())
        attrs, classes_css = [], ["wbnode"]
        if node in on_path:
            attrs.append(f'color="{PATH_COLOR}", penwidth={3.5 if node == reached else 2.2}')
            classes_css.append("wbpath")
        just_split = (
            bool(recent)
            and T.kind[node] != LEAF
            and T.t_split[node] >= 0
            and now - int(T.t_split[node]) < recent
        )
        if T.kind[node] == LEAF:
            k = int(np.argmax(counts)) if n > 0 else 0
            conf = counts[k] / n if n > 0 else math.nan
            if T.class_counts.shape[1] <= _MAX_CLASSES_LISTED:
                dist = " | ".join(_num(float(c)) for c in counts)
            else:
                top = np.argsort(-counts, kind="stable")[:3]
                dist = (
                    ", ".join(f"{_esc(classes[j])}: {_num(float(counts[j]))}" for j in top) + ", …"
                )
            pred = f"→ {_esc(classes[k])} ({conf:.0%})" if n > 0 else "→ (no data yet)"
            label = f"leaf {node} · n={_num(n)}\\n[{dist}]\\n{pred}"
            attrs.append(f'fillcolor="{_PALETTE[k % len(_PALETTE)]}"')
            if node == reached:
                classes_css.append("wbreached")
            classes_css.append("wbleaf")
            out.append(
                f'  n{node} [label="{label}", class="{" ".join(classes_css)}", {", ".join(attrs)}];'
            )
            continue
        if cut is not None and T.depth[node] >= cut and node not in on_path:
            leaves, inner = _subtree_summary(T, node)
            label = (
                f"{_esc(node_test(T, node, names, category_names))}\\n"
                f"{_inner_n(T, node, n, node_counts)}\\n+ {count(leaves, 'leaf', 'leaves')} below"
            )
            classes_css.append("wbcollapsed")
            out.append(
                f'  n{node} [label="{label}", class="{" ".join(classes_css)}", '
                f'shape=folder, style=filled, fillcolor="#e8e8e8"'
                + (", " + ", ".join(attrs) if attrs else "")
                + "];"
            )
            continue
        label = (
            f"{_esc(node_test(T, node, names, category_names))}\\n"
            f"{_inner_n(T, node, n, node_counts)}"
        )
        if node_notes and node in node_notes:
            label += f"\\n{_esc(node_notes[node])}"
        if node_tooltips and node in node_tooltips:
            attrs.append(f'tooltip="{_esc(node_tooltips[node])}"')
        if just_split:
            label += f"\\nsplit at t={int(T.t_split[node]):,}"
            attrs.append(f'fillcolor="{RECENT_FILL}", peripheries=2')
            classes_css.append("wbrecent")
        classes_css.append("wbinner")
        out.append(
            f'  n{node} [label="{label}", class="{" ".join(classes_css)}"'
            + (", " + ", ".join(attrs) if attrs else "")
            + "];"
        )
        kids = _children(T, node)
        for b in range(int(T.n_children[node])):
            c = int(T.children[node, b])
            if c < 0:
                continue
            style = (
                f', color="{PATH_COLOR}", penwidth=2.2'
                if (node in on_path and c in on_path)
                else ""
            )
            out.append(
                f'  n{node} -> n{c} [label="{_esc(edge_label(T, node, b, category_names))}"'
                f"{style}];"
            )
        stack.extend(reversed(kids))
    out.append("}")
    return "\n".join(out)


def _count_leaves(T, node: int) -> int:
    return _subtree_summary(T, node)[0]


__all__ = ["tree_to_dot", "node_test", "edge_label", "path_of", "NUMERIC", "NOMINAL_MULTI"]
