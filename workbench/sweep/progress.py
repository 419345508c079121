"""The progress bar of a sweep: tqdm's notebook widget in Jupyter, a text bar in a terminal.

It counts cells (those a resumed sweep found finished start the bar), shows cells per second
and the time left, and the number of cells that ended in an error.
"""

from __future__ import annotations


class Progress:
    def __init__(self, total: int, initial: int, enabled=True, errors: int = 0):
        self.bar = None
        self.errors = errors
        if not enabled:
            return
        options = dict(desc="sweep", unit="cell", smoothing=0.1, dynamic_ncols=True)
        if isinstance(enabled, dict):
            options.update(enabled)  # any tqdm keyword: desc, position, leave, ...
        from tqdm.auto import tqdm

        self.bar = tqdm(total=total, initial=initial, **options)
        if errors:
            self.bar.set_postfix(errors=errors, refresh=False)

    def update(self, rows: list[dict]) -> None:
        if self.bar is None:
            return
        new_errors = sum(1 for r in rows if r.get("error"))
        if new_errors:
            self.errors += new_errors
            self.bar.set_postfix(errors=self.errors, refresh=False)
        self.bar.update(len(rows))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
