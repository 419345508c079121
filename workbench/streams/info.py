"""What a stream is made of: the :class:`StreamInfo` record every loader and generator can return."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class StreamInfo:
    """Description of the columns and classes of a stream ``(X, y)``.

    Every generator and loader returns one when called with ``return_info=True``.

    Attributes
    ----------
    name:
        Short name of the stream (``"sea"``, ``"electricity"``, the file's stem, ...).
    feature_names:
        One name per column of ``X``.
    class_names:
        ``class_names[k]`` is the original name of label ``k``; its length is ``n_classes``.
    nominal_features:
        ``{column: number of values}`` for the nominal columns of ``X``.  Those columns hold the
        integer codes ``0 .. number of values - 1`` as float64 (NaN when missing).  The dict can be
        passed unchanged as a learner's ``nominal_features=``.
    categories:
        ``{column: [value name for code 0, code 1, ...]}`` for the nominal columns, so that the
        original strings can be recovered: ``categories[j][int(X[i, j])]``.
    n_classes:
        Number of classes; labels are ``0 .. n_classes - 1``.
    tree:
        The generating tree of :func:`~workbench.streams.random_tree`, ``None`` otherwise.
    drift_positions:
        Indices of the first instance of each new concept in a drifting stream (empty without drift).
    params:
        The generator's parameters (or the loader's source), for the record.

    Examples
    --------
    >>> from workbench import streams
    >>> X, y, info = streams.led(5, seed=1, return_info=True)
    >>> info.n_classes, len(info.feature_names), info.nominal_features[0]
    (10, 24, 2)
    """

    name: str
    feature_names: list[str]
    class_names: list[str]
    nominal_features: dict[int, int] = field(default_factory=dict)
    categories: dict[int, list[str]] = field(default_factory=dict)
    tree: Any = None
    drift_positions: list[int] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    @property
    def n_features(self) -> int:
        return len(self.feature_names)

    @property
    def numeric_features(self) -> list[int]:
        """Columns that are not nominal."""
        return [j for j in range(self.n_features) if j not in self.nominal_features]

    def __repr__(self) -> str:
        return (
            f"StreamInfo(name={self.name!r}, n_features={self.n_features}, "
            f"n_classes={self.n_classes}, nominal_features={self.nominal_features!r})"
        )
