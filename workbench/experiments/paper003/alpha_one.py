"""The thesis: "if alpha = 1 Frugal Hoeffding tree would become the original Hoeffding tree".
With Laplace leaves the margin (n_(1) - n_(2)) / (n + K) is below 1, so alpha = 1 asks for every
label, and without an initial set the Frugal tree must predict exactly as
``HoeffdingTree(leaf_prediction="laplace")``; this checks it row by row and times both."""

from __future__ import annotations

import numpy as np
import pandas as pd


def alpha_one_check(rows: int = 45_312) -> pd.DataFrame:
    """Per stream (SEA, Electricity, shipped Adult): whether the prequential predictions of
    ``HoeffdingTree(laplace)`` and ``FrugalHoeffdingTree(alpha=1, n_initial=0)`` are identical,
    the labels each used, and their loop times (one run each, after a warm-up; the benchmark
    ``benchmarks/bench_frugal.py`` measures the throughput ratio properly)."""
    from ... import evaluate, streams
    from ...learners import FrugalHoeffdingTree, HoeffdingTree

    data = {"sea": streams.sea(rows, seed=1) + ({},)}
    X, y, info = streams.electricity(return_info=True)
    data["electricity"] = (X[:rows], y[:rows], info.nominal_features)
    X, y, info = streams.adult(return_info=True)
    data["adult"] = (X[:rows], y[:rows], info.nominal_features)
    out = []
    for name, (X, y, nominal) in data.items():
        kw = dict(n_features=X.shape[1], n_classes=2, nominal_features=nominal)
        ht = HoeffdingTree(leaf_prediction="laplace", **kw)
        fr = FrugalHoeffdingTree(alpha=1.0, n_initial=0, **kw)
        evaluate.prequential(ht.clone(), X[:500], y[:500])  # warm-up (compiled kernels)
        evaluate.prequential(fr.clone(), X[:500], y[:500])
        a = evaluate.prequential(ht, X, y)
        b = evaluate.prequential(fr, X, y)
        out.append({"stream": name, "rows": len(y),
                    "identical predictions": bool(np.array_equal(a.predictions, b.predictions)),
                    "labels HT": a.labels_used, "labels Frugal": b.labels_used,
                    "leaves HT": ht.n_leaves, "leaves Frugal": fr.n_leaves,
                    "ms HT": 1e3 * a.seconds, "ms Frugal": 1e3 * b.seconds})  # fmt: skip
    return pd.DataFrame(out).set_index("stream")
