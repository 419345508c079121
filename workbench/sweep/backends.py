"""Where cells run: in this process, in local worker processes, or on a Dask cluster.

All three hand out the same rows; :func:`drive` feeds a backend chunks of cells and yields the
rows as they come back.

Chunks.  Shipping a cell to a process costs a fraction of a millisecond; a cell of a small
stream may take about as long.  :func:`drive` therefore starts with one cell per task, measures
how long cells take, and from then on packs about ``chunk_seconds`` of work into each task
(never so much that the last tasks leave workers idle).  At most two tasks per worker are out
at a time, so the workers never wait for work and a Dask cluster's scheduler is not flooded
with a million tasks.

Dead workers.  A worker process can die under a cell (the out-of-memory killer, a crash in
compiled code, someone's ``kill``).  Locally, that breaks the whole process pool: the pool is
started again, and the cells that were out at that moment run again one at a time, alone, so
that the cell that kills its worker is found; it is tried ``max_attempts`` times in all, then
recorded with an error and the sweep goes on.  On Dask the scheduler itself runs the tasks of a
lost worker again elsewhere; a task that has killed several workers comes back as
``KilledWorker``, and its cells are retried one per task, then recorded with an error.
"""

from __future__ import annotations

import collections
import concurrent.futures as cf
import contextlib
import multiprocessing as mp
import os
import sys
import time
import uuid

from .cells import Cell
from .worker import describe_row, run_chunk, warm


class WorkerDied(Exception):
    """The process running a task died (the task's own errors never get here)."""


def default_processes() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# --------------------------------------------------------------------------- serial
class SerialBackend:
    """Cells run one after the other in this process (debuggable; the benchmark's baseline)."""

    name = "serial"
    isolate_suspects = False

    def start(self, cells):
        pass

    def capacity(self) -> int:
        return 1

    def submit(self, chunk):
        fut = cf.Future()
        fut.set_result(run_chunk(chunk))
        return fut

    def wait(self, handles, timeout):
        return list(handles)

    def outcome(self, handle):
        return handle.result()

    def recover(self, handle):
        pass

    def close(self, cancel=False):
        pass


# --------------------------------------------------------------------------- local processes
_MISSING = object()


@contextlib.contextmanager
def _main_module_hidden():
    """Spawn worker processes that do not import the caller's script.

    A spawned process normally runs the parent's ``__main__`` file again (as ``__mp_main__``),
    which costs that script's imports in every worker and makes a script without an
    ``if __name__ == "__main__":`` guard start the sweep again inside each worker.  Sweep
    workers never need the script: cells name only importable classes and functions (objects
    of ``__main__`` are refused when the sweep is set up).  So while the pool spawns its
    processes, ``__main__`` shows neither a file nor a module spec, and multiprocessing leaves
    it out of the new processes' preparation.  (In a notebook there is nothing to hide.)"""
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    file = main.__dict__.pop("__file__", _MISSING)
    spec = main.__dict__.get("__spec__", _MISSING)
    main.__spec__ = None
    try:
        yield
    finally:
        if file is not _MISSING:
            main.__file__ = file
        if spec is _MISSING:
            main.__dict__.pop("__spec__", None)
        else:
            main.__spec__ = spec


def exit_with_parent() -> bool:
    """In a worker process: end it as soon as the process that started it is gone.

    A sweep's workers otherwise outlive a parent that was killed (``kill -9``, the
    out-of-memory killer, a notebook kernel restarted): two processes of some 230 MB each, and
    multiprocessing's resource tracker, whose pipe the workers hold open, live on with nobody
    to give them work.  A daemon thread waits on the parent's sentinel (a pipe that the
    operating system closes when the parent dies, whatever the signal) and ends the process.
    Returns whether it watches (False in a process without a multiprocessing parent)."""
    import multiprocessing
    import threading

    parent = multiprocessing.parent_process()
    if parent is None or getattr(parent, "sentinel", None) is None:
        return False

    def watch(sentinel=parent.sentinel):
        from multiprocessing.connection import wait

        wait([sentinel])
        os._exit(PARENT_GONE)

    threading.Thread(target=watch, name="workbench-exit-with-parent", daemon=True).start()
    return True


#: the exit status of a worker whose parent died (:func:`exit_with_parent`)
PARENT_GONE = 86


def _init_worker(cells):
    """Pool initializer: end with the parent (:func:`exit_with_parent`), and load the kernels
    of the sweep's learners before the first cell."""
    from .cells import resolve_learner

    exit_with_parent()

    for cell in cells:
        if not isinstance(cell, Cell):
            continue  # a function cell loads what it needs itself
        try:
            warm(resolve_learner(cell.learner), cell)
        except Exception:  # noqa: BLE001
            pass  # the cell itself will report what is wrong


class LocalBackend:
    """A ``ProcessPoolExecutor`` of ``processes`` fresh (spawned) worker processes: never plain
    fork, which is unsafe in a process with threads (Jupyter, Dask); measured here, forkserver
    started no faster.  Each worker loads the sweep's kernels from numba's on-disk cache in its
    initializer, before the first cell."""

    name = "local"
    isolate_suspects = True

    def __init__(self, processes: int | None = None):
        if processes is None:
            processes = default_processes()
        if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
            raise ValueError(f"processes must be a positive integer; got {processes!r}")
        self.processes = processes
        self._pool = None
        self._generation = 0
        self._handles_generation = {}
        self._warm_cells = []

    def start(self, cells):
        self.processes = max(1, min(self.processes, len(cells)))
        seen, warm_cells = set(), []
        for cell in cells:  # one cell per learner and protocol
            if not isinstance(cell, Cell):
                continue
            key = (cell.learner, cell.protocol, repr(cell.evaluate_kwargs))
            if key not in seen:
                seen.add(key)
                warm_cells.append(cell)
        self._warm_cells = warm_cells
        self._start_pool()

    def _start_pool(self):
        ctx = mp.get_context("spawn")
        self._pool = cf.ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=ctx,
            initializer=_init_worker,
            initargs=(self._warm_cells,),
        )
        self._generation += 1
        # One probe per worker: the pool spawns a process for each task that finds no idle
        # worker, so all of them are spawned here, at once, and start loading side by side;
        # waiting for the first one tells whether workers can start at all.
        with _main_module_hidden():
            probes = [self._pool.submit(os.getpid) for _ in range(self.processes)]
        try:
            next(cf.as_completed(probes)).result()
        except cf.process.BrokenProcessPool:
            self._pool.shutdown(wait=False, cancel_futures=True)
            raise RuntimeError(
                "the sweep's worker processes died while starting; check that `import "
                'workbench` works in a fresh Python, or run with backend="serial" to see '
                "the error"
            ) from None

    def capacity(self) -> int:
        return self.processes

    def submit(self, chunk):
        try:
            fut = self._pool.submit(run_chunk, chunk)
        except cf.process.BrokenProcessPool:
            # a worker has just died and the driver has not yet seen the failed tasks: start a
            # new pool now (those tasks belong to the old one and will not start another)
            self._restart()
            fut = self._pool.submit(run_chunk, chunk)
        self._handles_generation[fut] = self._generation
        return fut

    def wait(self, handles, timeout):
        done, _ = cf.wait(handles, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def outcome(self, handle):
        try:
            return handle.result()
        except cf.process.BrokenProcessPool as exc:
            raise WorkerDied(f"a worker process died ({exc})") from None

    def recover(self, handle):
        """Start a new pool if the one ``handle`` ran on is broken (once per breakage)."""
        if self._handles_generation.pop(handle, None) == self._generation:
            self._restart()

    def _restart(self):
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._start_pool()

    def forget(self, handle):
        self._handles_generation.pop(handle, None)

    def close(self, cancel=False):
        """Stop the workers.  Idle ones exit at once; one still starting (a tiny sweep can end
        before the last worker has loaded its kernels) or, on an interrupt, one still
        computing a cell whose row would be thrown away, is terminated rather than waited
        for."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + (0.0 if cancel else 0.2)
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                proc.terminate()
        for proc in procs:
            proc.join(5.0)


# --------------------------------------------------------------------------- Dask
def default_no_worker_timeout() -> float:
    """Seconds a sweep waits for a Dask cluster that has no worker:
    ``$WORKBENCH_DASK_NO_WORKER_TIMEOUT`` or :data:`NO_WORKER_TIMEOUT`."""
    text = os.environ.get(ENV_NO_WORKER, "").strip()
    if not text:
        return NO_WORKER_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0:
        raise ValueError(f"${ENV_NO_WORKER} = {text!r} is not a positive number of seconds")
    return value


ENV_NO_WORKER = "WORKBENCH_DASK_NO_WORKER_TIMEOUT"
NO_WORKER_TIMEOUT = 60.0


class DaskBackend:
    """Cells as tasks on a Dask cluster: ``client`` (a ``distributed.Client``) or ``address``
    (``"tcp://host:8786"``, connected for this sweep and closed after it).

    A cluster that has no worker for ``no_worker_timeout`` seconds (default
    :func:`default_no_worker_timeout`: 60, or ``$WORKBENCH_DASK_NO_WORKER_TIMEOUT``) while
    tasks wait ends the sweep with a ``RuntimeError`` that says so (the rows finished so far are
    in the results file; a rerun goes on from them), rather than waiting for ever."""

    name = "dask"
    isolate_suspects = False

    def __init__(self, client=None, address=None, no_worker_timeout=None):
        try:
            import distributed
        except ImportError:
            raise ValueError(
                "client= and address= need Dask: pip install 'dask[distributed]'"
            ) from None
        self._distributed = distributed
        if client is not None and address is not None:
            raise ValueError("give either client= or address=, not both")
        if client is not None:
            if not isinstance(client, distributed.Client):
                raise ValueError(f"client must be a dask.distributed.Client; got {client!r}")
            self.client, self._own = client, False
        else:
            if not isinstance(address, str) or "://" not in address and ":" not in address:
                raise ValueError(
                    f"address must be a scheduler address such as "
                    f"'tcp://host:8786'; got {address!r}"
                )
            try:
                self.client = distributed.Client(address, timeout="30s")
            except (OSError, TimeoutError) as exc:
                raise ValueError(
                    f"cannot connect to the Dask scheduler at {address!r} ({exc})"
                ) from None
            self._own = True
        self._token = uuid.uuid4().hex[:12]
        self._count = 0
        self._capacity, self._capacity_at = 1, -1e9
        self._out = set()
        if no_worker_timeout is None:
            no_worker_timeout = default_no_worker_timeout()
        if (
            isinstance(no_worker_timeout, bool)
            or not isinstance(no_worker_timeout, (int, float))
            or not no_worker_timeout > 0
        ):
            raise ValueError(
                f"no_worker_timeout must be a positive number of seconds; got {no_worker_timeout!r}"
            )
        self.no_worker_timeout = float(no_worker_timeout)
        self._workers_seen_at = time.monotonic()
        self._workers_checked_at = -1e9

    def start(self, cells):
        pass

    def capacity(self) -> int:
        now = time.monotonic()
        if now - self._capacity_at > 2.0:  # the cluster may scale up or down
            try:
                self._capacity = max(1, sum(self.client.nthreads().values()))
            except Exception:  # noqa: BLE001
                pass
            self._capacity_at = now
        return self._capacity

    def _check_workers(self):
        """Raise once the cluster has had no worker for ``no_worker_timeout`` seconds."""
        now = time.monotonic()
        if now - self._workers_checked_at < min(2.0, self.no_worker_timeout / 4):
            return
        self._workers_checked_at = now
        try:
            workers = len(self.client.nthreads())
        except Exception:  # noqa: BLE001  (a scheduler that does not answer: no worker known)
            workers = 0
        if workers:
            self._workers_seen_at = now
        elif now - self._workers_seen_at > self.no_worker_timeout:
            try:
                where = f" at {self.client.scheduler.address}"
            except Exception:  # noqa: BLE001
                where = ""
            raise RuntimeError(
                f"the Dask cluster{where} has had no worker for {self.no_worker_timeout:g} s, "
                f"so the sweep's {len(self._out)} waiting task(s) cannot run: start workers "
                "and run the sweep again (it goes on from the rows in its results file), or "
                f"set ${ENV_NO_WORKER} to wait longer"
            )

    def submit(self, chunk):
        self._count += 1
        fut = self.client.submit(
            run_chunk, chunk, pure=False, key=f"workbench-sweep-{self._token}-{self._count}"
        )
        self._out.add(fut)
        return fut

    def wait(self, handles, timeout):
        try:
            done = self._distributed.wait(
                handles, timeout=timeout, return_when="FIRST_COMPLETED"
            ).done
        except TimeoutError:
            done = ()
        if not done:
            self._check_workers()
        return list(done)

    def outcome(self, handle):
        self._out.discard(handle)
        if handle.status == "error":
            exc = handle.exception()
            if type(exc).__name__ == "KilledWorker":
                raise WorkerDied(f"KilledWorker: {exc}")
            raise RuntimeError(
                f"the Dask cluster could not run a task of the sweep "
                f"({type(exc).__name__}: {exc}); if the workers cannot import "
                "workbench, install it there"
            ) from exc
        if handle.status == "cancelled":
            raise RuntimeError(
                "the Dask cluster cancelled a task of the sweep (was the client "
                "or the scheduler closed?)"
            )
        return handle.result()

    def recover(self, handle):
        pass

    def close(self, cancel=False):
        if cancel and self._out:
            try:
                self.client.cancel(list(self._out))
            except Exception:  # noqa: BLE001
                pass
        self._out.clear()
        if self._own:
            self.client.close()


# --------------------------------------------------------------------------- the loop
def _died_row(cell: Cell, why: str) -> dict:
    row = describe_row(cell)
    row["error"] = (
        f"WorkerDied: {why}; out of memory, or a crash in compiled code? (the "
        "sweep went on; a rerun tries this cell again)"
    )
    row["worker"] = ""
    row["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return row


def drive(
    backend,
    cells: list[Cell],
    *,
    chunk_seconds: float = 0.5,
    max_attempts: int = 3,
    poll: float = 0.25,
):
    """Run ``cells`` on ``backend``; yield lists of rows as tasks finish (an empty list when
    nothing finished for ``poll`` seconds, so that the caller can flush and refresh)."""
    pending = collections.deque(cells)
    suspects = collections.deque()  # out when a worker died; run one per task
    attempts = collections.Counter()
    inflight = {}  # handle -> (chunk, ran alone)
    per_cell = None  # running estimate of a cell's seconds
    backend.start(cells)
    while pending or suspects or inflight:
        cap = backend.capacity()
        if suspects:
            if backend.isolate_suspects:
                if not inflight:
                    chunk = [suspects.popleft()]
                    inflight[backend.submit(chunk)] = (chunk, True)
            else:
                while suspects and len(inflight) < 2 * cap:
                    chunk = [suspects.popleft()]
                    inflight[backend.submit(chunk)] = (chunk, True)
        else:
            while pending and len(inflight) < 2 * cap:
                size = 1
                if per_cell is not None:
                    size = int(chunk_seconds / max(per_cell, 1e-6))
                    size = max(1, min(size, len(pending) // (2 * cap), 1000))
                chunk = [pending.popleft() for _ in range(min(size, len(pending)))]
                inflight[backend.submit(chunk)] = (chunk, False)
        done = backend.wait(list(inflight), poll)
        if not done:
            yield []
        for handle in done:
            chunk, alone = inflight.pop(handle)
            try:
                rows = backend.outcome(handle)
            except WorkerDied as exc:
                backend.recover(handle)
                if len(chunk) == 1 and (alone or not backend.isolate_suspects):
                    # this cell alone was out when its worker died (on Dask, the scheduler
                    # has already retried it on other workers before giving up)
                    cell = chunk[0]
                    attempts[cell.cell_id] += 1
                    if not backend.isolate_suspects:
                        yield [_died_row(cell, f"the cluster gave up on this cell ({exc})")]
                    elif attempts[cell.cell_id] >= max_attempts:
                        yield [
                            _died_row(
                                cell,
                                f"the worker process died while running this "
                                f"cell alone, {attempts[cell.cell_id]} times",
                            )
                        ]
                    else:
                        suspects.appendleft(cell)
                else:
                    suspects.extend(chunk)
                continue
            if hasattr(backend, "forget"):
                backend.forget(handle)
            times = [r["cell_seconds"] for r in rows if r.get("cell_seconds") is not None]
            if times:
                mean = sum(times) / len(times)
                per_cell = mean if per_cell is None else 0.7 * per_cell + 0.3 * mean
            yield rows
