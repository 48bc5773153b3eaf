"""Results: summary cards on top; checks, breakdowns, parts and cost in tabs below."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.models.analysis import Analysis
from core.text.cost import cost_lines
from core.text.inference import decode_rows, serving_memory_rows
from core.text.summary import Figure, summary_figures, with_published
from core.text.throughput import STEP_PARTS, result_lines, step_scope_text
from core.text.vram import VRAM_PARTS
from gui.viewmodels.analysis import AnalysisViewModel
from gui.viewmodels.settings import AppSettings, SettingsViewModel
from gui.views import plain
from gui.views.checks_panel import ChecksPanel
from gui.views.parts_panel import PartsPanel
from gui.views.summary_cards import SummaryCardsPanel
from gui.views.verdict_banner import VerdictBanner


def _table(columns: tuple[str, ...]) -> QTableWidget:
    table = QTableWidget(0, len(columns))
    table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
    table.setHorizontalHeaderLabels(columns)
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    rows = table.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    return table


def fill_table(table: QTableWidget, rows: Sequence[tuple[str, ...]]) -> None:
    """Show ``rows``, reusing the items already there (an edit only changes texts)."""
    if table.rowCount() != len(rows):
        table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            item = table.item(r, c)
            if item is None:
                table.setItem(r, c, QTableWidgetItem(text))
            elif item.text() != text:
                item.setText(text)


class ResultsPanel(QWidget):
    def __init__(self, view_model: AnalysisViewModel, settings: SettingsViewModel) -> None:
        super().__init__()
        self._vm = view_model
        self._settings = settings
        self.banner = VerdictBanner()
        self.cards = SummaryCardsPanel()
        self.checks = ChecksPanel()
        self.step_table = _table(("Step time", "ms", "share"))
        self.vram_table = _table(("VRAM per GPU", "GiB", "share"))
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.launch = QLineEdit()
        self.launch.setReadOnly(True)
        self.launch.setToolTip(
            plain.tip(
                "The engine command line this plan assumes: point the weights file at your download"
            )
        )
        self.copy_launch = QPushButton("Copy")
        self.copy_launch.setToolTip(plain.tip("Copy the launch command to the clipboard"))
        self.copy_launch.clicked.connect(self._on_copy_launch_clicked)
        self.launch_row = QWidget()
        row = QHBoxLayout(self.launch_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(plain.label("Launch:"))
        row.addWidget(self.launch, 1)
        row.addWidget(self.copy_launch)
        self.launch_row.hide()
        breakdowns = QWidget()
        inner = QVBoxLayout(breakdowns)
        inner.setContentsMargins(0, 0, 0, 0)
        inner.addWidget(self.launch_row)
        inner.addWidget(self.step_table)
        inner.addWidget(self.vram_table)
        self.parts_panel = PartsPanel()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.checks, "Checks")
        self.tabs.addTab(breakdowns, "Breakdowns")
        self.tabs.addTab(self.parts_panel, "Parts")
        self.tabs.addTab(self.details, "Cost && details")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.cards)
        layout.addWidget(self.tabs, 1)
        self.checks.fix_requested.connect(self._on_checks_fix_requested)
        self.banner.fix_requested.connect(self._on_checks_fix_requested)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        view_model.analysis_changed.connect(self._on_view_model_analysis_changed)
        settings.settings_changed.connect(self._on_settings_changed)
        self._on_view_model_analysis_changed(view_model.analysis)

    def _on_settings_changed(self, settings: AppSettings) -> None:
        self.checks.set_theme(settings.theme)
        self._on_view_model_analysis_changed(self._vm.analysis)

    def _on_view_model_analysis_changed(self, analysis: Analysis) -> None:
        money = self._settings.money
        figures = summary_figures(analysis, money)
        if self._vm.published_ready():
            figures = self._with_published(analysis, figures)
        else:  # the published runs are read once, after the window has painted
            QTimer.singleShot(0, self, lambda: self._show_published(analysis))
        self.cards.show_figures(figures)
        applicable = tuple(self._vm.can_apply(c) for c in analysis.checks)
        fixable = next(
            (
                ok
                for c, ok in zip(analysis.checks, applicable, strict=True)
                if c.severity == "fail" and c.fix is not None and c.fix.applicable
            ),
            False,
        )
        self.banner.show_analysis(analysis, fixable)
        self.checks.set_checks(analysis.checks, applicable)
        self._show_breakdowns(analysis)
        self.parts_panel.show_analysis(analysis, money)
        if self.tabs.currentWidget() is self.details:
            self._show_details(analysis)

    def _with_published(self, analysis: Analysis, figures: list[Figure]) -> list[Figure]:
        note = self._vm.published_note(analysis)
        if note is None:
            return figures
        return [with_published(f, *note) if f.key == "throughput" else f for f in figures]

    def _show_published(self, analysis: Analysis) -> None:
        if analysis is self._vm.analysis:
            figures = summary_figures(analysis, self._settings.money)
            self.cards.show_figures(self._with_published(analysis, figures))

    def _on_copy_launch_clicked(self) -> None:
        QGuiApplication.clipboard().setText(self.launch.text())

    def _show_breakdowns(self, analysis: Analysis) -> None:
        served = analysis.inference
        command = served.launch_command if served is not None else None
        self.launch.setText(command or "")
        self.launch.setCursorPosition(0)
        self.launch_row.setVisible(command is not None)
        if served is not None:  # a served LLM: its decode step and its memory
            fill_table(self.step_table, decode_rows(served.speed))
            self.step_table.setToolTip(
                plain.tip(
                    "One decode step makes one token for every stream (milliseconds); the "
                    "first token comes after the prompt and one step."
                )
            )
            fill_table(self.vram_table, serving_memory_rows(served.memory))
            return
        t = analysis.throughput
        rows: list[tuple[str, ...]] = []
        if t is not None:
            step = t.breakdown.step_s
            for field, label in STEP_PARTS:
                value = getattr(t.breakdown, field)
                rows.append((label, f"{value * 1e3:.2f}", f"{value / step:.0%}"))
            scope = "micro-batch" if step_scope_text(analysis.workload) else "step"
            rows.append((scope, f"{step * 1e3:.2f}", "100%"))
        fill_table(self.step_table, rows)
        self.step_table.setToolTip(plain.tip(step_scope_text(analysis.workload)))
        rows = []
        v = analysis.vram
        if v is not None:
            for field, label in VRAM_PARTS:
                value = getattr(v.breakdown, field)
                rows.append((label, f"{value:.2f}", f"{value / v.total_gib:.0%}"))
            rows.append(("total", f"{v.total_gib:.2f}", f"of {v.capacity_gib:.1f} GiB"))
        fill_table(self.vram_table, rows)

    def _show_details(self, analysis: Analysis) -> None:
        money = self._settings.money
        lines = cost_lines(analysis.cost, money)
        if money.note():
            lines.append(money.note())
        if analysis.throughput is not None:
            lines += ["", *result_lines(analysis.throughput, analysis.workload)]
        text = "\n".join(lines)
        if text != self.details.toPlainText():
            self.details.setPlainText(text)

    def _on_tabs_current_changed(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.details:
            self._show_details(self._vm.analysis)

    def _on_checks_fix_requested(self, check: object) -> None:
        self._vm.apply_fix(check)  # type: ignore[arg-type]
