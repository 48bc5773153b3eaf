"""The shared shape of RigForge's worker threads: run once, cancel cooperatively."""

from __future__ import annotations

import threading

from PySide6.QtCore import QThread


class CancellableWorker(QThread):
    """A thread whose slow core call polls ``self._cancel.is_set`` to stop early."""

    def __init__(self) -> None:
        super().__init__()
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()
