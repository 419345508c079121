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

from .dot import to_dot
from .render import svg_with_dot
from .snapshot import picture_bundle, tree_picture
from .style import FIT_MIN_SCALE, TREE_CSS

try:  # pragma: no cover - exercised by whichever branch is installed
    from graphviz_anywidget import GraphvizAnyWidget
except ImportError:  # pragma: no cover
    GraphvizAnyWidget = None

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
        svg = svg_with_dot(source)
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
const MIN_SCALE = __MIN_SCALE__;
function bundle() {
  if (!globalThis[KEY]) {
    const url = URL.createObjectURL(new Blob([SOURCE], { type: "text/javascript" }));
    globalThis[KEY] = import(url).finally(() => URL.revokeObjectURL(url));
  }
  return globalThis[KEY];
}
// "fit" shrinks a wide drawing to its column, but not below MIN_SCALE of its size (the text
// stays readable); a drawing wider than that scrolls, opened with its root in view
function naturalWidth(svg) {
  const m = /^([\\d.]+)(pt|px)?$/.exec(svg.getAttribute("width") || "");
  if (m) return parseFloat(m[1]) * (m[2] === "px" ? 1 : 4 / 3);
  const vb = svg.viewBox && svg.viewBox.baseVal;
  return vb && vb.width ? vb.width * 4 / 3 : 0;
}
function keepReadable(el) {
  const svg = el.querySelector("svg");
  if (!svg) return;
  const fit = !!el.closest(".wb-fit");
  const want = fit ? `${Math.round(naturalWidth(svg) * MIN_SCALE)}px` : "";
  if (svg.style.minWidth !== want) svg.style.minWidth = want;
  el.dataset.minScale = fit ? String(MIN_SCALE) : "";
  if (fit && el.scrollWidth > el.clientWidth + 1 && el.dataset.scrolledFor !== svg.getAttribute("viewBox")) {
    const root = svg.querySelector("g.node");
    if (root) {
      const r = root.getBoundingClientRect(), b = el.getBoundingClientRect();
      el.scrollLeft += r.left + r.width / 2 - (b.left + b.width / 2);
    }
    el.dataset.scrolledFor = svg.getAttribute("viewBox") || "";
  }
}
function watch(el) {
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; keepReadable(el); });
  };
  const obs = new MutationObserver(later);
  obs.observe(el, { subtree: true, childList: true, attributes: true, attributeFilter: ["width", "viewBox"] });
  const holder = el.closest(".wb-tree-holder");
  if (holder) obs.observe(holder, { attributes: true, attributeFilter: ["class"] });
  later();
  return () => obs.disconnect();
}
export default {
  async initialize(ctx) {
    const m = await bundle();
    return m.default.initialize ? m.default.initialize(ctx) : undefined;
  },
  async render(ctx) {
    const m = await bundle();
    const done = await m.default.render(ctx);
    const stop = watch(ctx.el);
    return () => { stop(); if (typeof done === "function") done(); };
  },
};
"""


@functools.cache
def _drawing_class():
    """GraphvizAnyWidget with its bundle loaded once per page (see :data:`_ONCE_ESM`)."""
    esm = GraphvizAnyWidget._esm  # anywidget turned the file's path into its contents
    source = esm if isinstance(esm, str) else str(esm)
    esm = f"const SOURCE = {json.dumps(source)};\n" + _ONCE_ESM.replace(
        "__MIN_SCALE__", str(FIT_MIN_SCALE)
    )

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
    "fit": f"Fit: a tree wider than the column is shrunk to its width, down to "
    f"{FIT_MIN_SCALE:.0%} of its size so that its text stays readable; a wider one scrolls "
    "sideways, opened at its root",
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
        bundle = super()._repr_mimebundle_(**kwargs)
        title = "".join(c.value for c in self.children[1:-2] if isinstance(c, widgets.HTML))
        return picture_bundle(bundle, title + tree_picture(self.children[-1].dot_source))
