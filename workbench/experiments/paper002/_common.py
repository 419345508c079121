"""What the paper-002 (UFFT) reproduction shares: the mode and its sizes, seeds, labels."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...viz.fast import fast_mode
from ..paper000._common import Stopwatch  # noqa: F401  (the notebook's run-time line)

RESULTS = Path(__file__).resolve().parent / "results"

#: the three versions of UFFT the paper compares (its Table 1 columns) and their settings
VERSIONS = {
    "UFFT": dict(),
    "UFFT, no drift detection": dict(drift_detection=False),
    "UFFT, no naive-Bayes splits": dict(nb_splits=False),
}
BATCH = "batch entropy tree (scikit-learn)"
COLOR = {
    "UFFT": "#d62728",
    "UFFT, no drift detection": "#ff7f0e",
    "UFFT, no naive-Bayes splits": "#2ca02c",
    BATCH: "#1f77b4",
}


@dataclass(frozen=True)
class Sizes:
    """How large every experiment of the notebook is in one mode."""

    gain_n: int  # instances drawn to compare the analytical gain with the exact one
    gain_seeds: int
    alarm_n: int  # stationary stream length for DDM's false alarms
    alarm_seeds: int
    train_sizes: tuple  # growing training sets (stationary experiment)
    test_n: int
    sea_n: int  # SEA with abrupt drifts
    sea_runs: int
    elec_window_step_days: int  # exhaustive window search: start every this many days


FAST = Sizes(
    gain_n=4000,
    gain_seeds=3,
    alarm_n=20_000,
    alarm_seeds=2,
    train_sizes=(2_000, 8_000, 20_000),
    test_n=5_000,
    sea_n=30_000,
    sea_runs=3,
    elec_window_step_days=120,
)
FULL = Sizes(
    gain_n=20_000,
    gain_seeds=10,
    alarm_n=200_000,
    alarm_seeds=5,
    train_sizes=(10_000, 50_000, 100_000, 250_000, 500_000),
    test_n=100_000,
    sea_n=60_000,
    sea_runs=30,
    elec_window_step_days=1,
)


def sizes(fast: bool | None = None) -> Sizes:
    return FAST if (fast_mode() if fast is None else fast) else FULL


def describe_mode(fast: bool | None = None) -> str:
    s = sizes(fast)
    mode = "QUICK (fast sizes)" if s is FAST else "FULL (laptop-scale reproduction)"
    return (
        f"Mode: {mode}. Stationary experiment: training sets of {list(s.train_sizes)} rows, "
        f"a test set of {s.test_n:,}. SEA: {s.sea_runs} runs of {s.sea_n:,} rows. Electricity: "
        f"training windows starting every {s.elec_window_step_days} day(s). DDM false alarms: "
        f"{s.alarm_seeds} streams of {s.alarm_n:,} rows."
    )
