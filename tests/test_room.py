"""How often the loop stops for room.

The kernel returns to Python when a split or a new statistics slot would not fit, or when the
split log is full; Python then doubles the arrays (a copy of every one of them) and calls the
kernel again, which rebuilds its routing tables.  On a short stream such stops are a measurable
part of the time (Electricity: 45,312 rows), so a memory limit and the split log must not make
more of them than the usual capacities do.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench import learners, streams
from workbench.core import state as st
from workbench.learners import _driver, _memory


def _stops(model, X, y):
    """Fit ``model`` and return the capacities (nodes, slots, log rows) at each stop."""
    seen = []

    def grow():
        s = model._state
        seen.append((s.kind.shape[0], s.g_w.shape[0], s.log.shape[0]))
        type(model)._grow(model)

    model._grow = grow
    model.fit(X, y)
    return seen


@pytest.mark.parametrize("limit", [4.0, 256.0, 10_000.0])
def test_a_limit_starts_at_the_usual_capacities_where_it_has_room(limit):
    """The first capacities were chosen so that doubling lands on the limit's last capacity,
    from below the usual ones: 103 nodes and 51 slots where no limit gives 128 and 64, and
    a tree under the default limit stopped for room more often than one without a limit."""
    sizes = (10, 2, 0, 1, 2)  # 10 numeric features, 2 classes, binary splits
    room = _memory.room_for(
        limit, sizes, 1, "HoeffdingTree", capacities=(_driver.NODE_CAPACITY, _driver.SLOT_CAPACITY)
    )
    assert _driver.NODE_CAPACITY <= room.node_capacity < 2 * _driver.NODE_CAPACITY
    assert _driver.SLOT_CAPACITY <= room.slot_capacity < 2 * _driver.SLOT_CAPACITY


def test_a_tight_limit_starts_at_what_it_allows():
    node, slot, fixed = _memory.row_bytes(10, 2, 0, 1, 2)
    limit = 40 * (node + slot) / 2**20  # room for about 40 nodes
    room = _memory.room_for(
        limit,
        (10, 2, 0, 1, 2),
        1,
        "HoeffdingTree",
        capacities=(_driver.NODE_CAPACITY, _driver.SLOT_CAPACITY),
    )
    # below the usual capacity the first allocation is all the limit allows, at once
    assert room.max_nodes <= 40 <= room.node_capacity < _driver.NODE_CAPACITY


def test_the_split_log_grows_with_the_nodes():
    """A split adds a log row and at least two nodes; the log kept its size when the nodes
    doubled, and stopped the kernel on its own when it filled."""
    T = st.allocate(3, 2, 0, 1, 2, node_capacity=8, slot_capacity=4)
    assert T.log.shape[0] == 8
    T.meta[st.M_N_NODES] = 8  # every node row in use
    T.meta[st.M_N_LOG] = 3
    G = st.grow(T, 3, 1)
    assert G.kind.shape[0] == 16 and G.log.shape[0] == 16
    np.testing.assert_array_equal(G.log[:8], T.log)
    # within the log's limit
    L = st.grow(T, 3, 1, 1, 10.0)
    assert L.kind.shape[0] == 16 and L.log.shape[0] == 10


@pytest.mark.parametrize("stream", ["random_tree", "electricity"])
def test_the_default_limit_stops_no_more_often_than_no_limit(stream):
    if stream == "electricity":
        X, y = streams.electricity()[:2]
    else:
        X, y = streams.random_tree(200_000, seed=1)[:2]
    limited = _stops(learners.HoeffdingTree(), X, y)
    unlimited = _stops(learners.HoeffdingTree(memory_limit_mb=None), X, y)
    assert len(limited) <= len(unlimited)
    # no stop came from the log alone: it was as large as the node arrays at every stop
    for nodes, _slots, log in limited + unlimited:
        assert log >= nodes
