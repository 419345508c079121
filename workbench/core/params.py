"""The policy vector: every learner is the one engine run with different numbers here.

A learner's parameters travel to the kernels as one float64 array (indexed by the ``P_*``
constants), plus the description of nominal columns.  Integer-valued policies (criterion, leaf
predictor, split rule) are stored as codes; the kernels branch on them.  Changing a value never
recompiles anything.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

P_GRACE = 0             # grace period n_min: weight between two split attempts at a leaf
P_DELTA = 1             # confidence delta of the split bound
P_TAU = 2               # tie threshold tau
P_N_SPLIT_POINTS = 3    # candidate cut points per numeric feature (Gaussian observer)
P_MIN_BRANCH_FRAC = 4   # a split needs two branches with more than this fraction of the weight
P_MAX_DEPTH = 5         # leaves at this depth do not split
P_CRITERION = 6         # CRIT_* code
P_LEAF_PRED = 7         # LEAF_* code
P_NB_THRESHOLD = 8      # naive Bayes is used only at leaves with at least this much weight
P_MAX_NODES = 9         # memory guard: node rows the tree may hold
P_MAX_SLOTS = 10        # memory guard: leaves that may keep statistics at once
P_SPLIT_RULE = 11       # RULE_* code
P_BOUND = 12            # BOUND_* code
N_PARAMS = 16

CRIT_INFO_GAIN = 0
CRIT_GINI = 1
CRITERIA = {"info_gain": CRIT_INFO_GAIN, "gini": CRIT_GINI}

LEAF_MC = 0
LEAF_NB = 1
LEAF_NBA = 2
LEAF_PREDICTORS = {"mc": LEAF_MC, "nb": LEAF_NB, "nba": LEAF_NBA}

RULE_BEST_VS_SECOND = 0   # VFDT: G(best) - G(second best) > eps, or eps < tau
RULES = {"best_vs_second": RULE_BEST_VS_SECOND}

BOUND_HOEFFDING = 0       # eps = sqrt(R^2 ln(1/delta) / (2 n))
BOUNDS = {"hoeffding": BOUND_HOEFFDING}


class Config(NamedTuple):
    """Everything a kernel needs besides the tree: policy vector and nominal columns."""
    params: np.ndarray     # float64 [N_PARAMS]
    nom_index: np.ndarray  # int64 [d]: position among nominal columns, -1 for numeric
    nom_card: np.ndarray   # int64 [n_nominal]: number of values of each nominal column
