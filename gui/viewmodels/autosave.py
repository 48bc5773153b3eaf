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
from core.files.atomic import atomic_write_text, check_save_path
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
        self._claim_error = ""
        self._found: int | None = None
        """The slot ``pending`` found an autosave of a session that did not end cleanly in."""
        self.notice: str | None = None
        """What the user should know after a recovery (in words), else ``None``."""
        self._found_lock: QLockFile | None = None
        """Held on a dead window's slot from ``pending`` until it is recovered or discarded,
        so no other window starting meanwhile is offered the same changes."""

    def _lock_file(self, slot: int) -> QLockFile:
        lock = QLockFile(str(self.directory / f"autosave-{slot}.lock"))
        lock.setStaleLockTime(0)  # stale only when its process has gone
        return lock

    def _claim(self) -> int | None:
        """This window's slot in ``directory``, locked for as long as it runs (``None``
        when none can be had; ``_claim_error`` says why, and the next call tries again)."""
        if self._lock_dir == self.directory and self._slot is not None:
            return self._slot
        self.release()
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._claim_error = f"cannot make {str(self.directory)!r}: {error.strerror or error}"
            return None
        for slot in range(MAX_SLOTS):
            lock = self._lock_file(slot)
            if lock.tryLock(0):
                self._lock, self._slot, self._lock_dir = lock, slot, self.directory
                return slot
            if lock.error() != QLockFile.LockError.LockFailedError:
                self._claim_error = f"cannot write a lock file in {str(self.directory)!r}"
                return None
        self._claim_error = f"{MAX_SLOTS} RigForge windows already autosave"
        return None

    def release(self) -> None:
        """Give up this window's slot and any slot it was offered (its process is ending)."""
        for lock in (self._lock, self._found_lock):
            if lock is not None:
                lock.unlock()
        self._lock, self._lock_dir, self._slot = None, None, None
        self._found_lock, self._found = None, None

    def _files(self, slot: int) -> tuple[Path, Path]:
        autosave, meta = _names(slot)
        return self.directory / autosave, self.directory / meta

    @property
    def file(self) -> Path | None:
        """This window's autosave file (``None`` while it has no slot)."""
        slot = self._claim()
        return None if slot is None else self._files(slot)[0]

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def autosave_now(self) -> bool:
        """Write the document if it has unsaved changes; return whether a file was written."""
        if not self._document.dirty:
            return False
        slot = self._claim()
        if slot is None:
            self.failed.emit(f"autosave is off: {self._claim_error}")
            return False
        autosave, meta_file = self._files(slot)
        path = self._document.path
        try:
            atomic_write_text(autosave, dumps(self._document.to_document()))
            meta = {"path": None if path is None else str(path)}
            atomic_write_text(meta_file, json.dumps(meta))
        except (OSError, RigForgeError) as error:
            self.failed.emit(f"autosave failed: {error}")
            return False
        self.saved.emit(autosave)
        return True

    def pending(self) -> bool:
        """Whether an autosave from a session that did not end cleanly exists: this
        window's own slot, or one whose RigForge is no longer running (locked for this
        window until it is recovered or discarded)."""
        own = self._claim()
        if self._found is not None:
            return True
        for slot in range(MAX_SLOTS):
            if not self._files(slot)[0].is_file():
                continue
            if slot == own:
                self._found = slot
                return True
            probe = self._lock_file(slot)
            if probe.tryLock(0):
                self._found, self._found_lock = slot, probe
                return True
        return False

    def original_path(self) -> Path | None:
        if self._found is None:
            return None
        try:
            meta = parse_json_bytes(read_limited(self._files(self._found)[1], 64 * 1024))
        except RigForgeError:
            return None
        path = meta.get("path") if isinstance(meta, dict) else None
        if not isinstance(path, str):
            return None
        try:  # a path from a file on disk: checked as a path the user chose would be
            return check_save_path(Path(path))
        except (RigForgeError, ValueError, OSError):
            self.notice = (
                "the autosave named a file that cannot be saved to; the recovered "
                "document is untitled (use Save As)"
            )
            return None

    def recover(self) -> str | None:
        """Open the autosave ``pending`` found as an unsaved document; return a message if
        that failed. Changes from another slot move to this window's own at once."""
        if self._found is None:
            return "there is no autosave to recover"
        try:
            data = read_limited(self._files(self._found)[0], MAX_FILE_BYTES)
        except RigForgeError as error:
            return f"cannot read the autosave: {error}"
        original = self.original_path()
        problem = self._document.open_bytes(data, "the autosaved document")
        if problem is not None:
            return problem
        self._document.mark_recovered(original)
        if self._found != self._claim() and self.autosave_now():
            self._forget_found()
        return None

    def discard(self) -> None:
        """Delete this window's autosave, and the one it was offered to recover."""
        if self._slot is not None and self._lock_dir == self.directory:
            self._remove(*self._files(self._slot))
        self._forget_found()

    def _forget_found(self) -> None:
        if self._found is not None and self._found != self._slot:
            self._remove(*self._files(self._found))
        if self._found_lock is not None:
            self._found_lock.unlock()
        self._found, self._found_lock = None, None

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
