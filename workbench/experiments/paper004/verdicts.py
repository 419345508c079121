r"""004's claims as a table (:mod:`workbench.claims`): each re-tested over seeds on the paper's
own quantities, with a 95 % interval, a paired test and a rule fixed here, before any run.

**Two pairs of learners.**  004's figures were made by its own code (the repository
chaitanya-m/kdd2018 it cites): ``EFDT(reference="kdd2018")`` and
``HoeffdingTree(reference="kdd2018")`` follow it.  MOA's ``trees.EFDT`` (2019) is a port that
behaves differently (it clamps the null split's merit sum; its Hoeffding tree counts one split
attempt per attempt): the defaults of ``learners.EFDT`` and ``learners.HoeffdingTree``.  The
claims about the paper's figures are decided on the paper's pair (the fair baseline: the code
the numbers came from) and, beside them, on MOA's pair.

One task per (seed, part) through :func:`workbench.claims.run` (local processes, or a Dask
cluster with ``client=``).  Within a seed every learner sees the same streams, so differences
are paired by seed.

==========  =====================================================================================
part        what one seed computes
==========  =====================================================================================
``random``  Figures 1 and 14: MOA's random-tree stream (5 nominal attributes of 5 values, the
            concept drawn from the seed), 2-5 classes, the four learners; the total prequential
            error after ``fig1_n`` instances (Figure 1's E), the error over the last windows of
            1,000 instances at ``fig14_n`` (MOA's windowed evaluator, what 004's scripts plot),
            CPU seconds
``drift``   the two-concept stream of the notebook (y = [x0 > 0.5], then [x1 > 0.5]): error
            over the 20,000 instances after the change and the instance where each learner's
            window error is back below 1 %
``lemma``   Lemma 3.1 on streams with a known law, with the time-averaged gains of its proof,
            under its premise (re-evaluation at every instance) and without it (every 2,000)
==========  =====================================================================================
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ... import claims as C
from .._claims_store import load, store

CLASSES = (2, 3, 4, 5)
#: the four learners: key -> (engine learner, reference, label)
PAIRS = {
    "paper": (("efdt_paper", "EFDT", "kdd2018"), ("vfdt_paper", "VFDT", "kdd2018")),
    "moa": (("efdt_moa", "EFDT", "moa"), ("ht_moa", "VFDT", "moa")),
}
PAIR_NAME = {"paper": "004's code (kdd2018)", "moa": "MOA's port"}
WINDOW = 1000  # MOA's WindowClassificationPerformanceEvaluator, -f 1000 in 004's scripts
LAST_WINDOWS = 10  # Figure 14's claim is read over the last 10 windows of 1,000


@dataclass(frozen=True)
class ClaimSizes:
    n_seeds: int
    fig1_n: int  # Figure 1's E: total prequential error after this many instances
    fig14_n: int  # Figure 14: the run's length (the last windows are read here)
    drift_n2: int  # instances after the change
    lemma_streams: int  # streams per seed (one concept per seed)
    lemma_n: int


QUICK = ClaimSizes(n_seeds=3, fig1_n=50_000, fig14_n=200_000, drift_n2=60_000,
                   lemma_streams=6, lemma_n=60_000)  # fmt: skip
FULL = ClaimSizes(n_seeds=10, fig1_n=1_000_000, fig14_n=3_000_000, drift_n2=150_000,
                  lemma_streams=20, lemma_n=100_000)  # fmt: skip


def claim_sizes(quick: bool) -> ClaimSizes:
    return QUICK if quick else FULL


def describe_claims_mode(quick: bool) -> str:
    s = claim_sizes(quick)
    return (
        f"Claims run, {'QUICK' if quick else 'FULL'} mode: {s.n_seeds} seeds (a seed draws the "
        f"random-tree concept and stream, the drift stream and the lemma's concept). Figure 1's "
        f"E after {s.fig1_n:,} instances (the paper: 1 million), Figure 14's windows at "
        f"{s.fig14_n:,} (the paper: 100 million); drift: 10,000 + {s.drift_n2:,}; Lemma 3.1: "
        f"{s.lemma_streams} streams of {s.lemma_n:,} per seed."
    )


# --------------------------------------------------------------------------- one seed
def seed_part(seed, part, quick=True):
    """One seed of one part (see the module's table); a dict of numbers."""
    s = claim_sizes(quick)
    seed = int(seed)
    if part == "random":
        return _random_seed(seed, s)
    if part == "drift":
        return _drift_seed(seed, s)
    if part == "lemma":
        return _lemma_seed(seed, s)
    raise ValueError(f"unknown part {part!r}")


def make_ref(learner: str, reference: str, n_features: int, n_classes: int, nominal=()):
    """One of the four learners with 004's parameters (:func:`._common.make`)."""
    from ._common import make

    return make(learner, n_features, n_classes, nominal, reference=reference)


def _random_seed(seed, s):
    from ... import evaluate
    from .figures import _rt

    X, y, info = _rt(2000, 1, 2)  # load every learner's kernels before any time is taken
    for pair in PAIRS.values():
        for _key, learner, ref in pair:
            evaluate.prequential(make_ref(learner, ref, X.shape[1], 2, info.nominal_features), X, y)
    out = {}
    for k in CLASSES:
        X, y, info = _rt(s.fig14_n, 100 + seed, k)
        for pair in PAIRS.values():
            for key, learner, ref in pair:
                model = make_ref(learner, ref, X.shape[1], k, info.nominal_features)
                c0 = time.thread_time()
                res = evaluate.prequential(
                    model, X, y, n_points=s.fig14_n // WINDOW, window=WINDOW, keep_predictions=False
                )
                cpu = time.thread_time() - c0
                t = np.asarray(res.t)
                at = int(np.searchsorted(t, s.fig1_n))
                p = f"rt/{k}/{key}"
                out[f"{p}/E"] = float(1 - res.curve[at])
                out[f"{p}/last"] = float(1 - np.mean(res.window_curve[-LAST_WINDOWS:]))
                out[f"{p}/leaves"] = float(model.n_leaves)
                out[f"{p}/cpu_seconds"] = cpu
    return out


def _drift_seed(seed, s):
    from .figures import drift_recovery, drift_run

    curves, switched, n1 = drift_run(n2=s.drift_n2, seed=seed)
    rec = drift_recovery(curves, n1).set_index("learner")
    out = {"drift/root_moved_at": float(switched) if switched else np.nan}
    for learner in ("EFDT", "VFDT"):
        out[f"drift/{learner}/after"] = float(rec.iloc[:, 0][learner])
        back = rec.loc[learner, "back below 1% at"]
        out[f"drift/{learner}/back"] = float(back) if back == back and back is not None else np.nan
    return out


def _lemma_seed(seed, s):
    from .lemmas import lemma_3_1_stream

    rows = []
    for i in range(s.lemma_streams):
        rows += lemma_3_1_stream(5000 + 100 * seed + i, 7 + seed, s.lemma_n)
    df = pd.DataFrame(rows)
    out = {}
    for (stat, period), g in df.groupby(["statistic", "period"]):
        k = f"lemma/{'avg' if stat == 'time-averaged' else 'moa'}/{period}"
        differ = g.ht_root != g.hatt_root
        out[f"{k}/streams"] = float(len(g))
        out[f"{k}/differ"] = float(differ.mean())
        out[f"{k}/leaf"] = float((differ & (g.hatt_root == -1)).sum())
    return out


# --------------------------------------------------------------------------- the claims
def _mean(frame, col):
    v = frame[col].to_numpy(dtype=float) if col in frame else np.array([np.nan])
    return float(np.nanmean(v)) if np.isfinite(v).any() else float("nan")


def _avg_over_classes(fn):
    return lambda r: float(np.mean([fn(r, k) for k in CLASSES]))


def _log_ratio(r, k, vfdt, efdt, floor):
    """log10 of VFDT's error over EFDT's in the last windows; an error-free window counts as
    one error in the windows read (so the ratio is then a floor)."""
    v = max(r[f"rt/{k}/{vfdt}/last"], floor)
    e = max(r[f"rt/{k}/{efdt}/last"], floor)
    return float(np.log10(v / e))


def _both_exact(frame, efdt, vfdt) -> int:
    """How many (seed, class count) runs have both learners error-free in the last windows."""
    return int(
        sum(
            ((frame[f"rt/{k}/{efdt}/last"] == 0) & (frame[f"rt/{k}/{vfdt}/last"] == 0)).sum()
            for k in CLASSES
        )
    )


def spec(quick: bool = True) -> list:
    """004's claims, quantities and rules."""
    floor = 1.0 / (WINDOW * LAST_WINDOWS)
    s = claim_sizes(quick)
    out = []
    for pair, ((e, _, _), (v, _, _)) in PAIRS.items():
        name = PAIR_NAME[pair]

        def fig1_ev(vals, f, e=e, v=v):
            return "E per class count 2-5, EFDT / VFDT: " + "; ".join(
                f"{k}: {_mean(f, f'rt/{k}/{e}/E'):.3f} / {_mean(f, f'rt/{k}/{v}/E'):.3f}"
                for k in CLASSES
            )

        out.append(
            C.Claim(
                f"EFDT learns much more rapidly than VFDT ({name})",
                "Fig. 1",
                f"total prequential error E after {s.fig1_n:,} instances, VFDT minus EFDT, "
                "mean over 2-5 classes",
                _avg_over_classes(lambda r, k, e=e, v=v: r[f"rt/{k}/{v}/E"] - r[f"rt/{k}/{e}/E"]),
                C.Rule.greater(0.0),
                evidence=fig1_ev,
            )
        )
        out.append(
            C.Claim(
                f"EFDT is less affected by the complexity of the task ({name})",
                "Fig. 1",
                "rise of E from 2 to 5 classes, VFDT's minus EFDT's",
                lambda r, e=e, v=v: (
                    (r[f"rt/5/{v}/E"] - r[f"rt/2/{v}/E"]) - (r[f"rt/5/{e}/E"] - r[f"rt/2/{e}/E"])
                ),
                C.Rule.greater(0.0),
            )
        )
        out.append(
            C.Claim(
                f"after many instances EFDT's error is an order of magnitude lower ({name})",
                "Fig. 14",
                f"log10 of VFDT's over EFDT's error in the last {LAST_WINDOWS} windows of "
                f"{WINDOW:,} at {s.fig14_n:,} instances, mean over 2-5 classes",
                _avg_over_classes(lambda r, k, e=e, v=v: _log_ratio(r, k, v, e, floor)),
                C.Rule.greater(1.0, "a ratio of 10"),
                evidence=lambda vals, f, e=e, v=v: (
                    "ratio VFDT/EFDT per class count 2-5: "
                    + ", ".join(
                        f"{10 ** np.mean([_log_ratio(r, k, v, e, floor) for _, r in f.iterrows()]):.1f}x"
                        for k in CLASSES
                    )
                    + f" (geometric mean over seeds; an error-free stretch counts as one error "
                    f"in {WINDOW * LAST_WINDOWS:,}, so a ratio is then a floor; the paper: 100 "
                    f"million instances); {_both_exact(f, e, v)} of {len(f) * len(CLASSES)} runs "
                    "(seeds x class counts) have both learners error-free in those windows"
                ),
            )
        )
        out.append(
            C.Claim(
                f"EFDT rarely needs more than double VFDT's time ({name})",
                "Sec. 4, Fig. 1",
                f"CPU seconds of EFDT over VFDT's on the {s.fig14_n:,}-instance runs, the "
                "largest over 2-5 classes",
                lambda r, e=e, v=v: max(
                    r[f"rt/{k}/{e}/cpu_seconds"] / r[f"rt/{k}/{v}/cpu_seconds"] for k in CLASSES
                ),
                C.Rule.less(2.0, "double"),
                fmt=".3f",
            )
        )
    out += [
        C.Claim(
            "EFDT has some inbuilt tolerance to drift",
            "Sec. 5",
            "mean sliding-window error over the 20,000 instances after the change, EFDT minus "
            "VFDT (MOA's pair)",
            lambda r: r["drift/EFDT/after"] - r["drift/VFDT/after"],
            C.Rule.less(0.0),
            evidence=lambda vals, f: (
                f"EFDT {_mean(f, 'drift/EFDT/after'):.4f}, VFDT {_mean(f, 'drift/VFDT/after'):.4f} "
                f"({100 * (_mean(f, 'drift/EFDT/after') / _mean(f, 'drift/VFDT/after') - 1):+.0f} %)"
                f"; EFDT's root moves to the new attribute at {_mean(f, 'drift/root_moved_at'):,.0f} "
                "on average"
            ),
        ),
        C.Claim(
            "EFDT recovers from the change at least as fast as VFDT",
            "Sec. 5",
            "instance where the window error is back below 1 %, EFDT minus VFDT",
            lambda r: r["drift/EFDT/back"] - r["drift/VFDT/back"],
            C.Rule.less(0.0),
            fmt="+.0f",
            evidence=lambda vals, f: (
                f"back below 1 % at {_mean(f, 'drift/EFDT/back'):,.0f} (EFDT) and "
                f"{_mean(f, 'drift/VFDT/back'):,.0f} (VFDT); the change at 10,000"
            ),
        ),
        C.Claim(
            "Lemma 3.1: at HT's root split, HATT's root tests HT's attribute",
            "Lemma 3.1",
            "share of streams where HATT's root differs from HT's at HT's root split (time-"
            "averaged gains of the proof, both functions at every instance)",
            "lemma/avg/1/differ",
            C.Rule.less(0.01, "the lemma has no exceptions; one stream in a hundred allowed"),
            fmt=".3f",
            evidence=lambda vals, f: (
                f"{int(np.nansum(f['lemma/avg/1/differ'] * f['lemma/avg/1/streams']))} "
                f"counterexamples in {int(np.nansum(f['lemma/avg/1/streams']))} streams "
                f"({_mean(f, 'lemma/avg/1/streams'):.1f} per seed); re-evaluation every "
                f"2,000 (premise broken): share {_mean(f, 'lemma/avg/2000/differ'):.3f}; MOA's "
                f"merit sums at every instance: {_mean(f, 'lemma/moa/1/differ'):.3f}, of which "
                f"{int(np.nansum(f['lemma/moa/1/leaf']))} a root that had not split yet"
            ),
        ),
    ]
    for where, words in (
        ("Figs. 2-10", "EFDT is more accurate than VFDT on most UCI data sets"),
        ("Figs. 11-13", "where VFDT wins, the margin is small"),
    ):
        out.append(
            C.Claim(
                words,
                where,
                "prequential error, VFDT minus EFDT, on 004's data sets",
                lambda r: np.nan,
                C.Rule.greater(0.0),
                testable="004's data sets are not cached on this machine (no download is "
                "tried); Electricity and Adult, which ship here, are not among them "
                "(Section 6 runs them)",
            )
        )
    return out


def parts() -> list:
    return ["random", "drift", "lemma"]


def claims(quick=True, seeds=None, client=None, progress=True) -> pd.DataFrame:
    """004's claims table (one row per claim; columns of :data:`workbench.claims.COLUMNS`).

    ``workbench.claims.attached(table)``: the per-seed frame the verdicts come from
    (:func:`random_tree_table` reads Figures 1 and 14 from it).  ``attrs``: ``seeds``,
    ``quick``, ``seconds``, ``cpu_seconds``."""
    return C.run(
        spec(quick),
        "workbench.experiments.paper004.verdicts:seed_part",
        [{"part": p, "quick": bool(quick)} for p in parts()],
        quick=quick,
        seeds=seeds,
        client=client,
        progress=progress,
        n_quick=QUICK.n_seeds,
        n_full=FULL.n_seeds,
    )


def random_tree_table(per_seed: pd.DataFrame) -> pd.DataFrame:
    """Figures 1 and 14 over seeds, per pair and number of classes: E of EFDT and VFDT, the
    error over the last windows, the last-window ratio VFDT/EFDT and the CPU ratio (means over
    seeds; the ratio is that of the means, floored at one error in the windows read)."""
    floor = 1.0 / (WINDOW * LAST_WINDOWS)
    rows = []
    for pair, ((e, _, _), (v, _, _)) in PAIRS.items():
        for k in CLASSES:
            m = {x: _mean(per_seed, f"rt/{k}/{x}/E") for x in (e, v)}
            last = {x: _mean(per_seed, f"rt/{k}/{x}/last") for x in (e, v)}
            cpu = {x: _mean(per_seed, f"rt/{k}/{x}/cpu_seconds") for x in (e, v)}
            rows.append(
                {
                    "pair": PAIR_NAME[pair],
                    "classes": k,
                    "E EFDT": m[e],
                    "E VFDT": m[v],
                    "last windows EFDT": last[e],
                    "last windows VFDT": last[v],
                    "ratio VFDT/EFDT (last)": max(last[v], floor) / max(last[e], floor),
                    "CPU ratio EFDT/VFDT": cpu[e] / cpu[v],
                    "leaves EFDT": _mean(per_seed, f"rt/{k}/{e}/leaves"),
                    "leaves VFDT": _mean(per_seed, f"rt/{k}/{v}/leaves"),
                }
            )
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- stored runs
RESULTS = Path(__file__).resolve().parent / "results"
SOURCES = (
    "workbench/experiments/paper004",
    "workbench/core",
    "workbench/learners/base.py",
    "workbench/learners/efdt.py",
    "workbench/learners/hoeffding.py",
    "workbench/streams",
    "workbench/evaluate",
    "workbench/claims.py",
    "workbench/experiments/_claims_store.py",
)
STORE_QUICK = (
    'python -c "from workbench.experiments import paper004 as P; '
    'P.store_claims(P.claims(quick=True))"'
)


def store_claims(table: pd.DataFrame, command: str | None = None) -> pd.DataFrame:
    """Write a claims run's per-seed results (``results/claims_quick.csv`` or
    ``claims_full.csv``) with their provenance and what the run cost.
    ``tests/test_stored_results.py`` compares a fresh quick run with the quick file: make it
    again with :data:`STORE_QUICK`."""
    return store(
        table,
        RESULTS,
        quick_command=STORE_QUICK,
        full_command=(
            'python -c "from workbench.experiments import paper004 as P; '
            'P.store_claims(P.claims(quick=False))"'
        ),
        sources=SOURCES,
        command=command,
    )


def stored_claims(quick: bool = False) -> pd.DataFrame | None:
    """The stored run's claims table, or None; ``attrs["note"]`` says where it comes from and
    whether it is stale."""
    return load(spec(quick), RESULTS, quick)


__all__ = [
    "QUICK",
    "FULL",
    "ClaimSizes",
    "claim_sizes",
    "describe_claims_mode",
    "seed_part",
    "make_ref",
    "spec",
    "claims",
    "random_tree_table",
    "store_claims",
    "stored_claims",
]
