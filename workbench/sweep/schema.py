"""The columns of a sweep's results, in the order the results file stores them, and their types.

One row per cell::

    cell_id learner params stream stream_kwargs seed protocol evaluate_kwargs   what ran
    n n_leaves depth labels_used seconds                                         always measured
    <metrics ...>                                                                 as asked (float)
    curve_t curve error cell_seconds cpu_seconds worker finished                  curve, outcome

``params``, ``stream_kwargs`` and ``evaluate_kwargs`` are canonical JSON text; ``curve_t`` and
``curve`` are JSON lists (instances seen, running accuracy); ``error`` is empty when the cell
ran; ``seconds`` is the learning loop's wall time and ``cell_seconds`` the whole cell's
(stream generation included), ``cpu_seconds`` the processor time of the whole cell (it does not
count time spent waiting for a core, so next to ``cell_seconds`` it tells a slow cell from a
busy machine); ``worker`` is ``host:pid`` and ``finished`` a UTC time stamp.
"""

from __future__ import annotations

HEAD = [
    "cell_id",
    "learner",
    "params",
    "stream",
    "stream_kwargs",
    "seed",
    "protocol",
    "evaluate_kwargs",
]
MEASURED = ["n", "n_leaves", "depth", "labels_used", "seconds"]
TAIL = ["curve_t", "curve", "error", "cell_seconds", "cpu_seconds", "worker", "finished"]

INT_COLUMNS = frozenset({"seed", "n", "n_leaves", "depth", "labels_used"})
STR_COLUMNS = frozenset(
    {
        "cell_id",
        "learner",
        "params",
        "stream",
        "stream_kwargs",
        "protocol",
        "evaluate_kwargs",
        "curve_t",
        "curve",
        "error",
        "worker",
        "finished",
    }
)
#: columns that differ between two runs of the same cell (time, place)
VOLATILE = ("seconds", "cell_seconds", "cpu_seconds", "worker", "finished")


def columns(metric_columns) -> list[str]:
    """All columns of a sweep that measures ``metric_columns``."""
    return HEAD + MEASURED + list(metric_columns) + TAIL


def kind(column: str) -> str:
    """'int', 'str' or 'float' (metrics and times)."""
    if column in INT_COLUMNS:
        return "int"
    if column in STR_COLUMNS:
        return "str"
    return "float"


def mismatch(found, wanted) -> str:
    """Why a file's columns do not fit this sweep, in words."""
    fm, wm = metric_columns_of(found), metric_columns_of(wanted)
    if fm is not None and wm is not None and fm != wm:
        return f"it holds a sweep that measured the metrics {fm}, but this sweep measures {wm}"
    return (
        f"its columns {list(found)} are not the ones this version of workbench.sweep "
        f"writes ({list(wanted)})"
    )


def check_columns(where, found, wanted, keep: str) -> None:
    """Raise ValueError unless ``found`` are a sweep's columns and, when ``wanted`` is given,
    exactly those; ``where`` names the file, ``keep`` says what is left alone."""
    if wanted is not None and list(found) != list(wanted):
        raise ValueError(f"{where}: {mismatch(found, wanted)}; {keep}")
    if metric_columns_of(found) is None:
        raise ValueError(
            f"{where} was written by another version of workbench.sweep (columns "
            f"{list(found)}); it cannot be read as results"
        )


def metric_columns_of(cols) -> list[str] | None:
    """The metric columns of a file's column list, or None if the list is not a sweep's."""
    cols = list(cols)
    n_head = len(HEAD) + len(MEASURED)
    if (
        len(cols) < n_head + len(TAIL)
        or cols[:n_head] != HEAD + MEASURED
        or cols[-len(TAIL) :] != TAIL
    ):
        return None
    return cols[n_head : len(cols) - len(TAIL)]
