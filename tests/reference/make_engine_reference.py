"""Record the engine's reference outputs (predictions, tree sizes) that test_engine_regression.py
compares against.

    python tests/reference/make_engine_reference.py          # writes engine_outputs.npz

Run it only on purpose: after a change that is *meant* to move results, say in the commit which
outputs moved and why.  It was first run at git c8ea069, before the engine was reshaped into
named steps and policies (issue 10), so that the reshaped engine could prove it changed nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench import active, evaluate, learners, streams

HERE = Path(__file__).resolve().parent
OUT = HERE / "engine_outputs.npz"


def benchmark_streams():
    """The four streams of benchmarks/bench_hoeffding.py, at its sizes and seeds."""
    X, y, info = streams.sea(200_000, seed=1, return_info=True)
    yield "sea", X, y, info
    X, y, info = streams.random_tree(200_000, seed=1, return_info=True)
    yield "random_tree", X, y, info
    X, y, info = streams.waveform(100_000, seed=1, n_features=21, return_info=True)
    yield "waveform", X, y, info
    X, y, info = streams.electricity(return_info=True)
    yield "electricity", X, y, info


def full_cases():
    """(name, model factory, X, y) of every FULL-setting case."""
    for sname, X, y, info in benchmark_streams():
        kw = dict(nominal_features=info.nominal_features)
        d, k = X.shape[1], int(info.n_classes)
        yield f"{sname}/ht", lambda d=d, k=k, kw=kw: learners.HoeffdingTree(d, k, **kw), X, y
        yield (
            f"{sname}/ht_gini_mc",
            lambda d=d, k=k, kw=kw: learners.HoeffdingTree(
                d, k, criterion="gini", leaf_prediction="mc", binary_nominal=True, **kw
            ),
            X,
            y,
        )
        if k == 2:  # C-Tree and CorrH-Tree are two-class learners (paper 000)
            yield (f"{sname}/ctree", lambda d=d, kw=kw: learners.CTree(d, c=0.5, **kw), X, y)
            yield (
                f"{sname}/ctree_eq7",
                lambda d=d, kw=kw: learners.CTree(d, bound="ctree", criterion="entropy", **kw),
                X,
                y,
            )
            yield (f"{sname}/corrh", lambda d=d, kw=kw: learners.CorrHTree(d, **kw), X, y)


def active_cases():
    """Every label-query strategy on Electricity, with DDM resets, at budget 0.3."""
    X, y = streams.electricity()
    for name, cls in active.STRATEGIES.items():
        yield (
            f"electricity/active/{name}",
            lambda: learners.HoeffdingTree(6, 2),
            lambda cls=cls: cls(budget=0.3, seed=3),
            X,
            y,
        )


def run_all() -> dict:
    out = {}
    for name, make, X, y in full_cases():
        model = make()
        res = evaluate.prequential(model, X, y)
        out[name + "/pred"] = res.predictions.astype(np.int8)
        out[name + "/leaves"] = np.asarray(res.n_leaves, np.int64)
        out[name + "/proba"] = model.predict_proba(X[::97])
    for name, make, strat, X, y in active_cases():
        s = strat()
        res = evaluate.prequential(make(), X, y, strategy=s, drift_detection=True)
        out[name + "/pred"] = res.predictions.astype(np.int8)
        out[name + "/queried"] = res.queried.astype(np.int8)
        out[name + "/counters"] = np.array(
            [res.labels_used, res.n_drifts, res.n_warnings], np.int64
        )
    return out


if __name__ == "__main__":
    ref = run_all()
    np.savez_compressed(OUT, **ref)
    print(f"wrote {len(ref)} arrays to {OUT} ({OUT.stat().st_size / 1e6:.2f} MB)")
