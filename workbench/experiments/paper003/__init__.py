r"""Paper 003 (Izenov, *Reducing labeling complexity in streaming data mining*, the Frugal
Hoeffding tree): the runners and plots behind ``notebooks/04_frugal_hoeffding_tree``.

Every runner returns a tidy ``pandas.DataFrame`` and takes its sizes from the mode (see
:func:`sizes`): ``WORKBENCH_FAST=1`` gives the quick sizes the tests use, otherwise the full
runs.  Plot helpers take those frames and return a matplotlib figure.

=================================  ==========================================================
Table 1-2, Figures 1-3 (Weather)   ``weather``: :func:`weather_table`, :func:`gain_table`,
                                   :func:`id3`, :func:`draw_tree`, :func:`hoeffding_weather`
eq. (7) and the split rule         ``hoeffding_bound``: :func:`epsilon_table`,
                                   :func:`plot_epsilon`, :func:`rule_check`
the Frugal rule (Ch. 4)            ``query_region``: :func:`two_feature_stream`,
                                   :func:`region_run`, :func:`plot_region`,
                                   :func:`rate_table`, :func:`region_widget`;
                                   ``alpha_one``: :func:`alpha_one_check`
Experiment 1, Tables 3-5           ``table_3_5``: :func:`experiment_1`, :func:`table_summary`,
                                   :func:`availability`
Experiments 2-3, Figures 4-15      ``figures_4_15``: :func:`experiment_2_3`,
                                   :func:`figures_summary`, :func:`plot_figures`
beyond the thesis: same labels     ``fair_labels``: :func:`plot_fair`
claims and verdicts                ``verdicts``: :func:`claims` (the table; per-seed results,
                                   the equal-label family and the default alpha's evidence in
                                   its ``attrs``), :func:`experiment1_frame`,
                                   :func:`initial_set_table`, :func:`fair_frame`,
                                   :func:`fair`, :func:`default_alpha`; stored runs
                                   :func:`store_claims`, :func:`stored_claims`
=================================  ==========================================================
"""

from __future__ import annotations

from ._common import FAST, FULL, THESIS, Sizes, Stopwatch, fast_mode, load, sizes
from .alpha_one import alpha_one_check
from .fair_labels import plot as plot_fair
from .figures_4_15 import experiment_2_3
from .figures_4_15 import plot as plot_figures
from .figures_4_15 import summary as figures_summary
from .hoeffding_bound import epsilon_table, plot_epsilon, rule_check
from .query_region import plot as plot_region
from .query_region import rate_table, two_feature_stream
from .query_region import run as region_run
from .query_region import widget as region_widget
from .table_3_5 import availability, experiment_1
from .table_3_5 import summary as table_summary
from .verdicts import (
    describe_mode,
    claim_sizes,
    claims,
    default_alpha,
    default_alpha_table,
    describe_claims_mode,
    equal_label_error,
    experiment1_frame,
    fair,
    fair_frame,
    initial_set_table,
    store_claims,
    stored_claims,
)
from .weather import draw_tree, gain_table, hoeffding_weather, id3, tree_dot, weather_table

__all__ = [
    "FAST",
    "FULL",
    "THESIS",
    "Sizes",
    "Stopwatch",
    "describe_mode",
    "fast_mode",
    "load",
    "sizes",
    "alpha_one_check",
    "plot_fair",
    "experiment_2_3",
    "plot_figures",
    "figures_summary",
    "epsilon_table",
    "plot_epsilon",
    "rule_check",
    "plot_region",
    "rate_table",
    "two_feature_stream",
    "region_run",
    "region_widget",
    "availability",
    "claim_sizes",
    "claims",
    "default_alpha",
    "default_alpha_table",
    "describe_claims_mode",
    "equal_label_error",
    "experiment1_frame",
    "fair",
    "fair_frame",
    "initial_set_table",
    "store_claims",
    "stored_claims",
    "experiment_1",
    "table_summary",
    "draw_tree",
    "gain_table",
    "hoeffding_weather",
    "id3",
    "tree_dot",
    "weather_table",
]
