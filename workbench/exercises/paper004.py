"""Exercises of notebook 05 (paper 004, EFDT): eq. (1) by hand for three classes, which rule
splits at a given leaf, and which tree of a stepper pair moves its root after a concept switch,
and when (on a stream whose first concept lasts twice as long as section 4's)."""

from __future__ import annotations

import functools
import math

import numpy as np

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


#: exercise 3: the pair of section 4 on a stream whose first concept lasts twice as long (the
#: notebook prints and draws when EFDT's root moves after section 4's switch at 10,000; here
#: the switch comes at 20,000, which no cell of the notebook runs)
E3 = dict(switch=20_000, after=150_000, k=2_000, reference_switch=10_000)


def switch_pair(switch: int | None = None, after: int | None = None):
    """VFDT and EFDT side by side on ``two_concepts``: y = [x0 > 0.5] for ``switch`` instances,
    then y = [x1 > 0.5] for ``after`` more (Exercise 3's stream by default), as section 4 of
    notebook 05 builds its pair (sliders for delta and tau, step k = 2,000)."""
    from .. import viz
    from ..experiments import paper004 as P

    switch = E3["switch"] if switch is None else int(switch)
    after = E3["after"] if after is None else int(after)
    X, y = P.figures.two_concepts(switch, after)
    params = {"delta": (1e-10, 1e-1, "log"), "tau": (0.0, 0.2)}
    return viz.side_by_side(
        viz.TreeStepper(
            lambda **p: P.make("VFDT", 3, 2, **p),
            X,
            y,
            title="VFDT (Hoeffding tree)",
            params=params,
        ),
        viz.TreeStepper(
            lambda **p: P.make("EFDT", 3, 2, **p), X, y, title="EFDT (HATT)", params=params
        ),
        k=E3["k"],
    )


def _switch_of(pair) -> int:
    """The instance at which ``pair``'s stream changes concept (y stops being [x0 > 0.5])."""
    s = pair.steppers[0]
    first = (s.X[:, 0] > 0.5).astype(s.y.dtype)
    changed = np.flatnonzero(first != s.y)
    return int(changed[0]) if changed.size else s.n


def _root_changes(pair) -> dict[str, int]:
    """The first time after the switch each tree of ``pair`` (VFDT, EFDT) puts a new test at
    its root, -1 if never within the stream."""
    switch = _switch_of(pair)
    out = {}
    for stepper, name in zip(pair.steppers, ("vfdt", "efdt")):
        hit = next_split(stepper, switch, node=0, chunk=1_000)
        out[name] = hit[3] if hit else -1
    return out


@functools.cache
def _reference_delay() -> int:
    """How long after section 4's switch (at 10,000) EFDT's root moves: the comparison the
    exercise asks for (its answer is printed in the notebook; this exercise's is not)."""
    pair = switch_pair(E3["reference_switch"])
    return _root_changes(pair)["efdt"] - E3["reference_switch"]


def _delay_text(t: int, switch: int) -> str:
    """How the root's delay after ``switch`` compares with the one after section 4's switch."""
    ref = _reference_delay()
    ratio = (t - switch) / ref
    return (
        f"{t - switch:,} instances after the switch, {ratio:.2f} times the {ref:,} it took after "
        f"section 4's switch at {E3['reference_switch']:,}"
    )


def _who_changed(when) -> str:
    changed = {k for k, t in when.items() if t >= 0}
    return {frozenset(): "neither", frozenset(when): "both"}.get(
        frozenset(changed), next(iter(changed), "neither")
    )


@S.add("a longer first concept: which root changes, and when?")
def _e3(learner, t=None, *, pair) -> object:
    said = choice(learner, WHO, "'VFDT', 'EFDT', 'both' or 'neither'")
    if not isinstance(said, str):
        return said
    when = _root_changes(pair)
    truth = _who_changed(when)
    switch = _switch_of(pair)
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
        f"EFDT replaces its root's test at t = {when[truth]:,}, "
        f"{_delay_text(when[truth], switch)}: the new attribute's gain has to outweigh the "
        "statistics of the first concept that MOA's merit sums at the root still hold, and the "
        "longer that concept, the more they hold",
        f"{truth.upper()} is right, the t is not: step past {switch:,} (k = 2,000, or go to t) "
        "and read the re-evaluations listed under the panel (the root is node 0)",
        f"{truth.upper()} it is; now step past t = {switch:,} until its root changes and give "
        "that t as the second answer",
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
    switch = _switch_of(pair)
    return (
        f"**Solution.** Only **EFDT** changes its root: at $t={tex_int(t)}$, "
        f"{_delay_text(t, switch)}, a re-evaluation finds that the split on $x_1$ now beats the "
        "root's current test by more than $\\varepsilon$, and replaces it (the old subtree "
        "goes). MOA's merit sums at the root hold the first concept's gains, and a first concept "
        "twice as long holds the root back about twice as long. VFDT never revisits a split, "
        "so its root keeps testing $x_0$ to the end of the stream, and its accuracy recovers only "
        f"through new splits below. Check: {check(3, truth, t, pair=pair)!r}"
    )
