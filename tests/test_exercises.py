"""The exercises' checks, each tried as a class tries it: the right answer (computed here, apart
from the exercise's own code), the answer a student gets by reading the question literally (as
rounded as the question allows), and the typical wrong answers, whose hints must guide without
giving the answer away.  Then the teacher's side: every exercise's answer and worked solution
pass its check, and the solution region the teacher's version of each notebook runs says
"✓ right"; the stepper exercises answer from a fresh replay, whatever the student's stepper
did."""

from __future__ import annotations

import math
import re

import nbformat
import pytest
from scipy.stats import beta, chi2

from workbench import viz
from workbench.exercises import (
    Feedback,
    own_bound,
    bound_in_tree,
    paper000,
    paper001,
    paper002,
    paper003,
    paper004,
)
from workbench.exercises import versions

SETS = {
    "01": paper000,
    "02": paper001,
    "03": paper002,
    "04": paper003,
    "05": paper004,
    "06": own_bound,
    "07": bound_in_tree,
}


def _h(*counts) -> float:
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def _gini_radius(m, delta) -> float:
    """Theorem 2 of 000, written out."""
    return math.sqrt(8 / m * math.log(2 / delta)) + 4 * math.sqrt(1 / m)


def _eq7(m, h, t, d) -> float:
    """Eq. (7) of 000 with the Gini radius: Theorem 2 at delta / ((h+1)(h+2) t d m), delta = 1/t."""
    return _gini_radius(m, (1 / t) / ((h + 1) * (h + 2) * t * d * m))


def _bernstein_over_hoeffding(n, var, delta) -> float:
    """06's Exercise 4: sqrt(2 V ln(3/delta) / n) + 3 ln(3/delta) / n over sqrt(ln(1/delta) / 2n)."""
    lg = math.log(3 / delta)
    return (math.sqrt(2 * var * lg / n) + 3 * lg / n) / math.sqrt(math.log(1 / delta) / (2 * n))


def _cs_gini_wait(factor=2.0, candidates=1275) -> float:
    """The n at which factor * cs_gini(n, 0.05) reaches 0.02: the stitched boundary (Howard et
    al. 2021, eq. 10 with eta = 2, s = 1.4, m = 500 sigma^2) on the 2^4 - 2 events of a 2 x 2
    table at delta / candidates, sigma = 1/2, doubled for the Gini index; solved by scipy."""
    from scipy.optimize import brentq
    from scipy.special import zeta

    def radius(n):
        sigma, eta, s = 0.5, 2.0, 1.4
        m = 500 * sigma**2
        v = max(n * sigma**2, m)
        log_inv = math.log(candidates / 0.05) + math.log(2**4 - 2)
        ell = s * math.log(math.log(eta * v / m)) + math.log(zeta(s) / math.log(eta) ** s) + log_inv
        k1 = (eta**0.25 + eta**-0.25) / math.sqrt(2)
        return factor * min(2 * min(1.0, k1 * math.sqrt(v * ell) / n), 1.0) - 0.02

    return brentq(radius, 1e3, 1e9, xtol=1e-3)


def _width(a, b) -> float:
    lo, hi = beta.ppf([0.05, 0.95], a, b)
    return hi - lo


# the right answers, each computed here from the question's numbers
RIGHT = {
    ("01", 1): _gini_radius(2000, 0.01),
    ("01", 2): 0.02 * math.sqrt(math.log(1000**2 * 3**2 * 1e5 * 3) / 1000),
    ("01", 3): _eq7(1000, 20, 1e5, 5) / _eq7(1000, 0, 1e5, 5),
    ("02", 1): 466 / 512,  # 1 - (C(9,7) + C(9,8) + C(9,9)) / 2^9
    ("02", 2): _width(7, 3) / _width(61, 21),
    ("02", 3): "fewer",
    ("03", 1): 1 + math.log(0.7 / 0.3) / 2,
    ("03", 2): math.ceil(math.log(1e6) / (2 * 0.05**2)),
    ("03", 3): "warning",  # p + s = 0.12 + 0.0145 lies in [0.124, 0.136)
    # the 5 sunny days: humidity high (1 play, 1 don't), normal (2 play, 1 don't)
    ("04", 1): _h(3, 2) - (2 / 5 * _h(1, 1) + 3 / 5 * _h(2, 1)),
    ("04", 2): 9,  # (9 - 3) / (9 + 3 + 2) = 0.43 >= 0.4 > (8 - 3) / (8 + 5)
    ("04", 3): "up",
    ("05", 1): math.sqrt(math.log2(3) ** 2 * math.log(1e7) / 2000),
    ("05", 2): "EFDT",  # epsilon(2000) = 0.10: 0.05 < epsilon, 0.20 > epsilon
    # margin 0.02 < tau: epsilon reaches tau = 0.05 at n' = ln(1e7) / (2 tau^2) = 3223.6
    ("06", 1): math.ceil(math.log(1e7) / (2 * 0.05**2) - 1000),
    ("06", 2): chi2.isf(0.05, 1) / (2 * 1000 * math.log(2)),  # 1 degree of freedom
    ("06", 3): "0",  # 0.008 < g_min = 0.01: wait (VFDT would tie: epsilon 0.04 < tau)
    ("06", 4): _bernstein_over_hoeffding(1000, 0.04, 0.05),
    ("07", 1): math.sqrt(math.log(10 * 11 * 5 / 0.05) / (2 * 2000)),
    ("07", 2): 72,  # 0.025^(1/72) = 0.9501 >= 0.95 > 0.025^(1/71)
    ("07", 3): _cs_gini_wait(),
}

# what a student who reads each question literally answers: rounded as the question allows
LITERAL = [
    ("01", 1, 0.235),  # "to three decimals"
    ("01", 2, 0.0034),
    ("01", 3, 1.06),  # read off the plot
    ("02", 1, 0.91),
    ("02", 2, 2.9),  # "by what factor is it narrower": the wide width over the narrow one
    ("02", 3, "fewer"),
    ("03", 1, 1.42),
    ("03", 2, 2764),  # "from which number n": the first whole n
    ("03", 3, "in warning"),
    ("04", 1, 0.02),
    ("04", 2, 9),  # "how many yes labels does the leaf hold in all"
    ("04", 3, "up"),
    ("05", 1, 0.142),
    ("05", 2, "EFDT"),
    ("06", 1, 2224),  # "a whole number"
    ("06", 2, 0.00277),  # "to three significant digits"
    ("06", 3, 0),  # "0 (wait), 1 ... or 2"
    ("06", 4, 0.79),  # "to two decimals"
    ("07", 1, 0.0482),  # "to four decimals"
    ("07", 2, 72),
    ("07", 3, 355_000),  # "to within 5%"
]

# typical wrong answers: (set, exercise, answer, words the hint must say)
WRONG = [
    ("01", 1, math.sqrt(8 / 2000 * math.log(200)), "bias term"),
    ("01", 1, math.sqrt(8 / 2000 * math.log10(200)) + 4 / math.sqrt(2000), "natural logarithm"),
    ("01", 1, 0.30, "sqrt(8/m ln(2/delta))"),
    ("01", 2, 0.02 * math.sqrt(math.log(1000**2 * 2**2 * 1e5 * 3) / 1000), "depth plus one"),
    ("01", 2, math.sqrt(math.log(1000**2 * 3**2 * 1e5 * 3) / 1000), "factor c"),
    ("01", 3, 1 / RIGHT[("01", 3)], "deep leaf's radius over the root's"),
    ("01", 3, 3.5, "much less"),
    ("02", 1, 0.7, "posterior mean"),
    ("02", 1, 46 / 512, "other side"),
    ("02", 1, 1 - 8 / 128, "Beta(6, 2)"),  # P(mu > 1/2) under Beta(6, 2): no prior counted
    ("02", 1, 0.5, "Beta(7, 3)"),
    ("02", 2, 10, "1/sqrt(n)"),
    ("02", 2, math.sqrt(10), "1/sqrt(n) prediction"),
    ("02", 2, 1 / RIGHT[("02", 2)], "how many times narrower"),
    ("02", 3, "more", "wider or narrower"),
    ("03", 1, 1.0, "midpoint"),
    ("03", 1, 1 - math.log(7 / 3) / 2, "wrong way"),
    ("03", 1, 1 + math.log10(7 / 3) / 2, "natural logarithms"),
    ("03", 2, 2763, "round up"),
    ("03", 2, 1382, "keep the 2"),
    ("03", 2, 1200, "natural logarithm"),
    ("03", 3, "in control", "p + s, not p alone"),
    ("03", 3, "drift", "p + s"),
    ("04", 1, _h(3, 2), "H(sunny)"),
    ("04", 1, 0.1518, "root"),
    ("04", 1, RIGHT[("04", 1)] * math.log(2), "base 2"),
    ("04", 1, _h(3, 2) - (_h(1, 1) + _h(2, 1)) / 2, "share of the 5 sunny days"),
    ("04", 2, 8, "one short"),
    ("04", 2, 6, "in all"),
    ("04", 2, 7, "without smoothing"),  # (7 - 3) / (7 + 3) = 0.4 without Laplace
    ("04", 2, 0, "Laplace"),  # the old question's literal answer: no longer a right one
    ("04", 3, "down", "grow or shrink"),
    ("05", 1, math.sqrt(math.log(1e7) / 2000), "R = 1"),
    ("05", 1, math.sqrt(math.log2(3) * math.log(1e7) / 2000), "squared"),
    ("05", 1, math.sqrt(math.log2(3) ** 2 * 7 / 2000), "natural logarithm"),
    ("05", 2, "VFDT", "G(no split) = 0"),
    ("05", 2, "both", "G(no split) = 0"),
    ("06", 1, 3224, "n' - n"),  # the weight at the next attempt
    ("06", 1, 2223, "one short"),
    ("06", 1, math.ceil(math.log(1e7) / (2 * 0.02**2) - 1000), "a decisive margin or a tie"),
    ("06", 1, 10_000, "50 grace periods"),  # the cap the margin's n' hits
    ("06", 1, 200, "floor"),
    ("06", 2, chi2.isf(0.05, 1) / 2000, "nats"),
    ("06", 2, chi2.isf(0.05, 1) / (1000 * math.log(2)), "twice n"),
    ("06", 2, chi2.isf(0.05, 2) / (2000 * math.log(2)), "(B - 1)(K - 1)"),
    ("06", 2, math.sqrt(chi2.isf(0.05, 1) / (2000 * math.log(2))), "square root"),
    ("06", 3, 2, "VFDT's answer"),
    ("06", 3, "split", "decisive"),
    ("06", 4, 1 / _bernstein_over_hoeffding(1000, 0.04, 0.05), "other way round"),
    (
        "06",
        4,
        math.sqrt(2 * 0.04 * math.log(60) / 1000) / math.sqrt(math.log(20) / 2000),
        "second term",
    ),
    ("06", 4, _bernstein_over_hoeffding(1000, 0.2, 0.05), "square root"),  # sqrt(0.04) for V
    ("07", 1, math.sqrt(math.log(20) / 4000), "one test"),
    ("07", 1, math.sqrt(math.log(110 / 0.05) / 4000), "5 candidates"),
    ("07", 1, math.sqrt(math.log(50 / 0.05) / 4000), "k (k + 1)"),
    ("07", 1, math.sqrt(math.log10(11000) / 4000), "natural logarithm"),
    ("07", 1, math.sqrt(math.log(11000) / 2000), "keep the 2"),
    ("07", 2, 71, "one short"),
    ("07", 2, 59, "one-sided"),
    ("07", 2, 60, "rule of three"),
    ("07", 3, _cs_gini_wait(factor=1.0), "2 epsilon"),
    ("07", 3, _cs_gini_wait(candidates=1), "n_candidates=1275"),
    ("07", 3, _cs_gini_wait(candidates=5), "5 x 255"),
]

CHOICES = {
    ("02", 3): ("fewer", "the same", "more"),
    ("03", 3): ("in control", "warning", "drift"),
    ("04", 3): ("up", "down"),
    ("05", 2): ("vfdt", "efdt", "both", "neither"),
    ("06", 3): ("0", "1", "2"),
}


def _spellings(value) -> list[str]:
    """How a number shows in a text: its rounding to 2-4 decimals (or a whole number, with and
    without thousands separators)."""
    if isinstance(value, int) or float(value).is_integer():
        v = int(value)
        return [rf"(?<![\d.,]){v}(?![\d,]|\.\d)", rf"(?<![\d.,]){v:,}(?![\d,]|\.\d)"]
    return [re.escape(f"{value:.{k}f}") for k in (2, 3, 4) if f"{value:.{k}f}" != "0.00"]


def _assert_hint_hides(nb, n, hint: str) -> None:
    truth = RIGHT[(nb, n)]
    if isinstance(truth, str):
        options = CHOICES[(nb, n)]
        named = [o for o in options if re.search(rf"\b{o}\b", hint, re.I)]
        # the right option may be named only beside the others, never alone
        assert truth.lower() not in named or len(named) >= 2, (nb, n, hint)
        return
    for pattern in _spellings(truth):
        assert not re.search(pattern, hint), (nb, n, pattern, hint)


@pytest.mark.parametrize("nb, n", [k for k in RIGHT], ids=[f"{a}-{b}" for a, b in RIGHT])
def test_the_right_answer_is_right(nb, n):
    ok = SETS[nb].check(n, RIGHT[(nb, n)])
    assert isinstance(ok, Feedback) and ok.ok is True and bool(ok) and ok.complete, ok
    assert "✓ right" in repr(ok) and "data-ok='true'" in ok._repr_html_()
    assert SETS[nb].passed(n, RIGHT[(nb, n)])


@pytest.mark.parametrize("nb, n, said", LITERAL, ids=[f"{a}-{b}" for a, b, _ in LITERAL])
def test_the_question_read_literally_gets_right(nb, n, said):
    assert SETS[nb].check(n, said).ok is True, SETS[nb].check(n, said)


@pytest.mark.parametrize("nb, n, said, words", WRONG, ids=[f"{a}-{b}-{w}" for a, b, _, w in WRONG])
def test_a_wrong_answer_gets_a_hint_without_the_answer(nb, n, said, words):
    no = SETS[nb].check(n, said)
    assert no.ok is False and words in no.message, no
    assert "✗ not yet" in repr(no) and "data-ok='false'" in no._repr_html_()
    assert not SETS[nb].passed(n, said)
    _assert_hint_hides(nb, n, no.message)


def test_the_hints_the_issue_quoted_are_gone():
    """02's hint handed over the answer as a formula; 02's inverted ratio and 1/sqrt(n)
    prediction got the same generic hint; 04's Exercise 2 rejected the literal answer and then
    gave the whole inequality."""
    for wrong in (0.5, 0.8, 0.95):
        assert "beta.cdf" not in paper001.check(1, wrong).message
    assert paper001.check(2, 0.348).message != paper001.check(2, 3.16).message
    for wrong in (0, 5, 12):
        hint = paper003.check(2, wrong).message
        assert "(n1 - 3) / (n1 + 3 + 2)" not in hint and ">= 0.4" not in hint, hint


def test_no_answer_and_answers_of_the_wrong_kind():
    none = paper000.check(1, None)
    assert none.ok is None and "replace None" in none.message and not none
    assert "no answer yet" in repr(none)
    assert paper000.check(1, "0.235").ok is False  # a string is not a number
    assert paper000.check(1, float("nan")).ok is False
    assert paper000.check(1, True).ok is False
    odd = paper002.check(3, "maybe")
    assert odd.ok is False and "'in control'" in odd.message
    with pytest.raises(ValueError, match="exercises 1, 2, 3, 4"):
        paper000.check(9, 1.0)


@pytest.fixture(scope="module")
def stepper_context():
    from workbench.experiments import paper000 as P0

    compare, _, _ = P0.stepper_demo()
    late = paper004.switch_pair()  # the exercise's own pair (notebook 05 calls it `late`)
    return {("01", 4): {"stepper": compare.steppers[1]}, ("05", 3): {"pair": late}, "_": compare}


@pytest.mark.parametrize("nb", list(SETS))
def test_every_exercise_has_an_answer_and_a_solution_that_pass_its_check(nb, stepper_context):
    s = SETS[nb].S
    assert 3 <= len(s.exercises) <= 5 and all(e.title for e in s.exercises.values())
    for n in s.exercises:
        context = stepper_context.get((nb, n), {})
        text = s.solution(n, **context).markdown
        assert text.startswith("**Solution.**") and "Check: ✓ right" in text, (nb, n, text)
        answer = s.answer(n, **context)
        answers = answer if isinstance(answer, tuple) else (answer,)
        assert s.passed(n, *answers, **context), (nb, n, answer)
        if (nb, n) in RIGHT:  # the module's answer is the one computed here
            truth = RIGHT[(nb, n)]
            if isinstance(truth, str):
                assert str(answer).lower() == truth.lower(), (nb, n, answer)
            else:
                assert answer == pytest.approx(truth, rel=1e-9), (nb, n, answer)


def test_the_predicted_split_is_checked_against_a_replay(stepper_context):
    stepper = stepper_context[("01", 4)]["stepper"]
    assert paper000.check(4, "x0", stepper=stepper).ok is False  # the generator's root tests x2
    first = paper000.check(4, "x2", stepper=stepper)
    # the prediction is right; the answer is complete once the t is given
    assert first.ok is True and not first.complete and "now step" in first.message
    assert not paper000.passed(4, "x2", None, stepper=stepper)
    assert paper000.check(4, "x2", 13_300, stepper=stepper).ok is True
    assert paper000.passed(4, "x2", 13_300, stepper=stepper)
    late = paper000.check(4, "x2", 12_000, stepper=stepper)
    assert late.ok is False and "x2 is right" in late.message and "13" not in late.message
    # the student's stepping does not change the answer
    stepper.step(10_000)
    assert paper000.check(4, "x2", 13_300, stepper=stepper).ok is True
    assert paper000.answer(4, stepper=stepper) == ("x2", 13_300)


def test_the_root_change_after_the_switch_is_checked_against_a_replay(stepper_context):
    """05's Exercise 3 runs on a pair of its own, whose first concept lasts 20,000 instances:
    the notebook prints when EFDT's root moves after section 4's switch at 10,000 (its
    verdicts and section 7 do), which is then a wrong answer with a hint, not the answer."""
    from workbench.experiments import paper004 as P4

    pair = stepper_context[("05", 3)]["pair"]
    assert paper004._switch_of(pair) == 20_000 and pair.steppers[0].n == 170_000
    assert paper004.check(3, "VFDT", pair=pair).ok is False
    assert paper004.check(3, "both", pair=pair).ok is False
    assert paper004.check(3, "EFDT", pair=pair).ok is True
    when = paper004._root_changes(pair)
    assert when["vfdt"] == -1 and when["efdt"] > 20_000
    assert paper004.check(3, "EFDT", when["efdt"], pair=pair).ok is True
    late = paper004.check(3, "EFDT", when["efdt"] + 2_000, pair=pair)
    assert late.ok is False and f"{when['efdt']:,}" not in late.message
    assert paper004.answer(3, pair=pair) == ("EFDT", when["efdt"])
    # section 4's stream (the notebook's own pair): its root moves at another t, printed there
    X, y = P4.figures.two_concepts(10_000, 150_000)
    section4 = viz.side_by_side(
        viz.TreeStepper(lambda **p: P4.make("VFDT", 3, 2, **p), X, y),
        viz.TreeStepper(lambda **p: P4.make("EFDT", 3, 2, **p), X, y),
    )
    printed = paper004._root_changes(section4)["efdt"]
    assert printed != when["efdt"]
    reading = paper004.check(3, "EFDT", printed, pair=pair)
    assert reading.ok is False and str(when["efdt"] // 1000) not in reading.message


# ---------------------------------------------------------------- the teacher's version
PAPERS = [p for p in versions.notebooks() if p.name[:2] in SETS]


@pytest.mark.parametrize("path", PAPERS, ids=[p.name for p in PAPERS])
def test_the_teachers_solution_regions_run_and_say_right(path, stepper_context):
    """Each solution region of the teacher's version, run as the notebook runs it (with the
    notebook's steppers): the check after it says "✓ right", the worked solution is displayed
    and the autograder's hidden test passes."""
    nb = nbformat.read(path, as_version=4)
    found = versions.find_exercises(nb)
    assert [e.number for e in found] == list(SETS[path.name[:2]].S.exercises), path.name
    teacher = versions.teacher_version(nb)
    compare = stepper_context["_"]
    for ex in found:
        shown = []
        space = {
            ex.alias: SETS[path.name[:2]],
            "display": shown.append,
            "compare": compare,
            "late": stepper_context[("05", 3)]["pair"],
        }
        cell = next(
            c
            for c in teacher.cells
            if c.metadata.get("nbgrader", {}).get("grade_id") == f"exercise-{ex.number}"
        )
        source = cell.source.split("\n")
        last = source.pop()  # the check, the cell's output
        exec("\n".join(source), space)
        feedback = eval(last, space)
        assert feedback.ok is True and feedback.complete, (path.name, ex.number, feedback)
        assert len(shown) == 1 and shown[0].markdown.startswith("**Solution.**")
        test = teacher.cells[teacher.cells.index(cell) + 1]
        assert test.metadata["nbgrader"]["grade"] and "passed(" in test.source
        exec(test.source, space)  # the hidden test passes
