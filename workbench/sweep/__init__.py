"""Parameter sweeps over many streams: local processes by default, a Dask cluster when given.

The papers' experiments are grids (paper 000's Figure 3: 1,000 random trees x 200 parameter
values x 3 learners).  :func:`run` evaluates every cell (learner, parameter set, stream, seed)
with the prequential protocol and returns one row per cell, while writing the rows to a results
file as they finish; run it again with the same file and it picks up where it stopped.

>>> from workbench import sweep
>>> df = sweep.run({"HoeffdingTree": {"delta": [1e-7, 1e-3]}},
...                streams={"sea": {"n": 2_000}}, seeds=range(3),
...                metrics=["accuracy", "f_measure_1"], backend="serial", progress=False)
>>> df.groupby("delta").accuracy.count().tolist()
[3, 3]

For a real sweep leave out ``backend="serial"`` (cells then run in one worker process per
core), name a results file, and pass ``client=`` (a ``dask.distributed.Client``) or
``address="tcp://scheduler:8786"`` to run on a cluster::

    df = sweep.run(["HoeffdingTree"], {"grace_period": [50, 100, 200, 400]},
                   {"random_tree": {"n": 500_000}}, seeds=range(100),
                   results="fig3.csv")              # interrupted? run the same line again

An experiment that is not one learner on one stream (a tuning grid, a batch kernel, several
learners on the same draws) is a function of a seed; :func:`apply` runs it once per seed on the
same backends (this is how ``workbench.claims`` runs a paper's seeds side by side)::

    df = sweep.apply("mymodule:experiment", seeds=range(10), kwargs={"n_runs": 100})

Modules: :mod:`~workbench.sweep.cells` (grids and cell identity), :mod:`~workbench.sweep.worker`
(what runs a cell), :mod:`~workbench.sweep.backends` (serial, local processes, Dask),
:mod:`~workbench.sweep.storage` (CSV and Parquet results files), :mod:`~workbench.sweep.progress`.
"""

from .cells import Cell, FunctionCell, expand
from .runner import apply, load, run

__all__ = ["run", "apply", "load", "expand", "Cell", "FunctionCell"]
