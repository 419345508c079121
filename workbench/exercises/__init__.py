"""Exercises for a class: each paper notebook (01-05) ends with three or four, with a check
that says right or wrong with a hint, and a worked solution the teacher reveals::

    from workbench.exercises import paper000 as E   # notebook 01
    E.check(1, 0.235)        # ✓ right / ✗ not yet, and a hint
    E.solution(1)            # the worked solution (Markdown), its numbers computed here

The notebooks carry each solution in a hidden cell tagged ``solution``; the rendered book leaves
those cells out, and its teacher build (``python3 dev.py book --solutions``) shows them.

========  ==================  ======================================================
module    notebook            exercises
========  ==================  ======================================================
paper000  01 (C-Tree)         Theorem 2 and eq. (10) by hand, eq. (7) against the
                              depth, the H-Tree's first split predicted and stepped to
paper001  02 (BOCT)           a Beta posterior by hand, the interval's width against
                              the labels, a smaller delta
paper002  03 (UFFT)           the analytical cut, epsilon below tau, a DDM state
paper003  04 (Frugal)         the gain of Outlook, when a leaf stops asking, alpha
paper004  05 (EFDT)           eq. (1) for three classes, which rule splits, which
                              root changes after the concept switch, and when
========  ==================  ======================================================
"""

from ._core import Exercise, ExerciseSet, Feedback, Solution

__all__ = ["Exercise", "ExerciseSet", "Feedback", "Solution"]
