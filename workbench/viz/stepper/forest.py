"""Stepping a UFFT forest (paper 002) through a stream: one pairwise tree drawn at a time, the
DDM levels of its inner nodes' naive Bayes in their labels, and every prune as it happens.

The single-tree :class:`~workbench.viz.stepper.TreeStepper` explains one tree per instance;
a forest has K(K-1)/2 trees and drift events, so it gets this small widget of its own::

    from workbench import learners, streams
    from workbench.viz.stepper.forest import ForestStepper
    X, y = streams.sea(20_000, seed=1, concepts=(0, 3))
    ForestStepper(learners.UFFT(n_classes=2, grace_period=100), X, y).widget()
"""

from __future__ import annotations

import functools
import html

import numpy as np

from ..errors import guarded
from ..snapshot import picture_bundle, tree_picture
from ..style import TREE_CSS


class ForestStepper:
    """Steps a UFFT model through (X, y); ``step(k)`` learns the next k rows, ``to_next_prune``
    learns until a drift prunes a subtree (or the stream ends).  ``events`` lists the prunes:
    (time, tree, node, depth of the node)."""

    def __init__(self, model, X, y, tree: int = 0):
        self.model = model
        self.X = np.asarray(X, np.float64)
        self.y = np.asarray(y)
        self.t = 0
        self.tree = tree
        self.events: list = []
        model.prepare(self.X[:1], classes=np.unique(self.y))

    def _learn(self, k: int) -> None:
        stop = min(self.t + k, len(self.y))
        before = self.model.drift_counts()["drifts"]
        depth_before = None
        if stop > self.t:
            depth_before = self.model.drifts_by_depth()
            self.model.partial_fit(self.X[self.t : stop], self.y[self.t : stop])
        self.t = stop
        c = self.model.drift_counts()
        if c["drifts"] > before:
            after = self.model.drifts_by_depth()
            prior = np.zeros(after.shape, np.int64)
            prior[: len(depth_before)] = depth_before
            grew = np.flatnonzero(after > prior)
            self.events.append(
                {
                    "t": c["last_prune_t"],
                    "tree": c["last_prune_tree"],
                    "node": c["last_prune_node"],
                    "depth": int(grew[-1]) if grew.size else -1,
                    "drifts in this step": c["drifts"] - before,
                }
            )

    def step(self, k: int = 1) -> "ForestStepper":
        self._learn(k)
        return self

    def to_next_prune(self, chunk: int = 25) -> "ForestStepper":
        """Learn in chunks of ``chunk`` rows until a prune happens; a pruned tree becomes the
        one shown."""
        n0 = len(self.events)
        while self.t < len(self.y) and len(self.events) == n0:
            self._learn(chunk)
        if len(self.events) > n0:
            self.tree = int(self.events[-1]["tree"])
        return self

    def dot(self) -> str:
        x = self.X[min(self.t, len(self.y) - 1)]
        title = f"tree {self.tree} after {self.t:,} instances"
        if self.events and self.events[-1]["tree"] == self.tree:
            e = self.events[-1]
            title += f"; last prune: node {e['node']} at t={e['t']:,}"
        return self.model.to_dot(self.tree, highlight=x, title=title, max_nodes=60)

    def text(self) -> str:
        ex = self.model.explain_one(self.X[min(self.t, len(self.y) - 1)])
        lines = [str(ex)]
        if self.events:
            lines.append("prunes so far (t, tree, node, depth):")
            lines += [
                f"  t={e['t']:,}  tree {e['tree']}  node {e['node']}  depth {e['depth']}"
                for e in self.events[-8:]
            ]
        return "\n".join(lines)

    def widget(self, view: str = "fit"):
        """Buttons (+1, +100, +1,000, to the next prune), a choice of pairwise tree, the tree
        drawn (each inner node's DDM state in its label, its numbers when the pointer rests on
        it and for the nodes on the instance's path in the text below), and the forest's
        explanation of the next instance.

        view: how the tree first fits its box: ``"fit"`` (shrunk to the column's width when
        wider, so the root and the title are in view), ``"full size"`` (Graphviz's size; a wide
        tree scrolls sideways) or ``"zoom"`` (mouse wheel zooms, dragging pans)."""
        import ipywidgets as w

        from ..view import tree_widget, view_control  # imports ipywidgets

        pairs = self.model.pairs_
        names = self.model.class_names_
        choose = w.Dropdown(
            options=[(f"tree {r}: {names[a]} vs {names[b]}", r) for r, (a, b) in enumerate(pairs)],
            value=self.tree,
            description="tree",
        )
        drawing = tree_widget(self.dot())
        views, hint, holder = view_control(
            drawing, view, note=" Rest the pointer on an inner node for its DDM's numbers."
        )
        info = w.HTML()
        error = w.HTML()
        error.add_class("wb-error-box")

        def show_error(html):
            error.value = html

        def refresh():
            choose.value = self.tree
            drawing.dot_source = self.dot()
            info.value = f"<pre>{html.escape(self.text())}</pre>"

        def on_tree(change):
            self.tree = int(change["new"])
            drawing.dot_source = self.dot()

        choose.observe(guarded(on_tree, show_error, "choosing a tree"), names="value")
        buttons = []
        for label, fn in (
            ("+1", lambda _: self.step(1)),
            ("+100", lambda _: self.step(100)),
            ("+1,000", lambda _: self.step(1000)),
            ("to the next prune", lambda _: self.to_next_prune()),
        ):
            b = w.Button(description=label)
            b.on_click(guarded(lambda btn, fn=fn: (fn(btn), refresh()), show_error, label))
            buttons.append(b)
        refresh()
        return _ForestView(
            [
                w.HTML(TREE_CSS),
                w.VBox([w.HBox([*buttons, choose]), error]),
                views,
                hint,
                holder,
                info,
            ]
        )


@functools.lru_cache(maxsize=1)
def _forest_view_class():
    """Defined on first use: importing ipywidgets is left to the first widget."""
    import ipywidgets as w

    class ForestView(w.VBox):
        """The forest stepper's widget, with a picture of its state (the drawn tree and the
        explanation) for pages without a kernel (:mod:`workbench.viz.snapshot`)."""

        def _repr_mimebundle_(self, **kwargs):
            bundle = super()._repr_mimebundle_(**kwargs)
            holder, info = self.children[-2], self.children[-1]
            drawing = holder.children[0]
            fit = "wb-fit" in holder._dom_classes
            return picture_bundle(bundle, tree_picture(drawing.dot_source, fit=fit) + info.value)

    return ForestView


def _ForestView(children):
    return _forest_view_class()(children)
