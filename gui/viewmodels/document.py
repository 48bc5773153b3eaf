"""The open document: its path, builds, workload, settings, dirty flag and recent files.

The window shows one build (the baseline) through a ``BuildViewModel``; the
other builds of a comparison are kept here so Save writes them back. Opening
parses everything first and changes nothing unless the whole file is valid,
so a bad file leaves the open build untouched.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal

from core.errors import RigForgeError
from core.files.document import Document
from core.files.io import OpenedFile, open_file, parse_document, save_file, to_document
from core.models.build import Build
from core.models.settings import AnalysisSettings
from core.models.workload import Workload
from gui.viewmodels.build import BuildViewModel

MAX_RECENT = 10
RECENT_KEY = "files/recent"


class DocumentViewModel(QObject):
    dirty_changed = Signal(bool)
    path_changed = Signal(object)
    """Emitted with the new ``Path`` (or ``None`` for an unsaved document)."""
    document_opened = Signal(object)
    """Emitted with the ``OpenedFile`` after a file or download replaced the document."""
    recent_files_changed = Signal(list)
    builds_changed = Signal(object)
    """Emitted with ``builds`` after builds were added, removed, opened or another was shown."""

    def __init__(self, build_view_model: BuildViewModel, store: QSettings | None = None) -> None:
        super().__init__()
        self.build_view_model = build_view_model
        self._store = store if store is not None else QSettings()
        self._path: Path | None = None
        self._dirty = False
        self._builds: tuple[Build, ...] = (build_view_model.build,)
        self._baseline = 0
        self._workload: Workload | None = None
        self._settings = AnalysisSettings()
        self.title = ""
        self.notes = ""
        self.notices: tuple[str, ...] = ()
        build_view_model.build_changed.connect(self._on_build_view_model_build_changed)

    # -- state ---------------------------------------------------------------

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def dirty(self) -> bool:
        return self._dirty

    @property
    def workload(self) -> Workload | None:
        return self._workload

    @property
    def settings(self) -> AnalysisSettings:
        return self._settings

    @property
    def baseline(self) -> int:
        return self._baseline

    @property
    def builds(self) -> tuple[Build, ...]:
        """All builds, with the one on screen at the baseline position."""
        builds = list(self._builds)
        builds[self._baseline] = self.build_view_model.build
        return tuple(builds)

    @property
    def display_name(self) -> str:
        if self._path is not None:
            return self._path.name
        return self.title or "Untitled"

    def to_document(self) -> Document:
        return to_document(
            self.builds,
            workload=self._workload,
            settings=self._settings,
            title=self.title,
            notes=self.notes,
            baseline=self._baseline,
        )

    # -- open ----------------------------------------------------------------

    def open_path(self, path: Path | str) -> str | None:
        """Open ``path``; return a message for the user if it failed (nothing changes then)."""
        path = Path(path)
        try:
            opened = open_file(path, self.build_view_model.catalog)
        except RigForgeError as error:
            return str(error)
        self._apply(opened, path.resolve())
        self.add_recent(path)
        return None

    def open_bytes(self, data: bytes, source: str, *, path: Path | None = None) -> str | None:
        """Open a downloaded or recovered document; ``source`` names it in messages."""
        try:
            opened = parse_document(data, self.build_view_model.catalog)
        except RigForgeError as error:
            return f"{source}: {error}"
        self._apply(opened, path)
        return None

    def _apply(self, opened: OpenedFile, path: Path | None) -> None:
        self._builds = opened.builds
        self._baseline = opened.baseline
        self._workload = opened.workload
        self._settings = opened.settings
        self.title = opened.title
        self.notes = opened.notes
        self.notices = opened.notices
        self.build_view_model.set_build(opened.builds[opened.baseline])
        self._set_path(path)
        self.set_dirty(False)
        self.document_opened.emit(opened)
        self.builds_changed.emit(self.builds)

    # -- several builds ------------------------------------------------------

    def select_build(self, index: int) -> None:
        """Show build ``index`` in the editor; the one shown before keeps its edits."""
        if index == self._baseline or not 0 <= index < len(self._builds):
            return
        self._builds = self.builds
        self._baseline = index
        dirty = self._dirty  # showing another build is not an edit
        self.build_view_model.set_build(self._builds[index])
        self.set_dirty(dirty)
        self.builds_changed.emit(self.builds)

    def set_builds(self, builds: tuple[Build, ...], shown: int) -> None:
        """Replace the builds (added, duplicated, removed, renamed) and show ``shown``."""
        if not builds or not 0 <= shown < len(builds):
            raise ValueError("a document needs at least one build, and shows one of them")
        if builds == self.builds and shown == self._baseline:
            return
        self._builds = builds
        self._baseline = shown
        self.build_view_model.set_build(builds[shown])
        self.set_dirty(True)
        self.builds_changed.emit(self.builds)

    # -- save ----------------------------------------------------------------

    def save(self) -> str | None:
        """Save to the current path; a document without a path needs ``save_as``."""
        if self._path is None:
            return "the document has no file name yet; use Save As"
        return self.save_as(self._path)

    def save_as(self, path: Path | str) -> str | None:
        path = Path(path)
        try:
            save_file(path, self.to_document())
        except RigForgeError as error:
            return str(error)
        self._set_path(path.resolve())
        self.set_dirty(False)
        self.add_recent(path)
        return None

    # -- workload and settings (edited through the analysis view-model) -----------

    def set_workload(self, workload: Workload | None, *, dirty: bool = True) -> None:
        if workload != self._workload:
            self._workload = workload
            if dirty:
                self.set_dirty(True)

    def set_settings(self, settings: AnalysisSettings, *, dirty: bool = True) -> None:
        if settings != self._settings:
            self._settings = settings
            if dirty:
                self.set_dirty(True)

    # -- dirty flag ------------------------------------------------------------

    def set_dirty(self, dirty: bool) -> None:
        if dirty != self._dirty:
            self._dirty = dirty
            self.dirty_changed.emit(dirty)

    def mark_recovered(self, path: Path | None) -> None:
        """After recovering an autosave: keep the original file name, but unsaved."""
        self._set_path(path)
        self.set_dirty(True)

    def _set_path(self, path: Path | None) -> None:
        if path != self._path:
            self._path = path
            self.path_changed.emit(path)

    def _on_build_view_model_build_changed(self, _build: Build) -> None:
        self.set_dirty(True)

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
