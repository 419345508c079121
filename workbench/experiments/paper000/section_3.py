"""Paper 000, Sec. III: the min function, the three impurities (entropy, Gini, Kearns-Mansour)
and the gain functional they define."""

from __future__ import annotations

import math

import numpy as np


def impurities(p=None):
    r"""The min function and the three impurities of Sec. III on a grid of ``p = P(Y = 1)``.

    Columns: ``p``; ``min`` (:math:`\Psi = \min(p, 1-p)`); ``entropy_nats`` (the paper's
    :math:`H_{1/2} = -\tfrac p2\ln p - \tfrac{1-p}2\ln(1-p)`, natural log as printed and as
    Theorem 1 uses); ``entropy_bits`` (the same with :math:`\log_2`); ``gini``
    (:math:`J = 2p(1-p)`); ``kearns_mansour`` (:math:`Q = \sqrt{p(1-p)}`).
    """
    import pandas as pd
    from scipy.special import xlogy

    p = np.linspace(0.0, 1.0, 1001) if p is None else np.asarray(p, dtype=np.float64)
    h = -(xlogy(p, p) + xlogy(1 - p, 1 - p))
    return pd.DataFrame(
        {
            "p": p,
            "min": np.minimum(p, 1 - p),
            "entropy_nats": h / 2,
            "entropy_bits": h / (2 * math.log(2)),
            "gini": 2 * p * (1 - p),
            "kearns_mansour": np.sqrt(p * (1 - p)),
        }
    )


def upper_bound_check(n: int = 200_001):
    """Does each impurity bound the min function from above (Sec. III needs it)?

    One row per impurity: the smallest value of ``Phi(p) - min(p, 1-p)`` on a grid of ``n``
    points, where it is attained, and the interval of ``p`` where ``Phi < min`` (empty if the
    bound holds).
    """
    import pandas as pd

    df = impurities(np.linspace(0.0, 1.0, n))
    rows = []
    for col in ("entropy_nats", "entropy_bits", "gini", "kearns_mansour"):
        gap = df[col].to_numpy() - df["min"].to_numpy()
        bad = gap < -1e-12
        i = int(gap.argmin())
        rows.append(
            {
                "impurity": col,
                "holds": not bad.any(),
                "min_gap": float(gap[i]),
                "at_p": float(df.p.iloc[i]),
                "fails_from": float(df.p[bad].min()) if bad.any() else np.nan,
                "fails_to": float(df.p[bad].max()) if bad.any() else np.nan,
            }
        )
    return pd.DataFrame(rows)


def _phi(p, name):
    p = np.asarray(p, dtype=np.float64)
    if name == "min":
        return np.minimum(p, 1 - p)
    if name == "gini":
        return 2 * p * (1 - p)
    if name == "kearns_mansour":
        return np.sqrt(p * (1 - p))
    from scipy.special import xlogy

    h = -(xlogy(p, p) + xlogy(1 - p, 1 - p)) / 2
    return h / math.log(2) if name == "entropy_bits" else h


def gain_table(p_f1: float = 0.5, p_y1_given_f0: float = 0.6, p_y1_given_f1: float = 0.9):
    r"""True gain (eq. 3) of one binary split under every functional.

    The law: :math:`P(F=1)` = ``p_f1`` and :math:`P(Y=1\mid F=k)`.  The default split leaves the
    majority label at 1 in both children, so the min function (the risk) gains nothing while
    every strictly concave impurity gains something: the reason the paper splits on
    :math:`\Phi` rather than on :math:`\Psi`.
    """
    import pandas as pd

    a, b = p_y1_given_f0, p_y1_given_f1
    p = (1 - p_f1) * a + p_f1 * b
    rows = []
    for name in ("min", "entropy_bits", "gini", "kearns_mansour"):
        parent = float(_phi(p, name))
        child = float((1 - p_f1) * _phi(a, name) + p_f1 * _phi(b, name))
        rows.append(
            {"functional": name, "Phi(Y)": parent, "Phi(Y | F)": child, "gain": parent - child}
        )
    return pd.DataFrame(rows)


def plot_impurities(ax=None):
    """The min function and the three impurities against ``p`` (entropy drawn in both units)."""
    import matplotlib.pyplot as plt

    df = impurities()
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.2, 4.0))
    ax.plot(df.p, df["min"], color="k", lw=2.2, label=r"$\Psi=\min(p,1-p)$ (risk)")
    ax.plot(df.p, df.entropy_bits, color="#9467bd", label=r"$H_{1/2}$ with $\log_2$")
    ax.plot(
        df.p,
        df.entropy_nats,
        color="#9467bd",
        ls="--",
        label=r"$H_{1/2}$ with $\ln$ (as Theorem 1)",
    )
    ax.plot(df.p, df.gini, color="#ff7f0e", label=r"$J=2p(1-p)$ (Gini)")
    ax.plot(df.p, df.kearns_mansour, color="#17becf", label=r"$Q=\sqrt{p(1-p)}$ (Kearns-Mansour)")
    bad = df.entropy_nats < df["min"] - 1e-12
    ax.fill_between(
        df.p,
        df.entropy_nats,
        df["min"],
        where=bad,
        color="#9467bd",
        alpha=0.15,
        label=r"$H_{1/2}(\ln) < \Psi$",
    )
    ax.set_xlabel(r"$p = P(Y=1)$")
    ax.set_ylabel("value")
    ax.set_title("Impurities against the min function (Sec. III)")
    ax.legend(fontsize=8, loc="upper right")
    ax.set_ylim(0, 0.62)
    return fig if fig is not None else ax.figure
