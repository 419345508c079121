"""Fast mode: the tests run every notebook with ``WORKBENCH_FAST=1`` and notebooks shrink their
streams and trial counts when it is set."""

from __future__ import annotations

import os

_TRUE = {"1", "true", "yes", "on"}


def fast_mode() -> bool:
    """True when the environment variable ``WORKBENCH_FAST`` is set to 1/true/yes/on."""
    return os.environ.get("WORKBENCH_FAST", "").strip().lower() in _TRUE


def size(full, fast):
    """``fast`` in fast mode, else ``full`` (for stream lengths, trial counts, grids)."""
    return fast if fast_mode() else full
