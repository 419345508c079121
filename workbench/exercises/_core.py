"""The pieces every exercise set is made of: :class:`Feedback` (right or wrong, with a hint),
:class:`Exercise` (a task, its check, its right answer and its worked solution) and
:class:`ExerciseSet`."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from typing import Callable

import numpy as np


@dataclass
class Feedback:
    """What a check says: ``ok`` is True (right), False (wrong: ``message`` is the hint) or
    None (no answer yet).  ``complete`` is False when the first part of a two-part answer is
    right and the second is still to come (a prediction checked before stepping to it).  Shown
    in a notebook as one coloured line; ``bool(feedback)`` is ``ok``."""

    ok: bool | None
    message: str
    complete: bool = True

    def __bool__(self) -> bool:
        return bool(self.ok)

    @property
    def mark(self) -> str:
        return {True: "✓ right", False: "✗ not yet", None: "… no answer yet"}[self.ok]

    def __repr__(self) -> str:
        return f"{self.mark}: {self.message}"

    def _repr_html_(self) -> str:
        color = {True: "#1a7f37", False: "#c62828", None: "#777"}[self.ok]
        return (
            f"<div class='wb-feedback' data-ok='{str(self.ok).lower()}' style='border-left:4px "
            f"solid {color}; padding:2px 8px'><b style='color:{color}'>{self.mark}</b>: "
            f"{escape(self.message)}</div>"
        )


def right(message: str) -> Feedback:
    return Feedback(True, message)


def wrong(hint: str) -> Feedback:
    return Feedback(False, hint)


def number(answer, what: str) -> float | Feedback:
    """``answer`` as a float, or the Feedback that says what is wrong with it."""
    if answer is None or answer is ...:
        return Feedback(None, f"replace None by {what}, then run the cell again")
    if isinstance(answer, bool) or not isinstance(answer, (int, float, np.integer, np.floating)):
        return wrong(f"the answer should be a number ({what}); got {answer!r}")
    value = float(answer)
    if not math.isfinite(value):
        return wrong(f"the answer should be a finite number ({what}); got {answer!r}")
    return value


def choice(answer, options: dict[str, tuple[str, ...]], what: str) -> str | Feedback:
    """``answer`` (a string, case and spaces ignored) as the key of ``options`` whose spellings
    include it, or the Feedback that lists the accepted answers."""
    if answer is None or answer is ...:
        return Feedback(None, f"replace None by {what}, then run the cell again")
    said = " ".join(str(answer).lower().split())
    for key, spellings in options.items():
        if said == key or said in spellings:
            return key
    return wrong(f"answer with one of {', '.join(repr(k) for k in options)} ({what})")


def tex_int(n: int) -> str:
    """An integer with thousands separators that LaTeX does not space out: 2{,}764."""
    return f"{int(n):,}".replace(",", "{,}")


def close(value: float, truth: float, rel: float) -> bool:
    """Within a relative ``rel`` of ``truth`` (hand computations round)."""
    return abs(value - truth) <= rel * abs(truth)


def grade(answer, what: str, truth: float, rel: float, ok: str, slips=(), hint: str = ""):
    """A number answered to an exercise: right if within ``rel`` of ``truth`` (``ok`` says what
    it means); else the hint of the first of ``slips`` it matches (``(value, hint)``, the value
    a known slip gives, matched within ``rel``; or ``(test, hint)`` with ``test(answer)``), else
    ``hint``.  No answer, or not a number, gets the Feedback of :func:`number`."""
    value = number(answer, what)
    if not isinstance(value, float):
        return value
    if close(value, truth, rel):
        return right(ok)
    for slip, slip_hint in slips:
        if slip(value) if callable(slip) else close(value, slip, rel):
            return wrong(slip_hint)
    return wrong(hint)


def _missing(what: str):
    def fn(**context):
        raise NotImplementedError(f"this exercise has no {what} yet")

    return fn


@dataclass
class Exercise:
    """One task: ``check(*answers, **context)`` returns a :class:`Feedback`; ``answer(**context)``
    the right answer (a tuple when the check takes several); ``solution(**context)`` the worked
    solution as Markdown (its numbers computed here, and its answer passed through ``check``).
    ``context`` is what the notebook passes by keyword (a stepper the exercise looks at)."""

    number: int
    title: str
    check: Callable[..., Feedback]
    solution: Callable[..., str] = field(default_factory=lambda: _missing("worked solution"))
    answer: Callable[..., object] = field(default_factory=lambda: _missing("answer"))


class Solution:
    """A worked solution, shown as Markdown in a notebook (the teacher's version of the notebook
    displays it under the exercise's check)."""

    def __init__(self, markdown: str):
        self.markdown = markdown

    def __repr__(self) -> str:
        return self.markdown

    def _repr_markdown_(self) -> str:
        return self.markdown


@dataclass
class ExerciseSet:
    """The exercises of one notebook, by number.  A module of exercises builds one::

    S = ExerciseSet("04_frugal_hoeffding_tree")
    check, solution = S.check, S.solution

    @S.add("the gain of Humidity by hand")   # the check: exercise 1 (numbered in order)
    def _e1(answer): ...                      # returns a Feedback (grade, choice, ...)

    @S.answers(1)                             # its right answer (for the teacher's version)
    def _a1(): ...

    @S.solves(1)                              # its worked solution, as Markdown
    def _s1(): ...
    """

    notebook: str
    exercises: dict[int, Exercise] = field(default_factory=dict)

    def add(self, title: str):
        """Decorator: ``@S.add(title)`` on the check makes the next exercise."""

        def wrap(check):
            n = len(self.exercises) + 1
            self.exercises[n] = Exercise(n, title, check)
            check.exercise = n
            return check

        return wrap

    def solves(self, n: int):
        """Decorator: the worked solution of exercise ``n`` (Markdown)."""

        def wrap(fn):
            self._get(n).solution = fn
            return fn

        return wrap

    def answers(self, n: int):
        """Decorator: the right answer of exercise ``n`` (a tuple when its check takes several
        answers), computed from the same numbers as the check."""

        def wrap(fn):
            self._get(n).answer = fn
            return fn

        return wrap

    def _get(self, n) -> Exercise:
        if n not in self.exercises:
            raise ValueError(
                f"{self.notebook} has exercises {', '.join(map(str, self.exercises))}; got {n!r}"
            )
        return self.exercises[n]

    def check(self, n: int, *answers, **context) -> Feedback:
        """Check the answer(s) to exercise ``n``: right, or wrong with a hint."""
        return self._get(n).check(*answers, **context)

    def solution(self, n: int, **context) -> Solution:
        """The worked solution of exercise ``n`` (for the teacher)."""
        return Solution(self._get(n).solution(**context))

    def answer(self, n: int, **context):
        """The right answer of exercise ``n`` (for the teacher's version; a tuple when the
        check takes several answers)."""
        return self._get(n).answer(**context)

    def passed(self, n: int, *answers, **context) -> bool:
        """True when ``answers`` answer exercise ``n`` right and in full (what a grader counts:
        nbgrader's hidden test in the teacher's version asserts it)."""
        feedback = self.check(n, *answers, **context)
        return feedback.ok is True and feedback.complete

    def titles(self) -> list[str]:
        return [f"{n}. {e.title}" for n, e in self.exercises.items()]
