"""Before and after: the same learner's runs timed on two checkouts of the workbench, in turn.

    python benchmarks/bench_ab.py BEFORE_DIR [AFTER_DIR] [--rounds 7] [--learner EFDT]

A refactor of the engine must change no speed.  This machine's speed drifts by tens of percent
within minutes, so the two versions are never timed in separate series: each round runs the
BEFORE checkout and then the AFTER checkout (each in its own process, with its own warm numba
cache) on the four streams of ``bench_hoeffding.py`` (the Hoeffding tree, or ``--learner EFDT``
as ``bench_efdt.py`` configures it), and the report gives per stream the median
over rounds of each, their ratio, and the ratio of the round-by-round pairs.  CPU time of the
timed thread is what is compared (wall time is printed too).  Results go to
``benchmarks/results/ab.md``.

``--hash-seeds 0,1,2``: numba's machine code depends on the hash seed of the process that
compiles it, and its speed with it (3-5% on SEA between seeds, measured 2026-11-28; see
``workbench.precompile``), so one build of each checkout compares two draws, not two codes.  With
this option each checkout is compiled once per seed, into an empty cache of its own under
``results/tmp/ab_cache`` (``NUMBA_CACHE_DIR``, ``PYTHONHASHSEED``), every round times every
build, and a round's ratio pairs the two checkouts' builds of the same seed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import TMP, machine_info, machine_lines, markdown_table, utc_now, write_results  # noqa
from bench_efdt import REEVAL  # noqa: E402

STREAMS = ("sea", "random_tree", "waveform", "electricity")

# run inside each checkout's own process: the best of 3 of one prequential run per stream
CHILD = textwrap.dedent("""
    import gc, json, sys, time
    sys.path.insert(0, sys.argv[2])
    from bench_hoeffding import FULL_N, load_stream, n_classes_of, nominal_of
    for name in [m for m in sys.modules if m == "workbench" or m.startswith("workbench.")]:
        del sys.modules[name]   # bench_hoeffding may have imported the installed checkout
    sys.path.insert(0, sys.argv[1])
    import workbench
    assert workbench.__file__.startswith(sys.argv[1]), workbench.__file__
    from workbench import evaluate, learners
    learner = getattr(learners, sys.argv[4])
    out = {}
    for name in sys.argv[3].split(","):
        X, y, info = load_stream(name, FULL_N[name], 1)
        kw = dict(n_features=X.shape[1], n_classes=n_classes_of(info, y),
                  nominal_features=nominal_of(info), **json.loads(sys.argv[5]))
        evaluate.prequential(learner(**kw), X[:2000], y[:2000])   # warm
        best = None
        for _ in range(3):
            model = learner(**kw)
            gc.collect()
            c0, t0 = time.thread_time(), time.perf_counter()
            res = evaluate.prequential(model, X, y)
            cpu, wall = time.thread_time() - c0, time.perf_counter() - t0
            if best is None or cpu < best["cpu"]:
                best = {"cpu": cpu, "wall": wall, "n": len(y), "accuracy": res.accuracy,
                        "leaves": model.n_leaves}
        out[name] = best
    print(json.dumps(out))
""")


# the learners bench_ab can time, and their parameters beyond the stream's (bench_efdt.py's EFDT)
LEARNERS = {"HoeffdingTree": {}, "EFDT": {"min_samples_reevaluate": REEVAL}}


def run(
    checkout: Path, streams: tuple[str, ...], env: dict | None = None, learner="HoeffdingTree"
) -> dict:
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            CHILD,
            str(checkout),
            str(HERE),
            ",".join(streams),
            learner,
            json.dumps(LEARNERS[learner]),
        ],
        capture_output=True,
        text=True,
        cwd=checkout,
        env=env,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the run in {checkout} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def by_seed(rounds: list, stream: str, seed) -> list[float]:
    """The after/before CPU ratios of the rounds that paired builds of hash seed ``seed``."""
    return [
        x["after"][stream]["cpu"] / x["before"][stream]["cpu"]
        for x in rounds
        if x["hash_seed"] == seed
    ]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path, nargs="?", default=HERE.parent)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument(
        "--streams",
        default=",".join(STREAMS),
        help="comma-separated names of bench_hoeffding's streams (default: %(default)s; "
        "e.g. rt_nominal4 for an all-nominal tree)",
    )
    ap.add_argument(
        "--hash-seeds",
        default=None,
        help="comma-separated PYTHONHASHSEED values: compile each checkout once per seed into a "
        "fresh cache, and pair builds of the same seed (default: each checkout's own cache)",
    )
    ap.add_argument("--learner", choices=sorted(LEARNERS), default="HoeffdingTree")
    ap.add_argument(
        "--reuse-cache",
        action="store_true",
        help="with --hash-seeds: keep the builds' caches of an earlier run of the same two "
        "checkouts (the other learner's run: most kernels are shared) instead of starting empty",
    )
    args = ap.parse_args(argv)
    streams = tuple(args.streams.split(","))
    seeds = [None] if args.hash_seeds is None else args.hash_seeds.split(",")
    info = machine_info(with_java=False)
    started = utc_now()
    envs = {}
    for seed in seeds:
        for side in ("before", "after"):
            if seed is None:
                envs[side, seed] = None
                continue
            cache = TMP / "ab_cache" / f"{side}_{seed}"
            if not args.reuse_cache:
                shutil.rmtree(cache, ignore_errors=True)
            envs[side, seed] = dict(os.environ, PYTHONHASHSEED=seed, NUMBA_CACHE_DIR=str(cache))
    rounds = []
    for r in range(args.rounds):
        for seed in seeds:
            b = run(args.before.resolve(), streams, envs["before", seed], args.learner)
            a = run(args.after.resolve(), streams, envs["after", seed], args.learner)
            rounds.append({"before": b, "after": a, "hash_seed": seed})
            print(
                f"round {r + 1}"
                + ("" if seed is None else f", hash seed {seed}")
                + ": "
                + ", ".join(f"{s} {b[s]['cpu']:.3f}/{a[s]['cpu']:.3f}" for s in streams),
                flush=True,
            )
    rows, data = [], {}
    for s in streams:
        bc = [x["before"][s]["cpu"] for x in rounds]
        ac = [x["after"][s]["cpu"] for x in rounds]
        pair = [x["after"][s]["cpu"] / x["before"][s]["cpu"] for x in rounds]
        same = all(
            x["before"][s]["accuracy"] == x["after"][s]["accuracy"]
            and x["before"][s]["leaves"] == x["after"][s]["leaves"]
            for x in rounds
        )
        n = rounds[0]["before"][s]["n"]
        data[s] = {"before_cpu": bc, "after_cpu": ac, "pair_ratios": pair, "same_result": same}
        rows.append(
            [
                s,
                f"{n:,}",
                f"{n / statistics.median(bc) / 1e6:.2f} M/s",
                f"{n / statistics.median(ac) / 1e6:.2f} M/s",
                f"{statistics.median(ac) / statistics.median(bc):.3f}",
                f"{statistics.median(pair):.3f}",
                f"{min(ac) / min(bc):.3f}",
                f"{min(pair):.3f}-{max(pair):.3f}",
                "yes" if same else "NO",
            ]
        )
    md = "\n".join(
        [
            "# Engine before and after (`bench_ab.py`)",
            "",
            f"Learner: {args.learner}. Before: `{args.before}`; after: `{args.after}`; "
            f"{args.rounds} rounds, each timing before then after (best of 3 CPU times per run); "
            "inst/s from the medians. "
            + (
                ""
                if args.hash_seeds is None
                else f"Each checkout compiled once per hash seed ({args.hash_seeds}), in "
                + (
                    "caches kept from the other learner's run"
                    if args.reuse_cache
                    else "fresh caches"
                )
                + "; each round times every build, and its ratios pair the builds of one "
                "seed. "
            )
            + "The "
            "target is a median of the paired rounds' ratios within 0.97-1.03; the machine's "
            "speed jumps between two levels about 50% apart "
            "from run to run, so the ratio of the two medians can land on different levels, "
            "while the median of the paired rounds' ratios compares runs made seconds apart.",
            "",
            markdown_table(
                [
                    "stream",
                    "n",
                    "before",
                    "after",
                    "after/before CPU (medians)",
                    "median of the rounds' ratios",
                    "best/best",
                    "round-by-round range",
                    "same accuracy and leaves",
                ],
                rows,
            ),
            "",
            *(
                []
                if args.hash_seeds is None
                else [
                    f"- Hash seed {seed}: median of the rounds' ratios "
                    + ", ".join(
                        f"{st} {statistics.median(by_seed(rounds, st, seed)):.3f}" for st in streams
                    )
                    for seed in seeds
                ]
            ),
            f"- Measured: {started} to {utc_now()}",
            *machine_lines(info),
        ]
    )
    write_results("ab", md, {"rounds": rounds, "summary": data})
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
