"""UFFT's analytical cut point (002, "analytical method for split point selection").

For a numeric attribute and two classes with priors ``p1, p2``, means ``m1, m2`` and variances
``v1, v2`` (the Gaussian observer's per-class statistics), the two class-weighted normal
densities are equal where

.. math::

    \\ln p_1 - \\tfrac12 \\ln v_1 - \\frac{(x - m_1)^2}{2 v_1}
    = \\ln p_2 - \\tfrac12 \\ln v_2 - \\frac{(x - m_2)^2}{2 v_2},

a quadratic ``a x^2 + b x + c = 0`` with

.. math::

    a = \\frac{1}{2 v_2} - \\frac{1}{2 v_1},\\quad
    b = \\frac{m_1}{v_1} - \\frac{m_2}{v_2},\\quad
    c = \\frac{m_2^2}{2 v_2} - \\frac{m_1^2}{2 v_1} + \\ln\\frac{p_1}{p_2}
        - \\tfrac12 \\ln\\frac{v_1}{v_2}

(the quadratic discriminant with unequal variances).  It has up to two roots; the cut is the one
closer to the class means (to their midpoint ``(m1 + m2) / 2``).  With equal variances the
equation is linear (one root); where the discriminant is negative one weighted density lies
above the other everywhere and the midpoint of the means is taken instead (our choice: the
paper does not say).  The merit of the cut is the criterion (information gain) of the 2 x 2
table ``w_k Phi((cut - m_k) / sd_k)`` left and ``w_k (1 - Phi(...))`` right, from the normal CDF
alone: no instance is stored (:func:`normal_table`).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .observers import normal_cdf


@njit(cache=True)
def discriminant_coefficients(p1, m1, v1, p2, m2, v2):
    """(a, b, c) of the quadratic whose roots are where p1 N(m1, v1) = p2 N(m2, v2)."""
    a = 0.5 / v2 - 0.5 / v1
    b = m1 / v1 - m2 / v2
    c = 0.5 * m2 * m2 / v2 - 0.5 * m1 * m1 / v1 + math.log(p1 / p2) - 0.5 * math.log(v1 / v2)
    return a, b, c


@njit(cache=True)
def discriminant_roots(p1, m1, v1, p2, m2, v2):
    """The real roots (r1, r2) of the quadratic discriminant (NaN where there is none; one root
    of a linear equation is r1).  Numerically stable form ``q = -(b + sign(b) sqrt(D)) / 2``,
    roots ``q / a`` and ``c / q``."""
    a, b, c = discriminant_coefficients(p1, m1, v1, p2, m2, v2)
    scale = abs(b) + abs(0.5 / v1) + abs(0.5 / v2)
    if abs(a) <= 1e-12 * scale:  # equal variances: b x + c = 0
        if b == 0.0:
            return np.nan, np.nan
        return -c / b, np.nan
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return np.nan, np.nan
    sq = math.sqrt(disc)
    q = -0.5 * (b + sq) if b >= 0.0 else -0.5 * (b - sq)
    if q == 0.0:  # b = 0 and c = 0: a double root at 0
        return 0.0, 0.0
    return q / a, c / q


@njit(cache=True)
def analytic_cut(p1, m1, v1, p2, m2, v2):
    """UFFT's cut point: the root of the quadratic discriminant closer to the midpoint of the two
    means; the midpoint itself if there is no root or a variance is 0 (a class seen once or
    constant).  NaN if the two means coincide and no root exists (nothing separates them)."""
    mid = 0.5 * (m1 + m2)
    if not (v1 > 0.0 and v2 > 0.0 and p1 > 0.0 and p2 > 0.0):
        return mid if m1 != m2 else np.nan
    r1, r2 = discriminant_roots(p1, m1, v1, p2, m2, v2)
    if math.isnan(r1) and math.isnan(r2):
        return mid if m1 != m2 else np.nan
    if math.isnan(r2):
        return r1
    if math.isnan(r1):
        return r2
    return r1 if abs(r1 - mid) <= abs(r2 - mid) else r2


@njit(cache=True)
def normal_left(w, mean, var, cut):
    """Weight of a class's normal N(mean, var) of total weight w at or left of ``cut``
    (``w Phi((cut - mean) / sd)``; a point mass when var is 0)."""
    if w <= 0.0:
        return 0.0
    if var > 0.0:
        return w * normal_cdf((cut - mean) / math.sqrt(var))
    return w if cut >= mean else 0.0


@njit(cache=True)
def normal_table(g_w, g_mean, g_m2, s, j, cut, post):
    """The contingency table of the test ``x_j <= cut`` at slot s from the normal CDFs of every
    class (``post[0]`` left, ``post[1]`` right); no clipping to the observed range."""
    for k in range(g_w.shape[2]):
        w = max(g_w[s, j, k], 0.0)
        var = g_m2[s, j, k] / (w - 1.0) if w > 1.0 else 0.0
        left = normal_left(w, g_mean[s, j, k], var, cut)
        post[0, k] = left
        post[1, k] = w - left


@njit(cache=True)
def slot_cut(g_w, g_mean, g_m2, s, j):
    """The analytic cut of feature j at slot s, between the two classes of most weight there
    (the two classes of a pairwise tree); NaN if fewer than two classes were seen."""
    k1 = -1
    k2 = -1
    for k in range(g_w.shape[2]):
        w = g_w[s, j, k]
        if w <= 0.0:
            continue
        if k1 < 0 or w > g_w[s, j, k1]:
            k2 = k1
            k1 = k
        elif k2 < 0 or w > g_w[s, j, k2]:
            k2 = k
    if k2 < 0:
        return np.nan
    w1 = g_w[s, j, k1]
    w2 = g_w[s, j, k2]
    v1 = g_m2[s, j, k1] / (w1 - 1.0) if w1 > 1.0 else 0.0
    v2 = g_m2[s, j, k2] / (w2 - 1.0) if w2 > 1.0 else 0.0
    tot = w1 + w2
    return analytic_cut(w1 / tot, g_mean[s, j, k1], v1, w2 / tot, g_mean[s, j, k2], v2)
