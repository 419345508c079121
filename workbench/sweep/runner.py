"""``run``: every cell of a sweep on a backend, results written as they finish; ``load``."""

from __future__ import annotations

import json
import pickle
import warnings

from . import schema
from .backends import DaskBackend, LocalBackend, SerialBackend, drive
from .cells import expand, expand_function
from .progress import Progress
from .storage import clean_row, open_results, read_rows

BACKENDS = ("local", "serial", "dask")


def run(
    learners,
    grid=None,
    streams=None,
    metrics=("accuracy", "kappa"),
    *,
    seeds=None,
    protocol="full",
    evaluate_kwargs=None,
    results=None,
    client=None,
    address=None,
    backend=None,
    processes=None,
    progress=True,
    curve_points=50,
    rerun_errors=True,
    chunk_seconds=0.5,
    max_attempts=3,
):
    """Evaluate every combination of learner, parameter set, stream and seed; one row per cell.

    Parameters
    ----------
    learners : a name registered in :mod:`workbench.learners` (``"HoeffdingTree"``), an
        importable learner class, a list of these, or a dict ``{learner: grid}`` (one grid per
        learner, e.g. C-Tree's ``c`` next to H-Tree's ``delta``).
    grid : parameters of the learners: a dict of lists (their cartesian product; a value that
        is not a list is fixed), a list of dicts (taken as they are), a dict ``{learner: grid}``,
        or None (the learners' defaults).  ``n_features``, ``n_classes`` and (unless the grid
        sets it) ``nominal_features`` come from each stream's info.
    streams : a stream name from :mod:`workbench.streams` (``"sea"``), ``(name, kwargs)``, a list
        of these, or a dict ``{name: kwargs}``.  ``kwargs`` may hold ``seed`` (an int or a list)
        to override ``seeds`` for that stream.  A generator outside :mod:`workbench.streams` is
        named ``"module:function"`` (it must accept ``return_info=True``).
    metrics : names of :class:`~workbench.evaluate.PrequentialResult` attributes or methods
        (``"accuracy"``, ``"kappa"``, ``"error_rate"``, ``"f_measure"`` or ``"f_measure_0"``
        for class 0, likewise ``precision``, ``recall``), learner attributes, callables
        ``f(result, model) -> float`` (importable functions), or a dict ``{column: metric}``.
        Every row also has ``n``, ``n_leaves``, ``depth``, ``labels_used`` and ``seconds``.
    seeds : seeds of the streams that take one (default: each generator's default seed); a
        data set without randomness (``electricity``) gets one cell with an empty seed.
    protocol : ``"full"`` (test-then-train on every label) or ``"active"`` (label-query
        strategy; pass ``evaluate_kwargs={"strategy": ..., "budget": ...}``, which go to
        ``evaluate.prequential`` unchanged).
    results : a file ``*.csv`` or a folder ``*.parquet``; rows are written as cells finish, and
        a rerun with the same file runs only the cells that are not in it yet.
    client, address : run on a Dask cluster (a ``distributed.Client`` or the scheduler's
        address).  Without them the cells run in ``processes`` local worker processes (default:
        all cores), or in this process with ``backend="serial"``.
    progress : show a progress bar (True, False, or a dict of tqdm options).
    curve_points : points of the running-accuracy curve kept per cell (0: none).
    rerun_errors : on a rerun, run again the cells whose row records an error (default True).
    chunk_seconds : about how much work one task carries once cell times are known.
    max_attempts : how often a cell may kill its worker process before it is recorded as an
        error.

    Returns
    -------
    pandas.DataFrame
        One row per cell of this sweep, in the order learner, parameter set, stream, seed (rows
        of other sweeps in the same file are not included; :func:`load` reads them all).
        ``params``, ``stream_kwargs`` and ``evaluate_kwargs`` are JSON text; each parameter
        also gets a column of its own (``param_<name>`` if the name is taken); ``curve_t`` and
        ``curve`` are lists; ``error`` is empty for a cell that ran.

    Examples
    --------
    >>> from workbench import sweep
    >>> df = sweep.run("HoeffdingTree", {"grace_period": [100, 200]},
    ...                {"sea": {"n": 2_000}}, seeds=[1, 2], backend="serial", progress=False)
    >>> len(df), list(df.grace_period)
    (4, [100, 100, 200, 200])
    >>> bool((df.error == "").all()) and bool(df.accuracy.between(0.5, 1).all())
    True
    """
    if isinstance(max_attempts, bool) or not isinstance(max_attempts, int) or max_attempts < 1:
        raise ValueError(f"max_attempts must be a positive integer; got {max_attempts!r}")
    if not isinstance(rerun_errors, bool):
        raise ValueError(f"rerun_errors must be True or False; got {rerun_errors!r}")
    if (
        isinstance(chunk_seconds, bool)
        or not isinstance(chunk_seconds, (int, float))
        or not chunk_seconds > 0
    ):
        raise ValueError(f"chunk_seconds must be a positive number; got {chunk_seconds!r}")
    cells = expand(
        learners,
        grid,
        streams,
        metrics,
        seeds=seeds,
        protocol=protocol,
        evaluate_kwargs=evaluate_kwargs,
        curve_points=curve_points,
    )
    columns = schema.columns([c for c, _ in cells[0].metrics])
    if _travel(cells, backend) == "serial" and backend != "serial":
        backend, client, address, processes = "serial", None, None, None
    runner = _backend(backend, client, address, processes)
    store = open_results(results, columns) if results is not None else None
    finished = {}
    if store is not None:
        for cell in cells:
            row = store.rows.get(cell.cell_id)
            if row is not None and not (rerun_errors and row["error"]):
                finished[cell.cell_id] = row
    todo = [cell for cell in cells if cell.cell_id not in finished]
    bar = Progress(
        len(cells), len(finished), progress, errors=sum(1 for r in finished.values() if r["error"])
    )
    wanted = {cell.cell_id for cell in todo}
    complete = False
    try:
        if todo:
            be = runner()
            try:
                for rows in drive(be, todo, chunk_seconds=chunk_seconds, max_attempts=max_attempts):
                    fresh = []
                    for row in rows:  # each cell's result is written once
                        cid = row["cell_id"]
                        if cid in wanted and cid not in finished:
                            finished[cid] = clean_row(row, columns)
                            fresh.append(row)
                    if store is not None:
                        store.append(fresh)  # also: flush a Parquet buffer when due
                    bar.update(fresh)
                complete = True
            finally:
                be.close(cancel=not complete)
        complete = True
    finally:
        bar.close()
        if store is not None:
            store.close()
    return to_frame([finished[cell.cell_id] for cell in cells], columns)


def apply(
    function,
    seeds,
    kwargs=None,
    *,
    client=None,
    address=None,
    backend=None,
    processes=None,
    progress=True,
    chunk_seconds=0.5,
    max_attempts=3,
    errors="raise",
):
    """Call an importable function once per seed (and per keyword set), side by side on the
    sweep's backends: ``function(seed=s, **kw)`` must return a dict of results.

    This is the sweep for experiments that are not one learner on one stream (a tuning grid,
    a batch kernel over many runs, several learners compared on the same draws): whatever a
    seed determines, written as a function of the seed.

    Parameters
    ----------
    function : an importable function (defined at the top level of a module, not in a
        notebook) or its name ``"module:function"``; it takes ``seed=`` and returns a dict.
    seeds : the seeds (non-negative integers).
    kwargs : keyword arguments of every call: a dict, or a list of dicts (every set runs with
        every seed).  They must be plain data (numbers, strings, lists, dicts), as for
        :func:`run`.
    client, address, backend, processes, progress, chunk_seconds, max_attempts : as in
        :func:`run` (local worker processes by default, a Dask cluster with ``client=``).
    errors : ``"raise"`` (default: a call that raised makes this a ``RuntimeError`` naming it)
        or ``"keep"`` (its row has the error, the others their results).

    Returns
    -------
    pandas.DataFrame
        One row per call in the order keyword set, seed: ``function``, ``kwargs`` (JSON),
        ``seed``, one column per key the function returned, then ``error``,
        ``cell_seconds``, ``cpu_seconds``, ``worker`` and ``finished``.

    Examples
    --------
    >>> from workbench import sweep
    >>> df = sweep.apply("workbench.sweep.runner:_example", seeds=[1, 2, 3], kwargs={"n": 4},
    ...                  backend="serial", progress=False)
    >>> df[["seed", "total"]].values.tolist()
    [[1, 5], [2, 6], [3, 7]]
    """
    import pandas as pd

    from .worker import FUNCTION_HEAD, FUNCTION_TAIL

    if errors not in ("raise", "keep"):
        raise ValueError(f"errors must be 'raise' or 'keep'; got {errors!r}")
    cells = expand_function(function, seeds, kwargs)
    runner = _backend(backend, client, address, processes)
    finished = {}
    bar = Progress(len(cells), 0, progress)
    complete = False
    try:
        be = runner()
        try:
            for rows in drive(be, cells, chunk_seconds=chunk_seconds, max_attempts=max_attempts):
                fresh = [r for r in rows if r["cell_id"] not in finished]
                for row in fresh:
                    finished[row["cell_id"]] = row
                bar.update(fresh)
            complete = True
        finally:
            be.close(cancel=not complete)
    finally:
        bar.close()
    rows = [finished[cell.cell_id] for cell in cells]
    bad = [r for r in rows if r["error"]]
    if bad and errors == "raise":
        raise RuntimeError(
            f"{len(bad)} of {len(rows)} calls failed; the first, seed {bad[0]['seed']}: "
            f"{bad[0]['error']}"
        )
    keys = []
    for r in rows:
        keys.extend(k for k in r["results"] if k not in keys)
    records = [
        {
            **{c: r[c] for c in FUNCTION_HEAD[1:]},
            **{k: r["results"].get(k) for k in keys},
            **{c: r[c] for c in FUNCTION_TAIL},
        }
        for r in rows
    ]
    return pd.DataFrame.from_records(records, columns=FUNCTION_HEAD[1:] + keys + FUNCTION_TAIL)


def _example(seed, n=1):
    """The function of :func:`apply`'s example (importable by the workers)."""
    return {"total": seed + n}


def _travel(cells, backend):
    """The backend, or ``"serial"`` with a warning that says why, where a cell cannot travel to
    a worker process: it holds a user's function that cannot be pickled by value (numba
    pickles a jitted function's code, a notebook's included, and the globals it reads)."""
    if backend == "serial":
        return backend
    for cell in cells:
        try:
            pickle.dumps(cell)
        except Exception as exc:  # noqa: BLE001 - any failure to pickle
            warnings.warn(
                f"the sweep runs in this process: cell {cell.describe()} cannot be sent to "
                f"worker processes ({type(exc).__name__}: {exc})",
                RuntimeWarning,
                stacklevel=3,
            )
            return "serial"
    return backend


def _backend(backend, client, address, processes):
    """A function that starts the chosen backend (checked now, started when there is work)."""
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}; got {backend!r}")
    if client is not None or address is not None:
        if backend not in (None, "dask"):
            raise ValueError(
                f"client= and address= run on Dask; backend={backend!r} contradicts them"
            )
        if processes is not None:
            raise ValueError(
                "processes= is for the local backend; a Dask cluster has its own workers"
            )
        if client is not None and address is not None:
            raise ValueError("give either client= or address=, not both")
        return lambda: DaskBackend(client, address)
    if backend == "dask":
        raise ValueError(
            "backend='dask' needs client= (a distributed.Client) or address= ('tcp://host:8786')"
        )
    if backend == "serial":
        if processes is not None:
            raise ValueError("processes= is for the local backend, not backend='serial'")
        return SerialBackend
    LocalBackend(processes)  # checks processes now
    return lambda: LocalBackend(processes)


def to_frame(rows: list[dict], columns: list[str]):
    """A DataFrame of result rows with proper dtypes, curves as lists and one column per
    parameter."""
    import pandas as pd

    df = pd.DataFrame.from_records(rows, columns=columns)
    for c in columns:
        k = schema.kind(c)
        if k == "int":
            df[c] = df[c].astype("Int64")
        elif k == "float":
            df[c] = df[c].astype("float64")
        else:
            df[c] = df[c].fillna("").astype(object)
    for c in ("curve_t", "curve"):
        df[c] = [json.loads(v) if v else [] for v in df[c]]
    params = [json.loads(p) if p else {} for p in df["params"]]
    names = []
    for p in params:
        names.extend(k for k in p if k not in names)
    for name in names:
        column = name if name not in df.columns else f"param_{name}"
        df[column] = [p.get(name) for p in params]
    return df


def load(path):
    """Every cell in a results file (``.csv`` or ``.parquet`` folder) as a DataFrame, without
    changing the file (a sweep may still be writing it)."""
    rows, columns = read_rows(path)
    return to_frame(rows, columns)
