"""Section 3 of notebook 04: where the Frugal rule asks.  A two-feature stream, the tree's
partition as it grows, the region of the plane where the margin p1 - p2 of the leaf a point
would reach is below alpha (the rule asks there), and the query rate over time."""

from __future__ import annotations

from ..._numbers import count

import numpy as np
import pandas as pd

from ._common import COLOR, sizes


def two_feature_stream(n: int, seed: int = 0, noise: float = 0.05):
    """x uniform on [0, 1]^2, class 1 above the diagonal x0 + x1 > 1 and inside no circle
    (a boundary no axis-parallel split matches), ``noise`` of the labels flipped."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    y = (X[:, 0] + X[:, 1] > 1.0).astype(np.int64)
    in_circle = (X[:, 0] - 0.3) ** 2 + (X[:, 1] - 0.3) ** 2 < 0.04
    y[in_circle] = 1
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]
    return X, y


def run(alpha: float = 0.5, n: int | None = None, snapshots=(1_000, 4_000, None), seed: int = 0,
        grid: int = 160, n_initial: int = 200, grace_period: int = 100, delta: float = 1e-4,
        recent: int = 1_000):  # fmt: skip
    """Learn the stream with ``FrugalHoeffdingTree(alpha)`` and take snapshots: per snapshot
    the margin and the leaf on a ``grid`` x ``grid`` lattice and which of the last ``recent``
    rows before it were queried; and the query rate per window of 250 rows."""
    from ... import evaluate
    from ...learners import FrugalHoeffdingTree

    n = sizes().region_n if n is None else n
    X, y = two_feature_stream(n, seed)
    model = FrugalHoeffdingTree(2, 2, alpha=alpha, n_initial=n_initial, delta=delta,
                                grace_period=grace_period)  # fmt: skip
    g = (np.arange(grid) + 0.5) / grid
    G = np.column_stack([np.repeat(g, grid), np.tile(g, grid)])  # x0 slow, x1 fast
    stops = sorted({min(n, s) if s is not None else n for s in snapshots})
    shots, queried, lo = [], np.zeros(n, bool), 0
    for hi in stops:
        res = evaluate.prequential(model, X[lo:hi], y[lo:hi], n_points=1)
        queried[lo:hi] = res.queried.astype(bool)
        proba = model.predict_proba(G)
        top = np.sort(proba, axis=1)
        shots.append(
            dict(
                t=hi,
                margin=(top[:, -1] - top[:, -2]).reshape(grid, grid),
                leaf=model.apply(G).reshape(grid, grid),
                X=X[max(lo, hi - recent) : hi],
                asked=queried[max(lo, hi - recent) : hi],
                n_leaves=model.n_leaves,
                labels=model.labels_used_,
            )
        )
        lo = hi
    w = 250
    rate = pd.DataFrame({"t": np.arange(w, n + 1, w),
                         "query_rate": queried[: n // w * w].reshape(-1, w).mean(axis=1)})  # fmt: skip
    return dict(alpha=alpha, shots=shots, rate=rate, n=n, labels=model.labels_used_)


def _boundaries(leaf: np.ndarray) -> np.ndarray:
    edge = np.zeros(leaf.shape, bool)
    edge[1:, :] |= leaf[1:, :] != leaf[:-1, :]
    edge[:, 1:] |= leaf[:, 1:] != leaf[:, :-1]
    return edge


def plot(result: dict):
    """One panel per snapshot (margin as a grey scale, the query region p1 - p2 < alpha in red,
    leaf boundaries in black, rows asked among the last ones before the snapshot as dots) and
    the query rate over time."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    shots = result["shots"]
    fig, axes = plt.subplots(1, len(shots) + 1, figsize=(4.0 * (len(shots) + 1), 4.0))
    a = result["alpha"]
    for ax, s in zip(axes, shots):
        ext = (0, 1, 0, 1)
        ax.imshow(s["margin"].T, origin="lower", extent=ext, cmap="Greys", vmin=0, vmax=1)
        region = np.ma.masked_where(s["margin"].T >= a, np.ones_like(s["margin"].T))
        ax.imshow(region, origin="lower", extent=ext, cmap=ListedColormap(["#d62728"]), alpha=0.35)
        edge = np.ma.masked_where(~_boundaries(s["leaf"]).T, np.ones_like(s["margin"].T))
        ax.imshow(edge, origin="lower", extent=ext, cmap=ListedColormap(["black"]))
        pts = s["X"][s["asked"]]
        ax.scatter(pts[:, 0], pts[:, 1], s=4, color="#1f77b4", label="asked (recent rows)")
        xx = np.linspace(0, 1, 2)
        ax.plot(xx, 1 - xx, ls="--", color="#2ca02c", lw=1, label="true boundary")
        ax.add_patch(plt.Circle((0.3, 0.3), 0.2, fill=False, ls="--", color="#2ca02c", lw=1))
        leaves = count(s["n_leaves"], "leaf", "leaves")
        ax.set_title(f"t = {s['t']:,}: {leaves}, {s['labels']:,} labels", fontsize=10)
        ax.set_xlabel("x0")
        ax.set_ylabel("x1")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=2, frameon=False,
               bbox_to_anchor=(0.4, -0.06))  # fmt: skip
    r = result["rate"]
    axes[-1].plot(r.t, r.query_rate, color=COLOR["Frugal"])
    axes[-1].set_ylim(-0.02, 1.02)
    axes[-1].set_xlabel("instances")
    axes[-1].set_ylabel("share of the window's labels asked")
    axes[-1].set_title("query rate, windows of 250", fontsize=10)
    axes[-1].grid(alpha=0.3)
    fig.suptitle(f"Frugal rule, α = {a:g}: red = where p1 − p2 < α (asked), black = leaf borders")
    fig.tight_layout()
    return fig


def rate_table(alphas=(0.2, 0.4, 0.6, 0.8, 1.0), n: int | None = None) -> pd.DataFrame:
    """Per alpha: labels used, the query rate over the first and the last tenth of the
    stream, leaves, and the prequential error."""
    from ... import evaluate
    from ...learners import FrugalHoeffdingTree

    n = sizes().region_n if n is None else n
    X, y = two_feature_stream(n, 0)
    rows = []
    for a in alphas:
        m = FrugalHoeffdingTree(2, 2, alpha=a, grace_period=100, delta=1e-4)
        res = evaluate.prequential(m, X, y)
        q = res.queried.astype(bool)
        tenth = n // 10
        rows.append(dict(alpha=a, labels=res.labels_used, first_tenth=q[:tenth].mean(),
                         last_tenth=q[-tenth:].mean(), leaves=m.n_leaves,
                         error=1 - res.accuracy))  # fmt: skip
    return pd.DataFrame(rows).set_index("alpha")


def widget(n: int | None = None):
    """A slider for alpha redrawing :func:`plot`."""
    import ipywidgets as widgets
    import matplotlib.pyplot as plt
    from IPython.display import display

    out = widgets.Output()
    slider = widgets.FloatSlider(value=0.5, min=0.05, max=1.0, step=0.05, description="alpha",
                                 continuous_update=False)  # fmt: skip

    def draw(change=None):
        with out:
            out.clear_output(wait=True)
            fig = plot(run(slider.value, n=n))
            display(fig)
            plt.close(fig)

    slider.observe(draw, names="value")
    draw()
    return widgets.VBox([slider, out])
