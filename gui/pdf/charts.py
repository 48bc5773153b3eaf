"""Chart images for the sheet, drawn by the app's own chart widgets.

Each chart is created offscreen, given the same data the window gives it,
resized to a fixed size and rendered at twice that size (device pixel ratio 2)
so lines and labels stay crisp in print while the layout keeps on-screen
proportions (axis labels are not blown up as in a 300 dpi vector render).
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from gui.charts.base import BaseChart
from gui.charts.cost_bars import CostBar, CostBarsChart
from gui.charts.inference import ContextChart, StreamsChart
from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.vram import VramChart
from gui.pdf.model import BuildSheet, SheetBuild

CHART_SIZE = QSize(620, 250)
"""Width fits A4 and Letter inside the 2 cm print margins (about 640 px at 96 dpi)."""
SCALE = 2.0


def render_chart(chart: BaseChart, size: QSize = CHART_SIZE) -> QImage:
    """Draw ``chart`` laid out at ``size`` into an image ``SCALE`` times larger.

    The scene is rendered (vector) straight into the larger image, so text and lines
    are sharp; a plain ``grab()`` would give on-screen pixels only.
    """
    chart.set_theme("light")  # paper is white whatever the window's theme
    chart.resize(size)
    # Lay out and apply pending view ranges, as a paint on screen would.
    QApplication.sendPostedEvents()
    QApplication.processEvents()
    width, height = int(size.width() * SCALE), int(size.height() * SCALE)
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    source = chart.mapToScene(chart.viewport().rect()).boundingRect()
    chart.scene().render(painter, QRectF(0, 0, width, height), source)
    painter.end()
    return image


class ChartRenderer:
    """Holds one widget per chart kind and reuses it for every build (set data, render)."""

    def __init__(self) -> None:
        self.scaling = ScalingChart()
        self.vram = VramChart()
        self.power = PowerChart()
        self.cost_bars = CostBarsChart()
        self.context = ContextChart()
        self.streams = StreamsChart()
        for chart in self._charts():
            # Shown but never on screen: the plots need a real layout pass to draw.
            chart.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen)
            chart.resize(CHART_SIZE)
            chart.show()

    def _charts(self) -> tuple[BaseChart, ...]:
        return (self.scaling, self.vram, self.power, self.cost_bars, self.context, self.streams)

    def build_charts(self, build: SheetBuild) -> dict[str, QImage]:
        images: dict[str, QImage] = {}
        if build.analysis.throughput is not None and len(build.analysis.throughput.scaling) > 1:
            self.scaling.set_analysis(build.analysis)
            images["scaling"] = render_chart(self.scaling)
        inference = build.analysis.inference
        if inference is not None:  # LLM serving: generation against context and streams
            speed = inference.speed
            for key, chart, points in (
                ("context", self.context, speed.by_context),
                ("streams", self.streams, speed.by_streams),
            ):
                if len(points) > 1:
                    chart.set_analysis(build.analysis)
                    images[key] = render_chart(chart, QSize(CHART_SIZE.width(), 220))
        if build.analysis.vram is not None or inference is not None:
            self.vram.set_analysis(build.analysis)
            images["vram"] = render_chart(self.vram, QSize(CHART_SIZE.width(), 170))
        self.power.set_power(build.power)
        images["power"] = render_chart(self.power)
        return images

    def cost_chart(self, sheet: BuildSheet) -> QImage | None:
        """Cost per unit of throughput (serving: of generation speed) of every build that
        has one, or ``None``."""
        bars, labels, unit = [], [], ""
        for build in sheet.builds:
            value = build.analysis.cost.per_throughput_usd
            if value is None:
                continue  # no throughput, or an unknown total: no bar (never zero)
            bars.append(CostBar(build.name, sheet.money.amount(value), True))
            labels.append(sheet.money(value, 2))
            unit = build.analysis.cost.throughput_unit or ""
        if not bars:
            return None
        self.cost_bars.set_bars(bars, unit, labels, sheet.money.currency)
        height = cost_chart_height(len(bars))
        return render_chart(self.cost_bars, QSize(CHART_SIZE.width(), height))

    def close(self) -> None:
        for chart in self._charts():
            chart.hide()
            chart.deleteLater()


def cost_chart_height(bars: int) -> int:
    """Pixel height of the comparison's cost bars: title and axis, then a row per bar
    (compact, so that the chart stays on the summary page under the table)."""
    return 56 + 26 * bars
