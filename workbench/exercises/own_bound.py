"""Exercises of notebook 06 (your own bound, rule or schedule): the wait adaptive n_min gives
after one attempt, a G-test radius by hand, what a minimum-gain split rule returns, and an
empirical-Bernstein-style radius against Hoeffding's."""

from __future__ import annotations

import math

from scipy.stats import chi2

from ._core import ExerciseSet, choice, grade, right, tex_int, wrong

S = ExerciseSet("06_your_own_bound")
check, solution, answer, passed = S.check, S.solution, S.answer, S.passed

#: exercise 1: an attempt of a two-class VFDT leaf (R = 1 bit) whose margin is below tau
E1 = dict(n=1_000, g_best=0.05, g_second=0.03, delta=1e-7, tau=0.05, grace=200)
#: exercise 2: the G-test radius of a binary split of two classes
E2 = dict(n=1_000, delta=0.05, branches=2, K=2)
#: exercise 3: an attempt where the tie clause would split but the best gain is below g_min
E3 = dict(g_min=0.01, g_best=0.008, g_second=0.002, epsilon=0.04, tau=0.05)
#: exercise 4: the empirical-Bernstein-style radius against Hoeffding's
E4 = dict(n=1_000, var=0.04, delta=0.05, R=1.0)


def _hoeffding(n, delta, R=1.0) -> float:
    return R * math.sqrt(math.log(1 / delta) / (2 * n))


def _wait(n, gap, eps, tau, grace) -> float:
    """Section 7's adaptive_nmin: the instances until epsilon reaches max(gap, tau), at least
    the grace period and at most 50 of them."""
    need = n * (eps / max(gap, tau)) ** 2 - n
    return min(max(grace, math.ceil(need)), 50 * grace)


def _e1_truth(gap_of=None) -> float:
    q = E1
    eps = _hoeffding(q["n"], q["delta"])
    gap = q["g_best"] - q["g_second"] if gap_of is None else gap_of
    return _wait(q["n"], gap, eps, q["tau"], q["grace"])


@S.add("adaptive n_min by hand")
def _e1(answer) -> object:
    q = E1
    truth = _e1_truth()
    eps = _hoeffding(q["n"], q["delta"])
    by_gap = q["n"] * (eps / (q["g_best"] - q["g_second"])) ** 2 - q["n"]
    return grade(
        answer,
        "the number of instances the leaf waits",
        truth,
        0.0,
        f"the margin {q['g_best'] - q['g_second']:.2f} is below tau, so the tie comes first: "
        f"epsilon falls to tau = {q['tau']} at n' = {q['n'] + truth:,.0f}, {truth:,.0f} "
        f"instances on, {truth / q['grace']:.0f} times VFDT's fixed wait",
        [
            (truth + q["n"], "that is the weight n' at the next attempt: the wait is n' - n"),
            (truth - 1, "one short: round n' - n up (the radius must reach the level)"),
            (
                lambda v: abs(v - by_gap) <= 1.0 or abs(v - math.ceil(by_gap)) <= 1.0,
                "the margin is below tau here: which comes first, a decisive margin or a tie?",
            ),
            (
                50 * q["grace"],
                "that is the guard of 50 grace periods: the schedule stops there only when the "
                "level is far off; which level does epsilon have to reach here?",
            ),
            (
                q["grace"],
                "that is the fixed grace period, the schedule's floor: how long does epsilon "
                "need to fall to the level that decides this leaf?",
            ),
        ],
        "compute Hoeffding's epsilon at n = 1,000, then the n' at which it falls to the larger "
        "of the margin and tau (epsilon shrinks like 1/sqrt(n)); the wait is n' - n, rounded up",
    )


@S.answers(1)
def _a1() -> float:
    return _e1_truth()


@S.solves(1)
def _s1() -> str:
    q = E1
    eps = _hoeffding(q["n"], q["delta"])
    gap = q["g_best"] - q["g_second"]
    level = max(gap, q["tau"])
    n_next = q["n"] * (eps / level) ** 2
    w = _e1_truth()
    return (
        f"**Solution.** Hoeffding's radius at $n={tex_int(q['n'])}$: "
        f"$\\varepsilon=\\sqrt{{\\ln(10^7)/(2\\cdot{tex_int(q['n'])})}}={eps:.5f}$. The margin "
        f"$\\Delta={q['g_best']}-{q['g_second']}={gap:.2f}$ is below $\\tau={q['tau']}$, so if the "
        f"gains stay, the leaf splits as a tie once $\\varepsilon(n')<\\tau$: "
        f"$n'=n\\,(\\varepsilon/\\tau)^2={tex_int(q['n'])}\\cdot({eps:.5f}/{q['tau']})^2={n_next:.1f}$, "
        f"so the leaf waits $\\lceil n'-n\\rceil={tex_int(w)}$ instances (between the guards 200 "
        f"and {tex_int(50 * q['grace'])}). With a fixed grace period it would have made "
        f"{int(w // q['grace'])} attempts in that time, each of which would have waited. "
        f"Check: {check(1, w)!r}"
    )


def _g_radius(n, delta, branches, K) -> float:
    return chi2.isf(delta, (branches - 1) * (K - 1)) / (2 * n * math.log(2))


@S.add("a G-test radius by hand")
def _e2(answer) -> object:
    q = E2
    truth = _g_radius(q["n"], q["delta"], q["branches"], q["K"])
    nats = truth * math.log(2)
    return grade(
        answer,
        "epsilon_G in bits",
        truth,
        0.005,
        f"epsilon_G = {truth:.5f} bits, {_hoeffding(q['n'], q['delta']) / truth:.0f} times smaller than Hoeffding's "
        f"{_hoeffding(q['n'], q['delta']):.4f} at the same n and delta: a radius that shrinks "
        "like 1/n, right where the gain is 0",
        [
            (nats, "that is in nats: the G statistic is 2n ln 2 times the gain in bits"),
            (2 * truth, "the G statistic is twice n times the gain (in nats): divide by 2n ln 2"),
            (truth / 2, "the G statistic is twice n times the gain (in nats): divide by 2n ln 2"),
            (
                _g_radius(q["n"], q["delta"], 3, q["K"]),
                "the degrees of freedom are (B - 1)(K - 1) with B = 2 branches",
            ),
            (
                math.sqrt(3.841 / (2 * q["n"] * math.log(2))),
                "no square root: the G statistic grows like n times the gain",
            ),
        ],
        "divide the chi-square quantile by 2 n ln 2 (the G statistic is 2n ln 2 times the gain "
        "in bits)",
    )


@S.answers(2)
def _a2() -> float:
    q = E2
    return _g_radius(q["n"], q["delta"], q["branches"], q["K"])


@S.solves(2)
def _s2() -> str:
    q = E2
    x = chi2.isf(q["delta"], 1)
    r = _a2()
    return (
        f"**Solution.** A binary split of two classes has $(B-1)(K-1)=1$ degree of freedom, "
        f"whose $0.95$ quantile is $\\chi^2_1(0.95)={x:.3f}$. The G statistic is "
        f"$2n\\ln2\\cdot\\hat G$, so $\\varepsilon_G={x:.3f}/(2\\cdot{tex_int(q['n'])}\\cdot\\ln 2)"
        f"={r:.5f}$ bits, against Hoeffding's ${_hoeffding(q['n'], q['delta']):.5f}$. "
        f"Check: {check(2, r)!r}"
    )


def _rule(g_best, g_second, epsilon, tau, g_min) -> int:
    if g_best < g_min:
        return 0
    if g_best - g_second > epsilon:
        return 1
    return 2 if epsilon < tau else 0


_CODES = {"0": ("wait", "0 (wait)"), "1": ("split", "1 (split)"), "2": ("tie", "2 (tie)")}


@S.add("what the minimum-gain rule returns")
def _e3(answer) -> object:
    q = E3
    truth = str(_rule(q["g_best"], q["g_second"], q["epsilon"], q["tau"], q["g_min"]))
    vfdt = str(_rule(q["g_best"], q["g_second"], q["epsilon"], q["tau"], -math.inf))
    said = choice(answer, _CODES, "0, 1 or 2")
    if not isinstance(said, str):
        return said
    if said == truth:
        return right(
            f"the best gain {q['g_best']} is below g_min = {q['g_min']}, so min_gain waits, "
            "where VFDT would split this leaf as a tie (epsilon < tau): exactly the split that "
            "buys nothing, which the minimum gain is there to stop"
        )
    if said == vfdt:
        return wrong(
            "that is VFDT's answer (epsilon < tau makes it a tie): min_gain asks its own "
            "question before VFDT's"
        )
    return wrong(
        "compare the margin with epsilon: is it decisive? Then look at the first clause of min_gain"
    )


@S.answers(3)
def _a3() -> int:
    q = E3
    return _rule(q["g_best"], q["g_second"], q["epsilon"], q["tau"], q["g_min"])


@S.solves(3)
def _s3() -> str:
    q = E3
    a = _a3()
    return (
        f"**Solution.** `min_gain` asks first whether $\\hat G_1<g_{{\\min}}$: "
        f"${q['g_best']}<{q['g_min']}$, so it returns {a} (wait) without looking further. VFDT's "
        f"rule would find the margin ${q['g_best']}-{q['g_second']}={q['g_best'] - q['g_second']:.3f}$ "
        f"below $\\varepsilon={q['epsilon']}$ (not decisive) but $\\varepsilon<\\tau={q['tau']}$, "
        "and return 2: a tie split on an attribute that gains less than a hundredth of a bit. "
        f"Check: {check(3, a)!r}"
    )


def _bernstein(n, var, delta, R) -> float:
    lg = math.log(3 / delta)
    return math.sqrt(2 * var * lg / n) + 3 * R * lg / n


def _e4_truth() -> float:
    q = E4
    return _bernstein(q["n"], q["var"], q["delta"], q["R"]) / _hoeffding(q["n"], q["delta"])


@S.add("an empirical-Bernstein radius against Hoeffding's")
def _e4(answer) -> object:
    q = E4
    truth = _e4_truth()
    hoeff = _hoeffding(q["n"], q["delta"])
    sd_for_var = _bernstein(q["n"], math.sqrt(q["var"]), q["delta"], q["R"]) / hoeff
    return grade(
        answer,
        "the Bernstein radius divided by Hoeffding's",
        truth,
        0.01,
        f"the empirical-Bernstein-style radius is {truth:.2f} times Hoeffding's: the variance "
        f"{q['var']}, against the worst case 0.25 that Hoeffding's radius assumes, more than "
        "makes up for the extra term 3R ln(3/delta)/n and for ln(3/delta) in place of "
        "ln(1/delta)",
        [
            (1 / truth, "that is Hoeffding's over Bernstein's: divide the other way round"),
            (
                math.sqrt(2 * q["var"] * math.log(3 / q["delta"]) / q["n"]) / hoeff,
                "keep the second term, 3R ln(3/delta)/n",
            ),
            (sd_for_var, "V is already a variance (bits squared): do not take its square root"),
            (
                _bernstein(q["n"], q["var"], q["delta"], q["R"])
                / math.sqrt(math.log(1 / q["delta"]) / q["n"]),
                "Hoeffding's radius has 2n under the root",
            ),
            (
                (
                    math.sqrt(2 * q["var"] * math.log(1 / q["delta"]) / q["n"])
                    + 3 * math.log(1 / q["delta"]) / q["n"]
                )
                / hoeff,
                "the Bernstein radius uses ln(3/delta), Hoeffding's ln(1/delta)",
            ),
        ],
        "compute both radii at n = 1,000 and delta = 0.05 (natural logarithms), then divide "
        "the Bernstein radius by Hoeffding's",
    )


@S.answers(4)
def _a4() -> float:
    return _e4_truth()


@S.solves(4)
def _s4() -> str:
    q = E4
    lg = math.log(3 / q["delta"])
    first = math.sqrt(2 * q["var"] * lg / q["n"])
    second = 3 * q["R"] * lg / q["n"]
    hoeff = _hoeffding(q["n"], q["delta"])
    r = _e4_truth()
    return (
        f"**Solution.** $\\ln(3/\\delta)=\\ln 60={lg:.4f}$. The variance term "
        f"$\\sqrt{{2\\cdot{q['var']}\\cdot{lg:.4f}/{tex_int(q['n'])}}}={first:.5f}$, the range term "
        f"$3\\cdot{lg:.4f}/{tex_int(q['n'])}={second:.5f}$, together ${first + second:.5f}$. "
        f"Hoeffding's radius is $\\sqrt{{\\ln 20/(2\\cdot{tex_int(q['n'])})}}={hoeff:.5f}$, so the "
        f"ratio is ${r:.3f}$. Only at a variance well below the worst case $R^2/4$ (here "
        f"{q['var'] / 0.25:.0%} of it), or at larger $n$, where the range term fades, does the "
        f"Bernstein radius win by much. Check: {check(4, r)!r}"
    )
