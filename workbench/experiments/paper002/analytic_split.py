"""Section 1 of the notebook: UFFT's analytical split against the exact gain of the instances."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import analytic
from ._common import sizes


def _entropy(counts) -> float:
    counts = np.asarray(counts, float)
    n = counts.sum()
    if n <= 0:
        return 0.0
    p = counts[counts > 0] / n
    return float(-(p * np.log2(p)).sum())


def gain_of_table(left, right) -> float:
    """Information gain (bits) of a 2 x 2 table: class weights left and right of a cut."""
    left, right = np.asarray(left, float), np.asarray(right, float)
    n = left.sum() + right.sum()
    return _entropy(left + right) - (
        left.sum() / n * _entropy(left) + right.sum() / n * _entropy(right)
    )


def analytic_from_sample(x, y) -> dict:
    """UFFT's cut and gain from the per-class mean and variance of ``x`` (two classes 0/1),
    beside the exact gain of the instances at that cut and the best exact gain over every
    midpoint (what a batch tree would find)."""
    x, y = np.asarray(x, float), np.asarray(y)
    a, b = x[y == 0], x[y == 1]
    p1 = len(a) / len(x)
    m1, m2 = a.mean(), b.mean()
    v1, v2 = a.var(ddof=1), b.var(ddof=1)
    r1, r2 = analytic.discriminant_roots(p1, m1, v1, 1 - p1, m2, v2)
    cut = analytic.analytic_cut(p1, m1, v1, 1 - p1, m2, v2)
    left = [analytic.normal_left(len(a), m1, v1, cut), analytic.normal_left(len(b), m2, v2, cut)]
    right = [len(a) - left[0], len(b) - left[1]]
    exact_left = [np.sum(a <= cut), np.sum(b <= cut)]
    exact_right = [len(a) - exact_left[0], len(b) - exact_left[1]]
    # exhaustive: every midpoint of the sorted values
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    c0 = np.cumsum(ys == 0)
    c1 = np.cumsum(ys == 1)
    edges = np.flatnonzero(np.diff(xs) > 0)
    best, best_cut = -np.inf, np.nan
    n0, n1 = c0[-1], c1[-1]
    if edges.size:
        L0, L1 = c0[edges], c1[edges]
        n = len(x)
        nl = L0 + L1
        with np.errstate(divide="ignore", invalid="ignore"):

            def h(p, q):
                t = p + q
                out = np.zeros_like(t, dtype=float)
                for v in (p, q):
                    f = np.where(t > 0, v / np.where(t > 0, t, 1), 0)
                    out -= np.where(f > 0, f * np.log2(np.where(f > 0, f, 1)), 0)
                return out

            g = _entropy([n0, n1]) - (nl / n * h(L0, L1) + (n - nl) / n * h(n0 - L0, n1 - L1))
        k = int(np.argmax(g))
        best, best_cut = float(g[k]), float(0.5 * (xs[edges[k]] + xs[edges[k] + 1]))
    return {
        "p1": p1,
        "m1": m1,
        "v1": v1,
        "m2": m2,
        "v2": v2,
        "root1": float(r1),
        "root2": float(r2),
        "cut": float(cut),
        "table_left": left,
        "table_right": right,
        "analytic_gain": gain_of_table(left, right),
        "exact_gain_at_cut": gain_of_table(exact_left, exact_right),
        "best_exact_gain": best,
        "best_exact_cut": best_cut,
    }


def draw_attribute(shape: str, n: int, seed: int, p1: float = 0.5):
    """Two classes of one attribute: ``"normal"`` (N(0, 1) against N(1.5, 0.6^2)),
    ``"uniform"`` (U(0, 1) against U(0.6, 1.6)) or ``"bimodal"`` (class 0 an equal mixture of
    N(-2, 0.5^2) and N(2, 0.5^2), class 1 N(0, 0.5^2): the normal fit of class 0 is wide and
    centred where class 1 is)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) >= p1).astype(np.int64)
    x = np.empty(n)
    k0, k1 = y == 0, y == 1
    if shape == "normal":
        x[k0] = rng.normal(0.0, 1.0, k0.sum())
        x[k1] = rng.normal(1.5, 0.6, k1.sum())
    elif shape == "uniform":
        x[k0] = rng.uniform(0.0, 1.0, k0.sum())
        x[k1] = rng.uniform(0.6, 1.6, k1.sum())
    elif shape == "bimodal":
        side = rng.random(k0.sum()) < 0.5
        x[k0] = np.where(side, rng.normal(-2, 0.5, k0.sum()), rng.normal(2, 0.5, k0.sum()))
        x[k1] = rng.normal(0.0, 0.5, k1.sum())
    else:
        raise ValueError(f"shape must be 'normal', 'uniform' or 'bimodal'; got {shape!r}")
    return x, y


def normality_table(fast: bool | None = None) -> pd.DataFrame:
    """For normal, uniform and bimodal attributes: UFFT's analytical gain, the exact gain of the
    instances at its cut, and the best exact gain over all cuts (means over seeds)."""
    s = sizes(fast)
    rows = []
    for shape in ("normal", "uniform", "bimodal"):
        for seed in range(s.gain_seeds):
            x, y = draw_attribute(shape, s.gain_n, seed)
            r = analytic_from_sample(x, y)
            rows.append(
                {
                    "attribute": shape,
                    "seed": seed,
                    "cut": r["cut"],
                    "analytic gain": r["analytic_gain"],
                    "exact gain at the cut": r["exact_gain_at_cut"],
                    "best exact gain": r["best_exact_gain"],
                    "best exact cut": r["best_exact_cut"],
                }
            )
    df = pd.DataFrame(rows)
    out = df.groupby("attribute", sort=False).mean(numeric_only=True).drop(columns="seed")
    out["analytic - exact"] = out["analytic gain"] - out["exact gain at the cut"]
    out["lost vs best cut"] = out["best exact gain"] - out["exact gain at the cut"]
    return out


def plot_split(m1=0.0, s1=1.0, m2=1.5, s2=0.6, p1=0.5, n=4000, seed=0, ax=None):
    """The two weighted class densities, the discriminant's roots and UFFT's cut, with the
    table from the normal CDFs and the exact counts of ``n`` drawn instances in the title."""
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(seed)
    y = (rng.random(n) >= p1).astype(np.int64)
    x = np.where(y == 0, rng.normal(m1, s1, n), rng.normal(m2, s2, n))
    r = analytic_from_sample(x, y)
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    lo = min(m1 - 4 * s1, m2 - 4 * s2)
    hi = max(m1 + 4 * s1, m2 + 4 * s2)
    grid = np.linspace(lo, hi, 600)
    from scipy import stats

    d1 = r["p1"] * stats.norm.pdf(grid, r["m1"], np.sqrt(r["v1"]))
    d2 = (1 - r["p1"]) * stats.norm.pdf(grid, r["m2"], np.sqrt(r["v2"]))
    ax.plot(grid, d1, color="#1f77b4", label="class 0: p1 N(m1, v1)")
    ax.plot(grid, d2, color="#d62728", label="class 1: p2 N(m2, v2)")
    for root in (r["root1"], r["root2"]):
        if np.isfinite(root) and lo <= root <= hi:
            ax.axvline(root, color="#888888", ls=":", lw=1)
    ax.axvline(r["cut"], color="black", lw=1.5, label=f"UFFT's cut {r['cut']:.3f}")
    if np.isfinite(r["best_exact_cut"]):
        ax.axvline(
            r["best_exact_cut"],
            color="#2ca02c",
            ls="--",
            lw=1.2,
            label=f"best exact cut {r['best_exact_cut']:.3f}",
        )
    ax.set_xlabel("attribute value x")
    ax.set_ylabel("prior x density")
    ax.set_title(
        f"gain: analytical {r['analytic_gain']:.4f}, exact at the cut "
        f"{r['exact_gain_at_cut']:.4f}, best exact {r['best_exact_gain']:.4f}",
        fontsize=10,
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    ax.figure.tight_layout()
    return ax.figure, r


def split_widget():
    """Sliders for the two classes' means, standard deviations and prior."""
    import ipywidgets as w
    import matplotlib.pyplot as plt

    def show(m1, s1, m2, s2, p1):
        plot_split(m1, s1, m2, s2, p1)
        plt.show()
        return None

    return w.interactive(
        show,
        m1=w.FloatSlider(value=0.0, min=-3, max=3, step=0.1),
        s1=w.FloatSlider(value=1.0, min=0.2, max=3, step=0.1),
        m2=w.FloatSlider(value=1.5, min=-3, max=3, step=0.1),
        s2=w.FloatSlider(value=0.6, min=0.2, max=3, step=0.1),
        p1=w.FloatSlider(value=0.5, min=0.05, max=0.95, step=0.05),
    )
