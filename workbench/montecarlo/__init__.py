"""Numba-parallel Monte Carlo checks of the confidence bounds in :mod:`workbench.bounds`.

Every simulator runs its trials in a ``prange`` loop; trial ``k`` of a run seeded with ``s``
draws from its own xoshiro256** stream seeded from ``(s, k)``, so results are reproducible bit
for bit whatever the number of threads.  Nothing is compiled at import time.

Estimators (000 Theorems 1-3, McDiarmid eq. 2) -- :mod:`.estimators`
    ``joint_law``, ``law_grid``, ``functionals``, ``plugin_estimates``,
    ``simulate_estimators`` -> ``EstimatorSimulation`` (``.check``, ``.to_frame``),
    ``estimator_grid`` (tidy DataFrame), ``tightest_law``.
Hoeffding (000 eq. 1, 003 eq. 7, 004 eq. 1) -- :mod:`.means`
    ``simulate_means`` -> ``MeanSimulation`` (``.check``, ``.exact_failure``),
    ``hoeffding_worst_case``.
Credible intervals (001 eqs. 3-4, 7) -- :mod:`.credible`
    ``credible_coverage``, ``risk_coverage``, ``coverage_curve``, ``boct_null_split``.
Any bound, a user's included (``check_bound(my_bound, statistic="mean")``) -- :mod:`.check`
    ``check_bound`` -> a DataFrame: violation rate, exact binomial test, verdict;
    ``statistic_values``.
Sequential rules (000 Thm 5, DDM) -- :mod:`.sequential`
    ``leaf_consistency_failure``, ``ddm_false_alarms``, ``ddm_run``.
One leaf's split choice under repeated tests (VFDT, C-Tree, any bound) -- :mod:`.selection`
    ``split_selection`` -> ``SplitSelectionResult``, ``feature_gains``.
A bound under optional stopping (every look of a leaf) -- :mod:`.looks`
    ``repeated_coverage``.
The tree's splits against the truth (issue 56) -- :mod:`.audit`
    ``audit_tree``, ``audit_splits``, ``split_log``, ``korn_graubard``.

Example
-------
>>> from workbench import montecarlo as mc
>>> sim = mc.simulate_estimators(mc.joint_law(0.5, 0.1, 0.8), m=200, trials=20_000, seed=0)
>>> df = sim.to_frame(deltas=[0.05, 0.2])
>>> sorted(set(df["estimator"]))[:3]
['entropy', 'gini', 'gini_as_printed']
"""

from __future__ import annotations

from .check import STATISTICS, check_bound, statistic_values
from .credible import (
    CoverageResult,
    NullSplitResult,
    boct_null_split,
    coverage_curve,
    credible_coverage,
    interval_table,
    risk_coverage,
    risk_table,
)
from .estimators import (
    BOUND_OF,
    ESTIMATORS,
    EstimatorSimulation,
    bound_value,
    check_table,
    describe_law,
    estimator_grid,
    functionals,
    joint_law,
    law_grid,
    limits_as_printed,
    plugin_estimates,
    simulate_estimators,
    tightest_law,
)
from .means import MeanSimulation, hoeffding_worst_case, simulate_means
from .sequential import (
    DDMResult,
    LeafConsistencyResult,
    ddm_false_alarms,
    ddm_run,
    leaf_consistency_exact,
    leaf_consistency_failure,
)
from .selection import (
    BOUNDS,
    CRITERIA,
    RULES,
    STATS_BOUND_SIG,
    SplitSelectionResult,
    feature_gains,
    split_selection,
)
from .looks import repeated_coverage
from .audit import (
    audit_splits,
    audit_tree,
    korn_graubard,
    split_log,
    structure_log,
    summarize_audit,
)

__all__ = [
    "check_bound",
    "statistic_values",
    "STATISTICS",
    "BOUND_OF",
    "ESTIMATORS",
    "CRITERIA",
    "RULES",
    "joint_law",
    "law_grid",
    "check_table",
    "describe_law",
    "functionals",
    "limits_as_printed",
    "plugin_estimates",
    "simulate_estimators",
    "EstimatorSimulation",
    "bound_value",
    "estimator_grid",
    "tightest_law",
    "simulate_means",
    "MeanSimulation",
    "hoeffding_worst_case",
    "credible_coverage",
    "risk_coverage",
    "coverage_curve",
    "interval_table",
    "risk_table",
    "CoverageResult",
    "boct_null_split",
    "NullSplitResult",
    "leaf_consistency_failure",
    "leaf_consistency_exact",
    "LeafConsistencyResult",
    "split_selection",
    "feature_gains",
    "SplitSelectionResult",
    "BOUNDS",
    "STATS_BOUND_SIG",
    "repeated_coverage",
    "audit_tree",
    "audit_splits",
    "split_log",
    "structure_log",
    "summarize_audit",
    "korn_graubard",
    "ddm_false_alarms",
    "ddm_run",
    "DDMResult",
]
