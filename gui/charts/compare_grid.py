"""The four comparison charts in a grid, all drawn from one ``ComparisonState``."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QWidget

from core.text.money import USD, Money
from gui.charts.compare_cost_bars import CompareCostBarsChart, CostBar
from gui.charts.compare_limits import CompareLimitsChart, LimitBar
from gui.charts.compare_scaling import CompareScalingChart, ScalingSeries
from gui.charts.compare_scatter import CompareScatterChart, ScatterPoint
from gui.charts.export_menu import add_export_menu
from gui.viewmodels.comparison import ComparisonState


class CompareChartsGrid(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cost_bars = CompareCostBarsChart()
        self.scatter = CompareScatterChart()
        self.scaling = CompareScalingChart()
        self.limits = CompareLimitsChart()
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        for i, chart in enumerate(self.charts):
            grid.addWidget(chart, i // 2, i % 2)
            add_export_menu(chart)

    @property
    def charts(
        self,
    ) -> tuple[
        CompareCostBarsChart | CompareScatterChart | CompareScalingChart | CompareLimitsChart, ...
    ]:
        return (self.cost_bars, self.scatter, self.scaling, self.limits)

    def show_state(self, state: ComparisonState, money: Money = USD) -> None:
        names = state.names
        self.scatter.set_points(
            tuple(
                ScatterPoint(
                    names[i],
                    money.amount(a.cost.parts.total_usd or 0.0),
                    a.throughput.total_throughput,
                    colour=i,  # the build's colour in every chart
                )
                for i, a in enumerate(state.analyses)
                if i in _plotted(state) and a.throughput is not None
            ),
            _reindex(state),
            state.unit,
            highlight=_position(state, state.shown),
            currency=money.currency,
        )
        bars = []
        for i, a in enumerate(state.analyses):
            per_unit = a.cost.per_throughput_usd
            if per_unit is not None:
                bars.append(CostBar(names[i], per_unit, True, i))
        self.cost_bars.set_bars(tuple(bars), state.unit, money)
        self.scaling.set_series(
            tuple(
                ScalingSeries(
                    names[i],
                    tuple(float(p.gpus) for p in a.throughput.scaling),
                    tuple(p.total_throughput for p in a.throughput.scaling),
                    float(a.throughput.gpus),
                )
                if a.throughput is not None
                else ScalingSeries(names[i], (), ())
                for i, a in enumerate(state.analyses)
            ),
            state.unit,
        )
        self.limits.set_bars(
            tuple(
                LimitBar(
                    names[i],
                    a.vram.total_gib / a.vram.capacity_gib if a.vram else None,
                    None if p.wall_w is None else p.wall_w / p.circuit_continuous_w,
                )
                for i, (a, p) in enumerate((a, a.power) for a in state.analyses)
            )
        )

    def set_theme(self, theme: str) -> None:
        for chart in self.charts:
            chart.set_theme(theme)


def _plotted(state: ComparisonState) -> list[int]:
    """Builds with a throughput and a known total (an unknown price has no place on the
    cost axis; the table says which builds are left out)."""
    return [
        i
        for i, a in enumerate(state.analyses)
        if a.throughput is not None and a.cost.parts.total_usd is not None
    ]


def _position(state: ComparisonState, index: int) -> int | None:
    known = _plotted(state)
    return known.index(index) if index in known else None


def _reindex(state: ComparisonState) -> tuple[int, ...]:
    """The front as positions among the plotted points."""
    known = _plotted(state)
    return tuple(known.index(i) for i in state.front if i in known)
