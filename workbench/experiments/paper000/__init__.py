r"""Paper 000 (De Rosa & Cesa-Bianchi, *Confidence Decision Trees via Online and Active Learning
for Streaming (BIG) Data*): the runners and plots behind ``notebooks/01_confidence_decision_trees``.

Every runner returns a tidy ``pandas.DataFrame`` and takes its sizes from the mode (see
:func:`sizes`): ``WORKBENCH_FAST=1`` gives the fast sizes the tests use, otherwise the
laptop-scale reproduction runs.  Plot helpers take those frames and return a matplotlib figure.

=================================  ==========================================================
Sec. III, the gain functional      :func:`impurities`, :func:`upper_bound_check`,
                                   :func:`gain_table`, :func:`plot_impurities`
Theorems 1-3 (eqs. 4-6)            :func:`bound_curves`, :func:`printed_vs_corrected`,
                                   :func:`plot_bound_curves`
Theorem 4, eqs. (7) and (10)       :func:`schedule`, :func:`practical`, :func:`eq10_vs_eq7`,
                                   :func:`plot_schedule`, :func:`schedule_widget`,
                                   :func:`split_rule_check`
Theorem 5 (eq. 9)                  :func:`leaf_consistency_table`, :func:`plot_leaf_consistency`
RandCBT (Alg. 4, Sec. VII-A)       :func:`prose_leaf_counts`, :func:`rand_cbt_by_leaf`,
                                   :func:`stepper_demo`
Figure 3                           :func:`fig3_grid` (through :func:`workbench.sweep.run`,
                                   shuffled or leaf-ordered streams), :func:`fig3_summary`,
                                   :func:`fig3_binned`, :func:`fig3_compare`,
                                   :func:`fig3_claims`, :func:`fig3_report`, :func:`plot_fig3`
Table I and Figure 4               :func:`table1`, :func:`permuted`, :func:`fig4`,
                                   :func:`fig4_best`, :func:`fig4_compare`,
                                   :func:`fig4_report`, :func:`plot_fig4`
Leaf predictor (Figs. 3-4)         :func:`leaf_predictor_table`
Figure 5                           :func:`tune_c`, :func:`fig5`, :func:`fig5_run`,
                                   :func:`fig5_ranks`, :func:`fig5_report`, :func:`plot_fig5`
claims (over seeds)                :func:`claims` (:mod:`workbench.claims`), :func:`claims_spec`,
                                   :func:`describe_claims_mode`, :func:`store_claims`,
                                   :func:`stored_claims`
=================================  ==========================================================

Modules: ``section_3``, ``theorems_1_3``, ``theorem_4``, ``theorem_5``, ``randcbt``,
``figure_3``, ``table_1``, ``figure_4``, ``figure_5`` and ``verdicts`` in the order of the
table; ``_common`` has the names, colours, mode and sizes they share.  Every public name is importable from here.

Conventions fixed here (the paper leaves them open or prints them wrongly; ``bounds`` and
``docs/bounds_findings.md`` have the evidence): ``q_k = P(Y=0, F=k)`` in Theorems 2-3, C-Tree
splits on the argmin of the conditional impurity, eq. (10) counts depth from 1 at the root.
"""

from __future__ import annotations

from ._common import FAST, FULL, Sizes, describe_mode, fast_mode, sizes
from .figure_3 import (
    fig3_binned,
    fig3_claims,
    fig3_compare,
    fig3_grid,
    fig3_param_grid,
    fig3_summary,
    fig3_report,
    plot_fig3,
    rand_cbt_by_leaf,
)
from .figure_4 import fig4, fig4_best, fig4_compare, fig4_param_grid, fig4_report, plot_fig4
from .figure_5 import fig5, fig5_ranks, fig5_report, fig5_run, plot_fig5, tune_c
from .verdicts import claims, describe_claims_mode, store_claims, stored_claims
from .verdicts import spec as claims_spec
from .leaf_predictor import leaf_predictor_table
from .randcbt import prose_leaf_counts, stepper_demo, stepper_summary
from .section_3 import gain_table, impurities, plot_impurities, upper_bound_check
from .table_1 import permuted, table1
from .theorem_4 import (
    eq10_vs_eq7,
    plot_schedule,
    practical,
    schedule,
    schedule_widget,
    split_rule_check,
)
from .theorem_5 import leaf_consistency_table, plot_leaf_consistency
from .theorems_1_3 import bound_curves, plot_bound_curves, printed_vs_corrected

# public outside __all__, as before (the notebook uses P.Stopwatch, the tests P.THEOREMS, ...)
from ._common import COLOR, LABEL, LEARNERS, MARKER, PARAM, Stopwatch  # noqa: F401
from ._common import METRIC, METRIC_LABEL, STRATEGY_ORDER, THEOREM_OF, THEOREMS  # noqa: F401
from .figure_3 import FIG3_RANGES  # noqa: F401
from .table_1 import CLASS1  # noqa: F401

__all__ = [
    "leaf_predictor_table",
    "fast_mode",
    "sizes",
    "Sizes",
    "FAST",
    "FULL",
    "describe_mode",
    "impurities",
    "upper_bound_check",
    "gain_table",
    "plot_impurities",
    "bound_curves",
    "printed_vs_corrected",
    "plot_bound_curves",
    "schedule",
    "practical",
    "eq10_vs_eq7",
    "plot_schedule",
    "schedule_widget",
    "split_rule_check",
    "leaf_consistency_table",
    "plot_leaf_consistency",
    "prose_leaf_counts",
    "stepper_demo",
    "stepper_summary",
    "rand_cbt_by_leaf",
    "fig3_param_grid",
    "fig3_grid",
    "fig3_summary",
    "fig3_binned",
    "fig3_compare",
    "fig3_claims",
    "fig3_report",
    "plot_fig3",
    "table1",
    "permuted",
    "fig4_param_grid",
    "fig4",
    "fig4_best",
    "fig4_compare",
    "fig4_report",
    "plot_fig4",
    "tune_c",
    "fig5",
    "fig5_ranks",
    "fig5_report",
    "fig5_run",
    "claims",
    "claims_spec",
    "describe_claims_mode",
    "store_claims",
    "stored_claims",
    "plot_fig5",
]
