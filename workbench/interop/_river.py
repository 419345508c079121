"""A workbench learner as a River classifier (:func:`workbench.interop.to_river`).

Imported only by :func:`~workbench.interop.to_river`: it needs River (``pip install river``).
"""

from __future__ import annotations

import copy

from river import base


def _python(label):
    """A NumPy scalar label as the Python value River's metrics and dicts expect."""
    return label.item() if hasattr(label, "item") and not isinstance(label, (str, bytes)) else label


class RiverClassifier(base.Classifier):
    """A workbench learner in River's one-row protocol.

    ``learn_one(x, y)``, ``predict_one(x)`` and ``predict_proba_one(x)`` are the learner's own
    (:mod:`workbench.learners._rows`): the first row sets the learner up (features named by
    the dict's keys), classes come as they come unless the learner was given them, and before
    any learning ``predict_one`` returns None and ``predict_proba_one`` an empty dict, as River's
    learners do.  Labels come back as the Python values that were learned.

    ``model`` is the workbench learner (``wrapper.model.n_leaves``, ``viz.show(wrapper.model)``,
    ``wrapper.model.explain_one(x)``).  ``clone()`` wraps an unfitted clone of it, with the
    same parameters, as River's ``clone`` does for its own learners.

    The learner's features are fixed by its first row: a later row may leave a feature out (a
    missing value) but not bring a new one (an error that names it; River's own trees add the
    feature instead).
    """

    def __init__(self, model=None):
        if model is None:
            from ..learners import HoeffdingTree

            model = HoeffdingTree()
        self.model = model

    @property
    def _multiclass(self) -> bool:
        return True

    @classmethod
    def _unit_test_params(cls):
        from ..learners import EFDT, HoeffdingTree

        yield {"model": HoeffdingTree()}
        yield {"model": EFDT()}

    def _unit_test_skips(self):
        # the tree's columns are fixed by its first row: a feature that appears later is an
        # error that names it, not a new column (River's own trees add one)
        return {"check_emerging_features", "check_radically_disappearing_features"}

    def clone(self, new_params=None, include_attributes=False):
        from sklearn.base import clone

        params = dict(new_params or {})
        model = params.pop("model", self.model)
        new = type(self)(clone(model))
        if include_attributes:
            new.model = copy.deepcopy(self.model)
        return new

    def __repr__(self) -> str:
        return f"RiverClassifier({self.model!r})"

    def learn_one(self, x, y, **kwargs) -> None:
        self.model.learn_one(x, y)

    def predict_one(self, x, **kwargs):
        label = self.model.predict_one(x)
        return None if label is None else _python(label)

    def predict_proba_one(self, x, **kwargs) -> dict:
        proba = self.model.predict_proba_one(x)
        if proba is None:
            return {}
        return {_python(c): float(p) for c, p in zip(self.model.classes_, proba)}
