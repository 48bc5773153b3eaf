"""The Suggest tab: the optimizer behind a form, with progress, cancel and "open as build"."""

from __future__ import annotations

from typing import get_args

from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.models.session import Session
from core.models.settings import CIRCUITS
from core.models.suggest import (
    MAX_SUGGEST_GPUS,
    PlatformFamily,
    Suggestion,
    SuggestRequest,
    SuggestResult,
)
from core.text.compare import skipped_summary
from core.text.cost import plan_words, reason_text, suggest_lines, system_pick_lines
from core.text.money import USD
from gui.charts.compare_scatter import CompareScatterChart, ScatterPoint
from gui.charts.export_menu import add_export_menu
from gui.viewmodels.suggest import SuggestViewModel
from gui.views import plain

COLUMNS = (
    "Cost",
    "Throughput",
    "Cost per unit",
    "Wall",
    "GPUs",
    "CPU and board",
    "Memory",
    "PSU",
    "Case",
    "Drive",
    "Why",
)


def suggestion_cells(s: Suggestion, *, best: bool) -> tuple[str, ...]:
    """One suggestion's row: figures, then every part (used ones marked), then why."""
    b = s.build
    used = " (used)" if b.is_used(b.gpu) else ""
    drives = ", ".join(f"{d.count}× {d.drive.name}" for d in b.drives)
    plan = plan_words(s)
    return (
        USD(s.cost_usd),
        f"{s.throughput:,.1f} {s.unit}",
        f"${s.usd_per_unit:,.2f}" + (" (best)" if best else ""),
        f"{s.wall_w:,.0f} W",
        f"{b.gpu_count}× {b.gpu.name}{used}" + (f" ({plan})" if plan else ""),
        f"{b.cpu.name}, {b.motherboard.name}",
        f"{b.memory_kits}× {b.memory.name}",
        f"{b.psu_count}× {b.psu.name}" if b.psu else "none",
        b.case.name if b.case else "none",
        drives,
        "; ".join(reason_text(x) for x in s.reasons),
    )


class SuggestPanel(QWidget):
    def __init__(self, view_model: SuggestViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view_model = view_model
        self.budget = QDoubleSpinBox()
        self.budget.setRange(500, 1_000_000)
        self.budget.setSingleStep(1000)
        self.budget.setPrefix("$")
        self.budget.setDecimals(0)
        self.max_gpus = QSpinBox()
        self.max_gpus.setRange(1, MAX_SUGGEST_GPUS)
        self.platform = QComboBox()
        self.platform.addItems(list(get_args(PlatformFamily)))
        self.circuit = QComboBox()
        self.circuit.addItem("the settings' circuit", None)
        for circuit_id in CIRCUITS:
            self.circuit.addItem(circuit_id, circuit_id)
        self.max_wall = QSpinBox()
        self.max_wall.setRange(0, 20_000)
        self.max_wall.setSingleStep(100)
        self.max_wall.setSpecialValueText("no limit")
        self.max_wall.setSuffix(" W")
        self.vram_fit = QCheckBox("the model must fit in VRAM")
        self.allow_used = QCheckBox("include used GPUs (dated used prices)")
        self.allow_checkpointing = QCheckBox("switch on checkpointing when it makes a model fit")
        self.front_size = QSpinBox()
        self.front_size.setRange(1, 100)
        self.min_decode = QDoubleSpinBox()
        self.min_decode.setRange(0, 100_000)
        self.min_decode.setDecimals(1)
        self.min_decode.setSpecialValueText("any")
        self.min_decode.setSuffix(" tokens/s")
        self.min_decode.setToolTip(
            plain.tip("Serving: generation speed every stream must reach (0: any)")
        )
        self.max_ttft = QDoubleSpinBox()
        self.max_ttft.setRange(0, 100_000)
        self.max_ttft.setDecimals(1)
        self.max_ttft.setSpecialValueText("any")
        self.max_ttft.setSuffix(" s")
        self.max_ttft.setToolTip(
            plain.tip("Serving: longest time to the first token allowed (0: any)")
        )
        self.workload_label = plain.label()
        self.workload_label.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Workload", self.workload_label)
        form.addRow("Budget", self.budget)
        form.addRow("At most GPUs", self.max_gpus)
        form.addRow("Platform", self.platform)
        form.addRow("Circuit", self.circuit)
        form.addRow("Wall power at most", self.max_wall)
        form.addRow("Per stream at least", self.min_decode)
        form.addRow("First token within", self.max_ttft)
        form.addRow("", self.vram_fit)
        form.addRow("", self.allow_used)
        form.addRow("", self.allow_checkpointing)
        form.addRow("Builds on the front", self.front_size)
        self.search_button = QPushButton("Search")
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        buttons = QHBoxLayout()
        buttons.addWidget(self.search_button)
        buttons.addWidget(self.cancel_button)
        self.summary = plain.label("Set a budget and constraints, then Search.")
        self.summary.setWordWrap(True)
        side = QWidget()
        column = QVBoxLayout(side)
        column.addLayout(form)
        column.addLayout(buttons)
        column.addWidget(self.progress)
        column.addWidget(self.summary, 1)
        self.chart = CompareScatterChart("Suggested builds: throughput vs total cost")
        add_export_menu(self.chart)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.open_button = QPushButton("Open as build")
        self.open_button.setToolTip(
            plain.tip("Add the selected build to the comparison and edit it")
        )
        results = QWidget()
        results_column = QVBoxLayout(results)
        results_column.setContentsMargins(0, 0, 0, 0)
        results_column.addWidget(self.chart, 3)
        results_column.addWidget(self.table, 2)
        results_column.addWidget(self.open_button)
        splitter = QSplitter()
        splitter.addWidget(side)
        splitter.addWidget(results)
        splitter.setSizes([380, 1200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)
        self._show_request(view_model.request)
        self._on_view_model_running_changed(False)
        self._on_session_changed(view_model.session_view_model.session)
        self.search_button.clicked.connect(self._on_search_button_clicked)
        self.cancel_button.clicked.connect(self.view_model.cancel)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        self.table.itemSelectionChanged.connect(self._on_table_item_selection_changed)
        view_model.running_changed.connect(self._on_view_model_running_changed)
        view_model.progress_changed.connect(self._on_view_model_progress_changed)
        view_model.result_changed.connect(self._on_view_model_result_changed)
        view_model.failed.connect(self._on_view_model_failed)
        view_model.cleared.connect(self._on_view_model_cleared)
        view_model.session_view_model.session_changed.connect(self._on_session_changed)

    def _show_request(self, r: SuggestRequest) -> None:
        self.budget.setValue(r.budget_usd)
        self.max_gpus.setValue(r.max_gpus)
        self.platform.setCurrentText(r.platform)
        self.circuit.setCurrentIndex(max(self.circuit.findData(r.circuit), 0))
        self.max_wall.setValue(int(r.max_wall_w or 0))
        self.vram_fit.setChecked(r.require_vram_fit)
        self.allow_used.setChecked(r.allow_used)
        self.allow_checkpointing.setChecked(r.allow_checkpointing)
        self.front_size.setValue(r.front_size)
        self.min_decode.setValue(r.min_decode_tokens_s or 0.0)
        self.max_ttft.setValue(r.max_ttft_s or 0.0)

    def request(self) -> SuggestRequest:
        return self.view_model.request.model_copy(
            update={
                "budget_usd": self.budget.value(),
                "max_gpus": self.max_gpus.value(),
                "platform": self.platform.currentText(),
                "circuit": self.circuit.currentData(),
                "max_wall_w": float(self.max_wall.value()) or None,
                "require_vram_fit": self.vram_fit.isChecked(),
                "allow_used": self.allow_used.isChecked(),
                "allow_checkpointing": self.allow_checkpointing.isChecked(),
                "front_size": self.front_size.value(),
                "min_decode_tokens_s": self.min_decode.value() or None,
                "max_ttft_s": self.max_ttft.value() or None,
            }
        )

    def _on_search_button_clicked(self) -> None:
        self.summary.setText("Searching…")
        self.view_model.start(self.request())

    def _on_open_button_clicked(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.view_model.open_as_build(rows[0].row())

    def _on_table_item_selection_changed(self) -> None:
        self.open_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    def _on_view_model_running_changed(self, running: bool) -> None:
        self.search_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)

    def _on_view_model_progress_changed(self, share: float) -> None:
        self.progress.setValue(round(share * 100))

    def _on_view_model_cleared(self, message: str) -> None:
        self.table.clearSelection()
        self.table.setRowCount(0)
        self.chart.set_points((), (), "", highlight=None)
        self.open_button.setEnabled(False)
        self.summary.setText(message)

    def _on_view_model_failed(self, message: str) -> None:
        # the message says what happened ("Suggest searches builds for training …", or
        # "search failed: …" for an error nobody foresaw)
        self.summary.setText(message[:1].upper() + message[1:])

    def _on_session_changed(self, session: Session) -> None:
        name = session.workload.name if session.workload else "the default workload"
        self.workload_label.setText(f"{name} (edit it in the Build tab)")
        serving = session.workload is not None and session.workload.is_serving
        why = "" if serving else "applies to serving an LLM (task inference)"
        for box in (self.min_decode, self.max_ttft):
            box.setEnabled(serving)
            box.setStatusTip(why)

    def _on_view_model_result_changed(self, result: SuggestResult) -> None:
        catalog = self.view_model.session_view_model.catalog
        ids = (*result.unpriced_part_ids, *result.unknown_fit_part_ids)
        names = {i: catalog.get(i).name for i in ids if i in catalog}
        lines = suggest_lines(result, names, "Edit → Prices… or a price feed")
        pick_lines = system_pick_lines(result)
        listed = {*pick_lines, "Builds:"}  # the systems come once, after the summary
        head = [ln for ln in lines[:4] if not ln.startswith(("*", " ")) and ln not in listed]
        why_empty = skipped_summary(
            result.evaluated,
            result.skipped.unpriced,
            len(result.unpriced_part_ids),
            "Edit → Prices… (your prices) or a price feed",
        )
        picks = "\n".join(pick_lines)
        shown = [*head, why_empty] if why_empty else head
        self.summary.setText("\n\n".join([*shown, picks] if picks else shown))
        front = result.front
        unit = front[0].unit if front else ""
        best = next((i for i, s in enumerate(front) if result.best == s), None)
        self.chart.set_points(
            tuple(
                # numbered as in the table: two builds may share their GPUs
                ScatterPoint(
                    f"{n}: {s.build.gpu_count}× {s.build.gpu.name}"
                    + (" (used)" if s.build.is_used(s.build.gpu) else ""),
                    s.cost_usd,
                    s.throughput,
                )
                for n, s in enumerate(front, start=1)
            ),
            tuple(range(len(front))),
            unit,
            highlight=best,
        )
        self.table.clearSelection()  # a row of the last search is not a row of this one
        self.table.setRowCount(len(front))
        for r, s in enumerate(front):
            for c, text in enumerate(suggestion_cells(s, best=r == best)):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.open_button.setEnabled(bool(self.table.selectionModel().selectedRows()))
