"""Results files of a sweep: rows appended as cells finish, read back to resume.

Two formats, chosen by the name the caller gives:

``results.csv``
    A header line, then one line per finished cell, appended and flushed to disk (``fsync``)
    as soon as the cell's row arrives.  Every line ends with a ``crc`` column, the CRC-32 of the
    rest of the line.  A crash can leave the last line cut short (no newline at its end): it is
    dropped when the file is opened again, with a warning, and its cell runs again.  Any other
    damage (a line in the middle whose checksum does not match, bytes that are not text) is a
    ``ValueError`` that names the line: a damaged file is never rewritten, so no finished cell
    is lost without the user knowing.

``results.parquet``
    A folder of Parquet parts (``pandas.read_parquet`` reads the folder as one table).  Rows
    are buffered for at most ``flush_seconds`` (2 s) and then written as a new part, first under
    a temporary name and then renamed, so a part is either complete or absent; a crash loses at
    most the last two seconds.  Closing the sweep merges the parts into one.  Temporary parts
    left by a crash are deleted on open; a part that cannot be read is a ``ValueError``.

A file or folder with other columns (another sweep's metrics, or not a sweep's at all) is a
``ValueError`` and is never touched.  While a sweep writes, it holds a lock on the file, so a
second sweep on the same file stops with an error instead of interleaving rows.

The same cell may appear more than once in a file (a cell that failed and ran again on a
rerun): the last row of a cell is its result.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import time
import warnings
import zlib
from pathlib import Path

from . import schema

FORMATS = (".csv", ".parquet")


def results_format(path) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"results must be a file name ending in .csv or .parquet; got {path!r}")
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"results file {str(path)!r}: the name must end in .csv (one file, one "
            "line per cell) or .parquet (a folder of Parquet parts)"
        )
    return suffix[1:]


def open_results(path, columns: list[str], flush_seconds: float = 2.0):
    """The store for a sweep with these columns, holding the rows already in it."""
    if results_format(path) == "csv":
        return CsvStore(path, columns)
    return ParquetStore(path, columns, flush_seconds)


# --------------------------------------------------------------------------- values
def _to_text(value, kind: str) -> str:
    if value is None:
        return ""
    if kind == "float":
        value = float(value)
        return "" if value != value else repr(value)
    if kind == "int":
        return str(int(value))
    text = str(value)
    if "\n" in text or "\r" in text:
        text = " ".join(text.split())
    return text


def _from_text(text: str, kind: str):
    if kind == "str":
        return text
    if text == "":
        return None
    return int(text) if kind == "int" else float(text)


def _clean(value, kind: str):
    """A row value as stored (NaN and missing both become None)."""
    if value is None:
        return None
    if kind == "float":
        value = float(value)
        return None if value != value else value
    if kind == "int":
        return int(value)
    return str(value)


def clean_row(row: dict, columns: list[str]) -> dict:
    """``row`` restricted to ``columns``, each value as a results file gives it back."""
    return {c: _clean(row.get(c), schema.kind(c)) for c in columns}


class _Lock:
    """An exclusive advisory lock on an open file (POSIX); elsewhere, no lock."""

    def __init__(self, fd: int, path):
        try:
            import fcntl
        except ImportError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValueError(
                f"{path} is being written by another sweep that is still running "
                "(it holds the file's lock); wait for it to finish or choose "
                "another results file"
            ) from None
        except OSError as exc:  # a file system without locks (some network ones)
            warnings.warn(
                f"{path}: cannot lock the results file ({exc}); make sure no other "
                "sweep writes to it at the same time",
                stacklevel=4,
            )


# --------------------------------------------------------------------------- CSV
def _crc(prefix: bytes) -> str:
    return f"{zlib.crc32(prefix):08x}"


def _header(columns) -> str:
    return ",".join(list(columns) + ["crc"])


def parse_csv(data: bytes, path, columns: list[str] | None = None):
    """Rows of a sweep's CSV file, the length of its intact part, and its columns.

    ``columns=None`` accepts any sweep's columns (for :func:`load`).  Raises ValueError for a
    foreign or damaged file; a last line without its newline is left out (not an error)."""
    first, nl, rest = data.partition(b"\n")
    if not nl:  # not even a whole header line
        if columns is not None and (_header(columns) + "\n").encode().startswith(first):
            return [], 0, columns  # our header, cut short: start again
        raise ValueError(
            f"{path} is not a workbench sweep results file (no header line); "
            "it is left as it is: choose another results file"
        )
    try:
        header = first.decode("utf-8").split(",")
    except UnicodeDecodeError:
        raise ValueError(
            f"{path} is not a workbench sweep results file (its first line is not "
            "text); it is left as it is: choose another results file"
        ) from None
    file_columns = header[:-1]
    if header[:1] != ["cell_id"] or header[-1:] != ["crc"]:
        raise ValueError(
            f"{path} is not a workbench sweep results file (its columns are "
            f"{header[:8]}...); it is left as it is: choose another results file"
        )
    schema.check_columns(
        path,
        file_columns,
        columns,
        "its finished cells would not match, so it is left as it is: choose another results file",
    )
    kinds = [schema.kind(c) for c in file_columns]
    rows = []
    pos = len(first) + 1
    lines = rest.split(b"\n")
    for i, line in enumerate(lines):
        lineno = i + 2
        if i == len(lines) - 1:  # after the last newline: empty or cut short
            if line:
                warnings.warn(
                    f"{path}: line {lineno} was cut short (the sweep that wrote it "
                    "stopped mid-line); it is dropped and its cell runs again",
                    stacklevel=3,
                )
            break
        prefix, comma, crc = line.rpartition(b",")
        if not comma or _crc(prefix + b",") != crc.decode("ascii", "replace"):
            raise ValueError(
                f"{path}, line {lineno}: the checksum does not match, so the file "
                "is damaged; it is left as it is. Repair or delete that line (or "
                "move the file away) and run again; finished cells in the other "
                "lines are kept"
            )
        try:
            fields = next(csv.reader([prefix.decode("utf-8")]))
        except (UnicodeDecodeError, csv.Error, StopIteration) as exc:
            raise ValueError(f"{path}, line {lineno} cannot be read ({exc})") from None
        if len(fields) != len(file_columns):
            raise ValueError(
                f"{path}, line {lineno} has {len(fields)} fields for "
                f"{len(file_columns)} columns; the file is damaged"
            )
        try:
            rows.append({c: _from_text(v, k) for c, v, k in zip(file_columns, fields, kinds)})
        except ValueError as exc:
            raise ValueError(f"{path}, line {lineno}: {exc}") from None
        pos += len(line) + 1
    return rows, pos, file_columns


class CsvStore:
    """Append-only CSV results file (see the module docstring)."""

    def __init__(self, path, columns: list[str]):
        self.path = Path(path)
        self.columns = list(columns)
        self.kinds = [schema.kind(c) for c in self.columns]
        self.rows: dict[str, dict] = {}
        if self.path.parent and not self.path.parent.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = open(self.path, "a+b")  # noqa: SIM115 (held until close)
        try:
            _Lock(self._fh.fileno(), self.path)
            self._fh.seek(0)
            data = self._fh.read()
            if data:
                rows, good, _ = parse_csv(data, self.path, self.columns)
            else:
                rows, good = [], 0
            for row in rows:
                self.rows[row["cell_id"]] = row
            if good < len(data):
                self._fh.truncate(good)
                self._sync()
            if good == 0:
                self._fh.write((_header(self.columns) + "\n").encode())
                self._sync()
        except BaseException:
            self._fh.close()
            raise

    def _line(self, row: dict) -> bytes:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="").writerow(
            [_to_text(row.get(c), k) for c, k in zip(self.columns, self.kinds)]
        )
        prefix = (buf.getvalue() + ",").encode("utf-8")
        return prefix + _crc(prefix).encode() + b"\n"

    def append(self, rows: list[dict]) -> None:
        if not rows:
            return
        self._fh.write(b"".join(self._line(r) for r in rows))
        self._sync()
        for row in rows:
            self.rows[row["cell_id"]] = clean_row(row, self.columns)

    def _sync(self):
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def flush(self) -> None:
        pass  # every append is already on disk

    def close(self) -> None:
        if not self._fh.closed:
            self._fh.close()


# --------------------------------------------------------------------------- Parquet
_PART = re.compile(r"part-\d{20}-\d+-\d+\.parquet")
_MARK = b"workbench.sweep.columns"


def _arrow_schema(columns: list[str]):
    import pyarrow as pa

    types = {"int": pa.int64(), "float": pa.float64(), "str": pa.string()}
    return pa.schema(
        [(c, types[schema.kind(c)]) for c in columns],
        metadata={_MARK: json.dumps(list(columns)).encode()},
    )


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_parquet_parts(folder: Path, columns: list[str] | None = None):
    """(part paths, rows in order, columns) of a results folder; ValueError if it is not ours or
    a part is damaged.  Temporary parts (``.tmp-*``) are ignored."""
    import pyarrow.parquet as pq

    names = sorted(os.listdir(folder))
    foreign = [n for n in names if not n.startswith(".") and not _PART.fullmatch(n)]
    if foreign:
        raise ValueError(
            f"{folder} holds files a sweep did not write ({foreign[:3]}); it is "
            "left as it is: choose another results folder"
        )
    parts = [folder / n for n in names if _PART.fullmatch(n)]
    rows, found = [], columns
    for part in parts:
        try:
            table = pq.read_table(part)
        except Exception as exc:  # noqa: BLE001
            raise ValueError(
                f"{part} cannot be read ({type(exc).__name__}: {exc}); the folder "
                "is left as it is. Move that part away to run its cells again; "
                "the other parts are kept"
            ) from None
        meta = (table.schema.metadata or {}).get(_MARK)
        names_ = table.column_names
        if meta is None or json.loads(meta) != names_ or names_[:1] != ["cell_id"]:
            raise ValueError(
                f"{part} is not a workbench sweep part; the folder is left as it "
                "is: choose another results folder"
            )
        schema.check_columns(
            part, names_, found, "the folder is left as it is: choose another results folder"
        )
        found = names_
        rows.extend(table.to_pylist())
    return parts, rows, found


class ParquetStore:
    """A folder of Parquet parts (see the module docstring)."""

    def __init__(self, path, columns: list[str], flush_seconds: float = 2.0):
        self.path = Path(path)
        self.columns = list(columns)
        self.kinds = [schema.kind(c) for c in self.columns]
        self.flush_seconds = flush_seconds
        self.rows: dict[str, dict] = {}
        self._buffer: list[dict] = []
        self._since = None
        self._count = 0
        if self.path.exists() and not self.path.is_dir():
            raise ValueError(
                f"{self.path} is a file, but a .parquet results path is a folder of "
                "parts written by workbench.sweep; it is left as it is: choose "
                "another name"
            )
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(self.path / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _Lock(self._lock_fd, self.path)
            self._parts, rows, _ = read_parquet_parts(self.path, self.columns)
            for name in os.listdir(self.path):
                if name.startswith(".tmp-"):  # a part a crash did not finish
                    os.remove(self.path / name)
        except BaseException:
            os.close(self._lock_fd)
            raise
        for row in rows:
            self.rows[row["cell_id"]] = row

    def append(self, rows: list[dict]) -> None:
        """Buffer the rows; write a part once the oldest buffered row is ``flush_seconds`` old
        (``run`` calls this at least every quarter second, with no rows when none came)."""
        for row in rows:
            clean = clean_row(row, self.columns)
            self._buffer.append(clean)
            self.rows[clean["cell_id"]] = clean
        if self._buffer and self._since is None:
            self._since = time.monotonic()
        if self._buffer and time.monotonic() - self._since >= self.flush_seconds:
            self.flush()

    def _write_part(self, rows: list[dict]) -> Path:
        import pyarrow as pa
        import pyarrow.parquet as pq

        self._count += 1
        name = f"part-{time.time_ns():020d}-{os.getpid()}-{self._count}.parquet"
        tmp = self.path / f".tmp-{name}"
        table = pa.Table.from_pylist(rows, schema=_arrow_schema(self.columns))
        pq.write_table(table, tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, self.path / name)
        _fsync_dir(self.path)
        return self.path / name

    def flush(self) -> None:
        if self._buffer:
            self._parts.append(self._write_part(self._buffer))
            self._buffer = []
        self._since = None

    def close(self) -> None:
        if self._lock_fd is None:
            return
        try:
            self.flush()
            if len(self._parts) > 1:  # merge into one part, then drop the others
                merged = self._write_part(list(self.rows.values()))
                for part in self._parts:
                    os.remove(part)
                self._parts = [merged]
                _fsync_dir(self.path)
        finally:
            os.close(self._lock_fd)
            self._lock_fd = None


# --------------------------------------------------------------------------- reading
def read_rows(path) -> tuple[list[dict], list[str]]:
    """The rows of a results file (last row of each cell) and its columns, without writing."""
    fmt = results_format(path)
    path = Path(path)
    if not path.exists():
        raise ValueError(f"no results file {path}")
    if fmt == "csv":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a sweep may be writing the last line right now
            rows, _, columns = parse_csv(path.read_bytes(), path)
    else:
        if not path.is_dir():
            raise ValueError(f"{path} is not a results folder written by workbench.sweep")
        _, rows, columns = read_parquet_parts(path)
        if columns is None:
            raise ValueError(f"{path} holds no results yet")
    last = {}
    for row in rows:
        last[row["cell_id"]] = row
    return list(last.values()), columns
