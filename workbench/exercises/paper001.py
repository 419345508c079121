"""Exercises of notebook 02 (paper 001, BOCT): a Beta posterior by hand, how its credible
interval narrows with the labels, and what a smaller delta does to BOCT's tree."""

from __future__ import annotations

from math import comb

from .._numbers import count

from ._core import ExerciseSet, grade, choice, right, wrong

S = ExerciseSet("02_bayesian_credible_trees")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

E1 = dict(n_pos=6, n_neg=2)
E2 = dict(small=(6, 2), large=(60, 20), level=0.90)
E3 = dict(deltas=(0.2, 0.05), labels=200, seed=1)


def _p_above_half(n_pos: int, n_neg: int) -> float:
    """P(mu > 1/2) under Beta(a, b) = Beta(n_pos + 1, n_neg + 1): for whole a and b,
    P(mu <= x) = P(Binomial(a + b - 1, x) >= a), so P(mu > 1/2) = P(Binomial(n, 1/2) <= n_pos)
    with n = a + b - 1, counted exactly."""
    n = n_pos + n_neg + 1
    return sum(comb(n, j) for j in range(n_pos + 1)) / 2**n


@S.add("a leaf's posterior by hand")
def _e1(answer) -> object:
    truth = _p_above_half(**E1)
    return grade(
        answer,
        "P(mu > 1/2 | 6 positives, 2 negatives) as a number",
        truth,
        0.005,
        f"P(mu > 1/2) = {truth:.4f}: eight labels already make the positive class the better "
        "bet with 91% posterior probability",
        [
            (
                0.7,
                "0.7 is the posterior mean (7/10); the question asks for the mass of "
                "Beta(7, 3) above 1/2",
            ),
            (1 - truth, "that is P(mu <= 1/2), the other side"),
            (
                _p_above_half(E1["n_pos"] - 1, E1["n_neg"] - 1),
                "that is Beta(6, 2): the uniform prior adds one to each count, so the "
                "posterior is Beta(7, 3)",
            ),
        ],
        "the posterior is Beta(7, 3): put a = 7, b = 3 and x = 1/2 into the identity of the "
        "question, count the binomial outcomes it names, then take the complement",
    )


@S.answers(1)
def _a1() -> float:
    return _p_above_half(**E1)


@S.solves(1)
def _s1() -> str:
    truth = _p_above_half(**E1)
    return (
        "**Solution.** With a uniform prior the posterior of $\\mu$ is "
        "$\\mathrm{Beta}(6+1, 2+1)=\\mathrm{Beta}(7,3)$. For integer parameters "
        "$P(\\mu\\le x)=P(\\mathrm{Bin}(a+b-1,x)\\ge a)$, so "
        "$P(\\mu>\\tfrac12)=1-P(\\mathrm{Bin}(9,\\tfrac12)\\ge 7)"
        "=1-\\bigl(\\binom97+\\binom98+\\binom99\\bigr)/2^9=1-(36+9+1)/512"
        f"={truth:.4f}$. Check: {check(1, truth)!r}"
    )


def _width(n_pos: int, n_neg: int, level: float) -> float:
    from scipy.stats import beta

    tail = (1 - level) / 2
    lo, hi = beta.ppf([tail, 1 - tail], n_pos + 1, n_neg + 1)
    return float(hi - lo)


@S.add("ten times the labels: how much narrower?")
def _e2(answer) -> object:
    truth = _ratio()
    return grade(
        answer,
        "width(6:2) / width(60:20) of the 90% interval",
        truth,
        0.03,
        f"the interval is {truth:.2f} times narrower: close to sqrt(10) = 3.16, the 1/sqrt(n) "
        "of every mean; a little less, because the uniform prior's two pseudo-labels narrow "
        "the interval at 8 labels more than at 80",
        [
            (10, "not 10: a posterior's spread shrinks like 1/sqrt(n), as a sample mean's"),
            (
                10**0.5,
                "that is the 1/sqrt(n) prediction; now compute the two intervals themselves: "
                "the prior's pseudo-labels move the ratio away from it",
            ),
            (
                1 / truth,
                "that is width(60:20) / width(6:2), below 1: the question asks how many times "
                "narrower, the wide interval's width over the narrow one's",
            ),
        ],
        "each posterior is Beta(n_pos + 1, n_neg + 1) (the uniform prior adds one to each "
        "count); the interval runs from its 5% to its 95% quantile, and the ratio is the "
        "width at 6:2 over the width at 60:20",
    )


def _ratio() -> float:
    return _width(*E2["small"], E2["level"]) / _width(*E2["large"], E2["level"])


@S.answers(2)
def _a2() -> float:
    return _ratio()


@S.solves(2)
def _s2() -> str:
    lvl = E2["level"]
    a, b = _width(*E2["small"], lvl), _width(*E2["large"], lvl)
    return (
        "**Solution.** The posteriors are $\\mathrm{Beta}(7,3)$ and $\\mathrm{Beta}(61,21)$; "
        f"their equal-tailed 90% intervals are {a:.3f} and {b:.3f} wide, a ratio of {a / b:.2f}. "
        "The standard deviation of $\\mathrm{Beta}(a,b)$ is about $\\sqrt{\\mu(1-\\mu)/n}$, so ten "
        "times the labels should narrow it by $\\sqrt{10}\\approx3.16$; the uniform prior adds "
        "two pseudo-labels, which narrow the interval at 8 labels more than at 80, so the ratio "
        f"comes out a little lower. Check: {check(2, a / b)!r}"
    )


def _order() -> tuple[str, int, int]:
    """The answer to exercise 3 and the two leaf counts (delta = 0.2, delta = 0.05)."""
    big, small = (_leaves(d) for d in E3["deltas"])
    return ("fewer" if small < big else "more" if small > big else "the same"), big, small


def _leaves(delta: float) -> int:
    from ..experiments.paper001 import ToyStepper

    st = ToyStepper(delta=delta, seed=E3["seed"])
    for _ in range(E3["labels"]):
        st.step()
    return len(st.leaves())


ORDER = {"fewer": ("less", "smaller"), "the same": ("same", "equal"), "more": ("larger", "bigger")}


@S.add("a smaller delta: predict, then run")
def _e3(answer) -> object:
    said = choice(answer, ORDER, "'fewer', 'the same' or 'more' leaves with delta = 0.05")
    if not isinstance(said, str):
        return said
    truth, big, small = _order()
    if said == truth:
        return right(
            f"{count(small, 'leaf', 'leaves')} at delta = 0.05 against {big} at delta = 0.2 after 200 "
            "labels: a smaller delta widens every credible interval, so a split needs "
            "more labels before the children's bounds beat the parent's"
        )
    return wrong(
        "a smaller delta asks for more confidence: are the credible intervals wider or "
        "narrower? Run P.ToyStepper(delta=0.05, seed=1) for 200 steps and count "
        "len(stepper.leaves())"
    )


@S.answers(3)
def _a3() -> str:
    return _order()[0]


@S.solves(3)
def _s3() -> str:
    truth, big, small = _order()
    return (
        f"**Solution.** After 200 labels (seed 1) BOCT has {count(big, 'leaf', 'leaves')} "
        f"at $\\delta=0.2$ and {count(small, 'leaf', 'leaves')} at $\\delta=0.05$. The test "
        "installs a split only when the children's weighted upper bounds fall below the "
        "parent's lower bound; a smaller $\\delta$ widens both intervals, so the same counts "
        "install fewer tests. "
        f"Check: {check(3, truth)!r}"
    )
