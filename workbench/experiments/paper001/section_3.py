r"""001 eqs. (1)-(4): the Beta posterior, the credible interval of a heterogeneity, its inverse.

:func:`f_curve` evaluates eq. (3), :math:`f(\epsilon) = P(H(\mu) \ge \epsilon)`, on a grid;
:func:`plot_credible` draws the posterior of :math:`\mu` and :math:`f` for the three
heterogeneities with the interval :math:`[\epsilon(1-\delta), \epsilon(\delta)]` read off where
:math:`f` crosses :math:`1-\delta` and :math:`\delta`; :func:`credible_widget` adds sliders.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...bounds import credible_interval, heterogeneity

HETS = ("entropy", "variance", "std")


def mu_low(eps, kind):
    """The root below 1/2 of H(mu) = eps (closed form for variance and std, bisection for
    entropy)."""
    eps = np.asarray(eps, float)
    if kind == "variance":
        return 0.5 - np.sqrt(np.maximum(0.25 - eps, 0.0))
    if kind == "std":
        return 0.5 - np.sqrt(np.maximum(0.25 - eps**2, 0.0))
    lo, hi = np.zeros_like(eps), np.full_like(eps, 0.5)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        below = heterogeneity(mid, "entropy") < eps
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return 0.5 * (lo + hi)


def f_curve(n_pos, n_neg, kind, n_points=400):
    """eq. (3) on a grid of eps in (0, H(1/2))."""
    top = float(heterogeneity(0.5, kind))
    eps = np.linspace(1e-6, top * (1 - 1e-9), n_points)
    lo = mu_low(eps, kind)
    post = stats.beta(n_pos + 1, n_neg + 1)
    return pd.DataFrame(dict(eps=eps, f=post.cdf(1 - lo) - post.cdf(lo)))


def interval_check(n_pos, n_neg, delta):
    """The interval of ``workbench.bounds.credible_interval`` and the value of eq. (3) at its
    ends (should be 1 - delta and delta)."""
    rows = []
    post = stats.beta(n_pos + 1, n_neg + 1)
    for kind in HETS:
        lo, up = credible_interval(n_pos, n_neg, delta, kind)
        f = [float(post.cdf(1 - m) - post.cdf(m)) for m in (mu_low(lo, kind), mu_low(up, kind))]
        rows.append(dict(heterogeneity=kind, lower=lo, upper=up, f_lower=f[0], f_upper=f[1]))
    return pd.DataFrame(rows)


def plot_credible(n_pos=6, n_neg=2, delta=0.1):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 4, figsize=(15, 3.4))
    mu = np.linspace(0, 1, 400)
    ax = axes[0]
    ax.plot(mu, stats.beta(n_pos + 1, n_neg + 1).pdf(mu), color="k")
    ax.set(xlabel=r"$\mu$", ylabel="posterior density", title=f"Beta({n_pos}+1, {n_neg}+1)")
    for ax, kind in zip(axes[1:], HETS):
        c = f_curve(n_pos, n_neg, kind)
        lo, up = credible_interval(n_pos, n_neg, delta, kind)
        ax.plot(c.eps, c.f, color="C0", label=r"$f(\epsilon)=P(H(\mu)\geq\epsilon)$")
        ax.axhline(delta, color="C3", lw=0.8, ls=":")
        ax.axhline(1 - delta, color="C2", lw=0.8, ls=":")
        ax.axvspan(lo, up, color="C1", alpha=0.2, label=f"{1 - 2 * delta:.0%} interval")
        ax.axvline(float(heterogeneity(n_pos / max(n_pos + n_neg, 1), kind)), color="k", lw=0.8)
        ax.set(xlabel=r"$\epsilon$", title=kind, ylim=(-0.02, 1.02))
    axes[1].set_ylabel("probability")
    axes[1].legend(loc="best", fontsize=8)
    fig.tight_layout()
    return fig


def credible_widget():
    """Sliders for the counts and delta redrawing :func:`plot_credible`."""
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import display

    out = w.Output()
    pos = w.IntSlider(6, 0, 60, description="labels 1")
    neg = w.IntSlider(2, 0, 60, description="labels 0")
    dl = w.FloatSlider(0.1, min=0.01, max=0.45, step=0.01, description="delta")

    def redraw(*_):
        with out:
            out.clear_output(wait=True)
            fig = plot_credible(pos.value, neg.value, dl.value)
            plt.show(fig)

    for s in (pos, neg, dl):
        s.observe(redraw, "value")
    redraw()
    return display(w.VBox([w.HBox([pos, neg, dl]), out]))
