"""Paper 004, Manapragada, Webb and Salehi: *Extremely Fast Decision Tree* (HATT / EFDT).

The runners and plots behind ``notebooks/05_extremely_fast_decision_tree.ipynb``: the
convergence lemmas checked on streams with a known distribution (:mod:`.lemmas`), Figures 1 and
14 on random-tree streams and Figures 2-13 on the data sets at hand (:mod:`.figures`), and the
claims as data (:mod:`.verdicts`: :func:`claims`, re-tested over seeds with both references,
004's own code and MOA's port; stored runs :func:`store_claims`, :func:`stored_claims`).
Sizes follow the quick mode (``workbench.viz.set_quick``).
"""

from . import figures, lemmas, verdicts
from ._common import COLOR, FAST, FULL, LEARNERS, Sizes, Stopwatch, describe_mode, make, sizes
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
    lemma_3_1_failures,
    lemma_3_1_table,
    plot_convergence,
)
from .verdicts import (
    claim_sizes,
    claims,
    describe_claims_mode,
    random_tree_table,
    store_claims,
    stored_claims,
)

__all__ = [
    "COLOR",
    "LEARNERS",
    "figures",
    "lemmas",
    "verdicts",
    "FAST",
    "FULL",
    "Sizes",
    "Stopwatch",
    "describe_mode",
    "make",
    "sizes",
    "claim_sizes",
    "claims",
    "describe_claims_mode",
    "random_tree_table",
    "store_claims",
    "stored_claims",
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
    "lemma_3_1_failures",
    "lemma_3_1_table",
    "plot_convergence",
]
