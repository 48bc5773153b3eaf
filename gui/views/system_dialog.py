"""One prebuilt system's serving plan in full: figures, notes, verdict and checks, and
the engine command line with a Copy button (Compare's *Details…* on a system)."""

from __future__ import annotations

from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from gui.views import plain


class SystemDialog(QDialog):
    def __init__(
        self, title: str, report: str, command: str | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{title} — serving plan")
        self.text = QPlainTextEdit(report)  # plain text: names and sources come from files
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text, 1)
        self.launch = QLineEdit(" ; ".join((command or "").splitlines()))
        self.launch.setReadOnly(True)
        self.launch.setFont(QFont("monospace"))
        self.launch.setToolTip(plain.tip(command or ""))
        self.copy = QPushButton("Copy")
        self.copy.setToolTip(plain.tip("Copy the launch command (every line) to the clipboard"))
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(command or ""))
        if command:
            row = QHBoxLayout()
            row.addWidget(plain.label("Launch:"))
            row.addWidget(self.launch, 1)
            row.addWidget(self.copy)
            layout.addLayout(row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(820, 520)
