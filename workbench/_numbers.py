"""Printing two numbers that are compared in a sentence ("a margin of 0.1420 is above epsilon =
0.1419") so that the printed comparison agrees with the real one.

With a fixed number of significant digits a margin of 0.14195 and an epsilon of 0.14189 print as
0.142 and 0.1419, and a reader sees "0.142 is less than 0.1419".  :func:`compared` prints both
with the same number of significant digits, starting from ``digits`` and adding digits until the
printed values are ordered as the values are (and differ when the values differ).
"""

from __future__ import annotations

import math

__all__ = ["compared", "fmt_num", "count"]


def count(n, one: str, many: str) -> str:
    """``n`` things, singular or plural: ``count(1, "leaf", "leaves")`` is ``"1 leaf"``.

    >>> count(1, "leaf", "leaves"), count(12_000, "leaf", "leaves"), count(2.0, "run", "runs")
    ('1 leaf', '12,000 leaves', '2 runs')
    """
    n = int(round(float(n)))
    return f"{n:,} {one if n == 1 else many}"


def fmt_num(v: float, digits: int = 3) -> str:
    """``v`` with ``digits`` significant digits; ``-0`` prints as ``0``, infinities as ``inf``.

    >>> fmt_num(-0.00001, 2), fmt_num(0.14189, 3), fmt_num(float("inf"))
    ('-1e-05', '0.142', 'inf')
    >>> fmt_num(-0.0), fmt_num(-4e-17, 2)
    ('0', '-4e-17')
    """
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    s = f"{float(v):.{digits}g}"
    if float(s) == 0.0:  # "-0" and "-0.0000" say nothing a reader can use
        return "0"
    return s


def _order(a: float, b: float) -> int:
    return (a > b) - (a < b)


def compared(a: float, b: float, digits: int = 3) -> tuple[str, str]:
    """``a`` and ``b`` printed with the same number of significant digits (``digits`` or more),
    enough that the printed numbers compare as ``a`` and ``b`` do.

    >>> compared(0.14196, 0.14189)
    ('0.1420', '0.1419')
    >>> compared(0.5, 0.25), compared(2e-7, 1e-7)
    (('0.50', '0.25'), ('2e-07', '1e-07'))
    >>> compared(0.1, 0.1)
    ('0.1', '0.1')
    """
    a, b = float(a) + 0.0, float(b) + 0.0  # (+ 0.0 turns -0.0 into 0.0)
    want = _order(a, b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return fmt_num(a, digits), fmt_num(b, digits)
    for d in range(digits, 18):
        sa, sb = f"{a:.{d}g}", f"{b:.{d}g}"
        if _order(float(sa), float(sb)) == want:
            # the same number of decimals on both sides reads as a comparison
            return _same_decimals(a, b, sa, sb, d)
    return repr(a), repr(b)


def _same_decimals(a: float, b: float, sa: str, sb: str, d: int) -> tuple[str, str]:
    """Both in fixed notation with the decimals the finer of the two needs (when that is short),
    so that 0.142 and 0.1419 print as 0.1420 and 0.1419."""
    if "e" in sa or "e" in sb:
        return sa, sb
    dec = max(len(s.split(".")[1]) if "." in s else 0 for s in (sa, sb))
    if dec > 12:
        return sa, sb
    fa, fb = f"{a:.{dec}f}", f"{b:.{dec}f}"
    if _order(float(fa), float(fb)) != _order(a, b):
        return sa, sb
    return (fmt_num(a, d) if float(fa) == 0 else fa), (fmt_num(b, d) if float(fb) == 0 else fb)
