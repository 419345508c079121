"""Exercises of notebook 04 (paper 003, the Frugal tree): a gain of the Weather data by hand
(Humidity on the sunny days, which no cell of the notebook prints), when a leaf stops asking
for labels, and what a larger alpha does to the label rate."""

from __future__ import annotations

import math

from ..experiments.paper003.weather import ATTRIBUTES, TABLE_1
from ._core import ExerciseSet, choice, grade, right, wrong

S = ExerciseSet("04_frugal_hoeffding_tree")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

#: exercise 1: an attribute's gain within one branch of Figure 3's root, from Table 1
E1 = dict(branch=("Outlook", "Sunny"), attribute="Humidity", rival="Windy")
E2 = dict(no=3, yes=3, K=2, alpha=0.4)


def _h(*counts) -> float:
    n = sum(counts)
    return 0.0 - sum(c / n * math.log2(c / n) for c in counts if c)


def _branch_counts(attribute: str, branch=E1["branch"]) -> dict[str, tuple[int, int]]:
    """(play, don't) counts per value of ``attribute`` on the days of ``branch`` (an
    (attribute, value) pair of Table 1; None: all 14 days)."""
    rows = TABLE_1
    if branch is not None:
        column = ATTRIBUTES.index(branch[0])
        rows = [r for r in TABLE_1 if r[column] == branch[1]]
    at = ATTRIBUTES.index(attribute)
    out: dict[str, tuple[int, int]] = {}
    for r in rows:
        yes, no = out.get(r[at], (0, 0))
        out[r[at]] = (yes + (r[-1] == "Yes"), no + (r[-1] == "No"))
    return out


def _gain(attribute: str, base=math.log2, branch=E1["branch"]) -> float:
    """Information gain of ``attribute`` within ``branch`` (in bits; ``base=math.log`` for
    the slip of natural logarithms)."""
    counts = _branch_counts(attribute, branch)
    yes = sum(v[0] for v in counts.values())
    no = sum(v[1] for v in counts.values())
    n = yes + no
    scale = 1.0 if base is math.log2 else math.log(2)
    rest = sum((a + b) / n * _h(a, b) for a, b in counts.values())
    return (_h(yes, no) - rest) * scale


@S.add("the gain of Humidity under sunny by hand")
def _e1(answer) -> object:
    truth = _gain(E1["attribute"])
    counts = _branch_counts(E1["attribute"])
    yes = sum(v[0] for v in counts.values())
    no = sum(v[1] for v in counts.values())
    unweighted = _h(yes, no) - sum(_h(a, b) for a, b in counts.values()) / len(counts)
    return grade(
        answer,
        "the information gain of Humidity on the sunny days, in bits",
        truth,
        0.05,
        f"gain(Humidity | sunny) = {truth:.3f} bits, against {_gain(E1['rival']):.3f} for "
        "Windy, which separates the sunny days completely: Figure 3 tests Windy there, and "
        "Humidity, perfect under rainy, is almost useless under sunny",
        [
            (
                _h(yes, no),
                "that is H(sunny) alone: subtract the weighted entropies of the branches",
            ),
            (
                _gain(E1["attribute"], branch=None),
                "that is Humidity's gain at the root, over all 14 days (section 1's table): here "
                "only the 5 sunny days count",
            ),
            (
                _gain(E1["attribute"], math.log),
                "use logarithms to base 2 (bits), as the thesis does",
            ),
            (
                unweighted,
                "weight each branch's entropy by its share of the 5 sunny days, not equally",
            ),
        ],
        "take the 5 sunny days of Table 1; H(sunny) from their play / don't counts, then "
        "subtract each Humidity value's entropy weighted by its share of the 5 days",
    )


@S.answers(1)
def _a1() -> float:
    return _gain(E1["attribute"])


@S.solves(1)
def _s1() -> str:
    counts = _branch_counts(E1["attribute"])
    yes = sum(v[0] for v in counts.values())
    no = sum(v[1] for v in counts.values())
    n = yes + no
    parts = ", ".join(f"{v.lower()} ({a} play, {b} don't)" for v, (a, b) in sorted(counts.items()))
    terms = " + ".join(
        f"\\tfrac{{{a + b}}}{{{n}}}\\cdot{_h(a, b):.3f}" for _, (a, b) in sorted(counts.items())
    )
    rest = sum((a + b) / n * _h(a, b) for a, b in counts.values())
    return (
        f"**Solution.** The {n} sunny days of Table 1 hold {yes} *play* and {no} *don't*: "
        f"$H(\\text{{sunny}})=H(\\tfrac{{{yes}}}{{{n}}},\\tfrac{{{no}}}{{{n}}})={_h(yes, no):.3f}$. Humidity "
        f"splits them into {parts}, which leave ${terms}={rest:.3f}$ bits, so the gain is "
        f"${_h(yes, no):.3f}-{rest:.3f}={_gain(E1['attribute']):.3f}$ bits. Windy separates the "
        f"sunny days completely (gain {_gain(E1['rival']):.3f}), so the tree tests Windy there. "
        f"Check: {check(1, _gain(E1['attribute']))!r}"
    )


def _margin(yes: int) -> float:
    """p_yes - p_no with Laplace smoothing at a leaf of E2 holding ``yes`` yes labels."""
    q = E2
    return (yes - q["no"]) / (yes + q["no"] + q["K"])


def _stops_asking() -> int:
    """The number of 'yes' labels (in all, from E2's tie on) at which the leaf no longer asks:
    p_yes - p_no >= alpha (Laplace smoothing, K classes)."""
    yes = E2["yes"]
    while _margin(yes) < E2["alpha"]:
        yes += 1
    return yes


@S.add("when a leaf stops asking")
def _e2(answer) -> object:
    truth = _stops_asking()
    q = E2
    unsmoothed = q["yes"]
    while (unsmoothed - q["no"]) / (unsmoothed + q["no"]) < q["alpha"]:
        unsmoothed += 1
    return grade(
        answer,
        "the number of 'yes' labels the leaf holds when it stops asking",
        truth,
        0.0,
        f"{truth} 'yes' against 3 'no': p1 - p2 = {_margin(truth):.3f} >= 0.4, so the "
        f"rule stops asking here; with {truth - 1} it still asks ({_margin(truth - 1):.3f})",
        [
            (
                truth - 1,
                "one short: with that count p1 - p2 is still below alpha (the rule asks "
                "while p1 - p2 < alpha)",
            ),
            (
                truth - q["yes"],
                "that is how many more 'yes' labels arrive; the question asks how many the "
                "leaf holds in all",
            ),
            (
                unsmoothed,
                "that is without smoothing: the Frugal tree's leaves are Laplace-smoothed, "
                "p_c = (n_c + 1) / (n + K)",
            ),
        ],
        "with Laplace smoothing p_c = (n_c + 1) / (n + K): write p_yes - p_no for a leaf with "
        "3 'no' and n 'yes' labels, then find the smallest whole n at which it reaches alpha",
    )


@S.answers(2)
def _a2() -> int:
    return _stops_asking()


@S.solves(2)
def _s2() -> str:
    n1 = _stops_asking()
    q = E2
    bound = q["alpha"] * (q["no"] + q["K"]) + q["no"]
    return (
        "**Solution.** With Laplace smoothing $p_c=(n_c+1)/(n+K)$, so "
        "$p_1-p_2=(n_1-n_2)/(n_1+n_2+K)$. With $n_2=3$ *no* labels, $K=2$ and $\\alpha=0.4$ the "
        "leaf stops asking once $(n_1-3)/(n_1+5)\\ge0.4$, i.e. $0.6\\,n_1\\ge"
        f"{bound:g}$, $n_1\\ge{bound / (1 - q['alpha']):.2f}$: it holds **{n1}** *yes* labels "
        f"then ($p_1-p_2={_margin(n1):.3f}$; with {n1 - 1} it is {_margin(n1 - 1):.3f} and the "
        f"leaf still asks). Check: {check(2, n1)!r}"
    )


DIRECTION = {"up": ("more", "higher", "rises", "increases"), "down": ("fewer", "lower", "falls")}


@S.add("a larger alpha: predict the label rate")
def _e3(answer) -> object:
    said = choice(answer, DIRECTION, "'up' or 'down'")
    if not isinstance(said, str):
        return said
    if said == "up":
        return right(
            "the rule asks while p1 - p2 < alpha: a larger alpha widens that region, "
            "so more instances fall in it; at alpha = 1 every label is asked"
        )
    return wrong(
        "the query region is p1 - p2 < alpha: does it grow or shrink with alpha? "
        "Move the alpha slider of the region widget and read the rate"
    )


@S.answers(3)
def _a3() -> str:
    return "up"


@S.solves(3)
def _s3() -> str:
    return (
        "**Solution.** **Up.** A label is asked when $p_1-p_2<\\alpha$. For a fixed tree the set "
        "of such instances only grows with $\\alpha$, and the tree learns from the asked labels "
        "only, so a larger $\\alpha$ also keeps its leaves less certain for longer. At "
        "$\\alpha=1$ every label is asked (the margin never reaches 1 with Laplace "
        f"smoothing), as in the rate table. Check: {check(3, 'up')!r}"
    )
