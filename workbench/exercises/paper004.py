"""Exercises of notebook 05 (paper 004, EFDT): eq. (1) by hand for three classes, which rule
splits at a given leaf, and which tree of the stepper pair splits its root first."""

from __future__ import annotations

import math

from .. import bounds
from ._core import ExerciseSet, grade, choice, right, tex_int, wrong
from ._steppers import next_split, stepped_to

S = ExerciseSet("05_extremely_fast_decision_tree")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

E1 = dict(n=1_000, delta=1e-7, classes=3)
E2 = dict(n=2_000, delta=1e-7, classes=3, g_best=0.20, g_second=0.15, tau=0.05)


def _eps(n, delta, classes) -> float:
    return float(bounds.hoeffding(n, delta, math.log2(classes)))


@S.add("eq. (1) by hand for three classes")
def _e1(answer) -> object:
    truth = _eps(**E1)
    return grade(
        answer,
        "epsilon of eq. (1), in bits",
        truth,
        0.01,
        f"epsilon = {truth:.4f} bits: information gain ranges over log2(3) = 1.585 bits with "
        "three classes, so the bound is 1.585 times that of two classes",
        [
            (
                _eps(E1["n"], E1["delta"], 2),
                "that is R = 1 (two classes): with three classes R = log2(3)",
            ),
            (
                math.sqrt(math.log2(3) * math.log(1 / E1["delta"]) / (2 * E1["n"])),
                "R enters squared: R^2 = log2(3)^2",
            ),
            (
                math.sqrt(math.log2(3) ** 2 * math.log10(1 / E1["delta"]) / (2 * E1["n"])),
                "ln is the natural logarithm: ln(10^7), not log10(10^7) = 7",
            ),
        ],
        "put R = log2(3) (three classes), ln(1/delta) with the natural logarithm, and n into "
        "eq. (1)",
    )


@S.answers(1)
def _a1() -> float:
    return _eps(**E1)


@S.solves(1)
def _s1() -> str:
    p = E1
    r = math.log2(p["classes"])
    return (
        f"**Solution.** $R=\\log_2 3={r:.4f}$, $\\ln(1/\\delta)=\\ln 10^7={math.log(1e7):.3f}$, so "
        f"$\\varepsilon=\\sqrt{{{r:.4f}^2\\cdot{math.log(1e7):.3f}/(2\\cdot{tex_int(p['n'])})}}"
        f"={_eps(**p):.4f}$ bits. Check: {check(1, _eps(**p))!r}"
    )


WHO = {
    "efdt": ("efdt only", "hatt"),
    "vfdt": ("vfdt only", "hoeffding"),
    "both": ("both of them",),
    "neither": ("none",),
}


def _who() -> tuple[str, float]:
    p = E2
    eps = _eps(p["n"], p["delta"], p["classes"])
    vfdt = p["g_best"] - p["g_second"] > eps or eps < p["tau"]
    efdt = p["g_best"] - 0.0 > eps  # EFDT compares the best split with not splitting (G = 0)
    who = {(True, True): "both", (False, True): "efdt", (True, False): "vfdt"}
    return who.get((vfdt, efdt), "neither"), eps


@S.add("which rule splits this leaf?")
def _e2(answer) -> object:
    said = choice(answer, WHO, "'VFDT', 'EFDT', 'both' or 'neither'")
    if not isinstance(said, str):
        return said
    truth, eps = _who()
    if said == truth:
        return right(
            f"epsilon = {eps:.4f}: VFDT's margin 0.20 - 0.15 = 0.05 is below it (and "
            f"epsilon is above tau), EFDT's 0.20 - 0 is above it: only EFDT splits"
        )
    return wrong(
        "compute epsilon for n = 2,000 and three classes; VFDT needs G(best) - "
        "G(second) > epsilon or epsilon < tau, EFDT needs G(best) - G(no split) > "
        "epsilon, with G(no split) = 0"
    )


@S.answers(2)
def _a2() -> str:
    return _who()[0]


@S.solves(2)
def _s2() -> str:
    truth, eps = _who()
    return (
        "**Solution.** $\\varepsilon=\\sqrt{(\\log_23)^2\\ln10^7/4000}="
        f"{eps:.4f}$. VFDT: $G(\\text{{best}})-G(\\text{{second}})=0.05<\\varepsilon$ and "
        "$\\varepsilon>\\tau=0.05$, so it waits. EFDT: $G(\\text{best})-G_\\varnothing=0.20>"
        "\\varepsilon$, so it splits now, and may change its mind later when it re-evaluates. "
        f"Answer: **{truth.upper()}**. Check: {check(2, truth)!r}"
    )


SWITCH = 10_000  # the stream's concept changes from y = [x0 > 0.5] to y = [x1 > 0.5] here


def _root_changes(pair) -> dict[str, int]:
    """The first time after the switch each tree of ``pair`` (VFDT, EFDT) puts a new test at
    its root, -1 if never within the stream."""
    out = {}
    for stepper, name in zip(pair.steppers, ("vfdt", "efdt")):
        hit = next_split(stepper, SWITCH, node=0, chunk=1_000)
        out[name] = hit[3] if hit else -1
    return out


def _who_changed(when) -> str:
    changed = {k for k, t in when.items() if t >= 0}
    return {frozenset(): "neither", frozenset(when): "both"}.get(
        frozenset(changed), next(iter(changed), "neither")
    )


@S.add("after the switch: which root changes, and when?")
def _e3(learner, t=None, *, pair) -> object:
    said = choice(learner, WHO, "'VFDT', 'EFDT', 'both' or 'neither'")
    if not isinstance(said, str):
        return said
    when = _root_changes(pair)
    truth = _who_changed(when)
    if said != truth:
        return wrong(
            "which of the two ever revisits a split it has made? (VFDT's splits are "
            "final; EFDT re-evaluates its inner nodes every 2,000 instances)"
        )
    if truth not in ("vfdt", "efdt"):
        return right(f"{truth}: as the stepper shows")
    return stepped_to(
        t,
        when[truth],
        f"EFDT replaces its root's test at t = {when[truth]:,}: the new attribute's gain has to "
        "outweigh the statistics of the first concept the root still holds before a "
        "re-evaluation passes, which takes thousands of instances",
        f"{truth.upper()} is right, the t is not: step k = 2,000 past 10,000 and read the "
        "re-evaluations listed under the panel (the root is node 0)",
        f"{truth.upper()} it is; now step past t = 10,000 until its root changes and give that "
        "t as the second answer",
    )


@S.answers(3)
def _a3(*, pair) -> tuple[str, int]:
    when = _root_changes(pair)
    truth = _who_changed(when)
    return truth.upper() if truth in ("vfdt", "efdt") else truth, when.get(truth, -1)


@S.solves(3)
def _s3(*, pair) -> str:
    when = _root_changes(pair)
    truth = _who_changed(when)
    t = when.get(truth, -1)
    return (
        f"**Solution.** Only **EFDT** changes its root: at $t={tex_int(t)}$ a re-evaluation "
        "finds that the split on $x_1$ now beats the root's current test by more than "
        "$\\varepsilon$, and replaces it (the old subtree goes). VFDT never revisits a split, "
        "so its root keeps testing $x_0$ to the end of the stream, and its accuracy recovers only "
        f"through new splits below. Check: {check(3, truth, t, pair=pair)!r}"
    )
