"""Table of the build's parts: quantity, part, key specs, new or used, price with its date,
and source.

Prices are the analysis' price lines (catalog, price feed or your override), shown in the
chosen currency; an unknown price reads "unknown — enter one" and leaves the total
unknown. Double-click a price to enter your own (it becomes your override, in USD); tick
"used" to buy a part second-hand at its dated used price.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.analysis import Analysis
from core.models.build import Quote
from core.models.cost import PriceLine
from core.models.parts import Part
from core.text.cost import ORIGIN_TEXT, stale_text, total_text
from core.text.money import Money
from core.text.parts import key_specs
from gui.views import plain

COLUMNS = (
    "Qty",
    "Part",
    "Key specs",
    "Bought",
    "Unit price",
    "Line total",
    "Vendor",
    "Quote ref",
    "Price source",
)
WIDTHS = (36, 190, 180, 56, 120, 90, 90, 80)
BOUGHT_COLUMN, PRICE_COLUMN, VENDOR_COLUMN, QUOTE_COLUMN = 3, 4, 6, 7
ENTER_ONE = "unknown — enter one"
"""Fixed starting widths (fitting columns to their contents on every edit is slow)."""


class PartsPanel(QWidget):
    price_entered = Signal(str, float)
    """A part id and the USD price the user typed for it."""
    used_toggled = Signal(str, bool)
    """A part id and whether it is now bought used."""
    quote_edited = Signal(str, str, str)
    """A part id, its vendor and its quote reference as the user typed them."""
    order_edited = Signal(object, object)
    """The order's tax (per cent) and shipping (USD); ``None`` where not stated."""
    entry_refused = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setEditTriggers(
            QTableWidget.EditTrigger.DoubleClicked | QTableWidget.EditTrigger.EditKeyPressed
        )
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
        self.tax = QDoubleSpinBox()
        self.tax.setRange(-0.01, 50.0)
        self.tax.setDecimals(2)
        self.tax.setSuffix(" %")
        self.tax.setSpecialValueText("tax not stated")
        self.tax.setKeyboardTracking(False)
        self.tax.setToolTip(plain.tip("Sales tax on the parts, for the build sheet's order total"))
        self.shipping = QDoubleSpinBox()
        self.shipping.setRange(-0.01, 1_000_000.0)
        self.shipping.setDecimals(2)
        self.shipping.setPrefix("$")
        self.shipping.setSpecialValueText("shipping not stated")
        self.shipping.setKeyboardTracking(False)
        self.shipping.setToolTip(plain.tip("Shipping for the whole order, in US dollars"))
        self.paste_button = QPushButton("Paste PCPartPicker list")
        self.paste_button.setToolTip(
            plain.tip(
                "Add a build made from a PCPartPicker part list on the clipboard (its Markdown "
                "or Text export); File > Import > PCPartPicker List… reads one from a file"
            )
        )
        self.enter_button = QPushButton()
        self.enter_button.setObjectName("enterPrice")
        self.enter_button.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        order = QHBoxLayout()
        order.addWidget(self.paste_button)
        order.addStretch(1)
        order.addWidget(plain.label("Tax"))
        order.addWidget(self.tax)
        order.addWidget(plain.label("Shipping"))
        order.addWidget(self.shipping)
        layout.addLayout(order)
        layout.addWidget(self.total_label, alignment=Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.enter_button, alignment=Qt.AlignmentFlag.AlignRight)
        self._shown: tuple[object, ...] = ()
        self._part_ids: list[str] = []
        self._money = Money("USD")
        self._quotes: dict[str, Quote] = {}
        self._filling = False
        self.table.itemChanged.connect(self._on_table_item_changed)
        self.tax.valueChanged.connect(self._on_order_value_changed)
        self.shipping.valueChanged.connect(self._on_order_value_changed)
        self.enter_button.clicked.connect(self.edit_first_unknown)

    def show_analysis(self, analysis: Analysis, money: Money) -> None:
        build = analysis.build
        for spin, value in ((self.tax, build.tax_pct), (self.shipping, build.shipping_usd)):
            blocked = spin.blockSignals(True)
            spin.setValue(spin.minimum() if value is None else value)
            spin.blockSignals(blocked)
        self._quotes = {q.part_id: q for q in build.quotes}
        key = (analysis.cost.lines, money.currency, build.quotes)
        if key == self._shown:
            return
        self._shown, self._money = key, money
        parts = {part.id: part for _q, part in analysis.build.bill_of_materials()}
        lines = analysis.cost.lines
        self._filling = True
        try:
            if self.table.rowCount() != len(lines):
                self.table.setRowCount(len(lines))
            self._part_ids = [line.part_id for line in lines]
            for row, line in enumerate(lines):
                part = parts.get(line.part_id)
                self._fill_row(row, line, part, money)
        finally:
            self._filling = False
        text = f"Parts total: {total_text(analysis.cost, money)}"
        if money.note():
            text += f"  ({money.note()})"
        self.total_label.setText(text)
        unknown = [line for line in lines if line.unit_usd is None]
        self.enter_button.setVisible(bool(unknown))
        if unknown:
            self.enter_button.setText(f"Enter a price for {unknown[0].name}…")

    def _fill_row(self, row: int, line: PriceLine, part: Part | None, money: Money) -> None:
        stale = f", {stale_text(line)}" if line.stale else ""
        price = (
            ENTER_ONE
            if line.unit_usd is None
            else f"{money(line.unit_usd)} ({line.kind}, {line.as_of}{stale})"
        )
        source = f"{ORIGIN_TEXT[line.origin]}: {line.source}"
        has_used = part is not None and part.used_price is not None
        bought = line.condition if has_used or line.condition == "used" else "new"
        quote = self._quotes.get(line.part_id)
        cells = (
            str(line.quantity),
            line.name,
            key_specs(part) if part is not None else "",
            bought,
            price,
            money(line.line_usd),
            quote.vendor if quote else "",
            quote.reference if quote else "",
            source,
        )
        for column, text in enumerate(cells):
            item = self.table.item(row, column)
            if item is None:
                item = QTableWidgetItem()
                self.table.setItem(row, column, item)
            item.setText(text)
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            if column == PRICE_COLUMN and line.condition == "new":
                flags |= Qt.ItemFlag.ItemIsEditable
            if column in (VENDOR_COLUMN, QUOTE_COLUMN):
                flags |= Qt.ItemFlag.ItemIsEditable
            if column == BOUGHT_COLUMN and (has_used or line.condition == "used"):
                flags |= Qt.ItemFlag.ItemIsUserCheckable
                item.setCheckState(
                    Qt.CheckState.Checked if line.condition == "used" else Qt.CheckState.Unchecked
                )
            item.setFlags(flags)
            tip = text if column in (1, 2, len(COLUMNS) - 1) else ""
            if column in (VENDOR_COLUMN, QUOTE_COLUMN):
                tip = "Double-click to say where this part is bought (shown on the build sheet)"
            if column == PRICE_COLUMN:
                tip = (
                    "No source gives this price; RigForge never counts it as zero. "
                    "Double-click to enter one (kept as your override, in USD)."
                    if line.unit_usd is None
                    else "Double-click to enter your own price (USD)"
                )
            if column == BOUGHT_COLUMN:
                tip = (
                    "Tick to buy it used at its dated used-listing price"
                    if has_used
                    else "No used price is known for this part"
                )
            item.setToolTip(plain.tip(tip))

    def show_again(self, analysis: Analysis) -> None:
        """Redraw every cell (after an entry was refused, the typed text goes away)."""
        self._shown = ()
        self.show_analysis(analysis, self._money)

    def edit_first_unknown(self) -> None:
        """Open the first unknown price for typing (the inline "enter one")."""
        for row in range(self.table.rowCount()):
            item = self.table.item(row, PRICE_COLUMN)
            if item is not None and item.text() == ENTER_ONE:
                self.table.setCurrentItem(item)
                self.table.editItem(item)
                return

    def _on_table_item_changed(self, item: QTableWidgetItem) -> None:
        if self._filling or item.row() >= len(self._part_ids):
            return
        part_id = self._part_ids[item.row()]
        if item.column() == BOUGHT_COLUMN:
            self.used_toggled.emit(part_id, item.checkState() == Qt.CheckState.Checked)
        elif item.column() in (VENDOR_COLUMN, QUOTE_COLUMN):
            vendor = self.table.item(item.row(), VENDOR_COLUMN)
            quote = self.table.item(item.row(), QUOTE_COLUMN)
            self.quote_edited.emit(
                part_id,
                vendor.text() if vendor is not None else "",
                quote.text() if quote is not None else "",
            )
        elif item.column() == PRICE_COLUMN:
            text = item.text().strip().replace(",", "").lstrip("$€£¥ ")
            try:
                amount = float(text)
            except ValueError:
                self.entry_refused.emit(f"{item.text()!r} is not a price in US dollars")
                self._shown = ()
                return
            self.price_entered.emit(part_id, amount)

    def _on_order_value_changed(self, _value: float) -> None:
        tax = None if self.tax.value() == self.tax.minimum() else self.tax.value()
        shipping = (
            None if self.shipping.value() == self.shipping.minimum() else self.shipping.value()
        )
        self.order_edited.emit(tax, shipping)
