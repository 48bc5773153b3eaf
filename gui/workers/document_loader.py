"""Open a document without freezing the window: read and parse it in a worker thread,
then analyse its builds on the GUI thread a slice at a time.

The analyses run on the GUI thread, not in the worker, because a Python thread that
computes steadily holds the interpreter lock against every Python call the window makes
while painting (each waits for the lock's switch interval): a 64-build file analysed in a
thread froze the window for over a second. Reading and parsing is one step (a few hundred
milliseconds for the largest file the format allows) during which the window is idle.
Each slice analyses builds until ``SLICE_S`` has passed, then lets the event loop run.
The document is replaced only when everything succeeded (``DocumentViewModel.commit``);
Cancel stops it between two builds.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from core.models.analysis import Analysis
from gui.viewmodels.document import DocumentViewModel, ParsedDocument

SLICE_S = 0.015
"""Analyses per event-loop turn stop once this much time has passed (one frame)."""


class _ParseThread(QThread):
    parsed = Signal(object)
    """A ``ParsedDocument`` or a message (``str``)."""

    def __init__(self, run: object) -> None:
        super().__init__()
        self._run = run

    def run(self) -> None:
        try:
            result = self._run()  # type: ignore[operator]
        except Exception as error:  # a worker must always report back
            result = f"cannot open: {error}"
        self.parsed.emit(result)


class DocumentLoader(QObject):
    progress = Signal(int, int)
    """Builds analysed so far and the file's build count."""
    loaded = Signal(object)
    """A ``gui.viewmodels.document.LoadedDocument``."""
    failed = Signal(str)
    """A message naming the problem; ``"cancelled"`` after ``cancel()``."""

    def __init__(
        self,
        document: DocumentViewModel,
        *,
        path: Path | None = None,
        data: bytes | None = None,
        source: str = "",
    ) -> None:
        super().__init__()
        self.document = document
        self.path, self.data, self.source = path, data, source
        self._cancel = threading.Event()
        self._thread = _ParseThread(lambda: document.parse(path=path, data=data, source=source))
        self._thread.parsed.connect(self._on_parse_thread_parsed)
        self._parsed: ParsedDocument | None = None
        self._analyses: list[Analysis] = []
        self._running = False

    @property
    def name(self) -> str:
        """What the user opened, in words (the file's name or the address)."""
        return self.path.name if self.path is not None and not self.source else self.source

    def start(self) -> None:
        self._running = True
        self._thread.start()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def isRunning(self) -> bool:
        """Whether the open has not ended yet (reading, parsing or analysing); once
        cancelled it has ended when the read is over (no further analysis runs)."""
        if self.cancelled and self._thread.isFinished():
            return False
        return self._running

    def wait(self, milliseconds: int = 5000) -> bool:
        """Wait for the reading thread (the analyses stop at the next slice once cancelled)."""
        return self._thread.wait(milliseconds)

    def _end(self) -> None:
        self._running = False
        self._thread.wait()

    def _on_parse_thread_parsed(self, parsed: ParsedDocument | str) -> None:
        if self.cancelled:
            self._end()
            self.failed.emit("cancelled")
        elif isinstance(parsed, str):
            self._end()
            self.failed.emit(parsed)
        else:
            self._parsed = parsed
            self.progress.emit(0, len(parsed.session.builds))
            QTimer.singleShot(0, self._analyse_slice)

    def _analyse_slice(self) -> None:
        parsed = self._parsed
        if parsed is None or not self._running:
            return
        total = len(parsed.session.builds)
        started = time.perf_counter()
        while len(self._analyses) < total and time.perf_counter() - started < SLICE_S:
            if self.cancelled:
                self._end()
                self.failed.emit("cancelled")
                return
            analysis = self.document.analyse(parsed, len(self._analyses))
            if isinstance(analysis, str):
                self._end()
                self.failed.emit(analysis)
                return
            self._analyses.append(analysis)
        self.progress.emit(len(self._analyses), total)
        if len(self._analyses) < total:
            QTimer.singleShot(0, self._analyse_slice)
        else:
            self._end()
            self.loaded.emit(parsed.analysed(tuple(self._analyses)))
