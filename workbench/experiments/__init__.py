"""Experiment runners and plots of the paper notebooks, one module per paper.

The notebooks in ``notebooks/`` stay thin: each cell calls one function here, which returns a
tidy ``pandas.DataFrame`` (one row per run or per simulated point), and one plotting helper
draws it with matplotlib.  Every runner takes its sizes from the mode: the environment variable
``WORKBENCH_FAST=1`` (set by the tests) shrinks streams, trial counts and grids so that a notebook
runs in well under three minutes; without it the runners use the laptop-scale sizes of the
reproduction.

=============  =====================================================================
``paper000``   De Rosa & Cesa-Bianchi, *Confidence Decision Trees via Online and Active
               Learning*: impurities, Theorems 1-5 by Monte Carlo, eq. (7) and (10),
               Figures 3, 4 and 5 (C-Tree, H-Tree, CorrH-Tree, the ACTIVE strategies).
``paper002``   Gama, Medas & Rocha, *Ultra Fast Forest Trees*: the analytical split, DDM at
               inner nodes, the stationary and drifting experiments (Tables 1 and 2).
=============  =====================================================================

Submodules are imported on first use (``from workbench.experiments import paper000``).
"""

from __future__ import annotations

from .. import lazy_submodules

_SUBMODULES = ("paper000", "paper002")
__all__ = list(_SUBMODULES)

__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
