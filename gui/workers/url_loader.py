"""Download a document in a worker thread, with progress and cancel.

``core.files.fetch`` enforces the limits (scheme, deadline, size while
streaming, redirects, content type); this thread only runs it off the GUI
thread and reports by signal. Signals emitted here are queued to receivers
in the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import Signal

from core.errors import FetchError
from core.files.fetch import FetchLimits, fetch
from gui.workers.base import CancellableWorker


class UrlLoader(CancellableWorker):
    progress = Signal(int, int)
    """Bytes received and the total (``-1`` when the server did not say)."""
    loaded = Signal(bytes)
    failed = Signal(str)
    """A message naming the problem; ``"cancelled"`` after ``cancel()``."""

    def __init__(self, url: str, limits: FetchLimits | None = None) -> None:
        super().__init__()
        self.url = url
        self.limits = limits or FetchLimits()

    def run(self) -> None:
        try:
            result = fetch(
                self.url,
                limits=self.limits,
                progress=self._report,
                cancelled=self._cancel.is_set,
            )
        except FetchError as error:
            self.failed.emit("cancelled" if self.cancelled else str(error))
            return
        except Exception as error:  # a worker must always report back
            self.failed.emit(f"download failed: {error}")
            return
        if self.cancelled:
            self.failed.emit("cancelled")
        else:
            self.loaded.emit(result.body)

    def _report(self, received: int, total: int | None) -> None:
        self.progress.emit(received, -1 if total is None else total)
