"""The SEA concepts (Street and Kim, KDD 2001), with MOA's four threshold functions and label noise."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ._validate import check_bool, check_int, check_n, check_probability, check_seed
from .info import StreamInfo

#: Threshold theta of each concept: class 1 iff ``x1 + x2 > theta``.  Concept ``c`` here is MOA's
#: ``SEAGenerator -f c+1``; the values are those of Street and Kim's experiment.
SEA_THRESHOLDS = (8.0, 9.0, 7.0, 9.5)


def sea(
    n: int = 100_000,
    seed: int | None = 1,
    concept: int = 0,
    noise: float = 0.1,
    concepts: Sequence[int] | None = None,
    drift_every: int | None = None,
    return_info: bool = False,
):
    """Draw ``n`` instances of the SEA concepts stream.

    Three attributes are drawn uniformly from ``[0, 10)``; only the first two are relevant.
    Under concept ``c`` the class is

    .. math:: y = \\mathbb{1}[x_1 + x_2 > \\theta_c], \\qquad \\theta = (8, 9, 7, 9.5),

    so ``x1 + x2 <= theta`` is class 0, as in MOA's ``SEAGenerator`` (``concept=c`` is MOA's
    ``-f c+1``).  Then each label is flipped independently with probability ``noise`` (MOA's
    default is 10 %).

    Concept drift: ``concepts=(0, 1, 2, 3)`` switches abruptly from one concept to the next every
    ``drift_every`` instances (default ``n // len(concepts)``), cycling through the sequence if the
    stream is longer; ``info.drift_positions`` lists the indices where a new concept starts.

    Parameters
    ----------
    n: number of instances.
    seed: seed of ``numpy.random.default_rng``.
    concept: 0..3, the concept of a stream without drift (ignored when ``concepts`` is given).
    noise: probability that a label is flipped.
    concepts: sequence of concepts for a drifting stream.
    drift_every: length of each concept's segment in a drifting stream.
    return_info: also return a :class:`StreamInfo`.

    Returns
    -------
    X: float64 ``[n, 3]`` in ``[0, 10)``; y: int64 ``[n]`` in {0, 1}; and ``info`` if asked.

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.sea(1000, seed=1, concept=2, noise=0.0)
    >>> bool(((X[:, 0] + X[:, 1] > 7.0) == (y == 1)).all())
    True
    >>> X, y, info = streams.sea(1000, seed=1, concepts=(0, 1, 2, 3), return_info=True)
    >>> info.drift_positions
    [250, 500, 750]
    """
    n = check_n(n, width=4)
    seed = check_seed(seed)
    noise = check_probability(noise, "noise")
    if concepts is None:
        if drift_every is not None:
            raise ValueError("drift_every needs a sequence of concepts, e.g. concepts=(0, 1, 2, 3)")
        sequence = [check_int(concept, "concept", 0, 3)]
    else:
        if (
            isinstance(concepts, (str, bytes))
            or not isinstance(concepts, Sequence)
            or len(concepts) == 0
        ):
            raise ValueError(
                f"concepts must be a non-empty sequence of integers 0..3, got {concepts!r}"
            )
        sequence = [check_int(c, "each of concepts", 0, 3) for c in concepts]
    if drift_every is None:
        drift_every = max(n // len(sequence), 1)
    else:
        drift_every = check_int(drift_every, "drift_every", 1)

    rng = np.random.default_rng(seed)
    X = 10.0 * rng.random((n, 3))
    segment = (np.arange(n) // drift_every) % len(sequence)
    theta = np.asarray([SEA_THRESHOLDS[c] for c in sequence])[segment]
    y = (X[:, 0] + X[:, 1] > theta).astype(np.int64)
    flip = rng.random(n) < noise
    y[flip] = 1 - y[flip]

    if not check_bool(return_info, "return_info"):
        return X, y
    concept_of_segment = np.asarray(sequence)[segment]
    drift_positions = [int(i) for i in np.flatnonzero(np.diff(concept_of_segment)) + 1]
    info = StreamInfo(
        name="sea",
        feature_names=["attrib1", "attrib2", "attrib3"],
        class_names=["0", "1"],
        drift_positions=drift_positions,
        params=dict(
            n=n,
            seed=seed,
            concepts=sequence,
            noise=noise,
            drift_every=drift_every,
            thresholds=[SEA_THRESHOLDS[c] for c in sequence],
        ),
    )
    return X, y, info
