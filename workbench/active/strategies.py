"""Label-query strategies for the ACTIVE setting of paper 000 (Algorithm 3).

Every strategy answers one question per instance, after the tree has predicted it: ask for the
label or not?  The protocol asks the strategy only while the query rate stays within the budget
B, and the tree learns only the labelled instances.

=================== ======================================================================
``Random``          Alg. 5: query with probability B.
``VarUncertainty``  Alg. 6 (Zliobaite et al.): query when the prediction's confidence (largest
                    class probability) is below a threshold Theta (start 1), which then shrinks
                    by a factor (1 - s); otherwise Theta grows by (1 + s).  s = 0.01.
``RndVarUncertainty`` as VarUncertainty with the threshold multiplied by a N(1, sigma = 1) draw.
``SelectiveSampling`` query with probability B / (B + |Y - 1/2|), Y the leaf's fraction of
                    positives (the largest class fraction for more than two classes).
``Split``           Alg. 7: with probability nu (0.2) the instance belongs to a random
                    sub-stream, labelled as by ``Random``; the rest as by ``VarUncertainty``.
                    Only the random sub-stream feeds the drift detector.
``ConfTree``        Alg. 2 (000): query every instance that reaches a leaf that is not
                    delta-consistent (|Y - 1/2| <= eps_lc(m, t, delta), eq. (9)); at a
                    consistent leaf query with probability (B + eps) / (B + eps + |Y - 1/2|).
                    delta = 1/t as in the paper's experiments.
``SplitConfTree``   ``Split`` with ``ConfTree`` in place of ``VarUncertainty``.
``Frugal``          003 (Izenov): query when p1 - p2 < alpha, the margin between the two
                    largest class probabilities of the prediction (Laplace leaves: eq. (2)).
                    No budget of its own (budget 1: the rule alone decides).
=================== ======================================================================

A strategy object holds parameters and state only; the decision itself is the numba function
:func:`decide`, which the engine's test-then-train loop calls per instance (and which
:meth:`Strategy.query` calls for one instance from Python, e.g. in the stepper).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numba import njit

from .._rng import normal, seed_state, uniform
from ..bounds import leaf_consistency_nb

RANDOM = 0
VAR_UNCERTAINTY = 1
RND_VAR_UNCERTAINTY = 2
SELECTIVE_SAMPLING = 3
SPLIT = 4
CONFTREE = 5
SPLIT_CONFTREE = 6
FRUGAL = 7

# parameter and state slots
S_STEP = 0  # s, threshold adjustment step
S_NU = 1  # nu, share of the random sub-stream
S_DELTA = 2  # delta of leaf consistency (<= 0: 1/t)
S_SIGMA = 3  # spread of the threshold randomisation
S_ALPHA = 4  # Frugal's threshold on the margin p1 - p2
N_SPARAMS = 5
ST_THETA = 0  # current confidence threshold


@njit(cache=True)
def conftree_query(rng, budget, gap, m, t, delta):
    """Algorithm 2 of 000 at a leaf with m labels and purity gap |Y - 1/2| at time t."""
    if m <= 0.0:
        return True
    if delta <= 0.0:
        delta = 1.0 / t
    eps = leaf_consistency_nb(m, t, delta)
    if gap <= eps:  # not delta-consistent: always ask
        return True
    return uniform(rng) <= (budget + eps) / (budget + eps + gap)


@njit(cache=True)
def var_uncertainty_query(rng, sparams, sstate, confidence, randomised):
    """Algorithms 6 (and its randomised variant): compare the confidence with Theta."""
    theta = sstate[ST_THETA]
    level = theta
    if randomised:
        level = theta * (1.0 + sparams[S_SIGMA] * normal(rng))
    if confidence < level:
        sstate[ST_THETA] = theta * (1.0 - sparams[S_STEP])
        return True
    sstate[ST_THETA] = theta * (1.0 + sparams[S_STEP])
    return False


@njit(cache=True, inline="always")
def top_two_margin(proba):
    """p1 - p2: the largest class probability minus the second largest (003's margin)."""
    p1 = -np.inf
    p2 = -np.inf
    for k in range(proba.shape[0]):
        v = proba[k]
        if v > p1:
            p2 = p1
            p1 = v
        elif v > p2:
            p2 = v
    return p1 - p2


@njit(cache=True, inline="always")
def frugal_query(sparams, margin):
    """003's rule: ask when the margin p1 - p2 is below alpha (strictly, as printed)."""
    return margin < sparams[S_ALPHA]


@njit(cache=True)
def decide(code, sparams, sstate, rng, budget, confidence, gap, m, t, margin=1.0):
    """Ask for the label of the current instance?  Returns (query, from the random sub-stream).

    confidence  the prediction's largest class probability
    gap         |Y - 1/2| at the leaf reached (Y: its fraction of positives)
    m           labels the leaf has learned from;  t  instances seen so far (>= 1)
    margin      p1 - p2, the prediction's two largest class probabilities (Frugal)
    """
    if code == FRUGAL:
        return frugal_query(sparams, margin), False
    if code == RANDOM:
        return uniform(rng) <= budget, True
    if code == VAR_UNCERTAINTY:
        return var_uncertainty_query(rng, sparams, sstate, confidence, False), False
    if code == RND_VAR_UNCERTAINTY:
        return var_uncertainty_query(rng, sparams, sstate, confidence, True), False
    if code == SELECTIVE_SAMPLING:
        return uniform(rng) <= budget / (budget + gap), False
    if code == CONFTREE:
        return conftree_query(rng, budget, gap, m, t, sparams[S_DELTA]), False
    # SPLIT and SPLIT_CONFTREE
    if uniform(rng) <= sparams[S_NU]:
        return uniform(rng) <= budget, True
    if code == SPLIT:
        return var_uncertainty_query(rng, sparams, sstate, confidence, False), False
    return conftree_query(rng, budget, gap, m, t, sparams[S_DELTA]), False


# slots of the ``counters`` vector of an ACTIVE run (the engine's loop and Strategy.query)
C_QUERIED = 0  # labels queried
C_SEEN = 1  # instances seen
C_DRIFTS = 2
C_WARNINGS = 3


@njit(cache=True)
def decide_rows(code, sparams, sstate, rng, budget, proba, gap, m, counters, out):
    """The query decisions of a whole batch, each made from the same model (the mini-batch
    protocol of 003: the model as it stood at the batch's start).  ``proba`` [n, K] are the
    batch's predicted class probabilities, ``gap`` and ``m`` the leaf quantities of
    :func:`decide` per row; the budget rule and ``counters`` as in the engine's query step.
    ``out[i]`` becomes 1 for a queried row."""
    for i in range(proba.shape[0]):
        counters[C_SEEN] += 1
        out[i] = 0
        if counters[C_QUERIED] + 1 <= budget * counters[C_SEEN]:
            row = proba[i]
            q, _r = decide(
                code,
                sparams,
                sstate,
                rng,
                budget,
                row.max(),
                gap[i],
                m[i],
                float(counters[C_SEEN]),
                top_two_margin(row),
            )
            if q:
                out[i] = 1
                counters[C_QUERIED] += 1


class Strategy:
    """Parameters and state of a label-query strategy (see the module docstring)."""

    code = -1
    name = ""

    def __init__(
        self,
        *,
        budget: float | None = None,
        s: float = 0.01,
        nu: float = 0.2,
        delta: float | None = None,
        sigma: float = 1.0,
        seed: int = 0,
    ):
        for value, label in ((s, "s"), (nu, "nu")):
            if not isinstance(value, numbers.Real) or not 0 < value <= 1:
                raise ValueError(f"{label} must be in (0, 1]; got {value!r}")
        if delta is not None and not (isinstance(delta, numbers.Real) and 0 < delta < 1):
            raise ValueError(f"delta must be in (0, 1) or None (1/t); got {delta!r}")
        if not isinstance(sigma, numbers.Real) or not sigma >= 0 or not math.isfinite(sigma):
            raise ValueError(f"sigma must be a finite number >= 0; got {sigma!r}")
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer; got {seed!r}")
        if budget is not None and (
            isinstance(budget, bool) or not isinstance(budget, numbers.Real) or not 0 < budget <= 1
        ):
            raise ValueError(f"budget must be a query rate in (0, 1] or None; got {budget!r}")
        self.budget = budget
        self.s, self.nu, self.delta, self.sigma, self.seed = s, nu, delta, sigma, int(seed)
        self.params = np.zeros(N_SPARAMS)
        self.params[S_STEP] = s
        self.params[S_NU] = nu
        self.params[S_DELTA] = -1.0 if delta is None else delta
        self.params[S_SIGMA] = sigma
        self.reset()

    def reset(self):
        """Back to the initial threshold, the seed's first random number, and no queries."""
        self.state = np.array([1.0])
        self.rng = seed_state(self.seed, 0)
        #: [labels queried, instances seen, drifts, warnings] of the runs this object drove
        self.counters = np.zeros(4, np.int64)
        return self

    def _budget(self) -> float:
        if self.budget is None:
            raise ValueError(
                f"{type(self).__name__} needs a budget here: construct it with "
                "budget=B (a query rate in (0, 1])"
            )
        return float(self.budget)

    def query(self, model, x) -> bool:
        """Algorithm 3 for one instance (the stepper's protocol): count it, and if the query
        rate stays within the budget, ask :func:`decide`.  The model is not changed."""
        budget = self._budget()
        c = self.counters
        c[C_SEEN] += 1
        if c[C_QUERIED] + 1 > budget * c[C_SEEN]:
            return False
        ex = model.explain_one(x)
        counts = ex.class_counts
        m = float(counts.sum())
        gap = abs(counts.max() / m - 0.5) if m > 0 else 0.0
        proba = np.asarray(ex.proba, np.float64)
        q, _ = decide(
            self.code,
            self.params,
            self.state,
            self.rng,
            budget,
            float(proba.max()),
            gap,
            m,
            float(c[C_SEEN]),
            top_two_margin(proba),
        )
        if q:
            c[C_QUERIED] += 1
        return bool(q)

    def run(self, model, X, y):
        """Test, ask and learn a whole slice inside numba, continuing this object's counts
        (the stepper's fast path).  Returns (predictions, queried mask)."""
        from ..evaluate import prequential

        res = prequential(
            model, X, y, strategy=self, budget=self._budget(), n_points=1, _counters=self.counters
        )
        return res.predictions, res.queried.astype(bool)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _make(code_: int, name_: str, doc: str):
    cls = type(name_, (Strategy,), {"code": code_, "name": name_, "__doc__": doc})
    return cls


Random = _make(RANDOM, "Random", "Query with probability B (000 Algorithm 5).")
VarUncertainty = _make(
    VAR_UNCERTAINTY,
    "VarUncertainty",
    "Variable uncertainty (000 Algorithm 6, Zliobaite et al.), step s.",
)
RndVarUncertainty = _make(
    RND_VAR_UNCERTAINTY,
    "RndVarUncertainty",
    "Variable uncertainty with a N(1, sigma) randomised threshold.",
)
SelectiveSampling = _make(
    SELECTIVE_SAMPLING, "SelectiveSampling", "Query with probability B / (B + |Y - 1/2|)."
)
Split = _make(
    SPLIT, "Split", "Random sub-stream (share nu) + variable uncertainty (000 Algorithm 7)."
)
ConfTree = _make(CONFTREE, "ConfTree", "Confidence tree strategy (000 Algorithm 2).")
SplitConfTree = _make(SPLIT_CONFTREE, "SplitConfTree", "Random sub-stream (share nu) + ConfTree.")


class Frugal(Strategy):
    """The Frugal rule of paper 003 (Izenov): ask for the label of an instance only when the
    prediction is uncertain, ``p1 - p2 < alpha`` (p1, p2 its two largest class probabilities).

    With Laplace leaves (``leaf_prediction="laplace"``, 003 eq. (2)) the margin at a leaf with
    counts n_k is ``(n_(1) - n_(2)) / (n + K)`` < 1, so ``alpha = 1`` asks for every label.  The
    rule has no budget: the protocol runs it with budget 1 unless one is given (a budget then
    caps the query rate as for the other strategies).  Deterministic: no random numbers.  The
    default alpha is :class:`~workbench.learners.FrugalHoeffdingTree`'s (see there why 0.8).

    Examples
    --------
    >>> from workbench import active, evaluate, learners, streams
    >>> X, y = streams.sea(n=20_000, seed=1)
    >>> model = learners.HoeffdingTree(3, 2, leaf_prediction="laplace")
    >>> res = evaluate.prequential(model, X, y, strategy=active.Frugal(0.3))
    >>> res.labels_used < 20_000
    True
    """

    code = FRUGAL
    name = "Frugal"

    def __init__(self, alpha: float = 0.8, *, budget: float | None = None):
        if (
            isinstance(alpha, bool)
            or not isinstance(alpha, numbers.Real)
            or not 0 < alpha <= 1
            or math.isnan(alpha)
        ):
            raise ValueError(
                f"alpha must be a threshold on p1 - p2 in (0, 1] (1: every label); got {alpha!r}"
            )
        super().__init__(budget=1.0 if budget is None else budget)
        self.alpha = float(alpha)
        self.params[S_ALPHA] = self.alpha

    def __repr__(self) -> str:
        return f"Frugal(alpha={self.alpha:g})"


#: the strategies of paper 000 (``Frugal``, 003's rule, takes ``alpha`` instead of a seed)
STRATEGIES = {
    cls.name: cls
    for cls in (
        Random,
        VarUncertainty,
        RndVarUncertainty,
        SelectiveSampling,
        Split,
        ConfTree,
        SplitConfTree,
    )
}
