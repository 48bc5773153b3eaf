"""Every check, worst first: a one-line table coloured by severity, and below it the
selected check in full — its reason, the numbers behind it, the fix and *Apply fix*.

The table is a model/view pair: an edit that changes a few checks rewrites those cells
only (no widget per row), so updating it costs well under a millisecond. Every text is
plain text; nothing a file or a server supplies is rendered as markup.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QStandardItem,
    QStandardItemModel,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.models.checks import SEVERITY_ORDER, Check
from core.text.checks import SEVERITY_LABELS, check_title, number_lines, render_reason
from core.text.fixes import fix_text
from gui.views import plain
from gui.views.summary_cards import ElidedLabel

COLUMNS = ("", "Check", "Why", "Fix")
WIDTHS = {0: 54, 1: 150, 3: 230}
"""Column widths in pixels at the start; "Why" takes the rest."""
FIX_SHARE = 0.38
"""The "Fix" column's share of what severity and check leave: "Why" keeps the larger part
however narrow the window (at 1280 px the table is about 480 px wide)."""
FIX_WIDTH = (90, 360)
"""Narrowest and widest "Fix" column, in pixels."""
BACKGROUNDS = {
    "light": {"fail": "#fbe3e3", "warn": "#fff1d6", "info": "#e8f0fb", "pass": "#e6f4e6"},
    "dark": {"fail": "#5a2325", "warn": "#574219", "info": "#22364f", "pass": "#1f3d24"},
}
FOREGROUNDS = {
    "light": {"fail": "#b71c1c", "warn": "#8a5300", "info": "#1f4e8c", "pass": "#2e7d32"},
    "dark": {"fail": "#ff8a80", "warn": "#ffcc80", "info": "#90caf9", "pass": "#a5d6a7"},
}


class ChecksModel(QStandardItemModel):
    """The checks as rows (worst first) and their texts as columns.

    The items live in Qt's own storage, so painting the table calls no Python; an edit
    rewrites only the cells whose text or severity changed.
    """

    def __init__(self) -> None:
        super().__init__(0, len(COLUMNS))
        self.setHorizontalHeaderLabels(list(COLUMNS))
        self.checks: tuple[Check, ...] = ()
        self.applicable: tuple[bool, ...] = ()
        self._shown: list[tuple[object, ...]] = []
        self.theme = "light"
        bold = QFont()
        bold.setBold(True)
        self._bold = bold

    def set_checks(self, checks: tuple[Check, ...], applicable: tuple[bool, ...]) -> None:
        order = sorted(range(len(checks)), key=lambda i: -SEVERITY_ORDER[checks[i].severity])
        checks = tuple(checks[i] for i in order)
        applicable = tuple(applicable[i] for i in order)
        if checks == self.checks and applicable == self.applicable:
            return
        self.checks, self.applicable = checks, applicable
        self._fill()

    def _fill(self) -> None:
        """Rewrite the changed cells with the model's signals held, then tell the view once
        (a signal per cell made the view repaint cell by cell)."""
        if self.rowCount() < len(self.checks):
            self._rows_for(len(self.checks))
        blocked = self.blockSignals(True)
        try:
            changed = self._write()
        finally:
            self.blockSignals(blocked)
        if changed:
            self.dataChanged.emit(
                self.index(changed[0], 0), self.index(changed[-1], len(COLUMNS) - 1)
            )

    def _rows_for(self, count: int) -> None:
        while self.rowCount() < count:
            row = [QStandardItem() for _ in COLUMNS]
            for item in row:
                item.setEditable(False)
            row[0].setFont(self._bold)
            row[0].setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.appendRow(row)
            self._shown.append(())

    def _write(self) -> list[int]:
        checks = self.checks
        changed: list[int] = []
        # Rows are added when more are needed than ever before and blanked (never removed)
        # when fewer are: inserting and removing rows re-lays out the window, blanking a
        # row only repaints it.
        for r in range(len(checks), self.rowCount()):
            if self._shown[r] != ():
                self._shown[r] = ()
                changed.append(r)
                for c in range(len(COLUMNS)):
                    item = self.item(r, c)
                    assert item is not None
                    item.setText("")
                    item.setToolTip(plain.tip(""))
                    item.setBackground(QBrush())
                    item.setFlags(Qt.ItemFlag.NoItemFlags)
        background, foreground = BACKGROUNDS[self.theme], FOREGROUNDS[self.theme]
        for r, check in enumerate(checks):
            texts = (
                SEVERITY_LABELS[check.severity],
                check_title(check.id),
                render_reason(check),
                fix_text(check.fix) if check.fix is not None else "",
            )
            shown = (texts, check.severity, self.theme)
            if self._shown[r] == shown:
                continue  # most rows are unchanged by an edit
            self._shown[r] = shown
            changed.append(r)
            brush = QBrush(QColor(background[check.severity]))
            for c, text in enumerate(texts):
                item = self.item(r, c)
                assert item is not None
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
                item.setText(text)
                item.setToolTip(plain.tip(text))
                item.setBackground(brush)
            first = self.item(r, 0)
            assert first is not None
            first.setForeground(QBrush(QColor(foreground[check.severity])))
        return sorted(changed)

    def set_theme(self, theme: str) -> None:
        if theme != self.theme:
            self.theme = theme
            self._shown = [() for _ in self._shown]
            self._fill()


class ChecksPanel(QWidget):
    fix_requested = Signal(object)
    """Emitted with the ``Check`` whose fix the user asked to apply."""

    def __init__(self) -> None:
        super().__init__()
        self.model = ChecksModel()
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setObjectName("checksTable")
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always shown: a scroll bar appearing when the check count grows would re-lay out
        # the whole window on that edit.
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        rows = self.table.verticalHeader()
        rows.setVisible(False)
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.row_height = self.fontMetrics().height() + 8
        rows.setDefaultSectionSize(self.row_height)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(False)
        for column, width in WIDTHS.items():
            self.table.setColumnWidth(column, width)
        self.table.viewport().installEventFilter(self)  # its resizes share out the columns
        self.detail = QPlainTextEdit()
        self.detail.setObjectName("checkDetail")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("Select a check to read it in full.")
        self.detail_title = ElidedLabel()
        self.detail_title.setObjectName("checkTitle")
        self.apply_button = QPushButton("Apply fix")
        self.apply_button.setObjectName("applyFix")
        self.apply_button.setEnabled(False)
        detail_box = QWidget()
        detail_column = QVBoxLayout(detail_box)
        detail_column.setContentsMargins(0, 2, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.detail_title, 1)
        heading.addWidget(self.apply_button)
        detail_column.addLayout(heading)
        detail_column.addWidget(self.detail, 1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(detail_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self._selected: str | None = None
        self._following_worst = True
        """Until the user picks a row, the detail pane shows the worst check."""
        self._placing = False
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.apply_button.clicked.connect(self._on_apply_button_clicked)

    # -- state -------------------------------------------------------------------------

    @property
    def checks(self) -> tuple[Check, ...]:
        return self.model.checks

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self.fit_columns()
        return super().eventFilter(watched, event)

    def fit_columns(self) -> None:
        """Share the table's width: "Why" gets most of what severity and check leave."""
        left = self.table.viewport().width() - WIDTHS[0] - WIDTHS[1]
        low, high = FIX_WIDTH
        self.table.setColumnWidth(3, int(min(high, max(low, FIX_SHARE * left))))

    def set_checks(self, checks: tuple[Check, ...], applicable: tuple[bool, ...]) -> None:
        """Show ``checks`` worst first; ``applicable`` says which fixes one click applies."""
        self.model.set_checks(checks, applicable)
        if not self.model.checks:
            self._show_detail(None)
            return
        row = 0
        if not self._following_worst:
            row = next((r for r, c in enumerate(self.model.checks) if c.id == self._selected), 0)
        if self.table.currentIndex().row() != row:
            self._placing = True
            self.table.setCurrentIndex(self.model.index(row, 0))
            self._placing = False
        self._show_detail(row)

    def text(self, row: int, column: int) -> str:
        """What the table shows in a cell (tests and copy)."""
        return str(self.model.data(self.model.index(row, column)) or "")

    def can_apply(self, check_id: str) -> bool:
        return any(
            c.id == check_id and ok
            for c, ok in zip(self.model.checks, self.model.applicable, strict=True)
        )

    def apply(self, check_id: str) -> bool:
        """Apply ``check_id``'s fix as the button would; ``False`` when it offers none."""
        for check, ok in zip(self.model.checks, self.model.applicable, strict=True):
            if check.id == check_id and ok:
                self.fix_requested.emit(check)
                return True
        return False

    def set_theme(self, theme: str) -> None:
        self.model.set_theme(theme)

    # -- detail pane ----------------------------------------------------------------------

    def _show_detail(self, row: int | None) -> None:
        if row is None or not 0 <= row < len(self.model.checks):
            self._selected = None
            self.detail_title.setText("")
            self.detail.setPlainText("")
            self.apply_button.setEnabled(False)
            return
        check = self.model.checks[row]
        self._selected = check.id
        title = f"{SEVERITY_LABELS[check.severity]} {check_title(check.id)}"
        lines = [render_reason(check)]
        if check.fix is not None:
            lines += ["", f"Fix: {fix_text(check.fix)}"]
            if not check.fix.applicable:
                lines.append("(advice: RigForge cannot make this change for you)")
        numbers = number_lines(check)
        if numbers:
            lines += ["", "Numbers behind it:", *numbers]
        text = "\n".join(lines)
        if self.detail_title.text() != title:
            self.detail_title.setText(title)
        if self.detail.toPlainText() != text:
            self.detail.setPlainText(text)
        can = self.model.applicable[row]
        self.apply_button.setEnabled(can)
        self.apply_button.setToolTip(plain.tip(fix_text(check.fix) if can and check.fix else ""))

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not self._placing:
            self._following_worst = current.row() <= 0
        self._show_detail(current.row() if current.isValid() else None)

    def _on_table_double_clicked(self, index: QModelIndex) -> None:
        if index.isValid() and self.model.applicable[index.row()]:
            self.fix_requested.emit(self.model.checks[index.row()])

    def _on_apply_button_clicked(self) -> None:
        row = self.table.currentIndex().row()
        if 0 <= row < len(self.model.checks) and self.model.applicable[row]:
            self.fix_requested.emit(self.model.checks[row])
