"""Show data as plain text, always.

Qt renders a string as HTML when it *looks* like HTML (``Qt::mightBeRichText``): a
part name, a price source or a server's reason phrase such as ``<img src=...>`` would
load local files, show links or abort the app. Every widget that shows text that came
from a file, a feed, a server or the user goes through these helpers:

- ``label`` makes a ``QLabel`` whose text format is plain text;
- ``tip`` turns any text into a tooltip that Qt shows literally (tooltips have no
  plain-text switch, so the text is escaped inside a rich-text paragraph);
- ``markup_free`` escapes text for pyqtgraph items that take HTML (legend rows, titles);
- ``message_box`` makes a ``QMessageBox`` with plain text.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget


def label(text: str = "", parent: QWidget | None = None) -> QLabel:
    widget = QLabel(parent)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setText(text)
    return widget


def tip(text: str) -> str:
    """A tooltip showing ``text`` exactly, line breaks kept ("" stays "": no tooltip)."""
    if not text:
        return ""
    return "<p style='white-space:pre-wrap'>" + escape(text, quote=False) + "</p>"


def markup_free(text: str) -> str:
    """``text`` for an item that renders HTML, shown literally."""
    return escape(text, quote=False)


def message_box(
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    buttons: QMessageBox.StandardButton,
    parent: QWidget | None = None,
) -> QMessageBox:
    box = QMessageBox(icon, title, "", buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    return box
