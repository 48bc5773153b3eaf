"""The charts of one analysis: two tabbed areas (scaling / step time above, VRAM / power
below), so two charts are readable at once even on a laptop screen.

A chart that is not on screen is not redrawn on every edit: it takes the latest analysis
when its tab is shown (painting a chart costs more than the whole analysis).
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from core.models.analysis import Analysis
from gui.charts.base import BaseChart
from gui.charts.inference import ContextChart, StreamsChart
from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.step_time import StepTimeChart
from gui.charts.vram import VramChart


class ChartsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.scaling = ScalingChart()
        self.step_time = StepTimeChart()
        self.vram = VramChart()
        self.power = PowerChart()
        self.context = ContextChart()
        self.streams = StreamsChart()
        self.upper_tabs = QTabWidget()
        self.lower_tabs = QTabWidget()
        for tabs, charts in (
            (
                self.upper_tabs,
                (
                    (self.scaling, "Scaling"),
                    (self.step_time, "Step time"),
                    (self.context, "vs context"),
                    (self.streams, "vs streams"),
                ),
            ),
            (self.lower_tabs, ((self.vram, "VRAM"), (self.power, "Power"))),
        ):
            tabs.setDocumentMode(True)
            for chart, title in charts:
                tabs.addTab(chart, title)
            tabs.currentChanged.connect(self._on_tab_current_changed)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.upper_tabs, 1)
        layout.addWidget(self.lower_tabs, 1)
        self._analysis: Analysis | None = None
        self._drawn: dict[int, Analysis] = {}
        self._serving: bool | None = None
        self._show_kind(False)

    @property
    def charts(self) -> tuple[BaseChart, ...]:
        return (self.scaling, self.step_time, self.context, self.streams, self.vram, self.power)

    def _show_kind(self, serving: bool) -> None:
        """Training charts (scaling, step time) or serving charts (context, streams)."""
        if serving == self._serving:
            return
        self._serving = serving
        tabs = self.upper_tabs
        for chart, on in (
            (self.scaling, not serving),
            (self.step_time, not serving),
            (self.context, serving),
            (self.streams, serving),
        ):
            tabs.setTabVisible(tabs.indexOf(chart), on)
        first = self.context if serving else self.scaling
        tabs.setCurrentWidget(first)

    def show_analysis(self, analysis: Analysis) -> None:
        """Draw ``analysis`` on the charts on screen; the others catch up when shown."""
        self._analysis = analysis
        self._show_kind(analysis.inference is not None)
        for tabs in (self.upper_tabs, self.lower_tabs):
            chart = tabs.currentWidget()
            if isinstance(chart, BaseChart):
                self._draw(chart)

    def _draw(self, chart: BaseChart) -> None:
        analysis = self._analysis
        if analysis is None or self._drawn.get(id(chart)) is analysis:
            return
        self._drawn[id(chart)] = analysis
        if chart is self.power:
            self.power.set_power(analysis.power)
        elif isinstance(
            chart, ScalingChart | StepTimeChart | VramChart | ContextChart | StreamsChart
        ):
            chart.set_analysis(analysis)
        chart.settle()

    def _on_tab_current_changed(self, _index: int) -> None:
        for tabs in (self.upper_tabs, self.lower_tabs):
            chart = tabs.currentWidget()
            if isinstance(chart, BaseChart):
                self._draw(chart)

    def set_theme(self, theme: str) -> None:
        for chart in self.charts:
            chart.set_theme(theme)
