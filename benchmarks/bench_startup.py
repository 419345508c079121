"""Start-up time of the learner: first use in a new environment, and later starts.

Targets: the first use compiles in at most 30 s; later starts use numba's cache and are ready in
at most 2 s.

Each measurement is a fresh Python process that imports ``workbench``, builds a HoeffdingTree,
runs ``evaluate.prequential`` on 1,000 SEA rows and predicts them.  ``NUMBA_CACHE_DIR`` points at
a new, empty temporary folder for the first ("cold") process, so numba compiles everything; the
later ("warm") processes reuse that folder and load the compiled code from it.  The figure is the
wall time from the child's first line (before any import) to the end of ``predict``; the time of
the whole process (interpreter start-up included) is recorded as well, in wall time and in CPU
time (user + system: what the start costs without the other processes' share of a busy machine),
and so is the cost of the package's check that numba's cache holds kernels compiled from the
sources that are there (``workbench._kernel_cache``: hashing the kernel sources once).

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_startup.py               # 1 cold + 3 warm starts
    .venv/bin/python benchmarks/bench_startup.py --warm 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common as C  # noqa: E402

TARGET_COLD_S = 30.0
TARGET_WARM_S = 2.0

# The child process: times measured from its very first statement.
CHILD = r"""
import time
t0 = time.perf_counter()
import json, sys
sys.path.insert(0, {root!r})
import numpy as np
import workbench
from workbench import evaluate, learners, streams
t_import = time.perf_counter()
X, y = streams.sea(1000, seed=1)
model = learners.HoeffdingTree(n_features=3, n_classes=2, grace_period=200, delta=1e-7, tau=0.05,
                               criterion="info_gain", leaf_prediction="nba", nominal_features=())
res = evaluate.prequential(model, X, y)
t_preq = time.perf_counter()
pred = model.predict(X)
t_pred = time.perf_counter()
assert pred.shape == (1000,)
from workbench import _kernel_cache
_kernel_cache._fingerprints.clear()
t_check = time.perf_counter()
_kernel_cache.sources_fingerprint()
t_check = time.perf_counter() - t_check
print("RESULT " + json.dumps({{
    "import": t_import - t0, "prequential": t_preq - t_import, "predict": t_pred - t_preq,
    "ready": t_pred - t0, "accuracy": float(res.accuracy), "cache_dir": __import__("os").environ.get("NUMBA_CACHE_DIR"),
    "sources_check": t_check,
    "heavy_modules": [m for m in ("sklearn", "scipy.stats", "pandas", "pyarrow") if m in sys.modules],
}}))
"""


def run_child(cache_dir: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    code = CHILD.format(root=str(C.ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=str(C.ROOT),
        timeout=1800,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode != 0:
        raise RuntimeError(f"child failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    out = json.loads(line[len("RESULT ") :])
    out["process_wall"] = wall
    out["process_cpu"] = (
        cpu  # user + system: what the start costs without the other processes' share
    )
    return out


def cache_size(path: Path) -> tuple[int, int]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--warm", type=int, default=3, help="number of warm starts (the median is reported)"
    )
    p.add_argument(
        "--keep-cache", action="store_true", help="do not delete the temporary numba cache"
    )
    args = p.parse_args(argv)

    meta = C.machine_info(with_java=False)
    C.TMP.mkdir(parents=True, exist_ok=True)
    cache = Path(tempfile.mkdtemp(prefix="numba_cache_", dir=C.TMP))
    try:
        print(f"cold start, empty NUMBA_CACHE_DIR={cache} ...", flush=True)
        cold = run_child(cache)
        n_files, n_bytes = cache_size(cache)
        print(
            f"  ready in {cold['ready']:.2f} s (process {cold['process_wall']:.2f} s); "
            f"cache now {n_files} files, {n_bytes / 2**20:.1f} MiB",
            flush=True,
        )
        warm = []
        for i in range(args.warm):
            r = run_child(cache)
            warm.append(r)
            print(
                f"warm start {i + 1}: ready in {r['ready']:.2f} s (process {r['process_wall']:.2f} s)",
                flush=True,
            )
    finally:
        if not args.keep_cache:
            shutil.rmtree(cache, ignore_errors=True)
    meta["loadavg_end"] = C.loadavg()

    ready = sorted(r["ready"] for r in warm)
    cpu_median = sorted(r["process_cpu"] for r in warm)[len(warm) // 2] if warm else float("nan")
    check_ms = 1e3 * sorted(r["sources_check"] for r in warm)[len(warm) // 2] if warm else 0.0
    heavy = sorted({m for r in warm for m in r["heavy_modules"]})
    warm_median = ready[len(ready) // 2] if ready else float("nan")
    ok_cold = cold["ready"] <= TARGET_COLD_S
    ok_warm = warm_median <= TARGET_WARM_S
    rows = [
        [
            "first use (empty numba cache)",
            f"{cold['ready']:.2f}",
            f"{cold['import']:.2f}",
            f"{cold['prequential']:.2f}",
            f"{cold['predict']:.2f}",
            f"{cold['process_wall']:.2f}",
            f"{cold['process_cpu']:.2f}",
            f"<= {TARGET_COLD_S:g}",
            "PASS" if ok_cold else "**MISS**",
        ]
    ]
    for i, r in enumerate(warm):
        rows.append(
            [
                f"later start {i + 1} (cache reused)",
                f"{r['ready']:.2f}",
                f"{r['import']:.2f}",
                f"{r['prequential']:.2f}",
                f"{r['predict']:.2f}",
                f"{r['process_wall']:.2f}",
                f"{r['process_cpu']:.2f}",
                f"<= {TARGET_WARM_S:g} (median)",
                "PASS" if r["ready"] <= TARGET_WARM_S else "**MISS**",
            ]
        )
    md = [
        "# Start-up time",
        "",
        "A fresh Python process imports `workbench`, builds a HoeffdingTree, runs "
        "`evaluate.prequential` on 1,000 SEA rows and predicts them. Seconds of wall time from the "
        'child\'s first statement; "process" is the whole process (interpreter start included), in wall '
        "time and in CPU time (user + system, which the other processes on a busy machine do not inflate).",
        "",
        C.markdown_table(
            [
                "start",
                "ready (s)",
                "import",
                "prequential",
                "predict",
                "process (s)",
                "process CPU (s)",
                "target (s)",
                "",
            ],
            rows,
        ),
        "",
        f"- First use: **{cold['ready']:.2f} s** ({'PASS' if ok_cold else 'MISS'}, target <= {TARGET_COLD_S:g} s); "
        f"later starts, median of {len(warm)}: **{warm_median:.2f} s** "
        f"({'PASS' if ok_warm else 'MISS'}, target <= {TARGET_WARM_S:g} s).",
        f"- numba cache written by the first use: {n_files} files, {n_bytes / 2**20:.1f} MiB.",
        f"- Later starts: median CPU time of the whole process {cpu_median:.2f} s; the check that "
        f"the cached kernels were compiled from the sources that are there (a SHA-256 of the "
        f"kernel sources, once per process) took {check_ms:.1f} ms (median); scikit-learn, "
        f"scipy.stats, pandas and pyarrow were "
        + ("not imported." if not heavy else f"imported: {heavy}."),
    ] + C.machine_lines(meta)
    data = {
        "machine": meta,
        "cold": cold,
        "warm": warm,
        "cold_seconds": cold["ready"],
        "warm_seconds": warm_median,
        "cache_files": n_files,
        "cache_bytes": n_bytes,
        "targets": {"cold_s": TARGET_COLD_S, "warm_s": TARGET_WARM_S},
        "ok": {"cold": ok_cold, "warm": ok_warm},
    }
    md_path, json_path = C.write_results("startup", "\n".join(md), data)
    print()
    print("\n".join(md))
    print(f"written: {md_path.relative_to(C.ROOT)} and {json_path.relative_to(C.ROOT)}")
    if C.update_readme_block("startup", "\n".join(md)):
        print(f"updated: {C.README.relative_to(C.ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
