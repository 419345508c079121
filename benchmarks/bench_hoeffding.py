"""Hoeffding tree, side by side: the workbench, River 0.26 and MOA (through CapyMOA 0.15).

All three learn the identical arrays, test-then-train over every instance, with the same
parameters: grace period 200, delta 1e-7, tau 0.05, information gain, adaptive naive Bayes leaves,
Gaussian numeric observer with 10 split points, multiway nominal splits.  One process; the table
gives prequential accuracy, instances per second and the ratios, and checks the targets:

* accuracy within 1 percentage point of MOA on every stream;
* throughput at least 3x MOA and at least 50x River on every stream (numba compile excluded and
  reported on its own line);
* first use compiles in at most 30 s, later starts are ready in at most 2 s (``bench_startup.py``);
* 10 million SEA instances grow resident memory by less than 50 MB once the tree has stopped
  growing (``bench_memory.py``).
The last two are read from those scripts' latest result files and shown with their dates.

How each learner is timed (wall clock, ``time.perf_counter``):

* ours: ``evaluate.prequential(model, X, y)`` on a fresh model, after one call on the first
  2,000 rows of the same stream with another fresh model (that first call compiles, or loads
  numba's cache, and is reported on its own line); best of ``--repeat`` runs (default 5).
* River: ``predict_one`` then ``learn_one`` in a plain Python loop over ``dict`` rows built
  beforehand (building them is not timed); ``--river-repeat`` runs (default 1, it is slow).
* MOA: see ``_common.py``.  The stream is read into Java memory from an ARFF file and
  ``EfficientEvaluationLoops.PrequentialEvaluation`` runs the loop inside Java, timed around that
  one call.  Untimed full passes with fresh learners first warm the JIT until about a million
  instances have gone through (``--moa-warmup-instances``; the analogue of excluding numba's
  compile time), then best of ``--repeat`` runs with a fresh learner each.
  MOA's own command line on the same file cross-checks the accuracy.
* ours and MOA are timed in turn, run for run (ours, MOA, MOA, ours, ...): on a shared machine
  whose speed drifts by tens of percent within minutes, both bests then come from the same
  stretch of time and their ratio is far steadier than that of two separate series.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_hoeffding.py            # full run, writes results/hoeffding.*
    .venv/bin/python benchmarks/bench_hoeffding.py --quick    # small streams, a smoke test
    .venv/bin/python benchmarks/bench_hoeffding.py --only river,moa --streams sea,electricity
"""

from __future__ import annotations

import argparse
import gc
import inspect
import sys
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

C.ensure_repo_on_path()

STREAMS = ("sea", "random_tree", "waveform", "electricity")
LABELS = {
    "sea": "SEA",
    "random_tree": "RandomTree",
    "waveform": "Waveform-21",
    "electricity": "Electricity",
}
FULL_N = {"sea": 200_000, "random_tree": 200_000, "waveform": 100_000, "electricity": None}
QUICK_N = {"sea": 20_000, "random_tree": 20_000, "waveform": 10_000, "electricity": None}
LEARNERS = ("ours", "river", "moa")
WARMUP_ROWS = 2_000

PARAMS = dict(grace_period=200, delta=1e-7, tau=0.05, n_split_points=10)

TARGET_ACC_PP = 1.0
TARGET_VS_MOA = 3.0
TARGET_VS_RIVER = 50.0
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
    else:
        raise ValueError(f"unknown stream {name!r}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.int64)
    return X, y, info


def n_classes_of(info, y) -> int:
    k = getattr(info, "n_classes", None)
    return int(k) if k else int(y.max()) + 1


def nominal_of(info) -> dict[int, int]:
    return {int(j): int(v) for j, v in (getattr(info, "nominal_features", {}) or {}).items()}


# --------------------------------------------------------------------------------------------
# The three learners
# --------------------------------------------------------------------------------------------


def prepare_ours(X, y, info, learner: str = "HoeffdingTree", extra: dict | None = None):
    """Compile (or load the cache) on the first rows; returns (one timed run, extra fields).
    ``learner`` names the class in ``workbench.learners``, ``extra`` its own parameters."""
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

    params = {key: v for key, v in kwargs.items() if key not in ("n_features", "n_classes")}
    return one, {"warmup_seconds": warmup, "warmup_rows": m, "constructor": params}


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
    runner, X, y, info, tag: str, warmup_instances: int = 1_000_000, cli: str | None = None
):
    """Write the ARFF file, read it into Java, warm the JIT; returns (one timed run, extra).
    ``cli``: MOA's learner as a command-line string (default: the Hoeffding tree)."""
    C.TMP.mkdir(parents=True, exist_ok=True)
    arff = C.TMP / f"{tag}.arff"
    writer = C.write_arff(arff, X, y, info)
    instances = runner.load_arff(arff, X, y)
    cli = cli or C.moa_hoeffding_cli(**PARAMS)
    # JIT warm-up, not in the figures: full passes with fresh learners (the first is the cold one)
    # until about `warmup_instances` have gone through; HotSpot keeps optimising for ~10^6 of them
    warmup = max(1, -(-warmup_instances // len(y)))
    cold = runner.prequential(instances, cli)
    for _ in range(warmup - 1):
        runner.prequential(instances, cli)

    def one() -> dict:
        gc.collect()
        return runner.prequential(instances, cli)

    extra = {
        "cold_seconds": cold["seconds"],
        "warmup_passes": warmup,
        "learner_cli": cli,
        "arff": str(arff),
        "arff_writer": writer,
    }
    return one, extra


def moa_cli_check(extra: dict, n: int, tag: str) -> None:
    """MOA's own command line on the same ARFF file (cross-checks the accuracy)."""
    try:
        extra["cli"] = C.moa_cli_prequential(
            Path(extra["arff"]), extra["learner_cli"], n, C.moa_jar(), tag
        )
    except Exception as exc:  # the in-process figure stands; say what went wrong
        extra["cli"] = {"error": f"{type(exc).__name__}: {exc}"}


def run_interleaved(prepared: dict, repeat: int) -> dict:
    """Timed runs of the prepared learners taken in turn (ours, MOA, MOA, ours, ...), so that
    both see the same moments of a shared machine; each learner's best is its figure."""
    runs = {name: [] for name in prepared}
    names = list(prepared)
    for r in range(repeat):
        for name in names if r % 2 == 0 else names[::-1]:
            runs[name].append(prepared[name][0]())
    return runs


def _summarise(runs: list[dict], n: int, extra: dict | None = None) -> dict:
    best = min(runs, key=lambda r: r["seconds"])
    secs = sorted(r["seconds"] for r in runs)
    best_cpu = min(r["cpu_seconds"] for r in runs)
    out = {
        "n": n,
        "accuracy": best["accuracy"],
        "seconds": best["seconds"],
        "seconds_all": [r["seconds"] for r in runs],
        "seconds_median": secs[len(secs) // 2],
        "inst_per_s": n / best["seconds"],
        "cpu_seconds": best_cpu,
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


def build_report(results: dict, meta: dict, args) -> tuple[str, dict]:
    rows, size_rows, cpu_rows, misses, checks = [], [], [], [], []
    for s in results:
        cps = {lrn: _get(results, s, lrn, "inst_per_cpu_s") for lrn in LEARNERS}
        cpu_rows.append(
            [LABELS[s]]
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

        ok_moa = None if vs_moa is None else vs_moa >= TARGET_VS_MOA
        ok_river = None if vs_river is None else vs_river >= TARGET_VS_RIVER
        ok_acc = None if dpp is None else dpp <= TARGET_ACC_PP
        for ok, what in (
            (ok_acc, f"accuracy within {TARGET_ACC_PP:g} pp of MOA"),
            (ok_moa, f"throughput >= {TARGET_VS_MOA:g}x MOA"),
            (ok_river, f"throughput >= {TARGET_VS_RIVER:g}x River"),
        ):
            checks.append((f"{LABELS[s]}: {what}", ok))
        rows.append(
            [
                LABELS[s],
                f"{n:,}" if n else "—",
                C.fmt_pct(acc["ours"]),
                C.fmt_pct(acc["river"]),
                C.fmt_pct(acc["moa"]),
                C.fmt_rate(ips["ours"]),
                C.fmt_rate(ips["river"]),
                C.fmt_rate(ips["moa"]),
                mark(ok_moa, C.fmt_ratio(vs_moa)),
                mark(ok_river, C.fmt_ratio(vs_river)),
                mark(ok_acc, "—" if dpp is None else f"{dpp:.2f}"),
            ]
        )
        size_rows.append(
            [LABELS[s]]
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
        "ours ÷ MOA",
        "ours ÷ River",
        "\\|acc ours − acc MOA\\| (pp)",
    ]
    lines = ["# Hoeffding tree: workbench vs River vs MOA", ""]
    if args.quick or args.n or set(args.only) != set(LEARNERS) or set(args.streams) != set(STREAMS):
        lines += [f"_Partial run: `{args.argv}`; not the reference table._", ""]
    lines += [C.markdown_table(header, rows), ""]
    lines += [
        "Throughput by CPU time of the learning thread instead (`time.thread_time`: hardly moved by other "
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
    lines += C.machine_lines(meta)
    lines += [
        "- Timing: wall clock (`time.perf_counter`) around the learning loop only, one process, "
        "single thread each. Ours: `evaluate.prequential` on a fresh model after a compile call; "
        f"best of {args.repeat}. River: `predict_one` + `learn_one` over prebuilt dict rows; best of "
        f"{args.river_repeat}. MOA: stream read from ARFF into Java memory, then one call of "
        "`EfficientEvaluationLoops.PrequentialEvaluation` (loop inside Java, "
        "`BasicClassificationPerformanceEvaluator`: cumulative test-then-train accuracy over every "
        f"instance) after untimed JIT warm-up passes over about "
        f"{getattr(args, 'moa_warmup_instances', 0):,} instances; best of {args.repeat}; "
        "the JVM's JIT and GC "
        "threads run beside it. Ours and MOA are timed in turn (ours, MOA, MOA, ours, ...), so "
        "both bests come from the same stretch of a shared machine. MOA's own "
        "`moa.DoTask EvaluatePrequential` on the same ARFF file cross-checks the accuracy (JSON: "
        "`moa.cli`).",
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
    ]

    # cross-checks and warnings
    notes = []
    for s in results:
        for lrn in LEARNERS:
            r = results[s].get(lrn)
            if isinstance(r, dict) and "error" in r:
                notes.append(f"{LABELS[s]} / {lrn}: **error** {r['error']}")
            elif isinstance(r, dict) and "warning" in r:
                notes.append(f"{LABELS[s]} / {lrn}: {r['warning']}")
        cli = _get(results, s, "moa", "cli")
        acc_moa = _get(results, s, "moa", "accuracy")
        if isinstance(cli, dict) and "error" in cli:
            notes.append(f"{LABELS[s]}: MOA command-line cross-check failed: {cli['error']}")
        elif isinstance(cli, dict) and acc_moa is not None:
            same = abs(cli["accuracy"] - acc_moa) < 5e-7
            notes.append(
                f"{LABELS[s]}: MOA command line on the ARFF file: accuracy {100 * cli['accuracy']:.4f}% "
                f"({'same as' if same else '**differs from**'} the in-process run), "
                f"{cli['n'] / cli['cpu_seconds']:,.0f} inst/s by MOA's evaluation CPU time "
                "(includes ARFF parsing and a cold JIT)."
            )
        w = _get(results, s, "moa", "arff_writer")
        if w and "fallback" in w:
            notes.append(
                f"{LABELS[s]}: ARFF written by the benchmark's fallback writer "
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
            f"- {'PASS' if ok else ('not measured' if ok is None else '**MISS**')}: {what}"
        )
        if ok is False:
            misses.append(what)
    lines.append("")

    summary = [C.markdown_table(header, rows), ""]
    if warm:
        summary.append(f"- Compile (ours, first call, not in the figures): {warm[0]:.2f} s.")
    summary += C.machine_lines(meta)[:2]
    summary.append(
        f"- Targets: {sum(1 for _, ok in checks if ok)} pass, {len(misses)} missed"
        + (": " + "; ".join(misses) if misses else "")
        + ". Details, the CPU-time table and how each system is timed: "
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
        "--repeat", type=int, default=5, help="timed runs of ours and MOA (best is shown)"
    )
    p.add_argument(
        "--moa-warmup-instances",
        type=int,
        default=1_000_000,
        help="untimed MOA passes over the stream before timing, until this many instances (JIT)",
    )
    p.add_argument(
        "--river-repeat", type=int, default=1, help="timed runs of River (best is shown)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--no-moa-cli", action="store_true", help="skip the MOA command-line cross-check"
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
    args.argv = " ".join(sys.argv[1:] if argv is None else argv)
    args.streams = [s.strip() for s in args.streams.split(",") if s.strip()]
    args.only = [s.strip() for s in args.only.split(",") if s.strip()]
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
    for s in args.streams:
        n = args.n if args.n else sizes[s]
        t0 = time.perf_counter()
        X, y, info = load_stream(s, n, args.seed)
        print(
            f"[{LABELS[s]}] n={len(y):,} d={X.shape[1]} classes={n_classes_of(info, y)} "
            f"nominal={nominal_of(info) or '-'} (made in {time.perf_counter() - t0:.1f} s)",
            flush=True,
        )
        results[s] = {}
        tag = f"{s}_n{len(y)}_seed{args.seed}"
        prepared, errors = {}, {}
        for lrn in [lrn for lrn in args.only if lrn in ("ours", "moa")]:
            try:
                if lrn == "ours":
                    prepared[lrn] = prepare_ours(X, y, info)
                elif runner is None:
                    raise RuntimeError(runner_error)
                else:
                    prepared[lrn] = prepare_moa(runner, X, y, info, tag, args.moa_warmup_instances)
            except Exception as exc:
                traceback.print_exc()
                errors[lrn] = {"error": f"{type(exc).__name__}: {exc}"}
        try:
            timed = run_interleaved(prepared, args.repeat)
        except Exception as exc:
            traceback.print_exc()
            timed = {}
            errors.update({lrn: {"error": f"{type(exc).__name__}: {exc}"} for lrn in prepared})
        for lrn, runs in timed.items():
            extra = prepared[lrn][1]
            if lrn == "moa" and not args.no_moa_cli:
                moa_cli_check(extra, len(y), tag)
            results[s][lrn] = _summarise(runs, len(y), extra=extra)
        results[s].update(errors)
        if "river" in args.only:
            try:
                results[s]["river"] = run_river(X, y, info, args.river_repeat)
            except Exception as exc:
                traceback.print_exc()
                results[s]["river"] = {"error": f"{type(exc).__name__}: {exc}"}
        results[s] = {lrn: results[s][lrn] for lrn in args.only if lrn in results[s]}
        for lrn, r in results[s].items():
            if "error" in r:
                print(f"  {lrn:5s} ERROR {r['error']}", flush=True)
            else:
                print(
                    f"  {lrn:5s} acc {100 * r['accuracy']:.3f}%  {r['inst_per_s']:>12,.0f} inst/s  "
                    f"({r['seconds']:.3f} s, leaves {r['n_leaves']}, depth {r['depth']})",
                    flush=True,
                )
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
