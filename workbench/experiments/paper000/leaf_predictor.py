"""Paper 000 does not say which leaf predictor its experiments used: Sec. III analyses trees whose
leaves predict their majority class, while MOA (whose VFDT the paper compares with) predicts with
adaptive naive Bayes by default, which is also the workbench's default and what Figures 3 and 4
run.  :func:`leaf_predictor_table` runs each learner both ways on one stream of each figure."""

from __future__ import annotations

from ._common import LABEL, sizes

#: one setting per learner and stream, from the middle of the grids of Figures 3 and 4 (C-Tree's
#: c of the order the figures' useful trees need; the Hoeffding trees at VFDT's usual delta)
SETTINGS = {
    "RandCBT (shuffled)": {"CTree": {"c": 0.02}, "HoeffdingTree": {"delta": 1e-7},
                           "CorrHTree": {"delta": 1e-7}},
    "Electricity (permuted)": {"CTree": {"c": 0.01}, "HoeffdingTree": {"delta": 1e-7},
                               "CorrHTree": {"delta": 1e-7}},
}  # fmt: skip
PREDICTORS = {"mc": "majority class (Sec. III)", "nba": "adaptive naive Bayes (MOA's default)"}


def _streams(n_examples: int):
    from ... import streams
    from .table_1 import permuted

    X, y, info = streams.rand_cbt(n=n_examples, n_leaves=50, d=5, q=0.7, seed=0, return_info=True)
    yield "RandCBT (shuffled)", X, y, info
    X, y, info = permuted("electricity", seed=0, return_info=True)
    yield "Electricity (permuted)", X, y, info


def leaf_predictor_table(fast: bool | None = None, progress: bool = True):
    """Online accuracy of C-Tree, H-Tree and CorrH-Tree with majority-class and adaptive naive
    Bayes leaves, on a RandCBT stream (Figure 3's generator, the mode's stream length) and on
    Electricity (one permutation, Figure 4).  The predictor does not change the tree (splits
    never look at predictions), so each pair has the same leaves; the table says so.

    Rows: ``stream``, ``learner``, ``setting``, ``leaves``, one accuracy column per predictor and
    ``nba - mc``.
    """
    import pandas as pd
    from tqdm.auto import tqdm

    from ... import evaluate, learners

    n_examples = sizes(fast).fig3_examples
    rows = []
    bar = tqdm(total=2 * 3 * len(PREDICTORS), desc="leaf predictors", disable=not progress)
    for name, X, y, info in _streams(n_examples):
        for learner, params in SETTINGS[name].items():
            row = {"stream": name, "learner": LABEL[learner]}
            row["setting"] = ", ".join(f"{k} = {v:g}" for k, v in params.items())
            leaves = set()
            for pred in PREDICTORS:
                model = getattr(learners, learner)(
                    n_features=info.n_features,
                    n_classes=info.n_classes,
                    nominal_features=dict(info.nominal_features),
                    leaf_prediction=pred,
                    **params,
                )
                res = evaluate.prequential(model, X, y, keep_predictions=False)
                row[pred] = res.accuracy
                leaves.add(model.n_leaves)
                bar.update()
            if len(leaves) != 1:
                raise RuntimeError(f"{learner} grew different trees with different predictors")
            row["leaves"] = leaves.pop()
            row["nba - mc"] = row["nba"] - row["mc"]
            rows.append(row)
    bar.close()
    df = pd.DataFrame(rows)
    return df[["stream", "learner", "setting", "leaves", "mc", "nba", "nba - mc"]]
