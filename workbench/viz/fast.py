"""Quick mode: notebooks shrink their streams, trial counts and grids so that they run in
minutes instead of the laptop-scale reproduction's longer runs.

Three places switch it on, the first that says something wins:

* the switch at the top of every notebook, ``QUICK = True`` / ``False`` passed to
  :func:`set_quick` (``QUICK = None`` leaves the decision to the next two);
* ``python3 dev.py lab --quick``, which starts JupyterLab with ``WORKBENCH_FAST=1``;
* the environment variable ``WORKBENCH_FAST`` itself (the tests set it to 1).

:func:`set_quick` writes the environment variable, so worker processes a sweep starts see the
same mode as the notebook.
"""

from __future__ import annotations

import os

_TRUE = {"1", "true", "yes", "on"}


def fast_mode() -> bool:
    """True when the environment variable ``WORKBENCH_FAST`` is set to 1/true/yes/on."""
    return os.environ.get("WORKBENCH_FAST", "").strip().lower() in _TRUE


def set_quick(quick: bool | None = None) -> bool:
    """The notebooks' switch: ``True`` quick mode, ``False`` the full run, ``None`` keep what the
    environment says (``dev.py lab --quick``, the tests).  Returns the mode now in force.

    >>> import os
    >>> old = os.environ.get("WORKBENCH_FAST")
    >>> set_quick(True), set_quick(None), set_quick(False)
    (True, True, False)
    >>> _ = os.environ.pop("WORKBENCH_FAST") if old is None else os.environ.update(WORKBENCH_FAST=old)
    """
    if quick is not None:
        if not isinstance(quick, bool):
            raise ValueError(f"QUICK must be True, False or None; got {quick!r}")
        os.environ["WORKBENCH_FAST"] = "1" if quick else "0"
    return fast_mode()


def size(full, fast):
    """``fast`` in quick mode, else ``full`` (for stream lengths, trial counts, grids)."""
    return fast if fast_mode() else full
