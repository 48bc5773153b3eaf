"""Shared look of the charts: one palette per theme and a titled plot widget."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

SERIES_COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#9c755f",
)
THEMES = {
    "light": {"background": "#ffffff", "foreground": "#303030", "limit": "#c0392b"},
    "dark": {"background": "#1e1f22", "foreground": "#d8d8d8", "limit": "#ff6b5b"},
}


class BaseChart(pg.PlotWidget):  # type: ignore[misc]
    """A plot with a title, no mouse zoom (charts are read, not explored), and a theme."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent=parent)
        self._title = title
        self.setMinimumSize(200, 160)
        self.setMenuEnabled(False)
        self.setMouseEnabled(x=False, y=False)
        self.hideButtons()
        self.getPlotItem().showGrid(x=True, y=False, alpha=0.25)
        self.theme = "light"
        self.set_theme("light")

    def set_theme(self, theme: str) -> None:
        colours = THEMES.get(theme, THEMES["light"])
        self.theme = theme
        self.setBackground(colours["background"])
        plot = self.getPlotItem()
        plot.setTitle(self._title, color=colours["foreground"], size="10pt")
        for name in ("left", "bottom"):
            axis = plot.getAxis(name)
            axis.setPen(colours["foreground"])
            axis.setTextPen(colours["foreground"])

    @property
    def limit_colour(self) -> str:
        return THEMES.get(self.theme, THEMES["light"])["limit"]


def bar_labels(chart: BaseChart, labels: list[str]) -> None:
    """Name the rows of a horizontal bar chart on its left axis (top row first)."""
    ticks = [(float(len(labels) - 1 - i), text) for i, text in enumerate(labels)]
    chart.getPlotItem().getAxis("left").setTicks([ticks, []])
