"""The tour's last section: every learner of the workbench on the same binary numeric streams.

Two protocols, so that the pool-based BOCT can stand beside the streaming learners:

* **prequential**: each instance of the whole stream is predicted, then learned (BOCT has no
  row here: it learns from a pool, not from a stream);
* **first P rows, then test**: every learner (BOCT included, with the P rows as its pool) learns
  the first P rows and predicts the next ``test`` rows without learning them.

The Frugal tree learns only the labels its rule asks for; "labels" counts them.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..viz.fast import fast_mode

#: the learners, in the order the papers come, with the notebook that examines each
NOTEBOOK = {
    "Hoeffding tree (VFDT)": "00, 01, 05",
    "C-Tree": "01",
    "CorrH-Tree": "01",
    "BOCT": "02",
    "UFFT": "03",
    "Frugal tree (alpha = 0.6)": "04",
    "EFDT (HATT)": "05",
}


def make(name: str, d: int):
    """A fresh learner of the tour for a two-class stream with d numeric features."""
    from .. import learners

    if name == "Hoeffding tree (VFDT)":
        return learners.HoeffdingTree(d, 2)
    if name == "C-Tree":
        return learners.CTree(d, 2, c=0.1)
    if name == "CorrH-Tree":
        return learners.CorrHTree(d, 2)
    if name == "BOCT":
        return learners.BOCT(delta=0.05)
    if name == "UFFT":
        return learners.UFFT(d, 2)
    if name == "Frugal tree (alpha = 0.6)":
        return learners.FrugalHoeffdingTree(d, 2, alpha=0.6)
    if name == "EFDT (HATT)":
        return learners.EFDT(d, 2)
    raise ValueError(f"unknown learner {name!r}; choose from {list(NOTEBOOK)}")


def _streams(fast: bool):
    from .. import streams

    n = 20_000 if fast else 200_000
    X_s, y_s = streams.sea(n, seed=1)
    X_e, y_e = streams.electricity()
    return {"SEA": (X_s, y_s), "Electricity": (X_e, y_e)}


def _size(model) -> float:
    """Leaves of the tree (UFFT: of all its pairwise trees; one tree for two classes)."""
    return float(model.n_leaves)


def all_learners(
    fast: bool | None = None, pool: int | None = None, test: int = 10_000, progress: bool = True
) -> pd.DataFrame:
    """One row per (stream, learner): prequential accuracy over the whole stream, accuracy on
    the ``test`` rows after learning the first ``pool`` rows, leaves, seconds and labels."""
    from tqdm.auto import tqdm

    from .. import evaluate

    fast = fast_mode() if fast is None else fast
    pool = pool or (1_000 if fast else 3_000)
    rows = []
    jobs = [(s, name) for s in ("SEA", "Electricity") for name in NOTEBOOK]
    data = _streams(fast)
    X0, y0 = data["SEA"]
    for name in NOTEBOOK:  # untimed: load each learner's compiled kernels before the clock runs
        if name != "BOCT":
            evaluate.prequential(make(name, X0.shape[1]), X0[:500], y0[:500])
    for s, name in tqdm(jobs, desc="learners", disable=not progress):
        X, y = data[s]
        d = X.shape[1]
        row = {"stream": s, "learner": name, "notebook": NOTEBOOK[name]}
        if name != "BOCT":
            model = make(name, d)
            t0 = time.perf_counter()
            res = evaluate.prequential(model, X, y)
            row["prequential accuracy"] = res.accuracy
            row["seconds"] = time.perf_counter() - t0
            row["leaves"] = _size(model)
            row["labels"] = int(getattr(model, "labels_used_", len(y)))
        model = make(name, d)
        if name == "BOCT":
            model.set_pool(X[:pool])
        model.fit(X[:pool], y[:pool])
        held = slice(pool, pool + test)
        row[f"accuracy after the first {pool:,} rows"] = float(
            np.mean(model.predict(X[held]) == y[held])
        )
        if name == "BOCT":
            row["leaves"] = _size(model)
            row["labels"] = pool
        rows.append(row)
    return pd.DataFrame(rows)


def styled(table: pd.DataFrame):
    """:func:`all_learners`'s table for the notebook: three decimals, and BOCT's stream columns
    saying why they are empty (it learns from a pool of labelled rows, not from a stream, so it
    has no prequential accuracy) instead of NaN."""
    formats = {
        c: ("{:,.0f}" if c in ("leaves", "labels") else "{:.3f}")
        for c in table.columns
        if pd.api.types.is_numeric_dtype(table[c])
    }
    return table.style.format(formats, na_rep="(pool learner)").hide(axis="index")


#: what each notebook found, in one line per learner (the notebooks hold the evidence)
WHEN = pd.DataFrame(
    [
        (
            "Hoeffding tree (VFDT)",
            "any stream; the reference the others are measured against",
            "revisit a split; its confidence test is heuristic (notebook 01)",
        ),
        (
            "C-Tree",
            "two classes, when a schedule with a stated confidence matters",
            "many classes; its practical bound needs c tuned (notebook 01)",
        ),
        (
            "CorrH-Tree",
            "two classes, a split criterion that is the error itself",
            "grow as deep as the others at the same confidence (notebook 01)",
        ),
        (
            "BOCT",
            "a small pool where each label is expensive (active learning, BOCT-AL)",
            "streams: it is pool-based, stores every instance, two classes only (notebook 02)",
        ),
        (
            "UFFT",
            "numeric streams with drift; several classes through pairwise trees",
            "nominal features (numeric only, notebook 03)",
        ),
        (
            "Frugal tree (alpha = 0.6)",
            "fewer labels than every instance",
            "keep learning where it is confident: such leaves stop asking (notebook 04)",
        ),
        (
            "EFDT (HATT)",
            "stationary streams, where an early split pays off",
            "react fast to drift: its merit sums remember the past (notebook 05)",
        ),
    ],
    columns=["learner", "use it for", "it cannot"],
)


def pair(a: str, b: str, stream: str = "Electricity", k: int = 500):
    """Two learners of the tour stepped side by side on one stream (not BOCT, which has no
    stream to step through)."""
    from .. import viz

    if "BOCT" in (a, b):
        raise ValueError("BOCT learns from a pool, not a stream: notebook 02 has its stepper")
    X, y = _streams(True)[stream]
    d = X.shape[1]
    return viz.side_by_side(
        viz.TreeStepper(lambda **p: make(a, d).set_params(**p), X, y, title=a, params={}),
        viz.TreeStepper(lambda **p: make(b, d).set_params(**p), X, y, title=b, params={}),
        k=k,
    )
