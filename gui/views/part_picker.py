"""Searchable part pickers: a combo box that filters as you type, and a filter dialog.

The picker only shows parts and reports the user's choice; the build editor
forwards it to the view-model.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyleOptionFrame,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.models.parts import Part
from core.text.money import USD
from core.text.parts import key_specs
from gui.views import plain

NONE_ID = ""
"""Item data of the "none" entry (optional PSU and case)."""
ANY = "any"


def part_label(part: Part) -> str:
    price = USD(part.price.usd)
    return f"{part.name}{' (custom)' if part.custom else ''} — {price}"


class ElidingLineEdit(QLineEdit):
    """A combo box's line edit that shows a long part name elided ("…") until focused;
    focused, it is an ordinary line edit to type a search into."""

    def paintEvent(self, event: QPaintEvent) -> None:
        metrics = self.fontMetrics()
        option = QStyleOptionFrame()
        self.initStyleOption(option)
        style = self.style()
        rect = style.subElementRect(QStyle.SubElement.SE_LineEditContents, option, self)
        rect = rect.adjusted(2, 0, -2, 0)
        text = self.text()
        if self.hasFocus() or metrics.horizontalAdvance(text) <= rect.width():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelLineEdit, option, painter, self)
        painter.setPen(self.palette().color(QPalette.ColorRole.Text))
        elided = metrics.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(rect, int(Qt.AlignmentFlag.AlignVCenter.value), elided)


class PartPicker(QWidget):
    """One part field: type to search, or open the filter dialog with "…"."""

    part_chosen = Signal(object)
    """Emitted with the chosen part id (``None`` for "none") when the user picks one."""

    def __init__(self, category: str, *, optional: bool = False, none_text: str = "none") -> None:
        super().__init__()
        self.category = category
        self.optional = optional
        self.none_text = none_text
        self._parts: tuple[Part, ...] = ()
        self._current_id: str | None = None
        self.combo = QComboBox()
        self.combo.setObjectName(f"{category}Picker")
        self.combo.setEditable(True)
        self.combo.setLineEdit(ElidingLineEdit())
        self.combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(14)
        completer = QCompleter(self.combo.model(), self.combo)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.combo.setCompleter(completer)
        self.filter_button = QToolButton()
        self.filter_button.setText("…")
        self.filter_button.setToolTip(plain.tip(f"Search and filter every {category}"))
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.filter_button)
        self.combo.activated.connect(self._on_combo_activated)
        self.filter_button.clicked.connect(self._on_filter_button_clicked)
        self.dialog: PartPickerDialog | None = None

    def set_parts(self, parts: Sequence[Part], current: Part | None) -> None:
        """Fill the list and select ``current`` without emitting a choice.

        The list is rebuilt only when its parts change; otherwise only the current
        entry moves, so a build edit does not repopulate every picker.
        """
        parts = tuple(parts)
        if current is not None and all(p.id != current.id for p in parts):
            parts = (current, *parts)
        current_id = current.id if current is not None else NONE_ID
        blocked = self.combo.blockSignals(True)
        try:
            if tuple(p.id for p in parts) != tuple(p.id for p in self._parts):
                self._parts = parts
                self._current_id = None
                self.combo.clear()
                if self.optional:
                    self.combo.addItem(self.none_text, NONE_ID)
                for part in parts:
                    self.combo.addItem(part_label(part), part.id)
                    self.combo.setItemData(
                        self.combo.count() - 1,
                        plain.tip(f"{part_label(part)}\n{key_specs(part)}"),
                        Qt.ItemDataRole.ToolTipRole,
                    )
                view = self.combo.view()
                view.setMinimumWidth(min(view.sizeHintForColumn(0) + 24, 560))
            if current_id != self._current_id or self.combo.currentData() != current_id:
                self._current_id = current_id
                self.combo.setCurrentIndex(max(self.combo.findData(current_id), 0))
                tip = f"{part_label(current)}\n{key_specs(current)}" if current else self.none_text
                self.combo.setToolTip(plain.tip(tip))
            edit = self.combo.lineEdit()
            if edit is not None:
                edit.setCursorPosition(0)  # show a long name's start, not its end
        finally:
            self.combo.blockSignals(blocked)

    def current_id(self) -> str | None:
        data = self.combo.currentData()
        return None if data in (None, NONE_ID) else str(data)

    def choose(self, part_id: str | None) -> None:
        """Pick ``part_id`` as a user would (used by the dialog and tests)."""
        index = self.combo.findData(part_id or NONE_ID)
        if index >= 0:
            self.combo.setCurrentIndex(index)
            self._on_combo_activated(index)

    def _on_combo_activated(self, index: int) -> None:
        data = self.combo.itemData(index)
        self.part_chosen.emit(None if data in (None, NONE_ID) else str(data))

    def _on_filter_button_clicked(self) -> None:
        self.dialog = PartPickerDialog(self.category, self._parts, self)
        if self.dialog.exec() == QDialog.DialogCode.Accepted and self.dialog.chosen_id:
            self.choose(self.dialog.chosen_id)


class PartPickerDialog(QDialog):
    """Every part of a category in a table, with text search and category filters."""

    COLUMNS = ("Part", "Key specs", "Price")

    def __init__(self, category: str, parts: Sequence[Part], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Choose a {category}")
        self.resize(820, 520)
        self.parts = tuple(parts)
        self.chosen_id: str | None = None
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search name, alias or spec…")
        self.search.setClearButtonEnabled(True)
        self.vendor = self._choices("vendor")
        self.form_factor = self._choices("form_factor")
        self.min_vram = QDoubleSpinBox()
        self.min_vram.setRange(0, 1024)
        self.min_vram.setSuffix(" GB")
        self.max_price = QDoubleSpinBox()
        self.max_price.setRange(0, 10_000_000)
        self.max_price.setSpecialValueText("no limit")
        self.max_price.setPrefix("$")
        self.max_price.setSingleStep(100)
        filters = QFormLayout()
        filters.addRow("Search", self.search)
        if self.vendor.count() > 1:
            filters.addRow("Vendor", self.vendor)
        if category == "gpu":
            filters.addRow("Min VRAM", self.min_vram)
        if self.form_factor.count() > 1:
            filters.addRow("Form factor", self.form_factor)
        filters.addRow("Max price", self.max_price)
        self.table = QTableWidget(0, len(self.COLUMNS))
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.table.doubleClicked.connect(self.accept)
        self.search.textChanged.connect(self._on_filter_changed)
        for combo in (self.vendor, self.form_factor):
            combo.currentIndexChanged.connect(self._on_filter_changed)
        for spin in (self.min_vram, self.max_price):
            spin.valueChanged.connect(self._on_filter_changed)
        self._on_filter_changed()

    def _choices(self, field: str) -> QComboBox:
        combo = QComboBox()
        combo.addItem(ANY)
        values = sorted({str(getattr(p, field)) for p in self.parts if hasattr(p, field)})
        combo.addItems(values)
        return combo

    def visible_parts(self) -> list[Part]:
        words = self.search.text().lower().split()
        vendor, form = self.vendor.currentText(), self.form_factor.currentText()
        limit = self.max_price.value()
        shown = []
        for part in self.parts:
            text = " ".join((part.name, *part.aliases, key_specs(part))).lower()
            if any(w not in text for w in words):
                continue
            if vendor != ANY and str(getattr(part, "vendor", "")) != vendor:
                continue
            if form != ANY and str(getattr(part, "form_factor", "")) != form:
                continue
            if getattr(part, "vram_gib", 0.0) < self.min_vram.value():
                continue
            if limit > 0 and (part.price.usd is None or part.price.usd > limit):
                continue
            shown.append(part)
        return shown

    def _on_filter_changed(self, *_args: object) -> None:
        parts = self.visible_parts()
        self.table.setRowCount(len(parts))
        for row, part in enumerate(parts):
            for column, text in enumerate((part.name, key_specs(part), USD(part.price.usd))):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, part.id)
                item.setToolTip(
                    plain.tip(f"{part.price.source}\nSources: {'; '.join(part.sources)}")
                )
                self.table.setItem(row, column, item)
        if parts:
            self.table.selectRow(0)

    def accept(self) -> None:
        item = self.table.item(self.table.currentRow(), 0)
        self.chosen_id = None if item is None else str(item.data(Qt.ItemDataRole.UserRole))
        super().accept()
