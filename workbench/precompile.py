"""Compile the workbench's numba kernels into numba's cache, before anyone waits for them.

    python -m workbench.precompile

numba compiles a kernel the first time it is called and keeps the machine code in its cache
(``__pycache__`` next to the source), so only the first use in a new environment pays.  Without
this step that first use is a notebook cell that sits for half a minute or more in front of a
class.  ``python3 dev.py lab`` and ``python3 dev.py test`` run it after installing; it takes
2.5 to 4 minutes on a 2-core machine the first time (149 s and 251 s of wall time on
2026-12-07, the second with 357 s of CPU, ``benchmarks/README.md``: four groups of kernels, the
tree engine, the Monte Carlo, BOCT's and UFFT's, compile in four processes side by side) and a
few seconds once the cache is warm.

Each group runs the public calls that a user makes, on a few hundred rows, so every signature a
notebook needs is compiled, not a guess at the internal functions.

The groups compile under a fixed hash seed (``HASH_SEED``).  numba's machine code depends on the
``PYTHONHASHSEED`` of the process that compiles it: on 2026-11-28 the tree kernel compiled twice
under one seed had the same bytes, under another seed other bytes, and the Hoeffding tree on SEA
ran 17.8-18.6 ms and the Frugal tree's ratio to it 1.03-1.06 over three seeds.  With the seed
fixed, a precompile of the same sources gives the same kernels, so two runs of a benchmark time
the same machine code.  (A kernel compiled lazily, at its first call in a process without the
cache, is one draw among those layouts.)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np


def trees() -> None:
    """The tree engine: learning, prediction, explanation, ACTIVE runs with drift detection."""
    from . import active, evaluate, learners, streams

    X, y = streams.sea(600, seed=1)
    model = learners.HoeffdingTree(3, 2, grace_period=50)
    evaluate.prequential(model, X, y)
    model.predict(X[:10])
    model.predict_proba(X[:10])
    model.learn_one(X[0], int(y[0]))
    model.predict_proba_one(X[0])
    model.explain_one(X[0])
    model.to_dot()
    Xn, yn, info = streams.random_tree(600, seed=1, return_info=True)
    evaluate.prequential(
        learners.HoeffdingTree(
            Xn.shape[1], 2, grace_period=50, nominal_features=info.nominal_features
        ),
        Xn,
        yn,
    )
    # EFDT: the path-update variant of the loop, re-evaluation, its explanation
    efdt = learners.EFDT(3, 2, grace_period=50, min_samples_reevaluate=100)
    evaluate.prequential(efdt, X, y)
    efdt.explain_one(X[0])
    evaluate.prequential(
        learners.EFDT(Xn.shape[1], 2, grace_period=50, nominal_features=info.nominal_features),
        Xn,
        yn,
    )
    # every feature nominal (004's RandomTree family): naive Bayes may decide from products
    # of counts (workbench.core.naive_bayes.nb_nominal_argmax; the same kernels, their other path)
    Xa, ya, nominal = streams.random_tree(
        600, seed=1, n_classes=5, n_nominal=5, n_numeric=0, return_info=True
    )
    for cls in (learners.HoeffdingTree, learners.EFDT):
        model = cls(5, 5, grace_period=50, nominal_features=nominal.nominal_features)
        evaluate.prequential(model, Xa, ya)
    Xc, yc, cbt = streams.rand_cbt(600, seed=1, n_leaves=8, d=3, return_info=True)
    evaluate.prequential(learners.CTree(3, 2, grace_period=50), Xc, yc)
    evaluate.prequential(learners.CorrHTree(3, 2, grace_period=50), Xc, yc)
    # notebook 07: counted cut points, the bounds valid under repeated looks, the split audit
    from . import montecarlo as mc

    grid = np.linspace(0.0, 1.0, 17)[1:-1]
    for model in (
        learners.HoeffdingTree(3, 2, grace_period=50, cut_points=grid),
        learners.CTree(3, grace_period=50, bound="cs_gini", delta=0.5, cut_points=grid),
    ):
        evaluate.prequential(model, Xc, yc)
        mc.audit_tree(model, cbt)
    # a grace schedule: the loop's variants with per-leaf waits (weight and instance clocks),
    # which every user schedule shares (the tree calls a schedule through its address)
    from .schedules import fixed_grace

    learners.HoeffdingTree(3, 2, grace_period=50, grace_schedule=fixed_grace).fit(X, y)
    evaluate.prequential(learners.EFDT(3, 2, grace_period=50, grace_schedule=fixed_grace), X, y)
    for cls in active.STRATEGIES.values():
        strategy = cls(budget=0.3)
        evaluate.prequential(
            learners.HoeffdingTree(3, 2, grace_period=50),
            X,
            y,
            strategy=strategy,
            drift_detection=True,
        )
        strategy.reset()
        evaluate.prequential(  # the stepper's way: one slice, continuing the strategy's counts
            learners.HoeffdingTree(3, 2, grace_period=50),
            X[:50],
            y[:50],
            strategy=strategy,
            n_points=1,
            _counters=strategy.counters,
        )
    # 003: the Frugal tree (its rule inside the ACTIVE loop) and the mini-batch protocol
    frugal = learners.FrugalHoeffdingTree(3, 2, alpha=0.5, n_initial=50, grace_period=50)
    evaluate.prequential(frugal, X, y)
    frugal.partial_fit(X[:100], y[:100])
    evaluate.minibatch(learners.FrugalHoeffdingTree(3, 2, grace_period=50), X, y, batch_size=100)
    evaluate.minibatch(
        learners.HoeffdingTree(3, 2, grace_period=50),
        X,
        y,
        batch_size=100,
        strategy=active.Random(budget=0.3),
    )


def montecarlo() -> None:
    """The Monte Carlo simulators behind the bound checks."""
    from . import montecarlo as mc

    law = mc.joint_law(0.5, 0.1, 0.8)
    mc.simulate_estimators(law, m=50, trials=200, seed=0)
    mc.simulate_estimators(law, m=50, trials=200, seed=0, method="counts")
    mc.simulate_means(0.3, m=50, trials=200, seed=0)
    mc.simulate_means(0.3, m=50, trials=200, seed=0, method="counts")
    mc.credible_coverage(20, 0.05, trials=200, seed=0)
    mc.credible_coverage(20, 0.05, mu=0.3, trials=200, seed=0)
    mc.risk_coverage(20, 0.05, trials=200, seed=0)
    mc.boct_null_split(0.3, 20, 20, 0.05, trials=200, seed=0)
    mc.leaf_consistency_failure(0.3, 50, 0.05, trials=200, seed=0)
    mc.split_selection(0.5, [[0.3, 0.7], [0.4, 0.6]], 0.05, m_max=200, n_min=50, trials=50, seed=0)
    mc.ddm_false_alarms(0.2, 200, trials=50, seed=0)
    mc.ddm_run(np.zeros(50))
    mc.check_bound("hoeffding", "mean", n=[20], trials=50, seed=0)
    for rule, criterion, bound in (
        ("vfdt", "entropy", "hoeffding_looks"),
        ("vfdt_2eps", "gini", "cs_gini"),
    ):
        mc.split_selection(
            0.5, [[0.3, 0.7]] * 2, 0.05, rule=rule, criterion=criterion, bound=bound, m_max=200,
            n_min=50, trials=50, seed=0,
        )  # fmt: skip
    mc.repeated_coverage("stitched", "mean", 0.5, n_max=200, every=50, trials=50)
    mc.repeated_coverage(
        "cs_gini", "gini", [[0.3, 0.2], [0.2, 0.3]], n_max=200, every=50, trials=50
    )


def boct() -> None:
    """Paper 001's instance-storing trees: BOCT, its pool and toy protocols."""
    from . import evaluate, learners, streams

    X, y = streams.toy64().sample(80, seed=0)
    model = learners.BOCT(delta=0.2).set_pool(X).fit(X[:40], y[:40])
    model.predict(X)
    model.predict_proba(X)
    learners.BOCT(delta=0.2).fit(X[:40], y[:40])
    for name in ("BOCT", "BOCT-AL", "Hoeffding"):
        evaluate.pool_runs(X, y, name, n_runs=1)
        evaluate.toy_runs(name, n_runs=1, n_labels=5)
    evaluate.toy_runs("mbinomial", n_runs=1, n_labels=5)


def forest() -> None:
    """UFFT's forest kernel (paper 002): learning, test-then-train, prediction, explanation."""
    from . import evaluate, learners, streams
    from .core.forest import node_ddm_run

    X, y = streams.waveform(600, seed=1)
    model = learners.UFFT(n_classes=3, grace_period=50)
    evaluate.prequential(model, X, y)
    model.partial_fit(X[:100], y[:100])
    model.predict(X[:10])
    model.predict_proba(X[:10])
    model.explain_one(X[0])
    model.to_dot(0)
    model.apply(X[:2])
    node_ddm_run(np.zeros(50), 30, 2.0, 3.0)


GROUPS = {"trees": trees, "montecarlo": montecarlo, "boct": boct, "forest": forest}
#: the hash seed every group compiles under (see the module docstring)
HASH_SEED = "0"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--group"]:
        GROUPS[argv[1]]()
        return 0
    print(
        "numba: compiling the workbench's kernels into its cache (once per environment: about "
        "3 minutes the first time on 2 cores, seconds afterwards)",
        flush=True,
    )
    t0 = time.perf_counter()
    # the groups side by side (numba compiles on one core, and they share no kernel), each in a
    # process of its own under the fixed hash seed
    env = dict(os.environ, PYTHONHASHSEED=HASH_SEED)
    groups = [
        subprocess.Popen([sys.executable, "-m", "workbench.precompile", "--group", name], env=env)
        for name in GROUPS
    ]
    rc = max(p.wait() for p in groups)
    print(f"numba: kernels ready in {time.perf_counter() - t0:.1f} s", flush=True)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
