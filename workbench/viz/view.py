"""Trees drawn in the browser: Graphviz compiled to WebAssembly, no ``dot`` program needed.

The drawing widget is graphviz-anywidget's (an anywidget whose JavaScript bundle carries
Graphviz as WebAssembly and lays out the DOT source in the browser, offline).  Without that
package the widget falls back to an SVG made by the system's ``dot``, or to the DOT text.
"""

from __future__ import annotations

import functools
import json
from html import escape

import ipywidgets as widgets

from .render import dot_executable

try:  # pragma: no cover - exercised by whichever branch is installed
    from graphviz_anywidget import GraphvizAnyWidget
except ImportError:  # pragma: no cover
    GraphvizAnyWidget = None

#: CSS of the drawn trees: the SVG keeps Graphviz's own size (node text 10 pt, about 13 px)
#: and its box scrolls sideways and down when the tree is wider or taller than the column;
#: shrinking a wide tree to the column made its text unreadable beyond about six leaves
TREE_CSS = """
<style>
.wb-tree, .wb-tree-static { overflow: auto; max-height: 80vh; }
.wb-tree svg, .wb-tree-static svg { max-width: none; height: auto; }
.wb-fit .wb-tree svg, .wb-tree-static.wb-fit svg { max-width: 100%; height: auto; }
.wb-stepper .wb-chart { display: block; }
.wb-stepper .widget-html-content { line-height: 1.35; }
.wb-instance table { border-collapse: collapse; font-size: 12px; }
.wb-instance td, .wb-instance th { padding: 1px 6px; text-align: left; }
.wb-ok { color: #1a7f37; font-weight: bold; }
.wb-bad { color: #c62828; font-weight: bold; }
.wb-muted { color: #777; }
</style>
"""


#: the line above a drawn tree that says how to see all of it
SCROLL_HINT = (
    "<div class='wb-muted wb-tree-hint' style='font-size:11px'>A wide tree scrolls sideways: "
    "use the scroll bar under it (or shift + mouse wheel). <code>viz.show(model, zoom=True)"
    "</code> zooms with the wheel instead.</div>"
)
ZOOM_HINT = (
    "<div class='wb-muted wb-tree-hint' style='font-size:11px'>Zoom: mouse wheel over the tree; "
    "pan: drag it.</div>"
)


def _svg_with_dot(source: str) -> str | None:
    exe = dot_executable()
    if exe is None:
        return None
    import subprocess

    proc = subprocess.run([exe, "-Tsvg"], input=source.encode(), capture_output=True, timeout=60)
    return proc.stdout.decode() if proc.returncode == 0 else None


class _FallbackTree(widgets.HTML):
    """Stand-in with the same ``dot_source`` attribute when graphviz-anywidget is missing."""

    def __init__(self, dot_source: str = ""):
        super().__init__()
        self._source = ""
        self.dot_source = dot_source

    @property
    def dot_source(self) -> str:
        return self._source

    @dot_source.setter
    def dot_source(self, source: str) -> None:
        self._source = source
        svg = _svg_with_dot(source)
        self.value = (
            svg
            if svg is not None
            else (
                "<p>Install graphviz-anywidget (pip) to draw trees here; DOT source:</p>"
                f"<pre>{escape(source)}</pre>"
            )
        )


#: graphviz-anywidget's module, loaded once per page.  anywidget evaluates a widget's ``_esm``
#: afresh for every widget (a new blob URL each time), and each evaluation of that bundle sets
#: ``window.$`` to a new jQuery; a drawing then looks up, at every redraw, the data it stored
#: with the jQuery that was global when it was made, under whichever jQuery is global now, and
#: logs "SVG initialization failed" for each redraw of every tree but the last one made (the
#: drawing itself still updates).  This wrapper evaluates the bundle once and lends every
#: widget the same module, so that one jQuery serves them all.
_ONCE_ESM = """\
const KEY = "__workbench_graphviz_anywidget__";
function bundle() {
  if (!globalThis[KEY]) {
    const url = URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" }));
    globalThis[KEY] = import(url).finally(() => URL.revokeObjectURL(url));
  }
  return globalThis[KEY];
}
export default {
  async initialize(ctx) {
    const m = await bundle();
    return m.default.initialize ? m.default.initialize(ctx) : undefined;
  },
  async render(ctx) {
    const m = await bundle();
    return m.default.render(ctx);
  },
};
"""


@functools.cache
def _drawing_class():
    """GraphvizAnyWidget with its bundle loaded once per page (see :data:`_ONCE_ESM`)."""
    esm = GraphvizAnyWidget._esm  # anywidget turned the file's path into its contents
    source = esm if isinstance(esm, str) else str(esm)
    esm = f"const SOURCE = {json.dumps(source)};\n" + _ONCE_ESM

    class Drawing(GraphvizAnyWidget):
        _esm = esm

    return Drawing


def tree_widget(dot_source: str = "digraph { }", zoom: bool = False):
    """A widget that draws DOT source and redraws whenever ``.dot_source`` is set.

    zoom: let the mouse wheel zoom and drag pan the drawing (off by default, so that the
    wheel scrolls the notebook, as a reader expects)."""
    if GraphvizAnyWidget is not None:
        w = _drawing_class()(dot_source=dot_source, enable_zoom=bool(zoom))
    else:  # pragma: no cover
        w = _FallbackTree(dot_source)
    w.add_class("wb-tree")
    return w


#: the ways of fitting a wide tree in its box (:func:`view_control`), and what each does
VIEWS = {
    "fit": "Fit: a tree wider than the column is shrunk to its width (choose full size to read "
    "small text)",
    "full size": "Full size: a wide tree scrolls sideways (scroll bar under it, or shift + "
    "mouse wheel)",
    "zoom": "Zoom: mouse wheel over the tree zooms, dragging pans",
}


def view_control(drawing, view: str = "fit", note: str = ""):
    """A fit / full size / zoom switch for a drawing made by :func:`tree_widget`, and the hint
    that says what the chosen view does (with ``note`` after it).  ``"fit"`` keeps the root
    and the title in view however wide the tree; ``"full size"`` keeps Graphviz's size and
    scrolls sideways.  Returns ``(switch, hint, holder)``: ``holder`` holds the drawing and is
    what goes into the panel (its CSS class does the fitting: the drawing's own widget view
    takes its classes only when it is made)."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(map(repr, VIEWS))}; got {view!r}")
    switch = widgets.ToggleButtons(
        options=list(VIEWS),
        value=view,
        tooltips=list(VIEWS.values()),
        style={"button_width": "70px"},
        layout=widgets.Layout(width="auto"),
    )
    switch.add_class("wb-view")
    hint = widgets.HTML()
    holder = widgets.Box([drawing], layout=widgets.Layout(display="block", min_width="0"))
    holder.add_class("wb-tree-holder")

    def show(change=None):
        v = switch.value
        if v == "fit":
            holder.add_class("wb-fit")
        else:
            holder.remove_class("wb-fit")
        drawing.enable_zoom = v == "zoom"
        hint.value = (
            f"<div class='wb-muted wb-tree-hint' style='font-size:11px'>{VIEWS[v]}.{note}</div>"
        )

    switch.observe(show, names="value")
    show()
    return switch, hint, holder


def show(model, zoom: bool = False, max_nodes: int | None = 120, **dot_options):
    """Draw ``model``'s tree in the notebook (options as :func:`workbench.viz.to_dot`).

    Trees of more than ``max_nodes`` nodes show their deepest levels collapsed (None draws
    every node); ``zoom=True`` lets the mouse wheel zoom into the drawing.  Returns the widget
    (its last child draws; setting ``.dot_source`` on it redraws).  Works on a pip-only install:
    the layout runs in the browser (Graphviz as WebAssembly), no ``dot`` program needed.
    """
    from .dot import to_dot

    return show_dot(to_dot(model, max_nodes=max_nodes, **dot_options), zoom=zoom)


def show_dot(source: str, zoom: bool = False, title: str | None = None):
    """Draw DOT ``source`` as :func:`show` draws a model (e.g. a stream generator's tree)."""
    head = [widgets.HTML(f"<b>{escape(title)}</b>")] if title else []
    hint = widgets.HTML(ZOOM_HINT if zoom else SCROLL_HINT)
    box = TreeView([widgets.HTML(TREE_CSS), *head, hint, tree_widget(source, zoom=zoom)])
    box.add_class("wb-treeview")
    return box


class TreeView(widgets.VBox):
    """What :func:`show` returns: the drawing widget, and a picture of it (SVG laid out by
    ``dot``) for pages that have no kernel (:mod:`workbench.viz.snapshot`)."""

    @property
    def dot_source(self) -> str:
        """The DOT source drawn; setting it redraws."""
        return self.children[-1].dot_source

    @dot_source.setter
    def dot_source(self, source: str) -> None:
        self.children[-1].dot_source = source

    def _repr_mimebundle_(self, **kwargs):
        from .snapshot import picture_bundle, tree_picture

        bundle = super()._repr_mimebundle_(**kwargs)
        title = "".join(c.value for c in self.children[1:-2] if isinstance(c, widgets.HTML))
        return picture_bundle(bundle, title + tree_picture(self.children[-1].dot_source))
