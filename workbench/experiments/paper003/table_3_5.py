"""Experiment 1 of 003 (Tables 3-5): random forest, CART and the Hoeffding tree trained in batch
on the first part of a data set and tested on the rest, averaged over seeds.

The thesis trains on 35K / 400K / 4M rows and tests on 10K / 95K / 898K (Adult, Covertype,
KDD Cup 1999) and reports the "average result of seven trees".  Here each seed permutes the rows
(and seeds the forest and CART), the first ``train`` rows train, the next ``test`` rows test.
Precision and recall are those of class 1 for two classes (Adult: ``>50K``) and
support-weighted averages over the classes otherwise (the thesis does not say which it used
for its multi-class sets).  Nominal features enter scikit-learn's trees as their integer codes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from ._common import THESIS, available, load, scaled_split, sizes

#: Tables 3-5 as printed: (precision, recall, error) in percent
PRINTED = {
    "adult": {
        "RandomForest": (74.3, 63.0, 14.6),
        "CART": (61.6, 63.0, 18.9),
        "HoeffdingTree": (71.1, 53.0, 16.9),
    },
    "covertype": {
        "RandomForest": (96.2, 97.9, 3.4),
        "CART": (95.9, 96.0, 4.6),
        "HoeffdingTree": (84.7, 87.7, 16.1),
    },
    "kdd99": {
        "RandomForest": (99.924, 99.909, 0.1329),
        "CART": (99.921, 99.908, 0.1363),
        "HoeffdingTree": (99.898, 99.877, 0.1796),
    },
}
MODELS = ("RandomForest", "CART", "HoeffdingTree")


def _scores(y_true, y_pred, n_classes):
    from sklearn.metrics import precision_score, recall_score

    avg = "binary" if n_classes == 2 else "weighted"
    kw = dict(average=avg, zero_division=np.nan)
    if avg == "binary":
        kw["pos_label"] = 1
    return (
        precision_score(y_true, y_pred, **kw),
        recall_score(y_true, y_pred, **kw),
        float(np.mean(y_true != y_pred)),
    )


def _models(seed, info, n_classes, forest_trees):
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.tree import DecisionTreeClassifier

    from ...learners import HoeffdingTree

    return {
        "RandomForest": RandomForestClassifier(
            n_estimators=forest_trees, random_state=seed, n_jobs=1
        ),  # fmt: skip
        "CART": DecisionTreeClassifier(random_state=seed),
        "HoeffdingTree": HoeffdingTree(
            n_classes=n_classes,
            criterion="info_gain",
            leaf_prediction="laplace",
            nominal_features=info.nominal_features,
        ),
    }


def experiment_1(name: str = "adult", *, fast: bool | None = None) -> pd.DataFrame:
    """One row per (model, seed): precision, recall, error on the test rows, and the sizes."""
    s = sizes(fast)
    rows = []
    for seed in tqdm(range(s.table_seeds), desc=f"Experiment 1, {name}", leave=False):
        rows.extend(one_seed(name, seed, s.table_rows, s.forest_trees))
    return pd.DataFrame(rows)


def one_seed(name: str, seed: int, table_rows: int | None, forest_trees: int) -> list[dict]:
    """Experiment 1 at one seed: the rows permuted by the seed, the first ``train`` train, the
    next ``test`` test; one dict per model (precision, recall, error, sizes, source)."""
    X0, y0, info, note = load(name)
    n = len(y0) if table_rows is None else min(len(y0), table_rows)
    train, test = scaled_split(name, n)
    k = int(y0.max()) + 1
    perm = np.random.default_rng(seed).permutation(len(y0))[: train + test]
    X, y = X0[perm], y0[perm]
    rows = []
    for model_name, model in _models(seed, info, k, forest_trees).items():
        model.fit(X[:train], y[:train])
        pred = np.asarray(model.predict(X[train:]))
        p, r, e = _scores(y[train:], pred, k)
        rows.append(dict(data=name, model=model_name, seed=seed, precision=p, recall=r,
                         error=e, train=train, test=test, source=note))  # fmt: skip
    return rows


def summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Tables 3-5 recomputed (mean and standard deviation over seeds, in percent) next to the
    printed values."""
    out = []
    for (name, model), g in runs.groupby(["data", "model"], sort=False):
        pp, pr, pe = PRINTED[name][model]
        out.append(
            {
                "data": name,
                "model": model,
                "precision %": 100 * g.precision.mean(),
                "± sd": 100 * g.precision.std(ddof=1) if len(g) > 1 else np.nan,
                "printed precision %": pp,
                "recall %": 100 * g.recall.mean(),
                "printed recall %": pr,
                "error %": 100 * g.error.mean(),
                "± sd ": 100 * g.error.std(ddof=1) if len(g) > 1 else np.nan,
                "printed error %": pe,
                "seeds": len(g),
                "train/test": f"{g.train.iloc[0]:,} / {g.test.iloc[0]:,}",
            }
        )
    return pd.DataFrame(out).set_index(["data", "model"])


def availability() -> pd.DataFrame:
    """Which of the thesis's data sets are here, and the sizes the thesis used."""
    rows = []
    for name, t in THESIS.items():
        here = available(name)
        rows.append(
            {
                "data": name,
                "cached here": here,
                "thesis train / test": f"{t['train']:,} / {t['test']:,}",
                "thesis mini-batches": f"{t['batches']} x {t['batch_size']:,} = "
                f"{t['batches'] * t['batch_size']:,}",
                "rows of the data set": f"{t['rows']:,}",
                "batches fit?": t["batches"] * t["batch_size"] <= t["rows"],
            }
        )
    return pd.DataFrame(rows).set_index("data")
