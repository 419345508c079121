"""UFFT's short-term memory (002): the most recent instances in a ring buffer.

A buffer of capacity B holds rows ``X[B, d]``, labels ``y[B]`` and time stamps ``t[B]`` (the
model's instance counter when the row arrived), and ``meta = [head, count]``: the oldest row is
at ``head`` and the rows follow it, wrapping around.  Inserting a row at the back and removing the
oldest at the front each take constant time (no row is moved); a full buffer drops its oldest row
when a new one comes in.  UFFT shares one buffer between all the trees of its forest and uses it
to fill new leaves (after a split, and after a drift prunes a subtree: then only the rows since the
warning, ``t >= k_w``, for the pruned node and for every leaf that later grows below it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

MEM_HEAD = 0
MEM_COUNT = 1


@njit(cache=True)
def mem_push(mX, my, mt, meta, X, i, c, t):
    """Append row i of X (label c, time t) at the back; a full buffer drops its oldest row."""
    cap = my.shape[0]
    if cap == 0:
        return
    if meta[MEM_COUNT] == cap:  # full: the oldest row makes room
        meta[MEM_HEAD] = (meta[MEM_HEAD] + 1) % cap
        meta[MEM_COUNT] -= 1
    pos = (meta[MEM_HEAD] + meta[MEM_COUNT]) % cap
    for j in range(X.shape[1]):
        mX[pos, j] = X[i, j]
    my[pos] = c
    mt[pos] = t
    meta[MEM_COUNT] += 1


@njit(cache=True)
def mem_pop(meta, cap):
    """Remove the oldest row; returns its position (-1 if the buffer is empty)."""
    if meta[MEM_COUNT] == 0:
        return -1
    pos = meta[MEM_HEAD]
    meta[MEM_HEAD] = (pos + 1) % cap
    meta[MEM_COUNT] -= 1
    return pos


@njit(cache=True)
def mem_position(meta, cap, r):
    """Position of the r-th oldest row (r = 0: the oldest)."""
    return (meta[MEM_HEAD] + r) % cap


class ShortTermMemory:
    """The ring buffer from Python (tests, notebooks); the forest kernel calls the functions.

    >>> import numpy as np
    >>> m = ShortTermMemory(3, 1)
    >>> for v in range(5):
    ...     m.push([float(v)], v % 2, v)
    >>> m.rows()[0].ravel().tolist(), m.pop()
    ([2.0, 3.0, 4.0], (array([2.]), 0, 2))
    """

    def __init__(self, capacity: int, n_features: int):
        if (
            isinstance(capacity, bool)
            or not isinstance(capacity, (int, np.integer))
            or capacity < 1
        ):
            raise ValueError(f"capacity must be a positive integer; got {capacity!r}")
        self.X = np.zeros((int(capacity), int(n_features)))
        self.y = np.zeros(int(capacity), np.int64)
        self.t = np.zeros(int(capacity), np.int64)
        self.meta = np.zeros(2, np.int64)

    def __len__(self) -> int:
        return int(self.meta[MEM_COUNT])

    def push(self, x, c: int, t: int) -> None:
        row = np.asarray(x, np.float64).reshape(1, -1)
        mem_push(self.X, self.y, self.t, self.meta, row, 0, int(c), int(t))

    def pop(self):
        pos = mem_pop(self.meta, self.y.shape[0])
        if pos < 0:
            raise IndexError("pop from an empty short-term memory")
        return self.X[pos].copy(), int(self.y[pos]), int(self.t[pos])

    def rows(self):
        """(X, y, t) oldest first."""
        cap = self.y.shape[0]
        idx = [(int(self.meta[MEM_HEAD]) + r) % cap for r in range(len(self))]
        return self.X[idx].copy(), self.y[idx].copy(), self.t[idx].copy()
