r"""Paper 002 (Gama, Medas and Rocha, *Learning decision trees from dynamic data streams*:
Ultra Fast Forest Trees): the runners and plots behind ``notebooks/03_ultra_fast_forest_trees``.

Every runner returns a ``pandas.DataFrame`` and takes its sizes from the mode (:func:`sizes`).

=================================  ==========================================================
1. the analytical split            :func:`analytic_from_sample`, :func:`normality_table`,
                                   :func:`plot_split`, :func:`split_widget`
2. expansion test, functional      :func:`epsilon_table`, :func:`functional_nodes`
   nodes
3. DDM at inner nodes              :func:`ddm_trace`, :func:`plot_ddm_trace`,
                                   :func:`false_alarms`
4. the stepper                     :func:`forest_stepper_demo`
5. stationary problems (Table 1)   :func:`stationary`, :func:`plot_stationary`
6. SEA and Electricity (Table 2)   :func:`sea_drift`, :func:`sea_summary`,
                                   :func:`electricity_windows`
7. the claims                      :func:`claims_table`
=================================  ==========================================================
"""

from __future__ import annotations

from ._common import BATCH, COLOR, FAST, FULL, VERSIONS, Sizes, Stopwatch, describe_mode, sizes
from .analytic_split import (
    analytic_from_sample,
    draw_attribute,
    gain_of_table,
    normality_table,
    plot_split,
    split_widget,
)
from .claims import claims_table, full_run, forest_stepper_demo
from .experiments import (
    electricity_windows,
    plot_stationary,
    sea_drift,
    sea_summary,
    stationary,
    store,
    stored,
)
from .nodes import (
    ddm_trace,
    epsilon_table,
    false_alarms,
    functional_nodes,
    plot_ddm_trace,
    stationary_stream,
)

__all__ = [
    "BATCH",
    "COLOR",
    "FAST",
    "FULL",
    "VERSIONS",
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
    "claims_table",
    "full_run",
    "forest_stepper_demo",
    "electricity_windows",
    "plot_stationary",
    "sea_drift",
    "sea_summary",
    "stationary",
    "store",
    "stored",
    "ddm_trace",
    "epsilon_table",
    "false_alarms",
    "functional_nodes",
    "plot_ddm_trace",
    "stationary_stream",
]
