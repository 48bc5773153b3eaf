"""Every check on one line, coloured by severity, with its reason, fix and "Apply fix".

Rows, items and buttons are created when the row count grows and reused after
that: an edit only rewrites texts, so updating the table costs well under a
millisecond (rebuilding it, with a button per row and row heights fitted to
wrapped text, took tens of milliseconds per edit).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.checks import SEVERITY_ORDER, Check
from core.text.checks import SEVERITY_LABELS, render_reason
from core.text.fixes import fix_text

COLUMNS = ("", "Check", "Why", "Fix", "")
WIDTHS = {0: 54, 1: 150, 3: 200, 4: 72}
"""Fixed column widths in pixels; "Why" takes the rest."""
BACKGROUNDS = {
    "light": {"fail": "#fbe3e3", "warn": "#fff1d6", "info": "#e8f0fb", "pass": "#e6f4e6"},
    "dark": {"fail": "#5a2325", "warn": "#574219", "info": "#22364f", "pass": "#1f3d24"},
}
FOREGROUNDS = {
    "light": {"fail": "#b71c1c", "warn": "#8a5300", "info": "#1f4e8c", "pass": "#2e7d32"},
    "dark": {"fail": "#ff8a80", "warn": "#ffcc80", "info": "#90caf9", "pass": "#a5d6a7"},
}


def numbers_text(check: Check) -> str:
    return "\n".join(f"{k} = {v}" for k, v in check.numbers.items())


class ChecksPanel(QWidget):
    fix_requested = Signal(object)
    """Emitted with the ``Check`` whose fix the user asked to apply."""

    def __init__(self) -> None:
        super().__init__()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("checksTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        rows = self.table.verticalHeader()
        rows.setVisible(False)
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.row_height = self.fontMetrics().height() + 10
        rows.setDefaultSectionSize(self.row_height)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for column, width in WIDTHS.items():
            self.table.setColumnWidth(column, width)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        self.checks: tuple[Check, ...] = ()
        self.applicable: tuple[bool, ...] = ()
        self.buttons: list[QPushButton] = []
        self._rows: list[tuple[object, ...]] = []
        """What each row shows now, to skip rows an edit leaves unchanged."""
        self._visible_rows = 0
        self._items: list[list[QTableWidgetItem]] = []
        self.theme = "light"

    def set_checks(self, checks: tuple[Check, ...], applicable: tuple[bool, ...]) -> None:
        """Show ``checks`` worst first; ``applicable`` says which fixes one click applies."""
        order = sorted(range(len(checks)), key=lambda i: -SEVERITY_ORDER[checks[i].severity])
        checks = tuple(checks[i] for i in order)
        applicable = tuple(applicable[i] for i in order)
        if checks == self.checks and applicable == self.applicable:
            return
        self.checks, self.applicable = checks, applicable
        self._set_row_count(len(checks))
        backgrounds = BACKGROUNDS.get(self.theme, BACKGROUNDS["light"])
        foregrounds = FOREGROUNDS.get(self.theme, FOREGROUNDS["light"])
        for row, check in enumerate(checks):
            fix = fix_text(check.fix) if check.fix is not None else ""
            cells = (SEVERITY_LABELS[check.severity], check.id, render_reason(check), fix)
            numbers = numbers_text(check)
            shown = (*cells, numbers, check.severity, self.theme, applicable[row])
            if self._rows[row] == shown:
                continue  # most rows are unchanged by an edit: leave them alone
            self._rows[row] = shown
            colour = QColor(backgrounds[check.severity])
            for column, text in enumerate(cells):
                item = self._items[row][column]
                item.setText(text)
                item.setToolTip(f"{text}\n\nNumbers behind it:\n{numbers}" if numbers else text)
                item.setBackground(colour)
            self._items[row][0].setForeground(QColor(foregrounds[check.severity]))
            button = self.buttons[row]
            button.setVisible(applicable[row])
            button.setObjectName(f"applyFix_{check.id}")
            button.setToolTip(fix)

    def _set_row_count(self, count: int) -> None:
        """Show ``count`` rows: add rows (items and a hidden button each) when more are
        needed than ever before, hide the surplus otherwise; reuse the rest."""
        old = self.table.rowCount()
        for row in range(min(old, max(count, self._visible_rows))):
            self.table.setRowHidden(row, row >= count)
        self._visible_rows = count
        if count <= old:
            return
        self.table.setRowCount(count)
        bold = self.table.font()
        bold.setBold(True)
        for row in range(old, count):
            self._items.append([])
            for column in range(len(COLUMNS) - 1):
                item = QTableWidgetItem()
                self._items[row].append(item)
                if column == 0:
                    item.setFont(bold)
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
            button = QPushButton("Apply fix")
            button.setStyleSheet("padding: 1px 4px;")
            button.setFixedHeight(self.row_height - 4)
            button.clicked.connect(lambda _c=False, row=row: self._on_apply_clicked(row))
            holder = QWidget()
            cell = QVBoxLayout(holder)
            cell.setContentsMargins(2, 2, 2, 2)
            cell.addWidget(button)
            self.table.setCellWidget(row, 4, holder)
            self.buttons.append(button)
            self._rows.append(())

    def apply_button(self, check_id: str) -> QPushButton | None:
        """The "Apply fix" button of ``check_id``, or ``None`` where none is offered."""
        for row, check in enumerate(self.checks):
            if check.id == check_id:
                return self.buttons[row] if self.applicable[row] else None
        return None

    def _on_apply_clicked(self, row: int) -> None:
        if 0 <= row < len(self.checks) and self.applicable[row]:
            self.fix_requested.emit(self.checks[row])

    def set_theme(self, theme: str) -> None:
        if theme == self.theme:
            return
        self.theme = theme
        checks, applicable = self.checks, self.applicable
        self.checks = ()
        self.set_checks(checks, applicable)
