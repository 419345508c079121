"""Paper 000, Theorem 4: the union-bound schedule eq. (7), the practical radius eq. (10) and a
Monte Carlo check of the split rule they drive."""

from __future__ import annotations

import math

import numpy as np

from ... import bounds as _bounds
from ._common import THEOREMS, _derive, sizes


def schedule(m, depth, t, d, delta=None, criterion: str = "gini"):
    r"""Eq. (7): :math:`\varepsilon(m, \delta / ((h+1)(h+2)\,t\,d\,m))` with the criterion's
    Theorem 1-3 radius; ``delta=None`` is Remark 1's :math:`\delta = 1/t`."""
    m, depth, t, d = np.broadcast_arrays(
        np.asarray(m, dtype=np.float64),
        np.asarray(depth, dtype=np.int64),
        np.asarray(t, dtype=np.int64),
        np.asarray(d, dtype=np.int64),
    )
    dl = 1.0 / t if delta is None else np.full(t.shape, float(delta))
    out = np.empty(m.shape)
    for idx in np.ndindex(m.shape):
        out[idx] = _bounds.ctree_epsilon(
            float(m[idx]),
            float(dl[idx]),
            int(depth[idx]),
            int(t[idx]),
            int(d[idx]),
            bound=criterion,
        )
    return out if out.ndim else float(out)


def practical(m, depth, t, d, c=1.0):
    r"""Eq. (10): :math:`c\sqrt{\ln(m^2h^2td)/m}`, h = depth + 1 (finite at the root)."""
    return _bounds.ctree_practical(m, depth, t, d, c)


def eq10_vs_eq7(
    ms=(100, 1000, 10_000),
    depths=(0, 2, 5, 10),
    ts=(10_000, 1_000_000),
    d: int = 5,
    criterion: str = "gini",
):
    r"""Eq. (10) (c = 1) next to eq. (7) with :math:`\delta = 1/t`, and the ``c`` that makes them
    equal (``c_match`` = eq. 7 / eq. 10 at c = 1).  Also the printed eq. (10) with the root at
    h = 0 (``eq10_printed``: NaN, the logarithm of 0)."""
    import pandas as pd

    rows = []
    for t in ts:
        for h in depths:
            for m in ms:
                if m > t:
                    continue
                e7 = schedule(m, h, t, d, None, criterion)
                e10 = float(practical(m, h, t, d, 1.0))
                with np.errstate(divide="ignore", invalid="ignore"):
                    printed = 1.0 * np.sqrt(np.log(float(m) ** 2 * float(h) ** 2 * t * d) / m)
                rows.append(
                    {
                        "t": t,
                        "depth": h,
                        "m": m,
                        "d": d,
                        "eq7": e7,
                        "eq10_c1": e10,
                        "c_match": e7 / e10,
                        "eq10_printed": float(printed) if np.isfinite(printed) else np.nan,
                    }
                )
    return pd.DataFrame(rows)


def plot_schedule(
    depth: int = 3,
    t: float = 1e5,
    d: int = 5,
    c: float = 0.01,
    criterion: str = "gini",
    delta=None,
    fig=None,
):
    """Three panels: eq. (7) against m (three depths, with eq. (10) at ``c``), against the depth
    (three dimensions), and against t (the three criteria)."""
    import matplotlib.pyplot as plt

    t = int(t)
    if fig is None:
        fig = plt.figure(figsize=(12, 3.6))
    axes = fig.subplots(1, 3)
    ms = np.unique(np.logspace(1, math.log10(max(t, 20)), 60).astype(np.int64))
    # one depth here: on this log scale the lines of other depths lie on top of this one (they
    # differ by a few per cent); the middle panel shows the depth's effect
    axes[0].loglog(
        ms,
        schedule(ms, depth, t, d, delta, criterion),
        "-",
        color="#d62728",
        lw=2,
        label=f"eq. (7), h = {depth}",
    )
    axes[0].loglog(
        ms,
        practical(ms, depth, t, d, c),
        color="#7f7f7f",
        label=f"eq. (10), c = {c:g}, h = {depth}",
    )
    if c != 4.0:
        axes[0].loglog(
            ms,
            practical(ms, depth, t, d, 4.0),
            color="#222222",
            ls=(0, (2, 3)),
            label=f"eq. (10), c = 4 (close to eq. 7), h = {depth}",
        )
    axes[0].set_xlabel("m (examples at the leaf)")
    axes[0].set_ylabel(r"$\varepsilon_t$")
    axes[0].set_title(f"{criterion}, t = {t:,}, d = {d}", fontsize=9)
    # below the panel: with the sliders the lines move over the whole panel
    axes[0].legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=1)
    m0 = int(min(1000, t))
    hs = np.arange(0, 21)
    for dd, ls in ((2, ":"), (d, "-"), (10 * d, "--")):
        axes[1].plot(
            hs, schedule(m0, hs, t, dd, delta, criterion), ls, color="#d62728", label=f"d = {dd}"
        )
    axes[1].set_xlabel("depth h of the leaf")
    axes[1].set_ylabel(r"$\varepsilon_t$ (eq. 7)")
    axes[1].set_title(f"m = {m0:,}, t = {t:,}", fontsize=9)
    axes[1].legend(fontsize=8, loc="lower right")
    ts = np.unique(np.logspace(math.log10(m0), 8, 40).astype(np.int64))
    for crit, col in (("entropy", "#9467bd"), ("gini", "#ff7f0e"), ("kearns_mansour", "#17becf")):
        axes[2].semilogx(ts, schedule(m0, depth, ts, d, delta, crit), color=col, label=crit)
    axes[2].set_xlabel("t (examples seen by the tree)")
    axes[2].set_ylabel(r"$\varepsilon_t$ (eq. 7)")
    axes[2].set_title(
        f"m = {m0:,}, h = {depth}, d = {d}"
        + (r", $\delta = 1/t$" if delta is None else f", delta = {delta:g}"),
        fontsize=9,
    )
    axes[2].legend(fontsize=8, loc="center right")
    for ax in axes:
        ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    return fig


def schedule_widget():
    """Sliders for depth, t, d, c and the criterion over :func:`plot_schedule`."""
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import display

    def draw(criterion, depth, log10_t, d, log10_c):
        # shown and closed at once: a figure left open would be drawn a second time by the
        # inline backend when the next change comes quickly (two stacked figures)
        plt.close("all")
        fig = plot_schedule(depth=depth, t=10**log10_t, d=d, c=10**log10_c, criterion=criterion)
        display(fig)
        plt.close(fig)

    quiet = {"continuous_update": False}  # redraw when the slider is let go, not while dragged
    return w.interactive(
        draw,
        criterion=w.Dropdown(options=list(THEOREMS), value="gini", description="criterion"),
        depth=w.IntSlider(value=3, min=0, max=20, description="depth h", **quiet),
        log10_t=w.FloatSlider(
            value=5.0, min=2.0, max=8.0, step=0.25, description="log10 t", **quiet
        ),
        d=w.IntSlider(value=5, min=1, max=100, description="d", **quiet),
        log10_c=w.FloatSlider(
            value=-2.0, min=-3.0, max=1.0, step=0.1, description="log10 c", **quiet
        ),
    )


def split_rule_check(
    trials: int | None = None,
    delta: float = 0.05,
    m_max: int = 20_000,
    seed: int = 3,
    fast: bool | None = None,
):
    r"""Lemma 1 / Theorem 4 at one leaf: how often VFDT's rule, VFDT with the paper's
    :math:`2\varepsilon`, and C-Tree with eq. (7) split on a suboptimal feature.

    Two laws of three (easy) or two (hard) binary features, label prior 1/2, split test every
    200 examples up to ``m_max``; C-Tree uses the Gini bound of Theorem 2 at the root.
    One row per (law, rule): ``p_split``, ``p_suboptimal`` (the quantity Theorem 4 bounds by
    delta), ``median_split_at``.
    """
    import pandas as pd

    from ... import montecarlo as mc

    trials = sizes(fast).split_trials if trials is None else trials
    laws = {
        "easy: 3 features, gains far apart": np.array([[0.1, 0.9], [0.45, 0.55], [0.5, 0.5]]),
        "hard: 2 features, close gains": np.array([[0.3, 0.7], [0.31, 0.69]]),
    }
    rows = []
    for k, (name, theta) in enumerate(laws.items()):
        for j, (rule, crit) in enumerate(
            (("vfdt", "entropy"), ("vfdt_2eps", "entropy"), ("ctree", "gini"))
        ):
            res = mc.split_selection(
                0.5,
                theta,
                delta,
                rule=rule,
                criterion=crit,
                m_max=m_max,
                n_min=200,
                trials=trials,
                seed=_derive(seed, k, j),
            )
            sm = res.summary()
            rows.append(
                {
                    "law": name,
                    "rule": rule,
                    "criterion": crit,
                    "delta": delta,
                    "gains": np.round(res.gains, 4).tolist(),
                    "trials": trials,
                    "p_split": sm["p_split"],
                    "p_suboptimal": sm["p_suboptimal"],
                    "median_split_at": sm["median_split_at"],
                    "p_value": sm["p_value"],
                }
            )
    return pd.DataFrame(rows)
