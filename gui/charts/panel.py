"""The charts of one analysis: two tabbed areas (scaling / step time above, VRAM / power
below), so two charts are readable at once even on a laptop screen.

A chart that is not on screen is not redrawn on every edit: it takes the latest analysis
when its tab is shown (painting a chart costs more than the whole analysis).
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from core.models.analysis import Analysis
from gui.charts.base import BaseChart
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
        self.upper_tabs = QTabWidget()
        self.lower_tabs = QTabWidget()
        for tabs, charts in (
            (self.upper_tabs, ((self.scaling, "Scaling"), (self.step_time, "Step time"))),
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

    @property
    def charts(self) -> tuple[BaseChart, ...]:
        return (self.scaling, self.step_time, self.vram, self.power)

    def show_analysis(self, analysis: Analysis) -> None:
        """Draw ``analysis`` on the charts on screen; the others catch up when shown."""
        self._analysis = analysis
        for tabs in (self.upper_tabs, self.lower_tabs):
            chart = tabs.currentWidget()
            if isinstance(chart, BaseChart):
                self._draw(chart)

    def draw_all(self) -> None:
        """Bring every chart up to date (for export and tests)."""
        for chart in self.charts:
            self._draw(chart)

    def _draw(self, chart: BaseChart) -> None:
        analysis = self._analysis
        if analysis is None or self._drawn.get(id(chart)) is analysis:
            return
        self._drawn[id(chart)] = analysis
        if chart is self.power:
            self.power.set_power(analysis.power)
        elif isinstance(chart, ScalingChart | StepTimeChart | VramChart):
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
