"""Reproducible random streams for numba kernels (Monte Carlo trials, active-learning draws).

Every trial ``k`` of a simulation with seed ``s`` owns its own xoshiro256** generator whose
256-bit state is filled by SplitMix64 from ``(s, k)``.  A trial therefore draws the same numbers
whatever the number of threads or the order in which ``prange`` runs the trials, and seeding a
trial costs four SplitMix64 steps (nanoseconds, unlike re-seeding a Mersenne Twister).

xoshiro256** (Blackman & Vigna 2018) and SplitMix64 (Steele, Lea & Flood 2014) are public-domain
algorithms; this is an independent implementation from their published definitions, checked in
the tests against the reference output of xoshiro256** for the state (1, 2, 3, 4) and against a
pure-Python transcription.

Samplers: ``uniform`` (53-bit doubles in [0, 1)), ``bernoulli``, ``binomial`` (exact inversion,
from zero for small means, from the mode otherwise) and ``multinomial`` (conditional binomials).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, uint64

from .bounds import betainc_nb

_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_INV53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(inline="always")
def _splitmix_output(z):
    z = (z ^ (z >> uint64(30))) * uint64(_MIX1)
    z = (z ^ (z >> uint64(27))) * uint64(_MIX2)
    return z ^ (z >> uint64(31))


@njit(cache=True)
def seed_state(seed, stream):
    """xoshiro256** state for trial ``stream`` of a run seeded with ``seed`` (both >= 0)."""
    st = np.empty(4, np.uint64)
    z = uint64(seed) * uint64(_GOLDEN) + _splitmix_output(uint64(stream) + uint64(_GOLDEN))
    for i in range(4):
        z = z + uint64(_GOLDEN)
        st[i] = _splitmix_output(z)
    if st[0] == 0 and st[1] == 0 and st[2] == 0 and st[3] == 0:  # pragma: no cover
        st[0] = uint64(1)
    return st


@njit(inline="always")
def next_u64(s):
    """Advance the xoshiro256** state ``s`` (uint64[4], in place) and return 64 random bits."""
    r = _rotl(s[1] * uint64(5), 7) * uint64(9)
    t = s[1] << uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return r


@njit(inline="always")
def uniform(s):
    """Uniform double in [0, 1) with 53 random bits."""
    return float(next_u64(s) >> uint64(11)) * _INV53


@njit(inline="always")
def bernoulli(s, p):
    return uniform(s) < p


@njit(cache=True)
def _binomial_small(s, n, p):
    # inversion from zero; n * p is small so the search is short and q**n does not underflow
    q = 1.0 - p
    ratio = p / q
    pk = math.exp(n * math.log1p(-p))
    cdf = pk
    u = uniform(s)
    k = 0
    while u >= cdf and k < n:
        pk *= ratio * (n - k) / (k + 1.0)
        k += 1
        cdf += pk
    return k


@njit(cache=True)
def _binomial_mode(s, n, p):
    # inversion started at the mode: F(mode) from the incomplete beta function, then walk
    q = 1.0 - p
    mode = int((n + 1) * p)
    if mode > n:
        mode = n
    logpk = (
        math.lgamma(n + 1.0)
        - math.lgamma(mode + 1.0)
        - math.lgamma(n - mode + 1.0)
        + mode * math.log(p)
        + (n - mode) * math.log1p(-p)
    )
    pk = math.exp(logpk)
    if mode == n:
        cdf = 1.0
    else:
        cdf = betainc_nb(n - mode, mode + 1.0, q)  # P(X <= mode)
    u = uniform(s)
    k = mode
    if u < cdf:
        # smallest k with F(k) > u: walk down while F(k - 1) > u
        while k > 0:
            below = cdf - pk
            if below <= u:
                break
            pk *= (k / (n - k + 1.0)) * (q / p)
            cdf = below
            k -= 1
        return k
    while u >= cdf and k < n:
        pk *= ((n - k) / (k + 1.0)) * (p / q)
        k += 1
        cdf += pk
    return k


@njit(cache=True)
def binomial(s, n, p):
    """Binomial(n, p) draw by exact inversion (to double precision)."""
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - binomial(s, n, 1.0 - p)
    if n * p < 16.0:
        return _binomial_small(s, n, p)
    return _binomial_mode(s, n, p)


@njit(cache=True)
def multinomial(s, n, probs, out):
    """Multinomial(n, probs) counts written into ``out`` (conditional binomials)."""
    k = probs.size
    remaining = n
    for i in range(k - 1):
        rest = 0.0
        for j in range(i, k):
            rest += probs[j]
        if remaining == 0 or rest <= 0.0:
            out[i] = 0
            continue
        pi = probs[i] / rest
        if pi > 1.0:
            pi = 1.0
        c = binomial(s, remaining, pi)
        out[i] = c
        remaining -= c
    out[k - 1] = remaining


@njit(cache=True)
def categorical(s, cum):
    """Index ``j`` with probability ``cum[j] - cum[j-1]`` (``cum`` cumulative, last = 1)."""
    u = uniform(s)
    j = 0
    last = cum.size - 1
    while j < last and u >= cum[j]:
        j += 1
    return j


@njit(cache=True)
def _draw_uniforms(seed, stream, n):
    s = seed_state(seed, stream)
    out = np.empty(n)
    for i in range(n):
        out[i] = uniform(s)
    return out


@njit(cache=True)
def _draw_u64_from_state(state, n):
    s = state.copy()
    out = np.empty(n, np.uint64)
    for i in range(n):
        out[i] = next_u64(s)
    return out


@njit(cache=True)
def _draw_binomials(seed, n, p, size):
    out = np.empty(size, np.int64)
    for i in range(size):
        s = seed_state(seed, i)
        out[i] = binomial(s, n, p)
    return out


@njit(cache=True)
def _draw_multinomials(seed, n, probs, size):
    out = np.empty((size, probs.size), np.int64)
    for i in range(size):
        s = seed_state(seed, i)
        multinomial(s, n, probs, out[i])
    return out


def derive_seed(seed, *indices):
    """A 63-bit seed for sub-run ``indices`` of a run seeded with ``seed`` (SplitMix64 mixing)."""
    mask = (1 << 64) - 1
    z = int(seed) & mask
    for idx in indices:
        z = (z + _GOLDEN + (int(idx) & mask)) & mask
        z = ((z ^ (z >> 30)) * _MIX1) & mask
        z = ((z ^ (z >> 27)) * _MIX2) & mask
        z ^= z >> 31
    return z >> 1


@njit(inline="always")
def normal(s):
    """Standard normal variate (Box-Muller from two uniforms; the second value is dropped)."""
    u1 = 1.0 - uniform(s)  # in (0, 1]: log is finite
    u2 = uniform(s)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
