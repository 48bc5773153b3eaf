"""Help → How accurate is RigForge?: the models' validation figures, per workload and
metric, and predicted against measured for every published run they were checked on."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.errors import RigForgeError
from core.validation.published import accuracy_points, accuracy_rows, overall_error
from core.workloads import find_preset
from gui.views import plain

SERVING = (
    ("LLM generation (llama.cpp)", "290 published rows, 11 GPUs", "3.5 %", "6.7 % (150 held out)"),
    ("LLM prompt processing (llama.cpp)", "290 published rows", "11.6 %", "14.5 % (131 held out)"),
    ("LLM many streams (TensorRT-LLM)", "48 published rows", "12.2 %", "14.6 % (each GPU out)"),
    ("LLM first token (TensorRT-LLM)", "24 published rows", "12.7 %", "19.0 % (another publisher)"),
    ("LLM first token (vLLM)", "17 published runs", "—", "18.5 % (never fitted)"),
    (
        "Speculative decoding (llama.cpp)",
        "17 published speed-ups",
        "13.1 %",
        "16.4 % (a source out)",
    ),
    ("Training, other stacks (timm, NeMo)", "92 published rows", "12.9 %", "—"),
    ("Vision inference (timm, DLE)", "133 published rows", "12.5 %", "12.6 % (80 held out)"),
    ("Fine-tuning memory (LitGPT)", "18 measured peaks", "5.4 %", "—"),
    ("Training memory (torchtitan, LLaMA-Factory)", "14 measured peaks", "8.9 %", "—"),
)
"""Figures of docs/inference-model.md and docs/performance-model.md §5."""


class AccuracyDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("How accurate is RigForge?")
        overall, count = overall_error()
        intro = plain.label(
            f"Every estimate is checked against published measurements. Throughput (eager "
            f"PyTorch, Lambda and NVIDIA DeepLearningExamples): median error {overall:.1f} % "
            f"over {count:,} published runs. Below: the median error per workload, the other "
            "models' figures, and predicted against measured for every run (on the line = "
            "exact). See docs/performance-model.md and docs/inference-model.md."
        )
        intro.setWordWrap(True)
        rows = accuracy_rows()
        self.table = QTableWidget(len(rows) + len(SERVING), 4)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; arrows move in it
        self.table.setHorizontalHeaderLabels(("What", "Checked on", "Median error", "Held out"))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        cells = [
            (f"Throughput: {_preset_name(w)}", f"{n:,} published runs", f"{e:.1f} %", "")
            for w, n, e in rows
        ] + list(SERVING)
        for r, row in enumerate(cells):
            for c, text in enumerate(row):
                cell = QTableWidgetItem(text)
                cell.setToolTip(plain.tip(text))  # the whole text where the column cuts it
                self.table.setItem(r, c, cell)
        self.plot = pg.PlotWidget()
        self.plot.setBackground("w")
        item = self.plot.getPlotItem()
        item.setTitle("Throughput: predicted against measured (log scales)")
        item.setLabel("bottom", "measured")
        item.setLabel("left", "predicted")
        item.setLogMode(x=True, y=True)
        points = [(m, p) for _w, m, p in accuracy_points() if m > 0 and p > 0]
        self.points = points
        if points:
            self.plot.plot(
                [m for m, _ in points],
                [p for _, p in points],
                pen=None,
                symbol="o",
                symbolSize=4,
                symbolBrush=(61, 139, 253, 120),
            )
            low = min(min(m, p) for m, p in points)
            high = max(max(m, p) for m, p in points)
            self.plot.plot(
                [low, high],
                [low, high],
                pen=pg.mkPen((120, 120, 120), width=1, style=Qt.PenStyle.DashLine),
            )
            item.setXRange(math.log10(low), math.log10(high))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        body = QHBoxLayout()
        body.addWidget(self.table, 1)
        body.addWidget(self.plot, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(body, 1)
        layout.addWidget(buttons)
        self.resize(1100, 560)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_rows)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_rows)

    def _fit_rows(self) -> None:
        """Rows as tall as their wrapped text at the columns' width once laid out."""
        self.table.resizeRowsToContents()


def _preset_name(preset_id: str) -> str:
    """The workload as the model picker names it ("BERT-base SQuAD"), not its id."""
    try:
        return str(find_preset(preset_id).name)
    except RigForgeError:
        return preset_id
