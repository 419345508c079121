r"""Eq. (7) and the active selection: where BOCT-AL sends its queries as the tree grows.

A :class:`~workbench.experiments.paper001.toy_stepper.ToyStepper` in active mode records the
cell of every query; :func:`query_maps` counts them per cell in time windows and
:func:`plot_query_maps` draws each window as an 8 x 8 map with the learned partition at its end.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...streams.toy64 import FIRST_LEAF
from .toy_stepper import ToyStepper

WINDOWS = ((0, 50), (50, 200), (200, 1000))


def run_active(n_labels=1000, delta=0.2, delta2=0.05, seed=0, windows=WINDOWS):
    """Run BOCT-AL on the toy problem; returns the stepper and the partitions (leaf lists)
    at the end of each window."""
    st = ToyStepper(delta=delta, active=True, delta2=delta2, seed=seed)
    parts = {}
    ends = {b for _, b in windows}
    for t in range(1, n_labels + 1):
        st.step()
        if t in ends:
            parts[t] = st.leaves()
    return st, parts


def query_maps(st, windows=WINDOWS):
    q = pd.DataFrame(st.queries, columns=["t", "cell", "asked"])
    maps = {}
    for a, b in windows:
        sub = q[(q.t > a) & (q.t <= b)]
        counts = np.bincount(sub.cell - FIRST_LEAF, minlength=64)
        maps[(a, b)] = counts
    return maps


def plot_query_maps(st, parts, windows=WINDOWS):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    maps = query_maps(st, windows)
    fig, axes = plt.subplots(1, len(windows), figsize=(4.3 * len(windows), 4))
    box = st.toy.box
    for ax, (a, b) in zip(axes, windows):
        img = np.zeros((8, 8))
        for k, c in enumerate(maps[(a, b)]):
            x0, _, y0, _ = box[FIRST_LEAF + k]
            img[int(round(y0 * 8)), int(round(x0 * 8))] = c / max(b - a, 1)
        im = ax.imshow(img, origin="lower", extent=(0, 1, 0, 1), cmap="viridis")
        for s in parts.get(b, []):
            x0, x1, y0, y1 = box[s]
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ec="w", lw=1.2))
        ax.set(title=f"queries {a + 1}-{b}", xlabel="$x_1$", ylabel="$x_2$")
        fig.colorbar(im, ax=ax, fraction=0.046, label="share of the window's queries")
    fig.tight_layout()
    return fig


def mu_boundary_share(st, window=(200, 1000)):
    """Share of the window's queries in cells whose mu is within 0.2 of 1/2 (the noisy band),
    against that band's share of the square."""
    q = pd.DataFrame(st.queries, columns=["t", "cell", "asked"])
    sub = q[(q.t > window[0]) & (q.t <= window[1])]
    noisy = np.abs(st.toy.mu - 0.5) < 0.2
    return pd.DataFrame(
        [
            dict(
                window=f"{window[0] + 1}-{window[1]}",
                queries_in_band=float(noisy[sub.cell - FIRST_LEAF].mean()),
                band_area=float(noisy.mean()),
            )
        ]
    )
