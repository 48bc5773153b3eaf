"""Edit → Prices…: every part's price with its kind, date, age and source, filterable;
a price edited in the table becomes your override; *Update from feed…* downloads a price
feed in the background with progress and Cancel; prices older than 12 months are flagged.
"""

from __future__ import annotations

from typing import Any, get_args

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from core.models.parts import Category
from core.text.cost import ORIGIN_TEXT
from gui.viewmodels.prices import STALE_DAYS, PriceRow, PricesViewModel
from gui.views import plain

COLUMNS = ("Part", "Category", "Price (USD)", "Kind", "As of", "Age", "From", "Source")
PRICE_COLUMN = 2
STALE_BRUSH = QBrush(QColor("#c07000"))
Index = QModelIndex | QPersistentModelIndex


def age_text(row: PriceRow) -> str:
    if row.age_days is None:
        return "no price"
    months = row.age_days // 30
    text = f"{row.age_days} days" if months < 2 else f"{months} months"
    return f"{text} (stale)" if row.stale else text


class PriceTableModel(QAbstractTableModel):
    """The price rows of a ``PricesViewModel``; the price column is editable."""

    def __init__(self, prices: PricesViewModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.prices = prices
        self._rows = prices.rows()
        prices.catalog_changed.connect(self._on_catalog_changed)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def row(self, index: int) -> PriceRow:
        return self._rows[index]

    def cell(self, row: PriceRow, column: int) -> str:
        price = row.price
        return (
            row.part.name,
            row.part.category,
            "unknown" if price.usd is None else f"${price.usd:,.2f}",
            price.kind,
            price.as_of.isoformat() if price.as_of else "",
            age_text(row),
            ORIGIN_TEXT[row.origin],
            price.source,
        )[column]

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(row, column)
        if role == Qt.ItemDataRole.EditRole:
            return "" if row.price.usd is None else f"{row.price.usd:.2f}"
        if role == Qt.ItemDataRole.ToolTipRole and column in (0, 7):
            return plain.tip(self.cell(row, column))
        if role == Qt.ItemDataRole.ToolTipRole and column == PRICE_COLUMN:
            return plain.tip("Double-click to enter your price (kept as your override)")
        if role == Qt.ItemDataRole.ForegroundRole and column == 5 and row.stale:
            return STALE_BRUSH
        if role == Qt.ItemDataRole.UserRole:
            return row.part.id
        if role == Qt.ItemDataRole.UserRole + 1:  # sort key
            if column == PRICE_COLUMN:
                return row.price.usd or -1.0
            # ties (one category, one kind, …) in the parts' alphabetical order
            return f"{self.cell(row, column)}\x00{row.part.name.casefold()}"
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        if index.isValid() and index.column() == PRICE_COLUMN:
            return base | Qt.ItemFlag.ItemIsEditable
        return base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() != PRICE_COLUMN:
            return False
        row = self._rows[index.row()]
        text = str(value).strip().replace(",", "").removeprefix("$")
        if not text:
            return self.prices.remove_price(row.part.id)
        try:
            amount = float(text)
        except ValueError:
            self.prices.failed.emit(f"{text!r} is not a price")
            return False
        return self.prices.set_price(row.part.id, amount) is None

    def _on_catalog_changed(self, _catalog: object) -> None:
        rows = self.prices.rows()
        if [r.part.id for r in rows] == [r.part.id for r in self._rows] and rows:
            # the same parts with new prices: update the cells in place, so the selection
            # stays and an edit that caused this is not torn out of its view
            self._rows = rows
            last = self.index(len(rows) - 1, len(COLUMNS) - 1)
            self.dataChanged.emit(self.index(0, 0), last)
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()


class PriceFilter(QSortFilterProxyModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.text = ""
        self.category = ""
        self.attention_only = False
        self.setSortRole(Qt.ItemDataRole.UserRole + 1)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        model = self.sourceModel()
        assert isinstance(model, PriceTableModel)
        row = model.row(source_row)
        if self.category and row.part.category != self.category:
            return False
        if self.attention_only and not (row.stale or row.price.usd is None):
            return False
        if self.text:
            haystack = f"{row.part.name} {row.part.id} {row.price.source}".lower()
            return all(word in haystack for word in self.text.lower().split())
        return True

    def set(
        self,
        *,
        text: str | None = None,
        category: str | None = None,
        attention_only: bool | None = None,
    ) -> None:
        self.beginFilterChange()
        if text is not None:
            self.text = text
        if category is not None:
            self.category = category
        if attention_only is not None:
            self.attention_only = attention_only
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)


class PricesDialog(QDialog):
    def __init__(self, prices: PricesViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Prices")
        self.prices = prices
        self.model = PriceTableModel(prices, self)
        self.proxy = PriceFilter(self)
        self.proxy.setSourceModel(self.model)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Filter by name, id or source")
        self.search.setClearButtonEnabled(True)
        self.category = QComboBox()
        self.category.addItem("every category", "")
        for category in get_args(Category):
            self.category.addItem(category, category)
        self.attention = QCheckBox(f"only unknown or older than {STALE_DAYS // 30} months")
        self.table = QTableView()
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((240, 80, 90, 60, 85, 110, 90)):
            self.table.setColumnWidth(column, width)
        self.update_button = QPushButton("Update from feed…")
        self.update_button.setToolTip(
            plain.tip(
                "Download a JSON price feed (docs/prices.md); bad entries are refused "
                "one by one and the prices in force are kept"
            )
        )
        self.cancel_button = QPushButton("Cancel update")
        self.remove_button = QPushButton("Remove my price")
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setVisible(False)
        self.report = plain.label()
        self.report.setWordWrap(True)
        self.report.setObjectName("pricesReport")
        self.summary = plain.label()
        filters = QHBoxLayout()
        filters.addWidget(self.search, 2)
        filters.addWidget(self.category)
        filters.addWidget(self.attention)
        actions = QHBoxLayout()
        actions.addWidget(self.update_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress, 1)
        actions.addWidget(self.remove_button)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addLayout(actions)
        layout.addWidget(self.report)
        layout.addWidget(close)
        self.resize(1100, 640)
        self.search.textChanged.connect(lambda text: self.proxy.set(text=text))
        self.category.currentIndexChanged.connect(
            lambda _i: self.proxy.set(category=self.category.currentData())
        )
        self.attention.toggled.connect(lambda on: self.proxy.set(attention_only=on))
        self.update_button.clicked.connect(self._on_update_button_clicked)
        self.cancel_button.clicked.connect(prices.cancel_update)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        prices.catalog_changed.connect(self._on_selection_changed)  # an override came or went
        prices.update_running.connect(self._on_update_running)
        prices.update_progress.connect(self._on_update_progress)
        prices.update_finished.connect(self.report.setText)
        prices.failed.connect(self.report.setText)
        prices.catalog_changed.connect(self._show_summary)
        self._on_update_running(prices.running)
        self._on_selection_changed()
        self._show_summary()

    def selected_part_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return str(self.proxy.data(rows[0], Qt.ItemDataRole.UserRole)) if rows else None

    def edit_price_of(self, part_id: str) -> None:
        """Show ``part_id``'s row and open its price for editing (from "enter one" links)."""
        self.search.clear()
        self.category.setCurrentIndex(0)
        self.attention.setChecked(False)
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, PRICE_COLUMN)
            if self.proxy.data(index, Qt.ItemDataRole.UserRole) == part_id:
                self.table.setCurrentIndex(index)
                self.table.scrollTo(index)
                self.table.edit(index)
                return

    def _show_summary(self, *_args: object) -> None:
        rows = self.prices.rows()
        priced = sum(r.price.usd is not None for r in rows)
        stale = sum(r.stale for r in rows)
        mine = sum(r.origin == "override" for r in rows)
        self.summary.setText(
            f"{priced} of {len(rows)} parts priced; {stale} price(s) older than "
            f"{STALE_DAYS // 30} months; {mine} of your own. Double-click a price to change it; "
            "clear it to remove your price."
        )

    def _on_update_button_clicked(self) -> None:
        url, ok = QInputDialog.getText(
            self,
            "Update prices",
            "Address of a RigForge price feed (http:// or https://):",
            QLineEdit.EchoMode.Normal,
            self.prices.feed_url or "https://",
        )
        if ok and url.strip():
            self.report.setText(f"Downloading {url.strip()}…")
            self.prices.start_update(url.strip())

    def _on_remove_button_clicked(self) -> None:
        part_id = self.selected_part_id()
        if part_id is not None and self.prices.remove_price(part_id):
            name = self.prices.part_name(part_id)
            self.report.setText(f"Your price for {name} was removed.")

    def _on_selection_changed(self, *_args: object) -> None:
        part_id = self.selected_part_id()
        mine = part_id is not None and self.prices.catalog.price_origins.get(part_id) == "override"
        self.remove_button.setEnabled(mine)

    def _on_update_running(self, running: bool) -> None:
        self.update_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setRange(0, 0)

    def _on_update_progress(self, received: int, total: int) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(received, total))
