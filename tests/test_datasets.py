"""Tests of the real-data loaders: download, parse, check, cache, reload, and every failure path.

Nothing leaves this machine: a threaded HTTP server on 127.0.0.1 serves tiny files in each
source's format (made here, with known contents), and ``WORKBENCH_DATA_MIRROR`` points every
loader at it.  Each loader's arrays are compared with the values the fixture files were written
from, so a parser that drops a row, shifts a column or mis-codes a class fails.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import http.server
import io
import os
import subprocess
import sys
import threading
import time
import warnings
import zipfile
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

from workbench import streams
from workbench.streams import _cache, remote
from workbench.streams._download import ChecksumError, DownloadError
from workbench.streams.registry import FIRST_DOWNLOAD, REGISTRY

RNG = np.random.default_rng(20260101)


def _eighths(shape, lo=-64, hi=64):
    """Values exactly representable in binary, so any float parser reads them back exactly."""
    return RNG.integers(lo * 8, hi * 8, size=shape) / 8.0


def _gz(text: str) -> bytes:
    return gzip.compress(text.encode())


def _libsvm_lines(X, labels) -> str:
    lines = []
    for row, lab in zip(X, labels):
        cells = [f"{j + 1}:{v:g}" for j, v in enumerate(row) if v != 0]
        lines.append(" ".join([lab, *cells]))
    return "\n".join(lines) + "\n"


def _path(name: str, k: int = 0) -> str:
    return urlsplit(REGISTRY[name].files[k].url).path


# ------------------------------------------------------------------------------ fixture files


def _make_fixtures():
    """{url path: bytes} to serve and {data set: (X, y, class names, nominal_features)} expected."""
    files, expected = {}, {}

    # Covertype, UCI: 7 rows, one per class, labels 1..7 in a shuffled order.
    X = RNG.integers(0, 4000, size=(7, 54)).astype(float)
    labels = np.array([3, 1, 2, 7, 5, 4, 6])
    text = "".join(",".join(str(int(v)) for v in row) + f",{lab}\n" for row, lab in zip(X, labels))
    files[_path("covertype")] = _gz(text)
    expected["covertype"] = (X, labels - 1, [str(k) for k in range(1, 8)], {})

    # Covertype binary, LIBSVM bz2 (sparse rows, labels 1/2).
    X = RNG.integers(0, 5, size=(6, 54)).astype(float) * (RNG.random((6, 54)) < 0.3)
    X[0, 53] = 7.0
    labs = ["1", "2", "2", "1", "2", "1"]
    files[_path("covertype_binary")] = bz2.compress(_libsvm_lines(X, labs).encode())
    expected["covertype_binary"] = (X, np.array([0, 1, 1, 0, 1, 0]), ["1", "2"], {})

    # Airlines, MOA: an ARFF inside a zip whose member name tries to climb out of data_home.
    airlines = (
        "@relation airlines\n@attribute Airline {CO,US,AA}\n@attribute Flight numeric\n"
        "@attribute AirportFrom {SFO,LAX,JFK}\n@attribute AirportTo {SFO,LAX,JFK}\n"
        "@attribute DayOfWeek {1,2,3,4,5,6,7}\n@attribute Time numeric\n"
        "@attribute Length numeric\n@attribute Delay {0,1}\n@data\n"
        "CO,269,SFO,LAX,3,15,205,1\nUS,1558,LAX,JFK,3,15,222,1\nAA,2400,JFK,SFO,7,20,165,0\n"
        "US,2466,SFO,JFK,1,?,195,0\nCO,108,LAX,SFO,5,30,202,1\n"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("../../escape_airlines.arff", airlines)
    files[_path("airlines")] = buf.getvalue()
    X = np.array(
        [
            [0, 269, 0, 1, 2, 15, 205],
            [1, 1558, 1, 2, 2, 15, 222],
            [2, 2400, 2, 0, 6, 20, 165],
            [1, 2466, 0, 2, 0, np.nan, 195],
            [0, 108, 1, 0, 4, 30, 202],
        ],
        dtype=float,
    )
    expected["airlines"] = (X, np.array([1, 1, 0, 0, 1]), ["0", "1"], {0: 3, 2: 3, 3: 3, 4: 7})

    # A9A: a9a uses feature 123, a9a.t never does (as LIBSVM's real test file).
    X = (RNG.random((8, 123)) < 0.1).astype(float)
    X[0, 122] = 1.0
    X[5:, 122] = 0.0
    labs = ["+1", "-1", "-1", "+1", "-1", "-1", "+1", "-1"]
    files[_path("a9a", 0)] = _libsvm_lines(X[:5], labs[:5]).encode()
    files[_path("a9a", 1)] = _libsvm_lines(X[5:], labs[5:]).encode()
    expected["a9a"] = (X, np.array([lab == "+1" for lab in labs], dtype=np.int64), ["-1", "+1"], {})

    # COD-RNA: three dense LIBSVM files.
    X = _eighths((9, 8))
    X[X == 0] = 0.5
    labs = ["-1", "1", "-1", "-1", "1", "-1", "1", "-1", "-1"]
    for k, sl in enumerate((slice(0, 3), slice(3, 7), slice(7, 9))):
        files[_path("cod_rna", k)] = _libsvm_lines(X[sl], labs[sl]).encode()
    expected["cod_rna"] = (
        X,
        np.array([lab == "1" for lab in labs], dtype=np.int64),
        ["-1", "+1"],
        {},
    )

    # KDD Cup 99: one row per class (10% file); a few rows for the full file.
    def kdd(classes):
        protos, services, flags = (
            ["tcp", "udp", "icmp"],
            ["http", "smtp", "private", "ftp_data"],
            ["SF", "S0", "REJ"],
        )
        rows, raw = [], []
        for i, c in enumerate(classes):
            num = _eighths(38, 0, 100)
            p, s, f = protos[i % 3], services[i % 4], flags[i % 3]
            raw.append((p, s, f, num))
            rows.append(",".join([f"{num[0]:g}", p, s, f, *(f"{v:g}" for v in num[1:])]) + f",{c}.")
        cats = [sorted({r[k] for r in raw}) for k in range(3)]
        X = np.array(
            [
                [r[3][0], cats[0].index(r[0]), cats[1].index(r[1]), cats[2].index(r[2]), *r[3][1:]]
                for r in raw
            ]
        )
        y = np.array([REGISTRY["kdd99"].classes.index(c) for c in classes])
        return (
            _gz("\n".join(rows) + "\n"),
            X,
            y,
            {1: len(cats[0]), 2: len(cats[1]), 3: len(cats[2])},
        )

    order = list(REGISTRY["kdd99"].classes)[::-1]
    files[_path("kdd99")], X, y, nom = kdd(order)
    expected["kdd99"] = (X, y, list(REGISTRY["kdd99"].classes), nom)
    files[_path("kdd99_full")], X, y, nom = kdd(
        ["normal", "smurf", "neptune", "normal", "back", "normal"]
    )
    expected["kdd99_full"] = (X, y, list(REGISTRY["kdd99"].classes), nom)

    # Adult: adult.data, then adult.test with its odd first line and the '.' after labels.
    data = [
        "39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K",  # noqa: E501 (a data row)
        "50, Self-emp-not-inc, 83311, Bachelors, 13, Married-civ-spouse, Exec-managerial, Husband, White, Male, 0, 0, 13, United-States, >50K",  # noqa: E501 (a data row)
        "38, Private, 215646, HS-grad, 9, Divorced, Handlers-cleaners, Not-in-family, Black, Female, 0, 0, 40, ?, <=50K",  # noqa: E501 (a data row)
    ]
    test = [
        "25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, Male, 0, 0, 40, United-States, <=50K.",  # noqa: E501 (a data row)
        "44, ?, 160323, Some-college, 10, Married-civ-spouse, ?, Husband, Black, Male, 7688, 0, 40, United-States, >50K.",  # noqa: E501 (a data row)
    ]
    files[_path("adult_full", 0)] = ("\n".join(data) + "\n\n").encode()
    files[_path("adult_full", 1)] = ("|1x3 Cross validator\n" + "\n".join(test) + "\n").encode()
    cells = [[c.strip() for c in line.rstrip(".").split(",")] for line in data + test]
    nominal_cols = [1, 3, 5, 6, 7, 8, 9, 13]
    X = np.empty((5, 14))
    nom = {}
    for j in range(14):
        col = [r[j] for r in cells]
        if j in nominal_cols:
            cats = sorted({c for c in col if c != "?"})
            X[:, j] = [np.nan if c == "?" else cats.index(c) for c in col]
            nom[j] = len(cats)
        else:
            X[:, j] = [float(c) for c in col]
    expected["adult_full"] = (X, np.array([0, 1, 0, 0, 1]), ["<=50K", ">50K"], nom)

    # Poker: training then testing file; all ten hands present.
    hands = np.column_stack([RNG.integers(1, 5, size=(13, 5)), RNG.integers(1, 14, size=(13, 5))])
    hands = hands[:, [0, 5, 1, 6, 2, 7, 3, 8, 4, 9]]  # S1, C1, S2, C2, ...
    classes = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1, 0])
    lines = [",".join(str(v) for v in row) + f",{c}" for row, c in zip(hands, classes)]
    files[_path("poker", 0)] = ("\n".join(lines[:3]) + "\n").encode()
    files[_path("poker", 1)] = ("\n".join(lines[3:]) + "\n").encode()
    X = hands.astype(float)
    X[:, 0::2] -= 1  # suits 1..4 become codes 0..3
    expected["poker"] = (X, classes, [str(k) for k in range(10)], {j: 4 for j in (0, 2, 4, 6, 8)})

    # Skin: tab-separated B, G, R, label 1 (skin) or 2.
    X = RNG.integers(0, 256, size=(6, 3)).astype(float)
    labs = np.array([1, 1, 2, 2, 2, 1])
    files[_path("skin")] = "".join(
        "\t".join(str(int(v)) for v in row) + f"\t{c}\n" for row, c in zip(X, labs)
    ).encode()
    expected["skin"] = (X, labs - 1, ["1", "2"], {})

    # Higgs, SUSY: label first, written as floats in %.18e like the real files.
    for name, d, rows in (("higgs", 28, 20), ("susy", 18, 8)):
        X = _eighths((rows, d))
        y = RNG.integers(0, 2, size=rows)
        text = "".join(
            ",".join(f"{v:.18e}" for v in (float(lab), *row)) + "\n" for lab, row in zip(y, X)
        )
        files[_path(name)] = _gz(text)
        expected[name] = (X, y, ["0", "1"], {})

    # Hepmass: two files, each with a header line.
    X = _eighths((7, 28))
    y = np.array([1, 0, 1, 1, 0, 0, 1])
    header = "# label," + ",".join(f"f{i}" for i in range(27)) + ",mass\n"
    for k, sl in enumerate((slice(0, 4), slice(4, 7))):
        files[_path("hepmass", k)] = _gz(
            header
            + "".join(
                f"{float(lab)}," + ",".join(f"{v:g}" for v in row) + "\n"
                for lab, row in zip(y[sl], X[sl])
            )
        )
    expected["hepmass"] = (X, y, ["0", "1"], {})

    # Pima (OpenML ARFF).
    pima = (
        "% Pima Indians Diabetes\n@relation pima_diabetes\n"
        + "".join(
            f"@attribute '{a}' numeric\n"
            for a in ("preg", "plas", "pres", "skin", "insu", "mass", "pedi", "age")
        )
        + "@attribute 'class' {tested_negative,tested_positive}\n@data\n"
        "6,148,72,35,0,33.6,0.627,50,tested_positive\n1,85,66,29,0,26.6,0.351,31,tested_negative\n"
        "8,183,64,0,0,23.3,0.672,32,tested_positive\n"
    )
    files[_path("pima")] = pima.encode()
    X = np.array(
        [
            [6, 148, 72, 35, 0, 33.6, 0.627, 50],
            [1, 85, 66, 29, 0, 26.6, 0.351, 31],
            [8, 183, 64, 0, 0, 23.3, 0.672, 32],
        ]
    )
    expected["pima"] = (X, np.array([1, 0, 1]), ["tested_negative", "tested_positive"], {})
    return files, expected


FILES, EXPECTED = _make_fixtures()
AS_SHIPPED = dict(REGISTRY)  # the documented shapes (the mirror fixture puts the fixtures')

#: the rows of each fixture file, in the registry's order of a set's files
FIXTURE_PARTS = {
    "covertype": (7,),
    "covertype_binary": (6,),
    "airlines": (5,),
    "a9a": (5, 3),
    "cod_rna": (3, 4, 2),
    "kdd99": (23,),
    "kdd99_full": (6,),
    "adult_full": (3, 2),
    "poker": (3, 10),
    "skin": (6,),
    "higgs": (20,),
    "susy": (8,),
    "hepmass": (4, 3),
    "pima": (3,),
}


def _documented_as_fixtures(monkeypatch):
    """The registry's documented shapes replaced by the fixture files' (rows, rows of each
    file; no class sizes): a file whose rows differ from the documented ones is an error."""
    for name, parts in FIXTURE_PARTS.items():
        d = REGISTRY[name]
        shape = dict(rows=sum(parts), parts=parts if len(parts) > 1 else (), class_counts=None)
        monkeypatch.setitem(REGISTRY, name, replace(d, **shape))


LOADERS = {
    "covertype": lambda **kw: streams.covertype(**kw),
    "covertype_binary": lambda **kw: streams.covertype(binary=True, **kw),
    "airlines": lambda **kw: streams.airlines(**kw),
    "a9a": lambda **kw: streams.a9a(**kw),
    "cod_rna": lambda **kw: streams.cod_rna(**kw),
    "kdd99": lambda **kw: streams.kdd99(**kw),
    "kdd99_full": lambda **kw: streams.kdd99(full=True, **kw),
    "adult_full": lambda **kw: streams.adult(full=True, **kw),
    "poker": lambda **kw: streams.poker(**kw),
    "skin": lambda **kw: streams.skin(**kw),
    "higgs": lambda **kw: streams.higgs(**kw),
    "susy": lambda **kw: streams.susy(**kw),
    "hepmass": lambda **kw: streams.hepmass(**kw),
    "pima": lambda **kw: streams.pima(**kw),
}


# ------------------------------------------------------------------------------- local server


class _Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        srv = self.server
        path = urlsplit(self.path).path
        srv.hits.append(path)
        if path in srv.redirects:
            self.send_response(302)
            self.send_header("Location", srv.redirects[path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = srv.files.get(path)
        if body is None or path in srv.missing:
            self.send_error(404)
            return
        self.send_response(200)
        if path not in srv.no_length:
            self.send_header("Content-Length", str(len(body)))
        else:
            self.close_connection = True  # the end of the connection ends the body
        if path in srv.content_type:
            self.send_header("Content-Type", srv.content_type[path])
        self.send_header("Content-Disposition", 'attachment; filename="../../escape_header.bin"')
        self.end_headers()
        pause = srv.trickle.get(path)
        if pause is not None:  # a byte now and then, as a server that holds a load for ever
            try:
                for i in range(len(body)):
                    self.wfile.write(body[i : i + 1])
                    self.wfile.flush()
                    time.sleep(pause)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        barrier = srv.hold.get(path)
        if barrier is not None:  # half the file, then wait until every client has asked for it
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            try:
                barrier.wait(timeout=120)
            except threading.BrokenBarrierError:
                pass
            body = body[len(body) // 2 :]
        cut = srv.truncate.get(path)
        self.wfile.write(body if cut is None else body[:cut])
        if cut is not None:
            self.close_connection = True


@pytest.fixture(scope="module")
def server():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.daemon_threads = True
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def mirror(server, monkeypatch, tmp_path):
    """The server with the fixture files, every loader pointed at it, data_home in tmp_path."""
    server.files = dict(FILES)
    server.hits, server.redirects, server.missing, server.truncate = [], {}, set(), {}
    server.hold, server.no_length, server.trickle, server.content_type = {}, set(), {}, {}
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    monkeypatch.setenv("WORKBENCH_DATA_MIRROR", server.url)
    monkeypatch.delenv("WORKBENCH_DATA", raising=False)
    _documented_as_fixtures(monkeypatch)
    return server


@pytest.fixture
def direct(mirror, monkeypatch):
    """The server with no mirror set: every source is tried in the registry's order, the direct
    URLs of the fetcher sets pointing at the server (scikit-learn's and OpenML's hosts are
    pointed at it by each test)."""
    monkeypatch.delenv("WORKBENCH_DATA_MIRROR")
    for name in ("covertype", "kdd99", "kdd99_full", "pima"):
        d = REGISTRY[name]
        files = tuple(replace(f, url=mirror.url + urlsplit(f.url).path) for f in d.files)
        monkeypatch.setitem(REGISTRY, name, replace(d, files=files))
    return mirror


def _quiet(fn, **kw):
    """Call a loader on a fixture file, ignoring DatasetWarnings (class sizes, the rows asked)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", streams.DatasetWarning)
        return fn(**kw)


def _files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


# ------------------------------------------------------------------------------------- loaders


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_loader_downloads_parses_caches_and_reloads_from_the_cache(name, mirror, tmp_path):
    home = tmp_path / "data"
    d = REGISTRY[name]
    X, y, info = _quiet(LOADERS[name], data_home=home, return_info=True, progress=False)
    Xe, ye, class_names, nominal = EXPECTED[name]
    assert X.dtype == np.float64 and y.dtype == np.int64
    np.testing.assert_array_equal(X, Xe)
    np.testing.assert_array_equal(y, ye)
    assert info.class_names == class_names and info.n_features == d.features
    assert info.nominal_features == nominal
    assert [len(info.categories[j]) for j in nominal] == list(nominal.values())
    if d.feature_names:
        assert info.feature_names == list(d.feature_names)
    assert info.params["files"] == [f.member or f.filename for f in d.files]
    assert sum(info.params["parts"].values()) == len(y)
    assert {urlsplit(f.url).path for f in d.files} <= set(mirror.hits)
    folder = home / d.folder
    assert (folder / f"{name}.npz").exists()
    # only the registry's names were written, whatever the server called the file, and beside
    # each file the SHA-256 it arrived with
    raw = [*(g.filename for g in d.files), *(g.member for g in d.files if g.member)]
    written = _files_under(tmp_path)
    assert written == {
        f"data/{d.folder}/{f}" for f in [f"{name}.npz", *raw, *(f"{r}.sha256" for r in raw)]
    }
    for k, g in enumerate(d.files):
        digest = hashlib.sha256(FILES[_path(name, k)]).hexdigest()
        assert (folder / f"{g.filename}.sha256").read_text() == f"{digest}  {g.filename}\n"
        assert info.params["sha256"][g.filename] == digest
    assert info.params["checksum"] == FIRST_DOWNLOAD

    # the second load comes from the cache: no raw files, no server
    for f in d.files:
        (folder / f.filename).unlink()
        if f.member:
            (folder / f.member).unlink()
    mirror.missing = set(mirror.files)
    hits = len(mirror.hits)
    X2, y2, info2 = _quiet(LOADERS[name], data_home=home, return_info=True, download=False)
    assert len(mirror.hits) == hits
    np.testing.assert_array_equal(X2, Xe)
    np.testing.assert_array_equal(y2, ye)
    assert info2.class_names == info.class_names and info2.categories == info.categories
    assert info2.nominal_features == info.nominal_features and info2.params == info.params


def test_cache_is_plain_arrays_and_loads_fast(mirror, tmp_path):
    _quiet(streams.covertype, data_home=tmp_path, progress=False)
    path = tmp_path / "covertype" / "covertype.npz"
    with np.load(path, allow_pickle=False) as npz:
        assert set(npz.files) == {"X", "y", "info"}
        assert all(npz[k].dtype != object for k in npz.files)
        assert npz["X"].dtype == np.float32  # integers round-trip exactly: stored compactly
    mask = os.umask(0)
    os.umask(mask)
    for f in (path, tmp_path / "airlines" / "airlines.arff"):
        if f.name.endswith(".arff"):
            _quiet(streams.airlines, data_home=tmp_path)
        assert f.stat().st_mode & 0o777 == 0o666 & ~mask  # readable by whoever shares the folder


def test_shuffle_gives_the_seeds_permutation(mirror, tmp_path):
    X, y = _quiet(streams.poker, data_home=tmp_path)
    a = _quiet(streams.poker, data_home=tmp_path, shuffle=True, seed=3)
    b = _quiet(streams.poker, data_home=tmp_path, shuffle=True, seed=3)
    c = _quiet(streams.poker, data_home=tmp_path, shuffle=True, seed=4)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    perm = np.random.default_rng(3).permutation(len(y))
    np.testing.assert_array_equal(a[0], X[perm])
    np.testing.assert_array_equal(a[1], y[perm])
    Xs, ys = streams.electricity(shuffle=True, seed=3)
    Xe, ye = streams.electricity()
    np.testing.assert_array_equal(Xs, Xe[np.random.default_rng(3).permutation(len(ye))])


@pytest.mark.parametrize("name", ["higgs", "susy", "hepmass", "kdd99_full"])
def test_n_reads_only_the_first_rows(name, mirror, tmp_path):
    Xe, ye, _, _ = EXPECTED[name]
    n = 5
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a prefix is not checked for row count
        X, y = LOADERS[name](data_home=tmp_path, n=n)
    np.testing.assert_array_equal(X, Xe[:n])
    np.testing.assert_array_equal(y, ye[:n])
    folder = tmp_path / REGISTRY[name].folder
    assert (folder / f"{name}_first{n}.npz").exists() and not (folder / f"{name}.npz").exists()
    _quiet(LOADERS[name], data_home=tmp_path)  # the whole set, cached
    for f in REGISTRY[name].files:
        (folder / f.filename).unlink()
    X3, y3 = LOADERS[name](data_home=tmp_path, n=3, download=False)  # sliced from the whole cache
    np.testing.assert_array_equal(X3, Xe[:3])
    with pytest.warns(streams.DatasetWarning, match="asked for the first 1,000 rows"):
        X_all, y_all = LOADERS[name](data_home=tmp_path, n=1000, download=False)
    assert len(y_all) == len(ye)
    with pytest.raises(ValueError, match="n= is for the large sets"):
        remote.fetch("skin", tmp_path, n=5)


# ------------------------------------------------------------------------- checks and warnings


@pytest.mark.parametrize("name", ["covertype", "airlines", "adult_full", "poker"])
def test_rows_differing_from_the_documented_ones_are_an_error_and_nothing_is_kept(
    name, mirror, tmp_path, monkeypatch
):
    """A file cut short at a line boundary parses: only its row count tells.  Where the
    registry documents more rows than arrived the load fails, and the download is removed
    (a later load would otherwise find it, checked against the sum it arrived with)."""
    d = REGISTRY[name]
    more = tuple(k + 1 for k in FIXTURE_PARTS[name])
    monkeypatch.setitem(
        REGISTRY, name, replace(d, rows=sum(more), parts=more if len(more) > 1 else ())
    )
    with pytest.raises(ValueError, match="where .*source documents") as exc:
        LOADERS[name](data_home=tmp_path, progress=False)
    assert d.files[0].member or d.files[0].filename in str(exc.value)
    assert _files_under(tmp_path) == set()


def test_class_sizes_differing_from_the_documented_ones_warn(mirror, tmp_path, monkeypatch):
    d = REGISTRY["covertype"]
    counts = (2, 1, 1, 1, 1, 0, 1)
    monkeypatch.setitem(REGISTRY, "covertype", replace(d, class_counts=counts))
    with pytest.warns(streams.DatasetWarning) as record:
        X, y = streams.covertype(data_home=tmp_path)
    messages = [str(w.message) for w in record]
    assert any(
        "class sizes [1, 1, 1, 1, 1, 1, 1] where the source documents [2, 1, 1, 1, 1, 0, 1]" in m
        for m in messages
    )
    assert len(y) == 7  # the data is still returned


def test_a_file_with_the_documented_shape_loads_without_warnings(mirror, tmp_path, monkeypatch):
    d = REGISTRY["skin"]
    monkeypatch.setitem(REGISTRY, "skin", replace(d, rows=6, class_counts=(3, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        X, y = streams.skin(data_home=tmp_path)
    assert np.bincount(y).tolist() == [3, 3]


@pytest.mark.parametrize(
    "name, body, match",
    [
        (
            "covertype",
            _gz("1,2,3,4\n5,6,7,1\n"),
            "has 4 columns where covertype's source documents 55",
        ),
        (
            "skin",
            b"1\t2\t3\t4\t1\n5\t6\t7\t8\t2\n",
            "has 5 columns where skin's source documents 4",
        ),
        (
            "covertype",
            _gz("".join(",".join(["1"] * 54) + ",8\n" for _ in range(3))),
            r"class value\(s\) \[8.0\] are not among the documented 7",
        ),
        ("a9a", b"+1 1:1 124:1\n", "124 feature columns where 123 are expected"),
        (
            "adult_full",
            b"39, State-gov, 77516, Bachelors, 13, <=50K\n",
            "6 fields where adult's source documents 15",
        ),
        (
            "pima",
            b"@relation p\n@attribute a numeric\n@attribute class {x,y,z}\n@data\n1,x\n",
            "1 feature attributes where pima's source documents 8",
        ),
    ],
)
def test_wrong_column_or_class_count_is_an_error_and_nothing_is_cached(
    name, body, match, mirror, tmp_path, monkeypatch
):
    mirror.files[_path(name)] = body
    d = REGISTRY[name]
    if d.fmt in ("csv", "libsvm"):  # the rows are as documented: the columns are wrong
        lines = (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).count(b"\n")
        parts = (lines, *d.parts[1:]) if d.parts else ()
        monkeypatch.setitem(REGISTRY, name, replace(d, rows=sum(parts) or lines, parts=parts))
    with pytest.raises(ValueError, match=match):
        _quiet(LOADERS[name], data_home=tmp_path)
    assert _files_under(tmp_path) == set()  # the download that failed is not kept either


def test_truncated_download_is_an_error_and_leaves_no_file(mirror, tmp_path):
    path = _path("covertype")
    mirror.truncate[path] = 40
    with pytest.raises(DownloadError, match=r"truncated: 40 of [\d,]+ bytes") as exc:
        streams.covertype(data_home=tmp_path, progress=False)
    assert "covtype.data.gz" in str(exc.value) and str(tmp_path / "covertype") in str(exc.value)
    assert _files_under(tmp_path) == set()
    del mirror.truncate[path]
    X, _ = _quiet(streams.covertype, data_home=tmp_path)  # a retry works
    np.testing.assert_array_equal(X, EXPECTED["covertype"][0])


@pytest.mark.parametrize("name, n", [("skin", None), ("cod_rna", None), ("higgs", 5)])
def test_a_download_cut_at_a_line_boundary_without_content_length_is_refused(
    name, n, mirror, tmp_path
):
    """No Content-Length, and the connection ends after some whole lines: the file parses, so
    its lines are counted against the documented rows before it is used, also when ``n=``
    reads only the first rows of a large set."""
    body = FILES[_path(name)]
    text = gzip.decompress(body) if name == "higgs" else body
    cut = b"".join(text.splitlines(keepends=True)[: FIXTURE_PARTS[name][0] // 2])
    mirror.files[_path(name)] = gzip.compress(cut) if name == "higgs" else cut
    mirror.no_length.add(_path(name))
    kw = {} if n is None else {"n": n}
    with pytest.raises(ValueError, match="lines where .* documents .* rows.*download was removed"):
        LOADERS[name](data_home=tmp_path, progress=False, **kw)
    assert _files_under(tmp_path) == set()
    mirror.files[_path(name)] = body  # the whole file, still without a Content-Length, loads
    X, y = LOADERS[name](data_home=tmp_path, progress=False, **kw)
    np.testing.assert_array_equal(X, EXPECTED[name][0][:n])


@pytest.mark.parametrize("size", ["below the byte bound", "above the byte bound"])
def test_junk_from_a_mirror_is_refused_before_it_is_parsed(size, mirror, tmp_path):
    """Junk in the file's place: past the bytes its documented rows can take the download
    stops; below that, its lines are counted before it is parsed.  Nothing is kept."""
    rows = 5_000 if size == "below the byte bound" else 200_000  # 6 rows documented
    mirror.files[_path("skin")] = b"1\t2\t3\t1\n" * rows
    mirror.no_length.add(_path("skin"))
    error = ValueError if size == "below the byte bound" else DownloadError
    match = "more than 16 lines" if rows == 5_000 else "more .* than the [\\d,]+ bytes"
    with pytest.raises(error, match=match):
        streams.skin(data_home=tmp_path, progress=False)
    assert _files_under(tmp_path) == set()


def test_a_download_shorter_than_its_recorded_size_is_refused(mirror, tmp_path, monkeypatch):
    d = REGISTRY["skin"]
    body = FILES[_path("skin")]
    f = replace(d.files[0], size=len(body) + 10)
    monkeypatch.setitem(REGISTRY, "skin", replace(d, files=(f,)))
    mirror.no_length.add(_path("skin"))
    with pytest.raises(DownloadError, match=f"{len(body):,} of its documented {len(body) + 10:,}"):
        streams.skin(data_home=tmp_path, progress=False)
    assert _files_under(tmp_path) == set()


def test_a_server_sending_a_byte_now_and_then_is_abandoned(mirror, tmp_path, monkeypatch):
    """The timeout is per read: a byte every 0.2 s never trips it.  The download has a
    deadline (here 1.5 s, from the environment) after which it must average 64 KiB/s."""
    monkeypatch.setenv("WORKBENCH_DOWNLOAD_DEADLINE", "1.5")
    mirror.trickle[_path("skin")] = 0.2
    start = time.monotonic()
    with pytest.raises(DownloadError, match=r"abandoned after \d+ s with \d+ bytes.*1\.5 s"):
        streams.skin(data_home=tmp_path, progress=False)
    assert time.monotonic() - start < 10
    assert _files_under(tmp_path) == set()


@pytest.mark.parametrize("content_type", ["text/html; charset=utf-8", None])
def test_a_web_page_in_place_of_the_file_is_refused_and_not_kept(content_type, mirror, tmp_path):
    page = b"<!DOCTYPE html>\n<html><body>Please log in</body></html>\n"
    mirror.files[_path("skin")] = page
    if content_type:
        mirror.content_type[_path("skin")] = content_type
    with pytest.raises(DownloadError, match="sent a web page .* instead of Skin_NonSkin.txt"):
        streams.skin(data_home=tmp_path, progress=False)
    assert _files_under(tmp_path) == set()


def test_a_part_file_left_by_a_killed_download_is_removed(mirror, tmp_path):
    folder = tmp_path / "skin"
    folder.mkdir()
    stale, live = folder / "Skin_NonSkin.txt.k1ll3d.part", folder / "Skin_NonSkin.txt.l1ve.part"
    for part in (stale, live):
        part.write_bytes(b"1\t2\t")
    an_hour_ago = time.time() - 3600
    os.utime(stale, (an_hour_ago, an_hour_ago))  # nobody has written to it for an hour
    streams.skin(data_home=tmp_path, progress=False)
    assert not stale.exists() and live.exists()  # another process may still be writing that one


@pytest.mark.parametrize(
    "variable, value, match",
    [
        (
            "WORKBENCH_DATA",
            "~nosuchuser_wb/x",
            r"\$WORKBENCH_DATA = '~nosuchuser_wb/x' names no folder",
        ),
        (
            "WORKBENCH_DATA_MIRROR",
            "not a url",
            r"\$WORKBENCH_DATA_MIRROR = 'not a url' is not a URL",
        ),
        ("WORKBENCH_DATA_MIRROR", "ftp://host/x", "must start with http:// or https://"),
        ("WORKBENCH_DOWNLOAD_DEADLINE", "soon", "not a positive number of seconds"),
    ],
)
def test_a_malformed_environment_variable_is_named(
    variable, value, match, mirror, monkeypatch, tmp_path
):
    monkeypatch.setenv("WORKBENCH_DATA", str(tmp_path))
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValueError, match=match):
        streams.skin(progress=False)
    assert mirror.hits == []


def test_damaged_raw_file_is_an_error_naming_it(mirror, tmp_path):
    folder = tmp_path / "higgs"
    folder.mkdir()
    (folder / "HIGGS.csv.gz").write_bytes(FILES[_path("higgs")][:60])  # a truncated gzip
    with pytest.raises(ValueError, match="HIGGS.csv.gz is not a complete .gz file.*delete it"):
        streams.higgs(data_home=tmp_path)
    assert _files_under(tmp_path) == {"higgs/HIGGS.csv.gz"}


@pytest.mark.parametrize("damage", ["truncate", "pickle", "garbage"])
def test_damaged_cache_is_a_clear_error_and_refresh_rebuilds_it(damage, mirror, tmp_path):
    _quiet(streams.skin, data_home=tmp_path)
    cache = tmp_path / "skin" / "skin.npz"
    if damage == "truncate":
        cache.write_bytes(cache.read_bytes()[:100])
    elif damage == "pickle":  # an object array is stored as a pickle: must never be loaded
        np.savez(
            cache,
            X=np.array([{"a": 1}], dtype=object),
            y=np.zeros(1, np.int64),
            info=np.zeros(1, np.uint8),
        )
    else:
        cache.write_bytes(b"not a zip file at all")
    with pytest.raises(_cache.CacheError, match="skin.npz is damaged.*refresh=True"):
        streams.skin(data_home=tmp_path)
    X, y = _quiet(streams.skin, data_home=tmp_path, refresh=True)
    np.testing.assert_array_equal(X, EXPECTED["skin"][0])
    X2, _ = _quiet(streams.skin, data_home=tmp_path)
    np.testing.assert_array_equal(X2, X)
    assert not any(w.endswith(".tmp") for w in _files_under(tmp_path))


# ------------------------------------------------------------------------------------- offline


def test_download_false_names_url_file_and_folder(mirror, tmp_path):
    with pytest.raises(FileNotFoundError) as exc:
        streams.a9a(data_home=tmp_path, download=False)
    text = str(exc.value)
    assert REGISTRY["a9a"].files[0].url in text
    assert "as a9a" in text and str(tmp_path / "a9a") in text
    assert mirror.hits == []


def test_server_404_names_url_file_and_folder(mirror, tmp_path):
    mirror.missing = {_path("airlines")}
    with pytest.raises(DownloadError) as exc:
        streams.airlines(data_home=tmp_path, progress=False)
    text = str(exc.value)
    f = REGISTRY["airlines"].files[0]
    assert "HTTP 404" in text and mirror.url + _path("airlines") in text
    assert f.url in text and "airlines.arff.zip" in text and str(tmp_path / "airlines") in text
    assert _files_under(tmp_path) == set()


def test_a_file_put_there_by_hand_is_found_checked_and_used(mirror, tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_DATA", str(tmp_path))  # data_home from the environment
    (tmp_path / "skin").mkdir()
    (tmp_path / "skin" / "Skin_NonSkin.txt").write_bytes(FILES[_path("skin")])
    (tmp_path / "airlines").mkdir()  # the unzipped ARFF also counts
    with zipfile.ZipFile(io.BytesIO(FILES[_path("airlines")])) as zf:
        (tmp_path / "airlines" / "airlines.arff").write_bytes(zf.read(zf.namelist()[0]))
    X, y = _quiet(streams.skin, download=False)
    np.testing.assert_array_equal(X, EXPECTED["skin"][0])
    X, y = _quiet(streams.airlines, download=False)
    np.testing.assert_array_equal(X, EXPECTED["airlines"][0])
    assert mirror.hits == []
    table = streams.list_datasets().set_index("name")
    assert table.loc["skin", "cached"] and table.loc["skin", "raw"] == ["Skin_NonSkin.txt"]
    # read successfully once: from now on its SHA-256 is recorded and checked
    digest = hashlib.sha256(FILES[_path("skin")]).hexdigest()
    assert table.loc["skin", "sha256"] == {"Skin_NonSkin.txt": digest}
    assert (tmp_path / "skin" / "Skin_NonSkin.txt.sha256").read_text().split()[0] == digest


def test_data_home_default_is_home_workbench_data(monkeypatch):
    from workbench.streams._download import data_home

    monkeypatch.delenv("WORKBENCH_DATA", raising=False)
    assert data_home() == Path("~/workbench_data").expanduser()
    assert data_home("/x/y") == Path("/x/y")


@pytest.mark.parametrize(
    "location, allowed",
    [
        ("http://example.invalid/covtype.data.gz", False),  # another host: never contacted
        ("/ml/../../etc/covtype.data.gz", False),  # a path climbing with '..'
        ("/ml/%2e%2e/etc/covtype.data.gz", False),
        ("file:///etc/passwd", False),
        ("/elsewhere/covtype.data.gz", True),  # same host: followed
    ],
)
def test_redirects_only_to_the_same_host_without_dot_dot(location, allowed, mirror, tmp_path):
    path = _path("covertype")
    mirror.redirects[path] = location
    mirror.files["/elsewhere/covtype.data.gz"] = FILES[path]
    if allowed:
        X, _ = _quiet(streams.covertype, data_home=tmp_path)
        np.testing.assert_array_equal(X, EXPECTED["covertype"][0])
        assert mirror.hits == [path, "/elsewhere/covtype.data.gz"]
    else:
        with pytest.raises(DownloadError, match="refused a redirect|Redirection to url 'file:"):
            streams.covertype(data_home=tmp_path)
        assert mirror.hits == [path]
        assert _files_under(tmp_path) == set()


def test_nothing_is_written_outside_data_home(mirror, tmp_path):
    home = tmp_path / "inner" / "home"
    _quiet(streams.airlines, data_home=home)  # zip member "../../escape_airlines.arff"
    assert _files_under(tmp_path) == {
        "inner/home/airlines/airlines.arff.zip",
        "inner/home/airlines/airlines.arff.zip.sha256",
        "inner/home/airlines/airlines.arff",
        "inner/home/airlines/airlines.arff.sha256",
        "inner/home/airlines/airlines.npz",
    }


def test_progress_bar_only_when_asked(mirror, tmp_path, capsys):
    _quiet(streams.skin, data_home=tmp_path / "a", progress=False)
    assert capsys.readouterr().err == ""
    _quiet(streams.skin, data_home=tmp_path / "b", progress=True)
    assert "Skin_NonSkin.txt" in capsys.readouterr().err


# ------------------------------------------------------------------------------ table, small sets


def test_list_datasets_lists_every_set_and_what_is_cached(mirror, tmp_path, monkeypatch):
    for name in ("a9a", "cod_rna", "kdd99", "kdd99_full"):
        monkeypatch.setitem(REGISTRY, name, AS_SHIPPED[name])
    table = streams.list_datasets(data_home=tmp_path)
    assert list(table.columns) == [
        "name",
        "call",
        "title",
        "rows",
        "features",
        "classes",
        "source",
        "sources",
        "version",
        "licence",
        "citation",
        "papers",
        "notes",
        "cached",
        "raw",
        "sha256",
        "checksum",
        "folder",
    ]
    assert set(table.name) == set(REGISTRY) | {"electricity", "adult", "breast_cancer"}
    t = table.set_index("name")
    assert t.loc["a9a", ["rows", "features", "classes"]].tolist() == [48_842, 123, 2]
    assert t.loc["cod_rna", "rows"] == 59_535 + 271_617 + 157_413 == 488_565
    assert t.loc["kdd99", "classes"] == 23 and t.loc["kdd99_full", "rows"] == 4_898_431
    assert not t.loc["a9a", "cached"] and t.loc["breast_cancer", "cached"]
    assert all(
        t.loc[n, "citation"] and t.loc[n, "licence"] and t.loc[n, "version"] for n in REGISTRY
    )
    _documented_as_fixtures(monkeypatch)
    _quiet(streams.a9a, data_home=tmp_path)
    t = streams.list_datasets(data_home=tmp_path).set_index("name")
    assert t.loc["a9a", "cached"] and t.loc["a9a", "raw"] == ["a9a", "a9a.t"]


def test_registry_shapes_agree_with_000_table_i():
    table_i = {
        "a9a": (123, 48_842, 11_687),
        "airlines": (7, 539_383, 240_264),
        "cod_rna": (8, 488_565, 162_855),
        "covertype_binary": (54, 581_012, 283_301),
    }
    for name, (dim, rows, plus) in table_i.items():
        d = REGISTRY[name]
        assert (d.features, d.rows) == (dim, rows) and plus in d.class_counts
        assert sum(d.class_counts) == rows
        assert not d.parts or sum(d.parts) == rows
    for d in REGISTRY.values():
        assert len(d.feature_names) in (0, d.features)
        assert d.class_counts is None or (
            len(d.class_counts) == len(d.classes) and sum(d.class_counts) == d.rows
        )


def test_breast_cancer_needs_no_download():
    X, y, info = streams.breast_cancer(return_info=True)
    assert X.shape == (569, 30) and X.dtype == np.float64 and y.dtype == np.int64
    assert info.n_classes == 2 and info.class_names == ["malignant", "benign"]
    assert np.bincount(y).tolist() == [212, 357]
    X2, y2 = streams.load("breast_cancer")
    np.testing.assert_array_equal(X, X2)


def test_shipped_adult_is_unchanged():
    X, y = streams.adult()
    assert X.shape == (30_162, 14) and np.bincount(y).tolist() == [22_654, 7_508]


def test_read_libsvm_pads_and_rejects():
    import tempfile

    path = Path(tempfile.mkdtemp()) / "t.libsvm"
    path.write_text("2 1:1.5 3:2\n1 2:-1\n")
    X, y, info = streams.read_libsvm(path, n_features=5, return_info=True)
    np.testing.assert_array_equal(X, [[1.5, 0, 2, 0, 0], [0, -1, 0, 0, 0]])
    assert y.tolist() == [1, 0] and info.class_names == ["1", "2"]
    with pytest.raises(ValueError, match="3 feature columns where 2 are expected"):
        streams.read_libsvm(path, n_features=2)
    with pytest.raises(ValueError, match="not among the expected classes"):
        streams.read_libsvm(path, classes=(1, 3))


# -------------------------------------------------------------- checksums, sources, concurrency


def test_a_file_that_changes_after_its_download_is_an_error_naming_both_sums(mirror, tmp_path):
    X, _ = _quiet(streams.skin, data_home=tmp_path)
    raw = tmp_path / "skin" / "Skin_NonSkin.txt"
    before = hashlib.sha256(raw.read_bytes()).hexdigest()
    table = streams.list_datasets(data_home=tmp_path).set_index("name")
    assert table.loc["skin", "sha256"] == {"Skin_NonSkin.txt": before}
    assert table.loc["skin", "checksum"] == FIRST_DOWNLOAD
    lines = raw.read_bytes().splitlines(keepends=True)
    raw.write_bytes(b"".join([b"1\t2\t3\t1\n", *lines[1:]]))  # damaged on disk, or replaced
    after = hashlib.sha256(raw.read_bytes()).hexdigest()
    with pytest.raises(ChecksumError) as exc:
        streams.skin(data_home=tmp_path, refresh=True)
    message = str(exc.value)
    assert before in message and after in message and str(raw) in message
    assert "Skin_NonSkin.txt.sha256" in message
    X2, _ = _quiet(streams.skin, data_home=tmp_path)  # the cache built from the download
    np.testing.assert_array_equal(X2, X)
    (tmp_path / "skin" / "Skin_NonSkin.txt.sha256").unlink()  # accept the file as it is now
    X3, _ = _quiet(streams.skin, data_home=tmp_path, refresh=True)
    assert X3[0].tolist() == [1, 2, 3] and np.array_equal(X3[1:], X[1:])
    assert (tmp_path / "skin" / "Skin_NonSkin.txt.sha256").read_text().split()[0] == after


LOAD_SKIN = """
import sys, warnings
from dataclasses import replace
warnings.simplefilter("ignore")
from workbench import streams
from workbench.streams.registry import REGISTRY
REGISTRY["skin"] = replace(REGISTRY["skin"], rows=20_000, class_counts=None)
X, y = streams.skin(data_home=sys.argv[1], progress=False)
print("LOADED", X.shape[0], repr(float(X.sum())), int(y.sum()))
"""


def test_two_processes_loading_the_same_set_at_once_share_no_download_file(mirror, tmp_path):
    """The server sends each process half of the file, then waits until both have asked for it:
    the two downloads overlap.  Each writes a temporary file of its own and renames it into
    place; both processes load the data set, and nothing is left half-written."""
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 256, size=(20_000, 3))
    labels = rng.integers(1, 3, size=20_000)
    body = "".join(f"{b}\t{g}\t{r}\t{c}\n" for (b, g, r), c in zip(rows, labels)).encode()
    mirror.files[_path("skin")] = body
    mirror.hold[_path("skin")] = threading.Barrier(2)
    env = dict(os.environ, WORKBENCH_DATA_MIRROR=mirror.url)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", LOAD_SKIN, str(tmp_path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=600) for p in procs]
    for p, (_, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
    assert mirror.hits.count(_path("skin")) == 2  # both downloaded, at once
    expected = f"LOADED 20000 {float(rows.sum())!r} {int((labels - 1).sum())}"
    assert [out.strip().splitlines()[-1] for out, _ in outs] == [expected, expected]
    folder = tmp_path / "skin"
    assert (folder / "Skin_NonSkin.txt").read_bytes() == body
    digest = hashlib.sha256(body).hexdigest()
    assert (folder / "Skin_NonSkin.txt.sha256").read_text() == f"{digest}  Skin_NonSkin.txt\n"
    assert _files_under(folder) == {"Skin_NonSkin.txt", "Skin_NonSkin.txt.sha256", "skin.npz"}


def test_list_datasets_names_the_sources_in_the_order_they_are_tried(mirror, monkeypatch):
    from workbench.streams._fetchers import describe

    table = streams.list_datasets().set_index("name")  # with the mirror: only its copies
    assert table.loc["covertype", "sources"] == [
        mirror.url + _path("covertype") + " ($WORKBENCH_DATA_MIRROR)"
    ]
    monkeypatch.delenv("WORKBENCH_DATA_MIRROR")
    table = streams.list_datasets().set_index("name")
    d = REGISTRY
    assert table.loc["covertype", "sources"] == [
        describe("sklearn:fetch_covtype"),
        d["covertype"].files[0].url,
    ]
    assert table.loc["kdd99", "sources"][0].startswith(
        "scikit-learn's copy for sklearn.datasets.fetch_kddcup99 "
    )
    assert table.loc["pima", "sources"][0].startswith("OpenML data id 37")
    assert table.loc["a9a", "sources"] == [" + ".join(f.url for f in d["a9a"].files)]
    assert table.loc["electricity", "sources"] == ["inside the package (workbench/streams/data)"]
    assert all(len(table.loc[n, "sources"]) == 1 + bool(REGISTRY[n].fetcher) for n in REGISTRY)


# ---------------------------------------------------------------------- well-kept fetchers first


def _point_sklearn_at(monkeypatch, server, module: str, name: str, body: bytes, checksum=None):
    """scikit-learn's record of a file (its URL and SHA-256) pointed at the local server, where
    the URL redirects to another host name of the server (as figshare sends to its CDN)."""
    import importlib

    from sklearn.datasets._base import RemoteFileMetadata

    mod = importlib.import_module(module)
    old = getattr(mod, name)
    path, cdn = f"/figshare/{old.filename}", f"/cdn/{old.filename}"
    server.files[cdn] = body
    port = server.server_address[1]
    server.redirects[path] = f"http://localhost:{port}{cdn}"
    digest = checksum or hashlib.sha256(body).hexdigest()
    monkeypatch.setattr(mod, name, RemoteFileMetadata(old.filename, server.url + path, digest))
    return path, digest


def _same_load(a, b):
    (Xa, ya, ia), (Xb, yb, ib) = a, b
    np.testing.assert_array_equal(Xa, Xb)
    np.testing.assert_array_equal(ya, yb)
    assert ia.feature_names == ib.feature_names and ia.class_names == ib.class_names
    assert ia.nominal_features == ib.nominal_features and ia.categories == ib.categories


@pytest.mark.parametrize(
    "name, module, record",
    [
        ("covertype", "sklearn.datasets._covtype", "ARCHIVE"),
        ("kdd99", "sklearn.datasets._kddcup99", "ARCHIVE_10_PERCENT"),
        ("kdd99_full", "sklearn.datasets._kddcup99", "ARCHIVE"),
    ],
)
def test_scikit_learns_copy_comes_first_checked_against_its_published_sha256(
    name, module, record, direct, monkeypatch, tmp_path
):
    """The file at the URL scikit-learn's fetcher uses (pointed at the local server, which
    redirects it to another host as a CDN would), checked against the SHA-256 in scikit-learn's
    record, is the first source; it gives what the same bytes from the direct URL give."""
    body = FILES[_path(name)]
    path, digest = _point_sklearn_at(monkeypatch, direct, module, record, body)
    via_sklearn = _quiet(LOADERS[name], data_home=tmp_path / "a", return_info=True)
    assert path in direct.hits and _path(name) not in direct.hits
    info = via_sklearn[2]
    filename = REGISTRY[name].files[0].filename
    assert info.params["loaded_from"] == direct.url + path
    assert info.params["sha256"] == {filename: digest}
    assert info.params["checksum"] == remote.PUBLISHED_BY_SKLEARN
    folder = tmp_path / "a" / REGISTRY[name].folder
    assert _files_under(folder) == {f"{name}.npz", filename, f"{filename}.sha256"}
    row = streams.list_datasets(data_home=tmp_path / "a").set_index("name").loc[name]
    assert row["sha256"] == {filename: digest} and row["checksum"] == remote.PUBLISHED_BY_SKLEARN
    monkeypatch.setenv("WORKBENCH_DATA_MIRROR", direct.url)  # the same bytes from the direct URL
    via_url = _quiet(LOADERS[name], data_home=tmp_path / "b", return_info=True)
    assert via_url[2].params["loaded_from"] == direct.url + _path(name)
    assert via_url[2].params["sha256"] == {filename: digest}
    _same_load(via_sklearn, via_url)


PIMA_FEATURES = ("preg", "plas", "pres", "skin", "insu", "mass", "pedi", "age")


def _point_openml_at(monkeypatch, server, md5=None):
    """OpenML's JSON description of data id 37 and its data file served by the local server, and
    fetch_openml's opener sending every request there (the path unchanged)."""
    import json

    import sklearn.datasets._openml as openml

    arff = FILES[_path("pima")]
    column = dict(is_target="false", is_ignore="false", is_row_identifier="false")
    features = [
        dict(index=str(i), name=f, data_type="numeric", number_of_missing_values="0", **column)
        for i, f in enumerate(PIMA_FEATURES)
    ]
    features.append(
        dict(
            column,
            index="8",
            name="class",
            data_type="nominal",
            nominal_value=["tested_negative", "tested_positive"],
            number_of_missing_values="0",
            is_target="true",
        )
    )
    description = dict(
        id="37",
        name="diabetes",
        description="Pima Indians Diabetes Database",
        version="1",
        format="ARFF",
        file_id="37",
        status="active",
        default_target_attribute="class",
        url="https://api.openml.org" + _path("pima"),
        md5_checksum=md5 or hashlib.md5(arff).hexdigest(),
    )
    api = "/api/v1/json/data/"
    server.files[api + "37"] = json.dumps({"data_set_description": description}).encode()
    server.files[api + "features/37"] = json.dumps(
        {"data_features": {"feature": features}}
    ).encode()
    qualities = {"quality": [{"name": "NumberOfInstances", "value": "3.0"}]}
    server.files[api + "qualities/37"] = json.dumps({"data_qualities": qualities}).encode()
    real = openml.urlopen

    def to_local(request, *args, **kwargs):
        parts = urlsplit(request.full_url)
        request.full_url = server.url + parts.path + (f"?{parts.query}" if parts.query else "")
        return real(request, *args, **kwargs)

    monkeypatch.setattr(openml, "urlopen", to_local)
    return hashlib.sha256(arff).hexdigest()


def test_openml_fetcher_comes_first_for_pima_and_gives_what_the_file_gives(
    direct, monkeypatch, tmp_path
):
    digest = _point_openml_at(monkeypatch, direct)
    with warnings.catch_warnings():
        warnings.filterwarnings("error", ".*failed", streams.DatasetWarning)  # no fallback
        via_fetcher = _quiet_except_fallback(
            streams.pima, data_home=tmp_path / "a", return_info=True
        )
    assert "/api/v1/json/data/37" in direct.hits
    info = via_fetcher[2]
    assert info.params["loaded_from"] == "OpenML data id 37 (fetch_openml)"
    assert info.params["sha256"] == {"diabetes.arff": digest}
    assert "MD5 published by OpenML" in info.params["checksum"]
    assert _files_under(tmp_path / "a" / "pima") == {"pima.npz"}  # its cache went with it
    Xe, ye, classes, _ = EXPECTED["pima"]
    np.testing.assert_array_equal(via_fetcher[0], Xe)
    np.testing.assert_array_equal(via_fetcher[1], ye)
    monkeypatch.setenv("WORKBENCH_DATA_MIRROR", direct.url)
    via_url = _quiet(streams.pima, data_home=tmp_path / "b", return_info=True)
    assert via_url[2].params["sha256"] == {"diabetes.arff": digest}  # the same file, one sum
    _same_load(via_fetcher, via_url)


@pytest.mark.parametrize("name", ["covertype", "pima"])
def test_a_failing_fetcher_falls_back_to_the_direct_url(name, direct, monkeypatch, tmp_path):
    """A fetcher whose checksum does not match what it downloaded (scikit-learn's SHA-256,
    OpenML's MD5) fails; the loader says so in a warning and downloads the direct URL."""
    if name == "covertype":
        body = FILES[_path("covertype")]
        _point_sklearn_at(
            monkeypatch, direct, "sklearn.datasets._covtype", "ARCHIVE", body, "0" * 64
        )
        what = "fetch_covtype"
    else:
        _point_openml_at(monkeypatch, direct, md5="0" * 32)
        what = "OpenML data id 37"
    with pytest.warns(streams.DatasetWarning, match=f"{what}.* failed .*downloading"):
        X, y, info = _quiet_except_fallback(LOADERS[name], data_home=tmp_path, return_info=True)
    assert info.params["loaded_from"] == direct.url + _path(name)
    assert _path(name) in direct.hits
    np.testing.assert_array_equal(X, EXPECTED[name][0])
    np.testing.assert_array_equal(y, EXPECTED[name][1])
    folder = tmp_path / REGISTRY[name].folder
    filename = REGISTRY[name].files[0].filename
    assert _files_under(folder) == {f"{name}.npz", filename, f"{filename}.sha256"}


def _quiet_except_fallback(fn, **kw):
    """Call a loader keeping only the fallback's warning (the fixture's row count differs)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "(?s).*(rows where|class sizes)", streams.DatasetWarning)
        warnings.filterwarnings("ignore", "Invalid cache, redownloading", RuntimeWarning)  # OpenML
        return fn(**kw)
