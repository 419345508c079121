#!/usr/bin/env python3
"""Throughput of the Frugal Hoeffding tree (paper 003) at alpha = 1 against
HoeffdingTree(leaf_prediction="laplace").

With Laplace leaves the margin p1 - p2 is below 1, so ``FrugalHoeffdingTree(alpha=1,
n_initial=0)`` asks for every label and grows the identical tree (the script checks that the
predictions agree).  It runs the engine's ACTIVE variant of the loop (class probabilities for
every row, the query step), the Hoeffding tree the FULL variant; the ratio is what the Frugal
rule's machinery costs when it saves nothing.

Timing: a warm-up call on the first 2,000 rows loads (or compiles) the kernels; then
``--repeat`` rounds, each running both learners once on fresh models, in alternating order
(interleaved, so that a change in the machine's load hits both alike); the best CPU time of the
calling thread (``time.thread_time``) and the best wall time are kept.  Ratio = Frugal seconds /
HoeffdingTree seconds.  Load averages are recorded: the machine is shared.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_frugal.py            # writes benchmarks/results/frugal.md
    .venv/bin/python benchmarks/bench_frugal.py --quick    # short streams, a smoke test
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

C.ensure_repo_on_path()

from workbench import evaluate, learners, streams  # noqa: E402

#: stream -> (full n, quick n)
STREAMS = {"sea": (500_000, 50_000), "electricity": (None, None)}
WARMUP_ROWS = 2_000
KINDS = ("HoeffdingTree(laplace)", "FrugalHoeffdingTree(alpha=1)")
#: "no measurable cost": within what separates two runs of the same code here (bench_ab's
#: round-by-round ratios of identical code span about 0.97-1.03)
NOISE = 1.03


def load(name: str, n: int | None):
    if name == "sea":
        return streams.sea(n=n, seed=1, return_info=True)
    return streams.electricity(return_info=True)


def make(kind: str, info):
    kw = dict(n_features=info.n_features, n_classes=info.n_classes,
              nominal_features=info.nominal_features)  # fmt: skip
    if kind == KINDS[0]:
        return learners.HoeffdingTree(leaf_prediction="laplace", **kw)
    return learners.FrugalHoeffdingTree(alpha=1.0, n_initial=0, **kw)


def run_once(kind, X, y, info):
    model = make(kind, info)
    gc.collect()
    t0, w0 = time.thread_time(), time.perf_counter()
    res = evaluate.prequential(model, X, y)
    return time.thread_time() - t0, time.perf_counter() - w0, res, model


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short streams (smoke test)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--out", type=Path, default=C.RESULTS / "frugal.md")
    args = ap.parse_args(argv)
    info_m = C.machine_info(with_java=False)
    table, worst = [], 0.0
    for name, (full_n, quick_n) in STREAMS.items():
        X, y, info = load(name, quick_n if args.quick else full_n)
        for kind in KINDS:
            evaluate.prequential(make(kind, info), X[:WARMUP_ROWS], y[:WARMUP_ROWS])
        cpu = {k: [] for k in KINDS}
        wall = {k: [] for k in KINDS}
        preds, leaves = {}, {}
        for r in range(args.repeat):
            for kind in KINDS if r % 2 == 0 else KINDS[::-1]:
                c, w, res, model = run_once(kind, X, y, info)
                cpu[kind].append(c)
                wall[kind].append(w)
                preds[kind], leaves[kind] = res.predictions, model.n_leaves
        same = bool(np.array_equal(preds[KINDS[0]], preds[KINDS[1]]))
        n = len(y)
        base_c, base_w = min(cpu[KINDS[0]]), min(wall[KINDS[0]])
        for kind in KINDS:
            rc, rw = min(cpu[kind]) / base_c, min(wall[kind]) / base_w
            if kind != KINDS[0]:
                worst = max(worst, rc)
            table.append([name, kind, f"{n:,}", f"{leaves[kind]:,}", f"{min(cpu[kind]):.4f}",
                          f"{min(wall[kind]):.4f}", f"{n / min(cpu[kind]) / 1e6:.2f}",
                          f"{rc:.3f}", f"{rw:.3f}", "yes" if same else "NO"])  # fmt: skip
            print(f"{name:12s} {kind:30s} n={n:>7,} cpu {min(cpu[kind]):.4f}s ratio {rc:.3f}"
                  f" identical={same}", flush=True)  # fmt: skip
    info_m["loadavg_end"] = C.loadavg()
    verdict = "met" if worst <= NOISE else "NOT met"
    md = [
        "# Frugal Hoeffding tree (alpha = 1) throughput against HoeffdingTree(laplace)",
        "",
        f"Written by `benchmarks/bench_frugal.py`{' --quick' if args.quick else ''}.",
        "",
        *C.machine_lines(info_m),
        "",
        "Prequential (test-then-train) over the whole stream; both learners at the defaults "
        "(information gain, grace period 200, delta 1e-7, tau 0.05) with Laplace leaves; the "
        "Frugal tree with alpha = 1 and no initial set, which asks for every label. Best of "
        f"{args.repeat} interleaved rounds after a warm-up call; CPU = `time.thread_time`, wall "
        "= `time.perf_counter`. Ratio = Frugal seconds / HoeffdingTree seconds.",
        "",
        C.markdown_table(
            [
                "stream",
                "learner",
                "n",
                "leaves",
                "CPU s (best)",
                "wall s (best)",
                "M inst/s (CPU)",
                "ratio CPU",
                "ratio wall",
                "same predictions",
            ],
            table,
        ),  # fmt: skip
        "",
        f"Target (the Frugal rule adds no measurable cost: ratio within {NOISE:.2f}, the spread of "
        f"two runs of the same code here): **{verdict}**; "
        f"the largest CPU-time ratio is {worst:.3f}.",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(md))
    print(f"wrote {args.out}; target {verdict} (worst CPU ratio {worst:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
