"""Save a chart as PNG or SVG from its context menu.

PNG goes through pyqtgraph's ``ImageExporter``. SVG is drawn with Qt's
``QSvgGenerator``: pyqtgraph 0.14's ``SVGExporter`` fails on the path data
Qt 6.11 writes (it expects "x,y" pairs and meets bare numbers).
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QMenu

FILTER = {"png": "PNG image (*.png)", "svg": "SVG drawing (*.svg)"}


def export_chart(chart: pg.PlotWidget, path: Path | str) -> Path:
    """Write ``chart`` to ``path``: SVG for a ``.svg`` suffix, else PNG (suffix added)."""
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        path = path.with_suffix(".png")
    item = chart.getPlotItem()
    if path.suffix.lower() == ".svg":
        _export_svg(chart, path)
    else:
        exporter = ImageExporter(item)
        exporter.parameters()["width"] = max(int(chart.width()) * 2, 800)
        exporter.export(str(path))
    return path


def _export_svg(chart: pg.PlotWidget, path: Path) -> None:
    size = QSize(max(chart.width(), 200), max(chart.height(), 160))
    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(size)
    generator.setViewBox(QRect(0, 0, size.width(), size.height()))
    generator.setTitle(chart.getPlotItem().titleLabel.text)
    painter = QPainter(generator)
    try:
        chart.render(painter)
    finally:
        painter.end()


class ChartExportMenu:
    """Adds "Save as PNG…" / "Save as SVG…" to a chart's right-click menu."""

    def __init__(self, chart: pg.PlotWidget) -> None:
        self.chart = chart
        self.menu = QMenu(chart)
        self.png_action = self.menu.addAction("Save chart as PNG…")
        self.svg_action = self.menu.addAction("Save chart as SVG…")
        self.png_action.triggered.connect(self._on_png_action_triggered)
        self.svg_action.triggered.connect(self._on_svg_action_triggered)
        chart.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        chart.customContextMenuRequested.connect(self._on_chart_context_menu_requested)

    def _on_chart_context_menu_requested(self, pos: QPoint) -> None:
        self.menu.popup(self.chart.mapToGlobal(pos))

    def _on_png_action_triggered(self) -> None:
        self._save("png")

    def _on_svg_action_triggered(self) -> None:
        self._save("svg")

    def _save(self, suffix: str) -> None:
        title = self.chart.getPlotItem().titleLabel.text or "chart"
        name = "".join(c if c.isalnum() else "-" for c in title).strip("-").lower()
        chosen, _ = QFileDialog.getSaveFileName(
            self.chart, "Save chart", f"{name}.{suffix}", ";;".join(FILTER.values()), FILTER[suffix]
        )
        if chosen:
            export_chart(self.chart, chosen)


def add_export_menu(chart: pg.PlotWidget) -> ChartExportMenu:
    menu = ChartExportMenu(chart)
    chart._export_menu = menu  # keep it alive as long as the chart
    return menu
