"""Benchmark of the split audit (issue 56): ``montecarlo.audit_splits`` over many RandCBT seeds.

Target (issue 56): an audit of 20 seeds of 100,000 RandCBT rows for one configuration runs in
under a minute on this machine with a warm cache (numba's kernels compiled before, by
``workbench.precompile`` and a first run).

What is timed: one call of ``audit_splits({"vfdt": HoeffdingTree(delta=0.05, tau=0)},
"rand_cbt", seeds=range(20), stream_kwargs=dict(n=100_000, n_leaves=10, d=5, q=0.8))`` with the
default backend (local worker processes, one per core), wall clock: the workers' start-up, each
seed's stream, the prequential run, the audit of every split against the exact law, the
intervals.  An untimed call on two seeds first warms numba's cache.  The same call with
``backend="serial"`` (every seed in this process) is timed too, and the seconds the audit
itself took (inside the workers, ``audit_seconds``) are reported apart from the learning.

    .venv/bin/python benchmarks/bench_audit.py             # about a minute on 2 cores
    .venv/bin/python benchmarks/bench_audit.py --seeds 200 # the issue's 200 trees, no target
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import RESULTS, TMP, ensure_repo_on_path, loadavg, machine_info  # noqa: E402

ensure_repo_on_path()
from workbench import learners  # noqa: E402
from workbench import montecarlo as mc  # noqa: E402

TARGET_SECONDS = 60.0


def run(seeds, n, backend=None):
    t0 = time.perf_counter()
    table, per = mc.audit_splits(
        {"vfdt": learners.HoeffdingTree(delta=0.05, tau=0.0)},
        "rand_cbt",
        seeds=seeds,
        stream_kwargs=dict(n=n, n_leaves=10, d=5, q=0.8),
        backend=backend,
        per_tree=True,
    )
    return table, per, time.perf_counter() - t0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=20, help="trees (default 20)")
    ap.add_argument("--n", type=int, default=100_000, help="rows per stream (default 100,000)")
    ap.add_argument("--no-serial", action="store_true", help="skip the serial run")
    ap.add_argument("--out", type=Path, default=None, help="Markdown file to write")
    args = ap.parse_args(argv)
    quick = args.seeds != 20 or args.n != 100_000
    out = args.out or (TMP / "audit_custom.md" if quick else RESULTS / "audit.md")
    info = machine_info(with_java=False)
    print(f"bench_audit: {args.seeds} seeds of {args.n:,} rows; load {info['loadavg_start']}")
    run(range(1000, 1002), 20_000, backend="serial")  # warm numba's cache, untimed
    table, per, wall = run(range(args.seeds), args.n)
    load_local = loadavg()
    print(f"  local processes: {wall:.1f} s, load {load_local}", flush=True)
    serial = None
    if not args.no_serial:
        _t, per_s, wall_s = run(range(args.seeds), args.n, backend="serial")
        serial = (wall_s, loadavg())
        print(f"  serial: {wall_s:.1f} s, load {serial[1]}", flush=True)
    row = table.iloc[0]
    audit_s = per_s["audit_seconds"].sum() if serial else float("nan")
    lines = [
        "# The split audit: 20 RandCBT trees of 100,000 rows",
        "",
        f"Written by `benchmarks/bench_audit.py` on {info['date']}; {info['cpu']}, "
        f"{info['nproc']} cores; numpy {info['numpy']}, numba {info['numba']}.",
        "",
        f"HoeffdingTree(delta=0.05, tau=0) on `rand_cbt(n={args.n:,}, n_leaves=10, d=5, "
        f"q=0.8)`, seeds 0..{args.seeds - 1}, warm cache.",
        "",
        "| backend | wall seconds | load (1, 5, 15 min) after |",
        "| --- | --- | --- |",
        f"| local processes | {wall:.1f} | {load_local} |",
    ]
    if serial:
        lines.append(f"| serial | {serial[0]:.1f} | {serial[1]} |")
    lines += [
        "",
        f"Target: under {TARGET_SECONDS:.0f} s with the default (local) backend: "
        + ("**met**" if wall < TARGET_SECONDS else "**missed**")
        + (" (not the target's size)" if quick else "")
        + f".  Load at the start {info['loadavg_start']}.",
        "",
        f"The audit itself (every split against the exact law), summed over the serial run's "
        f"trees: {audit_s:.2f} s; the rest is the streams and the learning.",
        "",
        "| trees | splits | wrong | per split (95 % interval) | trees with a wrong split "
        "(95 % interval) | mean leaves |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| {row.trees} | {row.splits} | {row.wrong} | {row.split_rate:.3f} "
        f"({row.split_low:.3f}-{row.split_high:.3f}) | {row.tree_rate:.3f} "
        f"({row.tree_low:.3f}-{row.tree_high:.3f}) | {row.leaves:.1f} |",
        "",
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    print(f"wrote {out}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
