r"""Sec. 3 of the notebook: BOCT on 001's toy problem, one label at a time.

:class:`ToyStepper` keeps the label counts of every predefined node and the installed tests,
draws a label from a cell (uniform over all cells, as a passive learner gets them, or under the
subset BOCT-AL's eq. (7) picks), and runs Fig. 3 from the leaf that received it: for each
predefined test it considers, it records the parent's credible interval and the children's
weighted upper bounds, and whether the test was installed.  :func:`stepper_widget` draws the
learned partition of the unit square and the last decision's intervals, with step buttons.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._numbers import count
from ...bounds import credible_interval, risk_upper
from ...streams.toy64 import FIRST_LEAF, toy64


class ToyStepper:
    """BOCT (Fig. 3, predefined tests only) on the toy problem, stepped from Python."""

    def __init__(
        self, delta=0.2, heterogeneity="entropy", rule="figure3", active=False, delta2=0.05, seed=0
    ):
        self.toy = toy64()
        self.delta, self.het, self.rule = delta, heterogeneity, rule
        self.active, self.delta2 = active, delta2
        self.rng = np.random.default_rng(seed)
        self.counts = np.zeros((len(self.toy.W), 2))
        self.installed = np.zeros(len(self.toy.W), bool)
        self.t = 0
        self.decisions = []  # one dict per test considered
        self.queries = []  # (t, cell, learned leaf asked)

    def leaves(self):
        inst = self.installed
        return [s for s in range(len(inst)) if not inst[s] and (s == 0 or inst[(s - 1) // 2])]

    def _leaf_of(self, cell):
        s = 0
        while self.installed[s]:
            left = 2 * s + 1
            lo, hi = left, left
            while lo < FIRST_LEAF:
                lo, hi = 2 * lo + 1, 2 * hi + 2
            s = left if lo <= cell <= hi else left + 1
        return s

    def _cells_below(self, s):
        lo, hi = s, s
        while lo < FIRST_LEAF:
            lo, hi = 2 * lo + 1, 2 * hi + 2
        return lo, hi

    def decision(self, s):
        """Parent interval, children's weighted upper bounds and the rule's verdict at ``s``."""
        W, c = self.toy.W, self.counts
        c1, c2 = 2 * s + 1, 2 * s + 2
        lo_p, up_p = credible_interval(c[s, 1], c[s, 0], self.delta, self.het)
        ch = [credible_interval(c[k, 1], c[k, 0], self.delta, self.het) for k in (c1, c2)]
        children = W[c1] * ch[0][1] + W[c2] * ch[1][1]
        parent = W[s] * (lo_p if self.rule == "figure3" else up_p)
        return dict(
            t=self.t,
            node=s,
            n=int(c[s].sum()),
            W=W[s],
            parent_lower=W[s] * lo_p,
            parent_upper=W[s] * up_p,
            child1=(W[c1] * ch[0][0], W[c1] * ch[0][1]),
            child2=(W[c2] * ch[1][0], W[c2] * ch[1][1]),
            children_upper=children,
            install=bool(children < parent),
        )

    def step(self):
        """One label, then Fig. 3 from its leaf; returns the decisions made."""
        if self.active:
            b = [
                (risk_upper(self.counts[s, 1], self.counts[s, 0], self.delta2, self.toy.W[s]), s)
                for s in self.leaves()
            ]
            top = max(b)[0]
            choices = [s for v, s in b if v == top]
            asked = choices[self.rng.integers(len(choices))]
        else:
            asked = 0
        lo, hi = self._cells_below(asked)
        cell = int(self.rng.integers(lo, hi + 1))
        y = int(self.rng.random() < self.toy.mu[cell - FIRST_LEAF])
        s = cell
        while True:
            self.counts[s, y] += 1
            if s == 0:
                break
            s = (s - 1) // 2
        self.t += 1
        self.queries.append((self.t, cell, asked))
        made = []
        stack = [self._leaf_of(cell)]
        while stack:
            u = stack.pop()
            if u >= FIRST_LEAF:
                continue
            d = self.decision(u)
            made.append(d)
            if d["install"]:
                self.installed[u] = True
                stack += [2 * u + 2, 2 * u + 1]
        self.decisions += made
        return made

    def true_risk(self):
        return float(
            sum(
                self.toy.node_risk(s, self.counts[s, 1] >= self.counts[s, 0]) for s in self.leaves()
            )
        )

    def leaf_table(self):
        rows = []
        for s in self.leaves():
            n_neg, n_pos = self.counts[s]
            rows.append(
                dict(
                    node=s,
                    depth=int(self.toy.depth[s]),
                    labels_1=int(n_pos),
                    labels_0=int(n_neg),
                    predicts=int(n_pos >= n_neg),
                    W=self.toy.W[s],
                )
            )
        return pd.DataFrame(rows)

    def plot(self, fig=None):
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle

        fig = fig or plt.figure(figsize=(11, 4.2))
        fig.clear()
        ax, bx = fig.subplots(1, 2, gridspec_kw=dict(width_ratios=[1, 1.3]))
        toy = self.toy
        for k in range(64):
            x0, x1, y0, y1 = toy.box[FIRST_LEAF + k]
            ax.add_patch(
                Rectangle(
                    (x0, y0), x1 - x0, y1 - y0, color=plt.cm.coolwarm(toy.mu[k]), alpha=0.35, lw=0
                )
            )
        for s in self.leaves():
            x0, x1, y0, y1 = toy.box[s]
            pred = self.counts[s, 1] >= self.counts[s, 0]
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, lw=1.5, ec="k"))
            ax.text(
                (x0 + x1) / 2, (y0 + y1) / 2, str(int(pred)), ha="center", va="center", fontsize=9
            )
        ax.set(
            xlim=(0, 1),
            ylim=(0, 1),
            xlabel="$x_1$",
            ylabel="$x_2$",
            aspect="equal",
            title=f"t = {self.t}: {count(len(self.leaves()), 'leaf', 'leaves')}, true risk {self.true_risk():.3f}",
        )
        if self.decisions:
            d = self.decisions[-1]
            labels = ["parent", "child 1", "child 2", "children sum"]
            spans = [
                (d["parent_lower"], d["parent_upper"]),
                d["child1"],
                d["child2"],
                (np.nan, d["children_upper"]),
            ]
            for i, (lo, up) in enumerate(spans):
                if np.isnan(lo):
                    bx.plot([up], [i], "v", color="C3", ms=9)
                else:
                    bx.plot([lo, up], [i, i], lw=6, color="C0" if i == 0 else "C1")
            bx.axvline(
                d["parent_lower"] if self.rule == "figure3" else d["parent_upper"],
                color="C0",
                ls=":",
                lw=1,
            )
            bx.set_yticks(range(4), labels)
            bx.set(
                xlabel="weighted heterogeneity  $W_s\\,H$",
                title=f"node {d['node']} (n = {d['n']}): {'install' if d['install'] else 'wait'}",
            )
        fig.tight_layout()
        return fig


def stepper_widget(delta=0.2, active=False, seed=0):
    """Buttons (1, 10, 100 labels) over a :class:`ToyStepper` and its drawing."""
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import display

    st = ToyStepper(delta=delta, active=active, seed=seed)
    out = w.Output()
    buttons = [w.Button(description=f"+{k} label{'s' if k > 1 else ''}") for k in (1, 10, 100)]

    def redraw():
        with out:
            out.clear_output(wait=True)
            fig = st.plot()
            plt.show(fig)

    def make(k):
        def go(_):
            for _ in range(k):
                st.step()
            redraw()

        return go

    for b, k in zip(buttons, (1, 10, 100)):
        b.on_click(make(k))
    redraw()
    display(w.VBox([w.HBox(buttons), out]))
    return st
