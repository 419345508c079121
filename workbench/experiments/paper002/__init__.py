r"""Paper 002 (Gama, Medas and Rocha, *Learning decision trees from dynamic data streams*:
Ultra Fast Forest Trees): the runners and plots behind ``notebooks/03_ultra_fast_forest_trees``.

Every runner returns a ``pandas.DataFrame``; sections 1-3 take their sizes from the mode
(:func:`sizes`), sections 5-7 are one claims run (:func:`claims`).

=================================  ==========================================================
1. the analytical split            :func:`analytic_from_sample`, :func:`normality_table`,
                                   :func:`plot_split`, :func:`split_widget`
2. expansion test, functional      :func:`epsilon_table`, :func:`functional_nodes`
   nodes
3. DDM at inner nodes              :func:`ddm_trace`, :func:`plot_ddm_trace`,
                                   :func:`false_alarms`
4. the stepper                     :func:`forest_stepper_demo`
5.-7. Tables 1 and 2, the claims   :func:`claims` (the table; per-seed results in its
                                   ``attrs``), :func:`stationary_frame`,
                                   :func:`plot_stationary`, :func:`sea_frame`,
                                   :func:`electricity_frame`, :func:`choices`,
                                   :func:`tuning`; stored runs :func:`store_claims`,
                                   :func:`stored_claims`
=================================  ==========================================================
"""

from __future__ import annotations

from ._common import BATCH, COLOR, FAST, FULL, Sizes, Stopwatch, sizes
from .analytic_split import (
    analytic_from_sample,
    draw_attribute,
    gain_of_table,
    normality_table,
    plot_split,
    split_widget,
)
from .nodes import (
    ddm_trace,
    epsilon_table,
    false_alarms,
    functional_nodes,
    plot_ddm_trace,
    stationary_stream,
)
from .plots import plot_stationary
from .stepper import forest_stepper_demo
from .verdicts import (
    describe_mode,
    FULL as CLAIMS_FULL,
    QUICK as CLAIMS_QUICK,
    batch_tree,
    choices,
    choices_spec,
    claim_sizes,
    claims,
    describe_claims_mode,
    electricity_frame,
    sea_frame,
    spec,
    stationary_frame,
    store_claims,
    stored_claims,
    tune_batch,
    tuning,
    window_lengths,
)

__all__ = [
    "BATCH",
    "COLOR",
    "FAST",
    "FULL",
    "Sizes",
    "Stopwatch",
    "describe_mode",
    "sizes",
    "analytic_from_sample",
    "draw_attribute",
    "gain_of_table",
    "normality_table",
    "plot_split",
    "split_widget",
    "ddm_trace",
    "epsilon_table",
    "false_alarms",
    "functional_nodes",
    "plot_ddm_trace",
    "stationary_stream",
    "plot_stationary",
    "forest_stepper_demo",
    "CLAIMS_FULL",
    "CLAIMS_QUICK",
    "batch_tree",
    "choices",
    "choices_spec",
    "claim_sizes",
    "claims",
    "describe_claims_mode",
    "electricity_frame",
    "sea_frame",
    "spec",
    "stationary_frame",
    "store_claims",
    "stored_claims",
    "tune_batch",
    "tuning",
    "window_lengths",
]
