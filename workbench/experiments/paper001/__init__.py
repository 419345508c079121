r"""Paper 001 (Collet & Pietquin, *Bayesian Credible Intervals for Online and Active Learning of
Classification Trees*): the runners and plots behind ``notebooks/02_bayesian_credible_trees``.

=================================  ==========================================================
eqs. (1)-(4)                       :func:`plot_credible`, :func:`credible_widget`,
                                   :func:`interval_check`, :func:`f_curve`
the split rule and 3 delta         :func:`useless_split_rate`, :func:`rule_table`
the stepper (toy problem)          :class:`ToyStepper`, :func:`stepper_widget`
Figure 5 (toy problem)             :func:`tune_toy`, :func:`toy_best`, :func:`fig5`,
                                   :func:`compare_at`, :func:`plot_fig5`
Figure 6 (real data)               :func:`dataset`, :func:`available`, :func:`tune_pool`,
                                   :func:`pool_best`, :func:`fig6`, :func:`c45_curve`,
                                   :func:`plot_fig6`
eq. (7), active selection          :func:`run_active`, :func:`plot_query_maps`,
                                   :func:`mu_boundary_share`
claims (over seeds)                :func:`claims` (:mod:`workbench.claims`), :func:`claims_spec`,
                                   :func:`describe_claims_mode`, :func:`store_claims`,
                                   :func:`stored_claims`
the 3 delta of the learner as run  :func:`noise_runs`, :func:`useless_test_rate`,
                                   :func:`noise_table`
stored results                     :func:`store`, :func:`stored`, :func:`stored_note`,
                                   :func:`store_figures`
=================================  ==========================================================

The learners are :class:`workbench.learners.BOCT` and :class:`workbench.active.BOCTAL`; the
batch protocols :func:`workbench.evaluate.toy_runs` and :func:`workbench.evaluate.pool_runs`.
"""

from __future__ import annotations

from ._common import FAST, FULL, Sizes, Stopwatch, describe_mode, sizes, store
from ._common import stored, stored_note
from .verdicts import claims, describe_claims_mode, noise_table, store_claims, stored_claims
from .verdicts import noise_runs, store_figures, useless_test_rate
from .verdicts import spec as claims_spec
from .figure_5 import best_settings as toy_best
from .figure_5 import compare_at, fig5, plot_fig5, tune_toy
from .figure_6 import available, c45_curve, dataset, fig6, plot_fig6, tune_pool
from .figure_6 import best_settings as pool_best
from .section_3 import credible_widget, f_curve, interval_check, plot_credible
from .section_6 import mu_boundary_share, plot_query_maps, query_maps, run_active
from .split_rule import rule_table, useless_split_rate
from .toy_stepper import ToyStepper, stepper_widget

__all__ = [
    "FAST",
    "store",
    "stored",
    "FULL",
    "Sizes",
    "Stopwatch",
    "describe_mode",
    "sizes",
    "claims",
    "claims_spec",
    "describe_claims_mode",
    "useless_test_rate",
    "noise_table",
    "store_claims",
    "stored_claims",
    "stored_note",
    "store_figures",
    "noise_runs",
    "toy_best",
    "compare_at",
    "fig5",
    "plot_fig5",
    "tune_toy",
    "available",
    "c45_curve",
    "dataset",
    "fig6",
    "plot_fig6",
    "tune_pool",
    "pool_best",
    "credible_widget",
    "f_curve",
    "interval_check",
    "plot_credible",
    "mu_boundary_share",
    "plot_query_maps",
    "query_maps",
    "run_active",
    "rule_table",
    "useless_split_rate",
    "ToyStepper",
    "stepper_widget",
]
