"""Table of the build's parts: quantity, part, key specs, price with its date, and source.

Prices are the analysis' price lines (catalog, price feed or your override), shown in the
chosen currency; an unknown price reads "unknown" and leaves the total unknown.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.analysis import Analysis
from core.text.cost import ORIGIN_TEXT, total_text
from core.text.money import Money
from core.text.parts import UNKNOWN, key_specs
from gui.views import plain

COLUMNS = ("Qty", "Part", "Key specs", "Unit price", "Line total", "Price source")
WIDTHS = (36, 190, 200, 90, 90)
"""Fixed starting widths (fitting columns to their contents on every edit is slow)."""


class PartsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        for column, width in enumerate(WIDTHS):
            self.table.setColumnWidth(column, width)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.total_label = plain.label()
        self.total_label.setObjectName("partsTotal")
        self.total_label.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.total_label, alignment=Qt.AlignmentFlag.AlignRight)
        self._shown: tuple[object, ...] = ()

    def show_analysis(self, analysis: Analysis, money: Money) -> None:
        key = (analysis.cost.lines, money.currency)
        if key == self._shown:
            return
        self._shown = key
        specs = {part.id: key_specs(part) for _q, part in analysis.build.bill_of_materials()}
        lines = analysis.cost.lines
        if self.table.rowCount() != len(lines):
            self.table.setRowCount(len(lines))
        for row, line in enumerate(lines):
            price = (
                UNKNOWN
                if line.unit_usd is None
                else f"{money(line.unit_usd)} ({line.kind}, {line.as_of})"
            )
            source = f"{ORIGIN_TEXT[line.origin]}: {line.source}"
            cells = (
                str(line.quantity),
                line.name,
                specs.get(line.part_id, ""),
                price,
                money(line.line_usd),
                source,
            )
            for column, text in enumerate(cells):
                item = self.table.item(row, column)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(row, column, item)
                item.setText(text)
                tip = text if column in (1, 2, 5) else ""
                if text == UNKNOWN:
                    tip = "No source gives this value; RigForge does not guess it."
                item.setToolTip(plain.tip(tip))
        text = f"Parts total: {total_text(analysis.cost, money)}"
        if money.note():
            text += f"  ({money.note()})"
        self.total_label.setText(text)
