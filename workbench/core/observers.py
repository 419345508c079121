"""Attribute-class observers: the sufficient statistics a leaf keeps per (feature, class).

Numeric features: a Gaussian per class (MOA's and River's default numeric observer).  Each keeps
the weight ``w``, the running mean and the sum of squared deviations ``m2`` (West's weighted form
of Welford's update, :func:`workbench.core.observe.welford_update`), and the smallest and
largest value seen.  Candidate cut points are
``n_points`` equally spaced values strictly inside (min, max) of all classes; the weight of class
k left of a cut ``c`` is estimated as ``w_k * Phi((c - mean_k) / sd_k)`` (all of it if ``c`` is at
or beyond the class's largest value, none of it below its smallest), ``sd_k`` being the sample
standard deviation.  The split search scores the candidates with :func:`gaussian_left_weight`;
the split it installs takes its branches' weights from :func:`gaussian_split_weights`, in the
order of operations of MOA's ``GaussianEstimator`` (the weight at the cut, below it, and the
rest) with the normal CDF of MOA's ``Statistics.normalProbability`` (:func:`moa_normal_cdf`):
the counts the new leaves inherit are then MOA's to the last bit, and the Hoeffding tree's grace
period, which adds them up and compares the sum with whole numbers, fires where MOA's fires.
(The candidates' merits differ from MOA's by rounding only, and estimated weights never tie.)

Nominal features: a count per (value, class).  A multiway split sends each value to its own
branch; naive Bayes uses the Laplace-smoothed ``(n_vk + 1) / (n_k + V)``.

Missing values (NaN) are not observed.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)


@njit(cache=True)
def gaussian_sd(w, m2):
    """Sample standard deviation sqrt(m2 / (w - 1)); 0 for a weight of at most 1."""
    if w > 1.0 and m2 > 0.0:
        return math.sqrt(m2 / (w - 1.0))
    return 0.0


@njit(cache=True)
def normal_cdf(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


# A cheaper normal CDF for the split search's screen (search.screen_keeps): on (-9, 9), 64 pieces
# of equal width, each a polynomial of degree 9 interpolating normal_cdf at Chebyshev nodes
# (0 below -9, 1 from 9 on: Phi(-9) is 1.1e-19).  Against scipy.special.ndtr on 2e7 points of
# [-9.5, 9.5] it is within 1.6e-15; the screen allows PHI_FAST_ERROR, 60 times that (a test
# checks the table against ndtr).  About 5 ns against 19 for erfc.
PHI_SPAN = 9.0
PHI_PIECES = 64
PHI_DEGREE = 9
PHI_FAST_ERROR = 1e-13


def _phi_table():
    nodes = np.cos(np.pi * (np.arange(PHI_DEGREE + 1) + 0.5) / (PHI_DEGREE + 1))
    width = 2.0 * PHI_SPAN / PHI_PIECES
    table = np.empty((PHI_PIECES, PHI_DEGREE + 1))
    for p in range(PHI_PIECES):
        z = -PHI_SPAN + (p + 0.5) * width + 0.5 * width * nodes
        values = [0.5 * math.erfc(-v / math.sqrt(2.0)) for v in z]
        fit = np.polynomial.chebyshev.chebfit(nodes, values, PHI_DEGREE)
        table[p] = np.polynomial.chebyshev.cheb2poly(fit)  # powers of t in [-1, 1]
    return table


PHI_TABLE = _phi_table()
_PHI_SCALE = PHI_PIECES / (2.0 * PHI_SPAN)


@njit(inline="always")
def normal_cdf_fast(z):
    """:func:`normal_cdf` within ``PHI_FAST_ERROR``, from ``PHI_TABLE`` (no call); NaN for NaN."""
    if not z > -PHI_SPAN:
        return 0.0 if z <= -PHI_SPAN else np.nan
    if z >= PHI_SPAN:
        return 1.0
    u = (z + PHI_SPAN) * _PHI_SCALE
    p = min(int(u), PHI_PIECES - 1)
    t = 2.0 * (u - p) - 1.0
    r = PHI_TABLE[p, PHI_DEGREE]
    for q in range(PHI_DEGREE - 1, -1, -1):
        r = r * t + PHI_TABLE[p, q]
    return min(max(r, 0.0), 1.0)  # (a probability, like the exact one)


@intrinsic
def float_bits(typingctx, x):
    """The IEEE 754 bits of a float64 as an int64 (a bit cast, no conversion)."""
    if not isinstance(x, types.Float) or x.bitwidth != 64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(types.float64), codegen


@intrinsic
def bits_float(typingctx, b):
    """The float64 whose IEEE 754 bits are the int64 ``b`` (a bit cast)."""
    if not isinstance(b, types.Integer) or b.bitwidth != 64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())

    return types.float64(types.int64), codegen


# log2 without a call, for the split search's screen: a = 2^e m with m in [sqrt(1/2), sqrt(2)),
# ln m = 2 atanh(s) = 2 (s + s^3/3 + ... + s^17/17 + ...) with s = (m - 1)/(m + 1), |s| < 0.1716;
# the series' rest after s^17/17 is below 3e-16 relative.  Against math.log2 on 2e6 numbers from
# 1e-300 to 1e304 it is within 1.2e-13 (a few units in the last place of |log2 a| <= 1024); the
# screen allows LOG2_FAST_ERROR.  Normal positive numbers only: the caller tests for the rest.
LOG2_FAST_ERROR = 1e-11


@njit(inline="always")
def log2_fast(a):
    """log2 of a normal positive float64 within ``LOG2_FAST_ERROR``, without a call (its steps
    vectorise over an array)."""
    bits = float_bits(a)
    e = ((bits >> 52) & 0x7FF) - 1023
    m = bits_float((bits & 0xFFFFFFFFFFFFF) | 0x3FF0000000000000)
    big = m > 1.4142135623730951
    m = m * 0.5 if big else m
    e = e + 1 if big else e
    t = (m - 1.0) / (m + 1.0)
    z = t * t
    p = 1.0 / 17.0
    p = p * z + 1.0 / 15.0
    p = p * z + 1.0 / 13.0
    p = p * z + 1.0 / 11.0
    p = p * z + 1.0 / 9.0
    p = p * z + 1.0 / 7.0
    p = p * z + 1.0 / 5.0
    p = p * z + 1.0 / 3.0
    p = p * z + 1.0
    return e + (2.0 / math.log(2.0)) * (t * p)


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


# The normal CDF as MOA's ``moa.core.Statistics.normalProbability`` computes it: Cephes's
# rational approximations of erf (|x| <= 1) and erfc (W. J. Cody's coefficients, as in S. L.
# Moshier's Cephes library), evaluated by Horner's rule in the same order, so that the Gaussian
# observer's split estimates equal MOA's bit for bit (glibc's erfc differs in the last bits).
_ERF_T = np.array(
    [
        9.60497373987051638749e0,
        9.00260197203842689217e1,
        2.23200534594684319226e3,
        7.00332514112805075473e3,
        5.55923013010394962768e4,
    ]
)
_ERF_U = np.array(  # leading coefficient 1
    [
        3.35617141647503099647e1,
        5.21357949780152679795e2,
        4.59432382970980127987e3,
        2.26290000613890934246e4,
        4.92673942608635921086e4,
    ]
)
_ERFC_P = np.array(
    [
        2.46196981473530512524e-10,
        5.64189564831068821977e-1,
        7.46321056442269912687e0,
        4.86371970985681366614e1,
        1.96520832956077098242e2,
        5.26445194995477358631e2,
        9.34528527171957607540e2,
        1.02755188689515710272e3,
        5.57535335369399327526e2,
    ]
)
_ERFC_Q = np.array(  # leading coefficient 1
    [
        1.32281951154744992508e1,
        8.67072140885989742329e1,
        3.54937778887819891062e2,
        9.75708501743205489753e2,
        1.82390916687909736289e3,
        2.24633760818710981792e3,
        1.65666309194161350182e3,
        5.57535340817727675546e2,
    ]
)
_ERFC_R = np.array(
    [
        5.64189583547755073984e-1,
        1.27536670759978104416e0,
        5.01905042251180477414e0,
        6.16021097993053585195e0,
        7.40974269950448939160e0,
        2.97886665372100240670e0,
    ]
)
_ERFC_S = np.array(  # leading coefficient 1
    [
        2.26052863220117276590e0,
        9.39603524938001434673e0,
        1.20489539808096656605e1,
        1.70814450747565897222e1,
        9.60896809063285878198e0,
        3.36907645100081516050e0,
    ]
)
_MAXLOG = 7.09782712893383996732e2
_SQRTH = 7.07106781186547524401e-1


@njit(cache=True)
def _horner(x, coefs, monic):
    """sum_i c_i x^(n - i) by Horner's rule; ``monic``: with a leading coefficient 1 first."""
    if monic:
        acc = x + coefs[0]
    else:
        acc = coefs[0]
    for i in range(1, coefs.shape[0]):
        acc = acc * x + coefs[i]
    return acc


@njit(cache=True)
def _erf_small(x):
    """erf(x) for |x| <= 1 (Cephes)."""
    z = x * x
    return x * _horner(z, _ERF_T, False) / _horner(z, _ERF_U, True)


@njit(cache=True)
def _erfc_large(a):
    """erfc(a) for |a| >= 1 (Cephes)."""
    x = abs(a)
    z = -a * a
    if z < -_MAXLOG:
        return 2.0 if a < 0.0 else 0.0
    z = math.exp(z)
    if x < 8.0:
        p = _horner(x, _ERFC_P, False)
        q = _horner(x, _ERFC_Q, True)
    else:
        p = _horner(x, _ERFC_R, False)
        q = _horner(x, _ERFC_S, True)
    y = (z * p) / q
    if a < 0.0:
        y = 2.0 - y
    if y == 0.0:
        return 2.0 if a < 0.0 else 0.0
    return y


@njit(cache=True)
def moa_normal_cdf(a):
    """P(Z <= a) for a standard normal Z, as MOA's ``Statistics.normalProbability``: with
    x = a / sqrt(2), 0.5 + 0.5 erf(x) near 0, else 0.5 erfc(|x|) (or 1 minus it for x > 0)."""
    x = a * _SQRTH
    z = abs(x)
    if z < _SQRTH:
        return 0.5 + 0.5 * _erf_small(x)
    y = 0.5 * ((1.0 - _erf_small(z)) if z < 1.0 else _erfc_large(z))
    return 1.0 - y if x > 0.0 else y


SQRT_2PI = math.sqrt(2.0 * math.pi)


@njit(cache=True)
def gaussian_left_weight(w, mean, sd, lo, hi, cut, table=False):
    """Estimated weight of one class's Gaussian at or left of ``cut`` (x <= cut), from its weight,
    mean, standard deviation (:func:`gaussian_sd`) and range ``[lo, hi]``: the split search's
    fast estimate.  Scalars only: the split search calls this for every (cut point, class), and
    a call that takes arrays costs numba reference counting; it computes each class's standard
    deviation once for all the cut points of a feature (a square root and a division each).
    ``table``: the normal CDF from :func:`normal_cdf_fast` (the split screen's), within
    ``PHI_FAST_ERROR`` of :func:`normal_cdf`'s."""
    if w <= 0.0 or cut < lo:
        return 0.0
    if cut >= hi:
        return w
    if sd > 0.0:
        z = (cut - mean) / sd
        return w * (normal_cdf_fast(z) if table else normal_cdf(z))
    return w if cut >= mean else 0.0


@njit(cache=True)
def gaussian_split_weights(w, mean, m2, lo, hi, cut):
    """Estimated weight of one class's Gaussian at or left of ``cut`` (x <= cut) and right of
    it, from its weight, mean, squared deviations and range ``[lo, hi]``: all of it right if the
    cut is below the smallest value, all left if at or above the largest; otherwise, as MOA's
    ``GaussianEstimator.estimatedWeight_LessThan_EqualTo_GreaterThan_Value`` splits it, the
    weight *at* the cut (density times weight), the weight below it (``w Phi(z)`` less that) and
    the rest, the left branch getting the first two."""
    if w <= 0.0:
        return 0.0, 0.0
    if cut < lo:
        return 0.0, w
    if cut >= hi:
        return w, 0.0
    sd = math.sqrt(m2 / (w - 1.0)) if w > 1.0 else 0.0
    diff = cut - mean
    if sd > 0.0:
        equal = (1.0 / (SQRT_2PI * sd)) * math.exp(-(diff * diff / (2.0 * sd * sd))) * w
        less = moa_normal_cdf(diff / sd) * w - equal
    else:
        equal = w if diff == 0.0 else 0.0
        less = w - equal if cut < mean else 0.0
    greater = w - equal - less
    if greater < 0.0:
        greater = 0.0
    return less + equal, greater


@njit(cache=True)
def gaussian_binary_dists(g_w, g_mean, g_m2, g_min, g_max, s, j, cut, post):
    """Estimated class weights left (``post[0]``, x <= cut) and right (``post[1]``) of a cut."""
    for k in range(g_w.shape[2]):
        post[0, k], post[1, k] = gaussian_split_weights(
            max(g_w[s, j, k], 0.0),
            g_mean[s, j, k],
            g_m2[s, j, k],
            g_min[s, j, k],
            g_max[s, j, k],
            cut,
        )
