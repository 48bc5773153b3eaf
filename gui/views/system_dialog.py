"""One prebuilt system's serving plan in full: figures, notes, verdict and checks, and
the engine command line with a Copy button (Compare's *Details…* on a system)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout, QWidget

from gui.views.launch_line import LaunchLine


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
        self.launch_line = LaunchLine()
        self.launch_line.set_command(command)
        self.launch, self.copy = self.launch_line.launch, self.launch_line.copy
        layout.addWidget(self.launch_line)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(820, 520)
