"""The look of the drawn trees and the steppers: one block of CSS that every widget and every
static picture of one carries (the rendered book has no other style for them)."""

from __future__ import annotations

#: the smallest scale "fit" shrinks a drawing to: Graphviz's node text is 10 pt (about 13 px),
#: so text stays at 9 px or more; a tree wider than that scrolls sideways, opened at its root
FIT_MIN_SCALE = 0.7

#: CSS of the drawn trees: the SVG keeps Graphviz's own size (node text 10 pt, about 13 px)
#: and its box scrolls sideways and down when the tree is wider or taller than the column;
#: "fit" shrinks a wide tree to the column, but not below :data:`FIT_MIN_SCALE`.  Titles are
#: bold text, not headings: in a page (the book) a heading takes the page's heading style
TREE_CSS = """
<style>
.wb-tree, .wb-tree-static { overflow: auto; max-height: 80vh; }
.wb-tree svg, .wb-tree-static svg { max-width: none; height: auto; }
.wb-fit .wb-tree svg, .wb-tree-static.wb-fit svg { max-width: 100%; height: auto; }
.wb-stepper .wb-chart { display: block; }
.wb-stepper .widget-html-content { line-height: 1.35; }
.wb-title { font-weight: bold; font-size: 14px; margin: 4px 0 0 0; }
.wb-instance table { border-collapse: collapse; font-size: 12px; }
.wb-instance td, .wb-instance th { padding: 1px 6px; text-align: left; }
.wb-ok { color: #1a7f37; font-weight: bold; }
.wb-bad { color: #c62828; font-weight: bold; }
.wb-muted { color: #777; }
.wb-error { color: #c62828; font-size: 12px; }
.wb-error pre { white-space: pre-wrap; font-size: 11px; max-height: 14em; overflow: auto; }
</style>
"""
