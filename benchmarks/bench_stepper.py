"""Timings of the stepper (workbench.viz.TreeStepper): one step with its redraw, and a long step.

Targets (the stepper issue): one step redraws the view in under 100 ms; stepping 10,000
instances at once takes under 1 s (learning in numba, only the final state drawn).

What is timed is the kernel side of a click, with the panel built (ipywidgets outside a kernel:
setting the widgets' values, no browser): learn (``explain_one``, ``learn_one``,
``explain_one``; or one prequential kernel call for a long step), then the redraw (DOT source of
the tree, the instance panel, the two SVG charts, and the split chart's replay when the leaf
reached is new to the chart).  The browser then lays the DOT out with Graphviz in WebAssembly;
the click-to-readout times of the last browser test run (test-artifacts/) are quoted when present.

Usage (from the repository root)::

    .venv/bin/python benchmarks/bench_stepper.py            # writes benchmarks/results/stepper.md
    .venv/bin/python benchmarks/bench_stepper.py --quick    # fewer repetitions, prints only
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from _common import (
    ROOT,
    RESULTS,
    ensure_repo_on_path,
    loadavg,
    machine_info,
    machine_lines,
    markdown_table,
)

ensure_repo_on_path()

from workbench import learners, streams, viz  # noqa: E402

STEP_TARGET_MS = 100.0
JUMP_TARGET_S = 1.0


def _streams():
    X, y = streams.sea(n=50_000, seed=1)
    yield "SEA (50,000)", X, y, lambda **p: learners.HoeffdingTree(3, 2, **p)
    Xe, ye, info = streams.electricity(return_info=True)
    yield (
        "Electricity (45,312)",
        Xe,
        ye,
        lambda **p: learners.HoeffdingTree(
            Xe.shape[1], 2, feature_names=info.feature_names, class_names=["down", "up"], **p
        ),
    )


def _single_steps(s, positions, n_steps):
    """Time n_steps single steps after each position; returns (total ms, draw ms) arrays."""
    total, draw = [], []
    for p in positions:
        s.run_to(p)
        for _ in range(n_steps):
            start = time.perf_counter()
            s.step()
            total.append((time.perf_counter() - start) * 1e3)
            draw.append(s.timings["draw_ms"])
    return np.array(total), np.array(draw)


def _jumps(s, starts, k, repeat):
    out = []
    for p in starts:
        for _ in range(repeat):
            s.run_to(p)
            start = time.perf_counter()
            s.step(k)
            out.append(time.perf_counter() - start)
    return np.array(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions; print only")
    args = ap.parse_args(argv)
    n_steps = 50 if args.quick else 200
    repeat = 1 if args.quick else 3
    info = machine_info(with_java=False)
    rows, data = [], {"machine": info, "streams": {}}
    for name, X, y, make in _streams():
        s = viz.TreeStepper(make, X, y, k=100)
        _ = s.widget  # build the panel: redraws are timed too
        s.step()
        s.step(100)  # load every kernel once
        n = X.shape[0]
        positions = [0, n // 2, n - 2 * n_steps]
        total, draw = _single_steps(s, positions, n_steps)
        jumps = _jumps(s, [0, n // 2 - 10_000], 10_000, repeat)
        s.run_to(n - 1_000)
        start = time.perf_counter()
        s.set_params(delta=1e-3)
        replay = time.perf_counter() - start
        leaves = s.model.n_leaves
        data["streams"][name] = {
            "single_step_ms": {
                "median": float(np.median(total)),
                "p95": float(np.percentile(total, 95)),
                "max": float(total.max()),
                "n": int(total.size),
            },
            "draw_ms_median": float(np.median(draw)),
            "step_10k_s": {
                "median": float(np.median(jumps)),
                "max": float(jumps.max()),
                "n": int(jumps.size),
            },
            "replay_s": replay,
            "leaves_at_end": leaves,
        }
        rows.append(
            [
                name,
                f"{np.median(total):.1f}",
                f"{np.percentile(total, 95):.1f}",
                f"{total.max():.1f}",
                f"{np.median(draw):.1f}",
                f"{np.median(jumps) * 1e3:.0f}",
                f"{jumps.max() * 1e3:.0f}",
                f"{replay * 1e3:.0f}",
                str(leaves),
            ]
        )
        print(name, rows[-1][1:], flush=True)
    info["loadavg_end"] = loadavg()
    worst_step = max(d["single_step_ms"]["p95"] for d in data["streams"].values())
    worst_jump = max(d["step_10k_s"]["max"] for d in data["streams"].values())
    lines = [
        "# Stepper timings",
        "",
        "Kernel-side time of one click with the panel built (learn + redraw), from "
        "`benchmarks/bench_stepper.py`; default Hoeffding tree (grace 200, delta 1e-7, "
        "tau 0.05), `max_nodes=60`. Single steps: "
        f"{n_steps} after each of the start, the middle and the end of the stream (they "
        "include the split chart's replay whenever the leaf reached is new to it). "
        f"10,000-instance steps: from the start and from the middle, {repeat} each. "
        "Replay: a change of delta near the end of the stream (rebuild + replay + redraw).",
        "",
        *machine_lines(info),
        "",
        markdown_table(
            [
                "stream",
                "step median ms",
                "step p95 ms",
                "step max ms",
                "of it redraw (median) ms",
                "10k step median ms",
                "10k step max ms",
                "replay ms",
                "leaves at end",
            ],
            rows,
        ),
        "",
        f"- One step under {STEP_TARGET_MS:.0f} ms (p95 over both streams: "
        f"{worst_step:.1f} ms): **{'PASS' if worst_step < STEP_TARGET_MS else 'MISS'}**",
        f"- 10,000 instances at once under {JUMP_TARGET_S:.0f} s (slowest: "
        f"{worst_jump * 1e3:.0f} ms): **{'PASS' if worst_jump < JUMP_TARGET_S else 'MISS'}**",
    ]
    browser = ROOT / "test-artifacts" / "browser-step-ms.json"
    if browser.exists():
        clicks = json.loads(browser.read_text())
        readout = clicks.get("step1_click_to_readout_ms", [])
        settled = clicks.get("step1_click_to_last_change_ms", [])
        if readout:
            stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(browser.stat().st_mtime))
            lines += [
                "",
                f"In the browser (`tests/test_browser.py`, run {stamp}: JupyterLab and "
                "headless Chromium on the same machine, the SEA stepper of the tour), "
                "timed with the page's clock from the click on *step 1*: until the "
                "readout shows the new position "
                + ", ".join(f"{v:.0f}" for v in readout)
                + " ms; until the last change "
                "of the whole panel, tree included (no further change for 300 ms after "
                "it) " + ", ".join(f"{v:.0f}" for v in settled) + " ms.",
            ]
    markdown = "\n".join(lines) + "\n"
    print(markdown)
    if not args.quick:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "stepper.md").write_text(markdown)
    return 0 if worst_step < STEP_TARGET_MS and worst_jump < JUMP_TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
