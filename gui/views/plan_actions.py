"""*Make it work* (Edit menu, Ctrl+Shift+M, and the verdict banner's button): search one fix
plan for the shown build, behind a progress dialog with Cancel, apply it as one edit and
say what changed (or which checks keep any build of the catalog from passing)."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QProgressDialog

from core.models.fixplan import FixPlan
from core.text.fixplan import plan_lines
from core.text.money import Money
from gui.viewmodels.fixplan import FixPlanViewModel
from gui.views import plain


class PlanActions(QObject):
    def __init__(self, window: QMainWindow, view_model: FixPlanViewModel, money: object) -> None:
        super().__init__(window)
        self._window = window
        self.view_model = view_model
        self._money = money
        self.progress_dialog: QProgressDialog | None = None
        self.message_box: QMessageBox | None = None
        """The last plan shown (kept so tests and callers can read it)."""
        self.action = QAction("Make It &Work", window)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.action.setStatusTip(
            "Find the cheapest combined change (keeping the GPUs) that passes every check"
        )
        self.action.triggered.connect(lambda _checked=False: self.start())
        view_model.running_changed.connect(self._on_view_model_running_changed)
        view_model.planned.connect(self._on_view_model_planned)
        view_model.failed.connect(self._on_view_model_failed)

    def start(self) -> None:
        if self.view_model.running:
            return
        dialog = QProgressDialog("", "Cancel", 0, 0, self._window)
        dialog.setObjectName("planProgressDialog")
        dialog.setLabel(plain.label("Searching the catalog for a build that works…"))
        dialog.setWindowTitle("Make it work")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        dialog.canceled.connect(self.view_model.cancel)
        self.progress_dialog = dialog
        self.view_model.start()

    def _on_view_model_running_changed(self, running: bool) -> None:
        self.action.setEnabled(not running)
        if not running and self.progress_dialog is not None:
            dialog, self.progress_dialog = self.progress_dialog, None
            if shiboken6.isValid(dialog):
                dialog.canceled.disconnect()
                dialog.reset()
                dialog.deleteLater()

    def _on_view_model_planned(self, plan: FixPlan) -> None:
        money = self._money() if callable(self._money) else Money()
        text = "\n".join(plan_lines(plan, money))
        if plan.found:
            title = "Made it work" if plan.changes else "It already works"
            if plan.changes:
                self._window.statusBar().showMessage(
                    f"Made it work: {len(plan.changes)} change(s); Ctrl+Z undoes them", 10000
                )
            icon = QMessageBox.Icon.Information
        else:
            title, icon = "No build of the catalog works", QMessageBox.Icon.Warning
        box = plain.message_box(icon, title, text, QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("planResultBox")
        box.open()
        self.message_box = box

    def _on_view_model_failed(self, message: str) -> None:
        self._window.statusBar().showMessage(f"Make it work: {message}", 10000)
