"""Errors inside a widget's callbacks, shown in the widget.

A button's or a slider's callback runs outside any cell: an exception it raises goes to
JupyterLab's log console, which a student never opens, and the widget just stops answering.
:func:`guarded` wraps a callback so that its exception is written into the widget instead (the
message in red, the traceback folded under it) and the widget keeps working.
"""

from __future__ import annotations

import functools
import traceback
from html import escape


def error_html(err: BaseException, doing: str = "") -> str:
    """An exception as a short red line (``doing`` says what failed) with its traceback
    folded under it."""
    what = f"{doing} failed: " if doing else ""
    trace = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    return (
        f"<div class='wb-error' data-error='{escape(type(err).__name__)}'><b>✗ {escape(what)}"
        f"{escape(type(err).__name__)}: {escape(str(err))}</b>"
        f"<details><summary>traceback</summary><pre>{escape(trace)}</pre></details></div>"
    )


def guarded(callback, show, doing: str = ""):
    """``callback`` for a widget: an exception it raises is passed to ``show`` (a function
    that puts HTML into the widget, e.g. ``lambda h: setattr(box, "value", h)``) as
    :func:`error_html` instead of propagating; a call that succeeds clears the message."""

    @functools.wraps(callback)
    def run(*args, **kwargs):
        try:
            out = callback(*args, **kwargs)
        except Exception as err:  # noqa: BLE001 - shown in the widget, where the user looks
            show(error_html(err, doing))
            return None
        show("")
        return out

    return run
