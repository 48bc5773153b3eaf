"""Periodic autosave of unsaved changes, and recovery after a crash.

While the document has unsaved changes, a timer writes it (atomically) to
``autosave.json`` in the user data directory, with ``autosave-meta.json``
naming the file it came from. A clean exit, a save or discarding the changes
removes both; finding them at start-up means RigForge did not exit cleanly.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from core.errors import RigForgeError
from core.files.atomic import atomic_write_text
from core.files.io import dumps
from core.files.safe_json import MAX_FILE_BYTES, parse_json_bytes
from core.files.safe_read import read_limited
from gui.viewmodels.document import DocumentViewModel

AUTOSAVE_NAME = "autosave.json"
META_NAME = "autosave-meta.json"
DEFAULT_INTERVAL_MS = 60_000


def default_directory() -> Path:
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(location)


class AutosaveViewModel(QObject):
    saved = Signal(object)
    """Emitted with the autosave ``Path`` after each write."""
    failed = Signal(str)

    def __init__(
        self,
        document: DocumentViewModel,
        directory: Path | None = None,
        interval_ms: int = DEFAULT_INTERVAL_MS,
    ) -> None:
        super().__init__()
        self._document = document
        self.directory = directory if directory is not None else default_directory()
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._on_timer_timeout)
        document.dirty_changed.connect(self._on_document_dirty_changed)

    @property
    def file(self) -> Path:
        return self.directory / AUTOSAVE_NAME

    @property
    def meta_file(self) -> Path:
        return self.directory / META_NAME

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def autosave_now(self) -> bool:
        """Write the document if it has unsaved changes; return whether a file was written."""
        if not self._document.dirty:
            return False
        path = self._document.path
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.file, dumps(self._document.to_document()))
            meta = {"path": None if path is None else str(path)}
            atomic_write_text(self.meta_file, json.dumps(meta))
        except (OSError, RigForgeError) as error:
            self.failed.emit(f"autosave failed: {error}")
            return False
        self.saved.emit(self.file)
        return True

    def pending(self) -> bool:
        """Whether an autosave from a session that did not end cleanly exists."""
        return self.file.is_file()

    def original_path(self) -> Path | None:
        try:
            meta = parse_json_bytes(read_limited(self.meta_file, 64 * 1024))
        except RigForgeError:
            return None
        path = meta.get("path") if isinstance(meta, dict) else None
        return Path(path) if isinstance(path, str) else None

    def recover(self) -> str | None:
        """Open the autosave as an unsaved document; return a message if that failed."""
        try:
            data = read_limited(self.file, MAX_FILE_BYTES)
        except RigForgeError as error:
            return f"cannot read the autosave: {error}"
        original = self.original_path()
        problem = self._document.open_bytes(data, "the autosaved document")
        if problem is not None:
            return problem
        self._document.mark_recovered(original)
        return None

    def discard(self) -> None:
        for path in (self.file, self.meta_file):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _on_timer_timeout(self) -> None:
        self.autosave_now()

    def _on_document_dirty_changed(self, dirty: bool) -> None:
        if not dirty:
            self.discard()
