"""Constant memory: 10 million SEA instances through ``partial_fit`` in chunks.

Target: resident memory grows by less than 50 MB once the tree has stopped growing.

One HoeffdingTree (grace period 200, delta 1e-7, tau 0.05, information gain, adaptive naive Bayes)
learns SEA in chunks of 100,000 rows; chunk ``i`` is ``streams.sea(100_000, seed=seed + i)``, so
the stream is never held in memory whole.  After each chunk the script records the number of
leaves and the resident set size (VmRSS from /proc/self/status).  Compilation happens before the
baseline: a throw-away model first learns and predicts one small chunk.

Reported: RSS growth over the whole run (from the baseline after compilation), and growth from
the chunk after which the number of leaves no longer changed (the tree "stopped growing") to the
end (the highest later RSS minus RSS at that chunk).  If the tree is still growing at the end, that
is said plainly; the spread of RSS over the whole run (max - min after the first chunk) then bounds
the growth after any point, and the growth over the second half per added leaf is shown.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_memory.py                       # 10M rows, chunks of 100k
    .venv/bin/python benchmarks/bench_memory.py --n 1000000           # shorter
    .venv/bin/python benchmarks/bench_memory.py --capped-depth 0      # only the unbounded tree
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

C.ensure_repo_on_path()

TARGET_MB = 50.0
MB = 1e6 / 2**20  # the target is in MB (10^6 bytes); rss_mib() is in MiB


def measure(fresh, args, streams, label):
    """Feed ``args.n`` SEA rows in chunks to one fresh model; RSS and leaves after each chunk."""
    gc.collect()
    model = fresh()
    baseline = C.rss_mib()
    print(f"{label}: baseline RSS {baseline:.1f} MiB", flush=True)
    rows = []
    n_chunks = -(-args.n // args.chunk)
    t_start = time.perf_counter()
    learn_seconds = 0.0
    for i in range(n_chunks):
        m = min(args.chunk, args.n - i * args.chunk)
        X, y = streams.sea(m, seed=args.seed + i)
        t0 = time.perf_counter()
        model.partial_fit(X, y)
        learn_seconds += time.perf_counter() - t0
        del X, y
        gc.collect()
        rss = C.rss_mib()
        rows.append(
            {
                "chunk": i + 1,
                "n_seen": (i * args.chunk) + m,
                "n_leaves": int(model.n_leaves),
                "rss_mib": rss,
            }
        )
        if (i + 1) % max(1, n_chunks // 10) == 0 or i + 1 == n_chunks:
            print(
                f"  {rows[-1]['n_seen']:>11,} rows  leaves {rows[-1]['n_leaves']:>6}  "
                f"RSS {rss:8.1f} MiB  (+{rss - baseline:6.1f})",
                flush=True,
            )
    wall = time.perf_counter() - t_start

    leaves = [r["n_leaves"] for r in rows]
    last = len(rows) - 1
    stable_from = last
    while stable_from > 0 and leaves[stable_from - 1] == leaves[last]:
        stable_from -= 1
    # the tree "stopped growing" only if the leaf count was flat for at least a tenth of the run
    stopped = (last - stable_from) >= max(1, len(rows) // 10)
    total_growth_mb = (rows[-1]["rss_mib"] - baseline) / MB
    first_chunk_growth_mb = (rows[-1]["rss_mib"] - rows[0]["rss_mib"]) / MB
    mid = len(rows) // 2
    half_growth_mb = (rows[-1]["rss_mib"] - rows[mid]["rss_mib"]) / MB
    half_leaves = leaves[-1] - leaves[mid]
    per_leaf_kb = (half_growth_mb * 1000 / half_leaves) if half_leaves > 0 else None
    rss = [r["rss_mib"] for r in rows]
    # growth after chunk k = the highest RSS seen later minus RSS at k (RSS need not be monotone)
    growth_after_stable_mb = (max(rss[stable_from:]) - rss[stable_from]) / MB if stopped else None
    # with no stop, the spread of RSS over the whole run (after the first chunk) bounds the growth
    # after any point the tree might have stopped at
    spread_mb = (max(rss) - min(rss)) / MB
    model_bytes = int(model.memory_bytes())

    if stopped:
        ok = growth_after_stable_mb < TARGET_MB
        verdict = (
            f"{'PASS' if ok else '**MISS**'}: RSS grew **{growth_after_stable_mb:.2f} MB** after "
            f"the tree stopped growing (leaves constant at {leaves[-1]} from row "
            f"{rows[stable_from]['n_seen']:,} to the end, {rows[-1]['n_seen'] - rows[stable_from]['n_seen']:,} "
            f"rows); target < {TARGET_MB:g} MB."
        )
    else:
        ok = spread_mb < TARGET_MB
        verdict = (
            f"{'PASS (by a bound)' if ok else '**NOT SHOWN**'}: the tree was still growing at the end "
            f"({leaves[mid]} leaves at row {rows[mid]['n_seen']:,}, "
            f"{leaves[-1]} at row {rows[-1]['n_seen']:,}), "
            f'so it never "stopped growing" on this run. RSS stayed within **{spread_mb:.1f} MB** over '
            f"the whole run (max - min after the first chunk), which bounds the growth after any point "
            f"(target < {TARGET_MB:g} MB). Over the second half RSS grew {half_growth_mb:.1f} MB for "
            f"{half_leaves} new leaves"
            + (f" ({per_leaf_kb:.2f} kB per leaf)." if per_leaf_kb is not None else ".")
        )

    # a compact table: 20 evenly spaced chunks
    step = max(1, len(rows) // 20)
    picked = rows[step - 1 :: step]
    if picked[-1] is not rows[-1]:
        picked.append(rows[-1])
    table = C.markdown_table(
        ["rows seen", "leaves", "RSS (MiB)", "growth since baseline (MB)"],
        [
            [
                f"{r['n_seen']:,}",
                r["n_leaves"],
                f"{r['rss_mib']:.1f}",
                f"{(r['rss_mib'] - baseline) / MB:+.1f}",
            ]
            for r in picked
        ],
    )
    lines = [
        f"- {verdict}",
        f"- Total RSS growth from the baseline ({baseline:.1f} MiB): {total_growth_mb:.1f} MB "
        f"(from the end of the first chunk: {first_chunk_growth_mb:.1f} MB); final tree {leaves[-1]} "
        f"leaves, model's own estimate {model_bytes / 1e6:.1f} MB.",
        f"- Learning time {learn_seconds:.1f} s ({args.n / learn_seconds:,.0f} rows/s in `partial_fit`), "
        f"whole run {wall:.1f} s.",
        "",
        table,
    ]
    data = {
        "baseline_rss_mib": baseline,
        "rows": rows,
        "stable_from_row": rows[stable_from]["n_seen"] if stopped else None,
        "tree_stopped_growing": stopped,
        "growth_after_stable_mb": growth_after_stable_mb,
        "total_growth_mb": total_growth_mb,
        "rss_spread_mb": spread_mb,
        "second_half_growth_mb": half_growth_mb,
        "second_half_new_leaves": half_leaves,
        "model_bytes": model_bytes,
        "learn_seconds": learn_seconds,
        "ok": ok,
    }
    return lines, data


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=10_000_000, help="instances in total")
    p.add_argument("--chunk", type=int, default=100_000, help="rows per partial_fit call")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--capped-depth",
        type=int,
        default=6,
        help="max_depth of the second run, whose tree stops growing (0: skip that run)",
    )
    p.add_argument("--out", default="memory", help="result file stem under benchmarks/results/")
    args = p.parse_args(argv)

    from workbench import learners, streams

    def factory(max_depth=None):
        return lambda: learners.HoeffdingTree(
            n_features=3,
            n_classes=2,
            grace_period=200,
            delta=1e-7,
            tau=0.05,
            criterion="info_gain",
            leaf_prediction="nba",
            nominal_features=(),
            max_depth=max_depth,
        )

    meta = C.machine_info(with_java=False)
    # compile (or load numba's cache) before the baselines
    Xw, yw = streams.sea(args.chunk, seed=args.seed + 10**6)
    warm = factory()()
    warm.partial_fit(Xw, yw)
    warm.predict(Xw[:10])
    del warm, Xw, yw

    free_lines, data = measure(factory(), args, streams, "unbounded tree")
    capped_lines, capped = [], None
    if args.capped_depth > 0:
        capped_lines, capped = measure(
            factory(args.capped_depth), args, streams, f"max_depth={args.capped_depth}"
        )
    meta["loadavg_end"] = C.loadavg()

    md = (
        [
            "# Memory: SEA through `partial_fit` in chunks",
            "",
            f"{args.n:,} SEA rows, chunks of {args.chunk:,} "
            f"(chunk i = `streams.sea({args.chunk}, seed={args.seed}+i)`), "
            "one HoeffdingTree (grace 200, delta 1e-7, tau 0.05, info gain, NBA leaves). RSS = VmRSS after each "
            "chunk; each run's baseline is taken just before it, after compiling on a throw-away model.",
            "",
        ]
        + C.machine_lines(meta)
        + [
            "",
            "## The tree as the benchmark configures it (no depth limit)",
            "",
            "SEA has 10% label noise, and with these parameters the tree keeps splitting for the whole "
            "run, so it never stops growing; the spread of RSS over the run bounds the growth after any "
            "point.",
            "",
        ]
        + free_lines
    )
    if capped is not None:
        md += [
            "",
            f"## The same stream with `max_depth={args.capped_depth}`: a tree that stops growing",
            "",
            "The depth guard stops the tree at a fixed size; what RSS does after that is the "
            "target's literal case.",
            "",
        ] + capped_lines
    data.update({"machine": meta, "args": vars(args), "target_mb": TARGET_MB, "capped": capped})
    data["ok"] = data["ok"] and (capped is None or capped["ok"])
    md_path, json_path = C.write_results(args.out, "\n".join(md), data)
    print()
    print("\n".join(md))
    print(f"written: {md_path.relative_to(C.ROOT)} and {json_path.relative_to(C.ROOT)}")
    if (
        args.out == "memory"
        and args.n == 10_000_000
        and args.chunk == 100_000
        and C.update_readme_block("memory", "\n".join(md))
    ):
        print(f"updated: {C.README.relative_to(C.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
