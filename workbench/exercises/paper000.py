"""Exercises of notebook 01 (paper 000, C-Tree): Theorem 2's radius and eq. (10) by hand, how
eq. (7) grows with the depth, and the H-Tree's first split predicted, then stepped to."""

from __future__ import annotations

import math

from .. import bounds
from ..experiments.paper000.theorem_4 import practical, schedule
from ._core import ExerciseSet, choice, grade, tex_int, wrong
from ._steppers import next_split, stepped_to

S = ExerciseSet("01_confidence_decision_trees")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

# the numbers of the tasks (the notebook's Markdown states them)
E1 = dict(m=2_000, delta=0.01)
E2 = dict(m=1_000, depth=2, t=100_000, d=3, c=0.02)
E3 = dict(m=1_000, t=100_000, d=5, criterion="gini", depths=(0, 20))
E4_START = 4_000  # the stepper of section 5 starts there


@S.add("Theorem 2's radius by hand")
def _e1(answer) -> object:
    m, delta = E1["m"], E1["delta"]
    truth = float(bounds.gini(m, delta))
    return grade(
        answer,
        "your epsilon_Gini(m, delta) as a number",
        truth,
        0.01,
        f"epsilon_Gini = {truth:.4f}: at m = 2,000 the radius is still 0.23 on an impurity "
        "that is at most 0.5, which is why C-Tree needs thousands of examples",
        [
            (
                math.sqrt(8 / m * math.log(2 / delta)),
                "that is the first term only: add the bias term 4 sqrt(1/m)",
            ),
            (
                float(bounds.gini(m, delta / 2)),
                "use ln(2/delta) as Theorem 2 prints it, not ln(4/delta)",
            ),
            (
                math.sqrt(8 / m * math.log10(2 / delta)) + 4 * math.sqrt(1 / m),
                "ln is the natural logarithm (base e), not log10",
            ),
        ],
        "epsilon_Gini(m, delta) = sqrt(8/m ln(2/delta)) + 4 sqrt(1/m), natural logarithm",
    )


@S.answers(1)
def _a1() -> float:
    return float(bounds.gini(E1["m"], E1["delta"]))


@S.solves(1)
def _s1() -> str:
    m, d = E1["m"], E1["delta"]
    a = math.sqrt(8 / m * math.log(2 / d))
    b = 4 * math.sqrt(1 / m)
    return (
        f"**Solution.** $\\ln(2/\\delta)=\\ln {2 / d:g}={math.log(2 / d):.4f}$, so the first term "
        f"is $\\sqrt{{8\\cdot{math.log(2 / d):.4f}/{m}}}={a:.4f}$ and the bias term "
        f"$4/\\sqrt{{{m}}}={b:.4f}$: $\\varepsilon_{{\\rm Gini}}={a + b:.4f}$. "
        f"Check: {check(1, a + b)!r}"
    )


@S.add("the practical radius of eq. (10) by hand")
def _e2(answer) -> object:
    p = E2
    truth = float(practical(p["m"], p["depth"], p["t"], p["d"], p["c"]))
    theorem = float(bounds.gini(p["m"], 1 / p["t"]))
    return grade(
        answer,
        "your epsilon~ of eq. (10) as a number",
        truth,
        0.01,
        f"epsilon~ = {truth:.5f}, {theorem / truth:.0f} times below Theorem 2's radius at the "
        f"same m and delta = 1/t ({theorem:.3f}): eq. (10) is a tuned heuristic, not a "
        "confidence radius",
        [
            (
                float(practical(p["m"], p["depth"] - 1, p["t"], p["d"], p["c"])),
                "h is the depth plus one (h = 3 here), so that the logarithm is finite at the root",
            ),
            (truth / p["c"], "do not forget the factor c = 0.02 in front of the square root"),
        ],
        "epsilon~ = c sqrt(ln(m^2 h^2 t d) / m), natural logarithm, h = depth + 1",
    )


@S.answers(2)
def _a2() -> float:
    p = E2
    return float(practical(p["m"], p["depth"], p["t"], p["d"], p["c"]))


@S.solves(2)
def _s2() -> str:
    p = E2
    h = p["depth"] + 1
    inner = p["m"] ** 2 * h**2 * p["t"] * p["d"]
    value = p["c"] * math.sqrt(math.log(inner) / p["m"])
    return (
        f"**Solution.** $h=\\text{{depth}}+1={h}$, "
        f"$m^2h^2td={inner / 10**12:.1f}\\times10^{{12}}$, "
        f"$\\ln(m^2h^2td)={math.log(inner):.3f}$, so $\\tilde\\varepsilon={p['c']}"
        f"\\sqrt{{{math.log(inner):.3f}/{p['m']}}}={value:.5f}$. "
        f"Check: {check(2, value)!r}"
    )


def _depth_ratio() -> float:
    p = E3
    lo, hi = (float(schedule(p["m"], h, p["t"], p["d"], None, p["criterion"])) for h in p["depths"])
    return hi / lo


@S.add("how eq. (7) grows with the depth")
def _e3(answer) -> object:
    truth = _depth_ratio()
    return grade(
        answer,
        "the ratio epsilon_t(h = 20) / epsilon_t(h = 0)",
        truth,
        0.02,
        f"the ratio is {truth:.3f}: twenty levels deeper cost only {100 * (truth - 1):.0f}% "
        "more radius, because the depth enters eq. (7) through delta / ((h+1)(h+2) t d m), "
        "inside a logarithm",
        [
            (
                1 / truth,
                "that is epsilon_t(h = 0) / epsilon_t(h = 20): the question asks for the deep "
                "leaf's radius over the root's",
            ),
            (
                lambda v: v > 2,
                "much less than that: the depth only divides delta, and delta "
                "sits inside a logarithm under a square root; read the middle panel of the "
                "schedule plot",
            ),
        ],
        "read epsilon_t at h = 0 and h = 20 in the middle panel (m = 1,000, t = 10^5, d = 5, "
        "Gini) or compute both with Theorem 2 at delta / ((h+1)(h+2) t d m)",
    )


@S.answers(3)
def _a3() -> float:
    return _depth_ratio()


@S.solves(3)
def _s3() -> str:
    p = E3
    lo, hi = (float(schedule(p["m"], h, p["t"], p["d"], None, p["criterion"])) for h in p["depths"])
    return (
        "**Solution.** Eq. (7) is Theorem 2's radius at $\\delta_t=\\delta/((h+1)(h+2)\\,t\\,d\\,m)$ "
        f"with $\\delta=1/t$. At $m=1{{,}}000$, $t=10^5$, $d=5$: $\\varepsilon_t={lo:.4f}$ at "
        f"$h=0$ and ${hi:.4f}$ at $h=20$, a ratio of {hi / lo:.3f}. The depth multiplies the "
        "number of union-bound terms by $(h+1)(h+2)$, which costs only "
        "$\\sqrt{\\ln}$ of it: deep leaves wait a little longer, not much. "
        f"Check: {check(3, hi / lo)!r}"
    )


FEATURES = {f"x{j}": (str(j), f"feature {j}", f"x_{j}") for j in range(3)}


@S.add("predict the H-Tree's first split, then step to it")
def _e4(feature, t=None, *, stepper) -> object:
    said = choice(feature, FEATURES, "the feature its root will test, e.g. 'x0'")
    if not isinstance(said, str):
        return said
    hit = next_split(stepper, E4_START, node=0)
    if hit is None:
        return wrong("this stream ends before the H-Tree splits (did you change delta?)")
    _, name, test, when = hit
    if said != name:
        return wrong(
            "look at the generating tree above: which feature does its root test? A "
            "Hoeffding tree's root finds the test with the largest gain first"
        )
    return stepped_to(
        t,
        when,
        f"the root splits on {test} at t = {when:,}, long after C-Tree: with tau = 0 and two "
        "features of close gains the H-Tree waits for the margin to exceed epsilon",
        f"{name} is right; the t is not: step on (or type a t into 'go to t') and read the "
        "split marker of the split chart (the root tests once per grace period)",
        f"the root will test {name}; now step (step k, or 'go to t') until it splits and give "
        "the t as the second answer",
    )


@S.answers(4)
def _a4(*, stepper) -> tuple[str, int]:
    hit = next_split(stepper, E4_START, node=0)
    if hit is None:
        raise ValueError("this stream ends before the H-Tree splits (was delta changed?)")
    return hit[1], hit[3]


@S.solves(4)
def _s4(*, stepper) -> str:
    _, name, test, when = next_split(stepper, E4_START, node=0)
    return (
        "**Solution.** The generating tree's root tests "
        f"{name}, and the H-Tree's root ends on the same feature: **{test}**, at $t={tex_int(when)}$ "
        "(step there, or type it into *go to t*: the split chart shows the green split line). "
        "Its root waited from "
        "$t=0$: the gains of the features are close, so $G(\\text{best})-G(\\text{second})$ "
        "needs many examples to exceed the Hoeffding $\\varepsilon$, and with $\\tau=0$ no tie "
        f"rule cuts the wait short. Check: {check(4, name, when, stepper=stepper)!r}"
    )
