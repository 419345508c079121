"""Small line charts as SVG text, for widgets that must redraw in a few milliseconds.

Matplotlib needs tens of milliseconds to draw even a small figure to PNG; the stepper redraws
two charts at every step, so it writes them as SVG markup instead (well under a millisecond)
and hands the text to an ``ipywidgets.HTML``.  Every element carries a CSS class, so that a
browser test can find the lines, the split marker and the crossing.
"""

from __future__ import annotations

import itertools
import math
from html import escape

import numpy as np

FONT = "font-family:Helvetica,Arial,sans-serif"
_CLIP_IDS = itertools.count()


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About ``n`` round tick values covering [lo, hi]."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return []
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / max(n, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks, v = [], first
    while v <= hi + 1e-9 * step:
        ticks.append(0.0 if abs(v) < 1e-12 * step else v)
        v += step
    return ticks


def _fmt_tick(v: float, span: float) -> str:
    if span >= 1000 and v == int(v):
        return f"{v / 1000:g}k" if abs(v) >= 1000 else f"{int(v)}"
    if span >= 5 and v == int(v):
        return f"{int(v)}"
    return f"{v:.3g}"


def _segments(x: np.ndarray, y: np.ndarray):
    """Runs of finite points (NaN breaks a line)."""
    ok = np.isfinite(x) & np.isfinite(y)
    start = None
    for i, good in enumerate(ok):
        if good and start is None:
            start = i
        elif not good and start is not None:
            yield start, i
            start = None
    if start is not None:
        yield start, len(ok)


def line_chart(
    series,
    *,
    width: int = 380,
    height: int = 190,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    xlim=None,
    ylim=None,
    vlines=(),
    markers=(),
    css_class: str = "",
    empty_text: str = "no data yet",
    attrs: dict | None = None,
) -> str:
    """An SVG line chart.

    series:  dicts with ``x``, ``y`` (arrays; NaN breaks the line), and optionally ``label``,
             ``color``, ``width``, ``dash`` (SVG dash array), ``css`` (class of the polyline),
             ``step`` (draw as a step function, holding each value until the next x).
    vlines:  dicts with ``x``, ``label``, ``color``, ``css``: vertical rules (events).
    markers: dicts with ``x``, ``y``, ``color``, ``css``, ``label``: dots.
    attrs:   extra attributes of the ``<svg>`` element (``data-*`` for tests).
    """
    labelled = [s for s in series if s.get("label")]
    ml, mr, mb = 46, 10, 30 if x_label else 20
    # legend entries flow left to right under the title, wrapping into more rows
    legend, lx, row = [], ml, 0
    for s in labelled:
        w = 22 + 5.8 * len(s["label"]) + 10
        if lx + w > width - mr and lx > ml:
            lx, row = ml, row + 1
        legend.append((s, lx, row))
        lx += w
    n_rows = row + 1 if labelled else 0
    mt = 8 + (16 if title else 0) + 13 * n_rows
    pw, ph = width - ml - mr, height - mt - mb
    xs = [np.asarray(s["x"], float) for s in series]
    ys = [np.asarray(s["y"], float) for s in series]
    allx = (
        np.concatenate(xs + [np.asarray([v["x"] for v in vlines], float)])
        if xs or vlines
        else np.empty(0)
    )
    ally = np.concatenate(ys) if ys else np.empty(0)
    allx = allx[np.isfinite(allx)]
    ally = ally[np.isfinite(ally)]
    extra = {
        "class": f"wb-chart {css_class}".strip(),
        "width": width,
        "height": height,
        "viewBox": f"0 0 {width} {height}",
        "xmlns": "http://www.w3.org/2000/svg",
    }
    extra.update(attrs or {})
    head = "<svg " + " ".join(f'{k}="{escape(str(v))}"' for k, v in extra.items()) + ">"
    out = [head, f'<rect x="0" y="0" width="{width}" height="{height}" fill="white"/>']
    if title:
        out.append(
            f'<text x="{ml}" y="14" style="{FONT};font-size:12px;font-weight:bold" '
            f'fill="#222">{escape(title)}</text>'
        )
    if allx.size == 0 or ally.size == 0:
        # one line per "\n" of empty_text, centred on the plot area
        lines = empty_text.split("\n")
        y0 = mt + ph / 2 - 7 * (len(lines) - 1)
        spans = "".join(
            f'<tspan x="{ml + pw / 2}" y="{y0 + 14 * i}">{escape(line)}</tspan>'
            for i, line in enumerate(lines)
        )
        out.append(
            f'<text text-anchor="middle" class="wb-empty" style="{FONT};font-size:11px" '
            f'fill="#888">{spans}</text></svg>'
        )
        return "".join(out)
    x0, x1 = (float(allx.min()), float(allx.max())) if xlim is None else map(float, xlim)
    y0, y1 = (float(ally.min()), float(ally.max())) if ylim is None else map(float, ylim)
    if x1 <= x0:
        x0, x1 = x0 - 1, x1 + 1
    if y1 <= y0:
        pad = abs(y0) * 0.1 or 0.05
        y0, y1 = y0 - pad, y1 + pad
    elif ylim is None:
        pad = (y1 - y0) * 0.06
        y0, y1 = y0 - pad, y1 + pad

    def px(v):
        return ml + (v - x0) / (x1 - x0) * pw

    def py(v):
        return mt + ph - (v - y0) / (y1 - y0) * ph

    # axes and grid
    for v in nice_ticks(y0, y1, 4):
        yy = py(v)
        out.append(f'<line x1="{ml}" x2="{ml + pw}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#e6e6e6"/>')
        out.append(
            f'<text x="{ml - 4}" y="{yy + 3.5:.1f}" text-anchor="end" '
            f'style="{FONT};font-size:10px" fill="#555">{_fmt_tick(v, y1 - y0)}</text>'
        )
    for v in nice_ticks(x0, x1, 5):
        xx = px(v)
        out.append(
            f'<line x1="{xx:.1f}" x2="{xx:.1f}" y1="{mt + ph}" y2="{mt + ph + 3}" stroke="#555"/>'
        )
        out.append(
            f'<text x="{xx:.1f}" y="{mt + ph + 13}" text-anchor="middle" '
            f'style="{FONT};font-size:10px" fill="#555">{_fmt_tick(v, x1 - x0)}</text>'
        )
    out.append(f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>')
    if x_label:
        out.append(
            f'<text x="{ml + pw / 2}" y="{height - 4}" text-anchor="middle" '
            f'style="{FONT};font-size:10px" fill="#333">{escape(x_label)}</text>'
        )
    if y_label:
        out.append(
            f'<text x="10" y="{mt + ph / 2}" text-anchor="middle" '
            f'transform="rotate(-90 10 {mt + ph / 2})" style="{FONT};font-size:10px" '
            f'fill="#333">{escape(y_label)}</text>'
        )
    clip = f"wbclip{next(_CLIP_IDS)}"
    out.append(
        f'<clipPath id="{clip}"><rect x="{ml}" y="{mt}" width="{pw}" '
        f'height="{ph}"/></clipPath><g clip-path="url(#{clip})">'
    )
    for v in vlines:
        xx = px(float(v["x"]))
        color = v.get("color", "#444")
        out.append(
            f'<line class="{escape(v.get("css", "wb-vline"))}" x1="{xx:.1f}" '
            f'x2="{xx:.1f}" y1="{mt}" y2="{mt + ph}" stroke="{color}" '
            f'stroke-width="1.5" stroke-dasharray="4,2"/>'
        )
    for s, x, y in zip(series, xs, ys):
        color = s.get("color", "#1f77b4")
        dash = f' stroke-dasharray="{s["dash"]}"' if s.get("dash") else ""
        for a, b in _segments(x, y):
            sx = ml + (x[a:b] - x0) * (pw / (x1 - x0))
            sy = mt + ph - (y[a:b] - y0) * (ph / (y1 - y0))
            if s.get("step") and b - a > 1:  # hold each value until the next x
                sx = np.repeat(sx, 2)[1:]
                sy = np.repeat(sy, 2)[:-1]
            css = escape(s.get("css", "wb-series"))
            if sx.shape[0] == 1:
                out.append(
                    f'<circle class="{css}" cx="{sx[0]:.1f}" cy="{sy[0]:.1f}" r="2" '
                    f'fill="{color}"/>'
                )
                continue
            pts = " ".join(f"{u:.1f},{v:.1f}" for u, v in zip(sx.tolist(), sy.tolist()))
            out.append(
                f'<polyline class="{css}" fill="none" stroke="{color}" '
                f'stroke-width="{s.get("width", 1.6)}"{dash} points="{pts}"/>'
            )
    for m in markers:
        out.append(
            f'<circle class="{escape(m.get("css", "wb-marker"))}" '
            f'cx="{px(float(m["x"])):.1f}" cy="{py(float(m["y"])):.1f}" r="4.5" '
            f'fill="{m.get("color", "#d62728")}" stroke="white" stroke-width="1"/>'
        )
    out.append("</g>")
    for v in vlines:
        if v.get("label"):
            xx = px(float(v["x"]))
            anchor = "end" if xx > ml + pw * 0.6 else "start"
            dx = -3 if anchor == "end" else 3
            out.append(
                f'<text class="{escape(v.get("css", "wb-vline"))}-label" '
                f'x="{xx + dx:.1f}" y="{mt + 11}" text-anchor="{anchor}" '
                f'style="{FONT};font-size:10px;font-weight:bold" '
                f'fill="{v.get("color", "#444")}">{escape(v["label"])}</text>'
            )
    for s, lx, row in legend:
        ly = (30 if title else 14) + 13 * row
        dash = f' stroke-dasharray="{s["dash"]}"' if s.get("dash") else ""
        out.append(
            f'<line x1="{lx:.1f}" x2="{lx + 16:.1f}" y1="{ly - 3}" y2="{ly - 3}" '
            f'stroke="{s.get("color", "#1f77b4")}" stroke-width="2"{dash}/>'
        )
        out.append(
            f'<text x="{lx + 20:.1f}" y="{ly}" style="{FONT};font-size:10px" '
            f'fill="#333">{escape(s["label"])}</text>'
        )
    out.append("</svg>")
    return "".join(out)
