"""Loaders of the papers' real data sets: download once, parse, check, cache, load.

Every loader works the same way (scikit-learn's ``fetch_covtype`` is the model):

1. If ``<data_home>/<folder>/<name>.npz`` exists it is loaded (plain arrays, no pickle, well under
   a second for Covertype).  A damaged cache is an error that names the file and the fix (delete it
   or pass ``refresh=True``); it is not rebuilt silently.
2. Otherwise the source files are looked for in ``<data_home>/<folder>/``; each is checked
   against the SHA-256 recorded when it arrived (``<file>.sha256`` beside it): a file that no
   longer matches is a :class:`~workbench.streams._download.ChecksumError` naming both sums.  A
   file put there by hand is used like a downloaded one, and its sum recorded once it has been
   read.
3. If none is there, the sources are tried in the order
   :func:`~workbench.streams.registry.sources` lists them (``list_datasets()`` shows it): first,
   where a well-kept library maintains the set's source and checksum, that source
   (:mod:`workbench.streams._fetchers`: the file scikit-learn's ``fetch_covtype`` and
   ``fetch_kddcup99`` download, checked against the SHA-256 in scikit-learn's source;
   ``fetch_openml`` by data id, which checks OpenML's MD5), then the direct URL at the data
   set's home (UCI, LIBSVM, MOA, OpenML), or its copy under ``$WORKBENCH_DATA_MIRROR`` (with a
   mirror the first source is skipped: it cannot reach the mirror).  A source that fails (no
   network, a checksum that differs) gives a :class:`DatasetWarning` and the direct URL is
   downloaded, with a progress bar, its SHA-256 computed as it arrives and recorded; with
   ``download=False`` or when that fails too, the error names the URL, the file name and the
   folder to put it in by hand.
4. The files (or the fetcher's rows) are parsed (CSV with the C parser of pandas, ARFF with
   :func:`read_arff`, LIBSVM with :func:`read_libsvm`) and checked against the shape the source documents (see
   :mod:`workbench.streams.registry`): another number of feature columns, classes or rows is
   a ``ValueError``, other class sizes a :class:`DatasetWarning` naming both figures.  A file
   that arrives without a published checksum is checked before it is parsed too: its size
   against the record (or the most its documented rows can take), and the lines of delimited
   and LIBSVM text against the documented rows, which also checks the part of a large set that
   ``n=`` does not read.  A download that fails a check is removed, with its record.  Then the
   cache is written (through a temporary file and an atomic rename).

``shuffle=True, seed=k`` returns the ``k``-th random permutation of the rows (the same for the
same ``k``), as 004 averages its learners over ten shuffles of each data set.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

import numpy as np

from . import _cache, _fetchers
from ._download import (
    ENV_MIRROR,
    DownloadError,
    data_home as _data_home,
    download as _download,
    mirror_prefix,
    mirrored,
    record_checksum,
    sha256_of,
    verify,
)
from ._validate import check_bool, check_seed
from .info import StreamInfo
from .registry import FIRST_DOWNLOAD, REGISTRY, Dataset, RemoteFile


class DatasetWarning(UserWarning):
    """A parsed data set differs from its documented row count or class sizes."""


# --------------------------------------------------------------------------------- finding files


def _missing_message(d: Dataset, f: RemoteFile, folder: Path, reason: str | None) -> str:
    url, tried = f.url, mirrored(f.url)
    text = f"{d.name}: the file {f.filename} is not in {folder}"
    if reason is None:
        text += " and download=False"
    else:
        via = f" (the mirror's copy of {url})" if tried != url else ""
        text += f" and could not be downloaded from {tried}{via}: {reason}"
    also = f" (or the unzipped {f.member})" if f.member else ""
    return (
        f"{text}.\nDownload {url} by hand and put it in the folder {folder} as {f.filename}"
        f"{also}; it is then found, checked and used.  Clusters without internet access can "
        f"set {ENV_MIRROR} to the URL prefix of a mirror that serves the same paths."
    )


def _extract(archive: Path, dest: Path) -> Path:
    """Copy the single ``.arff`` member of a zip archive to ``dest`` (the member's name is not used)."""
    import shutil
    import zipfile

    try:
        with zipfile.ZipFile(archive) as zf:
            members = [
                m
                for m in zf.infolist()
                if not m.is_dir()
                and m.filename.lower().endswith(dest.suffix.lower())
                and "__MACOSX" not in m.filename
            ]
            if len(members) != 1:
                raise ValueError(
                    f"expected one {dest.suffix} file inside, found {[m.filename for m in members]}"
                )
            fd, tmp = tempfile.mkstemp(prefix=dest.name + ".", suffix=".tmp", dir=dest.parent)
            try:
                with os.fdopen(fd, "wb") as out, zf.open(members[0]) as src:
                    shutil.copyfileobj(src, out, 1 << 20)
                _cache.readable_like_a_new_file(tmp)
                os.replace(tmp, dest)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise ValueError(
            f"{archive} is not a usable zip archive ({exc}); delete it and load "
            f"again to download it afresh"
        ) from None
    return dest


def _documented_rows(d: Dataset, k: int) -> int:
    """The rows the source documents for ``d``'s ``k``-th file."""
    return d.parts[k] if d.parts else d.rows


#: the most bytes a documented row of text may take per value (with its separator): the bound
#: on a download of a set whose size is not recorded (numbers are written in at most 25
#: characters, a LIBSVM cell ``index:value`` in about 30; a compressed file takes fewer)
BYTES_PER_VALUE = 32


def _max_bytes(d: Dataset, k: int) -> int:
    """The most bytes ``d``'s ``k``-th file can take with its documented rows (headers and
    ARFF declarations get a MiB)."""
    return _documented_rows(d, k) * (d.features + 1) * BYTES_PER_VALUE + 2**20


def _count_lines(path: Path, stop_after: int) -> int:
    """The lines of a text file (gzip or bzip2 when its name says so), read in blocks; stops
    counting once there are more than ``stop_after``.  A last line without a newline counts,
    blank lines at the end do not."""
    import bz2
    import gzip

    opener = {".gz": gzip.open, ".bz2": bz2.open}.get(path.suffix, open)
    newlines, after_last, content = 0, 0, False  # after_last: newlines after the last text
    with opener(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            newlines += block.count(b"\n")
            stripped = block.rstrip(b" \t\r\n")
            if stripped:
                content = True
                after_last = block[len(stripped) :].count(b"\n")
            else:
                after_last += block.count(b"\n")
            if content and newlines - after_last + 1 > stop_after:
                break
    return newlines - after_last + 1 if content else 0


def _check_rows_of_file(d: Dataset, k: int, path: Path) -> None:
    """The lines of a delimited or LIBSVM file must be its documented rows (and header lines):
    fewer is a file cut short at a line boundary, many more is not the file.  (Blank lines
    are allowed a margin here; the parsed rows are checked exactly when the set is read
    whole.)"""
    rows = _documented_rows(d, k)
    want = rows + (d.skip if d.fmt == "csv" else 0)
    margin = max(10, rows // 100)
    try:
        lines = _count_lines(path, want + margin)
    except (OSError, EOFError, ValueError) as exc:  # a truncated or damaged gzip / bzip2
        raise ValueError(
            f"{path} is not a complete {path.suffix or 'text'} file ({type(exc).__name__}: "
            f"{exc}): it was cut short or damaged"
        ) from None
    if lines < want or lines > want + margin:
        what = "fewer" if lines < want else "more"
        count = f"{lines:,}" if lines < want else f"more than {want + margin:,}"
        raise ValueError(
            f"{path} has {count} lines where {d.name}'s source documents {rows:,} rows"
            f"{f' after {d.skip} header line(s)' if want != rows else ''}: {what} than the "
            f"documented file ({'cut short' if what == 'fewer' else 'another file, or junk'})"
        )


def _forget(paths: list[Path]) -> list[str]:
    """Remove files written by this load (a download that failed its checks) and their
    SHA-256 records; returns their names."""
    from ._download import checksum_file

    names = []
    for path in paths:
        for p in (path, checksum_file(path)):
            if p.exists():
                p.unlink()
        names.append(path.name)
    return names


def _source_files(
    d: Dataset, folder: Path, download: bool, progress
) -> tuple[list[Path], dict, list[Path], list[Path]]:
    """The files of ``d`` in ``folder``, downloaded where missing; {file name: SHA-256} of each
    file read (a downloaded one is hashed as it arrives and recorded, one already there is
    checked against its record); the files that have no record yet (put there by hand),
    which the caller records once they have been read; and the files this call downloaded
    (with what was unzipped from them).  A new file (downloaded, or put there by hand) of
    delimited or LIBSVM text must hold the documented number of rows; a download that does
    not is removed at once."""
    paths, sums, unrecorded, fresh = [], {}, [], []

    def check(path: Path) -> None:
        sums[path.name], recorded = verify(path)
        if not recorded:
            unrecorded.append(path)

    for k, f in enumerate(d.files):
        target = folder / (f.member or f.filename)
        archive = folder / f.filename
        if not target.exists():
            if archive.exists():
                check(archive)
            elif not download:
                raise FileNotFoundError(_missing_message(d, f, folder, None))
            else:
                try:
                    sums[archive.name] = _download(
                        mirrored(f.url),
                        archive,
                        progress=progress,
                        extra_hosts=f.hosts,
                        size=f.size,
                        max_bytes=_max_bytes(d, k),
                    )
                except DownloadError as exc:
                    raise DownloadError(_missing_message(d, f, folder, str(exc))) from None
                fresh.append(archive)
            if f.member:
                try:
                    _extract(archive, target)
                except ValueError:
                    if archive in fresh:
                        _forget(fresh)
                    raise
                sums[target.name] = sha256_of(target)
                record_checksum(target, sums[target.name])
                if archive in fresh:
                    fresh.append(target)
        if target.name not in sums:
            check(target)
        if d.fmt in ("csv", "libsvm") and (target in fresh or target in unrecorded):
            try:
                _check_rows_of_file(d, k, target)
            except ValueError as exc:
                if target in fresh:
                    gone = _forget(fresh)
                    raise ValueError(
                        f"{exc}; the download was removed ({', '.join(gone)}): try again, or "
                        f"download {f.url} by hand"
                    ) from None
                raise ValueError(f"{exc}; delete it and load again") from None
        paths.append(target)
    return paths, sums, unrecorded, fresh


# ------------------------------------------------------------------------------------- parsing


def _value_codes(values: np.ndarray, known: np.ndarray, what: str, where) -> np.ndarray:
    """Positions of ``values`` in ``known`` (float); a value not in ``known`` is a ValueError."""
    order = np.argsort(known, kind="stable")
    pos = np.minimum(np.searchsorted(known[order], values), len(known) - 1)
    ok = known[order][pos] == values
    if not ok.all():
        bad = sorted(set(values[~ok].tolist()), key=str)[:10]
        raise ValueError(
            f"{where}: {what} value(s) {bad} are not among the documented "
            f"{len(known)}: {known.tolist()}"
        )
    return order[pos]


def _text_codes(cells, known: list[str], what: str, where) -> np.ndarray:
    import pandas as pd

    codes = pd.Categorical(cells, categories=known).codes.astype(np.int64)
    bad_mask = codes < 0
    if bad_mask.any():
        bad = sorted(set(np.asarray(cells, dtype=object)[bad_mask].tolist()), key=str)[:10]
        raise ValueError(
            f"{where}: {what} value(s) {bad} are not among the documented {len(known)}: {known}"
        )
    return codes


def _parse_csv(d: Dataset, paths: list[Path], n: int | None):
    """Delimited text through pandas' C parser (``read_csv`` holds every cell as a Python string,
    which is fine for 50,000 rows and not for 11 million)."""
    import pandas as pd

    width = d.features + 1
    t, raw_of, text_nominal = _layout(d, d.feature_names)
    text_cols = {raw_of[j] for j in text_nominal} | (set() if d.class_values else {t})
    frames, parts, remaining = [], [], n
    for path in paths:
        if remaining == 0:
            parts.append(0)
            continue
        try:
            df = pd.read_csv(
                path,
                sep=d.sep,
                header=None,
                skiprows=d.skip,
                nrows=remaining,
                dtype={c: str for c in text_cols},
                na_values=["?"],
                skipinitialspace=True,
                low_memory=False,
                compression="infer",
            )
        except Exception as exc:  # ParserError, EOFError of a truncated gzip, zlib/bz2 errors ...
            raise ValueError(
                f"{path} could not be parsed as {d.name}'s file ({type(exc).__name__}: "
                f"{exc}); if it is damaged, delete it and load again"
            ) from None
        if df.shape[1] != width:
            raise ValueError(
                f"{path} has {df.shape[1]} columns where {d.name}'s source documents "
                f"{width} ({d.features} features and the class); it is not the "
                f"expected file: delete it and load again"
            )
        frames.append(df)
        parts.append(len(df))
        if remaining is not None:
            remaining -= len(df)
    df = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    X, y, info = _frame_arrays(d, df, f"{d.name} ({', '.join(p.name for p in paths)})")
    return X, y, info, parts


def _layout(d: Dataset, names) -> tuple[int, list[int], set[int]]:
    """Where the class is in a row of ``d``'s file, the row column of each feature, and which
    features are nominal text."""
    t = d.features if d.target == -1 else d.target
    raw_of = [j if j < t else j + 1 for j in range(d.features)]
    text_nominal = {
        j for j, name in enumerate(names) if name in d.nominal and d.nominal[name] is None
    }
    return t, raw_of, text_nominal


def _frame_arrays(d: Dataset, df, where: str, feature_names=None):
    """``X``, ``y`` and the info of a table laid out like ``d``'s delimited file (the features
    in file order, the class in column ``d.target``): nominal text columns become codes of their
    values sorted as strings, the class codes follow the registry's order.  A parsed file and a
    fetcher's rows go through here alike."""
    import pandas as pd

    from ._tabular import sorted_categories

    names = list(feature_names) if feature_names is not None else list(d.feature_names)
    width = d.features + 1
    if df.shape[1] != width or len(names) != d.features:
        raise ValueError(
            f"{where}: {df.shape[1]} columns ({len(names)} named features) where "
            f"{d.name}'s source documents {width} ({d.features} features and the class)"
        )
    t, raw_of, text_nominal = _layout(d, names)
    X = np.empty((len(df), d.features), dtype=np.float64)
    categories: dict[int, list[str]] = {}
    for j, name in enumerate(names):
        col = df.iloc[:, raw_of[j]]
        if j in text_nominal:
            present = col.dropna()
            cats = sorted_categories(present.unique().tolist())
            codes = pd.Categorical(col, categories=cats).codes.astype(np.float64)
            codes[codes < 0] = np.nan
            X[:, j], categories[j] = codes, cats
            continue
        if not pd.api.types.is_numeric_dtype(col):
            bad = col[pd.to_numeric(col, errors="coerce").isna() & col.notna()].iloc[0]
            raise ValueError(f"{where}: column {name!r} holds {bad!r}, which is not a number")
        values = col.to_numpy(dtype=np.float64, na_value=np.nan)
        if name in d.nominal:  # declared numeric categories, e.g. poker's suits 1..4
            cats = list(d.nominal[name])
            present = ~np.isnan(values)
            codes = np.full(len(values), np.nan)
            codes[present] = _value_codes(values[present], np.array(cats, dtype=float), name, where)
            X[:, j], categories[j] = codes, cats
        else:
            X[:, j] = values
    if not d.has_missing and np.isnan(X).any():
        row = int(np.isnan(X).any(axis=1).argmax())
        raise ValueError(
            f"{where}: data row {row + 1} has an empty or missing field (too few "
            f"columns?), and {d.name} has no missing values; delete the file and load again"
        )
    labels = df.iloc[:, t]
    if labels.isna().any():
        row = int(labels.isna().to_numpy().argmax())
        raise ValueError(f"{where}: the class is missing in data row {row + 1}")
    if d.class_values:
        y = _value_codes(
            labels.to_numpy(dtype=np.float64), np.array(d.class_values), "class", where
        )
    else:
        cells = labels.str.strip()
        if d.label_suffix:
            cells = cells.str.removesuffix(d.label_suffix)
        y = _text_codes(cells, list(d.classes), "class", where)
    nominal = {j: len(c) for j, c in categories.items()}
    info = StreamInfo(
        name=d.name,
        feature_names=names,
        class_names=list(d.classes),
        nominal_features=nominal,
        categories=categories,
    )
    return X, y.astype(np.int64), info


def _check_classes(d: Dataset, y: np.ndarray, names: list[str], where) -> np.ndarray:
    """Labels re-coded to the registry's class order; an undocumented class is a ValueError."""
    if len(names) > len(d.classes) or not set(names) <= set(d.classes):
        raise ValueError(
            f"{where} has classes {names} where {d.name}'s source documents "
            f"{len(d.classes)}: {list(d.classes)}; it is not the expected file"
        )
    remap = np.array([d.classes.index(c) for c in names], dtype=np.int64)
    return remap[y]


def _parse_libsvm(d: Dataset, paths: list[Path]):
    from .libsvm import read_libsvm

    Xs, ys, parts = [], [], []
    for path in paths:
        try:
            X, y = read_libsvm(path, n_features=d.features, classes=d.class_values)
        except ValueError as exc:
            raise ValueError(
                f"{d.name}: {exc}; if the file is damaged or not {d.name}'s, delete "
                f"it and load again"
            ) from None
        Xs.append(X)
        ys.append(y)
        parts.append(len(y))
    names = list(d.feature_names) or [f"f{j + 1}" for j in range(d.features)]
    info = StreamInfo(name=d.name, feature_names=names, class_names=list(d.classes))
    return np.concatenate(Xs), np.concatenate(ys), info, parts


def _parse_arff(d: Dataset, paths: list[Path]):
    from .arff import read_arff

    (path,) = paths
    X, y, info = read_arff(path, return_info=True)
    if X.shape[1] != d.features:
        raise ValueError(
            f"{path} has {X.shape[1]} feature attributes where {d.name}'s source "
            f"documents {d.features}; it is not the expected file: delete it and load again"
        )
    if list(info.class_names) != list(d.classes):
        y = _check_classes(d, y, list(info.class_names), path)
    info.name, info.class_names = d.name, list(d.classes)
    return X, y, info, [len(y)]


def _parse_adult(d: Dataset, paths: list[Path]):
    """adult.data + adult.test: the test file's first line ("|1x3 Cross validator") and the '.'
    after its labels are dropped, then both go through :func:`read_csv` as one table."""
    from .csvio import read_csv

    width = d.features + 1
    folder = paths[0].parent
    fd, tmp = tempfile.mkstemp(prefix="adult_full.", suffix=".csv", dir=folder)
    parts = []
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(",".join((*d.feature_names, "income")) + "\n")
            for path in paths:
                count = 0
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for lineno, line in enumerate(fh, start=1):
                        line = line.strip()
                        if not line or line.startswith("|"):
                            continue
                        fields = line.count(",") + 1
                        if fields != width:
                            raise ValueError(
                                f"{path}, line {lineno}: {fields} fields where adult's "
                                f"source documents {width} ({d.features} features and "
                                f"the class); delete the file and load again"
                            )
                        out.write(line.removesuffix(".") + "\n")
                        count += 1
                parts.append(count)
        X, y, info = read_csv(
            tmp, target=-1, nominal=list(d.nominal), missing=("?",), name=d.name, return_info=True
        )
    finally:
        Path(tmp).unlink(missing_ok=True)
    y = _check_classes(
        d, y, list(info.class_names), f"{d.name} ({', '.join(p.name for p in paths)})"
    )
    info.class_names = list(d.classes)
    return X, y, info, parts


_PARSERS = {"csv": _parse_csv, "libsvm": _parse_libsvm, "arff": _parse_arff, "adult": _parse_adult}


# ------------------------------------------------------------------------------------ checking


def _check_shape(
    d: Dataset,
    X: np.ndarray,
    y: np.ndarray,
    info: StreamInfo,
    n: int | None,
    stacklevel: int = 4,
    parts=None,
    paths=None,
    where=None,
) -> None:
    """Columns, classes and rows must match the documentation (a file cut short at a line
    boundary parses, and only its row count tells); class sizes that differ are a warning,
    shown at the caller's line ``stacklevel`` frames up.  ``parts``: the rows each of
    ``paths`` gave; ``where``: what was read, for the message (default: the files)."""
    where = where or (", ".join(str(p) for p in paths) if paths else d.name)
    if X.shape[1] != d.features or info.n_classes != len(d.classes):
        raise ValueError(
            f"{d.name}: {X.shape[1]} features and {info.n_classes} classes where the "
            f"source documents {d.features} and {len(d.classes)}"
        )
    if n is not None:
        if len(y) < n:
            warnings.warn(
                f"{d.name}: asked for the first {n:,} rows; the files hold only {len(y):,}",
                DatasetWarning,
                stacklevel=stacklevel,
            )
        return
    if parts is not None and paths is not None and d.parts and list(parts) != list(d.parts):
        bad = [(p, k, want) for p, k, want in zip(paths, parts, d.parts) if k != want]
        p, k, want = bad[0]
        raise ValueError(
            f"{d.name}: {p} holds {k:,} rows where the source documents {want:,}: not the "
            "documented file (cut short, or another one)"
        )
    if len(y) != d.rows:
        raise ValueError(
            f"{d.name}: {len(y):,} rows where the source documents {d.rows:,} ({where}): "
            "not the documented data (a file cut short, or another one)"
        )
    if d.class_counts is not None:
        counts = np.bincount(y, minlength=len(d.classes)).tolist()
        if counts != list(d.class_counts):
            warnings.warn(
                f"{d.name}: class sizes {counts} where the source documents "
                f"{list(d.class_counts)} (classes {list(d.classes)})",
                DatasetWarning,
                stacklevel=stacklevel,
            )


# ------------------------------------------------------------------------------------- loading


def check_shuffle(shuffle, seed):
    """``shuffle`` as a bool and ``seed`` checked; a seed without ``shuffle=True`` would be
    ignored, so it is an error."""
    shuffle = check_bool(shuffle, "shuffle")
    seed = check_seed(seed)
    if seed is not None and not shuffle:
        raise ValueError(
            f"seed={seed!r} chooses a permutation of the rows, which only shuffle=True makes; "
            "pass shuffle=True as well (the rows come in the file's order otherwise)"
        )
    return shuffle, seed


def _shuffled(X, y, shuffle: bool, seed):
    shuffle, seed = check_shuffle(shuffle, seed)
    if not shuffle:
        return X, y
    perm = np.random.default_rng(seed).permutation(len(y))
    return X[perm], y[perm]


def _present(d: Dataset, folder: Path) -> bool:
    """Some file of ``d`` is already in ``folder`` (downloaded before, or put there by hand)."""
    return any(
        (folder / f.filename).exists() or (f.member is not None and (folder / f.member).exists())
        for f in d.files
    )


def _build(d: Dataset, folder: Path, download: bool, progress, n: int | None):
    """``X``, ``y``, the info and ``info.params`` of ``d`` from its sources, in order: the files
    already in ``folder``; else the well-kept source that maintains it and its checksum (not with
    a mirror, whose copies it cannot reach); else, or if that fails, the direct URLs."""
    direct = " + ".join(mirrored(f.url) for f in d.files)
    params = dict(source=d.source, version=d.version, urls=[f.url for f in d.files], n=n)
    loaded_from, how = direct, FIRST_DOWNLOAD
    mirror = mirror_prefix()
    if d.fetcher and download and not mirror and not _present(d, folder):
        got = None
        try:
            if _fetchers.kind(d.fetcher) == "sklearn":
                url, published = _fetchers.published_file(d.fetcher)
                f = d.files[0]
                _download(url, folder / f.filename, progress=progress, sha256=published)
                loaded_from, how = url, PUBLISHED_BY_SKLEARN
            else:
                got = _fetchers.openml(d.fetcher, folder)
        except Exception as exc:  # no network, a checksum that differs, a changed API ...
            warnings.warn(
                f"{d.name}: {_fetchers.describe(d.fetcher)} failed ({type(exc).__name__}: {exc}); "
                f"downloading {direct} instead",
                DatasetWarning,
                stacklevel=4,
            )
        if got is not None:
            frame = got.frame if n is None else got.frame.iloc[:n]
            X, y, info = _frame_arrays(d, frame, f"{d.name} (from {got.source})", got.feature_names)
            _check_shape(d, X, y, info, n, stacklevel=5)
            params.update(files=[], parts={got.source: len(y)}, loaded_from=got.source)
            params.update(sha256=dict(got.sha256), checksum=got.checksum)
            return X, y, info, params
    paths, sums, unrecorded, fresh = _source_files(d, folder, download, progress)
    parse = _PARSERS[d.fmt]
    try:
        X, y, info, parts = parse(d, paths, n) if d.fmt == "csv" else parse(d, paths)
        _check_shape(d, X, y, info, n, stacklevel=5, parts=parts, paths=paths)
    except ValueError as exc:
        if not fresh:
            raise
        # what was just downloaded is not the documented file: it is not kept (a later load
        # would otherwise find it, checked against the sum it arrived with, and fail again)
        gone = _forget(fresh)
        raise ValueError(f"{exc}; the download was removed ({', '.join(gone)})") from None
    for path in unrecorded:  # read and checked: its sum is recorded from now on
        record_checksum(path, sums[path.name])
    params.update(files=[p.name for p in paths], parts={p.name: k for p, k in zip(paths, parts)})
    params.update(loaded_from=loaded_from, sha256=sums, checksum=how)
    return X, y, info, params


#: how the checksum of a file from scikit-learn's record is known
PUBLISHED_BY_SKLEARN = "SHA-256 published in scikit-learn's source, checked at the download"


def fetch(
    name: str,
    data_home=None,
    download: bool = True,
    return_info: bool = False,
    shuffle: bool = False,
    seed: int | None = None,
    n: int | None = None,
    refresh: bool = False,
    progress: bool | None = None,
):
    """Load the registry's data set ``name`` (the machinery behind :func:`covertype` and the rest)."""
    if name not in REGISTRY:
        raise ValueError(f"unknown data set {name!r}; the registry holds {sorted(REGISTRY)}")
    d = REGISTRY[name]
    if n is not None:
        if not d.partial:
            raise ValueError(
                f"{name} is read whole; n= is for the large sets "
                f"{sorted(k for k, v in REGISTRY.items() if v.partial)}"
            )
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer or None, got {n!r}")
        n = int(n)
    check_shuffle(shuffle, seed)
    mirror_prefix()  # a malformed $WORKBENCH_DATA_MIRROR is named before anything is read
    for flag, value in (("download", download), ("return_info", return_info), ("refresh", refresh)):
        check_bool(value, flag)
    if progress is not None:
        check_bool(progress, "progress")
    folder = _data_home(data_home) / d.folder
    full_cache = folder / f"{name}.npz"
    cache = full_cache if n is None else folder / f"{name}_first{n}.npz"
    meta = dict(dataset=name, version=d.version, n=n)
    loaded = None
    if not refresh:
        for candidate in [cache] if n is None else [full_cache, cache]:
            if candidate.exists():
                X, y, info, got = _cache.load(candidate)
                if got.get("dataset") == name and got.get("version") == d.version:
                    loaded = (X[:n], y[:n], info) if n is not None else (X, y, info)
                    break
    if loaded is None:
        X, y, info, params = _build(d, folder, download, progress, n)
        info.params = params
        meta.update(loaded_from=params["loaded_from"], sha256=params["sha256"])
        meta.update(checksum=params["checksum"])
        _cache.save(cache, X, y, info, meta)
        loaded = (X, y, info)
    else:
        try:
            _check_shape(d, *loaded, n, where=f"the cache {cache}")
        except ValueError as exc:
            raise ValueError(f"{exc}; delete the cache, or load with refresh=True") from None
    X, y, info = loaded
    X, y = _shuffled(X, y, shuffle, seed)
    if shuffle:
        info.params["shuffle_seed"] = seed
    return (X, y, info) if return_info else (X, y)


_COMMON = """
    Parameters
    ----------
    data_home: folder of the downloaded data (default ``$WORKBENCH_DATA`` or ``~/workbench_data``);
        this set lives in its sub-folder ``{folder}``.
    download: fetch missing files from the source (else a missing file is a ``FileNotFoundError``
        that says where to put it).
    return_info: also return the :class:`StreamInfo` (``info.params`` records the source, the
        files and the rows each one gave, where they were loaded from and their SHA-256).
    shuffle, seed: return the ``seed``-th random permutation of the rows instead of file order
        (``seed=None``: a fresh random one).
    refresh: ignore the cache and parse the source files again (they are not downloaded again,
        but checked against their recorded SHA-256; a set that came through a fetcher is
        fetched again).
    progress: show a download progress bar (default: in a terminal or a notebook).

    Documented shape: {rows:,} rows, {features} features, {classes} classes.  Source: {source}
    ({homepage}).  Cite: {citation}.
    """


def _doc(name: str, text: str) -> str:
    d = REGISTRY[name]
    return text + _COMMON.format(
        folder=d.folder,
        rows=d.rows,
        features=d.features,
        classes=len(d.classes),
        source=d.source,
        homepage=d.homepage,
        citation=d.citation,
    )


def covertype(
    data_home=None,
    download: bool = True,
    return_info: bool = False,
    shuffle: bool = False,
    seed: int | None = None,
    binary: bool = False,
    refresh: bool = False,
    progress: bool | None = None,
):
    return fetch(
        "covertype_binary" if check_bool(binary, "binary") else "covertype",
        data_home,
        download,
        return_info,
        shuffle,
        seed,
        None,
        refresh,
        progress,
    )


covertype.__doc__ = _doc(
    "covertype",
    """Forest cover type: UCI's 7-class ``covtype.data.gz``, or
    with ``binary=True`` LIBSVM's ``covtype.libsvm.binary.bz2`` (581,012 x 54, 2 classes), the
    version 000's Table I uses.  Labels 1..7 (1, 2 for the binary file) become codes 0..6 (0, 1).

    Examples
    --------
    >>> from workbench import streams
    >>> X, y = streams.covertype()                      # doctest: +SKIP
    >>> X.shape, y.max()                                # doctest: +SKIP
    ((581012, 54), 6)
    """,
)


def _plain(name: str, what: str):
    """The loader of a data set read whole (the same signature for each, as ``_big``'s)."""

    def loader(
        data_home=None,
        download: bool = True,
        return_info: bool = False,
        shuffle: bool = False,
        seed: int | None = None,
        refresh: bool = False,
        progress: bool | None = None,
    ):
        return fetch(name, data_home, download, return_info, shuffle, seed, None, refresh, progress)

    loader.__name__ = loader.__qualname__ = name
    loader.__doc__ = _doc(name, what)
    return loader


airlines = _plain(
    "airlines",
    """Airlines (MOA's airlines.arff): will a flight be delayed?
    Airline, AirportFrom, AirportTo and DayOfWeek are nominal; class 1 is delayed.
    """,
)


a9a = _plain(
    "a9a",
    """A9A: LIBSVM's binarised Adult, ``a9a`` (32,561 rows) followed by
    ``a9a.t`` (16,281), as 000 counts it; 123 binary features, class 1 is ``+1`` (>50K).
    """,
)


cod_rna = _plain(
    "cod_rna",
    """COD-RNA: LIBSVM's ``cod-rna``, ``cod-rna.t`` and ``cod-rna.r``
    in that order (59,535 + 271,617 + 157,413 rows), as 000 counts it; class 1 is ``+1``.
    """,
)


def kdd99(
    data_home=None,
    download: bool = True,
    return_info: bool = False,
    shuffle: bool = False,
    seed: int | None = None,
    full: bool = False,
    n: int | None = None,
    refresh: bool = False,
    progress: bool | None = None,
):
    return fetch(
        "kdd99_full" if check_bool(full, "full") else "kdd99",
        data_home,
        download,
        return_info,
        shuffle,
        seed,
        n,
        refresh,
        progress,
    )


kdd99.__doc__ = _doc(
    "kdd99",
    """KDD Cup 1999: the 10% file (494,021 rows), or with ``full=True``
    the full one (4,898,431 rows; ``n=`` reads only its first rows).  23 classes (``normal`` and
    22 attacks, in ``info.class_names``); protocol_type, service and flag are nominal.
    """,
)


poker = _plain(
    "poker",
    """Poker hand: UCI's training file (25,010 rows) then its testing
    file (1,000,000); 10 classes (hands); suits nominal, ranks numeric.
    """,
)


skin = _plain(
    "skin",
    """Skin segmentation: B, G, R of 245,057 pixels; class 0 is skin.
    The file lists every skin pixel first, so the unshuffled stream has one abrupt change.
    """,
)


def _big(name: str, what: str):
    def loader(
        data_home=None,
        download: bool = True,
        return_info: bool = False,
        shuffle: bool = False,
        seed: int | None = None,
        n: int | None = None,
        refresh: bool = False,
        progress: bool | None = None,
    ):
        return fetch(name, data_home, download, return_info, shuffle, seed, n, refresh, progress)

    loader.__name__ = loader.__qualname__ = name
    loader.__doc__ = _doc(
        name,
        what
        + """
    ``n=`` reads only the first ``n`` rows of the file (it is still downloaded whole, once) and
    caches them as ``{name}_first<n>.npz``; once the whole set is cached, ``n=`` slices it.
    """.replace("{name}", name),
    )
    return loader


higgs = _big(
    "higgs",
    """HIGGS: 11,000,000 simulated collisions, 28 features (21 low-level, 7
    derived), class 1 is the Higgs signal.""",
)
susy = _big(
    "susy",
    """SUSY: 5,000,000 simulated collisions, 18 features, class 1 is the
    supersymmetric signal.""",
)
hepmass = _big(
    "hepmass",
    """HEPMASS: ``all_train`` (7,000,000 rows) then ``all_test``
    (3,500,000); 27 features and the mass, class 1 is signal.""",
)


pima = _plain(
    "pima",
    """Pima Indians Diabetes (001's Diabetes) from OpenML, since UCI no
    longer serves it: 768 women, 8 numeric features, class 1 is ``tested_positive``.
    """,
)
