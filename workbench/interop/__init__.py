"""The workbench's learners in River's and CapyMOA's own loops, and their streams in ours.

    from workbench import interop, learners, streams
    from river import datasets, evaluate, metrics

    model = interop.to_river(learners.HoeffdingTree())
    evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())

    from capymoa.evaluation import prequential_evaluation
    from capymoa.stream.generator import SEA

    stream = SEA(instance_random_seed=1)
    learner = interop.to_capymoa(learners.HoeffdingTree(), stream.get_schema())
    prequential_evaluation(stream, learner, max_instances=10_000)

The other way, :func:`workbench.streams.from_river` and :func:`workbench.streams.from_capymoa`
turn their data sets and generators into the workbench's arrays and
:class:`~workbench.streams.StreamInfo`.

Through either loop a learner predicts every row as :func:`workbench.evaluate.prequential`
does on the same rows with the classes in the same order (``tests/test_interop.py``): River's
loop leaves out the first row, where a learner that has learned nothing predicts None (River's
convention), and CapyMOA's counts it, where the learner, set up from the schema, predicts with
its empty tree.  Neither library is needed to import this module: each adapter imports its
library when it is called (``pip install river``; ``pip install capymoa``, which runs MOA in
Java 17 or newer).
"""

from __future__ import annotations


def _need(package: str, what: str):
    try:
        return __import__(package)
    except ImportError as exc:
        raise ImportError(
            f"{what} needs {package} ({exc}): pip install {package}"
            + (" (and Java 17 or newer on the PATH)" if package == "capymoa" else "")
        ) from exc


def _check_learner(model, who: str) -> None:
    if not (hasattr(model, "learn_one") and hasattr(model, "predict_proba_one")):
        raise TypeError(
            f"{who} wraps a workbench learner (learners.HoeffdingTree(), ...); got "
            f"{type(model).__name__}"
        )


def to_river(model):
    """``model`` (any workbench learner) as a ``river.base.Classifier``: River's
    ``evaluate.progressive_val_score``, its metrics and pipelines run it.

    The wrapper's ``learn_one(x, y)``, ``predict_one(x)`` and ``predict_proba_one(x)`` are the
    learner's own: the first row sets it up (features named by the dict's keys), classes come
    as they come, numbered in the order first seen (or as given to the learner), and before
    any learning it predicts None (``predict_proba_one``: an empty dict), as River's learners
    do.  ``wrapper.model`` is the learner.

    Examples
    --------
    >>> from river import datasets, evaluate, metrics
    >>> from workbench import interop, learners
    >>> model = interop.to_river(learners.HoeffdingTree(grace_period=100))
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy())
    Accuracy: 88.63%
    >>> model.model.n_leaves
    2
    """
    _need("river", "to_river")
    _check_learner(model, "to_river")
    from ._river import RiverClassifier

    return RiverClassifier(model)


def to_capymoa(model, schema):
    """``model`` (any workbench learner) as a ``capymoa.base.Classifier`` for streams of
    ``schema``: ``capymoa.evaluation.prequential_evaluation`` runs it.

    The learner is set up from the schema (its attributes, names kept, nominal ones declared
    with their number of values; its classes in the schema's order) unless it is set up
    already, in which case the sizes must match.  ``wrapper.model`` is the learner.

    Examples
    --------
    >>> from capymoa.evaluation import prequential_evaluation
    >>> from capymoa.stream.generator import SEA
    >>> from workbench import interop, learners
    >>> stream = SEA(instance_random_seed=1)
    >>> learner = interop.to_capymoa(learners.HoeffdingTree(), stream.get_schema())
    >>> results = prequential_evaluation(stream, learner, max_instances=5_000)
    >>> round(results.cumulative.accuracy(), 2)
    85.94
    """
    _need("capymoa", "to_capymoa")
    _check_learner(model, "to_capymoa")
    from ._capymoa import CapyMOAClassifier

    return CapyMOAClassifier(model, schema)


__all__ = ["to_river", "to_capymoa"]
