"""scikit-learn's estimator API for the learners, without importing scikit-learn to build them.

Importing ``sklearn.base`` imports scipy.stats, pandas and pyarrow with it: about a second of a
cold start, twice what the rest of ``import workbench; learners.HoeffdingTree().fit(X, y)``
costs.  So the learners implement the contract scikit-learn's tools rely on themselves, and
scikit-learn is imported only by the code that needs it (its tags, ``score``, the HTML display,
an error path), usually in a process that has imported it already:

* the constructor stores its arguments unchanged; :meth:`get_params` reads them back by the
  names in its signature and :meth:`set_params` sets them (``name__sub`` for a nested estimator),
  so ``sklearn.base.clone``, ``Pipeline`` and ``GridSearchCV`` work as with any estimator;
* ``__sklearn_tags__`` returns scikit-learn's own tags of a classifier (``is_classifier`` and
  the meta-estimators read them), ``score`` is the accuracy, as ``ClassifierMixin`` has it;
* ``repr`` names the parameters that differ from their defaults; in Jupyter a learner shows
  scikit-learn's HTML diagram.

The learners pass scikit-learn's ``check_estimator`` (``tests/test_sklearn.py``).  What they do
not have is ``sklearn.base.BaseEstimator`` among their base classes: ``isinstance(model,
BaseEstimator)`` is False, and ``check_estimator`` says so in a warning before it runs its checks.
"""

from __future__ import annotations

import copy
import inspect

import numpy as np


def _same(a, b) -> bool:
    """``a`` and ``b`` are the same parameter value (for the repr's "changed" test)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(np.array_equal(a, b)) if isinstance(a, np.ndarray) else bool(a == b)
    except (TypeError, ValueError):
        return False


class ClassifierAPI:
    """The estimator contract of scikit-learn (parameters, tags, score, repr) for a classifier."""

    #: scikit-learn before 1.6 reads the estimator type here; later versions read the tags
    _estimator_type = "classifier"

    @classmethod
    def _param_signature(cls) -> inspect.Signature:
        return inspect.signature(cls.__init__)

    @classmethod
    def _get_param_names(cls) -> list[str]:
        """The constructor's parameter names, sorted (what scikit-learn calls the parameters)."""
        names = []
        for p in cls._param_signature().parameters.values():
            if p.name == "self" or p.kind == p.VAR_KEYWORD:
                continue
            if p.kind == p.VAR_POSITIONAL:
                raise TypeError(f"{cls.__name__}'s constructor must not take *args")
            names.append(p.name)
        return sorted(names)

    def get_params(self, deep: bool = True) -> dict:
        """The constructor's arguments, as stored; with ``deep``, also those of nested
        estimators as ``name__parameter``."""
        out = {}
        for name in self._get_param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params().items())
            out[name] = value
        return out

    def set_params(self, **params):
        """Set constructor arguments (``name__parameter`` for a nested estimator's); returns
        the learner.  They are checked at the next ``fit`` or ``partial_fit``."""
        own = set(self._get_param_names())
        nested: dict[str, dict] = {}
        for key, value in params.items():
            name, _, sub = key.partition("__")
            if name not in own:
                raise ValueError(
                    f"Invalid parameter {name!r} for estimator {type(self).__name__}; valid "
                    f"parameters are {sorted(own)}"
                )
            if sub:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            getattr(self, name).set_params(**sub_params)
        return self

    def clone(self, **changes):
        """A fresh, untrained learner with the same parameters (some of them changed); what
        ``sklearn.base.clone`` returns, without importing scikit-learn."""
        params = {}
        for name, value in self.get_params(deep=False).items():
            if hasattr(value, "get_params") and not isinstance(value, type):
                from sklearn.base import clone  # a nested estimator (none of the learners has one)

                value = clone(value)
            else:
                value = copy.deepcopy(value)
            params[name] = value
        return type(self)(**params).set_params(**changes)

    def __sklearn_tags__(self):
        from sklearn.utils import ClassifierTags, Tags, TargetTags

        return Tags(
            estimator_type="classifier",
            target_tags=TargetTags(required=True),
            transformer_tags=None,
            regressor_tags=None,
            classifier_tags=ClassifierTags(),
        )

    def score(self, X, y, sample_weight=None) -> float:
        """Accuracy of ``predict(X)`` against ``y`` (scikit-learn's classifier score)."""
        from sklearn.metrics import accuracy_score

        return float(accuracy_score(y, self.predict(X), sample_weight=sample_weight))

    def _changed_params(self) -> list[tuple[str, object]]:
        defaults = {
            p.name: p.default
            for p in self._param_signature().parameters.values()
            if p.default is not p.empty
        }
        return [
            (name, value)
            for name in self._get_param_names()
            for value in [getattr(self, name, None)]
            if name not in defaults or not _same(value, defaults[name])
        ]

    def __repr__(self) -> str:
        """``Name(param=value, ...)`` with the parameters that differ from their defaults."""
        name = type(self).__name__
        parts = [f"{k}={v!r}" for k, v in self._changed_params()]
        one_line = f"{name}({', '.join(parts)})"
        if len(one_line) <= 78:
            return one_line
        indent = " " * (len(name) + 1)
        return f"{name}(" + (",\n" + indent).join(parts) + ")"

    def _repr_mimebundle_(self, **kwargs):
        """Jupyter's display: scikit-learn's HTML diagram (as its estimators show) and the repr."""
        bundle = {"text/plain": repr(self)}
        from sklearn import get_config
        from sklearn.utils import estimator_html_repr

        if get_config().get("display") == "diagram":
            bundle["text/html"] = estimator_html_repr(self)
        return bundle
