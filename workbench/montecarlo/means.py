r"""Monte Carlo of Hoeffding's bound (000 eq. 1, 003 eq. 7, 004 eq. 1) on sample means.

The extreme laws for Hoeffding's inequality on ``[0, R]`` are two-point laws, so a trial draws
``m`` Bernoulli(``p``) variables scaled by ``R`` and records the sample mean.  The checks cover
both readings of the bound:

* one-sided (003, 004: "the true mean is at least the sample mean minus epsilon"): failure when
  :math:`\bar X - \mu \ge \varepsilon` (or the mirror image),
* two-sided (000: "does not differ by more than"): failure when :math:`|\bar X - \mu| > \varepsilon`,
  which Hoeffding's inequality only guarantees at level ``2 delta``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .. import bounds as _bounds
from .._rng import binomial, seed_state, uniform
from ._stats import (
    binom_greater_pvalue,
    require_closed_unit,
    require_int,
    require_open_unit,
    require_seed,
)


@njit(parallel=True, cache=True)
def _means_kernel(p, m, R, trials, seed, method, out):
    for t in prange(trials):
        s = seed_state(seed, t)
        if method == 0:
            k = 0
            for _ in range(m):
                if uniform(s) < p:
                    k += 1
        else:
            k = binomial(s, m, p)
        out[t] = R * k / m


@dataclass
class MeanSimulation:
    """Sample means of ``m`` scaled Bernoulli(``p``) variables, one per trial."""

    p: float
    m: int
    R: float
    trials: int
    seed: int
    means: np.ndarray
    seconds: float

    @property
    def mu(self):
        return self.R * self.p

    def deviations(self):
        return self.means - self.mu

    def check(self, delta, reading="one-sided"):
        """Binomial test of the failure probability of ``hoeffding(m, delta, R)`` against delta.

        ``reading``: ``"one-sided"`` (failure :math:`\\bar X-\\mu \\ge \\varepsilon`, Hoeffding's
        own statement), ``"lower"`` (failure :math:`\\mu - \\bar X \\ge \\varepsilon`) or
        ``"two-sided"`` (000 eq. 1 as printed: failure :math:`|\\bar X-\\mu| > \\varepsilon`).
        """
        require_open_unit("delta", delta)
        eps = _bounds.hoeffding(self.m, delta, self.R)
        dev = self.deviations()
        # a hair of slack so that exact lattice points (k/m - p == eps) count as ">="
        tol = 1e-12 * self.R
        if reading == "one-sided":
            n = int(np.count_nonzero(dev >= eps - tol))
        elif reading == "lower":
            n = int(np.count_nonzero(-dev >= eps - tol))
        elif reading == "two-sided":
            n = int(np.count_nonzero(np.abs(dev) > eps + tol))
        else:
            raise ValueError(
                f"reading must be 'one-sided', 'lower' or 'two-sided', got {reading!r}"
            )
        q = float(
            np.quantile(
                np.abs(dev)
                if reading == "two-sided"
                else (dev if reading == "one-sided" else -dev),
                1.0 - delta,
            )
        )
        return {
            "reading": reading,
            "p": self.p,
            "m": self.m,
            "R": self.R,
            "delta": delta,
            "bound": eps,
            "empirical_quantile": q,
            "ratio": eps / q if q > 0 else np.inf,
            "n_exceed": n,
            "trials": self.trials,
            "p_exceed": n / self.trials,
            "p_value": binom_greater_pvalue(n, self.trials, delta),
        }

    def exact_failure(self, delta, reading="one-sided"):
        """The same failure probability computed exactly from the binomial law (scipy)."""
        from scipy.stats import binom

        eps = _bounds.hoeffding(self.m, delta, self.R)
        k = np.arange(self.m + 1)
        dev = self.R * k / self.m - self.mu
        pmf = binom.pmf(k, self.m, self.p)
        tol = 1e-12 * self.R
        if reading == "one-sided":
            sel = dev >= eps - tol
        elif reading == "lower":
            sel = -dev >= eps - tol
        else:
            sel = np.abs(dev) > eps + tol
        return float(pmf[sel].sum())


def simulate_means(p, m, trials=100_000, seed=0, R=1.0, method="examples"):
    """Draw ``trials`` sample means of ``m`` variables equal to ``R`` w.p. ``p`` and 0 otherwise.

    >>> sim = simulate_means(0.5, 100, trials=50_000, seed=3)
    >>> sim.check(0.05)["p_exceed"] < 0.05
    True
    """
    p = require_closed_unit("p", p)
    m = require_int("m", m, 1)
    trials = require_int("trials", trials, 1)
    seed = require_seed(seed)
    R = float(R)
    if not (R > 0 and math.isfinite(R)):
        raise ValueError(f"R must be a finite number > 0, got {R!r}")
    codes = {"examples": 0, "counts": 1}
    if method not in codes:
        raise ValueError(f"method must be one of {sorted(codes)}, got {method!r}")
    out = np.empty(trials)
    t0 = time.perf_counter()
    _means_kernel(p, m, R, trials, seed, codes[method], out)
    return MeanSimulation(p, m, R, trials, seed, out, time.perf_counter() - t0)


def hoeffding_worst_case(delta, m_max=300, n_p=999, reading="two-sided"):
    """Exact search (scipy binomial law) for the Bernoulli law and ``m <= m_max`` at which the
    failure probability of ``hoeffding(m, delta)`` under ``reading`` is largest.

    Returns ``(failure_probability, m, p)``.  Used to pin down where 000's two-sided reading of
    eq. (1) fails.
    """
    from scipy.stats import binom

    require_open_unit("delta", delta)
    ps = np.linspace(0.0, 1.0, n_p + 2)[1:-1]
    best = (0.0, 0, 0.0)
    for m in range(1, m_max + 1):
        eps = _bounds.hoeffding(m, delta)
        k = np.arange(m + 1)[:, None]
        dev = k / m - ps[None, :]
        pmf = binom.pmf(k, m, ps[None, :])
        if reading == "two-sided":
            sel = np.abs(dev) > eps + 1e-12
        else:
            sel = dev >= eps - 1e-12
        fail = (pmf * sel).sum(axis=0)
        j = int(fail.argmax())
        if fail[j] > best[0]:
            best = (float(fail[j]), m, float(ps[j]))
    return best
