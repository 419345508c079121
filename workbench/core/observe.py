"""Learning an instance into the observers' statistics: the one Welford update, a leaf's
observers (:func:`observe`), and every node on a path (HATT, :func:`learn_along_path`).

Numeric features: West's weighted form of Welford's update with weight 1 per (feature, class)
(:func:`welford_update`), and the smallest and largest value; nominal features: a count per
(value, class), with the highest code each class has shown.  What the statistics estimate (the
Gaussian's weight either side of a cut, its normal CDF) is :mod:`workbench.core.observers`.
Missing values are not observed.  Each function is a step (:mod:`workbench.core._inline`).
"""

from __future__ import annotations

import math

from ._inline import inline, release


@inline
def welford_update(g_w, g_mean, g_m2, s, j, c, xj):
    """West's weighted Welford update (weight 1) of the Gaussian of (feature j, class c) in
    statistics slot s with the value xj."""
    w0 = g_w[s, j, c]
    if w0 > 0.0:
        w1 = w0 + 1.0
        mean0 = g_mean[s, j, c]
        mean1 = mean0 + (xj - mean0) / w1
        g_m2[s, j, c] += (xj - mean0) * (xj - mean1)
        g_mean[s, j, c] = mean1
        g_w[s, j, c] = w1
    else:
        g_w[s, j, c] = 1.0
        g_mean[s, j, c] = xj
        g_m2[s, j, c] = 0.0
    release(g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0])


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
@inline
def observe(nom_index, nom, nom_w, nom_nv, nom_q, with_q, g_w, g_mean, g_m2, g_min, g_max, s,
            X, i, c):
    """Add row i (class c) to statistics slot s: a count per (nominal feature, value, class),
    with the highest code each class has shown (plus one, ``nom_nv``), and West's weighted
    Welford update (:func:`welford_update`) per (numeric feature, class).
    Missing values are not observed.  With ``with_q`` (a leaf's slot in a tree whose features
    are all nominal, the only place :func:`nb_nominal_argmax` reads it), where a nominal count
    moved, class c's product of naive Bayes's denominators (``nom_q``) is made again from the
    counts; an inner node's (``learn_along_path`` passes False) is made when the node becomes a
    leaf again (``edits.kill_subtree``)."""
    counted = False
    for j in range(X.shape[1]):
        xj = X[i, j]
        if math.isnan(xj):
            continue
        m = nom_index[j]
        if m >= 0:
            v = int(xj)
            nom[s, m, v, c] += 1.0
            nom_w[s, m, c] += 1.0
            if v >= nom_nv[s, m, c]:
                nom_nv[s, m, c] = v + 1.0
            counted = True
        else:
            welford_update(g_w, g_mean, g_m2, s, j, c, xj)
            if xj < g_min[s, j, c]:
                g_min[s, j, c] = xj
            if xj > g_max[s, j, c]:
                g_max[s, j, c] = xj
    if counted and with_q:
        q = 1.0
        for m in range(nom_w.shape[1]):
            q *= nom_w[s, m, c] + nom_nv[s, m, c]
        nom_q[s, c] = q
    release(nom_index.shape[0] + nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] +
            nom_q.shape[0] + g_w.shape[0] + g_mean.shape[0] + g_m2.shape[0] + g_min.shape[0] + g_max.shape[0] +
            X.shape[0])


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
@inline
def learn_along_path(path, length, class_counts, stats_slot, nom_index, nom, nom_w, nom_nv,
                     nom_q, g_w, g_mean, g_m2, g_min, g_max, X, i, c):
    """UPDATE_PATH (HATT): every inner node on row i's path (``path[:length - 1]``, root first;
    the leaf is ``path[length - 1]`` and learns as every leaf does) counts it and adds it to the
    statistics it kept."""
    for u in range(length - 1):
        node = path[u]
        class_counts[node, c] += 1.0
        s = stats_slot[node]
        if s >= 0:
            observe(nom_index, nom, nom_w, nom_nv, nom_q, False, g_w, g_mean, g_m2, g_min,
                    g_max, s, X, i, c)
    release(path.shape[0] + class_counts.shape[0] + stats_slot.shape[0] + nom_index.shape[0] +
            nom.shape[0] + nom_w.shape[0] + nom_nv.shape[0] + nom_q.shape[0] + g_w.shape[0] + g_mean.shape[0] +
            g_m2.shape[0] + g_min.shape[0] + g_max.shape[0] + X.shape[0])


# (the arrays one by one, not a bundle: a step, see workbench.core._inline)
@inline
def count_bins(h_count, cut_table, nom_index, s, X, i, c):
    """Counted cut points (``CUTS_COUNTED``): row i (class c) into its bin of each numeric
    feature at statistics slot s: the first of the feature's sorted cut points it does not
    exceed (a binary search; NaN padding counts as above every value), the last bin beyond
    them all.  Missing values are not counted."""
    n_cuts = cut_table.shape[1]
    for j in range(X.shape[1]):
        xj = X[i, j]
        if nom_index[j] >= 0 or math.isnan(xj):
            continue
        lo = 0
        hi = n_cuts
        while lo < hi:
            mid = (lo + hi) // 2
            if cut_table[j, mid] < xj:   # (NaN: False, as if above)
                lo = mid + 1
            else:
                hi = mid
        h_count[s, j, lo, c] += 1.0
    release(h_count.shape[0] + cut_table.shape[0] + nom_index.shape[0] + X.shape[0])
