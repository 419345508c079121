"""Section 4 of the notebook: the stepper on a drifting SEA stream."""

from __future__ import annotations

from ... import learners, streams


def forest_stepper_demo(n: int = 20_000, seed: int = 1):
    """A UFFT forest (one tree: SEA has two classes) stepping through SEA whose concept switches
    from 0 (theta = 8) to 3 (theta = 9.5) halfway; returns the :class:`ForestStepper`."""
    from ...viz.stepper.forest import ForestStepper

    X, y = streams.sea(n, seed=seed, concepts=(0, 3))
    return ForestStepper(learners.UFFT(n_classes=2, grace_period=100), X, y)


__all__ = ["forest_stepper_demo"]
