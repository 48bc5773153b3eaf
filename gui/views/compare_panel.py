"""The Compare tab: the list of builds, the side-by-side table and the comparison charts."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.catalog.systems import load_systems
from core.text.compare import CompareRow
from core.text.money import USD, Money
from core.text.systems import SYSTEM_COLUMNS, system_row
from gui.charts.compare_grid import CompareChartsGrid
from gui.viewmodels.comparison import ComparisonState, ComparisonViewModel
from gui.views import plain
from gui.views.system_dialog import SystemDialog

BEST_BACKGROUND = QColor("#d5f0d0")
BEST_FOREGROUND = QColor("#1d5e1a")


class CompareBuildsList(QWidget):
    """Builds of the document: select one to edit it, add, duplicate, remove, rename."""

    def __init__(self, view_model: ComparisonViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view_model = view_model
        self.list = QListWidget()
        self.list.setToolTip(
            plain.tip(
                "The build selected here is the one the Build tab edits. "
                "Double-click a name to rename it."
            )
        )
        self.add_button = QPushButton("Add")
        self.duplicate_button = QPushButton("Duplicate")
        self.remove_button = QPushButton("Remove")
        self.add_button.setToolTip(plain.tip("Add the default build"))
        self.duplicate_button.setToolTip(plain.tip("Copy the selected build to make a variant"))
        self.reference = QComboBox()
        self.reference.setToolTip(plain.tip("Deltas in the table are against this build"))
        buttons = QHBoxLayout()
        for button in (self.add_button, self.duplicate_button, self.remove_button):
            buttons.addWidget(button)
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 4)
        column.addWidget(plain.label("Builds"))
        column.addWidget(self.list, 1)
        column.addLayout(buttons)
        column.addWidget(plain.label("Deltas against"))
        column.addWidget(self.reference)
        self.message = plain.label()
        self.message.setWordWrap(True)
        column.addWidget(self.message)
        self.list.currentRowChanged.connect(self._on_list_current_row_changed)
        self.list.itemChanged.connect(self._on_list_item_changed)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.duplicate_button.clicked.connect(self._on_duplicate_button_clicked)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        self.reference.currentIndexChanged.connect(self._on_reference_current_index_changed)

    def show_state(self, state: ComparisonState) -> None:
        names = list(state.names)
        with QSignalBlocker(self.list), QSignalBlocker(self.reference):
            if [self.list.item(i).text() for i in range(self.list.count())] != names:
                self.list.clear()
                for name in names:
                    item = QListWidgetItem(name)
                    item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                    self.list.addItem(item)
            self.list.setCurrentRow(state.shown)
            if [self.reference.itemText(i) for i in range(self.reference.count())] != names:
                self.reference.clear()
                self.reference.addItems(names)
            self.reference.setCurrentIndex(state.reference)
        self.remove_button.setEnabled(len(names) > 1)

    def _on_list_current_row_changed(self, row: int) -> None:
        if row >= 0:
            self.view_model.select(row)

    def _on_list_item_changed(self, item: QListWidgetItem) -> None:
        self.message.setText(self.view_model.rename(self.list.row(item), item.text()) or "")
        self.show_state(self.view_model.state)

    def _on_add_button_clicked(self) -> None:
        self.view_model.add_build()

    def _on_duplicate_button_clicked(self) -> None:
        self.view_model.duplicate(max(self.list.currentRow(), 0))

    def _on_remove_button_clicked(self) -> None:
        self.message.setText(self.view_model.remove(max(self.list.currentRow(), 0)) or "")

    def _on_reference_current_index_changed(self, index: int) -> None:
        if index >= 0:
            self.view_model.set_reference(index)


class CompareTable(QTableWidget):
    """One column per build, one row per figure; best value per row highlighted."""

    def show_state(self, state: ComparisonState) -> None:
        rows, names = state.rows, state.names
        self.setRowCount(len(rows))
        self.setColumnCount(len(names))
        self.setHorizontalHeaderLabels(
            [f"{n}\n(reference)" if i == state.reference else n for i, n in enumerate(names)]
        )
        self.setVerticalHeaderLabels([r.label for r in rows])
        for r, row in enumerate(rows):
            best = row.best()
            for c in range(len(names)):
                self.setItem(r, c, _cell(row, c, state.reference, c in best))


def _cell(row: CompareRow, column: int, reference: int, best: bool) -> QTableWidgetItem:
    text = row.texts[column]
    delta = row.delta_text(column, reference)
    item = QTableWidgetItem(f"{text}  ({delta})" if delta else text)
    item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
    item.setData(Qt.ItemDataRole.UserRole, row.key)
    if best:
        font = QFont()
        font.setBold(True)
        item.setFont(font)
        item.setBackground(QBrush(BEST_BACKGROUND))
        item.setForeground(QBrush(BEST_FOREGROUND))
        item.setToolTip(plain.tip("best of the builds"))
    return item


class ComparePanel(QWidget):
    system_shown = Signal(int)
    """Show the document's system of this index in the Build tab (as its kind of build)."""

    def __init__(
        self,
        view_model: ComparisonViewModel,
        money: Callable[[], Money] = lambda: USD,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.view_model = view_model
        self._money = money
        self.builds = CompareBuildsList(view_model)
        self.table = CompareTable()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(True)
        self.charts = CompareChartsGrid()
        self.note = plain.label()
        self.note.setWordWrap(True)
        self.systems_table = QTableWidget(0, len(SYSTEM_COLUMNS))
        self.systems_table.setHorizontalHeaderLabels(list(SYSTEM_COLUMNS))
        self.systems_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.systems_table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.systems_table.setTabKeyNavigation(False)
        self.systems_table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.systems_table.horizontalHeader().setStretchLastSection(True)
        # a few rows, then it scrolls: the builds' table keeps the room
        self.systems_table.setMaximumHeight(
            4 * self.systems_table.verticalHeader().defaultSectionSize()
        )
        self.system_choice = QComboBox()
        for system in load_systems():
            self.system_choice.addItem(system.name, system.id)
        self.system_nodes = QSpinBox()
        self.system_nodes.setRange(1, 2)
        self.system_nodes.setPrefix("× ")
        self.system_nodes.setToolTip(
            plain.tip("Two identical systems linked by their fastest port")
        )
        self.add_system_button = QPushButton("Add system")
        self.add_system_button.setToolTip(
            plain.tip("Compare a prebuilt unified-memory system beside the builds")
        )
        self.remove_system_button = QPushButton("Remove system")
        self.system_details_button = QPushButton("Details…")
        self.system_details_button.setToolTip(
            plain.tip("The selected system's serving plan: every figure, note and check")
        )
        self.system_build_button = QPushButton("Show in Build tab")
        self.system_build_button.setToolTip(
            plain.tip("Plan the selected system in the Build tab, as a prebuilt-system build")
        )
        self.system_build_button.clicked.connect(self._on_system_build_button_clicked)
        self.system_details_button.clicked.connect(self._on_system_details_button_clicked)
        self.systems_table.doubleClicked.connect(self._on_system_details_button_clicked)
        self.add_system_button.clicked.connect(self._on_add_system_button_clicked)
        self.remove_system_button.clicked.connect(self._on_remove_system_button_clicked)
        system_bar = QHBoxLayout()
        system_bar.addWidget(plain.label("Prebuilt systems:"))
        system_bar.addWidget(self.system_choice, 1)
        system_bar.addWidget(self.system_nodes)
        system_bar.addWidget(self.add_system_button)
        system_bar.addWidget(self.remove_system_button)
        system_bar.addWidget(self.system_details_button)
        system_bar.addWidget(self.system_build_button)
        left = QSplitter(Qt.Orientation.Vertical)
        top = QSplitter(Qt.Orientation.Horizontal)
        top.addWidget(self.builds)
        table_box = QWidget()
        table_column = QVBoxLayout(table_box)
        table_column.setContentsMargins(0, 0, 0, 0)
        table_column.addWidget(self.table, 1)
        table_column.addWidget(self.note)
        table_column.addLayout(system_bar)
        table_column.addWidget(self.systems_table)
        top.addWidget(table_box)
        top.setSizes([220, 900])
        left.addWidget(top)
        left.addWidget(self.charts)
        left.setSizes([420, 560])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(left)
        view_model.comparison_changed.connect(self._on_view_model_comparison_changed)
        self._on_view_model_comparison_changed(view_model.state)

    def _on_add_system_button_clicked(self) -> None:
        self.view_model.add_system(str(self.system_choice.currentData()), self.system_nodes.value())

    def _on_remove_system_button_clicked(self) -> None:
        rows = self.systems_table.selectionModel().selectedRows()
        if rows:
            self.view_model.remove_system(rows[0].row())

    def _on_system_build_button_clicked(self) -> None:
        rows = self.systems_table.selectionModel().selectedRows()
        if rows:
            self.system_shown.emit(rows[0].row())

    def _on_system_details_button_clicked(self) -> None:
        rows = self.systems_table.selectionModel().selectedRows()
        if rows:
            self.open_system_details(rows[0].row())

    def open_system_details(self, index: int) -> SystemDialog:
        dialog = SystemDialog(*self.view_model.system_details(index), parent=self)
        dialog.setModal(True)
        dialog.show()
        return dialog

    def _show_systems(self, state: ComparisonState) -> None:
        money = self._money()
        self.systems_table.setRowCount(len(state.systems))
        for r, (name, served) in enumerate(state.systems):
            for c, text in enumerate(system_row(name, served, money)):
                self.systems_table.setItem(r, c, QTableWidgetItem(text))
        self.systems_table.setVisible(bool(state.systems))
        self.remove_system_button.setEnabled(bool(state.systems))
        self.system_details_button.setEnabled(bool(state.systems))

    def _on_view_model_comparison_changed(self, state: ComparisonState) -> None:
        self.builds.show_state(state)
        self.table.show_state(state)
        self._show_systems(state)
        money = self._money()
        self.charts.show_state(state, money)
        unpriced = [
            n for n, a in zip(state.names, state.analyses, strict=True) if not a.cost.parts.complete
        ]
        failing = [
            n for n, a in zip(state.names, state.analyses, strict=True) if a.verdict != "pass"
        ]
        parts = ["Best value per row in bold green; deltas in brackets are against the reference."]
        if unpriced:
            parts.append(
                "Unknown total (a part has no price; never counted as zero), so not ranked "
                f"and not on the cost charts: {', '.join(unpriced)}."
            )
        if failing:
            parts.append(f"Not working as they are, so never best: {', '.join(failing)}.")
        if money.note():
            parts.append(money.note() + ".")
        self.note.setText(" ".join(parts))

    def set_theme(self, theme: str) -> None:
        self.charts.set_theme(theme)
