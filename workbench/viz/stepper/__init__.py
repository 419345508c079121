"""Step any tree learner through a stream in JupyterLab and watch it decide when and where to split.

:class:`TreeStepper` is an ipywidgets panel over the public learner protocol (``learn_one``,
``explain_one``, ``partial_fit``, ``clone``, ``to_dot``'s arrays), so it works for every learner
of the workbench.  It shows

* the tree, drawn in the browser (Graphviz as WebAssembly), with the path of the last instance,
  the leaf it reached, and the nodes split recently;
* the last instance, its prediction (made before the tree learned it) and its true label, and
  (with an active-learning ``strategy``) whether its label was queried and the query rate;
* the running (prequential) accuracy against time;
* for the leaf just reached, the quantity that decides that learner's split against the level it
  must exceed, over the leaf's life (Hoeffding tree: ``G(best) - G(second best)`` against the
  Hoeffding epsilon, and the tie level tau), with the moment of the split marked.

Work per action stays small: one step is ``explain_one`` + ``learn_one`` + ``explain_one`` (three
short numba calls) and one redraw; a step of k instances is one test-then-train kernel call over
the slice (``evaluate.prequential``) and one redraw; a change of a parameter rebuilds the learner
and replays the stream to the current position in one kernel call.  The split chart of a leaf seen
for the first time is rebuilt by replaying that leaf's life on a fresh learner (at most
``trace_points`` short kernel calls), and then extended at every step that reaches it.

Active learning
---------------
``strategy`` is any object with ``query(model, x) -> bool`` (ask for the label of instance x,
given the model before it learns x).  The stepper predicts every instance, asks the strategy,
and the learner learns the instance only if its label was queried.  A strategy that can process a
whole slice in numba may also offer ``run(model, X, y) -> (predictions, queried)`` (test, ask and
learn the slice; the model is updated in place); without it, steps of k instances call ``query``
once per instance in Python, which is fine for prototypes but slow for long jumps.  The strategy
is deep-copied at every rebuild so that a replay starts from its initial state.

Modules
-------
``replay``     :class:`TreeStepper`: state, stepping, replays from snapshots
``tracing``    :class:`SplitTrace`: the per-leaf split-deciding quantity over time
``drawing``    the tree's DOT, the instance panel, the accuracy and split charts
``widgets``    the ipywidgets panel and parameter controls, :class:`Controls`, :class:`Compare`,
               :func:`side_by_side`
"""

from __future__ import annotations

from .replay import SNAPSHOT_EVERY, LastInstance, TreeStepper
from .tracing import SplitTrace
from .widgets import DEFAULT_PARAMS, SPEEDS, Compare, Controls, ParamSpec, side_by_side

__all__ = [
    "TreeStepper",
    "Compare",
    "Controls",
    "side_by_side",
    "SplitTrace",
    "LastInstance",
    "ParamSpec",
    "DEFAULT_PARAMS",
    "SPEEDS",
    "SNAPSHOT_EVERY",
]
