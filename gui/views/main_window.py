"""The main window."""

from __future__ import annotations

from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox

from core import __version__
from gui.viewmodels.autosave import AutosaveViewModel
from gui.viewmodels.build import BuildViewModel
from gui.viewmodels.document import DocumentViewModel
from gui.views.file_actions import FileActions
from gui.views.parts_panel import PartsPanel


class MainWindow(QMainWindow):
    def __init__(
        self,
        view_model: BuildViewModel,
        document: DocumentViewModel | None = None,
        autosave: AutosaveViewModel | None = None,
    ) -> None:
        super().__init__()
        self.view_model = view_model
        self.document = document if document is not None else DocumentViewModel(view_model)
        self.autosave = autosave
        self.resize(1400, 900)
        self.setAcceptDrops(True)
        self.parts_panel = PartsPanel(view_model)
        self.setCentralWidget(self.parts_panel)
        self.file_actions = FileActions(self, self.document)
        self._make_menus()
        self.document.dirty_changed.connect(self._on_document_dirty_changed)
        self.document.path_changed.connect(self._on_document_path_changed)
        self._update_title()
        catalog_date = view_model.catalog.snapshot_date or "unknown"
        self.statusBar().showMessage(
            f"Catalog: {len(view_model.catalog)} parts, prices up to {catalog_date}"
        )

    def _make_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self.file_actions.install(file_menu)
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About RigForge", self)
        about.triggered.connect(self._on_about_triggered)
        help_menu.addAction(about)

    def _update_title(self) -> None:
        name = self.document.display_name if self.document.path else self.view_model.build.name
        self.setWindowTitle(f"RigForge — {name}[*]")
        self.setWindowModified(self.document.dirty)

    def _on_document_dirty_changed(self, _dirty: bool) -> None:
        self._update_title()

    def _on_document_path_changed(self, _path: object) -> None:
        self._update_title()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.file_actions.can_drop(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        if self.file_actions.drop(event.mimeData()):
            event.acceptProposedAction()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.file_actions.maybe_save():
            self.file_actions.shutdown()
            if self.autosave is not None:  # a clean exit leaves nothing to recover
                self.autosave.stop()
                self.autosave.discard()
            event.accept()
        else:
            event.ignore()

    def _on_about_triggered(self) -> None:
        QMessageBox.about(
            self,
            "About RigForge",
            f"RigForge {__version__}\nCatalog prices up to "
            f"{self.view_model.catalog.snapshot_date or 'unknown'}.",
        )
