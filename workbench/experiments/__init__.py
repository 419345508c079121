"""Experiment runners and plots of the paper notebooks, one module per paper.

The notebooks in ``notebooks/`` stay thin: each cell calls one function here, which returns a
tidy ``pandas.DataFrame`` (one row per run or per simulated point), and one plotting helper
draws it with matplotlib.  Every runner takes its sizes from the mode: the environment variable
``WORKBENCH_FAST=1`` (set by the tests) shrinks streams, trial counts and grids so that a notebook
needs under half a minute of computing; without it the runners use the laptop-scale sizes of the
reproduction.

=================  =====================================================================
``paper000``       De Rosa & Cesa-Bianchi, *Confidence Decision Trees via Online and Active
                   Learning*: impurities, Theorems 1-5 by Monte Carlo, eq. (7) and (10),
                   Figures 3, 4 and 5 (C-Tree, H-Tree, CorrH-Tree, the ACTIVE strategies).
``paper001``       Collet & Pietquin, *Bayesian credible intervals for online and active
                   learning of classification trees*: eqs. (1)-(4) and (7), the split rule's
                   two readings, the toy problem (Figure 5), the pool protocol (Figure 6).
``paper002``       Gama, Medas & Rocha, *Ultra Fast Forest Trees*: the analytical split, DDM at
                   inner nodes, the stationary and drifting experiments (Tables 1 and 2).
``paper003``       Izenov, *Reducing labeling complexity in streaming data mining* (Frugal
                   Hoeffding tree): the Weather example, eq. (7), the Frugal rule, Tables
                   3-5, Figures 4-15, and the Frugal rule against 000's strategies.
``paper004``       Manapragada, Webb & Salehi, *Extremely Fast Decision Tree*: Lemmas
                   3.1-3.3 on streams with an exactly known DT*, Figures 1, 14 and 2-13,
                   the drift remark, VFDT against EFDT (HATT).
``tour``           The tour's last section: all seven learners on SEA and Electricity.
``own_bound``      Notebook 06, a user's own bound, criterion and query rule: trees grown
                   with them on RandCBT, compared by excess error, size and first split.
``bound_in_tree``  Notebook 07, does the bound hold as the tree uses it: one test against
                   repeated tests at a leaf, trees audited split by split against the exact
                   truth, the price of validity, the stored 200-tree target run.
=================  =====================================================================

Submodules are imported on first use (``from workbench.experiments import paper000``).
"""

from __future__ import annotations

from .. import lazy_submodules

_SUBMODULES = (
    "paper000",
    "paper001",
    "paper002",
    "paper003",
    "paper004",
    "tour",
    "own_bound",
    "bound_in_tree",
)
__all__ = list(_SUBMODULES)

__getattr__ = lazy_submodules(__name__, _SUBMODULES, globals())
