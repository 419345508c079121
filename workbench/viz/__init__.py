"""Drawing trees and stepping them through streams.

    from workbench import viz
    viz.to_dot(model)                 # Graphviz DOT source (also model.to_dot())
    viz.show(model)                   # draw it in JupyterLab: no `dot` program needed
    viz.show_dot(dot_source)          # draw any DOT source the same way
    viz.render(model, "tree.pdf")     # SVG / PNG / PDF file for papers (needs `dot`)
    viz.TreeStepper(make_learner, X, y)          # step a learner through a stream
    viz.side_by_side(stepper_a, stepper_b)       # two learners, one set of step buttons
    viz.set_quick(QUICK), viz.fast_mode(), viz.size(full, fast)   # quick mode (notebooks, tests)

In the browser the trees are laid out by Graphviz compiled to WebAssembly (graphviz-anywidget),
so a pip-only install draws them; only file export needs the system's Graphviz.
"""

from .dot import node_counts, to_dot
from .fast import fast_mode, set_quick, size
from .render import FORMATS, GraphvizNotFoundError, has_dot, render
from .stepper import (
    DEFAULT_PARAMS,
    SPEEDS,
    Compare,
    Controls,
    SplitTrace,
    TreeStepper,
    side_by_side,
)
from .svgchart import line_chart
from .view import show, show_dot, tree_widget

__all__ = [
    "to_dot",
    "node_counts",
    "render",
    "has_dot",
    "GraphvizNotFoundError",
    "FORMATS",
    "show",
    "show_dot",
    "tree_widget",
    "TreeStepper",
    "Compare",
    "Controls",
    "SplitTrace",
    "side_by_side",
    "DEFAULT_PARAMS",
    "SPEEDS",
    "line_chart",
    "fast_mode",
    "set_quick",
    "size",
]
