"""Paper 004, Manapragada, Webb and Salehi: *Extremely Fast Decision Tree* (HATT / EFDT).

The runners and plots behind ``notebooks/05_extremely_fast_decision_tree.ipynb``: the
convergence lemmas checked on streams with a known distribution (:mod:`.lemmas`), Figures 1 and
14 on random-tree streams and Figures 2-13 on the data sets at hand (:mod:`.figures`), and the
table of claims (:mod:`.claims`).  Sizes follow the quick mode (``workbench.viz.set_quick``).
"""

from . import figures, lemmas
from ._common import COLOR, FAST, FULL, LEARNERS, Sizes, Stopwatch, describe_mode, make, sizes
from .claims import claims_table
from .figures import (
    available_sets,
    drift_run,
    figure_1,
    figure_14,
    plot_random_tree,
    plot_real,
    random_tree_summary,
    real_runs,
    real_summary,
)
from .lemmas import (
    convergence,
    convergence_reading,
    dt_star,
    lemma_3_1,
    lemma_3_1_table,
    plot_convergence,
)

__all__ = [
    "COLOR",
    "LEARNERS",
    "figures",
    "lemmas",
    "FAST",
    "FULL",
    "Sizes",
    "Stopwatch",
    "describe_mode",
    "make",
    "sizes",
    "claims_table",
    "available_sets",
    "drift_run",
    "figure_1",
    "figure_14",
    "plot_random_tree",
    "plot_real",
    "random_tree_summary",
    "real_runs",
    "real_summary",
    "convergence",
    "convergence_reading",
    "dt_star",
    "lemma_3_1",
    "lemma_3_1_table",
    "plot_convergence",
]
