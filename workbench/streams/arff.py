"""Reading and writing streams in Weka's ARFF format, the format MOA reads.

Supported: ``@relation``, ``@attribute NAME numeric|real|integer|{v1,v2,...}``, ``@data`` with
comma-separated dense rows, ``?`` for a missing value, names and values quoted with ``'`` or ``"``
(backslash escapes), ``%`` comment lines, keywords in any case, gzip-compressed files (``.gz``).
Not supported (a clear ``ValueError``): ``string``, ``date`` and ``relational`` attributes, and
sparse rows ``{index value, ...}``.
"""

from __future__ import annotations

import math
import re
import zlib
from pathlib import Path

import numpy as np

from ._tabular import (
    check_encoding,
    check_matrix,
    encode_nominal,
    encode_target,
    file_info,
    open_text,
    parse_numeric,
    read_error,
)
from ._validate import as_feature_matrix, as_labels, check_bool, check_nominal_codes
from .info import StreamInfo

_MISSING = frozenset({"?"})
_NUMERIC_TYPES = {"numeric", "real", "integer"}
_PLAIN = re.compile(r"[A-Za-z0-9_.+\-]+\Z")
_CHUNK = 65_536


def _split_fields(text: str, lineno: int, sep: str = ",") -> list[str]:
    """Split at ``sep`` outside quotes; unquote and unescape the quoted fields; strip whitespace."""
    if "'" not in text and '"' not in text:
        return [f.strip() for f in text.split(sep)]
    fields: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i < n and text[i] in "'\"":
            quote = text[i]
            i += 1
            buf = []
            while i < n and text[i] != quote:
                if text[i] == "\\" and i + 1 < n:
                    i += 1
                buf.append(text[i])
                i += 1
            if i >= n:
                raise ValueError(f"line {lineno}: unterminated quote")
            i += 1
            fields.append("".join(buf))
            while i < n and text[i] in " \t":
                i += 1
            if i < n and text[i] != sep:
                raise ValueError(f"line {lineno}: unexpected text after a quoted value")
        else:
            j = text.find(sep, i)
            j = n if j < 0 else j
            fields.append(text[i:j].strip())
            i = j
        if i >= n:
            return fields
        i += 1  # skip the separator


def _take_name(rest: str, lineno: int) -> tuple[str, str]:
    """Split a declaration's remainder into its (possibly quoted) name and what follows."""
    rest = rest.strip()
    if not rest:
        raise ValueError(f"line {lineno}: a name is missing")
    if rest[0] in "'\"":
        quote = rest[0]
        i, buf = 1, []
        while i < len(rest) and rest[i] != quote:
            if rest[i] == "\\" and i + 1 < len(rest):
                i += 1
            buf.append(rest[i])
            i += 1
        if i >= len(rest):
            raise ValueError(f"line {lineno}: unterminated quote in a name")
        return "".join(buf), rest[i + 1 :].strip()
    parts = rest.split(None, 1)
    return parts[0], (parts[1].strip() if len(parts) > 1 else "")


def _parse_header(lines, path) -> tuple[str, list[tuple[str, list[str] | None]], int]:
    """Read up to ``@data``: the relation, the attributes (name, values or None if numeric), the line number."""
    relation = ""
    attributes: list[tuple[str, list[str] | None]] = []
    lineno = 0
    for lineno, raw in lines:
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        keyword = line.split(None, 1)[0].lower()
        rest = line[len(keyword) :]
        if keyword == "@relation":
            relation, _ = _take_name(rest, lineno)
        elif keyword == "@attribute":
            name, kind = _take_name(rest, lineno)
            if kind.startswith("{"):
                if not kind.endswith("}"):
                    raise ValueError(
                        f"{path}, line {lineno}: nominal value set of {name!r} is not closed by '}}'"
                    )
                inner = kind[1:-1].strip()
                values = _split_fields(inner, lineno) if inner else []
                if not values or "" in values:
                    raise ValueError(
                        f"{path}, line {lineno}: nominal attribute {name!r} declares "
                        f"{'no value' if not values else 'an empty value'} ({kind!r}); a "
                        "nominal attribute needs at least one named value"
                    )
                if len(set(values)) != len(values):
                    raise ValueError(
                        f"{path}, line {lineno}: attribute {name!r} declares a value twice"
                    )
                attributes.append((name, values))
            elif kind.lower() in _NUMERIC_TYPES:
                attributes.append((name, None))
            else:
                raise ValueError(
                    f"{path}, line {lineno}: attribute {name!r} has type {kind!r}; only "
                    f"numeric, real, integer and nominal {{...}} attributes are supported"
                )
        elif keyword == "@data":
            break
        else:
            raise ValueError(
                f"{path}, line {lineno}: expected @relation, @attribute or @data, got {line[:40]!r}"
            )
    else:
        raise ValueError(f"{path}: no @data section")
    if not attributes:
        raise ValueError(f"{path}: no @attribute declarations")
    return relation, attributes, lineno


def read_arff(path, target: int | str = -1, return_info: bool = False, encoding: str = "utf-8"):
    """Read a stream from an ARFF file (``.arff`` or ``.arff.gz``).

    Nominal attributes become the codes of their values in the declared order (``info.categories``
    keeps the names), numeric ones float64, ``?`` becomes NaN.  The class is the last attribute
    unless ``target`` names another one (by name or index); a nominal class gives labels in the
    declared order, a numeric class must hold whole non-negative numbers (used as the labels up
    to 1,023; larger ones, identifiers rather than codes, are mapped to their sorted distinct
    values).  ``encoding`` is the file's text encoding (UTF-8 by default; a byte-order mark is
    dropped).

    Raises
    ------
    ValueError
        for an unsupported attribute type or sparse row, a nominal attribute without values, a
        row with the wrong number of values, a value not declared for its nominal attribute, a
        non-number in a numeric attribute, a missing class label, a numeric class that is not a
        whole non-negative number, text that is not in ``encoding``, a gzip file cut short, or
        no data rows.

    Examples
    --------
    >>> import tempfile, os
    >>> from workbench import streams
    >>> path = os.path.join(tempfile.mkdtemp(), "tiny.arff")
    >>> text = "@relation t\\n@attribute a {x,y}\\n@attribute b numeric\\n@attribute c {no,yes}\\n@data\\ny,?,yes\\n"
    >>> _ = open(path, "w").write(text)
    >>> X, y = streams.read_arff(path)
    >>> X.tolist(), y.tolist()
    ([[1.0, nan]], [1])
    """
    path = Path(path)
    return_info = check_bool(return_info, "return_info")
    encoding = check_encoding(encoding)
    try:
        with open_text(path, encoding=encoding) as fh:
            relation, attributes, rows = _read_rows(fh, path)
    except (UnicodeDecodeError, EOFError, OSError, zlib.error) as exc:
        err = read_error(path, exc, encoding)
        if err is None:
            raise
        raise err from None
    width = len(attributes)
    if not rows:
        raise ValueError(f"{path} has no data rows: a stream of length zero")
    if width < 2:
        raise ValueError(f"{path} needs at least one feature attribute and a class attribute")

    names = [a[0] for a in attributes]
    if isinstance(target, str):
        if target not in names:
            raise ValueError(f"target {target!r} is not an attribute; the attributes are {names}")
        t = names.index(target)
    elif (
        isinstance(target, bool)
        or not isinstance(target, (int, np.integer))
        or not -width <= target < width
    ):
        raise ValueError(
            f"target must be an attribute name or an index in [-{width}, {width}), got {target!r}"
        )
    else:
        t = int(target) % width

    columns = list(zip(*rows))
    feature_cols = [j for j in range(width) if j != t]
    X = np.empty((len(rows), len(feature_cols)), dtype=np.float64)
    nominal_features: dict[int, int] = {}
    categories: dict[int, list[str]] = {}
    for k, j in enumerate(feature_cols):
        name, values = attributes[j]
        if values is None:
            X[:, k] = parse_numeric(list(columns[j]), _MISSING, name)
        else:
            X[:, k], categories[k] = encode_nominal(list(columns[j]), _MISSING, name, values)
            nominal_features[k] = len(values)
    if attributes[t][1] is None:  # a numeric class: whole non-negative numbers only
        for row, cell in enumerate(columns[t]):
            value = _number(cell)
            if cell not in _MISSING and (value is None or not value >= 0 or value != int(value)):
                raise ValueError(
                    f"{path}: the numeric class attribute {names[t]!r} holds {cell!r} in data "
                    f"row {row + 1}; a numeric class must hold whole non-negative numbers "
                    "(declare it nominal, {...}, for other labels)"
                )
    y, class_names = encode_target(list(columns[t]), _MISSING, names[t], attributes[t][1])
    X = check_matrix(X, str(path))
    if not return_info:
        return X, y
    return (
        X,
        y,
        file_info(
            path, relation, names, feature_cols, t, class_names, nominal_features, categories
        ),
    )


def _read_rows(fh, path):
    """The header and the data rows (lists of fields) of an open ARFF file."""
    numbered = enumerate(fh, start=1)
    relation, attributes, _ = _parse_header(numbered, path)
    width = len(attributes)
    rows: list[list[str]] = []
    for lineno, raw in numbered:
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("{"):
            raise ValueError(f"{path}, line {lineno}: sparse ARFF rows are not supported")
        fields = _split_fields(line, lineno)
        if len(fields) == width + 1 and fields[-1] == "":  # MOA ends its rows with a comma
            fields.pop()
        if len(fields) != width:
            raise ValueError(
                f"{path}, line {lineno}: {len(fields)} values where {width} attributes are declared"
            )
        rows.append(fields)
    return relation, attributes, rows


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _quote(text: str) -> str:
    """A name or value as an ARFF token: bare when plain, else single-quoted with escapes."""
    text = str(text)
    if _PLAIN.match(text) and text != "?":
        return text
    escaped = text.replace("\\", "\\\\").replace("'", "\\'")
    return f"'{escaped}'"


def write_arff(path, X, y, info: StreamInfo | None = None, relation: str = "stream") -> None:
    """Write a stream as a standard dense ARFF file that MOA and Weka read (gzip if the name ends in ``.gz``).

    Numeric columns are written with the shortest text that reads back to the identical float64,
    NaN as ``?``.  Nominal columns (from ``info.nominal_features``) are declared as value sets:
    ``info.categories`` when it names the values, else the codes ``{0,1,...}``.  The class is the
    last attribute, a nominal ``{class names}`` (``info.class_names``, else ``{0,...,K-1}``) called
    ``class`` (``class_`` if a feature already has that name).  :func:`read_arff` reads the file
    back to the same ``X``, ``y`` and info.

    Examples
    --------
    >>> import tempfile, os
    >>> from workbench import streams
    >>> X, y, info = streams.random_tree(100, seed=1, return_info=True)
    >>> path = os.path.join(tempfile.mkdtemp(), "rt.arff")
    >>> streams.write_arff(path, X, y, info)
    >>> X2, y2 = streams.read_arff(path)
    >>> bool((X2 == X).all() and (y2 == y).all())
    True
    """
    X = as_feature_matrix(X)
    n, d = X.shape
    y = as_labels(y, n)
    if info is None:
        feature_names = [f"x{j}" for j in range(d)]
        class_names = [str(k) for k in range(int(y.max()) + 1)]
        nominal: dict[int, int] = {}
        categories: dict[int, list[str]] = {}
    else:
        feature_names = list(info.feature_names)
        class_names = list(info.class_names)
        nominal = dict(info.nominal_features)
        categories = dict(info.categories)
        if len(feature_names) != d:
            raise ValueError(f"info has {len(feature_names)} feature names but X has {d} columns")
        if int(y.max()) >= len(class_names):
            raise ValueError(
                f"y holds label {int(y.max())} but info has only {len(class_names)} class names"
            )
    if len(set(feature_names)) != d:
        raise ValueError("feature names must be distinct in an ARFF file")
    if len(set(class_names)) != len(class_names):
        raise ValueError("class names must be distinct in an ARFF file")
    check_nominal_codes(X, nominal)
    value_names: dict[int, list[str]] = {}
    for j, k in nominal.items():
        names = categories.get(j)
        if names is None:
            names = [str(v) for v in range(k)]
        elif len(names) != k:
            raise ValueError(f"column {j}: {len(names)} category names for {k} values")
        if len(set(names)) != k:
            raise ValueError(f"column {j}: category names must be distinct")
        value_names[j] = [str(v) for v in names]
    named = [(v, f"column {j}'s categories") for j, v in value_names.items()]
    for names, what in named + [(class_names, "class names")]:
        if "?" in names or "" in names:
            raise ValueError(
                f"{what} include '?' or the empty string, which ARFF reads as a missing value"
            )
    class_attr = "class"
    while class_attr in feature_names:
        class_attr += "_"

    header = [f"@relation {_quote(relation)}", ""]
    for j, fname in enumerate(feature_names):
        kind = (
            "{" + ",".join(_quote(v) for v in value_names[j]) + "}"
            if j in value_names
            else "numeric"
        )
        header.append(f"@attribute {_quote(fname)} {kind}")
    header.append(f"@attribute {_quote(class_attr)} {{{','.join(_quote(c) for c in class_names)}}}")
    header += ["", "@data"]

    quoted_values = {
        j: np.array([_quote(v) for v in names] + ["?"], dtype=object)
        for j, names in value_names.items()
    }
    quoted_classes = np.array([_quote(c) for c in class_names], dtype=object)
    with open_text(path, "w") as fh:
        fh.write("\n".join(header) + "\n")
        for start in range(0, n, _CHUNK):
            block = X[start : start + _CHUNK]
            missing = np.isnan(block)
            columns = []
            for j in range(d):
                if j in quoted_values:
                    codes = np.where(missing[:, j], -1, np.nan_to_num(block[:, j])).astype(np.int64)
                    columns.append(quoted_values[j][codes].tolist())  # -1 picks the trailing '?'
                else:
                    text = block[:, j].astype(str)
                    text[missing[:, j]] = "?"
                    columns.append(text.tolist())
            columns.append(quoted_classes[y[start : start + _CHUNK]].tolist())
            fh.write("\n".join(map(",".join, zip(*columns))) + "\n")
