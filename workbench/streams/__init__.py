"""Streams for the workbench: synthetic generators, file readers and shipped data sets.

Everything returns NumPy arrays ``X`` (float64 ``[n, d]``; nominal columns hold integer codes,
NaN is a missing value) and ``y`` (int64 labels ``0..K-1``); with ``return_info=True`` also a
:class:`StreamInfo` naming the columns, the classes and the nominal columns.

Generators (each takes a ``seed``): :func:`sea`, :func:`waveform`, :func:`led`, :func:`random_tree`,
:func:`rand_cbt`, :func:`balance`.
Files: :func:`read_csv`, :func:`read_arff`, :func:`write_arff`.  Arrays: :func:`from_arrays`.
Other libraries' streams: :func:`from_river` (River's data sets and generators),
:func:`from_capymoa` (CapyMOA's streams and MOA's generators).
Files: :func:`read_libsvm` (LIBSVM sparse).
No download needed: :func:`electricity`, :func:`adult`, :func:`breast_cancer`, :func:`load`.
The papers' data sets, downloaded once into ``~/workbench_data`` (or ``$WORKBENCH_DATA``), checked
and cached: :func:`covertype`, :func:`airlines`, :func:`a9a`, :func:`cod_rna`, :func:`kdd99`,
:func:`poker`, :func:`skin`, :func:`higgs`, :func:`susy`, :func:`hepmass`, :func:`pima` and
``adult(full=True)``; :func:`list_datasets` shows them all with their sources (in the order they
are tried), what is cached and the SHA-256 of each downloaded file (a file that no longer
matches its sum is a :class:`ChecksumError`).

Examples
--------
>>> from workbench import streams
>>> X, y = streams.sea(n=1000, seed=1)
>>> X.shape, X.dtype, y.dtype
((1000, 3), dtype('float64'), dtype('int64'))
"""

from ._download import ChecksumError
from .arff import read_arff, write_arff
from .balance import balance
from .arrays import from_arrays
from .csvio import read_csv
from .datasets import DATASETS, adult, breast_cancer, electricity, load
from .info import StreamInfo
from .interop import from_capymoa, from_river
from .led import led
from .libsvm import read_libsvm
from .rand_cbt import RandCBTConcept, rand_cbt
from .random_tree import RandomTreeConcept, random_tree
from .registry import REGISTRY, list_datasets
from .remote import (
    DatasetWarning,
    a9a,
    airlines,
    cod_rna,
    covertype,
    hepmass,
    higgs,
    kdd99,
    pima,
    poker,
    skin,
    susy,
)
from .sea import sea
from .toy64 import Toy64, toy64
from .waveform import waveform

__all__ = [
    "StreamInfo",
    "RandomTreeConcept",
    "RandCBTConcept",
    "DATASETS",
    "sea",
    "toy64",
    "Toy64",
    "balance",
    "waveform",
    "led",
    "random_tree",
    "rand_cbt",
    "from_arrays",
    "from_river",
    "from_capymoa",
    "read_csv",
    "read_arff",
    "write_arff",
    "electricity",
    "adult",
    "breast_cancer",
    "load",
    "read_libsvm",
    "REGISTRY",
    "list_datasets",
    "DatasetWarning",
    "ChecksumError",
    "covertype",
    "airlines",
    "a9a",
    "cod_rna",
    "kdd99",
    "poker",
    "skin",
    "higgs",
    "susy",
    "hepmass",
    "pima",
]
