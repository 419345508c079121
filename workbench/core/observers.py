"""Attribute-class observers: the sufficient statistics a leaf keeps per (feature, class).

Numeric features: a Gaussian per class (MOA's and River's default numeric observer).  Each keeps
the weight ``w``, the running mean and the sum of squared deviations ``m2`` (West's weighted form
of Welford's update), and the smallest and largest value seen.  Candidate cut points are
``n_points`` equally spaced values strictly inside (min, max) of all classes; the weight of class
k left of a cut ``c`` is estimated as ``w_k * Phi((c - mean_k) / sd_k)`` (all of it if ``c`` is at
or beyond the class's largest value, none of it below its smallest), ``sd_k`` being the sample
standard deviation.

Nominal features: a count per (value, class).  A multiway split sends each value to its own
branch; naive Bayes uses the Laplace-smoothed ``(n_vk + 1) / (n_k + V)``.

Missing values (NaN) are not observed.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


@njit(cache=True)
def gaussian_update(g_w, g_mean, g_m2, g_min, g_max, s, j, k, x, w):
    """Add value ``x`` with weight ``w`` to the Gaussian of (slot s, feature j, class k)."""
    w0 = g_w[s, j, k]
    if w0 > 0.0:
        w1 = w0 + w
        mean0 = g_mean[s, j, k]
        mean1 = mean0 + w * (x - mean0) / w1
        g_m2[s, j, k] += w * (x - mean0) * (x - mean1)
        g_mean[s, j, k] = mean1
        g_w[s, j, k] = w1
    else:
        g_w[s, j, k] = w
        g_mean[s, j, k] = x
        g_m2[s, j, k] = 0.0
    if x < g_min[s, j, k]:
        g_min[s, j, k] = x
    if x > g_max[s, j, k]:
        g_max[s, j, k] = x


@njit(cache=True)
def gaussian_sd(w, m2):
    """Sample standard deviation sqrt(m2 / (w - 1)); 0 for a weight of at most 1."""
    if w > 1.0 and m2 > 0.0:
        return math.sqrt(m2 / (w - 1.0))
    return 0.0


@njit(cache=True)
def normal_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


@njit(cache=True)
def gaussian_range(g_w, g_min, g_max, s, j):
    """Smallest and largest value of feature j seen at slot s over all classes."""
    lo = np.inf
    hi = -np.inf
    for k in range(g_w.shape[2]):
        if g_w[s, j, k] > 0.0:
            if g_min[s, j, k] < lo:
                lo = g_min[s, j, k]
            if g_max[s, j, k] > hi:
                hi = g_max[s, j, k]
    return lo, hi


@njit(cache=True)
def gaussian_left_weight(w, mean, m2, lo, hi, cut):
    """Estimated weight of one class's Gaussian at or left of ``cut`` (x <= cut), from its weight,
    mean, squared deviations and range ``[lo, hi]``.  Scalars only: the split search calls this
    for every (cut point, class), and a call that takes arrays costs numba reference counting."""
    if w <= 0.0 or cut < lo:
        return 0.0
    if cut >= hi:
        return w
    sd = gaussian_sd(w, m2)
    if sd > 0.0:
        return w * normal_cdf((cut - mean) / sd)
    return w if cut >= mean else 0.0


@njit(cache=True)
def gaussian_binary_dists(g_w, g_mean, g_m2, g_min, g_max, s, j, cut, post):
    """Estimated class weights left (``post[0]``, x <= cut) and right (``post[1]``) of a cut."""
    for k in range(g_w.shape[2]):
        w = max(g_w[s, j, k], 0.0)
        left = gaussian_left_weight(
            w, g_mean[s, j, k], g_m2[s, j, k], g_min[s, j, k], g_max[s, j, k], cut
        )
        post[0, k] = left
        post[1, k] = w - left
