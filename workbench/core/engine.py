"""The batch kernels: learning, test-then-train and prediction over whole arrays, in numba.

Every kernel takes the tree (:class:`~workbench.core.state.TreeState`), the policy
(:class:`~workbench.core.params.Config`), the data, and a start index.  A kernel that needs more
rows than the arrays hold returns the index it reached; the Python layer doubles the arrays
(:func:`workbench.core.state.grow`) and calls it again from there.  Learning therefore never
calls back into Python per instance, and the arrays never move while a kernel runs.

:func:`run_stream` is the one per-instance loop; its steps are functions of the step modules
(:mod:`workbench.core.steps` names them), which numba writes into it.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..active.rules import C_QUERIED, C_SEEN, FRUGAL, S_ALPHA
from .active_steps import (count_margin_at, detect_drift, frugal_label, frugal_limits,
                           query_label)
from ..bounds.leaf_stats import stats_size
from .decide import SPLIT_MARGIN, SPLIT_TIE, leaf_decision
from .epsilon import needs_stats
from .search import leaf_weight
from .edits import alloc_slot, apply_split, kill_subtree, replace_split, reset_tree
from .forest_steps import prune_and_refill
from .leaf_predict import leaf_predict, moa_nb_resolve, score_predictors
from .naive_bayes import N_ACC
from .observe import count_bins, learn_along_path, observe
from .params import (CUTS_COUNTED, GRACE_COUNT, LEAF_LAPLACE, LEAF_MC, LEAF_NBA, P_CUTS,
                     P_GRACE, P_GRACE_CLOCK, P_GRACE_FN, P_LEAF_PRED, P_LOG_LIMIT, P_NB_THRESHOLD,
                     P_REEVAL, P_REEVAL_CLOCK, P_UPDATE, UPDATE_PATH)
from .reevaluate import reevaluate, reevaluate_along_path, reevaluation_due
from .routing import (ROUTE_ROW, TABLE_CURRENT, TABLE_STALE, build_code_table,
                      build_route_table, route, route_block, route_codes, route_inline,
                      route_mixed, walk)
from .state import (M_DEPTH, M_FREE_NODES, M_FREE_SLOTS, M_N_LOG, M_N_NODES, M_N_SLOTS, M_T,
                    NOMINAL_MULTI, NodeArrays, SlotArrays)
from .steps import due_for_split, sample_leaves, schedule_next

#: rows routed ahead at a time (``routing.route_block``), and the rows routed one by one after a
#: block where most rows stopped at a nominal test
ROUTE_BLOCK = 64
ROUTE_PAUSE = 1024

# slots of the ``control`` vector of run_stream
A_CODE = 0        # strategy code (workbench.active), -1: every label is used (FULL)
A_BUDGET = 1      # B: the query rate may not exceed it
A_DDM = 2         # 0: no drift detection, 1: DDM on every labelled instance, 2: only on the
                  #    random sub-stream (Split strategies)
A_DDM_MIN = 3     # DDM's minimum number of instances
A_DDM_STRICT = 4  # 1: MOA's strict comparisons
N_ACTIVE = 5
N_SPARAMS_MAX = 5

#: DDM's defaults in the ACTIVE loop (000's experiments): 30 instances before it tests, MOA's
#: strict comparisons
DDM_MIN_DEFAULT = 30
DDM_STRICT_DEFAULT = True


def active_control(code, budget, ddm_mode=0, ddm_min=DDM_MIN_DEFAULT, strict=DDM_STRICT_DEFAULT):
    """The ``control`` vector of :func:`run_stream` (the ``A_*`` slots): strategy ``code``
    (-1: every label is used), the query ``budget``, ``ddm_mode`` (0 no drift detection, 1 DDM on
    every labelled instance, 2 only on the random sub-stream of the Split strategies), DDM's
    minimum number of instances and whether it compares strictly.  The one place it is built."""
    control = np.zeros(N_ACTIVE)
    control[A_CODE] = code
    control[A_BUDGET] = budget
    control[A_DDM] = ddm_mode
    control[A_DDM_MIN] = ddm_min
    control[A_DDM_STRICT] = 1.0 if strict else 0.0
    return control


# One argument per part, not bundles: numba compiles a variant of the loop without a part
# where its argument is None (control, rng, ddm, path, counts), and only an argument typed None
# prunes its branches; a None inside a tuple would still be typed, and fail, in the dead branch.
# The split attempt's bundles come in built (``bundles``): built in the loop, their lifetime
# made run_stream's machine code 9% larger and a first use 7% slower to compile (measured).
@njit(cache=True, error_model="numpy")
def run_stream(T, C, X, y, start, learn, pred, proba, leaves, every, control, sparams, sstate,
               rng, ddm, counters, queried, path, tree, counts, all_nominal, bundles, bins,
               wait):
    """Route, predict and/or learn rows ``start..n-1`` of X, in order; the one per-instance loop.

    learn   learn (X[i], y[i]) after predicting it (y is ignored when False)
    pred    if non-empty, the prediction for row i goes to ``pred[i]`` (made before learning it)
    proba   if non-empty [n, K], the class probabilities for row i go to ``proba[i]``
    leaves  if non-empty, the number of leaves after every ``every`` rows
    control None for the FULL setting (every label is used; numba then compiles a variant
            without the query and drift steps), or a vector (``A_*`` slots): with a strategy
            code >= 0 this is the ACTIVE setting of 000 Algorithm 3: while
            ``queried + 1 <= B * seen`` the strategy (:func:`workbench.active.decide`,
            parameters ``sparams``, state ``sstate``, random state ``rng``) decides whether the
            label is asked; only asked labels are learned.  With DDM on (state ``ddm``), the
            errors of labelled instances feed it and a drift resets the tree (``ddm`` None:
            no detector, and a variant without the drift step, :func:`drift_state`).  ``counters``
            (``C_*``) accumulate; ``queried[i]`` (if non-empty) is 1 for a labelled row.
            ``rng=None`` (003's Frugal, code ``FRUGAL``, at leaves whose probabilities are
            count fractions: see :func:`strategy_rng`) compiles a variant without the strategy
            call: the margin is tested on the counts of the leaf that predicts, before it
            predicts (``active_steps.count_margin_at``), and ``active_steps.frugal_label`` applies the budget
            to copies of the counters kept in registers (written back before returning).
    path    None: only the leaf learns (VFDT; numba compiles this variant without the path
            code), or an int64 buffer of at least the node capacity: every node on the path
            learns, and inner nodes are re-evaluated (HATT, ``P_UPDATE = UPDATE_PATH``)
    tree    which tree of the state (``T.roots[tree]``) the rows go to
    counts  None: a leaf's grace period counts its weight (MOA's Hoeffding tree; numba
            compiles this variant without a count), or ``T.n_learned``: it counts the
            instances the leaf learned (``P_GRACE_CLOCK = GRACE_COUNT``, MOA's EFDT)
    all_nominal
            True where every feature is nominal: naive Bayes then first tries its shortcut
            over products of counts (``naive_bayes.nb_nominal_argmax``, :func:`_all_nominal`)
    bundles (``NodeArrays``, ``SlotArrays``) of T's arrays, for the split attempt
            (:func:`bundles_of`)
    bins    None: the split search reads the Gaussian observers only (numba compiles this
            variant without the bin counts), or ``T.h_count`` where the cut points are counted
            (``CUTS_COUNTED``): each numeric value's bin is counted too (:func:`_bins`)
    wait    None: the grace period decides when a leaf attempts a split (numba compiles this
            variant without a schedule), or ``T.wait`` under a user's grace schedule
            (``grace_schedule=``): each leaf waits what the schedule said (:func:`_wait`)

    Returns the index reached: less than n when the arrays must grow before the next row.

    Compiled with numba's NumPy error model: a float division by zero would give inf or NaN
    instead of raising, but no division in the loop can have a zero divisor, and the model lets
    the steps run without reference counting (see :mod:`workbench.core.steps`).
    """
    n, d = X.shape
    K = T.class_counts.shape[1]
    root = T.roots[tree]
    # the tree's arrays, unpacked once: the steps take them one by one (see workbench.core.steps)
    kind = T.kind
    feature = T.feature
    threshold = T.threshold
    children = T.children
    n_children = T.n_children
    parent = T.parent
    class_counts = T.class_counts
    stats_slot = T.stats_slot
    active = T.active
    last_eval = T.last_eval
    meta = T.meta
    mc_correct = T.mc_correct
    nb_correct = T.nb_correct
    g_w = T.g_w
    g_mean = T.g_mean
    g_m2 = T.g_m2
    g_min = T.g_min
    g_max = T.g_max
    nom = T.nom
    nom_w = T.nom_w
    nom_nv = T.nom_nv
    nom_q = T.nom_q
    nom_index = C.nom_index
    nom_card = C.nom_card
    # what a split attempt reads, bundled (a bundle costs what its arrays cost one by one)
    nodes, slots = bundles
    n_cap = kind.shape[0]
    s_cap = g_w.shape[0]
    branch = children.shape[1]
    mode = int(C.params[P_LEAF_PRED])
    nb_threshold = C.params[P_NB_THRESHOLD]
    grace = C.params[P_GRACE]
    # (a grace period that counts instances: the float modulo is a call into numba's helpers,
    # 3.5% of MOA's EFDT's time on SEA)
    whole = int(grace) if grace == np.floor(grace) and grace < 2.0**53 else 0
    reeval_period = int(C.params[P_REEVAL])
    reeval_clock = int(C.params[P_REEVAL_CLOCK])
    out = np.empty(K)
    buf = np.empty(K)
    acc = np.empty((N_ACC, K))
    merits = np.empty(d)
    cuts = np.empty(d)
    post = np.empty((max(branch, 2), K))
    # a data-dependent bound's view of a leaf and its two best candidates (bounds.leaf_stats)
    stats = np.empty(stats_size(K, post.shape[0]) if needs_stats(C.params) else 0)
    cut_table = C.cuts
    log_cap = T.log.shape[0]
    log_room = C.params[P_LOG_LIMIT] <= 0.0 or log_cap < C.params[P_LOG_LIMIT]   # may it grow?
    # the room check's node capacity, 0 once the split log is full and may grow: only a split
    # adds a log row, so the log is checked after splits, not at every row
    node_cap = 0 if log_room and meta[M_N_LOG] >= log_cap else n_cap
    want_pred = pred.shape[0] > 0
    want_proba = proba.shape[0] > 0
    want_leaves = leaves.shape[0] > 0
    want_queried = queried.shape[0] > 0
    predicting = want_pred or want_proba or (learn and mode == LEAF_NBA)
    if control is None:
        # FULL setting.  ``control`` typed None makes numba prune every ``control is not None``
        # branch below, so this variant never compiles the strategies, DDM and the tree reset
        code = -1
        budget = 1.0
        alpha = 1.0
        ddm_mode = 0
        ddm_min = 0
        ddm_strict = False
    else:
        code = int(control[A_CODE])
        budget = control[A_BUDGET]
        alpha = sparams[S_ALPHA]
        ddm_mode = int(control[A_DDM])
        ddm_min = int(control[A_DDM_MIN])
        ddm_strict = control[A_DDM_STRICT] > 0
        predicting = True
    # the class probabilities, not only the argmax: asked for, or read by a strategy (not by
    # the Frugal variant, which reads the counts)
    need_probs = want_proba or (code >= 0 and rng is not None)
    # the Frugal variant's constants, and its counters (kept here, in registers: active_steps.frugal_label)
    limits = frugal_limits(alpha, K, mode == LEAF_LAPLACE)
    n_seen = counters[C_SEEN]
    n_queried = counters[C_QUERIED]
    countdown = every - start % every        # rows until the next leaves sample
    # routing ahead (routing.route_block through a table of the numeric tests; where every
    # feature is nominal routing.route_codes through a table of codes, and where some are and the
    # root tests one, which would stop every row of the numeric table, routing.route_mixed
    # through a table of codes and thresholds): the tables, which of them is in use
    # (``by_codes``), its state, where the rows of the current block lo..hi-1 stop, and rows
    # routed one by one before ``pause`` (in a call shorter than a block: learn_one, the
    # stepper)
    codes = nom_card.shape[0] == d
    mixed = 0 < nom_card.shape[0] < d
    stride = branch + 1 if codes or mixed else ROUTE_ROW
    rt_feat = np.empty(n_cap, np.int64)   # (the table of codes: features, thresholds)
    rt_cut = np.empty(n_cap)
    rt_kid = np.empty(max(stride, ROUTE_ROW) * n_cap, np.int64)
    rt_thr = rt_kid.view(np.float64)   # (the numeric table's thresholds, in its rows)
    by_codes = codes
    edit = TABLE_STALE
    ahead = np.empty(ROUTE_BLOCK, np.int64)
    lo = start
    hi = start
    pause = n if n - start < ROUTE_BLOCK else start
    for i in range(start, n):
        # ---- room: a split needs ``branch`` free rows, a new leaf one statistics slot
        if learn and (node_cap - meta[M_N_NODES] + meta[M_FREE_NODES] < branch or
                      s_cap - meta[M_N_SLOTS] + meta[M_FREE_SLOTS] < 1):
            if rng is None:
                counters[C_SEEN] = n_seen
                counters[C_QUERIED] = n_queried
            return i     # no room for a split or a new statistics slot: grow first
        # ---- route (as a prediction when the row is predicted; ``forked``: learning would
        # take a known nominal code's own, still empty branch there, see below): ahead, a
        # block of rows at a time, then on from where a row stopped.  (Written into the loop:
        # as an inline step that returns the block's bookkeeping the loop ran 20% slower.
        # Leaf-only learners only: numba compiles the path-update variant without it, which
        # walks from the root recording the path it learns along, and ran 4-14% slower with
        # it)
        leaf = root
        if path is None:
            if i >= hi and i >= pause:
                lo = i
                hi = min(n, i + ROUTE_BLOCK)
                if mixed and by_codes != (kind[root] == NOMINAL_MULTI):
                    by_codes = not by_codes   # the other table, built afresh
                    edit = TABLE_STALE
                if by_codes:
                    build_code_table(kind, feature, threshold, children, n_children,
                                     class_counts, meta[M_N_NODES], edit,
                                     not (learn and not predicting), rt_feat, rt_cut, rt_kid)
                    if mixed:
                        stopped = route_mixed(kind, (rt_feat, rt_cut, rt_kid, stride), root,
                                              meta[M_DEPTH], X, lo, hi, ahead)
                    else:
                        stopped = route_codes(kind, (rt_feat, rt_kid, stride), root,
                                              meta[M_DEPTH], X, lo, hi, ahead)
                else:
                    build_route_table(kind, feature, threshold, children, n_children,
                                      meta[M_N_NODES], edit, rt_kid, rt_thr)
                    stopped = route_block(kind, (rt_kid, rt_thr), root, meta[M_DEPTH], X, lo,
                                          hi, ahead)
                edit = TABLE_CURRENT
                if stopped * 2 > hi - lo:
                    pause = hi + ROUTE_PAUSE   # most rows stop at a test: a while
            if i < hi:
                leaf = ahead[i - lo]
        forked = False
        length = 0   # (path-update learners: the nodes this walk wrote into ``path``)
        if kind[leaf] > 0:   # a nominal test, a missing value, or no block: walk on from there
            # (a path-update learner walks from the root and records the path it learns along,
            # unless learning takes another branch there, ``forked``)
            leaf, length, forked = route_inline(kind, feature, threshold, children, n_children,
                                                class_counts, leaf, X, i,
                                                learn and not predicting, path)
        # ---- predict (and score the predictors where the row is learned)
        p = 0
        mc_pred = 0
        nb_pred = 0
        conf = -1.0
        uncertain = False
        if rng is None:   # 003's Frugal on count leaves: the margin test, as the counts are read
            uncertain = count_margin_at(class_counts, leaf, limits)
        if predicting:
            # one copy of the predictor in the loop (compile time): a second pass only when
            # learning routes a nominal code to its own, still empty branch (``forked``), whose
            # predictors are the ones scored
            for rep in range(2):
                p_rep, mc_pred, nb_pred, near = leaf_predict(
                    class_counts, stats_slot, mc_correct, nb_correct, g_w, g_mean, g_m2, nom,
                    nom_w, nom_nv, nom_q, nom_index, nom_card, leaf, X, i, mode, nb_threshold,
                    need_probs and rep == 0, out, buf, acc, all_nominal)
                if near:   # naive Bayes within rounding of a tie: as MOA computes it
                    p_rep, nb_pred = moa_nb_resolve(T, C, leaf, X, i, mode, mc_pred,
                                                    need_probs and rep == 0, out, buf)
                if rep == 0:   # the predicting leaf
                    p = p_rep
                    conf = out[p]
                    if want_pred:
                        pred[i] = p
                    if want_proba:
                        for k in range(K):
                            proba[i, k] = out[k]
                if rep == 1 or not (learn and forked):
                    break
                # (forked: the learning route ends at another leaf, that empty branch)
                leaf, length, _forked = route(kind, feature, threshold, children, n_children,
                                              class_counts, root, X, i, True, path)
        if not learn:
            continue
        # ---- ACTIVE: query a label, detect drift  (pruned by numba in the FULL setting)
        labelled = True
        if control is not None:
            if rng is None:   # 003's Frugal on count leaves: no strategy call compiled in
                labelled, n_seen, n_queried = frugal_label(n_seen, n_queried, budget,
                                                           uncertain)
                from_random = False
            else:
                labelled, from_random = query_label(class_counts, code, budget, counters,
                                                    sparams, sstate, rng, leaf, conf, out)
            if labelled:
                if want_queried:
                    queried[i] = 1
                # (``ddm`` None: no detection, and numba compiles the variant without it)
                if ddm is not None and (ddm_mode == 1 or (ddm_mode == 2 and from_random)):
                    if detect_drift(ddm, counters, 1.0 if p != y[i] else 0.0, ddm_min,
                                    ddm_strict):
                        reset_tree(T, root)
                        hi = i + 1   # the block's leaves are freed rows now: route afresh
                        edit = TABLE_STALE
                        leaf, _depth, _forked = route(kind, feature, threshold, children,
                                                      n_children, class_counts, root, X, i, True,
                                                      None)
                        length = 0
                        mc_pred = -1
                        nb_pred = -1
        # ---- learn: along the path (HATT), then at the leaf.  (An unasked row skips the
        # block.  With the margin tested where the leaf predicts, this ran the Frugal variant
        # 3% faster than a test at the query step and a ``continue`` there: measured)
        if labelled:
            c = y[i]
            meta[M_T] += 1
            if path is not None:   # (pruned by numba for leaf-only learners)
                if length == 0:   # the root is the leaf, or the tree was reset: walk afresh
                    _leaf, length, _forked = route(kind, feature, threshold, children,
                                                   n_children, class_counts, root, X, i, True,
                                                   path)
                learn_along_path(path, length, class_counts, stats_slot, nom_index, nom, nom_w,
                                 nom_nv, nom_q, g_w, g_mean, g_m2, g_min, g_max, X, i, c)
            score_predictors(mc_correct, nb_correct, class_counts, nodes.cls_len, leaf, c,
                             mc_pred, nb_pred, mode)
            class_counts[leaf, c] += 1.0
            if by_codes and forked:
                # learned down a branch its prediction passed by for want of weight: the table
                # of codes passes it from now on (its parent's row)
                edit = parent[leaf] if edit == TABLE_CURRENT else TABLE_STALE
            due = False
            if active[leaf] == 1:
                if stats_slot[leaf] < 0:
                    stats_slot[leaf] = alloc_slot(T)
                # (the products of denominators only where naive Bayes's shortcut reads them)
                observe(nom_index, nom, nom_w, nom_nv, nom_q, all_nominal, g_w, g_mean, g_m2,
                        g_min, g_max, stats_slot[leaf], X, i, c)
                if bins is not None:   # (counted cut points: each numeric value's bin too)
                    count_bins(bins, cut_table, nom_index, stats_slot[leaf], X, i, c)
                due = due_for_split(class_counts, last_eval, counts, wait, leaf, grace, whole)
            # ---- re-evaluate inner nodes (HATT), attempt a split at the leaf
            if path is not None:
                first = reevaluation_due(class_counts, last_eval, meta[M_T], path, length,
                                         reeval_period, reeval_clock)
                if first >= 0 and reevaluate_along_path(T, C, path, first, length, merits,
                                                        cuts, post):
                    due = False    # the tree changed above this leaf: no attempt for this row
                    hi = i + 1
                    edit = TABLE_STALE
                    if log_room and meta[M_N_LOG] >= log_cap:
                        node_cap = 0
            if due:
                # the split test takes the arrays it reads (a call that takes the tree counts
                # references to all of them), the split itself the tree
                outcome, b1, _b2, eps, _q, _thr, g1, g2 = leaf_decision(
                    C, nodes, slots, meta[M_T], leaf, merits, cuts, post, stats, True)
                if wait is not None:   # (a user's grace schedule)
                    schedule_next(C.params, wait, counts, leaf, leaf_weight(class_counts, leaf),
                                  g1, g2, eps, nodes.looks[leaf])
                if ((outcome == SPLIT_MARGIN or outcome == SPLIT_TIE) and
                        apply_split(T, C, leaf, b1, cuts[b1], post, outcome == SPLIT_TIE, eps,
                                    g1, g2)):
                    # the next rows are routed afresh through the table's new rows (for speed
                    # only: a row whose block ended at this leaf would go on from it, now a test)
                    hi = i + 1
                    edit = leaf if edit == TABLE_CURRENT else TABLE_STALE
                    if log_room and meta[M_N_LOG] >= log_cap:
                        node_cap = 0
        if want_leaves:
            countdown = sample_leaves(meta, leaves, countdown, every, i)
    if rng is None:
        counters[C_SEEN] = n_seen
        counters[C_QUERIED] = n_queried
    return n


_NO_INT = np.empty(0, np.int64)
_NO_INT8 = np.empty(0, np.int8)
_NO_FLOAT = np.empty((0, 0))
_NO_F1 = np.zeros(N_SPARAMS_MAX)
_NO_RNG = np.zeros(4, np.uint64)


def _full_extras():
    """Arguments that switch the ACTIVE and drift parts off."""
    return None, _NO_F1, np.ones(1), _NO_RNG, np.zeros(4), np.zeros(4, np.int64), _NO_INT8


def _path(T, C):
    """The path buffer of a path-update learner (room for the deepest possible path), or None:
    numba then compiles the leaf-only variant of the loop."""
    if C.params[P_UPDATE] == UPDATE_PATH:
        return np.empty(T.kind.shape[0] + 1, np.int64)
    return None


def _all_nominal(C):
    """The ``all_nominal`` argument of :func:`run_stream`: whether every feature is nominal
    (a runtime flag, not a variant of the kernel: one more variant per learner cost about 12 s
    of a cold precompile)."""
    return bool(C.nom_card.shape[0] == C.nom_index.shape[0] > 0)


def _bins(T, C):
    """The bin counts of counted cut points (``CUTS_COUNTED``), or None: numba then compiles
    the variant of the loop without them (their step in the loop slowed every other learner's
    rows by a few percent: ``fit`` on Electricity timed with and without it,
    ``benchmarks/README.md``)."""
    return T.h_count if C.params[P_CUTS] == CUTS_COUNTED else None


def _wait(T, C):
    """The leaves' waits under a user's grace schedule (``P_GRACE_FN``), or None: numba then
    compiles the variant of the loop without the schedule."""
    return T.wait if C.params[P_GRACE_FN] != 0.0 else None


def _counts(T, C):
    """The instance counts of a grace period that counts instances (``GRACE_COUNT``), or None:
    numba then compiles the variant that compares weights."""
    return T.n_learned if C.params[P_GRACE_CLOCK] == GRACE_COUNT else None


def drift_state(detect, rng):
    """The ``ddm`` argument of :func:`run_stream` in the ACTIVE setting: DDM's state (seen,
    errors, p_min, s_min), or None where drift is not detected and the loop runs 003's Frugal
    variant (``rng`` None, :func:`strategy_rng`): numba then compiles that variant without the
    drift step, which cost the Frugal tree 2-3% at alpha = 1 on SEA (measured).  The strategies'
    variant gets the state either way, so that one compiled loop serves their runs with and
    without detection."""
    if rng is None and not detect:
        return None
    ddm = np.zeros(4)
    ddm[2:] = np.inf
    return ddm


def strategy_rng(C, strategy):
    """The ``rng`` argument of :func:`run_stream` for ``strategy``: None for 003's Frugal rule
    where the leaves' probabilities are count fractions (Laplace, MC), which compiles the
    loop's variant that decides from the counts (``active_steps.frugal_label``, no strategy call);
    otherwise the strategy's own random state (a Frugal rule on naive-Bayes leaves then reads
    the probabilities, through :func:`workbench.active.decide`)."""
    if (strategy.code == FRUGAL and C is not None
            and int(C.params[P_LEAF_PRED]) in (LEAF_LAPLACE, LEAF_MC)):
        return None
    return strategy.rng


def bundles_of(T):
    """The ``bundles`` argument of :func:`run_stream`: (``NodeArrays``, ``SlotArrays``) of
    ``T``'s arrays."""
    return (
        NodeArrays(T.class_counts, T.stats_slot, T.cls_len, T.depth, T.parent, T.kind, T.feature,
                   T.replaced, T.looks, T.w0),
        SlotArrays(T.g_w, T.g_mean, T.g_m2, T.g_min, T.g_max, T.nom, T.nom_w, T.nom_nv,
                   T.merit_sum, T.merit_n, T.h_count),
    )


def learn_args(T, C, X, y, start, tree=0, extras=None):
    """The arguments of :func:`run_stream` that learn rows ``start..`` of (X, y) into tree
    ``tree`` (``extras``: :func:`_full_extras`'s, made once by a caller that calls often)."""
    return (T, C, X, y, start, True, _NO_INT, _NO_FLOAT, _NO_INT, 1, *(extras or _full_extras()),
            _path(T, C), tree, _counts(T, C), _all_nominal(C), bundles_of(T), _bins(T, C),
            _wait(T, C))


def predict_args(T, C, X, pred, tree=0, extras=None):
    """The arguments of :func:`run_stream` that predict every row of X into ``pred``."""
    return (T, C, X, _NO_INT, 0, False, pred, _NO_FLOAT, _NO_INT, 1, *(extras or _full_extras()),
            None, tree, None, _all_nominal(C), bundles_of(T), None, None)


def learn(T, C, X, y, start, tree=0):
    """Learn rows ``start..`` of (X, y) into tree ``tree``; returns the index reached."""
    return run_stream(*learn_args(T, C, X, y, start, tree))


def prequential(T, C, X, y, start, pred, leaves, every, control=None, sparams=None,
                sstate=None, rng=None, ddm=None, counters=None, queried=None, tree=0):
    """Test-then-train rows ``start..``: ``pred[i]`` is predicted before row i is learned
    (FULL setting; with the ``active`` arguments, the ACTIVE setting)."""
    extras = _full_extras()
    if control is not None:
        extras = (control, sparams, sstate, rng, ddm, counters, queried)
    return run_stream(T, C, X, y, start, True, pred, _NO_FLOAT, leaves, every, *extras,
                      _path(T, C), tree, _counts(T, C), _all_nominal(C), bundles_of(T),
                      _bins(T, C), _wait(T, C))


def predict(T, C, X, pred, tree=0):
    run_stream(*predict_args(T, C, X, pred, tree))


def predict_proba(T, C, X, proba, tree=0):
    run_stream(T, C, X, _NO_INT, 0, False, _NO_INT, proba, _NO_INT, 1, *_full_extras(), None,
               tree, None, _all_nominal(C), bundles_of(T), None, None)


@njit(cache=True)
def apply_batch(T, X, out):
    """Leaf reached by every row of X (prediction routing) into ``out`` [n]."""
    for i in range(X.shape[0]):
        out[i] = walk(T, X, i, False, None)[0]


# structural edits callable from Python (tests, notebooks, the stepper); the kernels call the
# functions of workbench.core.edits and workbench.core.reevaluate directly
EDIT_KILL = 0             # the node becomes a leaf; its subtree and statistics are dropped
EDIT_KILL_KEEP_STATS = 1  # the same, but the node keeps its statistics (HATT)
EDIT_REPLACE = 2          # the node splits on (feature, cut) instead, with new leaves (HATT)
EDIT_REEVALUATE = 3       # run the node's re-evaluation rule and do what it says
EDIT_NAMES = {"kill": EDIT_KILL, "kill_keep_stats": EDIT_KILL_KEEP_STATS,
              "replace": EDIT_REPLACE, "reevaluate": EDIT_REEVALUATE}


@njit(cache=True)
def _edit(T, C, op, node, feature, cut):
    d = C.nom_index.shape[0]
    post = np.empty((max(T.children.shape[1], 2), T.class_counts.shape[1]))
    if op == EDIT_KILL or op == EDIT_KILL_KEEP_STATS:
        kill_subtree(T, node, op == EDIT_KILL_KEEP_STATS)
        return 1
    if op == EDIT_REPLACE:  # by hand: no rule decided it
        return 1 if replace_split(T, C, node, feature, cut, post, False, np.nan, np.nan, np.nan) else 0
    return reevaluate(T, C, node, np.empty(d), np.empty(d), post)


def edit(T, C, op, node, feature=-1, cut=np.nan):
    """Apply one structural edit (``EDIT_*``) to ``node`` of the state; returns 1 when done
    (``EDIT_REEVALUATE``: the ``REEVAL_*`` outcome).  The arrays must have room for the new
    leaves of a replacement (``workbench.core.state.grow``)."""
    if not 0 <= node < T.kind.shape[0] or T.kind[node] < 0:
        raise ValueError(f"node {node} is not a node of this tree")
    if op == EDIT_REEVALUATE and T.kind[node] == 0:
        raise ValueError(f"node {node} is a leaf: only inner nodes are re-evaluated")
    if op in (EDIT_REPLACE, EDIT_REEVALUATE) and T.stats_slot[node] < 0:
        raise ValueError(f"node {node} keeps no statistics to split on (only path-update "
                         "learners keep them at inner nodes)")
    if op == EDIT_REPLACE and not 0 <= feature < C.nom_index.shape[0]:
        raise ValueError(f"feature {feature} is not a column of this tree")
    if op in (EDIT_REPLACE, EDIT_REEVALUATE) and T.meta[M_N_LOG] >= T.log.shape[0]:
        raise ValueError("the split log is full: grow the state first (workbench.core.state.grow)")
    return int(_edit(T, C, op, node, feature, float(cut)))


@njit(cache=True)
def prune_refill(T, C, node, root, X_mem, y_mem, n_mem):
    """:func:`workbench.core.forest_steps.prune_and_refill`, callable from Python."""
    return prune_and_refill(T, C, node, root, X_mem, y_mem, n_mem)
