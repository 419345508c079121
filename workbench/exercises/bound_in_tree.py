"""Exercises of notebook 07 (does the bound hold as the tree uses it?): Hoeffding's radius with
delta spent over the looks and the candidates, by hand; how many split decisions an audit with
no wrong split needs before its exact upper limit reaches delta; and how many examples the
confidence sequence ``cs_gini`` makes a leaf wait for a gap of 0.02."""

from __future__ import annotations

import math

from ._core import ExerciseSet, grade, tex_int

S = ExerciseSet("07_does_the_bound_hold")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

#: exercise 1: the 10th look of a leaf with grace period 200, 5 candidates, R = 1
E1 = dict(look=10, grace=200, candidates=5, R=1.0, delta=0.05)
#: exercise 2: the target's rule, a two-sided 95% Clopper-Pearson limit at or below delta
E2 = dict(level=0.95, delta=0.05)
#: exercise 3: C-Tree's rule (gap > 2 epsilon) with cs_gini at the root, 5 x 255 candidates
E3 = dict(delta=0.05, candidates=5 * 255, gap=0.02)


def _hoeffding(n, delta, R=1.0) -> float:
    return R * math.sqrt(math.log(1.0 / delta) / (2.0 * n))


def _looks_radius(candidates=E1["candidates"], spend_looks=True) -> float:
    k, n = E1["look"], E1["look"] * E1["grace"]
    share = k * (k + 1) if spend_looks else 1
    return _hoeffding(n, E1["delta"] / (share * candidates), E1["R"])


@S.add("a radius spent over the looks")
def _e1(answer) -> object:
    truth = _looks_radius()
    n = E1["look"] * E1["grace"]
    single = _hoeffding(n, E1["delta"])
    d = E1["delta"] / (E1["look"] * (E1["look"] + 1) * E1["candidates"])
    return grade(
        answer,
        "Hoeffding's radius at the 10th look",
        truth,
        0.01,
        f"epsilon = {truth:.4f}, {truth / single:.2f} times the radius of one test at delta = "
        f"0.05 ({single:.4f}): ln(1/delta') = {math.log(1 / d):.2f} instead of "
        f"{math.log(1 / E1['delta']):.2f}; the logarithm keeps the price of the looks small",
        [
            (single, "that is the radius of one test at delta: spend delta over the looks"),
            (_looks_radius(candidates=1), "share the look's delta among the 5 candidates too"),
            (
                _hoeffding(n, E1["delta"] / (E1["look"] * E1["candidates"])),
                "the k-th look gets delta / (k (k + 1)), not delta / k",
            ),
            (
                E1["R"] * math.sqrt(math.log10(1.0 / d) / (2.0 * n)),
                "Hoeffding's radius takes the natural logarithm",
            ),
            (
                E1["R"] * math.sqrt(math.log(1.0 / d) / n),
                "the radius is sqrt(ln(1/delta') / (2n)): keep the 2",
            ),
        ],
        "delta' = 0.05 / (10 * 11 * 5); then R sqrt(ln(1/delta') / (2n)) with n = 2,000",
    )


@S.answers(1)
def _a1() -> float:
    return _looks_radius()


@S.solves(1)
def _s1() -> str:
    k, n = E1["look"], E1["look"] * E1["grace"]
    d = E1["delta"] / (k * (k + 1) * E1["candidates"])
    single = _hoeffding(n, E1["delta"])
    truth = _looks_radius()
    return (
        f"**Solution.** The 10th look gets $\\delta_{{10}}=\\delta/(10\\cdot11)$, shared by 5 "
        f"candidates: $\\delta'=0.05/550={d:.3e}$, $\\ln(1/\\delta')={math.log(1 / d):.3f}$. "
        f"So $\\varepsilon=\\sqrt{{{math.log(1 / d):.3f}/(2\\cdot{tex_int(n)})}}={truth:.4f}$, "
        f"against $\\sqrt{{\\ln 20/4000}}={single:.4f}$ for one test: {truth / single:.2f} times "
        f"wider. The shares $\\delta/(k(k+1))$ add up to $\\delta$ over all looks, so the leaf "
        f"may look as often as its grace period says. Check: {check(1, truth)!r}"
    )


def _splits_needed(alpha) -> int:
    """The smallest S with 1 - alpha^(1/S) <= delta (no failure in S trials)."""
    return math.ceil(math.log(alpha) / math.log(1.0 - E2["delta"]))


@S.add("how many splits an audit needs")
def _e2(answer) -> object:
    alpha = (1.0 - E2["level"]) / 2.0
    truth = _splits_needed(alpha)
    return grade(
        answer,
        "the smallest number of splits",
        truth,
        0.0,
        f"S = {truth}: 1 - 0.025^(1/{truth}) = {1 - alpha ** (1 / truth):.4f} <= 0.05, while "
        f"{truth - 1} splits give {1 - alpha ** (1 / (truth - 1)):.4f}; the target asks for 100 "
        "so that a few wrong splits still leave room",
        [
            (truth - 1, "one short: check 1 - 0.025^(1/S) at your S, it is still above 0.05"),
            (
                _splits_needed(0.05),
                "that is the one-sided 95% limit: the two-sided interval leaves 2.5% on each side",
            ),
            (60, "the rule of three (3/S) is an approximation: solve 0.025^(1/S) >= 0.95 exactly"),
        ],
        "solve 0.025^(1/S) >= 0.95 for S: take logarithms, S >= ln(0.025) / ln(0.95), and round up",
    )


@S.answers(2)
def _a2() -> int:
    return _splits_needed((1.0 - E2["level"]) / 2.0)


@S.solves(2)
def _s2() -> str:
    truth = _a2()
    return (
        f"**Solution.** $1-0.025^{{1/S}}\\le0.05 \\iff 0.025^{{1/S}}\\ge0.95 \\iff "
        f"S\\ge\\ln 0.025/\\ln 0.95={math.log(0.025) / math.log(0.95):.2f}$, so $S={truth}$. "
        f"(The one-sided limit would need {_splits_needed(0.05)}.) An audit that finds no "
        "wrong split in fewer splits cannot show that the rate is at most 0.05, however good "
        f"the bound. Check: {check(2, truth)!r}"
    )


def _wait(candidates=E3["candidates"], factor=2.0) -> float:
    """The n at which factor * cs_gini(n) = gap (cs_gini decreases in n): bisection."""
    from .. import bounds

    def radius(n):
        return factor * float(bounds.cs_gini(n, E3["delta"], n_candidates=candidates))

    lo, hi = 1.0, 1e12
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if radius(mid) < E3["gap"]:
            hi = mid
        else:
            lo = mid
    return hi


@S.add("how long a valid bound makes a leaf wait")
def _e3(answer) -> object:
    truth = _wait()
    return grade(
        answer,
        "the number of examples",
        truth,
        0.05,
        f"about {truth:,.0f} examples: the confidence sequence is valid at every look and for "
        "all 1,275 candidates at once, and pays with a leaf that waits for hundreds of "
        "thousands of examples before it can resolve a gap of 0.02",
        [
            (_wait(factor=1.0), "the rule needs the gap above 2 epsilon, not epsilon"),
            (_wait(candidates=1), "pass n_candidates=1275: the bound is shared by every cut"),
            (_wait(candidates=5), "the candidates are every attribute's every cut: 5 x 255"),
        ],
        "find the n where 2 * bounds.cs_gini(n, 0.05, n_candidates=1275) falls to 0.02, e.g. by "
        "trying powers of ten, then halving the interval",
    )


@S.answers(3)
def _a3() -> float:
    return _wait()


@S.solves(3)
def _s3() -> str:
    truth = _wait()
    return (
        "**Solution.** The radius decreases in $n$, so halve an interval that brackets the "
        "answer:\n\n"
        "```python\n"
        "lo, hi = 1e3, 1e8\n"
        "while hi / lo > 1.001:\n"
        "    mid = (lo * hi) ** 0.5\n"
        "    lo, hi = (lo, mid) if 2 * bounds.cs_gini(mid, 0.05, n_candidates=1275) < 0.02 "
        "else (mid, hi)\n"
        "```\n\n"
        f"gives $n\\approx{tex_int(round(truth))}$. With one candidate it would be "
        f"{_wait(candidates=1):,.0f}: the union over the 1,275 cuts costs less than a factor "
        "2, because it enters only through a logarithm. This wait is why the target run needs "
        f"streams of millions of rows. Check: {check(3, truth)!r}"
    )
