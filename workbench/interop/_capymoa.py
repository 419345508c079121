"""A workbench learner as a CapyMOA classifier (:func:`workbench.interop.to_capymoa`).

Imported only by :func:`~workbench.interop.to_capymoa`: it needs CapyMOA (``pip install
capymoa``) and Java 17 or newer, in which CapyMOA runs MOA.
"""

from __future__ import annotations

import numpy as np
from capymoa.base import Classifier

from ..streams.interop import schema_layout


class CapyMOAClassifier(Classifier):
    """A workbench learner in CapyMOA's protocol: ``train(instance)``, ``predict(instance)``
    (a class index of the schema) and ``predict_proba(instance)``.

    The learner is set up from the schema when the wrapper is made, as MOA's learners are: its
    features are the schema's attributes in their order (names kept; nominal attributes
    declared with their number of values, their values being MOA's codes), its classes are the
    schema's, in the schema's order (``y_index``).  So it predicts from the first instance on,
    with its empty tree at first, exactly as :func:`workbench.evaluate.prequential` does on the
    same rows; ``predict_proba`` returns None until the tree has learned something (MOA's
    learners do the same).

    ``model`` is the workbench learner: ``wrapper.model.n_leaves``, ``viz.show(wrapper.model)``.
    """

    def __init__(self, model, schema, random_seed: int = 1):
        super().__init__(schema=schema, random_seed=random_seed)
        if not schema.is_classification():
            raise ValueError(
                "to_capymoa needs a classification schema (a nominal target); got a "
                "regression schema"
            )
        self.model = model
        _set_up(model, schema)

    def __str__(self) -> str:
        return type(self.model).__name__

    def train(self, instance) -> None:
        self.model.learn_one(instance.x, instance.y_index)

    def predict(self, instance):
        return int(self.model.predict_one(instance.x))

    def predict_proba(self, instance):
        proba = self.model.predict_proba_one(instance.x)
        if proba is None or not np.any(proba > 0.0):
            return None
        return np.asarray(proba, dtype=np.float64)


def _set_up(model, schema) -> None:
    """Give the (unfitted) model the schema's features and classes, then set it up; a fitted
    model must already match them."""
    layout = schema_layout(schema)
    d, k = len(layout.feature_names), len(layout.class_names)
    if model._is_set_up():
        if model.n_features_in_ != d or model.n_classes_ != k:
            raise ValueError(
                f"the model was set up for {model.n_features_in_} features and "
                f"{model.n_classes_} classes; the schema has {d} attributes and {k} classes"
            )
        return
    declared = model.nominal_features
    if declared not in (None, (), [], {}) and _nominal(declared, d) != layout.nominal_features:
        raise ValueError(
            f"the model declares nominal_features={declared!r}; the schema's nominal "
            f"attributes are {layout.nominal_features!r} (leave nominal_features out: the "
            "schema declares them)"
        )
    model.set_params(
        n_features=d,
        n_classes=k,
        nominal_features=dict(layout.nominal_features),
        feature_names=(
            list(model.feature_names)
            if model.feature_names is not None
            else list(layout.feature_names)
        ),
        class_names=(
            list(model.class_names) if model.class_names is not None else list(layout.class_names)
        ),
    )
    model.prepare(np.zeros((1, d)))


def _nominal(declared, d: int) -> dict:
    from ..core.validate import normalise_nominal
    from ..learners.base import DEFAULT_NOMINAL_VALUES

    return normalise_nominal(declared, d, DEFAULT_NOMINAL_VALUES)
