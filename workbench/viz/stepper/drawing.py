"""Drawing: the stepper's tree as DOT, the instance panel as HTML, and the accuracy and split
charts as SVG."""

from __future__ import annotations

import math
from html import escape

import numpy as np

from ...core.dot import node_test
from ...core.state import LEAF
from ..svgchart import line_chart
from ..style import TREE_CSS


def edits_html(edits: list[dict], last: int = 3) -> str:
    """The latest splits a re-evaluation replaced or killed, newest first."""
    items = []
    for e in reversed(edits[-last:]):
        if e["edit"] == "replaced":
            what = (
                f"↻ node {e['node']} <b>replaced</b> its split on {escape(e['old'])} by "
                f"{escape(e['new'])} (its old subtree discarded, new leaves below)"
            )
        else:
            what = (
                f"✂ node {e['node']} <b>killed</b>: its split on {escape(e['old'])} and "
                "the subtree below are gone, the node is a leaf again"
            )
        items.append(f"<li>t={e['t']:,}: {what}</li>")
    more = f" ({len(edits)} in all)" if len(edits) > last else ""
    return (
        f"<div class='wb-edits'>re-evaluations that changed the tree{more}:"
        f"<ul>{''.join(items)}</ul></div>"
    )


def _fmt_int(v) -> str:
    return f"{int(v):,}"


def _fmt_value(v) -> str:
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


#: why a leaf's count n (and its class counts) can have decimals, said where they are shown
FRACTIONAL_NOTE = (
    "<div class='wb-fractional wb-muted' style='font-size:11px'>Why counts have decimals: "
    "a new leaf does not start from zero but from its parent's estimate of the class counts "
    "on its side of the split (for a numeric test the parent keeps a Gaussian per class, so "
    "the estimate is fractional, as in MOA); every instance it learns then adds 1.</div>"
)


def _fractional(v: float) -> bool:
    return math.isfinite(v) and abs(v - round(v)) > 1e-9


class _Drawing:
    """What :class:`~workbench.viz.TreeStepper` draws (a mixin)."""

    def describe(self) -> str:
        """The learner and its parameter values, e.g. ``HoeffdingTree(delta=1e-07, ...)``."""
        params = ", ".join(f"{k}={_fmt_value(v)}" for k, v in self.params.items())
        return f"{type(self.model).__name__}({params})"

    def _heading(self) -> str:
        """The panel's title (bold text, not a heading: in the rendered book a heading would
        take the page's heading style) and the learner with its parameters under it."""
        which = self.lens.title()
        sub = (
            f"<div class='wb-muted wb-learner' style='font-size:11px'>"
            f"{escape(self.describe())}{'; ' + escape(which) if which else ''}</div>"
        )
        if not self.title:
            return f"{TREE_CSS}<div class='wb-title'>{escape(self.describe())}</div>" + (
                f"<div class='wb-muted' style='font-size:11px'>{escape(which)}</div>"
                if which
                else ""
            )
        return f"{TREE_CSS}<div class='wb-title'>{escape(self.title)}</div>{sub}"

    def dot(self) -> str:
        """DOT source of the current tree with the last instance's path highlighted."""
        highlight = self.last.explanation if self.last is not None else None
        recent = self.recent if self.recent is not None else self.k
        counts = self._counts
        size = self.model.tree.kind.shape[0]
        if counts.shape[0] < size:
            counts = np.concatenate([counts, np.zeros(size - counts.shape[0], np.int64)])
        return self.lens.dot(
            feature_names=self.feature_names,
            class_names=self.class_names,
            highlight=highlight,
            recent=recent,
            max_nodes=self.max_nodes,
            category_names=self.category_names,
            node_counts=counts,
        )

    def _class(self, k: int) -> str:
        return escape(str(self.class_names[k])) if 0 <= k < len(self.class_names) else "?"

    def _value(self, j: int, v: float) -> str:
        if math.isnan(v):
            return "missing"
        if j in self.category_names and v == int(v) and 0 <= v < len(self.category_names[j]):
            return escape(str(self.category_names[j][int(v)]))
        return f"{v:.4g}"

    def instance_html(self) -> str:
        """The panel describing the last instance, its prediction and the tree."""
        model = self.model
        head = (
            f"<b>instance {_fmt_int(self.t)}</b> of {_fmt_int(self.n)}"
            if self.t
            else "<b>no instance yet</b>: press <i>step</i>"
        )
        parts = [f"<div class='wb-instance'>{head}"]
        last = self.last
        if last is not None:
            d = len(self.feature_names)
            shown = range(min(d, 12))
            cells = "".join(
                f"<tr><td>{escape(self.feature_names[j])}</td>"
                f"<td>{self._value(j, float(last.x[j]))}</td></tr>"
                for j in shown
            )
            if d > 12:
                cells += f"<tr><td colspan=2 class='wb-muted'>… {d - 12} more</td></tr>"
            parts.append(f"<table>{cells}</table>")
            ok = last.prediction == last.y
            mark = (
                "<span class='wb-ok'>✓ right</span>"
                if ok
                else "<span class='wb-bad'>✗ wrong</span>"
            )
            conf = ""
            if last.proba is not None and 0 <= last.prediction < len(last.proba):
                conf = f" (p = {float(last.proba[last.prediction]):.2f})"
            parts.append(
                f"<div class='wb-prediction'>true label <b>{self._class(last.y)}</b>"
                f" · predicted <b>{self._class(last.prediction)}</b>{conf} {mark}"
                "</div>"
            )
            if self.strategy is not None:
                q = (
                    "<span class='wb-ok'>label queried</span>"
                    if last.queried
                    else "<span class='wb-muted'>label not queried</span>"
                )
                n_q = int(self.queried[: self.t].sum())
                parts.append(
                    f"<div class='wb-query'>{q} · query rate "
                    f"<b class='wb-query-rate'>{self.query_rate:.1%}</b> "
                    f"({_fmt_int(n_q)} of {_fmt_int(self.t)})</div>"
                )
            ex = last.explanation
            route = " → ".join(escape(s["outcome"]) for s in ex.path) or "root"
            parts.append(f"<div>reached <b>leaf {ex.leaf}</b> via {route}</div>")
            parts.append(f"<div class='wb-reason wb-muted'>{escape(ex.reason)}</div>")
            if _fractional(ex.n):
                parts.append(FRACTIONAL_NOTE)
        acc = "–" if self.t == 0 else f"{self.accuracy:.1%}"
        right = int((self.pred[: self.t] == self.y[: self.t]).sum())
        parts.append(
            f"<div class='wb-accuracy-readout' data-t='{self.t}'>accuracy so far "
            f"<b>{acc}</b> ({_fmt_int(right)} of {_fmt_int(self.t)} right)</div>"
        )
        T = model.tree
        lens = self.lens
        shown = lens.nodes() if lens.forest else np.arange(T.kind.shape[0])
        inner = shown[(T.kind[shown] > 0) & (T.t_split[shown] >= 0)]
        last_split = ""
        if inner.size:
            u = int(inner[np.argmax(T.t_split[inner])])
            learned = self._learned()
            when = self._stream_time(int(T.t_split[u]), learned)
            last_split = (
                f"; last split: node {u} on "
                f"{escape(node_test(T, u, self.feature_names, self.category_names))}"
                f" at t={_fmt_int(when)}"
            )
        if self.edits:
            parts.append(edits_html(self.edits))
        leaves = lens.n_leaves
        parts.append(
            f"<div class='wb-treestats' data-leaves='{leaves}'>{leaves} "
            f"{'leaf' if leaves == 1 else 'leaves'}, depth {lens.depth}{last_split}"
            "</div></div>"
        )
        return "".join(parts)

    def accuracy_svg(self, width: int = 380, height: int = 170) -> str:
        t = self.t
        series = []
        if t:
            correct = self.pred[:t] == self.y[:t]
            cum = np.concatenate(([0], np.cumsum(correct)))
            times = np.unique(np.linspace(1, t, min(t, 300)).round().astype(np.int64))
            lo = np.maximum(times - self.window, 0)
            series = [
                {
                    "x": times,
                    "y": cum[times] / times,
                    "label": "accuracy so far",
                    "color": "#1f77b4",
                    "css": "wb-acc-line",
                },
                {
                    "x": times,
                    "y": (cum[times] - cum[lo]) / (times - lo),
                    "label": f"last {self.window}",
                    "color": "#ff7f0e",
                    "width": 1.0,
                    "css": "wb-acc-window",
                },
            ]
            if self.strategy is not None:
                qc = np.concatenate(([0], np.cumsum(self.queried[:t])))
                series.append(
                    {
                        "x": times,
                        "y": qc[times] / times,
                        "label": "query rate",
                        "color": "#2ca02c",
                        "dash": "4,3",
                        "css": "wb-query-line",
                    }
                )
        ylim = (0.0, 1.0)
        if series:
            # from where the curves have settled (the first instances swing from 0 to 1), the
            # lowest point of every line, the window's dips included, fits in the chart
            start = min(t, max(10, t // 50))
            settled = np.concatenate([s["y"][s["x"] >= start] for s in series])
            settled = settled[np.isfinite(settled)]
            low = float(settled.min()) if settled.size else 0.0
            ylim = (max(0.0, math.floor((low - 0.03) * 20) / 20), 1.0)
        return line_chart(
            series,
            width=width,
            height=height,
            title="Prequential accuracy",
            x_label="instances seen",
            ylim=ylim,
            css_class="wb-acc-chart",
            empty_text="no instance yet",
            attrs={"data-t": t},
        )

    def split_svg(self, width: int = 380, height: int = 190) -> str:
        trace = self.focus_trace()
        attrs = {"data-leaf": "", "data-split": "", "data-crossed": "", "data-points": 0}
        if trace is not None and not self.lens.traced:
            # a forest's leaf (UFFT) does not report its numbers one by one: say what it does
            attrs.update({"data-leaf": trace.leaf, "data-untraced": "1"})
            return line_chart(
                [],
                width=width,
                height=height,
                title=f"Split decision at leaf {trace.leaf}",
                css_class="wb-split-svg",
                empty_text=(
                    f"{type(self.model).__name__} is a forest: its leaves' split numbers\n"
                    "are not traced over time. The text under the chart\n"
                    "gives the leaf's split test as it stands now."
                ),
                attrs=attrs,
            )
        if trace is None:
            return line_chart(
                [],
                width=width,
                height=height,
                title="Split decision",
                css_class="wb-split-svg",
                empty_text="no leaf reached yet",
                attrs=attrs,
            )
        pure = self._pure_leaf(trace.leaf)
        if pure is not None and not np.isfinite(np.asarray(trace.quantity, float)).any():
            # nothing to draw: a pure leaf scores no split (an empty chart would look broken)
            attrs.update({"data-leaf": trace.leaf, "data-pure": "1"})
            return line_chart(
                [],
                width=width,
                height=height,
                title=f"Split decision at leaf {trace.leaf}",
                css_class="wb-split-svg",
                empty_text=(
                    f"Leaf {trace.leaf} is pure: its {pure[1]} instances are all {pure[0]}.\n"
                    "No split can make it purer, so none is scored.\n"
                    "The chart starts when another class arrives here."
                ),
                attrs=attrs,
            )
        t = np.asarray(trace.t, float)
        q = np.asarray(trace.quantity)
        thr = np.asarray(trace.threshold)
        tau = np.asarray(trace.tau)
        series = [
            {
                "x": t,
                "y": q,
                "label": trace.quantity_label,
                "color": "#1f77b4",
                "css": "wb-quantity",
                "step": True,
            },
            {
                "x": t,
                "y": thr,
                "label": trace.threshold_label,
                "color": "#d62728",
                "dash": "5,3",
                "css": "wb-threshold",
                "step": True,
            },
        ]
        if tau.size and np.isfinite(tau).any() and np.nanmax(tau) > 0:
            series.append(
                {
                    "x": t,
                    "y": tau,
                    "label": "tau (tie level)",
                    "color": "#7f7f7f",
                    "dash": "2,3",
                    "width": 1.0,
                    "css": "wb-tau",
                }
            )
        vlines, markers = [], []
        # the start of the stretch in which the rule held up to the split (or up to now), else
        # the first moment it held: on the line that crossed
        ready = trace.ready_since if trace.ready_since >= 0 else trace.first_ready
        if ready >= 0:
            i = trace.t.index(ready)
            y_mark = q[i] if trace.crossing == "margin" else thr[i]
            if np.isfinite(y_mark):
                markers.append(
                    {"x": ready, "y": y_mark, "css": "wb-ready-marker", "color": "#ff7f0e"}
                )
        if trace.split_t >= 0:
            vlines.append(
                {
                    "x": trace.split_t,
                    "label": f"split at t={_fmt_int(trace.split_t)}",
                    "color": "#2ca02c",
                    "css": "wb-split-marker",
                }
            )
        attrs.update(
            {
                "data-leaf": trace.leaf,
                "data-split": trace.split_t if trace.split_t >= 0 else "",
                "data-crossed": trace.crossing,
                "data-points": len(trace.t),
            }
        )
        x_lo = trace.created
        x_hi = trace.split_t if trace.split_t >= 0 else self.t
        x_hi = max(x_hi, x_lo + 1)
        x_hi += 0.04 * (x_hi - x_lo)  # room to see the split line
        finite = np.concatenate([q[np.isfinite(q)], thr[np.isfinite(thr)]])
        ylim = None
        if finite.size:
            hi = float(np.percentile(finite, 98)) if finite.size > 10 else float(finite.max())
            hi = max(hi, float(np.nanmax(q)) if np.isfinite(q).any() else 0.0)
            ylim = (0.0, hi * 1.1 if hi > 0 else 1.0)
        title = f"Split decision at leaf {trace.leaf}"
        return line_chart(
            series,
            width=width,
            height=height,
            title=title,
            x_label="instances seen",
            xlim=(x_lo, x_hi),
            ylim=ylim,
            vlines=vlines,
            markers=markers,
            css_class="wb-split-svg",
            empty_text=f"leaf {trace.leaf}: no statistics yet",
            attrs=attrs,
        )

    def _pure_leaf(self, leaf: int):
        """(class name, weight) if node ``leaf`` is a leaf now and every instance it holds has
        one class; else None."""
        T = self.model.tree
        if leaf >= T.kind.shape[0] or T.kind[leaf] != LEAF:
            return None
        counts = T.class_counts[leaf]
        held = np.flatnonzero(counts > 0)
        if held.size != 1:
            return None
        return self._class(int(held[0])), _fmt_int(round(float(counts[held[0]])))

    def split_caption(self) -> str:
        trace = self.focus_trace()
        if trace is None:
            return ""
        if not self.lens.traced:
            if self.last is None:
                return ""
            ex = self.last.explanation
            return (
                f"<div class='wb-split-caption wb-muted'>Leaf {ex.leaf}: {escape(ex.reason)}</div>"
            )
        pure = self._pure_leaf(trace.leaf)
        if pure is not None and not np.isfinite(np.asarray(trace.quantity, float)).any():
            return (
                f"<div class='wb-split-caption wb-muted'>Leaf {trace.leaf} is pure (class "
                f"<b>{pure[0]}</b> only): a split cannot lower its impurity, so the learner "
                "does not score one and the chart stays empty.</div>"
            )
        since, first = trace.ready_since, trace.first_ready
        earlier = (
            f" It had met the rule before, from t={_fmt_int(first)}, but no longer did when "
            "its next test came."
            if 0 <= first < since
            else ""
        )
        if trace.split_t >= 0:
            how = {
                "margin": f"{escape(trace.quantity_label)} rose above "
                f"{escape(trace.threshold_label)}",
                "tie": f"{escape(trace.threshold_label)} fell below tau (a tie)",
            }.get(trace.crossing, "the split rule was met")
            ready = f" at t={_fmt_int(since)} (orange dot)" if since >= 0 else ""
            return (
                f"<div class='wb-split-caption'>Leaf {trace.leaf} split at "
                f"t={_fmt_int(trace.split_t)} on <b>{escape(trace.split_test)}</b>: {how}"
                f"{ready} and stayed there until the leaf's next test, at "
                f"t={_fmt_int(trace.split_t)} (a leaf tests once per grace period).{earlier}</div>"
            )
        if first >= 0 and since < 0:
            return (
                f"<div class='wb-split-caption wb-muted'>Leaf {trace.leaf} met the split "
                f"rule from t={_fmt_int(first)} (orange dot) but no longer does: "
                "the rule only counts when the test runs, once per grace period.</div>"
            )
        if since >= 0:
            return (
                f"<div class='wb-split-caption wb-muted'>Leaf {trace.leaf} meets the split "
                f"rule since t={_fmt_int(since)} (orange dot): it splits at its "
                f"next test if it still does then.{earlier}</div>"
            )
        return ""
