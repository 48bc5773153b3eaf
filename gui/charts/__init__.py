"""Reusable pyqtgraph charts of one analysis (main window, build sheet, comparison).

Each chart creates its plot items once and updates them with ``setData`` /
``setOpts`` in ``set_analysis``; nothing is cleared and re-added.
"""

from gui.charts.power import PowerChart
from gui.charts.scaling import ScalingChart
from gui.charts.step_time import StepTimeChart
from gui.charts.vram import VramChart

__all__ = ["PowerChart", "ScalingChart", "StepTimeChart", "VramChart"]
