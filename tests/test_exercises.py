"""The exercises' checks: a right answer passes, a wrong one gets its hint, no answer says so;
each worked solution passes its own check; the stepper exercises answer from a fresh replay,
whatever the student's stepper did."""

from __future__ import annotations

import math

import pytest

from workbench import bounds, viz
from workbench.exercises import Feedback, paper000, paper001, paper002, paper003, paper004

SETS = {
    "01": paper000,
    "02": paper001,
    "03": paper002,
    "04": paper003,
    "05": paper004,
}

# (set, exercise, a right answer, a wrong answer, words of the hint it must get)
NUMBERS = [
    ("01", 1, 0.2350, math.sqrt(8 / 2000 * math.log(200)), "bias term"),
    ("01", 1, 0.235, 0.30, "sqrt(8/m ln(2/delta))"),
    ("01", 2, 0.02 * math.sqrt(math.log(1000**2 * 9 * 1e5 * 3) / 1000), 0.15, "c sqrt"),
    ("01", 2, 0.003384, 0.02 * math.sqrt(math.log(1000**2 * 4 * 1e5 * 3) / 1000), "depth plus"),
    ("01", 3, 1.064, 3.5, "much less"),
    ("02", 1, 466 / 512, 0.7, "posterior mean"),
    ("02", 1, 0.910, 46 / 512, "other side"),
    ("02", 2, 2.87, 10, "1/sqrt(n)"),
    ("03", 1, 1 + math.log(7 / 3) / 2, 1.0, "midpoint"),
    ("03", 1, 1.4236, 1 - math.log(7 / 3) / 2, "wrong way"),
    ("03", 2, 2764, 2763, "round up"),
    ("03", 2, 2764, 1382, "keep the 2"),
    ("04", 1, 0.247, 0.940, "H(root)"),
    ("04", 1, 0.2467, 0.2467 * math.log(2), "base 2"),
    ("04", 2, 9, 8, "one short"),
    ("05", 1, 0.1423, float(bounds.hoeffding(1000, 1e-7, 1.0)), "log2(3)"),
]


@pytest.mark.parametrize("nb, n, good, bad, hint", NUMBERS)
def test_number_exercises_say_right_or_give_the_hint(nb, n, good, bad, hint):
    ok = SETS[nb].check(n, good)
    assert isinstance(ok, Feedback) and ok.ok is True and bool(ok), ok
    no = SETS[nb].check(n, bad)
    assert no.ok is False and hint in no.message, no
    assert "✗ not yet" in repr(no) and "data-ok='false'" in no._repr_html_()


CHOICES = [
    ("02", 3, "fewer", "more", "wider or narrower"),
    ("03", 3, "Warning", "in control", "p + s"),
    ("04", 3, "up", "down", "grow or shrink"),
    ("05", 2, "EFDT", "VFDT", "G(no split) = 0"),
    ("05", 2, "efdt only", "both", "G(no split) = 0"),
]


@pytest.mark.parametrize("nb, n, good, bad, hint", CHOICES)
def test_choice_exercises_say_right_or_give_the_hint(nb, n, good, bad, hint):
    assert SETS[nb].check(n, good).ok is True
    no = SETS[nb].check(n, bad)
    assert no.ok is False and hint in no.message, no


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


@pytest.mark.parametrize("nb", ["01", "02", "03", "04", "05"])
def test_every_exercise_has_a_title_and_a_solution_that_passes_its_check(nb, stepper_context):
    s = SETS[nb].S
    assert 3 <= len(s.exercises) <= 5 and all(e.title for e in s.exercises.values())
    for n in s.exercises:
        text = s.solution(n, **stepper_context.get((nb, n), {})).markdown
        assert text.startswith("**Solution.**") and "Check: ✓ right" in text, (nb, n, text)


@pytest.fixture(scope="module")
def stepper_context():
    from workbench.experiments import paper000 as P0
    from workbench.experiments import paper004 as P4

    compare, _, _ = P0.stepper_demo()
    X, y = P4.figures.two_concepts(10_000, 150_000)
    pair = viz.side_by_side(
        viz.TreeStepper(lambda **p: P4.make("VFDT", 3, 2, **p), X, y),
        viz.TreeStepper(lambda **p: P4.make("EFDT", 3, 2, **p), X, y),
        k=2000,
    )
    return {("01", 4): {"stepper": compare.steppers[1]}, ("05", 3): {"pair": pair}, "_": compare}


def test_the_predicted_split_is_checked_against_a_replay(stepper_context):
    stepper = stepper_context[("01", 4)]["stepper"]
    assert paper000.check(4, "x0", stepper=stepper).ok is False  # the generator's root tests x2
    first = paper000.check(4, "x2", stepper=stepper)
    assert first.ok is True and "now step" in first.message
    assert paper000.check(4, "x2", 13_300, stepper=stepper).ok is True
    late = paper000.check(4, "x2", 12_000, stepper=stepper)
    assert late.ok is False and "x2 is right" in late.message
    # the student's stepping does not change the answer
    stepper.step(10_000)
    assert paper000.check(4, "x2", 13_300, stepper=stepper).ok is True


def test_the_root_change_after_the_switch_is_checked_against_a_replay(stepper_context):
    pair = stepper_context[("05", 3)]["pair"]
    assert paper004.check(3, "VFDT", pair=pair).ok is False
    assert paper004.check(3, "both", pair=pair).ok is False
    assert paper004.check(3, "EFDT", pair=pair).ok is True
    when = paper004._root_changes(pair)
    assert when["vfdt"] == -1 and when["efdt"] > 10_000
    assert paper004.check(3, "EFDT", when["efdt"], pair=pair).ok is True
    assert paper004.check(3, "EFDT", when["efdt"] + 2_000, pair=pair).ok is False
