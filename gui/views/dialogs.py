"""Small dialogs for file handling: URL entry, unsaved changes, recovery, errors.

The questions are module functions so tests can answer them without a person;
error messages open window-modal and return at once, so a test can read them.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget

from gui.views import plain

Choice = Literal["save", "discard", "cancel"]


def ask_url(parent: QWidget) -> str | None:
    url, ok = QInputDialog.getText(
        parent,
        "Open from URL",
        "Address of a RigForge file (http:// or https://):",
        QLineEdit.EchoMode.Normal,
        "https://",
    )
    return url.strip() if ok and url.strip() else None


def ask_unsaved_changes(parent: QWidget, name: str) -> Choice:
    box = plain.message_box(
        QMessageBox.Icon.Warning,
        "Unsaved changes",
        f"{name} has changes that are not saved. Save them?",
        QMessageBox.StandardButton.Save
        | QMessageBox.StandardButton.Discard
        | QMessageBox.StandardButton.Cancel,
        parent,
    )
    box.setDefaultButton(QMessageBox.StandardButton.Save)
    answer = box.exec()
    if answer == QMessageBox.StandardButton.Save:
        return "save"
    if answer == QMessageBox.StandardButton.Discard:
        return "discard"
    return "cancel"


def ask_recover(parent: QWidget | None, original: str) -> bool:
    box = plain.message_box(
        QMessageBox.Icon.Question,
        "Recover unsaved changes?",
        f"RigForge did not close cleanly last time. Recover the unsaved changes to {original}?",
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        parent,
    )
    box.setDefaultButton(QMessageBox.StandardButton.Yes)
    return box.exec() == QMessageBox.StandardButton.Yes


def show_error(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """Show ``text`` in a window-modal message box without blocking; return the box."""
    box = plain.message_box(
        QMessageBox.Icon.Critical, title, text, QMessageBox.StandardButton.Ok, parent
    )
    box.setObjectName("fileErrorBox")
    box.open()
    return box


def show_info(parent: QWidget | None, title: str, text: str) -> QMessageBox:
    """Show ``text`` (plain) in a window-modal information box without blocking."""
    box = plain.message_box(
        QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Ok, parent
    )
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.open()
    return box
