"""Shared look of the charts: one palette per theme and a titled plot widget."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView, QWidget

SERIES_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#9c755f",
    "#ff9da7",
    "#bab0ac",
    "#1f5f5b",
)
"""Tableau 10 and a dark teal: one colour for each of the step-time chart's eleven parts."""
THEMES = {
    "light": {"background": "#ffffff", "foreground": "#303030", "limit": "#c0392b"},
    "dark": {"background": "#1e1f22", "foreground": "#d8d8d8", "limit": "#ff6b5b"},
}


LEGEND_SPACING = 10
"""Pixels between legend columns (the legend's ``horSpacing``)."""
LABEL_PADDING = 8
"""Pixels a legend label adds around its text."""
LEGEND_MARGIN = 24
"""The plot's side margins and the legend's own padding, in pixels."""


class BaseChart(pg.PlotWidget):  # type: ignore[misc]
    """A plot with a title, no mouse zoom (charts are read, not explored), and a theme."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self._title = title
        self.legend: pg.LegendItem | None = None
        self._legend_columns = 1
        self.setMinimumSize(200, 160)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        # No grid lines by default: an axis draws them across the whole plot, which
        # doubles the paint time of every chart whose range changes on an edit.
        self.getPlotItem().setContentsMargins(2, 2, 14, 2)  # room for the last tick label
        # Axes, title and legend are text-heavy and change far less often than the
        # data: cache them as pixmaps so a repaint blits them instead of re-laying out
        # every tick label (most of a chart's paint time before).
        plot = self.getPlotItem()
        for item in (plot.getAxis("left"), plot.getAxis("bottom"), plot.titleLabel):
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # The charts draw no shapes that need the painter restored between items or
        # antialiasing margins around them: skipping both shortens every repaint.
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.theme = "light"
        self.set_theme("light")

    def set_theme(self, theme: str) -> None:
        colours = THEMES.get(theme, THEMES["light"])
        self.theme = theme
        self.setBackground(colours["background"])
        plot = self.getPlotItem()
        plot.setTitle(self._title, color=colours["foreground"], size="9pt")
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(colours["foreground"])
            axis.setTextPen(colours["foreground"])
            axis.setStyle(tickFont=self._tick_font())
            axis.label.setDefaultTextColor(pg.mkColor(colours["foreground"]))
        if self.legend is not None:
            self.legend.setLabelTextColor(colours["foreground"])
            # pyqtgraph keeps an existing label's colour until its text is set again
            for _sample, label in self.legend.items:
                label.setText(label.text, color=colours["foreground"])

    def _tick_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(8.0)
        return font

    def add_legend_below(self, columns: int) -> pg.LegendItem:
        """A legend under the x axis, outside the data area, so it never covers a bar."""
        legend = pg.LegendItem(
            colCount=columns,
            horSpacing=LEGEND_SPACING,
            verSpacing=-6,
            labelTextColor=THEMES.get(self.theme, THEMES["light"])["foreground"],
        )
        legend.setLabelTextSize("8pt")
        # it sits in the plot's layout, not over the data: it scales with the chart like
        # the axes (a print render at twice the size drew it at half size otherwise)
        legend.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, False)
        self.getPlotItem().layout.addItem(legend, 4, 1)
        legend.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.legend = legend
        self._legend_columns = columns
        return legend

    def legend_columns_for(self, width: float) -> int:
        """As many of the legend's columns as fit ``width`` pixels (at least one): a
        narrow chart stacks its legend rather than cutting its labels off."""
        if self.legend is None or not self.legend.items:
            return 1
        # the label's text item: the label itself stretches to its layout cell
        widest = max(
            sample.boundingRect().width() + label.item.boundingRect().width() + LABEL_PADDING
            for sample, label in self.legend.items
        )
        step = widest + LEGEND_SPACING
        fit = int((width + LEGEND_SPACING) // step) if step > 0 else 1
        return max(1, min(self._legend_columns, fit))

    def fit_legend(self) -> None:
        """Give the legend as many columns as the chart's width holds (after a resize, or
        after its entries change)."""
        legend = self.__dict__.get("legend")  # absent while pyqtgraph builds the widget
        if legend is not None and legend.items and self.getPlotItem() is not None:
            axis = self.getPlotItem().getAxis("left")
            width = self.width() - axis.width() - LEGEND_MARGIN
            legend.setColumnCount(self.legend_columns_for(width))

    def resizeEvent(self, event: QResizeEvent | None) -> None:
        super().resizeEvent(event)  # pyqtgraph calls it with no event while building
        self.fit_legend()

    def set_range(
        self, x: tuple[float, float] | None = None, y: tuple[float, float] | None = None
    ) -> None:
        """Set the view range only when it changes (each change re-lays out the axis)."""
        shown = getattr(self, "_range", {})
        plot = self.getPlotItem()
        if x is not None and shown.get("x") != x:
            plot.setXRange(*x, padding=0)
            shown["x"] = x
        if y is not None and shown.get("y") != y:
            plot.setYRange(*y, padding=0)
            shown["y"] = y
        self._range = shown

    def settle(self) -> None:
        """Apply new ranges now rather than at the next paint: pyqtgraph otherwise moves
        its view while painting and paints the chart a second time."""
        self.getPlotItem().getViewBox().prepareForPaint()

    @property
    def limit_colour(self) -> str:
        return THEMES.get(self.theme, THEMES["light"])["limit"]


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k not below ``value``.

    Axis ranges snap to these so a small change in the data keeps the axis (and its
    cached tick labels) as they are; only the bars move.
    """
    if value <= 0:
        return 1.0
    scale = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0):
        if value <= step * scale * (1 + 1e-9):
            return step * scale
    return 10.0 * scale


def bar_labels(chart: BaseChart, labels: list[str]) -> None:
    """Name the rows of a horizontal bar chart on its left axis (top row first)."""
    ticks = [(float(len(labels) - 1 - i), text) for i, text in enumerate(labels)]
    chart.getPlotItem().getAxis("left").setTicks([ticks, []])
