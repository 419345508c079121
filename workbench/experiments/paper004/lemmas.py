"""Lemmas 3.1-3.3 of 004 checked empirically on streams whose distribution is known exactly.

The streams come from MOA's random tree generator with nominal attributes only
(:func:`workbench.streams.random_tree`, 5 attributes of 5 values, concepts of depth 3 with
leaves from level 2, so that the root's attributes differ in gain by 0.01-0.07 bits; with MOA's
default depth 5 they differ by thousandths and no learner can tell them apart in a laptop-sized
run): every combination of attribute values is equally likely and the label is a function of
them, so the distribution is the uniform law on a finite grid.
DT*, the tree the information-gain criterion grows greedily from the exact distribution, is
computed by enumerating that grid (:func:`dt_star`): its root attribute and, below each value
of the root, the level-1 attribute.  Exact ties are kept as sets: a learner carries DT*'s
attribute when it tests one of the tied ones.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ._common import make, sizes

N_NOMINAL = 5
N_VALUES = 5
MAX_DEPTH = 3
FIRST_LEAF_LEVEL = 2
#: the learners compared: VFDT, EFDT as MOA computes its merits, and Algorithm 3 as printed
#: (the merits of the node's statistics now)
VARIANTS = {
    "VFDT": ("VFDT", {}),
    "EFDT (MOA's merits)": ("EFDT", {}),
    "HATT (Algorithm 3 merits)": ("EFDT", {"merits": "current"}),
}
VARIANT_COLOR = {
    "VFDT": "#1f77b4",
    "EFDT (MOA's merits)": "#d62728",
    "HATT (Algorithm 3 merits)": "#ff7f0e",
}


def _entropy(labels: np.ndarray, n_classes: int) -> float:
    p = np.bincount(labels, minlength=n_classes) / len(labels)
    p = p[p > 0]
    return float(-(p * np.log2(p)).sum())


def exact_gains(grid: np.ndarray, labels: np.ndarray, n_classes: int, skip=()) -> np.ndarray:
    """Information gain of every attribute's multiway split under the uniform law on ``grid``
    (rows equally likely); attributes in ``skip`` get -inf."""
    h = _entropy(labels, n_classes)
    gains = np.full(grid.shape[1], -np.inf)
    for j in range(grid.shape[1]):
        if j in skip:
            continue
        cond = 0.0
        for v in np.unique(grid[:, j]):
            mask = grid[:, j] == v
            cond += mask.mean() * _entropy(labels[mask], n_classes)
        gains[j] = h - cond
    return gains


def _argmax_set(gains: np.ndarray, tol: float = 1e-12) -> frozenset:
    top = gains.max()
    return (
        frozenset(int(j) for j in np.flatnonzero(gains >= top - tol)) if top > tol else frozenset()
    )


def dt_star(concept, n_classes: int) -> dict:
    """DT*'s root attribute(s) and level-1 attribute(s) per root value, from the exact law.
    An empty set means DT* makes a leaf there (no attribute has positive gain)."""
    grid = np.array(list(itertools.product(range(N_VALUES), repeat=N_NOMINAL)), np.float64)
    labels = concept.predict(grid).astype(np.int64)
    root = _argmax_set(exact_gains(grid, labels, n_classes))
    r = min(root)  # (with tied roots, level 1 is read below the lowest of them)
    level1 = {}
    for v in range(N_VALUES):
        mask = grid[:, r] == v
        level1[v] = _argmax_set(exact_gains(grid[mask], labels[mask], n_classes, skip=(r,)))
    return {"root": root, "level1": level1, "root_gain": exact_gains(grid, labels, n_classes)}


def _agreement(model, star: dict) -> tuple[float, float]:
    """(root carries DT*'s attribute, share of DT*'s level-1 splits the tree carries)."""
    T = model.tree
    root = model.root
    root_ok = float(T.kind[root] > 0 and int(T.feature[root]) in star["root"])
    wanted = [v for v, s in star["level1"].items() if s]
    if not wanted:
        return root_ok, float("nan")
    hits = 0
    if root_ok and int(T.feature[root]) == min(star["root"]):
        for v in wanted:
            c = T.children[root, v] if v < T.n_children[root] else -1
            hits += int(c >= 0 and T.kind[c] > 0 and int(T.feature[c]) in star["level1"][v])
    return root_ok, hits / len(wanted)


def _stream(n, seed, concept_seed, n_classes=2):
    from ... import streams

    return streams.random_tree(
        n,
        seed=seed,
        tree_seed=concept_seed,
        n_classes=n_classes,
        n_nominal=N_NOMINAL,
        n_numeric=0,
        n_values=N_VALUES,
        max_depth=MAX_DEPTH,
        first_leaf_level=FIRST_LEAF_LEVEL,
        return_info=True,
    )


def convergence(fast: bool | None = None, checkpoints: int = 12, progress: bool = True):
    """Lemmas 3.2-3.3: how often HT (VFDT) and HATT (EFDT) carry DT*'s root and level-1
    attributes after n instances, over many streams of several concepts.  One row per
    (learner, concept, seed, n)."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    ns = np.unique(np.geomspace(200, s.lemma_n, checkpoints).astype(int))
    rows = []
    jobs = [(c, seed) for c in range(s.lemma_concepts) for seed in range(s.lemma_seeds)]
    for c, seed in tqdm(jobs, desc="streams", disable=not progress):
        X, y, info = _stream(s.lemma_n, 1000 + seed, 7 + c)
        star = dt_star(info.tree, 2)
        for name, (learner, extra) in VARIANTS.items():
            model = make(learner, X.shape[1], 2, info.nominal_features, **extra)
            done = 0
            for n in ns:
                model.partial_fit(X[done:n], y[done:n])
                done = n
                root_ok, l1 = _agreement(model, star)
                rows.append(
                    dict(learner=name, concept=c, seed=seed, n=int(n), root=root_ok, level1=l1)
                )
    return pd.DataFrame(rows)


def plot_convergence(df: pd.DataFrame):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    titles = ("the root carries DT*'s attribute", "level-1 nodes carry DT*'s attributes")
    for ax, col, title in zip(axes, ("root", "level1"), titles):
        for learner in VARIANTS:
            g = df[df.learner == learner].groupby("n")[col]
            m, k = g.mean(), g.count()
            half = 1.96 * np.sqrt(np.clip(m * (1 - m), 0, None) / k)
            ax.plot(
                m.index, m.values, marker="o", ms=3, color=VARIANT_COLOR[learner], label=learner
            )
            ax.fill_between(
                m.index,
                (m - half).clip(0),
                (m + half).clip(upper=1),
                color=VARIANT_COLOR[learner],
                alpha=0.15,
            )
        ax.set_xscale("log")
        ax.set_xlabel("instances n")
        ax.set_title(title)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("share of streams (95% band)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def lemma_3_1(fast: bool | None = None, progress: bool = True) -> pd.DataFrame:
    """Lemma 3.1: at the instance where HT splits its root, HATT's root tests the same
    attribute.  For each stream: HT's root split time t and attribute, then HATT trained on
    the same first t instances, under each re-evaluation period (1: every instance, as the
    lemma assumes; 2,000: 004's experiments) and merit estimate.  One row per (stream, setting)."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    rows = []
    jobs = [(c, seed) for c in range(s.lemma_concepts) for seed in range(s.lemma_seeds)]
    for c, seed in tqdm(jobs, desc="streams", disable=not progress):
        X, y, info = _stream(s.lemma_n, 2000 + seed, 7 + c)
        ht = make("VFDT", X.shape[1], 2, info.nominal_features)
        t = None
        for a in range(0, len(y), 200):  # HT tests its root every 200 instances
            ht.partial_fit(X[a : a + 200], y[a : a + 200])
            if ht.tree.kind[ht.root] > 0:
                t = a + 200
                break
        if t is None:
            continue
        for period in (1, 2000):
            for merits in ("current", "moa"):
                efdt = make(
                    "EFDT",
                    X.shape[1],
                    2,
                    info.nominal_features,
                    min_samples_reevaluate=period,
                    merits=merits,
                )
                efdt.partial_fit(X[:t], y[:t])
                T = efdt.tree
                rows.append(
                    dict(
                        concept=c,
                        seed=seed,
                        t=t,
                        period=period,
                        merits=merits,
                        ht_root=int(ht.tree.feature[ht.root]),
                        hatt_root=int(T.feature[efdt.root]) if T.kind[efdt.root] > 0 else -1,
                    )
                )
    df = pd.DataFrame(rows)
    df["same"] = df.ht_root == df.hatt_root
    return df


def lemma_3_1_table(df: pd.DataFrame) -> pd.DataFrame:
    """Share of streams where HATT's root equals HT's at HT's root split, with a 95% Wilson
    interval, per setting."""
    out = []
    for (period, merits), g in df.groupby(["period", "merits"]):
        k, n = int(g.same.sum()), len(g)
        z = 1.96
        centre = (k + z * z / 2) / (n + z * z)
        half = z * np.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
        out.append(
            {
                "re-evaluation period": period,
                "merit estimate": merits,
                "streams": n,
                "same root": k,
                "share": k / n,
                "95% interval": f"[{centre - half:.2f}, {centre + half:.2f}]",
            }
        )
    return pd.DataFrame(out)


def convergence_reading(df: pd.DataFrame) -> str:
    """The numbers the notebook's reading of the convergence plot rests on, as Markdown."""
    last = df[df.n == df.n.max()].groupby("learner")[["root", "level1"]].mean()
    first = {}
    for learner, g in df.groupby("learner"):
        m = g.groupby("n").root.mean()
        hit = m[m >= 0.5]
        first[learner] = int(hit.index[0]) if len(hit) else None
    lines = [f"At n = {int(df.n.max()):,} (share of streams):"]
    for learner in VARIANTS:
        f = first[learner]
        lines.append(
            f"- **{learner}**: root {last.loc[learner, 'root']:.2f}, level 1 "
            f"{last.loc[learner, 'level1']:.2f}; the root first carries DT*'s attribute in "
            f"half the streams at n = {f:,}"
            if f
            else f"- **{learner}**: root "
            f"{last.loc[learner, 'root']:.2f}, level 1 {last.loc[learner, 'level1']:.2f}; "
            "its root never carries DT*'s attribute in half the streams in this run"
        )
    return "\n".join(lines)
