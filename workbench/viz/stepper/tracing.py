"""Tracing: the split-deciding quantity of a leaf over its life (:class:`SplitTrace`), kept up to
date by single steps and rebuilt by replaying the leaf's life when first needed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ...core.dot import node_test
from ...core.state import LEAF


# --------------------------------------------------------------------------- traces
@dataclass
class SplitTrace:
    """The split-deciding quantity of one leaf over its life (stream time on the x axis)."""

    leaf: int
    created: int  # stream time the leaf was made
    t: list = field(default_factory=list)
    quantity: list = field(default_factory=list)
    threshold: list = field(default_factory=list)
    tau: list = field(default_factory=list)
    will_split: list = field(default_factory=list)
    quantity_label: str = "quantity"
    threshold_label: str = "threshold"
    split_t: int = -1  # stream time of the split, -1 while it is a leaf
    split_test: str = ""

    def add(self, t: int, ex) -> None:
        if ex.leaf != self.leaf:
            return
        if self.t and t <= self.t[-1]:
            if t < self.t[-1]:
                return
            # same time: keep the newer values
            for lst in (self.t, self.quantity, self.threshold, self.tau, self.will_split):
                lst.pop()
        self.t.append(int(t))
        self.quantity.append(float(ex.quantity))
        self.threshold.append(float(ex.threshold))
        self.tau.append(float(getattr(ex, "tau", math.nan)))
        self.will_split.append(bool(ex.will_split))
        if ex.quantity_label:
            self.quantity_label = ex.quantity_label
        if ex.threshold_label:
            self.threshold_label = ex.threshold_label

    @property
    def crossing(self) -> str:
        """'margin' if the quantity went above the threshold, 'tie' if the leaf became ready
        by the tie rule (threshold below tau), '' if it never became ready."""
        ready = [i for i, w in enumerate(self.will_split) if w]
        if not ready:
            return ""
        i = ready[-1]
        q, thr = self.quantity[i], self.threshold[i]
        return "margin" if (math.isfinite(q) and math.isfinite(thr) and q > thr) else "tie"

    @property
    def first_ready(self) -> int:
        """The first sampled time the split rule held (it may have stopped holding after)."""
        for t, w in zip(self.t, self.will_split):
            if w:
                return t
        return -1

    @property
    def ready_since(self) -> int:
        """The start of the last stretch of sampled times in which the split rule held, when
        that stretch reaches the last sample (the one that led to the split, or the one the
        leaf is in now); -1 if the rule does not hold at the last sample.

        A leaf can meet the rule, stop meeting it before its next test, and meet it again
        later: the split comes from the last stretch, not from the first moment.
        """
        if not self.will_split or not self.will_split[-1]:
            return -1
        i = len(self.will_split) - 1
        while i > 0 and self.will_split[i - 1]:
            i -= 1
        return self.t[i]


class _Tracing:
    """The split traces of :class:`~workbench.viz.TreeStepper` (a mixin)."""

    def _passes(self, X, leaf: int) -> np.ndarray:
        """Which rows of X pass through node ``leaf`` of the current tree."""
        T = self.model.tree
        cur = self.lens.apply(X)
        up = T.depth[cur] - T.depth[leaf]
        for s in range(int(up.max(initial=0))):
            move = up > s
            cur[move] = T.parent[cur[move]]
        return (cur == leaf) & (up >= 0)

    def focus_trace(self) -> SplitTrace | None:
        """The split trace of the leaf just reached (rebuilt by replay when first needed)."""
        if self._focus is None:
            return None
        trace = self._traces.get(self._focus)
        if trace is None:
            trace = self._build_trace(*self._focus)
            self._traces[self._focus] = trace
        return trace

    def _build_trace(self, leaf: int, created: int) -> SplitTrace:
        model = self.model
        T = model.tree
        learned = self._learned()
        Xl = self.X[: self.t] if learned is None else self.X[learned]
        yl = self.y[: self.t] if learned is None else self.y[learned]
        trace = SplitTrace(leaf, self._stream_time(created, learned))
        if not self.lens.traced:  # a forest's leaves report no split numbers: nothing to replay
            return trace
        split_m = int(T.t_split[leaf]) if T.kind[leaf] != LEAF else -1
        m_end = split_m if split_m >= 0 else model.n_seen
        hits = np.empty(0, np.int64)
        if m_end > created:
            hits = created + np.flatnonzero(self._passes(Xl[created:m_end], leaf))
        if split_m >= 0:
            trace.split_t = self._stream_time(split_m, learned)
            trace.split_test = node_test(T, leaf, self.feature_names, self.category_names)
            if hits.size and hits[-1] == split_m - 1:
                hits = hits[:-1]  # after learning this one the leaf is gone
        if hits.size > self.trace_points:
            # two thirds spread over the leaf's life, a third over its last quarter, where
            # a crossing that led to a split (or is about to) happens
            m = hits.size - 1
            wide = np.linspace(0, m, self.trace_points - self.trace_points // 3)
            late = np.linspace(0.75 * m, m, self.trace_points // 3)
            pick = np.unique(np.concatenate([wide, late]).round().astype(np.int64))
            hits = hits[pick]
        if hits.size == 0:
            return trace
        fresh = self._model_at(created, Xl, yl)
        cur = created
        for h in hits:
            h = int(h)
            fresh.partial_fit(Xl[cur : h + 1], yl[cur : h + 1])
            cur = h + 1
            trace.add(self._stream_time(h + 1, learned), fresh.explain_one(Xl[h]))
        return trace
