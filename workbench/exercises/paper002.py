"""Exercises of notebook 03 (paper 002, UFFT): the analytical cut by hand, when epsilon falls
below the tie level, and a DDM state read off its levels."""

from __future__ import annotations

import math

from .. import bounds
from ..core.analytic import analytic_cut
from ._core import ExerciseSet, grade, choice, right, tex_int, wrong

S = ExerciseSet("03_ultra_fast_forest_trees")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

E1 = dict(p1=0.7, m1=0.0, v1=1.0, p2=0.3, m2=2.0, v2=1.0)
E2 = dict(delta=1e-6, tau=0.05, R=1.0)
E3 = dict(errors=60, n=500, p_min=0.10, s_min=0.012, warn=2.0, drift=3.0)


@S.add("the analytical cut by hand")
def _e1(answer) -> object:
    truth = float(analytic_cut(*E1.values()))
    return grade(
        answer,
        "the cut point x",
        truth,
        0.005,
        f"x = {truth:.4f}: the prior of the first class moves the cut {truth - 1:.3f} past the "
        "midpoint, into the second class's side",
        [
            (
                1.0,
                "1 is the midpoint, the cut for equal priors: with p1 = 0.7 the log-ratio of "
                "the priors shifts it",
            ),
            (
                1 - math.log(7 / 3) / 2,
                "right size, wrong way: the more likely class takes more "
                "of the line, so the cut moves away from its mean",
            ),
            (
                1 + math.log10(7 / 3) / 2,
                "the densities hold exp(...): take natural logarithms, not log10",
            ),
        ],
        "take logarithms of both sides: with equal variances the x^2 terms cancel and a "
        "linear equation in x is left",
    )


@S.answers(1)
def _a1() -> float:
    return float(analytic_cut(*E1.values()))


@S.solves(1)
def _s1() -> str:
    x = 1 + math.log(E1["p1"] / E1["p2"]) / 2
    return (
        "**Solution.** Taking logarithms of $0.7\\,N(x;0,1)=0.3\\,N(x;2,1)$: "
        "$\\ln0.7-x^2/2=\\ln0.3-(x-2)^2/2$, i.e. $2x-2=\\ln(0.7/0.3)$, so "
        f"$x=1+\\tfrac12\\ln\\tfrac73={x:.4f}$ (the quadratic term cancels when the variances "
        f"are equal). Check: {check(1, x)!r}"
    )


def _n_tie() -> int:
    p = E2
    return math.ceil(p["R"] ** 2 * math.log(1 / p["delta"]) / (2 * p["tau"] ** 2))


@S.add("when epsilon falls below the tie level")
def _e2(answer) -> object:
    n = _n_tie()
    eps_at = float(bounds.hoeffding(n, E2["delta"], E2["R"]))
    return grade(
        answer,
        "the smallest n with epsilon < tau",
        n,
        0.0,
        f"n = {n:,} (epsilon = {eps_at:.5f} there): from then on a leaf splits on a tie, "
        "whatever the margin between its two best attributes",
        [
            (
                lambda v: abs(v - n) <= 2,
                "close: epsilon < tau must hold strictly, and n is a "
                "whole number of instances (round up)",
            ),
            (
                lambda v: abs(v - n / 2) <= 2,
                "the bound is sqrt(R^2 ln(1/delta) / (2n)): keep the 2 in the denominator",
            ),
            (
                lambda v: abs(v - math.log10(1 / E2["delta"]) / (2 * E2["tau"] ** 2)) <= 2,
                "ln is the natural logarithm: ln(10^6), not log10(10^6)",
            ),
        ],
        "square both sides of sqrt(ln(1/delta) / (2n)) < tau and solve for n (R = 1 bit); "
        "n counts instances, a whole number",
    )


@S.answers(2)
def _a2() -> int:
    return _n_tie()


@S.solves(2)
def _s2() -> str:
    n = _n_tie()
    p = E2
    return (
        "**Solution.** $\\varepsilon=\\sqrt{R^2\\ln(1/\\delta)/(2n)}<\\tau$ gives "
        f"$n>\\ln(10^6)/(2\\cdot0.05^2)={math.log(1 / p['delta']) / (2 * p['tau'] ** 2):.1f}$, "
        f"so $n={tex_int(n)}$ (every pairwise tree has two classes, so $R=1$ bit). "
        f"Check: {check(2, n)!r}"
    )


STATES = {
    "in control": ("control", "ok", "normal", "none"),
    "warning": ("warn", "in warning"),
    "drift": ("out of control", "change", "in drift"),
}


def _ddm() -> tuple[float, float, float, str]:
    """p + s, the warning and drift levels, and the state the workbench's DDM reads."""
    q = E3
    p = q["errors"] / q["n"]
    s = math.sqrt(p * (1 - p) / q["n"])
    warning, drift = bounds.ddm_levels(p, s, q["p_min"], q["s_min"])  # at 2 and 3 s_min
    state = "drift" if drift else "warning" if warning else "in control"
    return p + s, q["p_min"] + q["warn"] * q["s_min"], q["p_min"] + q["drift"] * q["s_min"], state


@S.add("read a DDM's state")
def _e3(answer) -> object:
    said = choice(answer, STATES, "'in control', 'warning' or 'drift'")
    if not isinstance(said, str):
        return said
    level, warn, drift, truth = _ddm()
    if said == truth:
        return right(
            f"p + s = {level:.4f} lies between the warning level {warn:.4f} and the "
            f"drift level {drift:.4f}: the node starts a warning window, not a prune"
        )
    if said == "in control":
        return wrong(
            "DDM compares p + s, not p alone, with the levels: add s = sqrt(p(1-p)/n) to "
            "p = 60/500 before comparing"
        )
    return wrong(
        "compute p = 60/500 and s = sqrt(p(1-p)/n), then compare p + s with "
        "p_min + 2 s_min (warning) and p_min + 3 s_min (drift)"
    )


@S.answers(3)
def _a3() -> str:
    return _ddm()[3]


@S.solves(3)
def _s3() -> str:
    level, warn, drift, truth = _ddm()
    return (
        "**Solution.** $p=60/500=0.12$, $s=\\sqrt{0.12\\cdot0.88/500}="
        f"{level - 0.12:.4f}$, so $p+s={level:.4f}$. The warning level is "
        f"$p_{{min}}+2s_{{min}}={warn:.3f}$ and the drift level $p_{{min}}+3s_{{min}}={drift:.3f}$: "
        f"the node is in **{truth}**. Check: {check(3, truth)!r}"
    )
