"""The four charts of one analysis stacked in a column (wide enough for their legends)."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from core.models.analysis import Analysis
from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.step_time import StepTimeChart
from gui.charts.vram import VramChart


class ChartsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.scaling = ScalingChart()
        self.vram = VramChart()
        self.power = PowerChart()
        self.step_time = StepTimeChart()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        # stretch by content: eight step-time rows, three power rows, one VRAM bar
        for chart, stretch in (
            (self.scaling, 3),
            (self.step_time, 3),
            (self.vram, 2),
            (self.power, 3),
        ):
            layout.addWidget(chart, stretch)

    def show_analysis(self, analysis: Analysis) -> None:
        self.scaling.set_analysis(analysis)
        self.vram.set_analysis(analysis)
        self.step_time.set_analysis(analysis)
        self.power.set_power(analysis.power)

    def set_theme(self, theme: str) -> None:
        for chart in (self.scaling, self.vram, self.power, self.step_time):
            chart.set_theme(theme)
