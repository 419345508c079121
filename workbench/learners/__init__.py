"""Tree learners: policies over the one engine in :mod:`workbench.core`."""

from .base import BaseTree, Explanation
from .boct import BOCT
from .ctree import CorrHTree, CTree
from .efdt import EFDT
from .frugal import FrugalHoeffdingTree
from .hoeffding import HoeffdingTree
from .ufft import UFFT

__all__ = [
    "BaseTree",
    "Explanation",
    "HoeffdingTree",
    "CTree",
    "CorrHTree",
    "EFDT",
    "FrugalHoeffdingTree",
    "BOCT",
    "UFFT",
]
