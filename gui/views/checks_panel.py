"""Every check, coloured by severity, with its numbers, reason, fix and "Apply fix"."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.checks import SEVERITY_ORDER, Check
from core.text.checks import SEVERITY_LABELS, render_fix, render_reason

COLUMNS = ("", "Check", "Why", "Fix", "")
BACKGROUNDS = {
    "light": {"fail": "#fbe3e3", "warn": "#fff1d6", "info": "#e8f0fb", "pass": "#e6f4e6"},
    "dark": {"fail": "#5a2325", "warn": "#574219", "info": "#22364f", "pass": "#1f3d24"},
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
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setColumnWidth(3, 240)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        self.checks: tuple[Check, ...] = ()
        self.applicable: tuple[bool, ...] = ()
        self.theme = "light"

    def set_checks(self, checks: tuple[Check, ...], applicable: tuple[bool, ...]) -> None:
        """Show ``checks`` worst first; ``applicable`` says which fixes one click applies."""
        order = sorted(range(len(checks)), key=lambda i: -SEVERITY_ORDER[checks[i].severity])
        checks = tuple(checks[i] for i in order)
        applicable = tuple(applicable[i] for i in order)
        if checks == self.checks and applicable == self.applicable:
            return
        self.checks, self.applicable = checks, applicable
        self.table.setRowCount(len(checks))
        colours = BACKGROUNDS.get(self.theme, BACKGROUNDS["light"])
        for row, check in enumerate(checks):
            fix = render_fix(check.fix) if check.fix is not None else ""
            cells = (SEVERITY_LABELS[check.severity], check.id, render_reason(check), fix)
            brush = QBrush(QColor(colours[check.severity]))
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setBackground(brush)
                item.setToolTip(f"{text}\n\nNumbers behind it:\n{numbers_text(check)}")
                self.table.setItem(row, column, item)
            if applicable[row]:
                self.table.setCellWidget(row, 4, self._button(row))
            else:
                self.table.removeCellWidget(row, 4)
        self.table.resizeRowsToContents()

    def _button(self, row: int) -> QPushButton:
        button = QPushButton("Apply fix")
        button.setObjectName(f"applyFix_{self.checks[row].id}")
        fix = self.checks[row].fix
        button.setToolTip(render_fix(fix) if fix is not None else "")
        button.clicked.connect(lambda _c=False, row=row: self._on_apply_clicked(row))
        return button

    def apply_button(self, check_id: str) -> QPushButton | None:
        for row, check in enumerate(self.checks):
            if check.id == check_id:
                widget = self.table.cellWidget(row, 4)
                return widget if isinstance(widget, QPushButton) else None
        return None

    def _on_apply_clicked(self, row: int) -> None:
        if 0 <= row < len(self.checks):
            self.fix_requested.emit(self.checks[row])

    def set_theme(self, theme: str) -> None:
        self.theme = theme
        checks, applicable = self.checks, self.applicable
        self.checks = ()
        self.set_checks(checks, applicable)
