"""Searchable part pickers that know the build: a combo box that filters as you type, and
a sortable table of every part of a category with the specs that matter for it.

The picker only shows parts and reports the user's choice; the build editor forwards it
to the view-model. Its owner passes, with the parts, why each one cannot go into the build
(``part id -> reason or None``, computed by the view-model): the combo lists the parts
that fit first and the others after a separator, greyed, with the reason as their tooltip
and not selectable; the table greys them and names the reason in its "Fit" column (there
a user may still take one on purpose, e.g. a CPU of another socket before the board; the
build's checks then say what to change).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QStandardItem,
    QStandardItemModel,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
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
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.models.parts import (
    CPU,
    GPU,
    PSU,
    Case,
    Drive,
    MemoryKit,
    Motherboard,
    Part,
    PowerConnector,
    Riser,
)
from core.text.money import USD
from core.text.parts import UNKNOWN, key_specs
from gui.views import plain

NONE_ID = ""
"""Item data of the "none" entry (optional PSU and case)."""
ANY = "any"
Reasons = Mapping[str, str | None]
"""Why each part (by id) cannot go into the build; ``None`` (or absent): nothing against it."""
Index = QModelIndex | QPersistentModelIndex


def part_label(part: Part) -> str:
    price = USD(part.price.usd)
    return f"{part.name}{' (custom)' if part.custom else ''} — {price}"


def misfit_text(reason: str) -> str:
    return f"Does not fit this build: {reason}"


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


REFRESH_DELAY_MS = 40
"""A build edit refills the pickers' lists (which parts fit) this long after it, once the
results are painted; opening a list or the table, or picking, refills at once."""


class _Combo(QComboBox):
    """A combo box that says when its list is about to be used: opened, or stepped through
    with the keyboard or the mouse wheel (which pick an entry without opening it)."""

    opening = Signal()

    def showPopup(self) -> None:
        self.opening.emit()
        super().showPopup()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.opening.emit()
        super().keyPressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:
        self.opening.emit()
        super().wheelEvent(event)


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
        self._reasons: dict[str, str] = {}
        self._listed: tuple[tuple[str, str | None, float | None], ...] | None = None
        """(id, why it does not fit, price) of each listed part: a new price relabels it."""
        self._current_id: str | None = None
        self._pending: tuple[tuple[Part, ...], Part | None, Callable[[], Reasons]] | None = None
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_DELAY_MS)
        self._refresh.timeout.connect(self.flush)
        self.combo = _Combo()
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
        self.filter_button.setToolTip(
            plain.tip(f"Compare, sort and search every {category}; greyed ones do not fit")
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.combo, 1)
        layout.addWidget(self.filter_button)
        self.combo.activated.connect(self._on_combo_activated)
        self.combo.opening.connect(self.flush)
        self.filter_button.clicked.connect(self._on_filter_button_clicked)
        self.dialog: PartPickerDialog | None = None

    def set_parts(
        self,
        parts: Sequence[Part],
        current: Part | None,
        reasons: Reasons | Callable[[], Reasons] | None = None,
    ) -> None:
        """Fill the list and select ``current`` without emitting a choice.

        ``reasons`` says why a part cannot go into the build: those parts come after the
        ones that fit, greyed and not selectable. The list is rebuilt only when its parts
        or their fit change; otherwise only the current entry moves, so a build edit does
        not repopulate every picker. Given as a function, the reasons are worked out
        ``REFRESH_DELAY_MS`` later (or when the list opens): the current part shows now.
        """
        parts = tuple(parts)
        if callable(reasons):
            self._pending = (parts, current, reasons)
            current_id = current.id if current is not None else NONE_ID
            index = self.combo.findData(current_id)
            listed = tuple((i, usd) for i, _r, usd in self._listed or ())
            if index < 0 or listed != tuple((p.id, p.price.usd) for p in parts):
                self.flush()
                return
            if self.combo.currentIndex() != index:
                blocked = self.combo.blockSignals(True)
                self.combo.setCurrentIndex(index)
                self.combo.blockSignals(blocked)
            self._refresh.start()
            return
        self._pending = None
        self._show(parts, current, reasons)

    def flush(self) -> None:
        """Work out a pending refill now (before the list is read or opened)."""
        self._refresh.stop()
        if self._pending is not None:
            parts, current, reasons = self._pending
            self._pending = None
            self._show(parts, current, reasons())

    def _show(self, parts: tuple[Part, ...], current: Part | None, reasons: Reasons | None) -> None:
        if current is not None and all(p.id != current.id for p in parts):
            parts = (current, *parts)
        found = reasons or {}
        misfits = {p.id: r for p in parts if (r := found.get(p.id)) is not None}
        listed = tuple((p.id, misfits.get(p.id), p.price.usd) for p in parts)
        current_id = current.id if current is not None else NONE_ID
        blocked = self.combo.blockSignals(True)
        try:
            if listed != self._listed:
                self._listed = listed
                self._parts, self._reasons = parts, misfits
                self._current_id = None
                self._fill()
            if current_id != self._current_id or self.combo.currentData() != current_id:
                self._current_id = current_id
                self.combo.setCurrentIndex(max(self.combo.findData(current_id), 0))
                tip = f"{part_label(current)}\n{key_specs(current)}" if current else self.none_text
                if current is not None and current.id in self._reasons:
                    tip = f"{misfit_text(self._reasons[current.id])}\n{tip}"
                self.combo.setToolTip(plain.tip(tip))
            edit = self.combo.lineEdit()
            if edit is not None:
                edit.setCursorPosition(0)  # show a long name's start, not its end
        finally:
            self.combo.blockSignals(blocked)

    def _fill(self) -> None:
        self.combo.clear()
        if self.optional:
            self.combo.addItem(self.none_text, NONE_ID)
        fitting = [p for p in self._parts if p.id not in self._reasons]
        misfits = [p for p in self._parts if p.id in self._reasons]
        for part in fitting:
            self._add(part, None)
        if misfits:
            self.combo.insertSeparator(self.combo.count())
        for part in misfits:
            self._add(part, self._reasons[part.id])
        view = self.combo.view()
        view.setMinimumWidth(min(view.sizeHintForColumn(0) + 24, 560))

    def _add(self, part: Part, reason: str | None) -> None:
        self.combo.addItem(part_label(part), part.id)
        row = self.combo.count() - 1
        tip = f"{part_label(part)}\n{key_specs(part)}"
        if reason is not None:
            tip = f"{misfit_text(reason)}\n{tip}"
            item = cast(QStandardItemModel, self.combo.model()).item(row)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
        self.combo.setItemData(row, plain.tip(tip), Qt.ItemDataRole.ToolTipRole)

    def current_id(self) -> str | None:
        data = self.combo.currentData()
        return None if data in (None, NONE_ID) else str(data)

    def reason(self, part_id: str) -> str | None:
        """Why ``part_id`` does not fit the build (``None``: nothing known against it)."""
        self.flush()
        return self._reasons.get(part_id)

    def selectable(self, index: int) -> bool:
        """Whether the combo's entry ``index`` can be picked from the list (parts that do
        not fit and the separator cannot)."""
        self.flush()
        return bool(
            self.combo.model().flags(self.combo.model().index(index, 0)) & Qt.ItemFlag.ItemIsEnabled
        )

    def choose(self, part_id: str | None) -> None:
        """Pick ``part_id`` on purpose, as the table dialog does (and tests): unlike the
        combo's own list, this takes a part that does not fit too."""
        self.flush()
        index = self.combo.findData(part_id or NONE_ID)
        if index >= 0:
            self.combo.setCurrentIndex(index)
            self.part_chosen.emit(part_id or None)

    def _on_combo_activated(self, index: int) -> None:
        # the entry the user reached, by id: a pending refill may reorder the list
        data = self.combo.itemData(index)
        if self._pending is not None:
            self.flush()
            index = self.combo.findData(data)
        if index < 0 or not self.selectable(index):
            # typed and completed, or reached with the keyboard: a misfit is not taken here
            blocked = self.combo.blockSignals(True)
            self.combo.setCurrentIndex(max(self.combo.findData(self._current_id or NONE_ID), 0))
            self.combo.blockSignals(blocked)
            return
        self.part_chosen.emit(None if data in (None, NONE_ID) else str(data))

    def make_dialog(self) -> PartPickerDialog:
        """The table of this picker's parts, with their fit (the "…" button opens it)."""
        self.flush()
        self.dialog = PartPickerDialog(self.category, self._parts, self, reasons=self._reasons)
        return self.dialog

    def _on_filter_button_clicked(self) -> None:
        dialog = self.make_dialog()
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.chosen_id:
            self.choose(dialog.chosen_id)


# -- the table dialog ------------------------------------------------------------------------

Cell = tuple[str, float | str | None]
"""A table cell: its text and its sort key (``None``: unknown, always sorted last)."""

ID_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole
FIT_ROLE = Qt.ItemDataRole.UserRole + 2
"""On a row's first cell: 0 when the part fits the build, 1 when it does not."""


def _digits(value: float) -> int:
    return 0 if value == round(value) or abs(value) >= 100 else 1


def _number(value: float | None, unit: str = "", digits: int | None = None) -> Cell:
    if value is None:
        return UNKNOWN, None
    shown = f"{value:,.{_digits(value) if digits is None else digits}f}"
    return f"{shown} {unit}".rstrip(), float(value)


def _text(value: str | None) -> Cell:
    return (UNKNOWN, None) if value is None else (value, value.casefold())


def _price(part: Part) -> Cell:
    return USD(part.price.usd), part.price.usd


def _per(part: Part, amount: float | None) -> Cell:
    """Price per unit of ``amount``: unknown when either is unknown."""
    price = part.price.usd
    if price is None or amount is None or amount <= 0:
        return UNKNOWN, None
    value = price / amount
    return USD(value, 2 if value < 100 else 0), value


def tensor_16bit_tflops(gpu: GPU) -> float | None:
    """Dense 16-bit tensor peak with FP32 accumulate: the higher of FP16 and BF16."""
    known = [v for v in (gpu.tensor_tflops.fp16, gpu.tensor_tflops.bf16) if v is not None]
    return max(known) if known else None


def sixteen_pin_leads(psu: PSU) -> int | None:
    """12V-2x6 / 12VHPWR leads (the same cable); unknown unless the source lists them.

    ATX 2.x units have none by definition (``core.models.parts.PSU.connectors``).
    """
    leads = psu.connectors
    if leads is None:
        return None
    listed = [leads[c] for c in ("12v_2x6", "12vhpwr") if c in leads]
    if listed:
        return sum(listed)
    return 0 if psu.atx_version == "2.x" else None


def _listed(psu: PSU, kind: PowerConnector) -> int | None:
    leads = psu.connectors
    return None if leads is None or kind not in leads else leads[kind]


PRICE = ("Price", "New price in USD; unknown where no source gives one")
SPEC_HEADERS: dict[str, tuple[tuple[str, str], ...]] = {
    "gpu": (
        ("VRAM", "Memory on the card"),
        ("Bandwidth", "Memory bandwidth"),
        ("16-bit TFLOPS", "Dense tensor FP16/BF16 peak, FP32 accumulate (the higher of the two)"),
        ("Power", "Board power"),
        ("Slots", "Expansion slots the card covers"),
        PRICE,
        ("$/GB VRAM", "Price per GB of VRAM"),
        ("$/TFLOPS", "Price per 16-bit tensor TFLOPS"),
    ),
    "cpu": (
        ("Socket", "CPU socket"),
        ("Cores", "Cores"),
        ("Threads", "Threads"),
        ("PCIe lanes", "Usable CPU PCIe lanes"),
        ("Memory", "Memory channels and types"),
        ("Max memory", "Most memory the CPU addresses"),
        ("Power", "Base power (TDP)"),
        PRICE,
    ),
    "motherboard": (
        ("Socket", "CPU socket"),
        ("Chipset", "Chipset"),
        ("Form factor", "Board form factor"),
        ("Memory", "Memory type and module kind"),
        ("DIMM slots", "Memory slots"),
        ("x16 slots", "Slots a full-length GPU fits in"),
        ("Max memory", "Most memory the board holds"),
        PRICE,
    ),
    "memory": (
        ("Capacity", "Capacity of the kit"),
        ("Modules", "Modules in the kit"),
        ("Type", "Memory type and module kind"),
        ("Speed", "Rated transfer rate"),
        ("ECC", "Error-correcting modules"),
        PRICE,
        ("$/GB", "Price per GB"),
    ),
    "drive": (
        ("Capacity", "Capacity as marketed (decimal)"),
        ("Interface", "Interface"),
        ("Form factor", "Form factor"),
        ("Read", "Sequential read"),
        PRICE,
        ("$/TB", "Price per TB"),
    ),
    "psu": (
        ("Watts", "Rated output"),
        ("Efficiency", "Efficiency rating"),
        ("ATX", "ATX version"),
        ("12V-2x6", "16-pin GPU leads (12V-2x6 or 12VHPWR); unknown where no source lists them"),
        ("8-pin", "8-pin PCIe GPU leads; unknown where no source lists them"),
        PRICE,
    ),
    "case": (
        ("Kind", "Tower, rack chassis or open frame"),
        ("Boards", "Board form factors it takes"),
        ("GPU length", "Longest card it takes"),
        ("Slots", "Rear expansion slots (open frames: GPU mounts)"),
        PRICE,
    ),
    "riser": (
        ("PCIe", "Highest PCIe generation the cable is rated for"),
        ("Lanes", "Lanes"),
        ("Length", "Cable length"),
        PRICE,
    ),
}


def _gpu_cells(g: GPU) -> tuple[Cell, ...]:
    tflops = tensor_16bit_tflops(g)
    return (
        _number(g.vram_gib, "GB"),
        _number(g.memory_bandwidth_gb_s, "GB/s"),
        _number(tflops),
        _number(g.board_power_w, "W"),
        _number(g.slot_width),
        _price(g),
        _per(g, g.vram_gib),
        _per(g, tflops),
    )


def _cpu_cells(c: CPU) -> tuple[Cell, ...]:
    memory = f"{c.memory_channels}-ch {'/'.join(c.memory_types)}"
    return (
        _text(c.socket),
        _number(c.cores),
        _number(c.threads),
        _number(c.pcie_lanes),
        (memory, memory.casefold()),
        _number(c.max_memory_gib, "GB"),
        _number(c.base_power_w, "W"),
        _price(c),
    )


def _board_cells(b: Motherboard) -> tuple[Cell, ...]:
    x16 = sum(s.physical_lanes == 16 for s in b.pcie_slots)
    return (
        _text(b.socket),
        _text(b.chipset),
        _text(b.form_factor),
        _text(f"{b.memory_type} {'/'.join(b.dimm_types)}"),
        _number(b.memory_slots),
        _number(x16),
        _number(b.max_memory_gib, "GB"),
        _price(b),
    )


def _memory_cells(m: MemoryKit) -> tuple[Cell, ...]:
    return (
        _number(m.capacity_gib, "GB"),
        (f"{m.modules} × {_number(m.module_gib, 'GB')[0]}", float(m.modules)),
        _text(f"{m.memory_type} {m.dimm_type}"),
        _number(m.speed_mt_s, "MT/s"),
        ("yes", 1.0) if m.ecc else ("no", 0.0),
        _price(m),
        _per(m, m.capacity_gib),
    )


def _drive_cells(d: Drive) -> tuple[Cell, ...]:
    gen = f" Gen{d.pcie_gen}" if d.pcie_gen else ""
    return (
        _number(d.capacity_gb / 1000, "TB", 1),
        _text(f"{d.interface.upper()}{gen}"),
        _text(d.form_factor),
        _number(d.seq_read_mb_s, "MB/s"),
        _price(d),
        _per(d, d.capacity_gb / 1000),
    )


def _psu_cells(p: PSU) -> tuple[Cell, ...]:
    return (
        _number(p.wattage_w, "W"),
        _text(p.efficiency_rating),
        (p.atx_version, p.atx_version),
        _number(sixteen_pin_leads(p)),
        _number(_listed(p, "pcie_8pin")),
        _price(p),
    )


def _case_cells(c: Case) -> tuple[Cell, ...]:
    slots = c.gpu_mounts if c.kind == "open_frame" else c.expansion_slots
    return (
        _text(c.kind.replace("_", " ")),
        _text("/".join(c.motherboard_form_factors)),
        _number(c.max_gpu_length_mm, "mm"),
        _number(slots),
        _price(c),
    )


def _riser_cells(r: Riser) -> tuple[Cell, ...]:
    return (
        (f"{r.pcie_gen}.0", float(r.pcie_gen)),
        _number(r.lanes),
        _number(r.length_mm, "mm"),
        _price(r),
    )


def spec_cells(part: Part) -> tuple[Cell, ...]:
    """The category's spec cells of ``part`` (as ``SPEC_HEADERS`` names them)."""
    cells: dict[type[Part], Callable[[Part], tuple[Cell, ...]]] = {
        GPU: lambda p: _gpu_cells(cast(GPU, p)),
        CPU: lambda p: _cpu_cells(cast(CPU, p)),
        Motherboard: lambda p: _board_cells(cast(Motherboard, p)),
        MemoryKit: lambda p: _memory_cells(cast(MemoryKit, p)),
        Drive: lambda p: _drive_cells(cast(Drive, p)),
        PSU: lambda p: _psu_cells(cast(PSU, p)),
        Case: lambda p: _case_cells(cast(Case, p)),
        Riser: lambda p: _riser_cells(cast(Riser, p)),
    }
    for kind, make in cells.items():
        if isinstance(part, kind):
            return make(part)
    return ((key_specs(part), key_specs(part).casefold()), _price(part))


def headers(category: str) -> tuple[tuple[str, str], ...]:
    """(title, tooltip) of every column: the part, its category's specs, its fit."""
    specs = SPEC_HEADERS.get(category, (("Key specs", "The specs a buyer compares first"), PRICE))
    return (
        ("Part", "Name"),
        *specs,
        ("Fit", "Why the part cannot go into the build as it stands (empty: it fits)"),
    )


class PartTableFilter(QSortFilterProxyModel):
    """Shows the parts the filters let through; sorts numbers as numbers, parts that fit
    before those that do not, and unknown values after known ones in either order."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.shown: set[str] | None = None
        self.setSortRole(SORT_ROLE)

    def show_only(self, ids: set[str]) -> None:
        self.beginFilterChange()
        self.shown = ids
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if self.shown is None:
            return True
        part_id = self.sourceModel().index(source_row, 0, source_parent).data(ID_ROLE)
        return part_id in self.shown

    def lessThan(self, left: Index, right: Index) -> bool:
        model = self.sourceModel()
        ascending = self.sortOrder() == Qt.SortOrder.AscendingOrder
        fit_left = model.index(left.row(), 0).data(FIT_ROLE)
        fit_right = model.index(right.row(), 0).data(FIT_ROLE)
        if fit_left != fit_right:  # parts that fit first, whichever the order
            return bool(fit_left < fit_right) == ascending
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if a is None and b is None:
            return False
        if a is None or b is None:  # unknown last, whichever the order
            return (b is None) == ascending
        return bool(a < b)


class PartTable(QTableView):
    def rowCount(self) -> int:
        """Rows shown (after the filters)."""
        model = self.model()
        return 0 if model is None else model.rowCount()


class PartPickerDialog(QDialog):
    """Every part of a category in a sortable table with the specs that matter for it,
    text search and filters; parts that do not fit the build are greyed, with the reason."""

    def __init__(
        self,
        category: str,
        parts: Sequence[Part],
        parent: QWidget | None = None,
        *,
        reasons: Reasons | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Choose a {category}")
        self.resize(1040, 560)
        self.category = category
        self.reasons = {k: v for k, v in (reasons or {}).items() if v is not None}
        fitting = [p for p in parts if p.id not in self.reasons]
        self.parts = (*fitting, *(p for p in parts if p.id in self.reasons))
        self.columns = headers(category)
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
        self.model = QStandardItemModel(0, len(self.columns), self)
        self._fill_model()
        self.proxy = PartTableFilter(self)
        self.proxy.setSourceModel(self.model)
        self.table = PartTable()
        self.table.setModel(self.proxy)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # fitting parts first
        self.table.setSortingEnabled(True)
        self.note = plain.label(
            f"{len(self.parts) - len(fitting)} greyed: they do not fit the build as it stands "
            "(see Fit); "
            "choosing one anyway leaves a failing check to fix."
        )
        self.note.setVisible(len(fitting) < len(self.parts))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.note)
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

    def _fill_model(self) -> None:
        for column, (title, tip) in enumerate(self.columns):
            self.model.setHeaderData(column, Qt.Orientation.Horizontal, title)
            self.model.setHeaderData(
                column, Qt.Orientation.Horizontal, plain.tip(tip), Qt.ItemDataRole.ToolTipRole
            )
        grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        specs = len(self.columns) - 2
        for part in self.parts:
            reason = self.reasons.get(part.id)
            name = f"{part.name}{' (custom)' if part.custom else ''}"
            cells = spec_cells(part)[:specs]
            cells += (("", None),) * (specs - len(cells))
            fit: Cell = ("", "") if reason is None else (reason, reason.casefold())
            tip = f"{part.price.source}\nSources: {'; '.join(part.sources)}"
            if reason is not None:
                tip = f"{misfit_text(reason)}\n{tip}"
            row: list[QStandardItem] = []
            for text, key in ((name, name.casefold()), *cells, fit):
                item = QStandardItem(text)
                item.setData(key, SORT_ROLE)
                item.setData(plain.tip(tip), Qt.ItemDataRole.ToolTipRole)
                item.setEditable(False)
                if reason is not None:
                    item.setForeground(grey)
                row.append(item)
            row[0].setData(part.id, ID_ROLE)
            row[0].setData(0 if reason is None else 1, FIT_ROLE)
            self.model.appendRow(row)

    # -- reading the table (the dialog's own use and tests) ----------------------------

    def column(self, title: str) -> int:
        return next(i for i, (t, _tip) in enumerate(self.columns) if t == title)

    def cell(self, row: int, title: str) -> str:
        return str(self.proxy.index(row, self.column(title)).data())

    def greyed(self, row: int) -> bool:
        return bool(self.proxy.index(row, 0).data(FIT_ROLE) == 1)

    # -- filters ------------------------------------------------------------------------

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
        self.proxy.show_only({p.id for p in self.visible_parts()})
        if self.proxy.rowCount():
            self.table.selectRow(0)

    def accept(self) -> None:
        index = self.table.currentIndex()
        part_id = self.proxy.index(index.row(), 0).data(ID_ROLE) if index.isValid() else None
        self.chosen_id = None if part_id is None else str(part_id)
        super().accept()
