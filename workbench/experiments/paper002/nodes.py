"""Sections 2 and 3 of the notebook: the expansion test, its ties and functional nodes; DDM at
inner nodes, its levels and its false alarms on stationary streams."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ... import learners, streams
from ._common import sizes


def epsilon_table(delta: float = 1e-7, tau: float = 0.05, R: float = 1.0) -> pd.DataFrame:
    """Hoeffding's epsilon = sqrt(R^2 ln(1/delta) / (2n)) for a two-class tree (R = 1 bit),
    and the weight from which epsilon < tau (VFDT's tie, which starts UFFT's naive-Bayes
    scoring at the latest)."""
    ns = np.array([100, 200, 500, 1000, 2000, 5000, 10_000, 50_000])
    eps = np.sqrt(R * R * math.log(1 / delta) / (2 * ns))
    df = pd.DataFrame({"n": ns, "epsilon": eps, "epsilon < tau": eps < tau})
    df.attrs["n_tie"] = math.ceil(R * R * math.log(1 / delta) / (2 * tau * tau))
    return df


def stationary_stream(name: str, n: int, seed: int):
    """The four stationary problems of 002's Table 1, plus SEA with one concept."""
    if name == "Waveform-21":
        return streams.waveform(n, seed=seed)
    if name == "Waveform-40":
        return streams.waveform(n, seed=seed, n_features=40)
    if name == "LED":
        return streams.led(n, seed=seed)
    if name == "Balance":
        return streams.balance(n, seed=seed)
    if name == "SEA (one concept)":
        return streams.sea(n, seed=seed, concept=0)
    raise ValueError(f"unknown stream {name!r}")


N_CLASSES = {"Waveform-21": 3, "Waveform-40": 3, "LED": 10, "Balance": 3, "SEA (one concept)": 2}


def functional_nodes(fast: bool | None = None) -> pd.DataFrame:
    """How often the tie leads to a naive-Bayes node: splits of each kind per problem."""
    s = sizes(fast)
    n = s.nodes_n
    rows = []
    for name in ("Waveform-21", "Waveform-40", "LED", "Balance"):
        X, y = stationary_stream(name, n, 1)
        m = learners.UFFT(n_classes=N_CLASSES[name]).fit(X, y)
        c = m.drift_counts()
        rows.append(
            {
                "problem": name,
                "rows": n,
                "trees": m.n_trees,
                "attribute splits": c["attribute_splits"],
                "naive-Bayes splits": c["nb_splits"],
                "nodes per tree": m.tree_size(),
            }
        )
    return pd.DataFrame(rows)


def ddm_trace(p_before=0.15, p_after=0.35, n_before=3000, n_after=1500, seed=0, levels=(2, 3)):
    """A node's 0/1 error stream whose rate jumps, and DDM's quantities at every step: p + s,
    p_min + 2 s_min, p_min + 3 s_min, and where it warned and drifted (MOA's strict DDM; the
    detector restarts after a drift as a pruned node does)."""
    rng = np.random.default_rng(seed)
    err = np.r_[rng.random(n_before) < p_before, rng.random(n_after) < p_after].astype(float)
    n = k = 0
    p_min = s_min = math.inf
    rows = []
    for t, e in enumerate(err):
        n += 1
        k += e
        p = k / n
        s = math.sqrt(p * (1 - p) / n)
        state = "in control"
        if n >= 30:
            if p + s < p_min + s_min:
                p_min, s_min = p, s
            if p + s > p_min + levels[1] * s_min:
                state = "drift"
            elif p + s > p_min + levels[0] * s_min:
                state = "warning"
        rows.append(
            {
                "t": t,
                "p+s": p + s,
                "warning level": p_min + levels[0] * s_min if n >= 30 else np.nan,
                "drift level": p_min + levels[1] * s_min if n >= 30 else np.nan,
                "state": state,
            }
        )
        if state == "drift":
            n = k = 0
            p_min = s_min = math.inf
    return pd.DataFrame(rows)


def plot_ddm_trace(df, change_at=3000):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 3.8))
    ax.plot(df.t, df["p+s"], color="black", lw=1, label="p + s")
    ax.plot(df.t, df["warning level"], color="#ff7f0e", lw=1, label="p_min + 2 s_min (warning)")
    ax.plot(df.t, df["drift level"], color="#d62728", lw=1, label="p_min + 3 s_min (drift)")
    for t in df.t[df.state == "drift"]:
        ax.axvline(t, color="#d62728", ls="--", lw=1)
    ax.axvline(change_at, color="#888888", ls=":", lw=1.5, label="the error rate changes")
    ax.set_ylim(0, min(1.0, float(np.nanmax(df["p+s"].iloc[30:])) * 1.4))
    ax.set_xlabel("instances seen by the node")
    ax.set_ylabel("error rate")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    fig.tight_layout()
    return fig


def false_alarms(fast: bool | None = None) -> pd.DataFrame:
    """Drifts signalled on stationary streams (every one a false alarm), by depth of the node
    that signalled it, per 10,000 instances; with the number of inner nodes at that depth at
    the end."""
    s = sizes(fast)
    rows = []
    for name in ("Waveform-21", "LED", "Balance", "SEA (one concept)"):
        for seed in range(s.alarm_seeds):
            X, y = stationary_stream(name, s.alarm_n, 100 + seed)
            m = learners.UFFT(n_classes=N_CLASSES[name]).fit(X, y)
            by_depth = m.drifts_by_depth()
            T = m.tree
            inner = np.bincount(T.depth[T.kind > 0], minlength=max(len(by_depth), 1))
            for depth in range(max(len(by_depth), len(inner))):
                rows.append(
                    {
                        "stream": name,
                        "seed": seed,
                        "depth": depth,
                        "drifts": int(by_depth[depth]) if depth < len(by_depth) else 0,
                        "inner nodes at the end": int(inner[depth]) if depth < len(inner) else 0,
                        "rows": s.alarm_n,
                    }
                )
    df = pd.DataFrame(rows)
    out = df.groupby(["stream", "depth"], sort=False).agg(
        drifts=("drifts", "mean"),
        inner=("inner nodes at the end", "mean"),
        rows=("rows", "first"),
    )
    out["drifts per 10k rows"] = out["drifts"] / out["rows"] * 10_000
    return out.reset_index().rename(columns={"inner": "inner nodes at the end (mean)"})
