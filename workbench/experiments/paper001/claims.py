"""The claims of 001 Sec. VI as a table: claim, our verdict, evidence (from the curves)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def _at(curves, learner, t):
    row = curves[(curves.learner == learner) & (curves.n_labels == t)]
    return float(row.risk.iloc[0]), float(row.risk_se.iloc[0])


def claims_table(toy_curves, real_curves):
    rows = []
    # 1. BOCT always better than the Hoeffding version (real data)
    parts, ok = [], True
    for name, sub in real_curves.groupby("dataset", sort=False):
        a = sub[sub.learner == "BOCT"].risk.mean()
        b = sub[sub.learner == "Hoeffding"].risk.mean()
        n_pool = int(sub.n_labels.max())
        fa, sa = _at(sub, "BOCT", n_pool)
        fb, sb = _at(sub, "Hoeffding", n_pool)
        ok &= a < b
        parts.append(
            f"{name}: mean risk over the curve {a:.3f} vs {b:.3f}; final {fa:.3f}±{sa:.3f} vs {fb:.3f}±{sb:.3f}"
        )
    rows.append(
        dict(
            claim="BOCT is always better than the Hoeffding version (Fig. 6)",
            verdict="holds here" if ok else "does not hold everywhere",
            evidence="; ".join(parts),
        )
    )
    # 2. BOCT-AL as good as the best fixed partition at any time (toy)
    ts = [t for t in (10, 30, 100, 300, 1000) if t <= toy_curves.n_labels.max()]
    worse = []
    for t in ts:
        al, se = _at(toy_curves, "BOCT-AL", t)
        m8, s8 = _at(toy_curves, "mbinomial_8", t)
        m64, s64 = _at(toy_curves, "mbinomial_64", t)
        best, sb = (m8, s8) if m8 <= m64 else (m64, s64)
        gap = al - best
        if gap > 2 * np.hypot(se, sb):
            worse.append(f"t={t}: {al:.3f} vs {best:.3f}")
    rows.append(
        dict(
            claim="BOCT-AL is as good as the best of mbinomial_8 and mbinomial_64 at any time (Fig. 5)",
            verdict="holds here" if not worse else "does not hold",
            evidence=("worse by more than 2 s.e. at " + ", ".join(worse))
            if worse
            else f"within 2 standard errors of the better mbinomial at t in {ts}",
        )
    )
    # 3. BOCT-AL equal to BOCT at the start and at the end (real data)
    parts, ok = [], True
    for name, sub in real_curves.groupby("dataset", sort=False):
        n_pool = int(sub.n_labels.max())
        bs = sub[sub.learner == "BOCT"].set_index("n_labels")
        al = sub[sub.learner == "BOCT-AL"].set_index("n_labels")
        start = int(np.argmax(bs.leaves.to_numpy() > 1.01))  # before splits in most runs
        start = max(1, min(start, 10))
        d0 = al.risk[start] - bs.risk[start]
        d1 = al.risk[n_pool] - bs.risk[n_pool]
        se0 = np.hypot(al.risk_se[start], bs.risk_se[start])
        se1 = np.hypot(al.risk_se[n_pool], bs.risk_se[n_pool])
        ok &= abs(d0) <= 2 * se0 and abs(d1) <= 2 * se1
        parts.append(
            f"{name}: difference {d0:+.3f}±{se0:.3f} at t={start}, {d1:+.3f}±{se1:.3f} at the end"
        )
    rows.append(
        dict(
            claim="BOCT-AL equals BOCT at the start and at the end (Fig. 6)",
            verdict="holds here" if ok else "does not hold everywhere",
            evidence="; ".join(parts),
        )
    )
    return pd.DataFrame(rows)
