#!/usr/bin/env python3
"""Throughput of the Frugal Hoeffding tree (paper 003) at alpha = 1 against
HoeffdingTree(leaf_prediction="laplace").

With Laplace leaves the margin p1 - p2 is below 1, so ``FrugalHoeffdingTree(alpha=1,
n_initial=0)`` asks for every label and grows the identical tree (the script checks that the
predictions agree).  It runs the engine's ACTIVE variant of the loop (class probabilities for
every row, the query step), the Hoeffding tree the FULL variant; the ratio is what the Frugal
rule's machinery costs when it saves nothing.

Timing: ``--processes`` fresh processes (default 5), one after the other, each loading the
kernels from numba's cache into pages of its own; in each, a warm-up call on the first 2,000
rows and an untimed full pass per learner, then its share of ``--repeat`` rounds, each running
every learner once on a fresh model, in an order that rotates from round to round (so that a
change in the machine's load hits all alike).  Kept: the best CPU time of the calling thread
(``time.thread_time``) and the best wall time, and each round's ratio to that round's
HoeffdingTree run (a paired ratio: the two runs are seconds apart).  Why several processes:
the speed of a kernel goes with where its copy of machine code lands in physical memory, a
draw per process and per kernel that moved the same loop by 12-75% (``benchmarks/README.md``,
"the slow mode goes with a copy of the code"); the Frugal tree and the Hoeffding tree run
different kernels, so within one process their ratio is the ratio of two draws, and the
ratio's median over the rounds of several processes is the ratio of the kernels.

Target (issue 28): at most 1.05x on SEA, by the median paired ratio; the rule's per-row decision
is accepted to cost a few percent.  The foundation's stricter "no measurable cost" is still put
to a test, and reported.  A control, a second HoeffdingTree(laplace) timed like the
others, gives the paired ratios of identical work; the Frugal tree's cost is measurable if its
paired ratios lie above the control's by a one-sided Mann-Whitney U test at the 1% level
(scipy).  The table gives both medians and their interquartile ranges, and each process's
median paired ratio of the Frugal tree.

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
from scipy.stats import mannwhitneyu

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

C.ensure_repo_on_path()

from workbench import evaluate, learners, streams  # noqa: E402

#: stream -> (full n, quick n)
STREAMS = {"sea": (500_000, 50_000), "electricity": (None, None)}
WARMUP_ROWS = 2_000
#: the baseline, the control (the same learner again) and the learner under test
KINDS = ("HoeffdingTree(laplace)", "HoeffdingTree(laplace), again", "FrugalHoeffdingTree(alpha=1)")
#: significance level of the test "the Frugal tree's paired ratios lie above the control's"
LEVEL = 0.01
MAX_SEA_RATIO = 1.05


def load(name: str, n: int | None):
    if name == "sea":
        return streams.sea(n=n, seed=1, return_info=True)
    return streams.electricity(return_info=True)


def make(kind: str, info):
    kw = dict(n_features=info.n_features, n_classes=info.n_classes,
              nominal_features=info.nominal_features)  # fmt: skip
    if kind != KINDS[-1]:
        return learners.HoeffdingTree(leaf_prediction="laplace", **kw)
    return learners.FrugalHoeffdingTree(alpha=1.0, n_initial=0, **kw)


def run_once(kind, X, y, info):
    model = make(kind, info)
    gc.collect()
    t0, w0 = time.thread_time(), time.perf_counter()
    res = evaluate.prequential(model, X, y)
    return time.thread_time() - t0, time.perf_counter() - w0, res, model


def measure(name: str, n: int | None, rounds: int, first: int) -> dict:
    """In this process: warm up, then ``rounds`` rounds (the order rotating, starting at round
    ``first``); the CPU and wall seconds of every run by learner, whether the Frugal tree
    predicted as the Hoeffding tree, and the trees' leaves."""
    X, y, info = load(name, n)
    for kind in KINDS:
        evaluate.prequential(make(kind, info), X[:WARMUP_ROWS], y[:WARMUP_ROWS])
        run_once(kind, X, y, info)  # untimed: a first full pass loads what the short call did not
    cpu = {k: [] for k in KINDS}
    wall = {k: [] for k in KINDS}
    preds, leaves = {}, {}
    for r in range(first, first + rounds):
        shift = r % len(KINDS)
        for kind in KINDS[shift:] + KINDS[:shift]:
            c, w, res, model = run_once(kind, X, y, info)
            cpu[kind].append(c)
            wall[kind].append(w)
            preds[kind], leaves[kind] = res.predictions, model.n_leaves
    same = bool(np.array_equal(preds[KINDS[0]], preds[KINDS[-1]]))
    return {"cpu": cpu, "wall": wall, "same": same, "leaves": leaves, "n": len(y)}


def measure_in_processes(name: str, n: int | None, repeat: int, processes: int) -> list[dict]:
    """:func:`measure` in ``processes`` fresh processes, one after the other (in this process
    with 0), the ``repeat`` rounds shared among them."""
    if processes <= 0:
        return [measure(name, n, repeat, 0)]
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    share = [repeat // processes + (i < repeat % processes) for i in range(processes)]
    share = [rounds for rounds in share if rounds]  # (more processes than rounds: one each)
    out, first = [], 0
    for rounds in share:
        with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
            out.append(pool.submit(measure, name, n, rounds, first).result())
        first += rounds
    return out


def quartiles(a) -> str:
    q1, q2, q3 = np.percentile(a, [25, 50, 75])
    return f"{q2:.3f} ({q1:.3f}-{q3:.3f})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short streams (smoke test)")
    ap.add_argument("--repeat", type=int, default=25, help="rounds in all")
    ap.add_argument(
        "--processes",
        type=int,
        default=5,
        help="fresh processes the rounds are shared among, one after the other (0: this one)",
    )
    ap.add_argument("--out", type=Path, default=C.RESULTS / "frugal.md")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    C.precompile()  # the kernels, compiled under the fixed hash seed before any timing
    info_m = C.machine_info(with_java=False)
    table, verdicts, ratios, by_process = [], [], {}, {}
    base, control, frugal = KINDS
    for name, (full_n, quick_n) in STREAMS.items():
        parts = measure_in_processes(
            name, quick_n if args.quick else full_n, args.repeat, args.processes
        )
        cpu = {k: [c for part in parts for c in part["cpu"][k]] for k in KINDS}
        wall = {k: [w for part in parts for w in part["wall"][k]] for k in KINDS}
        same = all(part["same"] for part in parts)
        leaves, n = parts[0]["leaves"], parts[0]["n"]
        paired = {k: np.array(cpu[k]) / np.array(cpu[base]) for k in KINDS}
        per_process = [
            float(np.median(np.array(part["cpu"][frugal]) / np.array(part["cpu"][base])))
            for part in parts
        ]
        by_process[name] = per_process
        p_value = mannwhitneyu(paired[frugal], paired[control], alternative="greater").pvalue
        excess = float(np.median(paired[frugal]) - np.median(paired[control]))
        verdicts.append((name, p_value, excess))
        ratios[name] = float(np.median(paired[frugal]))
        base_c, base_w = min(cpu[base]), min(wall[base])
        for kind in KINDS:
            rc, rw = min(cpu[kind]) / base_c, min(wall[kind]) / base_w
            pair = "" if kind == base else quartiles(paired[kind])
            table.append([name, kind, f"{n:,}", f"{leaves[kind]:,}", f"{min(cpu[kind]):.4f}",
                          f"{min(wall[kind]):.4f}", f"{n / min(cpu[kind]) / 1e6:.2f}",
                          f"{rc:.3f}", f"{rw:.3f}", pair])  # fmt: skip
            print(f"{name:12s} {kind:30s} n={n:>7,} cpu {min(cpu[kind]):.4f}s best/best {rc:.3f}"
                  f" paired {pair}", flush=True)  # fmt: skip
        print(
            f"{name:12s} Frugal above the control by {excess:+.3f} (median paired ratio), "
            f"one-sided Mann-Whitney p = {p_value:.2g}; identical predictions: {same}; "
            f"by process {', '.join(f'{r:.3f}' for r in per_process)}"
        )
        if not same:
            raise SystemExit(f"{name}: the Frugal tree at alpha = 1 predicted differently")
    info_m["loadavg_end"] = C.loadavg()
    # issue 28: the rule's per-row decision costs 2-7% against the Hoeffding tree, accepted as
    # its price; the target is the median paired ratio on SEA at most MAX_SEA_RATIO
    verdict = "met" if ratios.get("sea", np.inf) <= MAX_SEA_RATIO else "NOT met"
    findings = "; ".join(
        f"{name}: {excess:+.3f} above the control, p = {p:.2g}" for name, p, excess in verdicts
    )
    md = [
        "# Frugal Hoeffding tree (alpha = 1) throughput against HoeffdingTree(laplace)",
        "",
        f"Written by `benchmarks/bench_frugal.py`{' --quick' if args.quick else ''}.",
        "",
        *C.machine_lines(info_m),
        "",
        "Prequential (test-then-train) over the whole stream; all learners at the defaults "
        "(information gain, grace period 200, delta 1e-7, tau 0.05) with Laplace leaves; the "
        "Frugal tree with alpha = 1 and no initial set, which asks for every label and predicts "
        "exactly as the Hoeffding tree (checked). The control is a second HoeffdingTree(laplace), "
        f"timed like the others. {args.repeat} rounds shared among {max(args.processes, 1)} "
        "fresh process(es) run one after the other, each after a warm-up call and an untimed full "
        "pass per learner, the order rotating from round to round (several processes: each "
        "process's copy of a kernel's machine code is a draw of its speed, and the two learners "
        "run different kernels); CPU = `time.thread_time`, wall = `time.perf_counter`. Best/best = "
        "best seconds / the Hoeffding tree's best seconds; paired = each round's seconds / that "
        "round's Hoeffding tree seconds: median (interquartile range).",
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
                "best/best CPU",
                "best/best wall",
                "paired CPU ratio",
            ],
            table,
        ),  # fmt: skip
        "",
        f"Target (issue 28): the Frugal tree at most {MAX_SEA_RATIO:g}x the Hoeffding tree on "
        f"SEA (median paired CPU ratio): **{verdict}** (SEA {ratios.get('sea', np.nan):.3f}, "
        f"Electricity {ratios.get('electricity', np.nan):.3f}). The cost measured against the control "
        f"(one-sided Mann-Whitney U at the {LEVEL:g} level, the foundation's stricter target of "
        f"no measurable cost, which issue 28 set aside as the rule's real price): {findings}.",
        "",
        "The Frugal tree's median paired CPU ratio in each process, in the order they ran: "
        + "; ".join(
            f"{name} {', '.join(f'{r:.3f}' for r in rs)}" for name, rs in by_process.items()
        )
        + ".",
        "",
    ]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(md))
    print(f"wrote {args.out}; target {verdict} ({findings})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
