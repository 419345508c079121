r"""Closed-form confidence bounds of the five papers.

Every bound exists twice, from one source:

* a scalar numba core ``<name>_nb`` (``@njit(cache=True)``) that tree kernels call from inside
  their own jitted loops, with no argument checking, and
* a public Python function ``<name>`` that checks its arguments (a ``ValueError`` names the bad
  one), broadcasts them with numpy and returns a ``float`` when every argument is a scalar,
  an ``ndarray`` otherwise.

For the arithmetic bounds the Python function evaluates the *same* body as the core (the core's
``py_func``, which only uses ``np.log``/``np.sqrt`` and so broadcasts over arrays); the
iterative ones (credible intervals, risk bound) loop over the broadcast arrays in a jitted kernel.
Nothing is compiled at import time: numba compiles a core the first time it is called (or loads it
from its on-disk cache).

Notation follows the papers: ``m`` examples at a leaf, confidence parameter ``delta``, depth ``h``
of the leaf, ``t`` examples seen by the whole tree, ``d`` features.  Papers: 000 De Rosa,
*Confidence Decision Trees via Online and Active Learning*; 001 Collet & Pietquin, *Bayesian
Credible Intervals for Online and Active Learning of Classification Trees*; 002 Gama, Medas &
Rocha, *Ultra Fast Forest Trees* (DDM after Gama et al. 2004); 003 Izenov, *Frugal Hoeffding
tree*; 004 *Extremely Fast Decision Tree* (Hoeffding Anytime Tree).

Where a formula as printed does not hold, the function implements the reading that does and its
docstring says so; ``docs/bounds_findings.md`` has the evidence.

Modules (one per family of bounds)
----------------------------------
``hoeffding``   Hoeffding's bound: 000 eq. (1), 003 eq. (7), 004 eq. (1)
``mcdiarmid``   McDiarmid's bound for the information gain, 000 eq. (2)
``ctree``       000 (C-Tree): Theorems 1-3 (eqs. 4-6), Theorem 4 (eq. 7), eq. (10), leaf
                consistency (eq. 9, Theorem 5)
``credible``    001 (BOCT): heterogeneities, credible intervals (eqs. 3-4), risk bound (eq. 7)
``ddm``         DDM's warning and drift levels (Gama et al. 2004), used in 002
``anytime``     bounds valid under repeated looks: delta spent over looks and candidates,
                confidence sequences (Howard et al. 2021) for impurities (issue 56)
``_beta``       the beta special functions behind ``credible``
``_checks``     argument checking and broadcasting of the public functions

Numba scalar cores (for kernels)
--------------------------------
``hoeffding_nb(m, delta, R)``, ``mcdiarmid_entropy_nb(m, delta, n_classes)``,
``entropy_nb(m, delta)``, ``gini_nb(m, delta)``, ``kearns_mansour_nb(m, delta)``,
``ctree_epsilon_nb(m, delta, depth, t, d, kind)`` (``kind`` is ``BOUND_ENTROPY``,
``BOUND_GINI`` or ``BOUND_KEARNS_MANSOUR``), ``ctree_practical_nb(m, depth, t, d, c)``,
``leaf_consistency_nb(m, t, delta)``, ``credible_interval_nb(n_pos, n_neg, delta, kind)``
returning ``(lower, upper)`` (``kind`` is ``HET_ENTROPY``, ``HET_VARIANCE`` or ``HET_STD``),
``risk_upper_nb(n_pos, n_neg, delta, weight)``, ``ddm_levels_nb(p, s, p_min, s_min, strict)``
returning ``(warning, drift)``, ``heterogeneity_nb(mu, kind)``, and the special functions
``betainc_nb(a, b, x)`` (regularised incomplete beta), ``betaincinv_nb(a, b, y)`` and
``beta_upper_quantile_nb(a, b, delta)``.

Examples
--------
>>> from workbench import bounds
>>> round(bounds.hoeffding(200, 1e-7), 4)
0.2007
>>> lo, up = bounds.credible_interval(30, 10, 0.05, heterogeneity="variance")
>>> bool(lo < 0.75 * 0.25 < up)
True
"""

from __future__ import annotations

import math

from ._beta import beta_upper_quantile_nb, betainc_nb, betaincinv_nb
from .anytime import (
    cs_entropy,
    cs_entropy_nb,
    cs_gini,
    cs_gini_nb,
    cs_tv,
    cs_tv_nb,
    entropy_looks,
    entropy_looks_nb,
    fannes_bits_nb,
    gini_looks,
    gini_looks_nb,
    hoeffding_looks,
    hoeffding_looks_nb,
    spent_delta,
    spent_delta_nb,
    stitched,
    stitched_nb,
)
from .credible import (
    HET_ENTROPY,
    HET_STD,
    HET_VARIANCE,
    HETEROGENEITY_CODES,
    credible_interval,
    credible_interval_nb,
    heterogeneity,
    heterogeneity_nb,
    risk_upper,
    risk_upper_nb,
)
from .ctree import (
    BOUND_CODES,
    BOUND_ENTROPY,
    BOUND_GINI,
    BOUND_KEARNS_MANSOUR,
    ctree_epsilon,
    ctree_epsilon_nb,
    ctree_practical,
    ctree_practical_nb,
    entropy,
    entropy_nb,
    gini,
    gini_nb,
    kearns_mansour,
    kearns_mansour_nb,
    leaf_consistency,
    leaf_consistency_nb,
)
from .ddm import ddm_levels, ddm_levels_nb
from .hoeffding import hoeffding, hoeffding_moa_nb, hoeffding_nb
from .mcdiarmid import mcdiarmid_entropy, mcdiarmid_entropy_nb

__all__ = [
    # public, vectorised, validated
    "hoeffding",
    "mcdiarmid_entropy",
    "entropy",
    "gini",
    "kearns_mansour",
    "ctree_epsilon",
    "ctree_practical",
    "leaf_consistency",
    "credible_interval",
    "risk_upper",
    "ddm_levels",
    "heterogeneity",
    "spent_delta",
    "hoeffding_looks",
    "gini_looks",
    "entropy_looks",
    "stitched",
    "cs_tv",
    "cs_gini",
    "cs_entropy",
    # numba scalar cores
    "hoeffding_moa_nb",
    "hoeffding_nb",
    "mcdiarmid_entropy_nb",
    "entropy_nb",
    "gini_nb",
    "kearns_mansour_nb",
    "ctree_epsilon_nb",
    "ctree_practical_nb",
    "leaf_consistency_nb",
    "credible_interval_nb",
    "risk_upper_nb",
    "ddm_levels_nb",
    "heterogeneity_nb",
    "betainc_nb",
    "betaincinv_nb",
    "beta_upper_quantile_nb",
    "spent_delta_nb",
    "hoeffding_looks_nb",
    "gini_looks_nb",
    "entropy_looks_nb",
    "stitched_nb",
    "cs_tv_nb",
    "cs_gini_nb",
    "cs_entropy_nb",
    "fannes_bits_nb",
    # integer codes understood by the cores
    "BOUND_ENTROPY",
    "BOUND_GINI",
    "BOUND_KEARNS_MANSOUR",
    "HET_ENTROPY",
    "HET_VARIANCE",
    "HET_STD",
    "BOUND_CODES",
    "HETEROGENEITY_CODES",
]

_LN2 = math.log(2.0)
