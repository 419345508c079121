r"""Bounds that stay valid when a leaf tests them again and again (issue 56).

A leaf of a Hoeffding tree does not test its bound once.  Every grace period it computes the
merits of its candidate splits and splits as soon as the margin clears epsilon: a test repeated
until it passes (optional stopping), among ``d`` attributes and their cut points (multiple
comparisons).  A bound that holds at one fixed sample size with probability ``1 - delta`` says
nothing about the event "some look, on some candidate, was fooled": that event is a union over
all the looks and candidates, and its probability grows with their number.  Two remedies, both
derived in ``docs/anytime_bounds.md``:

(a) **Delta spent over the looks and the candidates** (a union bound).  The ``k``-th look of a
    leaf gets :math:`\delta_k = \delta / (k(k+1))`, split evenly over the ``c`` candidates it
    compares; since :math:`\sum_{k \ge 1} 1/(k(k+1)) = 1` the probability that any look is
    fooled on any candidate is at most ``delta`` (:func:`spent_delta`).  For a statement about
    the whole tree, a node at depth ``h`` of a tree whose nodes have at most ``b`` branches gets
    a further share :math:`1 / ((h+1)(h+2) b^h)`: at most :math:`b^h` nodes sit at depth
    ``h``, so the shares of all nodes ever made add up to at most 1 (000's eq. (7) counts its
    depths the same way).  This is valid only when the sample size of the ``k``-th look is fixed
    in advance given ``k`` (a fixed grace period, counted on the leaf's own examples); a
    schedule that moves the looks with the data must count every possible sample size as a look
    (``looks = n``).
(b) **A confidence sequence** (time-uniform: valid at every sample size at once, so the leaf
    may look whenever it likes, on any schedule): the polynomial stitched boundary of Howard,
    Ramdas, McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
    sequences", Annals of Statistics 49(2), 2021 (their Theorem 1 with the stitching function
    of their eq. (10)), applied to the *frequency of every event* of a candidate's
    (class x branch) table, each a mean of bounded variables for which the boundary is valid.
    Together they bound the total-variation distance between the leaf's empirical table and the
    true one at every sample size (:func:`cs_tv`); a continuity bound then carries that to the
    impurity itself: the conditional Gini index moves by at most twice the total variation, the
    conditional entropy by at most Audenaert's sharp Fannes bound on the joint and on the
    branch marginal (:func:`cs_gini`, :func:`cs_entropy`).

Which statistic a bound is valid for matters.  000's entropy and Gini bounds (Theorems 1-2,
:func:`workbench.bounds.entropy`, :func:`workbench.bounds.gini`) are McDiarmid-type: they hold
for the plug-in conditional impurity of one binary split with two classes, so a rule that
compares impurities with ``2 epsilon`` (C-Tree's) is covered.  **Hoeffding's bound does not hold
for the information gain** (a gain is not a mean of independent bounded variables; the test
``tests/test_bounds.py::test_vfdt_hoeffding_rule_on_information_gain_fails`` shows its one-look
rate above delta): :func:`hoeffding_looks` spends delta over the looks as VFDT would need to, and
so repairs the optional stopping, but not the statistic.  It is here for comparison only.

Every bound exists twice, as in the other modules: a numba scalar core ``<name>_nb`` that a
kernel calls, without checks, and a checked, broadcasting Python function ``<name>``.

The cores and what a kernel must pass (``n`` is the number of the leaf's **own** examples behind
the merits compared, not a weight that includes a class distribution inherited from the parent:
every bound here is about the sample the statistics were computed from):

=====================================================================  =====================
``spent_delta_nb(delta, looks, n_candidates, depth, branching)``        the delta of one test
``hoeffding_looks_nb(n, delta, R, looks, n_candidates, depth,           radius on a merit
branching)``                                                            (VFDT; not valid for IG)
``gini_looks_nb(n, delta, looks, n_candidates, depth, branching)``      radius on the
                                                                        conditional Gini (000
                                                                        Thm 2; 2 classes, 2
                                                                        branches)
``entropy_looks_nb(n, delta, looks, n_candidates, depth, branching)``   radius on the
                                                                        conditional entropy in
                                                                        bits (000 Thm 1; 2
                                                                        classes, 2 branches)
``stitched_nb(n, delta, sigma, n0)``                                    time-uniform radius of
                                                                        a mean (one-sided)
``cs_tv_nb(n, delta, n_cells)``                                         time-uniform TV radius
``cs_gini_nb(n, delta, n_classes, n_branches, n_candidates, depth,      time-uniform radius on
branching)``                                                            the conditional Gini
``cs_entropy_nb(n, delta, n_classes, n_branches, n_candidates, depth,   time-uniform radius on
branching)``                                                            the conditional entropy
                                                                        in bits
=====================================================================  =====================

``looks``: the split attempts this leaf has made, this one included (1 at the first);
``n_candidates``: the candidate splits compared at the attempt (every feature's every cut point
that could have been chosen; ``d`` for one split per feature); ``depth``: the leaf's depth
(root 0); ``branching``: the most branches a node of this tree can have for a per-tree
statement, or 0 for a statement per leaf (no share over the nodes).  The impurity radii are
used with a rule that compares impurities (or gains of one leaf, which differ by the same
amount) with ``2 epsilon``: the chosen candidate is then truly better than each other one unless
some candidate's estimate left its radius.

Examples
--------
>>> from workbench import bounds
>>> bounds.spent_delta(0.05, looks=3, n_candidates=5)   # 0.05 / (3 * 4 * 5)
0.0008333333333333334
>>> # the 50th look at 10,000 examples, 5 candidates: the confidence sequence is the tighter
>>> bool(bounds.cs_gini(10_000, 0.05, n_candidates=5)
...      < bounds.gini_looks(10_000, 0.05, looks=50, n_candidates=5))
True
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ._checks import _finish, _first_bad, _integer, _open_unit, _positive
from .ctree import entropy_nb, gini_nb
from .hoeffding import hoeffding_nb

#: the stitching's parameters (Howard et al. 2021, eq. (10)): epochs grow by the factor
#: ``STITCH_ETA``, epoch ``k`` gets the share ``1 / ((k+1)^s zeta(s))`` of delta
STITCH_ETA = 2.0
STITCH_S = 1.4
#: Riemann's zeta at ``STITCH_S`` (``scipy.special.zeta(1.4)``; a test checks it)
ZETA_S = 3.1055472779775806
#: the sample size near which the stitched boundary is tightest (its intrinsic time ``m`` is
#: ``CS_N0 * sigma^2``); below it the boundary stays at its value at ``CS_N0``
CS_N0 = 500.0

_LN2 = math.log(2.0)


# =============================================================================================
# (a) delta spent over the looks, the candidates and the nodes
# =============================================================================================


@njit(cache=True)
def _log_node_share(depth, branching):
    """log of 1 / the share of a node at ``depth`` (0 when ``branching < 2``: per leaf)."""
    if branching < 2:
        return 0.0
    return math.log((depth + 1.0) * (depth + 2.0)) + depth * math.log(float(branching))


@njit(cache=True)
def spent_delta_nb(delta, looks, n_candidates, depth, branching):
    """Scalar core of :func:`spent_delta`."""
    share = looks * (looks + 1.0) * n_candidates
    return delta / share * math.exp(-_log_node_share(depth, branching))


def spent_delta(delta, looks, n_candidates=1, depth=0, branching=0):
    r"""The confidence of one test when a leaf spends ``delta`` over its looks and candidates.

    .. math:: \delta_{k,c,h} = \frac{\delta}{k(k+1)\,c}\cdot\frac{1}{(h+1)(h+2)\,b^h}

    for the ``k``-th look (``looks``), ``c`` candidates (``n_candidates``) and, when
    ``branching = b >= 2``, a node at depth ``h``; with ``branching = 0`` the second factor is 1
    (a statement per leaf).  The sum of :math:`\delta_{k,c,h}` over every look, candidate and
    node is at most ``delta``, so a union bound gives: with probability at least ``1 - delta``
    no test of any look (of any node) is fooled.  Valid when the ``k``-th look's sample size is
    fixed in advance given ``k``.

    Examples
    --------
    >>> spent_delta(0.05, 1)
    0.025
    >>> round(spent_delta(0.05, 1, depth=1, branching=2), 6)   # 0.025 / (2 * 3 * 2)
    0.002083
    """
    d_ = _open_unit("delta", delta)
    k_ = _integer("looks", looks, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    b_ = _integer("branching", branching, 0)
    out = _map(spent_delta_nb, "fiiii", d_, k_, c_, h_, b_)
    return _finish(out, delta, looks, n_candidates, depth, branching)


@njit(cache=True)
def hoeffding_looks_nb(n, delta, R, looks, n_candidates, depth, branching):
    """Scalar core of :func:`hoeffding_looks`."""
    return hoeffding_nb(n, spent_delta_nb(delta, looks, n_candidates, depth, branching), R)


def hoeffding_looks(n, delta, R=1.0, looks=1, n_candidates=1, depth=0, branching=0):
    r"""Hoeffding's radius at the spent delta of :func:`spent_delta` (VFDT's test, repeated).

    .. math:: \varepsilon = R\sqrt{\frac{1}{2n}\ln\frac{1}{\delta_{k,c,h}}}

    **Not valid for information gain**: Hoeffding's inequality is about a mean of independent
    variables with range ``R``, and a gain (or a difference of gains) is not one.  Spending
    delta over the looks repairs the repeated testing only; it is the comparison that shows how
    much of VFDT's excess comes from the looks and how much from the statistic.

    Examples
    --------
    >>> round(hoeffding_looks(1000, 0.05, looks=1), 4)   # Hoeffding at delta / 2
    0.0429
    """
    n_, d_, r_ = _positive("n", n), _open_unit("delta", delta), _positive("R", R)
    k_ = _integer("looks", looks, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    b_ = _integer("branching", branching, 0)
    out = _map(hoeffding_looks_nb, "fffiiii", n_, d_, r_, k_, c_, h_, b_)
    return _finish(out, n, delta, R, looks, n_candidates, depth, branching)


@njit(cache=True)
def gini_looks_nb(n, delta, looks, n_candidates, depth, branching):
    """Scalar core of :func:`gini_looks`."""
    return gini_nb(n, spent_delta_nb(delta, looks, n_candidates, depth, branching))


def gini_looks(n, delta, looks=1, n_candidates=1, depth=0, branching=0):
    r"""000's Gini radius (Theorem 2, eq. 5) at the spent delta of :func:`spent_delta`.

    .. math:: \varepsilon = \sqrt{\frac{8}{n}\ln\frac{2}{\delta_{k,c,h}}} + 4\sqrt{\frac{1}{n}}

    Valid for the plug-in conditional Gini index of a binary split with two classes (McDiarmid
    plus the estimator's bias), each candidate's, at every look: used with a ``2 epsilon`` rule
    on the impurities, the leaf splits on a truly worse candidate with probability at most
    ``delta`` over all its looks (and over all nodes, with ``branching``).

    Examples
    --------
    >>> round(gini_looks(10_000, 0.05, looks=1, n_candidates=2), 4)
    0.1037
    """
    n_, d_ = _positive("n", n), _open_unit("delta", delta)
    k_ = _integer("looks", looks, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    b_ = _integer("branching", branching, 0)
    out = _map(gini_looks_nb, "ffiiii", n_, d_, k_, c_, h_, b_)
    return _finish(out, n, delta, looks, n_candidates, depth, branching)


@njit(cache=True)
def entropy_looks_nb(n, delta, looks, n_candidates, depth, branching):
    """Scalar core of :func:`entropy_looks` (bits)."""
    dl = spent_delta_nb(delta, looks, n_candidates, depth, branching)
    return entropy_nb(n, dl) * 2.0 / _LN2


def entropy_looks(n, delta, looks=1, n_candidates=1, depth=0, branching=0):
    r"""000's entropy radius (Theorem 1, eq. 4) at the spent delta, in **bits**.

    .. math:: \varepsilon = \frac{2}{\ln 2}\left((\ln n)\sqrt{\frac{2}{n}
       \ln\frac{4}{\delta_{k,c,h}}} + \frac{2}{n}\right)

    000 states the radius for :math:`H_{1/2}` (half the entropy in nats); a tree's information
    gain is in bits, hence the factor :math:`2/\ln 2`.  Valid for the plug-in conditional
    entropy of a binary split with two classes; used with a ``2 epsilon`` rule on the gains of
    one leaf (which differ by the conditional entropies' difference).  Requires ``n >= 1``.

    Examples
    --------
    >>> round(entropy_looks(100_000, 0.05, looks=1, n_candidates=2), 3)
    0.357
    """
    n_, d_ = _positive("n", n), _open_unit("delta", delta)
    if (n_ < 1).any():
        raise ValueError(f"n must be >= 1 for the entropy bound, got {_first_bad(n_, n_ < 1)}")
    k_ = _integer("looks", looks, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    b_ = _integer("branching", branching, 0)
    out = _map(entropy_looks_nb, "ffiiii", n_, d_, k_, c_, h_, b_)
    return _finish(out, n, delta, looks, n_candidates, depth, branching)


# =============================================================================================
# (b) confidence sequences: the stitched boundary, total variation, impurities
# =============================================================================================


@njit(cache=True)
def stitched_log_nb(n, log_inv_delta, sigma, n0):
    """:func:`stitched_nb` with ``log(1 / delta)`` given (deltas far below 1e-308 stay exact)."""
    v = max(n, n0)  # below n0 the boundary stays at its value there (still valid)
    k1 = (STITCH_ETA**0.25 + STITCH_ETA**-0.25) / math.sqrt(2.0)
    ell = (
        STITCH_S * math.log(math.log(STITCH_ETA * v / n0))
        + math.log(ZETA_S / math.log(STITCH_ETA) ** STITCH_S)
        + log_inv_delta
    )
    # S(v) = k1 sqrt(v ell) for the sum with variance process v = n sigma^2; divided by n
    return k1 * sigma * math.sqrt(v * ell) / n


@njit(cache=True)
def stitched_nb(n, delta, sigma, n0):
    """Scalar core of :func:`stitched`."""
    return stitched_log_nb(n, -math.log(delta), sigma, n0)


def stitched(n, delta, R=1.0, n0=CS_N0, side="upper"):
    r"""Time-uniform radius of the mean of ``n`` independent variables with range ``R``.

    The polynomial stitched boundary of Howard, Ramdas, McAuliffe and Sekhon (2021, Theorem 1
    and eq. (10)), with :math:`\eta = 2`, :math:`s = 1.4`: a centred variable with range ``R``
    is sub-Gaussian with :math:`\sigma = R/2` (Hoeffding's lemma), so the sum
    :math:`S_n = \sum_{i \le n} (X_i - \mu)` has variance process :math:`V_n = n\sigma^2`, and
    with probability at least ``1 - delta``, **for every n at once**,

    .. math:: \frac{S_n}{n} < \frac{k_1}{n}\sqrt{V\,\ell(V)}, \quad
       \ell(V) = s\ln\ln\frac{\eta V}{m} + \ln\frac{\zeta(s)}{\delta\,(\ln\eta)^s},
       \quad k_1 = \frac{\eta^{1/4} + \eta^{-1/4}}{\sqrt 2},

    with :math:`V = \max(V_n, m)` and :math:`m = n_0\sigma^2` (the boundary is tightest near
    ``n0``; below it, it keeps its value at ``n0``, which the first epoch's line still
    covers).  ``side="upper"`` is this one-sided statement; ``"two-sided"`` bounds
    :math:`|S_n/n|` (delta / 2 per side).  Compared with Hoeffding's radius at one fixed n it
    costs a factor near :math:`k_1/\sqrt 2 \approx 1.02` and a :math:`\ln\ln n` term.

    Examples
    --------
    >>> from workbench import bounds
    >>> r = stitched(10_000, 0.05)
    >>> bool(bounds.hoeffding(10_000, 0.05) < r < 2 * bounds.hoeffding(10_000, 0.05))
    True
    """
    n_, d_, r_, n0_ = (
        _positive("n", n),
        _open_unit("delta", delta),
        _positive("R", R),
        _positive("n0", n0),
    )
    if side not in ("upper", "two-sided"):
        raise ValueError(f"side must be 'upper' or 'two-sided', got {side!r}")
    if side == "two-sided":
        d_ = d_ / 2.0
    out = _map(stitched_nb, "ffff", n_, d_, r_ / 2.0, n0_)
    return _finish(out, n, delta, R, n0)


@njit(cache=True)
def _log_events(n_cells):
    """log(2^N - 2): the events of an N-cell table other than the empty and the whole one."""
    if n_cells < 2:
        return -math.inf
    return n_cells * _LN2 + math.log1p(-(2.0 ** (1.0 - n_cells)))


@njit(cache=True)
def cs_tv_log_nb(n, log_inv_delta, n_cells):
    """:func:`cs_tv_nb` with ``log(1 / delta)`` given."""
    le = _log_events(n_cells)
    if le == -math.inf:
        return 0.0  # one cell: the empirical law is the true one
    return min(1.0, stitched_log_nb(n, log_inv_delta + le, 0.5, CS_N0))


@njit(cache=True)
def cs_tv_nb(n, delta, n_cells):
    """Scalar core of :func:`cs_tv`."""
    return cs_tv_log_nb(n, -math.log(delta), n_cells)


def cs_tv(n, delta, n_cells):
    r"""Time-uniform radius of the total-variation distance between an empirical law on
    ``n_cells`` cells and the true one.

    :math:`\mathrm{TV}(\hat P_n, P) = \max_A (\hat P_n(A) - P(A))` over the events ``A``; each
    :math:`\hat P_n(A)` is a mean of indicators (range 1), so the one-sided stitched boundary
    (:func:`stitched`) at :math:`\delta / (2^N - 2)` for each of the :math:`2^N - 2` non-trivial
    events gives, with probability at least ``1 - delta``, :math:`\mathrm{TV}(\hat P_n, P) <`
    this radius for every ``n`` at once.  (The union over events beats one over cells, whose
    radii add up: :math:`\ln 2^N` grows like ``N``, a sum of ``N`` radii like :math:`N^{3/2}`.)
    """
    n_, d_ = _positive("n", n), _open_unit("delta", delta)
    c_ = _integer("n_cells", n_cells, 1)
    return _finish(_map(cs_tv_nb, "ffi", n_, d_, c_), n, delta, n_cells)


@njit(cache=True)
def fannes_bits_nb(tv, n_cells):
    """Audenaert's sharp Fannes bound in bits: the most two laws on ``n_cells`` cells at total
    variation ``tv`` can differ in entropy."""
    if n_cells < 2 or tv <= 0.0:
        return 0.0
    if tv >= 1.0 - 1.0 / n_cells:
        return math.log2(n_cells)
    h = -(tv * math.log2(tv) + (1.0 - tv) * math.log2(1.0 - tv))
    return tv * math.log2(n_cells - 1.0) + h


@njit(cache=True)
def _log_inv_share(delta, n_candidates, depth, branching):
    return -math.log(delta) + math.log(float(n_candidates)) + _log_node_share(depth, branching)


@njit(cache=True)
def cs_gini_nb(n, delta, n_classes, n_branches, n_candidates, depth, branching):
    """Scalar core of :func:`cs_gini`."""
    tv = cs_tv_log_nb(
        n, _log_inv_share(delta, n_candidates, depth, branching), n_classes * n_branches
    )
    return min(2.0 * tv, 1.0)


def cs_gini(n, delta, n_classes=2, n_branches=2, n_candidates=1, depth=0, branching=0):
    r"""Time-uniform radius on the conditional Gini index of every candidate's table.

    With :math:`T` the total-variation radius of :func:`cs_tv` for the ``K x B`` table at
    :math:`\delta / c` per candidate (and the node's share with ``branching``), for every
    sample size at once and every candidate,

    .. math:: |\hat J(Y \mid F) - J(Y \mid F)| \le 2T.

    The conditional Gini index :math:`J = 1 - \sum_f \sum_y P_{yf}^2 / P_f` has partial
    derivatives :math:`1 - 2q_{y|f} + \sum_{y'} q_{y'|f}^2 \in [0, 2]`; two laws' tables differ
    by a vector that sums to zero, so J moves by at most (half the spread of the gradient,
    1) x :math:`\|\hat P - P\|_1 = 2T`.  Capped at 1, the range of a Gini difference.
    """
    n_, d_ = _positive("n", n), _open_unit("delta", delta)
    k_ = _integer("n_classes", n_classes, 2)
    b_ = _integer("n_branches", n_branches, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    br_ = _integer("branching", branching, 0)
    out = _map(cs_gini_nb, "ffiiiii", n_, d_, k_, b_, c_, h_, br_)
    return _finish(out, n, delta, n_classes, n_branches, n_candidates, depth, branching)


@njit(cache=True)
def cs_entropy_nb(n, delta, n_classes, n_branches, n_candidates, depth, branching):
    """Scalar core of :func:`cs_entropy` (bits)."""
    tv = cs_tv_log_nb(
        n, _log_inv_share(delta, n_candidates, depth, branching), n_classes * n_branches
    )
    r = fannes_bits_nb(tv, n_classes * n_branches) + fannes_bits_nb(tv, n_branches)
    return min(r, math.log2(n_classes))


def cs_entropy(n, delta, n_classes=2, n_branches=2, n_candidates=1, depth=0, branching=0):
    r"""Time-uniform radius, in bits, on the conditional entropy of every candidate's table.

    :math:`H(Y \mid F) = H(Y, F) - H(F)`; with :math:`T` the total-variation radius of
    :func:`cs_tv` for the ``K x B`` table (at :math:`\delta / c` per candidate), the branch
    marginal is at most :math:`T` away too, and Audenaert's sharp Fannes inequality
    (:math:`|H(P) - H(Q)| \le T\log_2(N - 1) + h_2(T)` on ``N`` cells, :math:`T \le 1 - 1/N`)
    on each gives, for every sample size at once,

    .. math:: |\hat H(Y \mid F) - H(Y \mid F)| \le T\log_2(KB - 1) + h_2(T)
       + T\log_2(B - 1) + h_2(T),

    capped at :math:`\log_2 K`.  The binary entropy :math:`h_2(T) \approx T\log_2(1/T)` makes
    this radius several times the Gini one: the price of a bound that holds for the entropy.
    """
    n_, d_ = _positive("n", n), _open_unit("delta", delta)
    k_ = _integer("n_classes", n_classes, 2)
    b_ = _integer("n_branches", n_branches, 1)
    c_ = _integer("n_candidates", n_candidates, 1)
    h_ = _integer("depth", depth, 0)
    br_ = _integer("branching", branching, 0)
    out = _map(cs_entropy_nb, "ffiiiii", n_, d_, k_, b_, c_, h_, br_)
    return _finish(out, n, delta, n_classes, n_branches, n_candidates, depth, branching)


def _map(core, kinds, *arrays):
    """``core`` (a jitted scalar function) over the broadcast arguments; ``kinds`` says which
    argument is a float (``"f"``) and which an integer (``"i"``), the types the core is
    compiled for (one variant, the one a kernel uses)."""
    shaped = np.broadcast_arrays(*arrays)
    out = np.empty(shaped[0].shape)
    flat = [a.ravel() for a in shaped]
    res = out.ravel()
    for i in range(res.size):
        res[i] = core(*[int(a[i]) if k == "i" else float(a[i]) for a, k in zip(flat, kinds)])
    return out
