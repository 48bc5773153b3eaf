"""The engine command line a serving plan assumes, on one read-only line (its lines joined
by " ; ") with a Copy button that copies every line; hidden when there is none."""

from __future__ import annotations

from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QWidget

from gui.views import plain


class LaunchLine(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._command = ""
        self.launch = QLineEdit()
        self.launch.setReadOnly(True)
        self.launch.setFont(QFont("monospace"))
        self.copy = QPushButton("Copy")
        self.copy.setToolTip(plain.tip("Copy the launch command (every line) to the clipboard"))
        self.copy.clicked.connect(self._on_copy_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(plain.label("Launch:"))
        row.addWidget(self.launch, 1)
        row.addWidget(self.copy)
        self.set_command(None)

    def set_command(self, command: str | None) -> None:
        self._command = command or ""
        self.launch.setText(" ; ".join(self._command.splitlines()))
        self.launch.setCursorPosition(0)
        self.launch.setToolTip(plain.tip(self._command))
        self.setVisible(bool(self._command))

    def _on_copy_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self._command)
