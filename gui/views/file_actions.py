"""File menu actions (Open, Open Recent, Open from URL, Save, Save As) and file drops.

The controller forwards each intent to the ``DocumentViewModel`` and shows
what went wrong in a message box that names the problem; a failed open leaves
the open document as it was. Files are read in a worker thread and their builds analysed
a slice at a time (``DocumentLoader``) behind a progress dialog with Cancel, so a slow
file never freezes the window; ``open_finished`` says how each open ended.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import shiboken6
from PySide6.QtCore import QMimeData, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox, QProgressDialog

from core.errors import RigForgeError
from core.files.fetch import FetchLimits
from core.models.session import Session
from gui.viewmodels.document import DocumentViewModel, LoadedDocument
from gui.views import dialogs, plain
from gui.workers.document_loader import DocumentLoader
from gui.workers.url_loader import UrlLoader

FILE_FILTER = "RigForge files (*.json *.rigforge);;All files (*)"


class FileActions(QObject):
    open_finished = Signal(bool)
    """Emitted when an open ends: ``True`` when the file became the document, ``False``
    when it was refused, failed or was cancelled (the document is then unchanged)."""

    def __init__(
        self,
        window: QMainWindow,
        document: DocumentViewModel,
        new_session: Callable[[], Session],
        import_part_list: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(window)
        self._new_session = new_session
        self._import_part_list = import_part_list
        self._window = window
        self.document = document
        self.url_limits = FetchLimits()
        self.url_loader: UrlLoader | None = None
        self.document_loader: DocumentLoader | None = None
        self.open_dialog_box: QProgressDialog | None = None
        """The progress dialog of the open under way (``None`` when none is)."""
        self.progress_dialog: QProgressDialog | None = None
        self._updating_progress = False
        self._release_after_update: QProgressDialog | None = None
        self.message_box: QMessageBox | None = None
        """The last error shown (kept so tests and callers can read it)."""

        self.new_action = self._action("&New", QKeySequence.StandardKey.New, self.new_document)
        self.open_action = self._action("&Open…", QKeySequence.StandardKey.Open, self.open_dialog)
        self.open_url_action = self._action(
            "Open from &URL…", QKeySequence("Ctrl+L"), self.open_url_dialog
        )
        self.import_action = self._action(
            "&PCPartPicker List…", QKeySequence("Ctrl+Shift+I"), self.import_dialog
        )
        self.import_action.setStatusTip(
            "Add a build made from a PCPartPicker part list (its Markdown or Text export)"
        )
        self.save_action = self._action("&Save", QKeySequence.StandardKey.Save, self.save)
        self.save_as_action = self._action(
            "Save &As…", QKeySequence.StandardKey.SaveAs, self.save_as_dialog
        )
        self.recent_menu = QMenu("Open &Recent", window)
        self.recent_menu.setObjectName("recentMenu")
        document.recent_files_changed.connect(self._on_document_recent_files_changed)
        self._fill_recent_menu(document.recent_files())

    def _action(
        self,
        text: str,
        shortcut: QKeySequence | QKeySequence.StandardKey,
        slot: Callable[[], object],
    ) -> QAction:
        action = QAction(text, self._window)
        action.setShortcut(shortcut)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def install(self, menu: QMenu) -> None:
        menu.addAction(self.new_action)
        menu.addAction(self.open_action)
        menu.addMenu(self.recent_menu)
        menu.addAction(self.open_url_action)
        import_menu = menu.addMenu("&Import")
        import_menu.addAction(self.import_action)
        menu.addSeparator()
        menu.addAction(self.save_action)
        menu.addAction(self.save_as_action)
        menu.addSeparator()

    # -- new and open ------------------------------------------------------------

    def new_document(self) -> bool:
        """The default build and workload, with your defaults for new documents."""
        if not self.maybe_save():
            return False
        self.document.new_document(self._new_session())
        self._window.statusBar().showMessage("New document on the default build", 5000)
        return True

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        name, _ = QFileDialog.getOpenFileName(self._window, "Open", "", FILE_FILTER)
        if name:
            self.open_path(Path(name), ask=False)

    def open_path(self, path: Path | str, *, ask: bool = True) -> bool:
        """Start opening ``path``; ``False`` when it could not start (unsaved changes kept,
        another open under way). How it ends is said by ``open_finished``."""
        if ask and not self.maybe_save():
            return False
        path = Path(path)
        return self._start_open(DocumentLoader(self.document, path=path), path.name)

    @property
    def opening(self) -> bool:
        """Whether a file is being opened (read, parsed, its builds analysed)."""
        return self.document_loader is not None

    def _start_open(self, loader: DocumentLoader, name: str) -> bool:
        if self.document_loader is not None:
            self.show_error("Cannot open", "Another file is still opening; wait or cancel it.")
            return False
        progress = QProgressDialog("", "Cancel", 0, 0, self._window)
        progress.setObjectName("openProgressDialog")
        progress.setLabel(plain.label(f"Opening {name}…"))
        progress.setWindowTitle("Open")
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        progress.canceled.connect(loader.cancel)
        loader.progress.connect(
            lambda done, total, loader=loader: self._on_document_loader_progress(
                done, total, loader
            )
        )
        loader.loaded.connect(
            lambda loaded, loader=loader: self._on_document_loader_loaded(loaded, loader)
        )
        loader.failed.connect(
            lambda message, loader=loader: self._on_document_loader_failed(message, loader)
        )
        self.document_loader, self.open_dialog_box = loader, progress
        loader.start()
        return True

    def _on_document_loader_progress(self, done: int, total: int, loader: DocumentLoader) -> None:
        dialog = self.open_dialog_box
        if loader is not self.document_loader or dialog is None or not shiboken6.isValid(dialog):
            return
        if total > 1:
            dialog.setLabelText(f"Opening {loader.name}: analysed {done} of {total} builds")
            dialog.setMaximum(total)
            dialog.setValue(done)

    def _end_open(self, loader: DocumentLoader) -> bool:
        """Release the loader and its dialog; ``False`` for a signal of an older loader."""
        if loader is not self.document_loader:
            return False
        loader.wait()  # it has emitted its last signal: returns at once
        self.document_loader = None
        dialog, self.open_dialog_box = self.open_dialog_box, None
        if dialog is not None and shiboken6.isValid(dialog):
            dialog.canceled.disconnect()
            dialog.reset()
            dialog.deleteLater()
        return True

    def _on_document_loader_loaded(self, loaded: LoadedDocument, loader: DocumentLoader) -> None:
        if not self._end_open(loader):
            return
        self.document.commit(loaded)
        self._show_notices()
        self.open_finished.emit(True)

    def _on_document_loader_failed(self, message: str, loader: DocumentLoader) -> None:
        if not self._end_open(loader):
            return
        if message == "cancelled":
            self._window.statusBar().showMessage(
                f"Opening {loader.name} cancelled; the document is unchanged.", 5000
            )
        else:
            title = "Cannot open URL" if loader.source else "Cannot open file"
            self.show_error(title, message)
        self.open_finished.emit(False)

    def open_recent(self, entry: str) -> bool:
        if not Path(entry).is_file():
            self.document.remove_recent(entry)
            self.show_error("Cannot open file", f"{entry} no longer exists.")
            return False
        return self.open_path(entry)

    def open_url_dialog(self) -> None:
        if not self.maybe_save():
            return
        url = dialogs.ask_url(self._window)
        if url:
            self.open_url(url)

    def open_url(self, url: str) -> UrlLoader | None:
        """Start downloading ``url`` in a worker; the result opens when it arrives."""
        if self.url_loader is not None and self.url_loader.isRunning():
            self.show_error("Cannot open URL", "A download is already running.")
            return None
        loader = UrlLoader(url, self.url_limits)
        progress = QProgressDialog("", "Cancel", 0, 0, self._window)
        progress.setLabel(plain.label(f"Downloading {url}…"))
        progress.setWindowTitle("Open from URL")
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        progress.canceled.connect(loader.cancel)
        # A signal still queued from an earlier download (or one that outlived its
        # window) must not reach this download's dialog.
        loader.progress.connect(
            lambda received, total, loader=loader: self._on_url_loader_progress(
                received, total, loader
            )
        )
        loader.loaded.connect(
            lambda data, loader=loader: (
                self._on_url_loader_loaded(data) if loader is self.url_loader else None
            )
        )
        loader.failed.connect(
            lambda message, loader=loader: (
                self._on_url_loader_failed(message) if loader is self.url_loader else None
            )
        )
        self.url_loader, self.progress_dialog = loader, progress
        loader.start()
        return loader

    def _on_url_loader_progress(
        self, received: int, total: int, loader: UrlLoader | None = None
    ) -> None:
        dialog = self.progress_dialog
        if dialog is None or not shiboken6.isValid(dialog):
            return
        if loader is not None and loader is not self.url_loader:
            return
        dialog.setLabelText(f"Downloading… {received / 1024:.0f} KiB")
        if total > 0:
            # A modal progress dialog runs the event loop inside setValue: the download
            # may finish in there, so the dialog is only released after it returns.
            self._updating_progress = True
            try:
                dialog.setMaximum(total)
                dialog.setValue(min(received, total))
            finally:
                self._updating_progress = False
            if self._release_after_update is not None:
                self._release_after_update.deleteLater()
                self._release_after_update = None

    def _on_url_loader_loaded(self, data: bytes) -> None:
        url = self._finish_download()
        self._start_open(DocumentLoader(self.document, data=data, source=url), url)

    def _on_url_loader_failed(self, message: str) -> None:
        url = self._finish_download()
        if message == "cancelled":
            self._window.statusBar().showMessage("Download cancelled; nothing was loaded.", 5000)
        else:
            self.show_error("Cannot open URL", f"{url}: {message}")
        self.open_finished.emit(False)

    def _finish_download(self) -> str:
        url = self.url_loader.url if self.url_loader is not None else ""
        if self.progress_dialog is not None:
            self.progress_dialog.canceled.disconnect()
            self.progress_dialog.reset()
            if self._updating_progress:
                self._release_after_update = self.progress_dialog
            else:
                self.progress_dialog.deleteLater()
            self.progress_dialog = None
        return url

    # -- save ----------------------------------------------------------------

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as_dialog()
        return self._report_save(self.document.save())

    def save_as_dialog(self) -> bool:
        start = str(self.document.path or Path.home() / "build.json")
        name, _ = QFileDialog.getSaveFileName(self._window, "Save As", start, FILE_FILTER)
        return bool(name) and self.save_as(Path(name))

    def save_as(self, path: Path | str) -> bool:
        return self._report_save(self.document.save_as(path))

    def _report_save(self, error: str | None) -> bool:
        if error is not None:
            self.show_error("Cannot save", error)
            return False
        self._window.statusBar().showMessage(f"Saved {self.document.display_name}", 5000)
        return True

    def maybe_save(self) -> bool:
        """Ask about unsaved changes; return whether the caller may go on."""
        if not self.document.dirty:
            return True
        choice = dialogs.ask_unsaved_changes(self._window, self.document.display_name)
        if choice == "save":
            return self.save()
        return choice == "discard"

    # -- drops ---------------------------------------------------------------

    @staticmethod
    def dropped_file(mime: QMimeData) -> Path | None:
        local = [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]
        return Path(local[0]) if len(local) == 1 else None

    def can_drop(self, mime: QMimeData) -> bool:
        return self.dropped_file(mime) is not None

    def drop(self, mime: QMimeData) -> bool:
        path = self.dropped_file(mime)
        return path is not None and self.open_path(path)

    # -- helpers ---------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop a running download or open before the window goes away."""
        if self.url_loader is not None:
            self.url_loader.cancel()
            self.url_loader.wait(5000)
        if self.document_loader is not None:
            self.document_loader.cancel()  # no further analysis runs
            self.document_loader.wait(5000)  # the read under way ends
        # signals still queued from them are ignored (they check their loader)
        self.url_loader = self.document_loader = None
        self.progress_dialog = self.open_dialog_box = None

    def import_dialog(self) -> None:
        """File > Import > PCPartPicker List…: a text file of the list's export."""
        name, _filter = QFileDialog.getOpenFileName(
            self._window,
            "Import PCPartPicker List",
            "",
            "PCPartPicker export (*.txt *.md);;All files (*)",
        )
        if name:
            self.import_path(Path(name))

    def import_path(self, path: Path) -> bool:
        from core.files.safe_json import decode_text
        from core.files.safe_read import read_limited

        try:
            text = decode_text(read_limited(path, 2_000_000))
        except RigForgeError as error:
            self.show_error("Cannot import the part list", f"{path.name}: {error}")
            return False
        return self.import_text(text, path.name)

    def import_text(self, text: str, source: str) -> bool:
        """Add the build a PCPartPicker list's text makes; say what matched and what not."""
        if self._import_part_list is None:
            return False
        try:
            summary = self._import_part_list(text)
        except RigForgeError as error:
            self.show_error("Cannot import the part list", f"{source}: {error}")
            return False
        self.message_box = dialogs.show_info(self._window, "PCPartPicker list imported", summary)
        return True

    def show_error(self, title: str, text: str) -> None:
        self.message_box = dialogs.show_error(self._window, title, text)

    def _show_notices(self) -> None:
        notices = self.document.notices
        if notices:
            self._window.statusBar().showMessage(" ".join(notices), 15000)

    def _on_document_recent_files_changed(self, recent: list[str]) -> None:
        self._fill_recent_menu(recent)

    def _fill_recent_menu(self, recent: list[str]) -> None:
        self.recent_menu.clear()
        for index, entry in enumerate(recent, 1):
            action = self.recent_menu.addAction(f"&{index} {Path(entry).name}")
            action.setToolTip(plain.tip(entry))
            action.setData(entry)
            action.triggered.connect(lambda _checked=False, e=entry: self.open_recent(e))
        self.recent_menu.addSeparator()
        clear = self.recent_menu.addAction("Clear Recent Files")
        clear.setEnabled(bool(recent))
        clear.triggered.connect(self.document.clear_recent)
        self.recent_menu.setEnabled(True)
