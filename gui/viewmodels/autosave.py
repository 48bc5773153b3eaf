"""Periodic autosave of unsaved changes, and recovery after a crash.

While the document has unsaved changes, a timer writes it (atomically) to
``autosave.json`` in the user data directory, with ``autosave-meta.json``
naming the file it came from. A clean exit, a save or discarding the changes
removes both; finding them at start-up means RigForge did not exit cleanly.

Each running RigForge holds a lock on its own slot (``autosave-K.lock``, Qt's
``QLockFile``: the lock of a process that died is stale and taken over), and writes
slot 0 as ``autosave.json``, slot K as ``autosave-K.json``. A second window therefore
never offers to "recover" the live edits of the first, nor deletes them when it closes.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer, Signal

from core.errors import RigForgeError
from core.files.atomic import atomic_write_text
from core.files.io import dumps
from core.files.safe_json import MAX_FILE_BYTES, parse_json_bytes
from core.files.safe_read import read_limited
from gui.viewmodels.document import DocumentViewModel

AUTOSAVE_NAME = "autosave.json"
META_NAME = "autosave-meta.json"
DEFAULT_INTERVAL_MS = 60_000
MAX_SLOTS = 16
"""Most RigForge windows that autosave at once (one more autosaves nothing and says so)."""


def _names(slot: int) -> tuple[str, str]:
    if slot == 0:
        return AUTOSAVE_NAME, META_NAME
    return f"autosave-{slot}.json", f"autosave-{slot}-meta.json"


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
        self._lock: QLockFile | None = None
        self._lock_dir: Path | None = None
        self._slot: int | None = None
        self._found: int | None = None
        """The slot ``pending`` found an autosave of a session that did not end cleanly in."""

    def _claim(self) -> int | None:
        """This window's slot in ``directory`` (locked for as long as it runs)."""
        if self._lock_dir == self.directory:
            return self._slot
        self.release()
        with contextlib.suppress(OSError):
            self.directory.mkdir(parents=True, exist_ok=True)
        self._lock_dir = self.directory
        for slot in range(MAX_SLOTS):
            lock = QLockFile(str(self.directory / f"autosave-{slot}.lock"))
            lock.setStaleLockTime(0)  # stale only when its process has gone
            if lock.tryLock(0):
                self._lock, self._slot = lock, slot
                return slot
        return None

    def release(self) -> None:
        """Give up this window's slot (its process is ending)."""
        if self._lock is not None:
            self._lock.unlock()
        self._lock, self._lock_dir, self._slot = None, None, None

    def _held_elsewhere(self, slot: int) -> bool:
        """Whether another running RigForge holds ``slot``."""
        lock = QLockFile(str(self.directory / f"autosave-{slot}.lock"))
        lock.setStaleLockTime(0)
        if lock.tryLock(0):
            lock.unlock()
            return False
        return True

    @property
    def file(self) -> Path:
        slot = self._claim()
        return self.directory / _names(0 if slot is None else slot)[0]

    @property
    def meta_file(self) -> Path:
        slot = self._claim()
        return self.directory / _names(0 if slot is None else slot)[1]

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def autosave_now(self) -> bool:
        """Write the document if it has unsaved changes; return whether a file was written."""
        if not self._document.dirty:
            return False
        if self._claim() is None:
            self.failed.emit(f"autosave is off: {MAX_SLOTS} RigForge windows already autosave")
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
        """Whether an autosave from a session that did not end cleanly exists: this
        window's own slot, or one whose RigForge is no longer running."""
        own = self._claim()
        self._found = None
        for slot in range(MAX_SLOTS):
            if not (self.directory / _names(slot)[0]).is_file():
                continue
            if slot == own or not self._held_elsewhere(slot):
                self._found = slot
                return True
        return False

    def _found_files(self) -> tuple[Path, Path]:
        slot = self._found if self._found is not None else (self._claim() or 0)
        autosave, meta = _names(slot)
        return self.directory / autosave, self.directory / meta

    def original_path(self) -> Path | None:
        try:
            meta = parse_json_bytes(read_limited(self._found_files()[1], 64 * 1024))
        except RigForgeError:
            return None
        path = meta.get("path") if isinstance(meta, dict) else None
        return Path(path) if isinstance(path, str) else None

    def recover(self) -> str | None:
        """Open the autosave as an unsaved document; return a message if that failed.
        The recovered changes move to this window's own slot at once."""
        try:
            data = read_limited(self._found_files()[0], MAX_FILE_BYTES)
        except RigForgeError as error:
            return f"cannot read the autosave: {error}"
        original = self.original_path()
        problem = self._document.open_bytes(data, "the autosaved document")
        if problem is not None:
            return problem
        self._document.mark_recovered(original)
        if self._found is not None and self._found != self._claim() and self.autosave_now():
            self._remove(*self._found_files())
            self._found = None
        return None

    def discard(self) -> None:
        """Delete this window's autosave, and the one it was offered to recover."""
        self._remove(self.file, self.meta_file)
        if self._found is not None:
            self._remove(*self._found_files())
            self._found = None

    @staticmethod
    def _remove(*paths: Path) -> None:
        for path in paths:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def _on_timer_timeout(self) -> None:
        self.autosave_now()

    def _on_document_dirty_changed(self, dirty: bool) -> None:
        if not dirty:
            self.discard()
