"""The charts of one analysis: two tabbed areas (scaling / step time above, VRAM / power
below), so two charts are readable at once even on a laptop screen.

A chart that is not on screen is not redrawn on every edit: it takes the latest analysis
when its tab is shown (painting a chart costs more than the whole analysis).
"""

from __future__ import annotations

from typing import cast

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from core.models.analysis import Analysis
from gui.charts.base import BaseChart
from gui.charts.inference import ContextChart, StreamsChart
from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.step_time import StepTimeChart
from gui.charts.vram import VramChart

ChartClass = type[
    ScalingChart | StepTimeChart | ContextChart | StreamsChart | VramChart | PowerChart
]

UPPER: tuple[tuple[str, ChartClass, str], ...] = (
    ("scaling", ScalingChart, "Scaling"),
    ("step_time", StepTimeChart, "Step time"),
    ("context", ContextChart, "vs context"),
    ("streams", StreamsChart, "vs streams"),
)
LOWER: tuple[tuple[str, ChartClass, str], ...] = (
    ("vram", VramChart, "VRAM"),
    ("power", PowerChart, "Power"),
)


class ChartsPanel(QWidget):
    """Each chart is made the first time it is shown or asked for: a tab not looked at
    costs nothing at start-up."""

    def __init__(self) -> None:
        super().__init__()
        self.upper_tabs = QTabWidget()
        self.lower_tabs = QTabWidget()
        self._made: dict[str, BaseChart] = {}
        self._slots: dict[str, tuple[QTabWidget, ChartClass, str, QWidget]] = {}
        for tabs, specs in ((self.upper_tabs, UPPER), (self.lower_tabs, LOWER)):
            tabs.setDocumentMode(True)
            for name, cls, title in specs:
                unmade = QWidget()  # the chart replaces it when its tab is first shown
                self._slots[name] = (tabs, cls, title, unmade)
                tabs.addTab(unmade, title)
            tabs.currentChanged.connect(self._on_tab_current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.upper_tabs, 1)
        layout.addWidget(self.lower_tabs, 1)
        self._analysis: Analysis | None = None
        self._drawn: dict[int, Analysis] = {}
        self._serving: bool | None = None
        self._theme: str | None = None
        self._show_kind(False)

    def chart(self, name: str) -> BaseChart:
        """The chart ``name`` (``scaling``, ``vram``…), made and put in its tab if new."""
        made = self._made.get(name)
        if made is not None:
            return made
        tabs, cls, title, unmade = self._slots[name]
        chart = cls()
        if self._theme is not None:
            chart.set_theme(self._theme)
        index = tabs.indexOf(unmade)
        visible, current = tabs.isTabVisible(index), tabs.currentIndex()
        blocked = tabs.blockSignals(True)
        tabs.removeTab(index)
        tabs.insertTab(index, chart, title)
        tabs.setTabVisible(index, visible)
        tabs.setCurrentIndex(current)
        tabs.blockSignals(blocked)
        unmade.deleteLater()
        self._made[name] = chart
        return chart

    @property
    def scaling(self) -> ScalingChart:
        return cast(ScalingChart, self.chart("scaling"))

    @property
    def step_time(self) -> StepTimeChart:
        return cast(StepTimeChart, self.chart("step_time"))

    @property
    def context(self) -> ContextChart:
        return cast(ContextChart, self.chart("context"))

    @property
    def streams(self) -> StreamsChart:
        return cast(StreamsChart, self.chart("streams"))

    @property
    def vram(self) -> VramChart:
        return cast(VramChart, self.chart("vram"))

    @property
    def power(self) -> PowerChart:
        return cast(PowerChart, self.chart("power"))

    def _name(self, widget: QWidget | None) -> str | None:
        return next(
            (n for n, slot in self._slots.items() if widget in (slot[3], self._made.get(n))), None
        )

    def _show_kind(self, serving: bool) -> None:
        """Training charts (scaling, step time) or serving charts (context, streams)."""
        if serving == self._serving:
            return
        self._serving = serving
        tabs = self.upper_tabs
        for name, on in (
            ("scaling", not serving),
            ("step_time", not serving),
            ("context", serving),
            ("streams", serving),
        ):
            widget = self._made.get(name) or self._slots[name][3]
            tabs.setTabVisible(tabs.indexOf(widget), on)
        first = "context" if serving else "scaling"
        tabs.setCurrentWidget(self.chart(first))

    def show_analysis(self, analysis: Analysis) -> None:
        """Draw ``analysis`` on the charts on screen; the others catch up when shown."""
        self._analysis = analysis
        self._show_kind(analysis.inference is not None)
        self._draw_current()

    def _draw_current(self) -> None:
        for tabs in (self.upper_tabs, self.lower_tabs):
            name = self._name(tabs.currentWidget())
            if name is not None:
                self._draw(self.chart(name))

    def _draw(self, chart: BaseChart) -> None:
        analysis = self._analysis
        if analysis is None or self._drawn.get(id(chart)) is analysis:
            return
        self._drawn[id(chart)] = analysis
        if isinstance(chart, PowerChart):
            chart.set_power(analysis.power)
        elif isinstance(
            chart, ScalingChart | StepTimeChart | VramChart | ContextChart | StreamsChart
        ):
            chart.set_analysis(analysis)
        chart.settle()

    def _on_tab_current_changed(self, _index: int) -> None:
        self._draw_current()

    def set_theme(self, theme: str) -> None:
        self._theme = theme
        for chart in self._made.values():
            chart.set_theme(theme)
