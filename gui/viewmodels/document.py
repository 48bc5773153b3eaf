"""The open document's file: its path, whether it has unsaved changes, recent files.

Opening parses the whole file and analyses every build before anything changes
(``load``; the window does it in steps that keep it responsive:
``gui.workers.document_loader``),
so a bad file (or one that cannot be analysed) leaves the open session untouched; then
the session is replaced in one step (``commit``). Saving writes the session; a refused or
failed save says why and leaves the document unsaved.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from core.errors import RigForgeError
from core.files.document import Document
from core.files.io import OpenedFile, open_file, parse_document, save_file, to_document
from core.models.analysis import Analysis
from core.models.session import Session
from gui.viewmodels.analysis_cache import AnalysisCache
from gui.viewmodels.session import SessionViewModel, default_workload

MAX_RECENT = 10
RECENT_KEY = "files/recent"


@dataclass(frozen=True)
class ParsedDocument:
    """A document read and validated, its builds not analysed yet."""

    opened: OpenedFile
    session: Session
    path: Path | None
    """The file it came from (``None`` for a download or a recovered autosave)."""
    remember: bool
    """Whether it goes into Open Recent (a file the user chose)."""
    source: str
    """How messages name it when it is not a file (an address, "the autosaved document")."""

    def analysed(self, analyses: tuple[Analysis, ...]) -> LoadedDocument:
        return LoadedDocument(self.opened, self.session, analyses, self.path, self.remember)


@dataclass(frozen=True)
class LoadedDocument:
    """A parsed document with every build analysed, ready to become the open one."""

    opened: OpenedFile
    session: Session
    analyses: tuple[Analysis, ...]
    path: Path | None
    remember: bool


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

    def parse(
        self, *, path: Path | None = None, data: bytes | None = None, source: str = ""
    ) -> ParsedDocument | str:
        """Read ``path`` (or parse ``data``, named ``source`` in messages); a message for the
        user when that fails. Changes nothing, so it may run in a worker thread."""
        catalog = self.session_view_model.catalog
        try:
            if data is None:
                assert path is not None
                opened = open_file(path, catalog)
            else:
                opened = parse_document(data, catalog)
        except RigForgeError as error:
            return f"{source}: {error}" if source else str(error)
        session = opened.session
        if session.workload is None:  # the editor always shows a workload
            session = session.model_copy(update={"workload": default_workload()})
        remember = data is None and path is not None
        where = path.resolve() if path is not None and data is None else path
        return ParsedDocument(opened, session, where, remember, source)

    def analyse(self, parsed: ParsedDocument, index: int) -> Analysis | str:
        """The analysis of build ``index`` of a parsed document, or why it cannot be made."""
        session = parsed.session
        try:
            return self.cache.compute(session.builds[index], session.workload, session.settings)
        except (RigForgeError, ArithmeticError, ValueError) as error:
            problem = f"the file opened but cannot be analysed: {error}"
            return f"{parsed.source}: {problem}" if parsed.source else problem

    def load(
        self, *, path: Path | None = None, data: bytes | None = None, source: str = ""
    ) -> LoadedDocument | str:
        """Parse and analyse every build now (the window does the same in steps:
        ``gui.workers.document_loader``)."""
        parsed = self.parse(path=path, data=data, source=source)
        if isinstance(parsed, str):
            return parsed
        analyses: list[Analysis] = []
        for index in range(len(parsed.session.builds)):
            analysis = self.analyse(parsed, index)
            if isinstance(analysis, str):
                return analysis
            analyses.append(analysis)
        return parsed.analysed(tuple(analyses))

    def commit(self, loaded: LoadedDocument) -> None:
        """Make a loaded document the open one (one step, on the GUI thread)."""
        session = loaded.session
        for build, analysis in zip(session.builds, loaded.analyses, strict=True):
            self.cache.store(build, session.workload, session.settings, analysis)
        self.notices = loaded.opened.notices
        self._saved = session.content()
        self._set_path(loaded.path)
        self.session_view_model.reset(session)
        self._set_dirty(False)
        if loaded.remember and loaded.path is not None:
            self.add_recent(loaded.path)

    def open_path(self, path: Path | str) -> str | None:
        """Open ``path`` now; return a message for the user if it failed (nothing changes
        then). The window opens files with ``gui.workers.document_loader`` instead."""
        loaded = self.load(path=Path(path))
        if isinstance(loaded, str):
            return loaded
        self.commit(loaded)
        return None

    def open_bytes(self, data: bytes, source: str, *, path: Path | None = None) -> str | None:
        """Open a downloaded or recovered document now; ``source`` names it in messages."""
        loaded = self.load(data=data, source=source, path=path)
        if isinstance(loaded, str):
            return loaded
        self.commit(loaded)
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
