"""Turning columns of text cells into a numeric stream: shared by the CSV and ARFF readers."""

from __future__ import annotations

import gzip
import io
import math
from pathlib import Path
from typing import IO

import numpy as np

from ._validate import as_feature_matrix

#: Cells that mean "missing value" unless a reader is told otherwise.
DEFAULT_MISSING = ("?", "")


#: labels written as whole numbers are used as class codes as they are up to this one; from it
#: on (``1e9``, ``1e300``: identifiers, not codes) they are mapped to their sorted distinct values
#: like text, instead of making one class for every integer below them
MAX_WRITTEN_LABEL = 1023


def check_encoding(encoding) -> str:
    """A text encoding Python knows (``"utf-8"``, ``"latin-1"``, ...)."""
    import codecs

    if not isinstance(encoding, str):
        raise ValueError(f"encoding must be the name of a text encoding, got {encoding!r}")
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ValueError(
            f"encoding {encoding!r} is not a text encoding Python knows (e.g. 'utf-8', "
            "'latin-1', 'cp1252')"
        ) from None
    return encoding


def _reading(encoding: str) -> str:
    """UTF-8 is read as ``utf-8-sig``: a byte-order mark at the start (as Excel writes it) is
    dropped instead of becoming part of the first column's name."""
    import codecs

    return "utf-8-sig" if codecs.lookup(encoding).name == "utf-8" else encoding


def open_text(path, mode: str = "r", encoding: str = "utf-8") -> IO[str]:
    """Open a text file, transparently gzip-compressed when its name ends in ``.gz``."""
    path = Path(path)
    enc = _reading(encoding) if mode == "r" else encoding
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, mode + "b"), encoding=enc, newline="")
    return open(path, mode, encoding=enc, newline="")


def _first_undecodable_line(path: Path, encoding: str) -> tuple[int, bytes]:
    """(line number, line) of the first line of ``path`` that ``encoding`` cannot decode."""
    import codecs

    decoder = codecs.getincrementaldecoder(_reading(encoding))()
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            try:
                decoder.decode(line)
            except UnicodeDecodeError:
                return lineno, line
    return 0, b""


def read_error(path: Path, exc: BaseException, encoding: str, line: int | None = None):
    """A ``ValueError`` that says which file (and line) could not be read and why: a text
    encoding other than the one given, a gzip file cut short, a field too long for the CSV
    reader.  Returns it for the caller to raise (or None for an error it does not know)."""
    import csv
    import zlib

    where = f"{path}, line {line}" if line else f"{path}"
    if isinstance(exc, UnicodeDecodeError):
        lineno, raw = _first_undecodable_line(path, encoding)
        text = raw[:60].decode(encoding, "backslashreplace").rstrip()
        at = f"{path}, line {lineno}" if lineno else where
        return ValueError(
            f"{at} is not {encoding} text ('{text}'); pass the file's encoding, e.g. "
            f"encoding='latin-1' or 'cp1252'"
        )
    if isinstance(exc, (EOFError, gzip.BadGzipFile, zlib.error)):
        return ValueError(
            f"{path} is not a complete gzip file ({type(exc).__name__}: {exc}): it was cut "
            "short or damaged, e.g. by an interrupted download or copy"
        )
    if isinstance(exc, csv.Error) and "field limit" in str(exc):
        return ValueError(
            f"{where}: a field longer than {csv.field_size_limit():,} characters; a quote "
            "that is never closed turns the rest of the file into one field"
        )
    if isinstance(exc, csv.Error):
        return ValueError(f"{where}: {exc}")
    return None


def _float_or_none(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def parse_numeric(cells: list[str], missing: frozenset[str], column: str) -> np.ndarray:
    """Cells as float64, missing cells as NaN; a cell that is not a number is a ValueError."""
    cleaned = ["nan" if c in missing else c for c in cells]
    try:
        return np.array(cleaned, dtype=np.float64)
    except ValueError:
        for row, c in enumerate(cleaned):
            if _float_or_none(c) is None:
                raise ValueError(
                    f"column {column!r}: value {c!r} in data row {row + 1} is not a number "
                    f"(declare the column nominal, or mark missing cells with '?')"
                ) from None
        raise


def try_numeric(cells: list[str], missing: frozenset[str]) -> np.ndarray | None:
    """Cells as float64 (missing as NaN) if every present cell is a number, else None."""
    try:
        return np.array(["nan" if c in missing else c for c in cells], dtype=np.float64)
    except ValueError:
        return None


def sorted_categories(values) -> list[str]:
    """Distinct values, in numeric order when all are numbers, else in string order."""
    distinct = set(values)
    as_numbers = {v: _float_or_none(v) for v in distinct}
    if all(x is not None and not math.isnan(x) for x in as_numbers.values()):
        return sorted(distinct, key=lambda v: (as_numbers[v], v))
    return sorted(distinct)


def encode_nominal(
    cells: list[str], missing: frozenset[str], column: str, categories: list[str] | None = None
) -> tuple[np.ndarray, list[str]]:
    """Codes (float64, NaN when missing) and the category list (sorted unless given)."""
    if categories is None:
        categories = sorted_categories(c for c in cells if c not in missing)
    index = {v: float(k) for k, v in enumerate(categories)}
    nan = float("nan")
    try:
        codes = [nan if c in missing else index[c] for c in cells]
    except KeyError:
        for row, c in enumerate(cells):
            if c not in missing and c not in index:
                raise ValueError(
                    f"column {column!r}: value {c!r} in data row {row + 1} is not one of "
                    f"its declared values {categories}"
                ) from None
        raise
    return np.array(codes, dtype=np.float64), list(categories)


def encode_target(
    cells: list[str], missing: frozenset[str], column: str, categories: list[str] | None = None
) -> tuple[np.ndarray, list[str]]:
    """Class labels (int64) and class names.

    With declared ``categories`` (an ARFF nominal class) the label is the value's position.  Without,
    labels that are all whole numbers from 0 to :data:`MAX_WRITTEN_LABEL` are used as they are
    (``"0"``, ``"1"`` stay 0, 1); anything else is mapped to the positions of its sorted distinct
    values (numerically sorted when they are all numbers).
    """
    for row, c in enumerate(cells):
        if c in missing:
            raise ValueError(
                f"class column {column!r} is missing in data row {row + 1}: "
                f"every instance needs a label"
            )
    if categories is None:
        numbers = [_float_or_none(c) for c in cells]
        if all(
            x is not None and math.isfinite(x) and 0 <= x <= MAX_WRITTEN_LABEL and x == int(x)
            for x in numbers
        ):
            labels = np.array(numbers, dtype=np.float64).astype(np.int64)
            return labels, [str(k) for k in range(int(labels.max()) + 1)]
    codes, names = encode_nominal(cells, frozenset(), column, categories)
    return codes.astype(np.int64), names


def check_matrix(X: np.ndarray, source: str) -> np.ndarray:
    """The usual matrix checks (infinities, emptiness), with the file named in the message."""
    try:
        return as_feature_matrix(X, name=f"the data of {source}")
    except ValueError as exc:
        raise ValueError(str(exc)) from None


def file_info(
    path: Path,
    name: str | None,
    names: list[str],
    feature_cols: list[int],
    t: int,
    class_names,
    nominal_features: dict,
    categories: dict,
):
    """The :class:`StreamInfo` of a table read from ``path`` (CSV or ARFF), class column ``t``."""
    from .info import StreamInfo

    return StreamInfo(
        name=name or path.name.split(".")[0],
        feature_names=[names[j] for j in feature_cols],
        class_names=class_names,
        nominal_features=nominal_features,
        categories=categories,
        params=dict(source=str(path), target=names[t]),
    )
