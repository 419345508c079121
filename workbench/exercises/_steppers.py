"""What the stepper exercises check against: the next split a stepper's learner makes, found
on a fresh copy of it (the student's stepper is left where it is)."""

from __future__ import annotations

import numpy as np

from ..core.dot import node_test
from ._core import Feedback, number, right, wrong


def next_split(stepper, since: int, node: int | None = None, chunk: int = 100):
    """The first split at or after stream time ``since`` (of ``node`` only, if given) that
    ``stepper``'s learner, with its current parameters, makes on its stream: ``(node, feature
    name, test, t)``, or None if the stream ends first.  Found by learning the stream from its
    start on a fresh clone, in chunks of ``chunk`` rows, so that neither the student's stepping
    nor a later re-evaluation that replaced the split (EFDT) changes the answer.  (For learners
    that learn every instance, as here: the learner's time is the stream's.)"""
    model = stepper.model.clone()
    names = stepper.feature_names
    t = 0
    while t < stepper.n:
        model.partial_fit(stepper.X[t : t + chunk], stepper.y[t : t + chunk])
        t += chunk
        T = model.tree
        inner = np.flatnonzero((T.kind > 0) & (T.t_split >= since))
        if node is not None:
            inner = inner[inner == node]
        if inner.size:
            u = int(inner[np.argmin(T.t_split[inner])])
            return u, names[int(T.feature[u])], node_test(T, u, names), int(T.t_split[u])
    return None


def stepped_to(t, when: int, ok: str, hint: str, first: str):
    """The second answer of a predict-then-step exercise, the ``t`` the student stepped to:
    none yet (the prediction is right, the answer not complete: ``first`` says to step now),
    within one of ``when`` (``ok``; the panel counts instances from 1, the tree's times from 0)
    or not (``hint``)."""
    if t is None:
        return Feedback(True, first, complete=False)
    got = number(t, "the t you stepped to")
    if not isinstance(got, float):
        return got
    return right(ok) if abs(got - when) <= 1 else wrong(hint)
