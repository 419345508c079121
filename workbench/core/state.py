"""The tree as flat arrays (struct of arrays), in the spirit of scikit-learn's ``Tree``.

A tree is a :class:`TreeState`: one named tuple of numpy arrays that every numba kernel takes
as its first argument.  Nothing in it is a Python object, so a reader can print any field and a
pickle of it is a pickle of plain arrays.

Nodes (capacity ``N``, rows of the per-node arrays)
    ``kind``          0 = leaf, 1 = numeric test ``x[f] <= threshold`` (branch 0 if true, 1 if
                      false), 2 = nominal multiway test (branch ``v`` for code ``v``), 3 = nominal
                      binary test ``x[f] == threshold`` (branch 0 if equal); -1 = free row.
    ``feature``       tested column, -1 at leaves.
    ``threshold``     numeric cut point, or the nominal value of a binary nominal test.
    ``children``      ``[N, B]`` child rows, -1 where a branch has no child; ``n_children``.
    ``parent``, ``depth``.
    ``class_counts``  ``[N, K]`` weight per class seen at the node (for a new leaf it starts
                      with the class distribution its parent's split estimated for it, as in
                      MOA and River).
    ``stats_slot``    row in the sufficient-statistics arrays, -1 if the node keeps none
                      (inner nodes of VFDT, leaves that have not yet seen an instance).
    ``active``        1 if the leaf may still split.
    ``last_eval``     node weight when the split test last ran (grace period bookkeeping).
    ``n_learned``     instances the node learned as an active leaf since it was made (MOA's
                      EFDT ``nodeTime``), counted where the grace period counts them
                      (``GRACE_COUNT``), 0 otherwise.
    ``cls_len``       length of MOA's class-count vector when the node was made, or for an inner
                      node when it last got its test: the highest class index that vector held,
                      plus one (it may end in zeros).  MOA's range R = log2 of that length
                      (``RANGE_MOA``, :func:`workbench.core.epsilon.node_range`).
    ``replaced``      1 if the node's test came from a re-evaluation (MOA's EFDT then starts its
                      children's list of used nominal attributes afresh).
    ``mc_correct``, ``nb_correct``  weight the majority-class and naive-Bayes predictors got right
                      at this leaf (adaptive naive Bayes).
    ``t_created``, ``t_split``  the model's instance counter when the node was made and when it
                      split (-1 if never): the stepper marks recent splits with them.
    ``looks``         split attempts the node made as a leaf (kept when it splits: the attempt
                      that split it is its last), the ``looks`` a split rule and a bound see.
    ``wait``          a grace schedule's answer (``grace_schedule=``): under ``GRACE_WEIGHT`` the
                      weight the leaf waits after its last attempt, under ``GRACE_COUNT`` the
                      count of instances at which it makes its next; -1 until the schedule has
                      spoken (the grace period), and unused without a schedule.
    ``log_row``       the row of the split log (below) that holds the node's current test, -1
                      at a leaf.
    ``w0``            the class weight a leaf inherited from its parent's split when it was
                      made: its weight less ``w0`` is what it has learned itself (the sample
                      size of the bounds valid under repeated looks).

Sufficient statistics (capacity ``S`` slots; a slot belongs to one node)
    ``g_w``, ``g_mean``, ``g_m2``, ``g_min``, ``g_max``  ``[S, d, K]`` Gaussian observer per
                      (feature, class): weight, mean, sum of squared deviations, min, max.
    ``nom``           ``[S, n_nominal, V, K]`` weight per (nominal feature, value, class);
                      ``nom_w`` ``[S, n_nominal, K]`` weight per class with the feature observed;
                      ``nom_nv`` ``[S, n_nominal, K]`` the highest code each class has shown, plus
                      one (MOA's ``numValues``: naive Bayes smooths with it).
    ``nom_q``         ``[S, K]`` the product over the nominal features of ``nom_w + nom_nv``
                      (naive Bayes's denominators for a row without missing values), kept at a
                      leaf's slot by every update of its counts where every feature is nominal
                      (the only trees whose naive Bayes reads it; an inner node's is made again
                      when the node becomes a leaf, ``edits.kill_subtree``); 0 where some feature
                      has no count of the class.
    ``h_count``       ``[S, d, C + 1, K]`` under counted cut points (``CUTS_COUNTED``): class k's
                      weight of feature j in bin b, the values between cut b - 1 and cut b of
                      the feature's candidates (``Config.cuts``); ``[S, d, 0, K]`` otherwise.
    ``merit_sum``     ``[S, d + 1]`` sum of each feature's best merit over the node's split
                      attempts, the null split's in the last column; ``merit_n`` ``[S]``
                      attempts since the node last changed (MOA's EFDT compares their ratio,
                      ``P_MERITS = MERITS_MOA``; unused otherwise).

The split log (capacity ``L`` rows, ``meta[M_N_LOG]`` in use)
    ``log``           ``[L, N_LOG]`` one row per split the tree made, in order, replaced and
                      removed ones included, with the ``LOG_*`` columns below: what the tree knew
                      when it split (its weight, looks, epsilon and merits), where (the row of the
                      split above and the branch), and what became of it.  ``montecarlo.
                      audit_tree`` reads it through ``model.split_log()``.

Bookkeeping
    ``roots``         the root row of each tree: a state may hold a forest of trees that share
                      these arrays (UFFT's pairwise trees); ``roots[0]`` is ``meta[M_ROOT]``, and
                      a root keeps its row for the life of the state.
    ``meta``          int64 counters, indexed by the ``M_*`` constants below (over all trees).
    ``free_nodes``, ``free_slots``  stacks of released rows (subtree removal, split leaves).

Inner nodes keep their slot under the path-update policy (HATT re-evaluates them), and edited
subtrees (replacement, pruning, a drift reset) return their rows to the free lists.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

# node kinds
LEAF = 0
NUMERIC = 1
NOMINAL_MULTI = 2
NOMINAL_BINARY = 3
NB_FUNCTIONAL = 4  # UFFT (002): branch = the class the node's naive Bayes predicts (0 or 1);
# only UFFT's forest kernel (workbench.core.forest) routes through it
FREE = -1

# meta counters
M_N_NODES = 0  # rows ever used (high-water mark)
M_N_SLOTS = 1  # stats slots ever used (high-water mark)
M_FREE_NODES = 2  # size of the free-node stack
M_FREE_SLOTS = 3  # size of the free-slot stack
M_ROOT = 4
M_N_LEAVES = 5
M_N_ACTIVE = 6
M_T = 7  # instances learned so far
M_N_SPLITS = 8
M_DEPTH = 9  # depth of the deepest leaf ever made
M_GUARD_HITS = 10  # splits refused by the memory guard
M_N_LOG = 11  # rows of the split log in use
M_LOG_LOST = 12  # splits the log could not record (its limit under memory_limit_mb reached)
N_META = 16

# columns of the split log
LOG_NODE = 0  # the node that split
LOG_DEPTH = 1
LOG_T = 2  # the tree's count of instances learned when it split
LOG_N = 3  # the leaf's weight when it split
LOG_LOOKS = 4  # its split attempts, this one included
LOG_FEATURE = 5
LOG_THRESHOLD = 6  # the cut, the code v of a binary nominal test, NaN for a multiway one
LOG_TIE = 7  # 1: split by the tie rule (epsilon < tau), 0: by its margin
LOG_EPS = 8  # the epsilon the rule compared
LOG_G_BEST = 9  # the merits the rule compared: the best's and the second best's
LOG_G_SECOND = 10
LOG_PARENT = 11  # the log row of the split the node hangs below (-1 at a root)
LOG_BRANCH = 12  # which branch of that split
LOG_REPLACED = 13  # 1: a re-evaluation replaced or killed this split (EFDT)
LOG_IN_TREE = 14  # 1 while the split stands in the tree
N_LOG = 15


class TreeState(NamedTuple):
    kind: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    children: np.ndarray
    n_children: np.ndarray
    parent: np.ndarray
    depth: np.ndarray
    class_counts: np.ndarray
    stats_slot: np.ndarray
    active: np.ndarray
    last_eval: np.ndarray
    n_learned: np.ndarray
    cls_len: np.ndarray
    replaced: np.ndarray
    mc_correct: np.ndarray
    nb_correct: np.ndarray
    t_created: np.ndarray
    t_split: np.ndarray
    looks: np.ndarray
    wait: np.ndarray
    log_row: np.ndarray
    w0: np.ndarray
    g_w: np.ndarray
    g_mean: np.ndarray
    g_m2: np.ndarray
    g_min: np.ndarray
    g_max: np.ndarray
    nom: np.ndarray
    nom_w: np.ndarray
    nom_nv: np.ndarray
    nom_q: np.ndarray
    h_count: np.ndarray
    merit_sum: np.ndarray
    merit_n: np.ndarray
    log: np.ndarray
    free_nodes: np.ndarray
    free_slots: np.ndarray
    roots: np.ndarray
    meta: np.ndarray


NODE_FIELDS = (
    "kind",
    "feature",
    "threshold",
    "children",
    "n_children",
    "parent",
    "depth",
    "class_counts",
    "stats_slot",
    "active",
    "last_eval",
    "n_learned",
    "cls_len",
    "replaced",
    "mc_correct",
    "nb_correct",
    "t_created",
    "t_split",
    "looks",
    "wait",
    "log_row",
    "w0",
)
SLOT_FIELDS = (
    "g_w",
    "g_mean",
    "g_m2",
    "g_min",
    "g_max",
    "nom",
    "nom_w",
    "nom_nv",
    "nom_q",
    "h_count",
    "merit_sum",
    "merit_n",
)

# fill values of a fresh row
_NODE_FILL = {
    "kind": FREE,
    "feature": -1,
    "threshold": np.nan,
    "children": -1,
    "n_children": 0,
    "parent": -1,
    "depth": 0,
    "class_counts": 0.0,
    "stats_slot": -1,
    "active": 0,
    "last_eval": 0.0,
    "n_learned": 0,
    "cls_len": 0,
    "replaced": 0,
    "mc_correct": 0.0,
    "nb_correct": 0.0,
    "t_created": -1,
    "t_split": -1,
    "looks": 0,
    "wait": -1.0,
    "log_row": -1,
    "w0": 0.0,
}
_SLOT_FILL = {
    "g_w": 0.0,
    "g_mean": 0.0,
    "g_m2": 0.0,
    "g_min": np.inf,
    "g_max": -np.inf,
    "nom": 0.0,
    "nom_w": 0.0,
    "nom_nv": 0.0,
    "nom_q": 0.0,
    "h_count": 0.0,
    "merit_sum": 0.0,
    "merit_n": 0.0,
}


def allocate(
    n_features: int,
    n_classes: int,
    n_nominal: int,
    max_values: int,
    branch: int,
    n_bins: int = 0,
    node_capacity: int = 64,
    slot_capacity: int = 16,
    n_trees: int = 1,
    log_capacity: int | None = None,
) -> TreeState:
    """Empty arrays for a tree (or a forest of ``n_trees``), with ``n_bins`` bins per numeric
    feature where its cut points are counted (``h_count``); the roots are made by
    :func:`workbench.core.edits.init_root`."""
    d, k = n_features, n_classes
    n, s = node_capacity, slot_capacity
    if log_capacity is None:  # a row of the split log per node row
        log_capacity = n
    v = max(max_values, 1)
    m = max(n_nominal, 1)
    return TreeState(
        kind=np.full(n, FREE, np.int8),
        feature=np.full(n, -1, np.int64),
        threshold=np.full(n, np.nan),
        children=np.full((n, branch), -1, np.int64),
        n_children=np.zeros(n, np.int64),
        parent=np.full(n, -1, np.int64),
        depth=np.zeros(n, np.int64),
        class_counts=np.zeros((n, k)),
        stats_slot=np.full(n, -1, np.int64),
        active=np.zeros(n, np.int8),
        last_eval=np.zeros(n),
        n_learned=np.zeros(n, np.int64),
        cls_len=np.zeros(n, np.int64),
        replaced=np.zeros(n, np.int8),
        mc_correct=np.zeros(n),
        nb_correct=np.zeros(n),
        t_created=np.full(n, -1, np.int64),
        t_split=np.full(n, -1, np.int64),
        looks=np.zeros(n, np.int64),
        wait=np.full(n, -1.0),
        log_row=np.full(n, -1, np.int64),
        w0=np.zeros(n),
        g_w=np.zeros((s, d, k)),
        g_mean=np.zeros((s, d, k)),
        g_m2=np.zeros((s, d, k)),
        g_min=np.full((s, d, k), np.inf),
        g_max=np.full((s, d, k), -np.inf),
        nom=np.zeros((s, m, v, k)),
        nom_w=np.zeros((s, m, k)),
        nom_nv=np.zeros((s, m, k)),
        nom_q=np.zeros((s, k)),
        h_count=np.zeros((s, d, n_bins, k)),
        merit_sum=np.zeros((s, d + 1)),
        merit_n=np.zeros(s),
        log=np.zeros((log_capacity, N_LOG)),
        free_nodes=np.zeros(n, np.int64),
        free_slots=np.zeros(s, np.int64),
        roots=np.full(n_trees, -1, np.int64),
        meta=np.zeros(N_META, np.int64),
    )


def _grow(arr: np.ndarray, new_len: int, fill) -> np.ndarray:
    out = np.empty((new_len,) + arr.shape[1:], arr.dtype)
    out[: arr.shape[0]] = arr
    out[arr.shape[0] :] = fill
    return out


def _grow_group(fields: dict, names, fills: dict, free_name: str, used: int, need: int) -> None:
    """Double the rows of one group of arrays (nodes or slots) until ``used + need`` fit."""
    cap = fields[free_name].shape[0]
    if used + need <= cap:
        return
    new = cap
    while new < used + need:
        new *= 2
    for name in names:
        fields[name] = _grow(fields[name], new, fills[name])
    fields[free_name] = _grow(fields[free_name], new, 0)


def grow(
    state: TreeState,
    min_free_nodes: int,
    min_free_slots: int,
    min_free_log: int = 1,
    log_limit: float = 0.0,
) -> TreeState:
    """Double node, slot and split-log capacity until the requested number of free rows
    exists (the log at most to ``log_limit`` rows, where that is > 0)."""
    fields = state._asdict()
    _grow_group(
        fields, NODE_FIELDS, _NODE_FILL, "free_nodes", int(state.meta[M_N_NODES]), min_free_nodes
    )
    # the log keeps a row per node row (within its limit), as ``allocate`` gives it: a split
    # adds a log row and at least two nodes, so a leaf-only learner's log then never stops the
    # kernel for room before its nodes do (each stop copies every array)
    cap, used = state.log.shape[0], int(state.meta[M_N_LOG])
    want = max(used + min_free_log, fields["kind"].shape[0])
    if want > cap and not 0 < log_limit <= cap:
        new = max(cap, 1)
        while new < want:
            new *= 2
        if log_limit > 0:
            new = min(new, int(log_limit))
        fields["log"] = _grow(state.log, new, 0.0)
    _grow_group(
        fields, SLOT_FIELDS, _SLOT_FILL, "free_slots", int(state.meta[M_N_SLOTS]), min_free_slots
    )
    return TreeState(**fields)


#: the arrays with a class axis (their last), node arrays and slot arrays
CLASS_FIELDS = (
    "class_counts",
    "g_w",
    "g_mean",
    "g_m2",
    "g_min",
    "g_max",
    "nom",
    "nom_w",
    "nom_nv",
    "nom_q",
    "h_count",
)


def grow_classes(state: TreeState, n_new: int) -> TreeState:
    """The tree with ``n_new`` more classes: every array with a class axis gets columns for
    them, filled as a fresh row's (no weight, empty Gaussians, no nominal counts); what the
    tree has learned stays.  (A learner that takes classes as they come, as River's do, calls
    this when a label it has not seen arrives: ``workbench.learners._rows``.)"""
    fields = state._asdict()
    for name in CLASS_FIELDS:
        arr = fields[name]
        k = arr.shape[-1]
        out = np.empty(arr.shape[:-1] + (k + n_new,), arr.dtype)
        out[..., :k] = arr
        out[..., k:] = _NODE_FILL[name] if name in _NODE_FILL else _SLOT_FILL[name]
        fields[name] = out
    return TreeState(**fields)


def nbytes(state: TreeState) -> int:
    """Bytes held by the arrays of a tree."""
    return int(sum(a.nbytes for a in state))


def bytes_per_node(state: TreeState) -> int:
    return int(sum(getattr(state, f)[:1].nbytes for f in NODE_FIELDS)) + 8


def bytes_per_slot(state: TreeState) -> int:
    return int(sum(getattr(state, f)[:1].nbytes for f in SLOT_FIELDS)) + 8


class NodeArrays(NamedTuple):
    """What a leaf's split decision reads of the nodes: a bundle of :class:`TreeState`'s arrays
    that kernels pass on as one argument.  A jitted call counts a reference to each array it
    takes, bundled or not, so a bundle of the arrays a call reads costs what the arrays cost
    one by one (the whole tree would cost all of them)."""

    class_counts: np.ndarray
    stats_slot: np.ndarray
    cls_len: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    kind: np.ndarray
    feature: np.ndarray
    replaced: np.ndarray
    looks: np.ndarray
    w0: np.ndarray


class SlotArrays(NamedTuple):
    """What the statistics slots hold (:class:`TreeState`'s slot arrays): the observers'
    statistics the split search reads, and MOA's merit sums the decision keeps."""

    g_w: np.ndarray
    g_mean: np.ndarray
    g_m2: np.ndarray
    g_min: np.ndarray
    g_max: np.ndarray
    nom: np.ndarray
    nom_w: np.ndarray
    nom_nv: np.ndarray
    merit_sum: np.ndarray
    merit_n: np.ndarray
    h_count: np.ndarray


@njit(inline="always")
def node_arrays(T):
    """The :class:`NodeArrays` of tree state ``T``."""
    return NodeArrays(
        T.class_counts,
        T.stats_slot,
        T.cls_len,
        T.depth,
        T.parent,
        T.kind,
        T.feature,
        T.replaced,
        T.looks,
        T.w0,
    )


@njit(inline="always")
def slot_arrays(T):
    """The :class:`SlotArrays` of tree state ``T``."""
    return SlotArrays(
        T.g_w,
        T.g_mean,
        T.g_m2,
        T.g_min,
        T.g_max,
        T.nom,
        T.nom_w,
        T.nom_nv,
        T.merit_sum,
        T.merit_n,
        T.h_count,
    )


@njit(cache=True, no_cpython_wrapper=True)
def class_len_now(cls_len, class_counts, node):
    """Length of MOA's class-count vector at ``node`` now: the length it had when the node was
    made (``cls_len``) or the highest class it has a count of, plus one.  (It and
    :func:`node_range` take the arrays they read, not the tree: a call that takes the tree costs
    two atomic reference counts per array, and they run at every split attempt.)"""
    L = cls_len[node]
    for k in range(class_counts.shape[1] - 1, L - 1, -1):
        if class_counts[node, k] > 0.0:
            return k + 1
    return L
