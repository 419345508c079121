"""How much room a tree's arrays get under ``memory_limit_mb``, decided before they exist.

A tree's arrays (:class:`workbench.core.state.TreeState`) have a row per node and a row per
statistics slot, and double when the kernel runs out of free rows (``state.grow``).  The limit
must hold for all of it, the first allocation included: with a million features and two classes
one statistics slot holds 80 MB, and the 64 slots a new tree used to start with took 5 GB under
the default limit of 256 MB.

So the plan is made from the sizes of one row (read off a state of zero rows, which costs
nothing) before anything is allocated:

* the most nodes the tree may have in use, each holding a statistics slot, after the arrays of
  a fixed size (the roots, the counters, UFFT's short-term memory) and the rows that must stay
  free;
* for nodes and for slots apart, a final capacity ``c0 * 2**j`` at most that many plus the free
  rows, with ``c0`` the first capacity (at most the usual one): the doublings land on it;
* the memory guard ``P_MAX_NODES``: when the kernel stops for room, the arrays grow until
  ``free`` node rows (one split's branches and one) and a slot are free (``BaseTree._run``);
  the guard refuses a split that would leave fewer at the final capacities, so the arrays never
  grow past them.

A tree that cannot even start (its root, the free rows, and two statistics slots) is a
``ValueError`` naming ``memory_limit_mb`` and what it would need.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from ..core import state as st


class RoomPlan(NamedTuple):
    node_capacity: int  # rows of the first allocation
    slot_capacity: int
    max_nodes: float  # the memory guard (inf: no limit)


@functools.lru_cache(maxsize=256)
def row_bytes(n_features, n_classes, n_nominal, max_values, branch, n_bins=0, n_trees=1):
    """(bytes per node row, bytes per statistics slot, bytes of the fixed arrays) of a state
    with these sizes, computed from a state of zero rows (nothing of size is allocated).  Kept
    per sizes: every new tree asks, and building the empty state's forty arrays took 0.07 ms,
    about 1% of a prequential pass of the Hoeffding tree over Electricity."""
    empty = st.allocate(
        n_features,
        n_classes,
        n_nominal,
        max_values,
        branch,
        n_bins,
        node_capacity=0,
        slot_capacity=0,
        n_trees=n_trees,
    )

    def per_row(names):
        return sum(
            getattr(empty, f).itemsize * math.prod(getattr(empty, f).shape[1:]) for f in names
        )

    # + its free-list entry, and a row of the split log (a split per node, as a leaf-only
    # learner makes them; a re-evaluating one may make more, which the log then counts
    # without recording: log_limit)
    node = per_row(st.NODE_FIELDS) + np.dtype(np.int64).itemsize + empty.log.itemsize * st.N_LOG
    slot = per_row(st.SLOT_FIELDS) + np.dtype(np.int64).itemsize
    fixed = empty.roots.nbytes + empty.meta.nbytes
    return int(node), int(slot), int(fixed)


def _mb(n_bytes: float) -> str:
    mb = n_bytes / 2**20
    return f"{mb:,.0f} MB" if mb >= 1000 else f"{mb:.4g} MB"


def plan_room(
    limit_mb,
    *,
    node_bytes: int,
    slot_bytes: int,
    fixed_bytes: int,
    free_nodes: int,
    free_slots: int = 1,
    roots: int = 1,
    node_capacity: int,
    slot_capacity: int,
    what: str,
) -> RoomPlan:
    """The first capacities and the memory guard of a tree whose rows take ``node_bytes`` and
    ``slot_bytes`` (plus ``fixed_bytes`` of arrays of a fixed size) under ``limit_mb``
    megabytes (None: no limit; then the usual first capacities ``node_capacity`` and
    ``slot_capacity``).  When the kernel stops for room the arrays double until ``free_nodes``
    node rows and ``free_slots`` slots are free; ``roots`` nodes are taken from the start.
    ``what`` describes the tree for the error message."""
    if limit_mb is None:
        return RoomPlan(node_capacity, slot_capacity, math.inf)
    budget = float(limit_mb) * 2.0**20
    need = (roots + free_nodes) * node_bytes + (roots + free_slots) * slot_bytes + fixed_bytes
    if need > budget:
        raise ValueError(
            f"memory_limit_mb={limit_mb!r} is too small for even an empty tree: {what} needs "
            f"{_mb(need)} before it learns anything (a node takes {node_bytes:,} bytes and "
            f"{roots + free_nodes:,} are needed: the root{'s' if roots > 1 else ''} and room "
            f"for a split; a statistics slot takes {slot_bytes:,} bytes and "
            f"{roots + free_slots:,} are needed); raise memory_limit_mb to at least "
            f"{math.ceil(need / 2**20):,}, pass memory_limit_mb=None for no limit, or use "
            "fewer features, classes or nominal values"
        )
    # the most nodes in use: each may hold a slot, and the free rows come on top
    most = int((budget - need) // (node_bytes + slot_bytes)) + roots
    node_final, node_first = _doublings(most + free_nodes, node_capacity, roots + free_nodes)
    slot_final, slot_first = _doublings(most + free_slots, slot_capacity, roots + free_slots)
    return RoomPlan(
        node_first, slot_first, float(min(node_final - free_nodes, slot_final - free_slots))
    )


def _doublings(target: int, usual: int, least: int) -> tuple[int, int]:
    """(final, first) capacity: ``final = first * 2**j`` the largest such capacity up to
    ``target`` (``target >= least``), with ``first`` at least ``usual`` (below twice it) where
    the target allows, else ``target``.  (A first capacity below the usual one makes the kernel
    stop for room, and the arrays be copied, more often than with no limit at all.)"""
    floor = max(usual, least)
    j = 0
    while target >> (j + 1) >= floor:
        j += 1
    first = target >> j
    return first << j, first


def room_for(
    limit_mb,
    sizes,
    n_trees: int,
    learner: str,
    *,
    free_nodes: int | None = None,
    free_slots: int = 1,
    extra_node: int = 0,
    extra_fixed: int = 0,
    capacities: tuple[int, int],
) -> RoomPlan:
    """:func:`plan_room` for a tree of these ``sizes`` (the arguments of ``state.allocate``):
    its arrays grow (``BaseTree._run``) until ``free_nodes`` nodes (default: one split's
    branches and one) and ``free_slots`` slots are free; ``extra_node`` and ``extra_fixed`` are
    bytes of a learner's own arrays, per node and in all; ``capacities`` its usual first ones."""
    node, slot, fixed = row_bytes(*sizes, n_trees=n_trees)
    return plan_room(
        limit_mb,
        node_bytes=node + extra_node,
        slot_bytes=slot,
        fixed_bytes=fixed + extra_fixed,
        free_nodes=sizes[4] + 1 if free_nodes is None else free_nodes,
        free_slots=free_slots,
        roots=n_trees,
        node_capacity=capacities[0],
        slot_capacity=capacities[1],
        what=describe_sizes(learner, sizes),
    )


def log_limit(room: RoomPlan) -> float:
    """The split log's most rows (``P_LOG_LIMIT``): as many as nodes under a limit, none (0)
    without one."""
    return 0.0 if math.isinf(room.max_nodes) else float(room.max_nodes)


def check_memory_limit(value):
    """``memory_limit_mb`` checked: a positive number of megabytes, or None (also infinity,
    read as None) for no limit."""
    import numbers

    if value is None:
        return None
    if (
        isinstance(value, (bool, np.bool_))
        or not isinstance(value, numbers.Real)
        or not value > 0  # NaN too
    ):
        raise ValueError(
            "memory_limit_mb must be a positive number of megabytes, or None (or inf) for no "
            f"limit; got {value!r}"
        )
    return None if math.isinf(value) else float(value)


def describe_sizes(learner: str, sizes) -> str:
    """The sizes that make a tree's rows large, for an error message."""
    d, k, n_nominal, card = sizes[:4]
    text = f"a {learner} of {d:,} features and {k:,} classes"
    if n_nominal:
        text += f", with up to {card:,} values per nominal feature"
    return text


def allocate_within(sizes, room: RoomPlan, n_trees: int, limit_mb, learner: str):
    """``state.allocate`` with the planned capacities; without a limit, a request the machine
    cannot meet is a ``MemoryError`` that says what asked for it and how much."""
    try:
        return st.allocate(
            *sizes,
            node_capacity=room.node_capacity,
            slot_capacity=room.slot_capacity,
            n_trees=n_trees,
        )
    except MemoryError:
        node, slot, fixed = row_bytes(*sizes, n_trees=n_trees)
        want = room.node_capacity * node + room.slot_capacity * slot + fixed
        raise MemoryError(
            f"{describe_sizes(learner, sizes)} needs {_mb(want)} for its first "
            f"{room.node_capacity} nodes and {room.slot_capacity} statistics slots, more than "
            f"this machine can allocate (memory_limit_mb={limit_mb!r}); use fewer features, "
            "classes or nominal values"
        ) from None


def forest_bytes(n_features: int, n_classes: int, buffer_size: int) -> tuple[int, int]:
    """(bytes per node row, bytes of the fixed arrays) of UFFT's forest state
    (:func:`workbench.core.forest.allocate_forest`), from a forest of zero rows and an empty
    short-term memory, plus that memory's ``buffer_size`` rows."""
    from ..core import forest as fo

    empty = fo.allocate_forest(0, n_features, n_classes, 0)
    per_node = sum(
        a.itemsize * math.prod(a.shape[1:])
        for a in (empty.ddm, empty.warn_t, empty.ctx_t, empty.nb_tab, empty.nb_on)
    )
    row = (n_features + 2) * np.dtype(np.float64).itemsize  # mem_X, mem_y, mem_t
    fixed = sum(a.nbytes for a in empty) + buffer_size * row
    return int(per_node), int(fixed)
