"""What the paper-002 (UFFT) reproduction shares: the mode and its sizes, labels, colours."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...viz.fast import fast_mode
from ..paper000._common import Stopwatch  # noqa: F401  (the notebook's run-time line)

RESULTS = Path(__file__).resolve().parent / "results"

#: the batch baseline's label (a stand-in for 002's pruned batch tree: see ``verdicts``)
BATCH = "batch tree (cost-complexity pruned)"
COLOR = {
    "UFFT": "#d62728",
    "UFFT, no drift detection": "#ff7f0e",
    "UFFT, no naive-Bayes splits": "#2ca02c",
    "UFFT, majority-class leaves": "#9467bd",
    "UFFT, no VFDT tie-break (tau = 0)": "#8c564b",
    BATCH: "#1f77b4",
}


@dataclass(frozen=True)
class Sizes:
    """How large the illustrations of sections 1-3 are in one mode (the experiments of
    sections 5-7 are the claims run: :mod:`.verdicts`)."""

    gain_n: int  # instances drawn to compare the analytical gain with the exact one
    gain_seeds: int
    nodes_n: int  # training rows of the split-kind table (section 2)
    alarm_n: int  # stationary stream length for DDM's false alarms
    alarm_seeds: int


FAST = Sizes(gain_n=4000, gain_seeds=3, nodes_n=20_000, alarm_n=20_000, alarm_seeds=2)
FULL = Sizes(gain_n=20_000, gain_seeds=10, nodes_n=100_000, alarm_n=100_000, alarm_seeds=5)


def sizes(fast: bool | None = None) -> Sizes:
    return FAST if (fast_mode() if fast is None else fast) else FULL
