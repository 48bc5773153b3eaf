"""The open document's file: its path, whether it has unsaved changes, recent files.

Opening parses the whole file and analyses every build before anything changes, so a
bad file (or one that cannot be analysed) leaves the open session untouched; then the
session is replaced in one step. Saving writes the session; a refused or failed save
says why and leaves the document unsaved.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from core.errors import RigForgeError
from core.files.document import Document
from core.files.io import OpenedFile, open_file, parse_document, save_file, to_document
from core.models.session import Session
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.session import SessionViewModel, default_workload

MAX_RECENT = 10
RECENT_KEY = "files/recent"


class DocumentViewModel(QObject):
    dirty_changed = Signal(bool)
    path_changed = Signal(object)
    """Emitted with the new ``Path`` (or ``None`` for an unsaved document)."""
    recent_files_changed = Signal(list)

    def __init__(
        self,
        session: SessionViewModel,
        cache: AnalysisCache,
        store: QSettings | None = None,
    ) -> None:
        super().__init__()
        self.session_view_model = session
        self.cache = cache
        self._store = store if store is not None else QSettings()
        self._path: Path | None = None
        self._saved = session.session.content()
        self._dirty = False
        self.notices: tuple[str, ...] = ()
        session.session_changed.connect(self._on_session_changed)

    # -- state ---------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def dirty(self) -> bool:
        return self._dirty

    @property
    def session(self) -> Session:
        return self.session_view_model.session

    @property
    def display_name(self) -> str:
        if self._path is not None:
            return self._path.name
        return self.session.title or "Untitled"

    def to_document(self) -> Document:
        return to_document(self.session)

    # -- open ----------------------------------------------------------------

    def open_path(self, path: Path | str) -> str | None:
        """Open ``path``; return a message for the user if it failed (nothing changes then)."""
        path = Path(path)
        try:
            opened = open_file(path, self.session_view_model.catalog)
        except RigForgeError as error:
            return str(error)
        problem = self._commit(opened, path.resolve())
        if problem is None:
            self.add_recent(path)
        return problem

    def open_bytes(self, data: bytes, source: str, *, path: Path | None = None) -> str | None:
        """Open a downloaded or recovered document; ``source`` names it in messages."""
        try:
            opened = parse_document(data, self.session_view_model.catalog)
        except RigForgeError as error:
            return f"{source}: {error}"
        problem = self._commit(opened, path)
        return None if problem is None else f"{source}: {problem}"

    def _commit(self, opened: OpenedFile, path: Path | None) -> str | None:
        """Analyse every build of the opened file; only then make it the document."""
        session = opened.session
        if session.workload is None:  # the editor always shows a workload
            session = session.model_copy(update={"workload": default_workload()})
        try:
            for build in session.builds:
                self.cache.analysis(build, session.workload, session.settings)
        except (RigForgeError, ArithmeticError, ValueError) as error:
            return f"the file opened but cannot be analysed: {error}"
        self.notices = opened.notices
        self._saved = session.content()
        self._set_path(path)
        self.session_view_model.reset(session)
        self._set_dirty(False)
        return None

    def new_document(self, session: Session) -> None:
        self.notices = ()
        self._saved = session.content()
        self._set_path(None)
        self.session_view_model.reset(session)
        self._set_dirty(False)

    # -- save ----------------------------------------------------------------

    def save(self) -> str | None:
        """Save to the current path; a document without a path needs ``save_as``."""
        if self._path is None:
            return "the document has no file name yet; use Save As"
        return self.save_as(self._path)

    def save_as(self, path: Path | str) -> str | None:
        path = Path(path)
        session = self.session
        try:
            save_file(path, session)
        except RigForgeError as error:
            return str(error)
        except OSError as error:  # anything the atomic writer did not turn into our error
            return f"cannot save {path.name}: {error.strerror or error}"
        self._saved = session.content()
        self._set_path(path.resolve())
        self._set_dirty(False)
        self.add_recent(path)
        return None

    # -- dirty flag ------------------------------------------------------------

    def _on_session_changed(self, session: Session) -> None:
        self._set_dirty(session.content() != self._saved)

    def _set_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    def mark_recovered(self, path: Path | None) -> None:
        """After recovering an autosave: keep the original file name, but unsaved."""
        self._set_path(path)
        self._saved = ()
        self._set_dirty(True)

    def _set_path(self, path: Path | None) -> None:
        if path != self._path:
            self._path = path
            self.path_changed.emit(path)

    # -- recent files ------------------------------------------------------------

    def recent_files(self) -> list[str]:
        value = self._store.value(RECENT_KEY, [])
        if isinstance(value, str):  # QSettings returns a lone string for one-item lists
            value = [value]
        if not isinstance(value, list):
            return []
        return [str(item) for item in value if item]

    def add_recent(self, path: Path) -> None:
        entry = str(Path(path).resolve())
        recent = [entry, *(p for p in self.recent_files() if p != entry)][:MAX_RECENT]
        self._write_recent(recent)

    def remove_recent(self, entry: str) -> None:
        self._write_recent([p for p in self.recent_files() if p != entry])

    def clear_recent(self) -> None:
        self._write_recent([])

    def _write_recent(self, recent: list[str]) -> None:
        self._store.setValue(RECENT_KEY, recent)
        self._store.sync()
        self.recent_files_changed.emit(recent)
