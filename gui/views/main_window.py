"""The main window."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox

from core import __version__
from gui.viewmodels.build import BuildViewModel
from gui.views.parts_panel import PartsPanel


class MainWindow(QMainWindow):
    def __init__(self, view_model: BuildViewModel) -> None:
        super().__init__()
        self.view_model = view_model
        self.setWindowTitle(f"RigForge — {view_model.build.name}")
        self.resize(1400, 900)
        self.parts_panel = PartsPanel(view_model)
        self.setCentralWidget(self.parts_panel)
        self._make_menus()
        catalog_date = view_model.catalog.snapshot_date or "unknown"
        self.statusBar().showMessage(
            f"Catalog: {len(view_model.catalog)} parts, prices up to {catalog_date}"
        )

    def _make_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About RigForge", self)
        about.triggered.connect(self._on_about_triggered)
        help_menu.addAction(about)

    def _on_about_triggered(self) -> None:
        QMessageBox.about(
            self,
            "About RigForge",
            f"RigForge {__version__}\nCatalog prices up to "
            f"{self.view_model.catalog.snapshot_date or 'unknown'}.",
        )
