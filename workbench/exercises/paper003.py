"""Exercises of notebook 04 (paper 003, the Frugal tree): a gain of the Weather data by hand,
when a leaf stops asking for labels, and what a larger alpha does to the label rate."""

from __future__ import annotations

import math

from ._core import ExerciseSet, grade, choice, right, wrong

S = ExerciseSet("04_frugal_hoeffding_tree")
check, solution = S.check, S.solution

#: Outlook on the Weather data (Table 1): (yes, no) per value
OUTLOOK = {"sunny": (2, 3), "overcast": (4, 0), "rainy": (3, 2)}
E2 = dict(no=3, K=2, alpha=0.4)


def _h(*counts) -> float:
    n = sum(counts)
    return 0.0 - sum(c / n * math.log2(c / n) for c in counts if c)


def _gain() -> float:
    yes = sum(v[0] for v in OUTLOOK.values())
    no = sum(v[1] for v in OUTLOOK.values())
    n = yes + no
    return _h(yes, no) - sum((a + b) / n * _h(a, b) for a, b in OUTLOOK.values())


@S.add("the gain of Outlook by hand")
def _e1(answer) -> object:
    truth = _gain()
    return grade(
        answer,
        "the information gain of Outlook at the root, in bits",
        truth,
        0.01,
        f"gain(Outlook) = {truth:.3f} bits, the largest of the four attributes: the thesis's "
        "tree (and ours) tests Outlook at the root",
        [
            (_h(9, 5), "0.940 is H(root): subtract the weighted entropies of the three branches"),
            (truth * math.log(2), "use logarithms to base 2 (bits), as the thesis does"),
        ],
        "H(root) = H(9/14, 5/14); gain = H(root) - sum over the values of (n_value / 14) "
        "H(value); overcast is pure (entropy 0)",
    )


@S.solves(1)
def _s1() -> str:
    terms = " + ".join(f"\\tfrac{{{a + b}}}{{14}}\\cdot{_h(a, b):.3f}" for a, b in OUTLOOK.values())
    rest = sum((a + b) / 14 * _h(a, b) for a, b in OUTLOOK.values())
    return (
        f"**Solution.** $H(\\text{{root}})=H(\\tfrac9{{14}},\\tfrac5{{14}})={_h(9, 5):.3f}$; the "
        f"branches sunny (2 yes, 3 no), overcast (4, 0) and rainy (3, 2) leave ${terms}"
        f"={rest:.3f}$ bits, so the gain is ${_h(9, 5):.3f}-{rest:.3f}={_gain():.3f}$ bits. "
        f"Check: {check(1, _gain())!r}"
    )


def _stops_asking() -> int:
    """The fewest 'yes' at a leaf with 3 'no' at which p1 - p2 >= alpha (Laplace, K classes)."""
    q = E2
    n1 = q["no"]
    while (n1 - q["no"]) / (n1 + q["no"] + q["K"]) < q["alpha"]:
        n1 += 1
    return n1


@S.add("when a leaf stops asking")
def _e2(answer) -> object:
    truth = _stops_asking()
    return grade(
        answer,
        "the smallest number of 'yes' labels",
        truth,
        0.0,
        f"{truth} 'yes' against 3 'no': p1 - p2 = {(truth - 3) / (truth + 5):.3f} >= 0.4, so the "
        "rule stops asking here; one fewer and it still asks",
        [
            (
                truth - 1,
                "one short: with that count p1 - p2 is still below alpha (the rule asks "
                "while p1 - p2 < alpha)",
            ),
        ],
        "with Laplace smoothing p_c = (n_c + 1) / (n + K), so p1 - p2 = (n1 - n2) / (n + K); "
        "solve (n1 - 3) / (n1 + 3 + 2) >= 0.4 for a whole n1",
    )


@S.solves(2)
def _s2() -> str:
    n1 = _stops_asking()
    return (
        "**Solution.** With Laplace smoothing $p_c=(n_c+1)/(n+K)$, so "
        "$p_1-p_2=(n_1-n_2)/(n_1+n_2+K)$. With $n_2=3$, $K=2$, $\\alpha=0.4$: "
        "$(n_1-3)/(n_1+5)\\ge0.4 \\iff 0.6\\,n_1\\ge5 \\iff n_1\\ge8.33$, so the leaf stops "
        f"asking at **{n1}** 'yes' labels. Check: {check(2, n1)!r}"
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


@S.solves(3)
def _s3() -> str:
    return (
        "**Solution.** **Up.** A label is asked when $p_1-p_2<\\alpha$. For a fixed tree the set "
        "of such instances only grows with $\\alpha$, and the tree learns from the asked labels "
        "only, so a larger $\\alpha$ also keeps its leaves less certain for longer. At "
        "$\\alpha=1$ every label is asked (the margin never reaches 1 with Laplace "
        f"smoothing), as in the rate table. Check: {check(3, 'up')!r}"
    )
