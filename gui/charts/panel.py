"""The four charts of one analysis in a 2×2 grid, kept in step with a view-model."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QWidget

from core.calc.analysis import Analysis
from core.models.power import PowerBudget
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
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.scaling, 0, 0)
        layout.addWidget(self.step_time, 0, 1)
        layout.addWidget(self.vram, 1, 0)
        layout.addWidget(self.power, 1, 1)

    def show_analysis(self, analysis: Analysis, power: PowerBudget) -> None:
        self.scaling.set_analysis(analysis)
        self.vram.set_analysis(analysis)
        self.step_time.set_analysis(analysis)
        self.power.set_power(power)

    def set_theme(self, theme: str) -> None:
        for chart in (self.scaling, self.vram, self.power, self.step_time):
            chart.set_theme(theme)
