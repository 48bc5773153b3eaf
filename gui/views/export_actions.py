"""File → Export build sheet… (Ctrl+E): the window's builds as a PDF.

One build exports in about a third of a second and a three-build comparison in
about one (``benchmarks/bench_pdf.py``), so the export runs in the GUI thread
under a wait cursor; the chart widgets it draws with must live there anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu

from core.errors import RigForgeError
from gui.pdf import BuildSheet, export_sheet, sheet_from_analyses
from gui.viewmodels.root import ViewModels

FILTERS = {"PDF, A4 (*.pdf)": "a4", "PDF, US Letter (*.pdf)": "letter"}


class ExportActions(QObject):
    def __init__(
        self,
        window: QMainWindow,
        view_models: ViewModels,
        show_error: Callable[[str, str], None],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._view_models = view_models
        self._show_error = show_error
        self.export_action = QAction("&Export Build Sheet…", window)
        self.export_action.setShortcut(QKeySequence("Ctrl+E"))
        self.export_action.setStatusTip("Write the build(s), checks and charts to a PDF")
        self.export_action.triggered.connect(self._on_export_action_triggered)

    def install(self, menu: QMenu) -> None:
        menu.addAction(self.export_action)
        menu.addSeparator()

    def _on_export_action_triggered(self) -> None:
        self.export_dialog()

    def export_dialog(self) -> None:
        document = self._view_models.document
        stem = document.path.stem if document.path else "build-sheet"
        start = str((document.path.parent if document.path else Path.home()) / f"{stem}.pdf")
        filters = list(FILTERS)
        if self.default_paper() == "letter":
            filters.reverse()
        name, chosen = QFileDialog.getSaveFileName(
            self._window, "Export Build Sheet", start, ";;".join(filters), filters[0]
        )
        if name:
            path = Path(name) if name.lower().endswith(".pdf") else Path(name + ".pdf")
            self.export_to(path, FILTERS.get(chosen, self.default_paper()))

    def default_paper(self) -> str:
        """The paper Settings name: Letter for a document on a US circuit unless the user
        chose one."""
        vms = self._view_models
        return vms.settings.settings.paper_for(vms.session.session.settings.circuit)

    def sheet(self) -> BuildSheet:
        """The window's builds (the one on screen first), as the window analyses them."""
        vms = self._view_models
        session_vm = vms.session
        session = session_vm.session
        cache = vms.cache
        analyses = [cache.analysis(b, session.workload, session.settings) for b in session.builds]
        return sheet_from_analyses(
            analyses,
            session_vm.catalog,
            baseline=session.shown,
            title=session.title,
            notes=session.notes,
            author=vms.settings.settings.preparer,
            workload_origin="the workload editor",
            money=vms.settings.money,
            systems=vms.comparison.systems_for(session),
        )

    def export_to(self, path: Path, paper: str = "a4") -> bool:
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            export_sheet(path, self.sheet(), paper)
        except RigForgeError as error:
            QGuiApplication.restoreOverrideCursor()
            self._show_error("Cannot export the build sheet", str(error))
            return False
        QGuiApplication.restoreOverrideCursor()
        self._window.statusBar().showMessage(f"Exported the build sheet to {path}", 8000)
        return True
