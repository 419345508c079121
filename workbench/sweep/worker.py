"""What a worker process does with a cell: build the stream from its seed, build the learner,
run the protocol, measure, and return one row of plain Python values.

The same functions run in the calling process (``backend="serial"``), in local worker
processes and on Dask workers.  A cell that raises gives a row with its ``error`` filled in;
only the death of the process itself (a crash in compiled code, the out-of-memory killer) is
left to the backends.

Before the first cell of a learner class, a process runs that class once on a tiny stream so
that numba loads the kernels from its on-disk cache (compiling them only if the cache is cold)
and the first cell's ``seconds`` measure learning, not loading.  When the cache is cold, one
process compiles while the others on the same machine wait for it (a lock file), so that the
kernels are compiled once and not once per worker.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import math
import os
import socket
import tempfile
import time
import traceback

import numpy as np

from .cells import (
    CLASS_METRICS,
    Cell,
    FunctionCell,
    curve_sample,
    fresh,
    resolve_learner,
    resolve_name,
    resolve_stream,
    to_json,
)

_warmed: set = set()
_WORKER = f"{socket.gethostname()}:{os.getpid()}"


def run_chunk(cells: list) -> list[dict]:
    """Rows of several cells, run one after the other (the unit a backend ships)."""
    return [
        run_function_cell(cell) if isinstance(cell, FunctionCell) else run_cell(cell)
        for cell in cells
    ]


#: the columns of a function cell's row besides the function's own results
FUNCTION_HEAD = ["cell_id", "function", "kwargs", "seed"]
FUNCTION_TAIL = ["error", "cell_seconds", "cpu_seconds", "worker", "finished"]


def run_function_cell(cell: FunctionCell) -> dict:
    """The row of one :class:`FunctionCell`: the bookkeeping columns and the function's
    results under ``"results"`` (never raises an ``Exception``)."""
    start, cpu = time.perf_counter(), time.process_time()
    row = describe_row(cell)
    try:
        fn = resolve_name(cell.function, "function")
        out = fn(seed=cell.seed, **fresh(cell.kwargs))
        if not hasattr(out, "items"):
            raise TypeError(f"{cell.function} returned {type(out).__name__}, not a dict")
        clash = [k for k in out if k in FUNCTION_HEAD + FUNCTION_TAIL]
        if clash:
            raise ValueError(f"{cell.function} returned keys {clash} that name bookkeeping columns")
        row["results"] = dict(out)
    except Exception as exc:  # noqa: BLE001 (recorded)
        row["error"] = describe_error(exc)
    return _finished(row, start, cpu)


def run_cell(cell: Cell) -> dict:
    """The results row of one cell (never raises an ``Exception``)."""
    from .. import evaluate

    global _WORKER
    _WORKER = f"{socket.gethostname()}:{os.getpid()}"  # a forked worker has its own pid
    start, cpu = time.perf_counter(), time.process_time()
    row = describe_row(cell)
    try:
        fn = resolve_stream(cell.stream)
        kwargs = dict(cell.stream_kwargs)
        if cell.seed is not None:
            kwargs["seed"] = cell.seed
        X, y, info = fn(**kwargs, return_info=True)
        cls = resolve_learner(cell.learner)
        w0, c0 = time.perf_counter(), time.process_time()
        warm(cls, cell)  # once per process; not the cell's time
        start += time.perf_counter() - w0
        cpu += time.process_time() - c0
        model = build_learner(cls, fresh(cell.params), info)
        res = evaluate.prequential(model, X, y, **_evaluate_kwargs(cell))
        row.update(
            n=int(res.n),
            n_leaves=int(model.n_leaves),
            depth=int(model.depth),
            labels_used=int(res.labels_used),
            seconds=float(res.seconds),
        )
        for column, spec in cell.metrics:
            row[column] = metric_value(spec, res, model)
        t, curve = curve_sample(res.t, res.curve, cell.curve_points)
        row["curve_t"], row["curve"] = to_json(t), to_json(curve)
    except Exception as exc:  # noqa: BLE001 (recorded)
        row["error"] = describe_error(exc)
    return _finished(row, start, cpu)


def _finished(row: dict, start: float, cpu: float) -> dict:
    """``row`` with the cell's wall and processor time since ``start``/``cpu`` and the time
    it finished."""
    row["cell_seconds"] = time.perf_counter() - start
    row["cpu_seconds"] = time.process_time() - cpu
    row["finished"] = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return row


def describe_row(cell) -> dict:
    """The columns that say what ran, with everything measured still empty."""
    if isinstance(cell, FunctionCell):
        return {
            "cell_id": cell.cell_id,
            "function": cell.function,
            "kwargs": to_json(cell.kwargs),
            "seed": cell.seed,
            "results": {},
            "error": "",
            "cell_seconds": None,
            "cpu_seconds": None,
            "worker": f"{socket.gethostname()}:{os.getpid()}",
            "finished": "",
        }
    row = {
        "cell_id": cell.cell_id,
        "learner": cell.learner,
        "params": to_json(cell.params),
        "stream": cell.stream,
        "stream_kwargs": to_json(cell.stream_kwargs),
        "seed": cell.seed,
        "protocol": cell.protocol,
        "evaluate_kwargs": to_json(cell.evaluate_kwargs),
        "n": None,
        "n_leaves": None,
        "depth": None,
        "labels_used": None,
        "seconds": None,
    }
    for column, _ in cell.metrics:
        row[column] = None
    row.update(
        curve_t="[]",
        curve="[]",
        error="",
        cell_seconds=None,
        cpu_seconds=None,
        worker=_WORKER,
        finished="",
    )
    return row


def build_learner(cls, params: dict, info):
    """The learner of a cell, sized by the stream's info."""
    kwargs = dict(params)
    kwargs.setdefault("nominal_features", dict(info.nominal_features))
    return cls(n_features=info.n_features, n_classes=info.n_classes, **kwargs)


def _evaluate_kwargs(cell: Cell) -> dict:
    kwargs = fresh(cell.evaluate_kwargs)  # a strategy starts from its initial state
    import inspect
    from .. import evaluate

    if "keep_predictions" in inspect.signature(evaluate.prequential).parameters:
        kwargs.setdefault("keep_predictions", False)  # nothing leaves the worker but the row
    return kwargs


def metric_value(spec, res, model) -> float:
    """One metric of a finished run: a result attribute or method, a learner attribute, or
    ``spec(result, model)``; arrays give their last value."""
    if callable(spec):
        value = spec(res, model)
    else:
        base, _, cls = spec.rpartition("_")
        if base in CLASS_METRICS and cls.isdigit():
            value = getattr(res, base)(int(cls))
        elif hasattr(res, spec):
            value = getattr(res, spec)
            if callable(value):
                value = value()
        else:
            value = getattr(model, spec)
    if isinstance(value, np.ndarray):
        value = value.reshape(-1)[-1] if value.size else math.nan
    return float(value)


def describe_error(exc: BaseException) -> str:
    """``Type: message (at file:line in function)`` on one line."""
    text = f"{type(exc).__name__}: {exc}"
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        f = frames[-1]
        text += f" (at {os.path.basename(f.filename)}:{f.lineno} in {f.name})"
    return " ".join(text.split())


# --------------------------------------------------------------------------- warm-up
def warm(cls, cell: Cell) -> None:
    """Load (or compile once) the kernels of ``cls`` and the cell's protocol in this process."""
    key = (cls, cell.protocol, to_json(cell.evaluate_kwargs))
    if key in _warmed:
        return
    _warmed.add(key)
    with _first_compile_lock():
        _tiny_run(cls, cell)


def _tiny_run(cls, cell: Cell) -> None:
    """The class with its default parameters (never the cell's, which may fail or have side
    effects) on 300 SEA rows; a class that needs more arguments is warmed through the Hoeffding
    tree, whose kernels every engine-based learner shares."""
    from .. import evaluate, learners, streams

    X, y, info = streams.sea(n=300, seed=0, return_info=True)
    for klass in (cls, learners.HoeffdingTree):
        try:
            model = build_learner(klass, {}, info)
        except Exception:  # noqa: BLE001
            continue
        try:
            evaluate.prequential(model, X, y, **_evaluate_kwargs(cell))
        except Exception:  # noqa: BLE001
            pass  # the real cell reports what is wrong with it
        return


def _source_stamp() -> str:
    """Names, sizes and modification times of the package's sources: numba's cache is valid
    for exactly these (it keys each kernel by its file's stamp)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha1()
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(dirpath, name))
                h.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


class _first_compile_lock:
    """The first process to warm up for the current sources does it alone, holding a lock
    file; the others wait until it is done (then the cache is warm and they load from it side
    by side).  The lock file keeps the stamp of the sources it warmed, so once the cache is
    warm nobody waits at all."""

    def __enter__(self):
        self._fd = None
        self._stamp = None
        try:
            import fcntl
        except ImportError:  # not POSIX: every process warms up itself
            return self
        path = os.path.join(tempfile.gettempdir(), f"workbench-sweep-warm-{os.getuid()}.lock")
        try:
            stamp = _source_stamp()
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            if os.pread(self._fd, 64, 0).decode(errors="replace") == stamp:
                return self._close()  # warmed before for these very sources
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                self._stamp = stamp  # ours to warm; the stamp goes in after
            except BlockingIOError:
                fcntl.flock(self._fd, fcntl.LOCK_SH)  # wait for the first one
                self._close()
        except OSError:
            self._close()
        return self

    def __exit__(self, exc_type, *exc):
        if self._fd is not None and self._stamp is not None and exc_type is None:
            try:
                os.ftruncate(self._fd, 0)
                os.pwrite(self._fd, self._stamp.encode(), 0)
            except OSError:
                pass
        self._close()
        return False

    def _close(self):
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None
        return self
