"""DDM, the drift detection method of Gama, Medas, Castillo and Rodrigues (2004).

DDM watches the 0/1 error stream of a learner.  After i predictions with error rate p_i and
s_i = sqrt(p_i (1 - p_i) / i), it remembers the pair (p_min, s_min) at which p_i + s_i was
lowest, and signals

* a warning when p_i + s_i >= p_min + 2 s_min,
* a drift when p_i + s_i >= p_min + 3 s_min,

(:func:`workbench.bounds.ddm_levels`) but only once ``min_instances`` (30) errors have been
seen.  After a drift the detector starts afresh, and the learner it watches is usually reset.
``strict=True`` compares with ``>`` as MOA does; with ``>=`` a stream that starts with 30
correct predictions (s_min = 0) signals drift at its first error (see docs/bounds_findings.md).

:func:`ddm_step` and :func:`ddm_reset` work on a 4-slot float array
``[i, errors, p_min, s_min]`` so that numba kernels (the tree engine's active-learning loop,
the Monte Carlo of false alarms) run the one implementation.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .._checks import check_bool, check_int
from ..bounds import ddm_levels_nb

NONE, WARNING, DRIFT = 0, 1, 2


@njit(cache=True)
def ddm_reset(state):
    state[0] = 0.0
    state[1] = 0.0
    state[2] = np.inf
    state[3] = np.inf


@njit(cache=True)
def ddm_step(state, err, min_instances, strict):
    """One DDM update with error ``err`` (0 or 1); returns (warning, drift).

    The minimum is recorded, and anything signalled, only from ``min_instances`` examples on.
    """
    state[0] += 1.0
    state[1] += err
    i = state[0]
    p = state[1] / i
    sd = math.sqrt(p * (1.0 - p) / i)
    if i < min_instances:
        return False, False
    if p + sd < state[2] + state[3]:
        state[2] = p
        state[3] = sd
    return ddm_levels_nb(p, sd, state[2], state[3], strict)


class DDM:
    """Drift detector for a 0/1 error stream, one value at a time or a whole array.

    >>> from workbench.drift import DDM
    >>> import numpy as np
    >>> ddm = DDM()
    >>> errors = np.r_[np.random.default_rng(0).random(2000) < 0.1,
    ...                np.random.default_rng(1).random(2000) < 0.5].astype(float)
    >>> drifts = ddm.run(errors)[1]
    >>> bool(drifts[:2000].any()), bool(drifts[2000:].any())
    (False, True)
    """

    def __init__(self, min_instances: int = 30, strict: bool = True):
        self.min_instances = check_int(min_instances, "min_instances", 1)
        self.strict = check_bool(strict, "strict")
        self.state = np.empty(4)
        self.reset()

    def reset(self):
        ddm_reset(self.state)
        return self

    @property
    def n(self) -> int:
        return int(self.state[0])

    @property
    def error_rate(self) -> float:
        return self.state[1] / self.state[0] if self.state[0] else float("nan")

    def update(self, error) -> int:
        """Feed one error (truthy = a mistake); returns NONE, WARNING or DRIFT (and resets
        itself after a drift)."""
        warning, drift = ddm_step(
            self.state, 1.0 if error else 0.0, self.min_instances, self.strict
        )
        if drift:
            ddm_reset(self.state)
            return DRIFT
        return WARNING if warning else NONE

    def run(self, errors):
        """(warning, drift) boolean arrays for a whole error sequence."""
        try:
            arr = np.asarray(errors, dtype=np.float64)
        except (TypeError, ValueError):
            arr = None
        if arr is None or arr.ndim != 1 or not np.isin(arr, (0.0, 1.0)).all():
            raise ValueError(
                "errors must be a 1-D sequence of 0 (right) and 1 (wrong) values; got "
                f"{errors!r:.60}"
            )
        errors = np.ascontiguousarray(arr)
        return _run(errors, self.state, self.min_instances, self.strict)


@njit(cache=True)
def _run(errors, state, min_instances, strict):
    n = errors.shape[0]
    warning = np.zeros(n, np.bool_)
    drift = np.zeros(n, np.bool_)
    for i in range(n):
        w, dr = ddm_step(state, errors[i], min_instances, strict)
        warning[i] = w
        drift[i] = dr
        if dr:
            ddm_reset(state)
    return warning, drift
