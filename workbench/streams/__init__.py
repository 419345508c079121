"""Streams for the workbench: synthetic generators, file readers and shipped data sets.

Everything returns NumPy arrays ``X`` (float64 ``[n, d]``; nominal columns hold integer codes,
NaN is a missing value) and ``y`` (int64 labels ``0..K-1``); with ``return_info=True`` also a
:class:`StreamInfo` naming the columns, the classes and the nominal columns.

Generators (each takes a ``seed``): :func:`sea`, :func:`waveform`, :func:`led`, :func:`random_tree`,
:func:`rand_cbt`.
Files: :func:`read_csv`, :func:`read_arff`, :func:`write_arff`.  Arrays: :func:`from_arrays`.
Shipped data: :func:`electricity`, :func:`adult`, :func:`load`.

Examples
--------
>>> from workbench import streams
>>> X, y = streams.sea(n=1000, seed=1)
>>> X.shape, X.dtype, y.dtype
((1000, 3), dtype('float64'), dtype('int64'))
"""

from .arff import read_arff, write_arff
from .arrays import from_arrays
from .csvio import read_csv
from .datasets import DATASETS, adult, electricity, load
from .info import StreamInfo
from .led import led
from .rand_cbt import RandCBTConcept, rand_cbt
from .random_tree import RandomTreeConcept, random_tree
from .sea import sea
from .waveform import waveform

__all__ = [
    "StreamInfo", "RandomTreeConcept", "RandCBTConcept", "DATASETS",
    "sea", "waveform", "led", "random_tree", "rand_cbt",
    "from_arrays", "read_csv", "read_arff", "write_arff",
    "electricity", "adult", "load",
]
