"""Tree learners: policies over the one engine in :mod:`workbench.core`."""

from .base import BaseTree, Explanation
from .ctree import CorrHTree, CTree
from .hoeffding import HoeffdingTree
from .ufft import UFFT

__all__ = ["BaseTree", "Explanation", "HoeffdingTree", "CTree", "CorrHTree", "UFFT"]
