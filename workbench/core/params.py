"""The policy vector: every learner is the one engine run with different numbers here.

A learner's parameters travel to the kernels as one float64 array (indexed by the ``P_*``
constants), plus the description of nominal columns.  Integer-valued policies (criterion, leaf
predictor, split rule) are stored as codes; the kernels branch on them.  Changing a value never
recompiles anything, and neither does a user's own bound or criterion: it travels as the address
of its compiled code (``P_BOUND_FN``; a user criterion's code is its address), see
:mod:`workbench._functions`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

P_GRACE = 0  # grace period n_min: weight between two split attempts at a leaf
P_DELTA = 1  # confidence delta of the split bound
P_TAU = 2  # tie threshold tau
P_N_SPLIT_POINTS = 3  # candidate cut points per numeric feature (Gaussian observer)
P_MIN_BRANCH_FRAC = 4  # a split needs two branches with more than this fraction of the weight
P_MAX_DEPTH = 5  # leaves at this depth do not split
P_CRITERION = 6  # CRIT_* code
P_LEAF_PRED = 7  # LEAF_* code
P_NB_THRESHOLD = 8  # naive Bayes is used only at leaves with at least this much weight
P_MAX_NODES = 9  # memory guard: node rows the tree may hold (a statistics slot belongs
# to one node, so this bounds the slots too)
P_REEVAL = 10  # weight between two re-evaluations of an inner node (UPDATE_PATH
# learners with a re-evaluation rule; 0: inner nodes are never revisited)
P_SPLIT_RULE = 11  # RULE_* code of a leaf's split test
P_BOUND = 12  # BOUND_* code
P_MARGIN_FACTOR = 13  # split when G(best) - G(second) > factor * eps (VFDT 1, C-Tree 2)
P_C = 14  # constant c of C-Tree's practical radius, 000 eq. (10)
P_BINARY_NOMINAL = 15  # 1: nominal features split binary (x == v vs the rest), 0: multiway
P_UPDATE = 16  # UPDATE_* code: which nodes learn an instance's statistics
P_CUTS = 17  # CUTS_* code: where numeric features may be cut
P_REEVAL_RULE = 18  # RULE_* code of an inner node's re-evaluation (UPDATE_PATH learners)
P_REEVAL_CLOCK = 19  # REEVAL_CLOCK_* code: what counts the P_REEVAL period of re-evaluations
P_MERITS = 20  # MERITS_* code: which estimate of a split's merit the rules compare
P_GRACE_CLOCK = 21  # GRACE_* code: what the grace period counts
P_RANGE = 22  # RANGE_* code: the range R of the information gain in the Hoeffding bound
P_NULL_SUM = 23  # NULL_SUM_* code: MERITS_MOA, how a leaf adds the null split's merit to its sum
P_ATTEMPTS = 24  # ATTEMPTS_* code: MERITS_MOA, what one split attempt adds to the count
P_USED_NOMINAL = 25  # 1: a leaf never splits on a nominal attribute tested above it (MOA's EFDT)
P_BOUND_FN = 26  # BOUND_USER*: the address of the user's bound (workbench._functions)
P_CRITERION_RANGE = 27  # a user criterion's range R, given with it (for the bound)
P_RULE_FN = 28  # the address of a user's split rule (split_rule=), 0: the built-in rule
P_RULE_SCREEN = 29  # 1: the user's split rule is monotone, so the split screen may decide
P_GRACE_FN = 30  # the address of a user's grace schedule (grace_schedule=), 0: none
P_LOG_LIMIT = 31  # rows the split log may grow to under memory_limit_mb (0: no limit); past
# them the log keeps its first rows and counts the splits it could not record (M_LOG_LOST)
P_N_CANDIDATES = 32  # the candidate splits a leaf compares (the bounds valid under repeated
# looks spend delta over them; 0: those bounds are not in use)
P_BRANCHING = 33  # 0: their statement is per leaf; b >= 2: per tree, a node's share by depth
P_N_BRANCHES = 34  # the most branches a candidate split has (the confidence sequences' tables)
N_PARAMS = 35

CRIT_INFO_GAIN = 0  # entropy in bits (Quinlan; MOA's InfoGainSplitCriterion)
CRIT_GINI = 1  # Gini 1 - sum p_k^2 (= 2p(1-p), 000's J, for two classes)
CRIT_ENTROPY_HALF = 2  # 000's scaled entropy H_1/2 = -(p/2) ln p - ((1-p)/2) ln(1-p)
CRIT_KM = 3  # Kearns-Mansour Q = sqrt(p(1-p)), two classes only
CRIT_ERROR = 4  # classification error min(p, 1-p) (1 - max_k p_k): CorrH-Tree
CRIT_LAST = CRIT_ERROR  # P_CRITERION above this is a user's impurity function, given as the
# address of its compiled code (workbench._functions): the split search passes the criterion as
# one integer from the leaf down to each branch's impurity, and that integer then names the
# function itself
CRITERIA = {
    "info_gain": CRIT_INFO_GAIN,
    "gini": CRIT_GINI,
    "entropy": CRIT_ENTROPY_HALF,
    "kearns_mansour": CRIT_KM,
    "error": CRIT_ERROR,
}

LEAF_MC = 0
LEAF_NB = 1
LEAF_NBA = 2
LEAF_LAPLACE = 3  # majority class with Laplace-smoothed probabilities (n_k + 1) / (n + K),
# 003 eq. (2)
LEAF_PREDICTORS = {"mc": LEAF_MC, "nb": LEAF_NB, "nba": LEAF_NBA, "laplace": LEAF_LAPLACE}

# Split rules (workbench.core.rules): each compares one quantity with one threshold
RULE_BEST_VS_SECOND = 0  # VFDT, C-Tree: G(best) - G(second best) > f eps, or eps < tau
RULE_BEST_VS_NULL = 1  # HATT's AttemptToSplit (004 Alg. 3): G(best) - G(null) > eps, or tie
RULE_BEST_VS_CURRENT = 2  # HATT's ReEvaluateBestSplit: G(best) - G(current) > eps, or tie
RULES = {
    "best_vs_second": RULE_BEST_VS_SECOND,
    "best_vs_null": RULE_BEST_VS_NULL,
    "best_vs_current": RULE_BEST_VS_CURRENT,
}
# 001 (BOCT): the parent's credible bound against the lowest credible upper bound of the children
RULE_CREDIBLE = (
    3  # Fig. 3: min_test W1 eps1(d) + W2 eps2(d) < W_p eps_p(1 - d) (parent's lower end)
)
RULE_CREDIBLE_TEXT = 4  # Sec. III text: ... < W_p eps_p(d) (parent's upper end)
RULES["credible"] = RULE_CREDIBLE
RULES["credible_text"] = RULE_CREDIBLE_TEXT

UPDATE_LEAF = 0  # VFDT: only the leaf an instance reaches learns it
UPDATE_PATH = 1  # HATT: every node on its path does (inner nodes keep their statistics)
UPDATES = {"leaf": UPDATE_LEAF, "path": UPDATE_PATH}

# when an inner node is re-evaluated (UPDATE_PATH learners with P_REEVAL > 0)
REEVAL_CLOCK_NODE = 0  # when its own weight grew by P_REEVAL since its last re-evaluation
REEVAL_CLOCK_TREE = 1  # MOA's EFDT: when the tree's instance count before the instance is a
# multiple of P_REEVAL, every inner node on that instance's path, root first
REEVAL_CLOCKS = {"node": REEVAL_CLOCK_NODE, "tree": REEVAL_CLOCK_TREE}

# the merit G(X_i) a split rule compares (004 writes it G-bar)
MERITS_CURRENT = 0  # the merit computed from the node's statistics now
MERITS_MOA = 1  # MOA's EFDT: per node, the sum of each attribute's merits over its split
# attempts divided by the attempts since the node last changed (see workbench.core.search)
MERIT_ESTIMATES = {"current": MERITS_CURRENT, "moa": MERITS_MOA}

# what the grace period counts (P_GRACE_CLOCK)
GRACE_WEIGHT = 0  # MOA's HoeffdingTree: the leaf's weight grew by P_GRACE since its last attempt
GRACE_COUNT = 1  # MOA's EFDT and 004's code (nodeTime): the instances the leaf has learned since
# it was made reach a multiple of P_GRACE (an integer count, so rounding in the weights the leaf
# inherited from its parent's split cannot move an attempt)
GRACE_CLOCKS = {"weight": GRACE_WEIGHT, "count": GRACE_COUNT}

# the range R = log2(L) of the information gain in the Hoeffding bound (P_RANGE); other criteria
# have a fixed range (criteria.merit_range)
RANGE_CLASSES = 0  # L = K, the number of classes (004 eq. (1) as printed)
RANGE_MOA = 1  # MOA: L = length of the node's class-count vector (its highest class index
# seen, plus one, at least 2): at a leaf now, at an inner node when it got its test
RANGE_CREATED = 2  # 004's code: the length when the node was made, at leaves too
RANGES = {"classes": RANGE_CLASSES, "moa": RANGE_MOA, "created": RANGE_CREATED}

# MERITS_MOA: how a leaf's attempt adds the null split's merit to the node's sum (P_NULL_SUM);
# re-evaluation always adds it as it is
NULL_SUM_CLAMPED = 0  # MOA's EFDT: max(0, sum + merit), so the null's mean at a leaf is 0
NULL_SUM_RAW = 1  # 004's code: sum + merit; under information gain the null split's merit is
# -inf (one branch), so its mean is -inf and any best merit of at least 1e-10 splits
NULL_SUMS = {"clamped": NULL_SUM_CLAMPED, "raw": NULL_SUM_RAW}

# MERITS_MOA: what one split attempt adds to a node's attempt count (P_ATTEMPTS)
ATTEMPTS_ONE = 0  # one (MOA's EFDT)
ATTEMPTS_PER_CANDIDATE = 1  # one per candidate, the null split included (004's VFDT): its means
# are the sums divided by about (d + 1) times the attempts
ATTEMPT_COUNTS = {"one": ATTEMPTS_ONE, "per_candidate": ATTEMPTS_PER_CANDIDATE}

CUTS_GAUSSIAN = 0  # MOA's n_split_points equal steps strictly inside (min, max)
CUTS_FIXED = 1  # only the cut points the caller gives per feature (Config.cuts)
CUTS_EXHAUSTIVE = 2  # every midpoint between consecutive distinct labelled values (001, BOCT)
CUTS_ANALYTIC = 3  # UFFT (002): one cut, the root of the quadratic discriminant of the two
# heaviest classes' Gaussians (workbench.core.analytic), merit from normal-CDF counts
CUTS_COUNTED = 4  # the caller's candidates per feature (Config.cuts), each scored from the exact
# class counts either side (the observer counts a row's bin among the cuts: ``h_count``)
CUT_POLICIES = {
    "gaussian": CUTS_GAUSSIAN,
    "fixed": CUTS_FIXED,
    "exhaustive": CUTS_EXHAUSTIVE,
    "analytic": CUTS_ANALYTIC,
    "counted": CUTS_COUNTED,
}

BOUND_HOEFFDING = 0  # eps = sqrt(R^2 ln(1/delta) / (2 n))                 004 eq. (1)
BOUND_MCDIARMID = 1  # eps = C(K, n) sqrt(ln(1/delta) / (2 n))              000 eq. (2)
BOUND_CTREE = 2  # Theorem 1-3 bound of the criterion, schedule of      000 eq. (7)
BOUND_CTREE_PRACTICAL = 3  # c sqrt(ln(m^2 h^2 t d) / m), h = depth + 1          000 eq. (10)
BOUNDS = {
    "hoeffding": BOUND_HOEFFDING,
    "mcdiarmid": BOUND_MCDIARMID,
    "ctree": BOUND_CTREE,
    "ctree_practical": BOUND_CTREE_PRACTICAL,
}
BOUND_CREDIBLE = 4  # Bayesian credible interval of a heterogeneity, 001 eqs. (3)-(4)
BOUNDS["credible"] = BOUND_CREDIBLE
BOUND_USER = 5  # a user's njit (n, delta, value_range, n_classes) -> eps at P_BOUND_FN
BOUND_USER_SCHEDULE = 6  # ... (n, delta, value_range, n_classes, depth, t, n_features) -> eps
BOUND_USER_STATS = 7  # ... (n, delta, value_range, n_classes, stats) -> eps: data-dependent, the
# leaf's and its two best candidates' weights in stats (workbench.bounds.leaf_stats)
# bounds valid when a leaf tests again and again (workbench.bounds.anytime), over the leaf's own
# examples (its weight less what it inherited)
BOUND_HOEFFDING_LOOKS = 8  # Hoeffding at delta spent over looks and candidates (not valid for
# information gain: for comparison)
BOUND_GINI_LOOKS = 9  # 000's Gini bound (Theorem 2) at the spent delta
BOUND_ENTROPY_LOOKS = 10  # 000's entropy bound (Theorem 1, in bits) at the spent delta
BOUND_CS_GINI = 11  # a confidence sequence (Howard et al. 2021) carried to the Gini index
BOUND_CS_ENTROPY = 12  # ... and to the entropy (bits)
BOUNDS["hoeffding_looks"] = BOUND_HOEFFDING_LOOKS
BOUNDS["gini_looks"] = BOUND_GINI_LOOKS
BOUNDS["entropy_looks"] = BOUND_ENTROPY_LOOKS
BOUNDS["cs_gini"] = BOUND_CS_GINI
BOUNDS["cs_entropy"] = BOUND_CS_ENTROPY
#: the criterion each of them is valid for (hoeffding_looks: any, for comparison)
LOOKS_BOUND_CRITERION = {
    "gini_looks": "gini",
    "cs_gini": "gini",
    "entropy_looks": "info_gain",
    "cs_entropy": "info_gain",
}


class Config(NamedTuple):
    """Everything a kernel needs besides the tree: policy vector and nominal columns."""

    params: np.ndarray  # float64 [N_PARAMS]
    nom_index: np.ndarray  # int64 [d]: position among nominal columns, -1 for numeric
    nom_card: np.ndarray  # int64 [n_nominal]: number of values of each nominal column
    cuts: np.ndarray  # float64 [d, c]: the CUTS_FIXED candidates of each feature, NaN-padded
    # ([d, 0] under CUTS_GAUSSIAN)
