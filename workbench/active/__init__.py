"""Label-query strategies for the ACTIVE setting (paper 000, Algorithms 2, 3, 5-7).

Use them through the protocol: ``evaluate.prequential(model, X, y, strategy=ConfTree(),
budget=0.3)`` predicts every instance, asks the strategy whether to query its label while the
query rate is within the budget, and learns only the labelled instances.

``Custom(my_rule, params=...)`` runs a user's own numba rule the same way; ``uniform(rng)`` and
``normal(rng)`` draw from the random stream it gets.
"""

from .._rng import normal, uniform
from .boct_al import BOCTAL
from .rules import decide, decide_rows, top_two_margin
from .strategies import (
    STRATEGIES,
    ConfTree,
    Custom,
    Frugal,
    Random,
    RndVarUncertainty,
    SelectiveSampling,
    Split,
    SplitConfTree,
    Strategy,
    VarUncertainty,
)

__all__ = [
    "BOCTAL",
    "Strategy",
    "Random",
    "VarUncertainty",
    "RndVarUncertainty",
    "SelectiveSampling",
    "Split",
    "ConfTree",
    "SplitConfTree",
    "Frugal",
    "Custom",
    "uniform",
    "normal",
    "STRATEGIES",
    "decide",
    "decide_rows",
    "top_two_margin",
]
