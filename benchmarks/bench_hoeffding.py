"""Hoeffding tree, side by side: the workbench, River 0.26 and MOA (through CapyMOA 0.15).

All three learn the identical arrays, test-then-train over every instance, with the same
parameters: grace period 200, delta 1e-7, tau 0.05, information gain, adaptive naive Bayes leaves,
Gaussian numeric observer with 10 split points, multiway nominal splits.  One process, and
ours's runs in processes of their own (below); the table gives prequential accuracy, instances
per second and the ratios, and checks the targets:

* accuracy within 0.3 percentage points of MOA on every stream, within 0.1 where the trees are
  the same size at every 10,000-row checkpoint (issue 24);
* throughput at least 5x MOA's learner alone (by CPU time: the median over interleaved pairs
  of MOA's run minus a MajorityClass run over the same instances, against the median of ours)
  and at least 200x River on every stream (numba compile excluded and reported on its own line;
  issue 28).  A run whose MOA learner alone takes more than twice, or less than half, the
  median time per row of its stream's seeds (three or more) is shown but not judged: MOA's
  runs were then in another state for the whole stream (``moa_unsteady``);
* first use compiles in at most 30 s, later starts are ready in at most 2 s (``bench_startup.py``);
* 10 million SEA instances grow resident memory by less than 50 MB once the tree has stopped
  growing (``bench_memory.py``).
The last two are read from those scripts' latest result files and shown with their dates.

How each learner is timed (wall clock, ``time.perf_counter``, and CPU time of the timed thread,
``time.thread_time``):

* ours: ``evaluate.prequential(model, X, y)`` on a fresh model, after one call on the first
  2,000 rows of the same stream with another fresh model (that first call compiles, or loads
  numba's cache, and is reported on its own line) and one untimed full pass with a third (as
  MOA's runs follow untimed full passes: a process's first full pass loads kernels the short
  call did not reach, 1.9 ms on SEA); ``--repeat`` runs (default 5), their median
  and their best.  Each run in a process of its own: ``--ours-processes`` (default 5) fresh
  processes, spawned once, each with the stream and its own warm-up, each run in the next of them
  in turn (``_common.OursProcesses``).  A process of the benchmark machine sometimes runs a kernel
  20-50% slower for its whole life; in one process that moved all of ours's runs (2026-11-28,
  18:31 UTC), spread over five it moves one of them, not the median.  ``--ours-processes 0``
  times ours in the benchmark's own process, as before 2026-11-28.
* River: ``predict_one`` then ``learn_one`` in a plain Python loop over ``dict`` rows built
  beforehand (building them is not timed); ``--river-repeat`` runs (default 1, it is slow).
* MOA: see ``_common.py``.  The stream is read into Java memory from an ARFF file and
  ``EfficientEvaluationLoops.PrequentialEvaluation`` runs the loop inside Java, timed around that
  one call.  Untimed full passes with fresh learners first warm the JIT until about a million
  instances have gone through (``--moa-warmup-instances``; the analogue of excluding numba's
  compile time), then ``--repeat`` runs with a fresh learner each.  MOA's
  ``functions.MajorityClass`` runs the same loop over the same instances, warmed alongside
  (its passes alternate with the tree's) and timed next to each MOA run: MOA's run minus it,
  pair by pair, is MOA's learner alone, and the median over the pairs is the target's figure.
  MOA's own command line on the same file is compared with ours instance by instance: the rows
  whose predicted class differs, and both trees' leaves after every 10,000 rows.
* Seeds: every generated stream runs with each of ``--seeds`` (default 1, 2, 3); River only on
  the first ``--river-seeds`` of them (default 1: it is slow).  RandomTree with 5 nominal
  attributes of 5 values and 2 to 5 classes, Hyperplane and Agrawal (from MOA's own generators,
  Agrawal's three nominal attributes declared) are there for issue 24's parity checks.
* ours, MOA and MajorityClass are timed in turn, run for run, the order reversed every other
  round (ours, MOA, MajorityClass, MajorityClass, MOA, ours, ...): on a shared machine whose
  speed drifts by tens of percent within minutes, all figures then come from the same stretch of
  time, and each MOA run and its MajorityClass run are back to back.  The target uses medians
  by CPU time of the timed thread (ours: the median of its runs); the tables also give each
  learner's best run (wall clock and CPU time) as additional information.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_hoeffding.py            # full run, writes results/hoeffding.*
    .venv/bin/python benchmarks/bench_hoeffding.py --quick    # small streams, a smoke test
    .venv/bin/python benchmarks/bench_hoeffding.py --only river,moa --streams sea,electricity
"""

from __future__ import annotations

import argparse
import gc
import inspect
import statistics
import sys
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

C.ensure_repo_on_path()

#: RandomTree with 5 nominal attributes of 5 values (004's Figure 1 family): classes per stream
NOMINAL_RT = {"rt_nominal2": 2, "rt_nominal3": 3, "rt_nominal4": 4, "rt_nominal5": 5}
#: streams drawn by MOA's own generators (instance seed ``-i``), nominal attributes declared
MOA_GENERATED = {
    "hyperplane": "generators.HyperplaneGenerator",
    "agrawal": "generators.AgrawalGenerator",
}
STREAMS = ("sea", "random_tree", "waveform", "electricity", *NOMINAL_RT, *MOA_GENERATED)
LABELS = {
    "sea": "SEA",
    "random_tree": "RandomTree",
    "waveform": "Waveform-21",
    "electricity": "Electricity",
    **{s: f"RandomTree (5 nominal x 5, {k} classes)" for s, k in NOMINAL_RT.items()},
    "hyperplane": "Hyperplane (MOA's generator)",
    "agrawal": "Agrawal (MOA's generator, 3 nominal)",
}
FULL_N = {"sea": 200_000, "random_tree": 200_000, "waveform": 100_000, "electricity": None}
FULL_N.update({s: 100_000 for s in (*NOMINAL_RT, *MOA_GENERATED)})
QUICK_N = {"sea": 20_000, "random_tree": 20_000, "waveform": 10_000, "electricity": None}
QUICK_N.update({s: 10_000 for s in (*NOMINAL_RT, *MOA_GENERATED)})
LEARNERS = ("ours", "river", "moa")
#: MOA's MajorityClass over the same instances, timed beside MOA's learner (part of "moa")
MAJORITY = "moa_majority"
MAJORITY_CLI = "functions.MajorityClass"
WARMUP_ROWS = 2_000

PARAMS = dict(grace_period=200, delta=1e-7, tau=0.05, n_split_points=10)

TARGET_ACC_PP = 0.3  # every stream (issue 24)
TARGET_ACC_SAME_TREE_PP = 0.1  # where the trees are the same size at every 10k checkpoint
TARGET_VS_MOA = 5.0
TARGET_VS_RIVER = 200.0
TARGET_COMPILE_S = 30.0
TARGET_WARM_START_S = 2.0
TARGET_MEMORY_MB = 50.0


# --------------------------------------------------------------------------------------------
# Streams
# --------------------------------------------------------------------------------------------


def load_stream(name: str, n: int | None, seed: int):
    """The arrays every learner sees, from ``workbench.streams``."""
    from workbench import streams

    if name == "sea":
        X, y, info = streams.sea(n, seed=seed, return_info=True)
    elif name == "random_tree":
        X, y, info = streams.random_tree(n, seed=seed, return_info=True)
    elif name == "waveform":
        X, y, info = streams.waveform(n, seed=seed, n_features=21, return_info=True)
    elif name == "electricity":
        X, y, info = streams.electricity(return_info=True)
        if n is not None:
            X, y = X[:n], y[:n]
    elif name in NOMINAL_RT:
        X, y, info = streams.random_tree(
            n,
            seed=seed,
            n_classes=NOMINAL_RT[name],
            n_nominal=5,
            n_numeric=0,
            n_values=5,
            return_info=True,
        )
    elif name in MOA_GENERATED:
        X, y, info = C.moa_generated_stream(MOA_GENERATED[name], n, seed)
    else:
        raise ValueError(f"unknown stream {name!r}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.int64)
    return X, y, info


def label(key: str) -> str:
    """A result key ``stream#seed`` as the tables show it."""
    stream, _, seed = key.partition("#")
    return f"{LABELS[stream]}, seed {seed}" if seed else LABELS[stream]


def n_classes_of(info, y) -> int:
    k = getattr(info, "n_classes", None)
    return int(k) if k else int(y.max()) + 1


def nominal_of(info) -> dict[int, int]:
    return {int(j): int(v) for j, v in (getattr(info, "nominal_features", {}) or {}).items()}


# --------------------------------------------------------------------------------------------
# The three learners
# --------------------------------------------------------------------------------------------


#: the timing processes of ours (``--ours-processes``), or None: ours is timed in this process
POOL: C.OursProcesses | None = None


def add_ours_processes_option(p) -> None:
    p.add_argument(
        "--ours-processes",
        type=int,
        default=5,
        help="time ours in this many fresh processes, each run in the next of them in turn (0: "
        "in this process); a process's slow mode then moves one run, not the median",
    )


def start_ours_processes(n: int) -> None:
    """Start the timing processes of ours (after the kernels are compiled: they load them)."""
    global POOL
    if n > 0:
        import atexit

        POOL = C.OursProcesses(n, "bench_hoeffding")
        atexit.register(POOL.close)


def prepare_ours(X, y, info, learner: str = "HoeffdingTree", extra: dict | None = None):
    """Compile (or load the cache) on the first rows; returns (one timed run, extra fields).
    ``learner`` names the class in ``workbench.learners``, ``extra`` its own parameters.  With
    the timing processes of ``--ours-processes`` (``POOL``), each of them does this, and a run
    is timed in the next of them in turn."""
    if POOL is not None:
        return POOL.prepare(X, y, info, learner, extra)
    from workbench import evaluate, learners

    d, k, nominal = X.shape[1], n_classes_of(info, y), nominal_of(info)

    kwargs = dict(
        n_features=d,
        n_classes=k,
        grace_period=PARAMS["grace_period"],
        delta=PARAMS["delta"],
        tau=PARAMS["tau"],
        criterion="info_gain",
        leaf_prediction="nba",
        nominal_features=nominal,
    )
    # spelt out when the constructor has them (they are the defaults of the public API)
    optional = dict(
        n_split_points=PARAMS["n_split_points"], min_branch_fraction=0.01, nb_threshold=0
    )
    cls = getattr(learners, learner)
    accepted = inspect.signature(cls).parameters
    kwargs.update({key: v for key, v in optional.items() if key in accepted})
    kwargs.update(extra or {})

    def fresh():
        return cls(**kwargs)

    m = min(WARMUP_ROWS, len(y))
    t0 = time.perf_counter()
    evaluate.prequential(fresh(), X[:m], y[:m])
    warmup = time.perf_counter() - t0

    def one() -> dict:
        model = fresh()
        gc.collect()
        c0, t0 = time.thread_time(), time.perf_counter()
        res = evaluate.prequential(model, X, y)
        seconds, cpu = time.perf_counter() - t0, time.thread_time() - c0
        return {
            "seconds": seconds,
            "cpu_seconds": cpu,
            "reported_seconds": float(getattr(res, "seconds", float("nan"))),
            "accuracy": float(res.accuracy),
            "n_leaves": int(model.n_leaves),
            "n_active_leaves": int(getattr(model, "n_active_leaves", -1)),
            "depth": int(model.depth),
        }

    # then one untimed full pass, as MOA's timed runs follow untimed full passes: the first full
    # pass of a process pays what the short call did not reach (numba loads the kernels of the
    # paths it first takes, e.g. the one screen of X for inputs of 8,192 values or more: 1.9 ms,
    # 2026-11-28) and takes fresh pages for its result arrays
    first = one() if m < len(y) else None
    params = {key: v for key, v in kwargs.items() if key not in ("n_features", "n_classes")}
    meta = {"warmup_seconds": warmup, "warmup_rows": m, "constructor": params}
    if first is not None:
        meta["first_pass_cpu_seconds"] = first["cpu_seconds"]
    return one, meta


def river_rows(X, info) -> list[dict]:
    names = list(getattr(info, "feature_names", None) or [f"x{j}" for j in range(X.shape[1])])
    nominal = nominal_of(info)
    cols = []
    for j in range(X.shape[1]):
        if (
            j in nominal
        ):  # codes as int; a missing value (NaN) is left out of the dict, as River expects
            cols.append([None if np.isnan(v) else int(v) for v in X[:, j]])
        else:
            cols.append([None if np.isnan(v) else float(v) for v in X[:, j]])
    rows = []
    for i in range(X.shape[0]):
        rows.append({names[j]: cols[j][i] for j in range(X.shape[1]) if cols[j][i] is not None})
    return rows


def run_river(
    X, y, info, repeat: int, learner: str = "HoeffdingTreeClassifier", extra: dict | None = None
) -> dict:
    """River's ``learner`` (a class of ``river.tree``; ``extra``: its own parameters)."""
    from river import tree

    names = list(getattr(info, "feature_names", None) or [f"x{j}" for j in range(X.shape[1])])
    nominal = nominal_of(info)
    rows = river_rows(X, info)
    labels = [int(v) for v in y]

    def fresh():
        return getattr(tree, learner)(
            **(extra or {}),
            grace_period=PARAMS["grace_period"],
            delta=PARAMS["delta"],
            tau=PARAMS["tau"],
            split_criterion="info_gain",
            leaf_prediction="nba",
            nb_threshold=0,
            nominal_attributes=[names[j] for j in sorted(nominal)] or None,
            splitter=tree.splitter.GaussianSplitter(n_splits=PARAMS["n_split_points"]),
            binary_split=False,
            min_branch_fraction=0.01,
            # MOA has no "majority share" rule (it only skips pure leaves); 1.0 switches it off.
            max_share_to_split=1.0,
            # our tree has no memory management and MOA's cap is raised: no cap here either.
            max_size=1e9,
            stop_mem_management=False,
            remove_poor_attrs=False,
            merit_preprune=True,
        )

    runs = []
    for _ in range(repeat):
        model = fresh()
        gc.collect()
        correct = 0
        c0, t0 = time.thread_time(), time.perf_counter()
        for x, t in zip(rows, labels):
            if model.predict_one(x) == t:
                correct += 1
            model.learn_one(x, t)
        seconds, cpu = time.perf_counter() - t0, time.thread_time() - c0
        runs.append(
            {
                "seconds": seconds,
                "cpu_seconds": cpu,
                "accuracy": correct / len(labels),
                "n_leaves": int(model.n_leaves),
                "depth": int(model.height),
            }
        )
    return _summarise(runs, len(y))


def prepare_moa(
    runner,
    X,
    y,
    info,
    tag: str,
    warmup_instances: int = 1_000_000,
    cli: str | None = None,
    baseline: str = MAJORITY_CLI,
) -> dict:
    """Write the ARFF file, read it into Java, warm the JIT for MOA's learner ``cli`` (default:
    the Hoeffding tree) and for ``baseline`` (MajorityClass) over the same instances in memory.
    Returns ``{"moa": (one timed run, extra), MAJORITY: (one timed run, extra)}``.  The
    baseline's run costs what MOA's run costs besides its learner (the loop, the evaluator, the
    iteration over instances) plus a learner that only counts classes, so MOA's run minus the
    baseline's run timed next to it is MOA's learner alone (``learner_alone``)."""
    C.TMP.mkdir(parents=True, exist_ok=True)
    arff = C.TMP / f"{tag}.arff"
    writer = C.write_arff(arff, X, y, info)
    instances = runner.load_arff(arff, X, y)
    clis = {"moa": cli or C.moa_hoeffding_cli(**PARAMS), MAJORITY: baseline}
    # JIT warm-up, not in the figures: full passes with fresh learners (the first is the cold one)
    # until about `warmup_instances` have gone through; HotSpot keeps optimising for ~10^6 of them.
    # The two learners' passes alternate, so that the loop they share is compiled having seen both.
    warmup = max(1, -(-warmup_instances // len(y)))
    cold = {}
    for _ in range(warmup):
        for name, learner in clis.items():
            cold.setdefault(name, runner.prequential(instances, learner)["seconds"])

    def timed(learner: str):
        def one() -> dict:
            gc.collect()
            return runner.prequential(instances, learner)

        return one

    return {
        name: (
            timed(learner),
            {
                "cold_seconds": cold[name],
                "warmup_passes": warmup,
                "learner_cli": learner,
                "arff": str(arff),
                "arff_writer": writer,
            },
        )
        for name, learner in clis.items()
    }


def parity(ours_extra: dict, moa_extra: dict, X, y, info, tag: str, learner="HoeffdingTree"):
    """MOA's own command line on the same ARFF file beside ours, instance by instance
    (``_common.parity_trace``); an error is reported, not raised."""
    from workbench import learners

    def make():
        return getattr(learners, learner)(
            n_features=X.shape[1], n_classes=n_classes_of(info, y), **ours_extra["constructor"]
        )

    try:
        return C.parity_trace(make, X, y, Path(moa_extra["arff"]), moa_extra["learner_cli"], tag)
    except Exception as exc:  # the timed figures stand; say what went wrong
        traceback.print_exc()
        return {"error": f"{type(exc).__name__}: {exc}"}


def run_interleaved(prepared: dict, repeat: int, pairs=(("moa", MAJORITY),)) -> dict:
    """Timed runs of the prepared learners taken in turn, the order reversed every other round
    (ours, MOA, MajorityClass; MajorityClass, MOA, ours; ...), so that all see the same moments
    of a shared machine.  Each ``(learner, baseline)`` of ``pairs`` is timed back to back in
    every round (the baseline after the learner, then before it): round r's two runs are pair r
    of ``learner_alone``."""
    baselines = {b for _, b in pairs}
    names = [name for name in prepared if name not in baselines]
    for a, b in pairs:
        if b in prepared:
            names.insert(names.index(a) + 1 if a in names else len(names), b)
    runs = {name: [] for name in names}
    for r in range(repeat):
        for name in names if r % 2 == 0 else names[::-1]:
            runs[name].append(prepared[name][0]())
    return runs


def learner_alone(runs: list[dict], baseline_runs: list[dict]) -> dict:
    """MOA's learner alone, pair by pair: each MOA run minus the MajorityClass run timed next to
    it, by CPU time of the thread and by wall time; the medians over the pairs are the figures."""
    cpu = [a["cpu_seconds"] - b["cpu_seconds"] for a, b in zip(runs, baseline_runs)]
    wall = [a["seconds"] - b["seconds"] for a, b in zip(runs, baseline_runs)]
    return {
        "baseline": MAJORITY_CLI,
        "n_pairs": len(cpu),
        "cpu_seconds": statistics.median(cpu),
        "seconds": statistics.median(wall),
        "cpu_seconds_pairs": cpu,
        "seconds_pairs": wall,
    }


def summarise_timed(timed: dict, prepared: dict, n: int) -> dict:
    """Each learner's summary of its timed runs; MOA's with its learner alone when the
    MajorityClass runs were timed beside it."""
    out = {lrn: _summarise(runs, n, extra=prepared[lrn][1]) for lrn, runs in timed.items()}
    if "moa" in timed and MAJORITY in timed:
        out["moa"]["learner_alone"] = learner_alone(timed["moa"], timed[MAJORITY])
    return out


def _summarise(runs: list[dict], n: int, extra: dict | None = None) -> dict:
    best = min(runs, key=lambda r: r["seconds"])
    best_cpu = min(r["cpu_seconds"] for r in runs)
    out = {
        "n": n,
        "accuracy": best["accuracy"],
        "seconds": best["seconds"],
        "seconds_all": [r["seconds"] for r in runs],
        "seconds_median": statistics.median(r["seconds"] for r in runs),
        "inst_per_s": n / best["seconds"],
        "cpu_seconds": best_cpu,
        "cpu_seconds_median": statistics.median(r["cpu_seconds"] for r in runs),
        "inst_per_cpu_s": n / best_cpu,
        "n_leaves": best.get("n_leaves"),
        "depth": best.get("depth"),
        "runs": runs,
    }
    if len({round(r["accuracy"], 12) for r in runs}) > 1:
        out["warning"] = "accuracy differs between repeated runs on the same stream"
    if extra:
        out.update(extra)
    return out


# --------------------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------------------


def _get(res: dict, stream: str, learner: str, key: str):
    r = res.get(stream, {}).get(learner)
    if not isinstance(r, dict) or "error" in r:
        return None
    return r.get(key)


def _run_median(r, field: str) -> float | None:
    """The median of a learner's timed runs (``field``: "cpu_seconds" or "seconds"); None where
    it did not run."""
    if not isinstance(r, dict) or "error" in r or not r.get("runs"):
        return None
    return statistics.median(x[field] for x in r["runs"])


def _fmt_s(x: float | None) -> str:
    return "—" if x is None else f"{x:.4f}"


LEARNER_ALONE_HEADERS = [
    "stream",
    "ours median CPU s",
    "MOA median CPU s",
    "MajorityClass median CPU s",
    "MOA learner alone CPU s",
    "ours ÷ MOA learner alone (CPU)",
    "ours ÷ MOA learner alone (wall)",
]


def vs_learner_alone(res: dict, ours: str = "ours") -> dict:
    """One stream's comparison with MOA's learner alone: ``cells`` (the learner-alone table's
    columns 2-5), ``cpu`` and ``wall`` (MOA's learner alone ÷ ours, medians; None where not
    measured or where the learner alone did not come out above zero; ``unresolved`` says so for
    the CPU time)."""
    moa = res.get("moa")
    la = moa.get("learner_alone") if isinstance(moa, dict) and "error" not in moa else None
    o_cpu, o_wall = _run_median(res.get(ours), "cpu_seconds"), _run_median(res.get(ours), "seconds")
    la_cpu, la_wall = (la["cpu_seconds"], la["seconds"]) if la else (None, None)
    return {
        "cells": [
            _fmt_s(o_cpu),
            _fmt_s(_run_median(moa, "cpu_seconds")),
            _fmt_s(_run_median(res.get(MAJORITY), "cpu_seconds")),
            _fmt_s(la_cpu),
        ],
        "cpu": la_cpu / o_cpu if la_cpu and la_cpu > 0 and o_cpu else None,
        "wall": la_wall / o_wall if la_wall and la_wall > 0 and o_wall else None,
        "unresolved": la is not None and la_cpu <= 0,
        "n_pairs": la["n_pairs"] if la else None,
    }


#: MOA's learner alone more than this factor slower (or faster) per row than the median of the
#: same stream's seeds in the same run: MOA's runs were in another state for the whole stream
#: (seen on 2026-11-28: RandomTree's first seed at 0.62 s of CPU a run against 0.20-0.22 on its
#: other seeds, while different seeds of one stream moved MOA's time by at most 1.6x), so that
#: run's ratio is not judged against the target (:func:`moa_unsteady`)
MOA_UNSTEADY = 2.0


def moa_unsteady(results: dict) -> dict[str, float]:
    """The stream-and-seed runs (keys ``stream#seed``) whose MOA learner alone took more than
    ``MOA_UNSTEADY`` times, or less than its inverse, the median CPU time per row of all the
    same stream's seeds in this run (itself included, so that one run that is off does not
    move the reference of the others): {key: that factor}.  A stream run on fewer than three
    seeds is not checked (with two, which one is off cannot be told)."""
    per_row = {}
    for key, res in results.items():
        moa = res.get("moa")
        la = moa.get("learner_alone") if isinstance(moa, dict) and "error" not in moa else None
        if la and moa.get("n") and la["cpu_seconds"] > 0:
            per_row[key] = la["cpu_seconds"] / moa["n"]
    out = {}
    for key, t in per_row.items():
        stream = key.partition("#")[0]
        same = [u for k, u in per_row.items() if k.partition("#")[0] == stream]
        if len(same) >= 3:
            factor = t / statistics.median(same)
            if not 1 / MOA_UNSTEADY <= factor <= MOA_UNSTEADY:
                out[key] = factor
    return out


#: a target's text ends so where its run is not judged (:func:`moa_unsteady`)
NOT_JUDGED = " (not judged: MOA's runs of the whole stream were off, see the notes)"


def verdict_unknown(what: str) -> str:
    """A target without a verdict: not judged (:data:`NOT_JUDGED`) or not measured."""
    return "not judged" if what.endswith(NOT_JUDGED) else "not measured"


def unsteady_note(name: str, factor: float) -> str:
    """Why a run's ratio to MOA's learner alone is not judged (:func:`moa_unsteady`)."""
    return (
        f"{name}: MOA's learner alone took {factor:.1f}x the median CPU time per row of the same "
        "stream's seeds in this run (MOA's runs in another state for the whole stream): "
        "its ratio is shown but not judged against the target"
    )


def learner_alone_line(la: dict) -> str:
    """MOA's learner alone as the console shows it."""
    return (
        f"learner alone (MOA minus MajorityClass, median of {la['n_pairs']} pairs): "
        f"CPU {la['cpu_seconds']:.4f} s, wall {la['seconds']:.4f} s"
    )


def learner_alone_text(
    repeat: int, ours: str = "ours", measured: bool = True, processes: int = 0
) -> str:
    """How the learner-alone table is measured, for both reports (``measured``: whether any
    stream of the run has the pairs; ``processes``: ``--ours-processes``)."""
    missing = (
        ""
        if measured
        else " Not measured in this run (MOA did not run, or the results predate the measure): "
        "the columns that need MajorityClass show —."
    )
    return (
        f"MOA's learner alone (the measure of the throughput target): {repeat} interleaved pairs "
        "of MOA runs and `functions.MajorityClass` runs over the same instances in Java memory, "
        "both JIT-warmed, the two of a pair timed back to back (their order alternating between "
        "rounds); MOA's learner alone = MOA's run − MajorityClass's run, pair by pair, the median "
        f"over the pairs. {ours[0].upper() + ours[1:]}: the median of its {repeat} runs, taken in "
        "turn with them"
        + (
            f", each run in the next of {processes} fresh processes of its own in turn (a "
            "process of this machine sometimes runs a kernel 20-50% slower for its whole life: "
            "so it moves one run, not the median)"
            if processes
            else ""
        )
        + ". Ratios are MOA's learner alone ÷ ours, by CPU time of the timed thread "
        "(`time.thread_time`; the target's measure: other processes hardly move it, and it leaves "
        "out the JVM's JIT and GC threads, which flatters MOA) and by wall time (beside it). "
        "Seconds are per pass over the stream." + missing
    )


def build_report(results: dict, meta: dict, args) -> tuple[str, dict]:
    rows, size_rows, cpu_rows, misses, checks, parity_rows = [], [], [], [], [], []
    alone_rows, alone_notes = [], []
    unsteady = moa_unsteady(results)
    for s in results:
        alone = vs_learner_alone(results[s])
        cps = {lrn: _get(results, s, lrn, "inst_per_cpu_s") for lrn in LEARNERS}
        cpu_rows.append(
            [label(s)]
            + [C.fmt_rate(cps[lrn]) for lrn in LEARNERS]
            + [
                C.fmt_ratio(cps["ours"] / cps["moa"]) if cps["ours"] and cps["moa"] else "—",
                C.fmt_ratio(cps["ours"] / cps["river"]) if cps["ours"] and cps["river"] else "—",
            ]
        )
        acc = {lrn: _get(results, s, lrn, "accuracy") for lrn in LEARNERS}
        ips = {lrn: _get(results, s, lrn, "inst_per_s") for lrn in LEARNERS}
        n = next((results[s][lrn]["n"] for lrn in LEARNERS if _get(results, s, lrn, "n")), None)
        vs_moa = ips["ours"] / ips["moa"] if ips["ours"] and ips["moa"] else None
        vs_river = ips["ours"] / ips["river"] if ips["ours"] and ips["river"] else None
        dpp = (
            abs(acc["ours"] - acc["moa"]) * 100
            if acc["ours"] is not None and acc["moa"] is not None
            else None
        )

        def mark(ok, text):
            return text if ok is None or ok else f"**{text} MISS**"

        ok_moa = None if alone["cpu"] is None or s in unsteady else alone["cpu"] >= TARGET_VS_MOA
        ok_river = None if vs_river is None else vs_river >= TARGET_VS_RIVER
        ok_acc = None if dpp is None else dpp <= TARGET_ACC_PP
        checks += C.parity_checks(
            label(s), results[s].get("parity"), TARGET_ACC_PP, TARGET_ACC_SAME_TREE_PP
        )
        parity_rows.append(C.parity_row(label(s), results[s].get("parity")))
        for ok, what in (
            (
                ok_moa,
                f"throughput >= {TARGET_VS_MOA:g}x MOA's learner alone (CPU, median of pairs)"
                + ("" if alone["cpu"] is None else f": {C.fmt_ratio(alone['cpu'])}")
                + (NOT_JUDGED if s in unsteady else ""),
            ),
            (ok_river, f"throughput >= {TARGET_VS_RIVER:g}x River"),
        ):
            checks.append((f"{label(s)}: {what}", ok))
        alone_rows.append(
            [label(s)]
            + alone["cells"]
            + [mark(ok_moa, C.fmt_ratio(alone["cpu"])), C.fmt_ratio(alone["wall"])]
        )
        if alone["unresolved"]:
            alone_notes.append(
                f"{label(s)}: MOA's learner alone came out at or below zero CPU time (MOA's runs "
                "no slower than MajorityClass's): not resolved at this stream length"
            )
        if s in unsteady:
            alone_notes.append(unsteady_note(label(s), unsteady[s]))
        rows.append(
            [
                label(s),
                f"{n:,}" if n else "—",
                C.fmt_pct(acc["ours"]),
                C.fmt_pct(acc["river"]),
                C.fmt_pct(acc["moa"]),
                C.fmt_rate(ips["ours"]),
                C.fmt_rate(ips["river"]),
                C.fmt_rate(ips["moa"]),
                mark(ok_moa, C.fmt_ratio(alone["cpu"])),
                C.fmt_ratio(vs_moa),
                mark(ok_river, C.fmt_ratio(vs_river)),
                mark(ok_acc, "—" if dpp is None else f"{dpp:.2f}"),
            ]
        )
        size_rows.append(
            [label(s)]
            + [
                "—"
                if _get(results, s, lrn, "n_leaves") is None
                else f"{_get(results, s, lrn, 'n_leaves')} / {_get(results, s, lrn, 'depth')}"
                for lrn in LEARNERS
            ]
        )

    header = [
        "stream",
        "n",
        "acc ours",
        "acc River",
        "acc MOA",
        "inst/s ours",
        "inst/s River",
        "inst/s MOA",
        "ours ÷ MOA's learner alone (CPU, median)",
        "ours ÷ MOA loop (wall, best)",
        "ours ÷ River",
        "\\|acc ours − acc MOA\\| (pp)",
    ]
    header_note = (
        f"inst/s: the best of {args.repeat} runs (River: of {args.river_repeat}), wall clock. "
        "The throughput target uses *ours ÷ MOA's learner alone (CPU, median)*: MOA's run "
        "minus a MajorityClass run timed next to it, the median over the pairs, against the "
        "median of our runs, by CPU time (the learner-alone table of the full report). "
        "*ours ÷ MOA loop* divides the best wall-clock rates of MOA's whole prequential loop "
        "and ours: additional information."
    )
    lines = ["# Hoeffding tree: workbench vs River vs MOA", ""]
    if args.quick or args.n or set(args.only) != set(LEARNERS) or set(args.streams) != set(STREAMS):
        lines += [f"_Partial run: `{args.argv}`; not the reference table._", ""]
    lines += [C.markdown_table(header, rows), "", header_note, ""]
    lines += [
        learner_alone_text(
            args.repeat,
            measured=any(r[4] != "—" for r in alone_rows),
            processes=getattr(args, "ours_processes", 0),
        ),
        "",
        C.markdown_table(LEARNER_ALONE_HEADERS, alone_rows),
        "",
    ]
    lines += [
        f"Additional information, best of {args.repeat} (whole loops, not the target's measure): "
        "throughput by CPU time of the learning thread (`time.thread_time`: hardly moved by other "
        "processes on a busy machine; leaves out the JVM's JIT-compiler and garbage-collector threads, "
        "which the wall-clock figures above include):",
        "",
        C.markdown_table(
            [
                "stream",
                "inst/CPU-s ours",
                "inst/CPU-s River",
                "inst/CPU-s MOA",
                "ours ÷ MOA",
                "ours ÷ River",
            ],
            cpu_rows,
        ),
        "",
    ]

    warm = [
        results[s]["ours"]["warmup_seconds"]
        for s in results
        if _get(results, s, "ours", "warmup_seconds") is not None
    ]
    if warm:
        first = warm[0]
        lines.append(
            f"- Compile (ours, first call: `evaluate.prequential` on {WARMUP_ROWS:,} rows, fresh model; "
            f"numba compiles or loads its cache): **{first:.2f} s** "
            f"(per stream: {', '.join(f'{w:.2f}' for w in warm)} s); not included in the figures above."
        )
    s0 = next((s for s in results if _get(results, s, "ours", "first_pass_cpu_seconds")), None)
    if s0 is not None:
        p0 = results[s0]["ours"]["first_pass_cpu_seconds"]
        med0 = results[s0]["ours"]["cpu_seconds_median"]
        lines.append(
            "- Then one untimed full pass with a fresh model (in each timing process), as MOA's "
            f"runs follow untimed full passes: on the first stream ({s0}) it took {p0 * 1e3:.1f} ms "
            f"of CPU against the timed runs' median {med0 * 1e3:.1f} ms (a first full pass loads "
            "kernels the short call did not reach, e.g. the one screen of X, and takes fresh "
            "pages for its result arrays)."
        )
    lines += C.machine_lines(meta)
    lines += [
        "- Timing: wall clock (`time.perf_counter`) and CPU time of the thread "
        "(`time.thread_time`) around the learning loop only, one process, single thread each. "
        "Ours: `evaluate.prequential` on a fresh model after a compile call and an untimed "
        "full pass; "
        f"{args.repeat} runs. River: `predict_one` + `learn_one` over prebuilt dict rows; best of "
        f"{args.river_repeat}. MOA: stream read from ARFF into Java memory, then one call of "
        "`EfficientEvaluationLoops.PrequentialEvaluation` (loop inside Java, "
        "`BasicClassificationPerformanceEvaluator`: cumulative test-then-train accuracy over every "
        f"instance) after untimed JIT warm-up passes over about "
        f"{getattr(args, 'moa_warmup_instances', 0):,} instances; {args.repeat} runs; "
        "the JVM's JIT and GC "
        "threads run beside it. MajorityClass (`functions.MajorityClass`) runs the same loop over "
        "the same instances, warmed the same way (its passes alternate with MOA's learner's). "
        "Ours, MOA and MajorityClass are timed in turn, the order reversed every other round "
        "(ours, MOA, MajorityClass, MajorityClass, MOA, ours, ...), so that all figures come "
        "from the same stretch of a shared machine and each MOA run has its MajorityClass run "
        "next to it. The throughput target uses the medians (MOA's learner alone: the median over "
        "the pairs of MOA − MajorityClass) by CPU time; the best-of tables are additional "
        "information. MOA's own "
        "`moa.DoTask EvaluatePrequential` on the same ARFF file is compared with ours instance "
        "by instance (table below; JSON: `parity`).",
        "- Parameters (all three): grace period 200, delta 1e-7, tau 0.05, information gain, "
        "adaptive naive Bayes leaves (nb threshold 0), Gaussian numeric observer with 10 split "
        "points, multiway nominal splits, merit pre-pruning on. Memory caps are not reached at these "
        "sizes (ours: its default `memory_limit_mb`; MOA `-m` and River `max_size` raised). River also "
        "gets `max_share_to_split=1.0` (MOA has no such rule). "
        f"MOA learner: `{C.moa_hoeffding_cli(**PARAMS)}`.",
        "",
        "Tree size at the end (leaves / depth, as each library counts depth: River counts the "
        "levels of nodes, MOA the edges from the root to the deepest leaf):",
        "",
        C.markdown_table(["stream", "ours", "River", "MOA"], size_rows),
        "",
        "Instance by instance against MOA's own command line (`moa.DoTask EvaluatePrequential` "
        "on the same ARFF file, its predictions written with `-o`): the accuracies, the rows "
        "where the predicted classes differ, and the trees' leaves after every 10,000 rows "
        f"(targets: within {TARGET_ACC_SAME_TREE_PP:g} pp where the trees are the same size at "
        f"every checkpoint, {TARGET_ACC_PP:g} pp everywhere):",
        "",
        C.markdown_table(C.PARITY_HEADERS, parity_rows),
        "",
    ]

    # cross-checks and warnings
    notes = list(alone_notes)
    for s in results:
        for lrn in LEARNERS:
            r = results[s].get(lrn)
            if isinstance(r, dict) and "error" in r:
                notes.append(f"{label(s)} / {lrn}: **error** {r['error']}")
            elif isinstance(r, dict) and "warning" in r:
                notes.append(f"{label(s)} / {lrn}: {r['warning']}")
        p = results[s].get("parity")
        acc_moa = _get(results, s, "moa", "accuracy")
        if isinstance(p, dict) and "moa_accuracy" in p and acc_moa is not None:
            if abs(p["moa_accuracy"] - acc_moa) >= 5e-7:
                notes.append(
                    f"{label(s)}: MOA's command line ({100 * p['moa_accuracy']:.4f}%) "
                    f"**differs from** the in-process run ({100 * acc_moa:.4f}%)"
                )
        w = _get(results, s, "moa", "arff_writer")
        if w and "fallback" in w:
            notes.append(
                f"{label(s)}: ARFF written by the benchmark's fallback writer "
                "(workbench.streams.write_arff not available yet)."
            )
    if notes:
        lines += ["Notes:", ""] + [f"- {t}" for t in notes] + [""]

    # targets, including the ones measured by the other two scripts
    startup = C.read_json(C.RESULTS / "startup.json")
    memory = C.read_json(C.RESULTS / "memory.json")
    if startup:
        date = startup.get("machine", {}).get("date", "?")
        checks.append(
            (
                f"first use compiles in <= {TARGET_COMPILE_S:g} s (bench_startup, {date}): "
                f"{startup['cold_seconds']:.1f} s",
                startup["cold_seconds"] <= TARGET_COMPILE_S,
            )
        )
        checks.append(
            (
                f"later start ready in <= {TARGET_WARM_START_S:g} s (bench_startup): "
                f"{startup['warm_seconds']:.1f} s",
                startup["warm_seconds"] <= TARGET_WARM_START_S,
            )
        )
    else:
        checks.append(
            (
                "first use <= 30 s and later starts <= 2 s: not measured yet (run bench_startup.py)",
                None,
            )
        )
    if memory and "ok" in memory:
        n_mem = memory.get("args", {}).get("n", 0)
        if memory.get("growth_after_stable_mb") is not None:
            how = f"{memory['growth_after_stable_mb']:.1f} MB after the tree stopped growing"
        else:
            spread = memory.get("rss_spread_mb", float("nan"))
            how = (
                f"tree never stopped growing; RSS spread over the run {spread:.1f} MB "
                "bounds the growth"
            )
        capped = memory.get("capped") or {}
        if capped.get("growth_after_stable_mb") is not None:
            how += (
                f"; with max_depth={memory['args'].get('capped_depth')} the tree stopped at "
                f"{capped['rows'][-1]['n_leaves']} leaves (row {capped['stable_from_row']:,}) and RSS "
                f"grew {capped['growth_after_stable_mb']:.2f} MB after that"
            )
        checks.append(
            (
                f"{n_mem:,} SEA rows through partial_fit: RSS growth < {TARGET_MEMORY_MB:g} MB once the tree "
                f"stopped growing (bench_memory, {memory.get('machine', {}).get('date', '?')}): {how}",
                memory["ok"],
            )
        )
    else:
        checks.append(("constant memory on 10M SEA: not measured yet (run bench_memory.py)", None))
    lines += ["Targets:", ""]
    for what, ok in checks:
        lines.append(
            f"- {'PASS' if ok else ('**MISS**' if ok is False else verdict_unknown(what))}: {what}"
        )
        if ok is False:
            misses.append(what)
    lines.append("")

    summary = [C.markdown_table(header, rows), "", header_note, ""]
    ratios = [
        r
        for r in (vs_learner_alone(results[s])["cpu"] for s in results if s not in unsteady)
        if r is not None
    ]
    if ratios:
        summary.append(
            f"- Ours ÷ MOA's learner alone by CPU time (median of {args.repeat} interleaved pairs, "
            f"MOA's run minus MajorityClass's): {min(ratios):.1f}-{max(ratios):.1f}x over "
            f"{len(ratios)} stream-and-seed runs (target {TARGET_VS_MOA:g}x on every one)"
            + (
                ""
                if not unsteady
                else "; not judged, where MOA's runs of a whole stream took more than "
                f"{MOA_UNSTEADY:g}x (or less than 1/{MOA_UNSTEADY:g}) the median time per row of "
                "its seeds: " + ", ".join(f"{label(k)} ({f:.1f}x)" for k, f in unsteady.items())
            )
            + "."
        )
    if warm:
        summary.append(f"- Compile (ours, first call, not in the figures): {warm[0]:.2f} s.")
    summary += C.machine_lines(meta)[:2]
    summary.append(
        f"- Targets: {sum(1 for _, ok in checks if ok)} pass, {len(misses)} missed"
        + (": " + "; ".join(misses) if misses else "")
        + ". Details, the learner-alone and CPU-time tables and how each system is timed: "
        "[benchmarks/README.md](benchmarks/README.md)."
    )
    data = {
        "machine": meta,
        "params": PARAMS,
        "args": vars(args),
        "results": results,
        "targets": [{"target": w, "ok": ok} for w, ok in checks],
        "missed": misses,
        "summary_markdown": "\n".join(summary),
    }
    return "\n".join(lines), data


# --------------------------------------------------------------------------------------------


def _update_readmes(markdown: str, data: dict, top: bool) -> None:
    """The full report into benchmarks/README.md; the short summary into the project README's
    ``<!-- bench:begin -->`` block when it has one (and ``top``)."""
    if C.update_readme_block("hoeffding", markdown):
        print(f"updated: {C.README.relative_to(C.ROOT)}")
    top_readme = C.ROOT / "README.md"
    if top and C.update_readme_block(
        "bench", data["summary_markdown"], readme=top_readme, demote=False
    ):
        print(f"updated: {top_readme.relative_to(C.ROOT)}")


def report_only(cli_args) -> int:
    """Rebuild the Markdown and the target list from a saved JSON, e.g. after a new start-up run."""
    stem = cli_args.out or "hoeffding"
    path = C.RESULTS / f"{stem}.json"
    saved = C.read_json(path)
    if saved is None:
        print(
            f"no saved results at {path.relative_to(C.ROOT)}: run the benchmark first",
            file=sys.stderr,
        )
        return 1
    args = argparse.Namespace(**saved["args"])
    args.argv = getattr(args, "argv", "")
    markdown, data = build_report(saved["results"], saved["machine"], args)
    C.write_results(stem, markdown, data)
    if stem == "hoeffding":
        _update_readmes(markdown, data, top=not cli_args.no_top_readme)
    print(markdown)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--quick", action="store_true", help="small streams (20k/20k/10k/Electricity), a smoke test"
    )
    p.add_argument(
        "--n", type=int, default=None, help="instances for every stream (Electricity: first n rows)"
    )
    p.add_argument(
        "--streams", default=",".join(STREAMS), help=f"comma list from {','.join(STREAMS)}"
    )
    p.add_argument("--only", default=",".join(LEARNERS), help="comma list from ours,river,moa")
    p.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="timed runs of ours, MOA and MOA's MajorityClass (medians and bests are shown)",
    )
    p.add_argument(
        "--moa-warmup-instances",
        type=int,
        default=1_000_000,
        help="untimed MOA passes over the stream before timing, until this many instances (JIT)",
    )
    add_ours_processes_option(p)
    p.add_argument(
        "--river-repeat", type=int, default=1, help="timed runs of River (best is shown)"
    )
    p.add_argument("--seeds", default="1,2,3", help="comma list of stream seeds")
    p.add_argument(
        "--river-seeds", type=int, default=1, help="River runs on the first this many seeds"
    )
    p.add_argument(
        "--no-moa-cli", action="store_true", help="skip the instance-by-instance MOA check"
    )
    p.add_argument(
        "--out",
        default=None,
        help="result file stem (default: hoeffding for a full run, else a name under results/tmp/)",
    )
    p.add_argument(
        "--no-top-readme",
        action="store_true",
        help="do not write the summary into the project README's <!-- bench:begin --> block",
    )
    p.add_argument(
        "--report-only",
        action="store_true",
        help="measure nothing: rebuild the report from results/hoeffding.json (or --out) with "
        "the latest startup and memory results",
    )
    args = p.parse_args(argv)
    if args.report_only:
        return report_only(args)
    C.precompile()  # the kernels, compiled under the fixed hash seed before any timing
    start_ours_processes(args.ours_processes)
    args.argv = " ".join(sys.argv[1:] if argv is None else argv)
    args.streams = [s.strip() for s in args.streams.split(",") if s.strip()]
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
    args.seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    for s in args.streams:
        if s not in STREAMS:
            p.error(f"unknown stream {s!r}")
    for lrn in args.only:
        if lrn not in LEARNERS:
            p.error(f"unknown learner {lrn!r}")

    meta = C.machine_info(with_java="moa" in args.only)
    runner, runner_error = None, None
    if "moa" in args.only:
        try:
            runner = C.MoaRunner()
            meta["java_in_process"] = runner.java_version
        except Exception as exc:  # no CapyMOA, no Java: say so in every MOA cell, run the rest
            runner_error = f"MOA unavailable ({type(exc).__name__}: {exc}); install the bench extra and Java 17"
            print(runner_error, flush=True)

    results: dict = {}
    sizes = QUICK_N if args.quick else FULL_N
    for stream, seed in [(s, seed) for s in args.streams for seed in args.seeds]:
        if stream == "electricity" and seed != args.seeds[0]:
            continue  # a data set: one order of its rows
        s = f"{stream}#{seed}"
        n = args.n if args.n else sizes[stream]
        t0 = time.perf_counter()
        X, y, info = load_stream(stream, n, seed)
        print(
            f"[{label(s)}] n={len(y):,} d={X.shape[1]} classes={n_classes_of(info, y)} "
            f"nominal={nominal_of(info) or '-'} (made in {time.perf_counter() - t0:.1f} s)",
            flush=True,
        )
        results[s] = {}
        tag = f"{stream}_n{len(y)}_seed{seed}"
        prepared, errors = {}, {}
        for lrn in [lrn for lrn in args.only if lrn in ("ours", "moa")]:
            try:
                if lrn == "ours":
                    prepared[lrn] = prepare_ours(X, y, info)
                elif runner is None:
                    raise RuntimeError(runner_error)
                else:
                    prepared.update(prepare_moa(runner, X, y, info, tag, args.moa_warmup_instances))
            except Exception as exc:
                traceback.print_exc()
                errors[lrn] = {"error": f"{type(exc).__name__}: {exc}"}
        try:
            timed = run_interleaved(prepared, args.repeat)
        except Exception as exc:
            traceback.print_exc()
            timed = {}
            errors.update(
                {
                    lrn: {"error": f"{type(exc).__name__}: {exc}"}
                    for lrn in prepared
                    if lrn != MAJORITY
                }
            )
        results[s].update(summarise_timed(timed, prepared, len(y)))
        results[s].update(errors)
        if "moa" in timed and "ours" in timed and not args.no_moa_cli:
            p_ = parity(prepared["ours"][1], prepared["moa"][1], X, y, info, tag)
            results[s]["parity"] = p_
        if "river" in args.only and seed in args.seeds[: args.river_seeds]:
            try:
                results[s]["river"] = run_river(X, y, info, args.river_repeat)
            except Exception as exc:
                traceback.print_exc()
                results[s]["river"] = {"error": f"{type(exc).__name__}: {exc}"}
        keep = (*args.only, MAJORITY, "parity")
        results[s] = {k: results[s][k] for k in keep if k in results[s]}
        for lrn, r in results[s].items():
            if lrn == "parity":
                print(f"  parity {C.parity_row('', r)[1:]}", flush=True)
                continue
            if "error" in r:
                print(f"  {lrn:5s} ERROR {r['error']}", flush=True)
            else:
                print(
                    f"  {lrn:5s} acc {100 * r['accuracy']:.3f}%  {r['inst_per_s']:>12,.0f} inst/s  "
                    f"({r['seconds']:.3f} s; median CPU {r['cpu_seconds_median']:.4f} s; "
                    f"leaves {r['n_leaves']}, depth {r['depth']})",
                    flush=True,
                )
            if "learner_alone" in r:
                print(f"        {learner_alone_line(r['learner_alone'])}", flush=True)
    meta["loadavg_end"] = C.loadavg()

    markdown, data = build_report(results, meta, args)
    full = not (
        args.quick or args.n or set(args.only) != set(LEARNERS) or set(args.streams) != set(STREAMS)
    )
    stem = args.out or ("hoeffding" if full else "hoeffding_partial")
    directory = C.RESULTS if (args.out or full) else C.TMP
    md_path, json_path = C.write_results(stem, markdown, data, directory)
    print()
    print(markdown)
    print(f"written: {md_path.relative_to(C.ROOT)} and {json_path.relative_to(C.ROOT)}")
    if full and not args.out:
        _update_readmes(markdown, data, top=not args.no_top_readme)
    if data["missed"]:
        print(f"TARGETS MISSED: {len(data['missed'])}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
