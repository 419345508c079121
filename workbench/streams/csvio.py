"""Reading a stream from a CSV file (plain or gzip-compressed)."""

from __future__ import annotations

import csv
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ._tabular import (
    DEFAULT_MISSING,
    check_matrix,
    encode_nominal,
    encode_target,
    file_info,
    open_text,
    check_encoding,
    parse_numeric,
    read_error,
    try_numeric,
)
from ._validate import check_bool


def _column_index(key, names: list[str], what: str) -> int:
    """A column given by name or (possibly negative) position."""
    d = len(names)
    if isinstance(key, str):
        if key not in names:
            raise ValueError(f"{what} {key!r} is not a column; the columns are {names}")
        return names.index(key)
    if isinstance(key, bool) or not isinstance(key, (int, np.integer)):
        raise ValueError(f"{what} must be a column name or index, got {key!r}")
    if not -d <= key < d:
        raise ValueError(f"{what} index {key} is out of range for {d} columns")
    return int(key) % d


def read_csv(
    path,
    target: int | str = -1,
    nominal: Iterable[int | str] | None = None,
    missing: Sequence[str] = DEFAULT_MISSING,
    delimiter: str = ",",
    header: bool = True,
    name: str | None = None,
    return_info: bool = False,
    encoding: str = "utf-8",
):
    """Read a stream from a CSV file (``.csv`` or ``.csv.gz``).

    Parameters
    ----------
    path: the file.
    target: the class column, by index (default: the last) or by header name.
    nominal: ``None`` detects the nominal columns: those holding a cell that is not a number.
        Otherwise the columns (names or indices of the file's columns) that are nominal; all others
        must then be numeric.  A nominal column becomes the codes of its distinct values in sorted
        order (numeric order if they are all numbers); ``info.categories`` keeps the strings.
    missing: cells that denote a missing value (default ``"?"`` and the empty cell); they become NaN.
    delimiter: the field separator.
    header: whether the first row holds the column names (else they are ``col0, col1, ...``).
    name: name of the stream in ``info`` (default: the file name without extensions).
    return_info: also return a :class:`StreamInfo`.
    encoding: the file's text encoding (default UTF-8, whose byte-order mark, if the file starts
        with one, is dropped); ``"latin-1"`` or ``"cp1252"`` for files from older spreadsheets.

    The class column: if all its values are whole numbers from 0 to 1,023 they are the labels as
    written; otherwise its sorted distinct values are mapped to ``0..K-1`` (``info.class_names``).

    Raises
    ------
    ValueError
        for rows of unequal length, a non-number in a numeric column, a missing class label,
        infinities, an unknown target column, a file with no data rows, text that is not in
        ``encoding`` or a gzip file cut short (each naming the file, and the line where known).

    Examples
    --------
    >>> import tempfile, os
    >>> from workbench import streams
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.csv")
    >>> _ = open(path, "w").write("colour,size,label\\nred,1.5,yes\\nblue,?,no\\n")
    >>> X, y, info = streams.read_csv(path, return_info=True)
    >>> X.tolist(), y.tolist(), info.categories, info.class_names
    ([[1.0, 1.5], [0.0, nan]], [1, 0], {0: ['blue', 'red']}, ['no', 'yes'])
    """
    path = Path(path)
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise ValueError(f"delimiter must be a single character, got {delimiter!r}")
    header = check_bool(header, "header")
    return_info = check_bool(return_info, "return_info")
    encoding = check_encoding(encoding)
    missing_set = frozenset(str(m).strip() for m in missing)
    reader = None
    try:
        with open_text(path, encoding=encoding) as fh:
            reader = csv.reader(fh, delimiter=delimiter)
            rows = [[cell.strip() for cell in row] for row in reader]
    except (UnicodeDecodeError, EOFError, OSError, csv.Error, zlib.error) as exc:
        line = reader.line_num if reader is not None and isinstance(exc, csv.Error) else None
        err = read_error(path, exc, encoding, line)
        if err is None:
            raise
        raise err from None
    rows = [row for row in rows if any(row)]  # blank lines
    if header:
        if not rows:
            raise ValueError(f"{path} is empty: no header row")
        names, rows = rows[0], rows[1:]
    else:
        names = [f"col{j}" for j in range(len(rows[0]))] if rows else []
    if not rows:
        raise ValueError(f"{path} has no data rows: a stream of length zero")
    width = len(names)
    if width < 2:
        raise ValueError(
            f"{path} needs at least one feature column and a class column, found {width} column(s)"
        )
    for i, row in enumerate(rows):
        if len(row) != width:
            line = i + 2 if header else i + 1
            raise ValueError(f"{path}, line {line}: {len(row)} fields where the header has {width}")

    t = _column_index(target, names, "target")
    columns = list(zip(*rows))
    if nominal is None:
        nominal_cols = None
    else:
        if isinstance(nominal, (str, bytes)):
            nominal = [nominal]
        nominal_cols = {_column_index(k, names, "nominal column") for k in nominal}

    feature_cols = [j for j in range(width) if j != t]
    X = np.empty((len(rows), len(feature_cols)), dtype=np.float64)
    nominal_features: dict[int, int] = {}
    categories: dict[int, list[str]] = {}
    for k, j in enumerate(feature_cols):
        cells = list(columns[j])
        if nominal_cols is None:  # detect: nominal unless every present cell is a number
            values = try_numeric(cells, missing_set)
            if values is not None:
                X[:, k] = values
                continue
        elif j not in nominal_cols:
            X[:, k] = parse_numeric(cells, missing_set, names[j])
            continue
        X[:, k], categories[k] = encode_nominal(cells, missing_set, names[j])
        nominal_features[k] = len(categories[k])
    y, class_names = encode_target(list(columns[t]), missing_set, names[t])
    X = check_matrix(X, str(path))
    if not return_info:
        return X, y
    return (
        X,
        y,
        file_info(path, name, names, feature_cols, t, class_names, nominal_features, categories),
    )
