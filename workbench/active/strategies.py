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
``Custom``          a user's own numba rule, ``Custom(my_rule, params=...)``: it gets the
                    leaf's class counts, the prediction's probabilities, the budget state
                    (B, labels queried, instances seen), the random stream (draw with
                    :func:`uniform` and :func:`normal`), its parameters and its state.
=================== ======================================================================

A strategy object holds parameters and state only; the decision itself is the numba function
:func:`workbench.active.rules.decide`, which the engine's test-then-train loop calls per instance
(and which :meth:`Strategy.query` calls for one instance from Python, e.g. in the stepper).
Runs go through ``evaluate.prequential(model, X, y, strategy=...)``.
"""

from __future__ import annotations

import copy
import math
import numbers

import numpy as np

from .. import _functions as fx
from .._rng import seed_state
from .rules import (
    CONFTREE,
    CUSTOM,
    FRUGAL,
    N_SPARAMS,
    RANDOM,
    RND_VAR_UNCERTAINTY,
    S_ALPHA,
    S_DELTA,
    S_NU,
    S_RULE,
    S_SIGMA,
    S_STEP,
    S_USER,
    SELECTIVE_SAMPLING,
    SPLIT,
    SPLIT_CONFTREE,
    VAR_UNCERTAINTY,
    C_QUERIED,
    C_SEEN,
    custom_rows,
    decide,
    decide_rows,
    top_two_margin,
)


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

    #: rows learned in full before the rule is asked (a warm-up: ``Custom(n_initial=...)``)
    n_initial = 0

    def reset(self):
        """Back to the initial threshold, the seed's first random number, and no queries."""
        self.state = np.array([1.0])
        self.rng = seed_state(self.seed, 0)
        self._initial_taken = 0
        #: [labels queried, instances seen, drifts, warnings] of the runs this object drove
        self.counters = np.zeros(4, np.int64)
        return self

    def take_initial(self, n: int) -> int:
        """How many of the next ``n`` rows belong to the warm-up (the first ``n_initial`` rows
        this strategy sees, learned in full, the rule not asked); counts them as taken.  The
        protocols call it; ``reset`` starts the warm-up again."""
        k = max(0, min(int(n), self.n_initial - self._initial_taken))
        self._initial_taken += k
        return k

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
        q = self._ask(
            np.ascontiguousarray(ex.class_counts, np.float64),
            np.ascontiguousarray(ex.proba, np.float64),
            budget,
        )
        if q:
            c[C_QUERIED] += 1
        return bool(q)

    def _ask(self, counts, proba, budget) -> bool:
        """The strategy's answer for one instance whose leaf has ``counts`` and whose
        prediction is ``proba`` (the budget rule already passed; ``self.counters`` as of now)."""
        m = float(counts.sum())
        gap = abs(counts.max() / m - 0.5) if m > 0 else 0.0
        q, _ = decide(
            self.code,
            self.params,
            self.state,
            self.rng,
            budget,
            float(proba.max()),
            gap,
            m,
            float(self.counters[C_SEEN]),
            top_two_margin(proba),
        )
        return bool(q)

    def _decide_rows(self, budget, proba, counts, gap, m, counters, out):
        """The decisions of a batch from one model (the mini-batch protocol): row i's leaf
        has class counts ``counts[i]`` (total ``m[i]``, purity gap ``gap[i]``), its prediction
        is ``proba[i]``; see :func:`decide_rows`."""
        decide_rows(
            self.code, self.params, self.state, self.rng, budget, proba, gap, m, counters, out
        )

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


class Custom(Strategy):
    """A user's own label-query rule, run inside the engine's ACTIVE loop like the strategies
    above (000 Algorithm 3: asked only while the query rate stays within the budget).

    ``rule`` is a numba-jitted function ::

        @njit
        def my_rule(counts, proba, budget, queried, seen, rng, params, state):
            ...
            return True   # ask for this instance's label

    counts   float64[K]: the class weights of the leaf the instance reaches
    proba    float64[K]: the class probabilities the model predicted for it
    budget   the query-rate budget B; ``queried`` labels asked so far, ``seen`` instances
             seen including this one (floats)
    rng      the strategy's random stream (uint64[4]): draw with :func:`workbench.active.uniform`
             and :func:`workbench.active.normal`
    params   float64[:], the ``params`` given here; ``state`` float64[:], the ``state`` given
             here, which the rule may change (it starts again from the given values on
             :meth:`reset`)

    ``n_initial``: a warm-up, as :class:`~workbench.learners.FrugalHoeffdingTree` has one: the
    first ``n_initial`` rows the strategy sees are learned in full (and count as labels used,
    outside the budget), and the rule is asked from then on.  A rule that asks only where the
    tree is unsure starves a tree that has not learned anything yet without it.

    It is compiled once for these argument types; the engine calls it through the address of
    its compiled code, so nothing else is compiled for it.  A learner pickled with it refers
    to it by module and name (see :mod:`workbench._functions`).

    Examples
    --------
    >>> from numba import njit
    >>> from workbench import active, evaluate, learners, streams
    >>> @njit
    ... def small_margin(counts, proba, budget, queried, seen, rng, params, state):
    ...     p = np.sort(proba)
    ...     return p[-1] - p[-2] < params[0] or active.uniform(rng) < 0.01
    >>> X, y = streams.sea(n=20_000, seed=1)
    >>> res = evaluate.prequential(learners.HoeffdingTree(3, 2), X, y,
    ...                            strategy=active.Custom(small_margin, params=[0.2]), budget=0.5)
    >>> 0 < res.labels_used < 10_000
    True
    """

    code = CUSTOM
    name = "Custom"

    def __init__(self, rule, params=(), *, state=(), budget=None, seed=0, label=None, n_initial=0):
        if (
            isinstance(n_initial, bool)
            or not isinstance(n_initial, numbers.Integral)
            or n_initial < 0
        ):
            raise ValueError(f"n_initial must be a whole number >= 0; got {n_initial!r}")
        self.n_initial = int(n_initial)
        self.user_params = _vector(params, "params")
        self.initial_state = _vector(state, "state")
        super().__init__(budget=budget, seed=seed)
        self.rule = rule
        self.label = label
        self.params = np.zeros(S_USER + self.user_params.shape[0])
        self.params[S_USER:] = self.user_params
        self._bind()
        self._probe()

    def _bind(self):
        """The rule's address in ``params[S_RULE]`` (again after unpickling: it is valid in
        this process only)."""
        self.params[S_RULE] = fx.address(self.rule, fx.RULE_SIG, "query rule")

    def _probe(self):
        """One call from Python on a copy of the state, so that a rule that raises or returns
        something else than True/False is reported here, by name, and not inside a run."""
        args = (
            np.ones(2),
            np.full(2, 0.5),
            0.5,
            0.0,
            1.0,
            self.rng.copy(),
            self.user_params.copy(),
            self.initial_state.copy(),
        )
        out = fx.call(self.rule, *args)
        if isinstance(out, BaseException) or not isinstance(out, (bool, np.bool_)):
            what = (
                f"raised {type(out).__name__}: {out}"
                if isinstance(out, BaseException)
                else f"returned {out!r}"
            )
            raise fx.UserFunctionError(
                f"query rule {fx.display_name(self.rule)} {what} for a two-class leaf with "
                f"counts [1, 1]; a query rule takes {fx.EXPECTED[fx.RULE_SIG]}"
            )

    def reset(self):
        super().reset()
        self.state = self.initial_state.copy()
        return self

    def _ask(self, counts, proba, budget) -> bool:
        c = self.counters
        try:
            return bool(
                self.rule(
                    counts,
                    proba,
                    float(budget),
                    float(c[C_QUERIED]),
                    float(c[C_SEEN]),
                    self.rng,
                    self.user_params,
                    self.state,
                )
            )
        except Exception as exc:
            raise fx.kernel_failure(exc, {"query rule": self.rule}) from exc

    def _decide_rows(self, budget, proba, counts, gap, m, counters, out):
        try:
            custom_rows(
                self.params,
                self.state,
                self.rng,
                float(budget),
                np.ascontiguousarray(proba),
                np.ascontiguousarray(counts, np.float64),
                counters,
                out,
            )
        except Exception as exc:
            raise fx.kernel_failure(exc, {"query rule": self.rule}) from exc

    # pickled with a reference to the rule, deep-copied sharing it (the stepper copies
    # strategies at every rebuild)
    def __getstate__(self):
        state = dict(self.__dict__)
        state["rule"] = fx.reference(self.rule, "query rule")
        return state

    def __setstate__(self, state):
        state = dict(state)
        state["rule"] = fx.resolve(state["rule"], "query rule")
        self.__dict__.update(state)
        self._bind()

    def __deepcopy__(self, memo):
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            new.__dict__[key] = copy.deepcopy(value, memo)  # a numba function copies to itself
        return new

    def __repr__(self) -> str:
        return f"Custom({self.label or fx.display_name(self.rule)})"


def _vector(values, name) -> np.ndarray:
    try:
        v = np.array(values, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a sequence of numbers; got {values!r}") from None
    return np.ascontiguousarray(v)


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
