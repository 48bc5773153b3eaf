"""Table of the build's parts: quantity, part, key specs, price and its source."""

from __future__ import annotations

from core.models.results import PartsCost
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.build import Build
from core.text.money import USD
from core.text.parts import UNKNOWN, bill_of_materials, fmt_price, key_specs
from gui.viewmodels.build import BuildViewModel

COLUMNS = ("Qty", "Part", "Key specs", "Unit price", "Line total", "Price source")
WIDTHS = (36, 190, 200, 80, 80)
"""Fixed starting widths (fitting columns to their contents on every edit is slow)."""


class PartsPanel(QWidget):
    def __init__(self, view_model: BuildViewModel) -> None:
        super().__init__()
        self._view_model = view_model
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
        self.total_label = QLabel()
        self.total_label.setObjectName("partsTotal")
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(self.total_label, alignment=Qt.AlignmentFlag.AlignRight)
        view_model.build_changed.connect(self._on_view_model_build_changed)
        self._show(view_model.build, view_model.cost)

    def _on_view_model_build_changed(self, build: Build) -> None:
        self._show(build, self._view_model.cost)

    def _show(self, build: Build, cost: PartsCost) -> None:
        lines = bill_of_materials(build)
        if self.table.rowCount() != len(lines):
            self.table.setRowCount(len(lines))
        for row, (quantity, part) in enumerate(lines):
            unit = part.price.usd
            cells = (
                str(quantity),
                part.name,
                key_specs(part),
                fmt_price(part.price),
                USD(None if unit is None else unit * quantity),
                part.price.source,
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
                item.setToolTip(tip)
        text = f"Parts total: {USD(cost.total_usd)}"
        if not cost.complete:
            text += f"  (excludes {len(cost.unpriced_part_ids)} part(s) with unknown price)"
        self.total_label.setText(text)
