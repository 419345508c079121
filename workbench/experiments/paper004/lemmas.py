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
#: the learners compared: VFDT, EFDT as MOA computes its merits, and EFDT with the merits of
#: the node's statistics now (``merits="current"``; otherwise MOA's EFDT)
VARIANTS = {
    "VFDT": ("VFDT", {}),
    "EFDT (MOA's merits)": ("EFDT", {}),
    "EFDT (current merits)": ("EFDT", {"merits": "current"}),
}
VARIANT_COLOR = {
    "VFDT": "#1f77b4",
    "EFDT (MOA's merits)": "#d62728",
    "EFDT (current merits)": "#ff7f0e",
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


def root_gains(X, y, n_classes: int, n_values: int = N_VALUES, upto: int | None = None):
    """G[t - 1, j]: the information gain (bits) of attribute j's multiway split at a root that
    has seen the first t instances (nominal attributes with values 0..n_values-1), for every t
    up to ``upto`` (default: all).  Plain counts and entropies, no engine code."""
    n = len(y) if upto is None else min(upto, len(y))
    Xi, yi = X[:n].astype(np.int64), np.asarray(y[:n], np.int64)
    d = Xi.shape[1]
    out = np.empty((n, d))
    counts = np.zeros((d, n_values, n_classes))
    for a in range(0, n, 20_000):  # in chunks: cumulative counts of every instance
        b = min(n, a + 20_000)
        hot = np.zeros((b - a, d, n_values, n_classes))
        rows = np.arange(b - a)[:, None]
        hot[rows, np.arange(d)[None, :], Xi[a:b], yi[a:b, None]] = 1.0
        c = counts + np.cumsum(hot, axis=0)
        counts = c[-1].copy()
        tot_v = c.sum(axis=3)  # (t, d, V)
        tot = tot_v.sum(axis=2)  # (t, d)
        cls = c.sum(axis=2)[:, 0, :]  # (t, K): class counts (the same through every attribute)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = cls / tot[:, :1]
            h = -np.nansum(np.where(p > 0, p * np.log2(p), 0.0), axis=1)
            pv = c / tot_v[..., None]
            hv = -np.nansum(np.where(pv > 0, pv * np.log2(pv), 0.0), axis=3)
            cond = (tot_v * hv).sum(axis=2) / tot
        out[a:b] = h[:, None] - cond
    return out


def hoeffding_eps(t, n_classes: int = 2, delta: float = 1e-7):
    """eq. (1) with R = log2 K."""
    r = np.log2(max(n_classes, 2))
    return np.sqrt(r * r * np.log(1 / delta) / (2 * np.asarray(t, np.float64)))


def averaged_root_race(G, period: int, grace: int = 200, n_classes: int = 2, delta: float = 1e-7):
    """Lemma 3.1 with the statistic of its proof: time-averaged gain differences at the root.

    ``G``: :func:`root_gains`.  HT tests every ``grace`` instances whether the mean over all
    instances so far of G(X1:s) - G(X2:s) (best minus second best at each instance s) exceeds
    epsilon, and splits on the best attribute at that instant T.  HATT, on the same instances,
    keeps the mean of G(X1:s) - G(current split at s) (the null split scores 0) and moves its
    root to the best attribute when that mean exceeds epsilon: while a leaf every ``grace``
    instances, once split every ``period`` instances (period 1: at every instance, as the
    lemma assumes, the leaf too).  No tie rule (the lemma assumes no ties).

    Returns dict(t=T or None, ht_root, hatt_root (-1: still a leaf), hatt_split_at)."""
    n, _d = G.shape
    t = np.arange(1, n + 1)
    eps = hoeffding_eps(t, n_classes, delta)
    order = np.sort(G, axis=1)
    best = np.argmax(G, axis=1)
    ht_avg = np.cumsum(order[:, -1] - order[:, -2]) / t
    tests = (t % grace == 0) & (ht_avg > eps)
    if not tests.any():
        return dict(t=None, ht_root=-1, hatt_root=-1, hatt_split_at=None)
    T = int(np.argmax(tests)) + 1
    cur, start, total, split_at = -1, 0, 0.0, None
    top = order[:T, -1]
    while start < T:
        g_cur = np.zeros(T - start) if cur < 0 else G[start:T, cur]
        s = total + np.cumsum(top[start:] - g_cur)
        tt = t[start:T]
        every = 1 if period == 1 else (grace if cur < 0 else period)
        fire = (tt % every == 0) & (s / tt > eps[start:T]) & (best[start:T] != cur)
        if not fire.any():
            break
        i = int(np.argmax(fire))
        total = s[i]
        cur = int(best[start + i])
        split_at = split_at if split_at is not None else int(tt[i])
        start += i + 1
    return dict(t=T, ht_root=int(best[T - 1]), hatt_root=cur, hatt_split_at=split_at)


#: the settings of the Lemma 3.1 check: (statistic, re-evaluation period)
LEMMA_SETTINGS = (
    ("time-averaged", 1),
    ("time-averaged", 2000),
    ("MOA sums", 1),
    ("MOA sums", 2000),
)


def lemma_3_1_stream(seed: int, concept: int, n: int) -> list[dict]:
    """Lemma 3.1 on one stream under every setting of :data:`LEMMA_SETTINGS`.  Time-averaged:
    :func:`averaged_root_race`.  MOA sums: the engine's HT (MOA's Hoeffding tree: current gains)
    is run to its root split at T, then EFDT (MOA's merit sums) on the same first T instances
    with the given re-evaluation period.  One row per setting (streams on which HT never splits
    its root within ``n`` give no row)."""
    X, y, info = _stream(n, seed, concept)
    rows = []
    G = None
    for stat, period in LEMMA_SETTINGS:
        if stat == "time-averaged":
            if G is None:  # the gains up to HT's split (found on growing prefixes)
                for upto in (10_000, 40_000, n):
                    G = root_gains(X, y, 2, upto=upto)
                    if averaged_root_race(G, 1)["t"] is not None or upto >= n:
                        break
            r = averaged_root_race(G, period)
            if r["t"] is None:
                continue
        else:
            ht = make("VFDT", X.shape[1], 2, info.nominal_features)
            T = None
            for a in range(0, len(y), 200):  # HT tests its root every 200 instances
                ht.partial_fit(X[a : a + 200], y[a : a + 200])
                if ht.tree.kind[ht.root] > 0:
                    T = a + 200
                    break
            if T is None:
                continue
            efdt = make("EFDT", X.shape[1], 2, info.nominal_features,
                        min_samples_reevaluate=period)  # fmt: skip
            efdt.partial_fit(X[:T], y[:T])
            split = efdt.tree.kind[efdt.root] > 0
            r = dict(
                t=T,
                ht_root=int(ht.tree.feature[ht.root]),
                hatt_root=int(efdt.tree.feature[efdt.root]) if split else -1,
                hatt_split_at=int(efdt.tree.t_split[efdt.root]) if split else None,
            )
        rows.append(dict(concept=concept, seed=seed, statistic=stat, period=period, **r))
    return rows


def lemma_3_1(fast: bool | None = None, progress: bool = True) -> pd.DataFrame:
    """Lemma 3.1: at the instance T where HT splits its root, HATT's root tests the same
    attribute.  Every stream of the convergence check under each setting of
    :data:`LEMMA_SETTINGS`; one row per (stream, setting), with ``same`` and, where HATT's root
    differs, whether it had not split yet (``hatt_root == -1``)."""
    from tqdm.auto import tqdm

    s = sizes(fast)
    rows = []
    jobs = [(c, seed) for c in range(s.lemma_concepts) for seed in range(s.lemma_seeds)]
    for c, seed in tqdm(jobs, desc="streams", disable=not progress):
        rows += lemma_3_1_stream(2000 + seed, 7 + c, s.lemma_n)
    df = pd.DataFrame(rows)
    df["same"] = df.ht_root == df.hatt_root
    return df


def lemma_3_1_table(df: pd.DataFrame) -> pd.DataFrame:
    """Share of streams where HATT's root equals HT's at HT's root split, with a 95% Wilson
    interval, per setting."""
    out = []
    for (stat, period), g in df.groupby(["statistic", "period"], sort=False):
        k, n = int(g.same.sum()), len(g)
        z = 1.96
        centre = (k + z * z / 2) / (n + z * z)
        half = z * np.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
        out.append(
            {
                "statistic": stat,
                "re-evaluation period": period,
                "premise": "kept" if period == 1 else "broken",
                "streams": n,
                "same root": k,
                "HATT still a leaf": int((g.hatt_root[~g.same] == -1).sum()),
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


def lemma_3_1_failures(df: pd.DataFrame) -> str:
    """Each stream where HATT's root differs from HT's at T, in words: the setting, T, HT's
    attribute and HATT's (or that HATT's root had not split yet), as Markdown."""
    bad = df[~df.same]
    if not len(bad):
        return (
            "In this run HATT's root tests HT's attribute at T on every stream, in every setting."
        )
    lines = []
    for _, r in bad.iterrows():
        what = (
            "HATT's root had not split yet"
            if r.hatt_root == -1
            else f"HATT's root tests x{int(r.hatt_root)} (split at instance "
            f"{int(r.hatt_split_at):,})"
        )
        lines.append(
            f"- {r.statistic}, re-evaluation every {int(r.period):,}: concept {int(r.concept)}, "
            f"stream {int(r.seed)}: HT splits its root on x{int(r.ht_root)} at T = {int(r.t):,}; "
            f"{what}."
        )
    return "\n".join(lines)
