"""Define a part the catalog lacks, validated exactly like a catalog entry."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from core.catalog.loader import parse_catalog_file
from core.errors import RigForgeError
from core.models.parts import PART_TYPES, Part
from gui.views import plain

CATEGORIES = tuple(PART_TYPES)


class CustomPartDialog(QDialog):
    """Start from a catalog part of the category, edit its JSON, and OK validates it.

    ``parts_of`` gives the parts offered as templates for a category.
    """

    def __init__(
        self, parts_of: Callable[[str], Sequence[Part]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Define a custom part")
        self.resize(640, 620)
        self._parts_of = parts_of
        self.part: Part | None = None
        self.category = QComboBox()
        self.category.addItems(CATEGORIES)
        self.template = QComboBox()
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.error = plain.label()
        self.error.setObjectName("customPartError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b")
        form = QFormLayout()
        form.addRow("Kind", self.category)
        form.addRow("Start from", self.template)
        hint = plain.label(
            "Edit the fields below (JSON, same format and validation as the catalog). "
            "Give a new id, your own name, price and a source for each figure."
        )
        hint.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(hint)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.category.currentTextChanged.connect(self._on_category_current_text_changed)
        self.template.currentIndexChanged.connect(self._on_template_current_index_changed)
        self._on_category_current_text_changed(self.category.currentText())

    def _on_category_current_text_changed(self, category: str) -> None:
        self._templates = tuple(self._parts_of(category))
        blocked = self.template.blockSignals(True)
        self.template.clear()
        self.template.addItems([p.name for p in self._templates])
        self.template.blockSignals(blocked)
        self._on_template_current_index_changed(0)

    def _on_template_current_index_changed(self, index: int) -> None:
        if not 0 <= index < len(self._templates):
            return
        entry = self._templates[index].model_dump(mode="json", exclude_defaults=False)
        entry.update(
            id=f"custom-{entry['id']}",
            name=f"{entry['name']} (custom)",
            custom=True,
            aliases=[],
        )
        self.editor.setPlainText(json.dumps(entry, indent=2))
        self.error.clear()

    def validate(self) -> str | None:
        """Parse and validate the text; keep the part, or return the problem."""
        category = self.category.currentText()
        try:
            entry = json.loads(self.editor.toPlainText())
        except json.JSONDecodeError as error:
            return f"not valid JSON at line {error.lineno}: {error.msg}"
        if isinstance(entry, dict):
            entry["category"] = category
            entry["custom"] = True
        document = json.dumps({"category": category, "entries": [entry]})
        try:
            self.part = parse_catalog_file(f"custom {category}", document)[0]
        except RigForgeError as error:
            return str(error)
        return None

    def accept(self) -> None:
        problem = self.validate()
        if problem is not None:
            self.error.setText(problem)
            return
        super().accept()
