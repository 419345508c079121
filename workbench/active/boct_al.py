r"""BOCT-AL's query rule (paper 001, Fig. 4, eq. 7) for a BOCT model with a pool.

The tree partitions the pool into its leaves.  Each leaf gets the credible upper bound of its
risk, eq. (7): :math:`W_k` times the posterior :math:`(1-\delta_2)`-quantile of :math:`\mu` (the
leaf predicts 0) or of :math:`1-\mu` (it predicts 1), :math:`W_k` the number of pool rows in the
leaf.  The query goes to a random unlabelled pool row of the leaf with the largest bound
(Optimism in the Face of Uncertainty).  The batch experiments run the same rule inside the numba
kernel of :mod:`workbench.evaluate.pool`; this class is the one-query-at-a-time version for
notebooks and for learners driven from Python.
"""

from __future__ import annotations

import numpy as np

from ..bounds.credible import risk_upper


class BOCTAL:
    """001's active selection: ``BOCTAL(delta2).select(model, labelled, rng)``.

    ``model``: a fitted :class:`workbench.learners.BOCT` with a pool (``set_pool``);
    ``labelled``: boolean mask over the pool rows already labelled."""

    def __init__(self, delta2=0.05):
        if isinstance(delta2, bool) or not isinstance(delta2, (int, float)) or not 0 < delta2 < 1:
            raise ValueError(f"delta2 must be a number in (0, 1); got {delta2!r}")
        self.delta2 = float(delta2)

    def leaf_bounds(self, model, labelled=None):
        """A DataFrame, one row per leaf holding pool rows: counts, W, unlabelled rows, eq. (7)
        bound."""
        pool = model.pool
        if pool is None:
            raise ValueError("BOCT-AL needs the model's pool: call model.set_pool(X_pool) first")
        labelled = np.zeros(len(pool), bool) if labelled is None else np.asarray(labelled, bool)
        if labelled.shape != (len(pool),):
            raise ValueError(f"labelled must be a mask of the {len(pool)} pool rows")
        if model._is_set_up():
            leaves = model.apply(pool)
            T = model.tree
        else:
            leaves = np.zeros(len(pool), np.int64)
            T = None
        rows = []
        for leaf in np.unique(leaves):
            in_leaf = leaves == leaf
            n_pos = float(T.class_counts[leaf, 1]) if T is not None else 0.0
            n_neg = float(T.class_counts[leaf, 0]) if T is not None else 0.0
            w = float(in_leaf.sum())
            rows.append(
                dict(
                    leaf=int(leaf),
                    n_pos=n_pos,
                    n_neg=n_neg,
                    W=w,
                    unlabelled=int((in_leaf & ~labelled).sum()),
                    bound=float(risk_upper(n_pos, n_neg, self.delta2, w)),
                )
            )
        import pandas as pd  # only here: the kernels' import path stays free of pandas

        return pd.DataFrame(rows)

    def select(self, model, labelled, rng=None) -> int:
        """Index of the pool row to label next (ties between leaves broken at random)."""
        rng = np.random.default_rng(rng)
        table = self.leaf_bounds(model, labelled)
        table = table[table.unlabelled > 0]
        if table.empty:
            raise ValueError("every pool row is labelled")
        top = table[table.bound == table.bound.max()]
        leaf = int(top.leaf.iloc[rng.integers(len(top))])
        leaves = model.apply(model.pool) if model._is_set_up() else np.zeros(len(model.pool))
        candidates = np.flatnonzero((leaves == leaf) & ~np.asarray(labelled, bool))
        return int(candidates[rng.integers(len(candidates))])
