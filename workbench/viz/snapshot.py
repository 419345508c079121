"""Pictures of live widgets for pages without a kernel (the rendered book, nbconvert, GitHub).

A widget shows nothing where no kernel runs it.  The stepper, :func:`~workbench.viz.show` and
:func:`~workbench.viz.side_by_side` therefore put, next to the live widget in their display
bundle, a ``text/html`` picture of the state they were displayed in: the tree laid out by
Graphviz's ``dot`` (as SVG at its natural size, scrolling sideways when wide, so that node text
stays readable) and the stepper's charts and caption.  JupyterLab prefers the live widget and
never shows the picture; the book leaves the widget out and shows the picture.  Without ``dot``
the picture gives the DOT source instead of the drawing.
"""

from __future__ import annotations

import re
from html import escape

from .render import svg_with_dot
from .style import FIT_MIN_SCALE, TREE_CSS

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def _natural_width(svg: str) -> float | None:
    """The width of ``dot``'s SVG in CSS pixels (its ``width`` attribute is in points)."""
    m = re.search(r'<svg[^>]*\swidth="([\d.]+)(pt|px)?"', svg)
    if not m:
        return None
    return float(m.group(1)) * (4 / 3 if m.group(2) in (None, "pt") else 1.0)


def tree_picture(dot_source: str, fit: bool = False) -> str:
    """The tree as inline SVG laid out by ``dot`` (or its DOT source), in a box that scrolls
    sideways rather than shrinking the drawing: node text keeps Graphviz's size (10 pt).
    ``fit``: shrink a tree wider than the column to its width instead, but not below
    :data:`~workbench.viz.style.FIT_MIN_SCALE` of its size (so that its text stays readable;
    beyond that the box scrolls)."""
    svg = svg_with_dot(dot_source)
    if svg is None:
        return (
            "<div class='wb-tree-static wb-muted'>(Graphviz's <code>dot</code> was not installed "
            f"where this page was made; the tree's DOT source:)<pre>{escape(dot_source)}</pre></div>"
        )
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg
    natural = _natural_width(svg)
    if fit and natural:
        svg = svg.replace("<svg", f"<svg style='min-width:{FIT_MIN_SCALE * natural:.0f}px'", 1)
    css = "wb-tree-static wb-fit" if fit else "wb-tree-static"
    return f"<div class='{css}' style='overflow-x:auto; max-width:100%'>{svg}</div>"


def picture_bundle(bundle: dict, html: str) -> dict:
    """``bundle`` (a widget's display bundle) with ``html`` added as its static picture."""
    if isinstance(bundle, tuple):  # (data, metadata)
        return (picture_bundle(bundle[0], html), *bundle[1:])
    out = dict(bundle or {})
    out["text/html"] = (
        f"<div class='wb-snapshot'>{TREE_CSS}"
        "<div class='wb-muted' style='font-size:11px'>(a picture of the widget as it was "
        "displayed; run the notebook to step it)</div>"
        f"{html}</div>"
    )
    return out
