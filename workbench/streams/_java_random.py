"""A pure-Python port of the generator behind ``java.util.Random``.

MOA grows the concept tree of its ``RandomTreeGenerator`` with ``java.util.Random``.  To grow the
very same tree from the same seed we need the same sequence of numbers, so this module
re-implements the generator from its published specification (the class's Javadoc fixes the
algorithm so that every Java implementation agrees):

* state: 48 bits; seeding scrambles the seed as ``(seed XOR 0x5DEECE66D) mod 2**48``;
* ``next(bits)``: ``state <- (0x5DEECE66D * state + 0xB) mod 2**48``, return the top ``bits`` bits
  as a signed 32-bit integer;
* ``nextInt(bound)``: for a power of two the top bits of ``next(31)`` scaled by ``bound``; otherwise
  ``next(31) mod bound``, rejecting the draws that would make the result biased;
* ``nextDouble()``: ``(next(26) * 2**27 + next(27)) / 2**53``.

It is slow (one Python call per number) and only used where a few thousand draws are needed:
growing a tree.  Streams of instances are drawn with NumPy.
"""

from __future__ import annotations

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1


def _to_int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= (1 << 31) else value


class JavaRandom:
    """The linear congruential generator of ``java.util.Random``, seeded like ``new Random(seed)``.

    Examples
    --------
    >>> rng = JavaRandom(1)
    >>> 0 <= rng.next_int(10) < 10
    True
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        # Java takes a 64-bit long; Python ints are unbounded, so reduce first.
        self._state = (int(seed) ^ _MULTIPLIER) & _MASK

    def _next(self, bits: int) -> int:
        self._state = (self._state * _MULTIPLIER + _ADDEND) & _MASK
        return _to_int32(self._state >> (48 - bits))

    def next_int(self, bound: int) -> int:
        """A uniform integer in ``[0, bound)``, identical to Java's ``nextInt(bound)``."""
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        r = self._next(31)
        m = bound - 1
        if bound & m == 0:  # power of two: use the high bits, they are the better ones
            return _to_int32((bound * r) >> 31)
        u = r
        r = u % bound
        # Reject the last incomplete block of size `bound` (Java detects it by int overflow).
        while _to_int32(u - r + m) < 0:
            u = self._next(31)
            r = u % bound
        return r

    def next_double(self) -> float:
        """A uniform double in ``[0, 1)`` with 53 random bits, identical to Java's ``nextDouble()``."""
        return ((self._next(26) << 27) + self._next(27)) * (1.0 / (1 << 53))
